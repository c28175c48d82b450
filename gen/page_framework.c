/* page_framework: OUT/<Model>/<Framework>/README.md.
 *
 * A reproduction report where the framework has runs (measured here or
 * imported from published logs), else a summary of published figures (or a
 * test plan).  The results have one section per platform, each with its own
 * summary table, speedup chart and configurations: figures of different
 * machines never share a table.  Every figure carries its origin (plain:
 * measured here; ‡ imported; † published), the markers explained once; a
 * cell's other sources are listed under its configuration.  The
 * environment section is env_view.c's; the words of provenance and of a
 * platform's kind are provenance.c's.
 */
#include "pages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env_view.h"
#include "md.h"
#include "mdtable.h"
#include "page_hw.h"
#include "provenance.h"
#include "sanity.h"
#include "stats.h"
#include "steps.h"
#include "view.h"

/* ---------------------------------------------------------------- tables */

/* Decimals a published number was printed with (at least 1, at most 4). */
static int printed_decimals(double v)
{
    for (int d = 1; d < 4; d++) {
        double s = pow(10.0, d);
        if (fabs(round(v * s) - v * s) < 1e-6)
            return d;
    }
    return 4;
}

/* The decimals published row r's figure was printed with: its printed
 * text's, else those of the number's shortest form. */
static int value_decimals(const pr_pub_row *r)
{
    int d = r->printed ? pr_stats_printed_decimals(r->printed) : -1;
    return d >= 0 ? d : pr_stats_shortest_decimals(r->value);
}

/* 1 when row r's printed speedup cannot be its figure ÷ the baseline's:
 * no values the printed decimals of the three allow give it
 * (docs/statistics.md#printed-precision). */
static int speedup_disagrees(const pr_pub_row *r, const pr_pub_row *base)
{
    return !pr_stats_ratio_consistent(r->speedup, pr_stats_shortest_decimals(r->speedup),
                                      r->value, value_decimals(r), base->value,
                                      value_decimals(base));
}

static int any_pub_tt(const pr_pub_table *t)
{
    for (size_t i = 0; t && i < t->nrows; i++)
        if (!isnan(t->rows[i].time_to_train_s))
            return 1;
    return 0;
}

static int any_pub_acc(const pr_pub_table *t)
{
    for (size_t i = 0; t && i < t->nrows; i++)
        if (!isnan(t->rows[i].accuracy))
            return 1;
    return 0;
}

/* The speedup and scaling-efficiency cells of a figure against the 1-GPU
 * one (base NAN: no baseline, and the cell says so); returns the speedup,
 * NAN without a baseline. */
static double scaling_cells(const lang *l, double value, double base, int gpus, pr_buf *sp,
                            pr_buf *eff, vw_notes *nt)
{
    if (isnan(base)) {
        pr_buf_printf(sp, "%s¹", lang_str(l, "no_baseline"));
        pr_buf_puts(eff, lang_str(l, "state_none"));
        nt->no_baseline = 1;
        return NAN;
    }
    double s = value / base;
    pr_md_number(sp, s, PR_DECIMALS_SPEEDUP);
    pr_md_number(eff, 100.0 * s / gpus, PR_DECIMALS_PERCENT);
    pr_buf_puts(eff, "%");
    return s;
}
/* The median's order-statistic interval with its coverage ("98.00 –
 * 102.00 (75.0%)"); "—" for one run, which has none. */
static void interval_cell(const rm_cell *rc, pr_buf *out)
{
    if (rc->ci_coverage <= 0) {
        pr_buf_puts(out, "—");
        return;
    }
    mdt_value(out, rc->ci_lo);
    pr_buf_puts(out, " – ");
    mdt_value(out, rc->ci_hi);
    pr_buf_puts(out, " (");
    pr_md_number(out, 100.0 * rc->ci_coverage, PR_DECIMALS_PERCENT);
    pr_buf_puts(out, "%)");
}

/* The verdict on a gap between runs rc and published row pr: below
 * PR_STATS_MIN_RUNS_GAP runs not judged; else flagged only when the figure,
 * anywhere in the interval its printed decimals allow, lies outside the
 * median's interval and farther than tol (a fraction) from the median
 * (docs/statistics.md#gaps). */
static void gap_verdict(const lang *l, const rm_cell *rc, const pr_pub_row *pr, double tol,
                        pr_buf *gap, vw_notes *nt)
{
    if (rc->n_ok < PR_STATS_MIN_RUNS_GAP) {
        pr_buf_printf(gap, " %s", lang_str(l, "gap_insufficient"));
        nt->insufficient = 1;
        return;
    }
    nt->stats = 1;
    double lo, hi;
    pr_stats_printed_interval(pr->value, value_decimals(pr), &lo, &hi);
    /* The point of the figure's interval nearest the median. */
    double near = rc->median < lo ? lo : rc->median > hi ? hi : rc->median;
    int outside = hi < rc->ci_lo || lo > rc->ci_hi;
    if (outside && fabs(rc->median - near) > tol * pr->value) {
        pr_buf_printf(gap, " %s", lang_str(l, "gap_flag"));
        nt->gap = 1;
    }
}

/* Where a cell's runs come from, as Markdown: measured here, or the
 * repository its imported logs were published in. */
static void runs_source(const lang *l, const rm_cell *rc, pr_buf *out, pr_err *err)
{
    const json_t *src = rc->link_rec ? rc->link_rec->source : NULL;
    const char *repo = json_string_value(json_object_get(src, "repo"));
    if (!rc->imported || !repo) {
        pr_buf_puts(out, lang_str(l, rc->imported ? "imported_source_unknown"
                                                  : "src_measured_here"));
        return;
    }
    pr_buf code = PR_BUF_INIT;
    pr_md_code_span(&code, repo);
    json_t *v = json_pack("{s:s}", "repo", pr_buf_cstr(&code));
    lang_fmt(l, "src_imported_from", v, out, err);
    json_decref(v);
    pr_buf_free(&code);
}

