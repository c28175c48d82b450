#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "1-load/runset.h"
#include "base/md.h"
#include "mdtable.h"
#include "view.h"

const char *compare_platform_title(const lang *l, const pr_platform *p)
{
    if (!p)
        return lang_str(l, "platform_unknown");
    return strcmp(l->code, "zh") == 0 ? p->title_zh : p->title_en;
}

/* The view class_config_name reads; a new reference the caller owns. */
static json_t *config_view(const lang *l, const rmodel_cfg *c, int with_platform)
{
    const char *title = strcmp(l->code, "zh") == 0 ? c->klass->title_zh : c->klass->title_en;
    json_t *v = json_object();
    json_object_set_new(v, "class", json_string(title));
    /* "混合精度（AMP / FP16）BS=64": no space after a full-width bracket. */
    size_t n = strlen(title);
    json_object_set_new(v, "tight", json_boolean(n >= 3 && strcmp(title + n - 3, "）") == 0));
    if (c->batch_label)
        json_object_set_new(v, "batch", json_string(c->batch_label));
    else if (c->bs > 0 && !c->hardware)
        json_object_set_new(v, "batch", json_integer(c->bs));
    if (with_platform)
        json_object_set_new(v, "platform", json_string(compare_platform_title(l, c->platform)));
    return v;
}

void compare_config_name(const lang *l, const rmodel_cfg *c, int with_platform, pr_buf *out,
                         pr_err *err)
{
    json_t *v = config_view(l, c, with_platform);
    lang_fmt(l, "class_config_name", v, out, err);
    json_decref(v);
}

char *compare_config_plain(const lang *l, const rmodel_cfg *c, int with_platform, pr_err *err)
{
    json_t *v = config_view(l, c, with_platform);
    char *s = lang_fmt_plain(l, "class_config_name", v, err);
    json_decref(v);
    return s;
}

int compare_col_mode(const rmodel_mcfg *mc, size_t col, pr_buf *out)
{
    const pr_prec_class *k = mc->cfg.klass;
    if (!k->modes[0] || !k->modes[1])
        return 0;
    mdtable_mode_name(mc->fcfgs[col]->precision, out);
    return 1;
}

void compare_pub_source(const lang *l, const pr_pub_table *t, pr_buf *out, pr_err *err)
{
    pr_buf label = PR_BUF_INIT, src = PR_BUF_INIT;
    md_text(&label, t->label);
    if (t->source_url)
        mdtable_link_url(&src, pr_buf_cstr(&label), t->source_url);
    else
        pr_buf_puts(&src, pr_buf_cstr(&label));
    json_t *v = json_object();
    json_object_set_new(v, "source", json_string(pr_buf_cstr(&src)));
    if (t->variant.en)
        json_object_set_new(v, "variant", json_string(pr_bitext_in(&t->variant, l->code)));
    lang_fmt(l, "src_pub_table", v, out, err);
    json_decref(v);
    pr_buf_free(&label);
    pr_buf_free(&src);
}

/* 1 when cell rc shows a figure (runs' or published). */
static int has_figure(const rmodel_cell *rc)
{
    return rc->origin == RM_MEASURED || rc->origin == RM_PUBLISHED;
}

/* What model configuration mc holds (at gpus; 0: any row): the columns
 * with a reproduced figure (runs measured or parsed from logs), the
 * columns with any figure, the figures. */
typedef struct {
    int repro_cols, fig_cols, figs;
} mc_count;

static mc_count count_mc(const rmodel_mcfg *mc, int gpus)
{
    mc_count k = {0, 0, 0};
    for (size_t i = 0; i < mc->ncols; i++) {
        const rmodel_cfg *c = mc->fcfgs[i];
        int repro = 0, fig = 0;
        for (size_t r = 0; r < c->ncells; r++) {
            const rmodel_cell *rc = &c->cells[r];
            if (gpus && rc->gpus != gpus)
                continue;
            repro |= rc->origin == RM_MEASURED;
            fig |= has_figure(rc);
            k.figs += has_figure(rc);
        }
        k.repro_cols += repro;
        k.fig_cols += fig;
    }
    return k;
}

