/* fw_pubtab: a framework page's published figures (fw_pubtab.h). */
#include "fw_pubtab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/pairing.h"
#include "1-load/runset.h"
#include "2-model/audit.h"
#include "2-model/flags.h"
#include "2-model/sanity.h"
#include "base/md.h"
#include "compare.h"
#include "config_words.h"
#include "fw_tables.h"
#include "mdtable.h"
#include "provenance.h"
#include "stats.h"
#include "vec.h"

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

/* 1 when row r's printed speedup cannot be its figure ÷ the baseline's:
 * no values the printed decimals of the three allow give it
 * (docs/statistics.md#printed-precision). */
static int speedup_disagrees(const pr_pub_row *r, const pr_pub_row *base)
{
    return !pr_stats_ratio_consistent(r->speedup, pr_stats_shortest_decimals(r->speedup), r->value,
                                      data_pub_decimals(r), base->value, data_pub_decimals(base));
}

/* The run set of the log behind published row r of t: the one the audit
 * pairs with the figure (audit.h: also a log of another batch size or mode
 * of its class that the source links from the cell), else flags_pub_row_run's. */
static const pr_run *row_run(const audit_model *audit, const rmodel_fw *f, const pr_pub_table *t,
                             const pr_pub_row *r)
{
    const audit_item *it = audit_item_of_row(audit, r);
    return it && it->run ? it->run : flags_pub_row_run(f, t, r);
}

/* 1 when the source's own logs show row r and the 1-GPU row base of t to
 * be of two run sets (*run and *base_run get them): no speedup is
 * computed across them. */
static int pub_rows_cross(const audit_model *audit, const rmodel_fw *f, const pr_pub_table *t,
                          const pr_pub_row *r, const pr_pub_row *base, const pr_run **run,
                          const pr_run **base_run)
{
    *run = row_run(audit, f, t, r);
    *base_run = *run ? row_run(audit, f, t, base) : NULL;
    return *run && *base_run && *run != *base_run;
}

/* Two tables are revisions of one source when the same source (label and
 * repository) printed them on different dates. */
static int same_source(const pr_pub_table *a, const pr_pub_table *b)
{
    return strcmp(a->label, b->label) == 0 &&
           (a->source_repo ? b->source_repo && strcmp(a->source_repo, b->source_repo) == 0
                           : !b->source_repo);
}

/* A table whose rows are all TODO published no figure. */
static int has_figures(const pr_pub_table *t)
{
    for (size_t r = 0; r < t->nrows; r++)
        if (t->rows[r].has_value || strcmp(t->rows[r].state, "TODO") != 0)
            return 1;
    return 0;
}

int fw_pubtab_is_older(const rmodel_fw *f, const rmodel_cfg *c, const pr_pub_table *t)
{
    if (!t->date)
        return 0;
    for (size_t i = 0; i < f->npubs; i++) {
        const pr_pub_table *o = f->pubs[i];
        if (o != t && o->date && rmodel_pub_of(o, c) && has_figures(o) && same_source(o, t) &&
            strcmp(o->date, t->date) > 0)
            return 1;
    }
    return 0;
}

/* 1 when s holds a CJK character (a Chinese heading is no link text for an
 * English page). */
static int has_cjk(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p >= 0xE3 && *p <= 0xE9)
            return 1;
    return 0;
}

/* The first cell of t's row: the source linked (its title where the
 * page's language can show it, else its label and line), which of its
 * configurations, its date, the primary mark, its note and a paired mode.
 * revision: the over-time table's row, which names the commit. */
