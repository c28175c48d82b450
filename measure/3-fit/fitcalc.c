/* fitcalc: the reductions `parse --fit` tries, from one sort per run
 * (fitcalc.h says how).  Every value must be the double parse_reduce
 * gives: tests/unit/measure_fit.c compares them for every key --fit tries. */
#include "fitcalc.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "stats.h"

/* Skips summed in one pass over the records. */
enum { LANES = 16 };
/* A window that holds nothing (lo and hi of a trim that drops everything). */
#define NONE SIZE_MAX

/* One run's records under the engine's step, and what every skip gives. */
typedef struct frun {
    size_t n;                      /* the records counted (stats.records_seen) */
    size_t ns;                     /* skips answered: 0 .. ns-1 (at most n) */
    double *x;                     /* the records in log order */
    double *g;                     /* the records sorted */
    size_t *early;                 /* early[i]: the sorted position of record i, i < ns */
    size_t *eorder;                /* i < ns by early[i] ascending */
    double *sufmax, *sufmin, *med; /* per skip */
    /* the global batch of the used records (batch_keyword), per skip:
     * 0 none read, 1 all equal (gbs), 2 differing; missing: a line where
     * the keyword gave no number */
    unsigned char *gbs_state, *gbs_missing;
    double *gbs;
    size_t *lo, *hi;                      /* per trim and skip [t * ns + s]: the window in g */
    double *mean_sum, *trim_sum;          /* per skip; per trim and skip */
    unsigned char *mean_done, *trim_done; /* per group of LANES skips (and trim) */
} frun;

struct pr_fitcalc {
    const pr_scan *scan;
    const pr_rulecfg_cfg *c;
    pr_parse_args args;
    const char *unit; /* the result's unit, as parse resolves it */
    pr_rulecfg_step step;
    long long max_skip;
    pr_fitcalc_trim *trims;
    size_t ntrims;
    size_t runs;
    frun *r;
    int replay; /* every reduction through parse_reduce */
    pr_fitcalc_counts *counts;
    pr_fitcalc_counts own; /* counts when the caller gives none */
};

static int step_time(pr_rulecfg_value_kind v)
{
    return v == PR_VALUE_SECONDS_PER_STEP || v == PR_VALUE_MS_PER_STEP;
}

static int per_step(pr_rulecfg_value_kind v)
{
    return step_time(v) || v == PR_VALUE_STEPS_PER_SECOND;
}

/* ---- reading a run ---- */

/* Whether the reduction counts record e under step (parse.c's replay and
 * parse_count_record): another rank's line, a line of another step, a
 * value that is no clean number, a negative rate or a step time <= 0 is
 * not a record. */
static int counted(const pr_rulecfg_cfg *c, pr_rulecfg_step step, const pr_scan_rec *e)
{
    if (e->rank >= 0 || e->kind != PR_SCAN_NUMBER)
        return 0;
    if (e->step != PR_SCAN_NO_STEP && step != PR_STEP_ANY && (int)step != e->step)
        return 0;
    double x = e->value;
    if ((c->value != PR_VALUE_RAW && x < 0) || (step_time(c->value) && x <= 0))
        return 0;
    return 1;
}

static int cmp_size(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    return a < b ? -1 : a > b;
}

/* ---- sorting in place ----
 *
 * glibc's qsort sorts through a copy of the array (a merge sort): 8 bytes
 * a value more at --fit's peak (issue 31 #22).  The runs' values hold no
 * NaN and no -0 (read_run leaves those to parse_reduce), so equal values
 * are the same bits and any sort gives the same array: this one is an
 * introsort (quicksort, median of three, heapsort past 2 log2 n levels,
 * insertion sort for short ranges), in place. */

static void swap_d(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

static void sift_down(double *v, size_t root, size_t n)
{
    for (size_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && v[child] < v[child + 1])
            child++;
        if (!(v[root] < v[child]))
            return;
        swap_d(&v[root], &v[child]);
    }
}

static void heap_sort(double *v, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(v, i, n);
    for (size_t end = n; end-- > 1;) {
        swap_d(&v[0], &v[end]);
        sift_down(v, 0, end);
    }
}

