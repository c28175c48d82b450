#include "report.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chart.h"
#include "fileio.h"
#include "jdoc.h"
#include "md.h"
#include "mustache.h"
#include "sweep.h"

/* ---------------------------------------------------------------- model */

typedef struct cfg {
    const char *precision;
    int bs;
    const char *batch_label; /* display only; may be NULL */
} cfg;

typedef struct fw {
    const char *model, *framework, *model_title, *framework_title, *unit;
    const pr_suite *suite;
    const pr_record **recs;
    const pr_run **runs;
    size_t nrecs;
    const pr_pub_table **pubs;
    size_t npubs;
    cfg *cfgs;
    size_t ncfgs;
} fw;

typedef struct model {
    const char *id, *title;
    fw **fws;
    size_t nfws;
} model;

typedef struct world {
    const pr_dataset *d;
    const pr_report_opts *o;
    model **models;
    size_t nmodels;
    char *out_abs;
    char **run_abs; /* absolute folder of each run, by index in d->runs */
    char ***log_rel; /* each record's log relative to out_abs, by run and record; lazy */
} world;

/* One language's templates and strings. */
typedef struct lang {
    const char *code;     /* "zh" or "en" */
    const char *readme;   /* README.md or README.en.md */
    const char *other_readme;
    char *dir;            /* templates/<code> */
    json_t *strings;      /* strings.json */
    pr_mustache_tmpl **compiled; /* strings, by index in string_keys, parsed once */
    json_t *index;               /* key -> its index in string_keys (a hash lookup) */
    pr_mustache_tmpl *pages[4];  /* page templates, by index in page_names */
} lang;

static const char *const page_names[] = {"index", "model", "framework", "bench"};

static int precision_rank(const char *p)
{
    for (int i = 0; pr_precisions[i]; i++)
        if (strcmp(pr_precisions[i], p) == 0)
            return i;
    return 99;
}

static int cfg_cmp(const cfg *a, const cfg *b)
{
    int d = precision_rank(a->precision) - precision_rank(b->precision);
    if (d)
        return d;
    if (a->bs != b->bs)
        return a->bs - b->bs;
    return strcmp(a->batch_label ? a->batch_label : "", b->batch_label ? b->batch_label : "");
}

static int cfg_qsort(const void *a, const void *b) { return cfg_cmp(a, b); }

static void add_cfg(fw *f, const char *precision, int bs, const char *label)
{
    cfg c = {precision, bs, label};
    for (size_t i = 0; i < f->ncfgs; i++)
        if (strcmp(f->cfgs[i].precision, precision) == 0 && f->cfgs[i].bs == bs) {
            if (!f->cfgs[i].batch_label)
                f->cfgs[i].batch_label = label;
            return;
        }
    f->cfgs = pr_xrealloc(f->cfgs, (f->ncfgs + 1) * sizeof *f->cfgs);
    f->cfgs[f->ncfgs++] = c;
}

static model *get_model(world *w, const char *id, const char *title)
{
    for (size_t i = 0; i < w->nmodels; i++)
        if (strcmp(w->models[i]->id, id) == 0) {
            if (title && strcmp(w->models[i]->title, w->models[i]->id) == 0)
                w->models[i]->title = title;
            return w->models[i];
        }
    model *m = pr_xcalloc(1, sizeof *m);
    m->id = id;
    m->title = title ? title : id;
    w->models = pr_xrealloc(w->models, (w->nmodels + 1) * sizeof *w->models);
    w->models[w->nmodels++] = m;
    return m;
}

static fw *get_fw(model *m, const char *id, const char *title)
{
    for (size_t i = 0; i < m->nfws; i++)
        if (strcmp(m->fws[i]->framework, id) == 0) {
            if (title && strcmp(m->fws[i]->framework_title, id) == 0)
                m->fws[i]->framework_title = title;
            return m->fws[i];
        }
    fw *f = pr_xcalloc(1, sizeof *f);
    f->model = m->id;
    f->framework = id;
    f->framework_title = title ? title : id;
    m->fws = pr_xrealloc(m->fws, (m->nfws + 1) * sizeof *m->fws);
    m->fws[m->nfws++] = f;
    return f;
}

static int model_qsort(const void *a, const void *b)
{
    return strcmp((*(model *const *)a)->id, (*(model *const *)b)->id);
}

/* Groups the dataset by model and framework.  Frameworks keep the order in
 * which the data first names them (published tables first), so tables read
 * as their sources laid them out. */
static void build_world(world *w)
{
    const pr_dataset *d = w->d;
    for (size_t i = 0; i < d->npubs; i++) {
        const pr_pub_table *t = &d->pubs[i];
        model *m = get_model(w, t->model, t->model_title);
        fw *f = get_fw(m, t->framework, t->framework_title);
        f->model_title = m->title;
        if (!f->unit)
            f->unit = t->unit;
        f->pubs = pr_xrealloc(f->pubs, (f->npubs + 1) * sizeof *f->pubs);
        f->pubs[f->npubs++] = t;
        add_cfg(f, t->precision, t->batch_size, t->batch_label);
    }
    for (size_t i = 0; i < d->nsuites; i++) {
        const pr_suite *s = d->suites[i];
        model *m = get_model(w, s->model, s->model_title);
        fw *f = get_fw(m, s->framework, s->framework_title);
        f->suite = s;
        f->unit = s->unit;
        for (size_t c = 0; c < s->ncases; c++)
            add_cfg(f, s->cases[c].precision, s->cases[c].batch_size, NULL);
    }
    for (size_t i = 0; i < d->nruns; i++)
        for (size_t j = 0; j < d->runs[i].nrecords; j++) {
            const pr_record *r = &d->runs[i].records[j];
            model *m = get_model(w, r->model, NULL);
            fw *f = get_fw(m, r->framework, NULL);
            if (!f->unit)
                f->unit = r->unit;
            f->recs = pr_xrealloc(f->recs, (f->nrecs + 1) * sizeof *f->recs);
            f->runs = pr_xrealloc(f->runs, (f->nrecs + 1) * sizeof *f->runs);
            f->recs[f->nrecs] = r;
            f->runs[f->nrecs++] = &d->runs[i];
            add_cfg(f, r->precision, r->batch_size, NULL);
        }
    qsort(w->models, w->nmodels, sizeof *w->models, model_qsort);
    for (size_t i = 0; i < w->nmodels; i++)
        for (size_t j = 0; j < w->models[i]->nfws; j++) {
            fw *f = w->models[i]->fws[j];
            f->model_title = w->models[i]->title;
            if (!f->unit)
                f->unit = "samples/s";
            qsort(f->cfgs, f->ncfgs, sizeof *f->cfgs, cfg_qsort);
        }
}

