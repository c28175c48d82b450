/* page_compare: an A/B comparison as a page, JSON, CSV and a chart
 * (page_compare.h). */
#include "page_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/runset.h"
#include "3-tables/compare.h"
#include "3-tables/mdtable.h"
#include "3-tables/view.h"
#include "4-charts/chart_ratio.h"
#include "base/md.h"
#include "compare_stats.h"
#include "fileio.h"
#include "page_compare_gate.h"
#include "stats.h"

enum { CHART_W = 720 };

/* The cell without its platform (the table's heading names it), plain:
 * "ResNet50 · PyTorch-CPU · fp32 · bs 8 · 1×1"; the caller frees it. */
static char *cell_label(const samples_key *k, int with_platform)
{
    return with_platform ? samples_key_label(k)
                         : pr_xasprintf("%s · %s · %s · bs %d · %d×%d", k->model, k->framework,
                                        k->precision, k->bs, k->nodes, k->gpus);
}

static const char *side_label(const lang *l, const comparisons_side *s)
{
    return s && s->label.zh ? pr_bitext_in(&s->label, l->code) : NULL;
}

/* The cell's verdict in a word: "not judged" where the gate stopped it. */
static const char *cell_word(const lang *l, const abmodel_cell *x)
{
    return x->gate ? lang_str(l, "ab_v_not_judged") : compare_stats_verdict_word(l, x->r.verdict);
}

/* The run sets or published sources of side s, one list item each. */
static json_t *side_sets(const rmodel_world *w, const lang *l, const abmodel_side *s)
{
    json_t *a = json_array();
    (void)w;
    for (size_t i = 0; i < s->nruns; i++) {
        const pr_run *r = s->runs[i];
        pr_buf b = PR_BUF_INIT;
        md_code_span(&b, r->name);
        if (strcmp(runset_title(r, l->code), r->name) != 0) {
            pr_buf_puts(&b, lang_str(l, "value_sep"));
            md_text(&b, runset_title(r, l->code));
        }
        pr_buf dates = PR_BUF_INIT;
        int zh = strcmp(l->code, "zh") == 0;
        if (runset_dates(r, &dates)) {
            pr_buf_puts(&b, zh ? "（" : " (");
            md_text(&b, pr_buf_cstr(&dates));
            pr_buf_puts(&b, zh ? "）" : ")");
        }
        pr_buf_free(&dates);
        json_t *it = json_object();
        view_md(it, "text", &b);
        view_text(it, "note", runset_note(r, l->code));
        json_array_append_new(a, it);
    }
    json_t *seen = json_object();
    for (size_t i = 0; i < s->npubs; i++) {
        const pr_pub_table *t = s->pubs[i];
        const char *id = t->source_url ? t->source_url : t->file;
        if (json_object_get(seen, id))
            continue;
        json_object_set_new(seen, id, json_true());
        pr_buf b = PR_BUF_INIT;
        if (t->source_url) {
            pr_buf_putc(&b, '[');
            md_text(&b, t->source_title ? t->source_title : t->label);
            pr_buf_puts(&b, "](");
            md_link_target(&b, t->source_url);
            pr_buf_putc(&b, ')');
        } else {
            md_text(&b, t->source_title ? t->source_title : t->label);
        }
        pr_buf_printf(&b, strcmp(l->code, "zh") == 0 ? "（%s）" : " (%s)", t->date);
        json_t *it = json_object();
        view_md(it, "text", &b);
        view_text(it, "note", pr_bitext_in(&t->note, l->code));
        json_array_append_new(a, it);
    }
    json_decref(seen);
    return a;
}

/* A row of the page's table: the cell, then its statistics
 * (compare_stats.h). */
