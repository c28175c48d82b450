/* sweep: the per-point tables that hardware records carry, merged into one
 * grid per framework page.
 *
 * A perfrepro-gpu record (parse profile "perfrepro-gpu") holds its whole
 * table in metrics.table: rows keyed by a size in bytes or a GEMM shape
 * "MxNxK", one column per variant (copy, read, memcpy; fp16, bf16 ...).  An
 * nccl-tests record holds metrics.series: one column (busbw) by size.  A
 * framework page merges the tables of its cells (a configuration at a GPU
 * count) into one grid: the union of the rows, one column per (variant,
 * cell).  Columns are told apart by name, and by the configuration or the
 * GPU count only where those vary, so a bandwidth table keeps "copy" and
 * the NCCL table says "busbw · 1机8卡".
 *
 * A column's identity for comparisons is its name plus its cell (precision,
 * batch size, nodes, GPUs): "copy" of perfrepro-gpu at FP32 on 1 GPU meets
 * "copy" of PyTorch at FP32 on 1 GPU.
 *
 * Memory: a pr_sweep owns copies of everything added; sweep_free frees it.
 */
#ifndef PR_SWEEP_H
#define PR_SWEEP_H

#include <jansson.h>
#include <stddef.h>

#include "err.h"

typedef struct pr_sweep pr_sweep;

typedef enum { PR_SWEEP_NONE, PR_SWEEP_BYTES, PR_SWEEP_SHAPE } pr_sweep_x;

/* The cell a record belongs to.  cfg_label and gpus_label are display
 * texts ("FP16", "1机8卡"); the rest is identity. */
typedef struct pr_sweep_cell {
    const char *precision;
    int batch_size, nodes, gpus;
    const char *cfg_label, *gpus_label;
} pr_sweep_cell;

/* A value's state in the grid. */
typedef enum { PR_SWEEP_ABSENT, PR_SWEEP_VALUE, PR_SWEEP_NA } pr_sweep_state;

pr_sweep *sweep_new(void);
void sweep_free(pr_sweep *s);

/* Adds the table in metrics (borrowed; NULL or no table: nothing added,
 * returns 0).  unit is the record's UNIT (a series has none of its own).
 * The table's shape was checked when its record was loaded (lib/record_check.c).  A
 * table whose x kind or unit differs from the tables added before is an
 * error naming where (the record's file) and the field: returns -1. */
int sweep_add(pr_sweep *s, const json_t *metrics, const char *unit, const pr_sweep_cell *cell,
              const char *where, pr_err *err);

/* Builds the column labels; call after the last sweep_add. */
void sweep_finish(pr_sweep *s);

pr_sweep_x sweep_xkind(const pr_sweep *s); /* PR_SWEEP_NONE: nothing added */
const char *sweep_unit(const pr_sweep *s);
double sweep_peak(const pr_sweep *s); /* NAN when no table gave one */
size_t sweep_nrows(const pr_sweep *s);
size_t sweep_ncols(const pr_sweep *s);
/* Row r's x: bytes (PR_SWEEP_BYTES) or the shape text "MxNxK". */
double sweep_row_bytes(const pr_sweep *s, size_t r);
const char *sweep_row_shape(const pr_sweep *s, size_t r);
const char *sweep_col_name(const pr_sweep *s, size_t c);
const char *sweep_col_label(const pr_sweep *s, size_t c);
pr_sweep_state sweep_get(const pr_sweep *s, size_t r, size_t c, double *v);

/* The row of s with the same x as row r of other; -1 when none. */
long sweep_find_row(const pr_sweep *s, const pr_sweep *other, size_t r);
/* The column of s named name in the same cell as column c of other (other
 * may be s); -1 when none. */
long sweep_find_col(const pr_sweep *s, const char *name, const pr_sweep *other, size_t c);

/* One ratio a hardware page states (5-views/page_hw.c) and its chart
 * draws: column of_col of the page's table divided by column to_col of to
 * (the same table, or another framework's). */
typedef struct sweep_ratio {
    char *label;
    const pr_sweep *to;
    const char *to_title; /* the other framework's title; NULL: the same one */
    size_t of_col, to_col;
    double target; /* NAN: none */
} sweep_ratio;

typedef struct sweep_ratios {
    sweep_ratio *v;
    size_t n, cap;
    pr_sweep **others; /* the other frameworks' tables, owned */
    size_t nothers;
} sweep_ratios;

#endif
