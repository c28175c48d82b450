/* parse: the public API (parse.h): checking the arguments, reducing a run
 * to its value (finish_run), combining the runs of a case, and scanning once
 * to reduce many times (parse_scan, parse_reduce).  Reading the logs
 * is parse_lines.c and parse_tables.c (parse_int.h). */
#include "parse_int.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parsetrace.h"
#include "stats.h"
#include "steady.h"

static int per_step(pr_rulecfg_value_kind v)
{
    return v == PR_VALUE_SECONDS_PER_STEP || v == PR_VALUE_MS_PER_STEP ||
           v == PR_VALUE_STEPS_PER_SECOND;
}

/* ---- reducing and combining ---- */

static const char *resolve_unit(const pr_rulecfg_cfg *c, const pr_parse_args *a)
{
    if (a->unit)
        return a->unit;
    if (c->unit)
        return c->unit;
    return c->value == PR_VALUE_RAW ? NULL : "samples/s";
}

static int is_tokens(const char *unit)
{
    return unit && strncmp(unit, "tokens", 6) == 0;
}

int parse_check_args(const pr_rule *rule, const pr_parse_args *a, pr_err *err)
{
    const pr_rulecfg_cfg *c = rule_get(rule);
    const char *unit = resolve_unit(c, a);
    /* perfrepro-gpu's tables name their unit (GB/s, TFLOP/s) */
    if (!unit && c->profile != PR_PROFILE_PERFREPRO_GPU)
        return pr_err_set(err, NULL, 0, 0, "unit",
                          "raw values have no unit of their own: give \"unit\" in the rule or "
                          "--unit");
    if (c->scope == PR_SCOPE_PER_CARD && a->gpus <= 0)
        return pr_err_set(err, NULL, 0, 0, "--gpus",
                          "needed: the rule's scope is per_card (the log's value is multiplied "
                          "by the GPU count)");
    if (per_step(c->value) && !c->batch_keyword) {
        if (a->batch_size <= 0)
            return pr_err_set(err, NULL, 0, 0, "--batch-size",
                              "needed: %s values are converted with batch size x GPUs",
                              rule_value_name(c->value));
        if (a->gpus <= 0)
            return pr_err_set(err, NULL, 0, 0, "--gpus",
                              "needed: %s values are converted with batch size x GPUs",
                              rule_value_name(c->value));
    }
    if (per_step(c->value) && is_tokens(unit) && a->seq_len <= 0)
        return pr_err_set(err, NULL, 0, 0, "--seq-len",
                          "needed: the unit is %s, so samples per step are multiplied by the "
                          "sequence length",
                          unit);
    if (c->source == PR_SOURCE_SUMMARY_TABLE && (a->gpus <= 0 || a->batch_size <= 0))
        return pr_err_set(err, NULL, 0, 0, a->gpus <= 0 ? "--gpus" : "--batch-size",
                          "needed: the summary table has one row per GPU count and one column "
                          "per batch size");
    return 0;
}

void parse_result_init(pr_parse_result *res)
{
    memset(res, 0, sizeof *res);
}

void parse_result_clear(pr_parse_result *res)
{
    free(res->fail_detail);
    free(res->unit);
    json_decref(res->stats);
    json_decref(res->metrics);
    json_decref(res->log_facts);
    json_decref(res->step_trace);
    parse_result_init(res);
}

/* json_real gives NULL for inf and NaN, and json_object_set_new(o, k, NULL)
 * silently drops the key: a statistic that overflowed is null instead. */
