/* flags: whether a figure is flagged ❗ (sanity.h), decided in one place
 * for every view that shows it.
 *
 * A cell of a framework configuration stands for one figure (rmodel.h,
 * its origin): the median of its runs, or its primary published table's
 * figure.  That figure is flagged when the rules flag it in the table the
 * framework page shows it in:
 *
 *   - runs: the series of the configuration's medians (efficiency above
 *     100 %, a jump per device, a fall), a figure read from fewer than
 *     SN_FEW_RECORDS records of its log, and one with an unsteady run
 *     (its record's "steady", lib/steady.h);
 *   - published: the series of its table as the source printed it, and a
 *     table identical to another of its source.
 *
 * flags_world sets every cell's flagged once (rmodel_build calls it); the notes
 * functions write the same decisions as marks and footnotes, so that a
 * page flags a figure exactly when rmodel_cell.flagged says so.  (A speedup
 * whose baseline comes from another source, run set or rule is the
 * speedup's flag, not the figure's: fw_tables.c marks it in its speedup
 * cell.)
 *
 * Memory: everything appends to the caller's buffers; nothing is kept.
 */
#ifndef PR_FLAGS_H
#define PR_FLAGS_H

#include "buf.h"
#include "err.h"
#include "rmodel.h"
#include "sanity.h"
#include "template/lang.h"

/* The flag pass: sets flagged on every cell of every framework
 * configuration of w. */
void flags_world(rmodel_world *w);

/* The marks and footnotes of the figures configuration c (of framework f)
 * stands for: marks[i] (room for c->ncells; may be NULL) gets cell i's
 * marks, sn the footnotes.  only (one of c's cells, or NULL for all):
 * write that cell's flags only.  Returns the flags written. */
size_t flags_cfg_notes(const lang *l, const rmodel_fw *f, const rmodel_cfg *c,
                       const rmodel_cell *only, pr_buf *marks, sanity_notes *sn, pr_err *err);

/* Whether row of published table t (of framework f) is flagged in t as its
 * source printed it (its series, an identical twin), and its notes. */
int flags_pub_row_flagged(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *row);
size_t flags_pub_row_notes(const lang *l, const rmodel_fw *f, const pr_pub_table *t,
                           const pr_pub_row *row, pr_buf *mark, sanity_notes *sn, pr_err *err);

/* The run set of the imported log behind published row r of t (shown
 * under f): a record of f from t's own repository and platform, of t's
 * batch size, the mode t pairs with (pairing.h), r's nodes and GPUs; NULL
 * when none.  The series rules compare a table's figures within one run
 * set (sanity.h), and the pages say which run set a figure is of. */
const pr_run *flags_pub_row_run(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *r);
/* Published row r of t (shown under f) as the series rules see it
 * (sanity.h): its count, figure as printed, run set and direction. */
sanity_point flags_pub_point(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *r);

/* The records (steps) rc's successful runs read from their logs, summed;
 * -1 when a record does not say.  *summary set when a run's figure is what
 * its log prints as a summary (one record stands for the run). */
long long flags_cell_records(const rmodel_cell *rc, int *summary);
/* The same counted from rc's records, once a cell by rmodel_build (what
 * flags_cell_records returns: every table and export row asks). */
long long flags_count_records(const rmodel_cell *rc, int *summary);
/* 1 when rc's runs rest on fewer than SN_FEW_RECORDS records. */
int flags_few_records(const rmodel_cell *rc, long long *records);

/* The flags as bits, for views that list them by name (the export): the
 * series rules' (sanity.h: SN_SUPERLINEAR, SN_FALLS, SN_JUMP) and these. */
enum { FL_FEW_RECORDS = 8, FL_IDENTICAL = 16, FL_UNSTEADY = 32, FL_CROSS_RUN_SET = 64 };
/* The flags of rc's runs (a cell of c with a run): its point of the runs'
 * series, few records, unsteady runs, and cross_run_set when c's 1-GPU
 * figure, its speedup's baseline, is of another run set; 0 when it has no
 * run. */
unsigned flags_cell_bits(const rmodel_cfg *c, const rmodel_cell *rc);
/* The flags of row of published table t (of f) as its source printed it:
 * its series and an identical twin; 0 for a state. */
unsigned flags_pub_row_bits(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *row);
/* Appends the bits' keys joined by ';' ("superlinear;few_records"), in
 * that order: superlinear, falls, jump, few_records, identical, unsteady,
 * cross_run_set. */
void flags_bits_keys(unsigned bits, pr_buf *out);

#endif
