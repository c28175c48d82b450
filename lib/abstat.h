/* abstat: is run set B faster than run set A?  Two small samples of
 * throughput (1 to 10 runs a side), compared on the log scale without
 * assuming a distribution (docs/statistics.md#compare).
 *
 *   estimate  the Hodges–Lehmann ratio: exp of the median of the m·n
 *             pairwise differences log b_j − log a_i;
 *   interval  the exact Mann–Whitney (Moses) interval of that ratio: the
 *             sorted differences D(1) <= ... <= D(mn), [D(k), D(mn+1−k)],
 *             whose coverage 1 − 2·P(U <= k − 1) (U the Mann–Whitney
 *             statistic of m and n values under no change, its exact
 *             distribution counted, ties none) is at least 95 % with the
 *             largest such k; k = 1 (min – max of the ratios) where none
 *             reaches 95 %: 3 vs 3 gives 90.0 %, 4 vs 4 97.1 %, 5 vs 5 k = 3
 *             and 96.8 %.  Unequal m and n alike;
 *   verdict   from the interval and the smallest change that matters, δ
 *             (default 5 %): see pr_abstat_verdict.
 *
 * Pure functions over plain arrays of positive doubles; nothing is
 * allocated that the caller frees except where said.
 */
#ifndef PR_ABSTAT_H
#define PR_ABSTAT_H

#include <stddef.h>

#define PR_AB_DELTA_DEFAULT 0.05
#define PR_AB_COVERAGE_TARGET 0.95
/* Below this many runs on either side: no interval, no verdict but
 * PR_AB_INSUFFICIENT (the ratio is still estimated from what there is). */
#define PR_AB_MIN_RUNS 2

typedef enum {
    PR_AB_FASTER,        /* the interval lies above 1 and the estimate is >= 1 + δ */
    PR_AB_SLOWER,        /* the interval lies below 1 and the estimate is <= 1 − δ */
    PR_AB_CHANGED_SMALL, /* the interval excludes 1, the estimate within 1 ± δ */
    PR_AB_EQUIVALENT,    /* the interval holds 1 and lies inside [1 − δ, 1 + δ] */
    PR_AB_INCONCLUSIVE,  /* the interval holds 1 and reaches beyond 1 ± δ */
    PR_AB_INSUFFICIENT,  /* fewer than PR_AB_MIN_RUNS runs on a side */
} pr_abstat_verdict;

typedef struct pr_abstat_result {
    size_t m, n;     /* runs of A and of B */
    double ratio;    /* Hodges–Lehmann estimate of B/A (NAN when m or n is 0) */
    double lo, hi;   /* the interval of B/A; NAN below PR_AB_MIN_RUNS */
    size_t k;        /* the interval's k (1-based), 0 when none */
    double coverage; /* coverage of [lo, hi], a fraction; 0 when none: exact
                           * when coverage_exact, else the normal approximation */
    pr_abstat_verdict verdict;
    /* PR_AB_INCONCLUSIVE only (else 0): the runs per side at which an
     * interval of this spread would decide, from the pooled standard
     * deviation of the log values (docs/statistics.md#runs-needed);
     * PR_AB_RUNS_NEEDED_MAX when it would take more. */
    unsigned runs_needed;
    /* 1 when coverage is counted exactly (m·n <= PR_AB_EXACT_MAX_PAIRS),
     * 0 when it is the normal approximation or there is no interval. */
    int coverage_exact;
} pr_abstat_result;
#define PR_AB_RUNS_NEEDED_MAX 1000

/* Exact counting up to this many pairs m·n (100 vs 100, 10 vs 1000: at
 * most 5·10⁷ additions); beyond it the normal approximation with
 * continuity correction (mean m·n/2, variance m·n·(m + n + 1)/12), which
 * runs of benchmarks never reach. */
#define PR_AB_EXACT_MAX_PAIRS 10000

/* 1 when the coverage of m against n runs is counted exactly, 0 when it is
 * the normal approximation (m·n > PR_AB_EXACT_MAX_PAIRS). */
int pr_abstat_coverage_is_exact(size_t m, size_t n);
/* P(U <= u) for the Mann–Whitney statistic of m and n values under no
 * change (all (m+n choose m) orderings equally likely), exactly, by
 * counting (m·n <= PR_AB_EXACT_MAX_PAIRS); 0 when u < 0, 1 when u >= m·n;
 * NAN when memory runs out. */
double pr_abstat_mwu_cdf(size_t m, size_t n, long u);
/* The k of the interval for m and n runs, and its exact coverage in
 * *coverage (may be NULL); 0 (and coverage 0) when m or n < PR_AB_MIN_RUNS
 * (or memory runs out). */
size_t pr_abstat_moses_k(size_t m, size_t n, double *coverage);
/* Compares a (m values) with b (n values), every value finite and > 0,
 * with the smallest change that matters delta (a fraction, > 0; e.g. 0.05).
 * Returns 0, or -1 when a value is not finite and positive, or delta is not
 * in (0, 1), or memory runs out (out is then untouched).  Memory and
 * time grow as m + n (the m·n differences are never stored): 10⁴ runs a
 * side take a few MB.  a may be NULL when m is 0, b when n is 0. */
int pr_abstat_compare(const double *a, size_t m, const double *b, size_t n, double delta,
                      pr_abstat_result *out);
/* The verdict's key: "faster", "slower", "changed_small", "equivalent",
 * "inconclusive", "insufficient" (JSON, CSV and string keys use it);
 * static strings, NULL for a value outside the enum. */
const char *pr_abstat_verdict_key(pr_abstat_verdict v);
/* The expected number of cells that a comparison of cells with these
 * interval coverages would call faster or slower when nothing changed: at
 * most the sum of (1 − coverage) over the cells with an interval. */
double pr_abstat_expected_false(const double *coverage, size_t ncells);

#endif