/* Flags rc's speedup when its 1-GPU baseline base comes from another
 * source: measured against imported, or logs of two repositories. */
static void other_base(const lang *l, const rm_cfg *c, const rm_cell *rc, const rm_cell *base,
                       pr_buf *sp, sn_notes *sn, pr_err *err)
{
    pr_buf a = PR_BUF_INIT, b = PR_BUF_INIT;
    runs_source(l, rc, &a, err);
    runs_source(l, base, &b, err);
    if (strcmp(pr_buf_cstr(&a), pr_buf_cstr(&b)) != 0)
        sn_other_base_note(l, c->platform, rc->nodes, rc->gpus, pr_buf_cstr(&a),
                           pr_buf_cstr(&b), sp, sn, err);
    pr_buf_free(&a);
    pr_buf_free(&b);
}

/* The published tables a configuration's figures are compared with: the
 * primary, then its cells' other tables, one per source label (the first
 * in precedence), at most REPRO_MAX_PUBS. */
#define REPRO_MAX_PUBS 3
static size_t repro_pubs(const rm_cfg *c, const pr_pub_table **out)
{
    size_t n = 0;
    if (!c->platform || !c->pub)
        return 0;
    out[n++] = c->pub;
    for (size_t i = 0; i < c->ncells; i++)
        for (size_t a = 0; a < c->cells[i].nalts && n < REPRO_MAX_PUBS; a++) {
            const pr_pub_table *t = c->cells[i].alt_tabs[a];
            int seen = 0;
            for (size_t j = 0; j < n && !seen; j++)
                seen = out[j] == t || strcmp(out[j]->label, t->label) == 0;
            if (!seen)
                out[n++] = t;
        }
    /* The report the imported logs came with first: its figures are the
     * ones these logs should give. */
    const char *repo = NULL;
    for (size_t i = 0; i < c->ncells && !repo; i++)
        if (c->cells[i].imported && c->cells[i].link_rec && c->cells[i].link_rec->source)
            repo = json_string_value(json_object_get(c->cells[i].link_rec->source, "repo"));
    for (size_t j = 1; repo && j < n; j++)
        if (out[j]->source_repo && strcmp(out[j]->source_repo, repo) == 0 &&
            !(out[0]->source_repo && strcmp(out[0]->source_repo, repo) == 0)) {
            const pr_pub_table *t = out[0];
            out[0] = out[j];
            out[j] = t;
        }
    return n;
}

/* A published figure as its source printed it ("19.428"), else as tables
 * print figures; †. */
static void pub_figure(const lang *l, const pr_pub_row *pr, pr_buf *out)
{
    if (pr && pr->has_value) {
        mdt_pub_value(out, pr);
        pr_buf_puts(out, lang_str(l, "published_mark"));
    } else {
        pr_buf_puts(out, pr ? pr->state : lang_str(l, "state_none"));
    }
}

/* The reproduction table of one configuration: the runs' figures (‡ when
 * they come from imported logs), compared with each published table of the
 * same machine (the report the logs came with, the vendor's), a figure and
 * a gap column each.  Figures of a machine not stated are compared with
 * nothing.  On a CPU machine speedup and efficiency need two process
 * counts (one has nothing to scale). */
