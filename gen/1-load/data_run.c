/* data_run: one run folder loaded: its environment, records, logs and fits. */
#include "data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/workers.h"
#include "envrec.h"
#include "fileio.h"
#include "fitfile.h"
#include "jdoc.h"
#include "runset.h"
#include "steady.h"
#include "data_int.h"

/* The platform of a run: the one whose device names the run's GPU, or on a
 * run without GPUs its CPU; NULL when no platform file matches. */
static const pr_platform *env_platform(const pr_platforms *ps, json_t *env)
{
    json_t *gpu = json_object_get(env, "gpu"), *host = json_object_get(env, "host");
    const char *name = json_string_value(json_object_get(gpu, "name"));
    if (!name)
        name = json_string_value(json_object_get(host, "cpu_model"));
    return platform_for_device(ps, name);
}

static int load_env(pr_run *r, const char *path, pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    int rc = -1;
    /* The one schema of env.json (lib/envrec.c): types and ranges too. */
    if (pr_envrec_check(&root, err) < 0)
        goto out;
    r->env = json_incref(root.v);
    rc = 0;
out:
    pr_jdoc_free(doc);
    return rc;
}

/* The identity of a case, as a key of the loader's set of seen cases: the
 * same case on two platforms is two cases (an A100 and a V100 import), and
 * so is the same case in two run folders: two run sets, two points of its
 * history or the two sides of an A/B (docs/data-model.md#run-sets). */
static char *case_key(const char *run, const pr_record *r, const pr_platform *p)
{
    return pr_xasprintf("%s\x1f%s\x1f%s\x1f%s\x1f%d\x1f%d\x1f%d\x1f%d\x1f%s", run, r->model,
                        r->framework, r->precision, r->batch_size, r->nodes, r->gpus_per_node,
                        r->repeat, p ? p->id : "");
}

const pr_platform *data_record_platform(const pr_dataset *d, const pr_run *run, const pr_record *r)
{
    return r->platform ? platform_find(&d->platforms, r->platform) : run->platform;
}

/* A record's GPUs per node must fit on one node of its platform: 1 node x
 * 32 GPUs on a platform of 8 GPUs per node is a 4-node job recorded
 * without its nodes, whose figure would never meet the published 4x32 one
 * (issue 24).  Only GPU platforms that state their devices per node: a CPU
 * platform counts cores, and processes may outnumber them.  The error
 * names the record's gpus_per_node (its line and column) and the nodes the
 * job needs. */
static int check_per_node(const char *path, const pr_record *rec, const pr_platform *p, pr_err *err)
{
    /* A failed case has no figure to misplace: a suite's 8-GPU case run on a
     * 4-GPU machine is a record of why it could not run (no_gpu). */
    if (rec->failed || !p || p->per_node <= 0 || !p->kind || strcmp(p->kind, "gpu") != 0 ||
        rec->gpus_per_node <= p->per_node)
        return 0;
    pr_jdoc *doc = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    pr_jdoc_jcur field = pr_jdoc_jchild(&root, "gpus_per_node");
    int need = (rec->gpu_num + p->per_node - 1) / p->per_node;
    pr_buf fix = PR_BUF_INIT;
    if (rec->gpu_num % need == 0)
        pr_buf_printf(&fix, " (\"nodes\": %d, \"gpus_per_node\": %d)", need, rec->gpu_num / need);
    pr_jdoc_jfail(&field, err,
                  "%d GPUs on %s, but a node of platform %s (%s) has %d: the %d-GPU job spans at "
                  "least %d nodes%s",
                  rec->gpus_per_node, rec->nodes == 1 ? "one node" : "each node", p->id, p->file,
                  p->per_node, rec->gpu_num, need, pr_buf_cstr(&fix));
    pr_buf_free(&fix);
    pr_jdoc_free(doc);
    return -1;
}

/* What data_entry said of a log, found beside its record's loading (in
 * a worker): rc and mode, and the message when rc < 0 (malloc'd). */
typedef struct log_entry {
    int rc;
    unsigned mode;
    char *error;
} log_entry;

/* The log a record names (log_file, a checked relative path) must be a
 * regular file resolving inside root: it is linked and published.  Its
 * folder is checked once per run (*log_dir, malloc'd, remembers it); the
 * file itself as data_entry says, or as pre says when not NULL. */
