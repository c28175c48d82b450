#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "buf.h"
#include "fileio.h"

extern char **environ;

double pr_now_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ======================================================================
 * Signals
 * ====================================================================== */

static volatile sig_atomic_t g_signal, g_signal_count;
static int g_pipe[2] = {-1, -1};
static int g_installed;
static int g_old_subreaper;
static const int g_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD};
#define NSIGS ((int)(sizeof g_sigs / sizeof *g_sigs))
static struct sigaction g_old[NSIGS], g_old_pipe;

static void on_signal(int sig)
{
    int saved = errno;
    if (sig != SIGCHLD) {
        if (!g_signal)
            g_signal = sig;
        if (g_signal_count < 1000)
            g_signal_count++;
    }
    /* Wakes the poll() of the wait loop; a full pipe already will. */
    if (g_pipe[1] >= 0 && write(g_pipe[1], "", 1) < 0) {
    }
    errno = saved;
}

int pr_runner_signals_install(pr_err *err)
{
    if (g_installed)
        return 0;
    if (pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
        return pr_err_errno(err, "measure", "cannot create a pipe");
    g_signal = 0;
    g_signal_count = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART: a blocking call returns EINTR and the loop looks at
     * the flag.  Installed even when SIGINT was ignored (background jobs of
     * a non-interactive shell): stopping measure must stop its job too. */
    sa.sa_flags = SA_NOCLDSTOP;
    for (int i = 0; i < NSIGS; i++)
        sigaction(g_sigs[i], &sa, &g_old[i]);
    /* A closed stdout (--echo into `| head`) must not kill measure and
     * orphan its job: writes fail with EPIPE instead, and the run goes on. */
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, &g_old_pipe);
#ifdef __linux__
    /* Orphaned grandchildren become our children, so that we can reap them
     * and see their process group empty, whatever PID 1 does. */
    if (prctl(PR_GET_CHILD_SUBREAPER, &g_old_subreaper) < 0)
        g_old_subreaper = 0;
    prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    g_installed = 1;
    return 0;
}

void pr_runner_signals_restore(void)
{
    if (!g_installed)
        return;
    for (int i = 0; i < NSIGS; i++)
        sigaction(g_sigs[i], &g_old[i], NULL);
    sigaction(SIGPIPE, &g_old_pipe, NULL);
#ifdef __linux__
    prctl(PR_SET_CHILD_SUBREAPER, g_old_subreaper);
#endif
    close(g_pipe[0]);
    close(g_pipe[1]);
    g_pipe[0] = g_pipe[1] = -1;
    g_installed = 0;
}

const volatile sig_atomic_t *pr_runner_interrupt_flag(void)
{
    return &g_signal;
}

/* Sleeps up to ms milliseconds, less when a signal arrives. */
static void wait_wakeup(int ms)
{
    if (ms < 0)
        ms = 0;
    if (g_pipe[0] < 0) {
        poll(NULL, 0, ms > 20 ? 20 : ms);
        return;
    }
    struct pollfd p = {g_pipe[0], POLLIN, 0};
    if (poll(&p, 1, ms) > 0) {
        char junk[64];
        while (read(g_pipe[0], junk, sizeof junk) > 0) {
        }
    }
}

/* ======================================================================
 * Processes
 * ====================================================================== */

/* measure's environment with spec's variables set over it; a malloc'd
 * array of borrowed strings (free the array only).  Built before fork: the
 * child must not allocate. */
static char **merged_env(char *const *add)
{
    size_t n = 0, na = 0;
    while (environ && environ[n])
        n++;
    while (add && add[na])
        na++;
    char **out = pr_xmalloc((n + na + 1) * sizeof *out);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(environ[i], '=');
        size_t kl = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
        int replaced = 0;
        for (size_t j = 0; j < na && !replaced; j++)
            replaced = strncmp(add[j], environ[i], kl) == 0 && add[j][kl] == '=';
        if (!replaced)
            out[k++] = environ[i];
    }
    for (size_t j = 0; j < na; j++)
        out[k++] = add[j];
    out[k] = NULL;
    return out;
}

/* In the child between fork and exec: only async-signal-safe calls. */
static void child_exec(const pr_proc_spec *sp, char **envp, int in_fd, int report_fd,
                       pid_t parent)
{
    setpgid(0, 0);
#ifdef __linux__
    /* If measure dies without a chance to stop it (SIGKILL), the job gets
     * SIGTERM instead of running on unrecorded. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(127);
#else
    (void)parent;
#endif
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int i = 0; i < NSIGS; i++)
        sigaction(g_sigs[i], &dfl, NULL);
    sigaction(SIGPIPE, &dfl, NULL); /* ignored dispositions survive exec */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* Copies above 2 first, so that any aliasing of the sources with 0, 1
     * and 2 is harmless; dup2 clears close-on-exec on the targets. */
    int src[3] = {in_fd, sp->out_fd, sp->err_fd}, hi[3];
    for (int i = 0; i < 3; i++)
        if ((hi[i] = fcntl(src[i], F_DUPFD_CLOEXEC, 3)) < 0)
            goto fail;
    for (int i = 0; i < 3; i++)
        if (dup2(hi[i], i) < 0)
            goto fail;
    execvpe(sp->argv[0], sp->argv, envp);
fail:;
    int e = errno;
    if (write(report_fd, &e, sizeof e) < 0) {
    }
    _exit(127);
}

