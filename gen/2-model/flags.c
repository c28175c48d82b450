#include "flags.h"

#include <stdlib.h>
#include <string.h>

#include "1-load/pairing.h"
#include "jdoc.h"
#include "stats.h"
#include "unitdir.h"

long long flags_cell_records(const rmodel_cell *rc, int *summary)
{
    if (rc->records_summary)
        *summary = 1;
    return rc->records_used;
}

long long flags_count_records(const rmodel_cell *rc, int *summary)
{
    long long n = 0;
    for (unsigned i = 0; i < rc->nrecs; i++) {
        const pr_record *r = rc->recs[i];
        if (r->failed)
            continue;
        const char *step = pr_jdoc_json_str(r->rule, "step"),
                   *src = pr_jdoc_json_str(r->rule, "source");
        json_t *used = json_object_get(r->stats, "records_used");
        if ((step && strcmp(step, "summary") == 0) || (src && strcmp(src, "records") != 0))
            *summary = 1;
        if (!json_is_integer(used))
            return -1;
        n += json_integer_value(used);
    }
    return n;
}

int flags_few_records(const rmodel_cell *rc, long long *records)
{
    int summary = 0;
    long long n = rc->n_ok ? flags_cell_records(rc, &summary) : -1;
    if (records)
        *records = n;
    return !summary && n >= 0 && n < SN_FEW_RECORDS;
}

/* The runs' series of c: one point per cell, its median (every digit: no
 * rounding to allow for), as the reproduction table checks it. */
static void runs_points(const rmodel_cfg *c, sanity_point *pts)
{
    for (size_t i = 0; i < c->ncells; i++) {
        const rmodel_cell *rc = &c->cells[i];
        pts[i] = (sanity_point){rc->nodes,
                                rc->gpus,
                                rc->n_ok > 0,
                                rc->median,
                                rc->n_ok ? rc->median_decimals : 0,
                                rc->n_ok ? rc->link_run : NULL,
                                rc->n_ok && rc->link_lower};
    }
}

const pr_run *flags_pub_row_run(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *r)
{
    /* A table that names no repository pairs with no log (pairing.h): no
     * pass over the framework's records. */
    for (size_t i = 0; t->source_repo && i < f->nrecs; i++)
        if (strcmp(f->recs[i]->precision, pairing_pub_mode(t)) == 0 &&
            pairing_pub_row_log(f->recs[i], f->rec_plats[i], t, r, 0))
            return f->runs[i];
    return NULL;
}

sanity_point flags_pub_point(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *r)
{
    return (sanity_point){r->nodes,
                          r->gpus,
                          r->has_value,
                          r->value,
                          r->has_value ? data_pub_decimals(r) : 0,
                          r->has_value ? flags_pub_row_run(f, t, r) : NULL,
                          pr_unitdir_lower(t->unit)};
}

/* The series of published table t as its table prints it: one point per
 * row (the first where the source repeats one), in device-count order;
 * returns how many (pts has room for t->nrows). */
static size_t pub_points(const rmodel_fw *f, const pr_pub_table *t, sanity_point *pts)
{
    rmodel_row *rows = NULL;
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++)
        rmodel_row_add(&rows, &n, t->rows[i].nodes, t->rows[i].gpus);
    pr_qsort(rows, n, sizeof *rows, rmodel_row_qsort);
    for (size_t i = 0; i < n; i++) {
        const pr_pub_row *r = rmodel_pub_row(t, rows[i].nodes, rows[i].gpus);
        pts[i] = flags_pub_point(f, t, r);
    }
    free(rows);
    return n;
}

static size_t point_at(const sanity_point *pts, size_t n, int nodes, int gpus)
{
    for (size_t i = 0; i < n; i++)
        if (pts[i].nodes == nodes && pts[i].gpus == gpus)
            return i;
    return n;
}

static const pr_pub_table *twin_of(const rmodel_fw *f, const pr_pub_table *t)
{
    return sanity_identical_in(t, f->pubs, f->npubs);
}

