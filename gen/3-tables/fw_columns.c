/* fw_columns: a framework's figure columns, one row each (fw_columns.h):
 * the cells of a configuration's reproduction table, and the export's
 * column list. */
#include "fw_columns.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/runset.h"
#include "2-model/flags.h"
#include "base/md.h"
#include "compare.h"
#include "fw_tables.h"
#include "mdtable.h"
#include "provenance.h"

/* The speedup and scaling-efficiency cells of a figure against the 1-GPU
 * one (base NAN: no baseline, and the cell says so); returns the speedup,
 * NAN without a baseline. */
static double scaling_cells(const lang *l, pr_unitdir_dir dir, double value, double base,
                            int base_gpus, int gpus, pr_buf *sp, pr_buf *eff, view_notes *nt)
{
    if (isnan(base)) {
        pr_buf_printf(sp, "%s¹", lang_str(l, "no_baseline"));
        pr_buf_puts(eff, lang_str(l, "state_none"));
        nt->no_baseline = 1;
        return NAN;
    }
    double e;
    double s = fw_tables_pub_speedup(dir, value, base, base_gpus, gpus, &e);
    md_number(sp, s, PR_DECIMALS_SPEEDUP);
    md_number(eff, e, PR_DECIMALS_PERCENT);
    pr_buf_puts(eff, "%");
    return s;
}

/* The speedup cell of a time whose global batch differs from the
 * baseline's: both times, the baseline's then this one's, and the note
 * that says why there is no speedup (efficiency: none). */
static void batch_differs_cells(const lang *l, double value, double base, pr_buf *sp, pr_buf *eff,
                                view_notes *nt)
{
    mdtable_value(sp, base);
    pr_buf_puts(sp, " → ");
    mdtable_value(sp, value);
    pr_buf_puts(sp, "²");
    pr_buf_puts(eff, lang_str(l, "state_none"));
    nt->batch_differs = 1;
}

/* The median's order-statistic interval with its coverage ("98.00 –
 * 102.00 (75.0%)"); "—" for one run, which has none. */
static void interval_cell(const rmodel_cell *rc, pr_buf *out)
{
    if (rc->ci_coverage <= 0) {
        pr_buf_puts(out, "—");
        return;
    }
    mdtable_value(out, rc->ci_lo);
    pr_buf_puts(out, " – ");
    mdtable_value(out, rc->ci_hi);
    pr_buf_puts(out, " (");
    md_number(out, 100.0 * rc->ci_coverage, PR_DECIMALS_PERCENT);
    pr_buf_puts(out, "%)");
}

/* The verdict (fw_tables_gap) on a gap between runs rc and published row pr in
 * the gap cell: below PR_STATS_MIN_RUNS_GAP runs not judged (counted in
 * *insufficient, said once under the table); the flag when it differs. */
static void gap_verdict(const lang *l, const rmodel_fw *f, const rmodel_cell *rc,
                        const pr_pub_row *pr, pr_buf *gap, view_notes *nt, int *insufficient)
{
    double pct;
    fw_tables_gap_verdict v = fw_tables_gap(f, rc, pr, &pct);
    if (v == FWT_GAP_INSUFFICIENT) {
        nt->insufficient = 1;
        (*insufficient)++;
        return;
    }
    nt->stats = 1;
    if (v == FWT_GAP_FLAGGED) {
        pr_buf_printf(gap, " %s", lang_str(l, "gap_flag"));
        nt->gap = 1;
    }
}

/* Where a cell's runs come from, as Markdown: measured here, or the
 * repository its imported logs were published in. */
static void runs_source(const lang *l, const rmodel_cell *rc, pr_buf *out, pr_err *err)
{
    const json_t *src = rc->link_rec ? rc->link_rec->source : NULL;
    const char *repo = json_string_value(json_object_get(src, "repo"));
    if (!rc->imported || !repo) {
        pr_buf_puts(out,
                    lang_str(l, rc->imported ? "imported_source_unknown" : "src_measured_here"));
        return;
    }
    pr_buf code = PR_BUF_INIT;
    md_code_span(&code, repo);
    json_t *v = json_pack("{s:s}", "repo", pr_buf_cstr(&code));
    lang_fmt(l, "src_imported_from", v, out, err);
    json_decref(v);
    pr_buf_free(&code);
}

/* When rc's figure and its 1-GPU baseline base are not of one run set read
 * with one rule (another source, another run set of the source: another
 * cluster or date, or another parse rule), fills the speedup and
 * efficiency cells with the state and a footnote saying why there is no
 * speedup and what differs; returns 1.  0: one run set, one rule. */
