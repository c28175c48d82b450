#include "proc.h"

#include <dirent.h>
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

double proc_now_mono(void)
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

int proc_runner_signals_install(pr_err *err)
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

void proc_runner_signals_restore(void)
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

const volatile sig_atomic_t *proc_runner_interrupt_flag(void)
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
static void child_exec(const pr_proc_spec *sp, char **envp, int in_fd, int report_fd, pid_t parent)
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
            *end = proc_now_mono();
        }
    }
}

/* The size of the file open at fd; -1 when it cannot be had. */
static long long file_size(int fd)
{
    struct stat sb;
    return fstat(fd, &sb) == 0 ? (long long)sb.st_size : -1;
}

/* 1 while any process of group pgid exists (zombies included). */
static int group_alive(pid_t pgid)
{
    return kill(-pgid, 0) == 0 || errno == EPERM;
}

/* ======================================================================
 * Leftover processes
 * ====================================================================== */

/* One process as /proc/PID/stat describes it. */
typedef struct proc_ent {
    pid_t pid, ppid, pgrp;
    char state;
    char comm[16];
} proc_ent;

/* A whole decimal number of s[0..) (leading blanks skipped) into *v; the
 * end in *end.  0, or -1 when there is none or it overflows. */
static int read_long(const char *s, char **end, long *v)
{
    errno = 0;
    *v = strtol(s, end, 10);
    return errno || *end == s ? -1 : 0;
}

/* Reads /proc/PID/stat into e: "PID (COMM) STATE PPID PGRP ...", COMM
 * being anything (the last ')' ends it).  0, or -1 when the process is
 * gone or the line is not understood. */
static int read_stat(const char *pid_name, proc_ent *e)
{
    char path[64], buf[512];
    int rc = -1;
    snprintf(path, sizeof path, "/proc/%s/stat", pid_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        goto out;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        goto out;
    buf[n] = '\0';
    char *open_p = strchr(buf, '('), *close_p = strrchr(buf, ')'), *end;
    long pid, ppid, pgrp;
    if (!open_p || !close_p || close_p < open_p || close_p[1] != ' ' || !close_p[2] ||
        read_long(buf, &end, &pid) < 0 || end > open_p)
        goto out;
    e->state = close_p[2];
    if (read_long(close_p + 3, &end, &ppid) < 0 || read_long(end, &end, &pgrp) < 0)
        goto out;
    size_t cl = (size_t)(close_p - open_p - 1);
    if (cl >= sizeof e->comm)
        cl = sizeof e->comm - 1;
    memcpy(e->comm, open_p + 1, cl);
    e->comm[cl] = '\0';
    e->pid = (pid_t)pid;
    e->ppid = (pid_t)ppid;
    e->pgrp = (pid_t)pgrp;
    rc = 0;
out:
    return rc;
}

static int by_pid(const void *a, const void *b)
{
    pid_t x = ((const proc_ent *)a)->pid, y = ((const proc_ent *)b)->pid;
    return (x > y) - (x < y);
}

/* The live processes (zombies left out: they are already over) that
 * descend from self, or, with pgid > 0, that belong to process group pgid
 * instead; self excluded.  Returns how many, in *out (malloc'd, sorted by
 * pid; the caller frees it, also when 0).  None where /proc cannot be
 * read. */
static size_t find_processes(pid_t self, pid_t pgid, proc_ent **out)
{
    proc_ent *all = NULL;
    size_t n = 0, cap = 0, k = 0;
    *out = NULL;
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9' ||
            strspn(de->d_name, "0123456789") != strlen(de->d_name))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            all = pr_xrealloc(all, cap * sizeof *all);
        }
        if (read_stat(de->d_name, &all[n]) == 0)
            n++;
    }
    closedir(d);
    if (n > 1)
        qsort(all, n, sizeof *all, by_pid);
    /* mark: 1 when the process is one of those asked for.  Descent is
     * found by passes until nothing changes (trees are shallow). */
    unsigned char *mark = pr_xcalloc(n ? n : 1, 1);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            if (mark[i] || all[i].pid == self)
                continue;
            int hit;
            if (pgid > 0) {
                hit = all[i].pgrp == pgid;
            } else {
                proc_ent key = {.pid = all[i].ppid};
                proc_ent *parent =
                    all[i].ppid == self ? NULL : bsearch(&key, all, n, sizeof *all, by_pid);
                hit = all[i].ppid == self || (parent && mark[parent - all]);
            }
            if (hit) {
                mark[i] = 1;
                changed = pgid <= 0;
            }
        }
    }
    /* Zombies take part in the descent above (a zombie has no children:
     * they were reparented when it exited), not in the result. */
    for (size_t i = 0; i < n; i++)
        if (mark[i] && all[i].state != 'Z')
            all[k++] = all[i];
    free(mark);
    if (k == 0) {
        free(all);
        return 0;
    }
    *out = all;
    return k;
}

