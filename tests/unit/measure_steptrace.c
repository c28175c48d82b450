/* measure/steptrace (the record's step_trace) and lib/rectrace (its check):
 *   - every record's status is what `parse --explain` says of it, for the
 *     reducers that mark records (trimmed_mean, median, last, max, a run
 *     that fails), on the repository's golden logs;
 *   - values are in the figure's unit (per card x GPUs);
 *   - above the cap, records are binned (min and max per point) and the
 *     trace stays within 2000 points; above the record limit, no scan;
 *   - the check refuses malformed traces, naming the field. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "2-parse/explain.h"
#include "2-parse/parse.h"
#include "2-parse/parsetrace.h"
#include "2-parse/rule.h"
#include "buf.h"
#include "jdoc.h"
#include "rectrace.h"

static pr_rule *rule_of(const char *json)
{
    pr_rule *r = NULL;
    pr_err err;
    cr_assert_eq(rule_parse("<t>", json, strlen(json), &r, &err), 0, "%s: %s", json, err.msg);
    return r;
}

static int append_text(const char *text, size_t len, void *arg, pr_err *err)
{
    (void)err;
    pr_buf_put(arg, text, len);
    return 0;
}

/* The status code explain's words for one record stand for. */
static char code_of_words(const char *w)
{
    static const struct {
        const char *prefix;
        char code;
    } map[] = {{"kept (median)", 'M'},
               {"kept (the ", 'P'},
               {"used (median)", 'M'},
               {"used (the ", 'P'},
               {"used, not the", 'N'},
               {"kept", 'K'},
               {"used", 'U'},
               {"skipped (warm-up", 'W'},
               {"trimmed (low end)", 'L'},
               {"trimmed (high end)", 'H'},
               {"ignored", 'I'},
               {"not a clean number", 'C'},
               {"other step", 'S'},
               {"other rank", 'R'}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strncmp(w, map[i].prefix, strlen(map[i].prefix)) == 0)
            return map[i].code;
    return '?';
}

/* explain's listing of rule on logs as status codes, one string per run. */
static void explain_codes(pr_rule *rule, const char *const *logs, size_t n, pr_parse_args *args,
                          pr_buf *codes)
{
    pr_buf out = PR_BUF_INIT;
    pr_err err;
    int has_value;
    cr_assert_eq(explain_run(rule, logs, n, args, append_text, &out, &has_value, &err), 0, "%s",
                 err.msg);
    char *text = pr_buf_detach(&out);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        unsigned long long lineno;
        char val[64];
        int off = 0;
        if (sscanf(line, " %llu %63s %n", &lineno, val, &off) == 2 && off > 0 &&
            strncmp(val, "record", 6) != 0) /* not the counts line */
            pr_buf_putc(codes, code_of_words(line + off));
        else if (strncmp(line, "log:", 4) == 0 && codes->len)
            pr_buf_putc(codes, '|'); /* a new run */
    }
    free(text);
}

/* The trace's status strings, runs joined by '|'. */
static void trace_codes(json_t *trace, pr_buf *codes)
{
    json_t *runs = json_object_get(trace, "runs");
    for (size_t i = 0; i < json_array_size(runs); i++) {
        if (i)
            pr_buf_putc(codes, '|');
        pr_buf_puts(codes, json_string_value(json_object_get(json_array_get(runs, i), "status")));
    }
}

/* Checks trace with lib/rectrace as loading a record would. */
static int check_trace(json_t *trace, pr_err *err)
{
    char *text = json_dumps(trace, JSON_COMPACT);
    pr_jdoc *doc = NULL;
    int rc = pr_jdoc_parse("trace.json", text, strlen(text), &doc, err);
    if (rc == 0) {
        pr_jdoc_jcur root = pr_jdoc_root(doc);
        rc = pr_rectrace_check(&root, err);
    }
    pr_jdoc_free(doc);
    free(text);
    return rc;
}

static json_t *parse_trace(pr_rule *rule, const char *const *logs, size_t n, pr_parse_args *args)
{
    pr_parse_result res;
    pr_err err;
    parse_result_init(&res);
    cr_assert_eq(parse_logs(rule, logs, n, args, &res, &err), 0, "%s", err.msg);
    cr_assert_not_null(res.step_trace);
    json_t *t = json_incref(res.step_trace);
    parse_result_clear(&res);
    return t;
}