static void intro_sort(double *v, size_t n, unsigned depth)
{
    while (n > 16) {
        if (depth-- == 0) {
            heap_sort(v, n);
            return;
        }
        /* median of the first, middle and last as the pivot, at v[0] */
        size_t mid = n / 2;
        if (v[mid] < v[0])
            swap_d(&v[mid], &v[0]);
        if (v[n - 1] < v[0])
            swap_d(&v[n - 1], &v[0]);
        if (v[n - 1] < v[mid])
            swap_d(&v[n - 1], &v[mid]);
        swap_d(&v[0], &v[mid]);
        double pivot = v[0];
        /* Hoare's partition: [0, j] <= pivot <= [j + 1, n) */
        size_t i = 0, j = n;
        for (;;) {
            do
                i++;
            while (i < n && v[i] < pivot);
            do
                j--;
            while (pivot < v[j]);
            if (i >= j)
                break;
            swap_d(&v[i], &v[j]);
        }
        swap_d(&v[0], &v[j]);
        /* the smaller side by recursion, the larger in the loop: log n stack */
        if (j < n - j - 1) {
            intro_sort(v, j, depth);
            v += j + 1;
            n -= j + 1;
        } else {
            intro_sort(v + j + 1, n - j - 1, depth);
            n = j;
        }
    }
    for (size_t i = 1; i < n; i++) {
        double x = v[i];
        size_t k = i;
        for (; k > 0 && x < v[k - 1]; k--)
            v[k] = v[k - 1];
        v[k] = x;
    }
}

static void sort_in_place(double *v, size_t n)
{
    unsigned depth = 0;
    for (size_t m = n; m > 1; m /= 2)
        depth += 2;
    intro_sort(v, n, depth);
}

/* A count of the Fenwick tree: 32 bits, 4 bytes a value less at --fit's
 * peak than a size_t (read_run leaves runs of 2^32 - 1 records or more to
 * parse_reduce). */
typedef uint32_t fen_count;

/* The Fenwick tree of n ones (1-based: t[i] counts positions (i - lowbit(i),
 * i]); the caller frees it. */
static fen_count *fen_new(size_t n)
{
    fen_count *t = pr_xmalloc((n + 1) * sizeof *t);
    t[0] = 0;
    for (size_t i = 1; i <= n; i++)
        t[i] = (fen_count)(i & (~i + 1));
    return t;
}

static void fen_remove(fen_count *t, size_t n, size_t pos)
{
    for (size_t i = pos + 1; i <= n; i += i & (~i + 1))
        t[i]--;
}

/* The position of the k-th (0-based) position still counted. */
static size_t fen_kth(const fen_count *t, size_t n, size_t k)
{
    size_t step = 1, at = 0, left = k + 1;
    while (step * 2 <= n)
        step *= 2;
    for (; step; step /= 2)
        if (at + step <= n && t[at + step] < left) {
            at += step;
            left -= t[at];
        }
    return at; /* 1-based at + 1, so 0-based at */
}

/* Suffix extremes and the global batch for the skips 0..ns-1, one pass
 * from the end.  bv/br: each record's batch (NAN: none) and whether its
 * line reads one (NULL when no record's does). */
static void suffixes(frun *r, const double *bv, const unsigned char *br)
{
    double mx = 0, mn = 0, first = 0;
    int have = 0, diff = 0, missing = 0;
    for (size_t j = r->n; j-- > 0;) {
        double v = r->x[j];
        if (j == r->n - 1 || v >= mx)
            mx = v; /* equal values are the same double here (no -0) */
        if (j == r->n - 1 || v <= mn)
            mn = v;
        if (br && br[j]) {
            if (isnan(bv[j])) {
                missing = 1;
            } else {
                diff |= have && bv[j] != first;
                first = bv[j]; /* the first in log order is the one parse keeps */
                have = 1;
            }
        }
        if (j < r->ns) {
            r->sufmax[j] = mx;
            r->sufmin[j] = mn;
            r->gbs_state[j] = (unsigned char)(!have ? 0 : diff ? 2 : 1);
            r->gbs_missing[j] = (unsigned char)missing;
            r->gbs[j] = first;
        }
    }
}

/* The order statistics of every skip: the median, and each trim's window
 * [lo, hi) in g (the records of index < skip inside it are not in it). */