static json_t *jreal(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static void fail(pr_parse_result *res, const char *reason, pr_buf *detail)
{
    if (res->failed)
        return; /* the first failing run names the case's failure */
    res->failed = 1;
    res->fail_reason = reason;
    res->fail_detail = pr_buf_detach(detail);
}

/* Why values were ignored, after their count: the first one, and the
 * "thousands" key when it looks like grouped digits. */
static void why_ignored(const run *r, pr_buf *d)
{
    if (!r->bad_line)
        return;
    pr_buf_printf(d, "; the first, line %llu: \"%s\"", r->bad_line, r->bad_text);
    const char *t = r->bad_text;
    for (size_t i = 1; !r->c->thousands && t[0] && t[i] && t[i + 1]; i++)
        if (isdigit((unsigned char)t[i - 1]) && strchr(",' _", t[i]) &&
            isdigit((unsigned char)t[i + 1])) {
            pr_buf_puts(d, "; digits grouped by a separator are read only when the rule names "
                           "it (\"thousands\": \",\")");
            break;
        }
}

/* Lines with the metric that the rule's "step" left out, by their kind and
 * the "step" that takes them. */
static void why_other_step(const run *r, pr_buf *d)
{
    static const char *const kinds[] = {"iteration", "epoch", "summary", "any"};
    unsigned long long n = r->other_step[0] + r->other_step[1] + r->other_step[2];
    if (!n)
        return;
    pr_buf_printf(d, "; %llu line%s with the metric left out by \"step\": \"%s\" (", n,
                  n == 1 ? "" : "s", kinds[r->c->step]);
    const char *sep = "";
    for (int k = 0; k < 3; k++) {
        if (!r->other_step[k])
            continue;
        pr_buf_printf(d, "%s%llu %s line%s: \"step\": \"%s\" takes %s", sep, r->other_step[k],
                      kinds[k], r->other_step[k] == 1 ? "" : "s", kinds[k],
                      r->other_step[k] == 1 ? "it" : "them");
        sep = "; ";
    }
    pr_buf_puts(d, ")");
}

/* A run's failure: the case's, when it is the first (fail takes detail's
 * storage then), and the trace's (a copy the trace owns). */
static void run_fail(run *r, pr_parse_result *res, const char *reason, pr_buf *detail)
{
    if (r->trace) {
        r->trace->failed = 1;
        r->trace->reason = reason;
        free(r->trace->detail);
        r->trace->detail = pr_xstrdup(pr_buf_cstr(detail));
    }
    fail(res, reason, detail);
}

/* Reduces one run to its value.  Returns 0 with *out set, or -1 after
 * recording the failure in res. */
static int finish_run(run *r, const char *what, const pr_parse_args *a, const char *unit,
                      pr_parse_result *res, json_t *stats, double *out)
{
    const pr_rulecfg_cfg *c = r->c;
    int rc = -1;
    pr_buf d = PR_BUF_INIT;
    pr_buf_printf(&d, "%s: ", what);
    int gpu = c->profile == PR_PROFILE_PERFREPRO_GPU;
    if (r->seen == 0) {
        pr_buf_printf(&d, "no records");
        if (gpu)
            parse_gpu_why_none(r, &d);
        else if (r->ignored) {
            pr_buf_printf(&d, " (%llu matching line%s without a clean number", r->ignored,
                          r->ignored == 1 ? "" : "s");
            why_ignored(r, &d);
            pr_buf_puts(&d, ")");
        }
        why_other_step(r, &d);
        if (c->source == PR_SOURCE_SUMMARY_TABLE)
            pr_buf_printf(&d, " (%llu \"%s\" table%s; no cell for %d GPUs x batch %d)", r->tables,
                          c->table, r->tables == 1 ? "" : "s", a->gpus, a->batch_size);
        run_fail(r, res, "no_records", &d);
        goto out;
    }
    if (gpu && parse_gpu_check_unit(r, &d) < 0) {
        run_fail(r, res, "parse_error", &d);
        goto out;
    }
    if (r->used < (unsigned long long)c->min_records) {
        pr_buf_printf(&d, "%llu record%s, %llu left after skipping %lld; min_records is %lld",
                      r->seen, r->seen == 1 ? "" : "s", r->used, c->skip, c->min_records);
        if (r->ignored) {
            pr_buf_printf(&d, "; %llu matching line%s without a clean number", r->ignored,
                          r->ignored == 1 ? "" : "s");
            why_ignored(r, &d);
        }
        why_other_step(r, &d);
        run_fail(r, res, "too_few_records", &d);
        goto out;
    }
    double x = 0;
    switch (c->reduce) {
    case PR_REDUCE_MEAN:
        x = r->sum / (double)r->used;
        break;
    case PR_REDUCE_LAST:
        x = r->last;
        break;
    case PR_REDUCE_MAX:
        x = r->max;
        break;
    case PR_REDUCE_MIN:
        x = r->min;
        break;
    case PR_REDUCE_BEST: /* the fastest: the shortest step, the highest rate */
        x = c->value == PR_VALUE_SECONDS_PER_STEP || c->value == PR_VALUE_MS_PER_STEP ? r->min
                                                                                      : r->max;
        break;
    case PR_REDUCE_MEDIAN:
        x = pr_stats_median(r->v, r->nv);
        break;
    case PR_REDUCE_TRIMMED_MEAN: {
        pr_err e;
        size_t dropped = 0;
        if (pr_stats_trimmed_mean(r->v, r->nv, c->trim_fraction, (size_t)c->trim_min, &x, &dropped,
                                  &e) < 0) {
            pr_buf_printf(&d, "%llu record%s after skipping %lld: %s", r->used,
                          r->used == 1 ? "" : "s", c->skip, e.msg);
            run_fail(r, res, "too_few_records", &d);
            goto out;
        }
        if (r->trace)
            r->trace->trim_each =
                pr_stats_trim_count((size_t)r->used, c->trim_fraction, (size_t)c->trim_min);
        json_t *t = json_object_get(stats, "trimmed");
        json_integer_set(t, json_integer_value(t) + (json_int_t)dropped);
        break;
    }
    }
    if (r->trace)
        r->trace->reduced = x;
    if (isinf(x) && r->nonconv_used) {
        /* MLPerf: too many runs that did not converge, and there is no score */
        pr_buf_printf(&d,
                      "%llu of %llu runs did not converge (no run_stop with status success; "
                      "\"non_converged\": \"worst\" scores them as the slowest): ",
                      r->nonconv_used, r->used);
        if (c->reduce == PR_REDUCE_TRIMMED_MEAN) {
            size_t drop =
                pr_stats_trim_count((size_t)r->used, c->trim_fraction, (size_t)c->trim_min);
            pr_buf_printf(&d, "the trimmed mean drops %zu from each end, so at most %zu may", drop,
                          drop);
        } else {
            pr_buf_puts(&d, "the reduced value is one of them (MLPerf's olympic mean is "
                            "\"reduce\": \"trimmed_mean\", \"trim\": {\"fraction\": 0, "
                            "\"min\": 1})");
        }
        run_fail(r, res, "too_few_records", &d);
        goto out;
    }
    if (c->value == PR_VALUE_THROUGHPUT && c->scope == PR_SCOPE_PER_CARD) {
        x *= a->gpus;
        if (r->trace)
            r->trace->gpus = a->gpus;
    }
    if (per_step(c->value)) {
        double s;
        if (r->gbs_state == 2 || (r->gbs_state == 1 && r->gbs_missing)) {
            pr_buf_printf(&d,
                          "the global batch size (\"%s\") is not the same on every used record "
                          "line; raise skip past the batch-size ramp-up",
                          c->batch_keyword);
            run_fail(r, res, "parse_error", &d);
            goto out;
        }
        if (r->gbs_state == 1) {
            s = r->gbs;
            if (r->trace)
                r->trace->batch_from_log = 1;
        } else {
            if (a->batch_size <= 0 || a->gpus <= 0) {
                pr_buf_printf(&d,
                              "the log gives no global batch size (\"%s\"): give "
                              "--batch-size and --gpus",
                              c->batch_keyword ? c->batch_keyword : "");
                run_fail(r, res, "parse_error", &d);
                goto out;
            }
            s = (double)a->batch_size * a->gpus;
        }
        if (is_tokens(unit))
            s *= a->seq_len;
        json_object_set_new(stats, "samples_per_step", jreal(s));
        if (r->trace)
            r->trace->samples_per_step = s;
        if (c->value == PR_VALUE_SECONDS_PER_STEP)
            x = s / x;
        else if (c->value == PR_VALUE_MS_PER_STEP)
            x = s * 1000.0 / x;
        else
            x = s * x;
    }
    if (r->trace)
        r->trace->before_round = x;
    if (c->round >= 0)
        x = pr_stats_round(x, c->round);
    /* Hardening (fuzz_parse): raw records may be negative (docs/parse-rules.md)
     * and sums or conversions may overflow, but a record's FINAL_RESULT must be
     * a finite number > 0 or the case fails; printing -1 or dropping the key
     * (json_real(inf) is NULL) made a record gen refuses to load. */
    if (!isfinite(x) || !(x > 0)) {
        /* a rate of 0 is a run that did nothing: a failure, never a value */
        pr_buf_printf(&d, "the value is %g: a result must be a finite number > 0", x);
        run_fail(r, res, "parse_error", &d);
        goto out;
    }
    *out = x;
    if (r->trace)
        r->trace->value = x;
    rc = 0;
out:
    pr_buf_free(&d); /* fail() took it unless an earlier run failed first */
    return rc;
}

static void add_count(json_t *stats, const char *key, unsigned long long n)
{
    json_t *t = json_object_get(stats, key);
    json_integer_set(t, json_integer_value(t) + (json_int_t)n);
}

static void run_init(run *r, const pr_rule *rule, const pr_rulecfg_cfg *c, kase *k)
{
    memset(r, 0, sizeof *r);
    r->rule = rule;
    r->c = c;
    r->k = k;
    r->kw_len = c->keyword ? strlen(c->keyword) : 0;
    r->lf_len = c->line_filter ? strlen(c->line_filter) : 0;
    r->bk_len = c->batch_keyword ? strlen(c->batch_keyword) : 0;
    r->cur_step = PR_SCAN_NO_STEP;
    r->probe_rank = -1;
    r->fx_gap = ULLONG_MAX; /* no facts: no line is handed over */
}

/* Frees what a run read into memory (not r itself). */
static void run_free(run *r)
{
    free(r->sx);
    free(r->sy);
    free(r->v);
    free(r->g.tx);
    free(r->g.tv);
}

/* The runs of one case, reduced one after the other and combined. */
typedef struct case_acc {
    const pr_rulecfg_cfg *c;
    const pr_parse_args *args;
    const char *unit;
    const char *const *logs;
    size_t nlogs, runs;
    json_t *stats, *per_run, *series, *table;
    const char *series_y; /* the series' column, for nccl-tests or perfrepro-gpu */
    char gpu_y[GPU_NAME_MAX], gpu_unit[GPU_NAME_MAX];
    kase k;
    double *vals;
    size_t nvals;
} case_acc;

static void case_open(case_acc *a, const pr_rulecfg_cfg *c, const pr_parse_args *args,
                      const char *const *logs, size_t nlogs, pr_parse_result *res)
{
    memset(a, 0, sizeof *a);
    a->c = c;
    a->args = args;
    a->logs = logs;
    a->nlogs = nlogs;
    a->unit = resolve_unit(c, args);
    res->unit = pr_xstrdup(a->unit);
    a->stats = json_object();
    static const char *const counters[] = {
        "records_seen", "records_used", "skipped",        "trimmed",          "ignored",
        "lines",        "bytes",        "overlong_lines", "other_rank_lines", NULL};
    for (const char *const *k = counters; *k; k++)
        json_object_set_new(a->stats, *k, json_integer(0));
    if (c->profile == PR_PROFILE_DLLOGGER)
        json_object_set_new(a->stats, "other_step_lines", json_integer(0));
    if (c->source == PR_SOURCE_TIME_TO_TRAIN)
        json_object_set_new(a->stats, "non_converged", json_integer(0));
    a->per_run = json_array();
    a->k.args = args;
    a->runs = c->files == PR_FILES_PARTS ? 1 : nlogs;
    a->vals = pr_xcalloc(a->runs, sizeof *a->vals);
}

/* Run i, read (io 0) or not (io -1: a log could not be read, the case has
 * failed already): its counts, its value, the first run's table. */
static void case_add_run(case_acc *a, run *r, size_t i, int io, pr_parse_result *res)
{
    const pr_rulecfg_cfg *c = a->c;
    json_t *stats = a->stats;
    add_count(stats, "records_seen", r->seen);
    add_count(stats, "records_used", r->used);
    add_count(stats, "skipped", r->skipped);
    add_count(stats, "ignored", r->ignored);
    add_count(stats, "lines", r->scan.lines);
    add_count(stats, "bytes", r->scan.bytes);
    add_count(stats, "overlong_lines", r->scan.overlong_lines);
    add_count(stats, "other_rank_lines", r->other_rank);
    if (c->profile == PR_PROFILE_DLLOGGER)
        add_count(stats, "other_step_lines",
                  r->other_step[0] + r->other_step[1] + r->other_step[2]);
    if (c->source == PR_SOURCE_TIME_TO_TRAIN)
        add_count(stats, "non_converged", r->nonconv);
    pr_buf what = PR_BUF_INIT;
    if (a->runs > 1)
        pr_buf_printf(&what, "run %zu (%s)", i + 1, a->logs[i]);
    else
        pr_buf_puts(&what, a->nlogs > 1 ? "the log parts" : a->logs[0]);
    double x;
    if (io == 0 && finish_run(r, pr_buf_cstr(&what), a->args, a->unit, res, stats, &x) == 0) {
        a->vals[a->nvals++] = x;
        json_array_append_new(a->per_run, json_real(x));
    } else {
        json_array_append_new(a->per_run, json_null()); /* this run failed */
    }
    pr_buf_free(&what);
    /* The first run's table, as "series" in metrics: value by size. */
    if (r->ns && !a->series) {
        static const char *const col_names[] = {"busbw", "algbw", "time"};
        a->series = json_array();
        for (size_t j = 0; j < r->ns; j++)
            json_array_append_new(a->series, json_pack("[f,f]", r->sx[j], r->sy[j]));
        strcpy(a->gpu_y, r->g.var_name);
        a->series_y = c->profile == PR_PROFILE_PERFREPRO_GPU ? a->gpu_y : col_names[c->column];
    }
    if (r->g.have_first && !a->table)
        a->table = parse_gpu_table_json(&r->g);
    /* the unit of a table even when it gave no records (all N/A, no variant) */
    if (!a->gpu_unit[0] && r->g.tables)
        strcpy(a->gpu_unit, r->g.have_first ? r->g.first.unit : r->g.novar.unit);
}

/* The workers' values of one run (files "workers") as the source combined
 * them into its figure. */
static double combine_workers(pr_rulecfg_combine how, const double *v, size_t n)
{
    double x = n ? v[0] : 0;
    for (size_t i = 1; i < n; i++)
        x = how == PR_COMBINE_MIN ? (v[i] < x ? v[i] : x) : x + v[i];
    return how == PR_COMBINE_MEAN && n ? x / (double)n : x;
}

/* The case value (the median of the runs', or the workers' combined), its
 * stats and metrics, into
 * res; frees what a held. */
static void case_close(case_acc *a, pr_parse_result *res)
{
    const pr_rulecfg_cfg *c = a->c;
    json_t *stats = a->stats;
    kase *k = &a->k;
    if (!res->unit && c->profile == PR_PROFILE_PERFREPRO_GPU)
        res->unit = pr_xstrdup(k->gpu_unit[0]   ? k->gpu_unit
                               : a->gpu_unit[0] ? a->gpu_unit
                                                : parse_gpu_guess_unit(c->variant));
    json_object_set_new(stats, "runs", json_integer((json_int_t)a->runs));
    json_object_set_new(stats, "per_run", a->per_run);
    if (k->used) {
        json_object_set_new(stats, "min", jreal(k->min));
        json_object_set_new(stats, "max", jreal(k->max));
        json_object_set_new(stats, "mean", jreal(k->sum / (double)k->used));
        json_object_set_new(stats, "median",
                            k->all_dropped ? json_null() : jreal(pr_stats_median(k->all, k->nall)));
    }
    if (c->files == PR_FILES_WORKERS)
        json_object_set_new(stats, "workers", json_integer((json_int_t)a->runs));
    if (!res->failed) {
        res->value = c->files == PR_FILES_WORKERS ? combine_workers(c->combine, a->vals, a->nvals)
                                                  : pr_stats_median(a->vals, a->nvals);
        if (c->source == PR_SOURCE_TIME_TO_TRAIN || c->source == PR_SOURCE_AVG_BUSBW) {
            /* Reports read time to train in seconds (docs/data-model.md);
             * the figure itself stays in the rule's unit (minutes). */
            res->metrics = json_object();
            if (c->source == PR_SOURCE_TIME_TO_TRAIN)
                json_object_set_new(res->metrics, "time_to_train_s", jreal(res->value * 60.0));
            else
                json_object_set_new(res->metrics, "avg_busbw", json_real(res->value));
        }
        if (a->series) {
            if (!res->metrics)
                res->metrics = json_object();
            json_object_set_new(
                res->metrics, "series",
                json_pack("{s:s,s:s,s:o}", "x", "bytes", "y", a->series_y, "points", a->series));
            a->series = NULL;
        }
        if (a->table) {
            if (!res->metrics)
                res->metrics = json_object();
            json_object_set_new(res->metrics, "table", a->table);
            a->table = NULL;
        }
    }
    json_decref(a->series);
    json_decref(a->table);
    res->stats = stats;
    free(a->vals);
    free(k->all);
}

int parse_logs(const pr_rule *rule, const char *const *logs, size_t nlogs,
               const pr_parse_args *args, pr_parse_result *res, pr_err *err)
{
    const pr_rulecfg_cfg *c = rule_get(rule);
    if (parse_check_args(rule, args, err) < 0)
        return -1;
    if (nlogs == 0)
        return pr_err_set(err, NULL, 0, 0, NULL, "no log given");
    case_acc a;
    case_open(&a, c, args, logs, nlogs, res);
    /* the facts of the first run's log (all of it with "files": "parts") */
    pr_logfacts *facts = logfacts_new();
    int all_read = 1;
    for (size_t i = 0; i < a.runs; i++) {
        run r;
        run_init(&r, rule, c, &a.k);
        r.facts = i == 0 ? facts : NULL;
        const char *const *part = c->files == PR_FILES_PARTS ? logs : logs + i;
        size_t nparts = c->files == PR_FILES_PARTS ? nlogs : 1;
        pr_err e;
        int io = parse_read_run(&r, part, nparts, &e);
        if (io < 0) {
            pr_buf d = PR_BUF_INIT;
            pr_buf_puts(&d, e.msg);
            fail(res, "parse_error", &d);
            pr_buf_free(&d);
            all_read = 0;
        }
        case_add_run(&a, &r, i, io, res);
        run_free(&r);
    }
    case_close(&a, res);
    res->log_facts = logfacts_json(facts);
    logfacts_free(facts);
    if (all_read) {
        static const char *const listed_keys[] = {"records_seen", "ignored", "other_step_lines",
                                                  "other_rank_lines", NULL};
        unsigned long long listed = 0;
        for (const char *const *k = listed_keys; *k; k++)
            listed += (unsigned long long)json_integer_value(json_object_get(res->stats, *k));
        res->step_trace = parsetrace_steptrace_make(rule, logs, nlogs, args, listed);
    }
    return 0;
}

/* ---- scanning once, reducing many times (explain.c, fit.c) ---- */

struct pr_scan {
    const pr_rule *rule;
    pr_rulecfg_cfg cfg; /* the rule's, reading every step and skipping nothing */
    pr_parse_args args;
    char **logs;
    size_t nlogs, runs;
    run *run;       /* each run's state after reading: tables, counts */
    reclist *lists; /* and its records */
    scantab tab;
    kase k;
};

void parse_scan_free(pr_scan *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->runs; i++) {
        run_free(&s->run[i]);
        free(s->lists[i].v);
    }
    for (size_t i = 0; i < s->nlogs; i++)
        free(s->logs[i]);
    free(s->logs);
    free(s->run);
    free(s->lists);
    free((char *)s->args.unit);
    pr_buf_free(&s->tab.text);
    free(s->tab.text_at);
    free(s->tab.batches);
    free(s->k.all);
    free(s);
}

