/* provenance: where a framework page's figures come from, in the page's
 * words.  A platform's title and the words of its kind (GPUs, or processes
 * on a CPU machine: "1×8 GPUs" means nothing there), the figure of a cell
 * with its origin mark (‡ imported, † published), the source of an
 * imported log, and the other sources of a cell.
 *
 * Memory: everything appends to a caller's pr_buf; strings returned are
 * borrowed from the language or the platform.
 */
#ifndef PR_PROVENANCE_H
#define PR_PROVENANCE_H

#include "2-model/rmodel.h"
#include "buf.h"
#include "err.h"
#include "template/lang.h"
#include "view.h"

/* p's title in l's language; the "machine not stated" words when NULL. */
const char *provenance_platform_title(const lang *l, const pr_platform *p);

/* The head of the device-count column ("GPUs", or "Processes" on a CPU
 * machine; a row's label: platform_count_label). */
const char *provenance_col_count(const lang *l, const pr_platform *p);

/* The number of different device counts of c's rows: speedup and
 * efficiency need two. */
size_t provenance_counts(const rmodel_cfg *c);

/* Where record r's log was published, as a link "repo@commit:path" (code),
 * to its url when it has one; nothing when r names no source. */
void provenance_record_source(const pr_record *r, pr_buf *out);

#endif
