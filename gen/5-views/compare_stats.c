/* compare_stats: a compared cell's statistics, one row each
 * (compare_stats.h). */
#include "compare_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "3-tables/mdtable.h"
#include "3-tables/view.h"
#include "base/md.h"
#include "page_compare_gate.h"

void compare_stats_put_ratio(pr_buf *out, double v)
{
    if (isfinite(v))
        md_number(out, v, PC_RATIO_DECIMALS);
    else
        pr_buf_puts(out, "—");
}

const char *compare_stats_verdict_word(const lang *l, pr_abstat_verdict v)
{
    char key[40];
    snprintf(key, sizeof key, "ab_v_%s", pr_abstat_verdict_key(v));
    return lang_str(l, key);
}

/* ------------------------------------------------------ value helpers */

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* ",v" with 12 significant digits (a ratio is exp of a log, whose last
 * bits are noise: 1.0999999999999999), "," alone when v is none. */
static void csv_num(pr_buf *out, double v)
{
    pr_buf_putc(out, ',');
    if (isfinite(v))
        pr_buf_printf(out, "%.12g", v);
}

/* A median cell: the figure linked to the log of the run closest to it
 * (a published side: to its source). */
static void put_half(const rmodel_world *w, const char *page_rel, const abmodel_half *h,
                     pr_buf *out)
{
    pr_buf fig = PR_BUF_INIT;
    /* A published figure as its source printed it: never re-rounded (1200
     * stays 1200, not 1200.00). */
    if (h->n == 1 && h->pub_row && h->pub_row->printed)
        md_text(&fig, h->pub_row->printed);
    else if (h->n == 1 && h->pub_row)
        md_number(&fig, h->pub_row->value, data_pub_decimals(h->pub_row));
    else if (isfinite(h->median))
        md_number(&fig, h->median, PR_DECIMALS_VALUE);
    else
        pr_buf_puts(&fig, "—");
    if (h->rec && h->run)
        mdtable_log_link(w, page_rel, h->run, h->rec, pr_buf_cstr(&fig), out);
    else if (h->pub && h->pub->source_url) {
        pr_buf_printf(out, "[%s](", pr_buf_cstr(&fig));
        md_link_target(out, h->pub->source_url);
        pr_buf_putc(out, ')');
    } else
        pr_buf_puts(out, pr_buf_cstr(&fig));
    pr_buf_free(&fig);
}

static json_t *half_json(const abmodel_half *h)
{
    json_t *o = json_object(), *vals = json_array();
    for (size_t i = 0; i < h->n; i++)
        json_array_append_new(vals, json_real(h->values[i]));
    json_object_set_new(o, "runs", json_integer((json_int_t)h->n));
    json_object_set_new(o, "median", num_or_null(h->median));
    json_object_set_new(o, "values", vals);
    if (h->rec && h->run) {
        char *path = pr_xasprintf("%s/%s", h->run->dir, h->rec->log_file);
        json_object_set_new(o, "run_set", json_string(h->run->name));
        json_object_set_new(o, "log", json_string(path));
        free(path);
    }
    if (h->pub && h->pub->source_url)
        json_object_set_new(o, "source", json_string(h->pub->source_url));
    return o;
}

/* The heading of a side's figure: its median, or a published side's
 * printed figure (one per cell, not a median). */
static void side_head(const compare_stats_env *e, int b, pr_buf *out)
{
    const abmodel_side *sd = b ? &e->c->b : &e->c->a;
    json_t *t = json_pack("{s:s}", "side", b ? "B" : "A");
    lang_fmt(e->l, sd->sel->kind == CD_SEL_PUBLISHED ? "ab_col_figure" : "ab_col_median", t, out,
             e->err);
    json_decref(t);
}

/* 1 when the cell has a runs-needed figure: inconclusive and judged. */
static int has_needed(const abmodel_cell *x)
{
    return x->r.verdict == PR_AB_INCONCLUSIVE && !x->gate;
}

/* --------------------------------------------------------- the rows */

static void a_head(const compare_stats_env *e, pr_buf *out)
{
    side_head(e, 0, out);
}
static void b_head(const compare_stats_env *e, pr_buf *out)
{
    side_head(e, 1, out);
}
static void a_page(const compare_stats_env *e, const abmodel_cell *x, pr_buf *out)
{
    put_half(e->w, e->page_rel, &x->a, out);
}
static void b_page(const compare_stats_env *e, const abmodel_cell *x, pr_buf *out)
{
    put_half(e->w, e->page_rel, &x->b, out);
}
static json_t *a_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    (void)c;
    return half_json(&x->a);
}
static json_t *b_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    (void)c;
    return half_json(&x->b);
}
static void a_csv(const abmodel_cell *x, pr_buf *out)
{
    pr_buf_printf(out, ",%zu", x->a.n);
    csv_num(out, x->a.median);
}
static void b_csv(const abmodel_cell *x, pr_buf *out)
{
    pr_buf_printf(out, ",%zu", x->b.n);
    csv_num(out, x->b.median);
}