static int no_scaling_across(const lang *l, const rmodel_cfg *c, const rmodel_cell *rc,
                             const rmodel_cell *base, pr_buf *sp, pr_buf *eff, sanity_notes *sn,
                             pr_err *err)
{
    if (fw_tables_same_runset(rc, base))
        return 0;
    const pr_run *a = rc->link_run, *b = base->link_run;
    int two_sets = a != b, other_rule = fw_tables_rules_differ(rc, base);
    pr_buf_puts(sp, lang_str(l, two_sets ? "state_other_runset" : "state_other_rule"));
    pr_buf_puts(eff, lang_str(l, "state_none"));
    pr_buf sa = PR_BUF_INIT, sb = PR_BUF_INIT;
    runs_source(l, rc, &sa, err);
    runs_source(l, base, &sb, err);
    if (strcmp(pr_buf_cstr(&sa), pr_buf_cstr(&sb)) != 0 || !a || !b) {
        /* Two sources: measured here against imported, or two repositories. */
        sanity_other_base_note(l, c->platform, rc->nodes, rc->gpus, pr_buf_cstr(&sa),
                               pr_buf_cstr(&sb), sp, sn, err);
    } else {
        json_t *diffs = runset_diff(a, b);
        if (!two_sets) {
            /* One run set: only the rules differ. */
            pr_buf d = PR_BUF_INIT;
            runset_rule_diff(rc->link_rec->rule, base->link_rec->rule, &d);
            json_array_append_new(
                diffs, json_pack("{s:s,s:s,s:s}", "what", "rule", "a", pr_buf_cstr(&d), "b", ""));
            pr_buf_free(&d);
        }
        const char *ta = runset_title(a, l->code), *tb = runset_title(b, l->code);
        sanity_diff_note(l, c->platform, rc->nodes, rc->gpus, ta, two_sets ? tb : ta, diffs,
                         other_rule, sp, sn, err);
        json_decref(diffs);
    }
    pr_buf_free(&sa);
    pr_buf_free(&sb);
    return 1;
}

/* A published figure as its source printed it ("19.428"), else as tables
 * print figures; †. */
static void pub_figure(const lang *l, const pr_pub_row *pr, pr_buf *out)
{
    if (pr && pr->has_value) {
        mdtable_pub_value(out, pr);
        pr_buf_puts(out, lang_str(l, "published_mark"));
    } else {
        pr_buf_puts(out, pr ? pr->state : lang_str(l, "state_none"));
    }
}

/* ------------------------------------------------------------ heads */

/* The figure's heading: a hardware suite's figure is no training
 * throughput (nccl-tests' busbw is a bus bandwidth, the others a measured
 * value). */
static void value_head(const fw_columns_table *t, size_t pub, pr_buf *out)
{
    (void)pub;
    const char *what = "col_throughput";
    if (t->f->suite && t->f->suite->hardware) {
        const char *col = json_string_value(json_object_get(t->f->suite->rule, "column"));
        what = col && strcmp(col, "busbw") == 0 ? "col_busbw" : "col_measured";
    }
    if (t->f->dir == PR_DIR_LOWER && !(t->f->suite && t->f->suite->hardware))
        what = "col_time";
    pr_buf_printf(out, "%s (%s", lang_str(t->l, what), t->f->unit);
    /* Which way is better, in the header: a time reads lower is better;
     * a unit the table does not know says so (lib/unitdir.c). */
    if (t->f->dir == PR_DIR_LOWER)
        pr_buf_printf(out, ", %s", lang_str(t->l, "dir_lower"));
    else if (t->f->dir == PR_DIR_UNKNOWN)
        pr_buf_printf(out, ", %s", lang_str(t->l, "dir_unknown"));
    pr_buf_putc(out, ')');
}

static void gpus_head(const fw_columns_table *t, size_t pub, pr_buf *out)
{
    (void)pub;
    pr_buf_puts(out, provenance_col_count(t->l, t->c->platform));
}

static void olympic_head(const fw_columns_table *t, size_t pub, pr_buf *out)
{
    (void)pub;
    pr_buf_puts(out, lang_str(t->l, "col_olympic"));
    t->nt->olympic = 1; /* the note says what an Olympic mean is */
}

static void published_head(const fw_columns_table *t, size_t pub, pr_buf *out)
{
    pr_buf_printf(out, "%s (%s)", lang_str(t->l, "col_published"), t->pubs[pub]->label);
}

/* ---------------------------------------------------------- shown when */

static int olympic_shown(const fw_columns_table *t)
{
    return t->f->suite && t->f->suite->olympic;
}

