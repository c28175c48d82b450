/* fw_summary: the few lines a framework page opens with (fw_summary.h).
 * Every figure is one the page's tables show, rounded as they round it:
 * the summary says nothing the tables below do not. */
#include "fw_summary.h"

#include <math.h>
#include <string.h>

#include "2-model/audit.h"
#include "2-model/sanity.h"
#include "3-tables/compare.h"
#include "3-tables/fw_tables.h"
#include "3-tables/mdtable.h"
#include "3-tables/provenance.h"
#include "3-tables/view.h"
#include "base/md.h"
#include "fw_order.h"

/* 1 when every figure of f is of a CPU machine: counts are of processes. */
static int cpu_only(const rmodel_fw *f)
{
    for (size_t i = 0; i < f->ncfgs; i++)
        if (!platform_is_cpu(f->cfgs[i].platform))
            return 0;
    return f->ncfgs > 0;
}

/* A cell's figure: the runs' median, else the primary published figure;
 * NAN when it has neither. */
static double cell_figure(const rmodel_cell *rc, int *measured)
{
    *measured = rc->origin == RM_MEASURED;
    if (rc->origin == RM_MEASURED)
        return rc->median;
    if (rc->origin == RM_PUBLISHED && rc->pub && rc->pub->has_value)
        return rc->pub->value;
    return NAN;
}

/* The best figure of precision class k among the configurations
 * f->cfgs[first, end) (one machine's) at the largest single-node GPU count
 * that has one: measured figures before published ones, then the best (the
 * highest throughput, the lowest time).  Returns 0 when the class has
 * none there. */
static int class_headline(const rmodel_fw *f, size_t first, size_t end, const pr_prec_class *k,
                          const rmodel_cfg **cfg, const rmodel_cell **cell)
{
    int best_gpus = 0, best_meas = -1;
    double best = NAN;
    for (size_t i = first; i < end; i++) {
        const rmodel_cfg *c = &f->cfgs[i];
        if (c->klass != k)
            continue;
        for (size_t j = 0; j < c->ncells; j++) {
            const rmodel_cell *rc = &c->cells[j];
            int meas;
            double v = cell_figure(rc, &meas);
            if (rc->nodes != 1 || isnan(v))
                continue;
            int better = meas > best_meas ||
                         (meas == best_meas &&
                          (rc->gpus > best_gpus ||
                           (rc->gpus == best_gpus && pr_unitdir_better(f->dir, v, best))));
            if (better) {
                best_meas = meas, best_gpus = rc->gpus, best = v;
                *cfg = c, *cell = rc;
            }
        }
    }
    return best_meas >= 0;
}

/* One machine's headline rows, f->cfgs[first, end): for each precision
 * class, in the order the configurations come, its figure at the largest
 * single-node GPU count, appended to rows; *any_pub set where one is a
 * published figure. */
static void machine_rows(const lang *l, const rmodel_fw *f, size_t first, size_t end, pr_buf *rows,
                         int *any_pub, pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    const pr_prec_class *done[64];
    size_t ndone = 0;
    for (size_t i = first; i < end && ndone < 64; i++) {
        const pr_prec_class *k = f->cfgs[i].klass;
        int seen = 0;
        for (size_t j = 0; j < ndone && !seen; j++)
            seen = done[j] == k;
        const rmodel_cfg *c;
        const rmodel_cell *rc;
        if (seen || !class_headline(f, first, end, k, &c, &rc))
            continue;
        done[ndone++] = k;
        int meas;
        double v = cell_figure(rc, &meas);
        *any_pub |= !meas;
        /* The configuration's name is Markdown already: only a pipe
         * could break the row.  The machine is the table's, not the row's. */
        pr_buf_clear(&b);
        compare_config_name(l, c, 0, &b, err);
        pr_buf_puts(rows, "| ");
        for (const char *p = pr_buf_cstr(&b); *p; p++) {
            if (*p == '|')
                pr_buf_putc(rows, '\\');
            pr_buf_putc(rows, *p);
        }
        pr_buf_puts(rows, " | ");
        /* A published figure as its source printed it (never re-rounded). */
        if (meas)
            mdtable_value(rows, v);
        else
            mdtable_pub_value(rows, rc->pub);
        pr_buf_puts(rows, meas ? "" : "†");
        pr_buf_printf(rows, " | %d |\n", rc->gpus);
    }
    pr_buf_free(&b);
}