static json_t *cell_row(const rmodel_world *w, const lang *l, const abmodel_cmp *c,
                        const char *page_rel, const abmodel_cell *x, pr_err *err)
{
    json_t *row = json_object();
    char *label = cell_label(&x->key, 0);
    view_text(row, "cell", label);
    free(label);
    compare_stats_env e = {w, l, c, page_rel, err};
    json_object_set_new(row, "stats",
                        compare_stats_cells(compare_stats, compare_stats_count, &e, x));
    return row;
}

static int platform_cmp(const void *pa, const void *pb)
{
    return strcmp((*(const pr_platform *const *)pa)->id, (*(const pr_platform *const *)pb)->id);
}

/* The cells in one table per platform, platforms by id. */
static json_t *platform_tables(const rmodel_world *w, const lang *l, const abmodel_cmp *c,
                               const char *page_rel, pr_err *err)
{
    const pr_platform **ps = pr_xcalloc(c->ncells + 1, sizeof *ps);
    size_t np = 0;
    for (size_t i = 0; i < c->ncells; i++) {
        size_t j = 0;
        while (j < np && ps[j] != c->cells[i].key.platform)
            j++;
        if (j == np)
            ps[np++] = c->cells[i].key.platform;
    }
    pr_qsort(ps, np, sizeof *ps, platform_cmp);
    json_t *a = json_array();
    for (size_t j = 0; j < np; j++) {
        json_t *t = json_object(), *rows = json_array();
        view_text(t, "title", compare_platform_title(l, ps[j]));
        for (size_t i = 0; i < c->ncells; i++)
            if (c->cells[i].key.platform == ps[j])
                json_array_append_new(rows, cell_row(w, l, c, page_rel, &c->cells[i], err));
        json_object_set_new(t, "rows", rows);
        json_array_append_new(a, t);
    }
    free(ps);
    return a;
}

/* One list item per difference (abmodel.h). */
static json_t *differences(const lang *l, const abmodel_cmp *c, pr_err *err)
{
    json_t *a = json_array(), *d;
    size_t i;
    int pairs = c->a.nruns * c->b.nruns > 1;
    json_array_foreach(c->diffs, i, d)
    {
        const char *what = pr_jdoc_json_str(d, "what");
        pr_buf b = PR_BUF_INIT;
        json_t *v = json_object();
        if (strcmp(what, "command") == 0) {
            pr_buf ca = PR_BUF_INIT, cb = PR_BUF_INIT;
            const char *wa = pr_jdoc_json_str(d, "a_changed"),
                       *wb = pr_jdoc_json_str(d, "b_changed");
            if (*wa)
                md_code_span(&ca, wa);
            else
                pr_buf_puts(&ca, "—");
            if (*wb)
                md_code_span(&cb, wb);
            else
                pr_buf_puts(&cb, "—");
            view_md(v, "a", &ca);
            view_md(v, "b", &cb);
            lang_fmt(l, "ab_what_command", v, &b, err);
        } else if (strncmp(what, "framework_version", 17) == 0 || strcmp(what, "source") == 0) {
            json_object_set_new(v, "a", json_string(pr_jdoc_json_str(d, "a")));
            json_object_set_new(v, "b", json_string(pr_jdoc_json_str(d, "b")));
            lang_fmt(l, strcmp(what, "source") == 0 ? "ab_what_source" : "ab_what_fwver", v, &b,
                     err);
        } else {
            char key[32];
            snprintf(key, sizeof key, "rs_what_%s", what);
            json_object_set_new(v, "a", json_string(pr_jdoc_json_str(d, "a")));
            json_object_set_new(v, "b", json_string(pr_jdoc_json_str(d, "b")));
            if (pr_jdoc_json_str(d, "kind")) {
                char label[40];
                snprintf(label, sizeof label, "env_%s", pr_jdoc_json_str(d, "kind"));
                json_object_set_new(v, "label", json_string(lang_str(l, label)));
            }
            lang_fmt(l, key, v, &b, err);
        }
        json_decref(v);
        if (pairs && pr_jdoc_json_str(d, "a_run")) {
            int zh = strcmp(l->code, "zh") == 0;
            pr_buf_puts(&b, zh ? "（" : " (");
            md_code_span(&b, pr_jdoc_json_str(d, "a_run"));
            pr_buf_puts(&b, " / ");
            md_code_span(&b, pr_jdoc_json_str(d, "b_run"));
            pr_buf_puts(&b, zh ? "）" : ")");
        }
        json_t *it = json_object();
        view_md(it, "text", &b);
        if (strcmp(what, "command") == 0) {
            pr_buf_puts(&b, "A: ");
            md_code_span(&b, pr_jdoc_json_str(d, "a"));
            view_md(it, "a_full", &b);
            pr_buf_puts(&b, "B: ");
            md_code_span(&b, pr_jdoc_json_str(d, "b"));
            view_md(it, "b_full", &b);
        }
        json_array_append_new(a, it);
    }
    return a;
}

