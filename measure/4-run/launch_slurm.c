/* The slurm launcher (launch.h).
 *
 * Inside an allocation (SLURM_JOB_ID set: salloc, or measure itself in a
 * batch job) the case is one job step:
 *
 *   srun --nodes=N --ntasks=T --ntasks-per-node=M --nodelist=h1,...
 *        [--mpi=pmix] --kill-on-bad-exit=1 --output=DIR/logs/train_log/<case>.rank%t
 *        [--srun-opt ...] [pyxis options] [apptainer exec ...] /bin/sh -c 'WRAPPER' ...
 *
 * Outside one, the same srun line goes into a batch script written to
 * DIR/logs/train_log/<case>.sbatch (kept: it is how the case was run), and
 * measure runs `sbatch --parsable --wait SCRIPT`: sbatch prints the job id
 * into the case's log, waits for the job and exits with its status.  The
 * script asks for N nodes with M tasks and the case's GPUs on each, a time
 * limit of the case's timeout, and sends its own output (the node list,
 * srun's messages) to the case's log.  Each task's output is a file of its
 * own (.rank<N>): the parse rule's "rank" picks the one that is read.
 *
 * Inside an allocation the step's nodes are named (the first N of the
 * allocation), so that the first of them, which {master_addr} names, is
 * node 0 of the step.  In a batch job the nodes are known only when it
 * starts: the script sets MASTER_ADDR, and {master_addr} stands for it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "fileio.h"
#include "launch.h"
#include "record.h"
#include "runner.h"

static const pr_launch_env no_env;

static const pr_launch_env *env_of(const pr_launch_ctx *ctx)
{
    return ctx->le ? ctx->le : &no_env;
}

/* Slurm reads '%' in --output as a pattern and a batch script's #SBATCH
 * lines are split at blanks: paths with those cannot be given safely. */
static int path_ok(const char *what, const char *path, pr_err *err)
{
    if (strpbrk(path, "% \t\n\"'\\"))
        return pr_err_set(err, NULL, 0, 0, NULL,
                          "the %s \"%s\" holds a character Slurm would read ('%%', a blank, "
                          "a quote or a backslash): use another directory",
                          what, path);
    return 0;
}

static int slurm_vars(const pr_launch_ctx *ctx, pr_launch_vars *v, pr_err *err)
{
    const pr_launch_env *le = env_of(ctx);
    const pr_suite_case *c = ctx->c;
    const char *master = NULL;
    if (le->job_id) {
        if (le->nalloc < (size_t)c->nodes)
            return pr_err_set(err, NULL, 0, 0, NULL,
                              "the case needs %d nodes; this Slurm allocation (job %s) has "
                              "%zu: run it in a larger one, or outside any allocation (measure "
                              "then submits it with sbatch)",
                              c->nodes, le->job_id, le->nalloc);
        master = le->alloc_hosts[0];
        snprintf(v->master_addr, sizeof v->master_addr, "%s", master);
    } else {
        snprintf(v->master_addr, sizeof v->master_addr, "${MASTER_ADDR}");
        v->refs |= PR_REF_MASTER_ADDR;
    }
    snprintf(v->master_port, sizeof v->master_port, "%d", ctx->master_port);
    snprintf(v->node_rank, sizeof v->node_rank, "${NODE_RANK}");
    snprintf(v->local_rank, sizeof v->local_rank, "${LOCAL_RANK}");
    snprintf(v->world_size, sizeof v->world_size, "%d", c->gpus);
    v->hostfile[0] = '\0';
    v->refs |= PR_REF_NODE_RANK | PR_REF_LOCAL_RANK;
    launch_common_env(ctx, master, &v->env);
    return 0;
}

