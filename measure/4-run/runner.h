/* runner: runs a suite's cases and writes one record per case.
 *
 * For each selected case the runner expands the command template, asks the
 * launcher for the argv actually exec'd, runs it in its own process group
 * with stdout and stderr redirected to logs/train_log/<case>, enforces the
 * timeout (SIGTERM to the group, SIGKILL after a grace period), classifies
 * the outcome (launch_error, timeout, signal, exit_status, oom, or the parse
 * rule's verdict on the log) and writes logs/index/<case>_speed atomically.
 *
 * Library code: nothing here prints.  Progress, warnings and echoed job
 * output reach the caller through pr_run_opts.event.  docs/measure-run.md
 * describes the behaviour users see.
 */
#ifndef PR_RUNNER_H
#define PR_RUNNER_H

#include "proc.h"
#include <signal.h>
#include <stddef.h>

#include "buf.h"
#include "err.h"
#include "launch.h"
#include "record.h"
#include "suite.h"

/* ---- Shell words ------------------------------------------------------ */

/* Appends s to out as one POSIX shell word: unchanged when it is non-empty
 * and holds only characters no shell treats specially ([A-Za-z0-9_@%+=:,./-]),
 * otherwise single-quoted, with each ' written as '\''. */
void runner_shell_quote(const char *s, pr_buf *out);

/* s with every IPv4 address other than loopback's (127.x, 0.0.0.0)
 * written "<address>" (malloc'd): the command a record keeps is published,
 * and the seeds forbid machine addresses in what is published. */
char *runner_scrub_addresses(const char *s);

/* ---- Launchers ------------------------------------------------------------ */

/* The launchers (local, mpirun, slurm), their context and plans are in
 * launch.h; launch_find looks one up by name. */

/* ---- One job ------------------------------------------------------------ */

/* A case made ready to run: every string is malloc'd and owned by the job
 * (runner_job_free). */
typedef struct pr_job {
    char **argv;          /* NULL-terminated: what is exec'd (after the launcher) */
    char **env;           /* NULL-terminated "NAME=value": set on top of measure's environment */
    char *log_path;       /* absolute: DIR/logs/train_log/<case> */
    char *log_rel;        /* relative to DIR: logs/train_log/<case> */
    char *record_path;    /* DIR/logs/index/<case>_speed */
    char *prepare_error;  /* set when the launcher refused the case (argv NULL then) */
    pr_launch_plan *plan; /* the launcher's plan (argv moved out of it), or NULL */
} pr_job;

/* Where a job runs and what it is given besides the suite and case. */
typedef struct pr_job_ctx {
    const pr_launcher *launcher;
    const char *out_dir;    /* absolute output directory */
    const char *workdir;    /* absolute directory the job runs in */
    const char *parent_cvd; /* measure's own CUDA_VISIBLE_DEVICES, or NULL */
    int master_port;
    const pr_launch_env *le; /* the run's launch options and findings; NULL: none */
    double timeout_s;        /* the case's timeout (a batch job's time limit) */
} pr_job_ctx;

/* Builds the job for case c: expands the command (each argv element; with
 * "shell": true the one string, with every substituted value shell-quoted,
 * run by /bin/sh -c) and the suite's env, adds CUDA_VISIBLE_DEVICES (the
 * first gpus_per_node entries of parent_cvd, or 0..gpus_per_node-1; unless
 * the suite's env sets it), PERFREPRO_CASE, PERFREPRO_LOG and the
 * launcher's variables (MASTER_ADDR, ...), then asks the launcher for the
 * plan.  A per-task placeholder of a multi-node launcher ({node_rank},
 * {local_rank}; {master_addr} of a batch job) becomes a reference to the
 * variable each task's wrapper sets, and a command using one runs through
 * the wrapper's shell.  A launcher refusal is not an error:
 * job->prepare_error says why.  -1 + err on a template error, an env key
 * that is no variable name or an env value that uses a per-task
 * placeholder.  The caller frees *job with runner_job_free (also after -1). */
int runner_job_build(const pr_suite *s, const pr_suite_case *c, const pr_job_ctx *ctx, pr_job *job,
                     pr_err *err);
