/* fit: the search of `parse --fit` (fit.h): the candidates (skip, reduce,
 * trim, step, round), each reduced on every case by fitcalc.c, folded when
 * a larger skip gives the same values, and sorted simplest first; the
 * report is fitreport.c's. */
#include "fit_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* The trims tried with trimmed_mean, simplest first: the default (Paddle's
 * benchmark scripts), the olympic mean (MLPerf: the fastest and the slowest
 * dropped), then 5 %, 10 % and 25 % of the records from each end. */
const pr_fitcalc_trim pr_fit_trims[NTRIMS] = {{0.05, 5}, {0, 1}, {0.05, 0}, {0.1, 0}, {0.25, 0}};
const char *const pr_fit_step_names[] = {"iteration", "epoch", "summary", "any"};

/* The reducers in the order listed among rules of as many keys. */
static const pr_rulecfg_reduce reducers[] = {
    PR_REDUCE_MEAN, PR_REDUCE_TRIMMED_MEAN, PR_REDUCE_MEDIAN, PR_REDUCE_LAST,
    PR_REDUCE_BEST, PR_REDUCE_MAX,          PR_REDUCE_MIN};
enum { NREDUCERS = sizeof reducers / sizeof reducers[0] };
static const pr_rulecfg_step steps[] = {PR_STEP_ITERATION, PR_STEP_EPOCH, PR_STEP_SUMMARY,
                                        PR_STEP_ANY};

int fit_figure_decimals(const char *s)
{
    /* Issue 33: a figure as printed, whatever its length (an MLPerf score
     * carries 17 digits; 12 decimals were the limit). */
    return pr_stats_printed_decimals(s);
}

int fit_figure_check(const char *s, pr_err *err)
{
    /* Hardening (#22): "--fit 0" was searched, and every value was
     * "+10000.08 %" off it (a relative difference to 0). */
    char *end = NULL;
    errno = 0;
    double v = s[0] && !isspace((unsigned char)s[0]) ? strtod(s, &end) : 0;
    int parsed = end && end != s && *end == '\0';
    if (parsed && ((errno == ERANGE && v != 0) || !isfinite(v)))
        return pr_err_set(err, NULL, 0, 0, "--fit",
                          "\"%s\" cannot be a result: it is not a finite number", s);
    if (parsed && v <= 0)
        return pr_err_set(err, NULL, 0, 0, "--fit",
                          "\"%s\" cannot be a result: a figure to reproduce is a number above 0",
                          s);
    int d = fit_figure_decimals(s);
    if (d < 0)
        return pr_err_set(err, NULL, 0, 0, "--fit",
                          "\"%s\" is not a figure as printed (digits and a decimal point: "
                          "428, 19.428)",
                          s);
    return d;
}

static int classify(const fcase *fc, double v)
{
    switch (pr_stats_printed_match(v, fc->canon)) {
    case PR_PRINTED_ROUNDED:
        return MATCH_ROUND;
    case PR_PRINTED_TRUNCATED:
        return MATCH_TRUNC;
    default:
        return MATCH_MISS;
    }
}

