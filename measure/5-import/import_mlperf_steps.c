/* import_mlperf_steps: an MLPerf implementation's README steps as the run
 * set's suite (see the header). */
#include "import_mlperf_steps.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "fileio.h"
#include "import_fs.h"

/* The word after `prefix` on the first line of text that starts with it
 * (leading blanks skipped), up to a blank or the line's end; a new string,
 * or NULL when no line has it. */
static char *word_after(const char *text, const char *prefix)
{
    for (const char *line = text; line && *line;) {
        const char *p = line + strspn(line, " \t");
        if (!strncmp(p, prefix, strlen(prefix))) {
            p += strlen(prefix);
            size_t n = strcspn(p, " \t\r\n");
            return n ? pr_xstrndup(p, n) : NULL;
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return NULL;
}

/* The text of dir/name into *out (a new string); -1 with err when it
 * cannot be read or is no regular file inside submission (links resolved)
 * of at most IMPORT_MLPERF_TEXT_LIMIT bytes. */
static int read_text(const char *submission, const char *dir, const char *name, char **out,
                     pr_err *err)
{
    char *path = pr_xasprintf("%s/%s", dir, name);
    pr_buf b = PR_BUF_INIT;
    int rc = import_fs_check_file(submission, path, IMPORT_MLPERF_TEXT_LIMIT, name, NULL, err);
    if (rc == 0)
        rc = pr_fileio_read_file(path, &b, err);
    free(path);
    *out = rc < 0 ? NULL : pr_buf_detach(&b);
    pr_buf_free(&b);
    return rc;
}

int import_mlperf_steps_check(const char *submission, const import_mlperf_entry *e, pr_err *err)
{
    char *impl =
        pr_xasprintf("%s/benchmarks/%s/implementations/%s", submission, e->benchmark, e->system);
    char *readme = pr_xasprintf("%s/README-%s.md", impl, e->system);
    char *docker = pr_xasprintf("%s/Dockerfile", impl);
    int present;
    int rc = import_fs_check_file(submission, readme, IMPORT_MLPERF_TEXT_LIMIT,
                                  readme + strlen(impl) + 1, &present, err) < 0 ||
                     import_fs_check_file(submission, docker, IMPORT_MLPERF_TEXT_LIMIT,
                                          "Dockerfile", &present, err) < 0
                 ? -1
                 : 0;
    free(impl);
    free(readme);
    free(docker);
    return rc;
}

int import_mlperf_steps_write(const import_mlperf_entry *e, const import_mlperf_runs_mlperf_dest *d,
                              const char *run, const char *platform, int nodes, int per_node,
                              pr_err *err)
{
    int rc = -1;
    char *impl =
        pr_xasprintf("%s/benchmarks/%s/implementations/%s", d->submission, e->benchmark, e->system);
    char *readme_name = pr_xasprintf("README-%s.md", e->system);
    char *readme = NULL, *docker = NULL, *config = NULL, *image = NULL, *text = NULL;
    char *dst = NULL, *rel = NULL;
    json_t *suite = NULL;
    struct stat st;
    /* A suite's cases have a batch size per GPU: where the logs give no
     * global batch that divides evenly among the GPUs, no case can name
     * the records' configuration, and the run set has no suite. */
    long long global = e->nresults ? e->results[0].global_batch : 0;
    if (stat(impl, &st) < 0 || global <= 0 || global % (nodes * per_node)) {
        rc = 0;
        goto out;
    }
    if (read_text(d->submission, impl, readme_name, &readme, err) < 0 ||
        read_text(d->submission, impl, "Dockerfile", &docker, err) < 0)
        goto out;
    config = word_after(readme, "source ");
    if (!config || strncmp(config, "config_", 7) || strchr(config, '/')) {
        pr_err_set(err, impl, 0, 0, readme_name,
                   "no \"source config_*.sh\" line: the config the run used is not named");
        goto out;
    }
    char *config_path = pr_xasprintf("%s/%s", impl, config);
    int has_config = stat(config_path, &st) == 0 && S_ISREG(st.st_mode);
    free(config_path);
    if (!has_config) {
        pr_err_set(err, impl, 0, 0, readme_name, "sources %s, which is not in the folder", config);
        goto out;
    }
    image = word_after(docker, "ARG FROM_IMAGE_NAME=");
    const import_mlperf_score_bench *rule = import_mlperf_score_rule(e->benchmark);
    rel =
        pr_xasprintf("%s/benchmarks/%s/implementations/%s", e->submitter, e->benchmark, e->system);
    suite = json_object();
    json_object_set_new(suite, "perfrepro", json_integer(1));
    json_object_set_new(suite, "model", json_string(rule->model));
    json_object_set_new(suite, "framework", json_string("MLPerf"));
    json_object_set_new(suite, "model_name", json_string(e->benchmark));
    json_object_set_new(suite, "mission_name", json_string(rule->mission));
    json_object_set_new(suite, "direction_id", json_integer(rule->direction_id));
    json_object_set_new(suite, "unit", json_string("min"));
    char *desc = pr_xasprintf(
        "%s's MLPerf Training implementation of %s for %s, run as its README-%s.md says: the "
        "image built from its Dockerfile%s%s, the settings of %s, and run.sub submitted to "
        "Slurm with sbatch (pyxis containers); each job runs run_and_time.sh per GPU and "
        "writes one result file per run.",
        e->submitter, e->benchmark, e->system, e->system, image ? " on " : "", image ? image : "",
        config);
    char *desc_zh = pr_xasprintf(
        "%s 的 MLPerf 训练 %s 实现（%s），按其 README-%s.md 运行：用其 Dockerfile 构建镜像%s%s%s，"
        "载入 %s 的设置，用 sbatch 把 run.sub 提交给 Slurm（pyxis 容器）；作业在每张 GPU 上运行 "
        "run_and_time.sh，每次运行写一个结果文件。",
        e->submitter, e->benchmark, e->system, e->system, image ? "（基于 " : "",
        image ? image : "", image ? "）" : "", config);
    json_object_set_new(suite, "description", json_pack("{s:s, s:s}", "zh", desc_zh, "en", desc));
    free(desc);
    free(desc_zh);
    json_object_set_new(suite, "source",
                        json_pack("{s:s+, s:s, s:s}", "repo", "https://github.com/", d->repo,
                                  "path", rel, "commit", d->commit));
    if (image)
        json_object_set_new(suite, "image", json_string(image));
    json_object_set_new(suite, "platform", json_string(platform));
    char *sbatch =
        pr_xasprintf(". ./%s && exec sbatch -N \"$DGXNNODES\" -t \"$WALLTIME\" run.sub", config);
    json_t *steps = json_pack(
        "{s:{s:{s:s, s:s}, s:{s:s, s:s}, s:{s:s, s:s}}, s:[[s,s,s,s,s,s]], s:[[s,s,s,s,s,s,s]]}",
        "vars", "CONT", "zh", "构建的镜像名（registry/name:tag）", "en",
        "the image name to build and run (registry/name:tag)", "DATADIR", "zh",
        "预处理后的数据目录", "en", "the folder of the preprocessed data", "LOGDIR", "zh",
        "结果文件的输出目录", "en", "the folder the result files are written to", "setup", "docker",
        "build", "--pull", "-t", "{CONT}", ".", nodes > 1 ? "multi_node" : "single_node", "env",
        "CONT={CONT}", "DATADIR={DATADIR}", "LOGDIR={LOGDIR}", "bash", "-c", sbatch);
    free(sbatch);
    json_object_set_new(suite, "steps", steps);
    json_object_set_new(suite, "command", json_pack("[s,s]", "bash", "./run_and_time.sh"));
    json_object_set_new(suite, "timeout_s", json_integer(3 * 3600));
    json_t *batch = json_pack("[I]", (json_int_t)(global / (nodes * per_node)));
    json_object_set_new(suite, "matrix",
                        json_pack("{s:[i], s:[i], s:o, s:[s], s:i}", "nodes", nodes,
                                  "gpus_per_node", per_node, "batch_size", batch, "precision",
                                  rule->precision, "repeats", (int)rule->runs));
    json_object_set_new(suite, "rule",
                        json_pack("{s:s, s:s, s:s, s:{s:i, s:i}, s:i}", "profile", "mllog",
                                  "non_converged", "worst", "reduce", "trimmed_mean", "trim",
                                  "fraction", 0, "min", (int)rule->drop_each_end, "min_records",
                                  (int)rule->runs));
    json_object_set_new(suite, "launcher", json_string("slurm"));
    json_object_set_new(suite, "container", json_string("pyxis"));
    json_object_set_new(suite, "summary", json_string("olympic"));
    /* as import_mlperf_runs names the cases */
    json_object_set_new(suite, "case_name", json_string("{model_name}_{nodes}x{gpus_per_node}"));
    text = json_dumps(suite, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    dst = pr_xasprintf("%s/suite.json", run);
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, text);
    pr_buf_putc(&b, '\n');
    rc = pr_fileio_write_if_changed(dst, b.data, b.len, err);
    pr_buf_free(&b);
out:
    json_decref(suite);
    free(impl);
    free(readme_name);
    free(readme);
    free(docker);
    free(config);
    free(image);
    free(text);
    free(dst);
    free(rel);
    return rc;
}
