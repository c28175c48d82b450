/* fitcalc: the reductions `parse --fit` tries, from one sort per run.
 *
 * --fit reduces each case under every skip from 0 to max_skip with every
 * reducer and trim (fit.c).  One parse_reduce replays a case's records
 * and sorts the used ones for a median or trimmed mean: max_skip ×
 * reducers × n log n for a search, 90 s for a log of a million records.
 * fitcalc reads each run's records under one step once, sorts them once,
 * and answers every (skip, reducer, trim) from that:
 *
 *   - last, max, min and best: suffix extremes, one pass from the end;
 *   - median and the bounds of each trimmed window: order statistics of the
 *     records left after skip, from a Fenwick tree over the sorted
 *     positions (each larger skip removes one record);
 *   - the sums of mean (log order) and trimmed_mean (sorted order) are
 *     added in the order parse_reduce adds them, so every value is the
 *     same double, bit for bit: prefix sums (a total minus a prefix) round
 *     differently, and --fit prints values at full precision.  Sixteen
 *     skips are summed in one pass over the records (sixteen independent
 *     sums, which the compiler keeps in vector registers), only for the
 *     skips and trims asked for.
 *
 * Cost: one sort per run, then about (max_skip / 16) passes over the
 * records for the mean and for each trim tried: a search costs a few
 * parses (docs/parse-rules.md).  Memory: about 24 bytes per record beside
 * the scan's.
 *
 * What it cannot answer that way it hands to parse_reduce, case by case:
 * perfrepro-gpu tables (their unit is checked across runs), a run holding
 * an infinite value (an MLPerf run that did not converge) or -0 (its place
 * among equal values in a sort is unspecified, and it prints), a skip
 * beyond max_skip, a trim not in its list, a step it was not built for.
 */
#ifndef PR_FITCALC_H
#define PR_FITCALC_H

#include <stddef.h>

#include "2-parse/parse.h"
#include "2-parse/rule.h"

typedef struct pr_fitcalc pr_fitcalc;

/* A trim tried with trimmed_mean. */
typedef struct pr_fitcalc_trim {
    double fraction;
    long long min;
} pr_fitcalc_trim;

/* What the searches did, for tests: nothing here depends on the machine's
 * speed. */
typedef struct pr_fitcalc_counts {
    unsigned long long sorts;      /* runs sorted (one per run and step) */
    unsigned long long reductions; /* case values asked for */
    unsigned long long replays;    /* of those, reduced by parse_reduce instead */
    unsigned long long passes;     /* passes over a run's records summing 16 skips */
} pr_fitcalc_counts;

/* Prepares the reductions of scan (read with rule and args, all borrowed
 * and outliving the result) under step (used for profile dllogger) for the
 * skips 0 to max_skip and the trims trims[0..ntrims) (copied).  counts may
 * be NULL; it is borrowed and added to.  Free with fitcalc_free. */
pr_fitcalc *fitcalc_new(const pr_scan *scan, const pr_rule *rule, const pr_parse_args *args,
                        pr_rulecfg_step step, long long max_skip, const pr_fitcalc_trim *trims,
                        size_t ntrims, pr_fitcalc_counts *counts);
void fitcalc_free(pr_fitcalc *fc);

/* The case's value under keys, as parse_reduce(scan, keys, PR_REDUCE_LEAN)
 * gives it: returns 0 with *value set, or 1 when the case fails, with
 * *reason set to its failure's reason (a static string). */
int fitcalc_reduce(pr_fitcalc *fc, const pr_reduce_keys *keys, double *value, const char **reason);

#endif
