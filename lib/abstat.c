#include "abstat.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* Φ⁻¹(0.975): the normal quantile of a two-sided 95 % interval. */
#define Z975 1.959963984540054

/* C(r + c, r), the number of orderings of r and c values; exact while it
 * is below 2^53 (every partial product is a binomial coefficient, an
 * integer), a few rounding errors beyond. */
static double orderings(size_t r, size_t c)
{
    double t = 1;
    for (size_t i = 1; i <= r; i++)
        t = t * (double)(c + i) / (double)i;
    return t;
}

/* The exact lower tail of U for m and n values: cum[u] = P(U <= u) for
 * u = 0 .. umax (the caller's array of umax + 1).  Counts the orderings
 * with U = u by the recurrence on the largest of the m + n values
 *
 *   N(i, j, u) = N(i − 1, j, u − j) + N(i, j − 1, u)
 *
 * (the largest is one of the i values, above all j others, or one of the
 * j values, above none), N(i, 0, u) = N(0, j, u) = [u = 0], kept for one j
 * at a time over i = 0 .. r, r the smaller of m and n (U of (m, n) and of
 * (n, m) have one distribution).  Counts are doubles: additions of
 * positive numbers only, exact integers while below 2^53 (m + n <= 55),
 * no overflow below C(m + n, m) ≈ 1e308.  Work r·c·umax, memory
 * (r + 1)·(umax + 1) doubles, freed here.  Returns 0, or -1 when memory
 * runs out. */
static int mwu_exact_tail(size_t m, size_t n, size_t umax, double *cum)
{
    size_t r = m < n ? m : n, c = m < n ? n : m, w = umax + 1;
    double *N = calloc((r + 1) * w, sizeof *N);
    if (!N)
        return -1;
    for (size_t i = 0; i <= r; i++)
        N[i * w] = 1;
    for (size_t j = 1; j <= c; j++)
        for (size_t i = 1; i <= r; i++)
            /* row i − 1 holds N(i − 1, j, ·) already, row i N(i, j − 1, ·) */
            for (size_t u = j; u <= umax; u++)
                N[i * w + u] += N[(i - 1) * w + u - j];
    double total = orderings(r, c), s = 0;
    for (size_t u = 0; u <= umax; u++) {
        s += N[r * w + u];
        cum[u] = s / total;
    }
    free(N);
    return 0;
}

static int mwu_is_exact(size_t m, size_t n)
{
    return m == 0 || n == 0 || n <= PR_AB_EXACT_MAX_PAIRS / m;
}

/* The normal approximation of P(U <= u), with continuity correction:
 * mean m·n/2, variance m·n·(m + n + 1)/12. */
static double mwu_normal_cdf(size_t m, size_t n, double u)
{
    double mn = (double)m * (double)n;
    double sd = sqrt(mn * ((double)m + (double)n + 1) / 12);
    return 0.5 * erfc(-((u + 0.5 - mn / 2) / sd) / sqrt(2.0));
}

double pr_abstat_mwu_cdf(size_t m, size_t n, long u)
{
    if (u < 0)
        return 0;
    if (m == 0 || n == 0 || (unsigned long long)u >= (unsigned long long)m * n)
        return 1;
    if (!mwu_is_exact(m, n))
        return mwu_normal_cdf(m, n, (double)u);
    size_t mn = m * n, uu = (size_t)u;
    /* The distribution is symmetric about m·n/2: count the shorter tail,
     * P(U <= u) = 1 − P(U <= m·n − u − 1). */
    int upper = uu > mn / 2;
    size_t umax = upper ? mn - uu - 1 : uu;
    double *cum = malloc((umax + 1) * sizeof *cum);
    if (!cum || mwu_exact_tail(m, n, umax, cum) != 0) {
        free(cum);
        return NAN;
    }
    double p = upper ? 1 - cum[umax] : cum[umax];
    free(cum);
    return p;
}

/* coverage(k) = 1 − 2·P(U <= k − 1) falls as k grows; the largest k at
 * which it is still >= PR_AB_COVERAGE_TARGET, else 1. */
