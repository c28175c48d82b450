/* import_mlperf: an MLPerf Training submission's result files (see the
 * header). */
#include "import_mlperf.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"
#include "import_fs.h"
#include "import_mlperf_runs.h"
#include "import_mlperf_steps.h"
#include "import_mlperf_sys.h"
#include "suite.h"

static const char MLLOG[] = ":::MLLOG ";

/* What one MLLOG line says, into out (run_start's and run_stop's times into
 * *start_ms, *stop_ms); throughputs are summed into out->throughput. */
static int take_line(const char *path, int lineno, json_t *o, import_mlperf_result *out,
                     long long *start_ms, long long *stop_ms, pr_err *err)
{
    const char *key = json_string_value(json_object_get(o, "key"));
    json_t *value = json_object_get(o, "value");
    if (!key)
        return pr_err_set(err, path, lineno, 0, "key", "an MLLOG line without a key");
    int is_start = !strcmp(key, "run_start"), is_stop = !strcmp(key, "run_stop");
    if (is_start || is_stop) {
        json_t *t = json_object_get(o, "time_ms");
        if (!json_is_integer(t) || json_integer_value(t) < 0)
            return pr_err_set(err, path, lineno, 0, "time_ms",
                              "%s without a time in ms (an integer)", key);
        if ((is_start && out->start_line) || (is_stop && out->stop_line))
            return pr_err_set(err, path, lineno, 0, key, "logged twice (line %d before)",
                              is_start ? out->start_line : out->stop_line);
        if (is_start) {
            out->start_line = lineno;
            *start_ms = json_integer_value(t);
        } else {
            out->stop_line = lineno;
            *stop_ms = json_integer_value(t);
            const char *status =
                json_string_value(json_object_get(json_object_get(o, "metadata"), "status"));
            if (!status || (strcmp(status, "success") && strcmp(status, "aborted")))
                return pr_err_set(err, path, lineno, 0, "metadata.status",
                                  "run_stop's status is \"%s\" (success or aborted)",
                                  status ? status : "(none)");
            snprintf(out->status, sizeof out->status, "%s", status);
            out->converged = !strcmp(status, "success");
        }
    } else if (!strcmp(key, "submission_benchmark") && json_is_string(value)) {
        snprintf(out->benchmark, sizeof out->benchmark, "%s", json_string_value(value));
    } else if (!strcmp(key, "global_batch_size") && json_is_integer(value)) {
        out->global_batch = json_integer_value(value);
    } else if (!strcmp(key, "tracked_stats")) {
        json_t *tp = json_object_get(value, "throughput");
        if (json_is_number(tp) && isfinite(json_number_value(tp))) {
            out->throughput += json_number_value(tp);
            out->throughputs++;
        }
    }
    return 0;
}

int import_mlperf_result_read(const char *path, import_mlperf_result *out, pr_err *err)
{
    int rc = -1;
    pr_buf text = PR_BUF_INIT;
    long long start_ms = 0, stop_ms = 0;
    memset(out, 0, sizeof *out);
    if (pr_fileio_read_file(path, &text, err) < 0)
        goto out;
    int lineno = 0;
    for (const char *line = pr_buf_cstr(&text); *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        lineno++;
        const char *at = memmem(line, len, MLLOG, sizeof MLLOG - 1);
        if (at) {
            const char *js = at + sizeof MLLOG - 1;
            json_error_t je;
            json_t *o = json_loadb(js, len - (size_t)(js - line), 0, &je);
            if (!json_is_object(o)) {
                json_decref(o);
                pr_err_set(err, path, lineno, 0, "MLLOG", "not a JSON object: %s", je.text);
                goto out;
            }
            int r = take_line(path, lineno, o, out, &start_ms, &stop_ms, err);
            json_decref(o);
            if (r < 0)
                goto out;
        }
        line = end ? end + 1 : line + len;
    }
    if (!out->start_line || !out->stop_line) {
        pr_err_set(err, path, 0, 0, out->start_line ? "run_stop" : "run_start",
                   "not logged: no time to train");
        goto out;
    }
    if (stop_ms < start_ms) {
        pr_err_set(err, path, out->stop_line, 0, "run_stop",
                   "at %lld ms, before run_start (%lld ms, line %d)", stop_ms, start_ms,
                   out->start_line);
        goto out;
    }
    out->minutes = (double)(stop_ms - start_ms) / 60000.0;
    out->start_ms = start_ms;
    if (out->throughputs)
        out->throughput /= (double)out->throughputs;
    rc = 0;
out:
    pr_buf_free(&text);
    return rc;
}

