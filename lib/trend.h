/* trend: a series of dated points (one run set's median each, or one
 * published revision's figure) judged for lasting changes
 * (docs/statistics.md#history).  Everything works on log throughput.
 *
 *   change points  found retrospectively by E-divisive means with a Welch
 *                  t-test between the segments, as Apache Otava (Hunter)
 *                  does: split the segment where the energy statistic of
 *                  the two parts is largest, keep the split when Welch's
 *                  t-test between them gives p < max_pvalue and the change
 *                  of their means is at least min_magnitude, recurse into
 *                  both parts; a step can be pinned (always a change point)
 *                  or vetoed (never one);
 *   a new point    judged by the t prediction interval of the current
 *                  segment (the points since the last change point), from
 *                  PR_TREND_MIN_SEGMENT points: mean ± t(1 − α/2, n − 1) ·
 *                  s · sqrt(1 + 1/n), as Bencher's t_test threshold;
 *   persistence    two points in a row beyond the limit on the same side
 *                  are a regression (or an improvement); one, the newest,
 *                  is "suspect, rerun"; one followed by a point back
 *                  inside is an outlier.
 *
 * Deterministic: no permutation test, no random numbers.  Arrays are the
 * caller's; functions that return arrays say who frees them.
 */
#ifndef PR_TREND_H
#define PR_TREND_H

#include <stddef.h>

/* Defaults for tens of points, not thousands. */
#define PR_TREND_MAX_PVALUE 0.001
#define PR_TREND_MIN_MAGNITUDE 0.0
#define PR_TREND_MIN_SEGMENT 4 /* points a prediction interval needs */
#define PR_TREND_MIN_SPLIT 3   /* points each side of a change point */
#define PR_TREND_ALPHA 0.01    /* 99 % prediction interval */

/* Student's t distribution: P(T <= t) with df > 0 degrees of freedom (df
 * need not be an integer: Welch's), and its inverse for p in (0, 1). */
double pr_trend_t_cdf(double t, double df);
double pr_trend_t_quantile(double p, double df);

/* Welch's two-sided t-test of x (nx values) against y (ny values), both
 * at least 2: the statistic, its degrees of freedom (Welch–Satterthwaite)
 * and the two-sided p-value.  Returns 0, or -1 when a side has fewer than
 * 2 values.  Both variances 0: p is 1 when the means are equal, else 0. */
int pr_trend_welch(const double *x, size_t nx, const double *y, size_t ny, double *t, double *df,
                   double *p);

typedef struct pr_trend_opts {
    double max_pvalue;    /* PR_TREND_MAX_PVALUE */
    double min_magnitude; /* relative change of the segment means' ratio; PR_TREND_MIN_MAGNITUDE */
    size_t min_split;     /* PR_TREND_MIN_SPLIT; below 2 counts as 2 (Welch needs 2 a side) */
    const size_t *pinned; /* indices i: a change point between point i-1 and i, always */
    size_t npinned;
    const size_t *vetoed; /* indices i: never a change point there */
    size_t nvetoed;
} pr_trend_opts;
/* opts with the defaults above, no pins, no vetoes. */
void pr_trend_opts_default(pr_trend_opts *opts);

/* Matteson and James's energy statistic (alpha = 1) of splitting x (n
 * values) into x[0 .. tau-1] and x[tau .. n-1]:
 *   m k / (m + k) · (2/(m k) Σ|x_i − y_j| − Σ_{i<l}|x_i − x_l| / C(m,2)
 *                                          − Σ_{j<l}|y_j − y_l| / C(k,2))
 * with m = tau, k = n − tau (a within-sum of one value counts 0); NAN when
 * tau is 0 or >= n.  O(n²): the definition.  pr_trend_change_points splits
 * where it is largest, updating it across the splits instead (O(n log n) a
 * segment, the same splits: tests/unit/lib_trend.c keeps the cubic search
 * on this function as its oracle). */
double pr_trend_energy(const double *x, size_t n, size_t tau);

/* The change points of x (n values, log throughput, in date order): sets
 * *out to a malloc'd ascending array of indices i (the change lies between
 * x[i-1] and x[i]; the caller frees it) and *nout to its length (*out NULL
 * when 0).  Each found change point's p-value goes to *pvalues (malloc'd,
 * same length; the caller frees it; may be NULL; pinned points get 0).
 * Returns 0, or -1 on invalid opts (an index out of range, a point both
 * pinned and vetoed). */
int pr_trend_change_points(const double *x, size_t n, const pr_trend_opts *opts, size_t **out,
                           double **pvalues, size_t *nout);

/* The prediction interval for the next point of a segment x (n values,
 * log scale) at level 1 − alpha: [*lo, *hi].  Returns 0, or -1 when n <
 * PR_TREND_MIN_SEGMENT (no interval) or alpha is not in (0, 1). */
int pr_trend_prediction(const double *x, size_t n, double alpha, double *lo, double *hi);

typedef enum {
    PR_TREND_OK,          /* inside the limit (or no limit yet) */
    PR_TREND_SUSPECT,     /* the newest point alone is beyond: rerun */
    PR_TREND_OUTLIER,     /* beyond, and the next point came back inside */
    PR_TREND_REGRESSION,  /* this and the next (or the previous) point lower than the limit */
    PR_TREND_IMPROVEMENT, /* ... higher than the limit */
} pr_trend_state;

/* Judges every point of x (n values, log throughput, date order) against
 * the prediction interval of the segment before it (the points since the
 * last change point before it, at most all earlier points), into
 * states[n] (the caller's array).  Points before the first PR_TREND_MIN_SEGMENT
 * of a segment are PR_TREND_OK.  A point that is itself a change point is
 * judged against the segment it ends; the point after a beyond point is
 * compared with the same limits for persistence (trend.c says more).  lo
 * and hi (may be NULL; the caller's arrays of n) get each point's limits,
 * NAN where there is none. */
void pr_trend_judge(const double *x, size_t n, const size_t *cps, size_t ncps, double alpha,
                    pr_trend_state *states, double *lo, double *hi);
/* The usual spread of each step of x (n values, log scale, date order),
 * against which that step is weighed: the median of the other n − 2
 * absolute steps |x[j] − x[j−1]| over 0.6745, a robust standard deviation
 * of a step (the median of |N(0, σ²)| is 0.6745 σ: the MAD of the first
 * differences, centred on no change), leaving the step itself out so that
 * it cannot hide itself.  spread[i] is the one of the step into x[i]
 * (the caller's array of n; spread[0] NAN); all NAN below
 * PR_TREND_MIN_STEPS steps.  A step beyond PR_TREND_STEP_FACTOR of its
 * spread is "seen" where no test judged it (docs/statistics.md#history). */
#define PR_TREND_MIN_STEPS 3
#define PR_TREND_STEP_FACTOR 5.0
void pr_trend_step_spreads(const double *x, size_t n, double *spread);

/* The state s (judged on the values: a fall below the limit is
 * PR_TREND_REGRESSION) of a series whose unit is better lower (a time,
 * lib/unitdir.h): a rise is the regression there and a fall the
 * improvement; the other states are the same either way. */
pr_trend_state pr_trend_state_lower(pr_trend_state s);

/* "ok", "suspect", "outlier", "regression", "improvement". */
const char *pr_trend_state_key(pr_trend_state s);

#endif