static int check_log(const char *root, const char *run_dir, const char *log_file, char **log_dir,
                     const log_entry *pre, const char *record, const char *field, pr_err *err)
{
    char *dir = pr_fileio_path_dirname(log_file);
    char *log = pr_fileio_path_join(run_dir, log_file);
    unsigned mode = 0;
    int rc = 1;
    if (strcmp(dir, ".") != 0 && (!*log_dir || strcmp(*log_dir, dir) != 0)) {
        free(*log_dir);
        *log_dir = NULL;
        rc = data_path(root, run_dir, dir, &mode, err);
        if (rc == 1 && S_ISDIR(mode))
            *log_dir = pr_xstrdup(dir);
        else if (rc == 1)
            rc = 0;
    }
    if (rc == 1 && pre) {
        rc = pre->rc;
        mode = pre->mode;
        if (rc < 0)
            pr_err_set(err, NULL, 0, 0, NULL, "%s", pre->error);
    } else if (rc == 1) {
        rc = data_entry(root, log, &mode, err);
    }
    if (rc < 0)
        pr_err_prefix(err, "%s: %s", record, field);
    else if (rc == 0)
        rc = pr_err_set(err, record, 0, 0, field, "\"%s\" does not exist in %s", log_file, run_dir);
    else if (!S_ISREG(mode))
        rc = pr_err_set(err, record, 0, 0, field, "\"%s\" is %s, not a regular file", log_file,
                        pr_fileio_mode_name(mode));
    else
        rc = 0;
    free(log);
    free(dir);
    return rc;
}

/* Record file path into rec.  A record that is a symbolic link must lead
 * inside root (data_entry); any other is opened without following links,
 * which checks and opens it in one system call instead of lstat, then open
 * (issue 31 #21: 10^5 records). */
static int load_record(const char *root, const char *path, pr_record *rec, pr_err *err)
{
    pr_buf text = PR_BUF_INIT;
    pr_jdoc *doc = NULL;
    unsigned mode;
    int rc = pr_fileio_read_file_nofollow(path, &text, err);
    if (rc == 1)
        rc = data_entry(root, path, &mode, err) < 0 ? -1 : pr_fileio_read_file(path, &text, err);
    if (rc == 0)
        rc = pr_jdoc_parse(path, pr_buf_cstr(&text), text.len, &doc, err);
    if (rc == 0) {
        pr_jdoc_jcur top = pr_jdoc_root(doc);
        rc = pr_record_from_json(&top, rec, err);
    }
    pr_jdoc_free(doc);
    pr_buf_free(&text);
    return rc;
}

/* The record files of a run set, read and parsed on every processor
 * (workers.h): that was most of loading 10^5 records (issue 31 #21).  Each
 * job writes only its own slot; what is checked against other files (logs,
 * duplicates, fits) stays in data_load_run, in name order, so the model and the
 * first error are what one thread gives. */
typedef struct record_jobs {
    const char *root, *run_dir;
    char **paths;       /* the record files, in name order */
    pr_record *records; /* slot i: paths[i] loaded (the run's own array) */
    char **errors;      /* slot i: NULL, or the message when it failed (malloc'd) */
    log_entry *logs;    /* slot i: what is at records[i].log_file */
    const pr_platforms *platforms;
    const pr_platform *run_platform; /* the run's (env.json's device) */
    const char *name;                /* the run folder's name */
    char **keys;                     /* slot i: case_key of records[i] (malloc'd) */
} record_jobs;

static void load_record_job(void *ctx, size_t i)
{
    record_jobs *j = ctx;
    pr_err e;
    pr_record_init(&j->records[i]);
    if (load_record(j->root, j->paths[i], &j->records[i], &e) < 0) {
        j->errors[i] = pr_xstrdup(e.msg);
        return;
    }
    /* Its identity among the cases, made here (the set is checked in
     * order by data_load_run); an unknown platform is found there. */
    const pr_record *rec = &j->records[i];
    const pr_platform *plat =
        rec->platform ? platform_find(j->platforms, rec->platform) : j->run_platform;
    j->keys[i] = case_key(j->name, rec, plat);
    /* Its log, looked at here too (an lstat a record); check_log still
     * checks its folder first, in order. */
    const char *log_file = j->records[i].log_file;
    if (log_file && log_file[0]) {
        char *log = pr_fileio_path_join(j->run_dir, log_file);
        log_entry *le = &j->logs[i];
        le->rc = data_entry(j->root, log, &le->mode, &e);
        if (le->rc < 0)
            le->error = pr_xstrdup(e.msg);
        free(log);
    }
}

