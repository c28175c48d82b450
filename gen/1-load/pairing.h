/* pairing: which precision mode a published table's figures pair with.
 *
 * A source prints a column "FP16" whose figures its logs show were run
 * with AMP (O1) at some GPU counts and pure FP16 (O2) at others.  Pairing
 * row by row would stack two levels in one column.  The rule
 * (docs/data-model.md#pairing-by-exact-mode): per table, among its own
 * mode and the other modes of its precision class, the mode whose imported
 * logs (from the table's own source repository, same model, framework,
 * platform and batch size) cover the most of its rows; a tie keeps the
 * table's own mode.  Every row of the table then pairs with logs of that
 * mode, and a table paired with another mode than it prints says so.
 *
 * Memory: sets pr_pub_table.paired_precision, a static string.
 */
#ifndef PR_PAIRING_H
#define PR_PAIRING_H

#include "data.h"

/* Decides the pairing mode of every published table of d (restated tables
 * keep their own: the audit pairs their rows one by one). */
void pairing_tables(pr_dataset *d);
/* 1 when record r (its platform rp) is a log of published row row of t from
 * t's own repository: the same model, framework, platform, nodes and GPUs,
 * and unless any_bs t's batch size (t printing a plain one).  The
 * precision mode is the caller's to check. */
int pairing_pub_row_log(const pr_record *r, const pr_platform *rp, const pr_pub_table *t,
                        const pr_pub_row *row, int any_bs);
/* The mode t's figures pair with: its paired mode, else the one it prints. */
const char *pairing_pub_mode(const pr_pub_table *t);

#endif
