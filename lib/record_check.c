/* record_check: what a record must hold (names, texts, figure, launch, metrics, sources). */
#include "record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "recfacts.h"
#include "rectrace.h"
#include "steady.h"
#include "suite.h"
#include "record_int.h"

static const char *const record_source_keys[] = {"repo", "commit", "path", "url", NULL};

const char *const pr_record_launch_keys[] = {"launcher", "tasks",     "ranks",  "job_id",
                                             "hosts",    "container", "script", NULL};

const char *const pr_record_ended_keys[] = {"count", "names", "survived", NULL};

int pr_record_text_check(const pr_jdoc_jcur *c, pr_err *err)
{
    if (json_is_string(c->v) && json_string_length(c->v) > PR_TEXT_MAX)
        return pr_jdoc_jfail(c, err, "%zu bytes of text: at most %d", json_string_length(c->v),
                             PR_TEXT_MAX);
    if (json_is_array(c->v)) {
        for (size_t i = 0; i < json_array_size(c->v); i++) {
            pr_jdoc_jcur it = pr_jdoc_jitem(c, i);
            if (pr_record_text_check(&it, err) < 0)
                return -1;
        }
    } else if (json_is_object(c->v)) {
        const char *k;
        json_t *v;
        json_object_foreach(c->v, k, v)
        {
            pr_jdoc_jcur it = pr_jdoc_jchild(c, k);
            if (strlen(k) > PR_TEXT_MAX)
                return pr_jdoc_jfail(&it, err, "a key of %zu bytes: at most %d", strlen(k),
                                     PR_TEXT_MAX);
            if (pr_record_text_check(&it, err) < 0)
                return -1;
        }
    }
    return 0;
}

int pr_record_is_commit_id(const char *s)
{
    size_t n = strspn(s, "0123456789abcdefABCDEF");
    return s[n] == '\0' && n >= 7 && n <= 40;
}

int pr_record_is_ip_address(const char *s)
{
    /* IPv6: hex digits and colons (at least two), optionally a dotted tail. */
    if (strchr(s, ':')) {
        size_t colons = 0;
        for (const char *p = s; *p; p++) {
            if (*p == ':')
                colons++;
            else if (!strchr("0123456789abcdefABCDEF.", *p))
                return 0;
        }
        return colons >= 2;
    }
    /* IPv4: four decimal parts of 0-255. */
    int parts = 0;
    const char *p = s;
    for (;;) {
        size_t n = strspn(p, "0123456789");
        if (n == 0 || n > 3)
            return 0;
        int v = 0;
        for (size_t i = 0; i < n; i++)
            v = v * 10 + (p[i] - '0');
        if (v > 255)
            return 0;
        parts++;
        p += n;
        if (*p == '\0')
            return parts == 4;
        if (*p != '.' || parts == 4)
            return 0;
        p++;
    }
}

/* r's log_facts or step_trace (key), checked as loading checks them: the
 * value is written out as {"KEY": ...} and read back, so that errors name
 * the item ("log_facts[3].line").  json_pack's "O" takes its own
 * reference. */
static int json_key_check(const char *key, json_t *val,
                          int (*check)(const pr_jdoc_jcur *, pr_err *), pr_err *err)
{
    json_t *o = json_pack("{s:O}", key, val);
    char *text = json_dumps(o, JSON_COMPACT);
    pr_jdoc *doc = NULL;
    int rc = -1;
    if (!text) {
        pr_err_set(err, NULL, 0, 0, key, "not valid JSON text");
        goto out;
    }
    if (pr_jdoc_parse(key, text, strlen(text), &doc, err) < 0)
        goto out;
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    pr_jdoc_jcur fc = pr_jdoc_jchild(&root, key);
    rc = check(&fc, err);
out:
    pr_jdoc_free(doc);
    free(text);
    json_decref(o);
    return rc;
}

/* Checks the "launch" object; on a problem sets *field (the key, or NULL for
 * the object itself) and the message in why. */