static void source_cell(const lang *l, const pr_pub_table *t, int primary, int revision,
                        pr_buf *out, pr_err *err)
{
    pr_buf text = PR_BUF_INIT;
    const char *title = t->source_title;
    if (revision || !title || (strcmp(l->code, "zh") != 0 && has_cjk(title)))
        title = NULL;
    if (title) {
        md_text(&text, title);
    } else {
        /* The source's name and, for a heading this page cannot show, the
         * file and line it links to. */
        md_text(&text, t->label);
        if (revision && t->source_commit) {
            pr_buf_printf(&text, " @ %.8s", t->source_commit);
        } else if (t->source_path) {
            pr_buf_puts(&text, ": ");
            md_text(&text, t->source_path);
            if (t->source_line) {
                json_t *v = json_pack("{s:i}", "line", t->source_line);
                lang_fmt(l, "fwp_source_line", v, &text, err);
                json_decref(v);
            }
        }
    }
    if (t->source_url)
        mdtable_link_url(out, pr_buf_cstr(&text), t->source_url);
    else
        pr_buf_puts(out, pr_buf_cstr(&text));
    if (!t->source_repo && t->source_path) {
        pr_buf_puts(out, " (");
        md_code_span(out, t->source_path);
        pr_buf_puts(out, ")");
    }
    json_t *v = json_object();
    const char *variant = pr_bitext_in(&t->variant, l->code);
    if (title && strcmp(t->label, t->source_title) != 0 && !strstr(t->source_title, t->label))
        json_object_set_new(v, "label", json_string(t->label));
    if (variant)
        json_object_set_new(v, "variant", json_string(variant));
    /* The date once: a variant that names it already says it. */
    if (t->date && !(variant && strstr(variant, t->date)))
        json_object_set_new(v, "date", json_string(t->date));
    json_object_set_new(v, "primary", json_boolean(primary));
    const char *note = pr_bitext_in(&t->note, l->code);
    if (note)
        json_object_set_new(v, "note", json_string(note));
    lang_fmt(l, "fwp_source_cell", v, out, err);
    json_decref(v);
    if (t->paired_precision) {
        /* Its logs ran another mode than it prints (pairing.h). */
        pr_buf a = PR_BUF_INIT, b = PR_BUF_INIT;
        mdtable_mode_name(t->precision, &a);
        mdtable_mode_name(t->paired_precision, &b);
        v = json_pack("{s:s,s:s}", "printed", pr_buf_cstr(&a), "ran", pr_buf_cstr(&b));
        pr_buf_putc(out, ' ');
        lang_fmt(l, "pub_paired_mode", v, out, err);
        json_decref(v);
        pr_buf_free(&a);
        pr_buf_free(&b);
    }
    pr_buf_free(&text);
}

/* One entry of a table: a published table and the configuration it is
 * shown under. */
typedef struct entry {
    const pr_pub_table *t;
    const rmodel_cfg *c;
    int primary;
} entry;

/* 1 when t's figures have speedups and efficiencies beside them: on a GPU
 * machine, or on a CPU one with two process counts. */
static int table_scaling(const pr_pub_table *t)
{
    int two = 0;
    for (size_t i = 1; i < t->nrows && !two; i++)
        two = t->rows[i].gpus != t->rows[0].gpus;
    return !platform_is_cpu(t->platform) || two;
}

/* A published row's global batch: the table's per-GPU batch × GPUs; -1
 * when the table states none. */
static long pub_global_batch(const pr_pub_table *t, const pr_pub_row *r)
{
    return t->batch_size > 0 && r->gpus > 0 ? (long)t->batch_size * r->gpus : -1;
}

int fw_pubtab_row_scaling(const audit_model *audit, const rmodel_fw *f, const pr_pub_table *t,
                          const pr_pub_row *r, double *speedup, double *eff_pct)
{
    *speedup = *eff_pct = NAN;
    const pr_pub_row *base = rmodel_pub_row(t, 1, 1);
    const pr_run *run, *base_run;
    if (!r->has_value || !base || !base->has_value || r == base || !table_scaling(t) ||
        pub_rows_cross(audit, f, t, r, base, &run, &base_run))
        return 0;
    if (fw_tables_batch_blocks(f, pub_global_batch(t, r), pub_global_batch(t, base)))
        return 0;
    *speedup = fw_tables_pub_speedup(f->dir, r->value, base->value, base->gpus, r->gpus, eff_pct);
    return 1;
}

int fw_pubtab_shown(const rmodel_cfg *c, const pr_pub_table *t)
{
    return rmodel_pub_of(t, c) && has_figures(t);
}

/* The cells of table e's figures at rows[0..nrows) into cells[0..nrows),
 * with its sanity flags (footnotes into sn, named by its source). */
