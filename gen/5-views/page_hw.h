/* page_hw: the per-point section of a hardware framework page.
 *
 * Hardware suites keep each run's whole table (metrics.table or .series):
 * the page shows them merged by size or shape (sweep.h), the ratios the
 * suite's "compare" entries ask for (against its own columns or another
 * framework's of the same model) with their targets, each column's share of
 * the theoretical peak, and a chart (chartspec.h).
 */
#ifndef PR_PAGE_HW_H
#define PR_PAGE_HW_H

#include <jansson.h>
#include <stddef.h>

#include "2-model/rmodel.h"
#include "2-model/sweep.h"
#include "4-charts/chartspec.h"
#include "err.h"
#include "template/lang.h"

/* Sets view's "sweep" (left out when no record of f carries a table) for
 * the page of f in folder page_rel, queueing its chart on oc.  Returns 0,
 * or -1 with err set when f's tables cannot be merged or a compare names a
 * framework the model lacks. */
int page_hw_view(const rmodel_world *w, const lang *l, const rmodel_fw *f, const char *page_rel,
                 chartspec_queue *oc, json_t *view, pr_err *err);

#endif