static void order_stats(const pr_fitcalc *fc, frun *r)
{
    size_t n = r->n;
    fen_count *t = fen_new(n);
    for (size_t s = 0; s < r->ns; s++) {
        if (s > 0)
            fen_remove(t, n, r->early[s - 1]);
        size_t used = n - s;
        if (used % 2)
            r->med[s] = r->g[fen_kth(t, n, used / 2)];
        else /* as pr_stats_median */
            r->med[s] = (r->g[fen_kth(t, n, used / 2 - 1)] + r->g[fen_kth(t, n, used / 2)]) / 2;
        for (size_t k = 0; k < fc->ntrims; k++) {
            size_t d = pr_stats_trim_count(used, fc->trims[k].fraction, (size_t)fc->trims[k].min);
            size_t at = k * r->ns + s;
            if (2 * d >= used) {
                r->lo[at] = r->hi[at] = NONE;
                continue;
            }
            r->lo[at] = fen_kth(t, n, d);
            r->hi[at] = d ? fen_kth(t, n, used - d) : n;
        }
    }
    free(t);
}

/* Reads run i's records under the engine's step into r (zeroed; what it
 * allocates, run_free frees, also after a failure).  Returns -1 when the
 * run holds a value the engine does not reduce itself (inf, NaN, -0). */
static int read_run(pr_fitcalc *fc, size_t i, frun *r)
{
    size_t m;
    const pr_scan_rec *e = parse_scan_records(fc->scan, i, &m);
    double *bv = NULL;
    unsigned char *br = NULL;
    int rc = -1;
    r->x = pr_xmalloc((m ? m : 1) * sizeof *r->x);
    for (size_t j = 0; j < m; j++) {
        if (!counted(fc->c, fc->step, &e[j]))
            continue;
        double v = e[j].value;
        if (!isfinite(v) || (v == 0 && signbit(v)))
            goto out;
        int batch_read;
        double b = parse_scan_batch(fc->scan, &e[j], &batch_read);
        if (batch_read && !br) {
            br = pr_xcalloc(m, 1);
            bv = pr_xcalloc(m, sizeof *bv);
        }
        if (br) {
            br[r->n] = (unsigned char)batch_read;
            bv[r->n] = b;
        }
        r->x[r->n++] = v;
    }
    size_t n = r->n;
    if (n >= UINT32_MAX) /* fen_count */
        goto out;
    if (n && n < m) /* the records not counted were room for nothing */
        r->x = pr_xrealloc(r->x, n * sizeof *r->x);
    unsigned long long cap = (unsigned long long)fc->max_skip + 1;
    r->ns = cap < n ? (size_t)cap : n;
    size_t ns = r->ns ? r->ns : 1, nt = fc->ntrims ? fc->ntrims : 1;
    size_t groups = (ns + LANES - 1) / LANES;
    r->sufmax = pr_xcalloc(ns, sizeof *r->sufmax);
    r->sufmin = pr_xcalloc(ns, sizeof *r->sufmin);
    r->med = pr_xcalloc(ns, sizeof *r->med);
    r->gbs = pr_xcalloc(ns, sizeof *r->gbs);
    r->gbs_state = pr_xcalloc(ns, 1);
    r->gbs_missing = pr_xcalloc(ns, 1);
    r->early = pr_xcalloc(ns, sizeof *r->early);
    r->eorder = pr_xcalloc(ns, sizeof *r->eorder);
    r->lo = pr_xcalloc(nt * ns, sizeof *r->lo);
    r->hi = pr_xcalloc(nt * ns, sizeof *r->hi);
    r->mean_sum = pr_xcalloc(ns, sizeof *r->mean_sum);
    r->trim_sum = pr_xcalloc(nt * ns, sizeof *r->trim_sum);
    r->mean_done = pr_xcalloc(groups, 1);
    r->trim_done = pr_xcalloc(nt * groups, 1);
    if (n == 0) {
        rc = 0;
        goto out;
    }
    suffixes(r, bv, br);
    /* one sort: the records by value, then log order.  Equal values are
     * the same double here (no NaN, no -0), so the values alone are sorted
     * and each early record's place found after: the equal values before
     * it in g, then those before it in the log (issue 31 #22: a sort of
     * (value, index) pairs took 16 bytes a record more). */
    r->g = pr_xmalloc(n * sizeof *r->g);
    memcpy(r->g, r->x, n * sizeof *r->g);
    sort_in_place(r->g, n);
    fc->counts->sorts++;
    for (size_t j = 0; j < r->ns; j++) {
        size_t lo = 0, hi = n; /* the first place of a value >= x[j] */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (r->g[mid] < r->x[j])
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t e = 0; e < j; e++)
            lo += r->x[e] == r->x[j];
        r->early[j] = lo;
    }
    /* the early records by place, for the trimmed windows */
    size_t *pos = pr_xmalloc(r->ns * 2 * sizeof *pos);
    for (size_t j = 0; j < r->ns; j++) {
        pos[2 * j] = r->early[j];
        pos[2 * j + 1] = j;
    }
    pr_qsort(pos, r->ns, 2 * sizeof *pos, cmp_size);
    for (size_t j = 0; j < r->ns; j++)
        r->eorder[j] = pos[2 * j + 1];
    free(pos);
    order_stats(fc, r);
    rc = 0;
