#include "chartspec.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "md.h"
#include "mdtable.h"
#include "page_hw.h"
#include "view.h"

/* A chart waiting to be drawn: pages are built first, then the charts are
 * drawn on a few threads, then written in the order they were queued, so
 * the output does not depend on the threads. */
struct cs_job {
    pr_chart *chart;
    char *svg_path, *png_path;
    pr_buf svg, png;
    pr_err err;
    int rc;
};
typedef struct cs_job cs_job;

enum { CHART_W = 720, CHART_H = 400 };

/* ---------------------------------------------------------------- queue */

/* A file name part made of [a-z0-9.-] only: data never names files freely. */
static void file_slug(pr_buf *out, const char *s)
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
static char *chart_base(const lang *l, const char *kind, const rm_cfg *c)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, kind);
    if (c) {
        pr_buf_putc(&b, '-');
        if (c->platform) {
            file_slug(&b, c->platform->id);
            pr_buf_putc(&b, '-');
        }
        file_slug(&b, c->precision);
        if (c->bs > 0)
            pr_buf_printf(&b, "-bs%d", c->bs);
        if (c->batch_label) {
            pr_buf slug = PR_BUF_INIT;
            file_slug(&slug, c->batch_label);
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
 * and DIR/BASE.png, and appends the Markdown that shows the SVG (with the
 * chart's alt text) and links the PNG. */
static void queue_chart(cs_queue *oc, const lang *l, pr_chart *chart, const char *dir_rel,
                        const char *base, pr_buf *md)
{
    if (oc->njobs == oc->cap)
        oc->jobs = pr_xrealloc(oc->jobs, (oc->cap = oc->cap ? oc->cap * 2 : 64) * sizeof *oc->jobs);
    cs_job *j = &oc->jobs[oc->njobs++];
    memset(j, 0, sizeof *j);
    j->chart = chart;
    j->svg_path = pr_xasprintf("%s/%s.svg", dir_rel, base);
    j->png_path = pr_xasprintf("%s/%s.png", dir_rel, base);
    char *alt = pr_chart_alt_text(chart);
    pr_buf_puts(md, "![");
    pr_md_text(md, alt);
    pr_buf_printf(md, "](%s.svg)\n\n[", base);
    pr_md_text(md, lang_str(l, "chart_png"));
    pr_buf_printf(md, "](%s.png)\n", base);
    free(alt);
}

typedef struct pool {
    cs_job *jobs;
    size_t n;
    size_t next; /* guarded by lock */
    pthread_mutex_t lock;
} pool;

static void *draw_charts(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next++;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->n)
            return NULL;
        cs_job *j = &p->jobs[i];
        j->rc = pr_chart_render_svg(j->chart, CHART_W, CHART_H, &j->svg, &j->err);
        if (j->rc == 0)
            j->rc = pr_chart_render_png(j->chart, CHART_W, CHART_H, &j->png, &j->err);
    }
}

/* Draws every queued chart, then emits them in queue order. */
int cs_flush(cs_queue *oc, pr_err *err)
{
    pool p = {oc->jobs, oc->njobs, 0, PTHREAD_MUTEX_INITIALIZER};
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t nthreads = cpus < 1 ? 1 : cpus > 8 ? 8 : (size_t)cpus;
    if (nthreads > oc->njobs)
        nthreads = oc->njobs;
    pthread_t tids[8];
    size_t started = 0;
    for (; started + 1 < nthreads; started++)
        if (pthread_create(&tids[started], NULL, draw_charts, &p) != 0)
            break;
    draw_charts(&p); /* this thread works too */
    for (size_t i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    int rc = 0;
    for (size_t i = 0; i < oc->njobs && rc == 0; i++) {
        cs_job *j = &oc->jobs[i];
        if (j->rc < 0) {
            /* The chart's file names the page and configuration it is for. */
            *err = j->err;
            rc = pr_err_prefix(err, "%s/%s", oc->out_dir, j->svg_path);
        } else if (oc->emit(oc->ctx, j->svg_path, j->svg.data, j->svg.len, err) < 0 ||
                   oc->emit(oc->ctx, j->png_path, j->png.data, j->png.len, err) < 0) {
            rc = -1;
        }
    }
    return rc;
}

void cs_free(cs_queue *oc)
{
    for (size_t i = 0; i < oc->njobs; i++) {
        cs_job *j = &oc->jobs[i];
        pr_chart_free(j->chart);
        free(j->svg_path);
        free(j->png_path);
        pr_buf_free(&j->svg);
        pr_buf_free(&j->png);
    }
    free(oc->jobs);
}

/* ---------------------------------------------------------------- specifications */

/* A chart against GPU count, its title and axes from l's strings with view
 * tv (borrowed); the caller frees it (pr_chart_free) unless queued. */
static pr_chart *new_chart(const lang *l, pr_chart_kind kind, const char *title_key,
                           json_t *tv, const char *y_key, pr_err *err)
{
    char *title = lang_fmt_plain(l, title_key, tv, err);
    char *x = lang_fmt_plain(l, "chart_x_gpus", tv, err);
    char *y = lang_fmt_plain(l, y_key, tv, err);
    pr_chart *c = pr_chart_new(kind, title, x, y);
    pr_chart_set_lang(c, strcmp(l->code, "zh") == 0 ? PR_CHART_LANG_ZH : PR_CHART_LANG_EN);
    free(title);
    free(x);
    free(y);
    return c;
}

/* The values chart titles read; a new reference the caller owns. */
static json_t *chart_view(const rm_fw *f, const rm_model *m, const char *config)
{
    json_t *v = json_object();
    vw_str(v, "model", f ? f->model_title : m->title);
    vw_str(v, "framework", f ? f->framework_title : "");
    vw_str(v, "config", config ? config : "");
    vw_str(v, "unit", f ? f->unit : (m->nfws ? m->fws[0]->unit : ""));
    return v;
}

/* The figure v as the page's tables print it: a published row's figure as
 * its source printed it, else v with PR_DECIMALS_VALUE; the caller frees
 * it.  (Unescaped: queue_chart escapes the whole alt text.) */
static char *fig_text(double v, const pr_pub_row *pub)
{
    if (pub && pub->printed)
        return pr_xstrdup(pub->printed);
    pr_buf b = PR_BUF_INIT;
    pr_md_number(&b, v, PR_DECIMALS_VALUE);
    return pr_buf_detach(&b);
}

/* A chart against GPU count on log-log axes: linear scaling is a straight
 * line there (on a linear y axis, lines joining 1 and 8 GPUs bent the
 * ideal curve under them and read as superlinear scaling), and the
 * 1-GPU figures are not squeezed against the baseline. */
static void loglog(pr_chart *chart, int decimals)
{
    pr_chart_set_y_log(chart, 1);
    pr_chart_set_decimals(chart, decimals);
}

/* Throughput against GPU count for one configuration of one framework:
 * measured medians, the primary published figures as hollow markers, and
 * ideal linear scaling from the 1-GPU point. */
int cs_fw_scaling(const lang *l, const rm_fw *f, const rm_cfg *c, const char *dir_rel,
                  cs_queue *oc, pr_buf *md, pr_err *err)
{
    const pr_pub_table *pub = c->pub;
    char *config = lang_config_plain(l, c, err);
    json_t *tv = chart_view(f, NULL, config);
    pr_chart *chart = new_chart(l, PR_CHART_LINE_LOG2X, "chart_scaling_title", tv,
                                "chart_y_throughput", err);
    loglog(chart, PR_DECIMALS_VALUE);
    /* Figures parsed from someone else's logs are not measured here. */
    int imported = 0, ok = 0;
    for (size_t i = 0; i < c->ncells; i++) {
        ok += c->cells[i].n_ok > 0;
        imported += c->cells[i].n_ok > 0 && c->cells[i].imported;
    }
    int meas = pr_chart_add_series(
        chart, lang_str(l, ok && imported == ok ? "chart_imported" : "chart_measured"),
        PR_CHART_SOLID);
    int pubs = -1;
    if (pub) {
        json_t *pv = json_pack("{s:s}", "label", pub->label);
        char *label = lang_fmt_plain(l, "chart_published", pv, err);
        pubs = pr_chart_add_series(chart, label, PR_CHART_HOLLOW_MARKERS);
        free(label);
        json_decref(pv);
    }
    size_t points = 0;
    double base = NAN;
    for (size_t i = 0; i < c->ncells; i++) {
        const rm_cell *rc = &c->cells[i];
        const pr_pub_row *pr = rc->pub;
        /* A row of the table without a figure breaks the line. */
        if (rc->n_ok) {
            pr_chart_add_point(chart, meas, rc->gpus, rc->median);
            points++;
            if (rc->gpus == 1 && rc->nodes == 1)
                base = rc->median;
        } else {
            pr_chart_add_gap(chart, meas, rc->gpus);
        }
        if (pr && pr->has_value) {
            char *text = fig_text(pr->value, pr);
            pr_chart_add_point_text(chart, pubs, rc->gpus, pr->value, text);
            free(text);
            points++;
            if (rc->gpus == 1 && rc->nodes == 1 && isnan(base))
                base = pr->value;
        } else {
            pr_chart_add_gap(chart, pubs, rc->gpus);
        }
    }
    if (!isnan(base))
        pr_chart_add_ideal(chart, 1, base);
    /* Two points make a line anyone can read off the table. */
    if (points >= 3) {
        char *b = chart_base(l, "scaling", c);
        queue_chart(oc, l, chart, dir_rel, b, md);
        free(b);
    } else {
        pr_chart_free(chart);
    }
    json_decref(tv);
    free(config);
    return 0;
}

/* The points of c's speedup line (measured medians, else the primary
 * published figures, over the 1-GPU one); 0 without a 1-GPU baseline. */
static size_t speedup_points(const rm_cfg *c, pr_chart *chart, int series)
{
    const rm_cell *b = rm_cell_of(c, 1, 1);
    const pr_pub_row *pb = b->pub;
    int measured = b->n_ok > 0;
    if (!measured && !(pb && pb->has_value))
        return 0;
    size_t points = 0;
    for (size_t r = 0; r < c->ncells; r++) {
        const rm_cell *rc = &c->cells[r];
        const pr_pub_row *pr = rc->pub;
        double v = measured && rc->n_ok                      ? rc->median / b->median
                   : !measured && pr && pr->has_value ? pr->value / pb->value
                                                      : NAN;
        if (isnan(v)) {
            if (chart)
                pr_chart_add_gap(chart, series, rc->gpus);
            continue;
        }
        if (chart)
            pr_chart_add_point(chart, series, rc->gpus, v);
        points++;
    }
    return points;
}

/* Speedup against GPU count, one chart per platform (speedups of different
 * machines are not compared), one line per configuration of it that has a
 * 1-GPU baseline and at least three points: a series that would draw no
 * line is not in the legend.  Published lines are hollow. */
int cs_fw_speedup(const lang *l, const rm_fw *f, const char *dir_rel, cs_queue *oc, pr_buf *md,
                  pr_err *err)
{
    for (size_t first = 0; first < f->ncfgs;) {
        const pr_platform *plat = f->cfgs[first].platform;
        size_t end = first;
        while (end < f->ncfgs && f->cfgs[end].platform == plat)
            end++;
        const char *ptitle = !plat ? lang_str(l, "platform_unknown")
                             : strcmp(l->code, "zh") == 0 ? plat->title_zh
                                                         : plat->title_en;
        json_t *tv = chart_view(f, NULL, ptitle);
        pr_chart *chart = new_chart(l, PR_CHART_LINE_LOG2X, "chart_speedup_title", tv,
                                    "chart_y_speedup", err);
        loglog(chart, PR_DECIMALS_SPEEDUP);
        size_t lines = 0;
        for (size_t i = first; i < end; i++) {
            const rm_cfg *c = &f->cfgs[i];
            if (speedup_points(c, NULL, 0) < 3)
                continue;
            int measured = rm_cell_of(c, 1, 1)->n_ok > 0;
            rm_cfg bare = *c;
            bare.platform = NULL;
            char *config = lang_config_short(l, &bare, measured, err);
            int s = pr_chart_add_series(chart, config,
                                        measured ? PR_CHART_SOLID : PR_CHART_HOLLOW_MARKERS);
            speedup_points(c, chart, s);
            lines++;
            free(config);
        }
        if (lines) {
            pr_chart_add_ideal(chart, 1, 1);
            char *b = pr_xstrdup("speedup");
            if (plat) {
                pr_buf base = PR_BUF_INIT;
                pr_buf_puts(&base, "speedup-");
                file_slug(&base, plat->id);
                free(b);
                b = pr_buf_detach(&base);
            }
            if (strcmp(l->code, "zh") != 0) {
                char *e = pr_xasprintf("%s.%s", b, l->code);
                free(b);
                b = e;
            }
            queue_chart(oc, l, chart, dir_rel, b, md);
            free(b);
        } else {
            pr_chart_free(chart);
        }
        json_decref(tv);
        first = end;
    }
    return 0;
}

/* The kinds of series a framework has in a cross-framework chart: its
 * figures by where they come from, each its own series so that published
 * ones are drawn hollow and labelled as such. */
enum { XS_MEASURED, XS_IMPORTED, XS_PUBLISHED, XS_KINDS };

/* The figure a framework shows in a cross-framework chart for one cell: a
 * value (measured, else published) and the kind of series it goes in, or a
 * state word (NULL when neither). */
static const char *cross_figure(const lang *l, const rm_cell *rc, double *value, int *kind)
{
    *value = NAN;
    *kind = rc->imported ? XS_IMPORTED : XS_MEASURED;
    switch (rc->origin) {
    case RM_MEASURED:
        *value = rc->median;
        return NULL;
    case RM_FAILED:
        return mdt_fail_word(l, rc->fail_rec);
    case RM_PUBLISHED:
        *value = rc->pub->value;
        *kind = XS_PUBLISHED;
        return NULL;
    case RM_PUB_STATE:
        *kind = XS_PUBLISHED;
        return rc->pub->state;
    case RM_PLANNED:
        return lang_str(l, "state_todo");
    case RM_NONE:
        break;
    }
    return NULL;
}

/* The legend entry of column col's series of kind k: the framework, its
 * exact mode when the class has several, "(published)" or "(imported)";
 * the caller frees it. */
static char *cross_label(const lang *l, const rm_mcfg *mc, size_t col, int k, pr_err *err)
{
    pr_buf mode = PR_BUF_INIT;
    json_t *v = json_object();
    vw_str(v, "framework", mc->fws[col]->framework_title);
    if (cmp_col_mode(mc, col, &mode))
        vw_str(v, "mode", pr_buf_cstr(&mode));
    if (k == XS_PUBLISHED)
        json_object_set_new(v, "published", json_true());
    if (k == XS_IMPORTED)
        json_object_set_new(v, "imported", json_true());
    char *s = lang_fmt_plain(l, "chart_fw_series", v, err);
    json_decref(v);
    pr_buf_free(&mode);
    return s;
}

/* Whether m's figures are limits of a machine (hardware suites: bus
 * bandwidth, FLOP/s), which do not add up over GPUs as throughput does. */
static int model_hardware(const rm_model *m)
{
    int hw = m->nfws > 0;
    for (size_t i = 0; i < m->nfws; i++)
        hw &= m->fws[i]->suite && m->fws[i]->suite->hardware;
    return hw;
}

/* The bar of figure v (its published row pub, or NULL) at gpus: per GPU
 * when per_gpu, its alt text the table's figure (and the per-GPU one). */
static void set_cross_bar(const lang *l, pr_chart *bars, int series, int cat, double v,
                          const pr_pub_row *pub, int gpus, int per_gpu, pr_err *err)
{
    char *total = fig_text(v, pub);
    if (!per_gpu || gpus <= 1) {
        pr_chart_set_bar_text(bars, series, cat, per_gpu ? v / (gpus > 0 ? gpus : 1) : v, total);
        free(total);
        return;
    }
    pr_buf pg = PR_BUF_INIT;
    pr_md_number(&pg, v / gpus, PR_DECIMALS_VALUE);
    json_t *tv = json_pack("{s:s,s:s}", "total", total, "per_gpu", pr_buf_cstr(&pg));
    char *text = lang_fmt_plain(l, "chart_per_gpu_value", tv, err);
    pr_chart_set_bar_text(bars, series, cat, v / gpus, text);
    free(text);
    json_decref(tv);
    pr_buf_free(&pg);
    free(total);
}

/* Model page, one configuration (one platform, precision class and batch
 * size): grouped bars (states as labelled gaps) and scaling lines.
 * Training throughput is drawn per GPU in the bars: in totals the 1-GPU
 * bars were slivers beside the 32-GPU ones, while per GPU every group
 * reads on the same scale and shows what scaling costs; the lines, on
 * log-log axes, show the totals.  Each
 * framework has a series per kind of figure it has there; a framework
 * with no figure has none, so the legend names only what is drawn. */
int cs_model(const lang *l, const rm_model *m, const rm_mcfg *mc, cs_queue *oc, pr_buf *md,
             pr_err *err)
{
    const rm_cfg *c = &mc->cfg;
    const rm_row *rows = mc->rows;
    size_t nrows = mc->nrows, ncols = mc->ncols;
    /* The title names the platform and the class, never one mode of it. */
    char *config = cmp_config_plain(l, c, 1, err);
    json_t *tv = chart_view(NULL, m, config);
    int per_gpu = !model_hardware(m);
    pr_chart *bars = new_chart(l, PR_CHART_BARS,
                               per_gpu ? "chart_compare_gpu_title" : "chart_compare_title", tv,
                               per_gpu ? "chart_y_per_gpu" : "chart_y_throughput", err);
    pr_chart_set_decimals(bars, PR_DECIMALS_VALUE);
    pr_chart *lines = new_chart(l, PR_CHART_LINE_LOG2X, "chart_lines_title", tv,
                                "chart_y_throughput", err);
    loglog(lines, PR_DECIMALS_VALUE);
    for (size_t r = 0; r < nrows; r++) {
        json_t *gv = json_pack("{s:i,s:i}", "nodes", rows[r].nodes, "gpus", rows[r].gpus);
        char *t = lang_fmt_plain(l, "gpus_label", gv, err);
        pr_chart_add_category(bars, t);
        free(t);
        json_decref(gv);
    }
    size_t values = 0, line_series = 0;
    for (size_t i = 0; i < ncols; i++) {
        /* First count each kind's points: a series is added only with some. */
        size_t pts[XS_KINDS] = {0};
        for (size_t r = 0; r < nrows; r++) {
            double v;
            int k;
            cross_figure(l, rm_cell_of(mc->fcfgs[i], rows[r].nodes, rows[r].gpus), &v, &k);
            pts[k] += !isnan(v);
        }
        int sb[XS_KINDS], sl[XS_KINDS], first = -1;
        for (int k = 0; k < XS_KINDS; k++) {
            sb[k] = sl[k] = -1;
            if (!pts[k])
                continue;
            char *label = cross_label(l, mc, i, k, err);
            int style = k == XS_PUBLISHED ? PR_CHART_HOLLOW_MARKERS : PR_CHART_SOLID;
            sb[k] = pr_chart_add_series(bars, label, style);
            sl[k] = pr_chart_add_series(lines, label, style);
            free(label);
            if (first < 0)
                first = k;
            line_series += pts[k] >= 3;
        }
        for (size_t r = 0; first >= 0 && r < nrows; r++) {
            double v;
            int k;
            const rm_cell *rc = rm_cell_of(mc->fcfgs[i], rows[r].nodes, rows[r].gpus);
            const char *state = cross_figure(l, rc, &v, &k);
            const pr_pub_row *pub = k == XS_PUBLISHED ? rc->pub : NULL;
            /* Each line breaks at the rows where it has no figure. */
            for (int o = 0; o < XS_KINDS; o++)
                if (o != k || isnan(v))
                    pr_chart_add_gap(lines, sl[o], rows[r].gpus);
            if (!isnan(v)) {
                set_cross_bar(l, bars, sb[k], (int)r, v, pub, rows[r].gpus, per_gpu, err);
                char *text = fig_text(v, pub);
                pr_chart_add_point_text(lines, sl[k], rows[r].gpus, v, text);
                free(text);
                values++;
            } else if (state) {
                /* A state is a gap in the framework's bars: in its series
                 * of that kind, else its first. */
                pr_chart_set_bar_state(bars, sb[k] >= 0 ? sb[k] : sb[first], (int)r, state);
            }
        }
    }
    if (values >= 3) {
        /* Files are named by the class, as the title is. */
        rm_cfg key = *c;
        key.precision = c->klass->id;
        char *b = chart_base(l, "compare", &key);
        queue_chart(oc, l, bars, m->id, b, md);
        bars = NULL;
        free(b);
        if (line_series) {
            pr_buf_putc(md, '\n');
            b = chart_base(l, "lines", &key);
            queue_chart(oc, l, lines, m->id, b, md);
            lines = NULL;
            free(b);
        }
    }
    pr_chart_free(bars);
    pr_chart_free(lines);
    json_decref(tv);
    free(config);
    return 0;
}

/* Sizes: a line per column on a log2 axis, the compared columns of other
 * frameworks hollow, the theoretical peak dashed.  Shapes: grouped bars. */
static pr_chart *sweep_chart(const lang *l, const rm_fw *f, const pr_sweep *s, const hw_ratios *rs,
                             pr_err *err)
{
    int bytes = pr_sweep_xkind(s) == PR_SWEEP_BYTES;
    json_t *tv = chart_view(f, NULL, NULL);
    char *title = lang_fmt_plain(l, "chart_sweep_title", tv, err);
    char *xl = lang_fmt_plain(l, bytes ? "chart_x_size" : "chart_x_shape", tv, err);
    json_object_set_new(tv, "unit", json_string(pr_sweep_unit(s)));
    char *yl = lang_fmt_plain(l, "chart_y_unit", tv, err);
    pr_chart *ch = pr_chart_new(bytes ? PR_CHART_LINE_LOG2X : PR_CHART_BARS, title, xl, yl);
    pr_chart_set_lang(ch, strcmp(l->code, "zh") == 0 ? PR_CHART_LANG_ZH : PR_CHART_LANG_EN);
    pr_chart_set_decimals(ch, PR_DECIMALS_VALUE);
    free(title);
    free(xl);
    free(yl);
    json_decref(tv);
    if (bytes)
        pr_chart_set_x_bytes(ch, 1);
    else
        for (size_t r = 0; r < pr_sweep_nrows(s); r++) {
            /* 8K×4K×16K: nine full shapes do not fit under 720 pixels. */
            pr_buf b = PR_BUF_INIT;
            const char *p = pr_sweep_row_shape(s, r);
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
            pr_chart_add_category(ch, pr_buf_cstr(&b));
            pr_buf_free(&b);
        }
    /* The page's own columns, then the other frameworks' compared ones. */
    /* Bars: the other frameworks' figures are in the ratio columns; beside
     * every bar they would halve the bars' width. */
    size_t nseries = pr_sweep_ncols(s) + (bytes ? rs->n : 0);
    for (size_t i = 0; i < nseries; i++) {
        const pr_sweep *src = s;
        size_t col = i;
        char *label = NULL;
        if (i >= pr_sweep_ncols(s)) {
            const hw_ratio *q = &rs->v[i - pr_sweep_ncols(s)];
            int dup = q->to == s;
            for (size_t j = pr_sweep_ncols(s); j < i && !dup; j++)
                dup = rs->v[j - pr_sweep_ncols(s)].to == q->to &&
                      rs->v[j - pr_sweep_ncols(s)].to_col == q->to_col;
            if (dup)
                continue;
            src = q->to;
            col = q->to_col;
            label = pr_xasprintf("%s %s", q->to_title, pr_sweep_col_label(src, col));
        }
        int sid = pr_chart_add_series(ch, label ? label : pr_sweep_col_label(s, col),
                                      src == s ? PR_CHART_SOLID : PR_CHART_HOLLOW_MARKERS);
        free(label);
        for (size_t r = 0; r < pr_sweep_nrows(s); r++) {
            long sr = src == s ? (long)r : pr_sweep_find_row(src, s, r);
            double v;
            pr_sweep_state st = sr < 0 ? PR_SWEEP_ABSENT : pr_sweep_get(src, (size_t)sr, col, &v);
            if (bytes && st == PR_SWEEP_VALUE)
                pr_chart_add_point(ch, sid, pr_sweep_row_bytes(s, r), v);
            else if (bytes)
                pr_chart_add_gap(ch, sid, pr_sweep_row_bytes(s, r));
            else if (!bytes && st == PR_SWEEP_VALUE)
                pr_chart_set_bar(ch, sid, (int)r, v);
            else if (!bytes)
                pr_chart_set_bar_state(ch, sid, (int)r,
                                       lang_str(l, st == PR_SWEEP_NA ? "state_na" : "state_none"));
        }
    }
    double peak = pr_sweep_peak(s);
    if (bytes && !isnan(peak) && pr_sweep_nrows(s)) {
        /* A reference, not measured: no markers at its ends. */
        int sid = pr_chart_add_series(ch, lang_str(l, "chart_peak"),
                                      PR_CHART_DASHED | PR_CHART_NO_MARKERS);
        pr_chart_add_point(ch, sid, pr_sweep_row_bytes(s, 0), peak);
        pr_chart_add_point(ch, sid, pr_sweep_row_bytes(s, pr_sweep_nrows(s) - 1), peak);
    }
    return ch;
}

void cs_sweep(const lang *l, const rm_fw *f, const pr_sweep *s, const hw_ratios *rs,
              const char *dir_rel, cs_queue *oc, pr_buf *md, pr_err *err)
{
    pr_chart *ch = sweep_chart(l, f, s, rs, err);
    queue_chart(oc, l, ch, dir_rel, strcmp(l->code, "zh") == 0 ? "sweep" : "sweep.en", md);
}