static void free_world(world *w)
{
    for (size_t i = 0; i < w->nmodels; i++) {
        model *m = w->models[i];
        for (size_t j = 0; j < m->nfws; j++) {
            fw *f = m->fws[j];
            free(f->recs);
            free(f->runs);
            free(f->pubs);
            free(f->cfgs);
            free(f);
        }
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
}

/* ---------------------------------------------------------------- figures */

typedef struct row {
    int nodes, gpus;
} row;

/* What perfrepro measured for one case (all its repeats). */
typedef struct repro {
    size_t n_total, n_ok;
    double median, min, max;
    const pr_record *link_rec; /* the repeat whose log backs the median */
    const pr_run *link_run;
    const pr_record *fail_rec; /* the first failure */
    const pr_run *fail_run;
    int planned;               /* the suite's matrix has the case */
    double tt, acc;            /* NAN when not recorded */
} repro;

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_sorted(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double metric(const pr_record *r, const char *key)
{
    json_t *v = r->metrics ? json_object_get(r->metrics, key) : NULL;
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void repro_cell(const fw *f, const cfg *c, int nodes, int gpus, repro *out)
{
    memset(out, 0, sizeof *out);
    out->tt = out->acc = NAN;
    size_t cap = 16;
    double *vals = pr_xmalloc(cap * sizeof *vals);
    for (size_t i = 0; i < f->nrecs; i++) {
        const pr_record *r = f->recs[i];
        if (strcmp(r->precision, c->precision) || r->batch_size != c->bs || r->nodes != nodes ||
            r->gpu_num != gpus)
            continue;
        out->n_total++;
        if (r->failed) {
            if (!out->fail_rec || r->repeat < out->fail_rec->repeat) {
                out->fail_rec = r;
                out->fail_run = f->runs[i];
            }
            continue;
        }
        /* A record of several runs (parse of several logs) counts each run:
         * its stats.per_run are the runs' figures, FINAL_RESULT their median. */
        json_t *per_run = r->stats ? json_object_get(r->stats, "per_run") : NULL;
        size_t nrun = json_array_size(per_run);
        for (size_t k = 0; k < nrun; k++)
            if (!json_is_number(json_array_get(per_run, k)))
                nrun = 0;
        if (out->n_ok + nrun + 1 > cap)
            vals = pr_xrealloc(vals, (cap = 2 * (out->n_ok + nrun + 1)) * sizeof *vals);
        if (nrun > 1) {
            for (size_t k = 0; k < nrun; k++)
                vals[out->n_ok++] = json_number_value(json_array_get(per_run, k));
            out->n_total += nrun - 1;
        } else {
            vals[out->n_ok++] = r->final_result;
        }
    }
    if (out->n_ok) {
        qsort(vals, out->n_ok, sizeof *vals, dbl_cmp);
        out->median = median_sorted(vals, out->n_ok);
        out->min = vals[0];
        out->max = vals[out->n_ok - 1];
        /* Link the repeat closest to the median (lowest repeat on ties). */
        double best = INFINITY;
        for (size_t i = 0; i < f->nrecs; i++) {
            const pr_record *r = f->recs[i];
            if (r->failed || strcmp(r->precision, c->precision) || r->batch_size != c->bs ||
                r->nodes != nodes || r->gpu_num != gpus)
                continue;
            double dist = fabs(r->final_result - out->median);
            if (dist < best || (dist == best && r->repeat < out->link_rec->repeat)) {
                best = dist;
                out->link_rec = r;
                out->link_run = f->runs[i];
            }
        }
        out->tt = metric(out->link_rec, "time_to_train_s");
        out->acc = metric(out->link_rec, "accuracy");
    }
    free(vals);
    if (f->suite)
        for (size_t i = 0; i < f->suite->ncases; i++) {
            const pr_case *k = &f->suite->cases[i];
            if (strcmp(k->precision, c->precision) == 0 && k->batch_size == c->bs &&
                k->nodes == nodes && k->gpus == gpus)
                out->planned = 1;
        }
}

/* The published table reproduced figures are compared with for c. */
static const pr_pub_table *primary_pub(const fw *f, const cfg *c)
{
    const pr_pub_table *first = NULL;
    for (size_t i = 0; i < f->npubs; i++) {
        const pr_pub_table *t = f->pubs[i];
        if (strcmp(t->precision, c->precision) || t->batch_size != c->bs)
            continue;
        if (t->primary)
            return t;
        if (!first)
            first = t;
    }
    return first;
}

static const pr_pub_row *pub_row(const pr_pub_table *t, int nodes, int gpus)
{
    for (size_t i = 0; t && i < t->nrows; i++)
        if (t->rows[i].nodes == nodes && t->rows[i].gpus == gpus)
            return &t->rows[i];
    return NULL;
}

static int row_cmp(const void *a, const void *b)
{
    const row *x = a, *y = b;
    return x->gpus != y->gpus ? x->gpus - y->gpus : x->nodes - y->nodes;
}

static void add_row(row **rows, size_t *n, int nodes, int gpus)
{
    for (size_t i = 0; i < *n; i++)
        if ((*rows)[i].nodes == nodes && (*rows)[i].gpus == gpus)
            return;
    *rows = pr_xrealloc(*rows, (*n + 1) * sizeof **rows);
    (*rows)[*n].nodes = nodes;
    (*rows)[(*n)++].gpus = gpus;
}

/* Rows of a framework's table for c: every case the suite plans, every
 * record, every row of every published table of c. */
static row *fw_rows(const fw *f, const cfg *c, size_t *n)
{
    row *rows = NULL;
    *n = 0;
    if (f->suite)
        for (size_t i = 0; i < f->suite->ncases; i++) {
            const pr_case *k = &f->suite->cases[i];
            if (strcmp(k->precision, c->precision) == 0 && k->batch_size == c->bs)
                add_row(&rows, n, k->nodes, k->gpus);
        }
    for (size_t i = 0; i < f->nrecs; i++) {
        const pr_record *r = f->recs[i];
        if (strcmp(r->precision, c->precision) == 0 && r->batch_size == c->bs)
            add_row(&rows, n, r->nodes, r->gpu_num);
    }
    for (size_t i = 0; i < f->npubs; i++) {
        const pr_pub_table *t = f->pubs[i];
        if (strcmp(t->precision, c->precision) == 0 && t->batch_size == c->bs)
            for (size_t j = 0; j < t->nrows; j++)
                add_row(&rows, n, t->rows[j].nodes, t->rows[j].gpus);
    }
    qsort(rows, *n, sizeof *rows, row_cmp);
    return rows;
}

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

/* 1 when a published speedup disagrees with the one its own throughput
 * figures give, at the precision the source printed it with. */
static int speedup_disagrees(double published, double computed)
{
    int d = printed_decimals(published);
    return fabs(pr_md_round(computed, d) - published) > 0.5 * pow(10.0, -d) + 1e-9;
}

/* ---------------------------------------------------------------- language */

/* Every key gen looks up in templates/<lang>/strings.json; a missing key is
 * an error when the language loads, not a blank in a report. */
static const char *const string_keys[] = {
    "state_todo", "state_oom", "state_failed", "state_none", "no_baseline", "col_nodes",
    "col_gpus", "col_throughput", "col_range", "col_runs", "col_speedup", "col_efficiency",
    "col_tt", "col_acc", "col_published", "col_gap", "col_log", "col_pub_speedup",
    "col_computed_speedup", "col_framework", "col_model", "col_headline", "col_date",
    "col_config", "log_link", "config_name", "published_mark", "gap_flag", "speedup_flag",
    "note_no_baseline", "note_published", "note_rounding", "note_gap", "note_speedup_flag",
    "note_runs", "note_failed", "env_gpu", "env_cpu", "env_memory", "env_os", "env_kernel",
    "env_driver", "env_cuda", "env_cudnn", "env_nccl", "env_framework", "env_image",
    "env_compiler", "env_network", "env_nodes", "env_captured", "env_none", "steps_none",
    "logs_none", "gpus_label", "headline", "pub_source", "variant", "rule_line", "failed_reason",
    "chart_scaling_title", "chart_speedup_title", "chart_compare_title", "chart_lines_title",
    "chart_x_gpus", "chart_y_throughput", "chart_y_speedup", "chart_measured", "chart_published",
    "chart_png", "sweep_title_bytes",
    "sweep_title_shape", "col_size", "col_shape", "sweep_col", "sweep_ratio_auto",
    "sweep_ratio_at_size", "sweep_ratio_lowest", "sweep_ratio_none", "sweep_target_met",
    "sweep_target_missed", "sweep_peak", "sweep_note", "sweep_note_sizes", "chart_sweep_title", "chart_x_size",
    "chart_x_shape", "chart_y_unit", "chart_peak", "state_na", NULL};

static int lang_load(lang *l, const char *templates_dir, pr_err *err)
{
    l->dir = pr_path_join(templates_dir, l->code);
    char *path = pr_path_join(l->dir, "strings.json");
    pr_jdoc *doc = NULL;
    int rc = -1;
    if (pr_jdoc_load(path, &doc, err) < 0)
        goto out;
    pr_jcur root = pr_jdoc_root(doc);
    if (pr_jobject(&root, string_keys, err) < 0)
        goto out;
    for (const char *const *k = string_keys; *k; k++) {
        const char *s;
        if (pr_jstr(&root, *k, 1, &s, err) < 0)
            goto out;
    }
    l->strings = json_incref(root.v);
    size_t n = 0;
    while (string_keys[n])
        n++;
    l->compiled = pr_xcalloc(n, sizeof *l->compiled);
    l->index = json_object();
    for (size_t i = 0; i < n; i++) {
        json_object_set_new(l->index, string_keys[i], json_integer((json_int_t)i));
        const char *t = json_string_value(json_object_get(root.v, string_keys[i]));
        pr_jcur at = pr_jchild(&root, string_keys[i]);
        if (pr_mustache_compile(t, strlen(t), string_keys[i], &l->compiled[i], err) < 0) {
            pr_err inner = *err;
            pr_jfail(&at, err, "%s", inner.msg);
            goto out;
        }
    }
    rc = 0;
out:
    pr_jdoc_free(doc);
    free(path);
    return rc;
}

static void lang_free(lang *l)
{
    for (size_t i = 0; l->compiled && string_keys[i]; i++)
        pr_mustache_tmpl_free(l->compiled[i]);
    free(l->compiled);
    json_decref(l->index);
    for (size_t i = 0; i < sizeof l->pages / sizeof *l->pages; i++)
        pr_mustache_tmpl_free(l->pages[i]);
    free(l->dir);
    json_decref(l->strings);
}

static const char *S(const lang *l, const char *key)
{
    return json_string_value(json_object_get(l->strings, key));
}

static void md_escape_cb(void *ctx, pr_buf *out, const char *s, size_t len)
{
    (void)ctx;
    char *t = pr_xstrndup(s, len);
    pr_md_text(out, t);
    free(t);
}

/* Renders a small parameterised string (a strings.json entry is itself a
 * mustache template) with view (borrowed), appending to out. */
static pr_mustache_tmpl *compiled_string(const lang *l, const char *key)
{
    json_t *i = json_object_get(l->index, key);
    if (!i)
        abort(); /* every key gen uses is in string_keys */
    return l->compiled[json_integer_value(i)];
}

static int fmt(const lang *l, const char *key, json_t *view, pr_buf *out, pr_err *err)
{
    pr_mustache_opts o = {0};
    o.escape = md_escape_cb;
    return pr_mustache_render_tmpl(compiled_string(l, key), view, &o, out, err);
}

static void plain_escape_cb(void *ctx, pr_buf *out, const char *s, size_t len)
{
    (void)ctx;
    pr_buf_put(out, s, len);
}

/* Like fmt, for text that is not Markdown (chart labels): nothing escaped.
 * Returns a malloc'd string the caller frees. */
static char *fmt_plain(const lang *l, const char *key, json_t *view, pr_err *err)
{
    pr_buf out = PR_BUF_INIT;
    pr_mustache_opts o = {0};
    o.escape = plain_escape_cb;
    pr_mustache_render_tmpl(compiled_string(l, key), view, &o, &out, err);
    return pr_buf_detach(&out);
}

/* ---------------------------------------------------------------- pieces */

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

/* The link from page directory page_rel (relative to the output dir) to
 * file (a path as loaded, relative to the cwd or absolute). */
static char *link_to(const world *w, const char *page_rel, const char *file)
{
    char *from = page_rel[0] ? pr_path_join(w->out_abs, page_rel) : pr_xstrdup(w->out_abs);
    char *to = abs_normalised(file);
    char *rel = pr_path_relative(from, to);
    free(from);
    free(to);
    return rel;
}

/* The view the config_name string renders: upper-case precision, and the
 * batch label or size.  A new reference the caller owns. */
static json_t *config_view(const cfg *c)
{
    json_t *v = json_object();
    char *up = pr_xstrdup(c->precision);
    for (char *p = up; *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    json_object_set_new(v, "precision", json_string(up));
    free(up);
    if (c->batch_label)
        json_object_set_new(v, "batch", json_string(c->batch_label));
    else
        json_object_set_new(v, "batch", json_integer(c->bs));
    return v;
}

static void config_name(const lang *l, const cfg *c, pr_buf *out, pr_err *err)
{
    json_t *v = config_view(c);
    fmt(l, "config_name", v, out, err);
    json_decref(v);
}

/* The configuration's name as plain text (charts, table heads); the caller
 * frees it. */
static char *config_plain(const lang *l, const cfg *c, pr_err *err)
{
    json_t *v = config_view(c);
    char *s = fmt_plain(l, "config_name", v, err);
    json_decref(v);
    return s;
}

static void gpus_label(const lang *l, int nodes, int gpus, pr_buf *out, pr_err *err)
{
    json_t *v = json_pack("{s:i,s:i}", "nodes", nodes, "gpus", gpus);
    fmt(l, "gpus_label", v, out, err);
    json_decref(v);
}

static void table_row(pr_buf *out, pr_buf *cells, size_t n)
{
    pr_buf_puts(out, "|");
    for (size_t i = 0; i < n; i++) {
        pr_buf_putc(out, ' ');
        pr_buf_puts(out, pr_buf_cstr(&cells[i]));
        pr_buf_puts(out, " |");
    }
    pr_buf_putc(out, '\n');
}

static void table_head(pr_buf *out, const char *const *heads, size_t n, int numeric_from)
{
    pr_buf_puts(out, "|");
    for (size_t i = 0; i < n; i++) {
        pr_buf_putc(out, ' ');
        pr_md_cell(out, heads[i]);
        pr_buf_puts(out, " |");
    }
    pr_buf_puts(out, "\n|");
    for (size_t i = 0; i < n; i++)
        pr_buf_puts(out, (int)i >= numeric_from ? " ---: |" : " --- |");
    pr_buf_putc(out, '\n');
}

static void cells_clear(pr_buf *cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pr_buf_clear(&cells[i]);
}

static void cells_free(pr_buf *cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pr_buf_free(&cells[i]);
}

/* A link to a file: target is a relative path, percent-encoded whole (a
 * '#', '?' or ')' in a folder name from data is part of the path). */
static void md_link(pr_buf *out, const char *text_md, const char *target)
{
    pr_buf_putc(out, '[');
    pr_buf_puts(out, text_md);
    pr_buf_puts(out, "](");
    pr_md_link_path(out, target);
    pr_buf_putc(out, ')');
}

/* A link to a URL (its query and fragment kept). */
static void md_link_url(pr_buf *out, const char *text_md, const char *url)
{
    pr_buf_putc(out, '[');
    pr_buf_puts(out, text_md);
    pr_buf_puts(out, "](");
    pr_md_link_target(out, url);
    pr_buf_putc(out, ')');
}

/* A link to the README of folder dir (relative to the current page), its
 * text the escaped title. */
static void page_link(pr_buf *out, const char *title, const char *dir, const lang *l)
{
    pr_buf t = PR_BUF_INIT, target = PR_BUF_INIT;
    pr_md_text(&t, title);
    pr_buf_printf(&target, "%s/%s", dir, l->readme);
    md_link(out, pr_buf_cstr(&t), pr_buf_cstr(&target));
    pr_buf_free(&t);
    pr_buf_free(&target);
}

/* A link to a record's log from page dir page_rel. */
static void log_link(const world *w, const char *page_rel, const pr_run *run,
                     const pr_record *r, const char *text_md, pr_buf *out)
{
    if (!r->log_file[0]) {
        pr_buf_puts(out, text_md);
        return;
    }
    /* A record's log is linked from several cells and pages: its path from
     * the output root is computed once; a page d folders deep prefixes d "../". */
    size_t ri = (size_t)(run - w->d->runs), rj = (size_t)(r - run->records);
    if (!w->log_rel[ri])
        w->log_rel[ri] = pr_xcalloc(run->nrecords + 1, sizeof **w->log_rel);
    if (!w->log_rel[ri][rj]) {
        /* log_file is a checked relative path without "..": joining keeps
         * the absolute run folder normalised. */
        char *file = pr_path_join(w->run_abs[ri], r->log_file);
        w->log_rel[ri][rj] = pr_path_relative(w->out_abs, file);
        free(file);
    }
    pr_buf rel = PR_BUF_INIT;
    for (const char *p = page_rel; *p; p++)
        if (p == page_rel || p[-1] == '/')
            pr_buf_puts(&rel, "../");
    pr_buf_puts(&rel, w->log_rel[ri][rj]);
    md_link(out, text_md, pr_buf_cstr(&rel));
    pr_buf_free(&rel);
}

/* The state word of a failed case: OOM for out of memory, else "failed". */
static const char *fail_word(const lang *l, const pr_record *r)
{
    return strcmp(r->fail_reason, "oom") == 0 ? S(l, "state_oom") : S(l, "state_failed");
}

static void value_cell(pr_buf *out, double v) { pr_md_number(out, v, PR_DECIMALS_VALUE); }

/* Notes a page collects while its tables are written. */
typedef struct notes {
    int no_baseline, published, gap, speedup_flag, failed;
} notes;

/* ---------------------------------------------------------------- framework tables */

static int any_metric_repro(const fw *f, const cfg *c, const char *key)
{
    for (size_t i = 0; i < f->nrecs; i++) {
        const pr_record *r = f->recs[i];
        if (!strcmp(r->precision, c->precision) && r->batch_size == c->bs && !isnan(metric(r, key)))
            return 1;
    }
    return 0;
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

static void optional_number(pr_buf *out, const lang *l, double v, int decimals)
{
    if (isnan(v))
        pr_buf_puts(out, S(l, "state_none"));
    else
        pr_md_number(out, v, decimals);
}

/* The reproduction table of one configuration: perfrepro's own figures,
 * compared with the primary published table. */
static int repro_table(const world *w, const lang *l, const fw *f, const cfg *c,
                       const char *page_rel, notes *nt, pr_buf *out, pr_err *err)
{
    size_t nrows;
    row *rows = fw_rows(f, c, &nrows);
    const pr_pub_table *pub = primary_pub(f, c);
    int has_tt = any_metric_repro(f, c, "time_to_train_s");
    int has_acc = any_metric_repro(f, c, "accuracy");
    const char *heads[13];
    size_t nh = 0;
    pr_buf thr = PR_BUF_INIT, pubh = PR_BUF_INIT;
    pr_buf_printf(&thr, "%s (%s)", S(l, "col_throughput"), f->unit);
    pr_buf_printf(&pubh, "%s (%s)", S(l, "col_published"), pub ? pub->label : "—");
    heads[nh++] = S(l, "col_nodes");
    heads[nh++] = S(l, "col_gpus");
    heads[nh++] = pr_buf_cstr(&thr);
    heads[nh++] = S(l, "col_range");
    heads[nh++] = S(l, "col_runs");
    heads[nh++] = S(l, "col_speedup");
    heads[nh++] = S(l, "col_efficiency");
    if (has_tt)
        heads[nh++] = S(l, "col_tt");
    if (has_acc)
        heads[nh++] = S(l, "col_acc");
    if (pub) {
        heads[nh++] = pr_buf_cstr(&pubh);
        heads[nh++] = S(l, "col_gap");
    }
    heads[nh++] = S(l, "col_log");
    table_head(out, heads, nh, 2);

    repro base;
    repro_cell(f, c, 1, 1, &base);
    pr_buf cells[13];
    for (size_t i = 0; i < 13; i++)
        pr_buf_init(&cells[i]);
    for (size_t i = 0; i < nrows; i++) {
        repro rc;
        repro_cell(f, c, rows[i].nodes, rows[i].gpus, &rc);
        cells_clear(cells, 13);
        size_t k = 0;
        pr_buf_printf(&cells[k++], "%d", rows[i].nodes);
        pr_buf_printf(&cells[k++], "%d", rows[i].gpus);
        pr_buf *val = &cells[k++], *range = &cells[k++], *runs = &cells[k++];
        pr_buf *sp = &cells[k++], *eff = &cells[k++];
        if (rc.n_ok) {
            value_cell(val, rc.median);
            value_cell(range, rc.min);
            pr_buf_puts(range, " – ");
            value_cell(range, rc.max);
            pr_buf_printf(runs, "%zu", rc.n_ok);
            if (rc.n_total > rc.n_ok) {
                pr_buf_printf(runs, " (+%zu %s)", rc.n_total - rc.n_ok, S(l, "state_failed"));
                nt->failed = 1;
            }
            if (base.n_ok) {
                double s = rc.median / base.median;
                pr_md_number(sp, s, PR_DECIMALS_SPEEDUP);
                pr_md_number(eff, 100.0 * s / rows[i].gpus, PR_DECIMALS_PERCENT);
                pr_buf_puts(eff, "%");
            } else {
                pr_buf_printf(sp, "%s¹", S(l, "no_baseline"));
                pr_buf_puts(eff, S(l, "state_none"));
                nt->no_baseline = 1;
            }
        } else {
            const char *state = rc.fail_rec ? fail_word(l, rc.fail_rec)
                                : S(l, rc.planned ? "state_todo" : "state_none");
            pr_buf_puts(val, state);
            pr_buf_puts(range, S(l, "state_none"));
            pr_buf_printf(runs, "%zu", rc.n_total);
            pr_buf_puts(sp, S(l, "state_none"));
            pr_buf_puts(eff, S(l, "state_none"));
            if (rc.fail_rec)
                nt->failed = 1;
        }
        if (has_tt)
            optional_number(&cells[k++], l, rc.tt, PR_DECIMALS_VALUE);
        if (has_acc)
            optional_number(&cells[k++], l, rc.acc, PR_DECIMALS_VALUE);
        if (pub) {
            const pr_pub_row *pr = pub_row(pub, rows[i].nodes, rows[i].gpus);
            pr_buf *pc = &cells[k++], *gap = &cells[k++];
            if (pr && pr->has_value)
                value_cell(pc, pr->value);
            else
                pr_buf_puts(pc, pr ? pr->state : S(l, "state_none"));
            if (pr && pr->has_value && rc.n_ok) {
                double g = (rc.median - pr->value) / pr->value;
                if (g >= 0)
                    pr_buf_putc(gap, '+');
                pr_md_number(gap, 100.0 * g, PR_DECIMALS_PERCENT);
                pr_buf_puts(gap, "%");
                if (fabs(g) > (f->suite ? f->suite->gap_threshold : 0.05)) {
                    pr_buf_printf(gap, " %s", S(l, "gap_flag"));
                    nt->gap = 1;
                }
            } else {
                pr_buf_puts(gap, S(l, "state_none"));
            }
        }
        pr_buf *lg = &cells[k++];
        const pr_record *lr = rc.n_ok ? rc.link_rec : rc.fail_rec;
        const pr_run *lrun = rc.n_ok ? rc.link_run : rc.fail_run;
        if (lr)
            log_link(w, page_rel, lrun, lr, S(l, "col_log"), lg);
        else
            pr_buf_puts(lg, S(l, "state_none"));
        table_row(out, cells, k);
    }
    cells_free(cells, 13);
    pr_buf_free(&thr);
    pr_buf_free(&pubh);
    free(rows);
    (void)err;
    return 0;
}

static void source_line(const lang *l, const pr_pub_table *t, pr_buf *out, pr_err *err)
{
    json_t *v = json_object();
    pr_buf title = PR_BUF_INIT, where = PR_BUF_INIT;
    pr_md_text(&title, t->source_title ? t->source_title : t->label);
    if (t->source_url) {
        md_link_url(&where, pr_buf_cstr(&title), t->source_url);
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
    fmt(l, "pub_source", v, out, err);
    json_decref(v);
    pr_buf_free(&title);
    pr_buf_free(&where);
}

/* A published table as its source printed it, with the speedup its own
 * throughput figures give beside the printed one. */
static int pub_table(const lang *l, const fw *f, const pr_pub_table *t, notes *nt, pr_buf *out,
                     pr_err *err)
{
    int has_tt = any_pub_tt(t), has_acc = any_pub_acc(t), has_ps = 0;
    for (size_t i = 0; i < t->nrows; i++)
        has_ps |= t->rows[i].has_speedup;
    const char *heads[9];
    size_t nh = 0;
    pr_buf thr = PR_BUF_INIT;
    pr_buf_printf(&thr, "%s (%s)", S(l, "col_throughput"), t->unit);
    heads[nh++] = S(l, "col_nodes");
    heads[nh++] = S(l, "col_gpus");
    heads[nh++] = pr_buf_cstr(&thr);
    heads[nh++] = S(l, "col_computed_speedup");
    heads[nh++] = S(l, "col_efficiency");
    if (has_ps)
        heads[nh++] = S(l, "col_pub_speedup");
    if (has_tt)
        heads[nh++] = S(l, "col_tt");
    if (has_acc)
        heads[nh++] = S(l, "col_acc");
    table_head(out, heads, nh, 2);
    const pr_pub_row *base = pub_row(t, 1, 1);
    if (base && !base->has_value)
        base = NULL;
    pr_buf cells[9];
    for (size_t i = 0; i < 9; i++)
        pr_buf_init(&cells[i]);
    /* Rows in GPU order, whatever order the source used. */
    row *rows = NULL;
    size_t nrows = 0;
    for (size_t i = 0; i < t->nrows; i++)
        add_row(&rows, &nrows, t->rows[i].nodes, t->rows[i].gpus);
    qsort(rows, nrows, sizeof *rows, row_cmp);
    for (size_t i = 0; i < nrows; i++) {
        const pr_pub_row *r = pub_row(t, rows[i].nodes, rows[i].gpus);
        cells_clear(cells, 9);
        size_t k = 0;
        pr_buf_printf(&cells[k++], "%d", r->nodes);
        pr_buf_printf(&cells[k++], "%d", r->gpus);
        pr_buf *val = &cells[k++], *sp = &cells[k++], *eff = &cells[k++];
        double computed = NAN;
        if (r->has_value) {
            value_cell(val, r->value);
            if (base) {
                computed = r->value / base->value;
                pr_md_number(sp, computed, PR_DECIMALS_SPEEDUP);
                pr_md_number(eff, 100.0 * computed / r->gpus, PR_DECIMALS_PERCENT);
                pr_buf_puts(eff, "%");
            } else {
                pr_buf_printf(sp, "%s¹", S(l, "no_baseline"));
                pr_buf_puts(eff, S(l, "state_none"));
                nt->no_baseline = 1;
            }
        } else {
            pr_buf_puts(val, r->state);
            pr_buf_puts(sp, S(l, "state_none"));
            pr_buf_puts(eff, S(l, "state_none"));
        }
        if (has_ps) {
            pr_buf *ps = &cells[k++];
            if (r->has_speedup) {
                /* Printed as the source printed it. */
                pr_md_number(ps, r->speedup, printed_decimals(r->speedup));
                if (!isnan(computed) && speedup_disagrees(r->speedup, computed)) {
                    pr_buf_printf(ps, " %s", S(l, "speedup_flag"));
                    nt->speedup_flag = 1;
                }
            } else {
                pr_buf_puts(ps, S(l, "state_none"));
            }
        }
        if (has_tt)
            optional_number(&cells[k++], l, r->time_to_train_s, PR_DECIMALS_VALUE);
        if (has_acc)
            optional_number(&cells[k++], l, r->accuracy, PR_DECIMALS_VALUE);
        table_row(out, cells, k);
    }
    free(rows);
    cells_free(cells, 9);
    pr_buf_free(&thr);
    (void)f;
    (void)err;
    return 0;
}

/* ---------------------------------------------------------------- summary cells */

/* One cell of a summary or cross-framework table: the measured median
 * (linked to its log), else the failure, else the primary published figure
 * (marked), else the planned/published state. */
static void summary_cell(const world *w, const lang *l, const fw *f, const cfg *c, int nodes,
                         int gpus, const char *page_rel, notes *nt, pr_buf *out)
{
    repro rc;
    repro_cell(f, c, nodes, gpus, &rc);
    if (rc.n_ok) {
        pr_buf v = PR_BUF_INIT;
        value_cell(&v, rc.median);
        log_link(w, page_rel, rc.link_run, rc.link_rec, pr_buf_cstr(&v), out);
        pr_buf_free(&v);
        return;
    }
    if (rc.fail_rec) {
        log_link(w, page_rel, rc.fail_run, rc.fail_rec, fail_word(l, rc.fail_rec), out);
        nt->failed = 1;
        return;
    }
    const pr_pub_row *pr = pub_row(primary_pub(f, c), nodes, gpus);
    if (pr && pr->has_value) {
        value_cell(out, pr->value);
        pr_buf_puts(out, S(l, "published_mark"));
        nt->published = 1;
        return;
    }
    if (pr) {
        pr_buf_puts(out, pr->state);
        return;
    }
    pr_buf_puts(out, S(l, rc.planned ? "state_todo" : "state_none"));
}

static int fw_has_cfg(const fw *f, const cfg *c)
{
    for (size_t i = 0; i < f->ncfgs; i++)
        if (!strcmp(f->cfgs[i].precision, c->precision) && f->cfgs[i].bs == c->bs)
            return 1;
    return 0;
}

/* Framework page: GPU counts down, configurations across. */
static void summary_table(const world *w, const lang *l, const fw *f, const char *page_rel,
                          notes *nt, pr_buf *out, pr_err *err)
{
    row *rows = NULL;
    size_t nrows = 0;
    for (size_t i = 0; i < f->ncfgs; i++) {
        size_t n;
        row *r = fw_rows(f, &f->cfgs[i], &n);
        for (size_t j = 0; j < n; j++)
            add_row(&rows, &nrows, r[j].nodes, r[j].gpus);
        free(r);
    }
    qsort(rows, nrows, sizeof *rows, row_cmp);
    size_t nh = f->ncfgs + 1;
    char **names = pr_xcalloc(nh, sizeof *names);
    const char **heads = pr_xcalloc(nh, sizeof *heads);
    heads[0] = S(l, "col_gpus");
    /* Plain names: table_head escapes them once (a Markdown name came out
     * "R&amp;amp;D"). */
    for (size_t i = 0; i < f->ncfgs; i++)
        heads[i + 1] = names[i + 1] = config_plain(l, &f->cfgs[i], err);
    table_head(out, heads, nh, 1);
    pr_buf *cells = pr_xcalloc(nh, sizeof *cells);
    for (size_t r = 0; r < nrows; r++) {
        cells_clear(cells, nh);
        gpus_label(l, rows[r].nodes, rows[r].gpus, &cells[0], err);
        for (size_t i = 0; i < f->ncfgs; i++)
            summary_cell(w, l, f, &f->cfgs[i], rows[r].nodes, rows[r].gpus, page_rel, nt,
                         &cells[i + 1]);
        table_row(out, cells, nh);
    }
    cells_free(cells, nh);
    free(cells);
    for (size_t i = 0; i < nh; i++)
        free(names[i]);
    free(names);
    free(heads);
    free(rows);
}

/* The frameworks of model m that have configuration c (a malloc'd array of
 * *ncols), and the union of their rows in GPU order (*rows, malloc'd). */
static const fw **model_columns(const model *m, const cfg *c, size_t *ncols, row **rows,
                                size_t *nrows)
{
    const fw **cols = pr_xcalloc(m->nfws + 1, sizeof *cols);
    *ncols = 0;
    *rows = NULL;
    *nrows = 0;
    for (size_t i = 0; i < m->nfws; i++) {
        if (!fw_has_cfg(m->fws[i], c))
            continue;
        cols[(*ncols)++] = m->fws[i];
        size_t n;
        row *r = fw_rows(m->fws[i], c, &n);
        for (size_t j = 0; j < n; j++)
            add_row(rows, nrows, r[j].nodes, r[j].gpus);
        free(r);
    }
    qsort(*rows, *nrows, sizeof **rows, row_cmp);
    return cols;
}

/* Model page: for configuration c, one column per framework. */
static void cross_table(const world *w, const lang *l, const model *m, const cfg *c,
                        const char *page_rel, notes *nt, pr_buf *out)
{
    row *rows;
    size_t nrows, ncols;
    const fw **cols = model_columns(m, c, &ncols, &rows, &nrows);
    size_t nh = ncols + 2;
    const char **heads = pr_xcalloc(nh, sizeof *heads);
    heads[0] = S(l, "col_nodes");
    heads[1] = S(l, "col_gpus");
    for (size_t i = 0; i < ncols; i++)
        heads[i + 2] = cols[i]->framework_title;
    /* Column heads link to each framework's report. */
    pr_buf_puts(out, "|");
    for (size_t i = 0; i < nh; i++) {
        pr_buf_putc(out, ' ');
        if (i < 2) {
            pr_md_cell(out, heads[i]);
        } else {
            pr_buf t = PR_BUF_INIT, target = PR_BUF_INIT;
            pr_md_cell(&t, heads[i]);
            pr_buf_printf(&target, "%s/%s", cols[i - 2]->framework, l->readme);
            md_link(out, pr_buf_cstr(&t), pr_buf_cstr(&target));
            pr_buf_free(&t);
            pr_buf_free(&target);
        }
        pr_buf_puts(out, " |");
    }
    pr_buf_puts(out, "\n|");
    for (size_t i = 0; i < nh; i++)
        pr_buf_puts(out, " ---: |");
    pr_buf_putc(out, '\n');
    pr_buf *cells = pr_xcalloc(nh, sizeof *cells);
    for (size_t r = 0; r < nrows; r++) {
        cells_clear(cells, nh);
        pr_buf_printf(&cells[0], "%d", rows[r].nodes);
        pr_buf_printf(&cells[1], "%d", rows[r].gpus);
        for (size_t i = 0; i < ncols; i++)
            summary_cell(w, l, cols[i], c, rows[r].nodes, rows[r].gpus, page_rel, nt,
                         &cells[i + 2]);
        table_row(out, cells, nh);
    }
    cells_free(cells, nh);
    free(cells);
    free(heads);
    free(cols);
    free(rows);
}

/* ---------------------------------------------------------------- sections */

static void env_item(json_t *list, const lang *l, const char *key, const char *value)
{
    if (!value || !*value)
        return;
    pr_buf b = PR_BUF_INIT;
    pr_md_text(&b, value);
    json_array_append_new(list, json_pack("{s:s,s:s}", "label", S(l, key), "value",
                                          pr_buf_cstr(&b)));
    pr_buf_free(&b);
}

static const char *jstr(json_t *o, const char *k)
{
    json_t *v = o ? json_object_get(o, k) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The environment, from the newest run's environment record, else what the
 * suite states, else what the primary published source states. */
static json_t *environment_items(const lang *l, const fw *f, const char **from)
{
    json_t *items = json_array();
    const pr_run *run = NULL;
    for (size_t i = 0; i < f->nrecs; i++)
        if (f->runs[i]->env && (!run || strcmp(f->runs[i]->name, run->name) > 0))
            run = f->runs[i];
    if (run) {
        json_t *host = json_object_get(run->env, "host");
        json_t *gpu = json_object_get(run->env, "gpu");
        json_t *fwk = json_object_get(run->env, "framework");
        char buf[64];
        if (json_is_object(gpu)) {
            pr_buf g = PR_BUF_INIT;
            pr_buf_puts(&g, jstr(gpu, "name") ? jstr(gpu, "name") : "?");
            if (json_is_integer(json_object_get(gpu, "count")))
                pr_buf_printf(&g, " × %lld", (long long)json_integer_value(json_object_get(gpu, "count")));
            env_item(items, l, "env_gpu", pr_buf_cstr(&g));
            pr_buf_free(&g);
            env_item(items, l, "env_driver", jstr(gpu, "driver"));
            env_item(items, l, "env_cuda", jstr(gpu, "cuda"));
            env_item(items, l, "env_cudnn", jstr(gpu, "cudnn"));
            env_item(items, l, "env_nccl", jstr(gpu, "nccl"));
        }
        if (json_is_object(host)) {
            pr_buf c = PR_BUF_INIT;
            if (jstr(host, "cpu_model")) {
                pr_buf_puts(&c, jstr(host, "cpu_model"));
                if (json_is_integer(json_object_get(host, "cpu_count")))
                    pr_buf_printf(&c, " × %lld",
                                  (long long)json_integer_value(json_object_get(host, "cpu_count")));
                env_item(items, l, "env_cpu", pr_buf_cstr(&c));
            }
            pr_buf_free(&c);
            json_t *mem = json_object_get(host, "memory_gb");
            if (json_is_number(mem)) {
                snprintf(buf, sizeof buf, "%.1f GB", json_number_value(mem));
                env_item(items, l, "env_memory", buf);
            }
            env_item(items, l, "env_os", jstr(host, "os"));
            env_item(items, l, "env_kernel", jstr(host, "kernel"));
            env_item(items, l, "env_compiler", jstr(host, "compiler"));
        }
        if (json_is_object(fwk) && jstr(fwk, "version")) {
            pr_buf v = PR_BUF_INIT;
            pr_buf_printf(&v, "%s %s", jstr(fwk, "name") ? jstr(fwk, "name") : "",
                          jstr(fwk, "version"));
            env_item(items, l, "env_framework", pr_buf_cstr(&v));
            pr_buf_free(&v);
        }
        env_item(items, l, "env_captured", jstr(run->env, "captured_at"));
        *from = run->name;
        return items;
    }
    json_t *env = f->suite ? f->suite->environment : NULL;
    for (size_t i = 0; !env && i < f->npubs; i++)
        env = f->pubs[i]->environment;
    static const char *const keys[][2] = {
        {"gpu", "env_gpu"}, {"cpu", "env_cpu"}, {"memory", "env_memory"}, {"os", "env_os"},
        {"driver", "env_driver"}, {"cuda", "env_cuda"}, {"cudnn", "env_cudnn"},
        {"nccl", "env_nccl"}, {"framework", "env_framework"}, {"image", "env_image"},
        {"network", "env_network"}, {"nodes", "env_nodes"}};
    for (size_t i = 0; env && i < sizeof keys / sizeof *keys; i++)
        env_item(items, l, keys[i][1], jstr(env, keys[i][0]));
    if (f->suite && f->suite->framework_version && !jstr(env, "framework")) {
        pr_buf v = PR_BUF_INIT;
        pr_buf_printf(&v, "%s %s", f->framework_title, f->suite->framework_version);
        env_item(items, l, "env_framework", pr_buf_cstr(&v));
        pr_buf_free(&v);
    }
    if (f->suite && f->suite->image && !jstr(env, "image"))
        env_item(items, l, "env_image", f->suite->image);
    *from = NULL;
    return items;
}

/* Steps as one code block (or NULL when the suite gives none). */
static char *steps_block(const pr_suite *s, const char *key)
{
    json_t *a = s && s->steps ? json_object_get(s->steps, key) : NULL;
    if (!json_array_size(a))
        return NULL;
    pr_buf text = PR_BUF_INIT, out = PR_BUF_INIT;
    for (size_t i = 0; i < json_array_size(a); i++)
        pr_buf_printf(&text, "%s\n", json_string_value(json_array_get(a, i)));
    pr_md_code_block(&out, "bash", pr_buf_cstr(&text));
    pr_buf_free(&text);
    return pr_buf_detach(&out);
}

/* The per-task references a report's command shows as shell variables (the
 * node's launcher sets them); the other runner placeholders get an example
 * value. */
static const pr_var report_refs[] = {{"master_addr", "MASTER_ADDR"},
                                     {"node_rank", "NODE_RANK"},
                                     {"world_size", "WORLD_SIZE"},
                                     {"local_rank", "LOCAL_RANK"}};
enum { NREPORT_REFS = sizeof report_refs / sizeof *report_refs };

/* Appends "$NAME" (braced when the next byte would continue the name). */
static void put_ref(pr_buf *out, const char *var, char next)
{
    int braced = (next >= 'A' && next <= 'Z') || (next >= 'a' && next <= 'z') ||
                 (next >= '0' && next <= '9') || next == '_';
    pr_buf_printf(out, braced ? "${%s}" : "$%s", var);
}

/* Appends one expanded argv word: its text as shell words of data (quoted
 * where needed), each "\x01K\x02" sentinel as the reference report_refs[K]. */
static void put_command_word(pr_buf *out, const char *w)
{
    pr_buf piece = PR_BUF_INIT;
    int any = 0;
    for (const char *p = w;; p++) {
        int k = -1;
        if (*p == '\x01' && p[1] && p[2] == '\x02')
            k = p[1] - 'a';
        if (*p && (k < 0 || k >= NREPORT_REFS)) {
            pr_buf_putc(&piece, *p);
            continue;
        }
        if (piece.len) {
            pr_md_shell_word(out, pr_buf_cstr(&piece));
            pr_buf_clear(&piece);
            any = 1;
        }
        if (!*p)
            break;
        put_ref(out, report_refs[k].value, p[3]);
        any = 1;
        p += 2;
    }
    if (!any)
        pr_buf_puts(out, "''");
    pr_buf_free(&piece);
}

/* The command one case of the suite runs, placeholders filled the way the
 * local runner fills them: every value from the data is one shell word
 * (pr_md_shell_word), so that the block, pasted, runs the job with the
 * suite's values and nothing else.  With "shell": true the command string
 * is the suite's own shell code, kept as written, and only the values put
 * into it are quoted (as measure's runner does).  The caller frees the
 * result; NULL when no case matches. */
static char *case_command(const pr_suite *s, int gpus_wanted, int multi_node)
{
    const pr_case *pick = NULL;
    for (size_t i = 0; i < s->ncases && !pick; i++) {
        const pr_case *c = &s->cases[i];
        if (multi_node ? c->nodes > 1 : (c->nodes == 1 && c->gpus == gpus_wanted))
            pick = c;
    }
    if (!pick)
        return NULL;
    pr_buf st = PR_BUF_INIT, qst = PR_BUF_INIT, line = PR_BUF_INIT, out = PR_BUF_INIT;
    size_t nv;
    pr_var *vars = pr_suite_case_vars(s, pick, &st, &nv);
    pr_var extra[] = {{"log_dir", "logs/train_log"}, {"log_file", "logs/train_log/CASE"},
                      {"workdir", "."}, {"master_addr", "\x01" "a\x02"},
                      {"master_port", "29500"}, {"node_rank", "\x01" "b\x02"},
                      {"world_size", "\x01" "c\x02"}, {"local_rank", "\x01" "d\x02"},
                      {"hostfile", "hostfile"}};
    const size_t nextra = sizeof extra / sizeof *extra;
    /* Sentinels are trusted only when the data holds no such byte. */
    int sentinels = 1;
    for (size_t i = 0; i < json_array_size(s->command); i++)
        sentinels &= !strpbrk(json_string_value(json_array_get(s->command, i)), "\x01\x02");
    for (size_t i = 0; i < nv; i++)
        sentinels &= !strpbrk(vars[i].value, "\x01\x02");
    pr_err e;
    if (s->shell) {
        /* Each value quoted on its own, then put into the suite's shell code. */
        size_t nq = nv + nextra;
        size_t *off = pr_xmalloc(nq * sizeof *off);
        for (size_t i = 0; i < nq; i++) {
            off[i] = qst.len;
            const char *v = i < nv ? vars[i].value : extra[i - nv].value;
            if (i >= nv && v[0] == '\x01')
                pr_buf_printf(&qst, "$%s", report_refs[v[1] - 'a'].value);
            else
                pr_md_shell_word(&qst, v);
            pr_buf_putc(&qst, '\0');
        }
        pr_var *qvars = pr_xmalloc(nq * sizeof *qvars);
        for (size_t i = 0; i < nq; i++) {
            qvars[i].name = i < nv ? vars[i].name : extra[i - nv].name;
            qvars[i].value = qst.data + off[i];
        }
        const char *t = json_string_value(json_array_get(s->command, 0));
        if (pr_template_expand(t, qvars, nq, NULL, 0, &line, &e) < 0) {
            pr_buf_clear(&line);
            pr_buf_puts(&line, t);
        }
        free(qvars);
        free(off);
    }
    for (size_t i = 0; !s->shell && i < json_array_size(s->command); i++) {
        const char *t = json_string_value(json_array_get(s->command, i));
        pr_buf arg = PR_BUF_INIT;
        if (pr_template_expand(t, vars, nv, extra, nextra, &arg, &e) < 0) {
            pr_buf_clear(&arg);
            pr_buf_puts(&arg, t); /* the suite loader checked it: not reached */
        }
        if (i)
            pr_buf_putc(&line, ' ');
        if (sentinels) {
            put_command_word(&line, pr_buf_cstr(&arg));
        } else {
            /* A control byte in the data: the word is all data, quoted whole. */
            for (char *p = arg.data; p && *p; p++)
                if (*p == '\x01' || *p == '\x02')
                    *p = '?';
            pr_md_shell_word(&line, pr_buf_cstr(&arg));
        }
        pr_buf_free(&arg);
    }
    pr_buf_putc(&line, '\n');
    pr_md_code_block(&out, "bash", pr_buf_cstr(&line));
    free(vars);
    pr_buf_free(&st);
    pr_buf_free(&qst);
    pr_buf_free(&line);
    return pr_buf_detach(&out);
}

static void set_str(json_t *o, const char *k, const char *v)
{
    if (v)
        json_object_set_new(o, k, json_string(v));
}

/* Sets key to the markdown in b (consumed). */
static void set_md(json_t *o, const char *k, pr_buf *b)
{
    char *s = pr_buf_detach(b);
    json_object_set_new(o, k, json_string(s));
    free(s);
}

static void set_text(json_t *o, const char *k, const char *v)
{
    if (!v)
        return;
    pr_buf b = PR_BUF_INIT;
    pr_md_text(&b, v);
    set_md(o, k, &b);
}

/* ---------------------------------------------------------------- charts */

/* Where pages and charts go. */
/* A chart waiting to be drawn: pages are built first, then the charts are
 * drawn on a few threads, then written in the order they were queued, so
 * the output does not depend on the threads. */
typedef struct chart_job {
    pr_chart *chart;
    char *svg_path, *png_path;
    pr_buf svg, png;
    pr_err err;
    int rc;
} chart_job;

typedef struct out_ctx {
    pr_report_emit_fn emit;
    void *ctx;
    int charts;
    chart_job *jobs;
    size_t njobs, cap;
    const char *out_dir; /* names a chart in errors */
} out_ctx;

enum { CHART_W = 720, CHART_H = 400 };

/* A file name part made of [a-z0-9.-] only: data never names files freely. */
static void file_slug(pr_buf *out, const char *s)
{
    for (; *s; s++) {
        char c = *s;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        pr_buf_putc(out, (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ? c : '-');
    }
}

/* The longest slug of a batch label a chart's file name takes whole; a
 * longer one keeps its start and gets a hash of the whole label, so that the
 * name stays well under NAME_MAX (a 230-byte label made "File name too
 * long") and still tells labels apart. */
enum { CHART_SLUG_MAX = 40, CHART_SLUG_KEEP = 31 };

/* FNV-1a, 32 bits: a stable short hash for file names. */
static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static char *chart_base(const lang *l, const char *kind, const cfg *c)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, kind);
    if (c) {
        pr_buf_putc(&b, '-');
        file_slug(&b, c->precision);
        if (c->bs > 0)
            pr_buf_printf(&b, "-bs%d", c->bs);
        if (c->batch_label) {
            pr_buf slug = PR_BUF_INIT;
            file_slug(&slug, c->batch_label);
            if (slug.len > CHART_SLUG_MAX) {
                pr_buf_truncate(&slug, CHART_SLUG_KEEP);
                pr_buf_printf(&slug, "-%08x", (unsigned)name_hash(c->batch_label));
            }
            pr_buf_putc(&b, '-');
            pr_buf_puts(&b, pr_buf_cstr(&slug));
            pr_buf_free(&slug);
        }
    }
    if (strcmp(l->code, "zh") != 0)
        pr_buf_printf(&b, ".%s", l->code);
    return pr_buf_detach(&b);
}

/* Queues chart (ownership passes to the queue) to be drawn as DIR/BASE.svg
 * and DIR/BASE.png, and appends the Markdown that shows the SVG (with the
 * chart's alt text) and links the PNG. */
static void queue_chart(out_ctx *oc, const lang *l, pr_chart *chart, const char *dir_rel,
                        const char *base, pr_buf *md)
{
    if (oc->njobs == oc->cap)
        oc->jobs = pr_xrealloc(oc->jobs, (oc->cap = oc->cap ? oc->cap * 2 : 64) * sizeof *oc->jobs);
    chart_job *j = &oc->jobs[oc->njobs++];
    memset(j, 0, sizeof *j);
    j->chart = chart;
    j->svg_path = pr_xasprintf("%s/%s.svg", dir_rel, base);
    j->png_path = pr_xasprintf("%s/%s.png", dir_rel, base);
    char *alt = pr_chart_alt_text(chart);
    pr_buf_puts(md, "![");
    pr_md_text(md, alt);
    pr_buf_printf(md, "](%s.svg)\n\n[", base);
    pr_md_text(md, S(l, "chart_png"));
    pr_buf_printf(md, "](%s.png)\n", base);
    free(alt);
}

typedef struct pool {
    chart_job *jobs;
    size_t n;
    size_t next; /* guarded by lock */
    pthread_mutex_t lock;
} pool;

static void *draw_charts(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next++;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->n)
            return NULL;
        chart_job *j = &p->jobs[i];
        j->rc = pr_chart_render_svg(j->chart, CHART_W, CHART_H, &j->svg, &j->err);
        if (j->rc == 0)
            j->rc = pr_chart_render_png(j->chart, CHART_W, CHART_H, &j->png, &j->err);
    }
}

/* Draws every queued chart, then emits them in queue order. */
static int flush_charts(out_ctx *oc, pr_err *err)
{
    pool p = {oc->jobs, oc->njobs, 0, PTHREAD_MUTEX_INITIALIZER};
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t nthreads = cpus < 1 ? 1 : cpus > 8 ? 8 : (size_t)cpus;
    if (nthreads > oc->njobs)
        nthreads = oc->njobs;
    pthread_t tids[8];
    size_t started = 0;
    for (; started + 1 < nthreads; started++)
        if (pthread_create(&tids[started], NULL, draw_charts, &p) != 0)
            break;
    draw_charts(&p); /* this thread works too */
    for (size_t i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    int rc = 0;
    for (size_t i = 0; i < oc->njobs && rc == 0; i++) {
        chart_job *j = &oc->jobs[i];
        if (j->rc < 0) {
            /* The chart's file names the page and configuration it is for. */
            *err = j->err;
            rc = pr_err_prefix(err, "%s/%s", oc->out_dir, j->svg_path);
        } else if (oc->emit(oc->ctx, j->svg_path, j->svg.data, j->svg.len, err) < 0 ||
                   oc->emit(oc->ctx, j->png_path, j->png.data, j->png.len, err) < 0) {
            rc = -1;
        }
    }
    return rc;
}

static void free_charts(out_ctx *oc)
{
    for (size_t i = 0; i < oc->njobs; i++) {
        chart_job *j = &oc->jobs[i];
        pr_chart_free(j->chart);
        free(j->svg_path);
        free(j->png_path);
        pr_buf_free(&j->svg);
        pr_buf_free(&j->png);
    }
    free(oc->jobs);
}

static pr_chart *new_chart(const lang *l, pr_chart_kind kind, const char *title_key,
                           json_t *tv, const char *y_key, pr_err *err)
{
    char *title = fmt_plain(l, title_key, tv, err);
    char *x = fmt_plain(l, "chart_x_gpus", tv, err);
    char *y = fmt_plain(l, y_key, tv, err);
    pr_chart *c = pr_chart_new(kind, title, x, y);
    pr_chart_set_lang(c, strcmp(l->code, "zh") == 0 ? PR_CHART_LANG_ZH : PR_CHART_LANG_EN);
    free(title);
    free(x);
    free(y);
    return c;
}

static json_t *chart_view(const fw *f, const model *m, const char *config)
{
    json_t *v = json_object();
    set_str(v, "model", f ? f->model_title : m->title);
    set_str(v, "framework", f ? f->framework_title : "");
    set_str(v, "config", config ? config : "");
    set_str(v, "unit", f ? f->unit : (m->nfws ? m->fws[0]->unit : ""));
    return v;
}

/* Throughput against GPU count for one configuration of one framework:
 * measured medians, the primary published figures as hollow markers, and
 * ideal linear scaling from the 1-GPU point. */
static int fw_scaling_chart(const lang *l, const fw *f, const cfg *c, const char *dir_rel,
                            out_ctx *oc, pr_buf *md, pr_err *err)
{
    size_t nrows;
    row *rows = fw_rows(f, c, &nrows);
    const pr_pub_table *pub = primary_pub(f, c);
    char *config = config_plain(l, c, err);
    json_t *tv = chart_view(f, NULL, config);
    pr_chart *chart = new_chart(l, PR_CHART_LINE_LOG2X, "chart_scaling_title", tv,
                                "chart_y_throughput", err);
    int meas = pr_chart_add_series(chart, S(l, "chart_measured"), PR_CHART_SOLID);
    int pubs = -1;
    if (pub) {
        json_t *pv = json_pack("{s:s}", "label", pub->label);
        char *label = fmt_plain(l, "chart_published", pv, err);
        pubs = pr_chart_add_series(chart, label, PR_CHART_HOLLOW_MARKERS);
        free(label);
        json_decref(pv);
    }
    size_t points = 0;
    double base = NAN;
    for (size_t i = 0; i < nrows; i++) {
        repro rc;
        repro_cell(f, c, rows[i].nodes, rows[i].gpus, &rc);
        const pr_pub_row *pr = pub_row(pub, rows[i].nodes, rows[i].gpus);
        if (rc.n_ok) {
            pr_chart_add_point(chart, meas, rows[i].gpus, rc.median);
            points++;
            if (rows[i].gpus == 1 && rows[i].nodes == 1)
                base = rc.median;
        }
        if (pr && pr->has_value) {
            pr_chart_add_point(chart, pubs, rows[i].gpus, pr->value);
            points++;
            if (rows[i].gpus == 1 && rows[i].nodes == 1 && isnan(base))
                base = pr->value;
        }
    }
    if (!isnan(base))
        pr_chart_add_ideal(chart, 1, base);
    /* Two points make a line anyone can read off the table. */
    if (points >= 3) {
        char *b = chart_base(l, "scaling", c);
        queue_chart(oc, l, chart, dir_rel, b, md);
        free(b);
    } else {
        pr_chart_free(chart);
    }
    json_decref(tv);
    free(config);
    free(rows);
    return 0;
}

/* Speedup against GPU count, one line per configuration (measured medians,
 * else the primary published figures), with the ideal diagonal. */
static int fw_speedup_chart(const lang *l, const fw *f, const char *dir_rel, out_ctx *oc,
                            pr_buf *md, pr_err *err)
{
    json_t *tv = chart_view(f, NULL, NULL);
    pr_chart *chart = new_chart(l, PR_CHART_LINE_LOG2X, "chart_speedup_title", tv,
                                "chart_y_speedup", err);
    size_t lines = 0;
    for (size_t i = 0; i < f->ncfgs; i++) {
        const cfg *c = &f->cfgs[i];
        const pr_pub_table *pub = primary_pub(f, c);
        repro b;
        repro_cell(f, c, 1, 1, &b);
        const pr_pub_row *pb = pub_row(pub, 1, 1);
        int measured = b.n_ok > 0;
        if (!measured && !(pb && pb->has_value))
            continue;
        size_t nrows;
        row *rows = fw_rows(f, c, &nrows);
        char *config = config_plain(l, c, err);
        int s = pr_chart_add_series(chart, config, measured ? PR_CHART_SOLID : PR_CHART_HOLLOW_MARKERS);
        size_t points = 0;
        for (size_t r = 0; r < nrows; r++) {
            repro rc;
            repro_cell(f, c, rows[r].nodes, rows[r].gpus, &rc);
            const pr_pub_row *pr = pub_row(pub, rows[r].nodes, rows[r].gpus);
            if (measured && rc.n_ok)
                pr_chart_add_point(chart, s, rows[r].gpus, rc.median / b.median), points++;
            else if (!measured && pr && pr->has_value)
                pr_chart_add_point(chart, s, rows[r].gpus, pr->value / pb->value), points++;
        }
        lines += points >= 3;
        free(config);
        free(rows);
    }
    if (lines) {
        pr_chart_add_ideal(chart, 1, 1);
        char *b = chart_base(l, "speedup", NULL);
        queue_chart(oc, l, chart, dir_rel, b, md);
        free(b);
    } else {
        pr_chart_free(chart);
    }
    json_decref(tv);
    return 0;
}

/* The figure a framework shows in a cross-framework chart for one cell: a
 * value (measured, else published) or a state word (NULL when neither). */
static const char *cross_figure(const lang *l, const fw *f, const cfg *c, int nodes, int gpus,
                                double *value)
{
    repro rc;
    repro_cell(f, c, nodes, gpus, &rc);
    *value = NAN;
    if (rc.n_ok) {
        *value = rc.median;
        return NULL;
    }
    if (rc.fail_rec)
        return fail_word(l, rc.fail_rec);
    const pr_pub_row *pr = pub_row(primary_pub(f, c), nodes, gpus);
    if (pr && pr->has_value) {
        *value = pr->value;
        return NULL;
    }
    if (pr)
        return pr->state;
    return rc.planned ? S(l, "state_todo") : NULL;
}

/* Model page, one configuration: grouped bars (states as labelled gaps) and
 * scaling lines, one series per framework. */
static int model_charts(const lang *l, const model *m, const cfg *c, out_ctx *oc,
                        pr_buf *md, pr_err *err)
{
    row *rows;
    size_t nrows, ncols;
    const fw **cols = model_columns(m, c, &ncols, &rows, &nrows);
    char *config = config_plain(l, c, err);
    json_t *tv = chart_view(NULL, m, config);
    pr_chart *bars = new_chart(l, PR_CHART_BARS, "chart_compare_title", tv, "chart_y_throughput", err);
    pr_chart *lines = new_chart(l, PR_CHART_LINE_LOG2X, "chart_lines_title", tv,
                                "chart_y_throughput", err);
    for (size_t r = 0; r < nrows; r++) {
        pr_buf label = PR_BUF_INIT;
        json_t *gv = json_pack("{s:i,s:i}", "nodes", rows[r].nodes, "gpus", rows[r].gpus);
        char *t = fmt_plain(l, "gpus_label", gv, err);
        pr_chart_add_category(bars, t);
        free(t);
        json_decref(gv);
        pr_buf_free(&label);
    }
    size_t values = 0, line_series = 0;
    for (size_t i = 0; i < ncols; i++) {
        int sb = pr_chart_add_series(bars, cols[i]->framework_title, PR_CHART_SOLID);
        int sl = pr_chart_add_series(lines, cols[i]->framework_title, PR_CHART_SOLID);
        size_t pts = 0;
        for (size_t r = 0; r < nrows; r++) {
            double v;
            const char *state = cross_figure(l, cols[i], c, rows[r].nodes, rows[r].gpus, &v);
            if (!isnan(v)) {
                pr_chart_set_bar(bars, sb, (int)r, v);
                pr_chart_add_point(lines, sl, rows[r].gpus, v);
                values++;
                pts++;
            } else if (state) {
                pr_chart_set_bar_state(bars, sb, (int)r, state);
            }
        }
        line_series += pts >= 3;
    }
    if (values >= 3) {
        char *b = chart_base(l, "compare", c);
        queue_chart(oc, l, bars, m->id, b, md);
        bars = NULL;
        free(b);
        if (line_series) {
            pr_buf_putc(md, '\n');
            b = chart_base(l, "lines", c);
            queue_chart(oc, l, lines, m->id, b, md);
            lines = NULL;
            free(b);
        }
    }
    pr_chart_free(bars);
    pr_chart_free(lines);
    json_decref(tv);
    free(config);
    free(cols);
    free(rows);
    return 0;
}

/* ---------------------------------------------------------------- pages */

#define TOC_MARK "\x01toc\x01"

static void add_note(json_t *notes, const lang *l, const char *key, json_t *view, pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    fmt(l, key, view, &b, err);
    json_array_append_new(notes, json_pack("{s:s}", "text", pr_buf_cstr(&b)));
    pr_buf_free(&b);
}

static void notes_to_view(json_t *view, const lang *l, const notes *nt, const fw *f, pr_err *err)
{
    json_t *list = json_array();
    json_t *v = json_object();
    json_object_set_new(v, "threshold",
                        json_real(100.0 * (f && f->suite ? f->suite->gap_threshold : 0.05)));
    add_note(list, l, "note_rounding", v, err);
    if (nt->no_baseline)
        add_note(list, l, "note_no_baseline", v, err);
    if (nt->published)
        add_note(list, l, "note_published", v, err);
    if (nt->gap)
        add_note(list, l, "note_gap", v, err);
    if (nt->speedup_flag)
        add_note(list, l, "note_speedup_flag", v, err);
    if (nt->failed)
        add_note(list, l, "note_failed", v, err);
    json_decref(v);
    json_object_set_new(view, "notes", list);
}

/* Date of the newest data behind a framework: records' start dates, else
 * the published sources' dates. */
static char *fw_date(const fw *f)
{
    char best[11] = "";
    for (size_t i = 0; i < f->nrecs; i++)
        if (f->recs[i]->started_at && strncmp(f->recs[i]->started_at, best, 10) > 0)
            snprintf(best, sizeof best, "%.10s", f->recs[i]->started_at);
    for (size_t i = 0; !best[0] && i < f->npubs; i++)
        if (f->pubs[i]->date && strncmp(f->pubs[i]->date, best, 10) > 0)
            snprintf(best, sizeof best, "%.10s", f->pubs[i]->date);
    return best[0] ? pr_xstrdup(best) : NULL;
}

static void rule_notes(json_t *view, const lang *l, const fw *f, pr_err *err)
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
        fmt(l, "rule_line", v, &b, err);
        json_array_append_new(rules, json_pack("{s:s}", "text", pr_buf_cstr(&b)));
        json_decref(v);
        pr_buf_free(&code);
        pr_buf_free(&b);
    }
    free(keys);
    json_decref(seen);
    json_object_set_new(view, "rules", rules);
}


/* ---------------------------------------------------------------- per-point tables */

/* Hardware suites keep each run's whole table (metrics.table or .series):
 * the page shows them merged by size or shape, the ratios the suite's
 * "compare" entries ask for, and a chart. */

/* A size as people read it: 1 GiB, 512 MiB, 8 B (exact multiples only). */
static void bytes_text(pr_buf *out, double b)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && b >= 1024 && fmod(b, 1024) == 0) {
        b /= 1024;
        u++;
    }
    pr_buf_printf(out, "%.0f %s", b, units[u]);
}

static void row_x_text(pr_buf *out, const pr_sweep *s, size_t r)
{
    if (pr_sweep_xkind(s) == PR_SWEEP_SHAPE) {
        for (const char *p = pr_sweep_row_shape(s, r); *p; p++)
            if (*p == 'x')
                pr_buf_puts(out, "×");
            else
                pr_buf_putc(out, *p);
    } else {
        bytes_text(out, pr_sweep_row_bytes(s, r));
    }
}

static const fw *find_fw(const world *w, const char *model_id, const char *fw_id)
{
    for (size_t i = 0; i < w->nmodels; i++)
        if (strcmp(w->models[i]->id, model_id) == 0)
            for (size_t j = 0; j < w->models[i]->nfws; j++)
                if (strcmp(w->models[i]->fws[j]->framework, fw_id) == 0)
                    return w->models[i]->fws[j];
    return NULL;
}

/* The tables of f's cells (each cell's run nearest the median), merged.
 * NULL with err set on tables that cannot be merged. */
static pr_sweep *fw_sweep(const lang *l, const fw *f, pr_err *err)
{
    pr_sweep *s = pr_sweep_new();
    for (size_t i = 0; i < f->ncfgs; i++) {
        const cfg *c = &f->cfgs[i];
        size_t nrows;
        row *rows = fw_rows(f, c, &nrows);
        char *config = config_plain(l, c, err);
        for (size_t r = 0; r < nrows; r++) {
            repro rc;
            repro_cell(f, c, rows[r].nodes, rows[r].gpus, &rc);
            if (!rc.n_ok || !rc.link_rec->metrics)
                continue;
            pr_buf g = PR_BUF_INIT;
            gpus_label(l, rows[r].nodes, rows[r].gpus, &g, err);
            pr_sweep_cell cell = {c->precision, c->bs, rows[r].nodes, rows[r].gpus, config,
                                  pr_buf_cstr(&g)};
            const char *where = rc.link_run->record_files[rc.link_rec - rc.link_run->records];
            int bad = pr_sweep_add(s, rc.link_rec->metrics, f->unit, &cell, where, err) < 0;
            pr_buf_free(&g);
            if (bad) {
                free(config);
                free(rows);
                pr_sweep_free(s);
                return NULL;
            }
        }
        free(config);
        free(rows);
    }
    pr_sweep_finish(s);
    return s;
}

/* One ratio the page states: column of_col of the page's table divided by
 * column to_col of to (the same table, or another framework's). */
typedef struct ratio {
    char *label;
    const pr_sweep *to;
    const char *to_title; /* the other framework's title; NULL: the same one */
    size_t of_col, to_col;
    double target; /* NAN: none */
} ratio;

typedef struct ratios {
    ratio *v;
    size_t n, cap;
    pr_sweep **others; /* the other frameworks' tables, owned */
    size_t nothers;
} ratios;

static void ratios_free(ratios *rs)
{
    for (size_t i = 0; i < rs->n; i++)
        free(rs->v[i].label);
    for (size_t i = 0; i < rs->nothers; i++)
        pr_sweep_free(rs->others[i]);
    free(rs->v);
    free(rs->others);
}

static void ratio_add(ratios *rs, const lang *l, const pr_compare *k, const fw *f, const fw *g,
                      const pr_sweep *s, size_t of_col, const pr_sweep *to, size_t to_col,
                      pr_err *err)
{
    if (rs->n == rs->cap)
        rs->v = pr_xrealloc(rs->v, (rs->cap = rs->cap ? 2 * rs->cap : 8) * sizeof *rs->v);
    ratio *r = &rs->v[rs->n++];
    json_t *v = json_pack("{s:s,s:s,s:s,s:s}", "of", pr_sweep_col_label(s, of_col), "to",
                          pr_sweep_col_label(to, to_col), "framework", f->framework_title,
                          "other", g == f ? "" : g->framework_title);
    if (k->label && strcmp(k->of, "*") != 0) {
        r->label = pr_xstrdup(k->label);
    } else if (k->label) {
        r->label = pr_xasprintf("%s %s", pr_sweep_col_label(s, of_col), k->label);
    } else {
        r->label = fmt_plain(l, "sweep_ratio_auto", v, err);
    }
    json_decref(v);
    r->to = to;
    r->to_title = g == f ? NULL : g->framework_title;
    r->of_col = of_col;
    r->to_col = to_col;
    r->target = k->target;
}

/* The ratios f's suite asks for that its tables (and the other
 * frameworks') can give.  A compare naming a framework the model lacks is
 * an error at that entry of the suite. */
static int fw_ratios(const world *w, const lang *l, const fw *f, const pr_sweep *s, ratios *rs,
                     pr_err *err)
{
    const pr_suite *su = f->suite;
    for (size_t i = 0; su && i < su->ncompares; i++) {
        const pr_compare *k = &su->compares[i];
        const fw *g = f;
        const pr_sweep *to = s;
        if (k->framework) {
            g = find_fw(w, f->model, k->framework);
            if (!g)
                return pr_err_set(err, su->path, k->line, k->col, "compare.framework",
                                  "model \"%s\" has no framework \"%s\" (no suite, record or "
                                  "published table names it)", f->model, k->framework);
            pr_sweep *o = fw_sweep(l, g, err);
            if (!o)
                return -1;
            rs->others = pr_xrealloc(rs->others, (rs->nothers + 1) * sizeof *rs->others);
            rs->others[rs->nothers++] = o;
            to = o;
            if (pr_sweep_xkind(o) != PR_SWEEP_NONE && pr_sweep_xkind(o) != pr_sweep_xkind(s))
                continue; /* sizes against shapes: nothing to divide */
        }
        int every = strcmp(k->of, "*") == 0;
        for (size_t c = 0; c < pr_sweep_ncols(s); c++) {
            const char *name = pr_sweep_col_name(s, c);
            if (!every && strcmp(name, k->of) != 0)
                continue;
            long t = pr_sweep_find_col(to, every ? name : k->to, s, c);
            if (t >= 0)
                ratio_add(rs, l, k, f, g, s, c, to, (size_t)t, err);
        }
    }
    return 0;
}

/* The ratio at row r of s; 0 when either value is missing. */
static int ratio_at(const pr_sweep *s, const ratio *q, size_t r, double *out)
{
    double a, b;
    long tr = q->to == s ? (long)r : pr_sweep_find_row(q->to, s, r);
    if (tr < 0 || pr_sweep_get(s, r, q->of_col, &a) != PR_SWEEP_VALUE ||
        pr_sweep_get(q->to, (size_t)tr, q->to_col, &b) != PR_SWEEP_VALUE || !(b > 0))
        return 0;
    *out = a / b;
    return 1;
}

static int below_target(const ratio *q, double x)
{
    return !isnan(q->target) && pr_md_round(x, PR_DECIMALS_SPEEDUP) < q->target;
}

/* The summary line of one ratio: at the largest size (sizes: small ones
 * measure caches and launch latency), or the lowest over the shapes. */
static void ratio_line(const lang *l, const pr_sweep *s, const ratio *q, pr_buf *out, pr_err *err)
{
    double x = 0, best = NAN;
    long at = -1;
    for (size_t r = 0; r < pr_sweep_nrows(s); r++) {
        if (!ratio_at(s, q, r, &x))
            continue;
        if (pr_sweep_xkind(s) == PR_SWEEP_BYTES || at < 0 || x < best) {
            best = x;
            at = (long)r;
        }
    }
    json_t *v = json_pack("{s:s}", "label", q->label);
    if (at < 0) {
        fmt(l, "sweep_ratio_none", v, out, err);
        json_decref(v);
        return;
    }
    pr_buf b = PR_BUF_INIT;
    pr_md_number(&b, best, PR_DECIMALS_SPEEDUP);
    json_object_set_new(v, "ratio", json_string(pr_buf_cstr(&b)));
    pr_buf_clear(&b);
    row_x_text(&b, s, (size_t)at);
    json_object_set_new(v, "x", json_string(pr_buf_cstr(&b)));
    if (!isnan(q->target)) {
        pr_buf_clear(&b);
        pr_md_number(&b, q->target, PR_DECIMALS_SPEEDUP);
        json_object_set_new(v, "target", json_string(pr_buf_cstr(&b)));
        json_object_set_new(v, "verdict", json_string(S(l, below_target(q, best)
                                                               ? "sweep_target_missed"
                                                               : "sweep_target_met")));
    }
    pr_buf_free(&b);
    fmt(l, pr_sweep_xkind(s) == PR_SWEEP_BYTES ? "sweep_ratio_at_size" : "sweep_ratio_lowest", v,
        out, err);
    json_decref(v);
}

/* Each column's share of the theoretical peak at the largest size. */
static void peak_lines(const lang *l, const pr_sweep *s, json_t *list, pr_err *err)
{
    double peak = pr_sweep_peak(s), v;
    if (isnan(peak) || pr_sweep_xkind(s) != PR_SWEEP_BYTES)
        return;
    for (size_t c = 0; c < pr_sweep_ncols(s); c++) {
        for (size_t r = pr_sweep_nrows(s); r-- > 0;) {
            if (pr_sweep_get(s, r, c, &v) != PR_SWEEP_VALUE)
                continue;
            pr_buf b = PR_BUF_INIT, line = PR_BUF_INIT;
            json_t *jv = json_pack("{s:s,s:s}", "column", pr_sweep_col_label(s, c), "unit",
                                   pr_sweep_unit(s));
            value_cell(&b, v);
            json_object_set_new(jv, "value", json_string(pr_buf_cstr(&b)));
            pr_buf_clear(&b);
            pr_md_number(&b, v / peak * 100, PR_DECIMALS_PERCENT);
            json_object_set_new(jv, "percent", json_string(pr_buf_cstr(&b)));
            pr_buf_clear(&b);
            value_cell(&b, peak);
            json_object_set_new(jv, "peak", json_string(pr_buf_cstr(&b)));
            pr_buf_clear(&b);
            row_x_text(&b, s, r);
            json_object_set_new(jv, "x", json_string(pr_buf_cstr(&b)));
            fmt(l, "sweep_peak", jv, &line, err);
            json_array_append_new(list, json_string(pr_buf_cstr(&line)));
            json_decref(jv);
            pr_buf_free(&b);
            pr_buf_free(&line);
            break;
        }
    }
}

static void sweep_table(const lang *l, const pr_sweep *s, const ratios *rs, pr_buf *out,
                        pr_err *err)
{
    size_t nc = pr_sweep_ncols(s), n = 1 + nc + rs->n;
    const char **heads = pr_xcalloc(n, sizeof *heads);
    char **owned = pr_xcalloc(n, sizeof *owned);
    pr_buf *cells = pr_xcalloc(n, sizeof *cells);
    heads[0] = S(l, pr_sweep_xkind(s) == PR_SWEEP_SHAPE ? "col_shape" : "col_size");
    for (size_t c = 0; c < nc; c++) {
        json_t *v = json_pack("{s:s,s:s}", "column", pr_sweep_col_label(s, c), "unit",
                              pr_sweep_unit(s));
        heads[1 + c] = owned[1 + c] = fmt_plain(l, "sweep_col", v, err);
        json_decref(v);
    }
    for (size_t i = 0; i < rs->n; i++)
        heads[1 + nc + i] = rs->v[i].label;
    table_head(out, heads, n, 1);
    for (size_t r = 0; r < pr_sweep_nrows(s); r++) {
        cells_clear(cells, n);
        row_x_text(&cells[0], s, r);
        for (size_t c = 0; c < nc; c++) {
            double v;
            pr_sweep_state st = pr_sweep_get(s, r, c, &v);
            if (st == PR_SWEEP_VALUE)
                value_cell(&cells[1 + c], v);
            else
                pr_buf_puts(&cells[1 + c], S(l, st == PR_SWEEP_NA ? "state_na" : "state_none"));
        }
        for (size_t i = 0; i < rs->n; i++) {
            double x;
            pr_buf *cell = &cells[1 + nc + i];
            if (!ratio_at(s, &rs->v[i], r, &x)) {
                pr_buf_puts(cell, S(l, "state_none"));
                continue;
            }
            pr_md_number(cell, x, PR_DECIMALS_SPEEDUP);
            if (below_target(&rs->v[i], x)) {
                pr_buf_putc(cell, ' ');
                pr_buf_puts(cell, S(l, "gap_flag"));
            }
        }
        table_row(out, cells, n);
    }
    for (size_t i = 0; i < n; i++)
        free(owned[i]);
    free(owned);
    free(heads);
    cells_free(cells, n);
    free(cells);
}

/* Sizes: a line per column on a log2 axis, the compared columns of other
 * frameworks hollow, the theoretical peak dashed.  Shapes: grouped bars. */
static pr_chart *sweep_chart(const lang *l, const fw *f, const pr_sweep *s, const ratios *rs,
                             pr_err *err)
{
    int bytes = pr_sweep_xkind(s) == PR_SWEEP_BYTES;
    json_t *tv = chart_view(f, NULL, NULL);
    char *title = fmt_plain(l, "chart_sweep_title", tv, err);
    char *xl = fmt_plain(l, bytes ? "chart_x_size" : "chart_x_shape", tv, err);
    json_object_set_new(tv, "unit", json_string(pr_sweep_unit(s)));
    char *yl = fmt_plain(l, "chart_y_unit", tv, err);
    pr_chart *ch = pr_chart_new(bytes ? PR_CHART_LINE_LOG2X : PR_CHART_BARS, title, xl, yl);
    pr_chart_set_lang(ch, strcmp(l->code, "zh") == 0 ? PR_CHART_LANG_ZH : PR_CHART_LANG_EN);
    free(title);
    free(xl);
    free(yl);
    json_decref(tv);
    if (bytes)
        pr_chart_set_x_bytes(ch, 1);
    else
        for (size_t r = 0; r < pr_sweep_nrows(s); r++) {
            /* 8K×4K×16K: nine full shapes do not fit under 720 pixels. */
            pr_buf b = PR_BUF_INIT;
            const char *p = pr_sweep_row_shape(s, r);
            while (*p) {
                char *end;
                unsigned long long v = strtoull(p, &end, 10);
                if (v >= 1024 && v % 1024 == 0)
                    pr_buf_printf(&b, "%lluK", v / 1024);
                else
                    pr_buf_printf(&b, "%llu", v);
                p = end;
                if (*p == 'x') {
                    pr_buf_puts(&b, "×");
                    p++;
                } else if (*p) {
                    break;
                }
            }
            pr_chart_add_category(ch, pr_buf_cstr(&b));
            pr_buf_free(&b);
        }
    /* The page's own columns, then the other frameworks' compared ones. */
    /* Bars: the other frameworks' figures are in the ratio columns; beside
     * every bar they would halve the bars' width. */
    size_t nseries = pr_sweep_ncols(s) + (bytes ? rs->n : 0);
    for (size_t i = 0; i < nseries; i++) {
        const pr_sweep *src = s;
        size_t col = i;
        char *label = NULL;
        if (i >= pr_sweep_ncols(s)) {
            const ratio *q = &rs->v[i - pr_sweep_ncols(s)];
            int dup = q->to == s;
            for (size_t j = pr_sweep_ncols(s); j < i && !dup; j++)
                dup = rs->v[j - pr_sweep_ncols(s)].to == q->to &&
                      rs->v[j - pr_sweep_ncols(s)].to_col == q->to_col;
            if (dup)
                continue;
            src = q->to;
            col = q->to_col;
            label = pr_xasprintf("%s %s", q->to_title, pr_sweep_col_label(src, col));
        }
        int sid = pr_chart_add_series(ch, label ? label : pr_sweep_col_label(s, col),
                                      src == s ? PR_CHART_SOLID : PR_CHART_HOLLOW_MARKERS);
        free(label);
        for (size_t r = 0; r < pr_sweep_nrows(s); r++) {
            long sr = src == s ? (long)r : pr_sweep_find_row(src, s, r);
            double v;
            pr_sweep_state st = sr < 0 ? PR_SWEEP_ABSENT : pr_sweep_get(src, (size_t)sr, col, &v);
            if (bytes && st == PR_SWEEP_VALUE)
                pr_chart_add_point(ch, sid, pr_sweep_row_bytes(s, r), v);
            else if (!bytes && st == PR_SWEEP_VALUE)
                pr_chart_set_bar(ch, sid, (int)r, v);
            else if (!bytes)
                pr_chart_set_bar_state(ch, sid, (int)r,
                                       S(l, st == PR_SWEEP_NA ? "state_na" : "state_none"));
        }
    }
    double peak = pr_sweep_peak(s);
    if (bytes && !isnan(peak) && pr_sweep_nrows(s)) {
        int sid = pr_chart_add_series(ch, S(l, "chart_peak"), PR_CHART_DASHED);
        pr_chart_add_point(ch, sid, pr_sweep_row_bytes(s, 0), peak);
        pr_chart_add_point(ch, sid, pr_sweep_row_bytes(s, pr_sweep_nrows(s) - 1), peak);
    }
    return ch;
}

/* The per-point section of a framework page, into view "sweep" (absent
 * when no record of f carries a table). */
static int fw_sweep_view(const world *w, const lang *l, const fw *f, const char *page_rel,
                         out_ctx *oc, json_t *view, pr_err *err)
{
    int rc = -1;
    ratios rs = {0};
    pr_buf b = PR_BUF_INIT;
    pr_sweep *s = fw_sweep(l, f, err);
    if (!s)
        goto out;
    if (pr_sweep_xkind(s) == PR_SWEEP_NONE || !pr_sweep_nrows(s)) {
        rc = 0;
        goto out;
    }
    if (fw_ratios(w, l, f, s, &rs, err) < 0)
        goto out;
    json_t *sv = json_object();
    set_str(sv, "title", S(l, pr_sweep_xkind(s) == PR_SWEEP_BYTES ? "sweep_title_bytes"
                                                                  : "sweep_title_shape"));
    json_t *lines = json_array();
    peak_lines(l, s, lines, err);
    for (size_t i = 0; i < rs.n; i++) {
        pr_buf_clear(&b);
        ratio_line(l, s, &rs.v[i], &b, err);
        json_array_append_new(lines, json_string(pr_buf_cstr(&b)));
    }
    json_object_set_new(sv, "lines", lines);
    set_str(sv, "note", S(l, "sweep_note"));
    if (pr_sweep_xkind(s) == PR_SWEEP_BYTES)
        set_str(sv, "note_sizes", S(l, "sweep_note_sizes"));
    pr_buf_clear(&b);
    sweep_table(l, s, &rs, &b, err);
    set_md(sv, "table", &b);
    if (oc->charts) {
        pr_chart *ch = sweep_chart(l, f, s, &rs, err);
        queue_chart(oc, l, ch, page_rel, strcmp(l->code, "zh") == 0 ? "sweep" : "sweep.en", &b);
        set_md(sv, "chart", &b);
    }
    json_object_set_new(view, "sweep", sv);
    rc = 0;
out:
    pr_buf_free(&b);
    ratios_free(&rs);
    pr_sweep_free(s);
    return rc;
}

static json_t *framework_view(const world *w, const lang *l, const fw *f, out_ctx *oc,
                              pr_err *err)
{
    json_t *view = json_object();
    char *page_rel = pr_xasprintf("%s/%s", f->model, f->framework);
    notes nt = {0};
    set_text(view, "model_title", f->model_title);
    set_text(view, "framework_title", f->framework_title);
    set_str(view, "toc", TOC_MARK);
    set_str(view, "readme", l->readme);
    set_str(view, "other_readme", l->other_readme);
    set_text(view, "unit", f->unit);
    const pr_suite *s = f->suite;
    if (s) {
        set_text(view, "description", s->description);
        set_text(view, "framework_version", s->framework_version);
        set_text(view, "mission_name", s->mission_name);
        char *suite_rel = link_to(w, page_rel, s->path);
        pr_buf b = PR_BUF_INIT;
        /* The template writes the target as it is: encoded here, so that a
         * suite file named "F).json" or "a#b.json" still links to itself. */
        pr_md_link_path(&b, suite_rel);
        json_object_set_new(view, "suite_link", json_string(pr_buf_cstr(&b)));
        pr_buf_clear(&b);
        pr_md_code_span(&b, s->path);
        set_md(view, "suite_path", &b);
        free(suite_rel);
        if (s->source_repo) {
            pr_buf code = PR_BUF_INIT;
            /* The folder git clone makes: the last part of the URL without .git. */
            const char *base = strrchr(s->source_repo, '/');
            base = base && base[1] ? base + 1 : s->source_repo;
            size_t blen = strlen(base);
            if (blen > 4 && strcmp(base + blen - 4, ".git") == 0)
                blen -= 4;
            /* Every value from the suite is one shell word: pasted, the block
             * runs git and cd, nothing the data spells. */
            char *folder = pr_xstrndup(base, blen);
            pr_buf_puts(&code, "git clone ");
            pr_md_shell_word(&code, s->source_repo);
            pr_buf_puts(&code, "\ncd ");
            pr_md_shell_word(&code, folder);
            pr_buf_putc(&code, '\n');
            free(folder);
            if (s->source_commit) {
                pr_buf_puts(&code, "git checkout ");
                pr_md_shell_word(&code, s->source_commit);
                pr_buf_putc(&code, '\n');
            }
            if (s->source_path) {
                pr_buf_puts(&code, "cd ");
                pr_md_shell_word(&code, s->source_path);
                pr_buf_putc(&code, '\n');
            }
            pr_md_code_block(&b, "bash", pr_buf_cstr(&code));
            set_md(view, "source_block", &b);
            pr_buf_free(&code);
            set_text(view, "source_repo", s->source_repo);
            set_text(view, "source_commit", s->source_commit);
        }
        char *blk;
        if ((blk = steps_block(s, "setup")))
            json_object_set_new(view, "setup_block", json_string(blk)), free(blk);
        if ((blk = steps_block(s, "single_node")))
            json_object_set_new(view, "single_block", json_string(blk)), free(blk);
        if ((blk = steps_block(s, "multi_node")))
            json_object_set_new(view, "multi_block", json_string(blk)), free(blk);
        if ((blk = case_command(s, 1, 0)))
            json_object_set_new(view, "cmd_1gpu", json_string(blk)), free(blk);
        int maxg = 0;
        for (size_t i = 0; i < s->ncases; i++)
            if (s->cases[i].nodes == 1 && s->cases[i].gpus > maxg)
                maxg = s->cases[i].gpus;
        if (maxg > 1 && (blk = case_command(s, maxg, 0))) {
            json_object_set_new(view, "cmd_ngpu", json_string(blk));
            json_object_set_new(view, "ngpu", json_integer(maxg));
            free(blk);
        }
        if ((blk = case_command(s, 0, 1))) {
            json_object_set_new(view, "cmd_multinode", json_string(blk));
            free(blk);
            /* The multi-node cases through Slurm, one command per node count. */
            pr_buf cmd = PR_BUF_INIT, block = PR_BUF_INIT;
            int seen[64] = {0};
            for (size_t i = 0; i < s->ncases; i++) {
                const pr_case *k = &s->cases[i];
                if (k->nodes < 2 || k->nodes >= 64 || seen[k->nodes]++)
                    continue;
                pr_buf_printf(&cmd, "salloc -N%d --gpus-per-node=%d --exclusive \\\n"
                              "  bin/perfrepro-measure run ", k->nodes, k->gpus_per_node);
                pr_md_shell_word(&cmd, s->path);
                pr_buf_printf(&cmd, " --launcher slurm --only '*_%d' \\\n  --out ", k->gpus);
                char *dir = pr_xasprintf("data/runs/%s-%s-%d", s->model, s->framework, k->gpus);
                pr_md_shell_word(&cmd, dir);
                pr_buf_putc(&cmd, '\n');
                free(dir);
            }
            pr_md_code_block(&block, "bash", pr_buf_cstr(&cmd));
            set_md(view, "slurm_block", &block);
            pr_buf_free(&cmd);
        }
        pr_buf run = PR_BUF_INIT;
        char *dir = pr_xasprintf("data/runs/%s-%s", s->model, s->framework);
        pr_buf_puts(&run, "bin/perfrepro-measure run ");
        pr_md_shell_word(&run, s->path);
        pr_buf_puts(&run, " --out ");
        pr_md_shell_word(&run, dir);
        pr_buf_putc(&run, '\n');
        free(dir);
        pr_md_code_block(&b, "bash", pr_buf_cstr(&run));
        set_md(view, "measure_block", &b);
        pr_buf_free(&run);
        pr_buf_free(&b);
        if (s->image)
            set_text(view, "image", s->image);
    }
    const char *env_from = NULL;
    json_t *env = environment_items(l, f, &env_from);
    json_object_set_new(view, "has_env", json_boolean(json_array_size(env) > 0));
    json_object_set_new(view, "environment", env);
    set_text(view, "env_run", env_from);

    pr_buf b = PR_BUF_INIT;
    summary_table(w, l, f, page_rel, &nt, &b, err);
    set_md(view, "summary_table", &b);
    json_object_set_new(view, "hardware", json_boolean(s && s->hardware));
    if (fw_sweep_view(w, l, f, page_rel, oc, view, err) < 0)
        goto fail;

    json_t *configs = json_array();
    for (size_t i = 0; i < f->ncfgs; i++) {
        const cfg *c = &f->cfgs[i];
        json_t *cv = json_object();
        config_name(l, c, &b, err);
        set_md(cv, "name", &b);
        int has_repro = 0;
        for (size_t j = 0; j < f->nrecs && !has_repro; j++)
            has_repro = !strcmp(f->recs[j]->precision, c->precision) && f->recs[j]->batch_size == c->bs;
        if (s)
            for (size_t j = 0; j < s->ncases && !has_repro; j++)
                has_repro = !strcmp(s->cases[j].precision, c->precision) && s->cases[j].batch_size == c->bs;
        if (has_repro) {
            repro_table(w, l, f, c, page_rel, &nt, &b, err);
            set_md(cv, "repro_table", &b);
        }
        if (oc->charts) {
            if (fw_scaling_chart(l, f, c, page_rel, oc, &b, err) < 0) {
                json_decref(cv);
                json_decref(configs);
                goto fail;
            }
            if (b.len)
                set_md(cv, "chart", &b);
        }
        json_t *pubs = json_array();
        for (size_t j = 0; j < f->npubs; j++) {
            const pr_pub_table *t = f->pubs[j];
            if (strcmp(t->precision, c->precision) || t->batch_size != c->bs)
                continue;
            json_t *pv = json_object();
            set_text(pv, "label", t->label);
            set_text(pv, "variant", t->variant);
            set_text(pv, "note", t->note);
            source_line(l, t, &b, err);
            set_md(pv, "source", &b);
            pub_table(l, f, t, &nt, &b, err);
            set_md(pv, "table", &b);
            json_array_append_new(pubs, pv);
        }
        json_object_set_new(cv, "published", pubs);
        json_array_append_new(configs, cv);
    }
    json_object_set_new(view, "configs", configs);
    if (oc->charts) {
        if (fw_speedup_chart(l, f, page_rel, oc, &b, err) < 0)
            goto fail;
        if (b.len)
            set_md(view, "speedup_chart", &b);
    }

    /* Every log, in table order. */
    json_t *logs = json_array();
    for (size_t i = 0; i < f->ncfgs; i++) {
        const cfg *c = &f->cfgs[i];
        for (int pass = 0; pass < 1; pass++) {
            size_t nrows;
            row *rows = fw_rows(f, c, &nrows);
            for (size_t r = 0; r < nrows; r++)
                for (int rep = 1; rep <= 1000; rep++) {
                    int found = 0;
                    for (size_t j = 0; j < f->nrecs; j++) {
                        const pr_record *rec = f->recs[j];
                        if (strcmp(rec->precision, c->precision) || rec->batch_size != c->bs ||
                            rec->nodes != rows[r].nodes || rec->gpu_num != rows[r].gpus ||
                            rec->repeat != rep)
                            continue;
                        found = 1;
                        pr_buf name = PR_BUF_INIT, text = PR_BUF_INIT;
                        config_name(l, c, &name, err);
                        json_t *lv = json_pack("{s:i,s:i,s:s,s:i,s:s}", "nodes", rec->nodes, "gpus",
                                               rec->gpu_num, "config", pr_buf_cstr(&name),
                                               "repeat", rec->repeat, "case", rec->case_name);
                        if (rec->failed) {
                            pr_buf why = PR_BUF_INIT;
                            json_object_set_new(lv, "reason", json_string(rec->fail_reason));
                            fmt(l, "failed_reason", lv, &why, err);
                            json_object_set_new(lv, "failed", json_string(pr_buf_cstr(&why)));
                            pr_buf_free(&why);
                        }
                        fmt(l, "log_link", lv, &text, err);
                        pr_buf item = PR_BUF_INIT;
                        log_link(w, page_rel, f->runs[j], rec, pr_buf_cstr(&text), &item);
                        json_array_append_new(logs, json_pack("{s:s}", "link", pr_buf_cstr(&item)));
                        json_decref(lv);
                        pr_buf_free(&name);
                        pr_buf_free(&text);
                        pr_buf_free(&item);
                    }
                    if (!found)
                        break;
                }
            free(rows);
        }
    }
    json_object_set_new(view, "has_logs", json_boolean(json_array_size(logs) > 0));
    json_object_set_new(view, "imported", json_boolean(!s && json_array_size(logs) > 0));
    json_object_set_new(view, "logs", logs);
    rule_notes(view, l, f, err);
    notes_to_view(view, l, &nt, f, err);
    char *date = fw_date(f);
    set_text(view, "date", date ? date : S(l, "state_none"));
    free(date);
    free(page_rel);
    return view;
fail:
    pr_buf_free(&b);
    free(page_rel);
    json_decref(view);
    return NULL;
}

static json_t *model_view(const world *w, const lang *l, const model *m, out_ctx *oc,
                          pr_err *err)
{
    json_t *view = json_object();
    notes nt = {0};
    set_text(view, "model_title", m->title);
    set_str(view, "toc", TOC_MARK);
    set_str(view, "readme", l->readme);
    set_str(view, "other_readme", l->other_readme);
    /* Every configuration any framework has. */
    fw all = {0};
    for (size_t i = 0; i < m->nfws; i++)
        for (size_t j = 0; j < m->fws[i]->ncfgs; j++)
            add_cfg(&all, m->fws[i]->cfgs[j].precision, m->fws[i]->cfgs[j].bs,
                    m->fws[i]->cfgs[j].batch_label);
    qsort(all.cfgs, all.ncfgs, sizeof *all.cfgs, cfg_qsort);
    json_t *configs = json_array();
    pr_buf b = PR_BUF_INIT;
    const char *unit = m->nfws ? m->fws[0]->unit : "";
    for (size_t i = 0; i < all.ncfgs; i++) {
        json_t *cv = json_object();
        config_name(l, &all.cfgs[i], &b, err);
        set_md(cv, "name", &b);
        cross_table(w, l, m, &all.cfgs[i], m->id, &nt, &b);
        set_md(cv, "table", &b);
        json_array_append_new(configs, cv);
        if (oc->charts) {
            if (model_charts(l, m, &all.cfgs[i], oc, &b, err) < 0) {
                free(all.cfgs);
                json_decref(configs);
                pr_buf_free(&b);
                json_decref(view);
                return NULL;
            }
            if (b.len)
                set_md(cv, "chart", &b);
        }
    }
    free(all.cfgs);
    json_object_set_new(view, "configs", configs);
    set_text(view, "unit", unit);
    json_t *fws = json_array();
    for (size_t i = 0; i < m->nfws; i++) {
        page_link(&b, m->fws[i]->framework_title, m->fws[i]->framework, l);
        json_array_append_new(fws, json_pack("{s:s}", "link", pr_buf_cstr(&b)));
        pr_buf_clear(&b);
    }
    pr_buf_free(&b);
    json_object_set_new(view, "frameworks", fws);
    int hardware = m->nfws > 0;
    for (size_t i = 0; i < m->nfws; i++)
        hardware &= m->fws[i]->suite && m->fws[i]->suite->hardware;
    json_object_set_new(view, "hardware", json_boolean(hardware));
    notes_to_view(view, l, &nt, NULL, err);
    return view;
}

/* The headline of a framework: its figure at the largest GPU count, in the
 * configuration where that figure is highest; measured figures first, then
 * published ones. */
static void headline(const world *w, const lang *l, const fw *f, pr_buf *out, pr_err *err)
{
    for (int want_measured = 1; want_measured >= 0; want_measured--) {
        const cfg *best_c = NULL;
        row best_r = {0, 0};
        double best_v = -1;
        for (size_t i = 0; i < f->ncfgs; i++) {
            size_t nrows;
            row *rows = fw_rows(f, &f->cfgs[i], &nrows);
            for (size_t r = 0; r < nrows; r++) {
                repro rc;
                repro_cell(f, &f->cfgs[i], rows[r].nodes, rows[r].gpus, &rc);
                const pr_pub_row *pr = pub_row(primary_pub(f, &f->cfgs[i]), rows[r].nodes,
                                               rows[r].gpus);
                double v = want_measured && rc.n_ok              ? rc.median
                           : !want_measured && pr && pr->has_value ? pr->value
                                                                   : NAN;
                if (isnan(v))
                    continue;
                if (!best_c || rows[r].gpus > best_r.gpus ||
                    (rows[r].gpus == best_r.gpus && v > best_v)) {
                    best_c = &f->cfgs[i];
                    best_r = rows[r];
                    best_v = v;
                }
            }
            free(rows);
        }
        if (!best_c)
            continue;
        pr_buf name = PR_BUF_INIT, val = PR_BUF_INIT;
        config_name(l, best_c, &name, err);
        value_cell(&val, best_v);
        if (!want_measured)
            pr_buf_puts(&val, S(l, "published_mark"));
        json_t *hv = json_pack("{s:i,s:i,s:s,s:s,s:s}", "nodes", best_r.nodes, "gpus",
                               best_r.gpus, "config", pr_buf_cstr(&name), "value",
                               pr_buf_cstr(&val), "unit", f->unit);
        fmt(l, "headline", hv, out, err);
        json_decref(hv);
        pr_buf_free(&name);
        pr_buf_free(&val);
        (void)w;
        return;
    }
    pr_buf_puts(out, S(l, "state_todo"));
}

static json_t *index_view(const world *w, const lang *l, pr_err *err)
{
    json_t *view = json_object();
    set_str(view, "toc", TOC_MARK);
    set_str(view, "readme", l->readme);
    set_str(view, "other_readme", l->other_readme);
    json_t *rows = json_array();
    notes nt = {0};
    for (size_t i = 0; i < w->nmodels; i++) {
        const model *m = w->models[i];
        for (size_t j = 0; j < m->nfws; j++) {
            const fw *f = m->fws[j];
            pr_buf mlink = PR_BUF_INIT, flink = PR_BUF_INIT;
            /* Cell and inline escaping are the same (pr_md_cell == pr_md_text). */
            page_link(&mlink, m->title, m->id, l);
            char *fdir = pr_xasprintf("%s/%s", m->id, f->framework);
            page_link(&flink, f->framework_title, fdir, l);
            free(fdir);
            pr_buf hl = PR_BUF_INIT;
            headline(w, l, f, &hl, err);
            if (strstr(pr_buf_cstr(&hl), S(l, "published_mark")))
                nt.published = 1;
            char *date = fw_date(f);
            json_array_append_new(rows, json_pack("{s:s,s:s,s:s,s:s}", "model", pr_buf_cstr(&mlink),
                                                  "framework", pr_buf_cstr(&flink), "headline",
                                                  pr_buf_cstr(&hl), "date",
                                                  date ? date : S(l, "state_none")));
            free(date);
            pr_buf_free(&mlink);
            pr_buf_free(&flink);
            pr_buf_free(&hl);
        }
    }
    json_object_set_new(view, "rows", rows);
    json_t *models = json_array();
    for (size_t i = 0; i < w->nmodels; i++) {
        pr_buf link = PR_BUF_INIT;
        page_link(&link, w->models[i]->title, w->models[i]->id, l);
        json_array_append_new(models, json_pack("{s:s}", "link", pr_buf_cstr(&link)));
        pr_buf_free(&link);
    }
    json_object_set_new(view, "models", models);
    notes_to_view(view, l, &nt, NULL, err);
    return view;
}

#define BENCH_DIR "perfrepro-bench"

static void bench_number(pr_buf *out, double v)
{
    /* Benchmarks span µs to GB/s: 3 significant decimals below 10, else 1. */
    pr_md_number(out, v, v < 10 ? 3 : 1);
}

/* perfrepro's own performance page, from data/bench (make bench). */
static json_t *bench_view(const world *w, const lang *l)
{
    json_t *view = json_object();
    set_str(view, "toc", TOC_MARK);
    set_str(view, "readme", l->readme);
    set_str(view, "other_readme", l->other_readme);
    json_t *list = json_array();
    int zh = strcmp(l->code, "zh") == 0;
    for (size_t i = 0; i < w->d->nbenches; i++) {
        const pr_bench *b = &w->d->benches[i];
        json_t *bv = json_object();
        set_text(bv, "title", zh ? b->title_zh : b->title_en);
        set_text(bv, "unit", b->unit);
        set_text(bv, "date", b->date);
        set_text(bv, "machine", b->machine);
        set_text(bv, "notes", b->notes);
        pr_buf code = PR_BUF_INIT;
        pr_md_code_span(&code, b->command);
        set_md(bv, "command", &code);
        json_t *rows = json_array();
        for (size_t j = 0; j < b->nresults; j++) {
            const pr_bench_result *r = &b->results[j];
            pr_buf med = PR_BUF_INIT, range = PR_BUF_INIT, rss = PR_BUF_INIT, tool = PR_BUF_INIT;
            pr_md_cell(&tool, r->tool);
            bench_number(&med, r->median);
            if (!isnan(r->min) && !isnan(r->max)) {
                bench_number(&range, r->min);
                pr_buf_puts(&range, " – ");
                bench_number(&range, r->max);
            } else {
                pr_buf_puts(&range, S(l, "state_none"));
            }
            if (!isnan(r->peak_rss_mb))
                pr_buf_printf(&rss, "%.1f MB", r->peak_rss_mb);
            else
                pr_buf_puts(&rss, S(l, "state_none"));
            json_array_append_new(rows, json_pack("{s:s,s:s,s:s,s:i,s:s}", "tool", pr_buf_cstr(&tool),
                                                  "median", pr_buf_cstr(&med), "range",
                                                  pr_buf_cstr(&range), "runs", r->runs, "rss",
                                                  pr_buf_cstr(&rss)));
            pr_buf_free(&med);
            pr_buf_free(&range);
            pr_buf_free(&rss);
            pr_buf_free(&tool);
        }
        json_object_set_new(bv, "rows", rows);
        if (b->ratio_text) {
            pr_buf r = PR_BUF_INIT;
            pr_md_number(&r, b->ratio, 2);
            set_text(bv, "ratio_text", b->ratio_text);
            set_md(bv, "ratio", &r);
        }
        if (b->target_text) {
            set_text(bv, "target_text", b->target_text);
            json_object_set_new(bv, "met", json_boolean(b->target_met));
            json_object_set_new(bv, "has_target", json_true());
        }
        json_array_append_new(list, bv);
    }
    json_object_set_new(view, "benches", list);
    return view;
}

/* Renders templates/<lang>/<page>.mustache with view (borrowed) and fills
 * in the table of contents from the headings it produced. */
static int render_page(lang *l, const char *page, json_t *view, pr_buf *out, pr_err *err)
{
    size_t which = 0;
    while (strcmp(page_names[which], page) != 0)
        which++;
    char *name = pr_xasprintf("%s.mustache", page);
    char *path = pr_path_join(l->dir, name);
    pr_buf tmpl = PR_BUF_INIT, md = PR_BUF_INIT, toc = PR_BUF_INIT;
    int rc = -1;
    if (!l->pages[which] &&
        (pr_read_file(path, &tmpl, err) < 0 ||
         pr_mustache_compile(pr_buf_cstr(&tmpl), tmpl.len, path, &l->pages[which], err) < 0))
        goto out;
    pr_mustache_dir dir = {l->dir, ".mustache"};
    pr_mustache_opts o = {0};
    o.load_partial = pr_mustache_dir_loader;
    o.partial_ctx = &dir;
    o.escape = md_escape_cb;
    if (pr_mustache_render_tmpl(l->pages[which], view, &o, &md, err) < 0)
        goto out;
    const char *mark = strstr(pr_buf_cstr(&md), TOC_MARK);
    if (mark) {
        /* The contents list the headings after it, not the title or itself. */
        pr_md_toc(&toc, mark + strlen(TOC_MARK), 2, 3);
        size_t at = (size_t)(mark - md.data);
        pr_buf_put(out, md.data, at);
        pr_buf_puts(out, pr_buf_cstr(&toc));
        pr_buf_puts(out, mark + strlen(TOC_MARK));
    } else {
        pr_buf_put(out, md.data, md.len);
    }
    rc = 0;
out:
    free(name);
    free(path);
    pr_buf_free(&tmpl);
    pr_buf_free(&md);
    pr_buf_free(&toc);
    return rc;
}

static int emit_page(lang *l, const char *page, json_t *view, const char *rel_dir,
                     pr_report_emit_fn emit, void *ctx, pr_err *err)
{
    pr_buf out = PR_BUF_INIT;
    char *path = rel_dir[0] ? pr_xasprintf("%s/%s", rel_dir, l->readme) : pr_xstrdup(l->readme);
    int rc = render_page(l, page, view, &out, err);
    if (rc == 0)
        rc = emit(ctx, path, pr_buf_cstr(&out), out.len, err);
    free(path);
    pr_buf_free(&out);
    return rc;
}

int pr_report_render(const pr_dataset *d, const pr_report_opts *o, pr_report_emit_fn emit,
                     void *ctx, pr_err *err)
{
    world w = {0};
    w.d = d;
    w.o = o;
    w.out_abs = abs_normalised(o->out_dir);
    w.run_abs = pr_xcalloc(d->nruns + 1, sizeof *w.run_abs);
    w.log_rel = pr_xcalloc(d->nruns + 1, sizeof *w.log_rel);
    for (size_t i = 0; i < d->nruns; i++)
        w.run_abs[i] = abs_normalised(d->runs[i].dir);
    build_world(&w);
    lang langs[2] = {{"zh", "README.md", "README.en.md", NULL, NULL, NULL, NULL, {NULL}},
                     {"en", "README.en.md", "README.md", NULL, NULL, NULL, NULL, {NULL}}};
    out_ctx oc = {emit, ctx, o->charts, NULL, 0, 0, o->out_dir};
    int rc = -1;
    if (o->charts && pr_chart_check_fonts(err) < 0)
        goto out;
    for (int i = 0; i < 2; i++)
        if (lang_load(&langs[i], o->templates_dir, err) < 0)
            goto out;
    for (int li = 0; li < 2; li++) {
        lang *l = &langs[li];
        json_t *v = index_view(&w, l, err);
        if (d->nbenches)
            json_object_set_new(v, "bench_link", json_sprintf("%s/%s", BENCH_DIR, l->readme));
        rc = emit_page(l, "index", v, "", emit, ctx, err);
        json_decref(v);
        if (rc < 0)
            goto out;
        if (d->nbenches) {
            v = bench_view(&w, l);
            rc = emit_page(l, "bench", v, BENCH_DIR, emit, ctx, err);
            json_decref(v);
            if (rc < 0)
                goto out;
        }
        for (size_t i = 0; i < w.nmodels; i++) {
            const model *m = w.models[i];
            v = model_view(&w, l, m, &oc, err);
            rc = v ? emit_page(l, "model", v, m->id, emit, ctx, err) : -1;
            json_decref(v);
            if (rc < 0)
                goto out;
            for (size_t j = 0; j < m->nfws; j++) {
                char *dir = pr_xasprintf("%s/%s", m->id, m->fws[j]->framework);
                v = framework_view(&w, l, m->fws[j], &oc, err);
                rc = v ? emit_page(l, "framework", v, dir, emit, ctx, err) : -1;
                json_decref(v);
                free(dir);
                if (rc < 0)
                    goto out;
            }
        }
    }
    rc = flush_charts(&oc, err);
out:
    free_charts(&oc);
    lang_free(&langs[0]);
    lang_free(&langs[1]);
    free_world(&w);
    return rc;
}

/* ---------------------------------------------------------------- writing */

#define MARKER ".perfrepro-reports"
/* The staging folder of a build, beside OUT: ".NAME.staging.PID"; the
 * previous generation while two plain renames replace it (file systems
 * without RENAME_EXCHANGE): ".NAME.old.PID". */
#define STAGING_INFIX ".staging."
#define OLD_INFIX ".old."

typedef struct writer {
    const char *out_dir;
    char **written;
    size_t n;
    /* Hardening: killing a build left OUT mixing old and new pages, and
     * *.tmp.* files that no later build removed.  A build now writes its
     * generation into a staging folder beside OUT (unchanged files are hard
     * links to OUT's: same inode and mtime; changed ones are written there),
     * then swaps it with OUT in one renameat2(RENAME_EXCHANGE) and removes
     * the old tree: at any instant OUT is the old generation or the new one.
     * Every build first removes the staging folders of dead builds. */
    char *stage;     /* the staging folder; NULL: in place (below) */
    char *real_out;  /* OUT with links resolved; NULL when it does not exist yet */
    char *parent;    /* the folder holding OUT and the staging folder */
    char *base;      /* OUT's name */
    char *made_dir;  /* the folder of the staging tree last created */
    int changed;     /* the generation differs from OUT: swap */
    /* In place, where no staging folder can be swapped (OUT is a mount
     * point, or its parent is not writable): changed files are written to
     * temporary files first and renamed into place only once the whole
     * generation rendered and every write succeeded (a failed build leaves
     * the previous generation; a killed one may not).  The previous content
     * of each staged file is kept so that a rename failing half-way through
     * the commit can put back the files already renamed. */
    struct staged {
        char *full, *tmp;
        char *old;    /* previous content, NULL when the file did not exist */
        size_t old_len;
    } *staged;
    size_t nstaged;
} writer;

/* Puts rel into the staging tree: a hard link to OUT's file full when it
 * holds the same bytes, else a new file. */
static int stage_file(writer *wr, const char *rel, const char *full, int same, const char *data,
                      size_t len, pr_err *err)
{
    char *dst = pr_path_join(wr->stage, rel);
    char *dir = pr_path_dirname(dst);
    int rc = 0;
    /* Pages come folder by folder: one mkdir -p per folder, not per file. */
    if (!wr->made_dir || strcmp(wr->made_dir, dir) != 0) {
        rc = pr_mkdirs(dir, err);
        free(wr->made_dir);
        wr->made_dir = rc == 0 ? pr_xstrdup(dir) : NULL;
    }
    if (rc == 0 && same) {
        rc = pr_link_or_copy(full, dst, err);
    } else if (rc == 0) {
        rc = pr_write_new(dst, data, len, err);
        wr->changed = 1;
    }
    free(dir);
    free(dst);
    return rc;
}

static int write_emit(void *ctx, const char *path, const char *data, size_t len, pr_err *err)
{
    writer *wr = ctx;
    /* Paths come from model and framework ids, which loading checks; refuse
     * anything that would leave the output folder all the same. */
    if (!pr_path_is_safe_relative(path))
        return pr_err_set(err, wr->out_dir, 0, 0, NULL,
                          "refusing to write \"%s\": not a path inside the output folder", path);
    char *full = pr_path_join(wr->out_dir, path);
    pr_buf old = PR_BUF_INIT;
    pr_err ignored;
    struct stat st;
    /* Only a regular file of OUT is compared (and linked): a symbolic link
     * planted there is replaced, never followed. */
    int existed = lstat(full, &st) == 0 && S_ISREG(st.st_mode) &&
                  pr_read_file(full, &old, &ignored) == 0;
    int same = existed && old.len == len && (len == 0 || memcmp(old.data, data, len) == 0);
    int rc = 0;
    if (wr->stage) {
        rc = stage_file(wr, path, full, same, data, len, err);
    } else if (!same) {
        char *tmp = NULL;
        rc = pr_write_temp(full, data, len, 0, &tmp, err);
        if (rc == 0) {
            wr->staged = pr_xrealloc(wr->staged, (wr->nstaged + 1) * sizeof *wr->staged);
            struct staged *sf = &wr->staged[wr->nstaged++];
            sf->full = full;
            sf->tmp = tmp;
            sf->old_len = old.len;
            sf->old = existed ? pr_buf_detach(&old) : NULL;
            full = NULL;
        }
    }
    pr_buf_free(&old);
    free(full);
    wr->written = pr_xrealloc(wr->written, (wr->n + 1) * sizeof *wr->written);
    wr->written[wr->n++] = pr_xstrdup(path);
    return rc;
}

/* Renames every staged file into place (commit), or removes them all.  When
 * a rename fails, the files renamed before it get their previous content
 * back (best effort: the message says when that failed too). */
static int finish_staged(writer *wr, int commit, pr_err *err)
{
    int rc = 0;
    size_t done = 0;
    for (size_t i = 0; commit && rc == 0 && i < wr->nstaged; i++) {
        if (pr_commit_temp(wr->staged[i].tmp, wr->staged[i].full, err) < 0)
            rc = -1;
        else
            done = i + 1;
    }
    for (size_t i = 0; i < wr->nstaged; i++) {
        struct staged *st = &wr->staged[i];
        if (rc < 0 && i < done) {
            pr_err e2;
            int undo = st->old ? pr_write_if_changed(st->full, st->old, st->old_len, &e2)
                               : unlink(st->full);
            if (undo < 0)
                pr_err_prefix(err, "%s could not be put back", st->full);
        }
        if (!commit || i >= done)
            unlink(st->tmp); /* pr_commit_temp removed the one that failed */
        free(st->full);
        free(st->tmp);
        free(st->old);
    }
    free(wr->staged);
    wr->staged = NULL;
    wr->nstaged = 0;
    return rc;
}

/* A file gen generates (README*.md, *.svg, *.png): one of an earlier
 * generation that this one did not write is stale. */
static int generated_name(const char *name)
{
    size_t l = strlen(name);
    return (strncmp(name, "README", 6) == 0 && l > 3 && strcmp(name + l - 3, ".md") == 0) ||
           (l > 4 && (strcmp(name + l - 4, ".svg") == 0 || strcmp(name + l - 4, ".png") == 0));
}

/* A temporary file of a writer that is no longer running. */
static int dead_temp(const char *name)
{
    long pid;
    return pr_is_temp_name(name, &pid) && (pid == (long)getpid() || !pr_pid_alive(pid));
}

/* In place: removes generated files under dir that this generation did not
 * write, and temporary files of dead builds, then empty folders. */
static void remove_stale(const writer *wr, const char *rel)
{
    char *dir = rel[0] ? pr_path_join(wr->out_dir, rel) : pr_xstrdup(wr->out_dir);
    char **names = NULL;
    pr_err ignored;
    if (pr_list_dir(dir, &names, NULL, &ignored) < 0) {
        free(dir);
        return;
    }
    for (char **p = names; *p; p++) {
        char *r = rel[0] ? pr_xasprintf("%s/%s", rel, *p) : pr_xstrdup(*p);
        char *full = pr_path_join(wr->out_dir, r);
        struct stat st;
        if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
            remove_stale(wr, r);
            rmdir(full); /* only succeeds when empty */
        } else if (dead_temp(*p)) {
            unlink(full);
        } else if (generated_name(*p)) {
            int keep = 0;
            for (size_t i = 0; i < wr->n && !keep; i++)
                keep = strcmp(wr->written[i], r) == 0;
            if (!keep)
                unlink(full);
        }
        free(r);
        free(full);
    }
    pr_strv_free(names);
    free(dir);
}

