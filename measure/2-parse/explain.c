#include "explain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "recmark.h"

static int step_time(pr_rulecfg_value_kind v)
{
    return v == PR_VALUE_SECONDS_PER_STEP || v == PR_VALUE_MS_PER_STEP;
}

static const char *const step_names[] = {"iteration", "epoch", "summary", "any"};

/* One listed record: its line, value and what became of it. */
static void put_record(pr_buf *out, const pr_scan *s, const pr_rulecfg_cfg *c, const pr_scan_rec *e,
                       int st, int mark, int failed, unsigned long long skip_no, int width)
{
    char val[48];
    if (e->kind != PR_SCAN_NUMBER)
        strcpy(val, "-");
    else if (isinf(e->value))
        strcpy(val, "inf");
    else
        snprintf(val, sizeof val, "%.10g", e->value);
    pr_buf_printf(out, "  %*llu  %14s  ", width, (unsigned long long)e->lineno, val);
    switch (st) {
    case PR_REC_USED: {
        const char *r = failed ? "used" : "kept";
        static const char *const what[] = {"", "", "", "", "last", "max", "min", "best"};
        int w = c->reduce == PR_REDUCE_LAST  ? 4
                : c->reduce == PR_REDUCE_MAX ? 5
                : c->reduce == PR_REDUCE_MIN ? 6
                                             : 7;
        if (mark == PR_MARK_TRIM_LOW)
            pr_buf_puts(out, "trimmed (low end)");
        else if (mark == PR_MARK_TRIM_HIGH)
            pr_buf_puts(out, "trimmed (high end)");
        else if (mark == PR_MARK_MEDIAN)
            pr_buf_printf(out, "%s (median)", r);
        else if (mark == PR_MARK_PICKED)
            pr_buf_printf(out, "%s (the %s)", r, what[w]);
        else if (mark == PR_MARK_NOT_PICKED)
            pr_buf_printf(out, "used, not the %s", what[w]);
        else
            pr_buf_puts(out, r);
        if (isinf(e->value))
            pr_buf_puts(out, ": a run that did not converge, scored as the slowest");
        break;
    }
    case PR_REC_SKIPPED:
        pr_buf_printf(out, "skipped (warm-up, %llu of %lld)", skip_no, c->skip);
        break;
    case PR_REC_IGNORED:
        if (e->kind != PR_SCAN_NUMBER)
            pr_buf_puts(out, "ignored (no usable value: an N/A cell, a run that did not "
                             "converge, a value that is not a number)");
        else if (step_time(c->value))
            pr_buf_puts(out, "ignored (a step time <= 0)");
        else
            pr_buf_puts(out, "ignored (a negative rate)");
        break;
    case PR_REC_NOT_CLEAN: {
        pr_buf_puts(out, "not a clean number: \"");
        const char *t = parse_scan_text(s, e);
        size_t n = t ? strlen(t) : 0;
        while (n && t[n - 1] == ' ')
            n--;
        for (size_t i = 0; i < n; i++) {
            unsigned char ch = (unsigned char)t[i];
            pr_buf_putc(out, ch >= 0x20 && ch < 0x7f && ch != '"' ? ch : '?');
        }
        pr_buf_puts(out, "\"");
        break;
    }
    case PR_REC_OTHER_STEP:
        pr_buf_printf(out, "other step (%s line; \"step\": \"%s\" takes it)", step_names[e->step],
                      step_names[e->step]);
        break;
    case PR_REC_OTHER_RANK:
        pr_buf_printf(out, "other rank (rank %d; the rule reads rank %d)", e->rank, c->rank);
        break;
    }
    pr_buf_putc(out, '\n');
}

static const char *plural(unsigned long long n)
{
    return n == 1 ? "" : "s";
}

/* The counts of one run, after its records. */
static void put_counts(pr_buf *out, const pr_run_trace *t, unsigned long long not_clean)
{
    pr_buf_printf(out, "  %llu record%s read: %llu skipped (warm-up), %llu used", t->seen,
                  plural(t->seen), t->skipped, t->used);
    unsigned long long other_ignored = t->ignored - not_clean;
    if (not_clean)
        pr_buf_printf(out, "; %llu value%s not a clean number", not_clean, plural(not_clean));
    if (other_ignored)
        pr_buf_printf(out, "; %llu ignored", other_ignored);
    if (t->other_step)
        pr_buf_printf(out, "; %llu line%s of other steps", t->other_step, plural(t->other_step));
    if (t->other_rank)
        pr_buf_printf(out, "; %llu line%s of other ranks left out", t->other_rank,
                      plural(t->other_rank));
    pr_buf_putc(out, '\n');
}