static void m_page(const compare_stats_env *e, const abmodel_cell *x, pr_buf *out)
{
    (void)e;
    pr_buf_printf(out, "%zu", x->r.m);
}
static void n_page(const compare_stats_env *e, const abmodel_cell *x, pr_buf *out)
{
    (void)e;
    pr_buf_printf(out, "%zu", x->r.n);
}

static void ratio_page(const compare_stats_env *e, const abmodel_cell *x, pr_buf *out)
{
    (void)e;
    compare_stats_put_ratio(out, x->r.ratio);
}
static json_t *ratio_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    (void)c;
    return num_or_null(x->r.ratio);
}
static void ratio_csv(const abmodel_cell *x, pr_buf *out)
{
    csv_num(out, x->r.ratio);
}

static void interval_page(const compare_stats_env *e, const abmodel_cell *x, pr_buf *out)
{
    (void)e;
    if (!isfinite(x->r.lo)) {
        pr_buf_puts(out, "—");
        return;
    }
    compare_stats_put_ratio(out, x->r.lo);
    pr_buf_puts(out, " – ");
    compare_stats_put_ratio(out, x->r.hi);
}

/* Which way the cell's unit is better ("higher", "lower"): a time is
 * compared as a speed (abmodel.h). */
static json_t *direction_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    (void)c;
    return json_string(pr_unitdir_word(x->dir));
}

static json_t *lo_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    (void)c;
    return num_or_null(x->r.lo);
}
static void lo_csv(const abmodel_cell *x, pr_buf *out)
{
    csv_num(out, x->r.lo);
}
static json_t *hi_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    (void)c;
    return num_or_null(x->r.hi);
}
static void hi_csv(const abmodel_cell *x, pr_buf *out)
{
    csv_num(out, x->r.hi);
}

static json_t *k_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    (void)c;
    return json_integer((json_int_t)x->r.k);
}
static void k_csv(const abmodel_cell *x, pr_buf *out)
{
    pr_buf_printf(out, ",%zu", x->r.k);
}

static void coverage_page(const compare_stats_env *e, const abmodel_cell *x, pr_buf *out)
{
    (void)e;
    if (!isfinite(x->r.lo)) {
        pr_buf_puts(out, "—");
        return;
    }
    if (!x->r.coverage_exact) /* past PR_AB_EXACT_MAX_PAIRS: the normal approximation */
        pr_buf_puts(out, "≈ ");
    md_number(out, x->r.coverage * 100, PR_DECIMALS_PERCENT);
    pr_buf_puts(out, " %");
}
static json_t *coverage_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    (void)c;
    return x->r.k ? json_real(x->r.coverage) : json_null();
}
static void coverage_csv(const abmodel_cell *x, pr_buf *out)
{
    csv_num(out, x->r.k ? x->r.coverage : NAN);
}

static json_t *exact_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    (void)c;
    return x->r.k ? json_boolean(x->r.coverage_exact) : json_null();
}
static void exact_csv(const abmodel_cell *x, pr_buf *out)
{
    pr_buf_putc(out, ',');
    if (x->r.k) /* 1 exact, 0 the normal approximation, empty without an interval */
        pr_buf_putc(out, x->r.coverage_exact ? '1' : '0');
}

static void verdict_page(const compare_stats_env *e, const abmodel_cell *x, pr_buf *out)
{
    if (x->gate)
        page_compare_gate_words(e->l, e->c, x, out, e->err);
    else
        md_text(out, compare_stats_verdict_word(e->l, x->r.verdict));
}
static const char *verdict_key(const abmodel_cell *x)
{
    return x->gate ? "not_judged" : pr_abstat_verdict_key(x->r.verdict);
}
static json_t *verdict_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    (void)c;
    return json_string(verdict_key(x));
}
static void verdict_csv(const abmodel_cell *x, pr_buf *out)
{
    pr_buf_printf(out, ",%s", verdict_key(x));
}

static json_t *gate_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    return page_compare_gate_json(c, x);
}
static void gate_csv(const abmodel_cell *x, pr_buf *out)
{
    pr_buf_putc(out, ',');
    page_compare_gate_keys(x->gate, out);
}

static void needed_page(const compare_stats_env *e, const abmodel_cell *x, pr_buf *out)
{
    if (!has_needed(x)) {
        pr_buf_puts(out, "—");
        return;
    }
    json_t *v = json_pack("{s:i,s:b}", "n", (int)x->r.runs_needed, "many",
                          x->r.runs_needed >= PR_AB_RUNS_NEEDED_MAX);
    lang_fmt(e->l, "ab_needed", v, out, e->err);
    json_decref(v);
}
static json_t *needed_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    (void)c;
    return has_needed(x) ? json_integer(x->r.runs_needed) : json_null();
}
static void needed_csv(const abmodel_cell *x, pr_buf *out)
{
    pr_buf_putc(out, ',');
    if (has_needed(x))
        pr_buf_printf(out, "%u", x->r.runs_needed);
}

/* In page and JSON order; the CSV's columns are in this order too, but
 * for the late ones (csv_late). */