int pr_record_launch_check(const json_t *l, const char **field, char *why, size_t whylen)
{
    static const char *const launchers[] = {"local", "mpirun", "slurm", NULL};
    static const char *const ranks[] = {"per_gpu", "per_node", NULL};
    static const char *const containers[] = {"none", "docker", "apptainer", "pyxis", NULL};
    const char *k;
    json_t *v;
    *field = NULL;
    if (!json_is_object(l)) {
        snprintf(why, whylen, "expected an object");
        return -1;
    }
    json_object_foreach((json_t *)l, k, v)
    {
        *field = k;
        if (!pr_record_str_in(k, pr_record_launch_keys)) {
            snprintf(why, whylen,
                     "unknown key (expected one of: launcher, tasks, ranks, "
                     "job_id, hosts, container, script)");
            return -1;
        }
        const char *sv = json_string_value(v);
        if (strcmp(k, "tasks") == 0) {
            if (!json_is_integer(v) || json_integer_value(v) < 1 ||
                json_integer_value(v) > (1 << 24)) {
                snprintf(why, whylen, "expected an integer from 1 to %d", 1 << 24);
                return -1;
            }
        } else if (strcmp(k, "hosts") == 0) {
            if (!json_is_array(v)) {
                snprintf(why, whylen, "expected an array of host names");
                return -1;
            }
            for (size_t i = 0; i < json_array_size(v); i++) {
                const char *h = json_string_value(json_array_get(v, i));
                if (!h || !*h) {
                    snprintf(why, whylen, "[%zu]: expected a host name", i);
                    return -1;
                }
                /* Records are published; the seeds forbid machine addresses. */
                if (pr_record_is_ip_address(h)) {
                    snprintf(why, whylen, "[%zu]: \"%s\" is an address, not a host name", i, h);
                    return -1;
                }
            }
        } else if (!sv) {
            snprintf(why, whylen, "expected a string");
            return -1;
        } else if ((strcmp(k, "launcher") == 0 && !pr_record_str_in(sv, launchers)) ||
                   (strcmp(k, "ranks") == 0 && !pr_record_str_in(sv, ranks)) ||
                   (strcmp(k, "container") == 0 && !pr_record_str_in(sv, containers))) {
            snprintf(why, whylen, "unknown value \"%s\"", sv);
            return -1;
        } else if (strcmp(k, "job_id") == 0 &&
                   (!*sv || strspn(sv, "0123456789_+.;abcdefghijklmnopqrstuvwxyz"
                                       "ABCDEFGHIJKLMNOPQRSTUVWXYZ-") != strlen(sv))) {
            snprintf(why, whylen, "\"%s\" is not a job id", sv);
            return -1;
        } else if (strcmp(k, "script") == 0 && !pr_fileio_path_is_safe_relative(sv)) {
            snprintf(why, whylen, "must be a relative path inside the run directory");
            return -1;
        }
    }
    *field = "launcher";
    if (!json_is_string(json_object_get(l, "launcher"))) {
        snprintf(why, whylen, "required (local, mpirun or slurm)");
        return -1;
    }
    return 0;
}

/* Checks the "ended_processes" object: count (how many processes the job
 * left running that measure ended, >= 1), names (their distinct command
 * names, 1 to 64 non-empty strings), survived (optional: how many of them
 * outlived SIGKILL, 0 to count).  On a problem sets *field (the key, or
 * NULL for the object) and the message in why. */
int pr_record_ended_check(const json_t *e, const char **field, char *why, size_t whylen)
{
    const char *k;
    json_t *v;
    *field = NULL;
    if (!json_is_object(e)) {
        snprintf(why, whylen, "expected an object");
        return -1;
    }
    json_object_foreach((json_t *)e, k, v)
    {
        *field = k;
        if (!pr_record_str_in(k, pr_record_ended_keys)) {
            snprintf(why, whylen, "unknown key (expected one of: count, names, survived)");
            return -1;
        }
    }
    json_t *count = json_object_get(e, "count"), *names = json_object_get(e, "names");
    json_t *survived = json_object_get(e, "survived");
    *field = "count";
    if (!json_is_integer(count) || json_integer_value(count) < 1 ||
        json_integer_value(count) > (1 << 30)) {
        snprintf(why, whylen, "required: an integer from 1 to %d", 1 << 30);
        return -1;
    }
    *field = "names";
    if (!json_is_array(names) || json_array_size(names) < 1 || json_array_size(names) > 64 ||
        json_array_size(names) > (size_t)json_integer_value(count)) {
        snprintf(why, whylen, "required: an array of 1 to 64 command names, at most count");
        return -1;
    }
    for (size_t i = 0; i < json_array_size(names); i++) {
        const char *s = json_string_value(json_array_get(names, i));
        if (!s || !*s) {
            snprintf(why, whylen, "[%zu]: expected a command name", i);
            return -1;
        }
    }
    *field = "survived";
    if (survived && (!json_is_integer(survived) || json_integer_value(survived) < 0 ||
                     json_integer_value(survived) > json_integer_value(count))) {
        snprintf(why, whylen, "expected an integer from 0 to count");
        return -1;
    }
    return 0;
}