static void repro_table(const rm_world *w, const lang *l, const rm_fw *f, const rm_cfg *c,
                        const char *page_rel, vw_notes *nt, pr_buf *out, pr_err *err)
{
    const pr_pub_table *pubs[REPRO_MAX_PUBS];
    size_t npubs = repro_pubs(c, pubs);
    /* A hardware suite measures the machine: a bandwidth at 8 GPUs is no
     * multiple of the 1-GPU one, so speedup and efficiency mean nothing. */
    int scaling = (!pv_is_cpu(c->platform) || pv_counts(c) > 1) &&
                  !(f->suite && f->suite->hardware);
    int has_tt = c->has_tt, has_acc = c->has_acc;
    const char *mark = lang_str(l, "imported_mark");
    enum { MAX_COLS = 11 + 2 * REPRO_MAX_PUBS };
    const char *heads[MAX_COLS];
    size_t nh = 0;
    pr_buf thr = PR_BUF_INIT, pubh[REPRO_MAX_PUBS];
    /* A hardware suite's figure is no training throughput: nccl-tests'
     * busbw is a bus bandwidth, the others a measured value. */
    const char *what = "col_throughput";
    if (f->suite && f->suite->hardware) {
        const char *col = json_string_value(json_object_get(f->suite->rule, "column"));
        what = col && strcmp(col, "busbw") == 0 ? "col_busbw" : "col_measured";
    }
    pr_buf_printf(&thr, "%s (%s)", lang_str(l, what), f->unit);
    heads[nh++] = lang_str(l, "col_nodes");
    heads[nh++] = pv_col_count(l, c->platform);
    heads[nh++] = pr_buf_cstr(&thr);
    heads[nh++] = lang_str(l, "col_interval");
    heads[nh++] = lang_str(l, "col_runs");
    int olympic = f->suite && f->suite->olympic;
    if (olympic) {
        heads[nh++] = lang_str(l, "col_olympic");
        nt->olympic = 1;
    }
    if (scaling) {
        heads[nh++] = lang_str(l, "col_speedup");
        heads[nh++] = lang_str(l, "col_efficiency");
    }
    if (has_tt)
        heads[nh++] = lang_str(l, "col_tt");
    if (has_acc)
        heads[nh++] = lang_str(l, "col_acc");
    for (size_t p = 0; p < npubs; p++) {
        pr_buf_init(&pubh[p]);
        pr_buf_printf(&pubh[p], "%s (%s)", lang_str(l, "col_published"), pubs[p]->label);
        heads[nh++] = pr_buf_cstr(&pubh[p]);
        heads[nh++] = lang_str(l, "col_gap");
    }
    heads[nh++] = lang_str(l, "col_log");
    mdt_head(out, heads, nh, 2);

    const rm_cell *base = rm_cell_of(c, 1, 1);
    /* What cannot be right in the runs' figures, footnoted under the
     * table (the medians carry every digit: no rounding to allow for). */
    sn_notes sn;
    sn_notes_init(&sn, 1);
    sn_point *pts = pr_xcalloc(c->ncells + 1, sizeof *pts);
    pr_buf *marks = pr_xcalloc(c->ncells + 1, sizeof *marks);
    for (size_t i = 0; i < c->ncells; i++) {
        const rm_cell *rc = &c->cells[i];
        pts[i] = (sn_point){rc->nodes, rc->gpus, rc->n_ok > 0, rc->median,
                            rc->n_ok ? pr_stats_shortest_decimals(rc->median) : 0};
    }
    sn_check_series(l, c->platform, pts, c->ncells, marks, &sn, err);
    pr_buf cells[MAX_COLS];
    for (size_t i = 0; i < MAX_COLS; i++)
        pr_buf_init(&cells[i]);
    for (size_t i = 0; i < c->ncells; i++) {
        const rm_cell *rc = &c->cells[i];
        /* A case with no run reproduced nothing: the summary table says
         * TODO for a planned one, and a row of dashes and "0 runs" says
         * nothing more. */
        if (!rc->nrecs)
            continue;
        mdt_cells_clear(cells, MAX_COLS);
        size_t k = 0;
        pr_buf_printf(&cells[k++], "%d", rc->nodes);
        pr_buf_printf(&cells[k++], "%d", rc->gpus);
        pr_buf *val = &cells[k++], *range = &cells[k++], *runs = &cells[k++];
        pr_buf *oly = olympic ? &cells[k++] : NULL;
        pr_buf *sp = scaling ? &cells[k++] : NULL, *eff = scaling ? &cells[k++] : NULL;
        if (oly)
            mdt_optional(oly, l, rc->olympic, PR_DECIMALS_VALUE);
        if (rc->n_ok) {
            mdt_value(val, rc->median);
            if (rc->imported)
                pr_buf_puts(val, mark);
            pr_buf_puts(val, pr_buf_cstr(&marks[i]));
            interval_cell(rc, range);
            nt->stats |= rc->n_ok > 1;
            pr_buf_printf(runs, "%u", rc->n_ok);
            if (rc->n_total > rc->n_ok) {
                pr_buf_printf(runs, " (+%u %s)", rc->n_total - rc->n_ok,
                              lang_str(l, "state_failed"));
                nt->failed = 1;
            }
            if (scaling) {
                scaling_cells(l, rc->median, base->n_ok ? base->median : NAN, rc->gpus, sp, eff,
                              nt);
                if (base->n_ok && rc != base)
                    other_base(l, c, rc, base, sp, &sn, err);
            }
        } else {
            const char *state = rc->fail_rec ? mdt_fail_word(l, rc->fail_rec)
                                : lang_str(l, rc->planned ? "state_todo" : "state_none");
            pr_buf_puts(val, state);
            if (rc->fail_rec && rc->imported)
                pr_buf_puts(val, mark);
            pr_buf_puts(range, lang_str(l, "state_none"));
            pr_buf_printf(runs, "%u", rc->n_total);
            if (scaling) {
                pr_buf_puts(sp, lang_str(l, "state_none"));
                pr_buf_puts(eff, lang_str(l, "state_none"));
            }
            if (rc->fail_rec)
                nt->failed = 1;
        }
        if (has_tt)
            mdt_optional(&cells[k++], l, rc->tt, PR_DECIMALS_VALUE);
        if (has_acc)
            mdt_optional(&cells[k++], l, rc->acc, PR_DECIMALS_VALUE);
        for (size_t p = 0; p < npubs; p++) {
            const pr_pub_row *pr = rm_pub_row(pubs[p], rc->nodes, rc->gpus);
            pr_buf *pc = &cells[k++], *gap = &cells[k++];
            pub_figure(l, pr, pc);
            if (pr && pr->has_value && rc->n_ok) {
                double g = (rc->median - pr->value) / pr->value;
                if (g >= 0)
                    pr_buf_putc(gap, '+');
                pr_md_number(gap, 100.0 * g, PR_DECIMALS_PERCENT);
                pr_buf_puts(gap, "%");
                gap_verdict(l, rc, pr, f->suite ? f->suite->gap_threshold : 0.05, gap, nt);
            } else {
                pr_buf_puts(gap, lang_str(l, "state_none"));
            }
        }
        pr_buf *lg = &cells[k++];
        const pr_record *lr = rc->n_ok ? rc->link_rec : rc->fail_rec;
        const pr_run *lrun = rc->n_ok ? rc->link_run : rc->fail_run;
        if (lr)
            mdt_log_link(w, page_rel, lrun, lr, lang_str(l, "col_log"), lg);
        else
            pr_buf_puts(lg, lang_str(l, "state_none"));
        mdt_row(out, cells, k);
    }
    mdt_cells_free(cells, MAX_COLS);
    pr_buf_free(&thr);
    for (size_t p = 0; p < npubs; p++)
        pr_buf_free(&pubh[p]);
    if (sn.notes.len) {
        pr_buf_putc(out, '\n');
        pr_buf_puts(out, pr_buf_cstr(&sn.notes));
        nt->sanity = 1;
    }
    for (size_t i = 0; i < c->ncells; i++)
        pr_buf_free(&marks[i]);
    free(marks);
    free(pts);
    sn_notes_free(&sn);
}

