/* data: the data folder loaded whole (runs, published and restated figures, comparisons). */
#include "data.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/workers.h"
#include "comparisons.h"
#include "fileio.h"
#include "jdoc.h"
#include "pairing.h"
#include "runset.h"
#include "data_int.h"

/* DATA/restated/NAME.json: published-figures files of tables that restate
 * figures printed elsewhere (a report's comparison table).  Loaded by the
 * published loader into d->restated, which it sees as d->pubs meanwhile. */
static int load_restated(pr_dataset *d, unsigned *mode, pr_err *err)
{
    char *dir = pr_fileio_path_join(d->dir, "restated");
    char **files = NULL;
    size_t n = 0;
    int rc = -1;
    pr_pub_table *pubs = d->pubs;
    size_t npubs = d->npubs;
    d->pubs = NULL;
    d->npubs = 0;
    if (data_entry(d->dir, dir, mode, err) < 0 ||
        (S_ISDIR(*mode) && data_find_json(d->dir, dir, 0, &files, &n, err) < 0))
        goto out;
    for (size_t i = 0; i < n; i++)
        if (data_load_published(d, files[i], err) < 0)
            goto out;
    rc = 0;
out:
    d->restated = d->pubs;
    d->nrestated = d->npubs;
    d->pubs = pubs;
    d->npubs = npubs;
    pr_fileio_strv_free(files);
    free(dir);
    return rc;
}

/* DIR/comparisons/NAME.json (comparisons.h), once runs and published
 * tables are loaded: a selector must select something. */
static int load_comparisons(pr_dataset *d, unsigned *mode, pr_err *err)
{
    char *dir = pr_fileio_path_join(d->dir, "comparisons");
    char **names = NULL;
    int rc = data_entry(d->dir, dir, mode, err) < 0 ? -1
             : S_ISDIR(*mode)                       ? pr_fileio_list_dir(dir, &names, NULL, err)
                                                    : 0;
    for (char **p = names; rc == 0 && p && *p; p++) {
        char *path = pr_fileio_path_join(dir, *p);
        size_t l = strlen(*p);
        unsigned m = 0;
        rc = data_entry(d->dir, path, &m, err) < 0 ? -1 : 0;
        /* Every entry is a declaration: x.JSON or a folder was once skipped
         * without a word, and its comparison silently never rendered. */
        if (rc == 0 && (!S_ISREG(m) || l <= 5 || strcmp(*p + l - 5, ".json") != 0))
            rc = pr_err_set(err, path, 0, 0, NULL,
                            "not a comparison: %s/ holds only files NAME.json, each one "
                            "comparison (move or rename it)",
                            dir);
        if (rc == 0)
            rc = comparisons_load_file(d, path, err);
        free(path);
    }
    pr_fileio_strv_free(names);
    free(dir);
    return rc;
}

/* load_suites' slots: suite i of files, or why it could not be loaded. */
typedef struct suite_jobs {
    char **files;
    pr_suite **suites; /* slot i: files[i] loaded, NULL when it failed */
    char **errors;     /* slot i: the message when it failed (malloc'd) */
} suite_jobs;

static void load_suite_job(void *ctx, size_t i)
{
    suite_jobs *j = ctx;
    pr_err e;
    if (pr_suite_load(j->files[i], &j->suites[i], &e) < 0)
        j->errors[i] = pr_xstrdup(e.msg);
}

/* The suite files files[0..n) into d->suites, read on every processor
 * (a suite a report: 5,000 at 10^5 records), then checked in name order:
 * the first error is the one a single thread meets.  One suite per model
 * and framework, found by a hash of the pair (issue 31 #20). */
static int load_suites(pr_dataset *d, char **files, size_t n, pr_err *err)
{
    suite_jobs j = {files, pr_xcalloc(n + 1, sizeof *j.suites),
                    pr_xcalloc(n + 1, sizeof *j.errors)};
    json_t *pairs = json_object(); /* "model\x1fframework" -> its place in d->suites */
    int rc = 0;
    workers_run(n, load_suite_job, &j);
    for (size_t i = 0; i < n && rc == 0; i++) {
        pr_suite *s = j.suites[i];
        if (j.errors[i]) {
            rc = pr_err_set(err, NULL, 0, 0, NULL, "%s", j.errors[i]);
            break;
        }
        char *pair = pr_xasprintf("%s\x1f%s", s->model, s->framework);
        json_t *first = json_object_get(pairs, pair);
        if (first)
            rc = pr_err_set(err, files[i], 0, 0, NULL, "a second suite for %s / %s (first: %s)",
                            s->model, s->framework, d->suites[json_integer_value(first)]->path);
        else if (s->platform && !platform_find(&d->platforms, s->platform))
            rc = pr_err_set(err, files[i], 0, 0, "platform",
                            "unknown platform \"%s\" (no data/platforms/%s.json)", s->platform,
                            s->platform);
        else
            json_object_set_new(pairs, pair, json_integer((json_int_t)d->nsuites));
        free(pair);
        if (rc < 0)
            break;
        d->suites = pr_xrealloc(d->suites, (d->nsuites + 1) * sizeof *d->suites);
        d->suites[d->nsuites++] = s;
        j.suites[i] = NULL;
    }
    for (size_t i = 0; i < n; i++) {
        pr_suite_free(j.suites[i]);
        free(j.errors[i]);
    }
    free(j.suites);
    free(j.errors);
    json_decref(pairs);
    return rc;
}

