/* import_mlperf_runs: an MLPerf submission's runs as records (see the
 * header). */
#include "import_mlperf_runs.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "1-facts/envinfo.h"
#include "buf.h"
#include "fileio.h"
#include "import_mlperf_env.h"
#include "import_mlperf_steps.h"
#include "import_mlperf_sys.h"
#include "record.h"

/* The nodes and accelerators per node of the system's description (from
 * the platform it makes). */
static int system_counts(const import_mlperf_runs_mlperf_dest *d, const char *system, int *nodes,
                         int *per_node, pr_err *err)
{
    char *path = pr_xasprintf("%s/systems/%s.json", d->submission, system);
    char *rel = pr_xasprintf("systems/%s.json", system);
    json_t *p = import_mlperf_sys_platform(path, rel, err);
    int rc = p ? 0 : -1;
    if (p) {
        *nodes = (int)json_integer_value(json_object_get(json_object_get(p, "system"), "nodes"));
        *per_node =
            (int)json_integer_value(json_object_get(json_object_get(p, "device"), "per_node"));
    }
    json_decref(p);
    free(path);
    free(rel);
    return rc;
}

/* The score of e as every record of it carries it (a new object). */
static json_t *score_json(const import_mlperf_entry *e)
{
    json_t *s = json_object();
    json_object_set_new(s, "score_min", json_real(e->score.score));
    json_object_set_new(s, "unscaled_min", json_real(e->score.unscaled));
    json_object_set_new(s, "scaling_factor", json_real(e->score.factor));
    json_object_set_new(s, "runs", json_integer((json_int_t)e->nresults));
    json_object_set_new(s, "runs_averaged", json_integer((json_int_t)e->score.used));
    json_object_set_new(s, "not_converged", json_integer((json_int_t)e->score.not_converged));
    json_object_set_new(s, "rule",
                        json_string("olympic mean (fastest and slowest dropped; a run "
                                    "that did not converge is the slowest) times "
                                    "scaling.json's factor"));
    return s;
}

/* The record of run i of e (fields r owns). */
static void fill_record(const import_mlperf_entry *e, size_t i, const char *file,
                        const import_mlperf_runs_mlperf_dest *d, int nodes, int per_node,
                        const char *platform, pr_record *r)
{
    const import_mlperf_result *res = &e->results[i];
    const import_mlperf_score_bench *rule = import_mlperf_score_rule(e->benchmark);
    pr_record_init(r);
    r->log_file = pr_xasprintf("logs/train_log/%s", file);
    r->case_name = pr_xasprintf("%s_%dx%d", e->benchmark, nodes, per_node);
    r->model_name = pr_xstrdup(r->case_name);
    r->mission_name = pr_xstrdup(rule->mission);
    r->direction_id = rule->direction_id;
    snprintf(r->run_mode, sizeof r->run_mode, "%s", nodes * per_node > 1 ? "mp" : "sp");
    r->index = 1;
    r->gpu_num = nodes * per_node;
    r->failed = !res->converged;
    r->final_result = res->minutes;
    if (r->failed) {
        r->fail_reason = pr_xstrdup("not_converged");
        r->fail_detail = pr_xasprintf("run_stop's status is \"%s\" after %.17g min (line %d)",
                                      res->status, res->minutes, res->stop_line);
    }
    r->unit = pr_xstrdup("min");
    r->model = pr_xstrdup(rule->model);
    r->framework = pr_xstrdup("MLPerf");
    r->precision = pr_xstrdup(rule->precision);
    /* Per GPU, where the global batch divides evenly among the GPUs (the
     * configs' BATCHSIZE: 400 on one node, 16 on 316 nodes); else 0, not
     * applicable, and the global batch stays in metrics. */
    int gpus = nodes * per_node;
    r->batch_size = res->global_batch > 0 && gpus > 0 && res->global_batch % gpus == 0
                        ? (int)(res->global_batch / gpus)
                        : 0;
    r->nodes = nodes;
    r->gpus_per_node = per_node;
    r->repeat = (int)i + 1;
    r->origin = pr_xstrdup("parsed");
    /* The run's date is run_start's (time_ms, UTC): the run set's dates and
     * the page's data date come from it. */
    char when[32];
    envinfo_fmt_utc((time_t)(res->start_ms / 1000), when);
    r->started_at = pr_xstrdup(when);
    r->platform = pr_xstrdup(platform);
    json_t *m = json_object();
    json_object_set_new(m, "time_to_train_min", json_real(res->minutes));
    json_object_set_new(m, "time_to_train_s", json_real(res->minutes * 60));
    json_object_set_new(m, "status", json_string(res->status));
    if (res->global_batch > 0)
        json_object_set_new(m, "global_batch_size", json_integer(res->global_batch));
    if (res->throughputs) {
        json_object_set_new(m, "throughput", json_real(res->throughput));
        json_object_set_new(m, "throughput_samples", json_integer((json_int_t)res->throughputs));
    }
    json_object_set_new(m, "mlperf_score", score_json(e));
    r->metrics = m;
    /* The one record the run is (run_stop's line): its time to train, or,
     * for a run that did not converge, no value (status U: the failed
     * run's). */
    json_t *value = res->converged ? json_real(res->minutes) : json_null();
    r->step_trace =
        json_pack("{s:i, s:s, s:f, s:[{s:i, s:i, s:O, s:[i], s:[O], s:s}]}", "version", 1, "scale",
                  "as_read", "factor", 1.0, "runs", "records", 1, "bin", 1, "value", value, "lines",
                  res->stop_line, "values", value, "status", res->converged ? "K" : "U");
    json_decref(value);
    char *path = pr_xasprintf("%s/results/%s/%s/%s", e->submitter, e->system, e->benchmark, file);
    r->source =
        json_pack("{s:s, s:s, s:s, s:s+++++}", "repo", d->repo, "commit", d->commit, "path", path,
                  "url", "https://github.com/", d->repo, "/blob/", d->commit, "/", path);
    free(path);
}