static void figure_cells(const rmodel_world *w, const lang *l, const rmodel_fw *f, const entry *e,
                         const rmodel_row *rows, size_t nrows, const char *page_rel, pr_buf *cells,
                         sanity_notes *sn, view_notes *nt, pr_err *err)
{
    const pr_pub_table *t = e->t;
    size_t n = 0;
    rmodel_row *own = NULL;
    for (size_t i = 0; i < t->nrows; i++)
        rmodel_row_add(&own, &n, t->rows[i].nodes, t->rows[i].gpus);
    pr_qsort(own, n, sizeof *own, rmodel_row_qsort);
    int scaling = table_scaling(t);
    const pr_pub_row *base = rmodel_pub_row(t, 1, 1);
    if (base && !base->has_value)
        base = NULL;
    sanity_point *pts = pr_xcalloc(n + 1, sizeof *pts);
    pr_buf *marks = pr_xcalloc(n + 1, sizeof *marks);
    for (size_t i = 0; i < n; i++) {
        const pr_pub_row *r = rmodel_pub_row(t, own[i].nodes, own[i].gpus);
        pts[i] = flags_pub_point(f, t, r);
    }
    pr_buf who = PR_BUF_INIT;
    json_t *wv = json_pack("{s:s}", "label", t->label);
    const char *variant = pr_bitext_in(&t->variant, l->code);
    if (variant)
        json_object_set_new(wv, "variant", json_string(variant));
    lang_fmt(l, "fwp_who", wv, &who, err);
    json_decref(wv);
    sn->who = pr_buf_cstr(&who);
    sanity_check_series(l, t->platform, pts, n, marks, sn, err);
    const pr_pub_table *twin = sanity_identical_in(t, f->pubs, f->npubs);
    if (twin)
        sanity_identical_note(l, twin, NULL, sn, err);
    for (size_t k = 0; k < nrows; k++) {
        pr_buf *out = &cells[k];
        const pr_pub_row *r = rmodel_pub_row(t, rows[k].nodes, rows[k].gpus);
        if (!r) {
            pr_buf_puts(out, lang_str(l, "state_none"));
            continue;
        }
        size_t i = 0;
        while (i < n && !(own[i].nodes == r->nodes && own[i].gpus == r->gpus))
            i++;
        if (!r->has_value) {
            pr_buf_puts(out, r->state);
            continue;
        }
        mdtable_pub_value(out, r);
        pr_buf_puts(out, lang_str(l, "published_mark"));
        pr_buf_puts(out, pr_buf_cstr(&marks[i]));
        /* The audit's verdict on the figure against its log, after the
         * flags that travel with the figure. */
        compare_audit_verdict_link(l, audit_item_of_row(w->audit, r), page_rel, out);
        double computed = NAN;
        const pr_run *run, *base_run;
        if (scaling && r != base) {
            pr_buf sp = PR_BUF_INIT;
            if (!base) {
                pr_buf_printf(out, " · %s¹", lang_str(l, "no_baseline"));
                nt->no_baseline = 1;
            } else if (pub_rows_cross(w->audit, f, t, r, base, &run, &base_run)) {
                /* The source's own logs show two of its run sets behind the
                 * figure and its 1-GPU figure (another cluster, another
                 * date): no speedup across them; the note says what differs. */
                json_t *diffs = runset_diff(run, base_run);
                sanity_other_runset_note(l, t->platform, r->nodes, r->gpus,
                                         runset_title(run, l->code),
                                         runset_title(base_run, l->code), diffs, &sp, sn, err);
                json_decref(diffs);
                pr_buf_printf(out, " · %s%s", lang_str(l, "state_other_runset"), pr_buf_cstr(&sp));
            } else if (fw_tables_batch_blocks(f, pub_global_batch(t, r),
                                              pub_global_batch(t, base))) {
                /* A time at another global batch: both figures, no speedup. */
                pr_buf_puts(out, " · ");
                mdtable_pub_value(out, base);
                pr_buf_puts(out, " → ");
                mdtable_pub_value(out, r);
                pr_buf_puts(out, "²");
                nt->batch_differs = 1;
            } else {
                double eff;
                computed =
                    fw_tables_pub_speedup(f->dir, r->value, base->value, base->gpus, r->gpus, &eff);
                pr_buf_puts(out, " · ×");
                md_number(out, computed, PR_DECIMALS_SPEEDUP);
                pr_buf_puts(out, " · ");
                md_number(out, eff, PR_DECIMALS_PERCENT);
                pr_buf_puts(out, "%");
            }
            pr_buf_free(&sp);
        }
        /* The speedup the source printed, as printed (its 1-GPU "1.0" too:
         * what a source printed is kept). */
        if (r->has_speedup) {
            pr_buf s = PR_BUF_INIT;
            md_number(&s, r->speedup, printed_decimals(r->speedup));
            if (!isnan(computed) && speedup_disagrees(r, base)) {
                pr_buf_printf(&s, " %s", lang_str(l, "speedup_flag"));
                nt->speedup_flag = 1;
            }
            json_t *v = json_pack("{s:s}", "speedup", pr_buf_cstr(&s));
            lang_fmt(l, "fwp_printed_speedup", v, out, err);
            json_decref(v);
            pr_buf_free(&s);
        }
        if (!isnan(r->time_to_train_s)) {
            pr_buf_printf(out, " · %s ", lang_str(l, "col_tt"));
            mdtable_value(out, r->time_to_train_s);
        }
        if (!isnan(r->accuracy)) {
            pr_buf_printf(out, " · %s ", lang_str(l, "col_acc"));
            mdtable_value(out, r->accuracy);
        }
    }
    sn->who = NULL;
    pr_buf_free(&who);
    for (size_t i = 0; i < n; i++)
        pr_buf_free(&marks[i]);
    free(marks);
    free(pts);
    free(own);
}

