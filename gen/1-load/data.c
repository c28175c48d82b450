#include "data.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "comparisons.h"
#include "envrec.h"
#include "fileio.h"
#include "fitfile.h"
#include "jdoc.h"
#include "pairing.h"
#include "runset.h"
#include "steady.h"

static const char *const bench_keys[] = {
    "perfrepro", "benchmark", "title_zh", "title_en", "date",
    "commit",    "machine",   "command",  "unit",     "higher_is_better",
    "results",   "ratio",     "target",   "notes",    NULL};
static const char *const bench_result_keys[] = {"tool",  "median",   "min",         "max",
                                                "runs",  "timed_as", "peak_rss_mb", "peak_rss_runs",
                                                "pages", "records",  NULL};

/* Frees what b owns (not b). */
static void free_bench(pr_bench *b)
{
    char *strs[] = {b->file,          b->name, b->title_zh, b->title_en,          b->date,
                    b->command,       b->unit, b->commit,   b->machine.cpu_model, b->machine.os,
                    b->machine.kernel};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
        free(strs[i]);
    pr_bitext_free(&b->notes);
    pr_bitext_free(&b->ratio_text);
    pr_bitext_free(&b->target_text);
    for (size_t i = 0; i < b->nresults; i++)
        pr_bitext_free(&b->results[i].tool);
    free(b->results);
}

/* A copy of string field key of c (the caller frees it), NULL when absent;
 * *rc set to -1 on an error. */
static char *dup_field(const pr_jdoc_jcur *c, const char *key, int required, int *rc, pr_err *err)
{
    const char *s = NULL;
    int r = pr_jdoc_jstr(c, key, required, &s, err);
    if (r < 0)
        *rc = -1;
    return r == 1 ? pr_xstrdup(s) : NULL;
}

/* A full commit id, as git rev-parse HEAD prints it: 40 hexadecimal digits
 * (64 in a SHA-256 repository), lower case. */
static int full_commit_id(const char *s)
{
    size_t n = strspn(s, "0123456789abcdef");
    return s[n] == '\0' && (n == 40 || n == 64);
}

/* "commit": {"id", "dirty"} into b->commit (owned by b), b->dirty; 0 and
 * b->commit NULL when the file names none. */
static int read_bench_commit(const pr_jdoc_jcur *root, pr_bench *b, pr_err *err)
{
    static const char *const keys[] = {"id", "dirty", NULL};
    pr_jdoc_jcur c;
    const char *id;
    int has = pr_jdoc_jobj(root, "commit", 0, &c, err);
    if (has <= 0)
        return has;
    if (pr_jdoc_jobject(&c, keys, err) < 0 || pr_jdoc_jstr(&c, "id", 1, &id, err) < 0 ||
        pr_jdoc_jbool(&c, "dirty", 1, &b->dirty, err) < 0)
        return -1;
    if (!full_commit_id(id)) {
        pr_jdoc_jcur at = pr_jdoc_jchild(&c, "id");
        return pr_jdoc_jfail(&at, err,
                             "\"%s\" is not a full commit id (git rev-parse HEAD: 40 lower-case "
                             "hexadecimal digits)",
                             id);
    }
    b->commit = pr_xstrdup(id);
    return 0;
}

/* "machine" into b->machine (strings owned by b).  A file that names its
 * commit was written by make bench as it is now, which also names the CPU
 * model, the CPUs and the memory: they are then required. */
static int read_bench_machine(const pr_jdoc_jcur *root, pr_bench *b, pr_err *err)
{
    static const char *const keys[] = {"cpu_model", "cpu_count", "memory_mb", "os", "kernel", NULL};
    static const char *const needed[] = {"cpu_model", "cpu_count", "memory_mb", NULL};
    pr_jdoc_jcur m;
    int rc = 0;
    if (pr_jdoc_jobj(root, "machine", 1, &m, err) < 0 || pr_jdoc_jobject(&m, keys, err) < 0)
        return -1;
    for (const char *const *k = needed; b->commit && *k; k++) {
        pr_jdoc_jcur at = pr_jdoc_jchild(&m, *k);
        if (!at.v)
            return pr_jdoc_jfail(&at, err,
                                 "missing: a benchmark that names its commit names its machine "
                                 "(cpu_model, cpu_count, memory_mb), as make bench writes it");
    }
    b->machine.cpu_model = dup_field(&m, "cpu_model", 0, &rc, err);
    if (rc == 0)
        b->machine.os = dup_field(&m, "os", 0, &rc, err);
    if (rc == 0)
        b->machine.kernel = dup_field(&m, "kernel", 0, &rc, err);
    if (rc < 0 || pr_jdoc_jint(&m, "cpu_count", 0, 1, 1 << 20, &b->machine.cpu_count, err) < 0 ||
        pr_jdoc_jint(&m, "memory_mb", 0, 1, 1LL << 40, &b->machine.memory_mb, err) < 0)
        return -1;
    if (b->machine.cpu_model && !*b->machine.cpu_model) {
        pr_jdoc_jcur at = pr_jdoc_jchild(&m, "cpu_model");
        return pr_jdoc_jfail(&at, err, "empty: the CPU model as /proc/cpuinfo names it");
    }
    return 0;
}

