#include "pages.h"

#include <stdlib.h>
#include <string.h>

#include "2-model/flags.h"
#include "2-model/sanity.h"
#include "3-tables/compare.h"
#include "3-tables/likewise.h"
#include "3-tables/mdtable.h"
#include "3-tables/provenance.h"
#include "3-tables/view.h"
#include "base/md.h"
#include "stats.h"

/* Model page: frameworks side by side, only like with like.  One section
 * per platform (figures of different machines are never compared), under
 * it one table per precision class and batch size, one column per
 * framework with its exact mode when the class has several; under each
 * table where each column's figures come from, and every other figure a
 * cell had that the table does not show.  Figures of no stated platform
 * are on no table (the framework pages show them). */

/* The folder of framework f's report, relative to the model page. */
static void fw_link(const lang *l, const rmodel_fw *f, pr_buf *out)
{
    pr_buf t = PR_BUF_INIT, target = PR_BUF_INIT;
    md_cell(&t, f->framework_title);
    pr_buf_printf(&target, "%s/%s", f->framework, l->readme);
    mdtable_link(out, pr_buf_cstr(&t), pr_buf_cstr(&target));
    pr_buf_free(&t);
    pr_buf_free(&target);
}

/* Column col's name: the framework (linked to its report when link), and
 * its exact mode when the class has several. */
static void col_name(const lang *l, const rmodel_mcfg *mc, size_t col, int link, pr_buf *out,
                     pr_err *err)
{
    if (link)
        fw_link(l, mc->fws[col], out);
    else
        md_text(out, mc->fws[col]->framework_title);
    pr_buf mode = PR_BUF_INIT;
    if (compare_col_mode(mc, col, &mode)) {
        json_t *v = json_pack("{s:s}", "mode", pr_buf_cstr(&mode));
        lang_fmt(l, "col_mode", v, out, err);
        json_decref(v);
    }
    pr_buf_free(&mode);
}

/* Cell rc as the summary tables show it; a figure parsed from a log whose
 * source printed another figure for it (the audit's ❌) says so in the
 * cell, with both figures, the difference and a link to the audit's line
 * ("4412.46‡ (Perf printed 5333.558†, −17.3 %, audit)"). */
static void printed_other_cell(const rmodel_world *w, const lang *l, const rmodel_cell *rc,
                               const char *page_rel, pr_buf *out, pr_err *err)
{
    const audit_item *it = rc->origin == RM_MEASURED && rc->imported
                               ? compare_audit_differs(w->audit, rc->link_rec)
                               : NULL;
    /* Reproduced under another rule than its run set's: the cell shows the
     * run set's value, and says what the source printed (the ✅ follows). */
    const audit_item *under = rc->origin == RM_MEASURED && rc->imported
                                  ? audit_item_of_rec(w->audit, rc->link_rec)
                                  : NULL;
    if (!it && under && under->under && !under->other_bs) {
        pr_buf value = PR_BUF_INIT, printed = PR_BUF_INIT, diff = PR_BUF_INIT;
        pr_buf label = PR_BUF_INIT;
        mdtable_summary_cell(w, l, rc, page_rel, NULL, &value);
        mdtable_pub_value(&printed, under->row);
        pr_buf_puts(&printed, lang_str(l, "published_mark"));
        compare_signed_pct(&diff, under->diff_pct);
        md_text(&label, under->table->label);
        json_t *v = json_pack("{s:s,s:s,s:s,s:s}", "value", pr_buf_cstr(&value), "printed",
                              pr_buf_cstr(&printed), "diff", pr_buf_cstr(&diff), "source",
                              pr_buf_cstr(&label));
        lang_fmt(l, "head_printed_under", v, out, err);
        json_decref(v);
        pr_buf_free(&value);
        pr_buf_free(&printed);
        pr_buf_free(&diff);
        pr_buf_free(&label);
        return;
    }
    if (!it) {
        mdtable_summary_cell(w, l, rc, page_rel, NULL, out);
        return;
    }
    pr_buf value = PR_BUF_INIT, printed = PR_BUF_INIT, diff = PR_BUF_INIT, label = PR_BUF_INIT;
    pr_buf heading = PR_BUF_INIT, anchor = PR_BUF_INIT, link = PR_BUF_INIT;
    mdtable_summary_cell(w, l, rc, page_rel, NULL, &value);
    mdtable_pub_value(&printed, it->row);
    pr_buf_puts(&printed, lang_str(l, "published_mark"));
    compare_signed_pct(&diff, it->diff_pct);
    md_text(&label, it->table->label);
    compare_audit_heading(l, it, &heading, &anchor, err);
    /* The audit sits at the output's root, the model page one below. */
    pr_buf_printf(&link, "../%s#%s", strcmp(l->code, "zh") == 0 ? PAGES_AUDIT_ZH : PAGES_AUDIT_EN,
                  pr_buf_cstr(&anchor));
    json_t *v = json_pack("{s:s,s:s,s:s,s:s,s:s}", "value", pr_buf_cstr(&value), "printed",
                          pr_buf_cstr(&printed), "diff", pr_buf_cstr(&diff), "source",
                          pr_buf_cstr(&label), "link", pr_buf_cstr(&link));
    lang_fmt(l, "head_printed_other", v, out, err);
    json_decref(v);
    pr_buf_free(&value);
    pr_buf_free(&printed);
    pr_buf_free(&diff);
    pr_buf_free(&label);
    pr_buf_free(&heading);
    pr_buf_free(&anchor);
    pr_buf_free(&link);
}

