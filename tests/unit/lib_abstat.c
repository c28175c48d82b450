/* lib/abstat: the two-sample comparison (docs/statistics.md#compare), on
 * cases counted by hand, and (abstat_scipy) against the cases that
 * tests/scripts/abstat_scipy.sh computes with scipy. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "abstat.h"

#define EPS 1e-12

/* |x − want| <= EPS·|want| */
static int rel_eq(double x, double want)
{
    return fabs(x - want) <= EPS * fabs(want);
}

/* ---- the null distribution of U ---- */

/* m = n = 2: the 6 orderings of aabb have U = 0, 1, 2, 2, 3, 4 (aabb, abab,
 * abba, baab, baba, bbaa counting pairs b < a): counts 1, 1, 2, 1, 1. */
Test(abstat, mwu_cdf_2v2)
{
    cr_expect(rel_eq(pr_abstat_mwu_cdf(2, 2, 0), 1.0 / 6));
    cr_expect(rel_eq(pr_abstat_mwu_cdf(2, 2, 1), 2.0 / 6));
    cr_expect(rel_eq(pr_abstat_mwu_cdf(2, 2, 2), 4.0 / 6));
    cr_expect(rel_eq(pr_abstat_mwu_cdf(2, 2, 3), 5.0 / 6));
    cr_expect_eq(pr_abstat_mwu_cdf(2, 2, 4), 1.0);
    cr_expect_eq(pr_abstat_mwu_cdf(2, 2, 9), 1.0);
    cr_expect_eq(pr_abstat_mwu_cdf(2, 2, -1), 0.0);
}

/* m = n = 3: the number of orderings with U = u is the number of
 * partitions of u into at most 3 parts of at most 3: 1, 1, 2, 3, 3, 3, 3,
 * 2, 1, 1 (u = 0 .. 9), of C(6, 3) = 20; cumulated 1, 2, 4, 7, 10, 13, 16,
 * 18, 19, 20.  u >= 5 is counted from the upper tail. */
Test(abstat, mwu_cdf_3v3)
{
    static const int cum[] = {1, 2, 4, 7, 10, 13, 16, 18, 19, 20};
    for (long u = 0; u <= 9; u++)
        cr_expect(rel_eq(pr_abstat_mwu_cdf(3, 3, u), cum[u] / 20.0), "u = %ld: %.17g", u,
                  pr_abstat_mwu_cdf(3, 3, u));
    cr_expect(rel_eq(pr_abstat_mwu_cdf(3, 3, 0), 1.0 / 20));
    cr_expect(rel_eq(pr_abstat_mwu_cdf(3, 3, 1), 1.0 / 10));
}

/* Unequal sizes: U of (m, n) and of (n, m) have one distribution; 1 vs n
 * is uniform on 0 .. n. */
Test(abstat, mwu_cdf_unequal)
{
    for (long u = 0; u <= 15; u++)
        cr_expect(rel_eq(pr_abstat_mwu_cdf(3, 5, u), pr_abstat_mwu_cdf(5, 3, u)), "u = %ld", u);
    for (long u = 0; u < 7; u++)
        cr_expect(rel_eq(pr_abstat_mwu_cdf(1, 7, u), (u + 1) / 8.0));
    /* 2 vs 3: partitions of u into <= 2 parts of <= 3: 1, 1, 2, 2, 2, 1, 1 of 10 */
    cr_expect(rel_eq(pr_abstat_mwu_cdf(2, 3, 2), 4.0 / 10));
    cr_expect(rel_eq(pr_abstat_mwu_cdf(3, 2, 3), 6.0 / 10));
    cr_expect_eq(pr_abstat_mwu_cdf(0, 4, 0), 1.0);
}

/* 50 vs 50: no overflow (C(100, 50) ≈ 1.0089e29 orderings), the smallest
 * tail exact, the two tails meet (P(U <= 1249) + P(U <= 1250) = 1 by the
 * symmetry about 1250, each counted from below), and the middle near the
 * normal approximation. */
Test(abstat, mwu_cdf_50v50)
{
    cr_expect(rel_eq(pr_abstat_mwu_cdf(50, 50, 0), 1 / 100891344545564193334812497256.0), "%.17g",
              pr_abstat_mwu_cdf(50, 50, 0));
    cr_expect(rel_eq(pr_abstat_mwu_cdf(50, 50, 1), 2 / 100891344545564193334812497256.0));
    double lo = pr_abstat_mwu_cdf(50, 50, 1249), hi = pr_abstat_mwu_cdf(50, 50, 1250);
    cr_expect(fabs(lo + hi - 1) < 1e-13, "%.17g + %.17g", lo, hi);
    /* z = (1100 + 0.5 − 1250) / sqrt(2500·101/12) = −1.0304: Φ = 0.1514 */
    cr_expect(fabs(pr_abstat_mwu_cdf(50, 50, 1100) - 0.1514) < 2e-3, "%.6f",
              pr_abstat_mwu_cdf(50, 50, 1100));
}