/* One result (at it) into r (its tool then owned by the bench: free_bench). */
static int read_bench_result(const pr_jdoc_jcur *it, pr_bench_result *r, pr_err *err)
{
    static const char *const timings[] = {"each", "loop", NULL};
    const char *timed = "each";
    long long v;
    double tmp;
    r->min = r->max = r->peak_rss_mb = NAN;
    if (pr_jdoc_jobject(it, bench_result_keys, err) < 0)
        return -1;
    if (pr_bitext_jbitext(it, "tool", 1, &r->tool, err) < 0 ||
        pr_jdoc_jnum(it, "median", 1, 0, &r->median, err) < 0 ||
        pr_jdoc_jnum(it, "min", 0, 0, &r->min, err) < 0 ||
        pr_jdoc_jnum(it, "max", 0, 0, &r->max, err) < 0 ||
        pr_jdoc_jint(it, "runs", 1, 1, 1 << 20, &v, err) < 0)
        return -1;
    r->runs = (int)v;
    if (pr_jdoc_jnum(it, "peak_rss_mb", 0, 0, &r->peak_rss_mb, err) < 0)
        return -1;
    int has = pr_jdoc_jint(it, "peak_rss_runs", 0, 1, 1 << 20, &v, err);
    if (has < 0)
        return -1;
    r->peak_rss_runs = has ? (int)v : 0;
    pr_jdoc_jcur at = pr_jdoc_jchild(it, "peak_rss_runs");
    if (has && isnan(r->peak_rss_mb))
        return pr_jdoc_jfail(&at, err, "no \"peak_rss_mb\" to be the largest of these runs");
    if (pr_jdoc_jenum(it, "timed_as", 0, timings, &timed, err) < 0)
        return -1;
    r->timed_as_loop = strcmp(timed, "loop") == 0;
    if (r->timed_as_loop && (!isnan(r->min) || !isnan(r->max)))
        return pr_jdoc_jfail(it, err, "runs timed as one loop have no min or max of their own");
    if (pr_jdoc_jnum(it, "pages", 0, 0, &tmp, err) < 0 ||
        pr_jdoc_jnum(it, "records", 0, 0, &tmp, err) < 0)
        return -1;
    return 0;
}

/* "ratio": the two results it names (borrowed from b->results), its label
 * into b->ratio_text. */
static int read_bench_ratio(const pr_jdoc_jcur *root, pr_bench *b, pr_err *err)
{
    /* The ratio names its two results, and the page divides their medians:
     * a stored quotient (1.36 for 109.2 ÷ 80.0) drifted from the figures it
     * was made of.  A result is named by its tool (its English text when it
     * has two), and only a result of this file: the figures of two files
     * come from two runs, perhaps two machines or commits. */
    static const char *const keys[] = {"of", "to", "text", NULL};
    const char *of, *to;
    pr_jdoc_jcur c;
    int has = pr_jdoc_jobj(root, "ratio", 0, &c, err);
    if (has <= 0)
        return has;
    if (pr_jdoc_jobject(&c, keys, err) < 0 || pr_jdoc_jstr(&c, "of", 1, &of, err) < 0 ||
        pr_jdoc_jstr(&c, "to", 1, &to, err) < 0 ||
        pr_bitext_jbitext(&c, "text", 0, &b->ratio_text, err) < 0)
        return -1;
    for (size_t i = 0; i < b->nresults; i++) {
        const char *tool = pr_bitext_in(&b->results[i].tool, "en");
        if (strcmp(tool, of) == 0 && !b->ratio_of)
            b->ratio_of = &b->results[i];
        if (strcmp(tool, to) == 0 && !b->ratio_to)
            b->ratio_to = &b->results[i];
    }
    pr_jdoc_jcur bad = pr_jdoc_jchild(&c, !b->ratio_of ? "of" : "to");
    if (!b->ratio_of || !b->ratio_to)
        return pr_jdoc_jfail(
            &bad, err,
            "\"%s\" names no result of this benchmark (a result's \"tool\"): a ratio "
            "divides two results of one file, measured in one run, never figures "
            "of two files",
            !b->ratio_of ? of : to);
    if (b->ratio_of == b->ratio_to)
        return pr_jdoc_jfail(&c, err, "\"of\" and \"to\" name the same result");
    return 0;
}

