/* rectrace: the "step_trace" key of a result record (docs/data-model.md,
 * "Step trace"): every record a parse rule read, per run, in log order,
 * with its line, its value in the figure's unit and a status character.
 * measure writes it (measure/2-parse/parsetrace.c); record_load.c checks it when a
 * record loads, through pr_rectrace_check; gen draws it (gen/4-charts/steptrace.c)
 * from the checked JSON only.  What both sides must agree on lives here.
 */
#ifndef PR_RECTRACE_H
#define PR_RECTRACE_H

#include "err.h"
#include "jdoc.h"

/* The most points one run's trace holds (records beyond are binned). */
#define PR_RECTRACE_CAP 2000
/* The status characters a trace may hold, in one string (K kept, W
 * warm-up, L/H trimmed low/high, M median, P picked, N not picked, U used
 * by a failed run, I ignored, C not a clean number, S other step, R other
 * rank, X a bin of several). */
#define PR_RECTRACE_CODES "KWLHMPNUICSRX"

/* The scales a trace's values may be converted by, NULL-terminated. */
extern const char *const pr_rectrace_scales[];

/* Checks the step_trace object at c: keys, version 1, the scale and
 * factor, and per run records, bin, value, lines, values, max (bins only)
 * and status of one length, as many points as records / bin (rounded up),
 * status characters from PR_RECTRACE_CODES.  0, or -1 with err naming the
 * file, line and field. */
int pr_rectrace_check(const pr_jdoc_jcur *c, pr_err *err);

#endif
