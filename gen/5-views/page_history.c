/* page_history: the history pages, REGRESSIONS and the Atom feed
 * (page_history.h). */
#include "page_history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/runset.h"
#include "3-tables/config_words.h"
#include "3-tables/mdtable.h"
#include "3-tables/view.h"
#include "4-charts/chart_history.h"
#include "base/md.h"
#include "fileio.h"
#include "unitdir.h"

#define HIST_CHART_W 720
#define HIST_CHART_H 360

static int is_zh(const lang *l)
{
    return strcmp(l->code, "zh") == 0;
}

/* The framework of model/framework in w, or NULL. */
static const rmodel_fw *find_fw(const rmodel_world *w, const char *model, const char *framework)
{
    for (size_t i = 0; i < w->nmodels; i++)
        for (size_t j = 0; j < w->models[i]->nfws; j++) {
            const rmodel_fw *f = w->models[i]->fws[j];
            if (!strcmp(f->model, model) && !strcmp(f->framework, framework))
                return f;
        }
    return NULL;
}

int page_history_has_history(const history_set *s, const char *model, const char *framework)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].key.model, model) && !strcmp(s->v[i].key.framework, framework))
            return 1;
    return 0;
}

/* The series' name (platform, precision, batch size, GPUs and kind) as
 * plain text; the caller frees it. */
static char *series_title(const lang *l, const history_series *x, pr_err *err)
{
    rmodel_cfg c;
    memset(&c, 0, sizeof c);
    c.platform = x->key.platform;
    c.precision = x->key.precision;
    c.bs = x->key.bs;
    char *cfg = config_words_plain(l, &c, err);
    pr_buf g = PR_BUF_INIT;
    lang_gpus_label(l, x->key.nodes, x->key.gpus, &g, err);
    json_t *v = json_pack("{s:s,s:s}", "config", cfg, "gpus", pr_buf_cstr(&g));
    if (x->label)
        json_object_set_new(v, "source", json_string(x->label));
    char *t = lang_fmt_plain(
        l, x->kind == HS_PUBLISHED ? "hist_series_published" : "hist_series_reproduced", v, err);
    json_decref(v);
    pr_buf_free(&g);
    free(cfg);
    return t;
}

/* The point's figure as the table prints it. */
static void put_value(pr_buf *out, const history_point *p)
{
    if (p->row)
        mdtable_pub_value(out, p->row);
    else
        mdtable_value(out, p->value);
}

/* A number rounded as tables print figures, as a JSON string. */
static json_t *jval(double v)
{
    pr_buf b = PR_BUF_INIT;
    mdtable_value(&b, v);
    json_t *j = json_string(pr_buf_cstr(&b));
    pr_buf_free(&b);
    return j;
}

static const char *state_word(const lang *l, pr_trend_state st)
{
    static const char *const keys[] = {"hist_state_ok", "hist_state_suspect", "hist_state_outlier",
                                       "hist_state_regression", "hist_state_improvement"};
    return lang_str(l, keys[st]);
}

/* What the point's judgement says: its state, but never "ok" without a band
 * that can tell (none yet, or one wider than the series' own range). */
static const char *point_word(const lang *l, const history_point *p)
{
    if (p->state == PR_TREND_OK && p->judged != HS_BAND_OK)
        return lang_str(l, p->judged == HS_BAND_NONE ? "hist_state_unjudged" : "hist_state_wide");
    return state_word(l, p->state);
}

/* "step +36.6 %: seen, unjudged" for a point whose step no test judged. */
static void put_seen(const lang *l, const history_point *p, pr_buf *out, pr_err *err)
{
    char t[32];
    snprintf(t, sizeof t, "%+.1f", md_round(100 * p->step, 1));
    json_t *v = json_pack("{s:s}", "step", t);
    lang_fmt(l, "hist_step_seen", v, out, err);
    json_decref(v);
}

/* The change point cell: found (p-value), pinned or vetoed (the note). */
static void put_change(const lang *l, const history_point *p, pr_buf *out, pr_err *err)
{
    json_t *v = json_object();
    if (p->mark)
        json_object_set_new(v, "note", json_string(pr_bitext_in(&p->mark->note, l->code)));
    if (p->change && p->mark && !p->mark->veto) {
        lang_fmt(l, "hist_change_pinned", v, out, err);
    } else if (p->change) {
        char t[32];
        snprintf(t, sizeof t, p->pvalue < 0.0001 ? "%.1e" : "%.4f", p->pvalue);
        json_object_set_new(v, "p", json_string(t));
        lang_fmt(l, "hist_change_found", v, out, err);
    } else if (p->mark) {
        lang_fmt(l, "hist_change_vetoed", v, out, err);
    }
    json_decref(v);
}

