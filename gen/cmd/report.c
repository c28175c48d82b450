/* report: report_render, the pipeline of one generation, and
 * report_build, which writes it with 6-output/output.h.
 *
 *   rmodel      the report model, built once from the dataset
 *   lang        each language's strings and page templates
 *   page_*      one view per page, read from the model; charts queued
 *   chartspec   the queued charts drawn and written last
 *   langcheck   every page in one language, checked before it is emitted:
 *               a page that mixes stops the build, nothing written
 *
 * output.c writes what this renders: report_build below.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "2-model/history.h"
#include "2-model/rmodel.h"
#include "4-charts/chart.h"
#include "4-charts/chartspec.h"
#include "4-charts/steptrace.h"
#include "5-views/page_compare.h"
#include "5-views/page_history.h"
#include "5-views/fw_split.h"
#include "5-views/pages.h"
#include "6-output/export.h"
#include "6-output/langcheck.h"
#include "6-output/output.h"
#include "6-output/pagejobs.h"
#include "base/md.h"
#include "base/workers.h"
#include "fileio.h"
#include "template/lang.h"

/* The names the language check leaves out (langcheck.h), from the
 * dataset: set once per render, read by every page (the first check builds
 * their automaton into it). */
static langcheck_names *page_names;

/* Renders page (index, model, framework, bench or audit) with view
 * (borrowed) into file path (relative to the output folder), checks that it
 * keeps to l's language, and passes it to emit. */
static int emit_file(lang *l, const char *page, json_t *view, const char *path, emit_fn emit,
                     void *ctx, pr_err *err)
{
    pr_buf raw = PR_BUF_INIT, out = PR_BUF_INIT;
    int rc = lang_render(l, page, view, &raw, err);
    /* No prose line of thousands of characters (issue 34): broken at
     * sentence ends, rendered the same. */
    if (rc == 0)
        md_wrap_prose(&out, raw.data ? raw.data : "", raw.len);
    pr_buf_free(&raw);
    if (rc == 0)
        rc = langcheck_check_page(path, l->code, pr_buf_cstr(&out), out.len, page_names, err);
    if (rc == 0)
        rc = emit(ctx, path, pr_buf_cstr(&out), out.len, err);
    pr_buf_free(&out);
    return rc;
}

/* Every figure as CSV beside the pages (export.h), and the index's line
 * that links it with the documentation of its columns (beside the data
 * folder: docs/report-format.md; named without a link when there is
 * none). */
#define FIGURES_CSV "figures.csv"

/* figures.csv is made beside the pages (workers_beside: it was a tenth of
 * a build of 10^4 records, all on one processor) and emitted where it
 * always was, after the pages. */
typedef struct figures_job {
    const rmodel_world *w;
    pr_buf csv;
    pr_err err;
    int rc;
    workers_beside beside;
} figures_job;

static void *figures_run(void *arg)
{
    figures_job *f = arg;
    /* Streamed: every row held at once was a tenth of a 10^4-record build. */
    f->rc = export_render_world(f->w, EX_CSV, 0, &f->csv, &f->err);
    return NULL;
}

/* Waits for f and emits it; frees f's buffer. */
static int figures_emit(figures_job *f, emit_fn emit, void *ctx, pr_err *err)
{
    workers_beside_wait(&f->beside);
    int rc = f->rc;
    if (rc < 0)
        *err = f->err;
    else
        rc = emit(ctx, FIGURES_CSV, pr_buf_cstr(&f->csv), f->csv.len, err);
    pr_buf_free(&f->csv);
    return rc;
}

/* The audit and the history (audit.h, history.h) are built beside the
 * report model: all three only read the dataset, and one after the other
 * they were a serial tenth of a second each at 10^5 records (issue 31
 * #17). */
typedef struct models_job {
    const pr_dataset *d;
    audit_model *audit;
    history_set *hist;
    pr_err err;
    int rc;
    workers_beside beside;
} models_job;

