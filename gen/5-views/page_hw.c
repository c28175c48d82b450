#include "page_hw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "3-tables/config_words.h"
#include "3-tables/mdtable.h"
#include "3-tables/view.h"
#include "base/md.h"

/* A size as people read it: 1 GiB, 512 MiB, 8 B (exact multiples only). */
static void bytes_text(pr_buf *out, double b)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && b >= 1024 && fmod(b, 1024) == 0) {
        b /= 1024;
        u++;
    }
    pr_buf_printf(out, "%.0f %s", b, units[u]);
}

static void row_x_text(pr_buf *out, const pr_sweep *s, size_t r)
{
    if (sweep_xkind(s) == PR_SWEEP_SHAPE) {
        for (const char *p = sweep_row_shape(s, r); *p; p++)
            if (*p == 'x')
                pr_buf_puts(out, "×");
            else
                pr_buf_putc(out, *p);
    } else {
        bytes_text(out, sweep_row_bytes(s, r));
    }
}

/* The tables of f's cells (each cell's run nearest the median), merged.
 * NULL with err set on tables that cannot be merged. */
static pr_sweep *fw_sweep(const lang *l, const rmodel_fw *f, pr_err *err)
{
    pr_sweep *s = sweep_new();
    for (size_t i = 0; i < f->ncfgs; i++) {
        const rmodel_cfg *c = &f->cfgs[i];
        char *config = config_words_plain(l, c, err);
        for (size_t r = 0; r < c->ncells; r++) {
            const rmodel_cell *rc = &c->cells[r];
            if (!rc->n_ok || !rc->link_rec->metrics)
                continue;
            pr_buf g = PR_BUF_INIT;
            lang_gpus_label(l, rc->nodes, rc->gpus, &g, err);
            pr_sweep_cell cell = {c->precision, c->bs,  rc->nodes,
                                  rc->gpus,     config, pr_buf_cstr(&g)};
            const char *where = rc->link_run->record_files[rc->link_rec - rc->link_run->records];
            int bad = sweep_add(s, rc->link_rec->metrics, f->unit, &cell, where, err) < 0;
            pr_buf_free(&g);
            if (bad) {
                free(config);
                sweep_free(s);
                return NULL;
            }
        }
        free(config);
    }
    sweep_finish(s);
    return s;
}

static void ratios_free(sweep_ratios *rs)
{
    for (size_t i = 0; i < rs->n; i++)
        free(rs->v[i].label);
    for (size_t i = 0; i < rs->nothers; i++)
        sweep_free(rs->others[i]);
    free(rs->v);
    free(rs->others);
}

static void ratio_add(sweep_ratios *rs, const lang *l, const pr_suite_compare *k,
                      const rmodel_fw *f, const rmodel_fw *g, const pr_sweep *s, size_t of_col,
                      const pr_sweep *to, size_t to_col, pr_err *err)
{
    if (rs->n == rs->cap)
        rs->v = pr_xrealloc(rs->v, (rs->cap = rs->cap ? 2 * rs->cap : 8) * sizeof *rs->v);
    sweep_ratio *r = &rs->v[rs->n++];
    json_t *v = json_pack("{s:s,s:s,s:s,s:s}", "of", sweep_col_label(s, of_col), "to",
                          sweep_col_label(to, to_col), "framework", f->framework_title, "other",
                          g == f ? "" : g->framework_title);
    if (k->label && strcmp(k->of, "*") != 0) {
        r->label = pr_xstrdup(k->label);
    } else if (k->label) {
        r->label = pr_xasprintf("%s %s", sweep_col_label(s, of_col), k->label);
    } else {
        r->label = lang_fmt_plain(l, "sweep_ratio_auto", v, err);
    }
    json_decref(v);
    r->to = to;
    r->to_title = g == f ? NULL : g->framework_title;
    r->of_col = of_col;
    r->to_col = to_col;
    r->target = k->target;
}

/* The ratios f's suite asks for that its tables (and the other
 * frameworks') can give.  A compare naming a framework the model lacks is
 * an error at that entry of the suite. */