/* The platforms of side i's cells (compared or not), ", "-joined ids. */
static char *side_platforms(const abmodel_cmp *c, int side)
{
    pr_buf b = PR_BUF_INIT;
    json_t *seen = json_object();
    for (size_t i = 0; i < c->nonly; i++) {
        const char *id = c->only[i].key.platform->id;
        if (c->only[i].side != side || json_object_get(seen, id))
            continue;
        json_object_set_new(seen, id, json_true());
        pr_buf_printf(&b, "%s%s", b.len ? ", " : "", id);
    }
    json_decref(seen);
    return pr_buf_detach(&b);
}

void page_compare_refusal(const abmodel_cmp *c, pr_buf *out)
{
    char *a = side_platforms(c, 0), *b = side_platforms(c, 1);
    pr_buf_printf(out,
                  "A (%s) and B (%s) share no platform: A's cells are of %s, B's of %s; "
                  "cells of different platforms are never compared",
                  c->a.sel->text, c->b.sel->text, a, b);
    free(a);
    free(b);
}

/* The chart's rows: each compared cell, labelled by what tells it apart
 * from the others (model and framework when they vary, the platform when
 * there are several; precision, batch size, nodes × GPUs always). */
static chart_ratio_row *chart_rows(const abmodel_cmp *c, char ***labels)
{
    int plat = 0, mf = 0;
    for (size_t i = 1; i < c->ncells; i++) {
        const samples_key *k = &c->cells[i].key, *k0 = &c->cells[0].key;
        plat |= k->platform != k0->platform;
        mf |= strcmp(k->model, k0->model) || strcmp(k->framework, k0->framework);
    }
    chart_ratio_row *rows = pr_xcalloc(c->ncells + 1, sizeof *rows);
    *labels = pr_xcalloc(c->ncells + 1, sizeof **labels);
    for (size_t i = 0; i < c->ncells; i++) {
        const abmodel_cell *x = &c->cells[i];
        const samples_key *k = &x->key;
        pr_buf b = PR_BUF_INIT;
        if (mf)
            pr_buf_printf(&b, "%s · %s · ", k->model, k->framework);
        if (plat)
            pr_buf_printf(&b, "%s · ", k->platform->id);
        pr_buf_printf(&b, "%s · bs %d · %d×%d", k->precision, k->bs, k->nodes, k->gpus);
        (*labels)[i] = pr_buf_detach(&b);
        /* a cell the gate stopped is drawn as one without a verdict */
        rows[i] = (chart_ratio_row){(*labels)[i], x->r.ratio, x->r.lo, x->r.hi,
                                    x->gate ? (int)PR_AB_INSUFFICIENT : (int)x->r.verdict};
    }
    return rows;
}

/* The chart's title, axis and legend words, and its alt text. */
typedef struct chart_words {
    char *title, *x, *band, *point, *a, *b;
} chart_words;