int parse_scan(const pr_rule *rule, const char *const *logs, size_t nlogs,
               const pr_parse_args *args, pr_scan **out, pr_err *err)
{
    if (parse_check_args(rule, args, err) < 0)
        return -1;
    if (nlogs == 0)
        return pr_err_set(err, NULL, 0, 0, NULL, "no log given");
    if (rule_get(rule)->files == PR_FILES_PARTS && nlogs > USHRT_MAX)
        return pr_err_set(err, NULL, 0, 0, NULL,
                          "%zu logs given as parts of one run: at most %u can be scanned", nlogs,
                          (unsigned)USHRT_MAX);
    pr_scan *s = pr_xcalloc(1, sizeof *s);
    s->rule = rule;
    s->cfg = *rule_get(rule);
    /* Every record is listed: the reduction decides which count. */
    s->cfg.skip = 0;
    s->cfg.reduce = PR_REDUCE_MEAN;
    s->cfg.min_records = 1;
    s->cfg.round = -1;
    if (s->cfg.profile == PR_PROFILE_DLLOGGER)
        s->cfg.step = PR_STEP_ANY;
    s->args = *args;
    s->args.unit = pr_xstrdup(args->unit);
    s->k.args = &s->args;
    s->nlogs = nlogs;
    s->logs = pr_xcalloc(nlogs, sizeof *s->logs);
    for (size_t i = 0; i < nlogs; i++)
        s->logs[i] = pr_xstrdup(logs[i]);
    s->runs = s->cfg.files == PR_FILES_PARTS ? 1 : nlogs;
    s->run = pr_xcalloc(s->runs, sizeof *s->run);
    s->lists = pr_xcalloc(s->runs, sizeof *s->lists);
    int rc = -1;
    for (size_t i = 0; i < s->runs; i++) {
        run *r = &s->run[i];
        run_init(r, rule, &s->cfg, &s->k);
        reclist *l = &s->lists[i];
        l->tab = &s->tab;
        r->list = l;
        int parts = s->cfg.files == PR_FILES_PARTS;
        if (parse_read_run(r, logs + (parts ? 0 : i), parts ? nlogs : 1, err) < 0)
            goto out;
        r->list = NULL;
        if (s->tab.too_far) {
            pr_err_set(err, logs[parts ? 0 : i], 0, 0, NULL,
                       "line %llu: past %u lines or listed values, too many to scan",
                       s->tab.too_far, (unsigned)UINT_MAX - 1);
            goto out;
        }
        /* the growth's slack back before the search allocates its own */
        if (l->n && l->n < l->cap) {
            l->v = pr_xrealloc(l->v, l->n * sizeof *l->v);
            l->cap = l->n;
        }
    }
    *out = s;
    s = NULL;
    rc = 0;
out:
    parse_scan_free(s);
    return rc;
}

