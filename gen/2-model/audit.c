#include "audit.h"

#include <math.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/decl.h"
#include "1-load/fitfile.h"
#include "1-load/pairing.h"
#include "buf.h"
#include "fileio.h"
#include "jdoc.h"
#include "stats.h"

audit_verdict audit_verdict_of(double value, const char *printed)
{
    switch (pr_stats_printed_match(value, printed)) {
    case PR_PRINTED_ROUNDED:
        return AU_REPRODUCED;
    case PR_PRINTED_TRUNCATED:
        return AU_TRUNCATED;
    default:
        return AU_DIFFERS;
    }
}

/* Whether r is the case of t's row: the precision mode t pairs with
 * (pairing.h: the table's own, or the mode of its class its logs ran), or
 * (class_only) another mode of the same precision class. */
static int same_case(const pr_dataset *d, const pr_run *run, const pr_record *r,
                     const pr_pub_table *t, const pr_pub_row *row, int class_only)
{
    int same_mode = strcmp(r->precision, pairing_pub_mode(t)) == 0;
    const pr_prec_class *rc = decl_class_of(&d->decls, r->precision);
    if (class_only && (same_mode || !rc || rc != decl_class_of(&d->decls, t->precision)))
        return 0;
    return (same_mode || class_only) &&
           pairing_pub_row_log(r, data_record_platform(d, run, r), t, row, 0);
}

static int audited(const audit_model *m, const char *repo)
{
    for (size_t i = 0; repo && i < m->nrepos; i++)
        if (strcmp(m->repos[i], repo) == 0)
            return 1;
    return 0;
}

