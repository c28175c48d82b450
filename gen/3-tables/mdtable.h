/* mdtable: the pieces of the Markdown tables and links pages are made of:
 * rows and heads, links to files, pages and logs, and the cells that show
 * a figure or a state.
 *
 * Memory: everything appends to a caller's pr_buf; cells arrays are the
 * caller's (mdtable_cells_free frees their buffers, not the array).
 */
#ifndef PR_MDTABLE_H
#define PR_MDTABLE_H

#include <stddef.h>

#include "2-model/rmodel.h"
#include "buf.h"
#include "template/lang.h"
#include "view.h"

/* A row of n cells (Markdown already), and a head of n plain texts (escaped
 * here), numeric (right-aligned) from column numeric_from on. */
void mdtable_row(pr_buf *out, pr_buf *cells, size_t n);
void mdtable_head(pr_buf *out, const char *const *heads, size_t n, int numeric_from);
void mdtable_cells_clear(pr_buf *cells, size_t n);
void mdtable_cells_free(pr_buf *cells, size_t n);

/* A link to a file: target is a relative path, percent-encoded whole (a
 * '#', '?' or ')' in a folder name from data is part of the path). */
void mdtable_link(pr_buf *out, const char *text_md, const char *target);
/* A link to a URL (its query and fragment kept). */
void mdtable_link_url(pr_buf *out, const char *text_md, const char *url);
/* A link to the README of folder dir (relative to the current page), its
 * text the escaped title. */
void mdtable_page_link(pr_buf *out, const char *title, const char *dir, const lang *l);
/* A link to a record's log from page dir page_rel (text_md alone when the
 * record has no log). */
void mdtable_log_link(const rmodel_world *w, const char *page_rel, const pr_run *run,
                      const pr_record *r, const char *text_md, pr_buf *out);
/* The same, to line line of the log (#L<line>; none when line is 0). */
void mdtable_log_line_link(const rmodel_world *w, const char *page_rel, const pr_run *run,
                           const pr_record *r, int line, const char *text_md, pr_buf *out);

/* The state word of a failed case: OOM for out of memory, else "failed"
 * (borrowed from l). */
const char *mdtable_fail_word(const lang *l, const pr_record *r);

/* A figure as tables print it (PR_DECIMALS_VALUE); with decimals, or the
 * "none" word when v is NAN. */
void mdtable_value(pr_buf *out, double v);
/* A published figure as its source printed it ("19.428", "428"), else in
 * the shortest form of its number (never re-rounded to two decimals). */
void mdtable_pub_value(pr_buf *out, const pr_pub_row *row);
void mdtable_optional(pr_buf *out, const lang *l, double v, int decimals);

/* One cell of a summary, cross-framework or index table: the median of
 * its runs (linked to its log; ‡ when they are imported logs), else the
 * failure, else the primary published figure (†), else the planned or
 * published state.  Sets the notes it needs when nt is not NULL. */
void mdtable_summary_cell(const rmodel_world *w, const lang *l, const rmodel_cell *rc,
                          const char *page_rel, view_notes *nt, pr_buf *out);
/* A precision mode as pages name it ("AMP", "FP16"), appended to out. */
void mdtable_mode_name(const char *precision, pr_buf *out);

#endif
