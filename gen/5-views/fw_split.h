/* fw_split: a framework page's detail of each machine (platform) on a page
 * of its own beside it (issue 34: a framework page a reviewer reads on
 * GitHub stays under 30 KB).  The platform page, PLATFORM-<slug>.md, holds
 * the machine's environment, the steps of the run sets that ran on it, its
 * full result section (every configuration's table, chart and footnote, the
 * published tables) and its logs; the framework page keeps, per machine,
 * its summary table (each figure linked to its log and audit line, with its
 * marks) and a one-line link to the page.  Pages sit in the framework's
 * folder, so every relative link of the view stays right.
 *
 * Memory: fw_split_pages returns a new array the caller frees
 * (json_decref): one {"path", "view"} per platform page, path relative to
 * the framework's folder; it edits view (borrowed) into the framework
 * page's view.
 */
#ifndef PR_FW_SPLIT_H
#define PR_FW_SPLIT_H

#include <jansson.h>

#include "template/lang.h"

/* The page name stem of a platform page: PLATFORM-<slug>. */
#define FW_SPLIT_STEM "PLATFORM"

json_t *fw_split_pages(json_t *view, const lang *l);

#endif
