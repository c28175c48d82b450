/* chartspec: the charts of the pages, specified from the report model and
 * queued while the pages are built; chartspec_flush draws them on a few threads
 * (chart.c renders) and writes them in the order they were queued.
 *
 *   framework page: throughput scaling per configuration, scaling
 *                   efficiency of every configuration of a platform, the
 *                   per-point chart of hardware suites
 *   model page:     per configuration, frameworks side by side (bars) and
 *                   their scaling lines where a line joins two points
 *
 * A figure a table flags (❗) is drawn flagged in every chart of it; a
 * line joins the points of one run set only (chartspec_int.h).
 *
 * A chart's files are DIR/KIND[-CONFIG][.LANG].svg and .png beside its page
 * (names made of [a-z0-9.-] only); the page shows the SVG with its alt text
 * and links the PNG.  A chart with too few points to say more than its
 * table is left out.
 *
 * Memory: a chartspec_queue is the caller's, zero but for emit, ctx, charts and
 * out_dir; chartspec_free frees the charts it holds.
 */
#ifndef PR_CHARTSPEC_H
#define PR_CHARTSPEC_H

#include <stddef.h>

#include "2-model/rmodel.h"
#include "2-model/sweep.h"
#include "base/emit.h"
#include "buf.h"
#include "chart.h"
#include "err.h"
#include "template/lang.h"

struct cs_job;
struct sweep_ratios;

/* Where the charts go. */
typedef struct chartspec_queue {
    emit_fn emit;
    void *ctx;
    int charts; /* 0: no charts (pages leave them out) */
    struct cs_job *jobs;
    size_t njobs, cap;
    const char *out_dir; /* names a chart in errors */
} chartspec_queue;

/* Draws every queued chart, then emits them in queue order.  Returns 0 or
 * -1 with err set (naming the chart's file). */
int chartspec_flush(chartspec_queue *oc, pr_err *err);
void chartspec_free(chartspec_queue *oc);
/* Moves the charts queued in from to the end of to, in their order, and
 * leaves from empty: pages built on several threads each queue into their
 * own, then theirs are joined in page order (report.c). */
void chartspec_queue_move(chartspec_queue *to, chartspec_queue *from);

/* Each queues its chart (when it has enough to show) and appends the
 * Markdown that shows it to md; dir_rel is the page's folder. */

/* Throughput against GPU count for configuration c of f: measured medians,
 * the primary published figures as hollow markers, and ideal linear
 * scaling from the 1-GPU point. */
int chartspec_fw_scaling(const lang *l, const rmodel_fw *f, const rmodel_cfg *c,
                         const char *dir_rel, chartspec_queue *oc, pr_buf *md, pr_err *err);
/* Scaling efficiency (%) against GPU count on a linear axis with the
 * 100 % level, one chart per platform of f, one line per configuration
 * (efficiency-PLATFORM[.LANG]; it replaces the log-log speedup chart,
 * whose figures the tables keep). */
int chartspec_fw_efficiency(const lang *l, const struct audit_model *audit, const rmodel_fw *f,
                            const char *dir_rel, chartspec_queue *oc, pr_buf *md, pr_err *err);
/* Model page, configuration mc: grouped bars (states as labelled gaps) and
 * scaling lines, one series per framework. */
int chartspec_model(const lang *l, const rmodel_model *m, const rmodel_mcfg *mc,
                    chartspec_queue *oc, pr_buf *md, pr_err *err);
/* The per-point table s of f with the ratios rs (page_hw.h). */
void chartspec_sweep(const lang *l, const rmodel_fw *f, const pr_sweep *s,
                     const struct sweep_ratios *rs, const char *dir_rel, chartspec_queue *oc,
                     pr_buf *md, pr_err *err);

#endif