Test(steptrace, statuses_are_explains)
{
    static const struct {
        const char *rule, *log;
        int gpus;
    } cases[] = {
        {"{\"profile\": \"paddle-ips\", \"scope\": \"per_card\", \"skip\": 1, \"reduce\": "
         "\"trimmed_mean\", \"trim\": {\"fraction\": 0, \"min\": 1}}",
         "tests/golden/measure/paddle_ranks.log", 8},
        {"{\"profile\": \"paddle-ips\", \"scope\": \"global\", \"skip\": 2, \"reduce\": "
         "\"median\"}",
         "tests/golden/measure/paddle_ranks.log", 0},
        {"{\"profile\": \"paddle-ips\", \"scope\": \"global\", \"reduce\": \"max\"}",
         "tests/golden/measure/paddle_ranks.log", 0},
        {"{\"profile\": \"paddle-ips\", \"scope\": \"global\", \"reduce\": \"last\", \"skip\": 3}",
         "tests/golden/measure/paddle_ranks.log", 0},
        /* a run that fails: too few records */
        {"{\"profile\": \"paddle-ips\", \"scope\": \"global\", \"min_records\": 50}",
         "tests/golden/measure/paddle_ranks.log", 0},
        {"{\"profile\": \"dllogger\", \"keyword\": \"train.total_ips\", \"scope\": \"global\", "
         "\"skip\": 1, \"reduce\": \"median\"}",
         "tests/golden/measure/dllogger_steps.log", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pr_rule *rule = rule_of(cases[i].rule);
        const char *logs[] = {cases[i].log};
        pr_parse_args args = {cases[i].gpus, 0, 0, NULL};
        json_t *t = parse_trace(rule, logs, 1, &args);
        pr_buf want = PR_BUF_INIT, got = PR_BUF_INIT;
        explain_codes(rule, logs, 1, &args, &want);
        trace_codes(t, &got);
        cr_expect_str_eq(pr_buf_cstr(&got), pr_buf_cstr(&want), "rule %s", cases[i].rule);
        cr_expect_null(strchr(pr_buf_cstr(&want), '?'), "explain said something unmapped");
        pr_err err;
        cr_expect_eq(check_trace(t, &err), 0, "%s", err.msg);
        json_decref(t);
        pr_buf_free(&want);
        pr_buf_free(&got);
        rule_free(rule);
    }
}

Test(steptrace, values_in_the_figures_unit)
{
    pr_rule *rule = rule_of("{\"profile\": \"paddle-ips\", \"scope\": \"per_card\", \"skip\": 1}");
    const char *logs[] = {"tests/golden/measure/paddle_ranks.log"};
    pr_parse_args args = {8, 0, 0, NULL};
    json_t *t = parse_trace(rule, logs, 1, &args);
    cr_expect_str_eq(json_string_value(json_object_get(t, "scale")), "per_card");
    cr_expect_eq(json_number_value(json_object_get(t, "factor")), 8);
    json_t *run = json_array_get(json_object_get(t, "runs"), 0);
    json_t *lines = json_object_get(run, "lines"), *vals = json_object_get(run, "values");
    /* line 3: "ips: 380.125", kept; line 5: "None", no value */
    for (size_t i = 0; i < json_array_size(lines); i++) {
        long long ln = json_integer_value(json_array_get(lines, i));
        if (ln == 3)
            cr_expect_float_eq(json_number_value(json_array_get(vals, i)), 380.125 * 8, 1e-9);
        if (ln == 5)
            cr_expect(json_is_null(json_array_get(vals, i)));
    }
    json_decref(t);
    rule_free(rule);
}

/* A log of n records "ips: V" with V = 100 + i % 7, every 50th at 10. */
static char *write_big_log(size_t n)
{
    char *path = pr_xasprintf("/tmp/perfrepro-steptrace-%d.log", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "step %zu ips: %zu samples/sec.\n", i + 1, i % 50 == 49 ? 10 : 100 + i % 7);
    cr_assert_eq(fclose(f), 0);
    return path;
}

Test(steptrace, binned_above_the_cap)
{
    size_t n = 5000;
    char *path = write_big_log(n);
    pr_rule *rule = rule_of("{\"profile\": \"paddle-ips\", \"scope\": \"global\", \"skip\": 4, "
                            "\"reduce\": \"trimmed_mean\", \"trim\": {\"fraction\": 0.05, "
                            "\"min\": 1}}");
    const char *logs[] = {path};
    pr_parse_args args = {0, 0, 0, NULL};
    json_t *t = parse_trace(rule, logs, 1, &args);
    json_t *run = json_array_get(json_object_get(t, "runs"), 0);
    size_t bin = (size_t)json_integer_value(json_object_get(run, "bin"));
    const char *st = json_string_value(json_object_get(run, "status"));
    cr_expect_eq(json_integer_value(json_object_get(run, "records")), (json_int_t)n);
    cr_expect_eq(bin, 3, "5000 records in at most 2000 points: 3 a point");
    cr_expect_eq(strlen(st), (n + bin - 1) / bin);
    cr_expect_leq(strlen(st), PR_STEPTRACE_CAP);
    /* records 1-3 warm-up, 4 warm-up and 5-6 used: a mixed bin */
    cr_expect_eq(st[0], 'W');
    cr_expect_eq(st[1], 'X');
    json_t *lo = json_object_get(run, "values"), *hi = json_object_get(run, "max");
    cr_assert(json_is_array(hi));
    int saw_dip = 0;
    for (size_t i = 0; i < strlen(st); i++) {
        double a = json_number_value(json_array_get(lo, i)),
               b = json_number_value(json_array_get(hi, i));
        cr_expect_leq(a, b);
        saw_dip |= a == 10;
        cr_expect_eq(json_integer_value(json_array_get(json_object_get(run, "lines"), i)),
                     (json_int_t)(i * bin + 1), "a bin's line is its first record's");
    }
    cr_expect(saw_dip, "a bin keeps its minimum");
    pr_err err;
    cr_expect_eq(check_trace(t, &err), 0, "%s", err.msg);
    json_decref(t);
    rule_free(rule);
    unlink(path);
    free(path);
}

Test(steptrace, no_scan_past_the_record_limit)
{
    pr_rule *rule = rule_of("{\"profile\": \"paddle-ips\", \"scope\": \"global\"}");
    const char *logs[] = {"tests/golden/measure/paddle_ranks.log"};
    pr_parse_args args = {0, 0, 0, NULL};
    json_t *t = parsetrace_steptrace_make(rule, logs, 1, &args, PR_STEPTRACE_MAX_RECORDS + 1);
    cr_assert_not_null(t);
    cr_expect_null(json_object_get(t, "runs"));
    cr_expect_not_null(strstr(json_string_value(json_object_get(t, "omitted")), "1000001"));
    pr_err err;
    cr_expect_eq(check_trace(t, &err), 0, "%s", err.msg);
    json_decref(t);
    /* an unreadable log: no trace (the parse fails on its own) */
    const char *none[] = {"/nonexistent/perfrepro.log"};
    cr_expect_null(parsetrace_steptrace_make(rule, none, 1, &args, 1));
    rule_free(rule);
}

Test(rectrace, malformed_traces_are_refused_by_field)
{
    static const struct {
        const char *json, *want;
    } bad[] = {
        {"{\"version\": 2, \"scale\": \"as_read\", \"factor\": 1, \"runs\": []}", "version"},
        {"{\"version\": 1, \"scale\": \"wide\", \"factor\": 1, \"runs\": [{}]}", "scale"},
        {"{\"version\": 1, \"scale\": \"as_read\", \"factor\": 0, \"runs\": [{\"records\": 1, "
         "\"bin\": 1, \"value\": 1, \"lines\": [1], \"values\": [1], \"status\": \"K\"}]}",
         "factor"},
        {"{\"version\": 1, \"scale\": \"as_read\", \"factor\": 1, \"runs\": [{\"records\": 2, "
         "\"bin\": 1, \"value\": 1, \"lines\": [1], \"values\": [1], \"status\": \"K\"}]}",
         "runs[0].status"},
        {"{\"version\": 1, \"scale\": \"as_read\", \"factor\": 1, \"runs\": [{\"records\": 1, "
         "\"bin\": 1, \"value\": 1, \"lines\": [1], \"values\": [1], \"status\": \"Q\"}]}",
         "unknown status 'Q'"},
        {"{\"version\": 1, \"scale\": \"as_read\", \"factor\": 1, \"runs\": [{\"records\": 1, "
         "\"bin\": 1, \"value\": 1, \"lines\": [0], \"values\": [1], \"status\": \"K\"}]}",
         "runs[0].lines[0]"},
        {"{\"version\": 1, \"scale\": \"as_read\", \"factor\": 1, \"runs\": [{\"records\": 1, "
         "\"bin\": 1, \"value\": 1, \"lines\": [1], \"values\": [-1], \"status\": \"K\"}]}",
         "runs[0].values[0]"},
        {"{\"version\": 1, \"scale\": \"as_read\", \"factor\": 1, \"runs\": [{\"records\": 1, "
         "\"bin\": 1, \"value\": 1, \"lines\": [1], \"values\": [1], \"max\": [1], "
         "\"status\": \"K\"}]}",
         "\"max\" goes with binned points"},
        {"{\"version\": 1, \"scale\": \"as_read\", \"factor\": 1, \"runs\": [{\"records\": 4, "
         "\"bin\": 2, \"value\": 1, \"lines\": [1, 3], \"values\": [1, 1], \"max\": [1, 1], "
         "\"status\": \"KK\"}]}",
         "fewer per point"},
        {"{\"version\": 1, \"scale\": \"as_read\", \"factor\": 1, \"runs\": [{\"records\": 1, "
         "\"bin\": 1, \"value\": 1, \"lines\": [1], \"values\": [1], \"status\": \"K\", "
         "\"colour\": 1}]}",
         "colour"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *t = json_loads(bad[i].json, 0, NULL);
        cr_assert_not_null(t, "%s", bad[i].json);
        pr_err err;
        cr_expect_eq(check_trace(t, &err), -1, "accepted: %s", bad[i].json);
        cr_expect_not_null(strstr(err.msg, bad[i].want), "%s: %s", bad[i].json, err.msg);
        cr_expect_not_null(strstr(err.msg, "trace.json:1:"), "no file and line: %s", err.msg);
        json_decref(t);
    }
}
