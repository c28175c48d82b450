/* The mpirun launcher: OpenMPI's mpirun starts the case's tasks (launch.h).
 *
 *   mpirun [--allow-run-as-root] -np N --map-by ppr:M:node --bind-to none
 *          [--host h1:M,h2:M | --hostfile FILE] --tag-output
 *          --output-filename DIR/logs/train_log/<case>.ranks -x NAME...
 *          [apptainer exec ...] /bin/sh -c 'WRAPPER' perfrepro-task ARGV...
 *
 * N is nodes x M, M the GPUs per node (one process per GPU) or 1 (one per
 * node).  --tag-output prefixes every line of the merged log (the case's
 * log) with [job,rank]<stdout>:, which the parse rule's "rank" reads;
 * --output-filename keeps each rank's output in a file of its own as well.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "fileio.h"
#include "launch.h"
#include "record.h"

static const pr_launch_env no_env;

static const pr_launch_env *env_of(const pr_launch_ctx *ctx)
{
    return ctx->le ? ctx->le : &no_env;
}

/* The host names the case runs on (the first `nodes` of --hosts/--hostfile
 * or of the Slurm allocation), or none when mpirun chooses (one node). */
static int pick_hosts(const pr_launch_ctx *ctx, const char **master, pr_err *err)
{
    const pr_launch_env *le = env_of(ctx);
    const pr_suite_case *c = ctx->c;
    int m = launch_tasks_per_node(ctx);
    if (le->nhosts) {
        if (le->nhosts < (size_t)c->nodes)
            return pr_err_set(err, NULL, 0, 0, NULL, "the case needs %d nodes; %s lists %zu",
                              c->nodes, le->hostfile ? "--hostfile" : "--hosts", le->nhosts);
        for (int i = 0; i < c->nodes; i++)
            if (le->hosts[i].slots && le->hosts[i].slots < m)
                return pr_err_set(err, NULL, 0, 0, NULL,
                                  "host %s has %d slots; the case runs %d processes per node",
                                  le->hosts[i].name, le->hosts[i].slots, m);
        *master = le->hosts[0].name;
        return 0;
    }
    if (le->job_id && le->nalloc) {
        if (le->nalloc < (size_t)c->nodes)
            return pr_err_set(err, NULL, 0, 0, NULL,
                              "the case needs %d nodes; the Slurm allocation (job %s) has %zu",
                              c->nodes, le->job_id, le->nalloc);
        *master = le->alloc_hosts[0];
        return 0;
    }
    if (c->nodes > 1)
        return pr_err_set(err, NULL, 0, 0, NULL,
                          "the case needs %d nodes: give mpirun its hosts (--hosts "
                          "h1:%d,h2:%d,... or --hostfile FILE) or run inside a Slurm allocation",
                          c->nodes, m, m);
    *master = "127.0.0.1";
    return 0;
}

static int mpi_vars(const pr_launch_ctx *ctx, pr_launch_vars *v, pr_err *err)
{
    const pr_launch_env *le = env_of(ctx);
    const char *master;
    if (pick_hosts(ctx, &master, err) < 0)
        return -1;
    snprintf(v->master_addr, sizeof v->master_addr, "%s", master);
    snprintf(v->master_port, sizeof v->master_port, "%d", ctx->master_port);
    snprintf(v->node_rank, sizeof v->node_rank, "${NODE_RANK}");
    snprintf(v->local_rank, sizeof v->local_rank, "${LOCAL_RANK}");
    snprintf(v->world_size, sizeof v->world_size, "%d", ctx->c->gpus);
    snprintf(v->hostfile, sizeof v->hostfile, "%s", le->hostfile ? le->hostfile : "");
    v->refs = PR_REF_NODE_RANK | PR_REF_LOCAL_RANK;
    launch_common_env(ctx, master, &v->env);
    return 0;
}

/* The launch object of the record: no address ever goes in. */
static json_t *launch_json(const pr_launch_ctx *ctx, int ntasks)
{
    const pr_launch_env *le = env_of(ctx);
    json_t *l = json_pack("{s:s,s:i,s:s}", "launcher", "mpirun", "tasks", ntasks, "ranks",
                          le->ranks == PR_RANKS_PER_NODE ? "per_node" : "per_gpu");
    json_t *hosts = json_array();
    for (int i = 0; i < ctx->c->nodes; i++) {
        const char *h = le->nhosts ? le->hosts[i].name : le->nalloc ? le->alloc_hosts[i] : NULL;
        if (h)
            json_array_append_new(hosts, json_string(pr_record_is_ip_address(h) ? "(address)" : h));
    }
    if (json_array_size(hosts))
        json_object_set_new(l, "hosts", hosts);
    else
        json_decref(hosts);
    if (le->container != PR_CT_NONE)
        json_object_set_new(l, "container", json_string(container_name(le->container)));
    return l;
}