static void *models_run(void *arg)
{
    models_job *m = arg;
    m->rc = audit_build(m->d, &m->audit, &m->err) < 0 || history_build(m->d, &m->hist, &m->err) < 0
                ? -1
                : 0;
    return NULL;
}

/* Waits for m; its rc (and in *err its message when it failed). */
static int models_wait(models_job *m, pr_err *err)
{
    workers_beside_wait(&m->beside);
    if (m->rc < 0)
        *err = m->err;
    return m->rc;
}

static void figures_line(const rmodel_world *w, const lang *l, json_t *view, pr_err *err)
{
    char *path = pr_fileio_path_join(w->d->dir, "../docs/report-format.md");
    json_t *v = json_pack("{s:s}", "csv", FIGURES_CSV);
    if (access(path, R_OK) == 0) {
        char *rel = rmodel_link_to(w, "", path);
        pr_buf t = PR_BUF_INIT;
        md_link_path(&t, rel);
        pr_buf_puts(&t, "#figures-as-data");
        json_object_set_new(v, "docs", json_string(pr_buf_cstr(&t)));
        pr_buf_free(&t);
        free(rel);
    }
    pr_buf b = PR_BUF_INIT;
    lang_fmt(l, "exp_figures_csv", v, &b, err);
    json_object_set_new(view, "figures_csv", json_string(pr_buf_cstr(&b)));
    pr_buf_free(&b);
    json_decref(v);
    free(path);
}

/* The same, into rel_dir/README of l. */
static int emit_page(lang *l, const char *page, json_t *view, const char *rel_dir, emit_fn emit,
                     void *ctx, pr_err *err)
{
    char *path = rel_dir[0] ? pr_xasprintf("%s/%s", rel_dir, l->readme) : pr_xstrdup(l->readme);
    int rc = emit_file(l, page, view, path, emit, ctx, err);
    free(path);
    return rc;
}

/* Each declared comparison (comparisons.h) in l's language:
 * compare/NAME/README[.en].md and its chart, ratio[.en].svg (no PNG copy,
 * see chartspec_queue_chart). */
static int emit_comparisons(const rmodel_world *w, lang *l, int charts, emit_fn emit, void *ctx,
                            pr_err *err)
{
    int rc = 0, zh = strcmp(l->code, "zh") == 0;
    for (size_t i = 0; i < w->d->ncomparisons && rc == 0; i++) {
        const comparisons_decl *cd = &w->d->comparisons[i];
        abmodel_cmp *c = NULL;
        char *dir = pr_xasprintf("%s/%s", PAGES_COMPARE_DIR, cd->name);
        page_compare_meta m = {cd, charts ? (zh ? "ratio.svg" : "ratio.en.svg") : NULL, NULL};
        json_t *v = NULL;
        pr_buf svg = PR_BUF_INIT;
        rc = abmodel_build(w->d, &cd->a.sel, &cd->b.sel, cd->delta, cd->max_effect, &c, err) < 0 ||
                     !(v = page_compare_view(w, l, c, &m, dir, err)) ||
                     emit_page(l, "compare", v, dir, emit, ctx, err) < 0
                 ? -1
                 : 0;
        if (rc == 0 && m.chart_svg && c->ncells) {
            char *ps = pr_xasprintf("%s/%s", dir, m.chart_svg);
            rc = page_compare_chart(l, c, &m, &svg, NULL, err) < 0 ||
                         emit(ctx, ps, svg.data, svg.len, err) < 0
                     ? -1
                     : 0;
            free(ps);
        }
        pr_buf_free(&svg);
        json_decref(v);
        abmodel_free(c);
        free(dir);
    }
    return rc;
}

/* The history pages of every framework with history, REGRESSIONS and the
 * Atom feed in l's language (page_history.h). */