/* The point's source: the revision's URL, or its run set and its median
 * run's log. */
static void put_source(const rmodel_world *w, const lang *l, const history_point *p,
                       const char *page_rel, pr_buf *out, pr_err *err)
{
    if (p->pub) {
        json_t *v = json_object();
        pr_buf t = PR_BUF_INIT;
        if (p->pub->source_commit)
            json_object_set_new(
                v, "commit",
                json_stringn(p->pub->source_commit, strlen(p->pub->source_commit) > 8
                                                        ? 8
                                                        : strlen(p->pub->source_commit)));
        lang_fmt(l, "hist_revision", v, &t, err);
        json_decref(v);
        if (p->pub->source_url)
            mdtable_link_url(out, pr_buf_cstr(&t), p->pub->source_url);
        else
            pr_buf_puts(out, pr_buf_cstr(&t));
        pr_buf_free(&t);
        return;
    }
    md_cell(out, runset_title(p->run, l->code));
    if (p->link_rec) {
        pr_buf t = PR_BUF_INIT;
        md_text(&t, lang_str(l, "hist_log"));
        pr_buf_puts(out, lang_str(l, "list_sep"));
        mdtable_log_link(w, page_rel, p->run, p->link_rec, pr_buf_cstr(&t), out);
        pr_buf_free(&t);
    }
}

/* The dated table of series x. */
static void series_table(const rmodel_world *w, const lang *l, const history_series *x,
                         const char *page_rel, pr_buf *out, pr_err *err)
{
    static const char *const heads[] = {"hist_col_date",   "hist_col_figure", "hist_col_interval",
                                        "hist_col_runs",   "hist_col_limits", "hist_col_state",
                                        "hist_col_change", "hist_col_source"};
    static const char *const align[] = {"---", "---:", "---:", "---:", "---:", "---", "---", "---"};
    for (size_t i = 0; i < 8; i++) {
        pr_buf_puts(out, "| ");
        md_cell(out, lang_str(l, heads[i]));
        pr_buf_puts(out, " ");
    }
    pr_buf_puts(out, "|\n");
    for (size_t i = 0; i < 8; i++)
        pr_buf_printf(out, "| %s ", align[i]);
    pr_buf_puts(out, "|\n");
    const char *none = lang_str(l, "state_none");
    for (size_t j = 0; j < x->n; j++) {
        const history_point *p = &x->pts[j];
        pr_buf_printf(out, "| %s | ", p->date);
        put_value(out, p);
        pr_buf_puts(out, " | ");
        if (isfinite(p->lo)) {
            json_t *v = json_pack("{s:o,s:o,s:f}", "lo", jval(p->lo), "hi", jval(p->hi), "coverage",
                                  md_round(100 * p->coverage, 1));
            lang_fmt(l, "hist_interval", v, out, err);
            json_decref(v);
        } else {
            pr_buf_puts(out, none);
        }
        pr_buf_printf(out, " | %zu | ", p->runs);
        if (isfinite(p->lim_lo)) {
            json_t *v = json_pack("{s:o,s:o}", "lo", jval(p->lim_lo), "hi", jval(p->lim_hi));
            lang_fmt(l, "hist_limits", v, out, err);
            json_decref(v);
        } else {
            pr_buf_puts(out, none);
        }
        pr_buf_puts(out, " | ");
        md_cell(out, point_word(l, p));
        if (p->step_seen) {
            pr_buf t = PR_BUF_INIT;
            put_seen(l, p, &t, err);
            pr_buf_puts(out, lang_str(l, "list_sep"));
            md_cell(out, pr_buf_cstr(&t));
            pr_buf_free(&t);
        }
        pr_buf_puts(out, " | ");
        put_change(l, p, out, err);
        pr_buf_puts(out, " | ");
        put_source(w, l, p, page_rel, out, err);
        pr_buf_puts(out, " |\n");
    }
}

/* What series x can test, in one sentence (docs/statistics.md#history). */
static void testable_text(const lang *l, const history_series *x, pr_buf *out, pr_err *err)
{
    json_t *v = json_pack("{s:i}", "n", (int)x->n);
    if (x->band == HS_BAND_WIDE)
        json_object_set_new(v, "wide", json_true());
    lang_fmt(l,
             x->cp_testable ? "hist_testable_cp"
             : x->testable  ? "hist_testable_band"
                            : "hist_not_testable",
             v, out, err);
    json_decref(v);
}