/* The benchmark file at root into b (zeroed; what it fills in is b's, freed
 * with free_bench also on an error). */
static int read_bench(const pr_jdoc_jcur *root, pr_bench *b, pr_err *err)
{
    long long v;
    int rc = 0;
    pr_jdoc_jcur res, c;
    if (pr_jdoc_jobject(root, bench_keys, err) < 0 || pr_record_text_check(root, err) < 0 ||
        pr_jdoc_jint(root, "perfrepro", 1, 1, 1, &v, err) < 0)
        return -1;
    b->name = dup_field(root, "benchmark", 1, &rc, err);
    if (rc == 0)
        b->title_zh = dup_field(root, "title_zh", 1, &rc, err);
    if (rc == 0)
        b->title_en = dup_field(root, "title_en", 1, &rc, err);
    if (rc == 0)
        b->date = dup_field(root, "date", 1, &rc, err);
    if (rc == 0)
        b->command = dup_field(root, "command", 1, &rc, err);
    if (rc == 0)
        b->unit = dup_field(root, "unit", 1, &rc, err);
    if (rc == 0 && pr_bitext_jbitext(root, "notes", 0, &b->notes, err) < 0)
        rc = -1;
    if (rc < 0 || pr_jdoc_jbool(root, "higher_is_better", 1, &b->higher_is_better, err) < 0 ||
        read_bench_commit(root, b, err) < 0 || read_bench_machine(root, b, err) < 0 ||
        pr_jdoc_jarr(root, "results", 1, 1, &res, err) < 0)
        return -1;
    b->nresults = json_array_size(res.v);
    b->results = pr_xcalloc(b->nresults, sizeof *b->results);
    for (size_t i = 0; i < b->nresults; i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&res, i);
        if (read_bench_result(&it, &b->results[i], err) < 0)
            return -1;
    }
    if (read_bench_ratio(root, b, err) < 0)
        return -1;
    int has = pr_jdoc_jobj(root, "target", 0, &c, err);
    if (has < 0)
        return -1;
    if (has) {
        static const char *const keys[] = {"text", "met", NULL};
        if (pr_jdoc_jobject(&c, keys, err) < 0 ||
            pr_jdoc_jbool(&c, "met", 1, &b->target_met, err) < 0)
            return -1;
        if (pr_bitext_jbitext(&c, "text", 1, &b->target_text, err) < 0)
            return -1;
    }
    return 0;
}

static int load_bench(pr_dataset *d, const char *path, pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_bench b;
    memset(&b, 0, sizeof b);
    b.file = pr_xstrdup(path);
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    int rc = read_bench(&root, &b, err);
    pr_jdoc_free(doc);
    if (rc < 0) {
        free_bench(&b);
        return -1;
    }
    d->benches = pr_xrealloc(d->benches, (d->nbenches + 1) * sizeof *d->benches);
    d->benches[d->nbenches++] = b;
    return 0;
}

/* Hardening: a symbolic link in the data folder (a record, a log, a run or
 * log folder, a suite) made gen read, and the site publish, /etc/shadow or
 * /proc/self/environ.  Whatever is read must resolve inside the data folder
 * (pr_fileio_path_within); special files are refused when read (pr_fileio_read_file), or
 * here for logs, which are only linked.
 *
 * What lies at path, whose folder was already checked (one lstat; realpath
 * only for a link): 0 and *mode 0 when nothing, 1 with *mode what it is (for
 * a link, what it points to, once known to lie inside root), -1 on error. */
static int data_entry(const char *root, const char *path, unsigned *mode, pr_err *err)
{
    struct stat st;
    *mode = 0;
    if (lstat(path, &st) < 0)
        return errno == ENOENT ? 0 : pr_err_errno(err, path, "cannot stat");
    if (S_ISLNK(st.st_mode)) {
        if (pr_fileio_path_within(root, path, err) < 0)
            return -1;
        if (stat(path, &st) < 0)
            return pr_err_errno(err, path, "cannot stat");
    }
    *mode = st.st_mode;
    return 1;
}

/* data_entry for each component of rel below the checked folder base
 * (base/rel must not be in the output); 1 with *mode of the last. */