size_t parse_scan_runs(const pr_scan *s)
{
    return s->runs;
}

const pr_scan_rec *parse_scan_records(const pr_scan *s, size_t run_index, size_t *n)
{
    *n = s->lists[run_index].n;
    return s->lists[run_index].v;
}

const char *parse_scan_text(const pr_scan *s, const pr_scan_rec *rec)
{
    if (rec->kind != PR_SCAN_NOT_CLEAN || !rec->aux)
        return NULL;
    return s->tab.text.data + s->tab.text_at[rec->aux - 1];
}

double parse_scan_batch(const pr_scan *s, const pr_scan_rec *rec, int *batch_read)
{
    *batch_read = rec->kind == PR_SCAN_NUMBER && rec->aux;
    return *batch_read ? s->tab.batches[rec->aux - 1] : NAN;
}

const char *parse_scan_log(const pr_scan *s, size_t run_index, unsigned part)
{
    return s->cfg.files == PR_FILES_PARTS ? s->logs[part] : s->logs[run_index];
}

void parse_reduce_keys_of(const pr_rule *rule, pr_reduce_keys *k)
{
    const pr_rulecfg_cfg *c = rule_get(rule);
    k->skip = c->skip;
    k->reduce = c->reduce;
    k->trim_fraction = c->trim_fraction;
    k->trim_min = c->trim_min;
    k->step = c->step;
    k->round = c->round;
    k->min_records = c->min_records;
}