static void words_of(const lang *l, const abmodel_cmp *c, const page_compare_meta *m,
                     chart_words *cw, pr_err *err)
{
    pr_buf a = PR_BUF_INIT, b = PR_BUF_INIT, d = PR_BUF_INIT;
    const comparisons_side *sa = m->decl ? &m->decl->a : NULL, *sb = m->decl ? &m->decl->b : NULL;
    pr_buf_puts(&a, side_label(l, sa) ? side_label(l, sa) : c->a.sel->text);
    pr_buf_puts(&b, side_label(l, sb) ? side_label(l, sb) : c->b.sel->text);
    md_number(&d, c->delta * 100, PR_DECIMALS_PERCENT);
    json_t *v = json_pack("{s:s,s:s,s:s}", "a", pr_buf_cstr(&a), "b", pr_buf_cstr(&b), "delta",
                          pr_buf_cstr(&d));
    if (m->decl)
        json_object_set_new(v, "title", json_string(pr_bitext_in(&m->decl->title, l->code)));
    /* what every cell shares, which the rows' labels leave out */
    int plat = 0, mf = 0;
    for (size_t i = 1; i < c->ncells; i++) {
        const samples_key *k = &c->cells[i].key, *k0 = &c->cells[0].key;
        plat |= k->platform != k0->platform;
        mf |= strcmp(k->model, k0->model) || strcmp(k->framework, k0->framework);
    }
    if (c->ncells && !mf) {
        const samples_key *k0 = &c->cells[0].key;
        char *common =
            plat ? pr_xasprintf("%s · %s", k0->model, k0->framework)
                 : pr_xasprintf("%s · %s · %s", k0->model, k0->framework, k0->platform->id);
        json_object_set_new(v, "common", json_string(common));
        free(common);
    }
    cw->title = lang_fmt_plain(l, "ab_chart_title", v, err);
    /* Times are compared as speeds (abmodel.h): the axis says so. */
    int lower = 0;
    for (size_t i = 0; i < c->ncells; i++)
        lower |= c->cells[i].dir == PR_DIR_LOWER;
    cw->x = lang_fmt_plain(l, lower ? "ab_chart_x_speed" : "ab_chart_x", v, err);
    cw->band = lang_fmt_plain(l, "ab_chart_band", v, err);
    cw->point = lang_fmt_plain(l, "ab_chart_point", v, err);
    json_decref(v);
    cw->a = pr_buf_detach(&a);
    cw->b = pr_buf_detach(&b);
    pr_buf_free(&d);
}

static void words_free(chart_words *cw)
{
    free(cw->title);
    free(cw->x);
    free(cw->band);
    free(cw->point);
    free(cw->a);
    free(cw->b);
}

int page_compare_chart(const lang *l, const abmodel_cmp *c, const page_compare_meta *m, pr_buf *svg,
                       pr_buf *png, pr_err *err)
{
    char **labels;
    chart_ratio_row *rows = chart_rows(c, &labels);
    chart_words cw;
    words_of(l, c, m, &cw, err);
    chart_ratio_chart ch = {cw.title, cw.x, cw.band, cw.point, c->delta, rows, c->ncells};
    int rc = 0;
    if (svg)
        rc = chart_ratio_render_svg(&ch, CHART_W, svg, err);
    if (rc == 0 && png)
        rc = chart_ratio_render_png(&ch, CHART_W, png, err);
    words_free(&cw);
    for (size_t i = 0; i < c->ncells; i++)
        free(labels[i]);
    free(labels);
    free(rows);
    return rc;
}

/* The chart's alt text: its title, then each cell's ratio, interval and
 * verdict. */
