/* measure/parse's scan-and-reduce API, measure/explain and measure/fit:
 *   - reading once and reducing in memory gives what parse_logs gives,
 *     for the rule's own keys and for every key --fit tries (one scanning
 *     path: the same readers and reducers);
 *   - `parse --fit` finds the rule behind the published figure of real logs
 *     of several profiles (../shared/fixtures: expected.json's figures),
 *     and says "no rule" with the closest ones when there is none;
 *   - `parse --explain` accounts for every record and ends with the value
 *     the record has.
 * The fixture tests skip when ../shared (PERFREPRO_SHARED) is absent; the
 * CLI tests when $MEASURE is not built. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "2-parse/explain.h"
#include "2-parse/parse.h"
#include "2-parse/rule.h"
#include "3-fit/fit.h"
#include "3-fit/fitcalc.h"
#include "buf.h"
#include "stats.h"

/* ---- helpers ---- */

static const char *shared_dir(void)
{
    const char *s = getenv("PERFREPRO_SHARED");
    return s && *s ? s : "../shared";
}

static const char *measure_bin(void)
{
    const char *m = getenv("MEASURE");
    return m && *m ? m : "bin/perfrepro-measure";
}

/* expected.json's entry for id (a new reference), or NULL. */
static json_t *expected_case(const char *id)
{
    char *path = pr_xasprintf("%s/fixtures/expected.json", shared_dir());
    json_t *root = json_load_file(path, 0, NULL);
    free(path);
    json_t *found = NULL, *c;
    size_t i;
    json_array_foreach(json_object_get(root, "cases"), i, c)
    {
        if (strcmp(json_string_value(json_object_get(c, "id")), id) == 0)
            found = json_incref(c);
    }
    json_decref(root);
    return found;
}

/* The fixture's logs, shell-quoted and space-separated (malloc'd). */
static char *fixture_args(json_t *exp)
{
    json_t *files = json_object_get(exp, "files"), *file = json_object_get(exp, "file");
    size_t n = files ? json_array_size(files) : 1;
    pr_buf b = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++)
        pr_buf_printf(&b, " '%s/fixtures/%s'", shared_dir(),
                      json_string_value(files ? json_array_get(files, i) : file));
    return pr_buf_detach(&b);
}

/* The fixture's logs as paths (malloc'd array of malloc'd strings). */
static char **fixture_paths(json_t *exp, size_t *n)
{
    json_t *files = json_object_get(exp, "files"), *file = json_object_get(exp, "file");
    *n = files ? json_array_size(files) : 1;
    char **v = pr_xcalloc(*n, sizeof *v);
    for (size_t i = 0; i < *n; i++)
        v[i] = pr_xasprintf("%s/fixtures/%s", shared_dir(),
                            json_string_value(files ? json_array_get(files, i) : file));
    return v;
}

