/* lib/trend: Student's t, Welch, E-divisive change points, the prediction
 * interval and persistence on hand-computed cases; the scipy cross-check
 * (tests/scripts/trend_scipy.sh) reads its cases from
 * $PERFREPRO_TREND_CASES. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trend.h"

#define EPS 1e-12

static int close_rel(double a, double b, double rel, double abs_floor)
{
    if (a == b)
        return 1;
    return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + abs_floor;
}

Test(trend, t_cdf_known_values)
{
    /* Tables: P(T <= 2, 5 df) = 0.94903026..., symmetric, 0 → 1/2. */
    cr_expect(close_rel(pr_trend_t_cdf(2.0, 5), 0.9490302605850709, EPS, 0));
    cr_expect(close_rel(pr_trend_t_cdf(-2.0, 5), 1 - 0.9490302605850709, 1e-11, 0));
    cr_expect_eq(pr_trend_t_cdf(0, 7.3), 0.5);
    /* 1 df is Cauchy: 1/2 + atan(t)/π; 2 df: 1/2 + t / (2 sqrt(2 + t²)). */
    cr_expect(close_rel(pr_trend_t_cdf(3.0, 1), 0.5 + atan(3.0) / M_PI, EPS, 0));
    cr_expect(close_rel(pr_trend_t_cdf(-0.7, 2), 0.5 - 0.7 / (2 * sqrt(2 + 0.49)), EPS, 0));
    /* Far tail keeps its digits: P(T <= -50, 1 df) = atan(1/50)/π. */
    cr_expect(close_rel(pr_trend_t_cdf(-50, 1), atan(1.0 / 50) / M_PI, EPS, 0));
    cr_expect_eq(pr_trend_t_cdf(INFINITY, 3), 1.0);
    cr_expect_eq(pr_trend_t_cdf(-INFINITY, 3), 0.0);
    cr_expect(isnan(pr_trend_t_cdf(1, 0)));
}

Test(trend, t_quantile_known_values)
{
    cr_expect(close_rel(pr_trend_t_quantile(0.975, 10), 2.2281388519862747, EPS, 0));
    cr_expect(close_rel(pr_trend_t_quantile(0.025, 10), -2.2281388519862747, EPS, 0));
    cr_expect(close_rel(pr_trend_t_quantile(0.995, 3), 5.8409093097333573, EPS, 0));
    /* Cauchy: tan(π (p − 1/2)). */
    cr_expect(close_rel(pr_trend_t_quantile(0.9, 1), tan(M_PI * 0.4), EPS, 0));
    cr_expect_eq(pr_trend_t_quantile(0.5, 4), 0.0);
    /* Round trip at a non-integer df. */
    double q = pr_trend_t_quantile(0.999, 2.7);
    cr_expect(close_rel(pr_trend_t_cdf(q, 2.7), 0.999, EPS, 0));
    cr_expect(isnan(pr_trend_t_quantile(0, 3)));
    cr_expect(isnan(pr_trend_t_quantile(1, 3)));
}

Test(trend, welch_by_hand)
{
    /* x: mean 2.5, variance 5/3; y: mean 6, variance 10.  se² = 5/12 + 2 =
     * 29/12, t = −3.5 / sqrt(29/12), df = (29/12)² / ((5/12)²/3 + 2²/4) =
     * 2523/457; p = 2 P(T > |t|), 0.069133593192392413 (mpmath; scipy
     * prints 0.06913359319239236). */
    double x[] = {1, 2, 3, 4}, y[] = {2, 4, 6, 8, 10};
    double t, df, p;
    cr_assert_eq(pr_trend_welch(x, 4, y, 5, &t, &df, &p), 0);
    cr_expect(close_rel(t, -3.5 / sqrt(29.0 / 12), EPS, 0));
    cr_expect(close_rel(df, 2523.0 / 457, EPS, 0));
    cr_expect(close_rel(p, 0.069133593192392413, EPS, 0));
    cr_assert_eq(pr_trend_welch(y, 5, x, 4, &t, &df, &p), 0);
    cr_expect(close_rel(t, 3.5 / sqrt(29.0 / 12), EPS, 0));
    cr_expect_eq(pr_trend_welch(x, 1, y, 5, &t, &df, &p), -1);
}

