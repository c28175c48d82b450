/* checkpage: the content checks of one parsed report page, beside the link
 * checks of check.c: what a reader would see as residue.
 *
 *   - visible-escape: text (outside code spans and code blocks; table
 *     cells, headings, link text and image alt text included) that renders
 *     a backslash before an ASCII punctuation character.  "max\_144" in the
 *     Markdown renders "max_144"; "max\\\_144" (escaped twice) renders
 *     "max\_144", on GitHub and in the site.
 *   - empty-row: a table row none of whose figure cells holds anything but
 *     "—" or nothing; or a row whose figure cells are "—", TODO and a 0 (a
 *     planned case with 0 runs: the summary table says TODO already).
 *   - empty-table: a table none of whose figure cells holds a figure or a
 *     state other than TODO, and not all TODO (TODO beside dashes: a
 *     published table made only of TODO rows, say).  A table whose figure
 *     cells are all TODO lists planned cases and passes; a table with no
 *     body row fails.
 *   - inapplicable-column: a speedup or scaling-efficiency column (a header
 *     containing 加速比, 扩展效率, "speedup" or "efficiency", any case) on a
 *     page that measures the machine.  The generator marks such a page with
 *     the HTML comment PR_CHECK_HARDWARE_MARK (invisible on GitHub and in
 *     the site) on a line of its own.
 *
 * Figure cells: the generator aligns figure columns right (---:) and label
 * columns left.  A table's key columns are its leading columns that are not
 * right-aligned; when its first column is right-aligned (the model pages'
 * node and GPU counts), the leading columns (at most two) whose every body
 * cell is a whole number.  Figure cells are the right-aligned cells after
 * the keys.  A cell's text is what it renders (link text, code).
 */
#ifndef PR_CHECKPAGE_H
#define PR_CHECKPAGE_H

#include <cmark-gfm.h>

#include "check.h"

#define PR_CHECK_HARDWARE_MARK "<!-- perfrepro-kind: hardware -->"

/* Called once per problem: msg is the message (borrowed for the call). */
typedef void (*checkpage_fn)(void *ctx, pr_check_kind kind, int line, const char *msg);

/* Runs the checks above over the document root (parsed by cmarkx_parse
 * with CMARK_OPT_NORMALIZE, so that text is never split over nodes). */
void checkpage_run(cmark_node *root, checkpage_fn fn, void *ctx);

#endif