/* ---- the interval's k and coverage ---- */

Test(abstat, moses_k_table)
{
    double cov = -1;
    /* 2 vs 2: 1 − 2/6 */
    cr_expect_eq(pr_abstat_moses_k(2, 2, &cov), 1);
    cr_expect(rel_eq(cov, 1 - 2.0 / 6));
    /* 3 vs 3: 1 − 2/20 = 90.0 % */
    cr_expect_eq(pr_abstat_moses_k(3, 3, &cov), 1);
    cr_expect(rel_eq(cov, 0.9));
    /* 4 vs 4: 1 − 2/70 = 97.1 %; k = 2 would give 1 − 4/70 = 94.3 % */
    cr_expect_eq(pr_abstat_moses_k(4, 4, &cov), 1);
    cr_expect(rel_eq(cov, 1 - 2.0 / 70));
    /* 5 vs 5: counts 1, 1, 2, 3 (u = 0 .. 3) of 252: k = 3 gives
     * 1 − 2·4/252 = 96.8 %, k = 4 1 − 2·7/252 = 94.4 % */
    cr_expect_eq(pr_abstat_moses_k(5, 5, &cov), 3);
    cr_expect(rel_eq(cov, 1 - 8.0 / 252));
    /* 6 vs 6: counts 1, 1, 2, 3, 5, 7, 11 of 924, cumulated 1, 2, 4, 7, 12,
     * 19, 30: k = 6 gives 1 − 38/924 = 95.9 %, k = 7 1 − 60/924 < 95 % */
    cr_expect_eq(pr_abstat_moses_k(6, 6, &cov), 6);
    cr_expect(rel_eq(cov, 1 - 38.0 / 924));
    /* 2 vs 3: 1 − 2/10 = 80 % */
    cr_expect_eq(pr_abstat_moses_k(2, 3, &cov), 1);
    cr_expect(rel_eq(cov, 0.8));
    /* 3 vs 5: 1 − 2/56 = 96.4 %; k = 2: 1 − 4/56 = 92.9 % */
    cr_expect_eq(pr_abstat_moses_k(3, 5, &cov), 1);
    cr_expect(rel_eq(cov, 1 - 2.0 / 56));
    cr_expect_eq(pr_abstat_moses_k(5, 3, &cov), 1);
    cr_expect(rel_eq(cov, 1 - 2.0 / 56));
    /* below 2 runs on a side: none */
    cr_expect_eq(pr_abstat_moses_k(1, 5, &cov), 0);
    cr_expect_eq(cov, 0.0);
    cr_expect_eq(pr_abstat_moses_k(0, 0, NULL), 0);
    cr_expect_eq(pr_abstat_moses_k(4, 4, NULL), 1);
}

/* Every k up to 12 vs 12 is the largest that keeps 95 %, by the cdf. */
Test(abstat, moses_k_is_the_largest)
{
    for (size_t m = 2; m <= 12; m++)
        for (size_t n = 2; n <= 12; n++) {
            double cov;
            size_t k = pr_abstat_moses_k(m, n, &cov);
            cr_assert(k >= 1 && 2 * k <= m * n + 1, "%zu v %zu: k = %zu", m, n, k);
            cr_expect(rel_eq(cov, 1 - 2 * pr_abstat_mwu_cdf(m, n, (long)k - 1)));
            if (k > 1)
                cr_expect(cov >= PR_AB_COVERAGE_TARGET, "%zu v %zu", m, n);
            cr_expect(1 - 2 * pr_abstat_mwu_cdf(m, n, (long)k) < PR_AB_COVERAGE_TARGET,
                      "%zu v %zu: k = %zu is not the largest", m, n, k);
        }
}

/* Beyond PR_AB_EXACT_MAX_PAIRS the normal approximation: still the
 * largest k that keeps the level, near the exact k of 100 vs 100. */