Test(trend, welch_zero_variances)
{
    double a[] = {2, 2, 2}, b[] = {2, 2}, c[] = {3, 3};
    double t, df, p;
    cr_assert_eq(pr_trend_welch(a, 3, b, 2, &t, &df, &p), 0);
    cr_expect_eq(p, 1.0);
    cr_expect_eq(t, 0.0);
    cr_expect_eq(df, 3.0);
    cr_assert_eq(pr_trend_welch(a, 3, c, 2, &t, &df, &p), 0);
    cr_expect_eq(p, 0.0);
    cr_expect(isinf(t) && t < 0);
    /* One variance 0: the ordinary formula, df = nx − 1 of the other side. */
    double d[] = {1, 3};
    cr_assert_eq(pr_trend_welch(a, 3, d, 2, &t, &df, &p), 0);
    cr_expect(close_rel(df, 1.0, EPS, 0));
    cr_expect(close_rel(t, 0.0, 0, 1e-15));
}

/* 8 points at log 100 then 8 at log 90, with a small fixed wobble. */
static void step_series(double *x)
{
    static const double w[] = {0.004, -0.003, 0.001, -0.004, 0.002, 0.0, -0.002, 0.003};
    for (int i = 0; i < 16; i++)
        x[i] = log(i < 8 ? 100.0 : 90.0) + w[i % 8];
}

/* log 100 plus normal noise, sd 0.005 (numpy default_rng(26), rounded to
 * 4 places).  Pure noise is not always free of change points: with the
 * defaults, about 15 % of such 20-point series get one (Welch on a short
 * end segment whose few values happen to lie close). */
static void flat_series(double *x, int n)
{
    static const double w[] = {-0.0096, -0.0151, 0.0058,  0.0078, 0.0066,  -0.0021, -0.0004,
                               -0.0015, 0.0068,  0.0044,  0.0003, 0.0035,  0.0068,  0.0019,
                               -0.0054, -0.0004, -0.0021, -0.008, -0.0102, 0.0007};
    for (int i = 0; i < n; i++)
        x[i] = log(100.0) + w[i % 20];
}

Test(trend, energy_by_hand)
{
    /* {0, 0, 1, 1} at 2: between 4·1, within 0: 2·2/(2+2) · (2·4/4) = 2. */
    double x[] = {0, 0, 1, 1};
    cr_expect(close_rel(pr_trend_energy(x, 4, 2), 2.0, EPS, 0));
    /* at 1: m=1, k=3: between 0+1+1 = 2, right within 0+0+1... |0−1|,|0−1|,
     * |1−1| = 2 over C(3,2) = 3: 3/4 · (2·2/3 − 2/3) = 0.5. */
    cr_expect(close_rel(pr_trend_energy(x, 4, 1), 0.5, EPS, 0));
    cr_expect(isnan(pr_trend_energy(x, 4, 0)));
    cr_expect(isnan(pr_trend_energy(x, 4, 4)));
}

Test(trend, step_has_one_change_point)
{
    double x[16];
    step_series(x);
    pr_trend_opts o;
    pr_trend_opts_default(&o);
    size_t *cps, n;
    double *pv;
    cr_assert_eq(pr_trend_change_points(x, 16, &o, &cps, &pv, &n), 0);
    cr_assert_eq(n, 1);
    cr_expect_eq(cps[0], 8);
    cr_expect(pv[0] < 1e-10);
    free(cps);
    free(pv);
    /* A magnitude above the step's 10 % keeps it out. */
    o.min_magnitude = 0.12;
    cr_assert_eq(pr_trend_change_points(x, 16, &o, &cps, NULL, &n), 0);
    cr_expect_eq(n, 0);
    cr_expect_null(cps);
}

Test(trend, flat_has_none)
{
    double x[20];
    flat_series(x, 20);
    pr_trend_opts o;
    pr_trend_opts_default(&o);
    size_t *cps, n;
    double *pv;
    cr_assert_eq(pr_trend_change_points(x, 20, &o, &cps, &pv, &n), 0);
    cr_expect_eq(n, 0);
    cr_expect_null(cps);
    cr_expect_null(pv);
}

