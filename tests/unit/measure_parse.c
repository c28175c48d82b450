/* measure/parse, rule, logscan: published figures reproduced from real logs,
 * and what is not one rule over a written log (the CLI, logs generated to
 * cross the scanner's buffer, file positions, the normal form, the profile
 * table).  The cases that are data (a rule, a log, what comes out, or the
 * rule's refusal) are tests/parse's .test files, run by measure_parse_cases.
 *
 * The real logs live in ../shared/fixtures (PERFREPRO_SHARED overrides
 * ../shared); the fixture tests skip when it is absent.  The published
 * figures are read from expected.json, never copied here. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "1-facts/logscan.h"
#include "2-parse/parse.h"
#include "2-parse/rule.h"
#include "buf.h"
#include "jdoc.h"
#include "record.h"

/* ======================================================================
 * Helpers
 * ====================================================================== */

static const char *shared_dir(void)
{
    const char *s = getenv("PERFREPRO_SHARED");
    return s && *s ? s : "../shared";
}

/* expected.json's entry for id (a new reference), or NULL (test skipped). */
static json_t *expected_case(const char *id)
{
    char *path = pr_xasprintf("%s/fixtures/expected.json", shared_dir());
    json_t *root = json_load_file(path, 0, NULL);
    free(path);
    if (!root)
        return NULL;
    json_t *found = NULL;
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(root, "cases"), i, c)
    {
        if (strcmp(json_string_value(json_object_get(c, "id")), id) == 0)
            found = json_incref(c);
    }
    json_decref(root);
    return found;
}

/* Half a unit in the last published decimal: 393.561 -> 0.0005. */
static double published_tolerance(double published)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.10g", published);
    const char *dot = strchr(buf, '.');
    int decimals = dot ? (int)strlen(dot + 1) : 0;
    return 0.5 * pow(10, -decimals) + 1e-9;
}

typedef struct tmpdir {
    char path[64];
} tmpdir;

static void tmp_open(tmpdir *t)
{
    strcpy(t->path, "/tmp/perfrepro-test-XXXXXX");
    cr_assert_not_null(mkdtemp(t->path));
}

static void tmp_close(tmpdir *t)
{
    char *cmd = pr_xasprintf("rm -rf '%s'", t->path);
    cr_expect_eq(system(cmd), 0);
    free(cmd);
}

/* Writes a file in t; returns its malloc'd path. */
static char *tmp_file(tmpdir *t, const char *name, const char *data, size_t len)
{
    char *path = pr_xasprintf("%s/%s", t->path, name);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
    return path;
}

static char *tmp_text(tmpdir *t, const char *name, const char *text)
{
    return tmp_file(t, name, text, strlen(text));
}

/* Parses logs with the rule given as JSON text.  Returns parse_logs's
 * status; a rule that does not build fails the test. */
static int parse_with(const char *rule_json, const char *const *logs, size_t n, pr_parse_args args,
                      pr_parse_result *res, pr_err *err)
{
    pr_rule *rule = NULL;
    int rc = rule_parse("<test>", rule_json, strlen(rule_json), &rule, err);
    cr_assert_eq(rc, 0, "rule %s: %s", rule_json, err->msg);
    parse_result_init(res);
    rc = parse_logs(rule, logs, n, &args, res, err);
    rule_free(rule);
    return rc;
}

static long long stat_int(const pr_parse_result *res, const char *key)
{
    json_t *v = json_object_get(res->stats, key);
    cr_assert(json_is_integer(v), "stats.%s missing", key);
    return json_integer_value(v);
}

/* One log, expecting success: returns the value. */
static double value_of(const char *rule_json, const char *log, pr_parse_args args,
                       pr_parse_result *res)
{
    pr_err err;
    const char *logs[] = {log};
    cr_assert_eq(parse_with(rule_json, logs, 1, args, res, &err), 0, "%s", err.msg);
    cr_assert_not(res->failed, "failed: %s: %s", res->fail_reason,
                  res->fail_detail ? res->fail_detail : "");
    return res->value;
}

static const pr_parse_args NO_ARGS = {0, 0, 0, NULL};

/* ======================================================================
 * Published figures from real logs (expected.json)
 * ====================================================================== */

/* Each row: the fixture's id in expected.json, the rule that reproduces its
 * published figure (as it would stand in a suite), the command-line facts,
 * and a tolerance when the figure cannot be met to its printed precision. */
typedef struct fixture_case {
    const char *id;
    const char *rule;
    int gpus, batch_size;
    double tolerance; /* 0: half a unit in the published figure's last decimal */
    const char *why;
} fixture_case;

