/* lib/abstat's selection of the pairwise differences' order statistics
 * (issue 31 #18) against the implementation it replaced, kept here as the
 * oracle: every m·n difference stored and sorted.  On many random cases,
 * ties and one-sided ones included, the two must agree to the last bit. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "abstat.h"
#include "stats.h"

#define Z975 1.959963984540054

/* ---- the oracle: lib/abstat.c at 8f3181d, verbatim but for its name ---- */

static double mean_of(const double *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s / (double)n;
}

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

static int oracle_compare(const double *a, size_t m, const double *b, size_t n, double delta,
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
    /* m + n + m·n + 1 doubles must be countable in bytes */
    size_t lim = SIZE_MAX / sizeof(double);
    if (m > lim || n > lim - m || (n && m > SIZE_MAX / n))
        return -1;
    size_t mn = m * n;
    if (mn >= lim - m - n)
        return -1;
    double *mem = malloc((m + n + mn + 1) * sizeof *mem);
    if (!mem)
        return -1;
    double *la = mem, *lb = mem + m, *d = mem + m + n;
    for (size_t i = 0; i < m; i++)
        la[i] = log(a[i]);
    for (size_t j = 0; j < n; j++)
        lb[j] = log(b[j]);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            d[i * n + j] = lb[j] - la[i];

    pr_abstat_result r = {
        .m = m, .n = n, .ratio = NAN, .lo = NAN, .hi = NAN, .verdict = PR_AB_INSUFFICIENT};
    double hl = 0;
    if (mn) {
        hl = pr_stats_median(d, mn); /* sorts d */
        r.ratio = exp(hl);
    }
    if (m >= PR_AB_MIN_RUNS && n >= PR_AB_MIN_RUNS) {
        r.k = pr_abstat_moses_k(m, n, &r.coverage);
        if (r.k == 0) { /* memory ran out */
            free(mem);
            return -1;
        }
        r.lo = exp(d[r.k - 1]);
        r.hi = exp(d[mn - r.k]);
        r.verdict = verdict_of(r.ratio, r.lo, r.hi, delta);
        if (r.verdict == PR_AB_INCONCLUSIVE)
            r.runs_needed = runs_needed(la, m, lb, n, hl, delta);
    }
    free(mem);
    *out = r;
    return 0;
}

/* ---- the cases ---- */

/* A fixed generator: the same cases on every machine. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t next_u64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double uniform01(void)
{
    return (double)(next_u64() >> 11) / 9007199254740992.0;
}

/* One side of n values of the given kind: 0 continuous around a level,
 * 1 few distinct values (ties), 2 one value repeated, 3 wide magnitudes. */
static void fill(double *v, size_t n, int kind, double level)
{
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case 0:
            v[i] = level * (0.9 + 0.2 * uniform01());
            break;
        case 1:
            v[i] = level + (double)(next_u64() % 4);
            break;
        case 2:
            v[i] = level;
            break;
        default:
            v[i] = exp(40 * uniform01() - 20);
            break;
        }
    }
}

/* x and y the same double, or both NAN */
static int same(double x, double y)
{
    return (isnan(x) && isnan(y)) || memcmp(&x, &y, sizeof x) == 0 || (x == 0 && y == 0);
}

static void expect_as_oracle(const double *a, size_t m, const double *b, size_t n, double delta,
                             int c)
{
    pr_abstat_result got = {0}, want = {0};
    int rg = pr_abstat_compare(a, m, b, n, delta, &got);
    int rw = oracle_compare(a, m, b, n, delta, &want);
    cr_assert_eq(rg, rw, "case %d (%zu vs %zu): rc %d, oracle %d", c, m, n, rg, rw);
    if (rg)
        return;
    cr_expect(same(got.ratio, want.ratio), "case %d (%zu vs %zu): ratio %.17g, oracle %.17g", c, m,
              n, got.ratio, want.ratio);
    cr_expect(same(got.lo, want.lo), "case %d (%zu vs %zu): lo %.17g, oracle %.17g", c, m, n,
              got.lo, want.lo);
    cr_expect(same(got.hi, want.hi), "case %d (%zu vs %zu): hi %.17g, oracle %.17g", c, m, n,
              got.hi, want.hi);
    cr_expect_eq(got.k, want.k, "case %d", c);
    cr_expect(same(got.coverage, want.coverage), "case %d", c);
    cr_expect_eq(got.verdict, want.verdict, "case %d", c);
    cr_expect_eq(got.runs_needed, want.runs_needed, "case %d", c);
}

