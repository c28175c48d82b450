/* proc: running one job as its own process group, with a timeout that
 * ends the whole group, and measure's own signal handling (interruption).
 * The runner (runner.h) decides what to run; this module only runs it. */
#ifndef PR_PROC_H
#define PR_PROC_H

#include <signal.h>
#include <stddef.h>

#include "err.h"

/* Seconds on the monotonic clock (for durations only). */
double proc_now_mono(void);

typedef struct pr_proc_spec {
    char *const *argv;  /* argv[0] is looked up in PATH */
    char *const *env;   /* "NAME=value" set on top of measure's environment, or NULL */
    int out_fd, err_fd; /* the child's stdout and stderr (stdin is /dev/null) */
    double timeout_s;   /* <= 0: no timeout */
    double grace_s;     /* SIGTERM to SIGKILL */
    /* > 0: the most bytes out_fd's file may hold.  Past it the job is
     * stopped as at its timeout, and SIGKILL comes without waiting for the
     * grace when the file grows by another PR_PROC_LOG_SLACK(log_limit)
     * meanwhile (a job that ignores SIGTERM and floods on). */
    long long log_limit;
    /* Optional: called about once a second with the elapsed time. */
    void (*tick)(void *ud, double elapsed_s);
    /* Optional: called a quarter of a second after the start, then about
     * once a second while the main process runs, with the job's process
     * group (to look at its processes: measure/1-facts/cpurt.h). */
    void (*sample)(void *ud, int pgid);
    /* Optional: with follow_path, new bytes of that file as they appear
     * (--echo reads the job's log back while the job writes it). */
    const char *follow_path;
    void (*output)(void *ud, const char *data, size_t len);
    void *ud;
} pr_proc_spec;

/* How much a log may grow past its limit after SIGTERM before SIGKILL
 * follows at once: the limit itself, at most 64 MiB. */
#define PR_PROC_LOG_SLACK(limit) ((limit) < (64LL << 20) ? (limit) : (64LL << 20))

/* The most distinct command names a result keeps of the processes ended. */
#define PR_PROC_NAMES 8

typedef struct pr_proc_result {
    int launch_errno;   /* non-zero: the command could not be started */
    int exit_status;    /* -1 unless it exited */
    int term_signal;    /* 0 unless a signal ended it */
    int timed_out;      /* the runner ended it at its timeout */
    int interrupted;    /* the signal that interrupted measure (0: none) */
    int killed;         /* non-zero: the runner sent SIGKILL to its process group
                         * while its main process was still running: 1 when the
                         * grace after SIGTERM ran out (or a second interrupt
                         * came), 2 when it flooded its log on after SIGTERM */
    int log_limited;    /* its output file passed spec->log_limit */
    int log_stopped;    /* ... and the runner stopped the job for it */
    long long log_size; /* the output file's size when it was over (log_limit only) */
    int stray;          /* processes of its group outlived it and were ended */
    int unkillable;     /* some of its processes survived SIGKILL (left behind) */
    /* The processes the job left running when it was over, which were
     * ended (SIGTERM, then SIGKILL after the grace): its group's still there
     * half a second after its main process exited, and every descendant
     * that left the group (setsid, daemons), found through the subreaper.
     * The job's own group stopped at a timeout is not counted. */
    size_t ended;
    char ended_names[PR_PROC_NAMES][16]; /* their distinct command names, sorted */
    size_t nended_names;
    size_t survived; /* of those, how many were still there 10 s after SIGKILL */
    double duration_s;
} pr_proc_result;

/* Runs one process in its own process group and waits for it and for its
 * whole group (grandchildren included: what is left of the group half a
 * second after the main process exits is sent SIGTERM, then SIGKILL after
 * the grace).  Then every process still descending from measure (orphans
 * reparent to it: proc_runner_signals_install makes it a subreaper), which
 * can only be the job's having left its group, is ended the same way and
 * counted in res->ended: so the caller must have no other child running.
 * Waiting never depends on a pipe's end of file, so a grandchild holding
 * the log open cannot make it hang.  An interruption (SIGINT, SIGTERM or
 * SIGHUP to measure, see proc_runner_signals_install) ends the job the same
 * way and sets interrupted.  With spec->log_limit, a log past it stops the
 * job the same way (res->log_limited, log_stopped).  Returns -1 + err only
 * when it could not even try (fork failed, ...). */
int proc_run(const pr_proc_spec *spec, pr_proc_result *res, pr_err *err);

/* Installs measure's SIGINT/SIGTERM/SIGHUP/SIGCHLD handlers (a flag and a
 * self-pipe) and makes measure a child subreaper, so that orphaned
 * grandchildren are reaped here.  Idempotent; proc_runner_signals_restore puts
 * the previous handlers back. */
int proc_runner_signals_install(pr_err *err);
void proc_runner_signals_restore(void);
/* The first interrupting signal received since install (0: none), for
 * loops that poll it (pr_md5_file). */
const volatile sig_atomic_t *proc_runner_interrupt_flag(void);

#endif