/* The sentences on what the series can test and on the current segment's
 * prediction band, then the note on steps seen and unjudged. */
static void band_text(const lang *l, const history_series *x, pr_buf *out, pr_err *err)
{
    size_t seg = 0;
    for (size_t j = 0; j < x->n; j++)
        if (x->pts[j].change)
            seg = j;
    pr_buf t = PR_BUF_INIT;
    testable_text(l, x, &t, err);
    md_text(out, pr_buf_cstr(&t));
    pr_buf_free(&t);
    const char *gap = is_zh(l) ? "" : " "; /* between sentences */
    pr_buf_puts(out, gap);
    json_t *v = json_pack("{s:s,s:i}", "from", x->pts[seg].date, "n", (int)(x->n - seg));
    if (x->unit)
        json_object_set_new(v, "unit", json_string(x->unit));
    if (isfinite(x->band_lo)) {
        json_object_set_new(v, "lo", jval(x->band_lo));
        json_object_set_new(v, "hi", jval(x->band_hi));
        json_object_set_new(v, "min", jval(x->range_lo));
        json_object_set_new(v, "max", jval(x->range_hi));
        lang_fmt(l, x->band == HS_BAND_WIDE ? "hist_band_wide" : "hist_band", v, out, err);
    } else {
        json_object_set_new(v, "min", json_integer(PR_TREND_MIN_SEGMENT));
        lang_fmt(l, "hist_band_none", v, out, err);
    }
    json_decref(v);
    if (x->nseen) {
        json_t *sv =
            json_pack("{s:i,s:i}", "seen", (int)x->nseen, "factor", (int)PR_TREND_STEP_FACTOR);
        pr_buf_puts(out, gap);
        lang_fmt(l, "hist_seen_note", sv, out, err);
        json_decref(sv);
    }
}

/* The chart's alt text: what it shows, in words, every point with its
 * date. */
static char *chart_alt(const lang *l, const history_series *x, const char *title, pr_err *err)
{
    pr_buf pts = PR_BUF_INIT, cps = PR_BUF_INIT;
    for (size_t j = 0; j < x->n; j++) {
        const history_point *p = &x->pts[j];
        if (j)
            pr_buf_puts(&pts, lang_str(l, "list_sep"));
        pr_buf_printf(&pts, "%s ", p->date);
        pr_buf v = PR_BUF_INIT;
        put_value(&v, p);
        pr_buf_puts(&pts, pr_buf_cstr(&v));
        pr_buf_free(&v);
        if (p->state != PR_TREND_OK)
            pr_buf_printf(&pts, " (%s)", state_word(l, p->state));
        if (p->step_seen) {
            pr_buf_puts(&pts, " (");
            put_seen(l, p, &pts, err);
            pr_buf_puts(&pts, ")");
        }
        if (p->change) {
            if (cps.len)
                pr_buf_puts(&cps, lang_str(l, "list_sep"));
            pr_buf_puts(&cps, p->date);
        }
    }
    json_t *v =
        json_pack("{s:s,s:i,s:s,s:s,s:s}", "title", title, "n", (int)x->n, "first", x->pts[0].date,
                  "last", x->pts[x->n - 1].date, "points", pr_buf_cstr(&pts));
    if (cps.len)
        json_object_set_new(v, "changes", json_string(pr_buf_cstr(&cps)));
    if (isfinite(x->band_lo)) {
        json_object_set_new(v, "lo", jval(x->band_lo));
        json_object_set_new(v, "hi", jval(x->band_hi));
    }
    char *alt = lang_fmt_plain(l, "hist_chart_alt", v, err);
    json_decref(v);
    pr_buf_free(&pts);
    pr_buf_free(&cps);
    return alt;
}

/* Draws series x's chart into page_rel/history-SLUG[.en].svg (no PNG copy,
 * see chartspec_queue_chart) through oc's emit and appends the Markdown that shows it. */