static int emit_history(const rmodel_world *w, lang *l, const history_set *s,
                        const chartspec_queue *oc, emit_fn emit, void *ctx, pr_err *err)
{
    int zh = strcmp(l->code, "zh") == 0, rc = 0;
    json_t *v = page_history_regressions_view(w, l, s, err);
    rc = v ? emit_file(l, "regressions", v, zh ? PH_REGRESSIONS_ZH : PH_REGRESSIONS_EN, emit, ctx,
                       err)
           : -1;
    json_decref(v);
    pr_buf feed = PR_BUF_INIT;
    if (rc == 0) {
        page_history_atom(l, s, &feed, err);
        rc = emit(ctx, zh ? PH_FEED_ZH : PH_FEED_EN, pr_buf_cstr(&feed), feed.len, err);
    }
    pr_buf_free(&feed);
    for (size_t i = 0; i < s->n && rc == 0; i++) {
        const history_series *x = &s->v[i];
        if (i && !strcmp(x->key.model, s->v[i - 1].key.model) &&
            !strcmp(x->key.framework, s->v[i - 1].key.framework))
            continue; /* one page per framework: its series are adjacent */
        char *dir = pr_xasprintf("%s/%s", x->key.model, x->key.framework);
        char *path = pr_xasprintf("%s/%s", dir, zh ? PH_HISTORY_ZH : PH_HISTORY_EN);
        v = page_history_view(w, l, s, x->key.model, x->key.framework, dir, oc, err);
        rc = v ? emit_file(l, "history", v, path, emit, ctx, err) : -1;
        json_decref(v);
        free(dir);
        free(path);
    }
    return rc;
}

/* The model pages and their frameworks' pages of one language, each a
 * job of pagejobs.h: one unit a model page (fw NO_FW) or a framework's
 * pages, in the order they were written one after another. */
#define NO_FW ((size_t)-1)
typedef struct page_unit {
    const rmodel_model *m;
    size_t fw;
} page_unit;

typedef struct model_pages {
    const rmodel_world *w;
    lang *l;
    const history_set *hist;
    page_unit *units;
    chartspec_queue *charts; /* each unit's, joined to *oc in order */
    chartspec_queue *oc;
} model_pages;

/* The pages of framework f in l's language: each machine's, then its own. */
static int emit_framework(const rmodel_world *w, lang *l, const history_set *hist,
                          const rmodel_model *m, const rmodel_fw *f, chartspec_queue *oc,
                          emit_fn emit, void *ctx, pr_err *err)
{
    int zh = strcmp(l->code, "zh") == 0;
    char *dir = pr_xasprintf("%s/%s", m->id, f->framework);
    json_t *v = page_framework_view(w, l, f, oc, err);
    if (v && page_history_has_history(hist, m->id, f->framework))
        json_object_set_new(v, "history_link", json_string(zh ? PH_HISTORY_ZH : PH_HISTORY_EN));
    /* Each machine's detail on a page of its own (fw_split.h). */
    json_t *split = v ? fw_split_pages(v, l, err) : NULL, *pg;
    size_t k;
    int rc = split ? 0 : -1;
    json_array_foreach(split, k, pg)
    {
        char *path = pr_xasprintf("%s/%s", dir, json_string_value(json_object_get(pg, "path")));
        if (rc == 0)
            rc = emit_file(l, "framework", json_object_get(pg, "view"), path, emit, ctx, err);
        free(path);
    }
    json_decref(split);
    if (rc == 0)
        rc = emit_page(l, "framework", v, dir, emit, ctx, err);
    json_decref(v);
    free(dir);
    return rc;
}

/* pagejobs_fn: unit i's pages. */
static int model_pages_job(void *ctx, size_t i, emit_fn emit, void *ectx, pr_err *err)
{
    model_pages *mp = ctx;
    const page_unit *u = &mp->units[i];
    if (u->fw != NO_FW)
        return emit_framework(mp->w, mp->l, mp->hist, u->m, u->m->fws[u->fw], &mp->charts[i], emit,
                              ectx, err);
    json_t *v = page_model_view(mp->w, mp->l, u->m, &mp->charts[i], err);
    int rc = v ? emit_page(mp->l, "model", v, u->m->id, emit, ectx, err) : -1;
    json_decref(v);
    return rc;
}