static const char SOURCE_MD[] =
    "# %s\n\n"
    "MLPerf Training results of %s (https://github.com/%s) at commit\n"
    "`%s`: `%s/results/%s/%s/`, copied unchanged into `logs/train_log/` and read by\n"
    "`perfrepro-measure import --mlperf` (docs/import.md). Each record under `logs/index/`\n"
    "is one run: its time to train from run_start to run_stop, in minutes, and its status.\n"
    "The score of %s on %s (MLPerf's rule: %zu runs, the olympic mean of %zu, a run that did\n"
    "not converge counted as the slowest, times scaling.json's factor) is %.17g min\n"
    "(unscaled %.17g min, factor %.17g). Licence: the source's, `LICENSE` beside this file.\n";

int import_mlperf_runs_write(const import_mlperf_entry *e, void *ctx, pr_err *err)
{
    const import_mlperf_runs_mlperf_dest *d = ctx;
    int rc = -1, nodes = 0, per_node = 0;
    char *platform = import_mlperf_sys_id(e->submitter, e->system);
    char *run =
        pr_xasprintf("%s/runs/mlperf-%s-%s-%s", d->data, e->submitter, e->system, e->benchmark);
    char *src_md = NULL, *licence = NULL, *dst = NULL;
    char *logs = pr_xasprintf("%s/logs/train_log", run), *idx = pr_xasprintf("%s/logs/index", run);
    int made = pr_fileio_mkdirs(logs, err) < 0 || pr_fileio_mkdirs(idx, err) < 0 ? -1 : 0;
    free(logs);
    free(idx);
    if (made < 0 || system_counts(d, e->system, &nodes, &per_node, err) < 0)
        goto out;
    for (size_t i = 0; i < e->nresults; i++) {
        const char *file = e->results[i].file;
        char *from = pr_xasprintf("%s/%s", e->dir, file);
        char *log = pr_xasprintf("%s/logs/train_log/%s", run, file);
        char *index = pr_xasprintf("%s/logs/index/%s_run%zu_speed", run, e->benchmark, i + 1);
        pr_record r;
        fill_record(e, i, file, d, nodes, per_node, platform, &r);
        char *text = pr_record_dumps(&r);
        int changed;
        int wr = pr_fileio_copy_if_changed(from, log, &changed, err) < 0 ||
                         pr_fileio_write_if_changed(index, text, strlen(text), err) < 0
                     ? -1
                     : 0;
        free(text);
        pr_record_clear(&r);
        free(from);
        free(log);
        free(index);
        if (wr < 0)
            goto out;
    }
    if (import_mlperf_steps_write(e, d, run, platform, nodes, per_node, err) < 0 ||
        import_mlperf_env_runset(run, run + strlen(d->data) + 6, platform, e->system, err) < 0)
        goto out;
    src_md =
        pr_xasprintf(SOURCE_MD, run + strlen(d->data) + 6, e->submitter, d->repo, d->commit,
                     e->submitter, e->system, e->benchmark, e->system, e->benchmark, e->nresults,
                     e->score.used, e->score.score, e->score.unscaled, e->score.factor);
    dst = pr_xasprintf("%s/SOURCE.md", run);
    if (pr_fileio_write_if_changed(dst, src_md, strlen(src_md), err) < 0)
        goto out;
    /* The submitter's own licence where it has one (NVIDIA/LICENSE.md), else
     * the repository's beside the submitter folders. */
    licence = pr_xasprintf("%s/LICENSE.md", d->submission);
    struct stat st;
    if (stat(licence, &st) < 0) {
        free(licence);
        licence = pr_xasprintf("%s/../LICENSE.md", d->submission);
    }
    free(dst);
    dst = pr_xasprintf("%s/LICENSE", run);
    int changed;
    if (pr_fileio_copy_if_changed(licence, dst, &changed, err) < 0)
        goto out;
    rc = 0;
out:
    free(platform);
    free(run);
    free(src_md);
    free(licence);
    free(dst);
    return rc;
}
