/* fw_split: a framework page's detail of each machine (platform) on pages
 * of its own beside it (issue 34: every page a reviewer reads on GitHub
 * stays under 30 KB, its first result table within 80 lines).  The
 * machine's page, PLATFORM-<slug>.md, opens with its full result section
 * (every configuration's table, chart and footnote, the published tables),
 * then the machine's environment, its logs and the notes; the steps of the
 * run sets that ran on it are its steps page, PLATFORM-<slug>-steps.md.
 * The framework page keeps, per machine, its summary table (each figure
 * linked to its log and audit line, with its marks) and one-line links to
 * both.  Pages sit in the framework's folder, so every relative link of the
 * view stays right.
 *
 * Memory: fw_split_pages returns a new array the caller frees
 * (json_decref): {"path", "view"} per page, path relative to the
 * framework's folder; it edits view (borrowed) into the framework page's
 * view.  NULL and err when two platforms would write one page name.
 */
#ifndef PR_FW_SPLIT_H
#define PR_FW_SPLIT_H

#include <jansson.h>

#include "err.h"
#include "template/lang.h"

/* The page name stem of a platform page: PLATFORM-<slug>. */
#define FW_SPLIT_STEM "PLATFORM"
/* What the steps page adds to the machine page's stem. */
#define FW_SPLIT_STEPS "-steps"

json_t *fw_split_pages(json_t *view, const lang *l, pr_err *err);

#endif