Test(abstat, moses_k_large)
{
    double ce, cn;
    size_t ke = pr_abstat_moses_k(100, 100, &ce), kn = pr_abstat_moses_k(101, 100, &cn);
    cr_expect(ce >= 0.95 && ce < 0.951, "%.6f", ce);
    cr_expect(cn >= 0.95 && cn < 0.951, "%.6f", cn);
    /* one more run moves k by about 50 */
    cr_expect(kn > ke && kn < ke + 100, "%zu %zu", ke, kn);
    cr_expect(1 - 2 * pr_abstat_mwu_cdf(101, 100, (long)kn) < 0.95);
}

/* ---- estimate, interval, verdict ---- */

/* 3 vs 3, a = 100, 102, 104; b = 106, 108, 110.  The 9 ratios b/a:
 *   106/104 = 1.01923  108/104 = 1.03846  106/102 = 1.03922
 *   110/104 = 1.05769  108/102 = 1.05882  106/100 = 1.06
 *   110/102 = 1.07843  108/100 = 1.08     110/100 = 1.10
 * HL: the 5th of 9, 108/102 = 1.05882; k = 1: [106/104, 110/100] =
 * [1.01923, 1.1], 90 %.  Above 1 and 1.0588 >= 1.05: faster.  With a and
 * b swapped: 102/108 = 0.94444, [100/110, 104/106] = [0.90909, 0.98113],
 * below 1 and 0.9444 <= 0.95: slower. */
Test(abstat, compare_3v3_faster_and_slower)
{
    double a[] = {100, 102, 104}, b[] = {106, 108, 110};
    pr_abstat_result r;
    cr_assert_eq(pr_abstat_compare(a, 3, b, 3, 0.05, &r), 0);
    cr_expect_eq(r.m, 3);
    cr_expect_eq(r.n, 3);
    cr_expect(rel_eq(r.ratio, 108.0 / 102), "%.17g", r.ratio);
    cr_expect(rel_eq(r.lo, 106.0 / 104), "%.17g", r.lo);
    cr_expect(rel_eq(r.hi, 110.0 / 100), "%.17g", r.hi);
    cr_expect_eq(r.k, 1);
    cr_expect(rel_eq(r.coverage, 0.9));
    cr_expect_eq(r.verdict, PR_AB_FASTER);
    cr_expect_eq(r.runs_needed, 0);

    cr_assert_eq(pr_abstat_compare(b, 3, a, 3, 0.05, &r), 0);
    cr_expect(rel_eq(r.ratio, 102.0 / 108));
    cr_expect(rel_eq(r.lo, 100.0 / 110));
    cr_expect(rel_eq(r.hi, 104.0 / 106));
    cr_expect_eq(r.verdict, PR_AB_SLOWER);
    /* δ = 10 %: the same interval, a change below δ */
    cr_assert_eq(pr_abstat_compare(a, 3, b, 3, 0.10, &r), 0);
    cr_expect_eq(r.verdict, PR_AB_CHANGED_SMALL);
}

/* 2 vs 3, a = 100, 104; b = 98, 101, 103.  The 6 ratios, sorted:
 *   98/104 = 0.942308  101/104 = 0.971154  98/100 = 0.98
 *   103/104 = 0.990385  101/100 = 1.01     103/100 = 1.03
 * HL: the mean of the 3rd and 4th logs, sqrt(0.98 · 0.990385) = 0.985179;
 * k = 1 (1 − 2/10 = 80 %): [0.942308, 1.03], holds 1 and reaches below
 * 0.95: inconclusive.  Runs needed: log a = 4.605170, 4.644391 (mean
 * 4.624781, squares 2·0.019610² = 0.000769); log b = 4.584967, 4.615121,
 * 4.634729 (mean 4.611606, squares 0.000710 + 0.000012 + 0.000535 =
 * 0.001257); s = sqrt(0.002026/3) = 0.025986.  log HL = −0.014932, 0.014932
 * from 0 (0.063722 from log 1.05, 0.036361 from log 0.95), above
 * log(1.05)/4 = 0.012197: h = 0.014932.  2·(1.959964·0.025986/0.014932)² =
 * 23.27: 24 runs a side. */
Test(abstat, compare_2v3_inconclusive)
{
    double a[] = {100, 104}, b[] = {98, 101, 103};
    pr_abstat_result r;
    cr_assert_eq(pr_abstat_compare(a, 2, b, 3, 0.05, &r), 0);
    cr_expect(rel_eq(r.ratio, sqrt(0.98 * (103.0 / 104))), "%.17g", r.ratio);
    cr_expect(rel_eq(r.lo, 98.0 / 104), "%.17g", r.lo);
    cr_expect(rel_eq(r.hi, 1.03), "%.17g", r.hi);
    cr_expect_eq(r.k, 1);
    cr_expect(rel_eq(r.coverage, 0.8));
    cr_expect_eq(r.verdict, PR_AB_INCONCLUSIVE);
    cr_expect_eq(r.runs_needed, 24);
}