/* Counts a run's listed records again under other keys, as reading them
 * did: the same parse_count_record and parse_ignore_value. */
static void replay(run *r, const pr_scan *s, const reclist *l, unsigned char *status)
{
    const pr_rulecfg_cfg *c = r->c;
    for (size_t i = 0; i < l->n; i++) {
        const pr_scan_rec *e = &l->v[i];
        int st;
        r->lineno = e->lineno;
        if (e->rank >= 0) {
            st = PR_REC_OTHER_RANK;
        } else if (e->step != PR_SCAN_NO_STEP && c->step != PR_STEP_ANY && c->step != e->step) {
            if (e->kind == PR_SCAN_NUMBER) /* a line with the metric: step_wanted */
                r->other_step[e->step]++;
            st = PR_REC_OTHER_STEP;
        } else if (e->kind == PR_SCAN_NUMBER) {
            int batch_read;
            double b = parse_scan_batch(s, e, &batch_read);
            st = parse_count_record(r, e->value, batch_read, b);
        } else {
            parse_ignore_value(r, parse_scan_text(s, e));
            st = e->kind == PR_SCAN_NOT_CLEAN ? PR_REC_NOT_CLEAN : PR_REC_IGNORED;
        }
        if (status)
            status[i] = (unsigned char)st;
    }
}