static int fw_ratios(const rmodel_world *w, const lang *l, const rmodel_fw *f, const pr_sweep *s,
                     sweep_ratios *rs, pr_err *err)
{
    const pr_suite *su = f->suite;
    for (size_t i = 0; su && i < su->ncompares; i++) {
        const pr_suite_compare *k = &su->compares[i];
        const rmodel_fw *g = f;
        const pr_sweep *to = s;
        if (k->framework) {
            g = rmodel_find_fw(w, f->model, k->framework);
            if (!g)
                return pr_err_set(err, su->path, k->line, k->col, "compare.framework",
                                  "model \"%s\" has no framework \"%s\" (no suite, record or "
                                  "published table names it)",
                                  f->model, k->framework);
            pr_sweep *o = fw_sweep(l, g, err);
            if (!o)
                return -1;
            rs->others = pr_xrealloc(rs->others, (rs->nothers + 1) * sizeof *rs->others);
            rs->others[rs->nothers++] = o;
            to = o;
            if (sweep_xkind(o) != PR_SWEEP_NONE && sweep_xkind(o) != sweep_xkind(s))
                continue; /* sizes against shapes: nothing to divide */
        }
        int every = strcmp(k->of, "*") == 0;
        for (size_t c = 0; c < sweep_ncols(s); c++) {
            const char *name = sweep_col_name(s, c);
            if (!every && strcmp(name, k->of) != 0)
                continue;
            long t = sweep_find_col(to, every ? name : k->to, s, c);
            if (t >= 0)
                ratio_add(rs, l, k, f, g, s, c, to, (size_t)t, err);
        }
    }
    return 0;
}

/* The ratio at row r of s; 0 when either value is missing. */
static int ratio_at(const pr_sweep *s, const sweep_ratio *q, size_t r, double *out)
{
    double a, b;
    long tr = q->to == s ? (long)r : sweep_find_row(q->to, s, r);
    if (tr < 0 || sweep_get(s, r, q->of_col, &a) != PR_SWEEP_VALUE ||
        sweep_get(q->to, (size_t)tr, q->to_col, &b) != PR_SWEEP_VALUE || !(b > 0))
        return 0;
    *out = a / b;
    return 1;
}

static int below_target(const sweep_ratio *q, double x)
{
    return !isnan(q->target) && md_round(x, PR_DECIMALS_SPEEDUP) < q->target;
}

/* The summary line of one ratio: at the largest size (sizes: small ones
 * measure caches and launch latency), or the lowest over the shapes. */
static void ratio_line(const lang *l, const pr_sweep *s, const sweep_ratio *q, pr_buf *out,
                       pr_err *err)
{
    double x = 0, best = NAN;
    long at = -1;
    for (size_t r = 0; r < sweep_nrows(s); r++) {
        if (!ratio_at(s, q, r, &x))
            continue;
        if (sweep_xkind(s) == PR_SWEEP_BYTES || at < 0 || x < best) {
            best = x;
            at = (long)r;
        }
    }
    json_t *v = json_pack("{s:s}", "label", q->label);
    if (at < 0) {
        lang_fmt(l, "sweep_ratio_none", v, out, err);
        json_decref(v);
        return;
    }
    pr_buf b = PR_BUF_INIT;
    md_number(&b, best, PR_DECIMALS_SPEEDUP);
    json_object_set_new(v, "ratio", json_string(pr_buf_cstr(&b)));
    pr_buf_clear(&b);
    row_x_text(&b, s, (size_t)at);
    json_object_set_new(v, "x", json_string(pr_buf_cstr(&b)));
    if (!isnan(q->target)) {
        pr_buf_clear(&b);
        md_number(&b, q->target, PR_DECIMALS_SPEEDUP);
        json_object_set_new(v, "target", json_string(pr_buf_cstr(&b)));
        const char *verdict = below_target(q, best) ? "sweep_target_missed" : "sweep_target_met";
        json_object_set_new(v, "verdict", json_string(lang_str(l, verdict)));
    }
    pr_buf_free(&b);
    lang_fmt(l, sweep_xkind(s) == PR_SWEEP_BYTES ? "sweep_ratio_at_size" : "sweep_ratio_lowest", v,
             out, err);
    json_decref(v);
}

/* Each column's share of the theoretical peak at the largest size. */
static void peak_lines(const lang *l, const pr_sweep *s, json_t *list, pr_err *err)
{
    double peak = sweep_peak(s), v;
    if (isnan(peak) || sweep_xkind(s) != PR_SWEEP_BYTES)
        return;
    for (size_t c = 0; c < sweep_ncols(s); c++) {
        for (size_t r = sweep_nrows(s); r-- > 0;) {
            if (sweep_get(s, r, c, &v) != PR_SWEEP_VALUE)
                continue;
            pr_buf b = PR_BUF_INIT, line = PR_BUF_INIT;
            json_t *jv =
                json_pack("{s:s,s:s}", "column", sweep_col_label(s, c), "unit", sweep_unit(s));
            mdtable_value(&b, v);
            json_object_set_new(jv, "value", json_string(pr_buf_cstr(&b)));
            pr_buf_clear(&b);
            md_number(&b, v / peak * 100, PR_DECIMALS_PERCENT);
            json_object_set_new(jv, "percent", json_string(pr_buf_cstr(&b)));
            pr_buf_clear(&b);
            mdtable_value(&b, peak);
            json_object_set_new(jv, "peak", json_string(pr_buf_cstr(&b)));
            pr_buf_clear(&b);
            row_x_text(&b, s, r);
            json_object_set_new(jv, "x", json_string(pr_buf_cstr(&b)));
            lang_fmt(l, "sweep_peak", jv, &line, err);
            json_array_append_new(list, json_string(pr_buf_cstr(&line)));
            json_decref(jv);
            pr_buf_free(&b);
            pr_buf_free(&line);
            break;
        }
    }
}

