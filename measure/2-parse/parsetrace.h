/* parsetrace: the record's "step_trace" (docs/data-model.md#step-trace):
 * per run of a parsed case, every record the rule read, in log order, with
 * its line, its value in the figure's unit and what became of it, coded
 * one character per record with the statuses `parse --explain` lists
 * (explain.c; both mark records through recmark.c).  gen draws it beside
 * the figure (gen/4-charts/steptrace.c); gen never re-reads logs.
 *
 * Made from one more reading of the logs (parse_scan, parse_reduce
 * with the rule's own keys, recmark_mark_used), so it says what the plain parse
 * did.  Bounded: above PR_STEPTRACE_CAP records a run's records are binned
 * (consecutive records per point, the bin's min and max), and above
 * PR_STEPTRACE_MAX_RECORDS listed records no scan is made at all (the
 * field says so): the scan keeps about 24 bytes per record.
 */
#ifndef PR_PARSETRACE_H
#define PR_PARSETRACE_H

#include <jansson.h>
#include <stddef.h>

#include "err.h"
#include "parse.h"
#include "rule.h"

/* The most points a run's trace holds before its records are binned. */
#define PR_STEPTRACE_CAP 2000
/* The most listed records (all runs) a trace is made from. */
#define PR_STEPTRACE_MAX_RECORDS 1000000ULL

/* One character per record (docs/data-model.md#step-trace). */
#define PR_ST_KEPT 'K'        /* used and kept (mean, trimmed mean's middle) */
#define PR_ST_WARMUP 'W'      /* skipped as warm-up ("skip") */
#define PR_ST_TRIM_LOW 'L'    /* trimmed_mean: dropped at the low end */
#define PR_ST_TRIM_HIGH 'H'   /* trimmed_mean: dropped at the high end */
#define PR_ST_MEDIAN 'M'      /* median: the middle record(s) */
#define PR_ST_PICKED 'P'      /* last/max/min/best: the record taken */
#define PR_ST_NOT_PICKED 'N'  /* last/max/min/best: used, not taken */
#define PR_ST_USED_FAILED 'U' /* used by a run that failed (no value) */
#define PR_ST_IGNORED 'I'     /* no usable value, a negative rate, ... */
#define PR_ST_NOT_CLEAN 'C'   /* a value that is not a clean number */
#define PR_ST_OTHER_STEP 'S'  /* a DLLogger line of a step the rule does not take */
#define PR_ST_OTHER_RANK 'R'  /* a line of a rank the rule does not read */
#define PR_ST_MIXED 'X'       /* a bin of records of several statuses */

/* The step_trace of rule on logs[0..nlogs) (a new object the caller owns),
 * or NULL when a log cannot be read (the parse itself fails then).
 * listed: the records the plain parse listed (seen, ignored, other steps
 * and ranks), which decides whether a scan is made at all.  Never fails
 * otherwise. */
json_t *parsetrace_steptrace_make(const pr_rule *rule, const char *const *logs, size_t nlogs,
                                  const pr_parse_args *args, unsigned long long listed);

/* The status character of a record from its pr_rec_status, its PR_MARK_*
 * and whether its run failed (one rule for the trace, tested beside
 * explain's words). */
char parsetrace_steptrace_code(int status, int mark, int run_failed);

#endif