int audit_audited(const audit_model *m, const char *repo)
{
    return audited(m, repo);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The row's printed figure, or its value in the shortest form. */
static const char *row_printed(const pr_pub_row *row, char fallback[64])
{
    if (row->printed)
        return row->printed;
    snprintf(fallback, 64, "%.15g", row->value);
    return fallback;
}

/* How find_log's passes match a record with a published row, in order. */
enum {
    PASS_NAMED, /* its import names the row's figure (its fit report searched for it: the
                 * source links this log from that cell), any mode of the class and any
                 * batch size */
    PASS_MODE,  /* the mode the table pairs with (pairing.h), its batch size */
    PASS_CLASS, /* another mode of the class, its batch size */
    PASS_GIVES, /* another batch size whose log gives the printed figure (a BS=2560 log
                 * under a BS=5120 header) */
    NPASSES
};

static int pass_matches(const pr_dataset *d, const pr_run *run, const pr_record *r,
                        const json_t *fit, const pr_pub_table *t, const pr_pub_row *row, int pass)
{
    char fallback[64];
    const char *printed = row_printed(row, fallback);
    if (pass == PASS_MODE || pass == PASS_CLASS)
        return same_case(d, run, r, t, row, pass == PASS_CLASS);
    const pr_prec_class *rc = decl_class_of(&d->decls, r->precision);
    int in_class =
        rc ? rc == decl_class_of(&d->decls, t->precision) : strcmp(r->precision, t->precision) == 0;
    int fits = in_class && pairing_pub_row_log(r, data_record_platform(d, run, r), t, row, 1);
    if (pass == PASS_NAMED)
        return fits && fit && strcmp(fitfile_figure(fit), printed) == 0;
    return fits && !r->failed && r->batch_size != t->batch_size &&
           audit_verdict_of(r->final_result, printed) != AU_DIFFERS;
}

/* The imported record of the published figure's case (from its source's
 * repository): the passes above, in order; none when no pass finds one. */
static void find_log(const pr_dataset *d, const pr_pub_table *t, const pr_pub_row *row,
                     audit_item *it)
{
    for (int pass = 0; pass < NPASSES; pass++)
        for (size_t i = 0; i < d->nruns; i++)
            for (size_t j = 0; j < d->runs[i].nrecords; j++) {
                const pr_record *r = &d->runs[i].records[j];
                if (!pass_matches(d, &d->runs[i], r, d->runs[i].fits[j], t, row, pass))
                    continue;
                it->run = &d->runs[i];
                it->rec = r;
                it->fit = d->runs[i].fits[j];
                it->other_bs = r->batch_size != t->batch_size;
                it->other_mode = it->other_bs || strcmp(r->precision, t->precision) != 0;
                return;
            }
}

/* A figure the record's own rule does not reproduce is reproduced all the
 * same when a rule of the case's fit search (its report searched for this
 * figure as printed) does: the source's figure is right, and the difference
 * is the rule's, not the source's.  The record keeps its run set's rule
 * (one rule per run set); the audit names the other. */
static void judge(audit_item *it)
{
    char fallback[64];
    const char *printed = row_printed(it->row, fallback);
    if (!it->rec) {
        it->verdict = AU_NO_LOG;
    } else if (it->rec->failed) {
        it->verdict = AU_NO_VALUE;
    } else {
        it->verdict = audit_verdict_of(it->rec->final_result, printed);
        it->diff_pct = 100.0 * (it->rec->final_result - it->row->value) / it->row->value;
    }
    it->own = it->verdict;
    if (it->verdict == AU_REPRODUCED || !it->fit || strcmp(fitfile_figure(it->fit), printed))
        return;
    const json_t *c = json_array_get(json_object_get(it->fit, "reproduced"), 0);
    const json_t *v = json_array_get(json_object_get(c, "values"), 0);
    if (c && json_is_number(v) &&
        audit_verdict_of(json_number_value(v), printed) == AU_REPRODUCED) {
        it->verdict = AU_REPRODUCED;
        it->under = json_object_get(c, "rule");
        it->under_value = json_number_value(v);
    }
}

/* A figure its log does not give whose rule combines one log per worker,
 * of which fewer than its nodes are published, is not reproducible from
 * the logs published, rather than wrong (issue 33 #4). */
static void judge_workers(audit_item *it)
{
    if (!it->rec || (it->verdict != AU_DIFFERS && it->verdict != AU_TRUNCATED))
        return;
    const char *files = json_string_value(json_object_get(it->rec->rule, "files"));
    const json_t *workers = json_object_get(it->rec->stats, "workers");
    int nodes = it->row->nodes > 0 ? it->row->nodes : it->rec->nodes;
    if (!files || strcmp(files, "workers") || !json_is_integer(workers) ||
        json_integer_value(workers) >= nodes)
        return;
    it->verdict = AU_PARTIAL_LOGS;
    it->logs_published = (int)json_integer_value(workers);
    it->logs_needed = nodes;
}

void audit_run_counts(const audit_model *m, const pr_run *run, size_t *own, size_t *under,
                      size_t *n)
{
    *own = *under = *n = 0;
    for (size_t i = 0; i < m->nitems; i++) {
        const audit_item *it = &m->items[i];
        if (it->run != run || it->verdict == AU_NO_LOG)
            continue;
        (*n)++;
        *own += it->own == AU_REPRODUCED;
        *under += it->under != NULL;
    }
}

/* Adds the figures of the audited tables of tabs[0..n) to *items. */
static void add_items(const pr_dataset *d, const audit_model *m, const pr_pub_table *tabs, size_t n,
                      audit_item **items, size_t *nitems)
{
    for (size_t i = 0; i < n; i++) {
        const pr_pub_table *t = &tabs[i];
        if (!audited(m, t->source_repo))
            continue;
        for (size_t k = 0; k < t->nrows; k++) {
            if (!t->rows[k].has_value)
                continue;
            audit_item it;
            memset(&it, 0, sizeof it);
            it.table = t;
            it.row = &t->rows[k];
            find_log(d, t, it.row, &it);
            judge(&it);
            judge_workers(&it);
            *items = pr_xrealloc(*items, (*nitems + 1) * sizeof **items);
            (*items)[(*nitems)++] = it;
        }
    }
}

/* Appends s as an id part: ASCII letters (lower-cased) and digits kept,
 * every other run of bytes one '-'; a '-' before it when lead. */
static void slug(pr_buf *out, const char *s, int lead)
{
    int dash = lead;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')) {
            if (dash)
                pr_buf_putc(out, '-');
            pr_buf_putc(out, c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            dash = 0;
        } else {
            dash = 1;
        }
    }
}

/* Gives each figure of items[0..n) its row's id, from its case (model,
 * framework, platform, precision, batch size, nodes x GPUs); a case two
 * tables print gets -2, -3 in data order. */