/* Ends a published table: its sanity footnotes (sn, freed here) under it,
 * and what the page's notes must explain (nt). */
static void end_table_notes(pr_buf *out, sanity_notes *sn, view_notes *nt)
{
    nt->published = 1;
    if (sn->notes.len) {
        pr_buf_putc(out, '\n');
        pr_buf_puts(out, pr_buf_cstr(&sn->notes));
        nt->sanity = 1;
    }
    sanity_notes_free(sn);
}

/* The table of entries e[0..n): a row per entry (its configuration's name,
 * its source), a column per device count any of them has. */
static void entries_table(const rmodel_world *w, const lang *l, const rmodel_fw *f, const entry *e,
                          size_t n, const char *page_rel, view_notes *nt, pr_buf *out, pr_err *err)
{
    rmodel_row *rows = NULL;
    size_t nrows = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t r = 0; r < e[i].t->nrows; r++)
            rmodel_row_add(&rows, &nrows, e[i].t->rows[r].nodes, e[i].t->rows[r].gpus);
    pr_qsort(rows, nrows, sizeof *rows, rmodel_row_qsort);
    const pr_platform *p = e[0].t->platform;
    size_t nh = nrows + 2;
    pr_buf *heads = pr_xcalloc(nh, sizeof *heads);
    const char **hs = pr_xcalloc(nh, sizeof *hs);
    size_t k = 0;
    hs[k++] = lang_str(l, "col_config");
    hs[k++] = lang_str(l, "fwp_col_source");
    for (size_t r = 0; r < nrows; r++) {
        platform_count_label(l, p, rows[r].nodes, rows[r].gpus, &heads[k], err);
        hs[k] = pr_buf_cstr(&heads[k]);
        k++;
    }
    mdtable_head(out, hs, nh, 2);
    sanity_notes sn;
    sanity_notes_init(&sn, 1);
    pr_buf *cells = pr_xcalloc(nh, sizeof *cells);
    for (size_t i = 0; i < n; i++) {
        mdtable_cells_clear(cells, nh);
        char *name = config_words_short(l, e[i].c, 1, err);
        md_text(&cells[0], name);
        free(name);
        source_cell(l, e[i].t, e[i].primary, 0, &cells[1], err);
        figure_cells(w, l, f, &e[i], rows, nrows, page_rel, cells + 2, &sn, nt, err);
        mdtable_row(out, cells, nh);
    }
    end_table_notes(out, &sn, nt);
    mdtable_cells_free(cells, nh);
    mdtable_cells_free(heads, nh);
    free(cells);
    free(heads);
    free(hs);
    free(rows);
}

/* c's newest revisions in precedence order: the table its figures come
 * from first, then its cells' others as they rank them, then any left. */
