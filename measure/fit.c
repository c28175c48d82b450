#include "fit.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* How a candidate's value compares with a figure. */
enum { MATCH_ROUND, MATCH_TRUNC, MATCH_MISS, MATCH_FAIL };

/* The trims tried with trimmed_mean, simplest first: the default (Paddle's
 * benchmark scripts), the olympic mean (MLPerf: the fastest and the slowest
 * dropped), then 5 %, 10 % and 25 % of the records from each end. */
static const pr_fitcalc_trim trims[] = {{0.05, 5}, {0, 1}, {0.05, 0}, {0.1, 0}, {0.25, 0}};
enum { NTRIMS = sizeof trims / sizeof trims[0] };

/* The reducers in the order listed among rules of as many keys. */
static const pr_reduce reducers[] = {PR_REDUCE_MEAN, PR_REDUCE_TRIMMED_MEAN, PR_REDUCE_MEDIAN,
                                     PR_REDUCE_LAST, PR_REDUCE_BEST,         PR_REDUCE_MAX,
                                     PR_REDUCE_MIN};
enum { NREDUCERS = sizeof reducers / sizeof reducers[0] };
static const char *const reduce_names[] = {"mean", "median", "last", "trimmed_mean",
                                           "max",  "min",    "best"};
static const pr_step steps[] = {PR_STEP_ITERATION, PR_STEP_EPOCH, PR_STEP_SUMMARY, PR_STEP_ANY};
static const char *const step_names[] = {"iteration", "epoch", "summary", "any"};

/* One case: its figure and its records in memory. */
typedef struct fcase {
    const pr_fit_case *in;
    int decimals;
    char canon[48]; /* the figure with leading zeros dropped */
    double figure;
    pr_scan *scan;
    pr_fitcalc *calc; /* the scan's reductions under the step searched */
    char *label;    /* owned */
} fcase;

typedef struct cand {
    pr_reduce_keys k;
    int trim;           /* index in trims; -1 unless trimmed_mean */
    int red_order;      /* index in reducers */
    int step_order;     /* index in steps; 0 outside dllogger */
    int round_searched; /* round is a searched key (else the rule's own) */
    int complexity;     /* keys that differ from their defaults */
    long long same_to;  /* the largest skip that gives the same values */
    size_t at;          /* where its values are in the fit's arrays */
    int nround, ntrunc, nfail;
    double worst;       /* the largest relative difference */
} cand;

typedef struct fit {
    fcase *cs;
    size_t nc;
    const pr_rule_cfg *base;
    cand *cands;
    size_t ncand, capcand;
    double *vals;         /* ncases per candidate; NAN: no value */
    unsigned char *match; /* MATCH_* */
    const char **reason;  /* static: the failure's reason */
    size_t nvals, capvals;
    size_t tried;
    int reference; /* pr_parse_reduce for every candidate (tests) */
} fit;

int pr_fit_figure_decimals(const char *s)
{
    int d = strlen(s) > 40 ? -1 : pr_stats_printed_decimals(s);
    return d > 12 ? -1 : d;
}

int pr_fit_figure_check(const char *s, pr_err *err)
{
    /* Hardening (#22): "--fit 0" was searched, and every value was
     * "+10000.08 %" off it (a relative difference to 0). */
    char *end = NULL;
    errno = 0;
    double v = s[0] && !isspace((unsigned char)s[0]) ? strtod(s, &end) : 0;
    int parsed = end && end != s && *end == '\0';
    if (parsed && !isfinite(v))
        return pr_err_set(err, NULL, 0, 0, "--fit",
                          "\"%s\" cannot be a result: it is not a finite number", s);
    if (parsed && v <= 0)
        return pr_err_set(err, NULL, 0, 0, "--fit",
                          "\"%s\" cannot be a result: a figure to reproduce is a number above 0",
                          s);
    int d = pr_fit_figure_decimals(s);
    if (d < 0)
        return pr_err_set(err, NULL, 0, 0, "--fit",
                          "\"%s\" is not a figure as printed (digits, a decimal point and at "
                          "most 12 decimals: 428, 19.428)",
                          s);
    return d;
}

/* x with d decimals, rounded as pr_stats_printed_match rounds (for the
 * report). */
static void fmt_round(char *buf, size_t size, double x, int d)
{
    snprintf(buf, size, "%.*f", d, x);
}