out:
    free(bv);
    free(br);
    return rc;
}

static void run_free(frun *r)
{
    free(r->x);
    free(r->g);
    free(r->early);
    free(r->eorder);
    free(r->sufmax);
    free(r->sufmin);
    free(r->med);
    free(r->gbs_state);
    free(r->gbs_missing);
    free(r->gbs);
    free(r->lo);
    free(r->hi);
    free(r->mean_sum);
    free(r->trim_sum);
    free(r->mean_done);
    free(r->trim_done);
}

pr_fitcalc *fitcalc_new(const pr_scan *scan, const pr_rule *rule, const pr_parse_args *args,
                        pr_rulecfg_step step, long long max_skip, const pr_fitcalc_trim *trims,
                        size_t ntrims, pr_fitcalc_counts *counts)
{
    pr_fitcalc *fc = pr_xcalloc(1, sizeof *fc);
    fc->scan = scan;
    fc->c = rule_get(rule);
    fc->args = *args;
    fc->unit = args->unit                     ? args->unit
               : fc->c->unit                  ? fc->c->unit
               : fc->c->value == PR_VALUE_RAW ? NULL
                                              : "samples/s";
    fc->step = fc->c->profile == PR_PROFILE_DLLOGGER ? step : fc->c->step;
    fc->max_skip = max_skip < 0 ? 0 : max_skip;
    fc->trims = pr_xcalloc(ntrims ? ntrims : 1, sizeof *fc->trims);
    if (ntrims)
        memcpy(fc->trims, trims, ntrims * sizeof *trims);
    fc->ntrims = ntrims;
    fc->counts = counts ? counts : &fc->own;
    fc->runs = parse_scan_runs(scan);
    fc->r = pr_xcalloc(fc->runs ? fc->runs : 1, sizeof *fc->r);
    /* perfrepro-gpu: a run's unit is checked against the runs before it */
    fc->replay = fc->c->profile == PR_PROFILE_PERFREPRO_GPU;
    for (size_t i = 0; i < fc->runs && !fc->replay; i++)
        if (read_run(fc, i, &fc->r[i]) < 0)
            fc->replay = 1;
    if (fc->replay) {
        for (size_t i = 0; i < fc->runs; i++)
            run_free(&fc->r[i]);
        memset(fc->r, 0, fc->runs * sizeof *fc->r);
    }
    return fc;
}

void fitcalc_free(pr_fitcalc *fc)
{
    if (!fc)
        return;
    for (size_t i = 0; i < fc->runs; i++)
        run_free(&fc->r[i]);
    free(fc->r);
    free(fc->trims);
    free(fc);
}

/* ---- sums, sixteen skips a pass ---- */

/* acc[k] += v[p] for p in [from, to), for the lanes whose w[k] is 1 (0:
 * the lane adds +-0, which leaves a sum that is not -0 as it is; no sum
 * is -0: it starts at +0 and no record is -0).  Each lane adds in the
 * order of v, as parse does. */
static void add_span(const double *v, size_t from, size_t to, const double *w, double *acc)
{
    double a[LANES];
    memcpy(a, acc, sizeof a);
    for (size_t p = from; p < to; p++) {
        double x = v[p];
        for (int k = 0; k < LANES; k++)
            a[k] += x * w[k];
    }
    memcpy(acc, a, sizeof a);
}

/* The same with every lane adding. */
static void add_span_all(const double *v, size_t from, size_t to, double *acc)
{
    double a[LANES];
    memcpy(a, acc, sizeof a);
    for (size_t p = from; p < to; p++) {
        double x = v[p];
        for (int k = 0; k < LANES; k++)
            a[k] += x;
    }
    memcpy(acc, a, sizeof a);
}

/* The sums of the records of skips s0 .. s0+LANES-1 (those below ns) in log
 * order: the sums of mean. */