/* a = 100, 101, 102; b = 102.5, 103, 103.5: the ratios run from
 * 102.5/102 = 1.0049 to 103.5/100 = 1.035, median 103/101 = 1.0198:
 * above 1, below 1.05: changed below δ. */
Test(abstat, compare_changed_small)
{
    double a[] = {100, 101, 102}, b[] = {102.5, 103, 103.5};
    pr_abstat_result r;
    cr_assert_eq(pr_abstat_compare(a, 3, b, 3, 0.05, &r), 0);
    cr_expect(rel_eq(r.ratio, 103.0 / 101));
    cr_expect(rel_eq(r.lo, 102.5 / 102));
    cr_expect(rel_eq(r.hi, 1.035));
    cr_expect_eq(r.verdict, PR_AB_CHANGED_SMALL);
    cr_expect_eq(r.runs_needed, 0);
}

/* a = 100, 101, 102; b = 99.5, 100.5, 101.5: the ratios run from
 * 99.5/102 = 0.97549 to 101.5/100 = 1.015, median 100.5/101 = 0.99505:
 * holds 1, inside [0.95, 1.05]: equivalent.  With δ = 2 % the interval
 * reaches below 0.98: inconclusive, with the runs needed. */
Test(abstat, compare_equivalent)
{
    double a[] = {100, 101, 102}, b[] = {100.5, 101.5, 99.5};
    pr_abstat_result r;
    cr_assert_eq(pr_abstat_compare(a, 3, b, 3, 0.05, &r), 0);
    cr_expect(rel_eq(r.ratio, 100.5 / 101));
    cr_expect(rel_eq(r.lo, 99.5 / 102));
    cr_expect(rel_eq(r.hi, 1.015));
    cr_expect_eq(r.verdict, PR_AB_EQUIVALENT);
    cr_expect_eq(r.runs_needed, 0);
    cr_assert_eq(pr_abstat_compare(a, 3, b, 3, 0.02, &r), 0);
    cr_expect_eq(r.verdict, PR_AB_INCONCLUSIVE);
    cr_expect(r.runs_needed >= 4 && r.runs_needed < PR_AB_RUNS_NEEDED_MAX, "%u", r.runs_needed);
}

/* Identical runs: every difference is 0, the interval [1, 1]: equivalent. */
Test(abstat, compare_identical)
{
    double a[] = {5, 5}, b[] = {5, 5, 5};
    pr_abstat_result r;
    cr_assert_eq(pr_abstat_compare(a, 2, b, 3, 0.05, &r), 0);
    cr_expect_eq(r.ratio, 1.0);
    cr_expect_eq(r.lo, 1.0);
    cr_expect_eq(r.hi, 1.0);
    cr_expect_eq(r.verdict, PR_AB_EQUIVALENT);
}

/* 5 vs 5: k = 3, the interval between the 3rd and the 23rd of the 25
 * differences; b = a·1.2 except one slow run. */
Test(abstat, compare_5v5_k3)
{
    double a[] = {10, 11, 12, 13, 14}, b[] = {12, 13.2, 14.4, 15.6, 9};
    pr_abstat_result r;
    cr_assert_eq(pr_abstat_compare(a, 5, b, 5, 0.05, &r), 0);
    cr_expect_eq(r.k, 3);
    cr_expect(rel_eq(r.coverage, 1 - 8.0 / 252));
    /* the ratios below 1: 9/10 .. 9/14 (5), 12/13, 12/14, 13.2/14: the 3rd
     * smallest is 9/12 = 0.75; the largest 15.6/10, 14.4/10, 15.6/11, so
     * the 23rd is 15.6/11 */
    cr_expect(rel_eq(r.lo, 9.0 / 12), "%.17g", r.lo);
    cr_expect(rel_eq(r.hi, 15.6 / 11), "%.17g", r.hi);
    cr_expect_eq(r.verdict, PR_AB_INCONCLUSIVE);
}