/* 3,000 random cases of 0 to 40 runs a side, and some of up to 150 (past
 * the exact coverage's 10,000 pairs). */
Test(abstat_oracle, random_cases_bit_identical)
{
    double a[160], b[160];
    for (int c = 0; c < 3000; c++) {
        size_t m = c < 2800 ? next_u64() % 41 : 90 + next_u64() % 61;
        size_t n = c < 2800 ? next_u64() % 41 : 90 + next_u64() % 61;
        int ka = (int)(next_u64() % 4), kb = (int)(next_u64() % 4);
        double level = exp(10 * uniform01() - 2);
        fill(a, m, ka, level);
        fill(b, n, kb, level * (0.8 + 0.4 * uniform01()));
        if (c % 7 == 0 && m && n) /* B a copy of A's first values: ratios of 1 */
            for (size_t j = 0; j < n; j++)
                b[j] = a[j % m];
        double delta = c % 3 == 0 ? 0.05 : 0.01 + 0.2 * uniform01();
        expect_as_oracle(m ? a : NULL, m, n ? b : NULL, n, delta, c);
    }
}

/* The edges of the ordering: identical sides, one value against many,
 * the least and the largest doubles that are finite and positive. */
Test(abstat_oracle, edges)
{
    double a[4] = {1, 1, 1, 1}, b[4] = {1, 1, 1, 1};
    expect_as_oracle(a, 4, b, 4, 0.05, 0);
    double tiny[3] = {4.9406564584124654e-324, 2.2250738585072014e-308, 1};
    double huge[3] = {1.7976931348623157e308, 1e300, 1};
    expect_as_oracle(tiny, 3, huge, 3, 0.05, 1);
    expect_as_oracle(huge, 3, tiny, 3, 0.05, 2);
    expect_as_oracle(tiny, 1, huge, 3, 0.05, 3);
    expect_as_oracle(tiny, 3, huge, 1, 0.05, 4);
}

/* 10⁴ runs a side (10⁸ differences, 800 MB had they been stored, 19.5 GB
 * with the oracle's sort): an interval around the estimate, its coverage
 * labelled the normal approximation; a small case labelled exact. */
Test(abstat_oracle, ten_thousand_a_side)
{
    size_t n = 10000;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    cr_assert(a && b);
    fill(a, n, 0, 100);
    fill(b, n, 0, 110);
    pr_abstat_result r;
    cr_assert_eq(pr_abstat_compare(a, n, b, n, 0.05, &r), 0);
    cr_expect(r.lo <= r.ratio && r.ratio <= r.hi, "%g %g %g", r.lo, r.ratio, r.hi);
    cr_expect(fabs(r.ratio - 1.1) < 0.01, "%g", r.ratio);
    cr_expect(r.coverage >= 0.95 && r.coverage < 0.951, "%g", r.coverage);
    cr_expect_eq(r.coverage_exact, 0);
    cr_expect_eq(pr_abstat_coverage_is_exact(n, n), 0);
    cr_assert_eq(pr_abstat_compare(a, 100, b, 100, 0.05, &r), 0);
    cr_expect_eq(r.coverage_exact, 1);
    cr_expect_eq(pr_abstat_coverage_is_exact(100, 100), 1);
    cr_expect_eq(pr_abstat_coverage_is_exact(100, 101), 0);
    free(a);
    free(b);
}
