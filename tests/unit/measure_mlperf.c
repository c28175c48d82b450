/* import_mlperf (issue 33): MLPerf Training's time to train read from the
 * MLLOG result files, and the score computed as MLPerf's rules do (the
 * olympic mean, a run that did not converge counted as the slowest, times
 * scaling.json's factor); each input MLPerf's rules or files refuse is
 * refused naming file, line and field. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "5-import/import_mlperf.h"
#include "5-import/import_mlperf_score.h"
#include "testutil.h"

static const char START[] = ":::MLLOG {\"namespace\": \"\", \"time_ms\": %lld, \"event_type\": "
                            "\"INTERVAL_START\", \"key\": \"run_start\", \"value\": null, "
                            "\"metadata\": {\"file\": \"f.py\", \"lineno\": 1}}\n";
static const char STOP[] = ":::MLLOG {\"namespace\": \"\", \"time_ms\": %lld, \"event_type\": "
                           "\"INTERVAL_END\", \"key\": \"run_stop\", \"value\": null, "
                           "\"metadata\": {\"file\": \"f.py\", \"lineno\": 2, \"status\": "
                           "\"%s\"}}\n";

/* A result file's text: run_start at 1000 ms, run_stop ms later. */
static char *result_text(long long ms, const char *status)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, ":::MLLOG {\"key\": \"submission_benchmark\", \"value\": \"resnet\", "
                    "\"time_ms\": 1}\n");
    pr_buf_puts(&b, ":::MLLOG {\"key\": \"global_batch_size\", \"value\": 3264, "
                    "\"time_ms\": 1}\n");
    pr_buf_printf(&b, START, 1000LL);
    pr_buf_puts(&b, "some other line a framework prints\n");
    pr_buf_puts(&b, ":::MLLOG {\"key\": \"tracked_stats\", \"value\": {\"throughput\": 100.0}, "
                    "\"time_ms\": 2}\n");
    pr_buf_puts(&b, ":::MLLOG {\"key\": \"tracked_stats\", \"value\": {\"throughput\": 300.0}, "
                    "\"time_ms\": 3}\n");
    pr_buf_printf(&b, STOP, 1000 + ms, status);
    return pr_buf_detach(&b);
}

Test(mlperf_score, olympic_mean_times_the_factor)
{
    import_mlperf_score_mlperf_run runs[5] = {{12, 1}, {10, 1}, {14, 1}, {11, 1}, {13, 1}};
    import_mlperf_score s;
    pr_err err;
    cr_assert_eq(import_mlperf_score_compute("d", "resnet", runs, 5, 1.5, &s, &err), 0, "%s",
                 err.msg);
    cr_expect_eq(s.unscaled, 12.0); /* 11, 12, 13 */
    cr_expect_eq(s.factor, 1.5);
    cr_expect_eq(s.score, 18.0);
    cr_expect_eq(s.used, 3);
    cr_expect_eq(s.not_converged, 0);
}

Test(mlperf_score, a_run_that_did_not_converge_is_the_slowest)
{
    /* the aborted run is the fastest by its clock: it still is dropped as
     * the slowest, and the real slowest (14) is kept */
    import_mlperf_score_mlperf_run runs[5] = {{12, 1}, {10, 1}, {14, 1}, {1, 0}, {13, 1}};
    import_mlperf_score s;
    pr_err err;
    cr_assert_eq(import_mlperf_score_compute("d", "resnet", runs, 5, 1, &s, &err), 0, "%s",
                 err.msg);
    cr_expect_eq(s.unscaled, 13.0); /* 12, 13, 14 */
    cr_expect_eq(s.not_converged, 1);
}