static int classify(const fcase *fc, double v)
{
    switch (pr_stats_printed_match(v, fc->canon)) {
    case PR_PRINTED_ROUNDED: return MATCH_ROUND;
    case PR_PRINTED_TRUNCATED: return MATCH_TRUNC;
    default: return MATCH_MISS;
    }
}

static double rel_diff(const fcase *fc, double v)
{
    return fc->figure > 0 ? (v - fc->figure) / fc->figure : v - fc->figure;
}

/* Reduces every case under c->k into the fit's arrays (at c->at). */
static void evaluate(fit *f, cand *c)
{
    if (f->nvals + f->nc > f->capvals) {
        f->capvals = f->capvals ? 2 * f->capvals : 1024;
        while (f->capvals < f->nvals + f->nc)
            f->capvals *= 2;
        f->vals = pr_xrealloc(f->vals, f->capvals * sizeof *f->vals);
        f->match = pr_xrealloc(f->match, f->capvals);
        f->reason = pr_xrealloc(f->reason, f->capvals * sizeof *f->reason);
    }
    c->at = f->nvals;
    c->nround = c->ntrunc = c->nfail = 0;
    c->worst = 0;
    for (size_t g = 0; g < f->nc; g++) {
        double v = 0;
        const char *why = NULL;
        int failed;
        if (f->reference) {
            pr_parse_result res;
            pr_parse_result_init(&res);
            pr_parse_reduce(f->cs[g].scan, &c->k, PR_REDUCE_LEAN, &res, NULL, NULL);
            failed = res.failed;
            why = res.fail_reason;
            v = res.value;
            pr_parse_result_clear(&res);
        } else {
            failed = pr_fitcalc_reduce(f->cs[g].calc, &c->k, &v, &why);
        }
        size_t at = c->at + g;
        f->reason[at] = failed ? why : NULL;
        if (failed) {
            f->vals[at] = NAN;
            f->match[at] = MATCH_FAIL;
            c->nfail++;
        } else {
            f->vals[at] = v;
            f->match[at] = (unsigned char)classify(&f->cs[g], v);
            c->nround += f->match[at] == MATCH_ROUND;
            c->ntrunc += f->match[at] == MATCH_TRUNC;
            double r = fabs(rel_diff(&f->cs[g], v));
            if (r > c->worst)
                c->worst = r;
        }
    }
    f->tried++;
}

/* Whether two candidates gave the same values (bit for bit) everywhere. */
static int same_values(const fit *f, const cand *a, const cand *b)
{
    for (size_t g = 0; g < f->nc; g++) {
        double x = f->vals[a->at + g], y = f->vals[b->at + g];
        if (isnan(x) != isnan(y) || (!isnan(x) && x != y))
            return 0;
    }
    return 1;
}

/* Whether step takes record e (as pr_parse_reduce does). */
static int takes(pr_step step, const pr_scan_rec *e)
{
    return e->rank < 0 &&
           (e->step == PR_SCAN_NO_STEP || step == PR_STEP_ANY || (int)step == e->step);
}

/* A step that takes no number, or exactly the lines an earlier one takes,
 * is not tried. */
static int step_worth_trying(const fit *f, int si)
{
    int any = 0;
    for (size_t g = 0; g < f->nc; g++)
        for (size_t i = 0; i < pr_scan_runs(f->cs[g].scan); i++) {
            size_t n;
            const pr_scan_rec *r = pr_scan_records(f->cs[g].scan, i, &n);
            for (size_t j = 0; j < n; j++)
                any |= r[j].kind == PR_SCAN_NUMBER && takes(steps[si], &r[j]);
        }
    if (!any)
        return 0;
    for (int e = 0; e < si; e++) {
        int same = 1;
        for (size_t g = 0; g < f->nc && same; g++)
            for (size_t i = 0; i < pr_scan_runs(f->cs[g].scan) && same; i++) {
                size_t n;
                const pr_scan_rec *r = pr_scan_records(f->cs[g].scan, i, &n);
                for (size_t j = 0; j < n && same; j++)
                    same = takes(steps[si], &r[j]) == takes(steps[e], &r[j]);
            }
        if (same && step_worth_trying(f, e))
            return 0;
    }
    return 1;
}

/* The records each run of each case counts under step (no skip): seen[g]
 * is an array of runs (caller frees each and seen).  Returns the largest,
 * over the cases, of their smallest run. */
