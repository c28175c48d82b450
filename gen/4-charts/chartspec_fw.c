/* chartspec_fw: the framework page's charts: throughput scaling per
 * configuration, scaling efficiency per platform. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "2-model/audit.h"
#include "3-tables/config_words.h"
#include "3-tables/fw_pubtab.h"
#include "3-tables/fw_tables.h"
#include "3-tables/view.h"
#include "base/md.h"
#include "chartspec_int.h"

/* Throughput against GPU count for one configuration of one framework:
 * measured medians, the primary published figures as hollow markers, and
 * ideal linear scaling from the 1-GPU point.  Each line joins the points
 * of one run set only; figures the tables flag are drawn flagged. */
int chartspec_fw_scaling(const lang *l, const rmodel_fw *f, const rmodel_cfg *c,
                         const char *dir_rel, chartspec_queue *oc, pr_buf *md, pr_err *err)
{
    const pr_pub_table *pub = c->pub;
    char *config = config_words_plain(l, c, err);
    json_t *tv = chartspec_chart_view(f, NULL, config);
    /* A time (lower is better) says so on its axis and has no ideal line
     * of base × GPUs. */
    int lower = f->dir == PR_DIR_LOWER;
    pr_chart *chart = chartspec_new_chart(
        l, PR_CHART_LINE_LOG2X, lower ? "chart_scaling_time_title" : "chart_scaling_title", tv,
        lower ? "chart_y_time" : "chart_y_throughput", err);
    chartspec_loglog(chart, PR_DECIMALS_VALUE);
    /* Figures parsed from someone else's logs are not measured here. */
    int imported = 0, ok = 0;
    for (size_t i = 0; i < c->ncells; i++) {
        ok += c->cells[i].n_ok > 0;
        imported += c->cells[i].n_ok > 0 && c->cells[i].imported;
    }
    int meas = chart_add_series(
        chart, lang_str(l, ok && imported == ok ? "chart_imported" : "chart_measured"),
        PR_CHART_SOLID);
    int pubs = -1;
    if (pub) {
        json_t *pv = json_pack("{s:s}", "label", pub->label);
        char *label = lang_fmt_plain(l, "chart_published", pv, err);
        pubs = chart_add_series(chart, label, PR_CHART_HOLLOW_MARKERS);
        free(label);
        json_decref(pv);
    }
    chartspec_flags fl;
    chartspec_flags_of(f, c, &fl);
    chartspec_sets sets = {0};
    size_t points = 0;
    double base = NAN;
    for (size_t i = 0; i < c->ncells; i++) {
        const rmodel_cell *rc = &c->cells[i];
        const pr_pub_row *pr = rc->pub;
        /* A row of the table without a figure breaks the line. */
        if (rc->n_ok) {
            char *text = chartspec_fig_text(rc->median, NULL);
            chart_add_point_full(chart, meas, rc->gpus, rc->median, text,
                                 chartspec_set_id(&sets, rc->link_run), fl.meas[i]);
            free(text);
            points++;
            if (rc->gpus == 1 && rc->nodes == 1)
                base = rc->median;
        } else {
            chart_add_gap(chart, meas, rc->gpus);
        }
        if (pr && pr->has_value) {
            char *text = chartspec_fig_text(pr->value, pr);
            chart_add_point_full(chart, pubs, rc->gpus, pr->value, text,
                                 chartspec_set_id(&sets, chartspec_pub_row_set(f, pub, pr)),
                                 fl.pub[i]);
            free(text);
            points++;
            if (rc->gpus == 1 && rc->nodes == 1 && isnan(base))
                base = pr->value;
        } else {
            chart_add_gap(chart, pubs, rc->gpus);
        }
    }
    chartspec_flags_free(&fl);
    chartspec_sets_free(&sets);
    if (!isnan(base))
        if (!lower)
            chart_add_ideal(chart, 1, base);
    /* Two points make a line anyone can read off the table. */
    if (points >= 3) {
        char *b = chartspec_chart_base(l, "scaling", c);
        chartspec_queue_chart(oc, l, chart, dir_rel, b, md);
        free(b);
    } else {
        chart_free(chart);
    }
    json_decref(tv);
    free(config);
    return 0;
}

/* The efficiency text as the tables print it ("94.4%"); the caller frees
 * it. */
static char *eff_text(double eff)
{
    pr_buf b = PR_BUF_INIT;
    md_number(&b, eff, PR_DECIMALS_PERCENT);
    pr_buf_putc(&b, '%');
    return pr_buf_detach(&b);
}

/* The efficiency points of c from its runs' medians (pub 0) or its primary
 * published figures (pub 1), each over the 1-GPU one of the same kind,
 * exactly where the tables compute one (fw_tables_cell_scaling, fw_pubtab_row_scaling:
 * within one run set and rule only; a point across run sets, sources or
 * rules is left out, as the table prints none): into series of chart when
 * chart is not NULL.  A point whose figure its table flags is drawn
 * flagged.  Returns the points (0 without a baseline); *max_gpus (may be
 * NULL) is raised to the largest GPU count with a point. */