static void source_line(const lang *l, const pr_pub_table *t, pr_buf *out, pr_err *err)
{
    json_t *v = json_object();
    pr_buf title = PR_BUF_INIT, where = PR_BUF_INIT;
    pr_md_text(&title, t->source_title ? t->source_title : t->label);
    if (t->source_url) {
        mdt_link_url(&where, pr_buf_cstr(&title), t->source_url);
    } else {
        pr_buf_puts(&where, pr_buf_cstr(&title));
    }
    if (!t->source_repo && t->source_path) {
        pr_buf_puts(&where, " (");
        pr_md_code_span(&where, t->source_path);
        pr_buf_puts(&where, ")");
    }
    if (t->source_repo) {
        pr_buf loc = PR_BUF_INIT;
        pr_buf_printf(&loc, "%s%s%s%s%s", t->source_repo, t->source_commit ? "@" : "",
                      t->source_commit ? t->source_commit : "", t->source_path ? ":" : "",
                      t->source_path ? t->source_path : "");
        if (t->source_line)
            pr_buf_printf(&loc, "#L%d", t->source_line);
        pr_buf_puts(&where, " (");
        pr_md_code_span(&where, pr_buf_cstr(&loc));
        pr_buf_puts(&where, ")");
        pr_buf_free(&loc);
    }
    json_object_set_new(v, "source", json_string(pr_buf_cstr(&where)));
    json_object_set_new(v, "label", json_string(t->label));
    if (t->date)
        json_object_set_new(v, "date", json_string(t->date));
    lang_fmt(l, "pub_source", v, out, err);
    json_decref(v);
    pr_buf_free(&title);
    pr_buf_free(&where);
}

/* A published table as its source printed it, with the speedup its own
 * throughput figures give beside the printed one (on a CPU machine, only
 * when it has two process counts). */
static void pub_table(const lang *l, const rm_fw *f, const pr_pub_table *t, vw_notes *nt,
                      pr_buf *out, pr_err *err)
{
    int has_tt = any_pub_tt(t), has_acc = any_pub_acc(t), has_ps = 0;
    for (size_t i = 0; i < t->nrows; i++)
        has_ps |= t->rows[i].has_speedup;
    /* Rows in GPU order, whatever order the source used. */
    rm_row *rows = NULL;
    size_t nrows = 0;
    for (size_t i = 0; i < t->nrows; i++)
        rm_row_add(&rows, &nrows, t->rows[i].nodes, t->rows[i].gpus);
    pr_qsort(rows, nrows, sizeof *rows, rm_row_qsort);
    int scaling = !pv_is_cpu(t->platform) || (nrows > 1 && rows[0].gpus != rows[nrows - 1].gpus);
    const char *heads[9];
    size_t nh = 0;
    pr_buf thr = PR_BUF_INIT;
    pr_buf_printf(&thr, "%s (%s)", lang_str(l, "col_throughput"), t->unit);
    heads[nh++] = lang_str(l, "col_nodes");
    heads[nh++] = pv_col_count(l, t->platform);
    heads[nh++] = pr_buf_cstr(&thr);
    if (scaling) {
        heads[nh++] = lang_str(l, "col_computed_speedup");
        heads[nh++] = lang_str(l, "col_efficiency");
    }
    if (has_ps)
        heads[nh++] = lang_str(l, "col_pub_speedup");
    if (has_tt)
        heads[nh++] = lang_str(l, "col_tt");
    if (has_acc)
        heads[nh++] = lang_str(l, "col_acc");
    mdt_head(out, heads, nh, 2);
    const pr_pub_row *base = rm_pub_row(t, 1, 1);
    if (base && !base->has_value)
        base = NULL;
    /* What cannot be right, footnoted under the table: marks per row. */
    sn_notes sn;
    sn_notes_init(&sn, 1);
    sn_point *pts = pr_xcalloc(nrows + 1, sizeof *pts);
    pr_buf *marks = pr_xcalloc(nrows + 1, sizeof *marks);
    for (size_t i = 0; i < nrows; i++) {
        const pr_pub_row *r = rm_pub_row(t, rows[i].nodes, rows[i].gpus);
        pts[i] = (sn_point){r->nodes, r->gpus, r->has_value, r->value,
                            r->has_value ? value_decimals(r) : 0};
    }
    sn_check_series(l, t->platform, pts, nrows, marks, &sn, err);
    const pr_pub_table *twin = sn_identical_in(t, f->pubs, f->npubs);
    if (twin)
        sn_identical_note(l, twin, NULL, &sn, err);
    pr_buf cells[9];
    for (size_t i = 0; i < 9; i++)
        pr_buf_init(&cells[i]);
    for (size_t i = 0; i < nrows; i++) {
        const pr_pub_row *r = rm_pub_row(t, rows[i].nodes, rows[i].gpus);
        mdt_cells_clear(cells, 9);
        size_t k = 0;
        pr_buf_printf(&cells[k++], "%d", r->nodes);
        pr_buf_printf(&cells[k++], "%d", r->gpus);
        pr_buf *val = &cells[k++];
        pr_buf *sp = scaling ? &cells[k++] : NULL, *eff = scaling ? &cells[k++] : NULL;
        double computed = NAN;
        if (r->has_value) {
            mdt_pub_value(val, r);
            pr_buf_puts(val, pr_buf_cstr(&marks[i]));
            if (scaling)
                computed = scaling_cells(l, r->value, base ? base->value : NAN, r->gpus, sp,
                                         eff, nt);
        } else {
            pr_buf_puts(val, r->state);
            if (scaling) {
                pr_buf_puts(sp, lang_str(l, "state_none"));
                pr_buf_puts(eff, lang_str(l, "state_none"));
            }
        }
        if (has_ps) {
            pr_buf *ps = &cells[k++];
            if (r->has_speedup) {
                /* Printed as the source printed it. */
                pr_md_number(ps, r->speedup, printed_decimals(r->speedup));
                if (!isnan(computed) && speedup_disagrees(r, base)) {
                    pr_buf_printf(ps, " %s", lang_str(l, "speedup_flag"));
                    nt->speedup_flag = 1;
                }
            } else {
                pr_buf_puts(ps, lang_str(l, "state_none"));
            }
        }
        if (has_tt)
            mdt_optional(&cells[k++], l, r->time_to_train_s, PR_DECIMALS_VALUE);
        if (has_acc)
            mdt_optional(&cells[k++], l, r->accuracy, PR_DECIMALS_VALUE);
        mdt_row(out, cells, k);
    }
    if (sn.notes.len) {
        pr_buf_putc(out, '\n');
        pr_buf_puts(out, pr_buf_cstr(&sn.notes));
        nt->sanity = 1;
    }
    for (size_t i = 0; i < nrows; i++)
        pr_buf_free(&marks[i]);
    free(marks);
    free(pts);
    sn_notes_free(&sn);
    free(rows);
    mdt_cells_free(cells, 9);
    pr_buf_free(&thr);
}