/* The table of configuration mc: one row per nodes × GPUs, one column per
 * framework. */
static void cross_table(const rmodel_world *w, const lang *l, const rmodel_mcfg *mc,
                        const char *page_rel, sanity_notes *sn, view_notes *nt, pr_buf *out,
                        pr_err *err)
{
    size_t nh = mc->ncols + 2;
    pr_buf *cells = pr_xcalloc(nh, sizeof *cells);
    md_cell(&cells[0], lang_str(l, "col_nodes"));
    /* CPU platforms count processes, not GPUs. */
    md_cell(&cells[1], provenance_col_count(l, mc->cfg.platform));
    for (size_t i = 0; i < mc->ncols; i++)
        col_name(l, mc, i, 1, &cells[i + 2], err);
    mdtable_row(out, cells, nh);
    pr_buf_puts(out, "|");
    for (size_t i = 0; i < nh; i++)
        pr_buf_puts(out, " ---: |");
    pr_buf_putc(out, '\n');
    /* Each column's flags as the flag pass decided them (flags.h): the
     * figure each cell stands for, checked in the table its framework page
     * shows it in (a published figure against its own table's 1-GPU
     * figure, not against this table's runs); marks per row and column,
     * footnotes under the table naming the column. */
    pr_buf *marks = pr_xcalloc(mc->nrows * mc->ncols + 1, sizeof *marks);
    pr_buf who = PR_BUF_INIT;
    for (size_t i = 0; i < mc->ncols; i++) {
        const rmodel_cfg *fc = mc->fcfgs[i];
        pr_buf_clear(&who);
        col_name(l, mc, i, 0, &who, err);
        sn->who = pr_buf_cstr(&who);
        pr_buf *col = pr_xcalloc(fc->ncells + 1, sizeof *col);
        flags_cfg_notes(l, mc->fws[i], fc, NULL, col, sn, err);
        for (size_t r = 0; r < mc->nrows; r++) {
            const rmodel_cell *rc = rmodel_cell_of(fc, mc->rows[r].nodes, mc->rows[r].gpus);
            if (rc >= fc->cells && rc < fc->cells + fc->ncells)
                pr_buf_puts(&marks[r * mc->ncols + i], pr_buf_cstr(&col[rc - fc->cells]));
        }
        for (size_t r = 0; r < fc->ncells; r++)
            pr_buf_free(&col[r]);
        free(col);
    }
    sn->who = NULL;
    for (size_t r = 0; r < mc->nrows; r++) {
        int nodes = mc->rows[r].nodes, gpus = mc->rows[r].gpus;
        mdtable_cells_clear(cells, nh);
        pr_buf_printf(&cells[0], "%d", nodes);
        pr_buf_printf(&cells[1], "%d", gpus);
        for (size_t i = 0; i < mc->ncols; i++) {
            const rmodel_cell *rc = rmodel_cell_of(mc->fcfgs[i], nodes, gpus);
            printed_other_cell(w, l, rc, page_rel, &cells[i + 2], err);
            pr_buf_puts(&cells[i + 2], pr_buf_cstr(&marks[r * mc->ncols + i]));
            /* Any other figure the audit covers links its verdict, after
             * the flags that travel with the figure ("243† ❗a ❌"). */
            if (!(rc->origin == RM_MEASURED && rc->imported &&
                  compare_audit_differs(w->audit, rc->link_rec)))
                compare_audit_verdict_link(l, compare_audit_of_cell(w->audit, rc), page_rel,
                                           &cells[i + 2]);
            nt->failed |= rc->origin == RM_FAILED;
        }
        mdtable_row(out, cells, nh);
    }
    if (sn->notes.len) {
        pr_buf_putc(out, '\n');
        pr_buf_puts(out, pr_buf_cstr(&sn->notes));
        nt->sanity = 1;
    }
    for (size_t i = 0; i < mc->nrows * mc->ncols; i++)
        pr_buf_free(&marks[i]);
    free(marks);
    pr_buf_free(&who);
    /* The letters go on under the other figures (column_others). */
    pr_buf_clear(&sn->notes);
    mdtable_cells_free(cells, nh);
    free(cells);
}