/* Below 2 runs a side: the ratio from what there is, nothing else. */
Test(abstat, compare_insufficient)
{
    double a[] = {100}, b[] = {105, 110};
    pr_abstat_result r;
    /* 1 vs 2: the geometric mean of 1.05 and 1.10 */
    cr_assert_eq(pr_abstat_compare(a, 1, b, 2, 0.05, &r), 0);
    cr_expect(rel_eq(r.ratio, sqrt(1.05 * 1.10)), "%.17g", r.ratio);
    cr_expect(isnan(r.lo) && isnan(r.hi));
    cr_expect_eq(r.k, 0);
    cr_expect_eq(r.coverage, 0.0);
    cr_expect_eq(r.verdict, PR_AB_INSUFFICIENT);
    cr_expect_eq(r.runs_needed, 0);
    /* 1 vs 1: the one ratio */
    cr_assert_eq(pr_abstat_compare(a, 1, b + 1, 1, 0.05, &r), 0);
    cr_expect(rel_eq(r.ratio, 1.1));
    cr_expect_eq(r.verdict, PR_AB_INSUFFICIENT);
    /* none on a side */
    cr_assert_eq(pr_abstat_compare(NULL, 0, b, 2, 0.05, &r), 0);
    cr_expect(isnan(r.ratio));
    cr_expect_eq(r.m, 0);
    cr_expect_eq(r.verdict, PR_AB_INSUFFICIENT);
}

Test(abstat, compare_rejects_invalid)
{
    double good[] = {1, 2}, zero[] = {1, 0}, neg[] = {1, -2}, nan_[] = {1, NAN},
           inf_[] = {INFINITY, 1};
    pr_abstat_result r, before;
    memset(&r, 0x5a, sizeof r);
    memcpy(&before, &r, sizeof r);
    cr_expect_eq(pr_abstat_compare(good, 2, zero, 2, 0.05, &r), -1);
    cr_expect_eq(pr_abstat_compare(neg, 2, good, 2, 0.05, &r), -1);
    cr_expect_eq(pr_abstat_compare(good, 2, nan_, 2, 0.05, &r), -1);
    cr_expect_eq(pr_abstat_compare(inf_, 2, good, 2, 0.05, &r), -1);
    cr_expect_eq(pr_abstat_compare(good, 2, good, 2, 0, &r), -1);
    cr_expect_eq(pr_abstat_compare(good, 2, good, 2, 1, &r), -1);
    cr_expect_eq(pr_abstat_compare(good, 2, good, 2, -0.05, &r), -1);
    cr_expect_eq(pr_abstat_compare(good, 2, good, 2, NAN, &r), -1);
    cr_expect_eq(pr_abstat_compare(NULL, 2, good, 2, 0.05, &r), -1);
    cr_expect_eq(pr_abstat_compare(good, 2, good, 2, 0.05, NULL), -1);
    cr_expect_eq(memcmp(&r, &before, sizeof r), 0, "out was touched");
}

Test(abstat, verdict_keys)
{
    cr_expect_str_eq(pr_abstat_verdict_key(PR_AB_FASTER), "faster");
    cr_expect_str_eq(pr_abstat_verdict_key(PR_AB_SLOWER), "slower");
    cr_expect_str_eq(pr_abstat_verdict_key(PR_AB_CHANGED_SMALL), "changed_small");
    cr_expect_str_eq(pr_abstat_verdict_key(PR_AB_EQUIVALENT), "equivalent");
    cr_expect_str_eq(pr_abstat_verdict_key(PR_AB_INCONCLUSIVE), "inconclusive");
    cr_expect_str_eq(pr_abstat_verdict_key(PR_AB_INSUFFICIENT), "insufficient");
    cr_expect_null(pr_abstat_verdict_key((pr_abstat_verdict)99));
}

/* Cells of 3 vs 3 (90 %), 5 vs 5 (96.8 %), one without an interval (0)
 * and 4 vs 4 (97.1 %): 0.1 + 8/252 + 2/70. */
Test(abstat, expected_false)
{
    double cov[] = {0.9, 1 - 8.0 / 252, 0, 1 - 2.0 / 70};
    cr_expect(rel_eq(pr_abstat_expected_false(cov, 4), 0.1 + 8.0 / 252 + 2.0 / 70));
    cr_expect_eq(pr_abstat_expected_false(NULL, 0), 0.0);
}

/* ---- against scipy (tests/scripts/abstat_scipy.sh writes the cases) ---- */

static double num(json_t *a, size_t i)
{
    return json_number_value(json_array_get(a, i));
}

