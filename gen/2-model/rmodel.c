/* rmodel: the report model: records grouped, each page's rows, date and headline; paths. */
#include "rmodel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "1-load/pairing.h"
#include "1-load/runset.h"
#include "buf.h"
#include "fileio.h"
#include "flags.h"
#include "rmodel_int.h"

/* ---------------------------------------------------------------- grouping */

static int precision_rank(const char *p)
{
    for (int i = 0; pr_precisions[i]; i++)
        if (strcmp(pr_precisions[i], p) == 0)
            return i;
    return 99;
}

/* Platforms in data order (one array, sorted by id); no platform last. */
static int platform_cmp(const pr_platform *a, const pr_platform *b)
{
    if (a == b)
        return 0;
    if (!a || !b)
        return a ? -1 : 1;
    return a < b ? -1 : 1;
}

static int cfg_cmp(const rmodel_cfg *a, const rmodel_cfg *b)
{
    int d = platform_cmp(a->platform, b->platform);
    if (d)
        return d;
    d = precision_rank(a->precision) - precision_rank(b->precision);
    if (d)
        return d;
    if (a->bs != b->bs)
        return a->bs - b->bs;
    return strcmp(a->batch_label ? a->batch_label : "", b->batch_label ? b->batch_label : "");
}

static int cfg_qsort(const void *a, const void *b)
{
    return cfg_cmp(a, b);
}

/* Adds a configuration to *cfgs (malloc'd, the caller's) unless it is
 * there; the first label given is kept. */
static void cfg_add(const rmodel_world *w, rmodel_cfg **cfgs, size_t *n,
                    const pr_platform *platform, const char *precision, int bs, const char *label)
{
    rmodel_cfg c = {.platform = platform,
                    .klass = decl_class_of(&w->d->decls, precision),
                    .precision = precision,
                    .bs = bs,
                    .batch_label = label};
    for (size_t i = 0; i < *n; i++)
        if ((*cfgs)[i].platform == platform && strcmp((*cfgs)[i].precision, precision) == 0 &&
            (*cfgs)[i].bs == bs) {
            if (!(*cfgs)[i].batch_label)
                (*cfgs)[i].batch_label = label;
            return;
        }
    *cfgs = pr_xrealloc(*cfgs, (*n + 1) * sizeof **cfgs);
    (*cfgs)[(*n)++] = c;
}

/* f's configuration platform × precision × bs; NULL when none. */
rmodel_cfg *rmodel_find_cfg(const rmodel_fw *f, const pr_platform *platform, const char *precision,
                            int bs)
{
    for (size_t i = 0; i < f->ncfgs; i++)
        if (f->cfgs[i].platform == platform && strcmp(f->cfgs[i].precision, precision) == 0 &&
            f->cfgs[i].bs == bs)
            return &f->cfgs[i];
    return NULL;
}

int rmodel_pub_of(const pr_pub_table *t, const rmodel_cfg *c)
{
    return t->platform == c->platform && strcmp(pairing_pub_mode(t), c->precision) == 0 &&
           t->batch_size == c->bs;
}

/* The platform a suite plans its cases on (NULL when it does not say). */
const pr_platform *rmodel_suite_platform(const rmodel_world *w, const pr_suite *s)
{
    return s->platform ? platform_find(&w->d->platforms, s->platform) : NULL;
}

static rmodel_model *get_model(rmodel_world *w, const char *id, const char *title)
{
    for (size_t i = 0; i < w->nmodels; i++)
        if (strcmp(w->models[i]->id, id) == 0) {
            if (title && strcmp(w->models[i]->title, w->models[i]->id) == 0)
                w->models[i]->title = title;
            return w->models[i];
        }
    rmodel_model *m = pr_xcalloc(1, sizeof *m);
    m->id = id;
    m->title = title ? title : id;
    w->models = pr_xrealloc(w->models, (w->nmodels + 1) * sizeof *w->models);
    w->models[w->nmodels++] = m;
    return m;
}

static rmodel_fw *get_fw(rmodel_model *m, const char *id, const char *title)
{
    for (size_t i = 0; i < m->nfws; i++)
        if (strcmp(m->fws[i]->framework, id) == 0) {
            if (title && strcmp(m->fws[i]->framework_title, id) == 0)
                m->fws[i]->framework_title = title;
            return m->fws[i];
        }
    rmodel_fw *f = pr_xcalloc(1, sizeof *f);
    f->model = m->id;
    f->framework = id;
    f->framework_title = title ? title : id;
    m->fws = pr_xrealloc(m->fws, (m->nfws + 1) * sizeof *m->fws);
    m->fws[m->nfws++] = f;
    return f;
}