/* Appends the "repo" of an imported record's source (linked to its url)
 * to *list unless it is there; NULL records are skipped. */
static void add_repo(const pr_record *r, pr_buf *list, const lang *l)
{
    json_t *repo = r && r->source ? json_object_get(r->source, "repo") : NULL;
    json_t *url = r && r->source ? json_object_get(r->source, "url") : NULL;
    if (!json_is_string(repo))
        return;
    pr_buf item = PR_BUF_INIT, t = PR_BUF_INIT;
    md_text(&t, json_string_value(repo));
    if (json_is_string(url))
        mdtable_link_url(&item, pr_buf_cstr(&t), json_string_value(url));
    else
        pr_buf_puts(&item, pr_buf_cstr(&t));
    if (!strstr(pr_buf_cstr(list), pr_buf_cstr(&item))) {
        if (list->len)
            pr_buf_puts(list, lang_str(l, "value_sep"));
        pr_buf_puts(list, pr_buf_cstr(&item));
    }
    pr_buf_free(&item);
    pr_buf_free(&t);
}

/* Where column col's figures come from, as one list item: measured here,
 * imported from the repositories the logs were published in, the
 * published table the column shows (its label linked to its source), or
 * nothing yet. */
static void column_sources(const lang *l, const rmodel_mcfg *mc, size_t col, pr_buf *out,
                           pr_err *err)
{
    const rmodel_cfg *fc = mc->fcfgs[col];
    int measured = 0, imported = 0, published = 0;
    pr_buf repos = PR_BUF_INIT, what = PR_BUF_INIT, name = PR_BUF_INIT;
    for (size_t r = 0; r < mc->nrows; r++) {
        const rmodel_cell *rc = rmodel_cell_of(fc, mc->rows[r].nodes, mc->rows[r].gpus);
        int runs = rc->origin == RM_MEASURED || rc->origin == RM_FAILED;
        measured |= runs && !rc->imported;
        imported |= runs && rc->imported;
        published |= rc->origin == RM_PUBLISHED || rc->origin == RM_PUB_STATE;
        if (runs && rc->imported)
            add_repo(rc->n_ok ? rc->link_rec : rc->fail_rec, &repos, l);
    }
    const char *sep = lang_str(l, "list_sep");
    if (measured)
        pr_buf_puts(&what, lang_str(l, "src_measured"));
    if (imported) {
        json_t *v = json_object();
        if (repos.len)
            view_str(v, "repos", pr_buf_cstr(&repos));
        if (what.len)
            pr_buf_puts(&what, sep);
        lang_fmt(l, "src_imported", v, &what, err);
        json_decref(v);
    }
    if (published && fc->pub) {
        pr_buf src = PR_BUF_INIT;
        compare_pub_source(l, fc->pub, &src, err);
        json_t *v = json_pack("{s:s}", "source", pr_buf_cstr(&src));
        if (what.len)
            pr_buf_puts(&what, sep);
        lang_fmt(l, "src_published", v, &what, err);
        json_decref(v);
        pr_buf_free(&src);
    }
    if (!what.len)
        pr_buf_puts(&what, lang_str(l, "src_none"));
    col_name(l, mc, col, 0, &name, err);
    json_t *v =
        json_pack("{s:s,s:s}", "framework", pr_buf_cstr(&name), "sources", pr_buf_cstr(&what));
    pr_buf_puts(out, "- ");
    lang_fmt(l, "src_column", v, out, err);
    pr_buf_putc(out, '\n');
    json_decref(v);
    pr_buf_free(&repos);
    pr_buf_free(&what);
    pr_buf_free(&name);
}