static void set_anchors(audit_item *items, size_t n)
{
    pr_buf b = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        const pr_pub_table *t = items[i].table;
        pr_buf_clear(&b);
        pr_buf_puts(&b, "fig");
        slug(&b, t->model, 1);
        slug(&b, t->framework, 1);
        slug(&b, t->platform ? t->platform->id : "unstated", 1);
        slug(&b, t->precision, 1);
        pr_buf_puts(&b, "-bs");
        if (t->batch_label)
            slug(&b, t->batch_label, 0);
        else
            pr_buf_printf(&b, "%d", t->batch_size);
        pr_buf_printf(&b, "-%dx%d", items[i].row->nodes, items[i].row->gpus);
        size_t base = b.len;
        for (int k = 2;; k++) {
            int taken = 0;
            for (size_t j = 0; j < i && !taken; j++)
                taken = strcmp(items[j].anchor, pr_buf_cstr(&b)) == 0;
            if (!taken)
                break;
            pr_buf_truncate(&b, base);
            pr_buf_printf(&b, "-%d", k);
        }
        items[i].anchor = pr_xstrdup(pr_buf_cstr(&b));
    }
    pr_buf_free(&b);
}

const audit_item *audit_item_of_row(const audit_model *m, const pr_pub_row *row)
{
    for (size_t i = 0; m && row && i < m->nitems; i++)
        if (m->items[i].row == row)
            return &m->items[i];
    return NULL;
}

const audit_item *audit_item_of_rec(const audit_model *m, const pr_record *r)
{
    const audit_item *other = NULL;
    for (size_t i = 0; m && r && i < m->nitems; i++) {
        if (m->items[i].rec != r)
            continue;
        if (!m->items[i].other_bs)
            return &m->items[i];
        if (!other)
            other = &m->items[i];
    }
    return other;
}

/* A restated figure's primary: the audited primary table of the same case. */
static void find_primary(const audit_model *m, audit_item *it)
{
    for (size_t i = 0; i < m->nitems; i++) {
        const audit_item *p = &m->items[i];
        const pr_pub_table *a = p->table, *b = it->table;
        if (strcmp(a->model, b->model) == 0 && strcmp(a->framework, b->framework) == 0 &&
            strcmp(a->precision, b->precision) == 0 && a->batch_size == b->batch_size &&
            a->platform == b->platform && p->row->gpus == it->row->gpus &&
            p->row->nodes == it->row->nodes) {
            it->primary = a;
            it->primary_row = p->row;
            return;
        }
    }
}

/* Each fit report must belong to a figure: the one it searched for. */
static int check_fits(const pr_dataset *d, const audit_model *m, pr_err *err)
{
    for (size_t i = 0; i < d->nruns; i++)
        for (size_t j = 0; j < d->runs[i].nrecords; j++) {
            const json_t *fit = d->runs[i].fits[j];
            if (!fit)
                continue;
            const char *fig = fitfile_figure(fit);
            const audit_item *it = NULL;
            for (size_t k = 0; k < m->nitems && !it; k++)
                if (m->items[k].rec == &d->runs[i].records[j])
                    it = &m->items[k];
            const char *file = d->runs[i].record_files[j];
            if (!it)
                return pr_err_set(err, file, 0, 0, "fit",
                                  "the case's fit report (fit/%s.json) searched for %s, but no "
                                  "published table of %s prints this case",
                                  d->runs[i].records[j].case_name, fig,
                                  pr_jdoc_json_str(d->runs[i].records[j].source, "repo"));
            if (!it->row->printed || strcmp(it->row->printed, fig) != 0)
                return pr_err_set(err, file, 0, 0, "fit",
                                  "the case's fit report (fit/%s.json) searched for %s, but %s "
                                  "(table %d) prints %s",
                                  d->runs[i].records[j].case_name, fig, it->table->file,
                                  it->table->index,
                                  it->row->printed ? it->row->printed : "no printed form");
        }
    return 0;
}

/* The pairs of figures whose logs are two records' byte-identical files:
 * sizes first (a stat each), bytes only where two sizes agree. */
static void find_twins(audit_model *m)
{
    char **paths = pr_xcalloc(m->nitems + 1, sizeof *paths);
    off_t *sizes = pr_xcalloc(m->nitems + 1, sizeof *sizes);
    for (size_t i = 0; i < m->nitems; i++) {
        const audit_item *it = &m->items[i];
        struct stat st;
        sizes[i] = -1;
        if (!it->rec || !it->rec->log_file || !it->rec->log_file[0])
            continue;
        paths[i] = pr_fileio_path_join(it->run->dir, it->rec->log_file);
        if (stat(paths[i], &st) == 0 && S_ISREG(st.st_mode))
            sizes[i] = st.st_size;
    }
    for (size_t i = 0; i < m->nitems; i++)
        for (size_t j = i + 1; j < m->nitems; j++)
            if (sizes[i] >= 0 && sizes[i] == sizes[j] && m->items[i].rec != m->items[j].rec &&
                pr_fileio_same_bytes(paths[i], paths[j])) {
                m->twins = pr_xrealloc(m->twins, (m->ntwins + 1) * sizeof *m->twins);
                m->twins[m->ntwins++] = (audit_twin){i, j};
            }
    for (size_t i = 0; i < m->nitems; i++)
        free(paths[i]);
    free(paths);
    free(sizes);
}

