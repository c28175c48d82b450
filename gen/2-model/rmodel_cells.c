/* rmodel_cells: each configuration's cells: their rows, published tables, runs and statistics. */
#include "rmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/runset.h"
#include "flags.h"
#include "stats.h"
#include "unitdir.h"
#include "rmodel_int.h"

/* Rows of a framework's table for c: every case the suite plans, every
 * record, every row of every published table of c.  The caller frees the
 * array. */
static rmodel_row *cfg_rows(const rmodel_world *w, const rmodel_fw *f, const rmodel_cfg *c,
                            size_t *n)
{
    rmodel_row *rows = NULL;
    *n = 0;
    if (f->suite && rmodel_suite_platform(w, f->suite) == c->platform)
        for (size_t i = 0; i < f->suite->ncases; i++) {
            const pr_suite_case *k = &f->suite->cases[i];
            if (strcmp(k->precision, c->precision) == 0 && k->batch_size == c->bs)
                rmodel_row_add(&rows, n, k->nodes, k->gpus);
        }
    for (size_t i = 0; i < f->nrecs; i++) {
        const pr_record *r = f->recs[i];
        if (f->rec_plats[i] == c->platform && strcmp(r->precision, c->precision) == 0 &&
            r->batch_size == c->bs)
            rmodel_row_add(&rows, n, r->nodes, r->gpu_num);
    }
    for (size_t i = 0; i < f->npubs; i++) {
        const pr_pub_table *t = f->pubs[i];
        if (rmodel_pub_of(t, c))
            for (size_t j = 0; j < t->nrows; j++)
                rmodel_row_add(&rows, n, t->rows[j].nodes, t->rows[j].gpus);
    }
    pr_qsort(rows, *n, sizeof *rows, rmodel_row_qsort);
    return rows;
}

/* Precedence among published tables of one configuration: the one a
 * source marks primary, then among revisions of one source (same label)
 * the newest, then the first loaded (files load in name order).  < 0 when a
 * goes before b. */
static int pub_precedence(const pr_pub_table *a, const pr_pub_table *b)
{
    if (a->primary != b->primary)
        return a->primary ? -1 : 1;
    if (strcmp(a->label, b->label) == 0 && a->date && b->date && strcmp(a->date, b->date) != 0)
        return strcmp(b->date, a->date);
    return a < b ? -1 : a > b;
}

/* The published table reproduced figures are compared with for c. */
static const pr_pub_table *primary_pub(const rmodel_fw *f, const rmodel_cfg *c)
{
    const pr_pub_table *best = NULL;
    for (size_t i = 0; i < f->npubs; i++)
        if (rmodel_pub_of(f->pubs[i], c) && (!best || pub_precedence(f->pubs[i], best) < 0))
            best = f->pubs[i];
    return best;
}

static int pub_qsort(const void *a, const void *b)
{
    return pub_precedence(*(const pr_pub_table *const *)a, *(const pr_pub_table *const *)b);
}

/* The other published figures of cell (of f's configuration c): every
 * other table of c with a row at the cell, in precedence order. */
static void cell_alternatives(const rmodel_fw *f, const rmodel_cfg *c, rmodel_cell *cell)
{
    for (size_t i = 0; i < f->npubs; i++) {
        const pr_pub_table *t = f->pubs[i];
        const pr_pub_row *row =
            t != c->pub && rmodel_pub_of(t, c) ? rmodel_pub_row(t, cell->nodes, cell->gpus) : NULL;
        if (!row)
            continue;
        cell->alt_tabs = pr_xrealloc(cell->alt_tabs, (cell->nalts + 1) * sizeof *cell->alt_tabs);
        cell->alt_tabs[cell->nalts++] = t;
    }
    if (!cell->nalts)
        return;
    if (cell->nalts > 1)
        pr_qsort(cell->alt_tabs, cell->nalts, sizeof *cell->alt_tabs, pub_qsort);
    cell->alt_rows = pr_xcalloc(cell->nalts, sizeof *cell->alt_rows);
    for (size_t i = 0; i < cell->nalts; i++)
        cell->alt_rows[i] = rmodel_pub_row(cell->alt_tabs[i], cell->nodes, cell->gpus);
}