/* pr_record_check; json_checked: log_facts and step_trace were checked
 * already, where they were read (pr_record_from_json), so they are not
 * written out and read back a second time. */
int pr_record_check_fields(const pr_record *r, int json_checked, pr_err *err)
{
    const char *f = r->case_name ? r->case_name : "record";
    if (!r->model || !pr_suite_name_is_safe(r->model))
        return pr_err_set(err, f, 0, 0, "model", "\"%s\" is not a safe folder name",
                          r->model ? r->model : "");
    if (!r->framework || !pr_suite_name_is_safe(r->framework))
        return pr_err_set(err, f, 0, 0, "framework", "\"%s\" is not a safe folder name",
                          r->framework ? r->framework : "");
    if (!pr_record_str_in(r->precision, pr_precisions))
        return pr_err_set(err, f, 0, 0, "precision", "unknown precision \"%s\"",
                          r->precision ? r->precision : "");
    if (r->gpu_num != r->nodes * r->gpus_per_node)
        return pr_err_set(err, f, 0, 0, "gpu_num", "%d is not nodes (%d) x gpus_per_node (%d)",
                          r->gpu_num, r->nodes, r->gpus_per_node);
    if (strcmp(r->run_mode, r->gpu_num > 1 ? "mp" : "sp") != 0)
        return pr_err_set(err, f, 0, 0, "run_mode", "\"%s\" does not match gpu_num %d", r->run_mode,
                          r->gpu_num);
    if (!r->failed && !(isfinite(r->final_result) && r->final_result > 0))
        return pr_err_set(err, f, 0, 0, "FINAL_RESULT", PR_RECORD_FINAL_RESULT_WHY);
    json_t *per_run = r->failed ? NULL : json_object_get(r->stats, "per_run");
    for (size_t i = 0; i < json_array_size(per_run); i++) {
        json_t *x = json_array_get(per_run, i);
        if (json_is_number(x) && !(json_number_value(x) > 0))
            return pr_err_set(err, f, 0, 0, "stats.per_run", "[%zu]: %s", i,
                              PR_RECORD_FINAL_RESULT_WHY);
    }
    if (r->failed && !pr_record_str_in(r->fail_reason, pr_fail_reasons))
        return pr_err_set(err, f, 0, 0, "failure.reason", "unknown reason \"%s\"",
                          r->fail_reason ? r->fail_reason : "");
    if (!r->failed && (!r->log_file || !r->log_file[0]))
        return pr_err_set(err, f, 0, 0, "log_file",
                          "empty: a case with a FINAL_RESULT needs its log");
    for (size_t i = 0; i < json_array_size(r->logs); i++) {
        const char *p = json_string_value(json_array_get(r->logs, i));
        if (!p || !*p)
            return pr_err_set(err, f, 0, 0, "logs", "element %zu is not a path", i);
    }
    if (r->launch) {
        const char *field;
        char why[256];
        if (pr_record_launch_check(r->launch, &field, why, sizeof why) < 0)
            return pr_err_set(err, f, 0, 0, "launch", "%s%s%s", field ? field : "",
                              field ? ": " : "", why);
    }
    if (r->ended_processes) {
        const char *field;
        char why[256];
        if (pr_record_ended_check(r->ended_processes, &field, why, sizeof why) < 0)
            return pr_err_set(err, f, 0, 0, "ended_processes", "%s%s%s", field ? field : "",
                              field ? ": " : "", why);
    }
    if (!json_checked && r->log_facts &&
        json_key_check("log_facts", r->log_facts, pr_recfacts_check, err) < 0)
        return -1;
    if (!json_checked && r->step_trace &&
        json_key_check("step_trace", r->step_trace, pr_rectrace_check, err) < 0)
        return -1;
    if (!json_checked && r->steady && json_key_check("steady", r->steady, pr_steady_check, err) < 0)
        return -1;
    return 0;
}