static const fixture_case fixtures[] = {
    {"paddle_rn50_v100_fp32_n1c1",
     "{\"profile\": \"paddle-ips\", \"scope\": \"per_card\", \"skip\": 10,"
     " \"reduce\": \"trimmed_mean\", \"trim\": {\"fraction\": 0.05, \"min\": 5}}",
     1, 256, 0, NULL},
    {"paddle_bert_v100_fp32_n1c1",
     "{\"profile\": \"paddle-ips\", \"scope\": \"per_card\", \"skip\": 10,"
     " \"reduce\": \"trimmed_mean\", \"trim\": {\"fraction\": 0.05, \"min\": 5},"
     " \"unit\": \"sequences/s\"}",
     1, 96, 0, NULL},
    {"paddleseg_hrnet_fp32_n1c1",
     "{\"profile\": \"paddle-ips\", \"scope\": \"per_card\", \"skip\": 2,"
     " \"reduce\": \"trimmed_mean\", \"trim\": {\"fraction\": 0.05, \"min\": 5}}",
     1, 8, 0, NULL},
    {"ngc_pytorch_rn50_fp32_gpu1",
     "{\"profile\": \"dllogger\", \"keyword\": \"train.total_ips\", \"step\": \"iteration\","
     " \"scope\": \"global\", \"skip\": 9, \"unit\": \"images/s\"}",
     1, 256, 0, NULL},
    {"ngc_tf_rn50_fp32_gpu1",
     "{\"profile\": \"dllogger\", \"keyword\": \"total_ips\", \"scope\": \"global\","
     " \"skip\": 5, \"unit\": \"images/s\"}",
     1, 256, 0, NULL},
    {"ngc_mxnet_rn50_fp32_gpu1",
     "{\"profile\": \"mxnet-summary\", \"table\": \"train.ips\", \"scope\": \"global\","
     " \"unit\": \"images/s\"}",
     1, 128, 0, NULL},
    {"ngc_pytorch_bert_fp32_gpu1",
     "{\"profile\": \"dllogger\", \"keyword\": \"training_sequences_per_second\","
     " \"step\": \"summary\", \"scope\": \"global\", \"unit\": \"sequences/s\"}",
     1, 96, 0, NULL},
    {"mmseg_hrnet_fp32_c1", "{\"profile\": \"mmseg\", \"skip\": 4}", 1, 8, 0, NULL},
    {"dlperf_tf2_rn50_1n1g",
     "{\"profile\": \"keras-timehistory\", \"scope\": \"global\", \"skip\": 1,"
     " \"min_records\": 5, \"round\": 2, \"unit\": \"images/s\"}",
     1, 128, 0, NULL},
    {"dlperf_tf2_rn50_1n2g",
     "{\"profile\": \"keras-timehistory\", \"scope\": \"global\", \"skip\": 1,"
     " \"min_records\": 5, \"round\": 2, \"unit\": \"images/s\"}",
     2, 128, 0, NULL},
    {"dlperf_tf2_rn50_1n4g",
     "{\"profile\": \"keras-timehistory\", \"scope\": \"global\", \"skip\": 1,"
     " \"min_records\": 5, \"round\": 2, \"unit\": \"images/s\"}",
     4, 128, 0, NULL},
    {"nccl_h100x16_allreduce_pre217", "{\"profile\": \"nccl-tests\", \"source\": \"avg_busbw\"}", 0,
     0, 0, NULL},
    {"nccl_rtx5090_allreduce_mpi_prefix",
     "{\"profile\": \"nccl-tests\", \"source\": \"avg_busbw\"}", 0, 0, 0, NULL},
    {"nccl_a100x16_allreduce_legacy_error_col",
     "{\"profile\": \"nccl-tests\", \"source\": \"avg_busbw\"}", 0, 0, 0, NULL},
    /* The footer is the mean of every busbw cell at full precision; the
     * table prints them to 2 decimals, so the mean of the printed cells is
     * within half a cent of it. */
    {"nccl_h100x16_allreduce_pre217",
     "{\"profile\": \"nccl-tests\", \"source\": \"rows\", \"column\": \"busbw\","
     " \"placement\": \"both\"}",
     0, 0, 0.005, "rows"},
    {"nccl_rtx5090_allreduce_mpi_prefix", "{\"profile\": \"nccl-tests\", \"source\": \"rows\"}", 0,
     0, 0.005, "rows"},
    {"nccl_a100x16_allreduce_legacy_error_col",
     "{\"profile\": \"nccl-tests\", \"source\": \"rows\"}", 0, 0, 0.005, "rows"},
    {"mlperf_v40_eos_n8_bert", "{\"profile\": \"mllog\", \"unit\": \"minutes\"}", 0, 0, 0, NULL},
};

#define NFIXTURES (sizeof fixtures / sizeof fixtures[0])

/* The fixture's log paths (malloc'd, NULL-terminated). */
static char **fixture_logs(json_t *exp, size_t *n)
{
    json_t *files = json_object_get(exp, "files");
    json_t *file = json_object_get(exp, "file");
    size_t count = files ? json_array_size(files) : 1;
    char **v = pr_xcalloc(count + 1, sizeof *v);
    for (size_t i = 0; i < count; i++) {
        const char *rel = json_string_value(files ? json_array_get(files, i) : file);
        v[i] = pr_xasprintf("%s/fixtures/%s", shared_dir(), rel);
    }
    *n = count;
    return v;
}

ParameterizedTestParameters(fixtures, reproduce)
{
    static int idx[NFIXTURES];
    for (size_t i = 0; i < NFIXTURES; i++)
        idx[i] = (int)i;
    return cr_make_param_array(int, idx, NFIXTURES);
}

ParameterizedTest(int *i, fixtures, reproduce)
{
    const fixture_case *fc = &fixtures[*i];
    json_t *exp = expected_case(fc->id);
    if (!exp)
        cr_skip_test("%s/fixtures not available", shared_dir());
    double published = json_number_value(json_object_get(exp, "published"));
    size_t n;
    char **logs = fixture_logs(exp, &n);
    pr_parse_args args = {fc->gpus, fc->batch_size, 0, NULL};
    pr_parse_result res;
    pr_err err;
    cr_assert_eq(parse_with(fc->rule, (const char *const *)logs, n, args, &res, &err), 0, "%s: %s",
                 fc->id, err.msg);
    cr_assert_not(res.failed, "%s failed: %s: %s", fc->id, res.fail_reason,
                  res.fail_detail ? res.fail_detail : "");
    double tol = fc->tolerance > 0 ? fc->tolerance : published_tolerance(published);
    cr_expect(fabs(res.value - published) <= tol, "%s%s%s: got %.6f, published %.6f (tol %g)",
              fc->id, fc->why ? " " : "", fc->why ? fc->why : "", res.value, published, tol);

    /* Five runs: each run's rounded mean is the published per-run value. */
    json_t *per_run = json_object_get(exp, "per_run");
    if (per_run) {
        json_t *got = json_object_get(res.stats, "per_run");
        cr_assert_eq(json_array_size(got), json_array_size(per_run));
        for (size_t k = 0; k < json_array_size(per_run); k++)
            cr_expect(fabs(json_number_value(json_array_get(got, k)) -
                           json_number_value(json_array_get(per_run, k))) < 1e-9,
                      "%s run %zu: got %.4f, published %.4f", fc->id, k + 1,
                      json_number_value(json_array_get(got, k)),
                      json_number_value(json_array_get(per_run, k)));
    }
    if (strcmp(fc->id, "mlperf_v40_eos_n8_bert") == 0) {
        json_t *ttt = json_object_get(res.metrics, "time_to_train_s");
        cr_expect(json_is_number(ttt) && fabs(json_number_value(ttt) - 60.0 * res.value) < 1e-9);
        cr_expect_eq(stat_int(&res, "runs"), 1, "head and tail are one result");
    }
    for (size_t k = 0; k < n; k++)
        free(logs[k]);
    free(logs);
    parse_result_clear(&res);
    json_decref(exp);
}