/* Staging: brings into the staging tree what OUT/rel holds that the build
 * keeps though it did not write it (files gen does not generate: notes
 * someone added, the marker), as hard links; a stale generated file, a
 * temporary file or an emptied folder is left behind and marks the
 * generation as changed. */
static int carry_over(writer *wr, const char *rel, pr_err *err)
{
    char *dir = rel[0] ? pr_path_join(wr->real_out, rel) : pr_xstrdup(wr->real_out);
    char **names = NULL;
    int rc = pr_list_dir(dir, &names, NULL, err);
    for (char **p = names; rc == 0 && p && *p; p++) {
        char *r = rel[0] ? pr_xasprintf("%s/%s", rel, *p) : pr_xstrdup(*p);
        char *full = pr_path_join(dir, *p);
        char *dst = pr_path_join(wr->stage, r);
        struct stat st, ds;
        int staged = lstat(dst, &ds) == 0;
        if (lstat(full, &st) < 0) {
            /* vanished meanwhile */
        } else if (S_ISDIR(st.st_mode)) {
            rc = carry_over(wr, r, err);
            if (rc == 0 && lstat(dst, &ds) < 0)
                wr->changed = 1; /* emptied: it goes */
        } else if (staged) {
            /* written by this build */
        } else if (pr_is_temp_name(*p, NULL) || generated_name(*p)) {
            wr->changed = 1; /* stale: it goes */
        } else {
            char *ddir = pr_path_dirname(dst);
            rc = pr_mkdirs(ddir, err);
            if (rc == 0)
                rc = pr_link_or_copy(full, dst, err);
            free(ddir);
        }
        free(dst);
        free(full);
        free(r);
    }
    pr_strv_free(names);
    free(dir);
    return rc;
}