static void mean_group(pr_fitcalc *fc, frun *r, size_t grp)
{
    size_t s0 = grp * LANES, lanes = r->ns - s0 < LANES ? r->ns - s0 : LANES;
    double acc[LANES] = {0}, w[LANES] = {0};
    /* records s0 .. s0+lanes-2: in the lanes that start at or before them */
    for (size_t j = 0; j + 1 < lanes; j++) {
        w[j] = 1;
        add_span(r->x, s0 + j, s0 + j + 1, w, acc);
    }
    w[lanes - 1] = 1;
    if (lanes == LANES)
        add_span_all(r->x, s0 + lanes - 1, r->n, acc);
    else
        add_span(r->x, s0 + lanes - 1, r->n, w, acc);
    for (size_t k = 0; k < lanes; k++)
        r->mean_sum[s0 + k] = acc[k];
    r->mean_done[grp] = 1;
    fc->counts->passes++;
}

/* The sums of trim t's windows for skips s0 .. s0+LANES-1 in sorted order
 * (into r->trim_sum; the breakpoints it allocates it frees):
 * the sums of trimmed_mean.  A lane's window is [lo, hi) of g without the
 * records of index below its skip; the spans between window ends and those
 * records are summed with the lanes that hold them. */
static void trim_group(pr_fitcalc *fc, frun *r, size_t t, size_t grp)
{
    size_t ns = r->ns, s0 = grp * LANES, lanes = ns - s0 < LANES ? ns - s0 : LANES;
    size_t last = s0 + lanes - 1; /* records of index < last are out of some lane */
    const size_t *lo = r->lo + t * ns + s0, *hi = r->hi + t * ns + s0;
    size_t *bp = pr_xmalloc((2 * LANES + 2 * last + 2) * sizeof *bp);
    size_t nb = 0;
    for (size_t k = 0; k < lanes; k++)
        if (lo[k] != NONE) {
            bp[nb++] = lo[k];
            bp[nb++] = hi[k];
        }
    for (size_t i = 0; i < last; i++) {
        bp[nb++] = r->early[i];
        bp[nb++] = r->early[i] + 1;
    }
    pr_qsort(bp, nb, sizeof *bp, cmp_size);
    double acc[LANES] = {0}, w[LANES];
    size_t e = 0; /* the next early record by place (eorder) */
    for (size_t b = 0; b + 1 < nb; b++) {
        size_t from = bp[b], to = bp[b + 1];
        if (from == to)
            continue;
        long long idx = -1; /* the early record at from, if any */
        while (e < ns && r->early[r->eorder[e]] < from)
            e++;
        for (size_t q = e; q < ns && r->early[r->eorder[q]] == from; q++)
            if (r->eorder[q] < last)
                idx = (long long)r->eorder[q];
        int any = 0, all = lanes == LANES;
        for (size_t k = 0; k < LANES; k++) {
            int in = k < lanes && lo[k] != NONE && lo[k] <= from && from < hi[k] &&
                     (idx < 0 || (size_t)idx >= s0 + k);
            w[k] = in;
            any |= in;
            all &= in;
        }
        if (all)
            add_span_all(r->g, from, to, acc);
        else if (any)
            add_span(r->g, from, to, w, acc);
    }
    free(bp);
    for (size_t k = 0; k < lanes; k++)
        r->trim_sum[t * ns + s0 + k] = acc[k];
    r->trim_done[t * ((ns + LANES - 1) / LANES) + grp] = 1;
    fc->counts->passes++;
}

/* ---- one run's value, as parse_run.c's parse_finish_run computes it ---- */

/* Returns 0 with *out, 1 with *reason when the run fails, -1 when the
 * engine cannot tell (the case is reduced by parse_reduce). */