static void sweep_table(const lang *l, const pr_sweep *s, const sweep_ratios *rs, pr_buf *out,
                        pr_err *err)
{
    size_t nc = sweep_ncols(s), n = 1 + nc + rs->n;
    const char **heads = pr_xcalloc(n, sizeof *heads);
    char **owned = pr_xcalloc(n, sizeof *owned);
    pr_buf *cells = pr_xcalloc(n, sizeof *cells);
    heads[0] = lang_str(l, sweep_xkind(s) == PR_SWEEP_SHAPE ? "col_shape" : "col_size");
    for (size_t c = 0; c < nc; c++) {
        json_t *v = json_pack("{s:s,s:s}", "column", sweep_col_label(s, c), "unit", sweep_unit(s));
        heads[1 + c] = owned[1 + c] = lang_fmt_plain(l, "sweep_col", v, err);
        json_decref(v);
    }
    for (size_t i = 0; i < rs->n; i++)
        heads[1 + nc + i] = rs->v[i].label;
    mdtable_head(out, heads, n, 1);
    for (size_t r = 0; r < sweep_nrows(s); r++) {
        mdtable_cells_clear(cells, n);
        row_x_text(&cells[0], s, r);
        for (size_t c = 0; c < nc; c++) {
            double v;
            pr_sweep_state st = sweep_get(s, r, c, &v);
            if (st == PR_SWEEP_VALUE)
                mdtable_value(&cells[1 + c], v);
            else
                pr_buf_puts(&cells[1 + c],
                            lang_str(l, st == PR_SWEEP_NA ? "state_na" : "state_none"));
        }
        for (size_t i = 0; i < rs->n; i++) {
            double x;
            pr_buf *cell = &cells[1 + nc + i];
            if (!ratio_at(s, &rs->v[i], r, &x)) {
                pr_buf_puts(cell, lang_str(l, "state_none"));
                continue;
            }
            md_number(cell, x, PR_DECIMALS_SPEEDUP);
            if (below_target(&rs->v[i], x)) {
                pr_buf_putc(cell, ' ');
                pr_buf_puts(cell, lang_str(l, "gap_flag"));
            }
        }
        mdtable_row(out, cells, n);
    }
    for (size_t i = 0; i < n; i++)
        free(owned[i]);
    free(owned);
    free(heads);
    mdtable_cells_free(cells, n);
    free(cells);
}

int page_hw_view(const rmodel_world *w, const lang *l, const rmodel_fw *f, const char *page_rel,
                 chartspec_queue *oc, json_t *view, pr_err *err)
{
    int rc = -1;
    sweep_ratios rs = {0};
    pr_buf b = PR_BUF_INIT;
    pr_sweep *s = fw_sweep(l, f, err);
    if (!s)
        goto out;
    if (sweep_xkind(s) == PR_SWEEP_NONE || !sweep_nrows(s)) {
        rc = 0;
        goto out;
    }
    if (fw_ratios(w, l, f, s, &rs, err) < 0)
        goto out;
    json_t *sv = json_object();
    view_str(
        sv, "title",
        lang_str(l, sweep_xkind(s) == PR_SWEEP_BYTES ? "sweep_title_bytes" : "sweep_title_shape"));
    json_t *lines = json_array();
    peak_lines(l, s, lines, err);
    for (size_t i = 0; i < rs.n; i++) {
        pr_buf_clear(&b);
        ratio_line(l, s, &rs.v[i], &b, err);
        json_array_append_new(lines, json_string(pr_buf_cstr(&b)));
    }
    json_object_set_new(sv, "lines", lines);
    view_str(sv, "note", lang_str(l, "sweep_note"));
    if (sweep_xkind(s) == PR_SWEEP_BYTES)
        view_str(sv, "note_sizes", lang_str(l, "sweep_note_sizes"));
    pr_buf_clear(&b);
    sweep_table(l, s, &rs, &b, err);
    view_md(sv, "table", &b);
    if (oc->charts) {
        chartspec_sweep(l, f, s, &rs, page_rel, oc, &b, err);
        view_md(sv, "chart", &b);
    }
    json_object_set_new(view, "sweep", sv);
    rc = 0;
out:
    pr_buf_free(&b);
    ratios_free(&rs);
    sweep_free(s);
    return rc;
}
