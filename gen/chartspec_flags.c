/* chartspec_flags: which figures a chart draws flagged, and the run set
 * each belongs to: a chart says what its tables say (a ❗ travels with its
 * figure; no line joins two run sets). */
#include <stdlib.h>
#include <string.h>

#include "chartspec_int.h"
#include "mdtable.h"
#include "pairing.h"
#include "sanity.h"
#include "stats.h"

/* Marks of sanity rules on pts[0..n): flags[i] set where one flags pts[i].
 * The footnotes the rules write are the tables' business: dropped here. */
static void series_flags(const lang *l, const pr_platform *p, const sn_point *pts, size_t n,
                         unsigned char *flags, pr_err *err)
{
    sn_notes sn;
    sn_notes_init(&sn, 1);
    pr_buf *marks = pr_xcalloc(n + 1, sizeof *marks);
    sn_check_series(l, p, pts, n, marks, &sn, err);
    for (size_t i = 0; i < n; i++) {
        flags[i] |= marks[i].len > 0;
        pr_buf_free(&marks[i]);
    }
    free(marks);
    sn_notes_free(&sn);
}

/* Who frees: cs_flags_free. */
void cs_flags_of(const lang *l, const rm_cfg *c, cs_flags *fl, pr_err *err)
{
    size_t n = c->ncells;
    fl->meas = pr_xcalloc(n + 1, 1);
    fl->pub = pr_xcalloc(n + 1, 1);
    sn_point *pts = pr_xcalloc(n + 1, sizeof *pts);
    /* The medians as the reproduction table checks them (every digit). */
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        const rm_cell *rc = &c->cells[i];
        pts[i] = (sn_point){rc->nodes, rc->gpus, rc->n_ok > 0, rc->median,
                            rc->n_ok ? pr_stats_shortest_decimals(rc->median) : 0};
        any |= rc->n_ok > 0;
    }
    if (any)
        series_flags(l, c->platform, pts, n, fl->meas, err);
    /* The primary published table's rows as its own table checks them: all
     * its rows (a row of it outside c's cells still counts as a neighbour),
     * in device-count order, then each cell's row looked up. */
    const pr_pub_table *t = c->pub;
    if (t && t->nrows) {
        sn_point *tp = pr_xcalloc(t->nrows + 1, sizeof *tp);
        unsigned char *tf = pr_xcalloc(t->nrows + 1, 1);
        size_t tn = sn_pub_points(t, tp);
        series_flags(l, t->platform, tp, tn, tf, err);
        for (size_t i = 0; i < n; i++) {
            const pr_pub_row *r = c->cells[i].pub;
            for (size_t k = 0; r && k < tn; k++)
                if (tp[k].nodes == r->nodes && tp[k].gpus == r->gpus && tf[k])
                    fl->pub[i] = 1;
        }
        free(tp);
        free(tf);
    }
    /* What the flag pass decided of the figure each cell stands for. */
    for (size_t i = 0; i < n; i++) {
        const rm_cell *rc = &c->cells[i];
        if (!rc->flagged)
            continue;
        if (rc->origin == RM_MEASURED)
            fl->meas[i] = 1;
        else if (rc->origin == RM_PUBLISHED)
            fl->pub[i] = 1;
    }
    free(pts);
}

void cs_flags_free(cs_flags *fl)
{
    free(fl->meas);
    free(fl->pub);
    fl->meas = fl->pub = NULL;
}

/* As the published table's speedup flag finds it (gen/fw_tables.c). */
const pr_run *cs_pub_row_run(const rm_fw *f, const pr_pub_table *t, const pr_pub_row *r)
{
    for (size_t i = 0; i < f->nrecs; i++)
        if (strcmp(f->recs[i]->precision, pr_pub_mode(t)) == 0 &&
            pr_pub_row_log(f->recs[i], f->rec_plats[i], t, r, 0))
            return f->runs[i];
    return NULL;
}

const void *cs_pub_row_set(const rm_fw *f, const pr_pub_table *t, const pr_pub_row *r)
{
    const pr_run *run = cs_pub_row_run(f, t, r);
    return run ? (const void *)run : (const void *)t;
}

/* Who frees: cs_sets_free. */
int cs_set_id(cs_sets *s, const void *key)
{
    for (int i = 0; i < s->n; i++)
        if (s->key[i] == key)
            return i;
    if (s->n == s->cap)
        s->key = pr_xrealloc(s->key, (size_t)(s->cap = s->cap ? 2 * s->cap : 8) * sizeof *s->key);
    s->key[s->n] = key;
    return s->n++;
}

void cs_sets_free(cs_sets *s)
{
    free(s->key);
    s->key = NULL;
    s->n = s->cap = 0;
}

int cs_same_source(const rm_cell *rc, const rm_cell *base)
{
    if (rc->imported != base->imported)
        return 0;
    if (!rc->imported)
        return 1;
    const char *a = rc->link_rec ? pr_json_str(rc->link_rec->source, "repo") : NULL;
    const char *b = base->link_rec ? pr_json_str(base->link_rec->source, "repo") : NULL;
    return strcmp(a ? a : "", b ? b : "") == 0;
}

int cs_other_rule(const rm_cell *rc, const rm_cell *base)
{
    const json_t *ra = rc->link_rec ? rc->link_rec->rule : NULL;
    const json_t *rb = base->link_rec ? base->link_rec->rule : NULL;
    return ra && rb && !json_equal((json_t *)ra, (json_t *)rb);
}