static int scaling_shown(const fw_columns_table *t)
{
    return fw_tables_has_scaling(t->f, t->c);
}
static int tt_shown(const fw_columns_table *t)
{
    return t->c->has_tt;
}
static int acc_shown(const fw_columns_table *t)
{
    return t->c->has_acc;
}

/* ------------------------------------------------------------- cells */

static void nodes_cell(fw_columns_row *r, pr_buf *out)
{
    pr_buf_printf(out, "%d", r->rc->nodes);
}
static void gpus_cell(fw_columns_row *r, pr_buf *out)
{
    pr_buf_printf(out, "%d", r->rc->gpus);
}

/* The median (‡ when of imported logs) with its footnote marks, else the
 * state: OOM or failed, TODO when planned. */
static void value_cell(fw_columns_row *r, pr_buf *out)
{
    fw_columns_table *t = r->t;
    const rmodel_cell *rc = r->rc;
    const char *mark = lang_str(t->l, "imported_mark");
    if (rc->n_ok) {
        mdtable_value(out, rc->median);
        if (rc->imported)
            pr_buf_puts(out, mark);
        pr_buf_puts(out, pr_buf_cstr(&t->marks[r->i]));
        if (sanity_unsteady_count(rc->recs, rc->nrecs)) /* the flag pass's rule (flags.h) */
            sanity_unsteady_note(t->l, t->c->platform, rc->nodes, rc->gpus, rc->recs, rc->nrecs,
                                 out, t->sn, t->err);
        t->nt->stats |= rc->n_ok > 1;
        return;
    }
    const char *state = rc->fail_rec ? mdtable_fail_word(t->l, rc->fail_rec)
                                     : lang_str(t->l, rc->planned ? "state_todo" : "state_none");
    pr_buf_puts(out, state);
    if (rc->fail_rec && rc->imported)
        pr_buf_puts(out, mark);
    if (rc->fail_rec)
        t->nt->failed = 1;
}

static void interval_col(fw_columns_row *r, pr_buf *out)
{
    if (r->rc->n_ok)
        interval_cell(r->rc, out);
    else
        pr_buf_puts(out, lang_str(r->t->l, "state_none"));
}

/* The runs (the records behind them, the failed runs beside them). */
static void runs_cell(fw_columns_row *r, pr_buf *out)
{
    fw_columns_table *t = r->t;
    const rmodel_cell *rc = r->rc;
    if (!rc->n_ok) {
        pr_buf_printf(out, "%u", rc->n_total);
        return;
    }
    pr_buf_printf(out, "%u", rc->n_ok);
    int summary = 0;
    long long nrec = flags_cell_records(rc, &summary);
    if (summary)
        pr_buf_printf(out, " (%s)", lang_str(t->l, "records_summary"));
    else if (nrec >= 0)
        pr_buf_printf(out, " (%lld)", nrec);
    if (flags_few_records(rc, NULL)) /* the flag pass's rule (flags.h) */
        sanity_few_records_note(t->l, t->c->platform, rc->nodes, rc->gpus, nrec, out, t->sn,
                                t->err);
    if (rc->n_total > rc->n_ok) {
        pr_buf_printf(out, " (+%u %s)", rc->n_total - rc->n_ok, lang_str(t->l, "state_failed"));
        t->nt->failed = 1;
    }
}

static void olympic_cell(fw_columns_row *r, pr_buf *out)
{
    mdtable_optional(out, r->t->l, r->rc->olympic, PR_DECIMALS_VALUE);
}

/* The speedup and efficiency of the row, made once for both cells:
 * within one run set only (the note says why not). */
static void row_scaling(fw_columns_row *r)
{
    if (r->scaled)
        return;
    r->scaled = 1;
    fw_columns_table *t = r->t;
    const rmodel_cell *rc = r->rc, *base = t->base;
    if (!rc->n_ok) {
        pr_buf_puts(&r->sp, lang_str(t->l, "state_none"));
        pr_buf_puts(&r->eff, lang_str(t->l, "state_none"));
    } else if (base->n_ok &&
               no_scaling_across(t->l, t->c, rc, base, &r->sp, &r->eff, t->sn, t->err)) {
        /* Speedups within one run set only (the note says why not). */
    } else if (base->n_ok && rc != base &&
               fw_tables_batch_blocks(t->f, fw_tables_global_batch(t->c, rc),
                                      fw_tables_global_batch(t->c, base))) {
        batch_differs_cells(t->l, rc->median, base->median, &r->sp, &r->eff, t->nt);
    } else {
        scaling_cells(t->l, t->f->dir, rc->median, base->n_ok ? base->median : NAN, base->gpus,
                      rc->gpus, &r->sp, &r->eff, t->nt);
    }
}

