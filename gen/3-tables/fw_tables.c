/* fw_tables: the tables of a framework page (page_framework.c): the
 * reproduction table of a configuration (runs, their interval, speedup,
 * efficiency, each published source with its gap, sanity flags, the
 * records a cell left out) and a platform's summary (published tables are
 * fw_pubtab.c's).  The reproduction table's columns are the rows of
 * fw_columns (fw_columns.c); here, what goes around them: the published
 * tables it compares with and the notes under it.
 * Each appends Markdown to out and sets the notes it needs in nt. */
#include "fw_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/pairing.h"
#include "2-model/sanity.h"
#include "compare.h"
#include "config_words.h"
#include "fw_columns.h"
#include "mdtable.h"
#include "provenance.h"
#include "stats.h"

/* The speedup of value against its baseline base measured on base_gpus
 * GPUs and its scaling efficiency in percent at gpus (the speedup over the
 * count ratio: 2.00 from 8 to 16 GPUs is 100 %): the one computation of
 * both. */
static double speedup_of(pr_unitdir_dir dir, double value, double base, int base_gpus, int gpus,
                         double *eff_pct)
{
    double s = pr_unitdir_speedup(dir, value, base);
    *eff_pct = 100.0 * s * base_gpus / gpus;
    return s;
}

fw_tables_gap_verdict fw_tables_gap(const rmodel_fw *f, const rmodel_cell *rc, const pr_pub_row *pr,
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
    pr_stats_printed_interval(pr->value, data_pub_decimals(pr), &lo, &hi);
    /* The point of the figure's interval nearest the median. */
    double near = rc->median < lo ? lo : rc->median > hi ? hi : rc->median;
    int outside = hi < rc->ci_lo || lo > rc->ci_hi;
    return outside && fabs(rc->median - near) > tol * pr->value ? FWT_GAP_FLAGGED : FWT_GAP_WITHIN;
}

const char *fw_tables_gap_key(fw_tables_gap_verdict v)
{
    static const char *const keys[] = {"", "insufficient", "within", "differs"};
    return keys[v];
}

int fw_tables_rules_differ(const rmodel_cell *rc, const rmodel_cell *base)
{
    const json_t *ra = rc->link_rec ? rc->link_rec->rule : NULL;
    const json_t *rb = base->link_rec ? base->link_rec->rule : NULL;
    return ra && rb && !json_equal((json_t *)ra, (json_t *)rb);
}

int fw_tables_same_runset(const rmodel_cell *rc, const rmodel_cell *base)
{
    return rc == base || (rc->link_run == base->link_run && !fw_tables_rules_differ(rc, base));
}

/* The published tables a configuration's figures are compared with: the
 * primary, then its cells' other tables, one per source label (the first
 * in precedence), at most REPRO_MAX_PUBS. */