static int series_chart(const lang *l, const history_series *x, const char *title,
                        const char *page_rel, const chartspec_queue *oc, pr_buf *md, pr_err *err)
{
    size_t n = x->n;
    const char **dates = pr_xcalloc(n, sizeof *dates);
    double *vals = pr_xcalloc(n, sizeof *vals), *lo = pr_xcalloc(n, sizeof *lo),
           *hi = pr_xcalloc(n, sizeof *hi);
    int *change = pr_xcalloc(n, sizeof *change), *flagged = pr_xcalloc(n, sizeof *flagged);
    size_t seg = 0;
    for (size_t j = 0; j < n; j++) {
        const history_point *p = &x->pts[j];
        dates[j] = p->date;
        vals[j] = p->value;
        lo[j] = p->lo;
        hi[j] = p->hi;
        change[j] = p->change;
        flagged[j] = p->state != PR_TREND_OK;
        if (p->change)
            seg = j;
    }
    json_t *uv = json_object();
    if (x->unit)
        json_object_set_new(uv, "unit", json_string(x->unit));
    /* A time's axis says lower is better (a rise is its regression). */
    char *ylab = lang_fmt_plain(l, pr_unitdir_lower(x->unit) ? "hist_chart_y_time" : "hist_chart_y",
                                uv, err);
    json_decref(uv);
    chart_history_spec c = {
        title,
        ylab,
        lang_str(l, x->kind == HS_PUBLISHED ? "hist_chart_points_pub" : "hist_chart_points_rep"),
        lang_str(l, "hist_chart_change"),
        lang_str(l, "hist_chart_band"),
        lang_str(l, "hist_chart_flag"),
        n,
        dates,
        vals,
        lo,
        hi,
        change,
        flagged,
        x->band_lo,
        x->band_hi,
        seg};
    const char *suffix = is_zh(l) ? "" : ".en";
    char *base = pr_xasprintf("history-%s%s", x->slug, suffix);
    char *svg_path = pr_xasprintf("%s/%s.svg", page_rel, base);
    pr_buf svg = PR_BUF_INIT;
    int rc = -1;
    if (chart_history_render_svg(&c, HIST_CHART_W, HIST_CHART_H, &svg, err) < 0) {
        pr_err_prefix(err, "%s", svg_path);
        goto out;
    }
    if (oc->emit(oc->ctx, svg_path, pr_buf_cstr(&svg), svg.len, err) < 0)
        goto out;
    char *alt = chart_alt(l, x, title, err);
    pr_buf_puts(md, "![");
    md_text(md, alt ? alt : title);
    pr_buf_printf(md, "](%s.svg)\n", base);
    free(alt);
    rc = 0;
out:
    pr_buf_free(&svg);
    free(svg_path);
    free(base);
    free(ylab);
    free(dates);
    free(vals);
    free(lo);
    free(hi);
    free(change);
    free(flagged);
    return rc;
}

json_t *page_history_view(const rmodel_world *w, const lang *l, const history_set *s,
                          const char *model, const char *framework, const char *page_rel,
                          const chartspec_queue *oc, pr_err *err)
{
    json_t *view = json_object(), *list = json_array();
    view_page(view, l);
    json_object_set_new(view, "other_readme",
                        json_string(is_zh(l) ? PH_HISTORY_EN : PH_HISTORY_ZH));
    const rmodel_fw *f = framework ? find_fw(w, model, framework) : NULL;
    if (framework) {
        view_text(view, "model_title", f ? f->model_title : model);
        view_text(view, "framework_title", f ? f->framework_title : framework);
    } else {
        json_object_set_new(view, "all", json_true());
    }
    char *stats = view_stats_link(w, page_rel);
    if (stats) {
        json_object_set_new(view, "stats_link", json_sprintf("%s#history", stats));
        free(stats);
    }
    /* REGRESSIONS.md from this page */
    pr_buf up = PR_BUF_INIT;
    for (const char *p = page_rel; *p; p++)
        if (p == page_rel || p[-1] == '/')
            pr_buf_puts(&up, "../");
    pr_buf_puts(&up, is_zh(l) ? PH_REGRESSIONS_ZH : PH_REGRESSIONS_EN);
    json_object_set_new(view, "regressions_link", json_string(pr_buf_cstr(&up)));
    pr_buf_free(&up);
    json_object_set_new(view, "series", list);
    for (size_t i = 0; i < s->n; i++) {
        const history_series *x = &s->v[i];
        if (framework && (strcmp(x->key.model, model) || strcmp(x->key.framework, framework)))
            continue;
        char *title = series_title(l, x, err);
        if (!title)
            goto fail;
        pr_buf head = PR_BUF_INIT, tab = PR_BUF_INIT, band = PR_BUF_INIT, chart = PR_BUF_INIT;
        if (!framework)
            pr_buf_printf(&head, "%s · %s · ", x->key.model, x->key.framework);
        md_text(&head, title);
        series_table(w, l, x, page_rel, &tab, err);
        band_text(l, x, &band, err);
        int crc = oc && oc->charts ? series_chart(l, x, title, page_rel, oc, &chart, err) : 0;
        free(title);
        json_t *sv = json_object();
        json_object_set_new(sv, "anchor", json_sprintf("<a id=\"%s\"></a>", x->slug));
        view_md(sv, "title", &head);
        view_md(sv, "table", &tab);
        view_md(sv, "band", &band);
        if (chart.len)
            view_md(sv, "chart", &chart);
        pr_buf_free(&chart);
        json_array_append_new(list, sv);
        if (crc < 0)
            goto fail;
    }
    return view;
fail:
    json_decref(view);
    return NULL;
}