int flags_pub_row_flagged(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *row)
{
    if (!row || !row->has_value)
        return 0;
    if (twin_of(f, t))
        return 1;
    sanity_point *pts = pr_xcalloc(t->nrows + 1, sizeof *pts);
    size_t n = pub_points(f, t, pts);
    size_t i = point_at(pts, n, row->nodes, row->gpus);
    int flagged = i < n && sanity_point_flags(pts, n, i) != 0;
    free(pts);
    return flagged;
}

size_t flags_pub_row_notes(const lang *l, const rmodel_fw *f, const pr_pub_table *t,
                           const pr_pub_row *row, pr_buf *mark, sanity_notes *sn, pr_err *err)
{
    if (!row || !row->has_value)
        return 0;
    sanity_point *pts = pr_xcalloc(t->nrows + 1, sizeof *pts);
    size_t n = pub_points(f, t, pts), flags = 0;
    size_t i = point_at(pts, n, row->nodes, row->gpus);
    if (i < n)
        flags += sanity_point_notes(l, t->platform, pts, n, i, mark, sn, err);
    free(pts);
    const pr_pub_table *twin = twin_of(f, t);
    if (twin) {
        sanity_identical_note(l, twin, mark, sn, err);
        flags++;
    }
    return flags;
}

/* The one decision (l NULL) and its words (l set): the flags of the
 * figures c's cells stand for, in this order: the runs' series, few
 * records, unsteady runs, the published series, an identical table.  With l NULL sets
 * each cell's flagged (c is the world's, which only the flag pass
 * changes); else writes marks (may be NULL) and notes for only (NULL:
 * every cell).  Returns the flags. */
static size_t check_cfg(const lang *l, const rmodel_fw *f, const rmodel_cfg *c,
                        const rmodel_cell *only, pr_buf *marks, sanity_notes *sn, pr_err *err)
{
    size_t flags = 0, n = c->ncells;
    sanity_point *pts = pr_xcalloc(n + (c->pub ? c->pub->nrows : 0) + 1, sizeof *pts);
    runs_points(c, pts);
    for (size_t i = 0; i < n; i++) {
        rmodel_cell *rc = (rmodel_cell *)&c->cells[i];
        if (rc->origin != RM_MEASURED || (only && rc != only))
            continue;
        if (!l) {
            rc->flagged |= sanity_point_flags(pts, n, i) != 0;
            flags += rc->flagged;
        } else {
            flags +=
                sanity_point_notes(l, c->platform, pts, n, i, marks ? &marks[i] : NULL, sn, err);
        }
    }
    for (size_t i = 0; i < n; i++) {
        rmodel_cell *rc = (rmodel_cell *)&c->cells[i];
        long long records;
        if (rc->origin != RM_MEASURED || (only && rc != only) || !flags_few_records(rc, &records))
            continue;
        flags++;
        if (!l)
            rc->flagged = 1;
        else
            sanity_few_records_note(l, c->platform, rc->nodes, rc->gpus, records,
                                    marks ? &marks[i] : NULL, sn, err);
    }
    for (size_t i = 0; i < n; i++) {
        rmodel_cell *rc = (rmodel_cell *)&c->cells[i];
        if (rc->origin != RM_MEASURED || (only && rc != only) ||
            !sanity_unsteady_count(rc->recs, rc->nrecs))
            continue;
        flags++;
        if (!l)
            rc->flagged = 1;
        else
            sanity_unsteady_note(l, c->platform, rc->nodes, rc->gpus, rc->recs, rc->nrecs,
                                 marks ? &marks[i] : NULL, sn, err);
    }
    if (c->pub) {
        size_t np = pub_points(f, c->pub, pts);
        for (size_t i = 0; i < n; i++) {
            rmodel_cell *rc = (rmodel_cell *)&c->cells[i];
            size_t k = point_at(pts, np, rc->nodes, rc->gpus);
            if (rc->origin != RM_PUBLISHED || (only && rc != only) || k == np)
                continue;
            if (!l) {
                rc->flagged |= sanity_point_flags(pts, np, k) != 0;
                flags += rc->flagged;
            } else {
                flags += sanity_point_notes(l, c->platform, pts, np, k, marks ? &marks[i] : NULL,
                                            sn, err);
            }
        }
        /* A table identical to another of its source: every figure it
         * gives here, under one footnote. */
        const pr_pub_table *twin = twin_of(f, c->pub);
        int any = 0;
        for (size_t i = 0; twin && i < n; i++)
            any |= c->cells[i].origin == RM_PUBLISHED && (!only || &c->cells[i] == only);
        if (any) {
            pr_buf mark = PR_BUF_INIT;
            if (l)
                sanity_identical_note(l, twin, &mark, sn, err);
            flags++;
            for (size_t i = 0; i < n; i++) {
                rmodel_cell *rc = (rmodel_cell *)&c->cells[i];
                if (rc->origin != RM_PUBLISHED || (only && rc != only))
                    continue;
                if (!l)
                    rc->flagged = 1;
                else if (marks)
                    pr_buf_puts(&marks[i], pr_buf_cstr(&mark));
            }
            pr_buf_free(&mark);
        }
    }
    free(pts);
    return flags;
}

