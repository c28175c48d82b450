#include "record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"
#include "recfacts.h"
#include "rectrace.h"
#include "steady.h"
#include "suite.h"

/* "unstated": a source that does not state its precision (MLPerf's result
 * logs), never guessed as one of the others. */
const char *const pr_precisions[] = {"fp32", "tf32", "fp16",     "amp",
                                     "bf16", "fp8",  "unstated", NULL};
const char *const pr_fail_reasons[] = {
    "no_records",      /* the log had no matching record */
    "too_few_records", /* fewer than min_records after skipping */
    "parse_error",     /* the log could not be read or parsed */
    "exit_status",     /* the job exited non-zero */
    "signal",          /* the job was killed by a signal */
    "timeout",         /* the job ran past its timeout */
    "oom",             /* out of memory reported in the log */
    "interrupted",     /* measure itself was interrupted */
    "launch_error",    /* the command could not be started */
    "log_limit",       /* the job's log passed its size limit */
    "no_gpu",          /* the workload needs a GPU and none was found */
    "dataset",         /* a dataset was missing or its checksum differed */
    "not_run",         /* planned but not run (e.g. dry run) */
    "not_converged",   /* the run stopped before its target quality (MLPerf "aborted") */
    NULL};

static const char *const record_keys[] = {"log_file",
                                          "model_name",
                                          "mission_name",
                                          "direction_id",
                                          "run_mode",
                                          "index",
                                          "gpu_num",
                                          "FINAL_RESULT",
                                          "JOB_FAIL_FLAG",
                                          "UNIT",
                                          "perfrepro",
                                          "model",
                                          "framework",
                                          "framework_version",
                                          "case",
                                          "precision",
                                          "batch_size",
                                          "nodes",
                                          "gpus_per_node",
                                          "repeat",
                                          "seq_len",
                                          "origin",
                                          "failure",
                                          "env",
                                          "started_at",
                                          "duration_s",
                                          "exit_status",
                                          "signal",
                                          "ended_processes",
                                          "stats",
                                          "rule",
                                          "metrics",
                                          "logs",
                                          "launch",
                                          "command",
                                          "platform",
                                          "source",
                                          "log_facts",
                                          "step_trace",
                                          "steady",
                                          NULL};
static const char *const record_source_keys[] = {"repo", "commit", "path", "url", NULL};
static const char *const launch_keys[] = {"launcher", "tasks",     "ranks",  "job_id",
                                          "hosts",    "container", "script", NULL};
static const char *const ended_keys[] = {"count", "names", "survived", NULL};

int pr_record_str_in(const char *s, const char *const *list)
{
    for (; s && *list; list++)
        if (strcmp(s, *list) == 0)
            return 1;
    return 0;
}

void pr_record_init(pr_record *r)
{
    memset(r, 0, sizeof *r);
    r->index = 1;
    r->repeat = 1;
    r->nodes = 1;
    r->gpus_per_node = 1;
    r->gpu_num = 1;
    r->duration_s = -1;
    r->exit_status = -1;
    strcpy(r->run_mode, "sp");
}

void pr_record_clear(pr_record *r)
{
    free(r->log_file);
    free(r->model_name);
    free(r->mission_name);
    free(r->unit);
    free(r->model);
    free(r->framework);
    free(r->framework_version);
    free(r->case_name);
    free(r->precision);
    free(r->origin);
    free(r->platform);
    json_decref(r->source);
    free(r->fail_reason);
    free(r->fail_detail);
    free(r->env);
    free(r->started_at);
    json_decref(r->stats);
    json_decref(r->rule);
    json_decref(r->metrics);
    json_decref(r->logs);
    json_decref(r->launch);
    json_decref(r->command);
    json_decref(r->ended_processes);
    json_decref(r->log_facts);
    json_decref(r->step_trace);
    json_decref(r->steady);
    pr_record_init(r);
}

/* json_object_set_new steals the value reference: every call below passes a
 * fresh value. */
static void set_str(json_t *o, const char *k, const char *v)
{
    json_object_set_new(o, k, v ? json_string(v) : json_null());
}

