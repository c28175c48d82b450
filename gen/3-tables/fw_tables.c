/* fw_tables: the tables of a framework page (page_framework.c): the
 * reproduction table of a configuration (runs, their interval, speedup,
 * efficiency, each published source with its gap, sanity flags, the
 * records a cell left out) and a platform's summary (published tables are
 * fw_pubtab.c's).
 * Each appends Markdown to out and sets the notes it needs in nt. */
#include "fw_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_words.h"
#include "compare.h"
#include "flags.h"
#include "md.h"
#include "mdtable.h"
#include "pairing.h"
#include "provenance.h"
#include "runset.h"
#include "sanity.h"
#include "stats.h"

/* The speedup of value against its 1-GPU baseline base and its scaling
 * efficiency in percent at gpus: the one computation of both.  A rate's
 * speedup is value/base, a time's (lower is better: time to train, step
 * time) base/value, so that 2.0 always means twice as fast. */
static double speedup_of(pr_dir dir, double value, double base, int gpus, double *eff_pct)
{
    double s = pr_unitdir_speedup(dir, value, base);
    *eff_pct = 100.0 * s / gpus;
    return s;
}

long fwt_global_batch(const rm_cfg *c, const rm_cell *rc)
{
    /* A record may state the global batch it ran with (MLPerf's logs do,
     * and large-scale runs change it); else the per-GPU batch × GPUs. */
    const pr_record *r = rc->link_rec;
    json_t *g = r && r->metrics ? json_object_get(r->metrics, "global_batch_size") : NULL;
    if (json_is_integer(g) && json_integer_value(g) > 0)
        return (long)json_integer_value(g);
    return c->bs > 0 && rc->gpus > 0 ? (long)c->bs * rc->gpus : -1;
}

int fwt_batch_blocks(const rm_fw *f, long batch, long base_batch)
{
    /* A rate per sample is the same measure at any batch; a time is not:
     * at another global batch the run does other work (another number of
     * steps to converge, another step), so t1/tn is no speedup. */
    return f->dir == PR_DIR_LOWER && (batch < 0 || base_batch < 0 || batch != base_batch);
}

/* The speedup cell of a time whose global batch differs from the
 * baseline's: both times, the baseline's then this one's, and the note
 * that says why there is no speedup (efficiency: none). */
static void batch_differs_cells(const lang *l, double value, double base, pr_buf *sp,
                                pr_buf *eff, vw_notes *nt)
{
    mdt_value(sp, base);
    pr_buf_puts(sp, " → ");
    mdt_value(sp, value);
    pr_buf_puts(sp, "²");
    pr_buf_puts(eff, lang_str(l, "state_none"));
    nt->batch_differs = 1;
}

/* The speedup and scaling-efficiency cells of a figure against the 1-GPU
 * one (base NAN: no baseline, and the cell says so); returns the speedup,
 * NAN without a baseline. */
