/* steptrace: the step trace beside each parsed figure (docs/statistics.md,
 * "Step traces").  A record's step_trace (lib/rectrace.h, written by
 * perfrepro-measure) becomes a chart (chart_trace.c): a small PNG on the
 * framework page's log list, linked to the full-size SVG, one pair per
 * record for both languages (the images hold numbers and symbols only; the
 * words are the alt text, in the page's language).
 *
 * Files: OUT/<Model>/<Framework>/traces/<run>.<record>.small.png and .svg
 * (names of [a-z0-9.-]).  The page side (steptrace_trace_md) and the drawing side
 * (steptrace_emit) compute the same names from the same record.
 */
#ifndef PR_STEPTRACE_GEN_H
#define PR_STEPTRACE_GEN_H

#include "1-load/data.h"
#include "2-model/rmodel.h"
#include "buf.h"
#include "chartspec.h"
#include "err.h"
#include "template/lang.h"

/* The trace sizes: full (SVG) and small (PNG on the page). */
enum { ST_FULL_W = 720, ST_FULL_H = 300, ST_SMALL_W = 320, ST_SMALL_H = 100 };

/* A stall: a record the reducer used whose value (a rate) is below both
 * ST_STALL_FRACTION of the median of its run's used records and that
 * median less ST_STALL_MADS median absolute deviations (so that a noisy
 * log's ordinary spread is not called a stall); runs of at least 5 used
 * records.  docs/statistics.md#step-traces. */
#define ST_STALL_FRACTION 0.9
#define ST_STALL_MADS 5.0

/* Appends to md (a log list item of the framework page at page_rel, i.e.
 * OUT/page_rel/README) record rec's trace: a hard line break and the small
 * image, with the alt text in l's language, linked to the full one; or,
 * for a figure (a case that did not fail) without a trace, a few words
 * saying none was recorded.
 * Nothing when oc draws no charts.  rec is one of run's records. */
void steptrace_trace_md(const rmodel_world *w, const lang *l, const chartspec_queue *oc,
                        const pr_run *run, const pr_record *rec, const char *page_rel, pr_buf *md,
                        pr_err *err);

/* Draws every framework page's traces (one pair per record with a trace)
 * and emits them through oc (in data order).  0, or -1 with err set
 * (naming the file).  Nothing when oc draws no charts. */
int steptrace_emit(const rmodel_world *w, const chartspec_queue *oc, pr_err *err);

#endif