static unsigned long long count_seen(const fit *f, const pr_reduce_keys *base_keys, pr_step step,
                                     unsigned long long **seen)
{
    pr_reduce_keys k = *base_keys;
    k.skip = 0;
    k.reduce = PR_REDUCE_MEAN;
    k.step = step;
    k.round = -1;
    k.min_records = 1;
    unsigned long long best = 0;
    for (size_t g = 0; g < f->nc; g++) {
        size_t runs = pr_scan_runs(f->cs[g].scan);
        pr_run_trace *t = pr_xcalloc(runs, sizeof *t);
        pr_parse_result res;
        pr_parse_result_init(&res);
        pr_parse_reduce(f->cs[g].scan, &k, PR_REDUCE_LEAN, &res, t, NULL);
        seen[g] = pr_xcalloc(runs, sizeof **seen);
        unsigned long long least = 0;
        for (size_t i = 0; i < runs; i++) {
            seen[g][i] = t[i].seen;
            if (i == 0 || t[i].seen < least)
                least = t[i].seen;
            pr_run_trace_clear(&t[i]);
        }
        if (least > best)
            best = least;
        free(t);
        pr_parse_result_clear(&res);
    }
    return best;
}

/* Whether reducer r, at this skip, is the same computation as the mean on
 * every run of every case: any reducer on one record left, the median on
 * two. */
static int reducer_is_mean(const fit *f, unsigned long long **seen, pr_reduce r, long long skip)
{
    if (r == PR_REDUCE_MEAN || r == PR_REDUCE_TRIMMED_MEAN)
        return 0;
    for (size_t g = 0; g < f->nc; g++)
        for (size_t i = 0; i < pr_scan_runs(f->cs[g].scan); i++) {
            unsigned long long left = seen[g][i] > (unsigned long long)skip ? seen[g][i] - skip : 0;
            if (left > (r == PR_REDUCE_MEDIAN ? 2u : 1u))
                return 0;
        }
    return 1;
}

/* Whether trim ti drops, at this skip, what a trim tried before it drops
 * (or nothing, which is the mean) from every run of every case. */
static int trim_is_repeat(const fit *f, unsigned long long **seen, int ti, long long skip)
{
    int all_zero = 1;
    int same[NTRIMS];
    for (int e = 0; e < ti; e++)
        same[e] = 1;
    for (size_t g = 0; g < f->nc; g++)
        for (size_t i = 0; i < pr_scan_runs(f->cs[g].scan); i++) {
            size_t n = seen[g][i] > (unsigned long long)skip ? (size_t)(seen[g][i] - skip) : 0;
            size_t d = pr_stats_trim_count(n, trims[ti].fraction, (size_t)trims[ti].min);
            all_zero &= d == 0;
            for (int e = 0; e < ti; e++)
                same[e] &= d == pr_stats_trim_count(n, trims[e].fraction, (size_t)trims[e].min);
        }
    if (all_zero)
        return 1;
    for (int e = 0; e < ti; e++)
        if (same[e])
            return 1;
    return 0;
}

static cand *new_cand(fit *f)
{
    if (f->ncand == f->capcand) {
        f->capcand = f->capcand ? 2 * f->capcand : 256;
        f->cands = pr_xrealloc(f->cands, f->capcand * sizeof *f->cands);
    }
    cand *c = &f->cands[f->ncand];
    memset(c, 0, sizeof *c);
    return c;
}

/* Tries skip 0..max_skip for one reducer, trim, step and round, folding a
 * candidate into the one before it when it differs only by a larger skip
 * and gives the same values. */
static void try_skips(fit *f, const cand *proto, long long max_skip, unsigned long long **seen)
{
    size_t prev = (size_t)-1; /* the candidate before, in f->cands */
    for (long long skip = 0; skip <= max_skip; skip++) {
        if ((proto->trim >= 0 && trim_is_repeat(f, seen, proto->trim, skip)) ||
            reducer_is_mean(f, seen, proto->k.reduce, skip)) {
            prev = (size_t)-1; /* its values are another candidate's, not prev's */
            continue;
        }
        cand *c = new_cand(f);
        *c = *proto;
        c->k.skip = skip;
        c->same_to = skip;
        c->complexity = proto->complexity + (skip > 0);
        evaluate(f, c);
        if ((size_t)c->nfail == f->nc) {
            f->nvals = c->at;
            prev = (size_t)-1;
            continue;
        }
        if (prev != (size_t)-1 && same_values(f, &f->cands[prev], c)) {
            f->cands[prev].same_to = skip;
            f->nvals = c->at;
            continue;
        }
        f->nvals = c->at + f->nc;
        prev = f->ncand++;
    }
}

