#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* A table has tens of rows; measure keeps at most 4096 (parse.c). */
enum { MAX_ROWS = 4096, MAX_COLS = 64 };

typedef struct column {
    char *name, *label;
    char *precision, *cfg_label, *gpus_label;
    int batch_size, nodes, gpus;
} column;

typedef struct row {
    double bytes;
    char *shape;
    pr_sweep_state *state; /* by column, grown with the columns */
    double *v;
} row;

struct pr_sweep {
    pr_sweep_x x;
    char *unit;
    double peak;
    column *cols;
    size_t ncols, capcols;
    row *rows;
    size_t nrows, caprows;
};

pr_sweep *sweep_new(void)
{
    pr_sweep *s = pr_xcalloc(1, sizeof *s);
    s->peak = NAN;
    return s;
}

void sweep_free(pr_sweep *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->ncols; i++) {
        column *c = &s->cols[i];
        free(c->name);
        free(c->label);
        free(c->precision);
        free(c->cfg_label);
        free(c->gpus_label);
    }
    for (size_t i = 0; i < s->nrows; i++) {
        free(s->rows[i].shape);
        free(s->rows[i].state);
        free(s->rows[i].v);
    }
    free(s->cols);
    free(s->rows);
    free(s->unit);
    free(s);
}

static int same_cell(const column *a, const column *b)
{
    return strcmp(a->precision, b->precision) == 0 && a->batch_size == b->batch_size &&
           a->nodes == b->nodes && a->gpus == b->gpus;
}

/* The column for name in cell, added (with an empty slot in every row)
 * when new. */
static size_t column_for(pr_sweep *s, const char *name, const pr_sweep_cell *cell)
{
    column probe = {(char *)name, NULL,      (char *)cell->precision, NULL, NULL, cell->batch_size,
                    cell->nodes,  cell->gpus};
    for (size_t i = 0; i < s->ncols; i++)
        if (strcmp(s->cols[i].name, name) == 0 && same_cell(&s->cols[i], &probe))
            return i;
    if (s->ncols == s->capcols) {
        s->capcols = s->capcols ? 2 * s->capcols : 8;
        s->cols = pr_xrealloc(s->cols, s->capcols * sizeof *s->cols);
        for (size_t r = 0; r < s->nrows; r++) {
            s->rows[r].state = pr_xrealloc(s->rows[r].state, s->capcols * sizeof *s->rows[r].state);
            s->rows[r].v = pr_xrealloc(s->rows[r].v, s->capcols * sizeof *s->rows[r].v);
        }
    }
    column *c = &s->cols[s->ncols];
    c->name = pr_xstrdup(name);
    c->label = NULL;
    c->precision = pr_xstrdup(cell->precision);
    c->cfg_label = pr_xstrdup(cell->cfg_label ? cell->cfg_label : cell->precision);
    c->gpus_label = pr_xstrdup(cell->gpus_label ? cell->gpus_label : "");
    c->batch_size = cell->batch_size;
    c->nodes = cell->nodes;
    c->gpus = cell->gpus;
    for (size_t r = 0; r < s->nrows; r++)
        s->rows[r].state[s->ncols] = PR_SWEEP_ABSENT;
    return s->ncols++;
}

/* The row for an x (bytes when shape is NULL), added when new: sizes stay
 * sorted, shapes keep the order they first came in. */
static size_t row_for(pr_sweep *s, double bytes, const char *shape)
{
    size_t at = s->nrows;
    for (size_t i = 0; i < s->nrows; i++) {
        if (shape ? strcmp(s->rows[i].shape, shape) == 0 : s->rows[i].bytes == bytes)
            return i;
        if (!shape && s->rows[i].bytes > bytes && at == s->nrows)
            at = i;
    }
    if (s->nrows == s->caprows) {
        s->caprows = s->caprows ? 2 * s->caprows : 32;
        s->rows = pr_xrealloc(s->rows, s->caprows * sizeof *s->rows);
    }
    memmove(&s->rows[at + 1], &s->rows[at], (s->nrows - at) * sizeof *s->rows);
    row *r = &s->rows[at];
    r->bytes = bytes;
    r->shape = shape ? pr_xstrdup(shape) : NULL;
    size_t cap = s->capcols ? s->capcols : 1;
    r->state = pr_xcalloc(cap, sizeof *r->state); /* PR_SWEEP_ABSENT is 0 */
    r->v = pr_xcalloc(cap, sizeof *r->v);
    s->nrows++;
    return at;
}

