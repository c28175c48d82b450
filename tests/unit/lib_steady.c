/* lib/steady: the steady window and its stability on synthetic series
 * (warm-up, teardown, bimodal, steady, too short, noisy) and on the
 * shipped --threads runs (run from the repository root). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "jdoc.h"
#include "steady.h"

/* A deterministic wobble of ±amp around level: no random numbers. */
static double wobble(size_t i, double level, double amp)
{
    return level * (1 + amp * sin(1.7 * (double)i + 0.3));
}

Test(steady, flat_run_is_steady_from_its_first_step)
{
    double x[40];
    for (size_t i = 0; i < 40; i++)
        x[i] = wobble(i, 1000, 0.01);
    pr_steady s;
    pr_steady_series(x, 40, &s);
    cr_assert_eq(s.verdict, PR_STEADY_STEADY);
    cr_expect_str_eq(s.reason, "");
    cr_expect_eq(s.last, 40);
    cr_expect_leq(s.first, 3);
    cr_expect_lt(s.cv, 0.01);
    cr_expect_eq(s.regime_at, 0);
}

Test(steady, warmup_is_detected_not_assumed)
{
    /* 7 slow steps (compilation, cudnn autotuning), then 43 steady ones */
    double x[50];
    for (size_t i = 0; i < 50; i++)
        x[i] = i < 7 ? 200 + 50 * (double)i : wobble(i, 1000, 0.02);
    pr_steady s;
    pr_steady_series(x, 50, &s);
    cr_assert_eq(s.verdict, PR_STEADY_STEADY, "verdict %d reason %s", s.verdict, s.reason);
    cr_expect_eq(s.first, 8, "window from step %zu", s.first);
    cr_expect_eq(s.last, 50);
    cr_expect_eq(s.n, 43);
}

Test(steady, long_run_uses_mser5_batches)
{
    /* 400 steps, 23 of warm-up: MSER-5 cuts whole batches of 5 */
    static double x[400];
    for (size_t i = 0; i < 400; i++)
        x[i] = i < 23 ? 100 : wobble(i, 6000, 0.01);
    pr_steady s;
    pr_steady_series(x, 400, &s);
    cr_assert_eq(s.verdict, PR_STEADY_STEADY);
    cr_expect_eq((s.first - 1) % 5, 0, "cut %zu is not a batch boundary", s.first - 1);
    cr_expect_geq(s.first, 24);
    cr_expect_leq(s.first, 26);
}

Test(steady, final_step_far_outside_is_teardown)
{
    /* NGC PyTorch's last iteration: 423 images/s among ~6000 */
    double x[60];
    for (size_t i = 0; i < 60; i++)
        x[i] = wobble(i, 6000, 0.01);
    x[59] = 423;
    pr_steady s;
    pr_steady_series(x, 60, &s);
    cr_assert_eq(s.verdict, PR_STEADY_STEADY);
    cr_expect_eq(s.last, 59);
    cr_expect_lt(s.cv, 0.02);
    /* a last step within the spread stays */
    x[59] = 6010;
    pr_steady_series(x, 60, &s);
    cr_expect_eq(s.last, 60);
}

Test(steady, bimodal_run_is_a_regime_change)
{
    /* the shape of --threads 2 r3: six steps at 1-1.5, six at 10-11 */
    double x[] = {0.93, 1.22, 1.31, 1.41, 1.46, 1.47, 10.26, 10.25, 9.83, 10.3, 10.86, 10.76};
    pr_steady s;
    pr_steady_series(x, 12, &s);
    cr_assert_eq(s.verdict, PR_STEADY_UNSTEADY);
    cr_expect_str_eq(s.reason, "regime_change");
    cr_expect_eq(s.regime_at, 7);
    cr_expect_gt(s.regime_ratio, 7);
    cr_expect_eq(s.first, 1, "the warm-up does not end in the first half: the whole run");
}

Test(steady, small_shift_in_a_long_run_is_a_regime_change)
{
    /* 100 steps at 1000, then 100 at 880: CV 6 %, under the 10 % limit,
     * but two regimes 12 % apart */
    static double x[200];
    for (size_t i = 0; i < 200; i++)
        x[i] = wobble(i, i < 100 ? 1000 : 880, 0.01);
    pr_steady s;
    pr_steady_series(x, 200, &s);
    cr_assert_eq(s.verdict, PR_STEADY_UNSTEADY);
    cr_expect_str_eq(s.reason, "regime_change");
    cr_expect_eq(s.regime_at, 101);
    cr_expect_lt(s.cv, PR_STEADY_CV_MAX);
    /* 5 % apart is within the minimum effect: steady */
    for (size_t i = 100; i < 200; i++)
        x[i] = wobble(i, 950, 0.01);
    pr_steady_series(x, 200, &s);
    cr_expect_eq(s.verdict, PR_STEADY_STEADY);
}

Test(steady, noisy_run_is_unsteady_by_cv)
{
    double x[30];
    for (size_t i = 0; i < 30; i++)
        x[i] = i % 2 ? 100 : 140;
    pr_steady s;
    pr_steady_series(x, 30, &s);
    cr_assert_eq(s.verdict, PR_STEADY_UNSTEADY);
    cr_expect_str_eq(s.reason, "cv");
    cr_expect_gt(s.cv, PR_STEADY_CV_MAX);
}

Test(steady, too_short_to_judge)
{
    double x[] = {5, 50, 5, 50, 5};
    pr_steady s;
    pr_steady_series(x, 5, &s);
    cr_expect_eq(s.verdict, PR_STEADY_TOO_SHORT);
    cr_expect_str_eq(s.reason, "too_few_steps");
    pr_steady_series(x, 0, &s);
    cr_expect_eq(s.verdict, PR_STEADY_UNKNOWN);
}