/* Removes what dead builds left beside OUT: their staging folders, and an
 * old generation (put back first when OUT is missing: a build killed
 * between its two renames). */
static void remove_leftovers(const writer *wr)
{
    char **names = NULL;
    pr_err ignored;
    if (pr_list_dir(wr->parent, &names, NULL, &ignored) < 0)
        return;
    size_t bl = strlen(wr->base);
    for (char **p = names; *p; p++) {
        const char *name = *p, *kind = name + 1 + bl;
        if (name[0] != '.' || strncmp(name + 1, wr->base, bl) != 0)
            continue;
        int old = strncmp(kind, OLD_INFIX, strlen(OLD_INFIX)) == 0;
        if (!old && strncmp(kind, STAGING_INFIX, strlen(STAGING_INFIX)) != 0)
            continue;
        const char *digits = kind + strlen(old ? OLD_INFIX : STAGING_INFIX);
        char *end;
        errno = 0;
        long pid = strtol(digits, &end, 10);
        if (end == digits || *end || errno || pid <= 0 ||
            (pid != (long)getpid() && pr_pid_alive(pid)))
            continue;
        char *path = pr_path_join(wr->parent, name);
        char *out = pr_path_join(wr->parent, wr->base);
        struct stat st;
        if (!(old && lstat(out, &st) < 0 && errno == ENOENT && rename(path, out) == 0))
            pr_remove_tree(path);
        free(out);
        free(path);
    }
    pr_strv_free(names);
}