static void free_paths(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Runs `measure parse ARGS`; returns the exit status, stdout in *out. */
static int run_parse(const char *args, char **out)
{
    char *cmd = pr_xasprintf("%s parse %s 2>&1", measure_bin(), args);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    pr_buf b = PR_BUF_INIT;
    char chunk[4096];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, p)) > 0)
        pr_buf_put(&b, chunk, k);
    int st = pclose(p);
    free(cmd);
    *out = pr_buf_detach(&b);
    cr_assert(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static void need_measure(void)
{
    if (access(measure_bin(), X_OK) != 0)
        cr_skip_test("%s not built", measure_bin());
}

/* A temporary file holding text; the caller unlinks and frees the path. */
static char *temp_log(const char *text)
{
    char tmpl[] = "/tmp/perfrepro-fit-XXXXXX";
    int fd = mkstemp(tmpl);
    cr_assert(fd >= 0);
    size_t n = strlen(text);
    cr_assert_eq(write(fd, text, n), (ssize_t)n);
    close(fd);
    return pr_xstrdup(tmpl);
}

/* ---- reading once, reducing in memory: what parse_logs gives ---- */

static pr_rule *rule_of(json_t *o)
{
    pr_rule *r = NULL;
    pr_err err;
    cr_assert_eq(rule_from_json(o, "<test>", &r, &err), 0, "%s", err.msg);
    return r;
}

/* For base (a rule object) and each variant of its counting keys, a full
 * parse and a reduction of one scan must agree: failure, reason, detail,
 * value (bit for bit), stats and metrics. */
static void check_same(const char *base_text, const char *const *logs, size_t n, pr_parse_args args)
{
    json_t *base = json_loads(base_text, 0, NULL);
    cr_assert_not_null(base, "%s", base_text);
    pr_rule *brule = rule_of(base);
    pr_scan *scan = NULL;
    pr_err err;
    cr_assert_eq(parse_scan(brule, logs, n, &args, &scan, &err), 0, "%s", err.msg);
    const pr_rulecfg_cfg *bc = rule_get(brule);
    static const char *const reduces[] = {"mean", "median", "last", "trimmed_mean",
                                          "max",  "min",    "best"};
    static const char *const steps[] = {"iteration", "epoch", "summary", "any"};
    static const long long skips[] = {0, 1, 2, 5, 10};
    static const char *const trims[] = {NULL, "{\"fraction\": 0, \"min\": 1}",
                                        "{\"fraction\": 0.25, \"min\": 0}"};
    int dll = bc->profile == PR_PROFILE_DLLOGGER;
    size_t compared = 0;
    for (size_t si = 0; si < (dll ? 4 : 1); si++)
        for (size_t ri = 0; ri < 7; ri++)
            for (size_t ki = 0; ki < 5; ki++)
                for (size_t ti = 0; ti < (ri == 3 ? 3 : 1); ti++)
                    for (int round = -1; round <= 1; round += 2) {
                        if (ri == 6 && bc->value == PR_VALUE_RAW)
                            continue;
                        json_t *o = json_deep_copy(base);
                        json_object_set_new(o, "reduce", json_string(reduces[ri]));
                        json_object_set_new(o, "skip", json_integer(skips[ki]));
                        if (ti)
                            json_object_set_new(o, "trim", json_loads(trims[ti], 0, NULL));
                        if (dll)
                            json_object_set_new(o, "step", json_string(steps[si]));
                        if (round > 0)
                            json_object_set_new(o, "round", json_integer(2));
                        pr_rule *r = rule_of(o);
                        pr_parse_result a, b;
                        parse_result_init(&a);
                        parse_result_init(&b);
                        cr_assert_eq(parse_logs(r, logs, n, &args, &a, &err), 0);
                        pr_reduce_keys k;
                        parse_reduce_keys_of(r, &k);
                        cr_assert_eq(parse_reduce(scan, &k, 0, &b, NULL, NULL), 0);
                        char *rt = json_dumps(o, JSON_COMPACT);
                        cr_assert_eq(a.failed, b.failed, "%s", rt);
                        if (a.failed) {
                            cr_assert_str_eq(a.fail_reason, b.fail_reason, "%s", rt);
                            cr_assert_str_eq(a.fail_detail, b.fail_detail, "%s", rt);
                        } else {
                            cr_assert(a.value == b.value, "%s: %.17g != %.17g", rt, a.value,
                                      b.value);
                        }
                        /* lean (--fit): the same value, stats.median left out */
                        pr_parse_result l;
                        parse_result_init(&l);
                        parse_reduce(scan, &k, PR_REDUCE_LEAN, &l, NULL, NULL);
                        cr_assert_eq(l.failed, b.failed, "%s", rt);
                        cr_assert(l.failed || l.value == b.value, "%s", rt);
                        cr_assert(json_is_null(json_object_get(l.stats, "median")) ||
                                      !json_object_get(l.stats, "median"),
                                  "%s", rt);
                        parse_result_clear(&l);
                        char *sa = json_dumps(a.stats, JSON_SORT_KEYS);
                        char *sb = json_dumps(b.stats, JSON_SORT_KEYS);
                        cr_assert_str_eq(sa, sb, "%s", rt);
                        cr_assert(json_equal(a.metrics, b.metrics) || (!a.metrics && !b.metrics),
                                  "%s", rt);
                        free(sa);
                        free(sb);
                        free(rt);
                        parse_result_clear(&a);
                        parse_result_clear(&b);
                        rule_free(r);
                        json_decref(o);
                        compared++;
                    }
    cr_assert(compared > 0);
    parse_scan_free(scan);
    rule_free(brule);
    json_decref(base);
}

Test(scan, messy_logs_reduce_as_a_parse_does)
{
    /* mpirun ranks, values that are not clean numbers, a negative rate */
    char *paddle = temp_log("[1,0]<stdout>:step 1 ips: 120.5 samples/sec\n"
                            "[1,1]<stdout>:step 1 ips: 118.25 samples/sec\n"
                            "[1,0]<stdout>:step 2 ips: 380.125\n"
                            "[1,0]<stdout>:step 3 ips: None\n"
                            "[1,0]<stdout>:step 4 ips: 1,234.5 samples/sec\n"
                            "[1,0]<stdout>:step 5 ips: 390.25\n"
                            "[1,0]<stdout>:step 6 ips: -3\n"
                            "[1,0]<stdout>:step 7 ips: 401.5\n"
                            "[1,0]<stdout>:step 8 ips: 389.75\n"
                            "[1,1]<stdout>:step 8 ips: 9999\n"
                            "step 9 ips: 395\n");
    const char *l1[] = {paddle};
    check_same("{\"profile\": \"paddle-ips\", \"scope\": \"per_card\"}", l1, 1,
               (pr_parse_args){8, 0, 0, NULL});
    check_same("{\"profile\": \"paddle-ips\", \"scope\": \"global\", \"rank\": \"all\", "
               "\"thousands\": \",\"}",
               l1, 1, (pr_parse_args){0, 0, 0, NULL});
    /* DLLogger steps, text and JSON */
    char *dll = temp_log(
        "DLL 2023-08-04 05:46:28.0 - PARAMETER train.total_ips : 1\n"
        "DLL 2023-08-04 05:46:28.1 - Epoch: 0 Iteration: 1  train.total_ips : 300.5 images/s\n"
        "DLL 2023-08-04 05:46:28.2 - Epoch: 0 Iteration: 2  train.total_ips : 360.25 images/s\n"
        "DLLL {\"step\": [0, 3], \"data\": {\"train.total_ips\": 370.5}}\n"
        "DLLL {\"step\": [0, 4], \"data\": {\"train.total_ips\": \"x\"}}\n"
        "DLL 2023-08-04 05:46:28.3 - Epoch: 0 Iteration: 5  train.total_ips : 365 images/s\n"
        "DLL 2023-08-04 05:46:28.4 - Epoch: 0  train.total_ips : 350.75 images/s\n"
        "DLLL {\"step\": [], \"data\": {\"train.total_ips\": 355.5}}\n"
        "DLL 2023-08-04 05:46:28.5 - Summary: train.total_ips : 351.0 images/s\n");
    const char *l2[] = {dll};
    check_same("{\"profile\": \"dllogger\", \"keyword\": \"train.total_ips\", \"scope\": "
               "\"global\"}",
               l2, 1, (pr_parse_args){0, 0, 0, NULL});
    /* Megatron: a batch-size ramp-up read from the lines */
    char *meg = temp_log(
        " iteration 10/ 500 | elapsed time per iteration (ms): 900.0 | global batch size:    16 |\n"
        " iteration 20/ 500 | elapsed time per iteration (ms): 500.0 | global batch size:    64 |\n"
        " iteration 30/ 500 | elapsed time per iteration (ms): 0 | global batch size:    64 |\n"
        " iteration 40/ 500 | elapsed time per iteration (ms): 510.5 | global batch size:    64 |\n"
        " iteration 50/ 500 | elapsed time per iteration (ms): 505.25 |\n");
    const char *l3[] = {meg};
    check_same("{\"profile\": \"megatron\"}", l3, 1, (pr_parse_args){8, 2, 1024, NULL});
    /* nccl-tests rows with N/A cells; MLPerf runs that did not converge */
    char *nccl = temp_log(
        "#       size         count      type   redop    root     time   algbw   busbw #wrong"
        "     time   algbw   busbw #wrong\n"
        "        1024           256     float     sum      -1    20.0    1.00    2.00      0"
        "    21.0    1.10    4.00      0\n"
        "        2048           512     float     sum      -1    30.0    2.00    6.00    N/A"
        "    31.0    2.10     N/A    N/A\n"
        "        4096          1024     float     sum      -1    40.0    3.00    7.50      0"
        "    41.0    3.10    7.25      0\n"
        "# Avg bus bandwidth    : 4.000 \n");
    const char *l4[] = {nccl};
    check_same("{\"profile\": \"nccl-tests\", \"source\": \"rows\"}", l4, 1,
               (pr_parse_args){0, 0, 0, NULL});
    char *ml1 = temp_log(":::MLLOG {\"time_ms\": 1000, \"key\": \"run_start\"}\n"
                         ":::MLLOG {\"time_ms\": 61000, \"key\": \"run_stop\", \"metadata\": "
                         "{\"status\": \"success\"}}\n"
                         ":::MLLOG {\"time_ms\": 100000, \"key\": \"run_start\"}\n");
    char *ml2 = temp_log(":::MLLOG {\"time_ms\": 200000, \"key\": \"run_start\"}\n"
                         ":::MLLOG {\"time_ms\": 320000, \"key\": \"run_stop\", \"metadata\": "
                         "{\"status\": \"success\"}}\n"
                         ":::MLLOG {\"time_ms\": 400000, \"key\": \"run_start\"}\n"
                         ":::MLLOG {\"time_ms\": 490000, \"key\": \"run_stop\", \"metadata\": "
                         "{\"status\": \"aborted\"}}\n");
    const char *l5[] = {ml1, ml2};
    check_same("{\"profile\": \"mllog\"}", l5, 2, (pr_parse_args){0, 0, 0, NULL});
    check_same("{\"profile\": \"mllog\", \"non_converged\": \"worst\"}", l5, 2,
               (pr_parse_args){0, 0, 0, NULL});
    /* two runs of a keras log */
    char *k1 = temp_log("TimeHistory: 1.0 seconds, 100.5 examples/second between steps 0 and 1\n"
                        "TimeHistory: 1.0 seconds, 300.25 examples/second between steps 1 and 2\n"
                        "TimeHistory: 1.0 seconds, 310.5 examples/second between steps 2 and 3\n");
    char *k2 = temp_log("TimeHistory: 1.0 seconds, 90.5 examples/second between steps 0 and 1\n"
                        "TimeHistory: 1.0 seconds, 305.75 examples/second between steps 1 and 2\n");
    const char *l6[] = {k1, k2};
    check_same("{\"profile\": \"keras-timehistory\", \"scope\": \"global\"}", l6, 2,
               (pr_parse_args){0, 0, 0, NULL});
    char *all[] = {paddle, dll, meg, nccl, ml1, ml2, k1, k2};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        unlink(all[i]);
        free(all[i]);
    }
}

