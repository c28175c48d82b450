/* chartspec_model: the model page's charts: per configuration, the
 * frameworks side by side (bars, per GPU) and their scaling lines where a
 * line says more than the bars. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "3-tables/compare.h"
#include "3-tables/likewise.h"
#include "3-tables/mdtable.h"
#include "3-tables/view.h"
#include "base/md.h"
#include "chartspec_int.h"

/* The kinds of series a framework has in a cross-framework chart: its
 * figures by where they come from, each its own series so that published
 * ones are drawn hollow and labelled as such. */
enum { XS_MEASURED, XS_IMPORTED, XS_PUBLISHED, XS_KINDS };

/* The figure a framework shows in a cross-framework chart for one cell: a
 * value (measured, else published) and the kind of series it goes in, or a
 * state word (NULL when neither). */
static const char *cross_figure(const lang *l, const rmodel_cell *rc, double *value, int *kind)
{
    *value = NAN;
    *kind = rc->imported ? XS_IMPORTED : XS_MEASURED;
    switch (rc->origin) {
    case RM_MEASURED:
        *value = rc->median;
        return NULL;
    case RM_FAILED:
        return mdtable_fail_word(l, rc->fail_rec);
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
static char *cross_label(const lang *l, const rmodel_mcfg *mc, size_t col, int k, pr_err *err)
{
    pr_buf mode = PR_BUF_INIT;
    json_t *v = json_object();
    view_str(v, "framework", mc->fws[col]->framework_title);
    if (compare_col_mode(mc, col, &mode))
        view_str(v, "mode", pr_buf_cstr(&mode));
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
static int model_hardware(const rmodel_model *m)
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
    char *total = chartspec_fig_text(v, pub);
    if (!per_gpu || gpus <= 1) {
        chart_set_bar_text(bars, series, cat, per_gpu ? v / (gpus > 0 ? gpus : 1) : v, total);
        free(total);
        return;
    }
    pr_buf pg = PR_BUF_INIT;
    md_number(&pg, v / gpus, PR_DECIMALS_VALUE);
    json_t *tv = json_pack("{s:s,s:s}", "total", total, "per_gpu", pr_buf_cstr(&pg));
    char *text = lang_fmt_plain(l, "chart_per_gpu_value", tv, err);
    chart_set_bar_text(bars, series, cat, v / gpus, text);
    free(text);
    json_decref(tv);
    pr_buf_free(&pg);
    free(total);
}

/* Model page, one configuration (one platform, precision class and batch
 * size): grouped bars (states as labelled gaps) and scaling lines, the
 * figures the tables flag drawn flagged in both.  The lines join the
 * points of one run set; a lines chart that would join none is left
 * out (docs/charts.md).
 * Training throughput is drawn per GPU in the bars: in totals the 1-GPU
 * bars were slivers beside the 32-GPU ones, while per GPU every group
 * reads on the same scale and shows what scaling costs; the lines, on
 * log-log axes, show the totals.  A time (lower is better) is never
 * divided per GPU: its bars are totals.  Each
 * framework has a series per kind of figure it has there; a framework
 * with no figure has none, so the legend names only what is drawn. */
/* 1 when a framework of m has figures that are better lower (times):
 * they are never divided per GPU, and the axes say lower is better. */
static int model_lower(const rmodel_model *m)
{
    for (size_t i = 0; i < m->nfws; i++)
        if (m->fws[i]->dir == PR_DIR_LOWER)
            return 1;
    return 0;
}

int chartspec_model(const lang *l, const rmodel_model *m, const rmodel_mcfg *mc,
                    chartspec_queue *oc, pr_buf *md, pr_err *err)
{
    const rmodel_cfg *c = &mc->cfg;
    const rmodel_row *rows = mc->rows;
    size_t nrows = mc->nrows, ncols = mc->ncols;
    /* The title names the platform and the class, never one mode of it. */
    char *config = compare_config_plain(l, c, 1, err);
    json_t *tv = chartspec_chart_view(NULL, m, config);
    int lower = model_lower(m);
    int per_gpu = !model_hardware(m) && !lower;
    pr_chart *bars = chartspec_new_chart(l, PR_CHART_BARS,
                                         lower     ? "chart_compare_time_title"
                                         : per_gpu ? "chart_compare_gpu_title"
                                                   : "chart_compare_title",
                                         tv,
                                         lower     ? "chart_y_time"
                                         : per_gpu ? "chart_y_per_gpu"
                                                   : "chart_y_throughput",
                                         err);
    chart_set_decimals(bars, PR_DECIMALS_VALUE);
    pr_chart *lines = chartspec_new_chart(l, PR_CHART_LINE_LOG2X, "chart_lines_title", tv,
                                          lower ? "chart_y_time" : "chart_y_throughput", err);
    chartspec_loglog(lines, PR_DECIMALS_VALUE);
    for (size_t r = 0; r < nrows; r++) {
        json_t *gv = lang_count_view(rows[r].nodes, rows[r].gpus);
        char *t = lang_fmt_plain(l, "gpus_label", gv, err);
        chart_add_category(bars, t);
        free(t);
        json_decref(gv);
    }
    size_t values = 0, line_series = 0;
    chartspec_sets sets = {0};
    for (size_t i = 0; i < ncols; i++) {
        const rmodel_cfg *fc = mc->fcfgs[i];
        chartspec_flags fl;
        chartspec_flags_of(mc->fws[i], fc, &fl);
        /* First count each kind's points: a series is added only with some. */
        size_t pts[XS_KINDS] = {0};
        for (size_t r = 0; r < nrows; r++) {
            double v;
            int k;
            cross_figure(l, rmodel_cell_of(fc, rows[r].nodes, rows[r].gpus), &v, &k);
            pts[k] += !isnan(v);
        }
        int sb[XS_KINDS], sl[XS_KINDS], first = -1;
        for (int k = 0; k < XS_KINDS; k++) {
            sb[k] = sl[k] = -1;
            if (!pts[k])
                continue;
            char *label = cross_label(l, mc, i, k, err);
            int style = k == XS_PUBLISHED ? PR_CHART_HOLLOW_MARKERS : PR_CHART_SOLID;
            sb[k] = chart_add_series(bars, label, style);
            sl[k] = chart_add_series(lines, label, style);
            free(label);
            if (first < 0)
                first = k;
            line_series += pts[k] >= 3;
        }
        for (size_t r = 0; first >= 0 && r < nrows; r++) {
            double v;
            int k;
            const rmodel_cell *rc = rmodel_cell_of(fc, rows[r].nodes, rows[r].gpus);
            const char *state = cross_figure(l, rc, &v, &k);
            const pr_pub_row *pub = k == XS_PUBLISHED ? rc->pub : NULL;
            /* (rmodel_cell_of's shared empty cell is none of fc's: no flag.) */
            size_t ci = 0;
            while (ci < fc->ncells && &fc->cells[ci] != rc)
                ci++;
            int flagged = ci < fc->ncells && (pub ? fl.pub[ci] : fl.meas[ci]);
            /* Each line breaks at the rows where it has no figure. */
            for (int o = 0; o < XS_KINDS; o++)
                if (o != k || isnan(v))
                    chart_add_gap(lines, sl[o], rows[r].gpus);
            if (!isnan(v)) {
                set_cross_bar(l, bars, sb[k], (int)r, v, pub, rows[r].gpus, per_gpu, err);
                if (flagged)
                    chart_flag_bar(bars, sb[k], (int)r);
                char *text = chartspec_fig_text(v, pub);
                const void *set = pub ? chartspec_pub_row_set(mc->fws[i], fc->pub, pub)
                                      : (const void *)rc->link_run;
                chart_add_point_full(lines, sl[k], rows[r].gpus, v, text,
                                     chartspec_set_id(&sets, set), flagged);
                free(text);
                values++;
            } else if (state) {
                /* A state is a gap in the framework's bars: in its series
                 * of that kind, else its first. */
                chart_set_bar_state(bars, sb[k] >= 0 ? sb[k] : sb[first], (int)r, state);
            }
        }
        chartspec_flags_free(&fl);
    }
    chartspec_sets_free(&sets);
    if (values >= 3) {
        /* Like with like: the chart's alt text and caption say whether its
         * bars rank the frameworks, as the table's note does (likewise.h). */
        pr_buf note = PR_BUF_INIT;
        likewise_cmp *lw = likewise_build(mc, NULL, 0);
        if (lw)
            likewise_plain(l, lw, &note, err);
        likewise_free(lw);
        if (note.len) {
            chart_set_alt_note(bars, pr_buf_cstr(&note));
            chart_set_alt_note(lines, pr_buf_cstr(&note));
        }
        /* Files are named by the class, as the title is. */
        rmodel_cfg key = *c;
        key.precision = c->klass->id;
        char *b = chartspec_chart_base(l, "compare", &key);
        chartspec_queue_chart(oc, l, bars, m->id, b, md);
        bars = NULL;
        free(b);
        /* Markers alone (points of two run sets, or more than a power of
         * two apart) say nothing the bars do not: no lines chart then. */
        if (line_series && chart_has_segments(lines)) {
            pr_buf_putc(md, '\n');
            b = chartspec_chart_base(l, "lines", &key);
            chartspec_queue_chart(oc, l, lines, m->id, b, md);
            lines = NULL;
            free(b);
        }
        if (note.len) {
            pr_buf_puts(md, "\n*");
            md_text(md, pr_buf_cstr(&note));
            pr_buf_puts(md, "*\n");
        }
        pr_buf_free(&note);
    }
    chart_free(bars);
    chart_free(lines);
    json_decref(tv);
    free(config);
    return 0;
}