/* ------------------------------------------------------ REGRESSIONS, feed */

typedef struct notable {
    const history_series *x;
    const history_point *p;
} notable;

/* Newest first; then in series order. */
static int notable_cmp(const void *pa, const void *pb)
{
    const notable *a = pa, *b = pb;
    int c = strcmp(b->p->date, a->p->date);
    if (c)
        return c;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return (a->p > b->p) - (a->p < b->p);
}

/* Every notable point of s, newest first (the caller frees the array). */
static notable *notables(const history_set *s, size_t *n)
{
    notable *v = NULL;
    *n = 0;
    for (size_t i = 0; i < s->n; i++)
        for (size_t j = 0; j < s->v[i].n; j++)
            if (history_point_notable(&s->v[i].pts[j])) {
                v = pr_xrealloc(v, (*n + 1) * sizeof *v);
                v[(*n)++] = (notable){&s->v[i], &s->v[i].pts[j]};
            }
    if (*n)
        qsort(v, *n, sizeof *v, notable_cmp);
    return v;
}

/* What happened at the point, in words: its state and/or change point. */
static void what_text(const lang *l, const history_point *p, pr_buf *out, pr_err *err)
{
    if (p->state != PR_TREND_OK)
        md_text(out, state_word(l, p->state));
    if (p->change) {
        if (p->state != PR_TREND_OK)
            pr_buf_puts(out, lang_str(l, "list_sep"));
        put_change(l, p, out, err);
    }
    if (p->step_seen) {
        pr_buf t = PR_BUF_INIT;
        put_seen(l, p, &t, err);
        md_text(out, pr_buf_cstr(&t));
        pr_buf_free(&t);
    }
}

json_t *page_history_regressions_view(const rmodel_world *w, const lang *l, const history_set *s,
                                      pr_err *err)
{
    (void)w;
    json_t *view = json_object(), *rows = json_array();
    view_page(view, l);
    json_object_set_new(view, "other_readme",
                        json_string(is_zh(l) ? PH_REGRESSIONS_EN : PH_REGRESSIONS_ZH));
    json_object_set_new(view, "n_series", json_integer((json_int_t)s->n));
    json_object_set_new(view, "n_testable", json_integer((json_int_t)s->ntestable));
    json_object_set_new(view, "none_testable", json_boolean(s->ntestable == 0));
    json_object_set_new(view, "feed", json_string(is_zh(l) ? PH_FEED_ZH : PH_FEED_EN));
    size_t n;
    notable *v = notables(s, &n);
    for (size_t i = 0; i < n; i++) {
        const history_series *x = v[i].x;
        const history_point *p = v[i].p;
        char *title = series_title(l, x, err);
        pr_buf series = PR_BUF_INIT, t = PR_BUF_INIT, target = PR_BUF_INIT, what = PR_BUF_INIT,
               fig = PR_BUF_INIT, lim = PR_BUF_INIT;
        pr_buf_printf(&t, "%s · %s · ", x->key.model, x->key.framework);
        md_text(&t, title ? title : "");
        free(title);
        pr_buf_printf(&target, "%s/%s/%s", x->key.model, x->key.framework,
                      is_zh(l) ? PH_HISTORY_ZH : PH_HISTORY_EN);
        pr_buf_putc(&series, '[');
        pr_buf_puts(&series, pr_buf_cstr(&t));
        pr_buf_puts(&series, "](");
        md_link_path(&series, pr_buf_cstr(&target));
        pr_buf_printf(&series, "#%s)", x->slug);
        what_text(l, p, &what, err);
        put_value(&fig, p);
        if (isfinite(p->lim_lo)) {
            json_t *lv = json_pack("{s:o,s:o}", "lo", jval(p->lim_lo), "hi", jval(p->lim_hi));
            lang_fmt(l, "hist_limits", lv, &lim, err);
            json_decref(lv);
        } else {
            pr_buf_puts(&lim, lang_str(l, "state_none"));
        }
        json_t *r = json_object();
        json_object_set_new(r, "date", json_string(p->date));
        view_md(r, "series", &series);
        view_md(r, "what", &what);
        view_md(r, "figure", &fig);
        view_md(r, "limits", &lim);
        json_array_append_new(rows, r);
        pr_buf_free(&t);
        pr_buf_free(&target);
    }
    free(v);
    json_object_set_new(view, "has_rows", json_boolean(n > 0));
    json_object_set_new(view, "rows", rows);
    return view;
}