int pr_record_check(const pr_record *r, pr_err *err)
{
    return pr_record_check_fields(r, 0, err);
}

/* A whole number of bytes, as a table's x. */
static int is_bytes(const json_t *x)
{
    double b = json_is_number(x) ? json_number_value(x) : -1;
    return b >= 0 && b < 1e18 && b == floor(b);
}

/* "MxNxK": three positive whole numbers, a GEMM shape. */
static int is_shape(const json_t *x)
{
    const char *t = json_string_value(x);
    for (int part = 0; t && part < 3; part++) {
        if (*t < '1' || *t > '9')
            return 0;
        while (*t >= '0' && *t <= '9')
            t++;
        if (part < 2 && *t++ != 'x')
            return 0;
    }
    return t && *t == '\0';
}

static int is_value(const json_t *v)
{
    return json_is_number(v) && isfinite(json_number_value(v)) && json_number_value(v) >= 0;
}

/* metrics.global_batch_size, metrics.table (perfrepro-gpu tables) and
 * metrics.series (nccl-tests rows):
 * the shapes gen's per-point tables and charts read (docs/data-model.md). */
int pr_record_metrics_check(const pr_jdoc_jcur *m, pr_err *err)
{
    static const char *const table_keys[] = {"x", "unit", "columns", "rows", "peak", NULL};
    static const char *const series_keys[] = {"x", "y", "points", NULL};
    static const char *const table_x[] = {"bytes", "shape", NULL};
    static const char *const series_x[] = {"bytes", NULL};
    const char *x, *tmp;
    pr_jdoc_jcur t, cols, rows;
    double peak;
    long long gbs;
    /* The global batch a run states (MLPerf's logs do): gen takes it for the
     * batch a time's speedup needs; a bad one is refused here rather than
     * silently replaced by batch x GPUs there. */
    if (pr_jdoc_jint(m, "global_batch_size", 0, 1, 1LL << 40, &gbs, err) < 0)
        return -1;
    int rc = pr_jdoc_jobj(m, "table", 0, &t, err);
    if (rc < 0)
        return -1;
    if (rc) {
        if (pr_jdoc_jobject(&t, table_keys, err) < 0 ||
            pr_jdoc_jenum(&t, "x", 1, table_x, &x, err) < 0 ||
            pr_jdoc_jstr(&t, "unit", 1, &tmp, err) < 0 ||
            pr_jdoc_jarr(&t, "columns", 1, 1, &cols, err) < 0 ||
            pr_jdoc_jarr(&t, "rows", 1, 0, &rows, err) < 0 ||
            pr_jdoc_jnum(&t, "peak", 0, 0, &peak, err) < 0)
            return -1;
        size_t nc = json_array_size(cols.v);
        if (nc > 64)
            return pr_jdoc_jfail(&cols, err, "at most 64 columns");
        for (size_t i = 0; i < nc; i++) {
            pr_jdoc_jcur it = pr_jdoc_jitem(&cols, i);
            if (!json_is_string(it.v) || !*json_string_value(it.v))
                return pr_jdoc_jfail(&it, err, "expected a column name");
            for (size_t j = 0; j < i; j++)
                if (json_equal(it.v, json_array_get(cols.v, j)))
                    return pr_jdoc_jfail(&it, err, "column \"%s\" twice", json_string_value(it.v));
        }
        if (json_array_size(rows.v) > 4096)
            return pr_jdoc_jfail(&rows, err, "at most 4096 rows");
        for (size_t i = 0; i < json_array_size(rows.v); i++) {
            pr_jdoc_jcur r = pr_jdoc_jitem(&rows, i);
            if (!json_is_array(r.v) || json_array_size(r.v) != nc + 1)
                return pr_jdoc_jfail(&r, err, "expected [x, then %zu values]", nc);
            pr_jdoc_jcur x0 = pr_jdoc_jitem(&r, 0);
            if (strcmp(x, "shape") == 0 ? !is_shape(x0.v) : !is_bytes(x0.v))
                return pr_jdoc_jfail(&x0, err,
                                     strcmp(x, "shape") == 0 ? "expected a shape \"MxNxK\""
                                                             : "expected a whole number of bytes");
            for (size_t j = 1; j <= nc; j++) {
                pr_jdoc_jcur v = pr_jdoc_jitem(&r, j);
                if (!json_is_null(v.v) && !is_value(v.v))
                    return pr_jdoc_jfail(&v, err, "expected a number >= 0, or null (N/A)");
            }
        }
    }
    rc = pr_jdoc_jobj(m, "series", 0, &t, err);
    if (rc <= 0)
        return rc;
    if (pr_jdoc_jobject(&t, series_keys, err) < 0 ||
        pr_jdoc_jenum(&t, "x", 1, series_x, &x, err) < 0 ||
        pr_jdoc_jstr(&t, "y", 1, &tmp, err) < 0 || pr_jdoc_jarr(&t, "points", 1, 0, &rows, err) < 0)
        return -1;
    if (json_array_size(rows.v) > 4096)
        return pr_jdoc_jfail(&rows, err, "at most 4096 points");
    for (size_t i = 0; i < json_array_size(rows.v); i++) {
        pr_jdoc_jcur p = pr_jdoc_jitem(&rows, i);
        if (!json_is_array(p.v) || json_array_size(p.v) != 2 || !is_bytes(json_array_get(p.v, 0)) ||
            !is_value(json_array_get(p.v, 1)))
            return pr_jdoc_jfail(&p, err, "expected [bytes, value >= 0]");
    }
    return 0;
}