/* pagejobs_done_fn: unit i's charts after those of the units before it. */
static void model_pages_done(void *ctx, size_t i)
{
    model_pages *mp = ctx;
    chartspec_queue_move(mp->oc, &mp->charts[i]);
}

/* Every model page and framework page of l, on jobs threads (pagejobs.h);
 * their charts queued to oc in page order. */
static int emit_model_pages(const rmodel_world *w, lang *l, const history_set *hist, size_t jobs,
                            chartspec_queue *oc, emit_fn emit, void *ctx, pr_err *err)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nmodels; i++)
        n += 1 + w->models[i]->nfws;
    model_pages mp = {w,
                      l,
                      hist,
                      pr_xcalloc(n + 1, sizeof(page_unit)),
                      pr_xcalloc(n + 1, sizeof(chartspec_queue)),
                      oc};
    n = 0;
    for (size_t i = 0; i < w->nmodels; i++) {
        mp.units[n++] = (page_unit){w->models[i], NO_FW};
        for (size_t j = 0; j < w->models[i]->nfws; j++)
            mp.units[n++] = (page_unit){w->models[i], j};
    }
    for (size_t i = 0; i < n; i++)
        mp.charts[i] = (chartspec_queue){oc->emit, oc->ctx, oc->charts, NULL, 0, 0, oc->out_dir};
    int rc = pagejobs_run(jobs, n, model_pages_job, model_pages_done, &mp, emit, ctx, err);
    for (size_t i = 0; i < n; i++)
        chartspec_free(&mp.charts[i]);
    free(mp.charts);
    free(mp.units);
    return rc;
}