int data_load_run(pr_dataset *d, json_t *seen, const char *dir, const char *name, pr_err *err)
{
    pr_run r;
    memset(&r, 0, sizeof r);
    r.dir = pr_fileio_path_join(dir, name);
    r.name = pr_xstrdup(name);
    char *env = pr_fileio_path_join(r.dir, "env.json");
    char *index = pr_fileio_path_join(r.dir, "logs/index");
    char **names = NULL;
    char *log_dir = NULL; /* the folder of the last log checked */
    record_jobs jobs = {d->dir, NULL, NULL, NULL, NULL, NULL, &d->platforms, NULL, name, NULL};
    size_t njobs = 0, next = 0; /* next: the first slot not yet taken into r */
    int rc = -1, has;
    unsigned mode;
    if ((has = data_entry(d->dir, env, &mode, err)) < 0 || (has && load_env(&r, env, err) < 0))
        goto out;
    r.platform = r.env ? env_platform(&d->platforms, r.env) : NULL;
    if ((has = data_path(d->dir, r.dir, "logs/index", &mode, err)) < 0 ||
        (has && S_ISDIR(mode) && pr_fileio_list_dir(index, &names, NULL, err) < 0))
        goto out;
    /* Most run sets have no fit folder: one stat says so, not one per record
     * (issue 31 #17).  When it is there (or cannot be looked at), each
     * record's report is looked up and checked as before. */
    char *fit_dir_path = pr_fileio_path_join(r.dir, "fit");
    pr_err ignored;
    int fit_dir = data_entry(d->dir, fit_dir_path, &mode, &ignored) != 0;
    free(fit_dir_path);
    for (char **p = names; p && *p; p++) {
        size_t l = strlen(*p);
        if (l >= 7 && strcmp(*p + l - 6, "_speed") == 0)
            njobs++;
    }
    jobs.paths = pr_xcalloc(njobs + 1, sizeof *jobs.paths);
    jobs.errors = pr_xcalloc(njobs + 1, sizeof *jobs.errors);
    jobs.logs = pr_xcalloc(njobs + 1, sizeof *jobs.logs);
    jobs.keys = pr_xcalloc(njobs + 1, sizeof *jobs.keys);
    jobs.run_dir = r.dir;
    jobs.run_platform = r.platform;
    r.records = jobs.records = pr_xcalloc(njobs + 1, sizeof *r.records);
    r.record_files = pr_xcalloc(njobs + 1, sizeof *r.record_files);
    r.fits = pr_xcalloc(njobs + 1, sizeof *r.fits);
    njobs = 0;
    for (char **p = names; p && *p; p++) {
        size_t l = strlen(*p);
        if (l >= 7 && strcmp(*p + l - 6, "_speed") == 0)
            jobs.paths[njobs++] = pr_fileio_path_join(index, *p);
    }
    workers_run(njobs, load_record_job, &jobs);
    /* Slot i is taken (next = i + 1) before it is checked: from then on
     * this loop frees it on error, as it did when it loaded it. */
    while (next < njobs) {
        size_t i = next++;
        char *path = jobs.paths[i];
        pr_record rec = r.records[i]; /* r.nrecords == i: it stays in place */
        if (jobs.errors[i]) {
            pr_err_set(err, NULL, 0, 0, NULL, "%s", jobs.errors[i]);
            pr_record_clear(&rec);
            free(path);
            goto out;
        }
        int bad = rec.log_file[0] && check_log(d->dir, r.dir, rec.log_file, &log_dir, &jobs.logs[i],
                                               path, "log_file", err) < 0;
        /* Every log of "logs" is linked like log_file: the same checks. */
        for (size_t i = 0; !bad && i < json_array_size(rec.logs); i++) {
            char field[32];
            const char *lp = json_string_value(json_array_get(rec.logs, i));
            snprintf(field, sizeof field, "logs[%zu]", i);
            if (!pr_fileio_path_is_safe_relative(lp))
                bad = pr_err_set(err, path, 0, 0, field,
                                 "\"%s\" must be a relative path inside "
                                 "the run directory",
                                 lp) < 0;
            else
                bad = check_log(d->dir, r.dir, lp, &log_dir, NULL, path, field, err) < 0;
        }
        if (bad) {
            pr_record_clear(&rec);
            free(path);
            goto out;
        }
        /* A record written before "steady" existed is judged here from its
         * step trace, by the same function measure uses (lib/steady.h);
         * without a trace it stays unknown. */
        if (!rec.steady && !rec.failed)
            rec.steady = pr_steady_of_trace(rec.step_trace);
        const pr_platform *plat =
            rec.platform ? platform_find(&d->platforms, rec.platform) : r.platform;
        if (rec.platform && !plat) {
            pr_err_set(err, path, 0, 0, "platform",
                       "unknown platform \"%s\" (no data/platforms/%s.json)", rec.platform,
                       rec.platform);
            pr_record_clear(&rec);
            free(path);
            goto out;
        }
        if (check_per_node(path, &rec, plat, err) < 0) {
            pr_record_clear(&rec);
            free(path);
            goto out;
        }
        const char *key = jobs.keys[i];
        json_t *other = json_object_get(seen, key);
        if (other) {
            pr_err_set(err, path, 0, 0, NULL, "duplicate case: %s also has it",
                       json_string_value(other));
            pr_record_clear(&rec);
            free(path);
            goto out;
        }
        json_object_set_new(seen, key, json_string(path));
        /* The case's fit report, when its import searched the rules (fitfile.h). */
        json_t *fit = NULL;
        char *fit_rel = pr_xasprintf("fit/%s.json", rec.case_name);
        int has_fit = fit_dir ? data_path(d->dir, r.dir, fit_rel, &mode, err) : 0;
        if (has_fit > 0 && S_ISREG(mode)) {
            char *fit_path = pr_fileio_path_join(r.dir, fit_rel);
            has_fit = fitfile_load(fit_path, &fit, err);
            free(fit_path);
        }
        free(fit_rel);
        if (has_fit < 0) {
            pr_record_clear(&rec);
            free(path);
            goto out;
        }
        r.records[r.nrecords] = rec; /* room for every record file: njobs */
        r.fits[r.nrecords] = fit;
        r.record_files[r.nrecords++] = path;
    }
    /* The suite that made these runs: every record must be one of its
     * cases (docs/data-model.md#run-sets). */
    char *suite_path = pr_fileio_path_join(r.dir, "suite.json");
    if ((has = data_entry(d->dir, suite_path, &mode, err)) > 0)
        has = S_ISREG(mode) ? pr_suite_load(suite_path, &r.suite, err)
                            : pr_err_set(err, suite_path, 0, 0, NULL, "is %s, not a regular file",
                                         pr_fileio_mode_name(mode));
    json_t *cases = json_object(); /* the suite's case names, looked up once each */
    for (size_t c = 0; r.suite && c < r.suite->ncases; c++)
        json_object_set_new(cases, r.suite->cases[c].name, json_true());
    for (size_t i = 0; has >= 0 && r.suite && i < r.nrecords; i++) {
        const pr_record *rec = &r.records[i];
        int found = json_object_get(cases, rec->case_name) != NULL;
        if (strcmp(r.suite->model, rec->model) != 0 ||
            strcmp(r.suite->framework, rec->framework) != 0)
            has = pr_err_set(err, r.record_files[i], 0, 0, "model",
                             "is %s / %s, but the run's "
                             "suite.json is of %s / %s",
                             rec->model, rec->framework, r.suite->model, r.suite->framework);
        else if (!found)
            has = pr_err_set(err, r.record_files[i], 0, 0, "case",
                             "\"%s\" is no case of the "
                             "run's suite.json: its steps did not make this figure",
                             rec->case_name);
    }
    json_decref(cases);
    free(suite_path);
    if (has < 0)
        goto out;
    /* The folder as a run set, with what it declares (runset.h). */
    char *decl = pr_fileio_path_join(r.dir, "runset.json");
    if ((has = data_entry(d->dir, decl, &mode, err)) > 0 && !S_ISREG(mode))
        has = pr_err_set(err, decl, 0, 0, NULL, "is %s, not a regular file",
                         pr_fileio_mode_name(mode));
    if (has < 0 || runset_load(d->envs, &r, has ? decl : NULL, err) < 0) {
        free(decl);
        goto out;
    }
    free(decl);
    d->runs = pr_xrealloc(d->runs, (d->nruns + 1) * sizeof *d->runs);
    d->runs[d->nruns++] = r;
    memset(&r, 0, sizeof r);
    rc = 0;
out:
    for (size_t i = next; i < njobs; i++) { /* loaded, not taken: an earlier one failed */
        pr_record_clear(&r.records[i]);
        free(jobs.paths[i]);
    }
    if (rc < 0) {
        for (size_t i = 0; i < r.nrecords; i++) {
            pr_record_clear(&r.records[i]);
            free(r.record_files[i]);
            json_decref(r.fits[i]);
        }
        free(r.records);
        free(r.record_files);
        free(r.fits);
        free(r.dir);
        free(r.name);
        json_decref(r.env);
        runset_free(r.set);
        pr_suite_free(r.suite);
    }
    for (size_t i = 0; i < njobs; i++) {
        free(jobs.errors[i]);
        free(jobs.logs[i].error);
        free(jobs.keys[i]);
    }
    free(jobs.keys);
    free(jobs.paths);
    free(jobs.errors);
    free(jobs.logs);
    pr_fileio_strv_free(names);
    free(log_dir);
    free(env);
    free(index);
    return rc;
}
