/* env_view: the environment section of a framework page.
 *
 * One entry per platform the page's figures are on (in the page's order):
 * the machine as data/platforms/ describes it, then the environment of each
 * source whose figures appear under it, each from that source alone:
 *
 *   - a run's env.json (what perfrepro captured, or what came with imported
 *     logs);
 *   - the suite's "environment", only for measured records of a run that
 *     has no env.json;
 *   - a published file's "environment", labelled with its source.
 *
 * One source's software is never shown for another source's figures (a
 * seed report's PyTorch machine is not the OneFlow figures' machine).
 * Sources that state nothing are named as such; a platform whose sources
 * state no software says so.
 *
 * Memory: env_view returns a new JSON array the caller owns (decref).
 */
#ifndef PR_ENV_VIEW_H
#define PR_ENV_VIEW_H

#include <jansson.h>

#include "2-model/rmodel.h"
#include "err.h"
#include "template/lang.h"

/* The entries of f's page in folder page_rel (for links to env.json):
 * [{title, note?, machine?, sources: [{head, items: [{label, value}]}],
 *   none?, no_software?}], values Markdown already. */
json_t *env_view(const rmodel_world *w, const lang *l, const rmodel_fw *f, const char *page_rel,
                 pr_err *err);

#endif