/* The row of table t that cell rc had and the table does not show: the
 * primary published row when runs took precedence over it, else its row
 * among the cell's alternatives; NULL when t is neither. */
static const pr_pub_row *other_row(const rmodel_cfg *fc, const rmodel_cell *rc,
                                   const pr_pub_table *t)
{
    if (t == fc->pub)
        return (rc->origin == RM_MEASURED || rc->origin == RM_FAILED) ? rc->pub : NULL;
    for (size_t a = 0; a < rc->nalts; a++)
        if (rc->alt_tabs[a] == t)
            return rc->alt_rows[a];
    return NULL;
}

/* Every other figure column col's cells had, one list item per source
 * table (in the order the cells' precedence lists them): the figures of
 * the column's own published table that runs displaced, then the cells'
 * alternatives.  Returns the items written. */
static size_t column_others(const rmodel_world *w, const lang *l, const rmodel_mcfg *mc, size_t col,
                            const char *page_rel, sanity_notes *sn, pr_buf *out, pr_err *err)
{
    const rmodel_cfg *fc = mc->fcfgs[col];
    const pr_pub_table **tabs = pr_xcalloc(1, sizeof *tabs);
    size_t nt = 0, items = 0;
    for (size_t r = 0; r < mc->nrows; r++) {
        const rmodel_cell *rc = rmodel_cell_of(fc, mc->rows[r].nodes, mc->rows[r].gpus);
        for (size_t a = 0; a <= rc->nalts; a++) {
            const pr_pub_table *t = a == 0 ? fc->pub : rc->alt_tabs[a - 1];
            size_t k = 0;
            while (k < nt && tabs[k] != t)
                k++;
            if (!t || k < nt || !other_row(fc, rc, t))
                continue;
            tabs = pr_xrealloc(tabs, (nt + 1) * sizeof *tabs);
            tabs[nt++] = t;
        }
    }
    pr_buf name = PR_BUF_INIT, src = PR_BUF_INIT, vals = PR_BUF_INIT;
    col_name(l, mc, col, 0, &name, err);
    for (size_t k = 0; k < nt; k++) {
        pr_buf_clear(&src);
        pr_buf_clear(&vals);
        compare_pub_source(l, tabs[k], &src, err);
        for (size_t r = 0; r < mc->nrows; r++) {
            const rmodel_cell *rc = rmodel_cell_of(fc, mc->rows[r].nodes, mc->rows[r].gpus);
            const pr_pub_row *row = other_row(fc, rc, tabs[k]);
            if (!row)
                continue;
            if (vals.len)
                pr_buf_puts(&vals, lang_str(l, "value_sep"));
            lang_gpus_label(l, rc->nodes, rc->gpus, &vals, err);
            pr_buf_putc(&vals, ' ');
            if (row->has_value) {
                mdtable_pub_value(&vals, row);
                pr_buf_puts(&vals, lang_str(l, "published_mark"));
                /* Flagged in its own table: its mark travels with it. */
                if (flags_pub_row_flagged(mc->fws[col], tabs[k], row)) {
                    sn->who = pr_buf_cstr(&name);
                    flags_pub_row_notes(l, mc->fws[col], tabs[k], row, &vals, sn, err);
                    sn->who = NULL;
                }
                compare_audit_verdict_link(l, audit_item_of_row(w->audit, row), page_rel, &vals);
            } else {
                md_text(&vals, row->state);
            }
        }
        json_t *v = json_pack("{s:s,s:s,s:s}", "framework", pr_buf_cstr(&name), "source",
                              pr_buf_cstr(&src), "values", pr_buf_cstr(&vals));
        pr_buf_puts(out, "- ");
        lang_fmt(l, "alt_column", v, out, err);
        pr_buf_putc(out, '\n');
        json_decref(v);
        items++;
    }
    pr_buf_free(&name);
    pr_buf_free(&src);
    pr_buf_free(&vals);
    free(tabs);
    return items;
}