static int data_path(const char *root, const char *base, const char *rel, unsigned *mode,
                     pr_err *err)
{
    char *path = pr_xstrdup(base);
    int rc = 1;
    for (const char *seg = rel; rc == 1 && *seg;) {
        size_t n = strcspn(seg, "/");
        char *next = pr_xasprintf("%s/%.*s", path, (int)n, seg);
        free(path);
        path = next;
        rc = data_entry(root, path, mode, err);
        seg += n + (seg[n] == '/');
        if (rc == 1 && *seg && !S_ISDIR(*mode))
            rc = pr_err_set(err, path, 0, 0, NULL, "is %s, not a folder",
                            pr_fileio_mode_name(*mode));
    }
    free(path);
    return rc;
}

/* How deep find_json follows folders: linked folders may loop. */
#define DATA_MAX_DEPTH 32

/* Collects *.json below dir (checked to lie inside root), recursively,
 * sorted. */
static int find_json(const char *root, const char *dir, int depth, char ***list, size_t *n,
                     pr_err *err)
{
    char **names = NULL;
    if (depth > DATA_MAX_DEPTH)
        return pr_err_set(err, dir, 0, 0, NULL, "more than %d folders deep (a symbolic link loop?)",
                          DATA_MAX_DEPTH);
    if (pr_fileio_list_dir(dir, &names, NULL, err) < 0)
        return -1;
    int rc = 0;
    for (char **p = names; *p && rc == 0; p++) {
        char *path = pr_fileio_path_join(dir, *p);
        size_t l = strlen(*p);
        unsigned mode;
        if ((rc = data_entry(root, path, &mode, err)) < 0) {
            free(path);
            break;
        }
        rc = 0;
        if (S_ISDIR(mode)) {
            rc = find_json(root, path, depth + 1, list, n, err);
        } else if (l > 5 && strcmp(*p + l - 5, ".json") == 0) {
            *list = pr_xrealloc(*list, (*n + 2) * sizeof **list);
            (*list)[(*n)++] = path;
            (*list)[*n] = NULL;
            path = NULL;
        }
        free(path);
    }
    pr_fileio_strv_free(names);
    return rc;
}

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

/* The log a record names (log_file, a checked relative path) must be a
 * regular file resolving inside root: it is linked and published.  Its
 * folder is checked once per run (*log_dir, malloc'd, remembers it). */
static int check_log(const char *root, const char *run_dir, const char *log_file, char **log_dir,
                     const char *record, const char *field, pr_err *err)
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
    if (rc == 1)
        rc = data_entry(root, log, &mode, err);
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

static int load_run(pr_dataset *d, json_t *seen, const char *dir, const char *name, pr_err *err)
{
    pr_run r;
    memset(&r, 0, sizeof r);
    r.dir = pr_fileio_path_join(dir, name);
    r.name = pr_xstrdup(name);
    char *env = pr_fileio_path_join(r.dir, "env.json");
    char *index = pr_fileio_path_join(r.dir, "logs/index");
    char **names = NULL;
    char *log_dir = NULL; /* the folder of the last log checked */
    size_t cap = 0;       /* of r.records, r.record_files and r.fits */
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
        if (l < 7 || strcmp(*p + l - 6, "_speed") != 0)
            continue;
        char *path = pr_fileio_path_join(index, *p);
        pr_record rec;
        pr_record_init(&rec);
        if (data_entry(d->dir, path, &mode, err) < 0 || pr_record_load(path, &rec, err) < 0) {
            pr_record_clear(&rec);
            free(path);
            goto out;
        }
        int bad = rec.log_file[0] &&
                  check_log(d->dir, r.dir, rec.log_file, &log_dir, path, "log_file", err) < 0;
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
                bad = check_log(d->dir, r.dir, lp, &log_dir, path, field, err) < 0;
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
        char *key = case_key(name, &rec, plat);
        json_t *other = json_object_get(seen, key);
        if (other) {
            pr_err_set(err, path, 0, 0, NULL, "duplicate case: %s also has it",
                       json_string_value(other));
            free(key);
            pr_record_clear(&rec);
            free(path);
            goto out;
        }
        json_object_set_new(seen, key, json_string(path));
        free(key);
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
        if (r.nrecords == cap) { /* doubling: a copy of every record per record was quadratic */
            cap = cap ? 2 * cap : 16;
            r.records = pr_xrealloc(r.records, cap * sizeof *r.records);
            r.record_files = pr_xrealloc(r.record_files, cap * sizeof *r.record_files);
            r.fits = pr_xrealloc(r.fits, cap * sizeof *r.fits);
        }
        r.records[r.nrecords] = rec;
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
    pr_fileio_strv_free(names);
    free(log_dir);
    free(env);
    free(index);
    return rc;
}

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
        (S_ISDIR(*mode) && find_json(d->dir, dir, 0, &files, &n, err) < 0))
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

