/* parse: the public API (parse.h): checking the arguments, a run set up,
 * the runs of a case combined, the result into a record.  A run reduced is
 * parse_run.c, scanning once to reduce many times parse_scan.c, reading
 * the logs parse_lines.c and parse_tables.c (parse_int.h). */
#include "parse_int.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parsetrace.h"
#include "stats.h"
#include "steady.h"

int parse_per_step(pr_rulecfg_value_kind v)
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

int parse_is_tokens(const char *unit)
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
    if (parse_per_step(c->value) && !c->batch_keyword) {
        if (a->batch_size <= 0)
            return pr_err_set(err, NULL, 0, 0, "--batch-size",
                              "needed: %s values are converted with batch size x GPUs",
                              rule_value_name(c->value));
        if (a->gpus <= 0)
            return pr_err_set(err, NULL, 0, 0, "--gpus",
                              "needed: %s values are converted with batch size x GPUs",
                              rule_value_name(c->value));
    }
    if (parse_per_step(c->value) && parse_is_tokens(unit) && a->seq_len <= 0)
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
json_t *parse_jreal(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

void parse_fail(pr_parse_result *res, const char *reason, pr_buf *detail)
{
    if (res->failed)
        return; /* the first failing run names the case's failure */
    res->failed = 1;
    res->fail_reason = reason;
    res->fail_detail = pr_buf_detach(detail);
}

static void add_count(json_t *stats, const char *key, unsigned long long n)
{
    json_t *t = json_object_get(stats, key);
    json_integer_set(t, json_integer_value(t) + (json_int_t)n);
}

void parse_run_init(run *r, const pr_rule *rule, const pr_rulecfg_cfg *c, kase *k)
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
void parse_run_free(run *r)
{
    free(r->sx);
    free(r->sy);
    free(r->v);
    free(r->g.tx);
    free(r->g.tv);
}

void parse_case_open(parse_case_acc *a, const pr_rulecfg_cfg *c, const pr_parse_args *args,
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
void parse_case_add_run(parse_case_acc *a, run *r, size_t i, int io, pr_parse_result *res)
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
    if (io == 0 && parse_finish_run(r, pr_buf_cstr(&what), a->args, a->unit, res, stats, &x) == 0) {
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
void parse_case_close(parse_case_acc *a, pr_parse_result *res)
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
        json_object_set_new(stats, "min", parse_jreal(k->min));
        json_object_set_new(stats, "max", parse_jreal(k->max));
        json_object_set_new(stats, "mean", parse_jreal(k->sum / (double)k->used));
        json_object_set_new(stats, "median",
                            k->all_dropped ? json_null()
                                           : parse_jreal(pr_stats_median(k->all, k->nall)));
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
                json_object_set_new(res->metrics, "time_to_train_s",
                                    parse_jreal(res->value * 60.0));
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
    parse_case_acc a;
    parse_case_open(&a, c, args, logs, nlogs, res);
    /* the facts of the first run's log (all of it with "files": "parts") */
    pr_logfacts *facts = logfacts_new();
    int all_read = 1;
    for (size_t i = 0; i < a.runs; i++) {
        run r;
        parse_run_init(&r, rule, c, &a.k);
        r.facts = i == 0 ? facts : NULL;
        const char *const *part = c->files == PR_FILES_PARTS ? logs : logs + i;
        size_t nparts = c->files == PR_FILES_PARTS ? nlogs : 1;
        pr_err e;
        int io = parse_read_run(&r, part, nparts, &e);
        if (io < 0) {
            pr_buf d = PR_BUF_INIT;
            pr_buf_puts(&d, e.msg);
            parse_fail(res, "parse_error", &d);
            pr_buf_free(&d);
            all_read = 0;
        }
        parse_case_add_run(&a, &r, i, io, res);
        parse_run_free(&r);
    }
    parse_case_close(&a, res);
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
