/* lib/unitdir: which way a unit is better, and the speedup and history
 * states read the right way round for a time (issue 33). */
#include <criterion/criterion.h>
#include <math.h>

#include "trend.h"
#include "unitdir.h"

Test(unitdir, rates_are_higher_times_lower)
{
    const char *const rates[] = {"samples/s", "images/s", "sequences/s",
                                 "tokens/s",  "GB/s",     "TFLOP/s"};
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        cr_expect_eq(pr_unitdir_of(rates[i]), PR_DIR_HIGHER, "%s", rates[i]);
    /* MLPerf's score (profile mllog), step times, latencies. */
    const char *const times[] = {"min", "s", "ms", "s/step", "ms/step"};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        cr_expect_eq(pr_unitdir_of(times[i]), PR_DIR_LOWER, "%s", times[i]);
        cr_expect(pr_unitdir_lower(times[i]), "%s", times[i]);
    }
}

Test(unitdir, unknown_is_said_not_guessed)
{
    cr_expect_eq(pr_unitdir_of("furlongs/fortnight"), PR_DIR_UNKNOWN);
    cr_expect_eq(pr_unitdir_of(NULL), PR_DIR_UNKNOWN);
    cr_expect_eq(pr_unitdir_of(""), PR_DIR_UNKNOWN);
    /* Exact: "Min" or "min " is not a unit the table knows. */
    cr_expect_eq(pr_unitdir_of("Min"), PR_DIR_UNKNOWN);
    cr_expect_str_eq(pr_unitdir_word(PR_DIR_UNKNOWN), "unknown");
    cr_expect_str_eq(pr_unitdir_word(PR_DIR_HIGHER), "higher");
    cr_expect_str_eq(pr_unitdir_word(PR_DIR_LOWER), "lower");
}

Test(unitdir, best_and_speedup_the_right_way_round)
{
    cr_expect(pr_unitdir_better(PR_DIR_LOWER, 5.0, 6.0));
    cr_expect(!pr_unitdir_better(PR_DIR_LOWER, 6.0, 5.0));
    cr_expect(pr_unitdir_better(PR_DIR_HIGHER, 6.0, 5.0));
    cr_expect(pr_unitdir_better(PR_DIR_UNKNOWN, 6.0, 5.0));
    /* 40 min at 1 GPU, 5 min at 8: t1/tn = 8, not 0.125. */
    cr_expect_float_eq(pr_unitdir_speedup(PR_DIR_LOWER, 5.0, 40.0), 8.0, 1e-12);
    cr_expect_float_eq(pr_unitdir_speedup(PR_DIR_HIGHER, 800.0, 100.0), 8.0, 1e-12);
    cr_expect(isnan(pr_unitdir_speedup(PR_DIR_LOWER, 0.0, 40.0)));
    cr_expect(isnan(pr_unitdir_speedup(PR_DIR_HIGHER, 1.0, -1.0)));
}

Test(unitdir, history_a_rising_time_is_a_regression)
{
    /* Judged on the values a rise is "improvement"; for a time it is the
     * regression, and the other states stay. */
    double x[] = {10.0, 10.1, 9.9, 10.0, 10.05, 12.5, 12.6, 12.55};
    size_t n = sizeof x / sizeof x[0];
    double v[8];
    for (size_t i = 0; i < n; i++)
        v[i] = log(x[i]);
    pr_trend_state st[8];
    pr_trend_judge(v, n, NULL, 0, 0.05, st, NULL, NULL);
    cr_assert_eq(st[5], PR_TREND_IMPROVEMENT);
    cr_expect_eq(pr_trend_state_lower(st[5]), PR_TREND_REGRESSION);
    cr_expect_eq(pr_trend_state_lower(PR_TREND_REGRESSION), PR_TREND_IMPROVEMENT);
    cr_expect_eq(pr_trend_state_lower(PR_TREND_OK), PR_TREND_OK);
    cr_expect_eq(pr_trend_state_lower(PR_TREND_SUSPECT), PR_TREND_SUSPECT);
    cr_expect_eq(pr_trend_state_lower(PR_TREND_OUTLIER), PR_TREND_OUTLIER);
}