/* The real logs, under the rules that reproduce their figures. */
Test(scan, fixtures_reduce_as_a_parse_does)
{
    static const struct {
        const char *id, *rule;
        int gpus, batch;
    } cases[] = {
        {"paddle_rn50_v100_fp32_n1c1", "{\"profile\": \"paddle-ips\", \"scope\": \"per_card\"}", 1,
         0},
        {"ngc_pytorch_rn50_fp32_gpu1",
         "{\"profile\": \"dllogger\", \"keyword\": \"train.total_ips\", \"scope\": \"global\"}", 0,
         0},
        {"mmseg_hrnet_fp32_c1", "{\"profile\": \"mmseg\"}", 1, 8},
        {"ngc_mxnet_rn50_fp32_gpu1", "{\"profile\": \"mxnet-summary\", \"scope\": \"global\"}", 1,
         128},
        {"dlperf_tf2_rn50_1n2g", "{\"profile\": \"keras-timehistory\", \"scope\": \"global\"}", 2,
         0},
        {"nccl_h100x16_allreduce_pre217", "{\"profile\": \"nccl-tests\", \"source\": \"rows\"}", 0,
         0},
        {"mlperf_v40_eos_n8_bert", "{\"profile\": \"mllog\"}", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *exp = expected_case(cases[i].id);
        if (!exp)
            cr_skip_test("%s/fixtures not available", shared_dir());
        size_t n;
        char **logs = fixture_paths(exp, &n);
        check_same(cases[i].rule, (const char *const *)logs, n,
                   (pr_parse_args){cases[i].gpus, cases[i].batch, 0, NULL});
        free_paths(logs, n);
        json_decref(exp);
    }
}

/* ---- fitcalc: one sort per run, the values of parse_reduce ---- */

/* A pseudo-random stream that is the same on every machine. */
static unsigned long long rng = 88172645463325252ULL;
static double rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* A log of n lines "PREFIX VALUE SUFFIX", VALUE from fmt (%.Nf) around
 * base: a slow warm-up, noise, and values that repeat (ties in sorts). */
static char *gen_log(const char *prefix, const char *fmt, double base, double spread, size_t n,
                     const char *suffix)
{
    pr_buf b = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        double v = i < 7 ? base * (0.3 + 0.1 * (double)i) : base + spread * (rnd() - 0.5);
        if (i % 11 == 5)
            v = base; /* a value many records share */
        pr_buf_puts(&b, prefix);
        pr_buf_printf(&b, fmt, v);
        pr_buf_puts(&b, suffix);
        pr_buf_putc(&b, '\n');
    }
    char *path = temp_log(pr_buf_cstr(&b));
    pr_buf_free(&b);
    return path;
}

static const pr_fitcalc_trim calc_trims[] = {{0.05, 5}, {0, 1}, {0.05, 0}, {0.1, 0}, {0.25, 0}};

/* Every key --fit tries (and skips beyond the engine's max_skip, which it
 * hands to parse_reduce): fitcalc's value and failure are
 * parse_reduce's, bit for bit.  Returns the reductions compared. */
static size_t check_calc(const char *rule_text, const char *const *logs, size_t n,
                         pr_parse_args args, long long max_skip, int replayed)
{
    pr_rule *rule = NULL;
    pr_err err;
    cr_assert_eq(rule_parse("<t>", rule_text, strlen(rule_text), &rule, &err), 0, "%s", err.msg);
    pr_scan *scan = NULL;
    cr_assert_eq(parse_scan(rule, logs, n, &args, &scan, &err), 0, "%s", err.msg);
    const pr_rulecfg_cfg *c = rule_get(rule);
    int dll = c->profile == PR_PROFILE_DLLOGGER;
    static const pr_rulecfg_reduce reds[] = {
        PR_REDUCE_MEAN, PR_REDUCE_MEDIAN, PR_REDUCE_LAST, PR_REDUCE_TRIMMED_MEAN,
        PR_REDUCE_MAX,  PR_REDUCE_MIN,    PR_REDUCE_BEST};
    static const int rounds[] = {-1, 0, 2};
    size_t compared = 0;
    for (int st = 0; st < (dll ? 4 : 1); st++) {
        pr_fitcalc_counts counts = {0};
        pr_fitcalc *fc =
            fitcalc_new(scan, rule, &args, (pr_rulecfg_step)st, max_skip, calc_trims, 5, &counts);
        unsigned long long beyond = 0;
        for (long long skip = 0; skip <= max_skip + 2; skip++)
            for (size_t ri = 0; ri < 7; ri++)
                for (size_t ti = 0; ti < (reds[ri] == PR_REDUCE_TRIMMED_MEAN ? 5u : 1u); ti++)
                    for (size_t oi = 0; oi < 3; oi++) {
                        if (reds[ri] == PR_REDUCE_BEST && c->value == PR_VALUE_RAW)
                            continue;
                        pr_reduce_keys k;
                        parse_reduce_keys_of(rule, &k);
                        k.skip = skip;
                        k.reduce = reds[ri];
                        k.trim_fraction = calc_trims[ti].fraction;
                        k.trim_min = calc_trims[ti].min;
                        k.step = (pr_rulecfg_step)st;
                        k.round = rounds[oi];
                        pr_parse_result res;
                        parse_result_init(&res);
                        parse_reduce(scan, &k, PR_REDUCE_LEAN, &res, NULL, NULL);
                        double v = -1;
                        const char *why = NULL;
                        int failed = fitcalc_reduce(fc, &k, &v, &why);
                        cr_assert_eq(failed, res.failed, "%s skip %lld reduce %zu trim %zu",
                                     rule_text, skip, ri, ti);
                        if (failed)
                            cr_assert_str_eq(why, res.fail_reason, "%s skip %lld reduce %zu",
                                             rule_text, skip, ri);
                        else
                            cr_assert(memcmp(&v, &res.value, sizeof v) == 0,
                                      "%s skip %lld reduce %zu trim %zu round %d: %.17g != %.17g",
                                      rule_text, skip, ri, ti, rounds[oi], v, res.value);
                        beyond += skip > max_skip;
                        parse_result_clear(&res);
                        compared++;
                    }
        /* one sort per run that has records; the engine replays only what
         * lies beyond its skips (or a whole case it does not reduce) */
        cr_assert_leq(counts.sorts, parse_scan_runs(scan));
        if (replayed)
            cr_assert_eq(counts.replays, counts.reductions);
        else
            cr_assert_leq(counts.replays, beyond, "%s: %llu replays", rule_text, counts.replays);
        fitcalc_free(fc);
    }
    parse_scan_free(scan);
    rule_free(rule);
    return compared;
}