/* The published rule excludes what a naive parser would take. */
Test(fixtures, summary_lines_are_not_the_published_number)
{
    json_t *exp = expected_case("ngc_pytorch_rn50_fp32_gpu1");
    if (!exp)
        cr_skip_test("%s/fixtures not available", shared_dir());
    size_t n;
    char **logs = fixture_logs(exp, &n);
    pr_parse_result res;
    /* The "Epoch: 0" line holds the log's own average (366.74). */
    double v = value_of("{\"profile\": \"dllogger\", \"keyword\": \"train.total_ips\","
                        " \"step\": \"epoch\", \"scope\": \"global\"}",
                        logs[0], NO_ARGS, &res);
    cr_expect(fabs(v - 366.74) < 1e-9, "got %f", v);
    parse_result_clear(&res);
    /* "any" takes iterations, the epoch line and the Summary line. */
    value_of("{\"profile\": \"dllogger\", \"keyword\": \"train.total_ips\","
             " \"step\": \"any\", \"scope\": \"global\"}",
             logs[0], NO_ARGS, &res);
    cr_expect_eq(stat_int(&res, "records_seen"), 99 + 2);
    cr_expect(stat_int(&res, "ignored") == 0);
    parse_result_clear(&res);
    for (size_t k = 0; k < n; k++)
        free(logs[k]);
    free(logs);
    json_decref(exp);
}

/* ---- the same cases through the binary ---- */

static const char *measure_bin(void)
{
    const char *m = getenv("MEASURE");
    return m && *m ? m : "bin/perfrepro-measure";
}

/* Runs the CLI; returns its exit status and the record in *out (NULL when
 * stdout was not JSON). */
static int run_cli(const char *args, json_t **out)
{
    char *cmd = pr_xasprintf("%s parse %s 2>/dev/null", measure_bin(), args);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    pr_buf b = PR_BUF_INIT;
    char chunk[4096];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, p)) > 0)
        pr_buf_put(&b, chunk, k);
    int st = pclose(p);
    *out = json_loadb(b.data ? b.data : "", b.len, 0, NULL);
    pr_buf_free(&b);
    free(cmd);
    cr_assert(WIFEXITED(st));
    return WEXITSTATUS(st);
}

/* Runs fixture i through the CLI and checks the record. */
static void cli_fixture(size_t i)
{
    if (access(measure_bin(), X_OK) != 0)
        cr_skip_test("%s not built", measure_bin());
    const fixture_case *fc = &fixtures[i];
    json_t *exp = expected_case(fc->id);
    if (!exp)
        cr_skip_test("%s/fixtures not available", shared_dir());
    size_t n;
    char **logs = fixture_logs(exp, &n);
    pr_buf a = PR_BUF_INIT;
    pr_buf_printf(&a, "--rule '%s'", fc->rule);
    if (fc->gpus)
        pr_buf_printf(&a, " --gpus %d", fc->gpus);
    if (fc->batch_size)
        pr_buf_printf(&a, " --batch-size %d", fc->batch_size);
    for (size_t k = 0; k < n; k++)
        pr_buf_printf(&a, " '%s'", logs[k]);
    json_t *rec = NULL;
    int rc = run_cli(pr_buf_cstr(&a), &rec);
    cr_expect_eq(rc, 0, "%s: exit %d", fc->id, rc);
    cr_assert_not_null(rec, "%s: no JSON on stdout", fc->id);
    double published = json_number_value(json_object_get(exp, "published"));
    double got = json_number_value(json_object_get(rec, "FINAL_RESULT"));
    double tol = fc->tolerance > 0 ? fc->tolerance : published_tolerance(published);
    cr_expect(fabs(got - published) <= tol, "%s: got %f, published %f", fc->id, got, published);
    cr_expect_eq(json_integer_value(json_object_get(rec, "JOB_FAIL_FLAG")), 0);
    cr_expect_str_eq(json_string_value(json_object_get(rec, "origin")), "parsed");
    cr_expect(json_is_object(json_object_get(rec, "rule")), "the rule is in the record");
    cr_expect(json_is_object(json_object_get(rec, "stats")));
    /* The record the CLI prints loads back through the one record reader
     * (batch_size 0 aside: nccl and MLPerf cases have none). */
    if (fc->batch_size) {
        char *text = json_dumps(rec, 0);
        pr_jdoc *doc = NULL;
        pr_err err;
        cr_assert_eq(pr_jdoc_parse("<cli>", text, strlen(text), &doc, &err), 0);
        pr_jdoc_jcur root = pr_jdoc_root(doc);
        pr_record r;
        pr_record_init(&r);
        cr_expect_eq(pr_record_from_json(&root, &r, &err), 0, "%s", err.msg);
        pr_record_clear(&r);
        pr_jdoc_free(doc);
        free(text);
    }
    json_decref(rec);
    pr_buf_free(&a);
    for (size_t k = 0; k < n; k++)
        free(logs[k]);
    free(logs);
    json_decref(exp);
}

static size_t fixture_index(const char *id, const char *why)
{
    for (size_t i = 0; i < NFIXTURES; i++)
        if (strcmp(fixtures[i].id, id) == 0 &&
            ((!why && !fixtures[i].why) ||
             (why && fixtures[i].why && !strcmp(why, fixtures[i].why))))
            return i;
    cr_assert_fail("no fixture %s", id);
    return 0;
}