/* The last date of run's run set ("" when none states one): rs_dates' last
 * 10 characters, read rather than formatted, for this runs for every
 * record of a model at every configuration (issue 31 #17). */
static const char *runset_last(const pr_run *run)
{
    return runset_first_date(run)[0] ? runset_last_date(run) : "";
}

/* How many of m's frameworks have their newest run set (by its last date)
 * on platform p. */
static int newest_cover(const rmodel_model *m, const pr_platform *p)
{
    int n = 0;
    for (size_t i = 0; i < m->nfws; i++) {
        const rmodel_fw *f = m->fws[i];
        const char *best = "";
        const pr_platform *at = NULL;
        for (size_t j = 0; j < f->nrecs; j++) {
            const char *d = runset_last(f->runs[j]);
            if (!at || strcmp(d, best) > 0) {
                at = f->rec_plats[j];
                best = d;
            }
        }
        n += at && at == p;
    }
    return n;
}

/* How many of m's frameworks have a reproduced figure on platform p. */
static int repro_cover(const rmodel_model *m, const pr_platform *p)
{
    int n = 0;
    for (size_t i = 0; i < m->nfws; i++) {
        const rmodel_fw *f = m->fws[i];
        int has = 0;
        for (size_t j = 0; j < f->ncfgs && !has; j++)
            for (size_t r = 0; f->cfgs[j].platform == p && r < f->cfgs[j].ncells && !has; r++)
                has = f->cfgs[j].cells[r].origin == RM_MEASURED;
        n += has;
    }
    return n;
}

/* The GPU count the chosen headline shows in mc: a whole node's worth
 * when it compares (the largest count of one node where two frameworks
 * or more have a reproduced figure, then any figure); else where the most
 * frameworks have a reproduced figure, then any figure, then the larger
 * count.  0 when mc has no figure. */
static int choose_gpus(const rmodel_mcfg *mc)
{
    for (int repro = 1; repro >= 0; repro--) {
        int best = 0;
        for (size_t r = 0; r < mc->nrows; r++) {
            mc_count k = count_mc(mc, mc->rows[r].gpus);
            if (mc->rows[r].nodes == 1 && (repro ? k.repro_cols : k.fig_cols) >= 2 &&
                mc->rows[r].gpus > best)
                best = mc->rows[r].gpus;
        }
        if (best)
            return best;
    }
    int best = 0;
    mc_count bk = {0, 0, 0};
    for (size_t r = 0; r < mc->nrows; r++) {
        int g = mc->rows[r].gpus;
        mc_count k = count_mc(mc, g);
        if (!k.fig_cols)
            continue;
        if (!best || k.repro_cols > bk.repro_cols ||
            (k.repro_cols == bk.repro_cols &&
             (k.fig_cols > bk.fig_cols || (k.fig_cols == bk.fig_cols && g > best)))) {
            best = g;
            bk = k;
        }
    }
    return best;
}

/* The rule (docs/data-model.md#headline), each step breaking the previous
 * one's ties: a configuration with figures; one with reproduced figures
 * over one with published figures only; the platform where the frameworks'
 * newest run sets are, for the most frameworks; the platform where the
 * most frameworks have reproduced figures; the configuration where the
 * most frameworks have reproduced figures, then any figures, then the most
 * figures; the first in the model page's order. */
