/* fw_tables: the tables of a framework page (page_framework.c). */
#ifndef PR_FW_TABLES_H
#define PR_FW_TABLES_H

#include "2-model/rmodel.h"
#include "buf.h"
#include "err.h"
#include "fw_columns.h"
#include "template/lang.h"
#include "view.h"

/* The reproduction table of configuration c of f: appended to out; links
 * are relative to page_rel.  Here and in the summary, each figure the
 * audit (w->audit) covers links its verdict (compare.h). */
void fw_tables_repro_table(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                           const rmodel_cfg *c, const char *page_rel, view_notes *nt, pr_buf *out,
                           pr_err *err);
/* The same with the columns cols[0, ncols) (fw_columns.h: fw_columns,
 * or a longer table in a test). */
void fw_tables_repro_table_of(const fw_columns_column *cols, size_t ncols, const rmodel_world *w,
                              const lang *l, const rmodel_fw *f, const rmodel_cfg *c,
                              const char *page_rel, view_notes *nt, pr_buf *out, pr_err *err);
/* The summary of one platform's configurations f->cfgs[first, end). */
void fw_tables_summary_table(const rmodel_world *w, const lang *l, const rmodel_fw *f, size_t first,
                             size_t end, const char *page_rel, view_notes *nt, pr_buf *out,
                             pr_err *err);

/* What the tables compute, for every view that must say the same (the
 * export, export.h): the numbers before the page rounds them. */

/* 1 when configuration c of f has speedup and efficiency columns: not on
 * a hardware suite (a bandwidth is no multiple of the 1-GPU one), and on
 * a CPU machine only with two process counts. */
int fw_tables_has_scaling(const rmodel_fw *f, const rmodel_cfg *c);
/* 1 when cell rc and the 1-GPU cell base are figures of one run set read
 * with one parse rule: a speedup is computed within one run set only, never
 * across sources, clusters, dates or rules (docs/data-model.md#run-sets). */
int fw_tables_same_runset(const rmodel_cell *rc, const rmodel_cell *base);
/* 1 when rc's figure and its 1-GPU baseline base were read with two parse
 * rules. */
int fw_tables_rules_differ(const rmodel_cell *rc, const rmodel_cell *base);
/* The speedup of cell rc (of c) against c's base cell (rmodel_base_cell:
 * 1 GPU, else the smallest count measured) and its scaling efficiency in
 * percent, as its reproduction table shows them; 0 and NAN both when the
 * table shows none (no column, no run, no baseline,
 * or the two are not of one run set and rule: fw_tables_same_runset). */
int fw_tables_cell_scaling(const rmodel_fw *f, const rmodel_cfg *c, const rmodel_cell *rc,
                           double *speedup, double *eff_pct);
/* The same computation for a figure value at gpus against a baseline
 * figure base at base_gpus (fw_pubtab.c: its table's 1-GPU figure): the
 * speedup, *eff_pct in percent (efficiency over the count ratio). */
double fw_tables_pub_speedup(pr_unitdir_dir dir, double value, double base, int base_gpus, int gpus,
                             double *eff_pct);
/* The global batch of cell rc of c: the record's metrics.global_batch_size
 * when it states one, else the per-GPU batch × GPUs; -1 when unknown. */
long fw_tables_global_batch(const rmodel_cfg *c, const rmodel_cell *rc);
/* 1 when f's figures at global batch batch have no speedup against a
 * baseline at base_batch: a lower-is-better figure (a time) at another or
 * an unknown global batch is other work.  Rates are never blocked. */
int fw_tables_batch_blocks(const rmodel_fw *f, long batch, long base_batch);

/* The verdict on the gap between cell rc's median and published row pr
 * (docs/statistics.md#gaps): none (no figure or no run), insufficient
 * (fewer than PR_STATS_MIN_RUNS_GAP runs: shown, never flagged), within,
 * or differs (flagged ⚠️).  *gap_pct gets (median − figure) ÷ figure in
 * percent, NAN with none. */
typedef enum {
    FWT_GAP_NONE,
    FWT_GAP_INSUFFICIENT,
    FWT_GAP_WITHIN,
    FWT_GAP_FLAGGED,
} fw_tables_gap_verdict;
fw_tables_gap_verdict fw_tables_gap(const rmodel_fw *f, const rmodel_cell *rc, const pr_pub_row *pr,
                                    double *gap_pct);
/* The verdict as a key: "", "insufficient", "within", "differs". */
const char *fw_tables_gap_key(fw_tables_gap_verdict v);

#endif