/* The published and restated tables of d->dir into d->pubs and
 * d->restated. */
static int load_pubs(pr_dataset *d, pr_err *err)
{
    char *pubs = pr_fileio_path_join(d->dir, "published");
    char **files = NULL;
    size_t n = 0;
    unsigned mode;
    int rc = -1;
    if (data_entry(d->dir, pubs, &mode, err) < 0 ||
        (S_ISDIR(mode) && data_find_json(d->dir, pubs, 0, &files, &n, err) < 0))
        goto out;
    for (size_t i = 0; i < n; i++)
        if (data_load_published(d, files[i], err) < 0)
            goto out;
    if (load_restated(d, &mode, err) < 0)
        goto out;
    rc = 0;
out:
    pr_fileio_strv_free(files);
    free(pubs);
    return rc;
}

/* load_pubs beside the suites, benchmarks, environments and run sets
 * (workers_beside): none of them reads a published table (one 2 MB file
 * was a serial tenth of a second at 10^5 records, issue 31 #17). */
typedef struct pubs_job {
    pr_dataset *d;
    pr_err err;
    int rc;
    workers_beside beside;
} pubs_job;

static void *pubs_run(void *arg)
{
    pubs_job *j = arg;
    j->rc = load_pubs(j->d, &j->err);
    return NULL;
}

/* The benchmarks, source environments and run sets of d->dir into d;
 * seen: the cases loaded so far (data_load_run). */
static int load_rest(pr_dataset *d, json_t *seen, pr_err *err)
{
    const char *dir = d->dir;
    char *runs = pr_fileio_path_join(dir, "runs");
    char **files = NULL, **names = NULL;
    size_t n = 0;
    unsigned mode;
    int rc = -1;
    char *bench = pr_fileio_path_join(dir, "bench");
    int bench_rc = data_entry(dir, bench, &mode, err) < 0 ? -1
                   : S_ISDIR(mode) ? data_find_json(dir, bench, 0, &files, &n, err)
                                   : 0;
    free(bench);
    if (bench_rc < 0)
        goto out;
    for (size_t i = 0; i < n; i++)
        if (data_load_bench(d, files[i], err) < 0)
            goto out;
    pr_fileio_strv_free(files);
    files = NULL;
    n = 0;
    char *envs = pr_fileio_path_join(dir, "environments");
    int env_rc = data_entry(dir, envs, &mode, err) < 0 ? -1
                 : S_ISDIR(mode) ? data_find_json(dir, envs, 0, &files, &n, err)
                                 : 0;
    free(envs);
    if (env_rc < 0)
        goto out;
    for (size_t i = 0; i < n; i++)
        if (srcenv_set_add_file(d->envs, files[i], err) < 0)
            goto out;
    if (data_entry(dir, runs, &mode, err) < 0)
        goto out;
    if (S_ISDIR(mode)) {
        if (pr_fileio_list_dir(runs, &names, NULL, err) < 0)
            goto out;
        for (char **p = names; *p; p++) {
            /* A dot name is a writer's staging or old tree (".RUN.staging.PID",
             * ".RUN.old.PID"), never a run set. */
            if ((*p)[0] == '.')
                continue;
            char *path = pr_fileio_path_join(runs, *p);
            int has = data_entry(dir, path, &mode, err);
            free(path);
            if (has < 0 || (S_ISDIR(mode) && data_load_run(d, seen, runs, *p, err) < 0))
                goto out;
        }
    }
    rc = 0;
out:
    pr_fileio_strv_free(files);
    pr_fileio_strv_free(names);
    free(runs);
    return rc;
}