/* Counts e among the processes ended (once per pid: *seen holds those
 * counted) and keeps its name.  Returns 1 when it was new. */
static int note_ended(pr_proc_result *res, pid_t **seen, size_t *nseen, const proc_ent *e)
{
    for (size_t i = 0; i < *nseen; i++)
        if ((*seen)[i] == e->pid)
            return 0;
    *seen = pr_xrealloc(*seen, (*nseen + 1) * sizeof **seen);
    (*seen)[(*nseen)++] = e->pid;
    res->ended++;
    size_t at = 0;
    while (at < res->nended_names && strcmp(res->ended_names[at], e->comm) < 0)
        at++;
    if ((at < res->nended_names && strcmp(res->ended_names[at], e->comm) == 0) ||
        res->nended_names == PR_PROC_NAMES)
        return 1;
    memmove(res->ended_names[at + 1], res->ended_names[at],
            (res->nended_names - at) * sizeof res->ended_names[0]);
    snprintf(res->ended_names[at], sizeof res->ended_names[at], "%s", e->comm);
    res->nended_names++;
    return 1;
}

/* Counts the live processes of the job's group pgid as ended (they are
 * about to be: the main process is over and they are not). */
static void note_group(pr_proc_result *res, pid_t **seen, size_t *nseen, pid_t pgid)
{
    proc_ent *v;
    size_t n = find_processes(getpid(), pgid, &v);
    for (size_t i = 0; i < n; i++)
        note_ended(res, seen, nseen, &v[i]);
    free(v);
}

/* Ends every process still descending from measure once the job's group is
 * gone: SIGTERM to each as it is found, SIGKILL to all after the grace (at
 * once on a second interrupt); gives up 10 s after SIGKILL (res->survived).
 * Each is counted in res (*seen: those already counted).  When the job's
 * group job_pgid survived SIGKILL, what is left of it is not tried again. */