static int model_qsort(const void *a, const void *b)
{
    return strcmp((*(rmodel_model *const *)a)->id, (*(rmodel_model *const *)b)->id);
}

/* Whether an array of n grown by room_full's rule (room for 1, 2, 4, ...)
 * is full: a power of two or 0.  Its records grow by doubling without a
 * capacity field, where growing by one realloc'ed per record (issue 31 #17). */
static int room_full(size_t n)
{
    return (n & (n - 1)) == 0;
}

/* Groups the dataset by model and framework.  Frameworks keep the order in
 * which the data first names them (published tables first), so tables read
 * as their sources laid them out. */
static void group(rmodel_world *w)
{
    const pr_dataset *d = w->d;
    for (size_t i = 0; i < d->npubs; i++) {
        const pr_pub_table *t = &d->pubs[i];
        rmodel_model *m = get_model(w, t->model, t->model_title);
        rmodel_fw *f = get_fw(m, t->framework, t->framework_title);
        f->model_title = m->title;
        if (!f->unit)
            f->unit = t->unit;
        f->pubs = pr_xrealloc(f->pubs, (f->npubs + 1) * sizeof *f->pubs);
        f->pubs[f->npubs++] = t;
        cfg_add(w, &f->cfgs, &f->ncfgs, t->platform, pairing_pub_mode(t), t->batch_size,
                t->batch_label);
    }
    for (size_t i = 0; i < d->nsuites; i++) {
        const pr_suite *s = d->suites[i];
        rmodel_model *m = get_model(w, s->model, s->model_title);
        rmodel_fw *f = get_fw(m, s->framework, s->framework_title);
        f->suite = s;
        f->unit = s->unit;
        for (size_t c = 0; c < s->ncases; c++)
            cfg_add(w, &f->cfgs, &f->ncfgs, rmodel_suite_platform(w, s), s->cases[c].precision,
                    s->cases[c].batch_size, NULL);
    }
    /* A run set's records come by model and framework: the last pair is
     * tried first, where a search per record was records × models (issue 31
     * #17; with no title, get_model and get_fw only find). */
    rmodel_model *m = NULL;
    rmodel_fw *f = NULL;
    for (size_t i = 0; i < d->nruns; i++)
        /* An A/B side is shown by its comparison only (runset.h). */
        for (size_t j = 0; !runset_is_experiment(&d->runs[i]) && j < d->runs[i].nrecords; j++) {
            const pr_record *r = &d->runs[i].records[j];
            if (!m || strcmp(m->id, r->model) != 0) {
                m = get_model(w, r->model, NULL);
                f = NULL;
            }
            if (!f || strcmp(f->framework, r->framework) != 0)
                f = get_fw(m, r->framework, NULL);
            if (!f->unit)
                f->unit = r->unit;
            const pr_platform *plat = data_record_platform(d, &d->runs[i], r);
            if (room_full(f->nrecs)) {
                size_t cap = f->nrecs ? 2 * f->nrecs : 1;
                f->recs = pr_xrealloc(f->recs, cap * sizeof *f->recs);
                f->runs = pr_xrealloc(f->runs, cap * sizeof *f->runs);
                f->rec_plats = pr_xrealloc(f->rec_plats, cap * sizeof *f->rec_plats);
            }
            f->recs[f->nrecs] = r;
            f->rec_plats[f->nrecs] = plat;
            f->runs[f->nrecs++] = &d->runs[i];
            if (strcmp(r->origin, "parsed") == 0)
                f->n_imported++;
            else
                f->n_measured++;
            cfg_add(w, &f->cfgs, &f->ncfgs, plat, r->precision, r->batch_size, NULL);
        }
    pr_qsort(w->models, w->nmodels, sizeof *w->models, model_qsort);
    for (size_t i = 0; i < w->nmodels; i++)
        for (size_t j = 0; j < w->models[i]->nfws; j++) {
            rmodel_fw *f = w->models[i]->fws[j];
            f->model_title = w->models[i]->title;
            if (!f->unit)
                f->unit = "samples/s";
            f->dir = pr_unitdir_of(f->unit);
            pr_qsort(f->cfgs, f->ncfgs, sizeof *f->cfgs, cfg_qsort);
            for (size_t k = 0; k < f->ncfgs; k++)
                f->cfgs[k].hardware = f->suite && f->suite->hardware;
        }
}