size_t flags_cfg_notes(const lang *l, const rmodel_fw *f, const rmodel_cfg *c,
                       const rmodel_cell *only, pr_buf *marks, sanity_notes *sn, pr_err *err)
{
    return check_cfg(l, f, c, only, marks, sn, err);
}

void flags_world(rmodel_world *w)
{
    for (size_t i = 0; i < w->nmodels; i++)
        for (size_t j = 0; j < w->models[i]->nfws; j++) {
            const rmodel_fw *f = w->models[i]->fws[j];
            for (size_t k = 0; k < f->ncfgs; k++)
                check_cfg(NULL, f, &f->cfgs[k], NULL, NULL, NULL, NULL);
        }
}

unsigned flags_cell_bits(const rmodel_cfg *c, const rmodel_cell *rc)
{
    if (!rc->n_ok)
        return 0;
    sanity_point *pts = pr_xcalloc(c->ncells + 1, sizeof *pts);
    runs_points(c, pts);
    size_t i = point_at(pts, c->ncells, rc->nodes, rc->gpus);
    unsigned bits = i < c->ncells ? sanity_point_flags(pts, c->ncells, i) : 0;
    free(pts);
    if (flags_few_records(rc, NULL))
        bits |= FL_FEW_RECORDS;
    if (sanity_unsteady_count(rc->recs, rc->nrecs))
        bits |= FL_UNSTEADY;
    const rmodel_cell *base = rmodel_base_cell(c);
    if (rc->gpus > base->gpus && base->n_ok && base->set_run != rc->set_run)
        bits |= FL_CROSS_RUN_SET;
    return bits;
}

unsigned flags_pub_row_bits(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *row)
{
    if (!row || !row->has_value)
        return 0;
    sanity_point *pts = pr_xcalloc(t->nrows + 1, sizeof *pts);
    size_t n = pub_points(f, t, pts);
    size_t i = point_at(pts, n, row->nodes, row->gpus);
    unsigned bits = i < n ? sanity_point_flags(pts, n, i) : 0;
    free(pts);
    if (twin_of(f, t))
        bits |= FL_IDENTICAL;
    return bits;
}

void flags_bits_keys(unsigned bits, pr_buf *out)
{
    static const struct {
        unsigned bit;
        const char *key;
    } keys[] = {
        {SN_SUPERLINEAR, "superlinear"},    {SN_FALLS, "falls"},         {SN_JUMP, "jump"},
        {FL_FEW_RECORDS, "few_records"},    {FL_IDENTICAL, "identical"}, {FL_UNSTEADY, "unsteady"},
        {FL_CROSS_RUN_SET, "cross_run_set"}};
    const char *sep = "";
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (bits & keys[k].bit) {
            pr_buf_printf(out, "%s%s", sep, keys[k].key);
            sep = ";";
        }
}