static int run_value(pr_fitcalc *fc, frun *r, const pr_reduce_keys *k, double *out,
                     const char **reason)
{
    const pr_rulecfg_cfg *c = fc->c;
    const pr_parse_args *a = &fc->args;
    if (r->n == 0) {
        *reason = "no_records";
        return 1;
    }
    if (k->skip < 0)
        return -1;
    unsigned long long s = (unsigned long long)k->skip;
    unsigned long long used = s < r->n ? r->n - s : 0;
    if (used < (unsigned long long)k->min_records) {
        *reason = "too_few_records";
        return 1;
    }
    if (s >= r->ns)
        return -1;
    double x = 0;
    switch (k->reduce) {
    case PR_REDUCE_MEAN:
        if (!r->mean_done[s / LANES])
            mean_group(fc, r, s / LANES);
        x = r->mean_sum[s] / (double)used;
        break;
    case PR_REDUCE_LAST:
        x = r->x[r->n - 1];
        break;
    case PR_REDUCE_MAX:
        x = r->sufmax[s];
        break;
    case PR_REDUCE_MIN:
        x = r->sufmin[s];
        break;
    case PR_REDUCE_BEST:
        x = step_time(c->value) ? r->sufmin[s] : r->sufmax[s];
        break;
    case PR_REDUCE_MEDIAN:
        x = r->med[s];
        break;
    case PR_REDUCE_TRIMMED_MEAN: {
        size_t t = 0;
        while (t < fc->ntrims &&
               (fc->trims[t].fraction != k->trim_fraction || fc->trims[t].min != k->trim_min))
            t++;
        if (t == fc->ntrims)
            return -1;
        size_t at = t * r->ns + s;
        if (r->lo[at] == NONE) {
            *reason = "too_few_records";
            return 1;
        }
        size_t groups = (r->ns + LANES - 1) / LANES;
        if (!r->trim_done[t * groups + s / LANES])
            trim_group(fc, r, t, s / LANES);
        size_t d = pr_stats_trim_count((size_t)used, k->trim_fraction, (size_t)k->trim_min);
        x = r->trim_sum[at] / (double)((size_t)used - 2 * d);
        break;
    }
    default:
        return -1;
    }
    /* no record is inf, so no run that did not converge is in x */
    if (c->value == PR_VALUE_THROUGHPUT && c->scope == PR_SCOPE_PER_CARD)
        x *= a->gpus;
    if (per_step(c->value)) {
        double sps;
        if (r->gbs_state[s] == 2 || (r->gbs_state[s] == 1 && r->gbs_missing[s])) {
            *reason = "parse_error";
            return 1;
        }
        if (r->gbs_state[s] == 1) {
            sps = r->gbs[s];
        } else {
            if (a->batch_size <= 0 || a->gpus <= 0) {
                *reason = "parse_error";
                return 1;
            }
            sps = (double)a->batch_size * a->gpus;
        }
        if (fc->unit && strncmp(fc->unit, "tokens", 6) == 0)
            sps *= a->seq_len;
        if (c->value == PR_VALUE_SECONDS_PER_STEP)
            x = sps / x;
        else if (c->value == PR_VALUE_MS_PER_STEP)
            x = sps * 1000.0 / x;
        else
            x = sps * x;
    }
    if (k->round >= 0)
        x = pr_stats_round(x, k->round);
    /* as parse.c: a run of no throughput failed (a figure is > 0) */
    if (!isfinite(x) || !(x > 0)) {
        *reason = "parse_error";
        return 1;
    }
    *out = x;
    return 0;
}

/* The case through parse_reduce. */
static int replay(pr_fitcalc *fc, const pr_reduce_keys *keys, double *value, const char **reason)
{
    pr_parse_result res;
    parse_result_init(&res);
    parse_reduce(fc->scan, keys, PR_REDUCE_LEAN, &res, NULL, NULL);
    int failed = res.failed;
    if (failed)
        *reason = res.fail_reason;
    else
        *value = res.value;
    parse_result_clear(&res);
    fc->counts->replays++;
    return failed;
}

int fitcalc_reduce(pr_fitcalc *fc, const pr_reduce_keys *keys, double *value, const char **reason)
{
    fc->counts->reductions++;
    pr_rulecfg_step step = fc->c->profile == PR_PROFILE_DLLOGGER ? keys->step : fc->c->step;
    if (fc->replay || step != fc->step)
        return replay(fc, keys, value, reason);
    double stack[8], *vals = fc->runs <= 8 ? stack : pr_xmalloc(fc->runs * sizeof *vals);
    const char *why = NULL;
    size_t nv = 0;
    int rc = 0;
    for (size_t i = 0; i < fc->runs; i++) {
        double x;
        const char *rs = NULL;
        int st = run_value(fc, &fc->r[i], keys, &x, &rs);
        if (st < 0) {
            rc = -1;
            break;
        }
        if (st == 1 && !why)
            why = rs; /* the first failing run names the case's failure */
        if (st == 0)
            vals[nv++] = x;
    }
    if (rc < 0) {
        rc = replay(fc, keys, value, reason);
    } else if (why) {
        *reason = why;
        rc = 1;
    } else {
        *value = pr_stats_median(vals, nv);
    }
    if (vals != stack)
        free(vals);
    return rc;
}
