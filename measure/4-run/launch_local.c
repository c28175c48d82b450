/* The local launcher: the case's command itself, on this machine
 * (launch.h); and the table launch_find looks launchers up in. */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "container.h"
#include "fileio.h"
#include "launch.h"

static int local_vars(const pr_launch_ctx *ctx, pr_launch_vars *v, pr_err *err)
{
    if (ctx->c->nodes > 1)
        return pr_err_set(err, NULL, 0, 0, NULL,
                          "the case needs %d nodes; the local launcher runs one node "
                          "(select the case out with --only, or use a multi-node launcher)",
                          ctx->c->nodes);
    snprintf(v->master_addr, sizeof v->master_addr, "127.0.0.1");
    snprintf(v->master_port, sizeof v->master_port, "%d", ctx->master_port);
    snprintf(v->node_rank, sizeof v->node_rank, "0");
    snprintf(v->world_size, sizeof v->world_size, "%d", ctx->c->gpus);
    snprintf(v->local_rank, sizeof v->local_rank, "0");
    v->hostfile[0] = '\0';
    return 0;
}

/* The command itself, inside the suite's container when it names one
 * (docker or apptainer: the local launcher is one process on one node). */
static int local_wrap(const pr_launch_ctx *ctx, const pr_task *task, pr_launch_plan *p, pr_err *err)
{
    char **v = NULL, **names = NULL;
    size_t n = 0, nn = 0;
    int rc = -1;
    memset(p, 0, sizeof *p);
    if (ctx->le && ctx->le->container != PR_CT_NONE) {
        for (char *const *e = task->env; e && *e; e++)
            launch_strv_push(&names, &nn, pr_xstrndup(*e, strcspn(*e, "=")));
        pr_container_spec cs = {ctx->le->container, ctx->le->image,  ctx->workdir,
                                ctx->out_dir,       ctx->le->mounts, names};
        if (container_words(&cs, &v, &n, err) < 0)
            goto out;
    }
    for (size_t i = 0; i < task->argc; i++)
        launch_strv_push(&v, &n, pr_xstrdup(task->argv[i]));
    p->argv = v;
    v = NULL;
    p->ntasks = 1;
    rc = 0;
out:
    pr_fileio_strv_free(v);
    pr_fileio_strv_free(names);
    return rc;
}

const pr_launcher pr_launcher_local = {"local", local_vars, local_wrap};

/* To add a launcher: write its vars and wrap functions (launch.h) and add
 * it here; the suite's "launcher" and --launcher pick it by name. */
static const pr_launcher *const launchers[] = {&pr_launcher_local, &pr_launcher_mpirun,
                                               &pr_launcher_slurm};

const pr_launcher *launch_find(const char *name)
{
    for (size_t i = 0; i < sizeof launchers / sizeof *launchers; i++)
        if (strcmp(launchers[i]->name, name) == 0)
            return launchers[i];
    return NULL;
}

const char *launch_launcher_names(void)
{
    return "local, mpirun, slurm";
}