/* The reducer's arithmetic for one run. */
static void put_reduce(pr_buf *out, const pr_rulecfg_cfg *c, const pr_run_trace *t,
                       const pr_scan_rec *recs, size_t pick, const size_t mid[2])
{
    unsigned long long u = t->used;
    switch (c->reduce) {
    case PR_REDUCE_MEAN:
        pr_buf_printf(out, "  mean of the %llu used record%s = %.10g\n", u, plural(u), t->reduced);
        break;
    case PR_REDUCE_MEDIAN:
        if (mid[0] == mid[1])
            pr_buf_printf(out,
                          "  median of the %llu used record%s = %.10g (the middle one in "
                          "order, line %llu)\n",
                          u, plural(u), t->reduced, (unsigned long long)recs[mid[0]].lineno);
        else
            pr_buf_printf(out,
                          "  median of the %llu used records = %.10g (the mean of the two "
                          "middle ones in order, lines %llu and %llu)\n",
                          u, t->reduced, (unsigned long long)recs[mid[0]].lineno,
                          (unsigned long long)recs[mid[1]].lineno);
        break;
    case PR_REDUCE_TRIMMED_MEAN: {
        unsigned long long kept = u - 2 * (unsigned long long)t->trim_each;
        pr_buf_printf(out,
                      "  trimmed_mean of the %llu used records: sorted, max(int(%g x %llu), "
                      "%lld) = %zu dropped from each end; mean of the %llu kept = %.10g\n",
                      u, c->trim_fraction, u, c->trim_min, t->trim_each, kept, t->reduced);
        break;
    }
    default: {
        const char *name = c->reduce == PR_REDUCE_LAST  ? "last"
                           : c->reduce == PR_REDUCE_MAX ? "max"
                           : c->reduce == PR_REDUCE_MIN ? "min"
                                                        : "best";
        pr_buf_printf(out, "  %s", name);
        if (c->reduce == PR_REDUCE_BEST)
            pr_buf_puts(out,
                        step_time(c->value) ? " (the shortest step time)" : " (the highest rate)");
        pr_buf_printf(out, " of the %llu used record%s = %.10g", u, plural(u), t->reduced);
        if (pick != (size_t)-1)
            pr_buf_printf(out, " (line %llu)", (unsigned long long)recs[pick].lineno);
        pr_buf_putc(out, '\n');
    }
    }
}

/* The conversion and rounding of one run's reduced value. */
static void put_convert(pr_buf *out, const pr_rulecfg_cfg *c, const pr_parse_args *a,
                        const char *unit, const pr_run_trace *t)
{
    double x = t->reduced;
    if (c->value == PR_VALUE_THROUGHPUT) {
        if (c->scope == PR_SCOPE_PER_CARD)
            pr_buf_printf(out, "  scope per_card: %.10g x %d GPU%s = %.10g\n", x, t->gpus,
                          t->gpus == 1 ? "" : "s", t->before_round);
        else
            pr_buf_puts(out, "  scope global: the log's rate is the whole job's (not "
                             "multiplied by the GPU count)\n");
    } else if (c->value != PR_VALUE_RAW) {
        pr_buf_printf(out, "  %.10g samples per step (", t->samples_per_step);
        if (t->batch_from_log)
            pr_buf_printf(out, "the global batch \"%s\" read from the log", c->batch_keyword);
        else
            pr_buf_printf(out, "batch %d x %d GPU%s", a->batch_size, a->gpus,
                          a->gpus == 1 ? "" : "s");
        if (unit && strncmp(unit, "tokens", 6) == 0)
            pr_buf_printf(out, " x %d tokens", a->seq_len);
        pr_buf_puts(out, ")");
        if (c->value == PR_VALUE_SECONDS_PER_STEP)
            pr_buf_printf(out, " / %.10g s per step", x);
        else if (c->value == PR_VALUE_MS_PER_STEP)
            pr_buf_printf(out, " x 1000 / %.10g ms per step", x);
        else
            pr_buf_printf(out, " x %.10g steps/s", x);
        pr_buf_printf(out, " = %.10g\n", t->before_round);
    }
    if (c->round >= 0)
        pr_buf_printf(out, "  round(%.10g, %d) = %.10g\n", t->before_round, c->round, t->value);
}

/* The text being made and where it goes. */
typedef struct sink {
    pr_buf b;
    explain_write write;
    void *arg;
    pr_err *err;
} sink;

/* Writes out what the buffer holds (all of it, or only past
 * PR_EXPLAIN_CHUNK bytes when !all).  Returns 0, or -1 with err set. */
static int flush(sink *k, int all)
{
    if (!k->b.len || (!all && k->b.len < PR_EXPLAIN_CHUNK))
        return 0;
    int rc = k->write(k->b.data, k->b.len, k->arg, k->err);
    pr_buf_clear(&k->b);
    return rc;
}

/* One run: its records, counts and arithmetic.  Returns -1 (err set) when
 * the text cannot be written. */