size_t pr_abstat_moses_k(size_t m, size_t n, double *coverage)
{
    if (coverage)
        *coverage = 0;
    if (m < PR_AB_MIN_RUNS || n < PR_AB_MIN_RUNS)
        return 0;
    size_t best = 1;
    double cov;
    if (mwu_is_exact(m, n)) {
        /* P(U <= m·n/2) >= 1/2: coverage <= 0 there, so k − 1 stays below. */
        size_t umax = m * n / 2;
        double *cum = malloc((umax + 1) * sizeof *cum);
        if (!cum || mwu_exact_tail(m, n, umax, cum) != 0) {
            free(cum);
            return 0;
        }
        for (size_t k = 2; k - 1 <= umax && 1 - 2 * cum[k - 1] >= PR_AB_COVERAGE_TARGET; k++)
            best = k;
        cov = 1 - 2 * cum[best - 1];
        free(cum);
    } else {
        /* Start from the normal quantile and step to the last k that keeps
         * the level (a step or two). */
        double mn = (double)m * (double)n;
        double sd = sqrt(mn * ((double)m + (double)n + 1) / 12);
        double guess = floor(mn / 2 - 0.5 - Z975 * sd) + 1;
        size_t k = guess > 1 ? (size_t)guess : 1;
        while (k > 1 && 1 - 2 * mwu_normal_cdf(m, n, (double)(k - 1)) < PR_AB_COVERAGE_TARGET)
            k--;
        while (1 - 2 * mwu_normal_cdf(m, n, (double)k) >= PR_AB_COVERAGE_TARGET)
            k++;
        best = k;
        cov = 1 - 2 * mwu_normal_cdf(m, n, (double)(best - 1));
    }
    if (coverage)
        *coverage = cov;
    return best;
}

static double mean_of(const double *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s / (double)n;
}

/* The runs per side at which an interval would decide, by the normal
 * approximation of the difference of two means of log values (the
 * Hodges–Lehmann estimate is close to it for the small, roughly symmetric
 * spreads of benchmark runs; the figure is a guide, not a promise):
 *
 *   s  the pooled standard deviation of the log values,
 *      sqrt((Σ (log a_i − mean_a)² + Σ (log b_j − mean_b)²) / (m + n − 2))
 *      (0 when m + n − 2 is 0);
 *   h  the distance on the log scale from the estimate to the nearest
 *      decision boundary, 0, log(1 + δ) or log(1 − δ), at least
 *      log(1 + δ)/4 (an estimate on a boundary decides nothing);
 *   n  with n runs a side the 95 % interval of the difference is about
 *      ± 1.96·s·sqrt(2/n); it stays on one side of the boundary when that
 *      is below h:  n = ceil(2·(1.959964·s/h)²),
 *
 * at least max(m, n) + 1 (more than there are), at most
 * PR_AB_RUNS_NEEDED_MAX.  la and lb are the log values. */
static unsigned runs_needed(const double *la, size_t m, const double *lb, size_t n, double hl,
                            double delta)
{
    double ma = mean_of(la, m), mb = mean_of(lb, n), ss = 0;
    for (size_t i = 0; i < m; i++)
        ss += (la[i] - ma) * (la[i] - ma);
    for (size_t j = 0; j < n; j++)
        ss += (lb[j] - mb) * (lb[j] - mb);
    double s = m + n > 2 ? sqrt(ss / (double)(m + n - 2)) : 0;
    double up = log1p(delta), down = log1p(-delta);
    double h = fabs(hl);
    if (fabs(hl - up) < h)
        h = fabs(hl - up);
    if (fabs(hl - down) < h)
        h = fabs(hl - down);
    if (h < up / 4)
        h = up / 4;
    double t = Z975 * s / h;
    double x = ceil(2 * t * t);
    double least = (double)(m > n ? m : n) + 1;
    if (!(x >= least))
        x = least;
    if (x > PR_AB_RUNS_NEEDED_MAX)
        x = PR_AB_RUNS_NEEDED_MAX;
    return (unsigned)x;
}

static pr_abstat_verdict verdict_of(double ratio, double lo, double hi, double delta)
{
    int above = lo > 1, below = hi < 1;
    if (above && ratio >= 1 + delta)
        return PR_AB_FASTER;
    if (below && ratio <= 1 - delta)
        return PR_AB_SLOWER;
    if (above || below)
        return PR_AB_CHANGED_SMALL;
    if (lo >= 1 - delta && hi <= 1 + delta)
        return PR_AB_EQUIVALENT;
    return PR_AB_INCONCLUSIVE;
}

/* A double's place in the order of doubles as an unsigned integer: keys
 * compare as the values do (−0 just below +0), so that a bisection over
 * keys visits every double between two values and no other number. */
static uint64_t order_key(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u >> 63 ? ~u : u | (UINT64_C(1) << 63);
}