json_t *pr_record_to_json(const pr_record *r)
{
    json_t *o = json_object();
    set_str(o, "log_file", r->log_file ? r->log_file : "");
    set_str(o, "model_name", r->model_name);
    set_str(o, "mission_name", r->mission_name);
    json_object_set_new(o, "direction_id", json_integer(r->direction_id));
    set_str(o, "run_mode", r->run_mode);
    json_object_set_new(o, "index", json_integer(r->index));
    json_object_set_new(o, "gpu_num", json_integer(r->gpu_num));
    json_object_set_new(o, "FINAL_RESULT", r->failed ? json_null() : json_real(r->final_result));
    json_object_set_new(o, "JOB_FAIL_FLAG", json_integer(r->failed ? 1 : 0));
    set_str(o, "UNIT", r->unit);
    json_object_set_new(o, "perfrepro", json_integer(PR_SCHEMA_VERSION));
    set_str(o, "model", r->model);
    set_str(o, "framework", r->framework);
    if (r->framework_version)
        set_str(o, "framework_version", r->framework_version);
    set_str(o, "case", r->case_name);
    set_str(o, "precision", r->precision);
    json_object_set_new(o, "batch_size", json_integer(r->batch_size));
    json_object_set_new(o, "nodes", json_integer(r->nodes));
    json_object_set_new(o, "gpus_per_node", json_integer(r->gpus_per_node));
    json_object_set_new(o, "repeat", json_integer(r->repeat));
    if (r->seq_len > 0)
        json_object_set_new(o, "seq_len", json_integer(r->seq_len));
    set_str(o, "origin", r->origin ? r->origin : "measured");
    if (r->failed) {
        json_t *f = json_object();
        set_str(f, "reason", r->fail_reason ? r->fail_reason : "parse_error");
        if (r->fail_detail)
            set_str(f, "detail", r->fail_detail);
        json_object_set_new(o, "failure", f);
    }
    if (r->env)
        set_str(o, "env", r->env);
    if (r->started_at)
        set_str(o, "started_at", r->started_at);
    if (r->duration_s >= 0)
        json_object_set_new(o, "duration_s", json_real(r->duration_s));
    if (r->exit_status >= 0)
        json_object_set_new(o, "exit_status", json_integer(r->exit_status));
    if (r->term_signal > 0)
        json_object_set_new(o, "signal", json_integer(r->term_signal));
    /* json_object_set (no _new) takes its own reference: r keeps its own. */
    if (r->ended_processes)
        json_object_set(o, "ended_processes", r->ended_processes);
    if (r->stats)
        json_object_set(o, "stats", r->stats);
    if (r->rule)
        json_object_set(o, "rule", r->rule);
    if (r->metrics)
        json_object_set(o, "metrics", r->metrics);
    if (r->logs)
        json_object_set(o, "logs", r->logs);
    if (r->launch)
        json_object_set(o, "launch", r->launch);
    if (r->command)
        json_object_set(o, "command", r->command);
    if (r->platform)
        set_str(o, "platform", r->platform);
    if (r->source)
        json_object_set(o, "source", r->source);
    if (r->log_facts)
        json_object_set(o, "log_facts", r->log_facts);
    if (r->step_trace)
        json_object_set(o, "step_trace", r->step_trace);
    if (r->steady)
        json_object_set(o, "steady", r->steady);
    return o;
}

/* Jansson's text of the real v at `digits` significant digits (a new
 * string). */
static char *real_text(double v, int digits)
{
    json_t *j = json_real(v);
    char *s = json_dumps(j, JSON_ENCODE_ANY | JSON_REAL_PRECISION(digits));
    json_decref(j);
    return s;
}

/* Appends to out the text of a record dumped with 17 digits, each real
 * written with the fewest digits from 10 up that read back as the same
 * double: a record keeps a double whole (an MLPerf time to train, ms /
 * 60000, needs 17), and a figure that 10 digits hold keeps the bytes it
 * was always written with.  Jansson writes a real with "." or "e" and an
 * integer without, so a number token outside strings with either is a
 * real. */
