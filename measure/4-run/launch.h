/* launch: how a case's command reaches the processes that run it.
 *
 * A launcher provides the runner variables a command template may use
 * ({master_addr}, {node_rank}, ...) and turns the case's expanded command
 * into what is exec'd:
 *
 *   local   the command itself, on this machine (one node only);
 *   mpirun  OpenMPI: mpirun -np N --map-by ppr:M:node ... TASK;
 *   slurm   inside an allocation (SLURM_JOB_ID set): srun ... TASK;
 *           outside one: sbatch --parsable --wait SCRIPT, the script
 *           (kept beside the logs) running srun ... TASK.
 *
 * Under mpirun and slurm every task is the command run through a small
 * /bin/sh wrapper that exports RANK, LOCAL_RANK and NODE_RANK from the
 * engine's own variables (OMPI_COMM_WORLD_*, SLURM_PROCID/LOCALID/NODEID):
 * the command template is expanded once, before launch, so values that
 * differ between tasks can only come from each task's environment.
 * MASTER_ADDR, MASTER_PORT, WORLD_SIZE (and torchrun's PET_* variables
 * with one task per node) are set for every task.  A container (docker,
 * apptainer, pyxis: container.h) wraps the task for the engine in use.
 *
 * docs/multi-node.md is the user's reference.
 */
#ifndef PR_LAUNCH_H
#define PR_LAUNCH_H

#include <jansson.h>
#include <stddef.h>

#include "buf.h"
#include "err.h"
#include "suite.h"

typedef enum { PR_RANKS_PER_GPU, PR_RANKS_PER_NODE } pr_ranks_mode;
typedef enum { PR_CT_NONE, PR_CT_DOCKER, PR_CT_APPTAINER, PR_CT_PYXIS } pr_container_kind;

typedef struct pr_host {
    char *name;
    int slots; /* 0: not given */
} pr_host;

/* The command line's launch options (NULL / 0: not given). */
typedef struct pr_launch_opts {
    const char *hosts;     /* --hosts h1:8,h2:8 */
    const char *hostfile;  /* --hostfile FILE (OpenMPI format) */
    const char *ranks;     /* --ranks per_gpu|per_node: over the suite's */
    const char *container; /* --container KIND: over the suite's */
    char *const *mounts;   /* --mount SRC[:DST], for containers */
    size_t nmounts;
    char *const *sbatch_opts; /* --sbatch-opt OPT: #SBATCH lines */
    size_t nsbatch;
    char *const *srun_opts; /* --srun-opt OPT: srun options */
    size_t nsrun;
    int no_gpu_request; /* --no-gpu-request: sbatch asks for no GPUs */
} pr_launch_opts;

/* What one run knows about where its cases go: the options, resolved, and
 * what was found on this machine.  launch_env_init fills it once per
 * run; unit tests fill it by hand (zeroed: defaults, not root, no Slurm). */
typedef struct pr_launch_env {
    pr_ranks_mode ranks;
    pr_container_kind container;
    const char *image; /* the suite's image (borrowed) */
    pr_host *hosts;    /* --hosts or --hostfile, in order */
    size_t nhosts;
    char *hostfile; /* --hostfile, absolute, or NULL */
    char **mounts;  /* NULL-terminated or NULL */
    char **sbatch_opts;
    char **srun_opts;
    int gpu_request;    /* sbatch: --gpus-per-node (default on) */
    int as_root;        /* mpirun needs --allow-run-as-root */
    char *job_id;       /* SLURM_JOB_ID: measure runs inside an allocation */
    char **alloc_hosts; /* that allocation's nodes, in Slurm's order */
    size_t nalloc;
    char *srun_mpi;  /* "pmix" when `srun --mpi=list` has it, else NULL */
    char **pass_env; /* measure's own variables mpirun passes on (-x) */
} pr_launch_env;

/* Resolves the options for the suite and launcher and looks at this machine
 * (SLURM_JOB_ID; `scontrol show hostnames`, `srun --mpi=list` for slurm).
 * -1 + err on an option that cannot work (unreadable hostfile, a container
 * the launcher cannot use, ...): the run stops before anything starts. */
int launch_env_init(pr_launch_env *le, const pr_suite *s, const char *launcher,
                    const pr_launch_opts *o, pr_err *err);
void launch_env_free(pr_launch_env *le);

/* Parses "h1:8,h2,h3:4" (slots optional) into *hosts. */
int launch_hosts_parse(const char *list, pr_host **hosts, size_t *n, pr_err *err);
/* Parses an OpenMPI hostfile ("name [slots=N] ...", '#' comments). */
int launch_hostfile_parse(const char *path, pr_host **hosts, size_t *n, pr_err *err);
void launch_hosts_free(pr_host *hosts, size_t n);

/* What a launcher sees of one case. */
typedef struct pr_launch_ctx {
    const pr_suite *suite;
    const pr_suite_case *c;
    int master_port;
    const pr_launch_env *le; /* NULL: a zeroed one */
    const char *out_dir;     /* absolute output directory */
    const char *workdir;     /* absolute; jobs run there */
    const char *log_path;    /* absolute DIR/logs/train_log/<case> */
    double timeout_s;        /* the case's timeout (sbatch --time) */
} pr_launch_ctx;

/* Which runner variables are references to a variable every task's wrapper
 * sets ("${NODE_RANK}"), not text known before launch. */
enum { PR_REF_MASTER_ADDR = 1, PR_REF_NODE_RANK = 2, PR_REF_LOCAL_RANK = 4 };

