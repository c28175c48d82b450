/* parsetrace: the record's step_trace (parsetrace.h). */
#include "parsetrace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "recmark.h"

char parsetrace_steptrace_code(int status, int mark, int run_failed)
{
    switch (status) {
    case PR_REC_USED:
        switch (mark) {
        case PR_MARK_TRIM_LOW:
            return PR_ST_TRIM_LOW;
        case PR_MARK_TRIM_HIGH:
            return PR_ST_TRIM_HIGH;
        case PR_MARK_MEDIAN:
            return PR_ST_MEDIAN;
        case PR_MARK_PICKED:
            return PR_ST_PICKED;
        case PR_MARK_NOT_PICKED:
            return PR_ST_NOT_PICKED;
        default:
            return run_failed ? PR_ST_USED_FAILED : PR_ST_KEPT;
        }
    case PR_REC_SKIPPED:
        return PR_ST_WARMUP;
    case PR_REC_IGNORED:
        return PR_ST_IGNORED;
    case PR_REC_NOT_CLEAN:
        return PR_ST_NOT_CLEAN;
    case PR_REC_OTHER_STEP:
        return PR_ST_OTHER_STEP;
    default:
        return PR_ST_OTHER_RANK;
    }
}

/* How a record's value becomes one in the figure's unit, as parse_finish_run
 * converts the reduced value: the scale's name and factor. */
typedef struct scale {
    const char *name;
    double factor;
} scale;

static scale scale_of(const pr_rulecfg_cfg *c, const pr_parse_args *a, const pr_run_trace *t)
{
    if (c->value == PR_VALUE_THROUGHPUT && c->scope == PR_SCOPE_PER_CARD && a->gpus > 0)
        return (scale){"per_card", a->gpus};
    if (c->value == PR_VALUE_SECONDS_PER_STEP || c->value == PR_VALUE_MS_PER_STEP ||
        c->value == PR_VALUE_STEPS_PER_SECOND) {
        /* the run's samples per step, known once its reduction got that far */
        if (!(t->samples_per_step > 0))
            return (scale){"as_read", 1};
        const char *n = c->value == PR_VALUE_SECONDS_PER_STEP ? "seconds_per_step"
                        : c->value == PR_VALUE_MS_PER_STEP    ? "ms_per_step"
                                                              : "steps_per_second";
        return (scale){n, t->samples_per_step};
    }
    return (scale){"as_read", 1};
}

/* A record's value in the figure's unit; NAN when it has none (not a
 * number, inf, a step time <= 0, a value < 0). */
static double convert(const pr_rulecfg_cfg *c, scale sc, const pr_scan_rec *e)
{
    if (e->kind != PR_SCAN_NUMBER || !isfinite(e->value))
        return NAN;
    double v = e->value;
    if (strcmp(sc.name, "per_card") == 0)
        v *= sc.factor;
    else if (strcmp(sc.name, "as_read") != 0) {
        if (c->value == PR_VALUE_STEPS_PER_SECOND)
            v = sc.factor * v;
        else if (v <= 0)
            return NAN;
        else
            v = c->value == PR_VALUE_MS_PER_STEP ? sc.factor * 1000.0 / v : sc.factor / v;
    }
    /* a negative rate (ignored) or raw value: no place on a chart from 0 */
    return isfinite(v) && v >= 0 ? v : NAN;
}