static size_t efficiency_points(const audit_model *audit, const rmodel_fw *f, const rmodel_cfg *c,
                                int pub, const chartspec_flags *fl, chartspec_sets *sets,
                                pr_chart *chart, int series, int *max_gpus)
{
    const rmodel_cell *b = rmodel_base_cell(c);
    const pr_pub_row *pb = rmodel_cell_of(c, 1, 1)->pub;
    if (pub ? !(pb && pb->has_value) : !b->n_ok)
        return 0;
    size_t points = 0;
    for (size_t i = 0; i < c->ncells; i++) {
        const rmodel_cell *rc = &c->cells[i];
        const pr_pub_row *pr = rc->pub;
        double v = NAN, sp;
        int flagged = 0;
        const void *set = NULL;
        if (pub && pr && pr->has_value) {
            if (pr == pb)
                v = 100.0;
            else
                fw_pubtab_row_scaling(audit, f, c->pub, pr, &sp, &v);
            flagged = fl->pub[i];
            set = chartspec_pub_row_set(f, c->pub, pr);
        } else if (!pub && rc->n_ok) {
            if (rc == b)
                v = 100.0;
            else
                fw_tables_cell_scaling(f, c, rc, &sp, &v);
            flagged = fl->meas[i];
            set = rc->link_run;
        }
        if (isnan(v)) {
            if (chart)
                chart_add_gap(chart, series, rc->gpus);
            continue;
        }
        if (max_gpus && rc->gpus > *max_gpus)
            *max_gpus = rc->gpus;
        if (chart) {
            char *text = eff_text(v);
            chart_add_point_full(chart, series, rc->gpus, v, text, chartspec_set_id(sets, set),
                                 flagged);
            free(text);
        }
        points++;
    }
    return points;
}

/* Scaling efficiency against GPU count, one chart per platform (machines
 * are not compared), one line per configuration of it: on a linear axis
 * from 0 with the 100 % level dashed, where 88.8 % stands visibly below
 * ideal (on log-log speedup axes it looked ideal).  A configuration has
 * a line of its runs' figures when they give two points or more (the
 * reproduction is what the page is about, even at 1 and 8 GPUs only), and
 * one of its primary published table's (hollow, "published") when that
 * gives three points or more and reaches GPU counts the runs' line does
 * not (Perf's 88.8 % at 32 GPUs, mmsegmentation's 178.7 %): two published
 * points say no more than the table. */
int chartspec_fw_efficiency(const lang *l, const audit_model *audit, const rmodel_fw *f,
                            const char *dir_rel, chartspec_queue *oc, pr_buf *md, pr_err *err)
{
    for (size_t first = 0; first < f->ncfgs;) {
        const pr_platform *plat = f->cfgs[first].platform;
        size_t end = first;
        while (end < f->ncfgs && f->cfgs[end].platform == plat)
            end++;
        const char *ptitle = !plat                        ? lang_str(l, "platform_unknown")
                             : strcmp(l->code, "zh") == 0 ? plat->title_zh
                                                          : plat->title_en;
        json_t *tv = chartspec_chart_view(f, NULL, ptitle);
        pr_chart *chart = chartspec_new_chart(l, PR_CHART_LINE_LOG2X, "chart_efficiency_title", tv,
                                              "chart_y_efficiency", err);
        chart_set_decimals(chart, PR_DECIMALS_PERCENT);
        chartspec_sets sets = {0};
        size_t lines = 0;
        for (size_t i = first; i < end; i++) {
            const rmodel_cfg *c = &f->cfgs[i];
            chartspec_flags fl;
            chartspec_flags_of(f, c, &fl);
            int runs_max = 0, pub_max = 0;
            int runs = efficiency_points(audit, f, c, 0, &fl, &sets, NULL, 0, &runs_max) >= 2;
            int pub = efficiency_points(audit, f, c, 1, &fl, &sets, NULL, 0, &pub_max) >= 3 &&
                      (!runs || pub_max > runs_max);
            for (int k = 0; k < 2; k++) {
                if (!(k ? pub : runs))
                    continue;
                rmodel_cfg bare = *c;
                bare.platform = NULL;
                char *config = config_words_short(l, &bare, !k, err);
                int s =
                    chart_add_series(chart, config, k ? PR_CHART_HOLLOW_MARKERS : PR_CHART_SOLID);
                efficiency_points(audit, f, c, k, &fl, &sets, chart, s, NULL);
                lines++;
                free(config);
            }
            chartspec_flags_free(&fl);
        }
        chartspec_sets_free(&sets);
        if (lines) {
            chart_add_ref_y(chart, 100, lang_str(l, "chart_efficiency_ideal"));
            pr_buf base = PR_BUF_INIT;
            pr_buf_puts(&base, "efficiency");
            if (plat) {
                pr_buf_putc(&base, '-');
                chartspec_file_slug(&base, plat->id);
            }
            if (strcmp(l->code, "zh") != 0)
                pr_buf_printf(&base, ".%s", l->code);
            chartspec_queue_chart(oc, l, chart, dir_rel, pr_buf_cstr(&base), md);
            pr_buf_free(&base);
        } else {
            chart_free(chart);
        }
        json_decref(tv);
        first = end;
    }
    return 0;
}