Test(trend, pin_and_veto)
{
    double x[20];
    flat_series(x, 20);
    pr_trend_opts o;
    pr_trend_opts_default(&o);
    size_t pin[] = {5}, *cps, n;
    double *pv;
    o.pinned = pin;
    o.npinned = 1;
    cr_assert_eq(pr_trend_change_points(x, 20, &o, &cps, &pv, &n), 0);
    cr_assert_eq(n, 1);
    cr_expect_eq(cps[0], 5);
    cr_expect_eq(pv[0], 0.0);
    free(cps);
    free(pv);

    /* The step vetoed at 8: whatever is found, never 8. */
    double s[16];
    step_series(s);
    pr_trend_opts_default(&o);
    size_t veto[] = {8};
    o.vetoed = veto;
    o.nvetoed = 1;
    cr_assert_eq(pr_trend_change_points(s, 16, &o, &cps, NULL, &n), 0);
    for (size_t i = 0; i < n; i++)
        cr_expect_neq(cps[i], 8);
    free(cps);

    /* The step pinned at 12 and found at 8 too: each stretch on its own. */
    pr_trend_opts_default(&o);
    size_t pin12[] = {12};
    o.pinned = pin12;
    o.npinned = 1;
    cr_assert_eq(pr_trend_change_points(s, 16, &o, &cps, &pv, &n), 0);
    cr_assert_eq(n, 2);
    cr_expect_eq(cps[0], 8);
    cr_expect_eq(cps[1], 12);
    cr_expect(pv[0] > 0 && pv[0] < 0.01);
    cr_expect_eq(pv[1], 0.0);
    free(cps);
    free(pv);

    /* Invalid: both pinned and vetoed, out of range, index 0. */
    o.vetoed = pin12;
    o.nvetoed = 1;
    cr_expect_eq(pr_trend_change_points(s, 16, &o, &cps, &pv, &n), -1);
    cr_expect_null(cps);
    size_t far[] = {16}, zero[] = {0};
    pr_trend_opts_default(&o);
    o.pinned = far;
    o.npinned = 1;
    cr_expect_eq(pr_trend_change_points(s, 16, &o, &cps, NULL, &n), -1);
    o.pinned = zero;
    cr_expect_eq(pr_trend_change_points(s, 16, &o, &cps, NULL, &n), -1);
}

Test(trend, prediction_of_four_points)
{
    /* mean 2.5, s² = 5/3, t(0.995, 3) = 5.8409093097333573:
     * half = 5.8409093097333573 · sqrt(5/3) · sqrt(5/4) = 5.8409… · sqrt(25/12). */
    double x[] = {1, 2, 3, 4}, lo, hi;
    cr_assert_eq(pr_trend_prediction(x, 4, 0.01, &lo, &hi), 0);
    double half = 5.8409093097333573 * sqrt(25.0 / 12);
    cr_expect(close_rel(lo, 2.5 - half, 1e-12, 0));
    cr_expect(close_rel(hi, 2.5 + half, 1e-12, 0));
    cr_expect_eq(pr_trend_prediction(x, 3, 0.01, &lo, &hi), -1);
    cr_expect_eq(pr_trend_prediction(x, 4, 0, &lo, &hi), -1);
}

/* 6 flat points then the given tail, judged with no change points. */
static void judge_tail(const double *tail, size_t nt, pr_trend_state *st, double *lo, double *hi)
{
    double x[16];
    flat_series(x, 6);
    for (size_t i = 0; i < nt; i++)
        x[6 + i] = log(100.0) + tail[i];
    pr_trend_judge(x, 6 + nt, NULL, 0, PR_TREND_ALPHA, st, lo, hi);
}