int import_mlperf_scaling_read(const char *path, double *factor, pr_err *err)
{
    int rc = -1;
    json_t *doc = NULL;
    struct stat st;
    *factor = 1;
    if (stat(path, &st) < 0 && errno == ENOENT)
        return 0;
    json_error_t je;
    doc = json_load_file(path, 0, &je);
    if (!doc) {
        pr_err_set(err, path, je.line, je.column, NULL, "not JSON: %s", je.text);
        goto out;
    }
    json_t *f = json_object_get(doc, "scaling_factor");
    if (!json_is_number(f) || !(json_number_value(f) > 0) || !isfinite(json_number_value(f))) {
        pr_err_set(err, path, 0, 0, "scaling_factor", "missing or not a number above 0");
        goto out;
    }
    *factor = json_number_value(f);
    rc = 0;
out:
    json_decref(doc);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir (sorted, without "." entries), as a NULL-terminated
 * array the caller frees with free_names. */
static char **list_dir(const char *dir, size_t *n, pr_err *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        pr_err_errno(err, dir, "cannot list");
        return NULL;
    }
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (*n + 2 > cap) {
            cap = cap ? 2 * cap : 16;
            names = pr_xrealloc(names, cap * sizeof *names);
        }
        names[(*n)++] = pr_xstrdup(de->d_name);
    }
    closedir(d);
    if (!names)
        names = pr_xmalloc(sizeof *names);
    names[*n] = NULL;
    qsort(names, *n, sizeof *names, by_name);
    return names;
}