Test(cli, paddle_trimmed_mean)
{
    cli_fixture(fixture_index("paddle_rn50_v100_fp32_n1c1", NULL));
}
Test(cli, dlperf_five_runs_median)
{
    cli_fixture(fixture_index("dlperf_tf2_rn50_1n4g", NULL));
}
Test(cli, mxnet_mpirun_summary_table)
{
    cli_fixture(fixture_index("ngc_mxnet_rn50_fp32_gpu1", NULL));
}
Test(cli, nccl_rows)
{
    cli_fixture(fixture_index("nccl_a100x16_allreduce_legacy_error_col", "rows"));
}
Test(cli, mllog_head_and_tail)
{
    cli_fixture(fixture_index("mlperf_v40_eos_n8_bert", NULL));
}
Test(cli, mmseg_seconds_per_step)
{
    cli_fixture(fixture_index("mmseg_hrnet_fp32_c1", NULL));
}

Test(cli, exit_statuses)
{
    if (access(measure_bin(), X_OK) != 0)
        cr_skip_test("%s not built", measure_bin());
    tmpdir t;
    tmp_open(&t);
    char *empty = tmp_text(&t, "empty.log", "");
    char *good = tmp_text(&t, "good.log", "ips: 10\nips: 20\n");
    json_t *rec = NULL;
    char *a = pr_xasprintf("--rule '{\"keyword\": \"ips:\", \"scope\": \"global\"}' '%s'", empty);
    cr_expect_eq(run_cli(a, &rec), 1, "a failed case exits 1");
    cr_assert_not_null(rec, "the failed case's record is still printed");
    cr_expect(json_is_null(json_object_get(rec, "FINAL_RESULT")));
    cr_expect_eq(json_integer_value(json_object_get(rec, "JOB_FAIL_FLAG")), 1);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(rec, "failure"), "reason")),
                     "no_records");
    json_decref(rec);
    free(a);
    /* usage and rule errors: 2, nothing on stdout */
    const char *bad[] = {
        "--rule '{\"keyword\": \"ips:\"}' '%s'",                                 /* no scope */
        "--rule '{\"keyword\": \"ips:\", \"scope\": \"global\"}' --gpus 0 '%s'", /* range */
        "--rule '{\"keyword\": \"ips:\", \"scope\": \"global\"}' --gpus 3x '%s'",
        "--rule '{\"keyword\": \"ips:\", \"scope\": \"per_card\"}' '%s'", /* --gpus needed */
        "--rule '{\"keyword\": \"ips:\", \"scope\": \"global\"}' --precision fp33 '%s'",
        "--rule '{\"keyword\": \"ips:\", \"scope\": \"global\"}' '%s.missing'",
        "--rule @/nonexistent/rule.json '%s'",
        "--bogus '%s'",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        a = pr_xasprintf(bad[i], good);
        rec = NULL;
        cr_expect_eq(run_cli(a, &rec), 2, "%s", a);
        cr_expect_null(rec, "%s printed a record", a);
        json_decref(rec);
        free(a);
    }
    a = pr_xasprintf("--rule '{\"keyword\": \"ips:\", \"scope\": \"per_card\"}' --gpus 8 "
                     "--nodes 2 --batch-size 32 --precision amp --model ResNet50 "
                     "--framework PyTorch --case rn50_amp '%s'",
                     good);
    cr_expect_eq(run_cli(a, &rec), 0);
    cr_assert_not_null(rec);
    cr_expect(fabs(json_number_value(json_object_get(rec, "FINAL_RESULT")) - 120.0) < 1e-9);
    cr_expect_eq(json_integer_value(json_object_get(rec, "gpu_num")), 8);
    cr_expect_eq(json_integer_value(json_object_get(rec, "gpus_per_node")), 4);
    cr_expect_str_eq(json_string_value(json_object_get(rec, "run_mode")), "mp");
    cr_expect_str_eq(json_string_value(json_object_get(rec, "case")), "rn50_amp");
    cr_expect_str_eq(json_string_value(json_object_get(rec, "precision")), "amp");
    json_decref(rec);
    free(a);
    free(empty);
    free(good);
    tmp_close(&t);
}

/* ======================================================================
 * Messy logs
 * ====================================================================== */

static const char *IPS_GLOBAL = "{\"keyword\": \"ips:\", \"scope\": \"global\"}";

Test(messy, line_longer_than_the_buffer)
{
    tmpdir t;
    tmp_open(&t);
    size_t big = PR_LOGSCAN_BUF * 2 + 123;
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, "ips: 1\n");
    pr_buf_puts(&b, "ips: 999 ");
    for (size_t i = 0; i < big; i++)
        pr_buf_putc(&b, 'x');
    pr_buf_puts(&b, "\nips: 3\n");
    /* a long last line without a newline */
    for (size_t i = 0; i < big; i++)
        pr_buf_putc(&b, 'y');
    char *log = tmp_file(&t, "long.log", b.data, b.len);
    pr_parse_result res;
    double v = value_of(IPS_GLOBAL, log, NO_ARGS, &res);
    cr_expect(fabs(v - 2.0) < 1e-9, "got %f: the overlong line must not count", v);
    cr_expect_eq(stat_int(&res, "overlong_lines"), 2);
    cr_expect_eq(stat_int(&res, "lines"), 4);
    cr_expect_eq(stat_int(&res, "bytes"), (long long)b.len);
    parse_result_clear(&res);
    pr_buf_free(&b);
    free(log);
    tmp_close(&t);
}

/* Line ends that fall on the scanner's buffer boundary: a \r\n split across
 * two reads is one break, and every line is seen once. */
