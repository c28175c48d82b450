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

#endif
