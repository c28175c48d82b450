/* record: the run record in memory, written as JSON (shortest reals), and its run values. */
#include "record.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"

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