static const rmodel_mcfg *choose_cfg(const rmodel_model *m)
{
    const rmodel_mcfg *best = NULL;
    int bv[6] = {0};
    for (size_t i = 0; i < m->ncfgs; i++) {
        const rmodel_mcfg *mc = &m->cfgs[i];
        mc_count k = count_mc(mc, 0);
        if (!k.figs)
            continue;
        int v[6] = {k.repro_cols > 0,
                    newest_cover(m, mc->cfg.platform),
                    repro_cover(m, mc->cfg.platform),
                    k.repro_cols,
                    k.fig_cols,
                    k.figs};
        int cmp = 0;
        for (int j = 0; j < 6 && !cmp; j++)
            cmp = v[j] - bv[j];
        if (!best || cmp > 0) {
            best = mc;
            memcpy(bv, v, sizeof bv);
        }
    }
    return best;
}

void compare_headline_of(const rmodel_world *w, const rmodel_model *m, compare_headline *h)
{
    memset(h, 0, sizeof *h);
    const pr_model_decl *d = decl_model(&w->d->decls, m->id);
    h->declared = d;
    for (size_t i = 0; d && i < m->ncfgs; i++) {
        const rmodel_mcfg *mc = &m->cfgs[i];
        const rmodel_cfg *c = &mc->cfg;
        if (c->platform == d->platform && c->klass == d->precision_class &&
            c->bs == d->batch_size && count_mc(mc, d->gpus).fig_cols) {
            h->mc = mc;
            h->gpus = d->gpus;
            h->decl = d;
            return;
        }
    }
    h->mc = choose_cfg(m);
    h->gpus = h->mc ? choose_gpus(h->mc) : 0;
}

const rmodel_mcfg *compare_headline_cfg(const rmodel_world *w, const rmodel_model *m,
                                        const pr_model_decl **decl)
{
    compare_headline h;
    compare_headline_of(w, m, &h);
    if (decl)
        *decl = h.decl;
    return h.mc;
}

const rmodel_cell *compare_headline_cell(const rmodel_mcfg *mc, const rmodel_fw *f, int gpus)
{
    const rmodel_cell *best = NULL;
    for (size_t i = 0; mc && i < mc->ncols; i++) {
        if (mc->fws[i] != f)
            continue;
        const rmodel_cfg *c = mc->fcfgs[i];
        for (size_t r = 0; r < c->ncells; r++) {
            const rmodel_cell *rc = &c->cells[r];
            if (rc->gpus != gpus || rc->origin == RM_NONE)
                continue;
            /* A figure over a state; then the fewest nodes. */
            int fig = has_figure(rc), best_fig = best && has_figure(best);
            if (!best || fig > best_fig || (fig == best_fig && rc->nodes < best->nodes))
                best = rc;
        }
    }
    return best;
}

const audit_item *compare_audit_differs(const audit_model *a, const pr_record *r)
{
    for (size_t i = 0; a && r && i < a->nitems; i++)
        if (a->items[i].rec == r && a->items[i].verdict == AU_DIFFERS && !a->items[i].other_bs)
            return &a->items[i];
    return NULL;
}

void compare_audit_heading(const lang *l, const audit_item *it, pr_buf *md, pr_buf *anchor,
                           pr_err *err)
{
    const pr_pub_table *t = it->table;
    pr_buf config = PR_BUF_INIT, gpus = PR_BUF_INIT, plain = PR_BUF_INIT;
    mdtable_mode_name(t->precision, &config);
    if (t->batch_label)
        pr_buf_printf(&config, " BS=%s", t->batch_label);
    else if (t->batch_size > 0)
        pr_buf_printf(&config, " BS=%d", t->batch_size);
    lang_gpus_label(l, it->row->nodes, it->row->gpus, &gpus, err);
    size_t at = md->len;
    pr_buf_puts(md, "❌ ");
    md_text(md, t->model_title ? t->model_title : t->model);
    pr_buf_puts(md, " · ");
    md_text(md, t->framework_title ? t->framework_title : t->framework);
    pr_buf_puts(md, " · ");
    md_text(md, pr_buf_cstr(&config));
    pr_buf_puts(md, " · ");
    pr_buf_puts(md, pr_buf_cstr(&gpus));
    pr_buf_puts(md, " · ");
    md_text(md, compare_platform_title(l, t->platform));
    if (anchor) {
        /* Each heading is unique (one figure each): its anchor needs no
         * number. */
        pr_md_anchors *a = md_anchors_new();
        md_heading_plain(&plain, pr_buf_cstr(md) + at, md->len - at);
        md_anchors_add(a, pr_buf_cstr(&plain), anchor);
        md_anchors_free(a);
    }
    pr_buf_free(&config);
    pr_buf_free(&gpus);
    pr_buf_free(&plain);
}