static double key_value(uint64_t k)
{
    uint64_t u = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* How many of the differences lb[j] − la[i] are <= t, both sorted
 * ascending.  A rounded subtraction is monotone in each operand, so the
 * differences rise with j and fall as i grows: the j with lb[j] − la[i]
 * <= t only grow in number with i, one walk of two pointers, m + n steps. */
static size_t count_at_most(const double *la, size_t m, const double *lb, size_t n, double t)
{
    size_t count = 0, j = 0;
    for (size_t i = 0; i < m; i++) {
        while (j < n && lb[j] - la[i] <= t)
            j++;
        count += j;
    }
    return count;
}

/* The k-th smallest (1-based, 1 <= k <= m·n) of the m·n differences
 * lb[j] − la[i] (both sorted ascending), the very double that sorting them
 * would put at k: the smallest double t with at least k differences <= t is
 * one of them, found by bisecting the doubles between the least and the
 * largest difference (at most 64 counts of m + n steps), where sorting
 * the m·n of them took m·n doubles (issue 31 #18). */
static double kth_difference(const double *la, size_t m, const double *lb, size_t n, size_t k)
{
    uint64_t lo = order_key(lb[0] - la[m - 1]), hi = order_key(lb[n - 1] - la[0]);
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (count_at_most(la, m, lb, n, key_value(mid)) >= k)
            hi = mid;
        else
            lo = mid + 1;
    }
    /* −0 and +0 count alike; a difference of equal logs is +0 */
    return key_value(lo) + 0.0;
}

static int double_cmp(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

int pr_abstat_coverage_is_exact(size_t m, size_t n)
{
    return mwu_is_exact(m, n);
}

/* Allocates the log values, in the given order and sorted, in one block
 * of 2·(m + n) doubles, freed here: the order statistics of the m·n
 * differences are selected (kth_difference), never stored. */
int pr_abstat_compare(const double *a, size_t m, const double *b, size_t n, double delta,
                      pr_abstat_result *out)
{
    if (!out || (m && !a) || (n && !b) || !(delta > 0 && delta < 1))
        return -1;
    for (size_t i = 0; i < m; i++)
        if (!isfinite(a[i]) || !(a[i] > 0))
            return -1;
    for (size_t j = 0; j < n; j++)
        if (!isfinite(b[j]) || !(b[j] > 0))
            return -1;
    /* 2·(m + n) + 1 doubles must be countable in bytes, and m·n in a size_t */
    size_t lim = SIZE_MAX / sizeof(double) / 2;
    if (m > lim || n > lim - m || (n && m > SIZE_MAX / n))
        return -1;
    size_t mn = m * n;
    double *mem = malloc((2 * (m + n) + 1) * sizeof *mem);
    if (!mem)
        return -1;
    double *la = mem, *lb = mem + m, *sa = mem + m + n, *sb = mem + 2 * m + n;
    for (size_t i = 0; i < m; i++)
        sa[i] = la[i] = log(a[i]);
    for (size_t j = 0; j < n; j++)
        sb[j] = lb[j] = log(b[j]);
    qsort(sa, m, sizeof *sa, double_cmp);
    qsort(sb, n, sizeof *sb, double_cmp);

    pr_abstat_result r = {
        .m = m, .n = n, .ratio = NAN, .lo = NAN, .hi = NAN, .verdict = PR_AB_INSUFFICIENT};
    double hl = 0;
    if (mn) {
        /* the median of the differences, as pr_stats_median takes it */
        if (mn % 2)
            hl = kth_difference(sa, m, sb, n, mn / 2 + 1);
        else
            hl = (kth_difference(sa, m, sb, n, mn / 2) + kth_difference(sa, m, sb, n, mn / 2 + 1)) /
                 2;
        r.ratio = exp(hl);
    }
    if (m >= PR_AB_MIN_RUNS && n >= PR_AB_MIN_RUNS) {
        r.k = pr_abstat_moses_k(m, n, &r.coverage);
        if (r.k == 0) { /* memory ran out */
            free(mem);
            return -1;
        }
        r.coverage_exact = pr_abstat_coverage_is_exact(m, n);
        r.lo = exp(kth_difference(sa, m, sb, n, r.k));
        r.hi = exp(kth_difference(sa, m, sb, n, mn + 1 - r.k));
        r.verdict = verdict_of(r.ratio, r.lo, r.hi, delta);
        if (r.verdict == PR_AB_INCONCLUSIVE)
            r.runs_needed = runs_needed(la, m, lb, n, hl, delta);
    }
    free(mem);
    *out = r;
    return 0;
}

const char *pr_abstat_verdict_key(pr_abstat_verdict v)
{
    switch (v) {
    case PR_AB_FASTER:
        return "faster";
    case PR_AB_SLOWER:
        return "slower";
    case PR_AB_CHANGED_SMALL:
        return "changed_small";
    case PR_AB_EQUIVALENT:
        return "equivalent";
    case PR_AB_INCONCLUSIVE:
        return "inconclusive";
    case PR_AB_INSUFFICIENT:
        return "insufficient";
    }
    return NULL;
}

double pr_abstat_expected_false(const double *coverage, size_t ncells)
{
    double s = 0;
    for (size_t i = 0; i < ncells; i++)
        if (coverage[i] > 0)
            s += 1 - coverage[i];
    return s;
}