/* The srun words (without the task). */
static int srun_words(const pr_launch_ctx *ctx, const pr_task *task, int m, char ***v, size_t *n,
                      pr_err *err)
{
    const pr_launch_env *le = env_of(ctx);
    const pr_suite_case *c = ctx->c;
    launch_strv_push(v, n, pr_xstrdup("srun"));
    launch_strv_push(v, n, pr_xasprintf("--nodes=%d", c->nodes));
    launch_strv_push(v, n, pr_xasprintf("--ntasks=%d", c->nodes * m));
    launch_strv_push(v, n, pr_xasprintf("--ntasks-per-node=%d", m));
    if (le->job_id) {
        pr_buf b = PR_BUF_INIT;
        for (int i = 0; i < c->nodes; i++)
            pr_buf_printf(&b, "%s%s", i ? "," : "", le->alloc_hosts[i]);
        launch_strv_push(v, n, pr_xasprintf("--nodelist=%s", pr_buf_cstr(&b)));
        pr_buf_free(&b);
    }
    /* MPI programs (the NCCL workloads, Horovod) find their rank through
     * PMIx; plain programs do not mind it. */
    if (le->srun_mpi)
        launch_strv_push(v, n, pr_xasprintf("--mpi=%s", le->srun_mpi));
    /* One task failing ends the step instead of leaving the others waiting
     * in a collective until the timeout. */
    launch_strv_push(v, n, pr_xstrdup("--kill-on-bad-exit=1"));
    launch_strv_push(v, n, pr_xasprintf("--output=%s.rank%%t", ctx->log_path));
    for (char **o = le->srun_opts; o && *o; o++)
        launch_strv_push(v, n, pr_xstrdup(*o));
    pr_container_spec cs = {le->container, le->image, ctx->workdir, ctx->out_dir, le->mounts, NULL};
    (void)task;
    return container_words(&cs, v, n, err);
}

static json_t *launch_json(const pr_launch_ctx *ctx, int ntasks, const char *script_rel)
{
    const pr_launch_env *le = env_of(ctx);
    json_t *l = json_pack("{s:s,s:i,s:s}", "launcher", "slurm", "tasks", ntasks, "ranks",
                          le->ranks == PR_RANKS_PER_NODE ? "per_node" : "per_gpu");
    if (le->job_id) {
        json_object_set_new(l, "job_id", json_string(le->job_id));
        json_t *hosts = json_array();
        for (int i = 0; i < ctx->c->nodes && (size_t)i < le->nalloc; i++)
            json_array_append_new(hosts, json_string(pr_record_is_ip_address(le->alloc_hosts[i])
                                                         ? "(address)"
                                                         : le->alloc_hosts[i]));
        json_object_set_new(l, "hosts", hosts);
    }
    if (le->container != PR_CT_NONE)
        json_object_set_new(l, "container", json_string(container_name(le->container)));
    if (script_rel)
        json_object_set_new(l, "script", json_string(script_rel));
    return l;
}

/* The batch script: #SBATCH lines, MASTER_ADDR, the node list, then the
 * srun line (each word quoted for sh). */
static char *batch_script(const pr_launch_ctx *ctx, int m, char *const *srun, size_t task_at)
{
    const pr_launch_env *le = env_of(ctx);
    const pr_suite_case *c = ctx->c;
    pr_buf b = PR_BUF_INIT;
    long minutes = (long)ceil(ctx->timeout_s / 60.0);
    if (minutes < 1)
        minutes = 1;
    pr_buf_puts(&b, "#!/bin/sh\n");
    pr_buf_printf(&b,
                  "# perfrepro-measure: the batch job of case %s (generated, kept as "
                  "evidence)\n",
                  c->name);
    pr_buf_printf(&b, "#SBATCH --job-name=%s\n", c->name);
    pr_buf_printf(&b, "#SBATCH --nodes=%d\n", c->nodes);
    pr_buf_printf(&b, "#SBATCH --ntasks-per-node=%d\n", m);
    if (le->gpu_request)
        pr_buf_printf(&b, "#SBATCH --gpus-per-node=%d\n", c->gpus_per_node);
    /* A benchmark shares its nodes with nobody. */
    pr_buf_puts(&b, "#SBATCH --exclusive\n");
    pr_buf_printf(&b, "#SBATCH --time=%ld\n", minutes);
    pr_buf_printf(&b, "#SBATCH --output=%s\n", ctx->log_path);
    /* sbatch has already written the job id into the log. */
    pr_buf_puts(&b, "#SBATCH --open-mode=append\n");
    pr_buf_printf(&b, "#SBATCH --chdir=%s\n", ctx->workdir);
    pr_buf_puts(&b, "#SBATCH --export=ALL\n");
    for (char **o = le->sbatch_opts; o && *o; o++)
        pr_buf_printf(&b, "#SBATCH %s\n", *o);
    pr_buf_puts(&b, "set -u\n"
                    "nodes=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\")\n"
                    "MASTER_ADDR=$(printf '%s\\n' \"$nodes\" | head -n 1)\n"
                    "export MASTER_ADDR\n");
    if (le->ranks == PR_RANKS_PER_NODE)
        pr_buf_puts(&b, "PET_MASTER_ADDR=$MASTER_ADDR\nexport PET_MASTER_ADDR\n");
    pr_buf_puts(&b, "echo \"PERFREPRO_NODES:\" $nodes\n");
    /* srun and its options on one line, the task on the next. */
    pr_buf_puts(&b, "exec");
    for (size_t i = 0; srun[i]; i++) {
        pr_buf_puts(&b, i == task_at ? " \\\n    " : " ");
        runner_shell_quote(srun[i], &b);
    }
    pr_buf_putc(&b, '\n');
    return pr_buf_detach(&b);
}