const audit_item *compare_audit_of_cell(const audit_model *a, const rmodel_cell *rc)
{
    if (!a || !rc)
        return NULL;
    if (rc->origin == RM_MEASURED && rc->imported)
        return audit_item_of_rec(a, rc->link_rec);
    if (rc->origin == RM_FAILED && rc->imported)
        return audit_item_of_rec(a, rc->fail_rec);
    if (rc->origin == RM_PUBLISHED)
        return audit_item_of_row(a, rc->pub);
    return NULL;
}

/* Appends the path from page folder page_rel up to the output folder. */
static void to_top(const char *page_rel, pr_buf *out)
{
    for (const char *p = page_rel; p && *p; p++)
        if (p == page_rel || p[-1] == '/')
            pr_buf_puts(out, "../");
}

void compare_audit_legend(const lang *l, const audit_model *a, const char *model, const char *fw,
                          const char *page_rel, json_t *view, pr_err *err)
{
    int covered = 0;
    for (size_t i = 0; a && i < a->nitems && !covered; i++) {
        const pr_pub_table *t = a->items[i].table;
        covered = strcmp(t->model, model) == 0 && (!fw || strcmp(t->framework, fw) == 0);
    }
    if (!covered)
        return;
    pr_buf link = PR_BUF_INIT, text = PR_BUF_INIT;
    to_top(page_rel, &link);
    pr_buf_puts(&link, strcmp(l->code, "zh") == 0 ? PAGES_AUDIT_ZH : PAGES_AUDIT_EN);
    json_t *v = json_pack("{s:s}", "link", pr_buf_cstr(&link));
    lang_fmt(l, "al_legend", v, &text, err);
    json_decref(v);
    view_str(view, "audit_legend", pr_buf_cstr(&text));
    pr_buf_free(&link);
    pr_buf_free(&text);
}

void compare_audit_verdict_link(const lang *l, const audit_item *it, const char *page_rel,
                                pr_buf *out)
{
    /* The verdicts' marks are the audit table's. */
    static const char *const marks[AU_NVERDICTS] = {"✅", "✂️", "❌", "❌", "∅", "❔"};
    static const char *const titles[AU_NVERDICTS] = {
        "al_title_reproduced", "al_title_truncated", "al_title_differs",
        "al_title_no_value",   "al_title_no_log",    "al_title_partial_logs"};
    if (!it || !it->anchor)
        return;
    pr_buf_printf(out, " [%s](", marks[it->verdict]);
    to_top(page_rel, out); /* the audit sits at the output folder's top */
    pr_buf_printf(out, "%s#%s \"", strcmp(l->code, "zh") == 0 ? PAGES_AUDIT_ZH : PAGES_AUDIT_EN,
                  it->anchor);
    /* Reproduced under another rule than the run set's: says so. */
    const char *title = lang_str(l, it->under ? "al_title_reproduced_under" : titles[it->verdict]);
    for (const char *t = title; *t; t++) {
        if (*t == '"' || *t == '\\')
            pr_buf_putc(out, '\\');
        pr_buf_putc(out, *t);
    }
    pr_buf_puts(out, "\")");
}

void compare_signed_pct(pr_buf *out, double pct)
{
    pr_buf_printf(out, fabs(pct) >= 0.01 || pct == 0 ? "%+.2f%%" : "%+.2g%%", pct);
}