static size_t newest(const rmodel_fw *f, const rmodel_cfg *c, entry *out)
{
    size_t n = 0, nc = 0, cap = f->npubs + 1;
    for (size_t i = 0; i < c->ncells; i++)
        cap += c->cells[i].nalts;
    const pr_pub_table **cand = pr_xcalloc(cap, sizeof *cand);
    cand[nc++] = c->pub;
    for (size_t i = 0; i < c->ncells; i++)
        for (size_t a = 0; a < c->cells[i].nalts; a++)
            cand[nc++] = c->cells[i].alt_tabs[a];
    for (size_t i = 0; i < f->npubs; i++)
        cand[nc++] = f->pubs[i];
    for (size_t i = 0; i < nc; i++) {
        const pr_pub_table *t = cand[i];
        if (!t || !rmodel_pub_of(t, c) || !has_figures(t) || fw_pubtab_is_older(f, c, t))
            continue;
        int seen = 0;
        for (size_t j = 0; j < n && !seen; j++)
            seen = out[j].t == t;
        if (!seen)
            out[n++] = (entry){t, c, 0};
    }
    free(cand);
    if (n > 1 && out[0].t == c->pub)
        out[0].primary = 1;
    return n;
}

void fw_pubtab_platform_table(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                              size_t first, size_t end, const char *page_rel, view_notes *nt,
                              pr_buf *out, pr_err *err)
{
    entry *e = pr_xcalloc(f->npubs * (end - first) + 1, sizeof *e);
    size_t n = 0;
    for (size_t i = first; i < end; i++)
        n += newest(f, &f->cfgs[i], e + n);
    if (n)
        entries_table(w, l, f, e, n, page_rel, nt, out, err);
    free(e);
}

/* By configuration, then newest first (the reader comes from the newest,
 * in the configuration's table). */
static int entry_qsort(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->c != y->c)
        return x->c < y->c ? -1 : 1;
    int d = strcmp(y->t->date, x->t->date);
    if (d)
        return d;
    return x->t < y->t ? -1 : x->t > y->t;
}

/* 1 when a and b are one revision of one source (the same file at the same
 * commit: its URL, else its label, commit and date). */
static int same_revision(const pr_pub_table *a, const pr_pub_table *b)
{
    if (!same_source(a, b))
        return 0;
    if (a->source_url || b->source_url)
        return a->source_url && b->source_url && strcmp(a->source_url, b->source_url) == 0;
    return strcmp(a->date, b->date) == 0 &&
           (a->source_commit ? b->source_commit && strcmp(a->source_commit, b->source_commit) == 0
                             : !b->source_commit);
}

/* One column of the over-time table: a configuration at a device count. */
typedef struct column {
    const rmodel_cfg *c;
    rmodel_row row;
} column;

