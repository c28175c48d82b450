/* record_load: a record read from JSON, each field checked where it stands (FILE:LINE:COL). */
#include "record.h"

#include <string.h>

#include "fileio.h"
#include "recfacts.h"
#include "rectrace.h"
#include "steady.h"
#include "suite.h"
#include "record_int.h"

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
            return pr_jdoc_jfail(&fr, err, PR_RECORD_FINAL_RESULT_WHY);
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
        if (pr_record_metrics_check(&mc, err) < 0)
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
        if (pr_jdoc_jobject(&lc, pr_record_launch_keys, err) < 0)
            return -1;
        if (pr_record_launch_check(r->launch, &field, why, sizeof why) < 0) {
            pr_jdoc_jcur fc = field ? pr_jdoc_jchild(&lc, field) : lc;
            return pr_jdoc_jfail(fc.v ? &fc : &lc, err, "%s", why);
        }
    }
    if (r->ended_processes) {
        const char *field;
        char why[256];
        pr_jdoc_jcur ec = pr_jdoc_jchild(c, "ended_processes");
        if (pr_jdoc_jobject(&ec, pr_record_ended_keys, err) < 0)
            return -1;
        if (pr_record_ended_check(r->ended_processes, &field, why, sizeof why) < 0) {
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
    if (pr_record_check_fields(r, 1, err) < 0) {
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