/* ---------------------------------------------------------------- rows */

int rmodel_row_qsort(const void *a, const void *b)
{
    const rmodel_row *x = a, *y = b;
    return x->gpus != y->gpus ? x->gpus - y->gpus : x->nodes - y->nodes;
}

void rmodel_row_add(rmodel_row **rows, size_t *n, int nodes, int gpus)
{
    for (size_t i = 0; i < *n; i++)
        if ((*rows)[i].nodes == nodes && (*rows)[i].gpus == gpus)
            return;
    *rows = pr_xrealloc(*rows, (*n + 1) * sizeof **rows);
    (*rows)[*n].nodes = nodes;
    (*rows)[(*n)++].gpus = gpus;
}

/* The rows of every configuration of f (the summary table's). */
static void build_rows(rmodel_fw *f)
{
    for (size_t i = 0; i < f->ncfgs; i++)
        for (size_t r = 0; r < f->cfgs[i].ncells; r++)
            rmodel_row_add(&f->rows, &f->nrows, f->cfgs[i].cells[r].nodes,
                           f->cfgs[i].cells[r].gpus);
    pr_qsort(f->rows, f->nrows, sizeof *f->rows, rmodel_row_qsort);
}

/* Widens the span [first, last] (YYYY-MM-DD each, "" when empty) to hold
 * date (its first 10 characters; NULL or shorter: nothing). */
static void span_add(char first[11], char last[11], const char *date)
{
    if (!date || strlen(date) < 10)
        return;
    if (!first[0] || strncmp(date, first, 10) < 0)
        snprintf(first, 11, "%.10s", date);
    if (!last[0] || strncmp(date, last, 10) > 0)
        snprintf(last, 11, "%.10s", date);
}

/* The dates of the data behind a framework, each kind on its own: the run
 * sets' spans (a record's start date where its run set states none), and
 * the published sources' dates.  A published source's date says when a
 * table was printed, not when the logs ran, so the two are never merged
 * (issue 30, item 7). */
static void build_date(rmodel_fw *f)
{
    for (size_t i = 0; i < f->nrecs; i++) {
        if (runset_first_date(f->runs[i])[0]) {
            span_add(f->run_first, f->run_last, runset_first_date(f->runs[i]));
            span_add(f->run_first, f->run_last, runset_last_date(f->runs[i]));
        } else {
            span_add(f->run_first, f->run_last, f->recs[i]->started_at);
        }
    }
    for (size_t i = 0; i < f->npubs; i++)
        span_add(f->pub_first, f->pub_last, f->pubs[i]->date);
}

/* The headline of a framework: its figure at the largest GPU count, in the
 * configuration where that figure is best (the lowest time to train, the
 * highest throughput); measured figures first, then published ones. */
static void build_headline(rmodel_fw *f)
{
    for (int want_measured = 1; want_measured >= 0; want_measured--) {
        const rmodel_cfg *best_c = NULL;
        const rmodel_cell *best = NULL;
        double best_v = -1;
        for (size_t i = 0; i < f->ncfgs; i++)
            for (size_t r = 0; r < f->cfgs[i].ncells; r++) {
                const rmodel_cell *rc = &f->cfgs[i].cells[r];
                double v = want_measured && rc->n_ok                         ? rc->median
                           : !want_measured && rc->pub && rc->pub->has_value ? rc->pub->value
                                                                             : NAN;
                if (isnan(v))
                    continue;
                if (!best_c || rc->gpus > best->gpus ||
                    (rc->gpus == best->gpus && pr_unitdir_better(f->dir, v, best_v))) {
                    best_c = &f->cfgs[i];
                    best = rc;
                    best_v = v;
                }
            }
        if (best_c) {
            f->head_cfg = best_c;
            f->head_cell = best;
            f->head_value = best_v;
            f->head_measured = want_measured;
            return;
        }
    }
}

/* 1 when framework configuration c belongs to model configuration k. */
static int mcfg_has(const rmodel_cfg *k, const rmodel_cfg *c)
{
    return c->platform == k->platform && c->klass == k->klass && c->bs == k->bs;
}

/* The configuration of f a model configuration k shows: within the class,
 * the one with runs of its own (measured or imported), else the first. */
