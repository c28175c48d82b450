/* mlperf_view: the MLPerf scores of a framework page (see the header). */
#include "mlperf_view.h"

#include <stdlib.h>
#include <string.h>

#include "base/md.h"
#include "buf.h"

/* One system's score: from the first record of its run folder. */
typedef struct score_row {
    const pr_record *rec;
    const pr_platform *plat;
    const pr_run *run;
    double score;
} score_row;

/* Lowest first (time to train); the run folder's name breaks ties. */
static int by_score(const void *a, const void *b)
{
    const score_row *x = a, *y = b;
    if (x->score != y->score)
        return x->score < y->score ? -1 : 1;
    return strcmp(x->run->name, y->run->name);
}

static double num(json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

void mlperf_view_set(const lang *l, const rmodel_fw *f, json_t *view, pr_err *err)
{
    score_row *rows = pr_xcalloc(f->nrecs + 1, sizeof *rows);
    size_t n = 0;
    for (size_t i = 0; i < f->nrecs; i++) {
        json_t *s = json_object_get(f->recs[i]->metrics, "mlperf_score");
        int seen = 0;
        for (size_t k = 0; k < n && !seen; k++)
            seen = rows[k].run == f->runs[i];
        if (!json_is_object(s) || seen)
            continue;
        rows[n++] = (score_row){f->recs[i], f->rec_plats[i], f->runs[i], num(s, "score_min")};
    }
    if (n == 0)
        goto out;
    qsort(rows, n, sizeof *rows, by_score);
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, lang_str(l, "mlperf_head"));
    pr_buf_puts(&b, "\n\n|");
    /* The column names, "|"-separated in one string. */
    const char *cols = lang_str(l, "mlperf_cols");
    size_t ncols = 0;
    for (const char *c = cols; *c; ncols++) {
        size_t len = strcspn(c, "|");
        pr_buf_putc(&b, ' ');
        pr_buf_put(&b, c, len);
        pr_buf_puts(&b, " |");
        c += len + (c[len] == '|');
    }
    pr_buf_puts(&b, "\n|");
    for (size_t c = 0; c < ncols; c++)
        pr_buf_puts(&b, c ? " ---: |" : " --- |");
    pr_buf_putc(&b, '\n');
    for (size_t k = 0; k < n; k++) {
        const pr_record *r = rows[k].rec;
        json_t *s = json_object_get(r->metrics, "mlperf_score");
        json_t *batch = json_object_get(r->metrics, "global_batch_size");
        const char *title =
            rows[k].plat ? (strcmp(l->code, "zh") ? rows[k].plat->title_en : rows[k].plat->title_zh)
                         : rows[k].run->name;
        pr_buf_puts(&b, "| ");
        md_cell(&b, title);
        pr_buf_puts(&b, " | ");
        platform_count_label(l, rows[k].plat, r->nodes, r->nodes * r->gpus_per_node, &b, err);
        pr_buf_puts(&b, " | ");
        if (json_is_integer(batch))
            pr_buf_printf(&b, "%lld", (long long)json_integer_value(batch));
        else
            pr_buf_puts(&b, "—");
        pr_buf_puts(&b, " | ");
        md_number(&b, num(s, "score_min"), 3);
        pr_buf_puts(&b, " | ");
        md_number(&b, num(s, "unscaled_min"), 3);
        pr_buf_printf(&b, " | %.17g | ", num(s, "scaling_factor"));
        json_t *v = json_pack("{s:I, s:I, s:I}", "used",
                              json_integer_value(json_object_get(s, "runs_averaged")), "runs",
                              json_integer_value(json_object_get(s, "runs")), "failed",
                              json_integer_value(json_object_get(s, "not_converged")));
        lang_fmt(l, "mlperf_runs", v, &b, err);
        json_decref(v);
        pr_buf_puts(&b, " |\n");
    }
    json_object_set_new(view, "mlperf_scores", json_string(pr_buf_cstr(&b)));
    pr_buf_free(&b);
out:
    free(rows);
}