static void free_names(char **names)
{
    for (size_t i = 0; names && names[i]; i++)
        free(names[i]);
    free(names);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The run number of a file name "result_N.txt" into *n; 0 when the name is
 * not one (N: decimal digits, no sign, below 1000000). */
static int result_number(const char *name, long *n)
{
    if (strncmp(name, "result_", 7))
        return 0;
    const char *d = name + 7;
    size_t digits = strspn(d, "0123456789");
    if (digits == 0 || digits > 6 || strcmp(d + digits, ".txt"))
        return 0;
    *n = strtol(d, NULL, 10);
    return 1;
}

static int by_number(const void *a, const void *b)
{
    long x = 0, y = 0;
    result_number(*(char *const *)a, &x);
    result_number(*(char *const *)b, &y);
    return (x > y) - (x < y);
}

/* The result files of one BENCHMARK folder of submission (result_N.txt in
 * number order: submitters number from 0 or from 1) read into *out (freed by
 * the caller); each a regular file inside the submission, of at most a log's
 * size (measure run's limit). */
static int read_results(const char *submission, const char *dir, import_mlperf_result **out,
                        size_t *n, pr_err *err)
{
    int rc = -1;
    size_t count = 0, runs = 0;
    char **names = list_dir(dir, &count, err);
    *out = NULL;
    *n = 0;
    if (!names)
        goto out;
    for (size_t i = 0; i < count; i++) {
        long num;
        if (result_number(names[i], &num))
            names[runs++] = names[i];
        else
            free(names[i]);
    }
    names[runs] = NULL;
    qsort(names, runs, sizeof *names, by_number);
    *out = pr_xmalloc((runs ? runs : 1) * sizeof **out);
    for (size_t i = 0; i < runs; i++) {
        char *path = pr_xasprintf("%s/%s", dir, names[i]);
        int r =
            import_fs_check_file(submission, path, PR_SUITE_LOG_LIMIT, "result file", NULL, err) < 0
                ? -1
                : import_mlperf_result_read(path, &(*out)[i], err);
        snprintf((*out)[i].file, sizeof(*out)[i].file, "%s", names[i]);
        free(path);
        if (r < 0)
            goto out;
        (*n)++;
    }
    rc = 0;
out:
    free_names(names);
    return rc;
}

/* Visits one SYSTEM/BENCHMARK folder. */
static int walk_benchmark(const char *submission, const char *submitter, const char *system,
                          const char *benchmark, const char *dir, import_mlperf_visit visit,
                          void *ctx, pr_err *err)
{
    int rc = -1;
    import_mlperf_result *results = NULL;
    import_mlperf_score_mlperf_run *runs = NULL;
    size_t n = 0;
    char *scaling = pr_xasprintf("%s/scaling.json", dir);
    double factor = 1;
    int has_scaling;
    if (read_results(submission, dir, &results, &n, err) < 0 ||
        import_fs_check_file(submission, scaling, IMPORT_MLPERF_TEXT_LIMIT, "scaling", &has_scaling,
                             err) < 0 ||
        (has_scaling && import_mlperf_scaling_read(scaling, &factor, err) < 0))
        goto out;
    runs = pr_xmalloc((n ? n : 1) * sizeof *runs);
    for (size_t i = 0; i < n; i++) {
        if (results[i].benchmark[0] && strcmp(results[i].benchmark, benchmark)) {
            pr_err_set(err, dir, 0, 0, "submission_benchmark",
                       "run %zu logs \"%s\", in the folder of %s", i + 1, results[i].benchmark,
                       benchmark);
            goto out;
        }
        runs[i].minutes = results[i].minutes;
        runs[i].converged = results[i].converged;
    }
    import_mlperf_entry e = {submitter, system, benchmark, dir, results, n, {0, 1, 0, 0, 0}};
    if (import_mlperf_score_compute(dir, benchmark, runs, n, factor, &e.score, err) < 0)
        goto out;
    rc = visit(&e, ctx, err);
out:
    free(scaling);
    free(results);
    free(runs);
    return rc;
}

int import_mlperf_walk(const char *submission, import_mlperf_visit visit, void *ctx, pr_err *err)
{
    int rc = -1;
    char **systems = NULL, **benchmarks = NULL;
    char *results = pr_xasprintf("%s/results", submission);
    const char *slash = strrchr(submission, '/');
    char *submitter = pr_xstrdup(slash && slash[1] ? slash + 1 : submission);
    size_t ns = 0, nb = 0;
    if (!is_dir(results)) {
        pr_err_set(err, submission, 0, 0, "results",
                   "no results/ folder: not an MLPerf Training submission (SUBMITTER/results/"
                   "SYSTEM/BENCHMARK/result_N.txt)");
        goto out;
    }
    systems = list_dir(results, &ns, err);
    if (!systems)
        goto out;
    for (size_t s = 0; s < ns; s++) {
        char *sysdir = pr_xasprintf("%s/%s", results, systems[s]);
        free_names(benchmarks);
        benchmarks = is_dir(sysdir) ? list_dir(sysdir, &nb, err) : NULL;
        for (size_t b = 0; benchmarks && b < nb; b++) {
            char *dir = pr_xasprintf("%s/%s", sysdir, benchmarks[b]);
            int r = is_dir(dir) ? walk_benchmark(submission, submitter, systems[s], benchmarks[b],
                                                 dir, visit, ctx, err)
                                : 0;
            free(dir);
            if (r < 0) {
                free(sysdir);
                goto out;
            }
        }
        free(sysdir);
    }
    rc = 0;
out:
    free_names(systems);
    free_names(benchmarks);
    free(results);
    free(submitter);
    return rc;
}

static int print_entry(const import_mlperf_entry *e, void *ctx, pr_err *err)
{
    (void)err;
    FILE *out = ctx;
    fprintf(out,
            "%s/%s/%s: score %.17g min (unscaled %.17g min, factor %.17g), %zu of %zu runs "
            "averaged, %zu did not converge\n",
            e->submitter, e->system, e->benchmark, e->score.score, e->score.unscaled,
            e->score.factor, e->score.used, e->nresults, e->score.not_converged);
    return 0;
}

int import_mlperf_print(const char *submission, FILE *out, pr_err *err)
{
    return import_mlperf_walk(submission, print_entry, out, err);
}

/* What the check pass of an import needs. */
typedef struct check_ctx {
    const import_mlperf_opts *o;
    const char *data; /* the data folder resolved; NULL: a dry run without one */
    FILE *out;        /* where a dry run prints the scores; NULL: no printing */
} check_ctx;

/* Checks one entry before anything is written: its system description a
 * source of the submission, its run folder absent or made by import
 * --mlperf (its SOURCE.md says so), unless --replace. */
static int check_entry(const import_mlperf_entry *e, void *ctx, pr_err *err)
{
    const check_ctx *c = ctx;
    char *desc = pr_xasprintf("%s/systems/%s.json", c->o->submission, e->system);
    char *run = c->data ? pr_xasprintf("%s/runs/mlperf-%s-%s-%s", c->data, e->submitter, e->system,
                                       e->benchmark)
                        : NULL;
    int rc = -1;
    if (import_fs_check_file(c->o->submission, desc, IMPORT_MLPERF_TEXT_LIMIT, "system description",
                             NULL, err) < 0 ||
        import_mlperf_steps_check(c->o->submission, e, err) < 0)
        goto out;
    /* The mark import_mlperf_runs' SOURCE.md carries. */
    if (run && import_fs_check_owner(run, "--mlperf", c->o->replace, err) < 0)
        goto out;
    rc = c->out ? print_entry(e, c->out, err) : 0;
out:
    free(desc);
    free(run);
    return rc;
}

/* The licence a run folder gets: the submitter's LICENSE.md, else the
 * repository's beside the submitter folders; either a regular file inside
 * its folder. */
static int check_licence(const char *submission, pr_err *err)
{
    char *own = pr_xasprintf("%s/LICENSE.md", submission);
    char *up = pr_xasprintf("%s/..", submission);
    char *repo = pr_xasprintf("%s/../LICENSE.md", submission);
    int exists = 0;
    int rc =
        import_fs_check_file(submission, own, IMPORT_MLPERF_TEXT_LIMIT, "licence", &exists, err);
    if (rc == 0 && !exists)
        rc = import_fs_check_file(up, repo, IMPORT_MLPERF_TEXT_LIMIT, "licence", NULL, err);
    free(own);
    free(up);
    free(repo);
    return rc;
}

/* Files one entry and prints its score. */
static int write_entry(const import_mlperf_entry *e, void *ctx, pr_err *err)
{
    const import_mlperf_runs_mlperf_dest *d = ctx;
    if (import_mlperf_runs_write(e, ctx, err) < 0)
        return -1;
    return print_entry(e, d->out, err);
}

int import_mlperf(const import_mlperf_opts *o, FILE *out, pr_err *err)
{
    int rc = -1, lock = -1;
    struct stat st;
    char *data = NULL;
    import_fs_stage stage;
    memset(&stage, 0, sizeof stage);
    if (stat(o->submission, &st) < 0 || !S_ISDIR(st.st_mode))
        return pr_err_set(err, o->submission, 0, 0, "--mlperf", "not a folder");
    if (!o->dry_run && (!o->repo || !o->commit))
        return pr_err_set(err, NULL, 0, 0, "--repo, --commit",
                          "an MLPerf import names where the results are published "
                          "(--repo mlcommons/training_results_v4.0 --commit SHA)");
    data = realpath(o->data, NULL);
    if (!data && !o->dry_run)
        return pr_err_errno(err, o->data, "--data");
    /* One import at a time writes a data folder: two would interleave. */
    if (!o->dry_run && import_fs_lock_data(data, &lock, err) < 0)
        goto out;
    /* Every input checked before anything is written; a dry run stops
     * there, with the scores printed. */
    check_ctx c = {o, data, o->dry_run ? out : NULL};
    if (import_mlperf_sys_write(o->submission, data, o->repo, o->commit, o->replace, 0, err) < 0 ||
        import_mlperf_walk(o->submission, check_entry, &c, err) < 0 ||
        check_licence(o->submission, err) < 0)
        goto out;
    if (o->dry_run) {
        fprintf(stderr, "perfrepro-measure import: dry run: nothing is written\n");
        rc = 0;
        goto out;
    }
    /* Written into a copy of the data folder, checked with gen's loaders
     * and swapped in whole (import_fs). */
    if (import_fs_stage_open(&stage, data, err) < 0)
        goto out;
    import_mlperf_runs_mlperf_dest d = {stage.sd.stage, o->submission, o->repo, o->commit, out};
    if (import_mlperf_sys_write(o->submission, stage.sd.stage, o->repo, o->commit, 1, 1, err) < 0 ||
        import_mlperf_walk(o->submission, write_entry, &d, err) < 0 ||
        import_fs_stage_commit(&stage, o->gen, 0, err) < 0)
        goto out;
    rc = 0;
out:
    import_fs_stage_free(&stage);
    import_fs_unlock_data(lock);
    free(data);
    return rc;
}