static const rmodel_cfg *column_cfg(const rmodel_fw *f, const rmodel_cfg *k)
{
    const rmodel_cfg *first = NULL;
    for (size_t i = 0; i < f->ncfgs; i++) {
        const rmodel_cfg *c = &f->cfgs[i];
        if (!mcfg_has(k, c))
            continue;
        if (c->has_repro && f->nrecs)
            for (size_t r = 0; r < c->ncells; r++)
                if (c->cells[r].n_ok)
                    return c;
        if (!first)
            first = c;
    }
    return first;
}

/* The model page's configurations: one per platform × precision class ×
 * batch size that any framework has on a known platform, each with the
 * frameworks that have it and the union of their rows. */
static void build_model_cfgs(const rmodel_world *w, rmodel_model *m)
{
    rmodel_cfg *all = NULL;
    size_t n = 0;
    for (size_t i = 0; i < m->nfws; i++)
        for (size_t j = 0; j < m->fws[i]->ncfgs; j++) {
            const rmodel_cfg *c = &m->fws[i]->cfgs[j];
            int seen = 0;
            for (size_t k = 0; k < n && !seen; k++)
                seen = mcfg_has(&all[k], c);
            if (seen || !c->platform)
                continue;
            cfg_add(w, &all, &n, c->platform, c->klass->modes[0], c->bs, c->batch_label);
            all[n - 1].precision = c->precision;
            all[n - 1].hardware = c->hardware;
        }
    pr_qsort(all, n, sizeof *all, cfg_qsort);
    m->cfgs = pr_xcalloc(n + 1, sizeof *m->cfgs);
    m->ncfgs = n;
    for (size_t k = 0; k < n; k++) {
        rmodel_mcfg *mc = &m->cfgs[k];
        mc->cfg = all[k];
        mc->fws = pr_xcalloc(m->nfws + 1, sizeof *mc->fws);
        mc->fcfgs = pr_xcalloc(m->nfws + 1, sizeof *mc->fcfgs);
        for (size_t i = 0; i < m->nfws; i++) {
            const rmodel_cfg *fc = column_cfg(m->fws[i], &all[k]);
            if (!fc)
                continue;
            mc->fws[mc->ncols] = m->fws[i];
            mc->fcfgs[mc->ncols++] = fc;
            /* A cell with nothing to show (a row only another source of the
             * cell has) would make a row of dashes. */
            for (size_t r = 0; r < fc->ncells; r++)
                if (fc->cells[r].origin != RM_NONE)
                    rmodel_row_add(&mc->rows, &mc->nrows, fc->cells[r].nodes, fc->cells[r].gpus);
        }
        pr_qsort(mc->rows, mc->nrows, sizeof *mc->rows, rmodel_row_qsort);
    }
    free(all);
}

/* ---------------------------------------------------------------- paths */