Test(messy, breaks_across_buffer_boundaries)
{
    tmpdir t;
    tmp_open(&t);
    pr_buf b = PR_BUF_INIT;
    unsigned long long lines = 0;
    char pad[100];
    memset(pad, 'x', sizeof pad);
    while (b.len < 3 * PR_LOGSCAN_BUF) {
        /* vary line lengths so that every offset of \r\n meets a boundary */
        pr_buf_printf(&b, "ips: %llu %.*s\r\n", lines % 7, (int)(lines % 97), pad);
        lines++;
    }
    char *log = tmp_file(&t, "crlf.log", b.data, b.len);
    pr_parse_result res;
    value_of(IPS_GLOBAL, log, NO_ARGS, &res);
    cr_expect_eq(stat_int(&res, "lines"), (long long)lines);
    cr_expect_eq(stat_int(&res, "records_seen"), (long long)lines);
    parse_result_clear(&res);
    pr_buf_free(&b);
    free(log);
    tmp_close(&t);
}

/* The logs' own cases are in tests/parse/messy.test; here what a failed
 * case becomes in a record. */
Test(messy, empty_log_has_no_records)
{
    tmpdir t;
    tmp_open(&t);
    char *noise = tmp_text(&t, "noise.log", "starting\nips: None\nTraceback\n");
    pr_parse_result res;
    pr_err err;
    const char *logs[] = {noise};
    cr_assert_eq(parse_with(IPS_GLOBAL, logs, 1, NO_ARGS, &res, &err), 0);
    cr_expect_str_eq(res.fail_reason, "no_records");
    /* into a record: FINAL_RESULT null, never 0 */
    pr_rule *rule = NULL;
    cr_assert_eq(rule_parse("<t>", IPS_GLOBAL, strlen(IPS_GLOBAL), &rule, &err), 0);
    pr_record rec;
    pr_record_init(&rec);
    parse_to_record(rule, &res, &rec);
    json_t *o = pr_record_to_json(&rec);
    cr_expect(json_is_null(json_object_get(o, "FINAL_RESULT")));
    cr_expect_eq(json_integer_value(json_object_get(o, "JOB_FAIL_FLAG")), 1);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(o, "failure"), "reason")),
                     "no_records");
    cr_expect(json_is_object(json_object_get(o, "rule")));
    json_decref(o);
    pr_record_clear(&rec);
    rule_free(rule);
    parse_result_clear(&res);
    free(noise);
    tmp_close(&t);
}

/* A log that cannot be read (a .test block writes every log it names). */
Test(messy, unreadable_log_is_a_parse_error)
{
    tmpdir t;
    tmp_open(&t);
    char *r1 = tmp_text(&t, "r1.log", "ips: 10\n");
    pr_parse_result res;
    pr_err err;
    const char *missing[] = {r1, "/nonexistent/perfrepro.log"};
    cr_assert_eq(parse_with(IPS_GLOBAL, missing, 2, NO_ARGS, &res, &err), 0);
    cr_expect(res.failed);
    cr_expect_str_eq(res.fail_reason, "parse_error");
    parse_result_clear(&res);
    free(r1);
    tmp_close(&t);
}

/* ======================================================================
 * perfrepro-gpu tables (the goldens of tests/unit/measure_gpu_host.c); the
 * cases over written tables are in tests/parse/gpu.test
 * ====================================================================== */

static const char GPU_BW[] =
    "# perfrepro-gpu bw: nGpus 1 minBytes 1048576 maxBytes 1073741824 step: 1024(factor) "
    "warmup iters: 5 iters: 20 validation: 1\n"
    "#\n"
    "# Using devices\n"
    "#\n"
    "# Theoretical peak : 3352.32 GB/s (2 x 2619 MHz memory clock x 5120-bit bus / 8)\n"
    "# L2 cache 50.0 MiB: rows whose buffers fit in it measure the cache, not the memory\n"
    "# GB/s counts bytes read plus bytes written (copy and memcpy move 2 x size)\n"
    "#\n"
    "#                           copy                               read                           "
    "   memcpy\n"
    "#       size     time      GB/s   %peak  #wrong     time      GB/s   %peak  #wrong     time   "
    "   GB/s   %peak  #wrong\n"
    "#        (B)     (us)    (GB/s)     (%)             (us)    (GB/s)     (%)             (us)   "
    " (GB/s)     (%)\n"
    "     1048576     5.20    403.30    12.0       0     3.10    338.20    10.1       0      N/A   "
    "    N/A     N/A     N/A\n"
    "  1073741824    722.5   2972.10    88.7       0    355.1   3023.70    90.2       0    745.0   "
    "2882.40    86.0       0\n"
    "# Bandwidth copy : 2972.10 GB/s (88.7% of peak) at 1073741824 B\n"
    "# Bandwidth read : 3023.70 GB/s (90.2% of peak) at 1073741824 B\n"
    "# Bandwidth memcpy : 2882.40 GB/s (86.0% of peak) at 1073741824 B\n"
    "# Out of bounds values : 0 OK\n"
    "#\n";

/* Runs rule on one log expecting a failure; returns the result to check. */
static void gpu_fails(const char *rule_json, const char *log, pr_parse_result *res)
{
    pr_err err;
    const char *logs[] = {log};
    cr_assert_eq(parse_with(rule_json, logs, 1, NO_ARGS, res, &err), 0, "%s", err.msg);
    cr_assert(res->failed, "%s gave %g", rule_json, res->value);
}

Test(gpu_tables, mpirun_prefixes_and_other_ranks)
{
    tmpdir t;
    tmp_open(&t);
    pr_buf b = PR_BUF_INIT;
    int n = 0;
    for (const char *p = GPU_BW; *p; n++) {
        const char *e = strchr(p, '\n');
        pr_buf_printf(&b, "[1,0]<stdout>:%.*s\n", (int)(e - p), p);
        /* another rank's output between every line, headers included */
        if (n % 2)
            pr_buf_printf(&b, "[1,1]<stdout>:  1073741824    1.0   9999.00    99.9       0    "
                              "1.0   9999.00    99.9       0    1.0   9999.00    99.9       0\n");
        p = e + 1;
    }
    char *log = tmp_text(&t, "mpi.txt", pr_buf_cstr(&b));
    pr_parse_result res;
    double v = value_of("{\"profile\": \"perfrepro-gpu\", \"variant\": \"copy\", \"reduce\": "
                        "\"last\"}",
                        log, NO_ARGS, &res);
    cr_expect(fabs(v - 2972.10) < 1e-9, "got %f", v);
    cr_expect_eq(stat_int(&res, "records_seen"), 2);
    cr_expect_gt(stat_int(&res, "other_rank_lines"), 0);
    cr_expect(json_is_number(json_object_get(json_object_get(res.metrics, "table"), "peak")));
    parse_result_clear(&res);
    /* rank 1 alone has rows but no header: nothing to read */
    gpu_fails("{\"profile\": \"perfrepro-gpu\", \"rank\": 1}", log, &res);
    cr_expect_str_eq(res.fail_reason, "no_records");
    parse_result_clear(&res);
    pr_buf_free(&b);
    free(log);
    tmp_close(&t);
}