static void end_descendants(const pr_proc_spec *sp, pid_t job_pgid, pid_t **seen, size_t *nseen,
                            pr_proc_result *res)
{
    int stuck = res->unkillable; /* the job's group survived SIGKILL: leave it */
    pid_t self = getpid();
    double kill_at = -1, give_up_at = -1;
    for (;;) {
        /* Orphans reparented to measure are reaped here. */
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        proc_ent *v;
        size_t n = find_processes(self, 0, &v), k = 0;
        for (size_t i = 0; i < n; i++)
            if (!stuck || v[i].pgrp != job_pgid)
                v[k++] = v[i];
        n = k;
        double t = proc_now_mono();
        if (n == 0) {
            free(v);
            break;
        }
        if (kill_at < 0)
            kill_at = t + sp->grace_s;
        if (give_up_at < 0 && (t >= kill_at || g_signal_count >= 2))
            give_up_at = t + 10;
        for (size_t i = 0; i < n; i++) {
            /* SIGTERM once (a handler must not be disturbed while it cleans
             * up), SIGKILL every round (new ones may have been forked). */
            int fresh = note_ended(res, seen, nseen, &v[i]);
            if (give_up_at >= 0)
                kill(v[i].pid, SIGKILL);
            else if (fresh)
                kill(v[i].pid, SIGTERM);
        }
        free(v);
        if (give_up_at >= 0 && t >= give_up_at) {
            res->survived = n;
            res->unkillable = 1;
            break;
        }
        wait_wakeup(20);
    }
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

int proc_run(const pr_proc_spec *sp, pr_proc_result *res, pr_err *err)
{
    int rc = -1, devnull = -1, follow = -1, ep[2] = {-1, -1};
    char **envp = NULL;
    pid_t *seen = NULL; /* the leftovers counted in res->ended */
    size_t nseen = 0;
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
        follow = pr_fileio_open_regular(sp->follow_path, &ignored);
    }

    /* Signals stay blocked across fork so that the child cannot run our
     * handlers before it resets them. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old);
    double start = proc_now_mono();
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
    long long stop_size = 0, last_size = 0; /* the log's size at the stop, at the last look */
    double last_t = start, look = 0.005;    /* seconds between two looks at the log */
    double end = start, term_at = 0, give_up_at = 0, next_tick = start + 1;
    double next_sample = start + 0.25;
    enum { RUNNING, TERMINATING, KILLED } phase = RUNNING;
    if (child_errno) {
        res->launch_errno = child_errno;
        /* It _exits at once; no timeout needed. */
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        res->duration_s = proc_now_mono() - start;
        rc = 0;
        goto out;
    }
    for (;;) {
        reap(pid, &leader_done, &status, &end);
        double t = proc_now_mono();
        if (!res->interrupted && g_signal)
            res->interrupted = g_signal;
        if (leader_done && !group_alive(pid))
            break;
        long long size = sp->log_limit > 0 ? file_size(sp->out_fd) : -1;
        if (phase == RUNNING) {
            int stop = 0;
            if (res->interrupted)
                stop = 1;
            else if (sp->timeout_s > 0 && t - start >= sp->timeout_s)
                stop = res->timed_out = 1;
            else if (size > sp->log_limit)
                stop = res->log_limited = res->log_stopped = 1;
            else if (leader_done && t - end >= 0.5)
                /* Half a second for the rest of the group to finish
                 * exiting on its own (workers of a job that just ended). */
                stop = 1;
            if (stop) {
                if (leader_done) {
                    /* Its main process is over: the rest are leftovers. */
                    res->stray = 1;
                    note_group(res, &seen, &nseen, pid);
                }
                kill(-pid, SIGTERM);
                phase = TERMINATING;
                term_at = t + sp->grace_s;
                stop_size = size;
            }
        }
        /* A second interrupt means "now": no grace; nor for a job that
         * floods its log on after SIGTERM. */
        int flood = phase == TERMINATING && res->log_stopped &&
                    size - stop_size > PR_PROC_LOG_SLACK(sp->log_limit);
        if (phase == TERMINATING && (t >= term_at || g_signal_count >= 2 || flood)) {
            kill(-pid, SIGKILL);
            if (!leader_done)
                res->killed = flood ? 2 : 1;
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
        if (sp->sample && t >= next_sample && !leader_done) {
            sp->sample(sp->ud, (int)pid);
            next_sample = t + 1;
        }
        /* How long to sleep: SIGCHLD wakes us early for our children; the
         * rest of the group (not our children without a subreaper) and
         * the deadlines are polled. */
        double wake = t + 1;
        if (leader_done || phase != RUNNING)
            wake = t + 0.02;
        if (sp->sample && !leader_done && phase == RUNNING && wake > next_sample)
            wake = next_sample;
        if (follow >= 0 && wake > t + 0.1)
            wake = t + 0.1;
        /* A log is watched every 10 ms at first, then ten times a second
         * while it grows slowly, and again more often as it nears its
         * limit: halfway there at the rate it grows, every 10 ms at most
         * (at 1 GB/s the limit is passed by some 10 MB). */
        if (phase == RUNNING && sp->log_limit > 0) {
            look = look * 2 > 0.1 ? 0.1 : look * 2;
            if (size > last_size && t > last_t) {
                double rate = (double)(size - last_size) / (t - last_t);
                double half = (double)(sp->log_limit - size) / rate / 2;
                if (half < look)
                    look = half < 0.01 ? 0.01 : half;
            }
            last_size = size;
            last_t = t;
            if (wake > t + look)
                wake = t + look;
        }
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
        end = proc_now_mono();
    }
    res->duration_s = end - start;
    end_descendants(sp, pid, &seen, &nseen, res);
    if (sp->log_limit > 0) {
        /* Written past the limit between two looks, or by leftovers. */
        res->log_size = file_size(sp->out_fd);
        if (res->log_size > sp->log_limit)
            res->log_limited = 1;
    }
    rc = 0;
out:
    free(seen);
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