/* Sets key to the Markdown in b (consumed) without its final line breaks:
 * the template spaces the blocks. */
static void set_block(json_t *o, const char *key, pr_buf *b)
{
    while (b->len && b->data[b->len - 1] == '\n')
        pr_buf_truncate(b, b->len - 1);
    view_md(o, key, b);
}

/* One configuration's view: its heading, table, sources, other figures and
 * charts.  NULL with err set when a chart fails. */
static json_t *config_view(const rmodel_world *w, const lang *l, const rmodel_model *m,
                           const rmodel_mcfg *mc, chartspec_queue *oc, view_notes *nt, pr_err *err)
{
    json_t *cv = json_object();
    pr_buf b = PR_BUF_INIT;
    compare_config_name(l, &mc->cfg, 1, &b, err);
    view_md(cv, "name", &b);
    sanity_notes sn;
    sanity_notes_init(&sn, 1);
    cross_table(w, l, mc, m->id, &sn, nt, &b, err);
    set_block(cv, "table", &b);
    pr_buf_puts(&b, lang_str(l, "src_heading"));
    pr_buf_puts(&b, "\n\n");
    for (size_t i = 0; i < mc->ncols; i++)
        column_sources(l, mc, i, &b, err);
    set_block(cv, "sources", &b);
    /* Like with like: what each column's figure is and how the columns'
     * configurations differ, before any ranking (issue 30, item 2). */
    likewise_cmp *lw = likewise_build(mc, NULL, 0);
    if (lw) {
        likewise_markdown(w, l, lw, m->id, &b, err);
        set_block(cv, "likewise", &b);
        likewise_free(lw);
    }
    pr_buf others = PR_BUF_INIT;
    size_t n = 0;
    for (size_t i = 0; i < mc->ncols; i++)
        n += column_others(w, l, mc, i, m->id, &sn, &others, err);
    if (n) {
        pr_buf_puts(&b, lang_str(l, "alt_heading"));
        pr_buf_puts(&b, "\n\n");
        pr_buf_puts(&b, pr_buf_cstr(&others));
        if (sn.notes.len) {
            pr_buf_putc(&b, '\n');
            pr_buf_puts(&b, pr_buf_cstr(&sn.notes));
            nt->sanity = 1;
        }
        set_block(cv, "others", &b);
    }
    pr_buf_free(&others);
    sanity_notes_free(&sn);
    if (oc->charts) {
        if (chartspec_model(l, m, mc, oc, &b, err) < 0) {
            json_decref(cv);
            cv = NULL;
            goto out;
        }
        if (b.len)
            set_block(cv, "chart", &b);
    }
out:
    pr_buf_free(&b);
    return cv;
}