/* Finds where OUT is and prepares the staging folder (or in-place writing),
 * after removing the leftovers of dead builds. */
static int open_stage(writer *wr, pr_err *err)
{
    struct stat st, pst;
    int rc = -1;
    if (lstat(wr->out_dir, &st) == 0) {
        /* A link to the reports: they are replaced where they are. */
        wr->real_out = realpath(wr->out_dir, NULL);
        if (!wr->real_out)
            return pr_err_errno(err, wr->out_dir, "cannot resolve");
        if (!pr_is_dir(wr->real_out))
            return pr_err_set(err, wr->out_dir, 0, 0, NULL, "exists and is not a folder");
        if (strcmp(wr->real_out, "/") == 0)
            return pr_err_set(err, wr->out_dir, 0, 0, NULL, "cannot be the root folder");
        wr->parent = pr_path_dirname(wr->real_out);
        wr->base = pr_xstrdup(strrchr(wr->real_out, '/') + 1);
    } else {
        char *out = pr_xstrdup(wr->out_dir);
        for (size_t l = strlen(out); l > 1 && out[l - 1] == '/'; l--)
            out[l - 1] = '\0';
        const char *slash = strrchr(out, '/');
        wr->base = pr_xstrdup(slash ? slash + 1 : out);
        wr->parent = pr_path_dirname(out);
        free(out);
        if (!wr->base[0] || strcmp(wr->base, ".") == 0 || strcmp(wr->base, "..") == 0)
            return pr_err_set(err, wr->out_dir, 0, 0, NULL, "not a folder name");
        if (pr_mkdirs(wr->parent, err) < 0)
            return -1;
    }
    remove_leftovers(wr);
    if (wr->real_out && (stat(wr->parent, &pst) < 0 || stat(wr->real_out, &st) < 0 ||
                         pst.st_dev != st.st_dev))
        return 0; /* a mount point cannot be swapped: in place */
    char *name = pr_xasprintf(".%s" STAGING_INFIX "%ld", wr->base, (long)getpid());
    wr->stage = pr_path_join(wr->parent, name);
    free(name);
    if (mkdir(wr->stage, 0755) == 0) {
        /* The new OUT keeps the permissions of the old one. */
        if (wr->real_out)
            (void)chmod(wr->stage, st.st_mode & 07777);
        rc = 0;
    } else if (wr->real_out && (errno == EACCES || errno == EPERM)) {
        rc = 0; /* OUT's parent is not ours to write: in place */
    } else {
        rc = pr_err_errno(err, wr->stage, "cannot create the staging folder");
    }
    if (rc < 0 || !pr_is_dir(wr->stage)) {
        free(wr->stage);
        wr->stage = NULL;
    }
    return rc;
}