Test(steady, same_series_same_answer)
{
    double x[] = {0.82, 2.08, 3.02, 3.32, 3.02, 5.92, 5.19, 5.09, 4.93, 6.88, 8.96, 6.6};
    pr_steady a, b;
    pr_steady_series(x, 12, &a);
    pr_steady_series(x, 12, &b);
    cr_expect_eq(memcmp(&a, &b, sizeof a), 0);
}

/* ------------------------------------------------ records and traces */

static json_t *steady_of(const char *path)
{
    json_error_t je;
    json_t *r = json_load_file(path, 0, &je);
    cr_assert(r, "%s: %s", path, je.text);
    json_t *s = pr_steady_of_trace(json_object_get(r, "step_trace"));
    json_decref(r);
    return s;
}

#define THREADS "data/runs/2026-11-26-cpu-resnet50-threads"
#define CASE "/logs/index/clas_ResNet50_sp_bs8_fp32_1"

Test(steady, shipped_threads2_runs_r2_r3_r4_are_unsteady)
{
    static const char *const unsteady[] = {"_r2_speed", "_r3_speed", "_r4_speed"};
    for (size_t i = 0; i < 3; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s2%s%s", THREADS, CASE, unsteady[i]);
        json_t *s = steady_of(path);
        cr_expect_eq(pr_steady_verdict_of(s), PR_STEADY_UNSTEADY, "%s", path);
        json_decref(s);
    }
    json_t *s = steady_of(THREADS "2" CASE "_r3_speed");
    cr_expect_eq(json_integer_value(json_object_get(s, "regime_step")), 7);
    cr_expect_str_eq(json_string_value(json_object_get(s, "reason")), "regime_change");
    json_decref(s);
    s = steady_of(THREADS "2" CASE "_r2_speed");
    cr_expect_str_eq(json_string_value(json_object_get(s, "reason")), "cv");
    cr_expect_gt(json_real_value(json_object_get(s, "cv")), 0.2);
    json_decref(s);
    s = steady_of(THREADS "2" CASE "_r5_speed");
    cr_expect_eq(pr_steady_verdict_of(s), PR_STEADY_STEADY);
    json_decref(s);
}

Test(steady, shipped_threads1_runs_are_steady)
{
    static const char *const runs[] = {"_speed", "_r2_speed", "_r3_speed", "_r4_speed",
                                       "_r5_speed"};
    for (size_t i = 0; i < 5; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s1%s%s", THREADS, CASE, runs[i]);
        json_t *s = steady_of(path);
        cr_expect_eq(pr_steady_verdict_of(s), PR_STEADY_STEADY, "%s", path);
        json_decref(s);
    }
}

Test(steady, binned_trace_counts_records)
{
    /* 2 records a point: the window and the regime step in records */
    json_t *vals = json_array();
    char status[41];
    for (size_t i = 0; i < 40; i++) {
        json_array_append_new(
            vals, json_real(i < 20 ? 100.0 + (double)(i % 3) : 300.0 + (double)(i % 3)));
        status[i] = 'X';
    }
    status[40] = '\0';
    json_t *t = json_pack("{s:i,s:s,s:f,s:[{s:i,s:i,s:f,s:o,s:s}]}", "version", 1, "scale",
                          "as_read", "factor", 1.0, "runs", "records", 80, "bin", 2, "value", 200.0,
                          "values", vals, "status", status);
    json_t *s = pr_steady_of_trace(t);
    cr_assert(s);
    cr_expect_eq(json_integer_value(json_object_get(s, "steps")), 80);
    cr_expect_eq(json_integer_value(json_object_get(s, "regime_step")), 41);
    cr_expect_eq(json_integer_value(json_object_get(s, "last")), 80);
    json_decref(s);
    json_decref(t);
    cr_expect_null(pr_steady_of_trace(NULL));
}

static int check_text(const char *text, pr_err *err)
{
    pr_jdoc *doc = NULL;
    int rc = pr_jdoc_parse("s.json", text, strlen(text), &doc, err);
    if (rc == 0) {
        pr_jdoc_jcur root = pr_jdoc_root(doc);
        rc = pr_steady_check(&root, err);
    }
    pr_jdoc_free(doc);
    return rc;
}

Test(steady, record_object_is_checked)
{
    pr_err err;
    cr_expect_eq(check_text("{\"verdict\":\"steady\",\"reason\":\"\",\"steps\":12,\"first\":2,"
                            "\"last\":12,\"n\":11,\"cv\":0.04}",
                            &err),
                 0, "%s", err.msg);
    cr_expect_eq(check_text("{\"verdict\":\"unsteady\",\"reason\":\"regime_change\",\"steps\":12,"
                            "\"first\":1,\"last\":12,\"n\":12,\"cv\":0.8,\"regime_step\":7,"
                            "\"regime_ratio\":7.98}",
                            &err),
                 0, "%s", err.msg);
    cr_expect_eq(check_text("{\"verdict\":\"steady\",\"reason\":\"cv\",\"steps\":12,\"first\":2,"
                            "\"last\":12,\"n\":11,\"cv\":0.04}",
                            &err),
                 -1);
    cr_expect(strstr(err.msg, "reason"), "%s", err.msg);
    cr_expect_eq(check_text("{\"verdict\":\"steady\",\"reason\":\"\",\"steps\":12,\"first\":2,"
                            "\"last\":13,\"n\":11,\"cv\":0.04}",
                            &err),
                 -1);
    cr_expect(strstr(err.msg, "last"), "%s", err.msg);
    cr_expect_eq(check_text("{\"verdict\":\"wobbly\",\"reason\":\"\",\"steps\":12,\"first\":2,"
                            "\"last\":12,\"n\":11,\"cv\":0.04}",
                            &err),
                 -1);
}