static void speedup_cell(fw_columns_row *r, pr_buf *out)
{
    row_scaling(r);
    pr_buf_puts(out, pr_buf_cstr(&r->sp));
}

static void efficiency_cell(fw_columns_row *r, pr_buf *out)
{
    row_scaling(r);
    pr_buf_puts(out, pr_buf_cstr(&r->eff));
}

static void tt_cell(fw_columns_row *r, pr_buf *out)
{
    mdtable_optional(out, r->t->l, r->rc->tt, PR_DECIMALS_VALUE);
}

static void acc_cell(fw_columns_row *r, pr_buf *out)
{
    mdtable_optional(out, r->t->l, r->rc->acc, PR_DECIMALS_VALUE);
}

/* A published table's figure, linked to the audit's verdict on it. */
static void published_cell(fw_columns_row *r, pr_buf *out)
{
    fw_columns_table *t = r->t;
    const pr_pub_row *pr = rmodel_pub_row(t->pubs[r->pub], r->rc->nodes, r->rc->gpus);
    pub_figure(t->l, pr, out);
    if (pr && pr->has_value)
        compare_audit_verdict_link(t->l, audit_item_of_row(t->w->audit, pr), t->page_rel, out);
}

/* The median's gap to a published table's figure, and its verdict. */
static void gap_cell(fw_columns_row *r, pr_buf *out)
{
    fw_columns_table *t = r->t;
    const rmodel_cell *rc = r->rc;
    const pr_pub_row *pr = rmodel_pub_row(t->pubs[r->pub], rc->nodes, rc->gpus);
    if (!(pr && pr->has_value && rc->n_ok)) {
        pr_buf_puts(out, lang_str(t->l, "state_none"));
        return;
    }
    double g = (rc->median - pr->value) / pr->value;
    if (g >= 0)
        pr_buf_putc(out, '+');
    md_number(out, 100.0 * g, PR_DECIMALS_PERCENT);
    pr_buf_puts(out, "%");
    gap_verdict(t->l, t->f, rc, pr, out, t->nt, &t->insufficient);
}

/* The log behind the median, else behind the failure. */
static void log_cell(fw_columns_row *r, pr_buf *out)
{
    fw_columns_table *t = r->t;
    const rmodel_cell *rc = r->rc;
    const pr_record *lr = rc->n_ok ? rc->link_rec : rc->fail_rec;
    const pr_run *lrun = rc->n_ok ? rc->link_run : rc->fail_run;
    if (lr)
        mdtable_log_link(t->w, t->page_rel, lrun, lr, lang_str(t->l, "col_log"), out);
    else
        pr_buf_puts(out, lang_str(t->l, "state_none"));
}

/* ------------------------------------------------------------ the table */

/* In the export's column order (docs/report-format.md, "Figures as
 * data"); the reproduction table's columns are the rows with a cell, in
 * the same order. */
const fw_columns_column fw_columns[] = {
    /* what was run */
    {.key = "model", .exported = 1},
    {.key = "framework", .exported = 1},
    {.key = "platform", .exported = 1},
    {.key = "run_set", .exported = 1},
    {.key = "date", .exported = 1},
    {.key = "precision", .exported = 1},
    {.key = "batch_size", .exported = 1},
    {.key = "nodes", .exported = 1, .head_id = "col_nodes", .cell = nodes_cell},
    {.key = "gpus", .exported = 1, .head = gpus_head, .cell = gpus_cell},
    /* what was found */
    {.key = "state", .exported = 1},
    {.key = "reason", .exported = 1},
    {.key = "value", .exported = 1, .head = value_head, .cell = value_cell},
    {.key = "direction", .exported = 1},
    {.key = "unit", .exported = 1},
    {.key = "printed", .exported = 1},
    {.key = "interval", .head_id = "col_interval", .cell = interval_col},
    {.key = "ci_lo", .exported = 1},
    {.key = "ci_hi", .exported = 1},
    {.key = "ci_coverage", .exported = 1},
    {.key = "runs", .exported = 1, .head_id = "col_runs_records", .cell = runs_cell},
    {.key = "records", .exported = 1},
    {.key = "olympic", .head = olympic_head, .shown = olympic_shown, .cell = olympic_cell},
    {.key = "speedup",
     .exported = 1,
     .head_id = "col_speedup",
     .shown = scaling_shown,
     .cell = speedup_cell},
    {.key = "efficiency",
     .exported = 1,
     .head_id = "col_efficiency",
     .shown = scaling_shown,
     .cell = efficiency_cell},
    {.key = "tt", .head_id = "col_tt", .shown = tt_shown, .cell = tt_cell},
    {.key = "acc", .head_id = "col_acc", .shown = acc_shown, .cell = acc_cell},
    {.key = "published",
     .exported = 1,
     .head = published_head,
     .cell = published_cell,
     .per_pub = 1},
    {.key = "published_source", .exported = 1},
    {.key = "gap", .exported = 1, .head_id = "col_gap", .cell = gap_cell, .per_pub = 1},
    {.key = "verdict", .exported = 1},
    {.key = "audit_verdict", .exported = 1},
    {.key = "flags", .exported = 1},
    /* where it came from */
    {.key = "source", .exported = 1},
    {.key = "source_repo", .exported = 1},
    {.key = "source_commit", .exported = 1},
    {.key = "source_line", .exported = 1},
    {.key = "source_url", .exported = 1},
    {.key = "log", .exported = 1, .head_id = "col_log", .cell = log_cell},
    {.key = "rule", .exported = 1},
};
const size_t fw_columns_count = sizeof fw_columns / sizeof fw_columns[0];