/* Simplest first: fewer keys away from their defaults, a smaller skip,
 * then the reducer, trim, step and round in the orders above. */
static int cmp_simple(const void *pa, const void *pb)
{
    const cand *a = pa, *b = pb;
    if (a->complexity != b->complexity)
        return a->complexity - b->complexity;
    if (a->k.skip != b->k.skip)
        return a->k.skip < b->k.skip ? -1 : 1;
    if (a->red_order != b->red_order)
        return a->red_order - b->red_order;
    if (a->trim != b->trim)
        return a->trim - b->trim;
    if (a->step_order != b->step_order)
        return a->step_order - b->step_order;
    return a->k.round - b->k.round;
}

/* The candidate as the object one passes to --rule: the user's rule with
 * the searched keys set where they are not the default (a new reference). */
static json_t *cand_json(const fit *f, const json_t *base_json, const cand *c)
{
    json_t *j = json_deep_copy(base_json);
    json_object_del(j, "skip");
    json_object_del(j, "reduce");
    json_object_del(j, "trim");
    if (f->base->profile == PR_PROFILE_DLLOGGER)
        json_object_del(j, "step");
    if (c->round_searched)
        json_object_del(j, "round");
    if (c->k.skip)
        json_object_set_new(j, "skip", json_integer(c->k.skip));
    if (c->k.reduce != PR_REDUCE_MEAN)
        json_object_set_new(j, "reduce", json_string(reduce_names[c->k.reduce]));
    if (c->trim > 0) {
        const pr_fitcalc_trim *t = &trims[c->trim];
        json_object_set_new(j, "trim",
                            json_pack("{s:o,s:I}", "fraction",
                                      t->fraction == 0 ? json_integer(0) : json_real(t->fraction),
                                      "min", (json_int_t)t->min));
    }
    if (f->base->profile == PR_PROFILE_DLLOGGER && c->k.step != PR_STEP_ITERATION)
        json_object_set_new(j, "step", json_string(step_names[c->k.step]));
    if (c->round_searched && c->k.round >= 0)
        json_object_set_new(j, "round", json_integer(c->k.round));
    return j;
}

/* Checks that the printed rule holds the candidate's keys, so that what is
 * listed is what --rule will do. */
static int check_printed(const json_t *j, const cand *c, int dllogger, pr_err *err)
{
    pr_rule *r = NULL;
    if (pr_rule_from_json((json_t *)j, "<--fit>", &r, err) < 0)
        return pr_err_prefix(err, "a rule built by --fit is not valid");
    pr_reduce_keys k;
    pr_reduce_keys_of(r, &k);
    pr_rule_free(r);
    int trimmed = c->k.reduce == PR_REDUCE_TRIMMED_MEAN;
    if (k.skip != c->k.skip || k.reduce != c->k.reduce || k.round != c->k.round ||
        k.min_records != c->k.min_records || (dllogger && k.step != c->k.step) ||
        (trimmed && (k.trim_fraction != c->k.trim_fraction || k.trim_min != c->k.trim_min)))
        return pr_err_set(err, NULL, 0, 0, "--fit", "a rule built by --fit does not hold the "
                                                    "keys that were tried");
    return 0;
}