static char *chart_alt(const lang *l, const abmodel_cmp *c, const page_compare_meta *m, pr_err *err)
{
    chart_words cw;
    words_of(l, c, m, &cw, err);
    pr_buf cells = PR_BUF_INIT;
    char **labels;
    chart_ratio_row *rows = chart_rows(c, &labels);
    for (size_t i = 0; i < c->ncells; i++) {
        if (i)
            pr_buf_puts(&cells, "; ");
        pr_buf_printf(&cells, "%s: ", labels[i]);
        compare_stats_put_ratio(&cells, rows[i].ratio);
        if (isfinite(rows[i].lo)) {
            pr_buf_puts(&cells, " (");
            compare_stats_put_ratio(&cells, rows[i].lo);
            pr_buf_puts(&cells, " – ");
            compare_stats_put_ratio(&cells, rows[i].hi);
            pr_buf_putc(&cells, ')');
        }
        pr_buf_printf(&cells, ", %s", cell_word(l, &c->cells[i]));
        free(labels[i]);
    }
    free(labels);
    free(rows);
    json_t *v = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "title", cw.title, "band", cw.band, "x",
                          cw.x, "a", cw.a, "b", cw.b, "cells", pr_buf_cstr(&cells));
    char *alt = lang_fmt_plain(l, "ab_chart_alt", v, err);
    json_decref(v);
    pr_buf_free(&cells);
    words_free(&cw);
    return alt;
}

json_t *page_compare_view(const rmodel_world *w, const lang *l, const abmodel_cmp *c,
                          const page_compare_meta *m, const char *page_rel, pr_err *err)
{
    json_t *v = json_object();
    view_page(v, l);
    pr_buf b = PR_BUF_INIT;
    if (m->decl) {
        md_text(&b, pr_bitext_in(&m->decl->title, l->code));
    } else {
        json_t *t = json_pack("{s:s,s:s}", "a", c->a.sel->text, "b", c->b.sel->text);
        lang_fmt(l, "ab_title_default", t, &b, err);
        json_decref(t);
    }
    view_md(v, "title", &b);
    if (m->decl)
        view_text(v, "note", pr_bitext_in(&m->decl->note, l->code));
    json_t *sides = json_array();
    for (int i = 0; i < 2; i++) {
        json_t *s = json_object();
        view_str(s, "side", i ? "B" : "A");
        const char *label = side_label(l, m->decl ? (i ? &m->decl->b : &m->decl->a) : NULL);
        view_text(s, "label", label);
        md_code_span(&b, (i ? c->b.sel : c->a.sel)->text);
        view_md(s, "select", &b);
        json_object_set_new(s, "sets", side_sets(w, l, i ? &c->b : &c->a));
        json_array_append_new(sides, s);
    }
    json_object_set_new(v, "sides", sides);
    /* The table's heads, one per statistic on the page (compare_stats.h). */
    compare_stats_env e = {w, l, c, page_rel, err};
    json_object_set_new(v, "stat_heads",
                        compare_stats_heads(compare_stats, compare_stats_count, &e));
    md_number(&b, c->delta * 100, PR_DECIMALS_PERCENT);
    pr_buf_puts(&b, " %");
    view_md(v, "delta", &b);
    char *stats = view_stats_link(w, page_rel);
    if (stats) {
        pr_buf_printf(&b, "%s#compare", stats);
        view_md(v, "method_link", &b);
        free(stats);
    }
    if (c->refused) {
        char *pa = side_platforms(c, 0), *pb = side_platforms(c, 1);
        json_t *t = json_pack("{s:s,s:s}", "a", pa, "b", pb);
        lang_fmt(l, "ab_refused", t, &b, err);
        json_decref(t);
        view_md(v, "refused", &b);
        free(pa);
        free(pb);
    }
    json_t *verdicts = json_array();
    for (int k = 0; k <= PR_AB_INSUFFICIENT; k++) {
        json_t *it = json_object();
        view_text(it, "word", compare_stats_verdict_word(l, (pr_abstat_verdict)k));
        json_object_set_new(it, "count", json_integer((json_int_t)c->counts[k]));
        json_array_append_new(verdicts, it);
    }
    if (c->not_judged) {
        json_t *it = json_object();
        view_text(it, "word", lang_str(l, "ab_v_not_judged"));
        json_object_set_new(it, "count", json_integer((json_int_t)c->not_judged));
        json_array_append_new(verdicts, it);
    }
    if (!c->refused && c->ncells && !abmodel_judged(c)) {
        json_t *none = json_object();
        lang_fmt(l, "ab_gate_all", none, &b, err);
        json_decref(none);
        view_md(v, "refused", &b);
    }
    json_object_set_new(v, "verdicts", verdicts);
    json_object_set_new(v, "ncells", json_integer((json_int_t)c->ncells));
    md_number(&b, c->expected_false, 2);
    view_md(v, "expected_false", &b);
    /* Times (lower is better) are compared as speeds: say so once. */
    for (size_t i = 0; i < c->ncells; i++)
        if (c->cells[i].dir == PR_DIR_LOWER) {
            view_str(v, "lower_note", lang_str(l, "ab_lower_note"));
            break;
        }
    json_object_set_new(v, "diffs", differences(l, c, err));
    json_object_set_new(v, "has_diffs", json_boolean(json_array_size(c->diffs) > 0));
    json_object_set_new(v, "platforms", platform_tables(w, l, c, page_rel, err));
    if (m->chart_svg && c->ncells) {
        char *alt = chart_alt(l, c, m, err);
        pr_buf_puts(&b, "![");
        md_text(&b, alt);
        pr_buf_puts(&b, "](");
        md_link_path(&b, m->chart_svg);
        pr_buf_puts(&b, ")");
        if (m->chart_png) { /* the compare command's --out FILE.md */
            pr_buf_puts(&b, "\n\n[");
            md_text(&b, lang_str(l, "chart_png"));
            pr_buf_puts(&b, "](");
            md_link_path(&b, m->chart_png);
            pr_buf_puts(&b, ")");
        }
        view_md(v, "chart", &b);
        free(alt);
    }
    json_t *only = json_array();
    for (size_t i = 0; i < c->nonly; i++) {
        json_t *it = json_object();
        char *label = cell_label(&c->only[i].key, 1);
        view_text(it, "cell", label);
        free(label);
        view_str(it, "side", c->only[i].side ? "B" : "A");
        json_object_set_new(it, "runs", json_integer((json_int_t)c->only[i].runs));
        json_array_append_new(only, it);
    }
    json_object_set_new(v, "has_only", json_boolean(c->nonly > 0));
    json_object_set_new(v, "only", only);
    pr_buf_free(&b);
    return v;
}