int audit_build(const pr_dataset *d, audit_model **out, pr_err *err)
{
    audit_model *m = pr_xcalloc(1, sizeof *m);
    for (size_t i = 0; i < d->nruns; i++)
        for (size_t j = 0; j < d->runs[i].nrecords; j++) {
            const char *repo = pr_jdoc_json_str(d->runs[i].records[j].source, "repo");
            if (repo && !audited(m, repo)) {
                m->repos = pr_xrealloc(m->repos, (m->nrepos + 1) * sizeof *m->repos);
                m->repos[m->nrepos++] = pr_xstrdup(repo);
            }
        }
    pr_qsort(m->repos, m->nrepos, sizeof *m->repos, cmp_str);
    add_items(d, m, d->pubs, d->npubs, &m->items, &m->nitems);
    set_anchors(m->items, m->nitems);
    add_items(d, m, d->restated, d->nrestated, &m->restated, &m->nrestated);
    for (size_t i = 0; i < m->nrestated; i++)
        find_primary(m, &m->restated[i]);
    for (size_t i = 0; i < d->nruns; i++)
        for (size_t j = 0; j < d->runs[i].nrecords; j++) {
            const pr_record *r = &d->runs[i].records[j];
            if (!r->source)
                continue;
            int named = 0;
            for (size_t k = 0; k < m->nitems && !named; k++)
                named = m->items[k].rec == r;
            if (!named) {
                m->orphans = pr_xrealloc(m->orphans, (m->norphans + 1) * sizeof *m->orphans);
                m->orphans[m->norphans++] = (audit_log){&d->runs[i], r};
            }
        }
    if (check_fits(d, m, err) < 0) {
        audit_free(m);
        return -1;
    }
    find_twins(m);
    *out = m;
    return 0;
}

void audit_free(audit_model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nrepos; i++)
        free(m->repos[i]);
    free(m->repos);
    for (size_t i = 0; i < m->nitems; i++)
        free(m->items[i].anchor);
    free(m->items);
    free(m->orphans);
    free(m->restated);
    free(m->twins);
    free(m);
}

char *audit_run_importer(const pr_run *run)
{
    char *path = pr_fileio_path_join(run->dir, "SOURCE.md");
    pr_buf text = PR_BUF_INIT;
    pr_err ignored;
    char *found = NULL;
    if (pr_fileio_read_file(path, &text, &ignored) == 0) {
        /* Code spans of one backtick, on one line. */
        const char *p = pr_buf_cstr(&text);
        while (!found && (p = strchr(p, '`')) != NULL) {
            const char *end = strchr(p + 1, '`');
            if (!end)
                break;
            size_t n = (size_t)(end - p - 1);
            if (n > 8 && strncmp(p + 1, "scripts/", 8) == 0 && !memchr(p + 1, '\n', n) &&
                !memchr(p + 1, ' ', n))
                found = pr_xstrndup(p + 1, n);
            /* What `perfrepro-measure import` writes: the command with its manifest. */
            static const char cmd[] = "perfrepro-measure import ";
            if (n > sizeof cmd - 1 && strncmp(p + 1, cmd, sizeof cmd - 1) == 0 &&
                !memchr(p + 1, '\n', n))
                found = pr_xstrndup(p + 1, n);
            p = end + 1;
        }
    }
    pr_buf_free(&text);
    free(path);
    return found;
}

void audit_item_verdict_words(const audit_item *it, pr_buf *out)
{
    static const char *const words[AU_NVERDICTS] = {"reproduced", "truncated", "differs",
                                                    "no_value",   "no_log",    "partial_logs"};
    /* The audit's own distinction: reproduced, but by a rule of the fit
     * search and not the run set's (the page names that rule). */
    if (it->verdict == AU_REPRODUCED && it->under)
        pr_buf_puts(out, "reproduced_under_other_rule");
    else
        pr_buf_puts(out, words[it->verdict]);
}