/* One listed candidate: its rule, and each case's value against its figure. */
static int put_cand(const fit *f, const json_t *base_json, const cand *c, size_t no,
                    pr_buf *out, pr_err *err)
{
    json_t *j = cand_json(f, base_json, c);
    int rc = check_printed(j, c, f->base->profile == PR_PROFILE_DLLOGGER, err);
    if (rc == 0) {
        char *t = json_dumps(j, JSON_REAL_PRECISION(15));
        pr_buf_printf(out, "  %zu. %s\n", no, t);
        free(t);
    }
    json_decref(j);
    if (rc < 0)
        return -1;
    for (size_t g = 0; g < f->nc; g++) {
        const fcase *fc = &f->cs[g];
        double v = f->vals[c->at + g];
        int d = fc->decimals;
        if (f->nc > 1)
            pr_buf_printf(out, "     [%zu] ", g + 1);
        else
            pr_buf_puts(out, "     ");
        char r[512];
        switch (f->match[c->at + g]) {
        case MATCH_FAIL:
            pr_buf_printf(out, "no value (%s)\n", f->reason[c->at + g]);
            continue;
        case MATCH_ROUND:
            pr_buf_printf(out, "%.*f -> %s\n", d + 3, v, fc->canon);
            continue;
        case MATCH_TRUNC:
            fmt_round(r, sizeof r, v, d);
            pr_buf_printf(out, "%.*f -> %s only by truncation (it rounds to %s)\n", d + 3, v,
                          fc->canon, r);
            continue;
        default:
            pr_buf_printf(out, "%.*f misses %s (%+.*f, %+.4f%%)\n", d + 3, v, fc->canon, d + 3,
                          v - fc->figure, 100.0 * rel_diff(fc, v));
        }
    }
    if (c->same_to > c->k.skip)
        pr_buf_printf(out, "     (the same value%s with skip %lld to %lld)\n",
                      f->nc > 1 ? "s" : "", c->k.skip, c->same_to);
    return 0;
}

/* Lists the candidates idx[0..n), at most limit (0: all). */
static int put_list(const fit *f, const json_t *base_json, const size_t *idx, size_t n,
                    size_t limit, pr_buf *out, pr_err *err)
{
    size_t shown = limit && n > limit ? limit : n;
    for (size_t i = 0; i < shown; i++)
        if (put_cand(f, base_json, &f->cands[idx[i]], i + 1, out, err) < 0)
            return -1;
    if (shown < n)
        pr_buf_printf(out, "  ... and %zu more (--limit 0 lists them all)\n", n - shown);
    return 0;
}

typedef struct by_diff {
    double worst;
    size_t i;
} by_diff;