/* ------------------------------------------------------- JSON and CSV */

static json_t *key_json(const samples_key *k)
{
    return json_pack("{s:s,s:s,s:s,s:s,s:i,s:i,s:i}", "model", k->model, "framework", k->framework,
                     "platform", k->platform->id, "precision", k->precision, "batch_size", k->bs,
                     "nodes", k->nodes, "gpus", k->gpus);
}

static json_t *side_json(const abmodel_side *s, const comparisons_side *decl)
{
    static const char *const kinds[] = {"runs", "env", "published"};
    json_t *o = json_pack("{s:s,s:s}", "select", s->sel->text, "kind", kinds[s->sel->kind]);
    if (decl && decl->label.zh)
        json_object_set_new(o, "label",
                            json_pack("{s:s,s:s}", "zh", decl->label.zh, "en", decl->label.en));
    json_t *runs = json_array(), *pubs = json_array();
    for (size_t i = 0; i < s->nruns; i++)
        json_array_append_new(runs, json_pack("{s:s,s:s,s:s}", "name", s->runs[i]->name, "first",
                                              runset_first_date(s->runs[i]), "last",
                                              runset_last_date(s->runs[i])));
    for (size_t i = 0; i < s->npubs; i++) {
        const pr_pub_table *t = s->pubs[i];
        json_t *p = json_pack("{s:s,s:s,s:s}", "file", t->file, "label", t->label, "date", t->date);
        if (t->source_url)
            json_object_set_new(p, "url", json_string(t->source_url));
        json_array_append_new(pubs, p);
    }
    json_object_set_new(o, "run_sets", runs);
    json_object_set_new(o, "published", pubs);
    return o;
}