/* A record's source: where an imported log was published (repository,
 * commit, path in it; url optional, http(s) only). */
int pr_record_source_opts_check(const char *repo, const char *commit, const char *path, pr_err *err)
{
    if (!pr_record_is_commit_id(commit))
        return pr_err_set(err, NULL, 0, 0, "--commit",
                          "\"%s\" is not a commit id (7 to 40 hex digits)", commit);
    if (!pr_fileio_path_is_safe_relative(path))
        return pr_err_set(err, NULL, 0, 0, "--path",
                          "\"%s\" is not a relative path in the repository", path);
    const char *slash = strchr(repo, '/');
    if (!slash || strchr(slash + 1, '/') || !pr_suite_name_is_safe(slash + 1) || slash == repo)
        return pr_err_set(err, NULL, 0, 0, "--repo", "\"%s\" is not OWNER/NAME", repo);
    return 0;
}

int pr_record_source_check(const pr_jdoc_jcur *sc, pr_err *err)
{
    const char *repo, *commit, *path, *url;
    int rc;
    if (pr_jdoc_jobject(sc, record_source_keys, err) < 0 ||
        pr_jdoc_jstr(sc, "repo", 1, &repo, err) < 0 ||
        pr_jdoc_jstr(sc, "commit", 1, &commit, err) < 0 ||
        pr_jdoc_jstr(sc, "path", 1, &path, err) < 0 ||
        (rc = pr_jdoc_jstr(sc, "url", 0, &url, err)) < 0)
        return -1;
    const char *slash = strchr(repo, '/');
    if (!slash || slash == repo || strchr(slash + 1, '/') || !slash[1] || repo[0] == '-' ||
        strpbrk(repo, " \t\n;&|$`'\"\\<>()")) {
        pr_jdoc_jcur rc2 = pr_jdoc_jchild(sc, "repo");
        return pr_jdoc_jfail(&rc2, err, "\"%s\" is not OWNER/NAME", repo);
    }
    if (!pr_record_is_commit_id(commit)) {
        pr_jdoc_jcur cc = pr_jdoc_jchild(sc, "commit");
        return pr_jdoc_jfail(&cc, err, "\"%s\" is not a commit id (7 to 40 hex digits)", commit);
    }
    if (!pr_fileio_path_is_safe_relative(path)) {
        pr_jdoc_jcur pc = pr_jdoc_jchild(sc, "path");
        return pr_jdoc_jfail(&pc, err, "\"%s\" is not a relative path in the repository", path);
    }
    if (rc && strncmp(url, "https://", 8) != 0 && strncmp(url, "http://", 7) != 0) {
        pr_jdoc_jcur uc = pr_jdoc_jchild(sc, "url");
        return pr_jdoc_jfail(&uc, err, "expected an http(s):// URL");
    }
    return 0;
}