const pr_pub_row *rmodel_pub_row(const pr_pub_table *t, int nodes, int gpus)
{
    for (size_t i = 0; t && i < t->nrows; i++)
        if (t->rows[i].nodes == nodes && t->rows[i].gpus == gpus)
            return &t->rows[i];
    return NULL;
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_sorted(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double metric(const pr_record *r, const char *key)
{
    json_t *v = r->metrics ? json_object_get(r->metrics, key) : NULL;
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static int cell_key_cmp(const void *key, const void *elem)
{
    const rmodel_row *k = key;
    const rmodel_cell *c = elem;
    return k->gpus != c->gpus ? (k->gpus > c->gpus) - (k->gpus < c->gpus)
                              : (k->nodes > c->nodes) - (k->nodes < c->nodes);
}

/* The cell of c at nodes × GPUs (its cells are in rmodel_row_qsort order, each
 * row once); NULL when none. */
static rmodel_cell *find_cell(const rmodel_cfg *c, int nodes, int gpus)
{
    rmodel_row key = {nodes, gpus};
    return c && c->ncells ? bsearch(&key, c->cells, c->ncells, sizeof *c->cells, cell_key_cmp)
                          : NULL;
}

const rmodel_cell *rmodel_cell_of(const rmodel_cfg *c, int nodes, int gpus)
{
    static const rmodel_cell empty = {.origin = RM_NONE, .tt = NAN, .acc = NAN, .olympic = NAN};
    const rmodel_cell *cell = find_cell(c, nodes, gpus);
    return cell ? cell : &empty;
}

const rmodel_cell *rmodel_base_cell(const rmodel_cfg *c)
{
    const rmodel_cell *one = rmodel_cell_of(c, 1, 1), *best = NULL;
    size_t measured = 0;
    if (one->nrecs) /* run, even if it failed: no other base stands in */
        return one;
    for (size_t i = 0; i < c->ncells; i++) {
        const rmodel_cell *rc = &c->cells[i];
        measured += rc->n_ok > 0;
        if (rc->n_ok &&
            (!best || rc->gpus < best->gpus || (rc->gpus == best->gpus && rc->nodes < best->nodes)))
            best = rc;
    }
    /* One count alone scales to nothing: no "1.00, 100 %". */
    return best && measured > 1 ? best : one;
}

/* 1 when run set a is newer than b: its last date, then its folder name. */
static int run_newer(const pr_run *a, const pr_run *b)
{
    int c = strcmp(runset_last_date(a), runset_last_date(b));
    return c ? c > 0 : strcmp(a->name, b->name) > 0;
}

/* The statistics of a cell from its records: the median of the runs (a
 * record of several runs counts each), their range, the repeat closest to
 * the median and the first failure.  *vals (capacity *cap) is scratch
 * space, grown as needed; the caller frees it. */
static void cell_stats(rmodel_cell *out, double **vals, size_t *cap)
{
    /* Measured here goes before imported from someone's log: the cell
     * stands for the runs of one origin only. */
    int has_measured = 0;
    for (size_t i = 0; i < out->nrecs; i++)
        has_measured |= strcmp(out->recs[i]->origin, "parsed") != 0;
    out->imported = out->nrecs && !has_measured;
    /* Of that origin, the newest run set: the older ones are the case's
     * history (samples.h), not its figure. */
    const pr_run *newest = NULL;
    for (size_t i = 0; i < out->nrecs; i++)
        if ((strcmp(out->recs[i]->origin, "parsed") == 0) == out->imported &&
            (!newest || run_newer(out->runs[i], newest)))
            newest = out->runs[i];
    out->set_run = newest;
    for (size_t i = 0; i < out->nrecs; i++) {
        const pr_record *r = out->recs[i];
        if ((strcmp(r->origin, "parsed") == 0) != out->imported) {
            out->n_other_origin++;
            continue;
        }
        if (out->runs[i] != newest) {
            out->n_older++;
            continue;
        }
        out->n_total++;
        if (r->failed) {
            if (!out->fail_rec || r->repeat < out->fail_rec->repeat) {
                out->fail_rec = r;
                out->fail_run = out->runs[i];
            }
            continue;
        }
        /* A record of several runs (parse of several logs) counts each run. */
        size_t nrun = pr_record_run_values(r, NULL);
        if (out->n_ok + nrun > *cap)
            *vals = pr_xrealloc(*vals, (*cap = 2 * (out->n_ok + nrun)) * sizeof **vals);
        out->n_ok += pr_record_run_values(r, *vals + out->n_ok);
        out->n_total += nrun - 1;
    }
    if (out->n_ok) {
        pr_qsort(*vals, out->n_ok, sizeof **vals, dbl_cmp);
        out->median = median_sorted(*vals, out->n_ok);
        out->min = (*vals)[0];
        out->max = (*vals)[out->n_ok - 1];
        size_t k = pr_stats_median_ci(out->n_ok, &out->ci_coverage);
        out->ci_lo = k ? (*vals)[k - 1] : out->median;
        out->ci_hi = k ? (*vals)[out->n_ok - k] : out->median;
        out->olympic = pr_stats_olympic_sorted(*vals, out->n_ok);
        /* Link the repeat closest to the median (lowest repeat on ties). */
        double best = INFINITY;
        for (size_t i = 0; i < out->nrecs; i++) {
            const pr_record *r = out->recs[i];
            if (r->failed || out->runs[i] != newest)
                continue;
            double dist = fabs(r->final_result - out->median);
            if (dist < best || (dist == best && r->repeat < out->link_rec->repeat)) {
                best = dist;
                out->link_rec = r;
                out->link_run = out->runs[i];
            }
        }
        out->median_decimals = pr_stats_shortest_decimals(out->median);
        out->link_lower = out->link_rec && pr_unitdir_lower(out->link_rec->unit);
        out->tt = metric(out->link_rec, "time_to_train_s");
        out->acc = metric(out->link_rec, "accuracy");
    }
}

static rmodel_origin origin_of(const rmodel_cell *c)
{
    if (c->n_ok)
        return RM_MEASURED;
    if (c->fail_rec)
        return RM_FAILED;
    if (c->pub && c->pub->has_value)
        return RM_PUBLISHED;
    if (c->pub)
        return RM_PUB_STATE;
    return c->planned ? RM_PLANNED : RM_NONE;
}

/* Fills f's configurations: their primary published tables and cells, each
 * record in the cell of its case (in data order), each cell's statistics. */
void rmodel_build_cells(const rmodel_world *w, rmodel_fw *f)
{
    for (size_t i = 0; i < f->ncfgs; i++) {
        rmodel_cfg *c = &f->cfgs[i];
        size_t n;
        rmodel_row *rows = cfg_rows(w, f, c, &n);
        c->pub = primary_pub(f, c);
        c->cells = pr_xcalloc(n + 1, sizeof *c->cells);
        c->ncells = n;
        for (size_t r = 0; r < n; r++) {
            rmodel_cell *cell = &c->cells[r];
            cell->nodes = rows[r].nodes;
            cell->gpus = rows[r].gpus;
            cell->tt = cell->acc = cell->olympic = NAN;
            cell->pub = rmodel_pub_row(c->pub, cell->nodes, cell->gpus);
            cell_alternatives(f, c, cell);
        }
        free(rows);
    }
    /* Each record's cell (its rows hold every record), counted first so
     * that the cells' lists are slices of one array. */
    rmodel_cell **at = pr_xcalloc(f->nrecs + 1, sizeof *at);
    for (size_t j = 0; j < f->nrecs; j++) {
        const pr_record *r = f->recs[j];
        rmodel_cfg *c = rmodel_find_cfg(f, f->rec_plats[j], r->precision, r->batch_size);
        if (!c || !(at[j] = find_cell(c, r->nodes, r->gpu_num)))
            continue;
        at[j]->nrecs++;
        c->has_repro = 1;
        if (!isnan(metric(r, "time_to_train_s")))
            c->has_tt = 1;
        if (!isnan(metric(r, "accuracy")))
            c->has_acc = 1;
    }
    f->cell_recs = pr_xcalloc(f->nrecs + 1, sizeof *f->cell_recs);
    f->cell_runs = pr_xcalloc(f->nrecs + 1, sizeof *f->cell_runs);
    size_t off = 0;
    for (size_t i = 0; i < f->ncfgs; i++)
        for (size_t r = 0; r < f->cfgs[i].ncells; r++) {
            rmodel_cell *cell = &f->cfgs[i].cells[r];
            cell->recs = f->cell_recs + off;
            cell->runs = f->cell_runs + off;
            off += cell->nrecs;
            cell->nrecs = 0;
        }
    for (size_t j = 0; j < f->nrecs; j++)
        if (at[j]) {
            at[j]->recs[at[j]->nrecs] = f->recs[j];
            at[j]->runs[at[j]->nrecs++] = f->runs[j];
        }
    free(at);
    for (size_t i = 0; f->suite && i < f->suite->ncases; i++) {
        const pr_suite_case *k = &f->suite->cases[i];
        rmodel_cfg *c =
            rmodel_find_cfg(f, rmodel_suite_platform(w, f->suite), k->precision, k->batch_size);
        rmodel_cell *cell = find_cell(c, k->nodes, k->gpus);
        if (c)
            c->has_repro = 1;
        if (cell)
            cell->planned = 1;
    }
    size_t cap = 16;
    double *vals = pr_xmalloc(cap * sizeof *vals);
    for (size_t i = 0; i < f->ncfgs; i++)
        for (size_t r = 0; r < f->cfgs[i].ncells; r++) {
            rmodel_cell *cell = &f->cfgs[i].cells[r];
            cell_stats(cell, &vals, &cap);
            cell->origin = origin_of(cell);
            cell->records_used = flags_count_records(cell, &cell->records_summary);
        }
    free(vals);
}
