/* page_history: the history pages (history.h).
 *
 *   OUT/<Model>/<Framework>/HISTORY.md, HISTORY.en.md  per framework that has
 *         history: per series a dated table (date, figure, interval and
 *         coverage, runs, limits, state, change point, source) and a chart
 *         (chart_history.h)
 *   OUT/REGRESSIONS.md, REGRESSIONS.en.md  every point judged other than ok
 *         and every change point, newest first, linked to its history page
 *   OUT/regressions.atom, regressions.en.atom  the same as an Atom feed (RFC 4287): deterministic,
 *         its <updated> the newest point's date, entry ids tag: URIs of the
 *         series and the point's date
 *
 * Memory: the views are new objects the caller frees (json_decref), or
 * NULL with err set.
 */
#ifndef PR_PAGE_HISTORY_H
#define PR_PAGE_HISTORY_H

#include <jansson.h>

#include "2-model/history.h"
#include "2-model/rmodel.h"
#include "4-charts/chartspec.h"
#include "buf.h"
#include "err.h"
#include "template/lang.h"

#define PH_HISTORY_ZH "HISTORY.md"
#define PH_HISTORY_EN "HISTORY.en.md"
#define PH_REGRESSIONS_ZH "REGRESSIONS.md"
#define PH_REGRESSIONS_EN "REGRESSIONS.en.md"
#define PH_FEED_ZH "regressions.atom"
#define PH_FEED_EN "regressions.en.atom"

/* The history page of model/framework (framework NULL: every series of the
 * set, as `perfrepro-gen history --format md` prints it) at page_rel
 * (relative to the output folder).  Charts are drawn and emitted through
 * oc (its emit, ctx and charts; oc NULL: none). */
json_t *page_history_view(const rmodel_world *w, const lang *l, const history_set *s,
                          const char *model, const char *framework, const char *page_rel,
                          const chartspec_queue *oc, pr_err *err);
/* The REGRESSIONS page at the top of the output folder. */
json_t *page_history_regressions_view(const rmodel_world *w, const lang *l, const history_set *s,
                                      pr_err *err);
/* Whether s has a series of model/framework. */
int page_history_has_history(const history_set *s, const char *model, const char *framework);
/* The Atom feed of s's notable points in l's language (links to the English
 * or Chinese history pages, relative to the output folder), appended to
 * out. */
void page_history_atom(const lang *l, const history_set *s, pr_buf *out, pr_err *err);

#endif