/* Tables within a platform: by class (in the classes file's order, the
 * classes being one array), then batch size. */
static int mcfg_qsort(const void *a, const void *b)
{
    const rmodel_cfg *x = &(*(const rmodel_mcfg *const *)a)->cfg,
                     *y = &(*(const rmodel_mcfg *const *)b)->cfg;
    if (x->klass != y->klass)
        return x->klass < y->klass ? -1 : 1;
    if (x->bs != y->bs)
        return x->bs < y->bs ? -1 : 1;
    return strcmp(x->batch_label ? x->batch_label : "", y->batch_label ? y->batch_label : "");
}

/* 1 when cell rc is a case planned and not run: a suite's TODO, or a
 * published table's (a source's own plan). */
static int is_todo(const rmodel_cell *rc)
{
    return rc->origin == RM_PLANNED ||
           (rc->origin == RM_PUB_STATE && strcmp(rc->pub->state, "TODO") == 0);
}

/* The figures configuration mc shows (cells with a figure, or a state such
 * as OOM or a failure); 0: a planned configuration. */
static size_t mc_figures(const rmodel_mcfg *mc)
{
    size_t n = 0;
    for (size_t i = 0; i < mc->ncols; i++)
        for (size_t r = 0; r < mc->fcfgs[i]->ncells; r++) {
            const rmodel_cell *rc = &mc->fcfgs[i]->cells[r];
            n += rc->origin != RM_NONE && !is_todo(rc);
        }
    return n;
}

/* A planned configuration as one list item: its name, then each
 * framework's planned cases ("FP32 BS=32: PyTorch: 1×1, 1×8 GPUs"). */
static void planned_item(const lang *l, const rmodel_mcfg *mc, pr_buf *out, pr_err *err)
{
    pr_buf name = PR_BUF_INIT, cols = PR_BUF_INIT, col = PR_BUF_INIT, cases = PR_BUF_INIT;
    compare_config_name(l, &mc->cfg, 0, &name, err);
    for (size_t i = 0; i < mc->ncols; i++) {
        const rmodel_cfg *fc = mc->fcfgs[i];
        pr_buf_clear(&cases);
        for (size_t r = 0; r < fc->ncells; r++) {
            if (!is_todo(&fc->cells[r]))
                continue;
            if (cases.len)
                pr_buf_puts(&cases, lang_str(l, "value_sep"));
            platform_count_label(l, mc->cfg.platform, fc->cells[r].nodes, fc->cells[r].gpus, &cases,
                                 err);
        }
        if (!cases.len)
            continue;
        pr_buf_clear(&col);
        col_name(l, mc, i, 1, &col, err);
        json_t *v =
            json_pack("{s:s,s:s}", "framework", pr_buf_cstr(&col), "cases", pr_buf_cstr(&cases));
        if (cols.len)
            pr_buf_puts(&cols, lang_str(l, "list_sep"));
        lang_fmt(l, "head_planned_cases", v, &cols, err);
        json_decref(v);
    }
    json_t *v = json_pack("{s:s,s:s}", "config", pr_buf_cstr(&name), "cases", pr_buf_cstr(&cols));
    pr_buf_puts(out, "- ");
    lang_fmt(l, "head_planned_item", v, out, err);
    pr_buf_putc(out, '\n');
    json_decref(v);
    pr_buf_free(&name);
    pr_buf_free(&cols);
    pr_buf_free(&col);
    pr_buf_free(&cases);
}

/* One platform's section: m->cfgs[first, end) (one platform). */
typedef struct {
    size_t first, end, figures;
    int main, cpu;
} plat_group;

/* Sections: the headline's platform first, then by the figures they show
 * (most first), then by name (the configurations' order). */