static int slurm_wrap(const pr_launch_ctx *ctx, const pr_task *task, pr_launch_plan *p, pr_err *err)
{
    const pr_launch_env *le = env_of(ctx);
    int rc = -1, m = launch_tasks_per_node(ctx), ntasks = ctx->c->nodes * m;
    char **v = NULL;
    size_t n = 0;
    char *rel = NULL;
    memset(p, 0, sizeof *p);
    if (path_ok("log path", ctx->log_path, err) < 0 ||
        path_ok("working directory", ctx->workdir, err) < 0)
        goto out;
    if (srun_words(ctx, task, m, &v, &n, err) < 0)
        goto out;
    size_t task_at = n;
    /* Slurm gives each task its place directly. */
    launch_task_argv(le->ranks == PR_RANKS_PER_NODE
                         ? "RANK=${SLURM_PROCID:?perfrepro: not started by srun}; "
                           "LOCAL_RANK=${SLURM_LOCALID:?}; NODE_RANK=${SLURM_NODEID:?}; "
                           "export RANK LOCAL_RANK NODE_RANK; "
                           "PET_NODE_RANK=$NODE_RANK; export PET_NODE_RANK"
                         : "RANK=${SLURM_PROCID:?perfrepro: not started by srun}; "
                           "LOCAL_RANK=${SLURM_LOCALID:?}; NODE_RANK=${SLURM_NODEID:?}; "
                           "export RANK LOCAL_RANK NODE_RANK",
                     task, &v, &n);
    p->rank_prefix = pr_xasprintf("%s.rank", ctx->log_path);
    p->ntasks = ntasks;
    if (le->job_id) {
        p->argv = v;
        v = NULL;
    } else {
        p->script = batch_script(ctx, m, v, task_at);
        p->script_path = pr_xasprintf("%s.sbatch", ctx->log_path);
        size_t ol = strlen(ctx->out_dir);
        if (strncmp(p->script_path, ctx->out_dir, ol) == 0 && p->script_path[ol] == '/')
            rel = pr_xstrdup(p->script_path + ol + 1);
        char **a = NULL;
        size_t na = 0;
        launch_strv_push(&a, &na, pr_xstrdup("sbatch"));
        launch_strv_push(&a, &na, pr_xstrdup("--parsable"));
        launch_strv_push(&a, &na, pr_xstrdup("--wait"));
        launch_strv_push(&a, &na, pr_xstrdup(p->script_path));
        p->argv = a;
        p->batch = 1;
    }
    p->launch = launch_json(ctx, ntasks, rel);
    rc = 0;
out:
    pr_fileio_strv_free(v);
    free(rel);
    if (rc < 0)
        launch_plan_free(p);
    return rc;
}

const pr_launcher pr_launcher_slurm = {"slurm", slurm_vars, slurm_wrap};