static int put_run(sink *k, const pr_scan *s, const pr_rulecfg_cfg *c, const pr_parse_args *a,
                   const char *unit, size_t i, const unsigned char *st, const pr_run_trace *t,
                   int width, int several_runs)
{
    pr_buf *out = &k->b;
    int rc = -1;
    size_t n;
    const pr_scan_rec *recs = parse_scan_records(s, i, &n);
    unsigned char *mark = pr_xcalloc(n ? n : 1, 1);
    size_t pick, mid[2];
    recmark_mark_used(c, recs, n, st, t, mark, &pick, mid);
    pr_buf_printf(out, "  %*s  %14s  %s\n", width, "line", "value", "status");
    unsigned long long skip_no = 0, not_clean = 0;
    unsigned part = 0;
    for (size_t j = 0; j < n; j++) {
        if (c->files == PR_FILES_PARTS && (j == 0 || recs[j].part != part)) {
            part = recs[j].part;
            pr_buf_printf(out, "  in %s:\n", parse_scan_log(s, i, part));
        }
        if (st[j] == PR_REC_SKIPPED)
            skip_no++;
        if (st[j] == PR_REC_NOT_CLEAN)
            not_clean++;
        put_record(out, s, c, &recs[j], st[j], mark[j], t->failed, skip_no, width);
        if (flush(k, 0) < 0)
            goto out;
    }
    put_counts(out, t, not_clean);
    if (t->failed) {
        /* one run's failure is the case's, on the result line */
        if (several_runs)
            pr_buf_printf(out, "  run failed: %s: %s\n", t->reason, t->detail ? t->detail : "");
    } else {
        put_reduce(out, c, t, recs, pick, mid);
        put_convert(out, c, a, unit, t);
        if (several_runs)
            pr_buf_printf(out, "  run value: %.10g\n", t->value);
    }
    rc = 0;
out:
    free(mark);
    return rc;
}

static int digits(unsigned long long n)
{
    int d = 1;
    while (n >= 10) {
        n /= 10;
        d++;
    }
    return d;
}

int explain_run(const pr_rule *rule, const char *const *logs, size_t nlogs,
                const pr_parse_args *args, explain_write write, void *arg, int *has_value,
                pr_err *err)
{
    const pr_rulecfg_cfg *c = rule_get(rule);
    sink k = {PR_BUF_INIT, write, arg, err};
    pr_buf *out = &k.b;
    pr_scan *s = NULL;
    pr_parse_result res;
    parse_result_init(&res);
    pr_run_trace *traces = NULL;
    unsigned char **st = NULL;
    size_t runs = 0;
    int rc = -1;
    if (parse_scan(rule, logs, nlogs, args, &s, err) < 0)
        goto out;
    runs = parse_scan_runs(s);
    traces = pr_xcalloc(runs, sizeof *traces);
    st = pr_xcalloc(runs, sizeof *st);
    unsigned long long maxline = 0;
    for (size_t i = 0; i < runs; i++) {
        size_t n;
        const pr_scan_rec *recs = parse_scan_records(s, i, &n);
        st[i] = pr_xcalloc(n ? n : 1, 1);
        for (size_t j = 0; j < n; j++)
            if (recs[j].lineno > maxline)
                maxline = recs[j].lineno;
    }
    pr_reduce_keys keys;
    parse_reduce_keys_of(rule, &keys);
    parse_reduce(s, &keys, 0, &res, traces, st);

    json_t *rj = rule_to_json(rule);
    char *rtext = json_dumps(rj, JSON_REAL_PRECISION(15));
    pr_buf_printf(out, "rule: %s\n", rtext);
    free(rtext);
    json_decref(rj);
    int width = digits(maxline) > 4 ? digits(maxline) : 4;
    for (size_t i = 0; i < runs; i++) {
        if (runs > 1)
            pr_buf_printf(out, "run %zu of %zu: %s\n", i + 1, runs, logs[i]);
        else if (nlogs > 1) {
            pr_buf_puts(out, "log parts, read as one log:");
            for (size_t j = 0; j < nlogs; j++)
                pr_buf_printf(out, " %s", logs[j]);
            pr_buf_putc(out, '\n');
        } else
            pr_buf_printf(out, "log: %s\n", logs[0]);
        if (put_run(&k, s, c, args, res.unit, i, st[i], &traces[i], width, runs > 1) < 0)
            goto out;
    }
    if (res.failed) {
        pr_buf_printf(out, "result: none (%s: %s)\n", res.fail_reason,
                      res.fail_detail ? res.fail_detail : "");
    } else if (runs > 1) {
        pr_buf_printf(out, "result: median of the %zu run values (", runs);
        for (size_t i = 0; i < runs; i++)
            pr_buf_printf(out, "%s%.10g", i ? ", " : "", traces[i].value);
        pr_buf_printf(out, ") = %.10g %s\n", res.value, res.unit ? res.unit : "");
    } else {
        pr_buf_printf(out, "result: %.10g %s\n", res.value, res.unit ? res.unit : "");
    }
    if (flush(&k, 1) < 0)
        goto out;
    *has_value = !res.failed;
    rc = 0;
out:
    pr_buf_free(&k.b);
    for (size_t i = 0; i < runs; i++) {
        parse_run_trace_clear(&traces[i]);
        free(st[i]);
    }
    free(traces);
    free(st);
    parse_result_clear(&res);
    parse_scan_free(s);
    return rc;
}