/* Puts the staging tree in OUT's place and removes the previous
 * generation. */
static int swap_in(writer *wr, pr_err *err)
{
    if (!wr->real_out) {
        if (rename(wr->stage, wr->out_dir) < 0)
            return pr_err_errno(err, wr->out_dir, "cannot rename the new reports into place");
        free(wr->stage);
        wr->stage = NULL;
        return 0;
    }
    int rc = 0;
    if (pr_exchange(wr->stage, wr->real_out) == 0) {
        /* the staging folder now holds the previous generation */
    } else if (errno != EINVAL && errno != ENOSYS) {
        char *what = pr_xasprintf("cannot swap the new reports (%s) into place", wr->stage);
        rc = pr_err_errno(err, wr->real_out, what);
        free(what);
    } else {
        /* No RENAME_EXCHANGE here: two renames.  A kill between them leaves
         * OUT missing and the previous generation at .NAME.old.PID, which the
         * next build puts back. */
        char *name = pr_xasprintf(".%s" OLD_INFIX "%ld", wr->base, (long)getpid());
        char *old = pr_path_join(wr->parent, name);
        free(name);
        if (rename(wr->real_out, old) < 0) {
            rc = pr_err_errno(err, wr->real_out, "cannot move the previous reports aside");
        } else if (rename(wr->stage, wr->real_out) < 0) {
            rc = pr_err_errno(err, wr->real_out, "cannot rename the new reports into place");
            (void)rename(old, wr->real_out);
        } else {
            free(wr->stage);
            wr->stage = old;
            old = NULL;
        }
        free(old);
    }
    return rc;
}