void runner_job_free(pr_job *job);
/* Appends the job as one line a POSIX shell runs the same way:
 * NAME=value assignments (quoted) then the argv (quoted); a batch job's
 * script comes first, as a here-document that writes it. */
void runner_job_format(const pr_job *job, pr_buf *out);

/* ---- Outcomes -------------------------------------------------------------- */

/* 1 when the line s[0..len) holds an out-of-memory message ("CUDA out of
 * memory", "ResourceExhaustedError", "std::bad_alloc", "OOM" as a word, ...;
 * the list is in failscan.c). */
int runner_oom_match(const char *s, size_t len);
/* Reads the log at path line by line (logscan: constant memory, ANSI codes
 * removed) through runner_oom_match; returns 1 and the last matching line (at
 * most 200 bytes, valid UTF-8) in line, 0 when none, -1 + err when the log
 * cannot be read. */
int runner_log_find_oom(const char *path, pr_buf *line, pr_err *err);

/* Formats seconds for people: "0.4s", "12.3s", "1m40s", "2h05m". */
void runner_fmt_duration(double s, char out[32]);

/* ---- Suites ------------------------------------------------------------------ */

typedef enum pr_run_event_kind {
    PR_EV_DATASET,    /* text: dataset being verified */
    PR_EV_DRY,        /* index/total, c, job: a --dry-run case */
    PR_EV_CASE_START, /* index/total, c, eta_s */
    PR_EV_CASE_TICK,  /* index/total, c, elapsed_s, eta_s (about once a second) */
    PR_EV_OUTPUT,     /* text/len: job output (--echo) */
    PR_EV_CASE_DONE,  /* index/total, c, rec, skipped, elapsed_s, eta_s */
    PR_EV_WARN        /* text */
} pr_run_event_kind;

typedef struct pr_run_event {
    pr_run_event_kind kind;
    size_t index, total; /* 1-based position among the selected cases */
    const pr_suite_case *c;
    const pr_job *job;
    const pr_record *rec; /* DONE: the record written, or the one kept */
    int skipped;          /* DONE: --resume kept an existing valid record */
    double elapsed_s;
    double eta_s; /* < 0: unknown yet */
    const char *text;
    size_t len;
} pr_run_event;

typedef struct pr_run_opts {
    const char *out_dir; /* required */
    int resume, dry_run, echo;
    char *const *only; /* fnmatch patterns on case names; none: every case */
    size_t nonly;
    double timeout_s;      /* > 0 overrides the suite's timeout_s */
    double kill_grace_s;   /* SIGTERM to SIGKILL, default 5 */
    double log_limit_mib;  /* > 0 overrides the suite's log_limit_mib */
    const char *launcher;  /* NULL: the suite's */
    int master_port;       /* 0: 29500 */
    pr_launch_opts launch; /* --hosts, --ranks, --container, ... (launch.h) */
    void (*event)(const pr_run_event *ev, void *ud);
    void *ud;
} pr_run_opts;

#define PR_RUN_NREASONS 16

typedef struct pr_run_summary {
    size_t selected;                   /* cases --only kept */
    size_t ran;                        /* cases run now */
    size_t ok, failed;                 /* over the selected cases, kept records included */
    size_t skipped;                    /* --resume: valid records kept */
    size_t by_reason[PR_RUN_NREASONS]; /* failures, indexed as pr_fail_reasons */
    int interrupted;                   /* the signal that stopped the run, or 0 */
    const char *interrupted_case;      /* the case it stopped (no record), or NULL;
                                   * points into the suite */
} pr_run_summary;

/* Runs the suite's selected cases in order into opts->out_dir (see the top
 * of this file).  Returns 0 when the run went through (look at the summary:
 * failed cases and interruption are results, not errors) and -1 + err when
 * it could not start: no case selected, unknown launcher or launch options
 * that cannot work, a dataset missing
 * or with the wrong checksum, output directory unusable or in use by another
 * measure. */
int runner_suite(const pr_suite *s, const pr_run_opts *opts, pr_run_summary *sum, pr_err *err);

#endif