int data_load(const char *dir, pr_dataset **out, pr_err *err)
{
    pr_jdoc_json_init();
    pr_dataset *d = pr_xcalloc(1, sizeof *d);
    d->dir = pr_xstrdup(dir);
    d->envs = srcenv_set_new();
    char *suites = pr_fileio_path_join(dir, "suites");
    char *pubs = pr_fileio_path_join(dir, "published");
    char *runs = pr_fileio_path_join(dir, "runs");
    char **files = NULL, **names = NULL;
    size_t n = 0;
    int rc = -1;
    json_t *seen = json_object(); /* case identity -> the record file that has it */
    if (!pr_fileio_is_dir(dir)) {
        pr_err_set(err, dir, 0, 0, NULL, "no such data directory");
        goto out;
    }
    unsigned mode;
    char *plat = pr_fileio_path_join(dir, "platforms");
    int plat_rc = data_entry(dir, plat, &mode, err) < 0 ? -1
                  : S_ISDIR(mode)                       ? find_json(dir, plat, 0, &files, &n, err)
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
                 : S_ISDIR(mode) ? find_json(dir, models, 0, &files, &n, err)
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
    if (data_entry(dir, suites, &mode, err) < 0 ||
        (S_ISDIR(mode) && find_json(dir, suites, 0, &files, &n, err) < 0))
        goto out;
    for (size_t i = 0; i < n; i++) {
        pr_suite *s = NULL;
        if (pr_suite_load(files[i], &s, err) < 0)
            goto out;
        for (size_t j = 0; j < d->nsuites; j++)
            if (strcmp(d->suites[j]->model, s->model) == 0 &&
                strcmp(d->suites[j]->framework, s->framework) == 0) {
                pr_err_set(err, files[i], 0, 0, NULL, "a second suite for %s / %s (first: %s)",
                           s->model, s->framework, d->suites[j]->path);
                pr_suite_free(s);
                goto out;
            }
        if (s->platform && !platform_find(&d->platforms, s->platform)) {
            pr_err_set(err, files[i], 0, 0, "platform",
                       "unknown platform \"%s\" (no data/platforms/%s.json)", s->platform,
                       s->platform);
            pr_suite_free(s);
            goto out;
        }
        d->suites = pr_xrealloc(d->suites, (d->nsuites + 1) * sizeof *d->suites);
        d->suites[d->nsuites++] = s;
    }
    pr_fileio_strv_free(files);
    files = NULL;
    n = 0;
    if (data_entry(dir, pubs, &mode, err) < 0 ||
        (S_ISDIR(mode) && find_json(dir, pubs, 0, &files, &n, err) < 0))
        goto out;
    for (size_t i = 0; i < n; i++)
        if (data_load_published(d, files[i], err) < 0)
            goto out;
    pr_fileio_strv_free(files);
    files = NULL;
    n = 0;
    if (load_restated(d, &mode, err) < 0)
        goto out;
    char *bench = pr_fileio_path_join(dir, "bench");
    int bench_rc = data_entry(dir, bench, &mode, err) < 0 ? -1
                   : S_ISDIR(mode) ? find_json(dir, bench, 0, &files, &n, err)
                                   : 0;
    free(bench);
    if (bench_rc < 0)
        goto out;
    for (size_t i = 0; i < n; i++)
        if (load_bench(d, files[i], err) < 0)
            goto out;
    pr_fileio_strv_free(files);
    files = NULL;
    n = 0;
    char *envs = pr_fileio_path_join(dir, "environments");
    int env_rc = data_entry(dir, envs, &mode, err) < 0 ? -1
                 : S_ISDIR(mode)                       ? find_json(dir, envs, 0, &files, &n, err)
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
            if (has < 0 || (S_ISDIR(mode) && load_run(d, seen, runs, *p, err) < 0))
                goto out;
        }
    }
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
    pr_fileio_strv_free(names);
    free(suites);
    free(pubs);
    free(runs);
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
        free_bench(&d->benches[i]);
    free(d->benches);
    srcenv_set_free(d->envs);
    comparisons_free_all(d);
    platform_list_free(&d->platforms);
    decl_free_all(&d->decls);
    history_decl_free(&d->history);
    free(d->dir);
    free(d);
}