/* The headline tables: one per machine (issue 34: figures of different
 * machines are never compared, so never rows of one table), each under
 * the machine's name, in page order (fw_order.h), fws_headline's sentence
 * above them.  Sets "short_head" and "short_table" in view where f has a
 * figure. */
static void headline_table(const rmodel_world *w, const lang *l, const rmodel_fw *f, json_t *view,
                           pr_err *err)
{
    pr_buf tables = PR_BUF_INIT, rows = PR_BUF_INIT, head = PR_BUF_INIT, b = PR_BUF_INIT;
    int any_pub = 0;
    fw_order_run *order = pr_xcalloc(f->ncfgs + 1, sizeof *order);
    size_t nplat = fw_order_runs(w, f, order);
    /* Where the records carry MLPerf's score, a cell here is the median of
     * one system's runs, not the score MLPerf publishes: both are minutes,
     * so the page names which is which. */
    int scored = 0;
    for (size_t i = 0; i < f->nrecs && !scored; i++)
        scored = json_is_object(json_object_get(f->recs[i]->metrics, "mlperf_score"));
    pr_buf_puts(&head, "| ");
    md_cell(&head, lang_str(l, "fws_col_config"));
    pr_buf_puts(&head, " | ");
    if (scored) {
        json_t *u = json_pack("{s:s}", "unit", f->unit ? f->unit : "");
        lang_fmt(l, "fws_col_median", u, &head, err);
        json_decref(u);
    } else {
        md_cell(&head, f->unit ? f->unit : "");
    }
    /* Which way is better, where it is not "higher" (lib/unitdir.h). */
    if (f->dir != PR_DIR_HIGHER && f->unit && *f->unit) {
        pr_buf_puts(&head, ", ");
        md_cell(&head, lang_str(l, f->dir == PR_DIR_LOWER ? "dir_lower" : "dir_unknown"));
    }
    pr_buf_puts(&head, " | ");
    md_cell(&head, cpu_only(f) ? provenance_col_count(l, f->cfgs[0].platform)
                               : lang_str(l, "fws_col_gpus"));
    pr_buf_puts(&head, " |\n| --- | ---: | ---: |\n");
    for (size_t i = 0; i < nplat; i++) {
        pr_buf_clear(&rows);
        machine_rows(l, f, order[i].first, order[i].end, &rows, &any_pub, err);
        if (!rows.len)
            continue;
        const pr_platform *p = f->cfgs[order[i].first].platform;
        if (tables.len)
            pr_buf_putc(&tables, '\n');
        pr_buf_puts(&tables, "**");
        md_text(&tables, p ? provenance_platform_title(l, p) : lang_str(l, "platform_none_title"));
        pr_buf_puts(&tables, "**\n\n");
        pr_buf_puts(&tables, pr_buf_cstr(&head));
        pr_buf_puts(&tables, pr_buf_cstr(&rows));
    }
    free(order);
    if (tables.len) {
        pr_buf_clear(&b);
        json_t *v =
            json_pack("{s:b,s:b,s:b}", "published", any_pub, "cpu", cpu_only(f), "scored", scored);
        lang_fmt(l, "fws_headline", v, &b, err);
        json_decref(v);
        view_str(view, "short_head", pr_buf_cstr(&b));
        view_str(view, "short_table", pr_buf_cstr(&tables));
    }
    pr_buf_free(&tables);
    pr_buf_free(&rows);
    pr_buf_free(&head);
    pr_buf_free(&b);
}

/* The speedup at the largest GPU count that has one (computed within one
 * run set and rule only: fw_tables_cell_scaling); nothing where none has. */
