/* parse_run: one run reduced to its value, in the figure's unit, and why a run failed. */
#include "parse_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

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
    parse_fail(res, reason, detail);
}

/* Reduces one run to its value.  Returns 0 with *out set, or -1 after
 * recording the failure in res. */
int parse_finish_run(run *r, const char *what, const pr_parse_args *a, const char *unit,
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
    if (parse_per_step(c->value)) {
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
        if (parse_is_tokens(unit))
            s *= a->seq_len;
        json_object_set_new(stats, "samples_per_step", parse_jreal(s));
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
    pr_buf_free(&d); /* parse_fail() took it unless an earlier run failed first */
    return rc;
}
