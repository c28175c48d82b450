/* proc: running one job as its own process group, with a timeout that
 * ends the whole group, and measure's own signal handling (interruption).
 * The runner (runner.h) decides what to run; this module only runs it. */
#ifndef PR_PROC_H
#define PR_PROC_H

#include <signal.h>
#include <stddef.h>

#include "err.h"

/* Seconds on the monotonic clock (for durations only). */
double pr_now_mono(void);

typedef struct pr_proc_spec {
    char *const *argv;       /* argv[0] is looked up in PATH */
    char *const *env;        /* "NAME=value" set on top of measure's environment, or NULL */
    int out_fd, err_fd;      /* the child's stdout and stderr (stdin is /dev/null) */
    double timeout_s;        /* <= 0: no timeout */
    double grace_s;          /* SIGTERM to SIGKILL */
    /* Optional: called about once a second with the elapsed time. */
    void (*tick)(void *ud, double elapsed_s);
    /* Optional: with follow_path, new bytes of that file as they appear
     * (--echo reads the job's log back while the job writes it). */
    const char *follow_path;
    void (*output)(void *ud, const char *data, size_t len);
    void *ud;
} pr_proc_spec;

typedef struct pr_proc_result {
    int launch_errno;   /* non-zero: the command could not be started */
    int exit_status;    /* -1 unless it exited */
    int term_signal;    /* 0 unless a signal ended it */
    int timed_out;      /* the runner ended it at its timeout */
    int interrupted;    /* the signal that interrupted measure (0: none) */
    int stray;          /* processes of its group outlived it and were ended */
    int unkillable;     /* some of its group survived SIGKILL (left behind) */
    double duration_s;
} pr_proc_result;

/* Runs one process in its own process group and waits for it and for its
 * whole group (grandchildren included: what is left of the group half a
 * second after the main process exits is sent SIGTERM, then SIGKILL after
 * the grace).  Waiting never depends on a pipe's end of file,
 * so a grandchild holding the log open cannot make it hang.  An interruption
 * (SIGINT, SIGTERM or SIGHUP to measure, see pr_runner_signals_install) ends
 * the job the same way and sets interrupted.  Returns -1 + err only when it
 * could not even try (fork failed, ...). */
int pr_proc_run(const pr_proc_spec *spec, pr_proc_result *res, pr_err *err);

/* Installs measure's SIGINT/SIGTERM/SIGHUP/SIGCHLD handlers (a flag and a
 * self-pipe) and makes measure a child subreaper, so that orphaned
 * grandchildren are reaped here.  Idempotent; pr_runner_signals_restore puts
 * the previous handlers back. */
int pr_runner_signals_install(pr_err *err);
void pr_runner_signals_restore(void);
/* The first interrupting signal received since install (0: none), for
 * loops that poll it (pr_md5_file). */
const volatile sig_atomic_t *pr_runner_interrupt_flag(void);

#endif
