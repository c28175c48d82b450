/* chartspec_int: what the files of chartspec share (chartspec.c the queue
 * and the common pieces, chartspec_fw.c the framework page's charts,
 * chartspec_model.c the model page's, chartspec_flags.c which figures are
 * flagged and which run set each belongs to).  Private to them. */
#ifndef PR_CHARTSPEC_INT_H
#define PR_CHARTSPEC_INT_H

#include <jansson.h>

#include "chartspec.h"

/* ---------------------------------------------------------------- queue */

/* Appends s as a file name part made of [a-z0-9.-] only. */
void chartspec_file_slug(pr_buf *out, const char *s);
/* The base name of a chart's files: KIND[-CONFIG][.LANG]; the caller frees
 * it. */
char *chartspec_chart_base(const lang *l, const char *kind, const rmodel_cfg *c);
/* Queues chart (ownership passes to the queue) to be drawn as DIR/BASE.svg
 * and DIR/BASE.png, and appends the Markdown that shows the SVG (with the
 * chart's alt text) and links the PNG. */
void chartspec_queue_chart(chartspec_queue *oc, const lang *l, pr_chart *chart, const char *dir_rel,
                           const char *base, pr_buf *md);

/* -------------------------------------------------------- common pieces */

/* A chart against GPU count, its title and axes from l's strings with view
 * tv (borrowed), and the flag's legend text; the caller frees it
 * (chart_free) unless queued. */
pr_chart *chartspec_new_chart(const lang *l, pr_chart_kind kind, const char *title_key, json_t *tv,
                              const char *y_key, pr_err *err);
/* The values chart titles read; a new reference the caller owns. */
json_t *chartspec_chart_view(const rmodel_fw *f, const rmodel_model *m, const char *config);
/* The figure v as the page's tables print it; the caller frees it. */
char *chartspec_fig_text(double v, const pr_pub_row *pub);
/* Log-log axes with the alt text's numbers at decimals. */
void chartspec_loglog(pr_chart *chart, int decimals);

/* ------------------------------------------------------- flags, run sets */

/* Which figures of a configuration are flagged, by cell index (c->cells):
 * meas[i] its runs' median, pub[i] its primary published row (c->pub), as
 * the flag pass decided them once for every view (flags.h: rmodel_cell.flagged,
 * flags_pub_row_flagged). */
typedef struct chartspec_flags {
    unsigned char *meas, *pub; /* owned; c->ncells each */
} chartspec_flags;

/* Fills fl for c, a configuration of f, from the flag pass (flags.h).
 * The caller frees it with chartspec_flags_free. */
void chartspec_flags_of(const rmodel_fw *f, const rmodel_cfg *c, chartspec_flags *fl);
void chartspec_flags_free(chartspec_flags *fl);

/* The run of f whose log is published row r of t (the source's own logs),
 * NULL when none is in the data. */
const pr_run *chartspec_pub_row_run(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *r);

/* The run set of published row r of t: the run of its source's own log
 * when the data has it, else the table (a pr_run or a pr_pub_table). */
const void *chartspec_pub_row_set(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *r);

/* Run sets of one chart, numbered in the order first met: the chart's
 * run_set of a point.  A run folder is a run set; a published table with
 * no log of its own in the data is one. */
typedef struct chartspec_sets {
    const void **key; /* owned; the keys borrowed */
    int n, cap;
} chartspec_sets;
/* The id of key (a pr_run or a pr_pub_table), added when new.  s starts
 * zeroed; the caller frees it with chartspec_sets_free. */
int chartspec_set_id(chartspec_sets *s, const void *key);
void chartspec_sets_free(chartspec_sets *s);

#endif
