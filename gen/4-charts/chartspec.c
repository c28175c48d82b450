/* chartspec: the queue of charts and the pieces every chart of the pages
 * shares (chartspec_int.h); the per-point chart of hardware suites. */
#include "chartspec.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "3-tables/mdtable.h"
#include "3-tables/view.h"
#include "base/md.h"
#include "base/workers.h"
#include "chartspec_int.h"

/* A chart waiting to be drawn: pages are built first, then the charts are
 * drawn on a few threads, then written in the order they were queued, so
 * the output does not depend on the threads. */
struct cs_job {
    pr_chart *chart;
    char *svg_path;
    pr_buf svg;
    pr_err err;
    int rc;
};
typedef struct cs_job cs_job;

enum { CHART_W = 720, CHART_H = 400 };

/* ---------------------------------------------------------------- queue */

/* A file name part made of [a-z0-9.-] only: data never names files freely. */
void chartspec_file_slug(pr_buf *out, const char *s)
{
    for (; *s; s++) {
        char c = *s;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        pr_buf_putc(out, (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ? c : '-');
    }
}

/* The longest slug of a batch label a chart's file name takes whole; a
 * longer one keeps its start and gets a hash of the whole label, so that the
 * name stays well under NAME_MAX (a 230-byte label made "File name too
 * long") and still tells labels apart. */
enum { CHART_SLUG_MAX = 40, CHART_SLUG_KEEP = 31 };

/* FNV-1a, 32 bits: a stable short hash for file names. */
static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The base name of a chart's files: KIND[-CONFIG][.LANG]; the caller frees
 * it. */
char *chartspec_chart_base(const lang *l, const char *kind, const rmodel_cfg *c)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, kind);
    if (c) {
        pr_buf_putc(&b, '-');
        if (c->platform) {
            chartspec_file_slug(&b, c->platform->id);
            pr_buf_putc(&b, '-');
        }
        chartspec_file_slug(&b, c->precision);
        if (c->bs > 0)
            pr_buf_printf(&b, "-bs%d", c->bs);
        if (c->batch_label) {
            pr_buf slug = PR_BUF_INIT;
            chartspec_file_slug(&slug, c->batch_label);
            if (slug.len > CHART_SLUG_MAX) {
                pr_buf_truncate(&slug, CHART_SLUG_KEEP);
                pr_buf_printf(&slug, "-%08x", (unsigned)name_hash(c->batch_label));
            }
            pr_buf_putc(&b, '-');
            pr_buf_puts(&b, pr_buf_cstr(&slug));
            pr_buf_free(&slug);
        }
    }
    if (strcmp(l->code, "zh") != 0)
        pr_buf_printf(&b, ".%s", l->code);
    return pr_buf_detach(&b);
}

/* Queues chart (ownership passes to the queue) to be drawn as DIR/BASE.svg
 * and appends the Markdown that shows it with the chart's alt text.  No PNG
 * copy: the SVG's words are text (chart_svgtext.c) and GitHub shows it;
 * 362 PNG copies were 8.8 MB of the committed reports (issue 34). */
void chartspec_queue_chart(chartspec_queue *oc, const lang *l, pr_chart *chart, const char *dir_rel,
                           const char *base, pr_buf *md)
{
    if (oc->njobs == oc->cap)
        oc->jobs = pr_xrealloc(oc->jobs, (oc->cap = oc->cap ? oc->cap * 2 : 64) * sizeof *oc->jobs);
    cs_job *j = &oc->jobs[oc->njobs++];
    memset(j, 0, sizeof *j);
    j->chart = chart;
    j->svg_path = pr_xasprintf("%s/%s.svg", dir_rel, base);
    (void)l; /* the PNG link's words were its only use */
    char *alt = chart_alt_text(chart);
    pr_buf_puts(md, "![");
    md_text(md, alt);
    pr_buf_printf(md, "](%s.svg)\n", base);
    free(alt);
}

/* workers_job_fn: draws chart i of the queue's jobs (ctx). */
static void draw_chart_job(void *ctx, size_t i)
{
    cs_job *j = &((cs_job *)ctx)[i];
    j->rc = chart_render_svg(j->chart, CHART_W, CHART_H, &j->svg, &j->err);
}