Test(fitcalc, reduces_as_a_parse_does)
{
    char *p1 = gen_log("step ips: ", "%.5f", 393.5, 4, 300, " samples/sec");
    char *p2 = gen_log("ips: ", "%.2f", 103, 3, 1000, "");
    char *p3 = gen_log("ips: ", "%.0f", 103, 6, 60, "");
    const char *l1[] = {p1}, *l2[] = {p2}, *l3[] = {p3};
    check_calc("{\"profile\": \"paddle-ips\", \"scope\": \"per_card\"}", l1, 1,
               (pr_parse_args){8, 0, 0, NULL}, 40, 0);
    check_calc("{\"profile\": \"paddle-ips\", \"scope\": \"global\"}", l2, 1,
               (pr_parse_args){0, 0, 0, NULL}, 200, 0);
    check_calc("{\"profile\": \"paddle-ips\", \"scope\": \"global\", \"min_records\": 20}", l3, 1,
               (pr_parse_args){0, 0, 0, NULL}, 70, 0);
    /* three runs: the median of their values */
    const char *runs[] = {p1, p3, p2};
    check_calc("{\"profile\": \"paddle-ips\", \"scope\": \"global\"}", runs, 3,
               (pr_parse_args){0, 0, 0, NULL}, 33, 0);
    /* step times, converted with batch x GPUs; in tokens */
    char *mm = gen_log("Iter [1/9]\tlr: 1, time: ", "%.3f", 0.52, 0.05, 200, ", data_time: 0");
    const char *l4[] = {mm};
    check_calc("{\"profile\": \"mmseg\"}", l4, 1, (pr_parse_args){4, 8, 0, NULL}, 50, 0);
    check_calc("{\"profile\": \"mmseg\", \"unit\": \"tokens/s\"}", l4, 1,
               (pr_parse_args){4, 8, 512, NULL}, 20, 0);
    /* Megatron: the global batch read from the lines, ramping up */
    pr_buf b = PR_BUF_INIT;
    for (int i = 0; i < 120; i++)
        pr_buf_printf(&b, " iteration %d | elapsed time per iteration (ms): %.1f |%s\n", i,
                      500 + 20 * rnd(),
                      i < 9     ? " global batch size:    16 |"
                      : i == 40 ? ""
                                : " global batch size:    64 |");
    char *meg = temp_log(pr_buf_cstr(&b));
    pr_buf_free(&b);
    const char *l5[] = {meg};
    check_calc("{\"profile\": \"megatron\"}", l5, 1, (pr_parse_args){8, 2, 1024, NULL}, 60, 0);
    /* DLLogger: every step searched */
    b = (pr_buf)PR_BUF_INIT;
    for (int i = 0; i < 150; i++) {
        pr_buf_printf(&b,
                      "DLL 2023-08-04 05:46:28.1 - Epoch: 0 Iteration: %d  train.total_ips : "
                      "%.2f images/s\n",
                      i, 360 + 5 * rnd());
        if (i % 50 == 49)
            pr_buf_printf(&b,
                          "DLL 2023-08-04 05:46:28.4 - Epoch: %d  train.total_ips : %.2f "
                          "images/s\n",
                          i / 50, 361 + rnd());
    }
    pr_buf_puts(&b, "DLL 2023-08-04 05:46:28.5 - Summary: train.total_ips : 362.5 images/s\n");
    char *dll = temp_log(pr_buf_cstr(&b));
    pr_buf_free(&b);
    const char *l6[] = {dll};
    check_calc("{\"profile\": \"dllogger\", \"keyword\": \"train.total_ips\", \"scope\": "
               "\"global\"}",
               l6, 1, (pr_parse_args){0, 0, 0, NULL}, 30, 0);
    /* raw values, negative ones among them, and a -0 (left to parse_reduce) */
    char *raw = gen_log("v: ", "%.3f", 1, 6, 150, "");
    char *negz = temp_log("v: 1\nv: -0\nv: 0\nv: 2\nv: -1\n");
    const char *l7[] = {raw}, *l8[] = {negz};
    check_calc("{\"match\": \"v: ([-0-9.]+)\", \"value\": \"raw\", \"unit\": \"x\"}", l7, 1,
               (pr_parse_args){0, 0, 0, NULL}, 30, 0);
    check_calc("{\"match\": \"v: ([-0-9.]+)\", \"value\": \"raw\", \"unit\": \"x\"}", l8, 1,
               (pr_parse_args){0, 0, 0, NULL}, 6, 1);
    char *all[] = {p1, p2, p3, mm, meg, dll, raw, negz};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        unlink(all[i]);
        free(all[i]);
    }
}

/* fitcalc sorts a run's values in place (issue 31 #22: glibc's qsort sorts
 * through a copy): runs that are all one value, ascending, descending,
 * organ-pipe and few-valued, past the insertion sort's 16, still reduce as
 * a parse does. */
Test(fitcalc, in_place_sort_reduces_as_a_parse_does)
{
    static const char *const shapes[] = {"equal", "up", "down", "pipe", "few"};
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        pr_buf b = PR_BUF_INIT;
        size_t n = 3001;
        for (size_t i = 0; i < n; i++) {
            double v = sh == 0   ? 100
                       : sh == 1 ? 100 + (double)i / 8
                       : sh == 2 ? 500 - (double)i / 8
                       : sh == 3 ? 100 + (double)(i < n / 2 ? i : n - i) / 4
                                 : 100 + (double)((i * 7) % 3);
            pr_buf_printf(&b, "ips: %.3f\n", v);
        }
        char *log = temp_log(pr_buf_cstr(&b));
        pr_buf_free(&b);
        const char *logs[] = {log};
        cr_assert_gt(check_calc("{\"profile\": \"paddle-ips\", \"scope\": \"global\"}", logs, 1,
                                (pr_parse_args){0, 0, 0, NULL}, 4, 0),
                     0, "%s", shapes[sh]);
        unlink(log);
        free(log);
    }
}

