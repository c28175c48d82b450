/* fw_tables: the tables of a framework page (page_framework.c). */
#ifndef PR_FW_TABLES_H
#define PR_FW_TABLES_H

#include "buf.h"
#include "err.h"
#include "lang.h"
#include "rmodel.h"
#include "view.h"

/* The reproduction table of configuration c of f: appended to out; links
 * are relative to page_rel.  Here and in the summary, each figure the
 * audit (w->audit) covers links its verdict (compare.h). */
void fwt_repro_table(const rm_world *w, const lang *l, const rm_fw *f, const rm_cfg *c,
                     const char *page_rel, vw_notes *nt, pr_buf *out, pr_err *err);
/* The summary of one platform's configurations f->cfgs[first, end). */
void fwt_summary_table(const rm_world *w, const lang *l, const rm_fw *f, size_t first,
                       size_t end, const char *page_rel, vw_notes *nt, pr_buf *out,
                       pr_err *err);

#endif