Test(trend, judge_states)
{
    pr_trend_state st[16];
    double lo[16], hi[16];
    /* Newest point alone below: suspect; the first 4 have no limits. */
    double suspect[] = {-0.2};
    judge_tail(suspect, 1, st, lo, hi);
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(st[i], PR_TREND_OK);
        cr_expect(isnan(lo[i]) && isnan(hi[i]));
    }
    cr_expect(!isnan(lo[4]));
    cr_expect_eq(st[4], PR_TREND_OK);
    cr_expect_eq(st[5], PR_TREND_OK);
    cr_expect_eq(st[6], PR_TREND_SUSPECT);
    cr_expect_str_eq(pr_trend_state_key(st[6]), "suspect");
    /* Below, then back: an outlier. */
    double outlier[] = {-0.2, 0.001};
    judge_tail(outlier, 2, st, lo, hi);
    cr_expect_eq(st[6], PR_TREND_OUTLIER);
    cr_expect_eq(st[7], PR_TREND_OK);
    cr_expect_str_eq(pr_trend_state_key(st[6]), "outlier");
    /* Two below: a regression, both. */
    double regr[] = {-0.2, -0.21};
    judge_tail(regr, 2, st, lo, hi);
    cr_expect_eq(st[6], PR_TREND_REGRESSION);
    cr_expect_eq(st[7], PR_TREND_REGRESSION);
    cr_expect_str_eq(pr_trend_state_key(st[7]), "regression");
    /* Two above: an improvement. */
    double impr[] = {0.2, 0.25, 0.0};
    judge_tail(impr, 3, st, lo, hi);
    cr_expect_eq(st[6], PR_TREND_IMPROVEMENT);
    cr_expect_eq(st[7], PR_TREND_IMPROVEMENT);
    cr_expect_str_eq(pr_trend_state_key(st[6]), "improvement");
    /* One below, the next above: not persistent, an outlier. */
    double split[] = {-0.2, 0.2, 0.0};
    judge_tail(split, 3, st, lo, hi);
    cr_expect_eq(st[6], PR_TREND_OUTLIER);
    cr_expect_str_eq(pr_trend_state_key(PR_TREND_OK), "ok");
}

Test(trend, judge_at_a_change_point)
{
    /* The step with its change point at 8: 8 is judged against x[0..7]
     * and, with 9, is a regression; 9 .. 11 have fewer than 4 points of
     * the new segment behind them; 12 is judged against x[8..11]. */
    double x[16];
    step_series(x);
    size_t cps[] = {8};
    pr_trend_state st[16];
    double lo[16], hi[16];
    pr_trend_judge(x, 16, cps, 1, PR_TREND_ALPHA, st, lo, hi);
    for (int i = 0; i < 8; i++)
        cr_expect_eq(st[i], PR_TREND_OK, "point %d", i);
    cr_expect_eq(st[8], PR_TREND_REGRESSION);
    cr_expect_eq(st[9], PR_TREND_REGRESSION);
    cr_expect(isnan(lo[9]) && isnan(lo[10]) && isnan(lo[11]));
    double l, h;
    cr_assert_eq(pr_trend_prediction(x + 8, 4, PR_TREND_ALPHA, &l, &h), 0);
    cr_expect_eq(lo[12], l);
    cr_expect_eq(hi[12], h);
    for (int i = 10; i < 16; i++)
        cr_expect_eq(st[i], PR_TREND_OK, "point %d", i);
    /* Without the change point the new level is judged against the old
     * segment: 8 and 9 are still the regression, and so on down the line. */
    pr_trend_judge(x, 16, NULL, 0, PR_TREND_ALPHA, st, NULL, NULL);
    cr_expect_eq(st[8], PR_TREND_REGRESSION);
}

/* ---- scipy cross-check -------------------------------------------------- */

/* ---- the cubic E-divisive of 8f3181d, kept as the oracle ---------------
 * Every split's energy statistic recomputed with pr_trend_energy (O(n²)
 * each, O(n³) a segment); lib/trend.c now updates it incrementally across
 * the splits (O(n log n) a segment).  Both must find the same change
 * points with the same p-values. */

typedef struct {
    const double *x;
    const pr_trend_opts *o;
    size_t ms;
    unsigned char *no;
    size_t *cps;
    double *pv;
    size_t ncps;
} oracle_ctx;

static void oracle_mean(const double *x, size_t n, double *m)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    *m = s / (double)n;
}

static void oracle_segment(oracle_ctx *c, size_t a, size_t b)
{
    if (b - a < 2 * c->ms)
        return;
    size_t best = 0;
    double bestq = -INFINITY;
    for (size_t tau = a + c->ms; tau + c->ms <= b; tau++) {
        if (c->no[tau])
            continue;
        double q = pr_trend_energy(c->x + a, b - a, tau - a);
        if (q > bestq) {
            bestq = q;
            best = tau;
        }
    }
    if (best == 0)
        return;
    double t, df, p, ml, mr;
    if (pr_trend_welch(c->x + a, best - a, c->x + best, b - best, &t, &df, &p) != 0)
        return;
    oracle_mean(c->x + a, best - a, &ml);
    oracle_mean(c->x + best, b - best, &mr);
    if (!(p < c->o->max_pvalue) || !(fabs(expm1(mr - ml)) >= c->o->min_magnitude))
        return;
    c->cps[c->ncps] = best;
    c->pv[c->ncps] = p;
    c->ncps++;
    oracle_segment(c, a, best);
    oracle_segment(c, best, b);
}