/* The search on a log as large as a test allows: one sort, passes over the
 * records that grow with skips / 16 (not with skips x reducers x n log n),
 * and the report of a search that reduces every candidate as a parse does
 * (the reference), byte for byte. */
static void fit_both(const char *rule_text, const char *figure, const char *log, long long max_skip,
                     int json, size_t limit, pr_fitcalc_counts *counts, char **fast, char **slow)
{
    pr_rule *rule = NULL;
    pr_err err;
    cr_assert_eq(rule_parse("<t>", rule_text, strlen(rule_text), &rule, &err), 0, "%s", err.msg);
    json_t *rj = json_loads(rule_text, 0, NULL);
    const char *logs[] = {log};
    pr_fit_case fc = {figure, logs, 1, {0, 0, 0, NULL}};
    for (int ref = 0; ref < (slow ? 2 : 1); ref++) {
        pr_fit_opts o = {.limit = limit,
                         .max_skip = max_skip,
                         .json = json,
                         .reference = ref,
                         .counts = ref ? NULL : counts};
        pr_buf out = PR_BUF_INIT;
        int fits = 0;
        cr_assert_eq(fit_run(rule, rj, &fc, 1, &o, &out, &fits, &err), 0, "%s", err.msg);
        *(ref ? slow : fast) = pr_buf_detach(&out);
    }
    json_decref(rj);
    rule_free(rule);
}

Test(fit, search_is_one_sort_and_the_values_of_a_parse)
{
    const char *rule = "{\"profile\": \"paddle-ips\", \"scope\": \"global\"}";
    /* the reference reduces each of ~1,800 rules from scratch: a small log */
    char *small = gen_log("ips: ", "%.3f", 392.5, 8, 2000, " samples/sec");
    for (int json = 0; json < 2; json++) {
        pr_fitcalc_counts counts = {0};
        char *fast, *slow;
        fit_both(rule, "392.481", small, 200, json, 0, &counts, &fast, &slow);
        cr_assert_str_eq(fast, slow);
        cr_assert_eq(counts.sorts, 1);
        cr_assert_eq(counts.replays, 0);
        free(fast);
        free(slow);
    }
    /* a large one (the issue's: 1.17 million records took 90 s): the same
     * counts of sorts and passes as a small one's, whatever the machine */
    pr_buf b = PR_BUF_INIT;
    for (int i = 0; i < 400000; i++)
        pr_buf_printf(&b, "ips: %d\n", 100 + i % 7);
    char *large = temp_log(pr_buf_cstr(&b));
    pr_buf_free(&b);
    pr_fitcalc_counts counts = {0};
    char *fast;
    fit_both(rule, "103.1", large, 200, 0, 5, &counts, &fast, NULL);
    cr_assert_eq(counts.sorts, 1, "%llu sorts", counts.sorts);
    cr_assert_eq(counts.replays, 0);
    /* 201 skips: 13 passes for the mean, 13 for each trim that drops
     * something other than an earlier trim */
    cr_assert_leq(counts.passes, 13 * 5, "%llu passes", counts.passes);
    cr_assert_not_null(strstr(fast, "searched 1809 rules on 1 log"), "%s", fast);
    cr_assert_not_null(strstr(fast, "103.0000 misses 103.1 (-0.1000, -0.0970%)"), "%s", fast);
    free(fast);
    unlink(small);
    free(small);
    unlink(large);
    free(large);
}

/* ---- --fit on the fixtures: the known rule is among those listed ---- */

typedef struct fit_case {
    const char *id;
    const char *base; /* the rule as a new user would start: format and scope */
    const char *opts; /* --gpus, --batch-size */
    long long skip;   /* the keys of the rule behind the published figure */
    const char *reduce;
    double trim_fraction;
    long long trim_min;
    const char *step; /* NULL: not dllogger */
    int round;        /* -1: none */
} fit_case;

static const fit_case fit_cases[] = {
    {"paddle_rn50_v100_fp32_n1c1", "{\"profile\": \"paddle-ips\", \"scope\": \"per_card\"}",
     "--gpus 1", 10, "trimmed_mean", 0.05, 5, NULL, -1},
    {"paddle_bert_v100_fp32_n1c1", "{\"profile\": \"paddle-ips\", \"scope\": \"per_card\"}",
     "--gpus 1", 10, "trimmed_mean", 0.05, 5, NULL, -1},
    {"paddleseg_hrnet_fp32_n1c1", "{\"profile\": \"paddle-ips\", \"scope\": \"per_card\"}",
     "--gpus 1", 2, "trimmed_mean", 0.05, 5, NULL, -1},
    {"ngc_pytorch_rn50_fp32_gpu1",
     "{\"profile\": \"dllogger\", \"keyword\": \"train.total_ips\", \"scope\": \"global\"}", "", 9,
     "mean", 0, 0, "iteration", -1},
    {"ngc_tf_rn50_fp32_gpu1",
     "{\"profile\": \"dllogger\", \"keyword\": \"total_ips\", \"scope\": \"global\"}", "", 5,
     "mean", 0, 0, "iteration", -1},
    {"ngc_pytorch_bert_fp32_gpu1",
     "{\"profile\": \"dllogger\", \"keyword\": \"training_sequences_per_second\", \"scope\": "
     "\"global\"}",
     "", 0, "mean", 0, 0, "summary", -1},
    {"mmseg_hrnet_fp32_c1", "{\"profile\": \"mmseg\"}", "--gpus 1 --batch-size 8", 4, "mean", 0, 0,
     NULL, -1},
    {"dlperf_tf2_rn50_1n2g",
     "{\"profile\": \"keras-timehistory\", \"scope\": \"global\", \"min_records\": 5}", "--gpus 2",
     1, "mean", 0, 0, NULL, 2},
    {"ngc_mxnet_rn50_fp32_gpu1", "{\"profile\": \"mxnet-summary\", \"scope\": \"global\"}",
     "--gpus 1 --batch-size 128", 0, "mean", 0, 0, NULL, -1},
    {"nccl_h100x16_allreduce_pre217", "{\"profile\": \"nccl-tests\"}", "", 0, "mean", 0, 0, NULL,
     -1},
    {"mlperf_v40_eos_n8_bert", "{\"profile\": \"mllog\", \"unit\": \"min\"}", "", 0, "mean", 0, 0,
     NULL, -1},
};

/* The rules --fit listed ("  N. {...}" lines) before the first line that
 * is not a rule or a value, in the section that starts the report. */