static void put_reals_shortest(pr_buf *out, const char *text)
{
    int in_string = 0;
    for (const char *p = text; *p;) {
        if (in_string) {
            if (*p == '\\' && p[1]) {
                pr_buf_put(out, p, 2);
                p += 2;
                continue;
            }
            in_string = *p != '"';
            pr_buf_putc(out, *p++);
            continue;
        }
        if (*p == '"') {
            in_string = 1;
            pr_buf_putc(out, *p++);
            continue;
        }
        size_t n = (*p == '-' || (*p >= '0' && *p <= '9')) ? strspn(p, "-+0123456789.eE") : 0;
        if (n == 0) {
            pr_buf_putc(out, *p++);
            continue;
        }
        char *token = pr_xstrndup(p, n);
        if (strpbrk(token, ".eE")) {
            double v = strtod(token, NULL);
            char *best = NULL;
            for (int digits = 10; digits <= 17 && !best; digits++) {
                char *t = real_text(v, digits);
                if (t && strtod(t, NULL) == v)
                    best = t;
                else
                    free(t);
            }
            pr_buf_puts(out, best ? best : token);
            free(best);
        } else {
            pr_buf_puts(out, token);
        }
        free(token);
        p += n;
    }
}

char *pr_record_dumps(const pr_record *r)
{
    json_t *o = pr_record_to_json(r);
    char *s = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(o);
    pr_buf b = PR_BUF_INIT;
    put_reals_shortest(&b, s);
    pr_buf_putc(&b, '\n');
    free(s);
    return pr_buf_detach(&b);
}

static int get_str(const pr_jdoc_jcur *c, const char *key, int required, char **out, pr_err *err)
{
    const char *s = NULL;
    int rc = pr_jdoc_jstr(c, key, required, &s, err);
    if (rc == 1)
        *out = pr_xstrdup(s);
    return rc;
}

static int get_int(const pr_jdoc_jcur *c, const char *key, int required, long long min,
                   long long max, int *out, pr_err *err)
{
    long long v = 0;
    int rc = pr_jdoc_jint(c, key, required, min, max, &v, err);
    if (rc == 1)
        *out = (int)v;
    return rc;
}