/* The oracle's change points (sorted) and p-values; no pins.  Returns the
 * count; cps and pv are the caller's arrays of n. */
static size_t oracle_change_points(const double *x, size_t n, const pr_trend_opts *o,
                                   const size_t *vetoed, size_t nvetoed, size_t *cps, double *pv)
{
    oracle_ctx c = {.x = x, .o = o, .ms = o->min_split < 2 ? 2 : o->min_split};
    c.no = calloc(n + 1, 1);
    c.cps = malloc((n + 1) * sizeof *c.cps);
    c.pv = malloc((n + 1) * sizeof *c.pv);
    for (size_t i = 0; i < nvetoed; i++)
        c.no[vetoed[i]] = 1;
    oracle_segment(&c, 0, n);
    /* insertion sort by index, p-values along */
    for (size_t i = 0; i < c.ncps; i++) {
        size_t at = i;
        while (at > 0 && c.cps[at - 1] > c.cps[i])
            at--;
        size_t ci = c.cps[i];
        double pi = c.pv[i];
        memmove(c.cps + at + 1, c.cps + at, (i - at) * sizeof *c.cps);
        memmove(c.pv + at + 1, c.pv + at, (i - at) * sizeof *c.pv);
        c.cps[at] = ci;
        c.pv[at] = pi;
    }
    memcpy(cps, c.cps, c.ncps * sizeof *cps);
    memcpy(pv, c.pv, c.ncps * sizeof *pv);
    size_t k = c.ncps;
    free(c.no);
    free(c.cps);
    free(c.pv);
    return k;
}