json_t *page_compare_json(const abmodel_cmp *c, const comparisons_decl *decl)
{
    json_t *o = json_object(), *cells = json_array(), *only = json_array();
    json_object_set_new(o, "perfrepro", json_integer(1));
    if (decl) {
        json_object_set_new(o, "name", json_string(decl->name));
        json_object_set_new(o, "title",
                            json_pack("{s:s,s:s}", "zh", decl->title.zh, "en", decl->title.en));
    }
    json_object_set_new(o, "delta", json_real(c->delta));
    json_object_set_new(o, "a", side_json(&c->a, decl ? &decl->a : NULL));
    json_object_set_new(o, "b", side_json(&c->b, decl ? &decl->b : NULL));
    json_object_set_new(o, "refused", json_boolean(c->refused));
    for (size_t i = 0; i < c->ncells; i++) {
        const abmodel_cell *x = &c->cells[i];
        json_t *it = key_json(&x->key);
        compare_stats_json(compare_stats, compare_stats_count, c, x, it);
        json_array_append_new(cells, it);
    }
    for (size_t i = 0; i < c->nonly; i++) {
        json_t *it = key_json(&c->only[i].key);
        json_object_set_new(it, "side", json_string(c->only[i].side ? "b" : "a"));
        json_object_set_new(it, "runs", json_integer((json_int_t)c->only[i].runs));
        json_array_append_new(only, it);
    }
    json_object_set_new(o, "cells", cells);
    json_object_set_new(o, "only", only);
    json_t *sum = json_object();
    json_object_set_new(sum, "cells", json_integer((json_int_t)c->ncells));
    for (int k = 0; k <= PR_AB_INSUFFICIENT; k++)
        json_object_set_new(sum, pr_abstat_verdict_key((pr_abstat_verdict)k),
                            json_integer((json_int_t)c->counts[k]));
    json_object_set_new(sum, "not_judged", json_integer((json_int_t)c->not_judged));
    json_object_set_new(sum, "expected_false_at_most", json_real(c->expected_false));
    json_object_set_new(o, "summary", sum);
    json_object_set_new(o, "differences", json_deep_copy(c->diffs));
    return o;
}

void page_compare_csv(const abmodel_cmp *c, pr_buf *out)
{
    pr_buf_puts(out, "model,framework,platform,precision,batch_size,nodes,gpus");
    compare_stats_csv_head(compare_stats, compare_stats_count, out);
    pr_buf_putc(out, '\n');
    for (size_t i = 0; i < c->ncells; i++) {
        const abmodel_cell *x = &c->cells[i];
        const samples_key *k = &x->key;
        const char *f[] = {k->model, k->framework, k->platform->id, k->precision};
        for (int j = 0; j < 4; j++) {
            if (j)
                pr_buf_putc(out, ',');
            md_csv_field(out, f[j]);
        }
        pr_buf_printf(out, ",%d,%d,%d", k->bs, k->nodes, k->gpus);
        compare_stats_csv(compare_stats, compare_stats_count, x, out);
        pr_buf_putc(out, '\n');
    }
}

/* ------------------------------------------------- index, command line */

