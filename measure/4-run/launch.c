/* launch: the parts the launchers share (see launch.h): resolving the run's
 * options, probing Slurm, the task wrapper, and what a job leaves behind. */
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "1-facts/logscan.h"
#include "container.h"
#include "fileio.h"
#include "record.h"

extern char **environ;

void launch_strv_push(char ***v, size_t *n, char *s)
{
    *v = pr_xrealloc(*v, (*n + 2) * sizeof **v);
    (*v)[(*n)++] = s;
    (*v)[*n] = NULL;
}

char **launch_strv_dup(char *const *v)
{
    char **out = NULL;
    size_t n = 0;
    for (; v && *v; v++)
        launch_strv_push(&out, &n, pr_xstrdup(*v));
    return out;
}

void launch_hosts_free(pr_host *hosts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(hosts[i].name);
    free(hosts);
}

/* A host name as mpirun and Slurm take it: no blanks, commas, colons or
 * shell-special characters (it also goes into a generated script). */
static int host_name_ok(const char *s, size_t n)
{
    static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
    if (n == 0 || n > 255 || s[0] == '-')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr(ok, s[i]) || s[i] == '\0')
            return 0;
    return 1;
}

static int parse_slots(const char *s, size_t n, int *out)
{
    char buf[16];
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (errno || end == buf || *end || v < 1 || v > 1 << 20)
        return -1;
    *out = (int)v;
    return 0;
}

static void add_host(pr_host **hosts, size_t *n, const char *name, size_t len, int slots)
{
    *hosts = pr_xrealloc(*hosts, (*n + 1) * sizeof **hosts);
    (*hosts)[*n].name = pr_xstrndup(name, len);
    (*hosts)[*n].slots = slots;
    (*n)++;
}

int launch_hosts_parse(const char *list, pr_host **hosts, size_t *n, pr_err *err)
{
    *hosts = NULL;
    *n = 0;
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        const char *colon = memchr(p, ':', len);
        size_t nl = colon ? (size_t)(colon - p) : len;
        int slots = 0;
        if (!host_name_ok(p, nl) || (colon && parse_slots(colon + 1, len - nl - 1, &slots) < 0)) {
            pr_err_set(err, NULL, 0, 0, "--hosts", "\"%.*s\" is not HOST or HOST:SLOTS (in \"%s\")",
                       (int)len, p, list);
            launch_hosts_free(*hosts, *n);
            *hosts = NULL;
            *n = 0;
            return -1;
        }
        add_host(hosts, n, p, nl, slots);
        p += len;
        if (*p != ',')
            break;
        p++;
    }
    return 0;
}

int launch_hostfile_parse(const char *path, pr_host **hosts, size_t *n, pr_err *err)
{
    int rc = -1;
    pr_buf text = PR_BUF_INIT;
    *hosts = NULL;
    *n = 0;
    if (pr_fileio_read_file(path, &text, err) < 0)
        goto out;
    const char *p = pr_buf_cstr(&text);
    for (int lineno = 1; *p; lineno++) {
        size_t len = strcspn(p, "\n");
        const char *hash = memchr(p, '#', len);
        size_t use = hash ? (size_t)(hash - p) : len;
        /* "name [slots=N] [max_slots=N]" */
        const char *q = p, *end = p + use;
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        if (q < end) {
            size_t nl = strcspn(q, " \t\r\n#");
            if (q + nl > end)
                nl = (size_t)(end - q);
            if (!host_name_ok(q, nl)) {
                pr_err_set(err, path, lineno, 0, NULL, "\"%.*s\" is not a host name", (int)nl, q);
                goto out;
            }
            int slots = 0;
            const char *s = q + nl;
            while (s < end) {
                while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
                    s++;
                size_t wl = strcspn(s, " \t\r\n#");
                if (s + wl > end)
                    wl = (size_t)(end - s);
                if (wl > 6 && memcmp(s, "slots=", 6) == 0 &&
                    parse_slots(s + 6, wl - 6, &slots) < 0) {
                    pr_err_set(err, path, lineno, 0, NULL, "bad slots in \"%.*s\"", (int)wl, s);
                    goto out;
                }
                s += wl;
            }
            add_host(hosts, n, q, nl, slots);
        }
        p += len;
        if (*p == '\n')
            p++;
    }
    if (*n == 0) {
        pr_err_set(err, path, 0, 0, NULL, "the hostfile lists no host");
        goto out;
    }
    rc = 0;
out:
    if (rc < 0) {
        launch_hosts_free(*hosts, *n);
        *hosts = NULL;
        *n = 0;
    }
    pr_buf_free(&text);
    return rc;
}