double fit_rel_diff(const fcase *fc, double v)
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
            parse_result_init(&res);
            parse_reduce(f->cs[g].scan, &c->k, PR_REDUCE_LEAN, &res, NULL, NULL);
            failed = res.failed;
            why = res.fail_reason;
            v = res.value;
            parse_result_clear(&res);
        } else {
            failed = fitcalc_reduce(f->cs[g].calc, &c->k, &v, &why);
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
            double r = fabs(fit_rel_diff(&f->cs[g], v));
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

/* Whether step takes record e (as parse_reduce does). */
static int takes(pr_rulecfg_step step, const pr_scan_rec *e)
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
        for (size_t i = 0; i < parse_scan_runs(f->cs[g].scan); i++) {
            size_t n;
            const pr_scan_rec *r = parse_scan_records(f->cs[g].scan, i, &n);
            for (size_t j = 0; j < n; j++)
                any |= r[j].kind == PR_SCAN_NUMBER && takes(steps[si], &r[j]);
        }
    if (!any)
        return 0;
    for (int e = 0; e < si; e++) {
        int same = 1;
        for (size_t g = 0; g < f->nc && same; g++)
            for (size_t i = 0; i < parse_scan_runs(f->cs[g].scan) && same; i++) {
                size_t n;
                const pr_scan_rec *r = parse_scan_records(f->cs[g].scan, i, &n);
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
static unsigned long long count_seen(const fit *f, const pr_reduce_keys *base_keys,
                                     pr_rulecfg_step step, unsigned long long **seen)
{
    pr_reduce_keys k = *base_keys;
    k.skip = 0;
    k.reduce = PR_REDUCE_MEAN;
    k.step = step;
    k.round = -1;
    k.min_records = 1;
    unsigned long long best = 0;
    for (size_t g = 0; g < f->nc; g++) {
        size_t runs = parse_scan_runs(f->cs[g].scan);
        pr_run_trace *t = pr_xcalloc(runs, sizeof *t);
        pr_parse_result res;
        parse_result_init(&res);
        parse_reduce(f->cs[g].scan, &k, PR_REDUCE_LEAN, &res, t, NULL);
        seen[g] = pr_xcalloc(runs, sizeof **seen);
        unsigned long long least = 0;
        for (size_t i = 0; i < runs; i++) {
            seen[g][i] = t[i].seen;
            if (i == 0 || t[i].seen < least)
                least = t[i].seen;
            parse_run_trace_clear(&t[i]);
        }
        if (least > best)
            best = least;
        free(t);
        parse_result_clear(&res);
    }
    return best;
}

/* Whether reducer r, at this skip, is the same computation as the mean on
 * every run of every case: any reducer on one record left, the median on
 * two. */
static int reducer_is_mean(const fit *f, unsigned long long **seen, pr_rulecfg_reduce r,
                           long long skip)
{
    if (r == PR_REDUCE_MEAN || r == PR_REDUCE_TRIMMED_MEAN)
        return 0;
    for (size_t g = 0; g < f->nc; g++)
        for (size_t i = 0; i < parse_scan_runs(f->cs[g].scan); i++) {
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
        for (size_t i = 0; i < parse_scan_runs(f->cs[g].scan); i++) {
            size_t n = seen[g][i] > (unsigned long long)skip ? (size_t)(seen[g][i] - skip) : 0;
            const pr_fitcalc_trim *t = pr_fit_trims;
            size_t d = pr_stats_trim_count(n, t[ti].fraction, (size_t)t[ti].min);
            all_zero &= d == 0;
            for (int e = 0; e < ti; e++)
                same[e] &= d == pr_stats_trim_count(n, t[e].fraction, (size_t)t[e].min);
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

/* Reads the cases and checks their figures. */
static int open_cases(fit *f, const pr_rule *base, const pr_fit_case *cases, pr_err *err)
{
    for (size_t g = 0; g < f->nc; g++) {
        fcase *fc = &f->cs[g];
        fc->in = &cases[g];
        fc->decimals = fit_figure_check(cases[g].figure, err);
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
        fc->label = cases[g].nlogs > 1
                        ? pr_xasprintf("%s (+%zu more)", cases[g].logs[0], cases[g].nlogs - 1)
                        : pr_xstrdup(cases[g].logs[0]);
        if (parse_scan(base, cases[g].logs, cases[g].nlogs, &cases[g].args, &fc->scan, err) < 0)
            return pr_err_prefix(err, "--fit %s %s", cases[g].figure, fc->label);
    }
    return 0;
}

int fit_run(const pr_rule *base, const json_t *base_json, const pr_fit_case *cases, size_t ncases,
            const pr_fit_opts *o, pr_buf *out, int *fits, pr_err *err)
{
    fit f;
    memset(&f, 0, sizeof f);
    f.nc = ncases;
    f.base = rule_get(base);
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
    parse_reduce_keys_of(base, &bk);
    int dll = f.base->profile == PR_PROFILE_DLLOGGER;
    int several_runs = 0;
    for (size_t g = 0; g < ncases; g++)
        several_runs |= parse_scan_runs(f.cs[g].scan) > 1;
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
        pr_rulecfg_step step = dll ? steps[si] : bk.step;
        unsigned long long most = count_seen(&f, &bk, step, seen);
        long long max_skip = most > 0 ? (long long)most - 1 : 0;
        if (max_skip > o->max_skip)
            max_skip = o->max_skip;
        if (max_skip > skip_tried)
            skip_tried = max_skip;
        if (dll)
            pr_buf_printf(&tried, "%s%s", tried.len ? ", " : "", pr_fit_step_names[si]);
        for (size_t g = 0; g < ncases && !f.reference; g++)
            f.cs[g].calc = fitcalc_new(f.cs[g].scan, base, &cases[g].args, step, max_skip,
                                       pr_fit_trims, NTRIMS, o->counts);
        for (int ri = 0; ri < nrounds; ri++)
            for (int red = 0; red < NREDUCERS; red++) {
                pr_rulecfg_reduce r = reducers[red];
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
                        proto.k.trim_fraction = pr_fit_trims[ti].fraction;
                        proto.k.trim_min = pr_fit_trims[ti].min;
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
            fitcalc_free(f.cs[g].calc);
            f.cs[g].calc = NULL;
        }
    }
    if (f.ncand)
        pr_qsort(f.cands, f.ncand, sizeof *f.cands, cmp_simple);

    if (o->json) {
        rc = fit_report_json(&f, base_json, o, out, fits, err);
        goto out;
    }
    size_t nlogs = 0;
    for (size_t g = 0; g < ncases; g++)
        nlogs += cases[g].nlogs;
    pr_buf_printf(out,
                  "searched %zu rules on %zu log%s: skip 0 to %lld; reduce mean, "
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
    rc = fit_report_text(&f, base_json, o, out, fits, err);
out:
    for (size_t g = 0; g < ncases; g++) {
        fitcalc_free(f.cs[g].calc);
        parse_scan_free(f.cs[g].scan);
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
