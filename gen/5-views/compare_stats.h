/* compare_stats: the statistics of a compared cell (abmodel.h) as one
 * table, compare_stats[], walked by the three writers: the page's table
 * (templates/<lang>/compare.mustache: its heads and cells come from here),
 * the JSON cells and the CSV columns (page_compare.c).  A statistic is one
 * row: adding one is adding a row (gen/README.md, "How to add a compare
 * statistic").
 *
 * Memory: the table is static; buffers are the caller's; the JSON values
 * are new references.
 */
#ifndef PR_COMPARE_STATS_H
#define PR_COMPARE_STATS_H

#include <jansson.h>
#include <stddef.h>

#include "2-model/abmodel.h"
#include "2-model/rmodel.h"
#include "buf.h"
#include "err.h"
#include "template/lang.h"

/* What a page cell may need besides the cell. */
typedef struct compare_stats_env {
    const rmodel_world *w;
    const lang *l;
    const abmodel_cmp *c;
    const char *page_rel; /* the page's folder: links are relative to it */
    pr_err *err;
} compare_stats_env;

/* One statistic.  Each writer skips a row without its part. */
typedef struct compare_stats_stat {
    /* The page: its heading (the strings.json id head_id, or head() for
     * one that depends on the comparison), right-aligned when numeric,
     * and its cell as Markdown; page NULL: not on the page. */
    const char *head_id;
    void (*head)(const compare_stats_env *e, pr_buf *out);
    int numeric;
    void (*page)(const compare_stats_env *e, const abmodel_cell *x, pr_buf *out);
    /* The JSON cell's key and value (a new reference); json NULL: none. */
    const char *json_key;
    json_t *(*json)(const abmodel_cmp *c, const abmodel_cell *x);
    /* The CSV's header fields ("a_runs,a_median") and the fields, each
     * written after a ','; csv NULL: none.  csv_late: a column added after
     * the CSV's first columns keeps its place at the end, in its order (1,
     * 2, ...); 0 for the columns in table order. */
    const char *csv_head;
    void (*csv)(const abmodel_cell *x, pr_buf *out);
    int csv_late;
} compare_stats_stat;

extern const compare_stats_stat compare_stats[];
extern const size_t compare_stats_count;

/* The writers, each over the table t of n rows (compare_stats and
 * compare_stats_count; a test walks a longer one). */

/* The page's heads: [{"head": Markdown, "align": "---:" or "---"}], a new
 * array. */
json_t *compare_stats_heads(const compare_stats_stat *t, size_t n, const compare_stats_env *e);
/* A cell's page cells: [{"text": Markdown}], a new array. */
json_t *compare_stats_cells(const compare_stats_stat *t, size_t n, const compare_stats_env *e,
                            const abmodel_cell *x);
/* A cell's statistics set on the JSON object o, in table order. */
void compare_stats_json(const compare_stats_stat *t, size_t n, const abmodel_cmp *c,
                        const abmodel_cell *x, json_t *o);
/* The CSV header fields after the cell's key, each after a ',', appended
 * to out; compare_stats_csv: a cell's fields, the same way. */
void compare_stats_csv_head(const compare_stats_stat *t, size_t n, pr_buf *out);
void compare_stats_csv(const compare_stats_stat *t, size_t n, const abmodel_cell *x, pr_buf *out);

/* A ratio as the page prints it (PC_RATIO_DECIMALS), "—" when none. */
void compare_stats_put_ratio(pr_buf *out, double v);
/* A verdict in l's words. */
const char *compare_stats_verdict_word(const lang *l, pr_abstat_verdict v);

#endif