static int set_kind(pr_sweep *s, pr_sweep_x x, const char *unit, const char *where,
                    const char *field, pr_err *err)
{
    if (s->x == PR_SWEEP_NONE) {
        s->x = x;
        s->unit = pr_xstrdup(unit);
        return 0;
    }
    if (s->x != x)
        return pr_err_set(err, where, 0, 0, field,
                          "rows keyed by %s, but this framework's "
                          "other tables are keyed by %s",
                          x == PR_SWEEP_SHAPE ? "shapes" : "sizes",
                          s->x == PR_SWEEP_SHAPE ? "shapes" : "sizes");
    if (strcmp(s->unit, unit) != 0)
        return pr_err_set(err, where, 0, 0, field,
                          "unit \"%s\", but this framework's other "
                          "tables are in \"%s\"",
                          unit, s->unit);
    return 0;
}

/* metrics.table: {"x", "unit", "columns", "rows", "peak"?}, checked when
 * the record was loaded (lib/record_check.c); what does not fit is left out. */
static int add_table(pr_sweep *s, const json_t *t, const pr_sweep_cell *cell, const char *where,
                     pr_err *err)
{
    const char *xk = json_string_value(json_object_get(t, "x"));
    const char *unit = json_string_value(json_object_get(t, "unit"));
    const json_t *cols = json_object_get(t, "columns"), *rows = json_object_get(t, "rows");
    const json_t *peak = json_object_get(t, "peak");
    size_t nc = json_array_size(cols), idx[MAX_COLS];
    if (!xk || !unit || nc == 0 || nc > MAX_COLS)
        return 0;
    int shape = strcmp(xk, "shape") == 0;
    if (set_kind(s, shape ? PR_SWEEP_SHAPE : PR_SWEEP_BYTES, unit, where, "metrics.table", err) < 0)
        return -1;
    for (size_t c = 0; c < nc; c++) {
        const char *name = json_string_value(json_array_get(cols, c));
        idx[c] = column_for(s, name ? name : "?", cell);
    }
    for (size_t i = 0; i < json_array_size(rows) && i < MAX_ROWS; i++) {
        const json_t *r = json_array_get(rows, i), *x = json_array_get(r, 0);
        if (json_array_size(r) != nc + 1 || (shape ? !json_is_string(x) : !json_is_number(x)))
            continue;
        size_t at =
            shape ? row_for(s, 0, json_string_value(x)) : row_for(s, json_number_value(x), NULL);
        row *rw = &s->rows[at];
        for (size_t c = 0; c < nc; c++) {
            const json_t *v = json_array_get(r, c + 1);
            rw->state[idx[c]] = json_is_number(v) ? PR_SWEEP_VALUE : PR_SWEEP_NA;
            rw->v[idx[c]] = json_is_number(v) ? json_number_value(v) : 0;
        }
    }
    if (json_is_number(peak) && (isnan(s->peak) || json_number_value(peak) > s->peak))
        s->peak = json_number_value(peak);
    return 0;
}