Test(mlperf_score, ten_runs_for_bert_and_llama)
{
    import_mlperf_score_mlperf_run runs[10];
    for (int i = 0; i < 10; i++)
        runs[i] = (import_mlperf_score_mlperf_run){(double)(i + 1), 1};
    import_mlperf_score s;
    pr_err err;
    cr_assert_eq(import_mlperf_score_compute("d", "llama2_70b_lora", runs, 10, 1, &s, &err), 0);
    cr_expect_eq(s.unscaled, 5.5); /* 2..9 */
    cr_expect_eq(s.used, 8);
    cr_assert_eq(import_mlperf_score_compute("d", "bert", runs, 10, 1, &s, &err), 0);
    /* 5 runs of bert are not a bert result */
    cr_expect_eq(import_mlperf_score_compute("d", "bert", runs, 5, 1, &s, &err), -1);
    cr_expect(strstr(err.msg, "5 runs of bert") && strstr(err.msg, "scores 10"), "%s", err.msg);
}

Test(mlperf_score, refusals_name_the_rule)
{
    import_mlperf_score_mlperf_run runs[5] = {{12, 0}, {10, 1}, {14, 1}, {11, 0}, {13, 1}};
    import_mlperf_score s;
    pr_err err;
    cr_expect_eq(import_mlperf_score_compute("res/x/resnet", "resnet", runs, 5, 1, &s, &err), -1);
    cr_expect(strstr(err.msg, "res/x/resnet") && strstr(err.msg, "2 of 5 runs") &&
                  strstr(err.msg, "no score"),
              "%s", err.msg);
    runs[0].converged = runs[3].converged = 1;
    cr_expect_eq(import_mlperf_score_compute("d", "resnet", runs, 4, 1, &s, &err), -1);
    cr_expect(strstr(err.msg, "4 runs of resnet"), "%s", err.msg);
    cr_expect_eq(import_mlperf_score_compute("d", "minigo", runs, 5, 1, &s, &err), -1);
    cr_expect(strstr(err.msg, "\"minigo\"") && strstr(err.msg, "resnet"), "%s", err.msg);
    cr_expect_eq(import_mlperf_score_compute("d", "resnet", runs, 5, 0, &s, &err), -1);
    cr_expect(strstr(err.msg, "scaling_factor"), "%s", err.msg);
    cr_expect_eq(import_mlperf_score_compute("d", "resnet", runs, 5, NAN, &s, &err), -1);
}

Test(mlperf_result, time_to_train_status_and_throughput)
{
    char *dir = tmpdir();
    char *text = result_text(1234567, "success");
    put(dir, "result_0.txt", text);
    free(text);
    char *path = pr_xasprintf("%s/result_0.txt", dir);
    import_mlperf_result r;
    pr_err err;
    cr_assert_eq(import_mlperf_result_read(path, &r, &err), 0, "%s", err.msg);
    cr_expect_eq(r.minutes, 1234567.0 / 60000.0);
    cr_expect(r.converged);
    cr_expect_str_eq(r.status, "success");
    cr_expect_str_eq(r.benchmark, "resnet");
    cr_expect_eq(r.global_batch, 3264);
    cr_expect_eq(r.throughput, 200.0);
    cr_expect_eq(r.throughputs, 2);
    cr_expect_eq(r.start_line, 3);
    cr_expect_eq(r.stop_line, 7);
    text = result_text(5000, "aborted");
    put(dir, "result_0.txt", text);
    free(text);
    cr_assert_eq(import_mlperf_result_read(path, &r, &err), 0, "%s", err.msg);
    cr_expect(!r.converged);
    free(path);
    rm_rf(dir);
    free(dir);
}

/* One refused result file: text, then what the message names. */
static void refused(const char *text, const char *says1, const char *says2)
{
    char *dir = tmpdir();
    put(dir, "result_0.txt", text);
    char *path = pr_xasprintf("%s/result_0.txt", dir);
    import_mlperf_result r;
    pr_err err = {{0}};
    cr_expect_eq(import_mlperf_result_read(path, &r, &err), -1, "%s", text);
    cr_expect(strstr(err.msg, "result_0.txt") && strstr(err.msg, says1) && strstr(err.msg, says2),
              "%s", err.msg);
    free(path);
    rm_rf(dir);
    free(dir);
}