static int group_qsort(const void *a, const void *b)
{
    const plat_group *x = a, *y = b;
    if (x->main != y->main)
        return y->main - x->main;
    if (x->figures != y->figures)
        return x->figures > y->figures ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* One platform's view: its tables (configurations with figures: the
 * headline's head first, then by class, then batch size) and one list of its planned configurations.
 * NULL with err set when a chart fails. */
static json_t *platform_view(const rmodel_world *w, const lang *l, const rmodel_model *m,
                             const plat_group *g, const rmodel_mcfg *head, chartspec_queue *oc,
                             view_notes *nt, pr_err *err)
{
    const rmodel_mcfg **order = pr_xcalloc(g->end - g->first + 1, sizeof *order);
    size_t n = 0;
    for (size_t i = g->first; i < g->end; i++)
        order[n++] = &m->cfgs[i];
    pr_qsort(order, n, sizeof *order, mcfg_qsort);
    /* The headline's configuration (the index's) first. */
    for (size_t i = 1; i < n; i++)
        if (order[i] == head) {
            memmove(order + 1, order, i * sizeof *order);
            order[0] = head;
        }
    json_t *configs = json_array(), *pv = json_object();
    pr_buf planned = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (!mc_figures(order[i])) {
            planned_item(l, order[i], &planned, err);
            continue;
        }
        json_t *cv = config_view(w, l, m, order[i], oc, nt, err);
        if (!cv) {
            json_decref(configs);
            json_decref(pv);
            pv = NULL;
            goto out;
        }
        json_array_append_new(configs, cv);
    }
    view_text(pv, "name", compare_platform_title(l, m->cfgs[g->first].cfg.platform));
    json_object_set_new(pv, "configs", configs);
    if (planned.len) {
        json_t *v = json_object();
        if (!json_array_size(configs))
            json_object_set_new(v, "only", json_true());
        pr_buf intro = PR_BUF_INIT;
        lang_fmt(l, "head_planned_intro", v, &intro, err);
        json_decref(v);
        view_md(pv, "planned_intro", &intro);
        pr_buf_free(&intro);
        set_block(pv, "planned", &planned);
    }
out:
    pr_buf_free(&planned);
    free(order);
    return pv;
}

/* The platform sections: m's configurations (sorted by platform already)
 * grouped by platform, GPU machines into *gpu and CPU machines into *cpu
 * (their own section: never beside a GPU in a comparison), each in
 * group_qsort's order.  -1 with err set when a chart fails. */
static int platforms_view(const rmodel_world *w, const lang *l, const rmodel_model *m,
                          chartspec_queue *oc, view_notes *nt, json_t **gpu, json_t **cpu,
                          pr_err *err)
{
    const rmodel_mcfg *head = compare_headline_cfg(w, m, NULL);
    plat_group *groups = pr_xcalloc(m->ncfgs + 1, sizeof *groups);
    size_t ng = 0;
    for (size_t first = 0; first < m->ncfgs;) {
        const pr_platform *p = m->cfgs[first].cfg.platform;
        plat_group g = {first, first, 0, 0, platform_is_cpu(p)};
        while (g.end < m->ncfgs && m->cfgs[g.end].cfg.platform == p) {
            g.figures += mc_figures(&m->cfgs[g.end]);
            g.main |= &m->cfgs[g.end] == head;
            g.end++;
        }
        groups[ng++] = g;
        first = g.end;
    }
    pr_qsort(groups, ng, sizeof *groups, group_qsort);
    *gpu = json_array();
    *cpu = json_array();
    int rc = 0;
    for (size_t i = 0; i < ng; i++) {
        json_t *pv = platform_view(w, l, m, &groups[i], head, oc, nt, err);
        if (!pv) {
            rc = -1;
            break;
        }
        json_array_append_new(groups[i].cpu ? *cpu : *gpu, pv);
    }
    free(groups);
    return rc;
}

/* The line saying that m has figures of no stated platform, which no table
 * here shows, and whose they are; nothing when it has none. */