/* Reaps every child that has ended; notes the leader's status. */
static void reap(pid_t leader, int *leader_done, int *status, double *end)
{
    for (;;) {
        int st;
        pid_t p = waitpid(-1, &st, WNOHANG);
        if (p <= 0)
            break;
        if (p == leader && !*leader_done) {
            *leader_done = 1;
            *status = st;
            *end = pr_now_mono();
        }
    }
}

/* 1 while any process of group pgid exists (zombies included). */
static int group_alive(pid_t pgid)
{
    return kill(-pgid, 0) == 0 || errno == EPERM;
}

/* Passes what the followed file gained since last time to spec->output. */
static void follow_pump(const pr_proc_spec *sp, int fd)
{
    char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        sp->output(sp->ud, buf, (size_t)n);
    }
}

int pr_proc_run(const pr_proc_spec *sp, pr_proc_result *res, pr_err *err)
{
    int rc = -1, devnull = -1, follow = -1, ep[2] = {-1, -1};
    char **envp = NULL;
    memset(res, 0, sizeof *res);
    res->exit_status = -1;
    devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0) {
        pr_err_errno(err, "/dev/null", "cannot open");
        goto out;
    }
    if (pipe2(ep, O_CLOEXEC) < 0) {
        pr_err_errno(err, "measure", "cannot create a pipe");
        goto out;
    }
    envp = merged_env(sp->env);
    if (sp->follow_path && sp->output) {
        /* Regular files only: never a FIFO put in the log's place. */
        pr_err ignored;
        follow = pr_open_regular(sp->follow_path, &ignored);
    }

    /* Signals stay blocked across fork so that the child cannot run our
     * handlers before it resets them. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old);
    double start = pr_now_mono();
    pid_t self = getpid();
    pid_t pid = fork();
    if (pid == 0)
        child_exec(sp, envp, devnull, ep[1], self);
    int fork_errno = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        errno = fork_errno;
        pr_err_errno(err, sp->argv[0], "cannot fork");
        goto out;
    }
    /* Also in the parent: no window in which a kill(-pid) misses it.  It
     * fails harmlessly when the child has already exec'd. */
    setpgid(pid, pid);
    close(ep[1]);
    ep[1] = -1;

    /* End of file: exec succeeded.  An int: the child's errno. */
    int child_errno = 0;
    for (;;) {
        ssize_t n = read(ep[0], &child_errno, sizeof child_errno);
        if (n < 0 && errno == EINTR)
            continue;
        if (n != (ssize_t)sizeof child_errno)
            child_errno = 0;
        break;
    }

    int leader_done = 0, status = 0;
    double end = start, term_at = 0, give_up_at = 0, next_tick = start + 1;
    enum { RUNNING, TERMINATING, KILLED } phase = RUNNING;
    if (child_errno) {
        res->launch_errno = child_errno;
        /* It _exits at once; no timeout needed. */
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        res->duration_s = pr_now_mono() - start;
        rc = 0;
        goto out;
    }
    for (;;) {
        reap(pid, &leader_done, &status, &end);
        double t = pr_now_mono();
        if (!res->interrupted && g_signal)
            res->interrupted = g_signal;
        if (leader_done && !group_alive(pid))
            break;
        if (phase == RUNNING) {
            int stop = 0;
            if (res->interrupted)
                stop = 1;
            else if (sp->timeout_s > 0 && t - start >= sp->timeout_s)
                stop = res->timed_out = 1;
            else if (leader_done && t - end >= 0.5)
                /* Half a second for the rest of the group to finish
                 * exiting on its own (workers of a job that just ended). */
                stop = res->stray = 1;
            if (stop) {
                kill(-pid, SIGTERM);
                phase = TERMINATING;
                term_at = t + sp->grace_s;
            }
        }
        /* A second interrupt means "now": no grace. */
        if (phase == TERMINATING && (t >= term_at || g_signal_count >= 2)) {
            kill(-pid, SIGKILL);
            phase = KILLED;
            give_up_at = t + 10;
        }
        if (phase == KILLED && t >= give_up_at) {
            /* Stuck in the kernel (uninterruptible sleep): leave it. */
            res->unkillable = 1;
            break;
        }
        if (follow >= 0)
            follow_pump(sp, follow);
        if (sp->tick && t >= next_tick && !leader_done) {
            sp->tick(sp->ud, t - start);
            next_tick = t + 1;
        }
        /* How long to sleep: SIGCHLD wakes us early for our children; the
         * rest of the group (not our children without a subreaper) and
         * the deadlines are polled. */
        double wake = t + 1;
        if (leader_done || phase != RUNNING)
            wake = t + 0.02;
        if (follow >= 0 && wake > t + 0.1)
            wake = t + 0.1;
        if (phase == RUNNING && sp->timeout_s > 0 && start + sp->timeout_s < wake)
            wake = start + sp->timeout_s;
        if (phase == TERMINATING && term_at < wake)
            wake = term_at;
        wait_wakeup((int)((wake - t) * 1000) + 1);
    }
    if (follow >= 0)
        follow_pump(sp, follow);
    if (leader_done) {
        if (WIFEXITED(status))
            res->exit_status = WEXITSTATUS(status);
        else if (WIFSIGNALED(status))
            res->term_signal = WTERMSIG(status);
    } else {
        end = pr_now_mono();
    }
    res->duration_s = end - start;
    rc = 0;
out:
    if (devnull >= 0)
        close(devnull);
    if (follow >= 0)
        close(follow);
    if (ep[0] >= 0)
        close(ep[0]);
    if (ep[1] >= 0)
        close(ep[1]);
    free(envp);
    return rc;
}