/* A deterministic generator (xorshift64*) and a normal draw (Box–Muller). */
static double unif(unsigned long long *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return ((*s * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double gauss(unsigned long long *s)
{
    double u = unif(s), v = unif(s);
    return sqrt(-2 * log(u + 1e-300)) * cos(2 * M_PI * v);
}

/* Random series: noise, one to four steps, sometimes an outlier, rounded
 * values (ties) in some; lengths 6 .. 300; defaults and looser options,
 * with and without vetoes.  The incremental search finds exactly what the
 * cubic one finds: the same indices, the same p-values to the bit. */
Test(trend, incremental_matches_cubic_oracle)
{
    unsigned long long seed = 0x9e3779b97f4a7c15ULL;
    size_t checked = 0, with_cps = 0;
    for (int trial = 0; trial < 400; trial++) {
        size_t n = 6 + (size_t)(unif(&seed) * (trial < 300 ? 60 : 300));
        double *x = malloc(n * sizeof *x), level = 7 + unif(&seed);
        double sd = 0.005 + 0.05 * unif(&seed);
        int steps = (int)(unif(&seed) * 5), rounded = unif(&seed) < 0.2;
        size_t *at = malloc((steps + 1) * sizeof *at);
        for (int k = 0; k < steps; k++)
            at[k] = (size_t)(unif(&seed) * (double)n);
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < steps; k++)
                if (i == at[k])
                    level += (unif(&seed) < 0.5 ? -1 : 1) * (0.02 + 0.3 * unif(&seed));
            x[i] = level + sd * gauss(&seed);
            if (unif(&seed) < 0.03)
                x[i] += 0.5;
            if (rounded)
                x[i] = round(x[i] * 50) / 50;
        }
        pr_trend_opts o;
        pr_trend_opts_default(&o);
        if (trial % 3 == 1) {
            o.max_pvalue = 0.05;
            o.min_split = 2;
        } else if (trial % 3 == 2) {
            o.max_pvalue = 0.01;
            o.min_magnitude = 0.01;
        }
        size_t veto[2] = {1 + n / 2, 1 + n / 3};
        size_t nveto = trial % 4 == 3 ? 2 : 0;
        o.vetoed = veto;
        o.nvetoed = nveto;
        size_t *want = malloc(n * sizeof *want), *got = NULL, ngot = 0;
        double *wantp = malloc(n * sizeof *wantp), *gotp = NULL;
        size_t nwant = oracle_change_points(x, n, &o, veto, nveto, want, wantp);
        cr_assert_eq(pr_trend_change_points(x, n, &o, &got, &gotp, &ngot), 0);
        cr_assert_eq(ngot, nwant, "trial %d (n %zu): %zu change points, the oracle %zu", trial, n,
                     ngot, nwant);
        for (size_t k = 0; k < nwant; k++) {
            cr_assert_eq(got[k], want[k], "trial %d: change point %zu at %zu, the oracle %zu",
                         trial, k, got[k], want[k]);
            cr_assert(gotp[k] == wantp[k], "trial %d: p %.17g, the oracle %.17g", trial, gotp[k],
                      wantp[k]);
        }
        checked++;
        with_cps += nwant > 0;
        free(x);
        free(at);
        free(want);
        free(wantp);
        free(got);
        free(gotp);
    }
    /* the random series exercise both outcomes */
    cr_assert_gt(with_cps, 100);
    cr_assert_lt(with_cps, checked - 50);

    /* Exact ties: a mirror-symmetric series of integers has q(τ) = q(n − τ)
     * to the bit; both searches take the earliest. */
    double m[40];
    for (int i = 0; i < 40; i++) {
        int j = i < 20 ? i : 39 - i;
        m[i] = (j < 10 ? 0 : 10) + (j % 2);
    }
    pr_trend_opts o;
    pr_trend_opts_default(&o);
    size_t want[40], *got = NULL, ngot = 0;
    double wantp[40], *gotp = NULL;
    size_t nwant = oracle_change_points(m, 40, &o, NULL, 0, want, wantp);
    cr_assert_eq(pr_trend_change_points(m, 40, &o, &got, &gotp, &ngot), 0);
    cr_assert_gt(nwant, 0);
    cr_assert_eq(ngot, nwant);
    for (size_t k = 0; k < nwant; k++)
        cr_assert(got[k] == want[k] && gotp[k] == wantp[k], "tie: %zu against %zu", got[k],
                  want[k]);
    free(got);
    free(gotp);
}

/* The usual spread of each step: the median of the other absolute steps
 * over 0.6745; none below 3 steps; a big step cannot hide itself (issue 30
 * finding 4). */
Test(trend, step_spreads)
{
    double x[] = {0, 0.01, -0.01, 0.3, 0.32}, sp[5];
    /* |steps| 0.01 0.02 0.31 0.02 */
    pr_trend_step_spreads(x, 5, sp);
    const double q = 0.6744897501960817;
    cr_expect(isnan(sp[0]));
    cr_expect(close_rel(sp[1], 0.02 / q, EPS, 0), "%g", sp[1]);
    cr_expect(close_rel(sp[2], 0.02 / q, EPS, 0), "%g", sp[2]);
    cr_expect(close_rel(sp[3], 0.02 / q, EPS, 0), "%g", sp[3]); /* the others: 0.01 .02 .02 */
    cr_expect(close_rel(sp[4], 0.02 / q, EPS, 0), "%g", sp[4]);
    cr_expect(fabs(x[3] - x[2]) > PR_TREND_STEP_FACTOR * sp[3]);
    double y[] = {0, 0.1, 0.2, 0.4}, sy[4]; /* steps .1 .1 .2: each against the other two */
    pr_trend_step_spreads(y, 4, sy);
    cr_expect(close_rel(sy[1], 0.15 / q, 1e-12, 0) && close_rel(sy[3], 0.1 / q, 1e-12, 0));
    pr_trend_step_spreads(x, 3, sp);
    cr_expect(isnan(sp[1]) && isnan(sp[2]), "2 steps give no spread");
}

static json_t *load_cases(void)
{
    const char *path = getenv("PERFREPRO_TREND_CASES");
    if (!path || !*path)
        cr_skip_test("PERFREPRO_TREND_CASES unset (tests/scripts/trend_scipy.sh sets it)");
    json_error_t e;
    json_t *root = json_load_file(path, 0, &e);
    cr_assert(root, "%s:%d: %s", path, e.line, e.text);
    return root;
}

/* Copies a JSON array of numbers into a malloc'd array (the caller frees). */
static double *numbers(json_t *a, size_t *n)
{
    cr_assert(json_is_array(a));
    *n = json_array_size(a);
    double *v = malloc((*n ? *n : 1) * sizeof *v);
    for (size_t i = 0; i < *n; i++)
        v[i] = json_number_value(json_array_get(a, i));
    return v;
}

#define REL 1e-9

Test(trend_scipy, t_cdf_and_quantile)
{
    json_t *root = load_cases();
    size_t i, count = 0;
    json_t *c;
    json_array_foreach(json_object_get(root, "cdf"), i, c)
    {
        double t = json_number_value(json_array_get(c, 0));
        double df = json_number_value(json_array_get(c, 1));
        double want = json_number_value(json_array_get(c, 2));
        double got = pr_trend_t_cdf(t, df);
        cr_expect(close_rel(got, want, REL, 0), "cdf(%.17g, %.17g) = %.17g, scipy %.17g", t, df,
                  got, want);
        count++;
    }
    json_array_foreach(json_object_get(root, "ppf"), i, c)
    {
        double p = json_number_value(json_array_get(c, 0));
        double df = json_number_value(json_array_get(c, 1));
        double want = json_number_value(json_array_get(c, 2));
        double got = pr_trend_t_quantile(p, df);
        double raw = json_number_value(json_array_get(c, 3));
        cr_expect(close_rel(got, want, REL, 0), "ppf(%.17g, %.17g) = %.17g, scipy %.17g", p, df,
                  got, want);
        /* scipy's t.ppf before the polish: cdflib, about 1e-9. */
        cr_expect(close_rel(got, raw, 1e-7, 0), "ppf(%.17g, %.17g) = %.17g, scipy raw %.17g", p, df,
                  got, raw);
        count++;
    }
    cr_expect(count >= 400, "only %zu cases", count);
    json_decref(root);
}

Test(trend_scipy, welch)
{
    json_t *root = load_cases();
    size_t i, count = 0;
    json_t *c;
    json_array_foreach(json_object_get(root, "welch"), i, c)
    {
        size_t nx, ny;
        double *x = numbers(json_object_get(c, "x"), &nx);
        double *y = numbers(json_object_get(c, "y"), &ny);
        double t, df, p;
        cr_assert_eq(pr_trend_welch(x, nx, y, ny, &t, &df, &p), 0);
        double wt = json_number_value(json_object_get(c, "t"));
        double wdf = json_number_value(json_object_get(c, "df"));
        double wp = json_number_value(json_object_get(c, "p"));
        cr_expect(close_rel(t, wt, REL, 1e-12), "case %zu: t %.17g, scipy %.17g", i, t, wt);
        cr_expect(close_rel(df, wdf, REL, 0), "case %zu: df %.17g, scipy %.17g", i, df, wdf);
        cr_expect(close_rel(p, wp, REL, 0), "case %zu: p %.17g, scipy %.17g", i, p, wp);
        free(x);
        free(y);
        count++;
    }
    cr_expect(count >= 100, "only %zu cases", count);
    json_decref(root);
}

Test(trend_scipy, energy_and_change_points)
{
    json_t *root = load_cases();
    size_t i, count = 0;
    json_t *c;
    json_array_foreach(json_object_get(root, "energy"), i, c)
    {
        size_t n, nq, nw;
        double *x = numbers(json_object_get(c, "x"), &n);
        double *q = numbers(json_object_get(c, "q"), &nq); /* tau = 1 .. n-1 */
        double *want = numbers(json_object_get(c, "cps"), &nw);
        cr_assert_eq(nq, n - 1);
        for (size_t tau = 1; tau < n; tau++) {
            double got = pr_trend_energy(x, n, tau);
            cr_expect(close_rel(got, q[tau - 1], REL, 1e-12), "series %zu tau %zu: %.17g vs %.17g",
                      i, tau, got, q[tau - 1]);
        }
        pr_trend_opts o;
        pr_trend_opts_default(&o);
        size_t *cps, ncps;
        cr_assert_eq(pr_trend_change_points(x, n, &o, &cps, NULL, &ncps), 0);
        cr_expect_eq(ncps, nw, "series %zu: %zu change points, python %zu", i, ncps, nw);
        for (size_t k = 0; k < ncps && k < nw; k++)
            cr_expect_eq(cps[k], (size_t)want[k], "series %zu: %zu vs %zu", i, cps[k],
                         (size_t)want[k]);
        free(cps);
        free(x);
        free(q);
        free(want);
        count++;
    }
    cr_expect(count >= 5, "only %zu series", count);
    json_decref(root);
}