static double scaling_cells(const lang *l, pr_dir dir, double value, double base, int gpus,
                            pr_buf *sp, pr_buf *eff, vw_notes *nt)
{
    if (isnan(base)) {
        pr_buf_printf(sp, "%s¹", lang_str(l, "no_baseline"));
        pr_buf_puts(eff, lang_str(l, "state_none"));
        nt->no_baseline = 1;
        return NAN;
    }
    double e;
    double s = speedup_of(dir, value, base, gpus, &e);
    pr_md_number(sp, s, PR_DECIMALS_SPEEDUP);
    pr_md_number(eff, e, PR_DECIMALS_PERCENT);
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

fwt_gap_verdict fwt_gap(const rm_fw *f, const rm_cell *rc, const pr_pub_row *pr,
                        double *gap_pct)
{
    *gap_pct = NAN;
    if (!pr || !pr->has_value || !rc->n_ok)
        return FWT_GAP_NONE;
    *gap_pct = 100.0 * ((rc->median - pr->value) / pr->value);
    if (rc->n_ok < PR_STATS_MIN_RUNS_GAP)
        return FWT_GAP_INSUFFICIENT;
    double tol = f->suite ? f->suite->gap_threshold : 0.05;
    double lo, hi;
    pr_stats_printed_interval(pr->value, pr_data_pub_decimals(pr), &lo, &hi);
    /* The point of the figure's interval nearest the median. */
    double near = rc->median < lo ? lo : rc->median > hi ? hi : rc->median;
    int outside = hi < rc->ci_lo || lo > rc->ci_hi;
    return outside && fabs(rc->median - near) > tol * pr->value ? FWT_GAP_FLAGGED
                                                                 : FWT_GAP_WITHIN;
}

const char *fwt_gap_key(fwt_gap_verdict v)
{
    static const char *const keys[] = {"", "insufficient", "within", "differs"};
    return keys[v];
}

/* The verdict (fwt_gap) on a gap between runs rc and published row pr in
 * the gap cell: below PR_STATS_MIN_RUNS_GAP runs not judged (counted in
 * *insufficient, said once under the table); the flag when it differs. */
static void gap_verdict(const lang *l, const rm_fw *f, const rm_cell *rc, const pr_pub_row *pr,
                        pr_buf *gap, vw_notes *nt, int *insufficient)
{
    double pct;
    fwt_gap_verdict v = fwt_gap(f, rc, pr, &pct);
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

/* 1 when rc's figure and its 1-GPU baseline base were read with two parse
 * rules. */
static int rules_differ(const rm_cell *rc, const rm_cell *base)
{
    const json_t *ra = rc->link_rec ? rc->link_rec->rule : NULL;
    const json_t *rb = base->link_rec ? base->link_rec->rule : NULL;
    return ra && rb && !json_equal((json_t *)ra, (json_t *)rb);
}

int fwt_same_runset(const rm_cell *rc, const rm_cell *base)
{
    return rc == base || (rc->link_run == base->link_run && !rules_differ(rc, base));
}

/* When rc's figure and its 1-GPU baseline base are not of one run set read
 * with one rule (another source, another run set of the source: another
 * cluster or date, or another parse rule), fills the speedup and
 * efficiency cells with the state and a footnote saying why there is no
 * speedup and what differs; returns 1.  0: one run set, one rule. */
static int no_scaling_across(const lang *l, const rm_cfg *c, const rm_cell *rc,
                             const rm_cell *base, pr_buf *sp, pr_buf *eff, sn_notes *sn,
                             pr_err *err)
{
    if (fwt_same_runset(rc, base))
        return 0;
    const pr_run *a = rc->link_run, *b = base->link_run;
    int two_sets = a != b, other_rule = rules_differ(rc, base);
    pr_buf_puts(sp, lang_str(l, two_sets ? "state_other_runset" : "state_other_rule"));
    pr_buf_puts(eff, lang_str(l, "state_none"));
    pr_buf sa = PR_BUF_INIT, sb = PR_BUF_INIT;
    runs_source(l, rc, &sa, err);
    runs_source(l, base, &sb, err);
    if (strcmp(pr_buf_cstr(&sa), pr_buf_cstr(&sb)) != 0 || !a || !b) {
        /* Two sources: measured here against imported, or two repositories. */
        sn_other_base_note(l, c->platform, rc->nodes, rc->gpus, pr_buf_cstr(&sa),
                           pr_buf_cstr(&sb), sp, sn, err);
    } else {
        json_t *diffs = rs_diff(a, b);
        if (!two_sets) {
            /* One run set: only the rules differ. */
            pr_buf d = PR_BUF_INIT;
            rs_rule_diff(rc->link_rec->rule, base->link_rec->rule, &d);
            json_array_append_new(diffs, json_pack("{s:s,s:s,s:s}", "what", "rule", "a",
                                                   pr_buf_cstr(&d), "b", ""));
            pr_buf_free(&d);
        }
        const char *ta = rs_title(a, l->code), *tb = rs_title(b, l->code);
        sn_diff_note(l, c->platform, rc->nodes, rc->gpus, ta, two_sets ? tb : ta, diffs,
                     other_rule, sp, sn, err);
        json_decref(diffs);
    }
    pr_buf_free(&sa);
    pr_buf_free(&sb);
    return 1;
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

/* Under a table of imported logs: each published table of another
 * repository than the logs' is of another run set (its own machine,
 * software and settings), and its gap says so. */
static void other_runset_pubs(const lang *l, const rm_cfg *c, const pr_pub_table *const *pubs,
                              size_t npubs, pr_buf *out, pr_err *err)
{
    const char *repo = NULL;
    for (size_t i = 0; i < c->ncells && !repo; i++)
        if (c->cells[i].imported && c->cells[i].n_ok && c->cells[i].link_rec)
            repo = json_string_value(json_object_get(c->cells[i].link_rec->source, "repo"));
    for (size_t p = 0; repo && p < npubs; p++) {
        if (pubs[p]->source_repo && strcmp(pubs[p]->source_repo, repo) == 0)
            continue;
        json_t *v = json_pack("{s:s}", "label", pubs[p]->label);
        pr_buf_puts(out, "- ");
        lang_fmt(l, "pub_other_runset", v, out, err);
        pr_buf_putc(out, '\n');
        json_decref(v);
    }
}

/* Under the table: the imported records a cell left out because runs
 * measured here come first ("1×8 GPUs: 2 records of imported logs left
 * out"). */
static void left_out_notes(const lang *l, const rm_cfg *c, pr_buf *out, pr_err *err)
{
    for (size_t i = 0; i < c->ncells; i++) {
        const rm_cell *rc = &c->cells[i];
        if (!rc->n_other_origin)
            continue;
        pr_buf list = PR_BUF_INIT, cell = PR_BUF_INIT;
        json_t *v = json_pack("{s:I,s:b}", "n", (json_int_t)rc->n_other_origin, "one",
                              rc->n_other_origin == 1);
        lang_fmt(l, "other_origin_left", v, &list, err);
        json_decref(v);
        pv_count_label(l, c->platform, rc->nodes, rc->gpus, &cell, err);
        v = json_pack("{s:s,s:s}", "cell", pr_buf_cstr(&cell), "list", pr_buf_cstr(&list));
        pr_buf_puts(out, "- ");
        lang_fmt(l, "others_cell", v, out, err);
        pr_buf_putc(out, '\n');
        json_decref(v);
        pr_buf_free(&list);
        pr_buf_free(&cell);
    }
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

int fwt_has_scaling(const rm_fw *f, const rm_cfg *c)
{
    /* A hardware suite measures the machine: a bandwidth at 8 GPUs is no
     * multiple of the 1-GPU one, so speedup and efficiency mean nothing. */
    return (!pv_is_cpu(c->platform) || pv_counts(c) > 1) && !(f->suite && f->suite->hardware);
}

int fwt_cell_scaling(const rm_fw *f, const rm_cfg *c, const rm_cell *rc, double *speedup,
                     double *eff_pct)
{
    *speedup = *eff_pct = NAN;
    const rm_cell *base = rm_cell_of(c, 1, 1);
    if (!fwt_has_scaling(f, c) || !rc->n_ok || !base->n_ok || !fwt_same_runset(rc, base) ||
        fwt_batch_blocks(f, fwt_global_batch(c, rc), fwt_global_batch(c, base)))
        return 0;
    *speedup = speedup_of(f->dir, rc->median, base->median, rc->gpus, eff_pct);
    return 1;
}

double fwt_pub_speedup(pr_dir dir, double value, double base, int gpus, double *eff_pct)
{
    return speedup_of(dir, value, base, gpus, eff_pct);
}

/* The reproduction table of one configuration: the runs' figures (‡ when
 * they come from imported logs), compared with each published table of the
 * same machine (the report the logs came with, the vendor's), a figure and
 * a gap column each.  Figures of a machine not stated are compared with
 * nothing.  On a CPU machine speedup and efficiency need two process
 * counts (one has nothing to scale). */
void fwt_repro_table(const rm_world *w, const lang *l, const rm_fw *f, const rm_cfg *c,
                     const char *page_rel, vw_notes *nt, pr_buf *out, pr_err *err)
{
    const pr_pub_table *pubs[REPRO_MAX_PUBS];
    size_t npubs = repro_pubs(c, pubs);
    int scaling = fwt_has_scaling(f, c);
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
    if (f->dir == PR_DIR_LOWER && !(f->suite && f->suite->hardware))
        what = "col_time";
    pr_buf_printf(&thr, "%s (%s", lang_str(l, what), f->unit);
    /* Which way is better, in the header: a time reads lower is better;
     * a unit the table does not know says so (lib/unitdir.c). */
    if (f->dir == PR_DIR_LOWER)
        pr_buf_printf(&thr, ", %s", lang_str(l, "dir_lower"));
    else if (f->dir == PR_DIR_UNKNOWN)
        pr_buf_printf(&thr, ", %s", lang_str(l, "dir_unknown"));
    pr_buf_putc(&thr, ')');
    heads[nh++] = lang_str(l, "col_nodes");
    heads[nh++] = pv_col_count(l, c->platform);
    heads[nh++] = pr_buf_cstr(&thr);
    heads[nh++] = lang_str(l, "col_interval");
    heads[nh++] = lang_str(l, "col_runs_records");
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
                            rc->n_ok ? pr_stats_shortest_decimals(rc->median) : 0,
                            rc->n_ok ? rc->link_run : NULL, f->dir == PR_DIR_LOWER};
    }
    sn_check_series(l, c->platform, pts, c->ncells, marks, &sn, err);
    pr_buf cells[MAX_COLS];
    for (size_t i = 0; i < MAX_COLS; i++)
        pr_buf_init(&cells[i]);
    int insufficient = 0;
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
            if (sn_unsteady_count(rc->recs, rc->nrecs)) /* the flag pass's rule (flags.h) */
                sn_unsteady_note(l, c->platform, rc->nodes, rc->gpus, rc->recs, rc->nrecs, val,
                                 &sn, err);
            interval_cell(rc, range);
            nt->stats |= rc->n_ok > 1;
            pr_buf_printf(runs, "%u", rc->n_ok);
            int summary = 0;
            long long nrec = fl_cell_records(rc, &summary);
            if (summary)
                pr_buf_printf(runs, " (%s)", lang_str(l, "records_summary"));
            else if (nrec >= 0)
                pr_buf_printf(runs, " (%lld)", nrec);
            if (fl_few_records(rc, NULL)) /* the flag pass's rule (flags.h) */
                sn_few_records_note(l, c->platform, rc->nodes, rc->gpus, nrec, runs, &sn, err);
            if (rc->n_total > rc->n_ok) {
                pr_buf_printf(runs, " (+%u %s)", rc->n_total - rc->n_ok,
                              lang_str(l, "state_failed"));
                nt->failed = 1;
            }
            if (scaling && base->n_ok && no_scaling_across(l, c, rc, base, sp, eff, &sn, err)) {
                /* Speedups within one run set only (the note says why not). */
            } else if (scaling && base->n_ok && rc != base &&
                       fwt_batch_blocks(f, fwt_global_batch(c, rc), fwt_global_batch(c, base))) {
                batch_differs_cells(l, rc->median, base->median, sp, eff, nt);
            } else if (scaling) {
                scaling_cells(l, f->dir, rc->median, base->n_ok ? base->median : NAN, rc->gpus,
                              sp, eff, nt);
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
            /* The audit's verdict on this figure against its log. */
            if (pr && pr->has_value)
                cmp_audit_verdict_link(l, au_item_of_row(w->audit, pr), page_rel, pc);
            if (pr && pr->has_value && rc->n_ok) {
                double g = (rc->median - pr->value) / pr->value;
                if (g >= 0)
                    pr_buf_putc(gap, '+');
                pr_md_number(gap, 100.0 * g, PR_DECIMALS_PERCENT);
                pr_buf_puts(gap, "%");
                gap_verdict(l, f, rc, pr, gap, nt, &insufficient);
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
    /* A gap not judged is said once per table, not in every cell (the
     * runs column shows which rows). */
    /* The table's notes as one list under it. */
    pr_buf notes = PR_BUF_INIT;
    if (insufficient) {
        pr_buf_puts(&notes, "- ");
        pr_buf_puts(&notes, lang_str(l, "fwp_insufficient"));
        pr_buf_putc(&notes, '\n');
    }
    if (sn.notes.len) {
        pr_buf_puts(&notes, pr_buf_cstr(&sn.notes));
        nt->sanity = 1;
    }
    other_runset_pubs(l, c, pubs, npubs, &notes, err);
    left_out_notes(l, c, &notes, err);
    if (notes.len) {
        pr_buf_putc(out, '\n');
        pr_buf_puts(out, pr_buf_cstr(&notes));
    }
    pr_buf_free(&notes);
    for (size_t i = 0; i < c->ncells; i++)
        pr_buf_free(&marks[i]);
    free(marks);
    free(pts);
    sn_notes_free(&sn);
}

/* The summary table of one platform's configurations f->cfgs[first, end):
 * device counts down, configurations across.  Two machines never share a
 * table: their figures are not compared. */
void fwt_summary_table(const rm_world *w, const lang *l, const rm_fw *f, size_t first,
                       size_t end, const char *page_rel, vw_notes *nt, pr_buf *out,
                       pr_err *err)
{
    const pr_platform *p = f->cfgs[first].platform;
    /* Configurations with a figure or a state (OOM, failed) only: planned
     * cases are the platform's planned list, not columns of TODO. */
    const rm_cfg **cols = pr_xcalloc(end - first + 1, sizeof *cols);
    size_t ncols = 0;
    for (size_t i = first; i < end; i++) {
        int shown = 0;
        for (size_t r = 0; r < f->cfgs[i].ncells && !shown; r++)
            shown = f->cfgs[i].cells[r].origin != RM_PLANNED &&
                    f->cfgs[i].cells[r].origin != RM_NONE;
        if (shown)
            cols[ncols++] = &f->cfgs[i];
    }
    rm_row *rows = NULL;
    size_t nrows = 0;
    for (size_t i = 0; i < ncols; i++)
        for (size_t r = 0; r < cols[i]->ncells; r++)
            if (cols[i]->cells[r].origin != RM_PLANNED && cols[i]->cells[r].origin != RM_NONE)
                rm_row_add(&rows, &nrows, cols[i]->cells[r].nodes, cols[i]->cells[r].gpus);
    if (!ncols) {
        free(cols);
        return;
    }
    pr_qsort(rows, nrows, sizeof *rows, rm_row_qsort);
    size_t nh = ncols + 1;
    char **names = pr_xcalloc(nh, sizeof *names);
    const char **heads = pr_xcalloc(nh, sizeof *heads);
    heads[0] = pv_col_count(l, p);
    /* Plain names (mdt_head escapes them once: a Markdown name came out
     * "R&amp;amp;D"), without the platform the section's heading names. */
    for (size_t i = 0; i < ncols; i++)
        heads[i + 1] = names[i + 1] = config_words_short(l, cols[i], 1, err);
    mdt_head(out, heads, nh, 1);
    pr_buf *cells = pr_xcalloc(nh, sizeof *cells);
    for (size_t r = 0; r < nrows; r++) {
        mdt_cells_clear(cells, nh);
        pv_count_label(l, p, rows[r].nodes, rows[r].gpus, &cells[0], err);
        for (size_t i = 0; i < ncols; i++) {
            const rm_cell *rc = rm_cell_of(cols[i], rows[r].nodes, rows[r].gpus);
            if (rc->origin == RM_PLANNED)
                pr_buf_puts(&cells[i + 1], lang_str(l, "state_none"));
            else
                mdt_summary_cell(w, l, rc, page_rel, nt, &cells[i + 1]);
            cmp_audit_verdict_link(l, cmp_audit_of_cell(w->audit, rc), page_rel, &cells[i + 1]);
        }
        mdt_row(out, cells, nh);
    }
    mdt_cells_free(cells, nh);
    free(cells);
    for (size_t i = 0; i < nh; i++)
        free(names[i]);
    free(names);
    free(heads);
    free(rows);
    free(cols);
}