const compare_stats_stat compare_stats[] = {
    {.head = a_head,
     .numeric = 1,
     .page = a_page,
     .json_key = "a",
     .json = a_json,
     .csv_head = "a_runs,a_median",
     .csv = a_csv},
    {.head_id = "ab_col_a_runs", .numeric = 1, .page = m_page},
    {.head = b_head,
     .numeric = 1,
     .page = b_page,
     .json_key = "b",
     .json = b_json,
     .csv_head = "b_runs,b_median",
     .csv = b_csv},
    {.head_id = "ab_col_b_runs", .numeric = 1, .page = n_page},
    {.json_key = "direction", .json = direction_json},
    {.head_id = "ab_col_ratio",
     .numeric = 1,
     .page = ratio_page,
     .json_key = "ratio",
     .json = ratio_json,
     .csv_head = "ratio",
     .csv = ratio_csv},
    {.head_id = "ab_col_interval", .page = interval_page},
    {.json_key = "lo", .json = lo_json, .csv_head = "lo", .csv = lo_csv},
    {.json_key = "hi", .json = hi_json, .csv_head = "hi", .csv = hi_csv},
    {.json_key = "k", .json = k_json, .csv_head = "k", .csv = k_csv},
    {.head_id = "ab_col_coverage",
     .numeric = 1,
     .page = coverage_page,
     .json_key = "coverage",
     .json = coverage_json,
     .csv_head = "coverage",
     .csv = coverage_csv},
    {.json_key = "coverage_exact",
     .json = exact_json,
     .csv_head = "coverage_exact",
     .csv = exact_csv,
     .csv_late = 1},
    {.head_id = "ab_col_verdict",
     .page = verdict_page,
     .json_key = "verdict",
     .json = verdict_json,
     .csv_head = "verdict",
     .csv = verdict_csv},
    {.json_key = "gate", .json = gate_json, .csv_head = "gate", .csv = gate_csv, .csv_late = 2},
    {.head_id = "ab_col_needed",
     .numeric = 1,
     .page = needed_page,
     .json_key = "runs_needed",
     .json = needed_json,
     .csv_head = "runs_needed",
     .csv = needed_csv},
};
const size_t compare_stats_count = sizeof compare_stats / sizeof compare_stats[0];

/* ------------------------------------------------------- the writers */

json_t *compare_stats_heads(const compare_stats_stat *t, size_t n, const compare_stats_env *e)
{
    json_t *a = json_array();
    pr_buf b = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (!t[i].page)
            continue;
        if (t[i].head)
            t[i].head(e, &b);
        else
            pr_buf_puts(&b, lang_str(e->l, t[i].head_id));
        json_t *h = json_object();
        view_md(h, "head", &b);
        view_str(h, "align", t[i].numeric ? "---:" : "---");
        json_array_append_new(a, h);
    }
    pr_buf_free(&b);
    return a;
}

json_t *compare_stats_cells(const compare_stats_stat *t, size_t n, const compare_stats_env *e,
                            const abmodel_cell *x)
{
    json_t *a = json_array();
    pr_buf b = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (!t[i].page)
            continue;
        t[i].page(e, x, &b);
        json_t *cell = json_object();
        view_md(cell, "text", &b);
        json_array_append_new(a, cell);
    }
    pr_buf_free(&b);
    return a;
}

void compare_stats_json(const compare_stats_stat *t, size_t n, const abmodel_cmp *c,
                        const abmodel_cell *x, json_t *o)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].json)
            json_object_set_new(o, t[i].json_key, t[i].json(c, x));
}

/* The CSV's columns: those in table order (csv_late 0), then the late
 * ones by csv_late; each row i with csv to fn. */
static void csv_walk(const compare_stats_stat *t, size_t n,
                     void (*fn)(const compare_stats_stat *, void *), void *ctx)
{
    int last = 0;
    for (size_t i = 0; i < n; i++)
        if (t[i].csv && t[i].csv_late > last)
            last = t[i].csv_late;
    for (int late = 0; late <= last; late++)
        for (size_t i = 0; i < n; i++)
            if (t[i].csv && t[i].csv_late == late)
                fn(&t[i], ctx);
}

static void csv_head_of(const compare_stats_stat *s, void *out)
{
    pr_buf_printf(out, ",%s", s->csv_head);
}

void compare_stats_csv_head(const compare_stats_stat *t, size_t n, pr_buf *out)
{
    csv_walk(t, n, csv_head_of, out);
}

typedef struct csv_cell_ctx {
    const abmodel_cell *x;
    pr_buf *out;
} csv_cell_ctx;

static void csv_cell_of(const compare_stats_stat *s, void *ctx)
{
    csv_cell_ctx *cc = ctx;
    s->csv(cc->x, cc->out);
}

void compare_stats_csv(const compare_stats_stat *t, size_t n, const abmodel_cell *x, pr_buf *out)
{
    csv_cell_ctx cc = {x, out};
    csv_walk(t, n, csv_cell_of, &cc);
}
