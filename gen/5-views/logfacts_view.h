/* logfacts_view: what a run set's logs state about their own runs (the
 * records' log_facts, lib/recfacts.h), as items of a framework page's
 * environment section: the container, framework, GPU, driver, CUDA, cuDNN
 * and NCCL each distinct value once, the command as the first log printed
 * it, and where each log's argument dump starts.  Every value is linked to
 * the log line that printed it.  What the logs say is shown beside what the
 * source's README says, never in its place: where they disagree, the page
 * shows both.
 *
 * Memory: logfacts_view_items returns a new JSON array the caller owns.
 */
#ifndef PR_LOGFACTS_VIEW_H
#define PR_LOGFACTS_VIEW_H

#include <jansson.h>

#include "2-model/rmodel.h"
#include "template/lang.h"

/* The items [{label, value}] (value Markdown) of the logs of recs[0..nrecs),
 * records of run (those a page shows), links relative to page_rel;
 * *software set when they name any software. */
json_t *logfacts_view_items(const rmodel_world *w, const lang *l, const pr_run *run,
                            const pr_record *const *recs, size_t nrecs, const char *page_rel,
                            int *software);

#endif