/* The summary table of one platform's configurations f->cfgs[first, end):
 * device counts down, configurations across.  Two machines never share a
 * table: their figures are not compared. */
static void summary_table(const rm_world *w, const lang *l, const rm_fw *f, size_t first,
                          size_t end, const char *page_rel, vw_notes *nt, pr_buf *out,
                          pr_err *err)
{
    const pr_platform *p = f->cfgs[first].platform;
    rm_row *rows = NULL;
    size_t nrows = 0;
    for (size_t i = first; i < end; i++)
        for (size_t r = 0; r < f->cfgs[i].ncells; r++)
            rm_row_add(&rows, &nrows, f->cfgs[i].cells[r].nodes, f->cfgs[i].cells[r].gpus);
    pr_qsort(rows, nrows, sizeof *rows, rm_row_qsort);
    size_t nh = end - first + 1;
    char **names = pr_xcalloc(nh, sizeof *names);
    const char **heads = pr_xcalloc(nh, sizeof *heads);
    heads[0] = pv_col_count(l, p);
    /* Plain names (mdt_head escapes them once: a Markdown name came out
     * "R&amp;amp;D"), without the platform the section's heading names. */
    for (size_t i = first; i < end; i++)
        heads[i - first + 1] = names[i - first + 1] = lang_config_short(l, &f->cfgs[i], 1, err);
    mdt_head(out, heads, nh, 1);
    pr_buf *cells = pr_xcalloc(nh, sizeof *cells);
    for (size_t r = 0; r < nrows; r++) {
        mdt_cells_clear(cells, nh);
        pv_count_label(l, p, rows[r].nodes, rows[r].gpus, &cells[0], err);
        for (size_t i = first; i < end; i++)
            mdt_summary_cell(w, l, rm_cell_of(&f->cfgs[i], rows[r].nodes, rows[r].gpus), page_rel,
                            nt, &cells[i - first + 1]);
        mdt_row(out, cells, nh);
    }
    mdt_cells_free(cells, nh);
    free(cells);
    for (size_t i = 0; i < nh; i++)
        free(names[i]);
    free(names);
    free(heads);
    free(rows);
}

/* ---------------------------------------------------------------- sections */

/* The parse rules behind f's figures, each with the number of cases it
 * measured (the suite's rule when no record names one), into "rules". */
static void rule_notes(json_t *view, const lang *l, const rm_fw *f, pr_err *err)
{
    json_t *rules = json_array();
    json_t *seen = json_object();
    for (size_t i = 0; i < f->nrecs; i++) {
        const pr_record *r = f->recs[i];
        if (!r->rule)
            continue;
        char *text = json_dumps(r->rule, JSON_COMPACT | JSON_SORT_KEYS);
        json_t *count = json_object_get(seen, text);
        json_object_set_new(seen, text, json_integer(count ? json_integer_value(count) + 1 : 1));
        free(text);
    }
    if (!json_object_size(seen) && f->suite && f->suite->rule) {
        char *text = json_dumps(f->suite->rule, JSON_COMPACT | JSON_SORT_KEYS);
        json_object_set_new(seen, text, json_integer(0));
        free(text);
    }
    const char *text;
    json_t *count;
    /* Sorted keys keep the order deterministic. */
    const char **keys = pr_xcalloc(json_object_size(seen) + 1, sizeof *keys);
    size_t n = 0;
    json_object_foreach(seen, text, count) keys[n++] = text;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
            const char *t = keys[j];
            keys[j] = keys[j - 1];
            keys[j - 1] = t;
        }
    for (size_t i = 0; i < n; i++) {
        pr_buf code = PR_BUF_INIT, b = PR_BUF_INIT;
        pr_md_code_span(&code, keys[i]);
        json_int_t cases = json_integer_value(json_object_get(seen, keys[i]));
        json_t *v = json_pack("{s:s,s:I,s:b}", "rule", pr_buf_cstr(&code), "cases", cases,
                              "measured", cases > 0);
        lang_fmt(l, "rule_line", v, &b, err);
        json_array_append_new(rules, json_pack("{s:s}", "text", pr_buf_cstr(&b)));
        json_decref(v);
        pr_buf_free(&code);
        pr_buf_free(&b);
    }
    free(keys);
    json_decref(seen);
    json_object_set_new(view, "rules", rules);
}

/* ---------------------------------------------------------------- the page */

/* The suite's file and the steps to reproduce (its description, in the
 * page's language, is set by the caller). */