void parse_run_trace_clear(pr_run_trace *t)
{
    free(t->detail);
    memset(t, 0, sizeof *t);
}

int parse_reduce(const pr_scan *s, const pr_reduce_keys *keys, unsigned flags, pr_parse_result *res,
                 pr_run_trace *traces, unsigned char *const *status)
{
    pr_rulecfg_cfg c = *rule_get(s->rule);
    c.skip = keys->skip;
    c.reduce = keys->reduce;
    c.trim_fraction = keys->trim_fraction;
    c.trim_min = keys->trim_min;
    c.round = keys->round;
    c.min_records = keys->min_records;
    if (c.profile == PR_PROFILE_DLLOGGER)
        c.step = keys->step;
    case_acc a;
    case_open(&a, &c, &s->args, (const char *const *)s->logs, s->nlogs, res);
    if (flags & PR_REDUCE_LEAN)
        a.k.all_dropped = 1; /* no copy of every record for stats.median */
    for (size_t i = 0; i < s->runs; i++) {
        const run *sr = &s->run[i];
        run r;
        run_init(&r, s->rule, &c, &a.k);
        /* what reading left that is not a record: tables, line counts */
        r.other_rank = sr->other_rank;
        r.scan = sr->scan;
        r.tables = sr->tables;
        r.nonconv = sr->nonconv;
        r.g = sr->g; /* borrowed: the table's rows stay the scan's */
        r.sx = sr->sx;
        r.sy = sr->sy;
        r.ns = sr->ns;
        if (traces) {
            parse_run_trace_clear(&traces[i]);
            r.trace = &traces[i];
        }
        replay(&r, s, &s->lists[i], status ? status[i] : NULL);
        if (r.trace) {
            r.trace->seen = r.seen;
            r.trace->skipped = r.skipped;
            r.trace->used = r.used;
            r.trace->ignored = r.ignored;
            r.trace->other_rank = r.other_rank;
            r.trace->other_step = r.other_step[0] + r.other_step[1] + r.other_step[2];
        }
        case_add_run(&a, &r, i, 0, res);
        free(r.v);
    }
    case_close(&a, res);
    return 0;
}

void parse_to_record(const pr_rule *rule, pr_parse_result *res, pr_record *rec)
{
    rec->failed = res->failed;
    rec->final_result = res->failed ? 0 : res->value;
    free(rec->fail_reason);
    free(rec->fail_detail);
    rec->fail_reason = res->failed ? pr_xstrdup(res->fail_reason) : NULL;
    rec->fail_detail = res->fail_detail;
    res->fail_detail = NULL;
    free(rec->unit);
    rec->unit = res->unit;
    res->unit = NULL;
    json_decref(rec->stats);
    rec->stats = res->stats;
    res->stats = NULL;
    json_decref(rec->metrics);
    rec->metrics = res->metrics;
    res->metrics = NULL;
    json_decref(rec->log_facts);
    rec->log_facts = res->log_facts;
    res->log_facts = NULL;
    json_decref(rec->step_trace);
    rec->step_trace = res->step_trace;
    res->step_trace = NULL;
    /* judged where the figure is parsed, so that parse, run and import all
     * keep it with the figure */
    json_decref(rec->steady);
    rec->steady = rec->failed ? NULL : pr_steady_of_trace(rec->step_trace);
    json_decref(rec->rule);
    rec->rule = rule_to_json(rule);
    parse_result_clear(res);
}