/* Draws every queued chart, then emits them in queue order. */
int chartspec_flush(chartspec_queue *oc, pr_err *err)
{
    workers_run(oc->njobs, draw_chart_job, oc->jobs);
    int rc = 0;
    for (size_t i = 0; i < oc->njobs && rc == 0; i++) {
        cs_job *j = &oc->jobs[i];
        if (j->rc < 0) {
            /* The chart's file names the page and configuration it is for. */
            *err = j->err;
            rc = pr_err_prefix(err, "%s/%s", oc->out_dir, j->svg_path);
        } else if (oc->emit(oc->ctx, j->svg_path, j->svg.data, j->svg.len, err) < 0) {
            rc = -1;
        }
    }
    return rc;
}

void chartspec_free(chartspec_queue *oc)
{
    for (size_t i = 0; i < oc->njobs; i++) {
        cs_job *j = &oc->jobs[i];
        chart_free(j->chart);
        free(j->svg_path);
        pr_buf_free(&j->svg);
    }
    free(oc->jobs);
}

void chartspec_queue_move(chartspec_queue *to, chartspec_queue *from)
{
    if (to->njobs + from->njobs > to->cap) {
        to->cap = to->njobs + from->njobs > 2 * to->cap ? to->njobs + from->njobs : 2 * to->cap;
        to->jobs = pr_xrealloc(to->jobs, to->cap * sizeof *to->jobs);
    }
    if (from->njobs)
        memcpy(to->jobs + to->njobs, from->jobs, from->njobs * sizeof *from->jobs);
    to->njobs += from->njobs;
    free(from->jobs);
    from->jobs = NULL;
    from->njobs = from->cap = 0;
}

/* ---------------------------------------------------------------- specifications */

/* A chart against GPU count, its title and axes from l's strings with view
 * tv (borrowed); the caller frees it (chart_free) unless queued. */
pr_chart *chartspec_new_chart(const lang *l, pr_chart_kind kind, const char *title_key, json_t *tv,
                              const char *y_key, pr_err *err)
{
    char *title = lang_fmt_plain(l, title_key, tv, err);
    char *x = lang_fmt_plain(l, "chart_x_gpus", tv, err);
    char *y = lang_fmt_plain(l, y_key, tv, err);
    pr_chart *c = chart_new(kind, title, x, y);
    chart_set_lang(c, strcmp(l->code, "zh") == 0 ? PR_CHART_LANG_ZH : PR_CHART_LANG_EN);
    chart_set_flag_label(c, lang_str(l, "chart_flagged"));
    free(title);
    free(x);
    free(y);
    return c;
}

/* The values chart titles read; a new reference the caller owns. */
json_t *chartspec_chart_view(const rmodel_fw *f, const rmodel_model *m, const char *config)
{
    json_t *v = json_object();
    /* One of f (a framework chart) and m (a model chart) is given. */
    view_str(v, "model", f ? f->model_title : m ? m->title : "");
    view_str(v, "framework", f ? f->framework_title : "");
    view_str(v, "config", config ? config : "");
    view_str(v, "unit", f ? f->unit : (m && m->nfws ? m->fws[0]->unit : ""));
    return v;
}

/* The figure v as the page's tables print it: a published row's figure as
 * its source printed it (without its text, in its shortest form, as
 * mdtable_pub_value prints it: 3598, not 3598.00), else v with
 * PR_DECIMALS_VALUE; the caller frees it.  (Unescaped: chartspec_queue_chart
 * escapes the whole alt text.) */
char *chartspec_fig_text(double v, const pr_pub_row *pub)
{
    if (pub && pub->printed)
        return pr_xstrdup(pub->printed);
    pr_buf b = PR_BUF_INIT;
    int d = pub ? data_pub_decimals(pub) : PR_DECIMALS_VALUE;
    md_number(&b, v, d > 6 ? 6 : d);
    return pr_buf_detach(&b);
}

/* A chart against GPU count on log-log axes: linear scaling is a straight
 * line there (on a linear y axis, lines joining 1 and 8 GPUs bent the
 * ideal curve under them and read as superlinear scaling), and the
 * 1-GPU figures are not squeezed against the baseline. */
void chartspec_loglog(pr_chart *chart, int decimals)
{
    chart_set_y_log(chart, 1);
    chart_set_decimals(chart, decimals);
}

/* Sizes: a line per column on a log2 axis, the compared columns of other
 * frameworks hollow, the theoretical peak dashed.  Shapes: grouped bars. */
