/* fw_pubtab: a framework page's published figures, as few tables as the
 * facts allow (page_framework.c).
 *
 * Per platform one table of the newest revision of each published source
 * of each configuration: a row per configuration and source (its link,
 * variant, date, note, primary mark), a column per device count, each cell
 * the figure as printed (with its audit verdict linked to its row when the
 * audit covers it, compare.h) with the speedup and scaling efficiency its
 * own figures give and the speedup the source printed.  Older revisions of a
 * source (same label and repository, an older date) go to one "published
 * over time" table per platform (a row per revision, a column per
 * configuration and device count) instead of one table each.
 *
 * Memory: everything appends to the caller's pr_buf; nothing is returned.
 */
#ifndef PR_FW_PUBTAB_H
#define PR_FW_PUBTAB_H

#include "2-model/rmodel.h"
#include "buf.h"
#include "err.h"
#include "template/lang.h"
#include "view.h"

/* 1 when published table t of configuration c is an older revision of a
 * source another table of c gives, with figures, in a newer one. */
int fw_pubtab_is_older(const rmodel_fw *f, const rmodel_cfg *c, const pr_pub_table *t);

/* The newest revision of each source of each configuration of
 * f->cfgs[first, end) (one platform; links relative to page folder
 * page_rel, the audit w->audit's) that has a figure, as one table: a
 * row per configuration and source, the primary first within its
 * configuration; nothing when there are none.  Sets the notes it needs in
 * nt. */
void fw_pubtab_platform_table(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                              size_t first, size_t end, const char *page_rel, view_notes *nt,
                              pr_buf *out, pr_err *err);

/* The older revisions of the configurations f->cfgs[first, end) (one
 * platform) as one table: a row per revision (the same file at the same
 * commit, newest first), a column per configuration and device count;
 * nothing when there are none. */
void fw_pubtab_over_time_table(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                               size_t first, size_t end, const char *page_rel, view_notes *nt,
                               pr_buf *out, pr_err *err);

/* 1 when a framework page shows published table t under configuration c
 * (in the newest revisions' table or the over-time one): its figures pair
 * with c and it prints a figure or a state other than TODO. */
int fw_pubtab_shown(const rmodel_cfg *c, const pr_pub_table *t);
/* The speedup and scaling efficiency (percent) the page shows beside row r
 * of t (shown under framework f), computed from t's own figures
 * (fw_tables.h, fw_tables_pub_speedup); 0 and NAN both when it shows none (r is
 * the 1-GPU row, t has no 1-GPU figure, a CPU table of one process count,
 * or the source's own logs show r and the 1-GPU figure to be of two run
 * sets: speedups within one run set only).  The logs are the ones audit
 * (may be NULL) pairs with the figures (a log of another batch size the
 * source links from the cell too), else f's records of the figures' case. */
int fw_pubtab_row_scaling(const struct audit_model *audit, const rmodel_fw *f,
                          const pr_pub_table *t, const pr_pub_row *r, double *speedup,
                          double *eff_pct);

#endif