static void suite_view(const rm_world *w, const pr_suite *s, const char *page_rel, json_t *view)
{
    vw_text(view, "framework_version", s->framework_version);
    vw_text(view, "mission_name", s->mission_name);
    char *suite_rel = rm_link_to(w, page_rel, s->path);
    pr_buf b = PR_BUF_INIT;
    /* The template writes the target as it is: encoded here, so that a
     * suite file named "F).json" or "a#b.json" still links to itself. */
    pr_md_link_path(&b, suite_rel);
    json_object_set_new(view, "suite_link", json_string(pr_buf_cstr(&b)));
    pr_buf_clear(&b);
    pr_md_code_span(&b, s->path);
    vw_md(view, "suite_path", &b);
    free(suite_rel);
    steps_view(s, view);
    if (s->image)
        vw_text(view, "image", s->image);
}

/* The log list's entry of record rec (cell of c, run run). */
static void log_item(const rm_world *w, const lang *l, const rm_cfg *c, const pr_run *run,
                     const pr_record *rec, const char *page_rel, json_t *logs, pr_err *err)
{
    pr_buf name = PR_BUF_INIT, text = PR_BUF_INIT, item = PR_BUF_INIT;
    lang_config_name(l, c, &name, err);
    json_t *lv = json_pack("{s:i,s:i,s:s,s:i,s:s,s:b}", "nodes", rec->nodes, "gpus", rec->gpu_num,
                           "config", pr_buf_cstr(&name), "repeat", rec->repeat, "case",
                           rec->case_name, "cpu", pv_is_cpu(c->platform));
    if (rec->failed) {
        pr_buf why = PR_BUF_INIT;
        json_object_set_new(lv, "reason", json_string(rec->fail_reason));
        lang_fmt(l, "failed_reason", lv, &why, err);
        json_object_set_new(lv, "failed", json_string(pr_buf_cstr(&why)));
        pr_buf_free(&why);
    }
    lang_fmt(l, "log_link", lv, &text, err);
    mdt_log_link(w, page_rel, run, rec, pr_buf_cstr(&text), &item);
    /* An imported log names where it was published, after its link (links
     * do not nest). */
    if (strcmp(rec->origin, "parsed") == 0) {
        pr_buf src = PR_BUF_INIT;
        pv_record_source(rec, &src);
        json_t *sv = json_pack("{s:s}", "source", src.len ? pr_buf_cstr(&src)
                                                         : lang_str(l, "imported_source_unknown"));
        pr_buf_putc(&item, ' ');
        lang_fmt(l, "log_source", sv, &item, err);
        json_decref(sv);
        pr_buf_free(&src);
    }
    json_array_append_new(logs, json_pack("{s:s}", "link", pr_buf_cstr(&item)));
    json_decref(lv);
    pr_buf_free(&name);
    pr_buf_free(&text);
    pr_buf_free(&item);
}

/* Every log, in table order: by configuration, row, then repeat. */
static json_t *logs_list(const rm_world *w, const lang *l, const rm_fw *f, const char *page_rel,
                         pr_err *err)
{
    json_t *logs = json_array();
    for (size_t i = 0; i < f->ncfgs; i++) {
        const rm_cfg *c = &f->cfgs[i];
        for (size_t r = 0; r < c->ncells; r++) {
            const rm_cell *cell = &c->cells[r];
            /* By repeat, stable (data order within one): repeats need not
             * start at 1, a cell's imported logs may follow its runs. */
            size_t *ord = pr_xcalloc(cell->nrecs + 1, sizeof *ord);
            for (size_t j = 0; j < cell->nrecs; j++) {
                size_t k = j;
                for (; k > 0 && cell->recs[ord[k - 1]]->repeat > cell->recs[j]->repeat; k--)
                    ord[k] = ord[k - 1];
                ord[k] = j;
            }
            for (size_t j = 0; j < cell->nrecs; j++)
                log_item(w, l, c, cell->runs[ord[j]], cell->recs[ord[j]], page_rel, logs, err);
            free(ord);
        }
    }
    return logs;
}

/* ---------------------------------------------------------------- configurations */

/* 1 when published table t holds figures of configuration c. */
static int pub_of(const pr_pub_table *t, const rm_cfg *c)
{
    return t->platform == c->platform && strcmp(t->precision, c->precision) == 0 &&
           t->batch_size == c->bs;
}

/* Appends t to v (*n entries) unless it is there or not c's. */
static void pub_add(const pr_pub_table **v, size_t *n, const pr_pub_table *t, const rm_cfg *c)
{
    if (!t || !pub_of(t, c))
        return;
    for (size_t k = 0; k < *n; k++)
        if (v[k] == t)
            return;
    v[(*n)++] = t;
}

/* c's published tables in precedence order: the one its figures come from
 * (and are compared with) first, then the others as the cells rank them,
 * then any left.  The caller frees the array. */
static const pr_pub_table **pubs_in_order(const rm_fw *f, const rm_cfg *c, size_t *n)
{
    const pr_pub_table **v = pr_xcalloc(f->npubs + 1, sizeof *v);
    *n = 0;
    pub_add(v, n, c->pub, c);
    for (size_t i = 0; i < c->ncells; i++)
        for (size_t a = 0; a < c->cells[i].nalts; a++)
            pub_add(v, n, c->cells[i].alt_tabs[a], c);
    for (size_t i = 0; i < f->npubs; i++)
        pub_add(v, n, f->pubs[i], c);
    return v;
}

/* "‡ imported from ..." under a configuration: the sources of the logs its
 * imported cells stand for (each named once). */