int report_render(const pr_dataset *d, const pr_report_opts *o, emit_fn emit, void *ctx,
                  pr_err *err)
{
    models_job models = {d, NULL, NULL, {{0}}, 0, {0, 0}};
    workers_beside_start(&models.beside, o->jobs != 1, models_run, &models);
    rmodel_world *w = rmodel_build(d, o->out_dir);
    audit_model *audit = NULL;
    history_set *hist = NULL;
    lang langs[2] = {{"zh", "README.md", "README.en.md", NULL, NULL, NULL, NULL, {NULL}},
                     {"en", "README.en.md", "README.md", NULL, NULL, NULL, NULL, {NULL}}};
    chartspec_queue oc = {emit, ctx, o->charts, NULL, 0, 0, o->out_dir};
    langcheck_names names = LC_NAMES_INIT;
    figures_job figures = {w, PR_BUF_INIT, {{0}}, 0, {0, 0}};
    int rc = -1;
    langcheck_names_from_data(&names, d);
    page_names = &names;
    if (o->charts && chart_check_fonts(err) < 0)
        goto out;
    for (int i = 0; i < 2; i++)
        if (lang_load(&langs[i], o->templates_dir, err) < 0)
            goto out;
    if (models_wait(&models, err) < 0)
        goto out;
    audit = models.audit; /* taken: freed below as before */
    hist = models.hist;
    models.audit = NULL;
    models.hist = NULL;
    /* The model pages' cells link a figure its log does not give to the
     * audit's line (i23-headline). */
    if (audit->nrepos)
        w->audit = audit;
    /* Pages are checked on several threads from here: the names' automaton
     * is built once, before (langcheck.h). */
    langcheck_names_prepare(&names);
    workers_beside_start(&figures.beside, o->jobs != 1, figures_run, &figures);
    for (int li = 0; li < 2; li++) {
        lang *l = &langs[li];
        json_t *v = page_index_view(w, l, err);
        figures_line(w, l, v, err);
        if (d->nbenches)
            json_object_set_new(v, "bench_link", json_sprintf("%s/%s", PAGES_BENCH_DIR, l->readme));
        int zh = strcmp(l->code, "zh") == 0;
        if (audit->nrepos)
            json_object_set_new(v, "audit_link", json_string(zh ? PAGES_AUDIT_ZH : PAGES_AUDIT_EN));
        json_t *listed = page_compare_index(d, l);
        json_object_set_new(v, "has_comparisons", json_boolean(json_array_size(listed) > 0));
        json_object_set_new(v, "comparisons", listed);
        if (hist->n)
            json_object_set_new(v, "regressions_link",
                                json_string(zh ? PH_REGRESSIONS_ZH : PH_REGRESSIONS_EN));
        rc = emit_page(l, "index", v, "", emit, ctx, err);
        if (rc == 0 && hist->n)
            rc = emit_history(w, l, hist, &oc, emit, ctx, err);
        json_decref(v);
        if (rc < 0)
            goto out;
        if (audit->nrepos) {
            v = page_audit_view(w, l, audit, err);
            json_object_set_new(v, "other_readme",
                                json_string(zh ? PAGES_AUDIT_EN : PAGES_AUDIT_ZH));
            rc = v ? emit_file(l, "audit", v, zh ? PAGES_AUDIT_ZH : PAGES_AUDIT_EN, emit, ctx, err)
                   : -1;
            json_decref(v);
            if (rc < 0)
                goto out;
        }
        if ((rc = emit_comparisons(w, l, o->charts, emit, ctx, err)) < 0)
            goto out;
        if (d->nbenches) {
            v = page_bench_view(w, l);
            rc = emit_page(l, "bench", v, PAGES_BENCH_DIR, emit, ctx, err);
            json_decref(v);
            if (rc < 0)
                goto out;
        }
        if ((rc = emit_model_pages(w, l, hist, o->jobs, &oc, emit, ctx, err)) < 0)
            goto out;
    }
    rc = figures_emit(&figures, emit, ctx, err);
    if (rc == 0)
        rc = chartspec_flush(&oc, err);
    if (rc == 0)
        rc = steptrace_emit(w, &oc, err); /* the step traces, once for both languages */
out:
    /* Not taken: it failed, or the render stopped before it was. */
    models_wait(&models, &(pr_err){{0}});
    audit_free(models.audit);
    history_free(models.hist);
    workers_beside_wait(&figures.beside);
    pr_buf_free(&figures.csv);
    page_names = NULL;
    langcheck_names_free(&names);
    chartspec_free(&oc);
    audit_free(audit);
    history_free(hist);
    lang_free(&langs[0]);
    lang_free(&langs[1]);
    rmodel_free(w);
    return rc;
}

int report_build(const pr_dataset *d, const pr_report_opts *o, pr_err *err)
{
    output_tree *tree = NULL;
    int rc = -1;
    /* Hardening: a template may be a symbolic link to /etc/shadow, which
     * the pages would then quote; any template file may be read. */
    if (pr_fileio_check_tree_within(o->templates_dir, err) < 0 ||
        output_open(o->out_dir, &tree, err) < 0)
        goto out;
    /* The pages are written by a thread of their own while the next ones
     * render (output.h). */
    output_queue *q = output_queue_start(tree);
    int rendered = report_render(d, o, output_queue_emit, q, err);
    if (output_queue_finish(q, rendered < 0, err) < 0 || rendered < 0)
        goto out;
    const pr_report_stats *st = output_stats(tree);
    if (o->budget_bytes && st->bytes > o->budget_bytes) {
        pr_err_set(err, o->out_dir, 0, 0, "size budget",
                   "the generation is %llu bytes (%.1f MB in %zu files), over the budget of "
                   "%llu bytes (%.1f MB); nothing was replaced",
                   st->bytes, st->bytes / 1e6, st->files, o->budget_bytes, o->budget_bytes / 1e6);
        goto out;
    }
    if (output_commit(tree, err) < 0)
        goto out;
    rc = 0;
out:
    if (o->stats)
        *o->stats = tree ? *output_stats(tree) : (pr_report_stats){0, 0, 0};
    output_free(tree);
    return rc;
}