/* ======================================================================
 * Rules: validation and normal form
 * ====================================================================== */

/* The checker's messages, rule by rule: tests/parse/rule.test. */

Test(rule, errors_from_a_file_name_line_and_column)
{
    tmpdir t;
    tmp_open(&t);
    char *path = tmp_text(&t, "rule.json",
                          "{\n"
                          "  \"profile\": \"mmseg\",\n"
                          "  \"skip\": -3\n"
                          "}\n");
    pr_rule *r = NULL;
    pr_err err;
    cr_expect_eq(rule_load(path, &r, &err), -1);
    char *want = pr_xasprintf("%s:3:11: rule.skip: ", path);
    cr_expect(strncmp(err.msg, want, strlen(want)) == 0, "got: %s\nwant prefix: %s", err.msg, want);
    free(want);
    free(path);
    path = tmp_text(&t, "rule2.json",
                    "{\n"
                    "  \"match\": \"(a)(b)\",\n"
                    "  \"scope\": \"global\"\n"
                    "}\n");
    cr_expect_eq(rule_load(path, &r, &err), -1);
    want = pr_xasprintf("%s:2:12: rule.match: ", path);
    cr_expect(strncmp(err.msg, want, strlen(want)) == 0, "got: %s\nwant prefix: %s", err.msg, want);
    free(want);
    free(path);
    tmp_close(&t);
}

Test(rule, inside_a_larger_document_paths_are_the_documents)
{
    const char *text = "{\"cases\": [{\"rule\": {\"profile\": \"mmseg\", \"skip\": true}}]}";
    pr_jdoc *doc = NULL;
    pr_err err;
    cr_assert_eq(pr_jdoc_parse("suite.json", text, strlen(text), &doc, &err), 0);
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    pr_jdoc_jcur cases = pr_jdoc_jchild(&root, "cases");
    pr_jdoc_jcur c0 = pr_jdoc_jitem(&cases, 0);
    pr_jdoc_jcur rc = pr_jdoc_jchild(&c0, "rule");
    pr_rule *r = NULL;
    cr_expect_eq(rule_from_jcur(&rc, &r, &err), -1);
    cr_expect(strstr(err.msg, "suite.json:1:") == err.msg, "%s", err.msg);
    cr_expect(strstr(err.msg, "cases[0].rule.skip: expected an integer") != NULL, "%s", err.msg);
    pr_jdoc_free(doc);
    /* from a value already loaded: the field, no position */
    json_t *v = json_pack("{s:s, s:s}", "profile", "mmseg", "reduce", "mode");
    cr_expect_eq(rule_from_json(v, "suite.json", &r, &err), -1);
    cr_expect(strncmp(err.msg, "suite.json: rule.reduce: ", 25) == 0, "%s", err.msg);
    json_decref(v);
}

/* The normalised rule has every default written out and builds the same
 * rule again. */
Test(rule, normal_form_round_trips)
{
    const char *rules[] = {
        "{\"profile\": \"paddle-ips\", \"scope\": \"per_card\", \"skip\": 10, \"reduce\": "
        "\"trimmed_mean\"}",
        "{\"profile\": \"dllogger\", \"keyword\": \"train.total_ips\", \"scope\": \"global\"}",
        "{\"profile\": \"keras-timehistory\", \"scope\": \"global\", \"round\": 2}",
        "{\"profile\": \"keras-timehistory\", \"scope\": \"global\", \"line_filter\": \"\"}",
        "{\"profile\": \"megatron\", \"batch_keyword\": \"\"}",
        "{\"profile\": \"megatron\"}",
        "{\"profile\": \"nccl-tests\", \"source\": \"rows\", \"column\": \"time\"}",
        "{\"profile\": \"mllog\"}",
        "{\"profile\": \"mxnet-summary\", \"scope\": \"global\"}",
        "{\"match\": \"x=([0-9]+)\", \"value\": \"raw\", \"unit\": \"ms\", \"rank\": \"all\"}",
        "{\"profile\": \"perfrepro-gpu\"}",
        "{\"profile\": \"perfrepro-gpu\", \"variant\": \"fp16\", \"reduce\": \"max\", "
        "\"unit\": \"TFLOP/s\"}",
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        pr_rule *a = NULL, *b = NULL;
        pr_err err;
        cr_assert_eq(rule_parse("<t>", rules[i], strlen(rules[i]), &a, &err), 0, "%s: %s", rules[i],
                     err.msg);
        json_t *ja = rule_to_json(a);
        char *ta = json_dumps(ja, JSON_PRESERVE_ORDER);
        cr_assert_eq(rule_from_json(ja, "<normal>", &b, &err), 0, "%s: %s", ta, err.msg);
        json_t *jb = rule_to_json(b);
        char *tb = json_dumps(jb, JSON_PRESERVE_ORDER);
        cr_expect_str_eq(ta, tb);
        cr_expect_eq(memcmp(rule_get(a), rule_get(b), offsetof(pr_rulecfg_cfg, keyword)), 0);
        free(ta);
        free(tb);
        json_decref(ja);
        json_decref(jb);
        rule_free(a);
        rule_free(b);
    }
}