/* Takes a new reference to an optional object/array field. */
static int get_json(const pr_jdoc_jcur *c, const char *key, int want_array, json_t **out,
                    pr_err *err)
{
    pr_jdoc_jcur f = pr_jdoc_jchild(c, key);
    if (!f.v || json_is_null(f.v))
        return 0;
    if (want_array ? !json_is_array(f.v) : !json_is_object(f.v))
        return pr_jdoc_jfail(&f, err, want_array ? "expected an array" : "expected an object");
    *out = json_incref(f.v);
    return 1;
}

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
static int launch_check(const json_t *l, const char **field, char *why, size_t whylen)
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
        if (!pr_record_str_in(k, launch_keys)) {
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
static int ended_check(const json_t *e, const char **field, char *why, size_t whylen)
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
        if (!pr_record_str_in(k, ended_keys)) {
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

/* A figure is a rate that something ran at: a run that gave none failed,
 * and says so with JOB_FAIL_FLAG and a reason (failure is a state, never a
 * value).  A 0 here once counted as 5 runs in compare's CSV and 0 on its
 * page. */
#define FINAL_RESULT_WHY                                                                           \
    "a successful case's figure must be a finite number > 0 (a run that gave none failed: "        \
    "JOB_FAIL_FLAG 1 with a reason)"

/* pr_record_check; json_checked: log_facts and step_trace were checked
 * already, where they were read (pr_record_from_json), so they are not
 * written out and read back a second time. */
static int record_check(const pr_record *r, int json_checked, pr_err *err)
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
        return pr_err_set(err, f, 0, 0, "FINAL_RESULT", FINAL_RESULT_WHY);
    json_t *per_run = r->failed ? NULL : json_object_get(r->stats, "per_run");
    for (size_t i = 0; i < json_array_size(per_run); i++) {
        json_t *x = json_array_get(per_run, i);
        if (json_is_number(x) && !(json_number_value(x) > 0))
            return pr_err_set(err, f, 0, 0, "stats.per_run", "[%zu]: %s", i, FINAL_RESULT_WHY);
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
        if (launch_check(r->launch, &field, why, sizeof why) < 0)
            return pr_err_set(err, f, 0, 0, "launch", "%s%s%s", field ? field : "",
                              field ? ": " : "", why);
    }
    if (r->ended_processes) {
        const char *field;
        char why[256];
        if (ended_check(r->ended_processes, &field, why, sizeof why) < 0)
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
    return record_check(r, 0, err);
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
static int metrics_check(const pr_jdoc_jcur *m, pr_err *err)
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

int pr_record_from_json(const pr_jdoc_jcur *c, pr_record *r, pr_err *err)
{
    static const char *const run_modes[] = {"sp", "mp", NULL};
    static const char *const origins[] = {"measured", "parsed", NULL};
    const char *s = NULL;
    long long v;
    if (pr_jdoc_jobject(c, record_keys, err) < 0)
        return -1;
    /* Every field that can reach a report is bounded text; "command" (the
     * argv measure ran, never shown) is kept whatever its length. */
    const char *key;
    json_t *val;
    json_object_foreach(c->v, key, val)
    {
        pr_jdoc_jcur f = pr_jdoc_jchild(c, key);
        if (strcmp(key, "command") != 0 && pr_record_text_check(&f, err) < 0)
            return -1;
    }
    if (pr_jdoc_jint(c, "perfrepro", 1, 1, PR_SCHEMA_VERSION, &v, err) < 0 ||
        get_str(c, "log_file", 1, &r->log_file, err) < 0 ||
        get_str(c, "model_name", 1, &r->model_name, err) < 0 ||
        get_str(c, "mission_name", 1, &r->mission_name, err) < 0 ||
        get_int(c, "direction_id", 1, 0, 2, &r->direction_id, err) < 0 ||
        pr_jdoc_jenum(c, "run_mode", 1, run_modes, &s, err) < 0)
        return -1;
    strcpy(r->run_mode, s);
    if (get_int(c, "index", 1, 1, 100, &r->index, err) < 0 ||
        get_int(c, "gpu_num", 1, 1, 1 << 20, &r->gpu_num, err) < 0 ||
        get_int(c, "JOB_FAIL_FLAG", 1, 0, 1, &r->failed, err) < 0 ||
        get_str(c, "UNIT", 1, &r->unit, err) < 0 || get_str(c, "model", 1, &r->model, err) < 0 ||
        get_str(c, "framework", 1, &r->framework, err) < 0 ||
        get_str(c, "framework_version", 0, &r->framework_version, err) < 0 ||
        get_str(c, "case", 1, &r->case_name, err) < 0 ||
        pr_jdoc_jenum(c, "precision", 1, pr_precisions, &s, err) < 0)
        return -1;
    r->precision = pr_xstrdup(s);
    /* 0: not applicable (nccl-tests, MLPerf time to train). */
    if (get_int(c, "batch_size", 1, 0, 1 << 24, &r->batch_size, err) < 0 ||
        get_int(c, "nodes", 1, 1, 1 << 16, &r->nodes, err) < 0 ||
        get_int(c, "gpus_per_node", 1, 1, 1 << 10, &r->gpus_per_node, err) < 0 ||
        get_int(c, "repeat", 1, 1, 1 << 16, &r->repeat, err) < 0 ||
        get_int(c, "seq_len", 0, 1, 1 << 24, &r->seq_len, err) < 0)
        return -1;
    if (pr_jdoc_jenum(c, "origin", 1, origins, &s, err) < 0)
        return -1;
    r->origin = pr_xstrdup(s);

    pr_jdoc_jcur fr = pr_jdoc_jchild(c, "FINAL_RESULT");
    pr_jdoc_jcur fl = pr_jdoc_jchild(c, "failure");
    if (r->failed) {
        if (!fr.v || !json_is_null(fr.v))
            return pr_jdoc_jfail(fr.v ? &fr : c, err,
                                 "a failed case (JOB_FAIL_FLAG 1) must have FINAL_RESULT null");
        static const char *const fkeys[] = {"reason", "detail", NULL};
        if (!fl.v)
            return pr_jdoc_jfail(c, err, "a failed case (JOB_FAIL_FLAG 1) needs \"failure\"");
        if (pr_jdoc_jobject(&fl, fkeys, err) < 0 ||
            pr_jdoc_jenum(&fl, "reason", 1, pr_fail_reasons, &s, err) < 0)
            return -1;
        r->fail_reason = pr_xstrdup(s);
        if (get_str(&fl, "detail", 0, &r->fail_detail, err) < 0)
            return -1;
    } else {
        if (fl.v)
            return pr_jdoc_jfail(&fl, err,
                                 "a case that did not fail (JOB_FAIL_FLAG 0) has no failure");
        if (pr_jdoc_jnum(c, "FINAL_RESULT", 1, 0, &r->final_result, err) < 0)
            return -1;
        if (!(r->final_result > 0))
            return pr_jdoc_jfail(&fr, err, FINAL_RESULT_WHY);
    }
    double d = -1;
    if (get_str(c, "env", 0, &r->env, err) < 0 ||
        get_str(c, "started_at", 0, &r->started_at, err) < 0 ||
        pr_jdoc_jnum(c, "duration_s", 0, 0, &d, err) < 0 ||
        get_int(c, "exit_status", 0, 0, 255, &r->exit_status, err) < 0 ||
        get_int(c, "signal", 0, 1, 128, &r->term_signal, err) < 0 ||
        get_json(c, "stats", 0, &r->stats, err) < 0 || get_json(c, "rule", 0, &r->rule, err) < 0 ||
        get_json(c, "metrics", 0, &r->metrics, err) < 0 ||
        get_json(c, "logs", 1, &r->logs, err) < 0 ||
        get_json(c, "launch", 0, &r->launch, err) < 0 ||
        get_json(c, "command", 1, &r->command, err) < 0 ||
        get_json(c, "ended_processes", 0, &r->ended_processes, err) < 0)
        return -1;
    if (r->metrics) {
        pr_jdoc_jcur mc = pr_jdoc_jchild(c, "metrics");
        if (metrics_check(&mc, err) < 0)
            return -1;
    }
    if (get_str(c, "platform", 0, &r->platform, err) < 0)
        return -1;
    if (r->platform && !pr_suite_name_is_safe(r->platform)) {
        pr_jdoc_jcur pc = pr_jdoc_jchild(c, "platform");
        return pr_jdoc_jfail(&pc, err, "\"%s\" is not a platform id ([A-Za-z0-9._+-])",
                             r->platform);
    }
    if (get_json(c, "source", 0, &r->source, err) < 0 ||
        get_json(c, "log_facts", 1, &r->log_facts, err) < 0 ||
        get_json(c, "step_trace", 0, &r->step_trace, err) < 0 ||
        get_json(c, "steady", 0, &r->steady, err) < 0)
        return -1;
    if (r->steady) {
        pr_jdoc_jcur sc = pr_jdoc_jchild(c, "steady");
        if (r->failed)
            return pr_jdoc_jfail(&sc, err, "a failed case has no steady state to judge");
        if (pr_steady_check(&sc, err) < 0)
            return -1;
    }
    if (r->log_facts) {
        pr_jdoc_jcur fc = pr_jdoc_jchild(c, "log_facts");
        if (pr_recfacts_check(&fc, err) < 0)
            return -1;
    }
    if (r->step_trace) {
        pr_jdoc_jcur tc = pr_jdoc_jchild(c, "step_trace");
        if (pr_rectrace_check(&tc, err) < 0)
            return -1;
    }
    if (r->source) {
        pr_jdoc_jcur sc = pr_jdoc_jchild(c, "source");
        if (pr_record_source_check(&sc, err) < 0)
            return -1;
    }
    if (r->launch) {
        const char *field;
        char why[256];
        pr_jdoc_jcur lc = pr_jdoc_jchild(c, "launch");
        if (pr_jdoc_jobject(&lc, launch_keys, err) < 0)
            return -1;
        if (launch_check(r->launch, &field, why, sizeof why) < 0) {
            pr_jdoc_jcur fc = field ? pr_jdoc_jchild(&lc, field) : lc;
            return pr_jdoc_jfail(fc.v ? &fc : &lc, err, "%s", why);
        }
    }
    if (r->ended_processes) {
        const char *field;
        char why[256];
        pr_jdoc_jcur ec = pr_jdoc_jchild(c, "ended_processes");
        if (pr_jdoc_jobject(&ec, ended_keys, err) < 0)
            return -1;
        if (ended_check(r->ended_processes, &field, why, sizeof why) < 0) {
            pr_jdoc_jcur fc = field ? pr_jdoc_jchild(&ec, field) : ec;
            if (!fc.v) /* a key that is missing: named in the message */
                return pr_jdoc_jfail(&ec, err, "%s: %s", field, why);
            return pr_jdoc_jfail(&fc, err, "%s", why);
        }
    }
    r->duration_s = d;
    /* Hardening: model and framework name the report's folders
     * (reports/<model>/<framework>/); a record with "../../x" made gen write
     * outside the output folder.  Suites and published tables already checked
     * their ids; records did not. */
    static const char *const ids[] = {"model", "framework"};
    for (int i = 0; i < 2; i++) {
        const char *id = i ? r->framework : r->model;
        if (!pr_suite_name_is_safe(id)) {
            pr_jdoc_jcur k = pr_jdoc_jchild(c, ids[i]);
            return pr_jdoc_jfail(&k, err,
                                 "\"%s\" is not a safe folder name ([A-Za-z0-9._+-], not "
                                 "starting with '.' or '-')",
                                 id);
        }
    }
    if (r->log_file[0] && !pr_fileio_path_is_safe_relative(r->log_file)) {
        pr_jdoc_jcur lf = pr_jdoc_jchild(c, "log_file");
        return pr_jdoc_jfail(&lf, err, "must be a relative path inside the run directory");
    }
    /* A figure with no log behind it cannot be checked: only a failed case
     * (never started, say) may have none. */
    if (!r->failed && !r->log_file[0]) {
        pr_jdoc_jcur lf = pr_jdoc_jchild(c, "log_file");
        return pr_jdoc_jfail(&lf, err, "empty: a case with a FINAL_RESULT needs its log");
    }
    /* Each log the record lists is a path; gen's loader checks it like
     * log_file (a record `parse` prints lists the paths it was given). */
    for (size_t i = 0; i < json_array_size(r->logs); i++) {
        pr_jdoc_jcur lc = pr_jdoc_jchild(c, "logs");
        pr_jdoc_jcur it = pr_jdoc_jitem(&lc, i);
        if (!json_is_string(it.v) || !json_string_length(it.v))
            return pr_jdoc_jfail(&it, err, "expected a path (a non-empty string)");
    }
    if (r->env && !pr_fileio_path_is_safe_relative(r->env)) {
        pr_jdoc_jcur ef = pr_jdoc_jchild(c, "env");
        return pr_jdoc_jfail(&ef, err, "must be a relative path inside the run directory");
    }
    if (record_check(r, 1, err) < 0) {
        /* Re-anchor the message at the record's position. */
        pr_err inner = *err;
        return pr_jdoc_jfail(c, err, "%s", inner.msg);
    }
    return 0;
}

int pr_record_load(const char *path, pr_record *r, pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    int rc = pr_record_from_json(&root, r, err);
    pr_jdoc_free(doc);
    return rc;
}

int pr_record_write(const char *path, const pr_record *r, pr_err *err)
{
    if (pr_record_check(r, err) < 0)
        return -1;
    char *s = pr_record_dumps(r);
    int rc = pr_fileio_write_atomic(path, s, strlen(s), err);
    free(s);
    return rc;
}

size_t pr_record_run_values(const pr_record *r, double *out)
{
    if (r->failed)
        return 0;
    json_t *per_run = r->stats ? json_object_get(r->stats, "per_run") : NULL;
    size_t n = json_array_size(per_run);
    for (size_t k = 0; k < n; k++)
        if (!json_is_number(json_array_get(per_run, k)))
            n = 0;
    if (n <= 1) {
        if (out)
            out[0] = r->final_result;
        return 1;
    }
    for (size_t k = 0; out && k < n; k++)
        out[k] = json_number_value(json_array_get(per_run, k));
    return n;
}
