/* fw_tables: the tables of a framework page (page_framework.c). */
#ifndef PR_FW_TABLES_H
#define PR_FW_TABLES_H

#include "buf.h"
#include "err.h"
#include "lang.h"
#include "rmodel.h"
#include "view.h"

/* The reproduction table of configuration c of f: appended to out; links
 * are relative to page_rel. */
void fwt_repro_table(const rm_world *w, const lang *l, const rm_fw *f, const rm_cfg *c,
                     const char *page_rel, vw_notes *nt, pr_buf *out, pr_err *err);
/* "Source: ..." of published table t. */
void fwt_source_line(const lang *l, const pr_pub_table *t, pr_buf *out, pr_err *err);
/* Published table t as its source printed it, with the speedup its own
 * figures give beside a printed one. */
void fwt_pub_table(const lang *l, const rm_fw *f, const pr_pub_table *t, vw_notes *nt,
                   pr_buf *out, pr_err *err);
/* The summary of one platform's configurations f->cfgs[first, end). */
void fwt_summary_table(const rm_world *w, const lang *l, const rm_fw *f, size_t first,
                       size_t end, const char *page_rel, vw_notes *nt, pr_buf *out,
                       pr_err *err);

/* Decimals a published number was printed with (at least 1, at most 4). */
int fwt_printed_decimals(double v);
/* 1 when row r's printed speedup cannot be its figure ÷ the baseline's:
 * no values the printed decimals of the three allow give it
 * (docs/statistics.md#printed-precision). */
int fwt_speedup_disagrees(const pr_pub_row *r, const pr_pub_row *base);
/* The run set of the imported log behind published row r of t: a record
 * of f from t's own repository, of t's platform, batch size, the mode t
 * pairs with, and r's nodes and GPUs; NULL when none. */
const pr_run *fwt_pub_row_run(const rm_fw *f, const pr_pub_table *t, const pr_pub_row *r);

#endif