static void imported_line(const lang *l, const rm_cfg *c, pr_buf *out, pr_err *err)
{
    pr_buf list = PR_BUF_INIT;
    json_t *seen = json_object();
    for (size_t i = 0; i < c->ncells; i++) {
        const rm_cell *rc = &c->cells[i];
        for (size_t j = 0; rc->imported && j < rc->nrecs; j++) {
            pr_buf s = PR_BUF_INIT;
            pv_record_source(rc->recs[j], &s);
            if (!s.len)
                pr_buf_puts(&s, lang_str(l, "imported_source_unknown"));
            if (!json_object_get(seen, pr_buf_cstr(&s))) {
                json_object_set_new(seen, pr_buf_cstr(&s), json_true());
                if (list.len)
                    pr_buf_puts(&list, lang_str(l, "list_sep"));
                pr_buf_puts(&list, pr_buf_cstr(&s));
            }
            pr_buf_free(&s);
        }
    }
    json_decref(seen);
    if (list.len) {
        json_t *v = json_pack("{s:s}", "sources", pr_buf_cstr(&list));
        lang_fmt(l, "imported_sources", v, out, err);
        json_decref(v);
    }
    pr_buf_free(&list);
}

/* The view of configuration c: its reproduction table, where imported
 * figures come from, the other sources of its cells, its chart and its
 * published tables.  *several set when a cell has other sources.  Returns 0,
 * or -1 with err set (a chart failed). */
static int config_view(const rm_world *w, const lang *l, const rm_fw *f, const rm_cfg *c,
                       const char *page_rel, cs_queue *oc, vw_notes *nt, int *several,
                       json_t *cv, pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    int rc = -1;
    lang_config_name(l, c, &b, err);
    vw_md(cv, "name", &b);
    int runs = 0;
    for (size_t i = 0; i < c->ncells; i++)
        runs |= c->cells[i].nrecs > 0;
    if (c->has_repro && runs) {
        repro_table(w, l, f, c, page_rel, nt, &b, err);
        vw_md(cv, "repro_table", &b);
    }
    imported_line(l, c, &b, err);
    if (b.len)
        vw_md(cv, "imported", &b);
    json_t *others = json_array();
    for (size_t i = 0; i < c->ncells; i++) {
        pv_cell_others(l, c, &c->cells[i], &b, err);
        if (b.len)
            json_array_append_new(others, json_string(pr_buf_cstr(&b)));
        pr_buf_clear(&b);
    }
    *several |= json_array_size(others) > 0;
    json_object_set_new(cv, "has_others", json_boolean(json_array_size(others) > 0));
    json_object_set_new(cv, "others", others);
    /* The chart's axis says GPUs: none for a CPU machine. */
    if (oc->charts && !pv_is_cpu(c->platform)) {
        if (cs_fw_scaling(l, f, c, page_rel, oc, &b, err) < 0)
            goto out;
        if (b.len)
            vw_md(cv, "chart", &b);
    }
    size_t n;
    const pr_pub_table **tabs = pubs_in_order(f, c, &n);
    json_t *pubs = json_array();
    for (size_t j = 0; j < n; j++) {
        const pr_pub_table *t = tabs[j];
        /* A table whose rows are all TODO published no figure. */
        int figures = 0;
        for (size_t r = 0; r < t->nrows && !figures; r++)
            figures = t->rows[r].has_value || strcmp(t->rows[r].state, "TODO") != 0;
        if (!figures)
            continue;
        json_t *pv = json_object();
        vw_text(pv, "label", t->label);
        vw_text(pv, "variant", pr_bitext_in(&t->variant, l->code));
        vw_text(pv, "note", pr_bitext_in(&t->note, l->code));
        json_object_set_new(pv, "first", json_boolean(n > 1 && t == c->pub));
        source_line(l, t, &b, err);
        vw_md(pv, "source", &b);
        pub_table(l, f, t, nt, &b, err);
        vw_md(pv, "table", &b);
        json_array_append_new(pubs, pv);
    }
    free(tabs);
    json_object_set_new(cv, "published", pubs);
    rc = 0;
out:
    pr_buf_free(&b);
    return rc;
}

/* The results of one platform, f->cfgs[first, end): its summary table,
 * speedup chart and configurations.  Returns 0, or -1 with err set. */
static int platform_view(const rm_world *w, const lang *l, const rm_fw *f, size_t first,
                         size_t end, const char *page_rel, cs_queue *oc, vw_notes *nt,
                         int *several, json_t *pv, pr_err *err)
{
    const pr_platform *p = f->cfgs[first].platform;
    pr_buf b = PR_BUF_INIT;
    json_t *configs = json_array();
    int rc = -1;
    /* Planned cases have no machine until they run: only figures are
     * compared. */
    int figures = 0;
    for (size_t i = first; i < end; i++)
        for (size_t r = 0; r < f->cfgs[i].ncells; r++)
            figures |= f->cfgs[i].cells[r].nrecs > 0 || f->cfgs[i].cells[r].pub ||
                       f->cfgs[i].cells[r].nalts > 0;
    vw_text(pv, "title", p        ? pv_platform_title(l, p)
                         : figures ? lang_str(l, "platform_none_title")
                                   : lang_str(l, "platform_planned_title"));
    if (!p && figures)
        vw_str(pv, "platform_note", lang_str(l, "platform_none_note"));
    summary_table(w, l, f, first, end, page_rel, nt, &b, err);
    vw_md(pv, "summary_table", &b);
    if (oc->charts && !pv_is_cpu(p)) {
        /* cs_fw_speedup draws one chart per platform: given this one's. */
        rm_fw one = *f;
        one.cfgs = f->cfgs + first;
        one.ncfgs = end - first;
        if (cs_fw_speedup(l, &one, page_rel, oc, &b, err) < 0)
            goto out;
        if (b.len)
            vw_md(pv, "speedup_chart", &b);
    }
    for (size_t i = first; i < end; i++) {
        json_t *cv = json_object();
        json_array_append_new(configs, cv);
        if (config_view(w, l, f, &f->cfgs[i], page_rel, oc, nt, several, cv, err) < 0)
            goto out;
        /* Only planned cases: the summary table lists them; a heading with
         * nothing under it is left out. */
        json_t *pubs = json_object_get(cv, "published");
        if (!json_object_get(cv, "repro_table") && !json_object_get(cv, "imported") &&
            !json_object_get(cv, "chart") && !json_is_true(json_object_get(cv, "has_others")) &&
            json_array_size(pubs) == 0)
            json_array_remove(configs, json_array_size(configs) - 1);
    }
    rc = 0;
out:
    json_object_set_new(pv, "configs", configs);
    pr_buf_free(&b);
    return rc;
}