/* The runner variables a launcher provides (templates use them). */
typedef struct pr_launch_vars {
    char master_addr[256];
    char master_port[16];
    char node_rank[16];
    char world_size[16];
    char local_rank[16];
    char hostfile[4096];
    unsigned refs; /* PR_REF_* */
    char **env;    /* NAME=value the launcher adds to the job's environment
                     * (NULL-terminated, malloc'd; the caller frees it) */
} pr_launch_vars;

/* The expanded command of a case, as the launcher gets it. */
typedef struct pr_task {
    char *const *argv; /* NULL-terminated */
    size_t argc;
    const char *sh;   /* the command as shell text, set when it uses a
                         * per-task reference: each task runs it with sh -c */
    char *const *env; /* the job's NAME=value list (suite env, perfrepro's, the launcher's) */
} pr_task;

/* What a launcher makes of a case: the argv exec'd, and what the runner
 * does around it.  Everything is malloc'd (launch_plan_free). */
typedef struct pr_launch_plan {
    char **argv;       /* NULL-terminated */
    char *script;      /* sbatch: the batch script, written before the job starts */
    char *script_path; /* absolute: DIR/logs/train_log/<case>.sbatch */
    char *rank_dir;    /* mpirun: --output-filename DIR (absolute), emptied first */
    char *rank_prefix; /* slurm: task N writes rank_prefix + N (absolute) */
    int ntasks;
    int batch;      /* sbatch: job id from the log's first line; scancel if stopped */
    json_t *launch; /* the record's "launch" so far, or NULL (local) */
} pr_launch_plan;

void launch_plan_free(pr_launch_plan *p);

typedef struct pr_launcher {
    const char *name;
    /* Fills the launcher's variables for the case.  -1 + err when the
     * launcher cannot run this case (e.g. local with nodes > 1, too few
     * hosts): the case is then recorded as launch_error. */
    int (*vars)(const pr_launch_ctx *ctx, pr_launch_vars *out, pr_err *err);
    /* Makes the plan for the task; -1 + err as for vars. */
    int (*wrap)(const pr_launch_ctx *ctx, const pr_task *task, pr_launch_plan *out, pr_err *err);
} pr_launcher;

/* The launcher called name, or NULL when perfrepro has none by that name. */
const pr_launcher *launch_find(const char *name);
/* The names, comma-separated, for messages. */
const char *launch_launcher_names(void);

extern const pr_launcher pr_launcher_local, pr_launcher_mpirun, pr_launcher_slurm;

/* ---- Helpers the launchers share ----------------------------------------- */

/* The task argv: the wrapper `/bin/sh -c 'PROLOGUE; exec "$@"' perfrepro-task
 * ARGV...`, or with task->sh `/bin/sh -c 'PROLOGUE; SH'`, appended to *v. */
void launch_task_argv(const char *prologue, const pr_task *task, char ***v, size_t *n);
/* Appends s (owned by *v from then on) to the NULL-terminated *v of *n. */
void launch_strv_push(char ***v, size_t *n, char *s);
/* A NULL-terminated copy. */
char **launch_strv_dup(char *const *v);
/* The environment assignments every multi-node task gets: MASTER_ADDR (when
 * known), MASTER_PORT, WORLD_SIZE and, one task per node, torchrun's
 * PET_NNODES, PET_NPROC_PER_NODE, PET_MASTER_ADDR, PET_MASTER_PORT. */
void launch_common_env(const pr_launch_ctx *ctx, const char *master_addr, char ***env);
/* The ranks mode and tasks of a case: tasks per node and in all. */
int launch_tasks_per_node(const pr_launch_ctx *ctx);

/* Runs argv (no shell, stdin /dev/null) for at most timeout_s seconds and
 * appends its standard output to out (when out is not NULL); stderr goes
 * to err_fd (-1: /dev/null).  Returns the exit status, or -1 when it could
 * not run, was killed or timed out. */
int launch_capture(char *const *argv, double timeout_s, pr_buf *out, int err_fd);

/* After the job: what the record says about its logs and launch. */
typedef struct pr_launch_result {
    char *log_file;     /* relative: the log the rule reads first (record log_file) */
    char **logs;        /* relative: every log of the case (NULL when only log_file) */
    char **parse;       /* absolute: the logs the rule reads, in order */
    int parts;          /* read them as one log (several ranks' logs) */
    int engine_timeout; /* Slurm ended the job at its time limit */
    json_t *launch;     /* the record's "launch" (new reference) or NULL */
    char *job_id;       /* sbatch: the job's id, or NULL */
} pr_launch_result;

/* What an earlier run of the case left that this plan's job writes again and
 * that exists now: the rank directory, each rank's log, the batch script
 * (absolute paths; a NULL-terminated malloc'd list or NULL, pr_fileio_strv_free).
 * The runner moves them aside while the case runs. */
char **launch_outputs(const pr_launch_plan *p);
/* Removes the per-rank logs and the rank directory of launch_outputs. */
void launch_clean(const pr_launch_plan *p, const char *log_path);
/* Looks at what the job left: per-rank logs, the job id (the first line
 * sbatch printed into the log), the nodes (the batch script's
 * "PERFREPRO_NODES:" line), Slurm's time-limit message.  rule_rank: the
 * parse rule's rank (-1: all).  out_dir and log_rel as in the job. */
void launch_collect(const pr_launch_plan *p, const char *out_dir, const char *log_path,
                    const char *log_rel, int rule_rank, pr_launch_result *out);
void launch_result_free(pr_launch_result *r);
/* The job id sbatch printed on the first line of the log (--parsable:
 * "123" or "123;cluster"), malloc'd, or NULL. */
char *launch_batch_job_id(const char *log_path);
/* Cancels an sbatch job that measure stopped (timeout, interruption):
 * scancel JOB_ID, its output appended to log_fd. */
void launch_stop(const char *job_id, int log_fd);

#endif
