/* lib/stats: the reducers behind every published figure. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "stats.h"

#define EPS 1e-12

Test(stats, mean)
{
    double v[] = {1, 2, 3, 4};
    cr_expect_float_eq(pr_stats_mean(v, 4), 2.5, EPS);
    cr_expect_float_eq(pr_stats_mean(v, 1), 1.0, EPS);
    cr_expect_float_eq(pr_stats_mean(v, 0), 0.0, EPS);
}

Test(stats, median_odd_and_even)
{
    double odd[] = {5, 1, 3};
    cr_expect_float_eq(pr_stats_median(odd, 3), 3.0, EPS);
    double even[] = {4, 1, 3, 2};
    cr_expect_float_eq(pr_stats_median(even, 4), 2.5, EPS);
    double one[] = {7};
    cr_expect_float_eq(pr_stats_median(one, 1), 7.0, EPS);
    /* The DLPerf 1n1g runs: the median of five per-run means is 321.8. */
    double runs[] = {323.9, 321.8, 320.18, 322.25, 321.22};
    cr_expect_float_eq(pr_stats_median(runs, 5), 321.8, EPS);
}

Test(stats, min_max)
{
    double v[] = {3, -1, 8, 2};
    cr_expect_float_eq(pr_stats_min(v, 4), -1.0, EPS);
    cr_expect_float_eq(pr_stats_max(v, 4), 8.0, EPS);
}

Test(stats, trim_count_is_max_of_fraction_and_min)
{
    /* max(int(0.05 * n), 5) */
    cr_expect_eq(pr_stats_trim_count(78, 0.05, 5), 5);  /* int(3.9) = 3 < 5 */
    cr_expect_eq(pr_stats_trim_count(100, 0.05, 5), 5); /* 5 */
    cr_expect_eq(pr_stats_trim_count(119, 0.05, 5), 5); /* int(5.95) = 5 */
    cr_expect_eq(pr_stats_trim_count(120, 0.05, 5), 6); /* 6 */
    cr_expect_eq(pr_stats_trim_count(1000, 0.1, 0), 100);
    cr_expect_eq(pr_stats_trim_count(7, 0.0, 1), 1); /* MLPerf's olympic mean */
}

Test(stats, trimmed_mean_drops_from_each_end)
{
    /* 12 values, min 5 from each end would leave 2: {6, 7}. */
    double v[] = {12, 1, 11, 2, 10, 3, 9, 4, 8, 5, 7, 6};
    double out = 0;
    size_t dropped = 0;
    pr_err e;
    cr_assert_eq(pr_stats_trimmed_mean(v, 12, 0.05, 5, &out, &dropped, &e), 0);
    cr_expect_float_eq(out, 6.5, EPS);
    cr_expect_eq(dropped, 10);
}

Test(stats, trimmed_mean_outliers_do_not_count)
{
    double v[] = {100, 100, 100, 1, 1e9};
    double out = 0;
    pr_err e;
    cr_assert_eq(pr_stats_trimmed_mean(v, 5, 0.0, 1, &out, NULL, &e), 0);
    cr_expect_float_eq(out, 100.0, EPS);
}

Test(stats, trimmed_mean_that_leaves_nothing_fails)
{
    double v[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    double out = -1;
    pr_err e;
    memset(&e, 0, sizeof e);
    cr_expect_eq(pr_stats_trimmed_mean(v, 10, 0.05, 5, &out, NULL, &e), -1);
    cr_expect_float_eq(out, -1.0, EPS, "no number may come out of a failed trim");
    cr_expect(strstr(e.msg, "leaves nothing") != NULL, "message: %s", e.msg);
    /* 11 values: one is left. */
    double w[] = {1, 2, 3, 4, 5, 42, 7, 8, 9, 10, 11};
    cr_expect_eq(pr_stats_trimmed_mean(w, 11, 0.05, 5, &out, NULL, &e), 0);
    cr_expect_float_eq(out, 7.0, EPS); /* sorted: 1..5,7,8,... middle is 7 */
}

Test(stats, round_like_python)
{
    cr_expect_float_eq(pr_stats_round(323.902, 2), 323.90, EPS);
    cr_expect_float_eq(pr_stats_round(2.675, 2), 2.67, EPS); /* 2.67499999... in binary */
    cr_expect_float_eq(pr_stats_round(0.125, 2), 0.12, EPS); /* exact tie: to even */
    cr_expect_float_eq(pr_stats_round(-1.005, 2), -1.0, EPS);
    cr_expect_float_eq(pr_stats_round(1e300, 2), 1e300, 1e285);
    cr_expect(isnan(pr_stats_round(NAN, 2)));
}

/* The one rule of `parse --fit` and the audit: rounded as printf rounds,
 * else cut at the printed decimals (exactly, not after rounding at a few
 * more digits), else different. */
Test(stats, printed_match)
{
    cr_expect_eq(pr_stats_printed_match(3019.3613826, "3019.361"), PR_PRINTED_ROUNDED);
    cr_expect_eq(pr_stats_printed_match(428.2, "0428"), PR_PRINTED_ROUNDED);
    cr_expect_eq(pr_stats_printed_match(6.1358, "6.13"), PR_PRINTED_TRUNCATED);
    /* 96.0399999996 cut at 2 decimals is 96.03: rounding it at 8 first would say 96.04 */
    cr_expect_eq(pr_stats_printed_match(96.0399999996, "96.03"), PR_PRINTED_TRUNCATED);
    cr_expect_eq(pr_stats_printed_match(817.28, "816.9"), PR_PRINTED_DIFFERS);
    cr_expect_eq(pr_stats_printed_match(1.0, "1e0"), PR_PRINTED_DIFFERS);
    cr_expect_eq(pr_stats_printed_match(NAN, "1"), PR_PRINTED_DIFFERS);
}