static size_t check_cdf(json_t *cases)
{
    size_t i, bad = 0;
    json_t *c;
    json_array_foreach(cases, i, c)
    {
        size_t m = (size_t)num(c, 0), n = (size_t)num(c, 1);
        long u = (long)num(c, 2);
        double want = num(c, 3), got = pr_abstat_mwu_cdf(m, n, u);
        if (!rel_eq(got, want) && bad++ < 10)
            cr_log_error("cdf %zu v %zu, u = %ld: %.17g, scipy %.17g", m, n, u, got, want);
    }
    cr_expect_eq(bad, 0, "%zu of %zu cdf values differ", bad, json_array_size(cases));
    return json_array_size(cases);
}

static size_t check_moses(json_t *cases)
{
    size_t i, bad = 0;
    json_t *c;
    json_array_foreach(cases, i, c)
    {
        size_t m = (size_t)num(c, 0), n = (size_t)num(c, 1), k_want = (size_t)num(c, 2);
        double cov, cov_want = num(c, 3);
        size_t k = pr_abstat_moses_k(m, n, &cov);
        if ((k != k_want || !(cov == cov_want || rel_eq(cov, cov_want))) && bad++ < 10)
            cr_log_error("moses %zu v %zu: k %zu (%.17g), scipy k %zu (%.17g)", m, n, k, cov,
                         k_want, cov_want);
    }
    cr_expect_eq(bad, 0, "%zu of %zu k values differ", bad, json_array_size(cases));
    return json_array_size(cases);
}

/* NaN (JSON null) equals NaN. */
static int same(double got, json_t *want)
{
    if (json_is_null(want))
        return isnan(got);
    return got == json_number_value(want) || rel_eq(got, json_number_value(want));
}

static size_t check_compare(json_t *cases)
{
    size_t i, bad = 0;
    json_t *c;
    json_array_foreach(cases, i, c)
    {
        json_t *ja = json_object_get(c, "a"), *jb = json_object_get(c, "b");
        size_t m = json_array_size(ja), n = json_array_size(jb);
        double a[64], b[64];
        cr_assert(m <= 64 && n <= 64);
        for (size_t x = 0; x < m; x++)
            a[x] = num(ja, x);
        for (size_t x = 0; x < n; x++)
            b[x] = num(jb, x);
        pr_abstat_result r;
        cr_assert_eq(
            pr_abstat_compare(a, m, b, n, json_number_value(json_object_get(c, "delta")), &r), 0);
        const char *verdict = json_string_value(json_object_get(c, "verdict"));
        int ok = same(r.ratio, json_object_get(c, "ratio")) &&
                 same(r.lo, json_object_get(c, "lo")) && same(r.hi, json_object_get(c, "hi")) &&
                 same(r.coverage, json_object_get(c, "coverage")) &&
                 r.k == (size_t)json_integer_value(json_object_get(c, "k")) && verdict &&
                 strcmp(pr_abstat_verdict_key(r.verdict), verdict) == 0 &&
                 r.runs_needed == (unsigned)json_integer_value(json_object_get(c, "runs_needed"));
        if (!ok && bad++ < 10)
            cr_log_error("compare case %zu (%zu v %zu): ratio %.17g [%.17g, %.17g] k %zu "
                         "%.17g %s runs %u; python: %s",
                         i, m, n, r.ratio, r.lo, r.hi, r.k, r.coverage,
                         pr_abstat_verdict_key(r.verdict), r.runs_needed,
                         json_dumps(c, JSON_COMPACT | JSON_REAL_PRECISION(17)));
    }
    cr_expect_eq(bad, 0, "%zu of %zu comparisons differ", bad, json_array_size(cases));
    return json_array_size(cases);
}

Test(abstat_scipy, cases)
{
    const char *path = getenv("PERFREPRO_ABSTAT_CASES");
    if (!path || !*path)
        cr_skip_test("PERFREPRO_ABSTAT_CASES is not set (tests/scripts/abstat_scipy.sh sets it)");
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    cr_assert(root, "%s:%d: %s", path, jerr.line, jerr.text);
    json_t *cdf = json_object_get(root, "cdf"), *moses = json_object_get(root, "moses"),
           *cmp = json_object_get(root, "compare");
    cr_assert(json_is_array(cdf) && json_is_array(moses) && json_is_array(cmp));
    size_t nc = check_cdf(cdf), nm = check_moses(moses), np = check_compare(cmp);
    cr_assert(nc > 0 && nm > 0 && np > 0, "no cases");
    /* the script reads this line to know the cases were compared */
    cr_log_info("abstat_scipy: compared %zu cdf values, %zu k, %zu comparisons", nc, nm, np);
    json_decref(root);
}