#define REPRO_MAX_PUBS 3
static size_t repro_pubs(const rmodel_cfg *c, const pr_pub_table **out)
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
static void other_runset_pubs(const lang *l, const rmodel_cfg *c, const pr_pub_table *const *pubs,
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
static void left_out_notes(const lang *l, const rmodel_cfg *c, pr_buf *out, pr_err *err)
{
    for (size_t i = 0; i < c->ncells; i++) {
        const rmodel_cell *rc = &c->cells[i];
        if (!rc->n_other_origin)
            continue;
        pr_buf list = PR_BUF_INIT, cell = PR_BUF_INIT;
        json_t *v = json_pack("{s:I,s:b}", "n", (json_int_t)rc->n_other_origin, "one",
                              rc->n_other_origin == 1);
        lang_fmt(l, "other_origin_left", v, &list, err);
        json_decref(v);
        platform_count_label(l, c->platform, rc->nodes, rc->gpus, &cell, err);
        v = json_pack("{s:s,s:s}", "cell", pr_buf_cstr(&cell), "list", pr_buf_cstr(&list));
        pr_buf_puts(out, "- ");
        lang_fmt(l, "others_cell", v, out, err);
        pr_buf_putc(out, '\n');
        json_decref(v);
        pr_buf_free(&list);
        pr_buf_free(&cell);
    }
}

/* Under a table whose speedups are not against 1 GPU (there is no 1-GPU
 * run): the count they are against, so that "×2.00" reads as from 8 to 16
 * GPUs ("speedup against 1×8 GPUs"). */
static void base_note(const lang *l, const rmodel_fw *f, const rmodel_cfg *c,
                      const rmodel_cell *base, pr_buf *out, pr_err *err)
{
    if (!base->n_ok || (base->nodes == 1 && base->gpus == 1) || !fw_tables_has_scaling(f, c))
        return;
    pr_buf count = PR_BUF_INIT;
    platform_count_label(l, c->platform, base->nodes, base->gpus, &count, err);
    json_t *v = json_pack("{s:s,s:i,s:b}", "count", pr_buf_cstr(&count), "base_gpus", base->gpus,
                          "cpu", platform_is_cpu(c->platform));
    pr_buf_puts(out, "- ");
    lang_fmt(l, "speedup_base_smallest", v, out, err);
    pr_buf_putc(out, '\n');
    json_decref(v);
    pr_buf_free(&count);
}

int fw_tables_has_scaling(const rmodel_fw *f, const rmodel_cfg *c)
{
    /* A hardware suite measures the machine: a bandwidth at 8 GPUs is no
     * multiple of the 1-GPU one, so speedup and efficiency mean nothing. */
    return (!platform_is_cpu(c->platform) || provenance_counts(c) > 1) &&
           !(f->suite && f->suite->hardware);
}

int fw_tables_cell_scaling(const rmodel_fw *f, const rmodel_cfg *c, const rmodel_cell *rc,
                           double *speedup, double *eff_pct)
{
    *speedup = *eff_pct = NAN;
    const rmodel_cell *base = rmodel_base_cell(c);
    if (!fw_tables_has_scaling(f, c) || !rc->n_ok || !base->n_ok ||
        !fw_tables_same_runset(rc, base) ||
        fw_tables_batch_blocks(f, fw_tables_global_batch(c, rc), fw_tables_global_batch(c, base)))
        return 0;
    *speedup = speedup_of(f->dir, rc->median, base->median, base->gpus, rc->gpus, eff_pct);
    return 1;
}

double fw_tables_pub_speedup(pr_unitdir_dir dir, double value, double base, int base_gpus, int gpus,
                             double *eff_pct)
{
    return speedup_of(dir, value, base, base_gpus, gpus, eff_pct);
}

long fw_tables_global_batch(const rmodel_cfg *c, const rmodel_cell *rc)
{
    /* A record may state the global batch it ran with (MLPerf's logs do,
     * and large-scale runs change it); else the per-GPU batch × GPUs. */
    const pr_record *r = rc->link_rec;
    json_t *g = r && r->metrics ? json_object_get(r->metrics, "global_batch_size") : NULL;
    if (json_is_integer(g) && json_integer_value(g) > 0)
        return (long)json_integer_value(g);
    return c->bs > 0 && rc->gpus > 0 ? (long)c->bs * rc->gpus : -1;
}

int fw_tables_batch_blocks(const rmodel_fw *f, long batch, long base_batch)
{
    /* A rate per sample is the same measure at any batch; a time is not:
     * at another global batch the run does other work (another number of
     * steps to converge, another step), so t1/tn is no speedup. */
    return f->dir == PR_DIR_LOWER && (batch < 0 || base_batch < 0 || batch != base_batch);
}

/* The reproduction table of one configuration: the runs' figures (‡ when
 * they come from imported logs), compared with each published table of the
 * same machine (the report the logs came with, the vendor's), a figure and
 * a gap column each.  Figures of a machine not stated are compared with
 * nothing.  On a CPU machine speedup and efficiency need two process
 * counts (one has nothing to scale). */
void fw_tables_repro_table(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                           const rmodel_cfg *c, const char *page_rel, view_notes *nt, pr_buf *out,
                           pr_err *err)
{
    fw_tables_repro_table_of(fw_columns, fw_columns_count, w, l, f, c, page_rel, nt, out, err);
}

void fw_tables_repro_table_of(const fw_columns_column *cols, size_t ncols, const rmodel_world *w,
                              const lang *l, const rmodel_fw *f, const rmodel_cfg *c,
                              const char *page_rel, view_notes *nt, pr_buf *out, pr_err *err)
{
    const pr_pub_table *pubs[REPRO_MAX_PUBS];
    size_t npubs = repro_pubs(c, pubs);
    /* What cannot be right in the runs' figures, footnoted under the
     * table (the medians carry every digit: no rounding to allow for). */
    sanity_notes sn;
    sanity_notes_init(&sn, 1);
    sanity_point *pts = pr_xcalloc(c->ncells + 1, sizeof *pts);
    pr_buf *marks = pr_xcalloc(c->ncells + 1, sizeof *marks);
    for (size_t i = 0; i < c->ncells; i++) {
        const rmodel_cell *rc = &c->cells[i];
        pts[i] = (sanity_point){rc->nodes,
                                rc->gpus,
                                rc->n_ok > 0,
                                rc->median,
                                rc->n_ok ? rc->median_decimals : 0,
                                rc->n_ok ? rc->link_run : NULL,
                                f->dir == PR_DIR_LOWER};
    }
    fw_columns_table x = {w,   l,     f, c, page_rel, nt, err, pubs, npubs, rmodel_base_cell(c),
                          &sn, marks, 0};
    fw_columns_head(cols, ncols, &x, out);
    sanity_check_series(l, c->platform, pts, c->ncells, marks, &sn, err);
    /* A case with no run reproduced nothing: the summary table says TODO
     * for a planned one, and a row of dashes and "0 runs" says nothing
     * more. */
    for (size_t i = 0; i < c->ncells; i++)
        if (c->cells[i].nrecs)
            fw_columns_row_md(cols, ncols, &x, i, out);
    int insufficient = x.insufficient;
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
    base_note(l, f, c, x.base, &notes, err);
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
    sanity_notes_free(&sn);
}

/* The summary table of one platform's configurations f->cfgs[first, end):
 * device counts down, configurations across.  Two machines never share a
 * table: their figures are not compared. */
void fw_tables_summary_table(const rmodel_world *w, const lang *l, const rmodel_fw *f, size_t first,
                             size_t end, const char *page_rel, view_notes *nt, pr_buf *out,
                             pr_err *err)
{
    const pr_platform *p = f->cfgs[first].platform;
    /* Configurations with a figure or a state (OOM, failed) only: planned
     * cases are the platform's planned list, not columns of TODO. */
    const rmodel_cfg **cols = pr_xcalloc(end - first + 1, sizeof *cols);
    size_t ncols = 0;
    for (size_t i = first; i < end; i++) {
        int shown = 0;
        for (size_t r = 0; r < f->cfgs[i].ncells && !shown; r++)
            shown =
                f->cfgs[i].cells[r].origin != RM_PLANNED && f->cfgs[i].cells[r].origin != RM_NONE;
        if (shown)
            cols[ncols++] = &f->cfgs[i];
    }
    rmodel_row *rows = NULL;
    size_t nrows = 0;
    for (size_t i = 0; i < ncols; i++)
        for (size_t r = 0; r < cols[i]->ncells; r++)
            if (cols[i]->cells[r].origin != RM_PLANNED && cols[i]->cells[r].origin != RM_NONE)
                rmodel_row_add(&rows, &nrows, cols[i]->cells[r].nodes, cols[i]->cells[r].gpus);
    if (!ncols) {
        free(cols);
        return;
    }
    pr_qsort(rows, nrows, sizeof *rows, rmodel_row_qsort);
    size_t nh = ncols + 1;
    char **names = pr_xcalloc(nh, sizeof *names);
    const char **heads = pr_xcalloc(nh, sizeof *heads);
    heads[0] = provenance_col_count(l, p);
    /* Plain names (mdtable_head escapes them once: a Markdown name came out
     * "R&amp;amp;D"), without the platform the section's heading names. */
    for (size_t i = 0; i < ncols; i++)
        heads[i + 1] = names[i + 1] = config_words_short(l, cols[i], 1, err);
    mdtable_head(out, heads, nh, 1);
    pr_buf *cells = pr_xcalloc(nh, sizeof *cells);
    for (size_t r = 0; r < nrows; r++) {
        mdtable_cells_clear(cells, nh);
        platform_count_label(l, p, rows[r].nodes, rows[r].gpus, &cells[0], err);
        for (size_t i = 0; i < ncols; i++) {
            const rmodel_cell *rc = rmodel_cell_of(cols[i], rows[r].nodes, rows[r].gpus);
            if (rc->origin == RM_PLANNED)
                pr_buf_puts(&cells[i + 1], lang_str(l, "state_none"));
            else
                mdtable_summary_cell(w, l, rc, page_rel, nt, &cells[i + 1]);
            compare_audit_verdict_link(l, compare_audit_of_cell(w->audit, rc), page_rel,
                                       &cells[i + 1]);
        }
        mdtable_row(out, cells, nh);
    }
    mdtable_cells_free(cells, nh);
    free(cells);
    for (size_t i = 0; i < nh; i++)
        free(names[i]);
    free(names);
    free(heads);
    free(rows);
    free(cols);
}