static void unknown_note(const lang *l, const rmodel_model *m, pr_buf *out, pr_err *err)
{
    size_t count = 0;
    pr_buf fws = PR_BUF_INIT;
    for (size_t i = 0; i < m->nfws; i++) {
        const rmodel_fw *f = m->fws[i];
        size_t before = count;
        for (size_t j = 0; j < f->ncfgs; j++)
            for (size_t r = 0; !f->cfgs[j].platform && r < f->cfgs[j].ncells; r++) {
                rmodel_origin o = f->cfgs[j].cells[r].origin;
                count += o != RM_PLANNED && o != RM_NONE;
            }
        if (count > before) {
            if (fws.len)
                pr_buf_puts(&fws, lang_str(l, "value_sep"));
            mdtable_page_link(&fws, f->framework_title, f->framework, l);
        }
    }
    if (count) {
        json_t *v =
            json_pack("{s:I,s:s}", "count", (json_int_t)count, "frameworks", pr_buf_cstr(&fws));
        lang_fmt(l, "unknown_platform_note", v, out, err);
        json_decref(v);
    }
    pr_buf_free(&fws);
}

json_t *page_model_view(const rmodel_world *w, const lang *l, const rmodel_model *m,
                        chartspec_queue *oc, pr_err *err)
{
    json_t *view = json_object();
    view_notes nt = {0};
    pr_buf b = PR_BUF_INIT;
    int ok = 0;
    view_text(view, "model_title", m->title);
    view_page(view, l);
    view_str(view, "origin_legend", lang_str(l, "origin_legend"));
    compare_audit_legend(l, w->audit, m->id, NULL, m->id, view, err);
    json_t *plats = NULL, *cpu = NULL;
    if (platforms_view(w, l, m, oc, &nt, &plats, &cpu, err) < 0) {
        json_decref(plats);
        json_decref(cpu);
        goto out;
    }
    json_object_set_new(view, "platforms", plats);
    json_object_set_new(view, "cpu_platforms", cpu);
    json_object_set_new(view, "has_cpu", json_boolean(json_array_size(cpu) > 0));
    /* The precedence is said once, above the tables, when some cell has
     * other figures. */
    int others = 0;
    for (int k = 0; k < 2; k++) {
        json_t *list = k ? cpu : plats;
        for (size_t i = 0; i < json_array_size(list); i++) {
            json_t *cfgs = json_object_get(json_array_get(list, i), "configs");
            for (size_t j = 0; j < json_array_size(cfgs); j++)
                others |= json_object_get(json_array_get(cfgs, j), "others") != NULL;
        }
    }
    if (others)
        view_str(view, "precedence", lang_str(l, "alt_precedence"));
    if (!m->ncfgs)
        view_str(view, "no_configs", lang_str(l, "no_known_platform"));
    unknown_note(l, m, &b, err);
    if (b.len)
        view_md(view, "unknown_note", &b);
    view_unit(view, l, "unit", m->nfws ? m->fws[0]->unit : "");
    json_t *fws = json_array();
    for (size_t i = 0; i < m->nfws; i++) {
        mdtable_page_link(&b, m->fws[i]->framework_title, m->fws[i]->framework, l);
        json_array_append_new(fws, json_pack("{s:s}", "link", pr_buf_cstr(&b)));
        pr_buf_clear(&b);
    }
    json_object_set_new(view, "frameworks", fws);
    int hardware = m->nfws > 0;
    for (size_t i = 0; i < m->nfws; i++)
        hardware &= m->fws[i]->suite && m->fws[i]->suite->hardware;
    json_object_set_new(view, "hardware", json_boolean(hardware));
    /* The origin legend explains the marks; no separate † note. */
    view_notes_set(view, l, &nt, NULL, err);
    ok = 1;
out:
    pr_buf_free(&b);
    if (!ok) {
        json_decref(view);
        view = NULL;
    }
    return view;
}