/* ----------------------------------------------------------- the walk */

static int in_table(const fw_columns_column *col, const fw_columns_table *x)
{
    return col->cell && (!col->shown || col->shown(x));
}

/* Each column x shows, in order, to fn with its published table: the
 * columns repeated per published table (per_pub, next to each other
 * among those shown) once per table, as a group. */
static void walk(const fw_columns_column *t, size_t n, const fw_columns_table *x,
                 void (*fn)(const fw_columns_column *, size_t, void *), void *ctx)
{
    for (size_t i = 0; i < n; i++) {
        if (!in_table(&t[i], x))
            continue;
        if (!t[i].per_pub) {
            fn(&t[i], 0, ctx);
            continue;
        }
        size_t end = i;
        for (size_t j = i; j < n && (!in_table(&t[j], x) || t[j].per_pub); j++)
            end = j + 1;
        for (size_t p = 0; p < x->npubs; p++)
            for (size_t j = i; j < end; j++)
                if (in_table(&t[j], x))
                    fn(&t[j], p, ctx);
        i = end - 1;
    }
}

typedef struct head_ctx {
    const fw_columns_table *x;
    pr_buf *texts;
    size_t n;
} head_ctx;

static void head_of(const fw_columns_column *col, size_t pub, void *ctx)
{
    head_ctx *h = ctx;
    pr_buf *b = &h->texts[h->n++];
    if (col->head)
        col->head(h->x, pub, b);
    else
        pr_buf_puts(b, lang_str(h->x->l, col->head_id));
}

/* The number of cells of a row of x: at most every column and each
 * per_pub one per published table. */
static size_t max_cells(size_t n, const fw_columns_table *x)
{
    return n * (x->npubs + 1) + 1;
}

void fw_columns_head(const fw_columns_column *t, size_t n, fw_columns_table *x, pr_buf *out)
{
    size_t cap = max_cells(n, x);
    head_ctx h = {x, pr_xcalloc(cap, sizeof(pr_buf)), 0};
    walk(t, n, x, head_of, &h);
    const char **heads = pr_xcalloc(h.n + 1, sizeof *heads);
    for (size_t i = 0; i < h.n; i++)
        heads[i] = pr_buf_cstr(&h.texts[i]);
    mdtable_head(out, heads, h.n, 2);
    free(heads);
    mdtable_cells_free(h.texts, cap);
    free(h.texts);
}

typedef struct cell_ctx {
    fw_columns_row *r;
    pr_buf *cells;
    size_t n;
} cell_ctx;

static void cell_of(const fw_columns_column *col, size_t pub, void *ctx)
{
    cell_ctx *cc = ctx;
    cc->r->pub = pub;
    col->cell(cc->r, &cc->cells[cc->n++]);
}

void fw_columns_row_md(const fw_columns_column *t, size_t n, fw_columns_table *x, size_t i,
                       pr_buf *out)
{
    size_t cap = max_cells(n, x);
    fw_columns_row r = {x, &x->c->cells[i], i, 0, 0, PR_BUF_INIT, PR_BUF_INIT};
    cell_ctx cc = {&r, pr_xcalloc(cap, sizeof(pr_buf)), 0};
    walk(t, n, x, cell_of, &cc);
    mdtable_row(out, cc.cells, cc.n);
    mdtable_cells_free(cc.cells, cap);
    free(cc.cells);
    pr_buf_free(&r.sp);
    pr_buf_free(&r.eff);
}
