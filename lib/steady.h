/* steady: whether a run reached a steady state before its figure was
 * taken (docs/statistics.md#steady-state).  From a run's step series (the
 * records its parse rule read, lib/rectrace.h) it finds the steady window,
 * warm-up and teardown detected rather than assumed, and judges it:
 *
 *   warm-up   MSER truncation (White 1997; MSER-5 batches of 5 steps from
 *             PR_STEADY_MSER5_FROM steps, as Hoad & Robinson recommend):
 *             the cut d minimising the window's variance over its length,
 *             Σ(x_i − x̄_d)² / (n − d)², searched over the first half; a
 *             minimum on the half's last cut means the warm-up did not end
 *             there (MSER's own "run too short" signal): the whole run is
 *             then judged, so that its regimes show;
 *   teardown  trailing steps (at most one in PR_STEADY_TEARDOWN_PER) whose
 *             modified z-score against the series' second half is beyond
 *             PR_STEADY_TEARDOWN_Z (Iglewicz & Hoaglin) and that are more
 *             than PR_STEADY_TEARDOWN_REL from its median;
 *   stability the window's coefficient of variation (stdev / mean; pyperf
 *             calls a benchmark unstable above 10 %), and a regime change
 *             inside it: the split of two segments (at least
 *             PR_STEADY_MIN_SEGMENT steps each) with the largest Welch t,
 *             kept when p < PR_STEADY_REGIME_P and the segments' means
 *             differ by at least PR_STEADY_REGIME_EFFECT.
 *
 * Deterministic: no randomness, ties to the earliest step.  Arrays are the
 * caller's; what returns JSON says who frees it.
 */
#ifndef PR_STEADY_H
#define PR_STEADY_H

#include <jansson.h>
#include <stddef.h>

#include "err.h"
#include "jdoc.h"

#define PR_STEADY_MIN_STEPS 10       /* fewer steps: too short to judge */
#define PR_STEADY_MSER5_FROM 100     /* MSER-5 (batches of 5) from this many steps */
#define PR_STEADY_CV_MAX 0.10        /* pyperf: stdev above 10 % of the mean */
#define PR_STEADY_MIN_SEGMENT 3      /* steps each side of a regime change */
#define PR_STEADY_REGIME_P 0.001     /* Welch's p below this ... */
#define PR_STEADY_REGIME_EFFECT 0.10 /* ... and means at least 10 % apart */
#define PR_STEADY_TEARDOWN_Z 3.5     /* Iglewicz & Hoaglin's modified z-score */
#define PR_STEADY_TEARDOWN_REL 0.10  /* and beyond 10 % of the median */
#define PR_STEADY_TEARDOWN_PER 20    /* at most one trailing step in 20 (at least 1) */

typedef enum {
    PR_STEADY_UNKNOWN, /* no step series (no trace, a failed run) */
    PR_STEADY_STEADY,
    PR_STEADY_UNSTEADY,
    PR_STEADY_TOO_SHORT, /* fewer than PR_STEADY_MIN_STEPS steps */
} pr_steady_verdict;

typedef struct pr_steady {
    pr_steady_verdict verdict;
    const char *reason;  /* static key: "" (steady), "regime_change", "cv",
                          * "too_few_steps" */
    size_t steps;        /* steps in the series */
    size_t first, last;  /* the window, 1-based positions in the series; 0 when none */
    size_t n;            /* steps in the window */
    double cv;           /* the window's coefficient of variation; NAN below 2 steps */
    size_t regime_at;    /* 0, or the 1-based position of the second regime's first step */
    double regime_ratio; /* the second regime's mean over the first's; NAN when none */
    int warmup_ended;    /* 0: MSER's cut fell on the last cut it may take */
} pr_steady;

/* Judges x (n steps, in order, each finite and >= 0) into out.  Never
 * fails. */
void pr_steady_series(const double *x, size_t n, pr_steady *out);

/* "unknown", "steady", "unsteady", "too_short". */
const char *pr_steady_verdict_key(pr_steady_verdict v);

/* The record's "steady" object from its step_trace (docs/data-model.md,
 * "Steady state"): each successful run's series (the records the rule read:
 * statuses K W L H M P N U X, values not null) judged, and the record's
 * object that of its first unsteady run, else its first too-short one,
 * else its run of the largest CV; first/last/regime_step counted in the
 * run's records (a binned point stands for its bin).  NULL (unknown) when
 * trace is NULL, omitted or has no successful run.  A new reference the
 * caller owns. */
json_t *pr_steady_of_trace(const json_t *trace);

/* Checks a record's "steady" object at c: its keys, a known verdict and
 * reason, numbers in range.  0, or -1 with err naming the field. */
int pr_steady_check(const pr_jdoc_jcur *c, pr_err *err);

/* The verdict of a (checked) steady object; PR_STEADY_UNKNOWN for NULL. */
pr_steady_verdict pr_steady_verdict_of(const json_t *steady);

#endif