/* json_real of a finite value, else null (a new reference). */
static json_t *jnum(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

/* One run's part: lines, values (min of a bin), max (bins only), status.
 * Returns a new object the caller owns. */
static json_t *run_json(const pr_rulecfg_cfg *c, const pr_scan_rec *recs, size_t n,
                        const char *codes, scale sc, const pr_run_trace *t)
{
    size_t bin = n > PR_STEPTRACE_CAP ? (n + PR_STEPTRACE_CAP - 1) / PR_STEPTRACE_CAP : 1;
    json_t *lines = json_array(), *vals = json_array(), *maxs = bin > 1 ? json_array() : NULL;
    pr_buf st = PR_BUF_INIT;
    for (size_t i = 0; i < n; i += bin) {
        size_t end = i + bin < n ? i + bin : n;
        double lo = NAN, hi = NAN;
        char code = codes[i];
        for (size_t j = i; j < end; j++) {
            double v = convert(c, sc, &recs[j]);
            if (codes[j] != code)
                code = PR_ST_MIXED;
            if (isnan(v))
                continue;
            lo = isnan(lo) || v < lo ? v : lo;
            hi = isnan(hi) || v > hi ? v : hi;
        }
        json_array_append_new(lines, json_integer((json_int_t)recs[i].lineno));
        json_array_append_new(vals, jnum(lo));
        if (maxs)
            json_array_append_new(maxs, jnum(hi));
        pr_buf_putc(&st, code);
    }
    json_t *o = json_object();
    json_object_set_new(o, "records", json_integer((json_int_t)n));
    json_object_set_new(o, "bin", json_integer((json_int_t)bin));
    json_object_set_new(o, "value", t->failed ? json_null() : jnum(t->value));
    json_object_set_new(o, "lines", lines);
    json_object_set_new(o, "values", vals);
    if (maxs)
        json_object_set_new(o, "max", maxs);
    json_object_set_new(o, "status", json_string(pr_buf_cstr(&st)));
    pr_buf_free(&st);
    return o;
}

json_t *parsetrace_steptrace_make(const pr_rule *rule, const char *const *logs, size_t nlogs,
                                  const pr_parse_args *args, unsigned long long listed)
{
    if (listed > PR_STEPTRACE_MAX_RECORDS) {
        char why[160];
        snprintf(why, sizeof why, "%llu records listed: more than the %llu a trace is made from",
                 listed, PR_STEPTRACE_MAX_RECORDS);
        return json_pack("{s:i,s:s}", "version", 1, "omitted", why);
    }
    const pr_rulecfg_cfg *c = rule_get(rule);
    pr_scan *s = NULL;
    pr_err e;
    if (parse_scan(rule, logs, nlogs, args, &s, &e) < 0)
        return NULL;
    size_t runs = parse_scan_runs(s);
    unsigned char **status = pr_xcalloc(runs, sizeof *status);
    pr_run_trace *traces = pr_xcalloc(runs, sizeof *traces);
    for (size_t i = 0; i < runs; i++) {
        size_t n;
        parse_scan_records(s, i, &n);
        status[i] = pr_xcalloc(n ? n : 1, 1);
    }
    pr_reduce_keys k;
    parse_reduce_keys_of(rule, &k);
    pr_parse_result res;
    parse_result_init(&res);
    parse_reduce(s, &k, PR_REDUCE_LEAN, &res, traces, status);
    parse_result_clear(&res);
    json_t *jruns = json_array();
    scale sc0 = {"as_read", 1};
    for (size_t i = 0; i < runs; i++) {
        size_t n, pick, mid[2];
        const pr_scan_rec *recs = parse_scan_records(s, i, &n);
        unsigned char *mark = pr_xcalloc(n ? n : 1, 1);
        recmark_mark_used(c, recs, n, status[i], &traces[i], mark, &pick, mid);
        char *codes = pr_xcalloc(n + 1, 1);
        for (size_t j = 0; j < n; j++)
            codes[j] = parsetrace_steptrace_code(status[i][j], mark[j], traces[i].failed);
        scale sc = scale_of(c, args, &traces[i]);
        if (i == 0)
            sc0 = sc;
        else if (strcmp(sc.name, sc0.name) != 0 || sc.factor != sc0.factor)
            sc = sc0; /* one scale per trace: runs of one case convert alike */
        json_array_append_new(jruns, run_json(c, recs, n, codes, sc, &traces[i]));
        free(codes);
        free(mark);
        parse_run_trace_clear(&traces[i]);
        free(status[i]);
    }
    free(status);
    free(traces);
    parse_scan_free(s);
    return json_pack("{s:i,s:s,s:f,s:o}", "version", 1, "scale", sc0.name, "factor", sc0.factor,
                     "runs", jruns);
}