static json_t *listed_rules(const char *out, const char *section)
{
    json_t *a = json_array();
    const char *p = strstr(out, section);
    if (!p)
        return a;
    p = strchr(p, '\n');
    while (p && *++p == ' ') {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *dot = memchr(p, '.', len);
        if (dot && dot[1] == ' ' && dot[2] == '{') {
            json_t *r = json_loadb(dot + 2, len - (size_t)(dot + 2 - p), 0, NULL);
            cr_assert_not_null(r, "%.*s", (int)len, p);
            json_array_append_new(a, r);
        }
        p = e;
    }
    return a;
}

static int has_keys(json_t *r, const fit_case *fc)
{
    json_t *skip = json_object_get(r, "skip"), *reduce = json_object_get(r, "reduce");
    json_t *trim = json_object_get(r, "trim"), *step = json_object_get(r, "step");
    json_t *round = json_object_get(r, "round");
    if ((skip ? json_integer_value(skip) : 0) != fc->skip)
        return 0;
    if (strcmp(reduce ? json_string_value(reduce) : "mean", fc->reduce) != 0)
        return 0;
    if (strcmp(fc->reduce, "trimmed_mean") == 0) {
        double f = trim ? json_number_value(json_object_get(trim, "fraction")) : 0.05;
        long long m = trim ? json_integer_value(json_object_get(trim, "min")) : 5;
        if (f != fc->trim_fraction || m != fc->trim_min)
            return 0;
    }
    if (fc->step && strcmp(step ? json_string_value(step) : "iteration", fc->step) != 0)
        return 0;
    return (round ? json_integer_value(round) : -1) == fc->round;
}

/* The figure as the README prints it (expected.json keeps it as a number). */
static void figure_of(json_t *exp, char *buf, size_t size)
{
    snprintf(buf, size, "%.10g", json_number_value(json_object_get(exp, "published")));
}

Test(fit, finds_the_published_rule_of_each_fixture)
{
    need_measure();
    size_t found = 0;
    for (size_t i = 0; i < sizeof fit_cases / sizeof fit_cases[0]; i++) {
        const fit_case *fc = &fit_cases[i];
        json_t *exp = expected_case(fc->id);
        if (!exp)
            cr_skip_test("%s/fixtures not available", shared_dir());
        char fig[64];
        figure_of(exp, fig, sizeof fig);
        char *logs = fixture_args(exp);
        char *args =
            pr_xasprintf("--rule '%s' %s --limit 0 --fit %s%s", fc->base, fc->opts, fig, logs);
        char *out;
        int rc = run_parse(args, &out);
        cr_expect_eq(rc, 0, "%s: exit %d\n%s", fc->id, rc, out);
        json_t *rules = listed_rules(out, " (simplest first):");
        int hit = 0;
        size_t k;
        json_t *r;
        json_array_foreach(rules, k, r) hit |= has_keys(r, fc);
        cr_expect(hit, "%s: the published rule is not listed\n%s", fc->id, out);
        found += hit;
        json_decref(rules);
        free(out);
        free(args);
        free(logs);
        json_decref(exp);
    }
    cr_assert_geq(found, 6);
}

/* Two Paddle logs share their rule; a third (PaddleSeg: skip 2) does not. */
Test(fit, several_logs_prefer_one_rule_for_all)
{
    need_measure();
    json_t *a = expected_case("paddle_rn50_v100_fp32_n1c1");
    json_t *b = expected_case("paddle_bert_v100_fp32_n1c1");
    json_t *c = expected_case("paddleseg_hrnet_fp32_n1c1");
    if (!a || !b || !c)
        cr_skip_test("%s/fixtures not available", shared_dir());
    char fa[64], fb[64], fcg[64];
    figure_of(a, fa, sizeof fa);
    figure_of(b, fb, sizeof fb);
    figure_of(c, fcg, sizeof fcg);
    char *la = fixture_args(a), *lb = fixture_args(b), *lc = fixture_args(c);
    const fit_case known = {NULL, NULL, NULL, 10, "trimmed_mean", 0.05, 5, NULL, -1};

    char *args = pr_xasprintf("--rule '{\"profile\": \"paddle-ips\", \"scope\": \"per_card\"}' "
                              "--limit 0 --fit %s --gpus 1%s --fit %s --gpus 1%s",
                              fa, la, fb, lb);
    char *out;
    cr_assert_eq(run_parse(args, &out), 0, "%s", out);
    json_t *rules = listed_rules(out, "reproduces both figures (simplest first):");
    cr_assert_eq(json_array_size(rules), 1, "%s", out);
    cr_expect(has_keys(json_array_get(rules, 0), &known), "%s", out);
    json_decref(rules);
    free(out);
    free(args);

    args = pr_xasprintf("--rule '{\"profile\": \"paddle-ips\", \"scope\": \"per_card\"}' "
                        "--gpus 1 --fit %s%s --fit %s%s --fit %s%s",
                        fa, la, fb, lb, fcg, lc);
    cr_assert_eq(run_parse(args, &out), 1, "%s", out);
    cr_expect_not_null(strstr(out, "no rule reproduces all 3 figures"), "%s", out);
    rules = listed_rules(out, "reproduces 2 of the 3 figures (simplest first):");
    cr_assert_geq(json_array_size(rules), 1, "%s", out);
    cr_expect(has_keys(json_array_get(rules, 0), &known), "%s", out);
    cr_expect_not_null(strstr(out, "[3] 19.4"), "the missed figure is named\n%s", out);
    cr_expect_not_null(strstr(out, "misses 19.428"), "%s", out);
    json_decref(rules);
    free(out);
    free(args);
    free(la);
    free(lb);
    free(lc);
    json_decref(a);
    json_decref(b);
    json_decref(c);
}

/* A figure no rule gives: "no rule", then the closest (the best record). */
Test(fit, no_rule_lists_the_closest)
{
    need_measure();
    json_t *exp = expected_case("paddle_rn50_v100_fp32_n1c1");
    if (!exp)
        cr_skip_test("%s/fixtures not available", shared_dir());
    char *logs = fixture_args(exp);
    char *args = pr_xasprintf("--rule '{\"profile\": \"paddle-ips\", \"scope\": \"per_card\"}' "
                              "--gpus 1 --fit 500%s",
                              logs);
    char *out;
    cr_assert_eq(run_parse(args, &out), 1, "%s", out);
    cr_expect_not_null(strstr(out, "no rule reproduces 500\n"), "%s", out);
    json_t *rules = listed_rules(out, "the closest rules");
    cr_assert_eq(json_array_size(rules), 5, "%s", out);
    json_t *first = json_array_get(rules, 0);
    cr_expect_str_eq(json_string_value(json_object_get(first, "reduce")), "best", "%s", out);
    cr_expect_not_null(strstr(out, "misses 500 (-"), "the difference is given\n%s", out);
    json_decref(rules);
    free(out);
    free(args);
    free(logs);
    json_decref(exp);
}