/* ---- Running a helper command ------------------------------------------ */

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int launch_capture(char *const *argv, double timeout_s, pr_buf *out, int err_fd)
{
    int rc = -1, p[2] = {-1, -1}, devnull = -1, status = 0;
    pid_t pid = -1;
    devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull < 0 || pipe2(p, O_CLOEXEC) < 0)
        goto out;
    int efd = err_fd == -1 ? devnull : err_fd == -2 ? p[1] : err_fd;
    int ofd = out ? p[1] : efd;
    pid = fork();
    if (pid < 0)
        goto out;
    if (pid == 0) {
        /* Only async-signal-safe calls until exec. */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (dup2(devnull, 0) < 0 || dup2(ofd, 1) < 0 || dup2(efd, 2) < 0)
            _exit(127);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    p[1] = -1;
    double deadline = mono() + timeout_s;
    int timed_out = 0;
    for (;;) {
        double left = deadline - mono();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd pf = {p[0], POLLIN, 0};
        int r = poll(&pf, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        char buf[4096];
        ssize_t got = read(p[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        /* Helpers answer in a few lines; more is not what we asked for. */
        if (out && out->len < (1u << 20))
            pr_buf_put(out, buf, (size_t)got);
    }
    if (timed_out)
        kill(pid, SIGKILL);
    /* The pipe closed (or we gave up): wait for the exit, a bounded time. */
    for (;;) {
        pid_t w = waitpid(pid, &status, timed_out ? 0 : WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            goto out;
        if (w == 0) {
            if (mono() > deadline) {
                kill(pid, SIGKILL);
                timed_out = 1;
                continue;
            }
            poll(NULL, 0, 10);
        }
    }
    pid = -1;
    if (!timed_out && WIFEXITED(status))
        rc = WEXITSTATUS(status);
out:
    if (p[0] >= 0)
        close(p[0]);
    if (p[1] >= 0)
        close(p[1]);
    if (devnull >= 0)
        close(devnull);
    return rc;
}

/* ---- The run's launch environment --------------------------------------- */

static char **copy_list(char *const *v, size_t n)
{
    char **out = NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        launch_strv_push(&out, &k, pr_xstrdup(v[i]));
    return out;
}

/* The allocation's nodes: `scontrol show hostnames NODELIST`, one a line. */
static int alloc_hosts(pr_launch_env *le, const char *nodelist, pr_err *err)
{
    pr_buf out = PR_BUF_INIT;
    char *argv[] = {"scontrol", "show", "hostnames", (char *)nodelist, NULL};
    int st = launch_capture(argv, 30, &out, -1);
    int rc = -1;
    if (st != 0) {
        pr_err_set(err, NULL, 0, 0, NULL,
                   "inside Slurm job %s, `scontrol show hostnames %s` %s: cannot tell which "
                   "nodes the allocation has",
                   le->job_id, nodelist, st < 0 ? "did not run" : "failed");
        goto out;
    }
    size_t n = 0;
    const char *p = pr_buf_cstr(&out);
    while (*p) {
        size_t len = strcspn(p, "\n");
        while (len && (p[len - 1] == '\r' || p[len - 1] == ' '))
            len--;
        if (len) {
            if (!host_name_ok(p, len)) {
                pr_err_set(err, NULL, 0, 0, NULL, "scontrol gave \"%.*s\" as a node name", (int)len,
                           p);
                goto out;
            }
            launch_strv_push(&le->alloc_hosts, &n, pr_xstrndup(p, len));
        }
        p += strcspn(p, "\n");
        if (*p)
            p++;
    }
    le->nalloc = n;
    if (n == 0) {
        pr_err_set(err, NULL, 0, 0, NULL, "Slurm job %s: scontrol lists no node in \"%s\"",
                   le->job_id, nodelist);
        goto out;
    }
    rc = 0;
out:
    pr_buf_free(&out);
    return rc;
}

/* "pmix" when this Slurm's srun has the PMIx plugin (the NCCL workloads and
 * OpenMPI programs bootstrap through it), else NULL. */
static char *srun_mpi_probe(void)
{
    pr_buf out = PR_BUF_INIT;
    char *argv[] = {"srun", "--mpi=list", NULL};
    char *r = NULL;
    /* Older srun print the list on stderr. */
    if (launch_capture(argv, 30, &out, -2) == 0) {
        const char *p = pr_buf_cstr(&out);
        while ((p = strstr(p, "pmix")) != NULL) {
            if ((p == out.data || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n' || p[-1] == '/') &&
                (p[4] == '\n' || p[4] == '\0' || p[4] == ' ' || p[4] == '\r')) {
                r = pr_xstrdup("pmix");
                break;
            }
            p += 4;
        }
    }
    pr_buf_free(&out);
    return r;
}

/* Variables of measure's environment that remote ranks need the same:
 * where programs and libraries are, and NCCL's and UCX's settings. */
static char **pass_env_names(void)
{
    static const char *const exact[] = {"PATH",        "LD_LIBRARY_PATH", "PYTHONPATH",
                                        "VIRTUAL_ENV", "CONDA_PREFIX",    NULL};
    char **out = NULL;
    size_t n = 0;
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq)
            continue;
        char *name = pr_xstrndup(*e, (size_t)(eq - *e));
        if (pr_record_str_in(name, exact) || strncmp(name, "NCCL_", 5) == 0 ||
            strncmp(name, "UCX_", 4) == 0)
            launch_strv_push(&out, &n, name);
        else
            free(name);
    }
    return out;
}

/* The options that cannot work, whatever the machine: which ranks mode
 * and container, and whether they suit the launcher. */
static int check_options(const pr_suite *s, const char *launcher, const pr_launch_opts *o,
                         pr_ranks_mode *ranks_out, pr_container_kind *kind_out, pr_err *err)
{
    const char *ranks = o->ranks ? o->ranks : s->ranks ? s->ranks : "per_gpu";
    if (strcmp(ranks, "per_gpu") == 0)
        *ranks_out = PR_RANKS_PER_GPU;
    else if (strcmp(ranks, "per_node") == 0)
        *ranks_out = PR_RANKS_PER_NODE;
    else
        return pr_err_set(err, NULL, 0, 0, "--ranks",
                          "\"%s\": expected per_gpu (a process per GPU) or per_node (one "
                          "per node, e.g. torchrun)",
                          ranks);
    const char *ct = o->container ? o->container : s->container ? s->container : "none";
    int kind = container_kind_of(ct);
    if (kind < 0)
        return pr_err_set(err, NULL, 0, 0, "--container",
                          "\"%s\": expected none, docker, apptainer or pyxis", ct);
    *kind_out = (pr_container_kind)kind;
    if (kind != PR_CT_NONE && !s->image)
        return pr_err_set(err, s->path, 0, 0, NULL, "the %s container needs the suite's \"image\"",
                          ct);
    /* Each engine has its way with containers: docker starts one container
     * per command (one node), pyxis is srun's. */
    if (kind == PR_CT_DOCKER && strcmp(launcher, "local") != 0)
        return pr_err_set(err, NULL, 0, 0, NULL,
                          "the docker container runs with the local launcher only; with %s "
                          "use apptainer%s",
                          launcher, strcmp(launcher, "slurm") == 0 ? " or pyxis" : "");
    if (kind == PR_CT_PYXIS && strcmp(launcher, "slurm") != 0)
        return pr_err_set(err, NULL, 0, 0, NULL,
                          "the pyxis container is srun's (launcher slurm), not %s's", launcher);
    if (o->nmounts && kind == PR_CT_NONE)
        return pr_err_set(err, NULL, 0, 0, "--mount", "mounts need a container (--container)");
    if (o->hosts && o->hostfile)
        return pr_err_set(err, NULL, 0, 0, NULL, "give --hosts or --hostfile, not both");
    if ((o->hosts || o->hostfile) && strcmp(launcher, "mpirun") != 0)
        return pr_err_set(
            err, NULL, 0, 0, NULL, "--hosts and --hostfile are for the mpirun launcher%s",
            strcmp(launcher, "slurm") == 0 ? " (Slurm chooses the nodes: use "
                                             "--sbatch-opt=--nodelist=... to name them)"
                                           : "");
    if ((o->nsbatch || o->nsrun || o->no_gpu_request) && strcmp(launcher, "slurm") != 0)
        return pr_err_set(err, NULL, 0, 0, NULL,
                          "--sbatch-opt, --srun-opt and --no-gpu-request are for the slurm "
                          "launcher");
    return 0;
}

/* 1 when `mpirun --version` runs and is not OpenMPI's (message in err). */
static int other_mpirun(pr_err *err)
{
    pr_buf ver = PR_BUF_INIT;
    char *argv[] = {"mpirun", "--version", NULL};
    int vrc = launch_capture(argv, 30, &ver, -2);
    /* Not installed (127): the case will say so when it cannot start. */
    int other = vrc >= 0 && vrc != 127 && !strstr(pr_buf_cstr(&ver), "Open MPI");
    if (other) {
        const char *v = pr_buf_cstr(&ver);
        pr_err_set(err, NULL, 0, 0, NULL,
                   "the mpirun launcher speaks OpenMPI's options, and this mpirun is another "
                   "(\"%.*s\")",
                   (int)strcspn(v, "\n"), v);
    }
    pr_buf_free(&ver);
    return other;
}

int launch_env_init(pr_launch_env *le, const pr_suite *s, const char *launcher,
                    const pr_launch_opts *o, pr_err *err)
{
    static const pr_launch_opts none;
    int rc = -1;
    memset(le, 0, sizeof *le);
    if (!o)
        o = &none;
    if (check_options(s, launcher, o, &le->ranks, &le->container, err) < 0)
        goto out;
    le->image = s->image;
    le->mounts = copy_list(o->mounts, o->nmounts);
    le->sbatch_opts = copy_list(o->sbatch_opts, o->nsbatch);
    le->srun_opts = copy_list(o->srun_opts, o->nsrun);
    le->gpu_request = !o->no_gpu_request;
    le->as_root = geteuid() == 0;
    if (o->hosts && launch_hosts_parse(o->hosts, &le->hosts, &le->nhosts, err) < 0)
        goto out;
    if (o->hostfile) {
        if (launch_hostfile_parse(o->hostfile, &le->hosts, &le->nhosts, err) < 0)
            goto out;
        char *abs = realpath(o->hostfile, NULL);
        le->hostfile = pr_xstrdup(abs ? abs : o->hostfile);
        free(abs);
    }
    const char *job = getenv("SLURM_JOB_ID");
    int slurm = strcmp(launcher, "slurm") == 0, mpi = strcmp(launcher, "mpirun") == 0;
    if (job && *job && (slurm || (mpi && !le->nhosts))) {
        le->job_id = pr_xstrdup(job);
        const char *nl = getenv("SLURM_JOB_NODELIST");
        if (!nl || !*nl)
            nl = getenv("SLURM_NODELIST");
        if (!nl || !*nl) {
            pr_err_set(err, NULL, 0, 0, NULL,
                       "SLURM_JOB_ID is %s but SLURM_JOB_NODELIST is not set", job);
            goto out;
        }
        if (alloc_hosts(le, nl, err) < 0)
            goto out;
    }
    if (slurm)
        le->srun_mpi = srun_mpi_probe();
    /* The options perfrepro gives mpirun are OpenMPI's (MPICH's and Intel
     * MPI's differ): another mpirun would misread them. */
    if (mpi && other_mpirun(err))
        goto out;
    if (mpi)
        le->pass_env = pass_env_names();
    rc = 0;
out:
    if (rc < 0)
        launch_env_free(le);
    return rc;
}

void launch_env_free(pr_launch_env *le)
{
    launch_hosts_free(le->hosts, le->nhosts);
    free(le->hostfile);
    pr_fileio_strv_free(le->mounts);
    pr_fileio_strv_free(le->sbatch_opts);
    pr_fileio_strv_free(le->srun_opts);
    free(le->job_id);
    pr_fileio_strv_free(le->alloc_hosts);
    free(le->srun_mpi);
    pr_fileio_strv_free(le->pass_env);
    memset(le, 0, sizeof *le);
}

/* ---- Shared pieces of the multi-node launchers ---------------------------- */

int launch_tasks_per_node(const pr_launch_ctx *ctx)
{
    return ctx->le && ctx->le->ranks == PR_RANKS_PER_NODE ? 1 : ctx->c->gpus_per_node;
}

void launch_common_env(const pr_launch_ctx *ctx, const char *master_addr, char ***env)
{
    size_t n = 0;
    while (*env && (*env)[n])
        n++;
    const pr_suite_case *c = ctx->c;
    if (master_addr)
        launch_strv_push(env, &n, pr_xasprintf("MASTER_ADDR=%s", master_addr));
    launch_strv_push(env, &n, pr_xasprintf("MASTER_PORT=%d", ctx->master_port));
    launch_strv_push(env, &n, pr_xasprintf("WORLD_SIZE=%d", c->gpus));
    if (ctx->le && ctx->le->ranks == PR_RANKS_PER_NODE) {
        /* torchrun reads its options from PET_<OPTION> when they are not
         * on its command line: a bare `torchrun train.py` then finds the
         * node count, GPUs per node and rendezvous of the case. */
        launch_strv_push(env, &n, pr_xasprintf("PET_NNODES=%d", c->nodes));
        launch_strv_push(env, &n, pr_xasprintf("PET_NPROC_PER_NODE=%d", c->gpus_per_node));
        if (master_addr)
            launch_strv_push(env, &n, pr_xasprintf("PET_MASTER_ADDR=%s", master_addr));
        launch_strv_push(env, &n, pr_xasprintf("PET_MASTER_PORT=%d", ctx->master_port));
    }
}

void launch_task_argv(const char *prologue, const pr_task *task, char ***v, size_t *n)
{
    launch_strv_push(v, n, pr_xstrdup("/bin/sh"));
    launch_strv_push(v, n, pr_xstrdup("-c"));
    if (task->sh) {
        launch_strv_push(v, n, pr_xasprintf("%s; %s", prologue, task->sh));
        return;
    }
    /* The argv is passed as the wrapper's own arguments: no word of it is
     * ever read by the shell. */
    launch_strv_push(v, n, pr_xasprintf("%s; exec \"$@\"", prologue));
    launch_strv_push(v, n, pr_xstrdup("perfrepro-task"));
    for (size_t i = 0; i < task->argc; i++)
        launch_strv_push(v, n, pr_xstrdup(task->argv[i]));
}

void launch_plan_free(pr_launch_plan *p)
{
    if (!p)
        return;
    pr_fileio_strv_free(p->argv);
    free(p->script);
    free(p->script_path);
    free(p->rank_dir);
    free(p->rank_prefix);
    json_decref(p->launch);
    memset(p, 0, sizeof *p);
}

/* ---- After the job ------------------------------------------------------------ */

/* 1 when name is base followed by one or more digits. */
static int is_rank_name(const char *name, const char *base)
{
    size_t bl = strlen(base);
    return strncmp(name, base, bl) == 0 && name[bl] &&
           strspn(name + bl, "0123456789") == strlen(name + bl);
}

char **launch_outputs(const pr_launch_plan *p)
{
    char **v = NULL;
    size_t n = 0;
    struct stat st;
    if (!p)
        return NULL;
    /* lstat: a link planted there is listed (to be moved), never followed. */
    if (p->rank_dir && lstat(p->rank_dir, &st) == 0)
        launch_strv_push(&v, &n, pr_xstrdup(p->rank_dir));
    if (p->rank_prefix) {
        char *dir = pr_fileio_path_dirname(p->rank_prefix);
        const char *base = strrchr(p->rank_prefix, '/');
        base = base ? base + 1 : p->rank_prefix;
        char **names = NULL;
        pr_err ignored;
        if (pr_fileio_list_dir(dir, &names, NULL, &ignored) == 0) {
            for (char **e = names; *e; e++)
                if (is_rank_name(*e, base))
                    launch_strv_push(&v, &n, pr_fileio_path_join(dir, *e));
            pr_fileio_strv_free(names);
        }
        free(dir);
    }
    if (p->script_path && lstat(p->script_path, &st) == 0)
        launch_strv_push(&v, &n, pr_xstrdup(p->script_path));
    return v;
}

void launch_clean(const pr_launch_plan *p, const char *log_path)
{
    (void)log_path;
    char **outs = launch_outputs(p);
    /* Logs of an earlier run of the case must not pass for this run's (the
     * batch script is written again anyway). */
    for (char **o = outs; o && *o; o++) {
        if (!p->script_path || strcmp(*o, p->script_path) != 0)
            (void)pr_fileio_remove_tree(*o);
    }
    pr_fileio_strv_free(outs);
}

/* Collects the regular files under dir, sorted (pr_fileio_list_dir sorts). */
static void list_files(const char *dir, int depth, char ***v, size_t *n)
{
    char **names = NULL;
    size_t k = 0;
    pr_err ignored;
    if (depth > 4 || pr_fileio_list_dir(dir, &names, &k, &ignored) < 0)
        return;
    for (size_t i = 0; i < k; i++) {
        char *path = pr_fileio_path_join(dir, names[i]);
        if (pr_fileio_is_dir(path)) {
            list_files(path, depth + 1, v, n);
            free(path);
        } else if (pr_fileio_is_file(path)) {
            launch_strv_push(v, n, path);
        } else {
            free(path);
        }
    }
    pr_fileio_strv_free(names);
}

char *launch_batch_job_id(const char *log_path)
{
    char buf[256];
    pr_err ignored;
    int fd = pr_fileio_open_regular(log_path, &ignored);
    if (fd < 0)
        return NULL;
    ssize_t got = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (got <= 0)
        return NULL;
    buf[got] = '\0';
    /* sbatch --parsable: "JOBID" or "JOBID;CLUSTER" on its first line. */
    size_t n = strspn(buf, "0123456789");
    if (n == 0 || (buf[n] != '\n' && buf[n] != ';' && buf[n] != '\r'))
        return NULL;
    return pr_xstrndup(buf, n);
}

typedef struct scan_ctx {
    json_t *hosts;
    int time_limit;
} scan_ctx;

static int scan_line(const pr_logline *l, void *ud, pr_err *err)
{
    (void)err;
    scan_ctx *sc = ud;
    static const char mark[] = "PERFREPRO_NODES:";
    if (strncmp(l->text, mark, sizeof mark - 1) == 0) {
        json_decref(sc->hosts);
        sc->hosts = json_array();
        const char *p = l->text + sizeof mark - 1;
        for (;;) {
            p += strspn(p, " \t");
            size_t len = strcspn(p, " \t");
            if (!len)
                break;
            char *h = pr_xstrndup(p, len);
            json_array_append_new(sc->hosts,
                                  json_string(pr_record_is_ip_address(h) ? "(address)" : h));
            free(h);
            p += len;
        }
    }
    /* slurmstepd: "*** JOB 12 ON node1 CANCELLED AT ... DUE TO TIME LIMIT ***" */
    if (strstr(l->text, "DUE TO TIME LIMIT"))
        sc->time_limit = 1;
    return 0;
}

void launch_collect(const pr_launch_plan *p, const char *out_dir, const char *log_path,
                    const char *log_rel, int rule_rank, pr_launch_result *out)
{
    char **files = NULL;
    size_t nf = 0, nl = 0, np = 0;
    memset(out, 0, sizeof *out);
    out->log_file = pr_xstrdup(log_rel);
    if (!p || !p->launch) {
        launch_strv_push(&out->parse, &np, pr_xstrdup(log_path));
        return;
    }
    out->launch = json_deep_copy(p->launch);
    if (p->rank_dir)
        list_files(p->rank_dir, 0, &files, &nf);
    for (int t = 0; p->rank_prefix && t < p->ntasks; t++) {
        char *f = pr_xasprintf("%s%d", p->rank_prefix, t);
        if (pr_fileio_is_file(f))
            launch_strv_push(&files, &nf, f);
        else
            free(f);
    }
    size_t ol = strlen(out_dir);
    launch_strv_push(&out->logs, &nl, pr_xstrdup(log_rel));
    for (size_t i = 0; i < nf; i++)
        if (strncmp(files[i], out_dir, ol) == 0 && files[i][ol] == '/')
            launch_strv_push(&out->logs, &nl, pr_xstrdup(files[i] + ol + 1));
    if (p->rank_prefix && nf) {
        /* Slurm: each task's output is a file of its own; the rule's rank
         * picks the one read ("all": every one, as one log). */
        if (rule_rank < 0) {
            for (size_t i = 0; i < nf; i++)
                launch_strv_push(&out->parse, &np, pr_xstrdup(files[i]));
            out->parts = nf > 1;
        } else {
            char *f = pr_xasprintf("%s%d", p->rank_prefix, rule_rank);
            if (pr_fileio_is_file(f))
                launch_strv_push(&out->parse, &np, f);
            else
                free(f);
        }
    }
    if (np) {
        free(out->log_file);
        out->log_file = pr_xstrdup(out->parse[0] + ol + 1);
    } else {
        launch_strv_push(&out->parse, &np, pr_xstrdup(log_path));
    }
    if (p->batch) {
        out->job_id = launch_batch_job_id(log_path);
        if (out->job_id)
            json_object_set_new(out->launch, "job_id", json_string(out->job_id));
        scan_ctx sc = {NULL, 0};
        pr_logscan_stats st;
        pr_err ignored;
        memset(&st, 0, sizeof st);
        logscan_path(log_path, scan_line, &sc, &st, &ignored);
        if (sc.hosts && json_array_size(sc.hosts))
            json_object_set(out->launch, "hosts", sc.hosts);
        json_decref(sc.hosts);
        out->engine_timeout = sc.time_limit;
    }
    pr_fileio_strv_free(files);
}

void launch_result_free(pr_launch_result *r)
{
    free(r->log_file);
    pr_fileio_strv_free(r->logs);
    pr_fileio_strv_free(r->parse);
    json_decref(r->launch);
    free(r->job_id);
    memset(r, 0, sizeof *r);
}

void launch_stop(const char *job_id, int log_fd)
{
    char *argv[] = {"scancel", (char *)job_id, NULL};
    if (log_fd >= 0) {
        char *msg = pr_xasprintf("perfrepro-measure: cancelling Slurm job %s (scancel)\n", job_id);
        if (write(log_fd, msg, strlen(msg)) < 0) {
        }
        free(msg);
    }
    launch_capture(argv, 30, NULL, log_fd >= 0 ? log_fd : -1);
}