json_t *page_compare_index(const pr_dataset *d, const lang *l)
{
    json_t *a = json_array();
    for (size_t i = 0; i < d->ncomparisons; i++) {
        const comparisons_decl *c = &d->comparisons[i];
        /* a comparison the gate (or the platforms) refuses entirely is not
         * listed: its page says why, and nothing on it is a finding */
        abmodel_cmp *m = NULL;
        pr_err e;
        int judged = abmodel_build(d, &c->a.sel, &c->b.sel, c->delta, c->max_effect, &m, &e) == 0 &&
                     abmodel_judged(m);
        abmodel_free(m);
        if (!judged)
            continue;
        pr_buf b = PR_BUF_INIT;
        pr_buf_putc(&b, '[');
        md_text(&b, pr_bitext_in(&c->title, l->code));
        pr_buf_puts(&b, "](");
        char *path = pr_xasprintf("%s/%s/%s", PAGES_COMPARE_DIR, c->name, l->readme);
        md_link_path(&b, path);
        free(path);
        pr_buf_putc(&b, ')');
        json_t *it = json_object();
        view_md(it, "link", &b);
        json_array_append_new(a, it);
    }
    return a;
}

int page_compare_cli(const pr_dataset *d, const page_compare_opts *o, pr_buf *text, pr_buf *svg,
                     pr_buf *png, size_t *slower, pr_err *err)
{
    comparisons_sel sa, sb;
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    const comparisons_decl *decl = NULL;
    abmodel_cmp *c = NULL;
    rmodel_world *w = NULL;
    lang l = {"zh", "README.md", "README.en.md", NULL, NULL, NULL, NULL, {NULL}};
    int rc = -1;
    double delta = o->delta;
    if (o->declared) {
        if (!(decl = comparisons_find(d, o->declared))) {
            pr_err_set(err, NULL, 0, 0, "--declared", "no comparison %s/comparisons/%s.json",
                       d->dir, o->declared);
            goto out;
        }
        if (delta <= 0)
            delta = decl->delta;
    } else {
        if (comparisons_sel_parse(o->a, &sa, err) < 0) {
            pr_err_prefix(err, "--a");
            goto out;
        }
        if (comparisons_sel_parse(o->b, &sb, err) < 0) {
            pr_err_prefix(err, "--b");
            goto out;
        }
    }
    if (delta <= 0)
        delta = PR_AB_DELTA_DEFAULT;
    if (abmodel_build(d, decl ? &decl->a.sel : &sa, decl ? &decl->b.sel : &sb, delta,
                      decl ? decl->max_effect : 0, &c, err) < 0)
        goto out;
    if (c->refused) {
        pr_buf m = PR_BUF_INIT;
        page_compare_refusal(c, &m);
        pr_err_set(err, NULL, 0, 0, NULL, "%s", pr_buf_cstr(&m));
        pr_buf_free(&m);
        goto out;
    }
    *slower = c->counts[PR_AB_SLOWER];
    if (strcmp(o->format, "json") == 0) {
        json_t *j = page_compare_json(c, decl);
        /* 16 digits: 0.05 reads 0.05, every figure to 1e-16 */
        char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(16));
        pr_buf_puts(text, s);
        pr_buf_putc(text, '\n');
        free(s);
        json_decref(j);
        rc = 0;
        goto out;
    }
    if (strcmp(o->format, "csv") == 0) {
        page_compare_csv(c, text);
        rc = 0;
        goto out;
    }
    if (strcmp(o->lang, "en") == 0)
        l = (lang){"en", "README.en.md", "README.md", NULL, NULL, NULL, NULL, {NULL}};
    char *dir = o->out ? pr_fileio_path_dirname(o->out) : pr_xstrdup(".");
    w = rmodel_build(d, dir);
    free(dir);
    page_compare_meta m = {decl, o->chart_svg, o->chart_png};
    json_t *v = NULL;
    if (lang_load(&l, o->templates, err) < 0 || !(v = page_compare_view(w, &l, c, &m, "", err)) ||
        lang_render(&l, "compare", v, text, err) < 0 ||
        (o->chart_svg && c->ncells && page_compare_chart(&l, c, &m, svg, png, err) < 0)) {
        json_decref(v);
        goto out;
    }
    json_decref(v);
    rc = 0;
out:
    lang_free(&l);
    rmodel_free(w);
    abmodel_free(c);
    comparisons_sel_free(&sa);
    comparisons_sel_free(&sb);
    return rc;
}