Test(fit, truncation_only_is_said)
{
    need_measure();
    char *log = temp_log("ips: 12.3456\n");
    char *args = pr_xasprintf("--rule '{\"profile\": \"paddle-ips\", \"scope\": \"global\"}' "
                              "--fit 12.34 %s",
                              log);
    char *out;
    cr_expect_eq(run_parse(args, &out), 1, "%s", out);
    cr_expect_not_null(strstr(out, "no rule reproduces 12.34\n"), "%s", out);
    cr_expect_not_null(strstr(out, "1 rule reproduces 12.34 only by truncation"), "%s", out);
    cr_expect_not_null(strstr(out, "12.34560 -> 12.34 only by truncation (it rounds to 12.35)"),
                       "%s", out);
    free(out);
    free(args);
    /* 428 is reproduced by 427.5 .. 428.49 */
    unlink(log);
    free(log);
    log = temp_log("ips: 427.5\nips: 428.4\n");
    args = pr_xasprintf("--rule '{\"profile\": \"paddle-ips\", \"scope\": \"global\"}' "
                        "--limit 0 --fit 428 %s",
                        log);
    cr_expect_eq(run_parse(args, &out), 0, "%s", out);
    json_t *rules = listed_rules(out, " (simplest first):");
    /* mean, last, best, min (427.5 rounds to 428 as Python's round: ties to
     * even), skip 1; the median of two is the mean, not listed again */
    cr_expect_eq(json_array_size(rules), 5, "%s", out);
    json_decref(rules);
    free(out);
    free(args);
    unlink(log);
    free(log);
}

Test(fit, usage_errors_exit_2)
{
    need_measure();
    char *log = temp_log("ips: 1\n");
    static const char *const bad[] = {
        "--fit 1e3 %s",            /* not a figure as printed */
        "--fit -5 %s",             /* nor is a sign */
        "--fit 1,234 %s",          /* nor grouped digits */
        "--fit 12",                /* no LOG */
        "--explain --fit 1 %s",    /* not together */
        "--fit 1 --limit 2 %s",    /* only case options after --fit */
        "%s --fit 1 %s",           /* a LOG before the first --fit */
        "--out /tmp/x --fit 1 %s", /* nothing is filed */
        "--fit 1 /nonexistent/log",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *tail = pr_xasprintf(bad[i], log, log);
        char *args = pr_xasprintf("--rule '{\"profile\": \"paddle-ips\", \"scope\": \"global\"}' "
                                  "%s",
                                  tail);
        char *out;
        cr_expect_eq(run_parse(args, &out), 2, "%s: %s", args, out);
        cr_expect_not_null(strstr(out, "perfrepro-measure parse: "), "%s", out);
        free(out);
        free(args);
        free(tail);
    }
    /* a per_card rule without --gpus: the case's options are checked */
    char *args = pr_xasprintf("--rule '{\"profile\": \"paddle-ips\", \"scope\": \"per_card\"}' "
                              "--fit 1 %s",
                              log);
    char *out;
    cr_expect_eq(run_parse(args, &out), 2, "%s", out);
    cr_expect_not_null(strstr(out, "--gpus"), "%s", out);
    free(out);
    free(args);
    unlink(log);
    free(log);
}

/* A figure that cannot be a result is refused, naming --fit: "--fit 0"
 * was searched and every rule listed "+10000.08 %" off it. */