int pr_report_build(const pr_dataset *d, const pr_report_opts *o, pr_err *err)
{
    writer wr;
    memset(&wr, 0, sizeof wr);
    wr.out_dir = o->out_dir;
    char *marker = pr_path_join(o->out_dir, MARKER);
    int rc = -1;
    static const char note[] = "Generated by perfrepro-gen: files here are rewritten from data/.\n";
    /* Hardening: a template may be a symbolic link to /etc/shadow, which
     * the pages would then quote; any template file may be read. */
    if (pr_check_tree_within(o->templates_dir, err) < 0)
        goto out;
    if (pr_is_dir(o->out_dir) && !pr_is_file(marker)) {
        char **names = NULL;
        size_t n = 0;
        if (pr_list_dir(o->out_dir, &names, &n, err) < 0)
            goto out;
        pr_strv_free(names);
        if (n) {
            pr_err_set(err, o->out_dir, 0, 0, NULL,
                       "exists, is not empty and has no %s marker: not overwriting it", MARKER);
            goto out;
        }
    }
    if (open_stage(&wr, err) < 0)
        goto out;
    if (wr.stage ? write_emit(&wr, MARKER, note, sizeof note - 1, err) < 0
                 : pr_write_if_changed(marker, note, sizeof note - 1, err) < 0)
        goto out;
    if (pr_report_render(d, o, write_emit, &wr, err) < 0)
        goto out;
    if (wr.stage) {
        if (wr.real_out && carry_over(&wr, "", err) < 0)
            goto out;
        /* Nothing changed: OUT stays as it is, folders included. */
        if ((wr.changed || !wr.real_out) && swap_in(&wr, err) < 0)
            goto out;
    } else {
        if (finish_staged(&wr, 1, err) < 0)
            goto out;
        remove_stale(&wr, "");
    }
    rc = 0;
out:
    finish_staged(&wr, 0, NULL); /* after a failure: the staged files go */
    if (wr.stage)
        pr_remove_tree(wr.stage); /* the previous generation, or a failed one */
    for (size_t i = 0; i < wr.n; i++)
        free(wr.written[i]);
    free(wr.written);
    free(wr.stage);
    free(wr.real_out);
    free(wr.parent);
    free(wr.base);
    free(wr.made_dir);
    free(marker);
    return rc;
}
