/* fw_columns: the columns of a framework's figures as one table,
 * fw_columns[]: each row is one column, with its name (the export's column,
 * export.h), its heading and cell in a configuration's reproduction table
 * (fw_tables.c) and when it is shown there.  The reproduction table walks
 * the rows with a cell; the export walks the rows marked exported for its
 * columns and their order.  Adding a column is adding a row
 * (gen/README.md, "How to add a column").
 *
 * Memory: the table is static; a fw_columns_table and its rows are the
 * caller's (fw_tables.c); cells append to the caller's buffer.
 */
#ifndef PR_FW_COLUMNS_H
#define PR_FW_COLUMNS_H

#include <jansson.h>
#include <stddef.h>

#include "2-model/rmodel.h"
#include "2-model/sanity.h"
#include "buf.h"
#include "err.h"
#include "template/lang.h"
#include "view.h"

/* One reproduction table being written: what every cell may need. */
typedef struct fw_columns_table {
    const rmodel_world *w;
    const lang *l;
    const rmodel_fw *f;
    const rmodel_cfg *c;
    const char *page_rel; /* links are relative to it */
    view_notes *nt;       /* the notes the cells need */
    pr_err *err;
    const pr_pub_table *const *pubs; /* the published tables it compares with */
    size_t npubs;
    const rmodel_cell *base; /* the speedup's base cell (rmodel_base_cell) */
    sanity_notes *sn;        /* the footnotes under the table */
    pr_buf *marks;           /* per cell: its footnote marks (sanity_check_series) */
    int insufficient;        /* gaps not judged: said once under the table */
} fw_columns_table;

/* One row of it: cell i of the configuration, and, in a column repeated
 * per published table, which one (pub).  The speedup and efficiency are
 * made once per row, together. */
typedef struct fw_columns_row {
    fw_columns_table *t;
    const rmodel_cell *rc;
    size_t i, pub;
    int scaled;
    pr_buf sp, eff;
} fw_columns_row;

typedef struct fw_columns_column {
    /* The column's name: the export's (export.h) when exported. */
    const char *key;
    int exported;
    /* The reproduction table: heading (the strings.json id head_id, or
     * head() for one said with what the table holds; pub: the published
     * table of a per_pub column), shown when shown() (NULL: always), cell
     * (NULL: not in the table), once per published table when per_pub. */
    const char *head_id;
    void (*head)(const fw_columns_table *t, size_t pub, pr_buf *out);
    int (*shown)(const fw_columns_table *t);
    void (*cell)(fw_columns_row *r, pr_buf *out);
    int per_pub;
    /* The export's values, for a column that makes its own (a new
     * reference, or json_null()): of a reproduced cell rc, and of row r of
     * a published table t.  NULL: null in the export, or export.c sets it
     * (the columns before these fields were added). */
    json_t *(*value)(const rmodel_fw *f, const rmodel_cfg *c, const rmodel_cell *rc);
    json_t *(*pub_value)(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *r);
} fw_columns_column;

extern const fw_columns_column fw_columns[];
extern const size_t fw_columns_count;

/* The head of a reproduction table of the columns of t (n rows) that x
 * shows, appended to out (mdtable.h, numeric from the third). */
void fw_columns_head(const fw_columns_column *t, size_t n, fw_columns_table *x, pr_buf *out);
/* The row of cell i of x->c, appended to out. */
void fw_columns_row_md(const fw_columns_column *t, size_t n, fw_columns_table *x, size_t i,
                       pr_buf *out);

#endif