static int cmp_diff(const void *pa, const void *pb)
{
    const by_diff *a = pa, *b = pb;
    if (a->worst != b->worst)
        return a->worst < b->worst ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* The figures, for headings: "393.561", "both figures", "all 3 figures". */
static void put_figures(const fit *f, pr_buf *out)
{
    if (f->nc == 1)
        pr_buf_puts(out, f->cs[0].canon);
    else if (f->nc == 2)
        pr_buf_puts(out, "both figures");
    else
        pr_buf_printf(out, "all %zu figures", f->nc);
}

/* Up to limit candidates idx[0..n) as a JSON array (a new reference): each
 * {"rule", "values": [per case, null when none], "matches": [...]}. */
static json_t *cand_list_json(const fit *f, const json_t *base_json, const size_t *idx,
                              size_t n, size_t limit, pr_err *err)
{
    static const char *const match_names[] = {"rounded", "truncated", "differs", "no value"};
    json_t *arr = json_array();
    size_t shown = limit && n > limit ? limit : n;
    for (size_t i = 0; i < shown; i++) {
        const cand *c = &f->cands[idx[i]];
        json_t *rule = cand_json(f, base_json, c);
        if (check_printed(rule, c, f->base->profile == PR_PROFILE_DLLOGGER, err) < 0) {
            json_decref(rule);
            json_decref(arr);
            return NULL;
        }
        json_t *vals = json_array(), *matches = json_array();
        for (size_t g = 0; g < f->nc; g++) {
            double v = f->vals[c->at + g];
            int m = f->match[c->at + g];
            json_array_append_new(vals, isnan(v) ? json_null() : json_real(v));
            json_array_append_new(matches, json_string(match_names[m == MATCH_ROUND   ? 0
                                                                   : m == MATCH_TRUNC ? 1
                                                                   : m == MATCH_FAIL  ? 3
                                                                                      : 2]));
        }
        /* json_pack "o" steals rule, vals and matches */
        json_array_append_new(arr, json_pack("{s:o,s:o,s:o}", "rule", rule, "values", vals,
                                             "matches", matches));
    }
    return arr;
}

/* The report as one JSON object (--json): the figures, the rules that
 * reproduce them all, those that do only by truncation, and (when none
 * reproduces them all) the closest.  Appended to out. */
static int report_json(fit *f, const json_t *base_json, const pr_fit_opts *o, pr_buf *out,
                       int *fits, pr_err *err)
{
    size_t *idx = pr_xcalloc(f->ncand + 1, sizeof *idx);
    by_diff *bd = pr_xcalloc(f->ncand + 1, sizeof *bd);
    json_t *doc = json_object(), *figs = json_array(), *list;
    int rc = -1;
    for (size_t g = 0; g < f->nc; g++) {
        json_t *logs = json_array();
        for (size_t i = 0; i < f->cs[g].in->nlogs; i++)
            json_array_append_new(logs, json_string(f->cs[g].in->logs[i]));
        json_array_append_new(figs, json_pack("{s:s,s:o}", "figure", f->cs[g].in->figure,
                                              "logs", logs));
    }
    json_object_set_new(doc, "perfrepro_fit", json_integer(1));
    json_object_set_new(doc, "searched", json_integer((json_int_t)f->tried));
    json_object_set_new(doc, "figures", figs);
    size_t n = 0;
    for (size_t i = 0; i < f->ncand; i++)
        if ((size_t)f->cands[i].nround == f->nc)
            idx[n++] = i;
    *fits = n > 0;
    if (!(list = cand_list_json(f, base_json, idx, n, o->limit, err)))
        goto out;
    json_object_set_new(doc, "reproduced", list);
    n = 0;
    for (size_t i = 0; i < f->ncand; i++)
        if (f->cands[i].ntrunc && (size_t)(f->cands[i].nround + f->cands[i].ntrunc) == f->nc)
            idx[n++] = i;
    if (!(list = cand_list_json(f, base_json, idx, n, o->limit, err)))
        goto out;
    json_object_set_new(doc, "truncated", list);
    n = 0;
    for (size_t i = 0; !*fits && i < f->ncand; i++)
        if (f->cands[i].nfail == 0)
            bd[n++] = (by_diff){f->cands[i].worst, i};
    pr_qsort(bd, n, sizeof *bd, cmp_diff);
    for (size_t i = 0; i < n; i++)
        idx[i] = bd[i].i;
    if (!(list = cand_list_json(f, base_json, idx, n, o->limit, err)))
        goto out;
    json_object_set_new(doc, "closest", list);
    char *text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    pr_buf_puts(out, text);
    pr_buf_puts(out, "\n");
    free(text);
    rc = 0;
out:
    json_decref(doc);
    free(idx);
    free(bd);
    return rc;
}

/* The report, from the candidates sorted simplest first. */
static int report(fit *f, const json_t *base_json, const pr_fit_opts *o, pr_buf *out,
                  int *fits, pr_err *err)
{
    size_t *idx = pr_xcalloc(f->ncand + 1, sizeof *idx);
    by_diff *bd = NULL;
    size_t n = 0;
    int rc = -1;
    for (size_t i = 0; i < f->ncand; i++)
        if ((size_t)f->cands[i].nround == f->nc)
            idx[n++] = i;
    *fits = n > 0;
    if (n) {
        pr_buf_printf(out, "%zu rule%s reproduce%s ", n, n == 1 ? "" : "s", n == 1 ? "s" : "");
        put_figures(f, out);
        pr_buf_puts(out, " (simplest first):\n");
        if (put_list(f, base_json, idx, n, o->limit, out, err) < 0)
            goto out;
    } else {
        pr_buf_puts(out, "no rule reproduces ");
        put_figures(f, out);
        pr_buf_puts(out, "\n");
    }
    /* only by truncation: every figure by rounding or truncating, one at least truncated */
    n = 0;
    for (size_t i = 0; i < f->ncand; i++)
        if (f->cands[i].ntrunc && (size_t)(f->cands[i].nround + f->cands[i].ntrunc) == f->nc)
            idx[n++] = i;
    if (n) {
        pr_buf_printf(out, "%zu rule%s reproduce%s ", n, n == 1 ? "" : "s", n == 1 ? "s" : "");
        put_figures(f, out);
        pr_buf_puts(out, " only by truncation (the figure was cut, not rounded):\n");
        if (put_list(f, base_json, idx, n, o->limit, out, err) < 0)
            goto out;
    }
    if (*fits) {
        rc = 0;
        goto out;
    }
    /* the rules that reproduce most figures, when there are several */
    for (size_t want = f->nc - 1; f->nc > 1 && want >= 1; want--) {
        n = 0;
        for (size_t i = 0; i < f->ncand; i++)
            if ((size_t)f->cands[i].nround == want)
                idx[n++] = i;
        if (!n)
            continue;
        pr_buf_printf(out, "%zu rule%s reproduce%s %zu of the %zu figures (simplest first):\n",
                      n, n == 1 ? "" : "s", n == 1 ? "s" : "", want, f->nc);
        if (put_list(f, base_json, idx, n, o->limit, out, err) < 0)
            goto out;
        break;
    }
    /* the closest: the smallest largest relative difference over the cases */
    bd = pr_xcalloc(f->ncand + 1, sizeof *bd);
    n = 0;
    for (size_t i = 0; i < f->ncand; i++)
        if (f->cands[i].nfail == 0)
            bd[n++] = (by_diff){f->cands[i].worst, i};
    pr_qsort(bd, n, sizeof *bd, cmp_diff);
    for (size_t i = 0; i < n; i++)
        idx[i] = bd[i].i;
    if (n) {
        pr_buf_puts(out, "the closest rules (by the largest relative difference):\n");
        if (put_list(f, base_json, idx, n, o->limit, out, err) < 0)
            goto out;
    } else {
        pr_buf_puts(out, "no rule gives a value for every log\n");
    }
    rc = 0;
out:
    free(idx);
    free(bd);
    return rc;
}

/* Reads the cases and checks their figures. */
static int open_cases(fit *f, const pr_rule *base, const pr_fit_case *cases, pr_err *err)
{
    for (size_t g = 0; g < f->nc; g++) {
        fcase *fc = &f->cs[g];
        fc->in = &cases[g];
        fc->decimals = pr_fit_figure_check(cases[g].figure, err);
        if (fc->decimals < 0)
            return -1;
        const char *p = cases[g].figure;
        while (p[0] == '0' && p[1] >= '0' && p[1] <= '9')
            p++;
        snprintf(fc->canon, sizeof fc->canon, "%s", p);
        fc->figure = strtod(p, NULL);
        if (cases[g].nlogs == 0)
            return pr_err_set(err, NULL, 0, 0, "--fit", "%s: no LOG after the figure",
                              cases[g].figure);
        fc->label = cases[g].nlogs > 1 ? pr_xasprintf("%s (+%zu more)", cases[g].logs[0],
                                                      cases[g].nlogs - 1)
                                       : pr_xstrdup(cases[g].logs[0]);
        if (pr_parse_scan(base, cases[g].logs, cases[g].nlogs, &cases[g].args, &fc->scan,
                          err) < 0)
            return pr_err_prefix(err, "--fit %s %s", cases[g].figure, fc->label);
    }
    return 0;
}

int pr_fit(const pr_rule *base, const json_t *base_json, const pr_fit_case *cases,
           size_t ncases, const pr_fit_opts *o, pr_buf *out, int *fits, pr_err *err)
{
    fit f;
    memset(&f, 0, sizeof f);
    f.nc = ncases;
    f.base = pr_rule_get(base);
    f.reference = o->reference;
    f.cs = pr_xcalloc(ncases ? ncases : 1, sizeof *f.cs);
    unsigned long long **seen = pr_xcalloc(ncases ? ncases : 1, sizeof *seen);
    pr_buf tried = PR_BUF_INIT;
    int rc = -1;
    if (ncases == 0) {
        pr_err_set(err, NULL, 0, 0, "--fit", "no FIGURE given");
        goto out;
    }
    if (open_cases(&f, base, cases, err) < 0)
        goto out;

    pr_reduce_keys bk;
    pr_reduce_keys_of(base, &bk);
    int dll = f.base->profile == PR_PROFILE_DLLOGGER;
    int several_runs = 0;
    for (size_t g = 0; g < ncases; g++)
        several_runs |= pr_scan_runs(f.cs[g].scan) > 1;
    /* round: the rule's; else tried as the figures print, where a case has
     * several runs (the median of rounded runs can differ) */
    int rounds[14], nrounds = 0;
    int round_searched = f.base->round < 0 && several_runs;
    rounds[nrounds++] = f.base->round;
    for (size_t g = 0; round_searched && g < ncases; g++) {
        int dup = 0;
        for (int i = 0; i < nrounds; i++)
            dup |= rounds[i] == f.cs[g].decimals;
        if (!dup)
            rounds[nrounds++] = f.cs[g].decimals;
    }
    long long skip_tried = 0;
    for (int si = 0; si < (dll ? 4 : 1); si++) {
        if (dll && !step_worth_trying(&f, si))
            continue;
        pr_step step = dll ? steps[si] : bk.step;
        unsigned long long most = count_seen(&f, &bk, step, seen);
        long long max_skip = most > 0 ? (long long)most - 1 : 0;
        if (max_skip > o->max_skip)
            max_skip = o->max_skip;
        if (max_skip > skip_tried)
            skip_tried = max_skip;
        if (dll)
            pr_buf_printf(&tried, "%s%s", tried.len ? ", " : "", step_names[si]);
        for (size_t g = 0; g < ncases && !f.reference; g++)
            f.cs[g].calc = pr_fitcalc_new(f.cs[g].scan, base, &cases[g].args, step, max_skip,
                                          trims, NTRIMS, o->counts);
        for (int ri = 0; ri < nrounds; ri++)
            for (int red = 0; red < NREDUCERS; red++) {
                pr_reduce r = reducers[red];
                int rate = f.base->value == PR_VALUE_THROUGHPUT ||
                           f.base->value == PR_VALUE_STEPS_PER_SECOND;
                /* best is max (rates) or min (step times): tried once, as best */
                if ((r == PR_REDUCE_BEST && f.base->value == PR_VALUE_RAW) ||
                    (r == PR_REDUCE_MAX && rate) ||
                    (r == PR_REDUCE_MIN && f.base->value != PR_VALUE_RAW && !rate))
                    continue;
                for (int ti = r == PR_REDUCE_TRIMMED_MEAN ? 0 : -1;
                     ti < (r == PR_REDUCE_TRIMMED_MEAN ? NTRIMS : 0); ti++) {
                    cand proto;
                    memset(&proto, 0, sizeof proto);
                    proto.k = bk;
                    proto.k.reduce = r;
                    proto.k.step = step;
                    proto.k.round = rounds[ri];
                    proto.trim = ti;
                    if (ti >= 0) {
                        proto.k.trim_fraction = trims[ti].fraction;
                        proto.k.trim_min = trims[ti].min;
                    }
                    proto.red_order = red;
                    proto.step_order = dll ? si : 0;
                    proto.round_searched = round_searched;
                    proto.complexity = (r != PR_REDUCE_MEAN) + (ti > 0) +
                                       (dll && step != PR_STEP_ITERATION) +
                                       (round_searched && rounds[ri] >= 0);
                    try_skips(&f, &proto, max_skip, seen);
                }
            }
        for (size_t g = 0; g < ncases; g++) {
            free(seen[g]);
            seen[g] = NULL;
            pr_fitcalc_free(f.cs[g].calc);
            f.cs[g].calc = NULL;
        }
    }
    if (f.ncand)
        pr_qsort(f.cands, f.ncand, sizeof *f.cands, cmp_simple);

    if (o->json) {
        rc = report_json(&f, base_json, o, out, fits, err);
        goto out;
    }
    size_t nlogs = 0;
    for (size_t g = 0; g < ncases; g++)
        nlogs += cases[g].nlogs;
    pr_buf_printf(out, "searched %zu rules on %zu log%s: skip 0 to %lld; reduce mean, "
                       "trimmed_mean (%d trims), median, last, %s",
                  f.tried, nlogs, nlogs == 1 ? "" : "s", skip_tried, (int)NTRIMS,
                  f.base->value == PR_VALUE_RAW ? "max, min"
                  : f.base->value == PR_VALUE_THROUGHPUT ||
                          f.base->value == PR_VALUE_STEPS_PER_SECOND
                      ? "best (= max), min"
                      : "best (= min), max");
    if (dll)
        pr_buf_printf(out, "; step %s", pr_buf_cstr(&tried));
    if (round_searched) {
        pr_buf_puts(out, "; round none");
        for (int i = 1; i < nrounds; i++)
            pr_buf_printf(out, ", %d", rounds[i]);
    }
    pr_buf_puts(out, "\n");
    for (size_t g = 0; ncases > 1 && g < ncases; g++)
        pr_buf_printf(out, "  [%zu] %s: %s\n", g + 1, f.cs[g].canon, f.cs[g].label);
    rc = report(&f, base_json, o, out, fits, err);
out:
    for (size_t g = 0; g < ncases; g++) {
        pr_fitcalc_free(f.cs[g].calc);
        pr_scan_free(f.cs[g].scan);
        free(f.cs[g].label);
        free(seen[g]);
    }
    free(seen);
    free(f.cs);
    free(f.cands);
    free(f.vals);
    free(f.match);
    free(f.reason);
    pr_buf_free(&tried);
    return rc;
}