static void scaling_line(const lang *l, const rmodel_fw *f, json_t *lines, pr_err *err)
{
    const rmodel_cfg *bc = NULL;
    const rmodel_cell *bcell = NULL;
    double bs = NAN, be = NAN;
    for (size_t i = 0; i < f->ncfgs; i++)
        for (size_t j = 0; j < f->cfgs[i].ncells; j++) {
            const rmodel_cell *rc = &f->cfgs[i].cells[j];
            double s, e;
            /* The line says "with a 1-GPU figure": a table against its
             * smallest count says its own base under it. */
            if (rc->gpus < 2 || rmodel_base_cell(&f->cfgs[i])->gpus != 1 ||
                !fw_tables_cell_scaling(f, &f->cfgs[i], rc, &s, &e) || isnan(s))
                continue;
            if (!bcell || rc->gpus > bcell->gpus || (rc->gpus == bcell->gpus && e > be))
                bc = &f->cfgs[i], bcell = rc, bs = s, be = e;
        }
    if (!bcell)
        return;
    pr_buf b = PR_BUF_INIT;
    compare_config_name(l, bc, 1, &b, err);
    json_t *v = json_pack("{s:s,s:i,s:i,s:b}", "config", pr_buf_cstr(&b), "gpus", bcell->gpus,
                          "nodes", bcell->nodes, "multi", bcell->nodes > 1);
    json_object_set_new(v, "cpu", json_boolean(cpu_only(f)));
    pr_buf_clear(&b);
    md_number(&b, bs, PR_DECIMALS_SPEEDUP);
    json_object_set_new(v, "speedup", json_string(pr_buf_cstr(&b)));
    pr_buf_clear(&b);
    md_number(&b, be, PR_DECIMALS_PERCENT);
    json_object_set_new(v, "eff", json_string(pr_buf_cstr(&b)));
    pr_buf_clear(&b);
    lang_fmt(l, "fws_scaling", v, &b, err);
    json_decref(v);
    json_array_append_new(lines, json_pack("{s:s}", "text", pr_buf_cstr(&b)));
    pr_buf_free(&b);
}

/* The audit's verdicts on f's published figures, counted by mark; and how
 * many are reproduced only under another rule than their run set's. */
static void audit_line(const rmodel_world *w, const lang *l, const rmodel_fw *f, json_t *lines,
                       pr_err *err)
{
    const audit_model *a = w->audit;
    int n[AU_NVERDICTS] = {0}, other_rule = 0, total = 0;
    for (size_t i = 0; a && i < a->nitems; i++) {
        const audit_item *it = &a->items[i];
        if (strcmp(it->table->model, f->model) != 0 ||
            strcmp(it->table->framework, f->framework) != 0)
            continue;
        n[it->verdict]++;
        total++;
        other_rule += it->verdict == AU_REPRODUCED && it->under != NULL;
    }
    if (!total)
        return;
    json_t *v = json_pack("{s:i,s:i,s:i,s:i,s:i}", "reproduced", n[AU_REPRODUCED], "truncated",
                          n[AU_TRUNCATED], "differs", n[AU_DIFFERS] + n[AU_NO_VALUE], "no_log",
                          n[AU_NO_LOG] + n[AU_PARTIAL_LOGS], "other_rule", other_rule);
    pr_buf b = PR_BUF_INIT;
    lang_fmt(l, "fws_audit", v, &b, err);
    json_decref(v);
    json_array_append_new(lines, json_pack("{s:s}", "text", pr_buf_cstr(&b)));
    pr_buf_free(&b);
}

/* The caveats: figures flagged ❗, and of them those of unsteady runs. */
static void caveat_line(const lang *l, const rmodel_fw *f, json_t *lines, pr_err *err)
{
    int flagged = 0, unsteady = 0;
    for (size_t i = 0; i < f->ncfgs; i++)
        for (size_t j = 0; j < f->cfgs[i].ncells; j++) {
            const rmodel_cell *rc = &f->cfgs[i].cells[j];
            flagged += rc->flagged != 0;
            unsteady += rc->origin == RM_MEASURED && sanity_unsteady_count(rc->recs, rc->nrecs) > 0;
        }
    if (!flagged && !unsteady)
        return;
    json_t *v = json_pack("{s:i,s:b,s:i}", "flagged", flagged, "flagged_one", flagged == 1,
                          "unsteady", unsteady);
    pr_buf b = PR_BUF_INIT;
    lang_fmt(l, "fws_caveats", v, &b, err);
    json_decref(v);
    json_array_append_new(lines, json_pack("{s:s}", "text", pr_buf_cstr(&b)));
    pr_buf_free(&b);
}

void fw_summary(const rmodel_world *w, const lang *l, const rmodel_fw *f, json_t *view, pr_err *err)
{
    json_t *lines = json_array();
    headline_table(w, l, f, view, err);
    scaling_line(l, f, lines, err);
    audit_line(w, l, f, lines, err);
    caveat_line(l, f, lines, err);
    json_object_set_new(
        view, "has_short",
        json_boolean(json_array_size(lines) > 0 || json_object_get(view, "short_table")));
    json_object_set_new(view, "short_lines", lines);
}