Test(fit, a_figure_that_cannot_be_a_result_is_refused)
{
    need_measure();
    char *log = temp_log("ips: 100\nips: 101\n");
    static const struct {
        const char *fig, *says;
    } bad[] = {
        {"0", "cannot be a result"},        {"0.000", "cannot be a result"},
        {"00", "cannot be a result"},       {"-0", "cannot be a result"},
        {"-5", "cannot be a result"},       {"inf", "not a finite number"},
        {"nan", "not a finite number"},     {"1e999", "not a finite number"},
        {"abc", "not a figure as printed"}, {"", "not a figure as printed"},
        {"1e3", "not a figure as printed"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *args = pr_xasprintf("--rule '{\"profile\": \"paddle-ips\", \"scope\": \"global\"}' "
                                  "--fit '%s' %s",
                                  bad[i].fig, log);
        char *out;
        cr_expect_eq(run_parse(args, &out), 2, "%s: %s", args, out);
        cr_expect_not_null(strstr(out, "perfrepro-measure parse: --fit: "), "%s", out);
        cr_expect_not_null(strstr(out, bad[i].says), "%s: %s", bad[i].fig, out);
        free(out);
        free(args);
    }
    /* the library says the same */
    pr_err err;
    cr_expect_eq(fit_figure_check("0.00", &err), -1);
    cr_expect_not_null(strstr(err.msg, "--fit: \"0.00\" cannot be a result"), "%s", err.msg);
    cr_expect_eq(fit_figure_check("0.5", &err), 1);
    cr_expect_eq(fit_figure_check("428", &err), 0);
    unlink(log);
    free(log);
}

/* Issue 33: --fit takes a figure as printed whatever its length: an MLPerf
 * score printed to 17 digits was refused (12 decimals at most), and the
 * value it is, computed in full, reproduces it. */
Test(fit, a_figure_of_any_length_is_taken)
{
    pr_err err;
    cr_expect_eq(fit_figure_check("20.576116666666667", &err), 15, "%s", err.msg);
    cr_expect_eq(fit_figure_check("0.00000000000000012345678", &err), 23, "%s", err.msg);
    cr_expect_eq(pr_stats_printed_match(1234567.0 / 60000.0, "20.576116666666667"),
                 PR_PRINTED_ROUNDED);
    cr_expect_eq(pr_stats_printed_match(1234567.0 / 60000.0, "20.576116666666668"),
                 PR_PRINTED_DIFFERS);
}

/* ---- --explain ---- */

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* explain_run's writer for tests: appends to the pr_buf arg. */
static int append_text(const char *text, size_t len, void *arg, pr_err *err)
{
    (void)err;
    pr_buf_put(arg, text, len);
    return 0;
}

/* What a streamed explanation wrote, piece by piece. */
typedef struct pieces {
    size_t n, largest, total, lines, fail_at;
    unsigned long long kept;
} pieces;

static int count_piece(const char *text, size_t len, void *arg, pr_err *err)
{
    pieces *p = arg;
    p->n++;
    p->total += len;
    if (len > p->largest)
        p->largest = len;
    for (size_t i = 0; i < len; i++)
        p->lines += text[i] == '\n';
    if (p->fail_at && p->n == p->fail_at)
        return pr_err_set(err, NULL, 0, 0, NULL, "writing: No space left on device");
    return 0;
}

/* Hardening (#22): --explain held its whole listing in memory (1.55 GB for
 * a 1 GB log).  It is written out as it is made: on a log of 300,000
 * records no piece is much larger than PR_EXPLAIN_CHUNK, every record is
 * listed, and a writer that fails stops it with its error. */
Test(explain, streams_its_listing)
{
    pr_buf b = PR_BUF_INIT;
    for (int i = 0; i < 300000; i++)
        pr_buf_printf(&b, "step %d ips: %d.%02d samples/sec\n", i, 390 + i % 9, i % 100);
    char *log = temp_log(pr_buf_cstr(&b));
    pr_buf_free(&b);
    const char *rules[] = {"{\"profile\": \"paddle-ips\", \"scope\": \"global\", \"skip\": 10}",
                           "{\"profile\": \"paddle-ips\", \"scope\": \"global\", \"reduce\": "
                           "\"trimmed_mean\"}"};
    for (size_t r = 0; r < 2; r++) {
        pr_rule *rule = NULL;
        pr_err err;
        cr_assert_eq(rule_parse("<t>", rules[r], strlen(rules[r]), &rule, &err), 0, "%s", err.msg);
        const char *logs[] = {log};
        pr_parse_args args = {0, 0, 0, NULL};
        pieces p = {0};
        int has_value = 0;
        cr_assert_eq(explain_run(rule, logs, 1, &args, count_piece, &p, &has_value, &err), 0, "%s",
                     err.msg);
        cr_expect(has_value);
        /* a header, the records, the counts and the result */
        cr_expect_geq(p.lines, 300000, "%zu lines", p.lines);
        cr_expect_gt(p.n, p.total / (2 * PR_EXPLAIN_CHUNK), "%zu pieces of %zu bytes", p.n,
                     p.total);
        cr_expect_leq(p.largest, PR_EXPLAIN_CHUNK + 4096, "a piece of %zu bytes", p.largest);
        /* a full disk on the third piece */
        pieces q = {.fail_at = 3};
        cr_expect_eq(explain_run(rule, logs, 1, &args, count_piece, &q, &has_value, &err), -1);
        cr_expect_eq(q.n, 3);
        cr_expect_not_null(strstr(err.msg, "No space left on device"), "%s", err.msg);
        rule_free(rule);
    }
    unlink(log);
    free(log);
}

/* Every record is accounted for, and the result is the record's value. */
Test(explain, paddle_trimmed_mean_matches_the_record)
{
    need_measure();
    json_t *exp = expected_case("paddle_rn50_v100_fp32_n1c1");
    if (!exp)
        cr_skip_test("%s/fixtures not available", shared_dir());
    char *logs = fixture_args(exp);
    const char *rule = "{\"profile\": \"paddle-ips\", \"scope\": \"per_card\", \"skip\": 10, "
                       "\"reduce\": \"trimmed_mean\", \"trim\": {\"fraction\": 0.05, \"min\": 5}}";
    char *args = pr_xasprintf("--rule '%s' --gpus 1 --explain%s", rule, logs);
    char *out;
    cr_assert_eq(run_parse(args, &out), 0, "%s", out);
    cr_expect_eq(count(out, "skipped (warm-up, "), 10, "%s", out);
    cr_expect_eq(count(out, "trimmed (low end)"), 5, "%s", out);
    cr_expect_eq(count(out, "trimmed (high end)"), 5, "%s", out);
    cr_expect_eq(count(out, "  kept\n"), 68, "%s", out);
    cr_expect_not_null(strstr(out, "= 5 dropped from each end; mean of the 68 kept = "), "%s", out);
    free(args);
    /* the result line is the record's FINAL_RESULT */
    args = pr_xasprintf("--rule '%s' --gpus 1%s", rule, logs);
    char *rec_text;
    cr_assert_eq(run_parse(args, &rec_text), 0);
    json_t *rec = json_loads(rec_text, 0, NULL);
    cr_assert_not_null(rec);
    char want[128];
    snprintf(want, sizeof want, "result: %.10g samples/s\n",
             json_number_value(json_object_get(rec, "FINAL_RESULT")));
    cr_expect_not_null(strstr(out, want), "%s not in\n%s", want, out);
    json_decref(rec);
    free(rec_text);
    free(out);
    free(args);

    /* a rule that leaves too few records: exit 1, and the text says why */
    args = pr_xasprintf("--rule '{\"profile\": \"paddle-ips\", \"scope\": \"per_card\", "
                        "\"skip\": 1000}' --gpus 1 --explain%s",
                        logs);
    cr_assert_eq(run_parse(args, &out), 1, "%s", out);
    cr_expect_eq(count(out, "skipped (warm-up, "), 88, "%s", out);
    cr_expect_not_null(strstr(out, "result: none (too_few_records: "), "%s", out);
    free(out);
    free(args);
    free(logs);
    json_decref(exp);
}

/* The library call: other steps, ranks, a median's middle records. */
Test(explain, library_marks_steps_ranks_and_the_median)
{
    char *log = temp_log(
        "DLL 2023-08-04 05:46:28.1 - Epoch: 0 Iteration: 1  train.total_ips : 300.5 images/s\n"
        "[1,1]<stdout>:DLL 2023-08-04 05:46:28.1 - Epoch: 0 Iteration: 1  train.total_ips : 9 \n"
        "DLL 2023-08-04 05:46:28.2 - Epoch: 0 Iteration: 2  train.total_ips : 360.25 images/s\n"
        "DLL 2023-08-04 05:46:28.3 - Epoch: 0 Iteration: 3  train.total_ips : 365 images/s\n"
        "DLL 2023-08-04 05:46:28.4 - Epoch: 0  train.total_ips : 350.75 images/s\n");
    pr_rule *rule = NULL;
    pr_err err;
    const char *rj = "{\"profile\": \"dllogger\", \"keyword\": \"train.total_ips\", "
                     "\"scope\": \"global\", \"reduce\": \"median\"}";
    cr_assert_eq(rule_parse("<t>", rj, strlen(rj), &rule, &err), 0, "%s", err.msg);
    pr_buf out = PR_BUF_INIT;
    int has_value = 0;
    const char *logs[] = {log};
    pr_parse_args args = {0, 0, 0, NULL};
    cr_assert_eq(explain_run(rule, logs, 1, &args, append_text, &out, &has_value, &err), 0, "%s",
                 err.msg);
    const char *t = pr_buf_cstr(&out);
    cr_expect(has_value);
    cr_expect_not_null(strstr(t, "other rank (rank 1; the rule reads rank 0)"), "%s", t);
    cr_expect_not_null(strstr(t, "other step (epoch line; \"step\": \"epoch\" takes it)"), "%s", t);
    cr_expect_not_null(strstr(t, "360.25  kept (median)"), "%s", t);
    cr_expect_not_null(strstr(t, "median of the 3 used records = 360.25 (the middle one in "
                                 "order, line 3)"),
                       "%s", t);
    cr_expect_not_null(strstr(t, "result: 360.25 samples/s\n"), "%s", t);
    pr_buf_free(&out);
    rule_free(rule);
    unlink(log);
    free(log);
}