/* A profile is one row of lib/rulecfg.c's table: every row named, its
 * name read back as that profile, fuzz seeds distinct and clear of the
 * fuzzer's own values (0 no profile, 11 a custom rule), and fit's probe
 * walks the same rows (a probed profile builds without a key). */
Test(rule, profile_table_rows_are_whole)
{
    int seen_seed[256] = {0};
    cr_expect_str_eq(pr_rulecfg_profile_name(PR_PROFILE_NONE), "none");
    for (int p = 1; p < PR_PROFILE_COUNT; p++) {
        const char *name = pr_rulecfg_profile_name((pr_rulecfg_profile)p);
        cr_assert_not_null(name, "row %d has no name", p);
        char *text = pr_xasprintf("{\"profile\": \"%s\", \"scope\": \"global\", "
                                  "\"keyword\": \"k\"}",
                                  name);
        pr_rule *r = NULL;
        pr_err err;
        if (rule_parse("<t>", text, strlen(text), &r, &err) == 0) {
            cr_expect_eq(rule_get(r)->profile, (pr_rulecfg_profile)p, "%s", name);
            rule_free(r);
        } else {
            /* refused for its keys, never for its name */
            cr_expect(strstr(err.msg, "rule.profile") == NULL, "%s: %s", name, err.msg);
        }
        free(text);
        int seed = pr_rulecfg_profile_fuzz_seed((pr_rulecfg_profile)p);
        cr_expect(seed > 0 && seed != 11 && seed < 256, "%s: fuzz seed %d", name, seed);
        cr_expect_eq(seen_seed[seed & 255]++, 0, "%s: fuzz seed %d twice", name, seed);
    }
    cr_expect(pr_rulecfg_profile_probed(PR_PROFILE_MMSEG));
    cr_expect_not(pr_rulecfg_profile_probed(PR_PROFILE_DLLOGGER), "needs the metric's key");
    cr_expect_not(pr_rulecfg_profile_probed(PR_PROFILE_NONE));
}

Test(rule, profile_defaults_are_written_out)
{
    pr_rule *r = NULL;
    pr_err err;
    const char *text = "{\"profile\": \"mmseg\"}";
    cr_assert_eq(rule_parse("<t>", text, strlen(text), &r, &err), 0, "%s", err.msg);
    json_t *j = rule_to_json(r);
    cr_expect_str_eq(json_string_value(json_object_get(j, "keyword")), "time:");
    cr_expect_str_eq(json_string_value(json_object_get(j, "line_filter")), "Iter [");
    cr_expect_str_eq(json_string_value(json_object_get(j, "value")), "seconds_per_step");
    cr_expect_eq(json_integer_value(json_object_get(j, "rank")), 0);
    cr_expect_eq(json_integer_value(json_object_get(j, "skip")), 0);
    cr_expect_str_eq(json_string_value(json_object_get(j, "reduce")), "mean");
    cr_expect_eq(json_integer_value(json_object_get(j, "min_records")), 1);
    cr_expect_null(json_object_get(j, "scope"));
    json_decref(j);
    rule_free(r);
    /* perfrepro-gpu: rows, raw, and neither a unit nor a variant (the table
     * names both) */
    text = "{\"profile\": \"perfrepro-gpu\"}";
    cr_assert_eq(rule_parse("<t>", text, strlen(text), &r, &err), 0, "%s", err.msg);
    j = rule_to_json(r);
    char *got = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    cr_expect_str_eq(got, "{\"profile\":\"perfrepro-gpu\",\"source\":\"rows\",\"rank\":0,"
                          "\"value\":\"raw\",\"skip\":0,\"reduce\":\"mean\","
                          "\"min_records\":1,\"files\":\"runs\"}");
    free(got);
    json_decref(j);
    rule_free(r);
    text = "{\"profile\": \"perfrepro-gpu\", \"variant\": \"copy\", \"reduce\": \"last\"}";
    cr_assert_eq(rule_parse("<t>", text, strlen(text), &r, &err), 0, "%s", err.msg);
    cr_expect_str_eq(rule_get(r)->variant, "copy");
    j = rule_to_json(r);
    cr_expect_str_eq(json_string_value(json_object_get(j, "variant")), "copy");
    cr_expect_str_eq(json_string_value(json_object_get(j, "reduce")), "last");
    json_decref(j);
    rule_free(r);
}

/* ======================================================================
 * logscan on its own
 * ====================================================================== */

Test(logscan, clean_and_prefix)
{
    char s[] = "\x1b[1;31mred\x1b[0m \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ \x1b(Bok\0!";
    size_t n = logscan_clean(s, sizeof s - 1);
    s[n] = '\0';
    cr_expect_str_eq(s, "red link ok!");
    int rank = -1;
    cr_expect_eq(logscan_mpi_prefix("[1,0]<stdout>:x", 15, &rank), 14);
    cr_expect_eq(rank, 0);
    cr_expect_eq(logscan_mpi_prefix("[12,345]<stderr>:x", 18, &rank), 17);
    cr_expect_eq(rank, 345);
    cr_expect_eq(logscan_mpi_prefix("[2023/07/28 06:42:18] ppcls", 27, &rank), 0);
    cr_expect_eq(logscan_mpi_prefix("[1,0]stdout:x", 13, &rank), 0);
}

/* ======================================================================
 * Numbers from real logs: DLLogger steps, reducers by value kind, mpirun
 * timestamps, numbers that do not end where a number ends, MLPerf scoring
 * ====================================================================== */

/* The real log (PaddlePaddle/Perf): 45 iterations and one final line.
 * The synthetic TF BERT cases are in tests/parse/numbers.test. */
