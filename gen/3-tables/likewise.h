/* likewise: like with like in a cross-framework comparison (issue 30,
 * item 2).  For the columns of a model configuration (rmodel.h rmodel_mcfg):
 * each column's estimator in words (from its records' parse rules: which
 * records count, which reducer), and the configuration facts its logs
 * state of themselves (the records' log_facts: precision mode and AMP
 * level, memory format, data loader, loss scaling), each normalised by one
 * row of a table of concepts and linked to the log line that printed it.
 * A ranking ("×1.86") is given only where every column states every fact
 * alike and the estimators are the same; otherwise the note says which
 * facts differ, and the figures stand side by side.
 *
 * Memory: likewise_build returns a comparison the caller frees with likewise_free; it
 * borrows mc, which must outlive it.  The text functions append to the
 * caller's buffer.
 */
#ifndef PR_LIKEWISE_H
#define PR_LIKEWISE_H

#include "2-model/rmodel.h"
#include "buf.h"
#include "err.h"
#include "template/lang.h"

typedef struct likewise_cmp likewise_cmp;

/* The comparison of mc's columns, over the rows rows[0..nrows) (NULL, 0:
 * every row of mc); NULL when mc has fewer than two columns with figures. */
likewise_cmp *likewise_build(const rmodel_mcfg *mc, const rmodel_row *rows, size_t nrows);
void likewise_free(likewise_cmp *c);

/* 1 when the columns are like with like: every column's records state
 * every concept, with one value across all columns, and one estimator. */
int likewise_alike(const likewise_cmp *c);

/* The note under a table, as Markdown (a list): the estimators, the facts
 * that differ (each value linked to its log line, from page_rel), those not
 * stated, and the ranking or why there is none. */
void likewise_markdown(const rmodel_world *w, const lang *l, const likewise_cmp *c,
                       const char *page_rel, pr_buf *out, pr_err *err);

/* One sentence of plain text (a chart's caption and alt text): the ranking,
 * or which facts differ. */
void likewise_plain(const lang *l, const likewise_cmp *c, pr_buf *out, pr_err *err);

/* The index's line under a headline, as Markdown: lw_plain's sentence, then
 * each figure's estimator. */
void likewise_summary_md(const lang *l, const likewise_cmp *c, pr_buf *out, pr_err *err);

#endif