void page_history_atom(const lang *l, const history_set *s, pr_buf *out, pr_err *err)
{
    size_t n;
    notable *v = notables(s, &n);
    const char *newest = history_newest_date(s);
    if (!newest[0])
        newest = "1970-01-01";
    pr_buf_printf(out,
                  "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                  "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"%s\">\n",
                  is_zh(l) ? "zh-CN" : "en");
    pr_buf_puts(out, "  <title>");
    md_xml(out, lang_str(l, "hist_feed_title"));
    pr_buf_puts(out, "</title>\n  <subtitle>");
    json_t *cv = json_pack("{s:i,s:i}", "n_testable", (int)s->ntestable, "n_series", (int)s->n);
    char *sub = lang_fmt_plain(l, "hist_feed_subtitle", cv, err);
    json_decref(cv);
    md_xml(out, sub ? sub : "");
    free(sub);
    pr_buf_printf(out,
                  "</subtitle>\n  <id>tag:perfrepro,2026:regressions</id>\n"
                  "  <updated>%sT00:00:00Z</updated>\n"
                  "  <author><name>perfrepro</name></author>\n"
                  "  <link rel=\"alternate\" type=\"text/markdown\" href=\"%s\"/>\n",
                  newest, is_zh(l) ? PH_REGRESSIONS_ZH : PH_REGRESSIONS_EN);
    for (size_t i = 0; i < n; i++) {
        const history_series *x = v[i].x;
        const history_point *p = v[i].p;
        char *title = series_title(l, x, err);
        pr_buf what = PR_BUF_INIT, fig = PR_BUF_INIT;
        if (p->state != PR_TREND_OK)
            pr_buf_puts(&what, state_word(l, p->state));
        if (p->change) {
            if (what.len)
                pr_buf_puts(&what, lang_str(l, "list_sep"));
            pr_buf_puts(&what, lang_str(l, "hist_chart_change"));
        }
        if (p->step_seen) {
            if (what.len)
                pr_buf_puts(&what, lang_str(l, "list_sep"));
            put_seen(l, p, &what, err);
        }
        put_value(&fig, p);
        pr_buf_puts(out, "  <entry>\n    <title>");
        pr_buf_printf(&what, ": %s · %s · %s", x->key.model, x->key.framework, title ? title : "");
        md_xml(out, pr_buf_cstr(&what));
        pr_buf_printf(out,
                      "</title>\n    <id>tag:perfrepro,2026:%s/%s</id>\n"
                      "    <updated>%sT00:00:00Z</updated>\n    <link href=\"",
                      x->tag, p->date, p->date);
        pr_buf link = PR_BUF_INIT;
        pr_buf_printf(&link, "%s/%s/%s#%s", x->key.model, x->key.framework,
                      is_zh(l) ? PH_HISTORY_ZH : PH_HISTORY_EN, x->slug);
        md_xml(out, pr_buf_cstr(&link));
        pr_buf_puts(out, "\"/>\n    <summary>");
        json_t *sv = json_pack("{s:s,s:s}", "date", p->date, "figure", pr_buf_cstr(&fig));
        if (x->unit)
            json_object_set_new(sv, "unit", json_string(x->unit));
        if (isfinite(p->lim_lo)) {
            json_object_set_new(sv, "lo", jval(p->lim_lo));
            json_object_set_new(sv, "hi", jval(p->lim_hi));
        }
        char *sum = lang_fmt_plain(l, "hist_feed_summary", sv, err);
        json_decref(sv);
        md_xml(out, sum ? sum : "");
        pr_buf_puts(out, "</summary>\n  </entry>\n");
        free(sum);
        free(title);
        pr_buf_free(&what);
        pr_buf_free(&fig);
        pr_buf_free(&link);
    }
    pr_buf_puts(out, "</feed>\n");
    free(v);
}