Test(mlperf_result, refusals_name_file_line_and_key)
{
    char start[512], stop[512], stop2[512];
    snprintf(start, sizeof start, START, 5000LL);
    snprintf(stop, sizeof stop, STOP, 9000LL, "success");
    refused(start, "run_stop", "not logged");
    refused(stop, "run_start", "not logged");
    snprintf(stop2, sizeof stop2, STOP, 4000LL, "success");
    char *t = pr_xasprintf("%s%s", start, stop2);
    refused(t, ":2:", "before run_start");
    free(t);
    snprintf(stop2, sizeof stop2, STOP, 9000LL, "maybe");
    t = pr_xasprintf("%s%s", start, stop2);
    refused(t, "metadata.status", "\"maybe\"");
    free(t);
    t = pr_xasprintf("%s%s%s", start, start, stop);
    refused(t, ":2:", "logged twice");
    free(t);
    t = pr_xasprintf("%s:::MLLOG {\"key\": \"run_stop\", \"time_ms\": \n%s", start, stop);
    refused(t, ":2:", "not a JSON object");
    free(t);
    t = pr_xasprintf("%s:::MLLOG {\"key\": \"run_stop\", \"time_ms\": \"late\"}\n", start);
    refused(t, "time_ms", "integer");
    free(t);
}

Test(mlperf_result, scaling_json)
{
    char *dir = tmpdir();
    char *path = pr_xasprintf("%s/scaling.json", dir);
    double f = 0;
    pr_err err;
    cr_expect_eq(import_mlperf_scaling_read(path, &f, &err), 0, "%s", err.msg);
    cr_expect_eq(f, 1.0); /* none: the factor is 1 */
    put(dir, "scaling.json", "{\"scaling_factor\": 1.0042232277526395}");
    cr_expect_eq(import_mlperf_scaling_read(path, &f, &err), 0, "%s", err.msg);
    cr_expect_eq(f, 1.0042232277526395);
    put(dir, "scaling.json", "{\"scaling_factor\": -2}");
    cr_expect_eq(import_mlperf_scaling_read(path, &f, &err), -1);
    cr_expect(strstr(err.msg, "scaling_factor"), "%s", err.msg);
    put(dir, "scaling.json", "{\"scaling_factor\": ");
    cr_expect_eq(import_mlperf_scaling_read(path, &f, &err), -1);
    cr_expect(strstr(err.msg, "scaling.json") && strstr(err.msg, "not JSON"), "%s", err.msg);
    free(path);
    rm_rf(dir);
    free(dir);
}

/* A submission whose runs are numbered from 1 (Lenovo's) reads like one
 * numbered from 0, and a folder of another benchmark's logs is refused. */
Test(mlperf_result, a_submission_walked)
{
    char *dir = tmpdir();
    long long ms[5] = {600000, 540000, 660000, 630000, 570000};
    for (int i = 0; i < 5; i++) {
        char name[64];
        snprintf(name, sizeof name, "Acme/results/box/resnet/result_%d.txt", i + 1);
        char *text = result_text(ms[i], "success");
        put(dir, name, text);
        free(text);
    }
    put(dir, "Acme/results/box/resnet/scaling.json", "{\"scaling_factor\": 2}");
    char *sub = pr_xasprintf("%s/Acme", dir);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    pr_err err;
    cr_assert_eq(import_mlperf_print(sub, f, &err), 0, "%s", err.msg);
    fclose(f);
    /* 9.5, 10, 10.5 minutes: 10, times 2 */
    cr_expect(strstr(out, "Acme/box/resnet: score 20 min (unscaled 10 min, factor 2), 3 of 5"),
              "%s", out);
    free(out);
    char *bert = pr_xasprintf("%s/Acme/results/box/bert", dir);
    char *cmd = pr_xasprintf("mv %s/Acme/results/box/resnet %s", dir, bert);
    cr_assert_eq(system(cmd), 0);
    f = open_memstream(&out, &len);
    cr_expect_eq(import_mlperf_print(sub, f, &err), -1);
    fclose(f);
    free(out);
    cr_expect(strstr(err.msg, "submission_benchmark") && strstr(err.msg, "\"resnet\""), "%s",
              err.msg);
    free(cmd);
    free(bert);
    free(sub);
    rm_rf(dir);
    free(dir);
}