int data_load(const char *dir, pr_dataset **out, pr_err *err)
{
    pr_jdoc_json_init();
    pr_dataset *d = pr_xcalloc(1, sizeof *d);
    d->dir = pr_xstrdup(dir);
    d->envs = srcenv_set_new();
    char *suites = pr_fileio_path_join(dir, "suites");
    char **files = NULL;
    size_t n = 0;
    int rc = -1;
    json_t *seen = json_object();          /* case identity -> the record file that has it */
    pubs_job pubs = {d, {{0}}, 0, {0, 0}}; /* the published tables, beside */
    if (!pr_fileio_is_dir(dir)) {
        pr_err_set(err, dir, 0, 0, NULL, "no such data directory");
        goto out;
    }
    unsigned mode;
    char *plat = pr_fileio_path_join(dir, "platforms");
    int plat_rc = data_entry(dir, plat, &mode, err) < 0 ? -1
                  : S_ISDIR(mode) ? data_find_json(dir, plat, 0, &files, &n, err)
                                  : 0;
    free(plat);
    if (plat_rc < 0)
        goto out;
    for (size_t i = 0; i < n; i++)
        if (platform_add_file(&d->platforms, files[i], err) < 0)
            goto out;
    pr_fileio_strv_free(files);
    files = NULL;
    n = 0;
    char *classes = pr_fileio_path_join(dir, "precision-classes.json");
    int cls_rc = data_entry(dir, classes, &mode, err);
    cls_rc = cls_rc < 0 ? -1 : decl_load_classes(&d->decls, cls_rc ? classes : NULL, err);
    free(classes);
    if (cls_rc < 0)
        goto out;
    char *hist = pr_fileio_path_join(dir, "history.json");
    int hist_rc = data_entry(dir, hist, &mode, err);
    hist_rc = hist_rc < 0
                  ? -1
                  : history_decl_load(&d->history, &d->platforms, hist_rc ? hist : NULL, err);
    free(hist);
    if (hist_rc < 0)
        goto out;
    char *models = pr_fileio_path_join(dir, "models");
    int mod_rc = data_entry(dir, models, &mode, err) < 0 ? -1
                 : S_ISDIR(mode) ? data_find_json(dir, models, 0, &files, &n, err)
                                 : 0;
    free(models);
    if (mod_rc < 0)
        goto out;
    for (size_t i = 0; i < n; i++)
        if (decl_add_model(&d->decls, &d->platforms, files[i], err) < 0)
            goto out;
    pr_fileio_strv_free(files);
    files = NULL;
    n = 0;
    /* The suites' error comes first, then the published tables', then the
     * rest's: the order they were loaded in before they were on threads. */
    workers_beside_start(&pubs.beside, workers_processors() > 1, pubs_run, &pubs);
    if (data_entry(dir, suites, &mode, err) < 0 ||
        (S_ISDIR(mode) && data_find_json(dir, suites, 0, &files, &n, err) < 0) ||
        load_suites(d, files, n, err) < 0) {
        workers_beside_wait(&pubs.beside);
        goto out;
    }
    pr_fileio_strv_free(files);
    files = NULL;
    n = 0;
    int rest_rc = load_rest(d, seen, err);
    workers_beside_wait(&pubs.beside);
    if (pubs.rc < 0) {
        *err = pubs.err;
        goto out;
    }
    if (rest_rc < 0)
        goto out;
    pairing_tables(d);
    if (load_comparisons(d, &mode, err) < 0)
        goto out;
    /* A headline for a model nothing else names is a typo, not a model. */
    for (size_t i = 0; i < d->decls.nmodels; i++) {
        const char *id = d->decls.models[i].id;
        int named = 0;
        for (size_t j = 0; j < d->nsuites && !named; j++)
            named = strcmp(d->suites[j]->model, id) == 0;
        for (size_t j = 0; j < d->npubs && !named; j++)
            named = strcmp(d->pubs[j].model, id) == 0;
        for (size_t j = 0; j < d->nruns && !named; j++)
            for (size_t k = 0; k < d->runs[j].nrecords && !named; k++)
                named = strcmp(d->runs[j].records[k].model, id) == 0;
        if (!named) {
            pr_err_set(err, d->decls.models[i].file, 0, 0, NULL,
                       "no suite, record or published table is of model \"%s\"", id);
            goto out;
        }
    }
    *out = d;
    d = NULL;
    rc = 0;
out:
    json_decref(seen);
    data_free(d);
    pr_fileio_strv_free(files);
    free(suites);
    return rc;
}

void data_free(pr_dataset *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->nsuites; i++)
        pr_suite_free(d->suites[i]);
    free(d->suites);
    for (size_t i = 0; i < d->npubs; i++)
        data_pub_table_free(&d->pubs[i]);
    free(d->pubs);
    for (size_t i = 0; i < d->nrestated; i++)
        data_pub_table_free(&d->restated[i]);
    free(d->restated);
    for (size_t i = 0; i < d->nruns; i++) {
        pr_run *r = &d->runs[i];
        for (size_t j = 0; j < r->nrecords; j++) {
            pr_record_clear(&r->records[j]);
            free(r->record_files[j]);
            json_decref(r->fits[j]);
        }
        free(r->records);
        free(r->record_files);
        free(r->fits);
        free(r->dir);
        free(r->name);
        json_decref(r->env);
        runset_free(r->set);
        pr_suite_free(r->suite);
    }
    free(d->runs);
    for (size_t i = 0; i < d->nbenches; i++)
        data_free_bench(&d->benches[i]);
    free(d->benches);
    srcenv_set_free(d->envs);
    comparisons_free_all(d);
    platform_list_free(&d->platforms);
    decl_free_all(&d->decls);
    history_decl_free(&d->history);
    free(d->dir);
    free(d);
}