Test(numbers, dllogger_iteration_label_alone_is_an_iteration)
{
    pr_parse_result res;
    char *real = pr_xasprintf("%s/perf/Bert/OtherReports/TensorFlow/logs/V100_LOG/"
                              "tf_bert_pretraining_lamb_base_fp32_bs96_gpu8.log",
                              shared_dir());
    if (access(real, R_OK) != 0) {
        /* the reason names the path (unit_skips_counted.sh checks it) */
        char reason[512];
        snprintf(reason, sizeof reason, "%s not available", real);
        free(real);
        cr_skip_test("%s", reason);
    }
    double v = value_of("{\"profile\": \"dllogger\", \"keyword\": \"throughput_train\","
                        " \"scope\": \"global\"}",
                        real, NO_ARGS, &res);
    cr_expect_eq(stat_int(&res, "records_seen"), 45);
    cr_expect(v > 1200 && v < 1240, "got %f", v);
    parse_result_clear(&res);
    free(real);
}

/* The cases of best, min and max are in tests/parse/numbers.test. */
Test(numbers, best_keeps_its_name_in_the_normal_form)
{
    pr_rule *r = NULL;
    pr_err err;
    const char *text = "{\"profile\": \"mmseg\", \"reduce\": \"best\"}";
    cr_assert_eq(rule_parse("<t>", text, strlen(text), &r, &err), 0, "%s", err.msg);
    json_t *j = rule_to_json(r);
    cr_expect_str_eq(json_string_value(json_object_get(j, "reduce")), "best");
    json_decref(j);
    rule_free(r);
}

Test(numbers, mpirun_timestamp_output_prefix)
{
    int rank = -1;
    const char *s = "Mon May 31 13:38:21 2021[1,2]<stderr>:x";
    cr_expect_eq(logscan_mpi_prefix(s, strlen(s), &rank), 38);
    cr_expect_eq(rank, 2);
    s = "Tue Jun  1 09:17:17 2021[1,0]<stdout>:x";
    cr_expect_eq(logscan_mpi_prefix(s, strlen(s), &rank), 38);
    cr_expect_eq(rank, 0);
    s = "Tue Jun 1 09:17:17 2021[1,3]<stdout>:x";
    cr_expect_eq(logscan_mpi_prefix(s, strlen(s), &rank), 37);
    cr_expect_eq(rank, 3);
    /* not a ctime date, or not followed by a tag */
    static const char *const no[] = {
        "Mon Foo 31 13:38:21 2021[1,0]<stderr>:x", "Mon May 31 13:38:21 2021 [1,0]<stderr>:x",
        "Mon May 31 13:38 2021[1,0]<stderr>:xxxxx", "Mon May 31 13:38:21 2021[1,0] stderr:x", NULL};
    for (const char *const *n = no; *n; n++)
        cr_expect_eq(logscan_mpi_prefix(*n, strlen(*n), &rank), 0, "%s", *n);
    /* parsing such lines: tests/parse/numbers.test */
    pr_parse_result res;
    /* the real log (PaddlePaddle/Perf, mmseg under mpirun --timestamp-output):
     * 502 lines of rank 0, 7 of ranks 1 to 3 */
    char *real = pr_xasprintf("%s/perf/DeepLabV3P/OtherReports/PyTorch/logs/pytorch/"
                              "deeplabv3p_c32_fp32.log",
                              shared_dir());
    if (access(real, R_OK) == 0) {
        value_of("{\"profile\": \"mmseg\"}", real, (pr_parse_args){32, 2, 0, NULL}, &res);
        cr_expect_eq(stat_int(&res, "other_rank_lines"), 7);
        cr_expect_eq(stat_int(&res, "records_seen"), 5);
        parse_result_clear(&res);
    }
    free(real);
}

/* Issue 31 #22: a scanned record is 24 bytes (48 before); the global batch
 * and a not-clean value's text, moved to the scan's tables, read back as
 * the line gave them. */
Test(scan, compact_records_keep_batch_and_text)
{
    cr_assert_leq(sizeof(pr_scan_rec), 24);
    tmpdir t;
    tmp_open(&t);
    char *log = tmp_text(
        &t, "megatron.log",
        " iteration 1 | elapsed time per iteration (ms): 300.0 | global batch size: 512 |\n"
        " iteration 2 | elapsed time per iteration (ms): None | global batch size: 512 |\n"
        " iteration 3 | elapsed time per iteration (ms): 310.0 | global batch size: 1024 |\n"
        " iteration 4 | elapsed time per iteration (ms): 320.0 | global batch size: x |\n"
        " iteration 5 | elapsed time per iteration (ms): 330.0 | global batch size: 1024 |\n");
    pr_err err = {0};
    pr_rule *rule = NULL;
    const char *rj = "{\"profile\": \"megatron\"}";
    cr_assert_eq(rule_parse("<test>", rj, strlen(rj), &rule, &err), 0, "%s", err.msg);
    pr_parse_args args = {8, 0, 1024, NULL};
    const char *logs[] = {log};
    pr_scan *scan = NULL;
    cr_assert_eq(parse_scan(rule, logs, 1, &args, &scan, &err), 0, "%s", err.msg);
    size_t n;
    const pr_scan_rec *e = parse_scan_records(scan, 0, &n);
    cr_assert_eq(n, 5);
    static const double want_batch[] = {512, NAN, 1024, NAN, 1024};
    for (size_t i = 0; i < n; i++) {
        cr_expect_eq(e[i].lineno, i + 1);
        int batch_read;
        double b = parse_scan_batch(scan, &e[i], &batch_read);
        if (i == 1) {
            cr_expect_eq(e[i].kind, PR_SCAN_NOT_CLEAN);
            cr_expect_eq(batch_read, 0);
            const char *text = parse_scan_text(scan, &e[i]);
            cr_assert_not_null(text);
            cr_expect_eq(strncmp(text, "None", 4), 0, "got %s", text);
            continue;
        }
        cr_expect_eq(e[i].kind, PR_SCAN_NUMBER);
        cr_expect_null(parse_scan_text(scan, &e[i]));
        cr_expect_eq(batch_read, 1, "record %zu", i);
        if (isnan(want_batch[i]))
            cr_expect(isnan(b), "record %zu: batch %g", i, b);
        else
            cr_expect_eq(b, want_batch[i], "record %zu: batch %g", i, b);
    }
    parse_scan_free(scan);
    rule_free(rule);
    free(log);
    tmp_close(&t);
}