/* metrics.series: {"x": "bytes", "y": name, "points": [[x, y], ...]}. */
static int add_series(pr_sweep *s, const json_t *t, const char *unit, const pr_sweep_cell *cell,
                      const char *where, pr_err *err)
{
    const char *y = json_string_value(json_object_get(t, "y"));
    const json_t *pts = json_object_get(t, "points");
    if (!y)
        return 0;
    if (set_kind(s, PR_SWEEP_BYTES, unit, where, "metrics.series", err) < 0)
        return -1;
    size_t col = column_for(s, y, cell);
    for (size_t i = 0; i < json_array_size(pts) && i < MAX_ROWS; i++) {
        const json_t *p = json_array_get(pts, i);
        if (!json_is_number(json_array_get(p, 0)) || !json_is_number(json_array_get(p, 1)))
            continue;
        size_t at = row_for(s, json_number_value(json_array_get(p, 0)), NULL);
        s->rows[at].state[col] = PR_SWEEP_VALUE;
        s->rows[at].v[col] = json_number_value(json_array_get(p, 1));
    }
    return 0;
}

int sweep_add(pr_sweep *s, const json_t *metrics, const char *unit, const pr_sweep_cell *cell,
              const char *where, pr_err *err)
{
    const json_t *t = metrics ? json_object_get(metrics, "table") : NULL;
    if (json_is_object(t))
        return add_table(s, t, cell, where, err);
    t = metrics ? json_object_get(metrics, "series") : NULL;
    if (json_is_object(t))
        return add_series(s, t, unit, cell, where, err);
    return 0;
}

void sweep_finish(pr_sweep *s)
{
    for (size_t i = 0; i < s->ncols; i++) {
        column *c = &s->cols[i];
        int name_shared = 0, cfg_varies = 0, gpus_vary = 0;
        for (size_t j = 0; j < s->ncols; j++) {
            const column *d = &s->cols[j];
            if (j != i && strcmp(d->name, c->name) == 0)
                name_shared = 1;
            if (strcmp(d->precision, c->precision) != 0 || d->batch_size != c->batch_size)
                cfg_varies = 1;
            if (d->nodes != c->nodes || d->gpus != c->gpus)
                gpus_vary = 1;
        }
        pr_buf b = PR_BUF_INIT;
        pr_buf_puts(&b, c->name);
        if (name_shared && cfg_varies)
            pr_buf_printf(&b, " · %s", c->cfg_label);
        if (name_shared && gpus_vary)
            pr_buf_printf(&b, " · %s", c->gpus_label);
        free(c->label);
        c->label = pr_buf_detach(&b);
    }
}

pr_sweep_x sweep_xkind(const pr_sweep *s)
{
    return s->x;
}
const char *sweep_unit(const pr_sweep *s)
{
    return s->unit ? s->unit : "";
}
double sweep_peak(const pr_sweep *s)
{
    return s->peak;
}
size_t sweep_nrows(const pr_sweep *s)
{
    return s->nrows;
}
size_t sweep_ncols(const pr_sweep *s)
{
    return s->ncols;
}
double sweep_row_bytes(const pr_sweep *s, size_t r)
{
    return s->rows[r].bytes;
}
const char *sweep_row_shape(const pr_sweep *s, size_t r)
{
    return s->rows[r].shape;
}
const char *sweep_col_name(const pr_sweep *s, size_t c)
{
    return s->cols[c].name;
}

const char *sweep_col_label(const pr_sweep *s, size_t c)
{
    return s->cols[c].label ? s->cols[c].label : s->cols[c].name;
}

pr_sweep_state sweep_get(const pr_sweep *s, size_t r, size_t c, double *v)
{
    *v = s->rows[r].v[c];
    return s->rows[r].state[c];
}

long sweep_find_row(const pr_sweep *s, const pr_sweep *other, size_t r)
{
    if (s->x != other->x)
        return -1;
    const row *o = &other->rows[r];
    for (size_t i = 0; i < s->nrows; i++)
        if (s->x == PR_SWEEP_SHAPE ? strcmp(s->rows[i].shape, o->shape) == 0
                                   : s->rows[i].bytes == o->bytes)
            return (long)i;
    return -1;
}

long sweep_find_col(const pr_sweep *s, const char *name, const pr_sweep *other, size_t c)
{
    for (size_t i = 0; i < s->ncols; i++)
        if (strcmp(s->cols[i].name, name) == 0 && same_cell(&s->cols[i], &other->cols[c]))
            return (long)i;
    return -1;
}