/* Appends NAME to the -x list unless it is there already. */
static void export_name(char ***v, size_t *n, char ***seen, size_t *nseen, const char *name)
{
    for (size_t i = 0; i < *nseen; i++)
        if (strcmp((*seen)[i], name) == 0)
            return;
    launch_strv_push(seen, nseen, pr_xstrdup(name));
    launch_strv_push(v, n, pr_xstrdup("-x"));
    launch_strv_push(v, n, pr_xstrdup(name));
}

static int mpi_wrap(const pr_launch_ctx *ctx, const pr_task *task, pr_launch_plan *p, pr_err *err)
{
    const pr_launch_env *le = env_of(ctx);
    const pr_suite_case *c = ctx->c;
    int rc = -1, m = launch_tasks_per_node(ctx), ntasks = c->nodes * m;
    char **v = NULL, **seen = NULL, **names = NULL;
    size_t n = 0, nseen = 0, nnames = 0;
    pr_buf b = PR_BUF_INIT;
    const char *master;
    memset(p, 0, sizeof *p);
    if (pick_hosts(ctx, &master, err) < 0)
        goto out;
    launch_strv_push(&v, &n, pr_xstrdup("mpirun"));
    /* OpenMPI refuses root unless told; containers and CI often are root. */
    if (le->as_root)
        launch_strv_push(&v, &n, pr_xstrdup("--allow-run-as-root"));
    launch_strv_push(&v, &n, pr_xstrdup("-np"));
    launch_strv_push(&v, &n, pr_xasprintf("%d", ntasks));
    launch_strv_push(&v, &n, pr_xstrdup("--map-by"));
    launch_strv_push(&v, &n, pr_xasprintf("ppr:%d:node", m));
    /* OpenMPI binds each rank to a core by default, which starves a
     * framework's data-loading threads (and a per-node torchrun of all but
     * one core). */
    launch_strv_push(&v, &n, pr_xstrdup("--bind-to"));
    launch_strv_push(&v, &n, pr_xstrdup("none"));
    if (le->hostfile) {
        launch_strv_push(&v, &n, pr_xstrdup("--hostfile"));
        launch_strv_push(&v, &n, pr_xstrdup(le->hostfile));
    } else if (le->nhosts) {
        for (int i = 0; i < c->nodes; i++)
            pr_buf_printf(&b, "%s%s:%d", i ? "," : "", le->hosts[i].name, m);
        launch_strv_push(&v, &n, pr_xstrdup("--host"));
        launch_strv_push(&v, &n, pr_xstrdup(pr_buf_cstr(&b)));
    }
    launch_strv_push(&v, &n, pr_xstrdup("--tag-output"));
    p->rank_dir = pr_xasprintf("%s.ranks", ctx->log_path);
    launch_strv_push(&v, &n, pr_xstrdup("--output-filename"));
    launch_strv_push(&v, &n, pr_xstrdup(p->rank_dir));
    /* Ranks on other nodes get only what -x names: the job's variables and
     * the paths and NCCL settings measure itself runs with. */
    for (char *const *e = task->env; e && *e; e++) {
        char *name = pr_xstrndup(*e, strcspn(*e, "="));
        export_name(&v, &n, &seen, &nseen, name);
        launch_strv_push(&names, &nnames, name);
    }
    for (char **e = le->pass_env; e && *e; e++)
        export_name(&v, &n, &seen, &nseen, *e);
    pr_container_spec cs = {le->container, le->image,  ctx->workdir,
                            ctx->out_dir,  le->mounts, names};
    if (container_words(&cs, &v, &n, err) < 0)
        goto out;
    /* OpenMPI gives each rank its place; node index = rank / M because
     * ppr:M:node fills the nodes in order. */
    pr_buf_clear(&b);
    pr_buf_printf(&b,
                  "RANK=${OMPI_COMM_WORLD_RANK:?perfrepro: not started by mpirun}; "
                  "LOCAL_RANK=${OMPI_COMM_WORLD_LOCAL_RANK:?}; NODE_RANK=$((RANK / %d)); "
                  "export RANK LOCAL_RANK NODE_RANK",
                  m);
    if (le->ranks == PR_RANKS_PER_NODE)
        pr_buf_puts(&b, "; PET_NODE_RANK=$NODE_RANK; export PET_NODE_RANK");
    launch_task_argv(pr_buf_cstr(&b), task, &v, &n);
    p->argv = v;
    v = NULL;
    p->ntasks = ntasks;
    p->launch = launch_json(ctx, ntasks);
    rc = 0;
out:
    pr_fileio_strv_free(v);
    pr_fileio_strv_free(seen);
    pr_fileio_strv_free(names);
    pr_buf_free(&b);
    if (rc < 0)
        launch_plan_free(p);
    return rc;
}

const pr_launcher pr_launcher_mpirun = {"mpirun", mpi_vars, mpi_wrap};
