/* runner_int.h: what the files of the runner share (runner.c, runjob.c,
 * runcase.c, runout.c, failscan.c); nothing else includes it.  runner.h
 * has the public API. */
#ifndef PR_RUNNER_INT_H
#define PR_RUNNER_INT_H

#include <jansson.h>
#include <stddef.h>

#include "1-facts/cpurt.h"
#include "2-parse/parse.h"
#include "2-parse/rule.h"
#include "buf.h"
#include "err.h"
#include "launch.h"
#include "record.h"
#include "runner.h"
#include "suite.h"

/* ---- The run (runner.c) ------------------------------------------------ */

/* One runner_suite call: runner_suite owns every pointer here and frees
 * them when the run ends. */
typedef struct runner_state {
    const pr_suite *s;
    const pr_run_opts *o;
    pr_run_summary *sum;
    const pr_launcher *launcher;
    pr_launch_env le; /* the run's launch options and findings */
    int le_ready;
    pr_rule *rule;
    pr_rule *rule_parts; /* the rule reading several logs as one (Slurm, rank "all") */
    json_t *rule_json;   /* the normalised rule, stored in every record */
    char *out;           /* absolute output directory */
    char *workdir;       /* absolute */
    char *version;       /* the framework version measured, or NULL */
    double timeout_s;
    long long log_limit; /* bytes a case's log may reach */
    size_t *sel;         /* indices of the selected cases */
    size_t nsel;
    pr_record *kept;     /* per selected case: its valid record (--resume) */
    unsigned char *todo; /* per selected case: 1 when it runs now */
    size_t index;        /* the case running, 0-based among sel */
    double ran_s;        /* time spent in the cases run so far */
    pr_cpurt *cpurt;     /* what the jobs' processes loaded (env.json's runtime) */
    size_t ran_n;
} runner_state;

/* Hands ev to the caller's event callback, if any. */
void runner_emit(const runner_state *st, pr_run_event *ev);
/* A PR_EV_WARN event with the formatted text. */
void runner_warn(const runner_state *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The estimated time left (runner.c says how); < 0: unknown yet. */
double runner_eta(const runner_state *st, double running_elapsed);

/* ---- One case (runcase.c) ------------------------------------------------ */

/* What the rule may need from case c of suite s (nothing to free). */
pr_parse_args runner_parse_args(const pr_suite *s, const pr_suite_case *c);
/* Runs case c (its job built by runner_job_build) and writes its record into
 * rec, which the caller initialised and clears.  0: done, 1: interrupted
 * (no record), -1 + err: the output directory failed us. */
int runner_run_case(runner_state *st, const pr_suite_case *c, const pr_job *job, pr_record *rec,
                    pr_err *err);

/* ---- The output tree (runout.c) -------------------------------------------- */

/* DIR/logs/index/<case>_speed; the caller frees it. */
char *runner_record_path(const char *out_dir, const char *case_name);
/* Creates the output tree, sets st->out (freed with the run) and takes the
 * lock; the caller closes *lock_fd (>= 0 once opened, also after -1). */
int runner_prepare_out(runner_state *st, int *lock_fd, pr_err *err);

/* The files of a case's previous run (record, log, rank logs, batch script),
 * moved aside while the case runs again: they are put back when the new
 * record cannot be written (a full disk loses nothing) and removed once it
 * is.  Moved, not left in place: a record must never describe a log that has
 * since been overwritten, and a link or FIFO planted at a path the job
 * writes is moved away, never followed. */
typedef struct aside {
    char **from, **to;
    size_t n, nto;
} aside;

/* Moves path aside into a (a owns the names; runner_aside_free frees
 * them); 0 when nothing was there, -1 + err. */
int runner_aside_move(aside *a, const char *path, pr_err *err);
/* Puts the moved files back. */
void runner_aside_restore(aside *a);
/* Removes the moved files. */
void runner_aside_drop(aside *a);
void runner_aside_free(aside *a);

/* ---- A log past its limit (runout.c) ------------------------------------------ */

/* What runner_log_trim kept of a log past its limit (bytes). */
typedef struct runner_trim {
    long long size;    /* before */
    long long head;    /* kept from the start */
    long long tail;    /* kept from the end */
    long long dropped; /* between them, replaced by one line saying so */
} runner_trim;

/* Cuts the log at path, open at fd (nothing may write to it any more),
 * down to at most limit bytes: its first and last min((limit - 256) / 2,
 * 16 MiB) bytes, each cut at a line's end where one is near, and between
 * them one line saying how many bytes were dropped.  A log within the limit
 * is left as it is (t->dropped 0).  0, or -1 + err (the log is then as it
 * was or only partly cut: the caller says so). */
int runner_log_trim(int fd, const char *path, long long limit, runner_trim *t, pr_err *err);

/* ---- Logs (failscan.c) ------------------------------------------------------ */

/* Appends text[0..len) to out made safe for JSON (failscan.c says how). */
void runner_clean_text(pr_buf *out, const char *text, size_t len);
/* A JSON string of s made safe; a new reference the caller owns. */
json_t *runner_clean_json(const char *s);

/* What a failed job's log says about its failure, from one pass. */
typedef struct runner_verdict {
    char *low;  /* scratch: the line in lowercase */
    pr_buf oom; /* the last out-of-memory line */
    int has_oom;
    /* The last "PERFREPRO_FAILURE: reason: detail" line with a reason
     * records know (the GPU workloads print it, see gpuhost.h). */
    char reason[32];
    pr_buf detail;
    int stated;
} runner_verdict;

/* Reads the job's logs (log_path, then each of lr->logs inside out_dir)
 * into v, which the caller frees with runner_verdict_free, also after
 * -1 (+ err: the case's log cannot be read). */
int runner_read_verdicts(const char *out_dir, const char *log_path, const pr_launch_result *lr,
                         runner_verdict *v, pr_err *err);
void runner_verdict_free(runner_verdict *v);

#endif