static pr_chart *sweep_chart(const lang *l, const rmodel_fw *f, const pr_sweep *s,
                             const sweep_ratios *rs, pr_err *err)
{
    int bytes = sweep_xkind(s) == PR_SWEEP_BYTES;
    json_t *tv = chartspec_chart_view(f, NULL, NULL);
    char *title = lang_fmt_plain(l, "chart_sweep_title", tv, err);
    char *xl = lang_fmt_plain(l, bytes ? "chart_x_size" : "chart_x_shape", tv, err);
    json_object_set_new(tv, "unit", json_string(sweep_unit(s)));
    char *yl = lang_fmt_plain(l, "chart_y_unit", tv, err);
    pr_chart *ch = chart_new(bytes ? PR_CHART_LINE_LOG2X : PR_CHART_BARS, title, xl, yl);
    chart_set_lang(ch, strcmp(l->code, "zh") == 0 ? PR_CHART_LANG_ZH : PR_CHART_LANG_EN);
    chart_set_decimals(ch, PR_DECIMALS_VALUE);
    free(title);
    free(xl);
    free(yl);
    json_decref(tv);
    if (bytes)
        chart_set_x_bytes(ch, 1);
    else
        for (size_t r = 0; r < sweep_nrows(s); r++) {
            /* 8K×4K×16K: nine full shapes do not fit under 720 pixels. */
            pr_buf b = PR_BUF_INIT;
            const char *p = sweep_row_shape(s, r);
            while (*p) {
                char *end;
                unsigned long long v = strtoull(p, &end, 10);
                if (v >= 1024 && v % 1024 == 0)
                    pr_buf_printf(&b, "%lluK", v / 1024);
                else
                    pr_buf_printf(&b, "%llu", v);
                p = end;
                if (*p == 'x') {
                    pr_buf_puts(&b, "×");
                    p++;
                } else if (*p) {
                    break;
                }
            }
            chart_add_category(ch, pr_buf_cstr(&b));
            pr_buf_free(&b);
        }
    /* The page's own columns, then the other frameworks' compared ones. */
    /* Bars: the other frameworks' figures are in the ratio columns; beside
     * every bar they would halve the bars' width. */
    size_t nseries = sweep_ncols(s) + (bytes ? rs->n : 0);
    for (size_t i = 0; i < nseries; i++) {
        const pr_sweep *src = s;
        size_t col = i;
        char *label = NULL;
        if (i >= sweep_ncols(s)) {
            const sweep_ratio *q = &rs->v[i - sweep_ncols(s)];
            int dup = q->to == s;
            for (size_t j = sweep_ncols(s); j < i && !dup; j++)
                dup = rs->v[j - sweep_ncols(s)].to == q->to &&
                      rs->v[j - sweep_ncols(s)].to_col == q->to_col;
            if (dup)
                continue;
            src = q->to;
            col = q->to_col;
            label = pr_xasprintf("%s %s", q->to_title, sweep_col_label(src, col));
        }
        int sid = chart_add_series(ch, label ? label : sweep_col_label(s, col),
                                   src == s ? PR_CHART_SOLID : PR_CHART_HOLLOW_MARKERS);
        free(label);
        for (size_t r = 0; r < sweep_nrows(s); r++) {
            long sr = src == s ? (long)r : sweep_find_row(src, s, r);
            double v;
            pr_sweep_state st = sr < 0 ? PR_SWEEP_ABSENT : sweep_get(src, (size_t)sr, col, &v);
            if (bytes && st == PR_SWEEP_VALUE)
                chart_add_point(ch, sid, sweep_row_bytes(s, r), v);
            else if (bytes)
                chart_add_gap(ch, sid, sweep_row_bytes(s, r));
            else if (!bytes && st == PR_SWEEP_VALUE)
                chart_set_bar(ch, sid, (int)r, v);
            else if (!bytes)
                chart_set_bar_state(ch, sid, (int)r,
                                    lang_str(l, st == PR_SWEEP_NA ? "state_na" : "state_none"));
        }
    }
    double peak = sweep_peak(s);
    if (bytes && !isnan(peak) && sweep_nrows(s)) {
        /* A reference, not measured: no markers at its ends. */
        int sid =
            chart_add_series(ch, lang_str(l, "chart_peak"), PR_CHART_DASHED | PR_CHART_NO_MARKERS);
        chart_add_point(ch, sid, sweep_row_bytes(s, 0), peak);
        chart_add_point(ch, sid, sweep_row_bytes(s, sweep_nrows(s) - 1), peak);
    }
    return ch;
}

void chartspec_sweep(const lang *l, const rmodel_fw *f, const pr_sweep *s, const sweep_ratios *rs,
                     const char *dir_rel, chartspec_queue *oc, pr_buf *md, pr_err *err)
{
    pr_chart *ch = sweep_chart(l, f, s, rs, err);
    chartspec_queue_chart(oc, l, ch, dir_rel, strcmp(l->code, "zh") == 0 ? "sweep" : "sweep.en",
                          md);
}
