/* stats: the few summary statistics perfrepro reports.
 *
 * Every function works on a plain array of doubles.  Functions that need the
 * values in order sort the caller's array in place (sorting is what they
 * would copy for, and callers keep the values only to reduce them), so the
 * order of v is unspecified afterwards.  Sums run in array order after the
 * sort, so a result equals the same formula written in Python over the same
 * values.
 */
#ifndef PR_STATS_H
#define PR_STATS_H

#include <stddef.h>

#include "err.h"

/* Sorts v ascending (NaN never occurs: callers only store finite values). */
void pr_stats_sort(double *v, size_t n);
/* Arithmetic mean; 0 when n == 0 (callers check n first). */
double pr_stats_mean(const double *v, size_t n);
/* Median (the mean of the two middle values when n is even); sorts v. */
double pr_stats_median(double *v, size_t n);
/* Smallest / largest value; 0 when n == 0. */
double pr_stats_min(const double *v, size_t n);
double pr_stats_max(const double *v, size_t n);
/* The number dropped from each end by a trimmed mean over n values:
 * max((size_t)(fraction * n), min_drop). */
size_t pr_stats_trim_count(size_t n, double fraction, size_t min_drop);
/* Trimmed mean: sorts v, drops pr_stats_trim_count() values from each end
 * and averages the rest.  When nothing is left it fails (-1, err set) rather
 * than invent a number.  *dropped_out (may be NULL) gets the total dropped. */
int pr_stats_trimmed_mean(double *v, size_t n, double fraction, size_t min_drop, double *out,
                          size_t *dropped_out, pr_err *err);
/* Rounds x to `decimals` decimal places the way Python's round(x, n) does:
 * on the exact binary value, ties to even. */
double pr_stats_round(double x, int decimals);

/* ---- statistics for a few expensive runs (docs/statistics.md) ---- */

/* The distribution-free confidence interval of the median of n runs from
 * order statistics: the interval [x_(k), x_(n+1-k)] (1-based, sorted) whose
 * exact coverage 1 - 2·P(Binomial(n, 1/2) <= k-1) is at least 95 % with the
 * largest k; where no k reaches 95 % (n < 6), k = 1 (min – max) and its
 * coverage 1 - 2·0.5^n.  Returns k and sets *coverage (a fraction); returns
 * 0 (no interval) when n < 2. */
size_t pr_stats_median_ci(size_t n, double *coverage);
/* The run count from which gaps are judged, and from which the olympic
 * mean exists. */
#define PR_STATS_MIN_RUNS_GAP 3
#define PR_STATS_MIN_RUNS_OLYMPIC 5
/* Olympic mean of sorted v: the mean without the lowest and the highest
 * value; NAN when n < PR_STATS_MIN_RUNS_OLYMPIC. */
double pr_stats_olympic_sorted(const double *v, size_t n);

/* ---- printed precision ---- */

/* The decimals of a number as printed ("19.428": 3, "428": 0); -1 when the
 * text is not digits with an optional "." and decimal digits. */
int pr_stats_printed_decimals(const char *printed);
/* The decimals of v's shortest printed form (7.3: 1, 16.0: 0), at most 17;
 * what a value whose printed text is unknown is taken to carry. */
int pr_stats_shortest_decimals(double v);

/* How a value stands to a figure as printed ("19.428"): it prints as the
 * figure when rounded to the figure's decimals (as printf and Python's
 * round do: the exact binary value, ties to even), only when cut there,
 * or neither (also when printed is not a plain figure).  The one rule of
 * `parse --fit` and of the audit. */
typedef enum { PR_PRINTED_ROUNDED, PR_PRINTED_TRUNCATED, PR_PRINTED_DIFFERS } pr_printed_match;
pr_printed_match pr_stats_printed_match(double v, const char *printed);
/* The interval of values that print as v with d decimals:
 * [v - 0.5·10^-d, v + 0.5·10^-d]. */
void pr_stats_printed_interval(double v, int d, double *lo, double *hi);
/* 1 when a ratio printed as s with ds decimals can be num ÷ den, num and
 * den printed with dn and dd decimals: the interval s's rounding allows
 * meets the interval of quotients the inputs' rounding allows. */
int pr_stats_ratio_consistent(double s, int ds, double num, int dn, double den, int dd);

#endif