void fw_pubtab_over_time_table(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                               size_t first, size_t end, const char *page_rel, view_notes *nt,
                               pr_buf *out, pr_err *err)
{
    entry *e = pr_xcalloc(f->npubs * (end - first) + 1, sizeof *e);
    size_t n = 0;
    for (size_t i = first; i < end; i++)
        for (size_t j = 0; j < f->npubs; j++) {
            const pr_pub_table *t = f->pubs[j];
            if (rmodel_pub_of(t, &f->cfgs[i]) && has_figures(t) &&
                fw_pubtab_is_older(f, &f->cfgs[i], t))
                e[n++] = (entry){t, &f->cfgs[i], 0};
        }
    if (!n) {
        free(e);
        return;
    }
    pr_qsort(e, n, sizeof *e, entry_qsort);
    /* Columns: each configuration's device counts its older revisions print. */
    column *cols = NULL;
    size_t ncols = 0, cols_cap = 0;
    for (size_t i = first; i < end; i++) {
        rmodel_row *rows = NULL;
        size_t nrows = 0;
        for (size_t k = 0; k < n; k++)
            for (size_t r = 0; e[k].c == &f->cfgs[i] && r < e[k].t->nrows; r++)
                rmodel_row_add(&rows, &nrows, e[k].t->rows[r].nodes, e[k].t->rows[r].gpus);
        pr_qsort(rows, nrows, sizeof *rows, rmodel_row_qsort);
        for (size_t r = 0; r < nrows; r++)
            *PR_VEC_PUSH(cols, ncols, cols_cap) = (column){&f->cfgs[i], rows[r]};
        free(rows);
    }
    /* Rows: one per revision (the same file at the same commit gives
     * several configurations), newest first. */
    size_t *rev = pr_xcalloc(n + 1, sizeof *rev), nrev = 0;
    int *taken = pr_xcalloc(n + 1, sizeof *taken);
    for (size_t k = 0; k < n; k++)
        if (!taken[k]) {
            rev[nrev++] = k;
            for (size_t m = k; m < n; m++)
                taken[m] |= same_revision(e[k].t, e[m].t);
        }
    for (size_t i = 1; i < nrev; i++)
        for (size_t j = i; j > 0 && strcmp(e[rev[j - 1]].t->date, e[rev[j]].t->date) < 0; j--) {
            size_t t = rev[j];
            rev[j] = rev[j - 1];
            rev[j - 1] = t;
        }
    size_t nh = ncols + 1;
    pr_buf *heads = pr_xcalloc(nh, sizeof *heads);
    const char **hs = pr_xcalloc(nh, sizeof *hs);
    hs[0] = lang_str(l, "fwp_col_revision");
    for (size_t k = 0; k < ncols; k++) {
        char *name = config_words_short(l, cols[k].c, 1, err);
        pr_buf_printf(&heads[k + 1], "%s · ", name);
        free(name);
        platform_count_label(l, cols[k].c->platform, cols[k].row.nodes, cols[k].row.gpus,
                             &heads[k + 1], err);
        hs[k + 1] = pr_buf_cstr(&heads[k + 1]);
    }
    mdtable_head(out, hs, nh, 1);
    sanity_notes sn;
    sanity_notes_init(&sn, 1);
    pr_buf *cells = pr_xcalloc(nh, sizeof *cells);
    for (size_t i = 0; i < nrev; i++) {
        mdtable_cells_clear(cells, nh);
        const entry *head = &e[rev[i]];
        source_cell(l, head->t, 0, 1, &cells[0], err);
        for (size_t k = 0; k < n; k++) {
            if (!same_revision(head->t, e[k].t))
                continue;
            /* What another configuration's table of the revision says
             * otherwise (its variant or note) follows the first's. */
            const char *va = pr_bitext_in(&e[k].t->variant, l->code);
            const char *na = pr_bitext_in(&e[k].t->note, l->code);
            const char *vh = pr_bitext_in(&head->t->variant, l->code);
            const char *nh_ = pr_bitext_in(&head->t->note, l->code);
            if (&e[k] != head &&
                ((va && (!vh || strcmp(va, vh))) || (na && (!nh_ || strcmp(na, nh_))))) {
                char *name = config_words_short(l, e[k].c, 1, err);
                json_t *v = json_pack("{s:s}", "config", name);
                if (va)
                    json_object_set_new(v, "variant", json_string(va));
                if (na)
                    json_object_set_new(v, "note", json_string(na));
                lang_fmt(l, "fwp_revision_other", v, &cells[0], err);
                json_decref(v);
                free(name);
            }
            /* This table's columns. */
            size_t c0 = 0, cn = 0;
            while (c0 < ncols && cols[c0].c != e[k].c)
                c0++;
            while (c0 + cn < ncols && cols[c0 + cn].c == e[k].c)
                cn++;
            rmodel_row *rows = pr_xcalloc(cn + 1, sizeof *rows);
            for (size_t r = 0; r < cn; r++)
                rows[r] = cols[c0 + r].row;
            figure_cells(w, l, f, &e[k], rows, cn, page_rel, cells + 1 + c0, &sn, nt, err);
            free(rows);
        }
        for (size_t k = 1; k < nh; k++)
            if (!cells[k].len)
                pr_buf_puts(&cells[k], lang_str(l, "state_none"));
        mdtable_row(out, cells, nh);
    }
    end_table_notes(out, &sn, nt);
    mdtable_cells_free(cells, nh);
    mdtable_cells_free(heads, nh);
    free(cells);
    free(heads);
    free(hs);
    free(rev);
    free(taken);
    free(cols);
    free(e);
}
