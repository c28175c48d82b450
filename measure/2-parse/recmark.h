/* recmark: what became of a run's used records beyond "kept", as the
 * reducer used them.  Shared by `parse --explain` (explain.c) and the
 * record's step_trace (parsetrace.c), so that both say the same of every
 * record. */
#ifndef PR_RECMARK_H
#define PR_RECMARK_H

#include <stddef.h>

#include "parse.h"
#include "rule.h"

/* What is said of a used record (status PR_REC_USED), beyond "kept". */
enum {
    PR_MARK_NONE,
    PR_MARK_TRIM_LOW,  /* trimmed_mean: dropped at the low end */
    PR_MARK_TRIM_HIGH, /* trimmed_mean: dropped at the high end */
    PR_MARK_MEDIAN,    /* median: the middle one (or one of the two) */
    PR_MARK_PICKED,    /* last/max/min/best: the record taken */
    PR_MARK_NOT_PICKED /* last/max/min/best: used, not the one taken */
};

/* Marks the used records of one run (status st[i] == PR_REC_USED) as the
 * reducer used them: trimmed at either end (among equal values, the
 * earlier line first), the middle of a median, the record picked by
 * last/max/min/best (the first of equal maxima, as the reducer keeps it).
 * recs, st: the run's n listed records and their statuses
 * (parse_reduce); t: the run's trace.  mark[] (n entries, zeroed by the
 * caller) gets a PR_MARK_* per record; *pick the picked record's index or
 * (size_t)-1; mid[] the median's middle records or (size_t)-1.  Allocates
 * and frees its own scratch only. */
void recmark_mark_used(const pr_rulecfg_cfg *c, const pr_scan_rec *recs, size_t n,
                       const unsigned char *st, const pr_run_trace *t, unsigned char *mark,
                       size_t *pick, size_t mid[2]);

#endif