static char *abs_normalised(const char *p)
{
    pr_buf b = PR_BUF_INIT;
    if (p[0] != '/') {
        char cwd[4096];
        if (!getcwd(cwd, sizeof cwd))
            strcpy(cwd, "/");
        pr_buf_puts(&b, cwd);
    }
    pr_buf_putc(&b, '/');
    pr_buf_puts(&b, p);
    /* Lexical normalisation: drop "." and empty parts, resolve "..". */
    char *src = pr_buf_detach(&b);
    char **parts = pr_xmalloc((strlen(src) + 1) * sizeof *parts);
    size_t n = 0;
    for (char *save = NULL, *t = strtok_r(src, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
        if (strcmp(t, ".") == 0)
            continue;
        if (strcmp(t, "..") == 0) {
            if (n)
                n--;
            continue;
        }
        parts[n++] = t;
    }
    for (size_t i = 0; i < n; i++)
        pr_buf_printf(&b, "/%s", parts[i]);
    if (!n)
        pr_buf_putc(&b, '/');
    free(parts);
    free(src);
    return pr_buf_detach(&b);
}

char *rmodel_link_to(const rmodel_world *w, const char *page_rel, const char *file)
{
    char *from = page_rel[0] ? pr_fileio_path_join(w->out_abs, page_rel) : pr_xstrdup(w->out_abs);
    char *to = abs_normalised(file);
    char *rel = pr_fileio_path_relative(from, to);
    free(from);
    free(to);
    return rel;
}

const char *rmodel_log_path(const rmodel_world *w, const pr_run *run, const pr_record *r)
{
    /* A record's log is linked from several cells and pages: its path from
     * the output root is computed once. */
    size_t ri = (size_t)(run - w->d->runs), rj = (size_t)(r - run->records);
    pthread_mutex_t *lock = (pthread_mutex_t *)&w->log_lock; /* the cache, not the world */
    pthread_mutex_lock(lock);
    if (!w->log_rel[ri])
        w->log_rel[ri] = pr_xcalloc(run->nrecords + 1, sizeof **w->log_rel);
    if (!w->log_rel[ri][rj]) {
        /* log_file is a checked relative path without "..": joining keeps
         * the absolute run folder normalised. */
        char *file = pr_fileio_path_join(w->run_abs[ri], r->log_file);
        w->log_rel[ri][rj] = pr_fileio_path_relative(w->out_abs, file);
        free(file);
    }
    const char *rel = w->log_rel[ri][rj];
    pthread_mutex_unlock(lock);
    return rel;
}

/* ---------------------------------------------------------------- world */

const rmodel_fw *rmodel_find_fw(const rmodel_world *w, const char *model_id, const char *fw_id)
{
    for (size_t i = 0; i < w->nmodels; i++)
        if (strcmp(w->models[i]->id, model_id) == 0)
            for (size_t j = 0; j < w->models[i]->nfws; j++)
                if (strcmp(w->models[i]->fws[j]->framework, fw_id) == 0)
                    return w->models[i]->fws[j];
    return NULL;
}

rmodel_world *rmodel_build(const pr_dataset *d, const char *out_dir)
{
    rmodel_world *w = pr_xcalloc(1, sizeof *w);
    w->d = d;
    w->out_abs = abs_normalised(out_dir);
    w->run_abs = pr_xcalloc(d->nruns + 1, sizeof *w->run_abs);
    w->log_rel = pr_xcalloc(d->nruns + 1, sizeof *w->log_rel);
    pthread_mutex_init(&w->log_lock, NULL);
    w->stats_doc = pr_fileio_path_join(d->dir, "../docs/statistics.md");
    if (access(w->stats_doc, R_OK) != 0) {
        free(w->stats_doc);
        w->stats_doc = NULL;
    }
    for (size_t i = 0; i < d->nruns; i++)
        w->run_abs[i] = abs_normalised(d->runs[i].dir);
    group(w);
    for (size_t i = 0; i < w->nmodels; i++) {
        rmodel_model *m = w->models[i];
        for (size_t j = 0; j < m->nfws; j++) {
            rmodel_build_cells(w, m->fws[j]);
            build_rows(m->fws[j]);
            build_date(m->fws[j]);
            build_headline(m->fws[j]);
        }
        build_model_cfgs(w, m);
    }
    /* Once every cell stands for its figure: which figures are flagged. */
    flags_world(w);
    return w;
}

void rmodel_free(rmodel_world *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->nmodels; i++) {
        rmodel_model *m = w->models[i];
        for (size_t j = 0; j < m->nfws; j++) {
            rmodel_fw *f = m->fws[j];
            for (size_t k = 0; k < f->ncfgs; k++) {
                for (size_t r = 0; r < f->cfgs[k].ncells; r++) {
                    free(f->cfgs[k].cells[r].alt_tabs);
                    free(f->cfgs[k].cells[r].alt_rows);
                }
                free(f->cfgs[k].cells);
            }
            free(f->recs);
            free(f->rec_plats);
            free(f->runs);
            free(f->pubs);
            free(f->cfgs);
            free(f->rows);
            free(f->cell_recs);
            free(f->cell_runs);
            free(f);
        }
        for (size_t k = 0; k < m->ncfgs; k++) {
            free(m->cfgs[k].fws);
            free(m->cfgs[k].fcfgs);
            free(m->cfgs[k].rows);
        }
        free(m->cfgs);
        free(m->fws);
        free(m);
    }
    free(w->models);
    free(w->out_abs);
    for (size_t i = 0; w->run_abs && i < w->d->nruns; i++) {
        free(w->run_abs[i]);
        for (size_t j = 0; w->log_rel[i] && j < w->d->runs[i].nrecords; j++)
            free(w->log_rel[i][j]);
        free(w->log_rel[i]);
    }
    free(w->run_abs);
    free(w->log_rel);
    pthread_mutex_destroy(&w->log_lock);
    free(w->stats_doc);
    free(w);
}