/* ---------------------------------------------------------------- the page */

/* The page's section numbers: set-up and steps only where there is a suite
 * or a log to follow, logs only where there are logs or a suite to make
 * them. */
static void section_numbers(json_t *view, const lang *l, int steps, int logs)
{
    static const char *const zh[] = {"一", "二", "三", "四", "五", "六"};
    static const char *const en[] = {"1", "2", "3", "4", "5", "6"};
    static const char *const keys[] = {"n_env", "n_setup", "n_steps", "n_results", "n_logs",
                                       "n_notes"};
    const char *const *num = strcmp(l->code, "zh") == 0 ? zh : en;
    int present[] = {1, steps, steps, 1, logs, 1};
    for (size_t i = 0, k = 0; i < 6; i++)
        if (present[i])
            vw_str(view, keys[i], num[k++]);
}

/* On a page whose figures are all of CPU machines the rounding note speaks
 * of processes, not GPUs (it is the first note). */
static void cpu_notes(json_t *view, const lang *l, const rm_fw *f, pr_err *err)
{
    for (size_t i = 0; i < f->ncfgs; i++)
        if (!pv_is_cpu(f->cfgs[i].platform))
            return;
    json_t *notes = json_object_get(view, "notes");
    if (!f->ncfgs || !json_array_size(notes))
        return;
    pr_buf b = PR_BUF_INIT;
    json_t *v = json_object();
    lang_fmt(l, "note_rounding_cpu", v, &b, err);
    json_array_set_new(notes, 0, json_pack("{s:s}", "text", pr_buf_cstr(&b)));
    json_decref(v);
    pr_buf_free(&b);
}

json_t *page_framework_view(const rm_world *w, const lang *l, const rm_fw *f, cs_queue *oc,
                            pr_err *err)
{
    json_t *view = json_object();
    char *page_rel = pr_xasprintf("%s/%s", f->model, f->framework);
    vw_notes nt = {0};
    int ok = 0, several = 0, cpu_only = f->ncfgs > 0;
    vw_text(view, "model_title", f->model_title);
    vw_text(view, "framework_title", f->framework_title);
    vw_page(view, l);
    vw_text(view, "unit", f->unit);
    const pr_suite *s = f->suite;
    if (s) {
        suite_view(w, s, page_rel, view);
        vw_text(view, "description", pr_bitext_in(&s->description, l->code));
    }
    /* A reproduction report only where something ran; else a summary of
     * published figures. */
    json_object_set_new(view, "reproduced", json_boolean(f->n_measured + f->n_imported > 0));
    json_object_set_new(view, "measured", json_boolean(f->n_measured > 0));
    json_object_set_new(view, "imported_logs", json_boolean(f->n_imported > 0));
    json_object_set_new(view, "has_pubs", json_boolean(f->npubs > 0));
    json_t *env = env_view(w, l, f, page_rel, err);
    json_object_set_new(view, "has_env", json_boolean(json_array_size(env) > 0));
    json_object_set_new(view, "env_platforms", env);
    json_object_set_new(view, "hardware", json_boolean(s && s->hardware));
    if (hw_view(w, l, f, page_rel, oc, view, err) < 0)
        goto out;

    json_t *plats = json_array();
    json_object_set_new(view, "platforms", plats);
    /* Configurations are sorted by platform first: one section per run. */
    for (size_t first = 0; first < f->ncfgs;) {
        const pr_platform *p = f->cfgs[first].platform;
        size_t end = first;
        while (end < f->ncfgs && f->cfgs[end].platform == p)
            end++;
        cpu_only &= pv_is_cpu(p);
        json_t *pv = json_object();
        json_array_append_new(plats, pv);
        if (platform_view(w, l, f, first, end, page_rel, oc, &nt, &several, pv, err) < 0)
            goto out;
        first = end;
    }
    json_object_set_new(view, "cpu_only", json_boolean(cpu_only));
    /* The markers explained once, where there is a figure to mark. */
    if (f->nrecs || f->npubs)
        vw_str(view, "origin_legend", lang_str(l, "origin_legend"));
    if (several)
        vw_str(view, "precedence", lang_str(l, "precedence_rule"));

    json_t *logs = logs_list(w, l, f, page_rel, err);
    int has_logs = json_array_size(logs) > 0;
    json_object_set_new(view, "has_logs", json_boolean(has_logs));
    json_object_set_new(view, "logs", logs);
    json_object_set_new(view, "has_steps", json_boolean(s || has_logs));
    json_object_set_new(view, "has_logs_section", json_boolean(s || has_logs));
    section_numbers(view, l, s || has_logs, s || has_logs);
    rule_notes(view, l, f, err);
    char *stats_link = vw_stats_link(w, page_rel);
    nt.stats_link = stats_link;
    vw_notes_set(view, l, &nt, f, err);
    free(stats_link);
    cpu_notes(view, l, f, err);
    vw_text(view, "date", f->date[0] ? f->date : lang_str(l, "state_none"));
    ok = 1;
out:
    free(page_rel);
    if (!ok) {
        json_decref(view);
        view = NULL;
    }
    return view;
}
