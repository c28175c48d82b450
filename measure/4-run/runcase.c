/* runcase: one case from start to record: the record's fields, the job run
 * with its log, the outcome classified, the record written while the
 * previous run's files are kept aside (runner_int.h). */
#include "runner_int.h"

#include <ctype.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "1-facts/envinfo.h"
#include "fileio.h"

static const char *signal_name(int sig)
{
    static const struct {
        int n;
        const char *s;
    } t[] = {{SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
             {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
             {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
             {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGXCPU, "SIGXCPU"},
             {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"}};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (t[i].n == sig)
            return t[i].s;
    return "?";
}

/* Marks rec failed.  reason and detail may point into rec itself: they are
 * copied before the old values are freed. */
static void set_failed(pr_record *rec, const char *reason, const char *detail)
{
    char *r = pr_xstrdup(reason);
    pr_buf b = PR_BUF_INIT;
    runner_clean_text(&b, detail, strlen(detail));
    rec->failed = 1;
    free(rec->fail_reason);
    free(rec->fail_detail);
    rec->fail_reason = r;
    rec->fail_detail = pr_buf_detach(&b);
}

/* An mpirun --host list may name hosts by address: see runner.h. */
char *runner_scrub_addresses(const char *s)
{
    pr_buf b = PR_BUF_INIT;
    const char *p = s;
    while (*p) {
        size_t n = strspn(p, "0123456789.");
        int bounded = (p == s || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n]);
        if (n >= 7 && bounded) {
            char *tok = pr_xstrndup(p, n);
            int addr = pr_record_is_ip_address(tok) && strncmp(tok, "127.", 4) != 0 &&
                       strcmp(tok, "0.0.0.0") != 0;
            free(tok);
            if (addr) {
                pr_buf_puts(&b, "<address>");
                p += n;
                continue;
            }
        }
        if (n == 0)
            n = 1;
        pr_buf_put(&b, p, n);
        p += n;
    }
    return pr_buf_detach(&b);
}

/* The fields every record of case c has, whatever happened. */
static void record_base(const runner_state *st, const pr_suite_case *c, const pr_job *job,
                        pr_record *rec)
{
    const pr_suite *s = st->s;
    pr_record_init(rec);
    rec->log_file = pr_xstrdup(job->log_rel);
    rec->model_name = pr_xstrdup(s->model_name);
    rec->mission_name = pr_xstrdup(s->mission_name);
    rec->direction_id = s->direction_id;
    snprintf(rec->run_mode, sizeof rec->run_mode, "%s", c->gpus > 1 ? "mp" : "sp");
    rec->index = 1;
    rec->gpu_num = c->gpus;
    rec->unit = pr_xstrdup(s->unit);
    rec->model = pr_xstrdup(s->model);
    rec->framework = pr_xstrdup(s->framework);
    rec->framework_version = pr_xstrdup(st->version ? st->version : s->framework_version);
    rec->case_name = pr_xstrdup(c->name);
    rec->precision = pr_xstrdup(c->precision);
    rec->batch_size = c->batch_size;
    rec->nodes = c->nodes;
    rec->gpus_per_node = c->gpus_per_node;
    rec->repeat = c->repeat;
    rec->seq_len = s->seq_len;
    rec->origin = pr_xstrdup("measured");
    rec->env = pr_xstrdup("env.json");
    rec->rule = json_incref(st->rule_json);
    if (job->argv) {
        rec->command = json_array();
        for (char **a = job->argv; *a; a++) {
            char *w = runner_scrub_addresses(*a);
            json_array_append_new(rec->command, runner_clean_json(w));
            free(w);
        }
    }
}

/* The values the rule may need from the case (per_card scope, per-step
 * conversions); the suite's unit names what the records report. */
pr_parse_args runner_parse_args(const pr_suite *s, const pr_suite_case *c)
{
    pr_parse_args a = {c->gpus, c->batch_size, s->seq_len, s->unit};
    return a;
}

/* Applies the suite's rule to the log of a job that exited 0: fills
 * FINAL_RESULT, stats and metrics, or the failure the rule reports
 * (no_records, too_few_records, parse_error). */
static void analyse_log(runner_state *st, const pr_suite_case *c, const pr_job *job,
                        const pr_launch_result *lr, pr_record *rec)
{
    pr_parse_args a = runner_parse_args(st->s, c);
    pr_parse_result res;
    pr_err e;
    size_t nlogs = 0;
    while (lr->parse[nlogs])
        nlogs++;
    const pr_rule *rule = st->rule;
    if (lr->parts) {
        /* Several tasks' logs read as one, as mpirun's merged log is. */
        if (!st->rule_parts) {
            json_t *j = rule_to_json(st->rule);
            json_object_set_new(j, "files", json_string("parts"));
            if (rule_from_json(j, st->s->path, &st->rule_parts, &e) < 0)
                st->rule_parts = NULL;
            json_decref(j);
        }
        if (st->rule_parts)
            rule = st->rule_parts;
    }
    parse_result_init(&res);
    if (parse_logs(rule, (const char *const *)lr->parse, nlogs, &a, &res, &e) < 0) {
        /* check_inputs ran parse_check_args: not expected. */
        parse_result_clear(&res);
        set_failed(rec, "parse_error", e.msg);
        return;
    }
    parse_to_record(rule, &res, rec);
    if (rule != st->rule) {
        json_decref(rec->rule);
        rec->rule = json_incref(st->rule_json);
    }
    /* Records are published: name the log relative to the run directory,
     * not by this machine's absolute path. */
    const char *d = rec->fail_detail;
    size_t n = strlen(st->out);
    if (d && strncmp(d, st->out, n) == 0 && d[n] == '/') {
        char *rel = pr_xstrdup(d + n + 1);
        free(rec->fail_detail);
        rec->fail_detail = rel;
    }
    (void)job;
}

/* How perfrepro stopped a job it ended (a timeout, the log limit). */
static void put_stopped(pr_buf *d, const runner_state *st, const pr_proc_result *res)
{
    pr_buf_puts(d, "perfrepro sent its process group SIGTERM");
    if (res->killed == 2)
        pr_buf_puts(d, ", then SIGKILL as it went on writing");
    else if (res->killed)
        pr_buf_printf(d, ", then SIGKILL after the grace of %gs", st->o->kill_grace_s);
}

/* Decides what the record says about a job that ran (or tried to); lt:
 * what was kept of a log past its limit. */
static void classify(runner_state *st, const pr_suite_case *c, const pr_job *job,
                     const pr_launch_result *lr, const pr_proc_result *res, const runner_trim *lt,
                     pr_record *rec)
{
    pr_buf d = PR_BUF_INIT;
    pr_err e;
    const char *reason;
    rec->duration_s = res->duration_s;
    rec->exit_status = res->exit_status;
    rec->term_signal = res->term_signal;
    if (res->launch_errno) {
        pr_buf_printf(&d, "cannot run %s: %s", job->argv[0], strerror(res->launch_errno));
        set_failed(rec, "launch_error", pr_buf_cstr(&d));
        goto out;
    }
    if (res->timed_out) {
        reason = "timeout";
        pr_buf_printf(&d, "no exit within %gs: ", st->timeout_s);
        put_stopped(&d, st, res);
        if (lr->job_id)
            pr_buf_printf(&d, ", and Slurm job %s was cancelled", lr->job_id);
    } else if (res->log_limited) {
        reason = "log_limit";
        pr_buf_printf(&d, "its log passed the limit of %lld bytes (%g MiB)", st->log_limit,
                      (double)st->log_limit / 1048576.0);
        if (res->log_stopped) {
            pr_buf_puts(&d, ": ");
            put_stopped(&d, st, res);
        }
        if (lt->dropped > 0)
            pr_buf_printf(&d,
                          "; of its %lld bytes the first %lld and the last %lld are kept "
                          "in %s",
                          lt->size, lt->head, lt->tail, job->log_rel);
        if (lr->job_id && res->log_stopped)
            pr_buf_printf(&d, ", and Slurm job %s was cancelled", lr->job_id);
    } else if (lr->engine_timeout && (res->term_signal || res->exit_status != 0)) {
        reason = "timeout";
        pr_buf_printf(&d, "Slurm ended job %s at its time limit (%gs, the case's timeout)",
                      lr->job_id ? lr->job_id : "?", st->timeout_s);
    } else if (res->term_signal) {
        reason = "signal";
        pr_buf_printf(&d, "killed by signal %d (%s)", res->term_signal,
                      signal_name(res->term_signal));
    } else if (res->exit_status != 0) {
        reason = "exit_status";
        pr_buf_printf(&d, "exited with status %d", res->exit_status);
        if (res->exit_status > 128 && res->exit_status - 128 < 65)
            pr_buf_printf(&d, " (a shell's way of saying a command it ran was killed by %s)",
                          signal_name(res->exit_status - 128));
    } else {
        analyse_log(st, c, job, lr, rec);
        if (!rec->failed)
            goto out;
        reason = rec->fail_reason;
        pr_buf_puts(&d, rec->fail_detail ? rec->fail_detail : rec->fail_reason);
    }
    /* A job that ended any other way than with its records may say why
     * ("PERFREPRO_FAILURE: no_gpu: ...") or may have run out of memory,
     * which its log tells better than an exit status (the log is read for
     * this only when the case failed). */
    runner_verdict v;
    if (runner_read_verdicts(st->out, job->log_path, lr, &v, &e) < 0)
        v.stated = v.has_oom = 0; /* an unreadable log tells nothing more */
    /* What perfrepro stopped stays what it was: the log only adds to it. */
    int stopped = strcmp(reason, "timeout") == 0 || strcmp(reason, "log_limit") == 0;
    if (v.stated && !stopped) {
        pr_buf b = PR_BUF_INIT;
        pr_buf_printf(&b, "%s (%s)", pr_buf_cstr(&v.detail), pr_buf_cstr(&d));
        set_failed(rec, v.reason, pr_buf_cstr(&b));
        pr_buf_free(&b);
        runner_verdict_free(&v);
        goto out;
    }
    if (v.has_oom) {
        pr_buf_printf(&d, "; the log reports: %s", pr_buf_cstr(&v.oom));
        /* A hang after running out of memory is still reported as the
         * timeout it was; the detail names the message. */
        if (!stopped)
            reason = "oom";
    } else if (res->term_signal == SIGKILL && !res->killed) {
        pr_buf_puts(&d, ", not sent by perfrepro: often the kernel's out-of-memory killer");
    }
    runner_verdict_free(&v);
    set_failed(rec, reason, pr_buf_cstr(&d));
out:
    pr_buf_free(&d);
}

typedef struct tick_ctx {
    const runner_state *st;
    const pr_suite_case *c;
} tick_ctx;

static void on_tick(void *ud, double elapsed)
{
    tick_ctx *t = ud;
    pr_run_event ev = {.kind = PR_EV_CASE_TICK,
                       .index = t->st->index + 1,
                       .total = t->st->nsel,
                       .c = t->c,
                       .elapsed_s = elapsed,
                       .eta_s = runner_eta(t->st, elapsed)};
    runner_emit(t->st, &ev);
}

static void on_sample(void *ud, int pgid)
{
    tick_ctx *t = ud;
    if (t->st->cpurt)
        cpurt_sample(t->st->cpurt, (pid_t)pgid);
}

static void on_output(void *ud, const char *data, size_t len)
{
    tick_ctx *t = ud;
    pr_run_event ev = {.kind = PR_EV_OUTPUT,
                       .index = t->st->index + 1,
                       .total = t->st->nsel,
                       .c = t->c,
                       .text = data,
                       .len = len,
                       .eta_s = -1};
    runner_emit(t->st, &ev);
}

/* Says what the job left running that was ended: a warning, and the
 * record's ended_processes ({count, names, survived}).  A case stays as it
 * is (a job that produced its records is ok): its processes are gone. */
static void record_ended(const runner_state *st, const pr_suite_case *c, const pr_proc_result *res,
                         pr_record *rec)
{
    if (res->unkillable)
        runner_warn(st, "%s: processes of the job survived SIGKILL and were left behind", c->name);
    if (!res->ended)
        return;
    pr_buf names = PR_BUF_INIT;
    json_t *o = json_object(), *a = json_array();
    for (size_t i = 0; i < res->nended_names; i++) {
        json_t *n = runner_clean_json(res->ended_names[i]);
        if (!json_string_length(n)) {
            json_decref(n);
            n = json_string("?");
        }
        pr_buf_printf(&names, "%s%s", i ? ", " : "", json_string_value(n));
        json_array_append_new(a, n);
    }
    if (res->ended > res->nended_names && res->nended_names == PR_PROC_NAMES)
        pr_buf_puts(&names, ", ...");
    json_object_set_new(o, "count", json_integer((json_int_t)res->ended));
    json_object_set_new(o, "names", a);
    if (res->survived)
        json_object_set_new(o, "survived", json_integer((json_int_t)res->survived));
    json_decref(rec->ended_processes);
    rec->ended_processes = o;
    runner_warn(st, "%s: %zu process%s it left running (%s) %s ended", c->name, res->ended,
                res->ended == 1 ? "" : "es", pr_buf_cstr(&names), res->ended == 1 ? "was" : "were");
    pr_buf_free(&names);
}

/* Moves what the launcher left (logs, the launch object) into rec. */
static void record_launch(pr_launch_result *lr, pr_record *rec)
{
    free(rec->log_file);
    rec->log_file = pr_xstrdup(lr->log_file);
    if (lr->logs && lr->logs[0] && lr->logs[1]) {
        json_decref(rec->logs);
        rec->logs = json_array();
        for (char **l = lr->logs; *l; l++)
            json_array_append_new(rec->logs, json_string(*l));
    }
    json_decref(rec->launch);
    rec->launch = lr->launch;
    lr->launch = NULL;
}

/* Runs one case and writes its record.  Returns 0 when done, 1 when measure
 * was interrupted (no record: --resume runs the case again), -1 + err when
 * the output directory failed us (the run stops; the case's previous record
 * and logs are as they were). */
int runner_run_case(runner_state *st, const pr_suite_case *c, const pr_job *job, pr_record *rec,
                    pr_err *err)
{
    int rc = -1, fd = -1, had_record = 0, had_log = 0;
    pr_launch_result lr;
    aside old;
    char **outs = launch_outputs(job->plan);
    memset(&lr, 0, sizeof lr);
    memset(&old, 0, sizeof old);
    if (runner_aside_move(&old, job->record_path, err) < 0)
        goto out;
    had_record = old.n > 0;
    if (runner_aside_move(&old, job->log_path, err) < 0)
        goto out;
    had_log = old.n > (size_t)had_record;
    for (char **o = outs; o && *o; o++)
        if (runner_aside_move(&old, *o, err) < 0)
            goto out;
    record_base(st, c, job, rec);
    char when[32];
    envinfo_fmt_utc(time(NULL), when);
    rec->started_at = pr_xstrdup(when);
    /* Nothing is at the path now: O_EXCL|O_NOFOLLOW refuses a file or link
     * planted since rather than writing through it. */
    fd = open(job->log_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        pr_err_errno(err, job->log_path, "cannot create the log");
        goto out;
    }
    if (!job->prepare_error && job->plan && job->plan->script &&
        pr_fileio_write_atomic(job->plan->script_path, job->plan->script, strlen(job->plan->script),
                               err) < 0)
        goto out;
    if (job->prepare_error) {
        rec->duration_s = 0;
        set_failed(rec, "launch_error", job->prepare_error);
    } else {
        tick_ctx t = {st, c};
        pr_proc_spec sp = {.argv = job->argv,
                           .env = job->env,
                           .out_fd = fd,
                           .err_fd = fd,
                           .timeout_s = st->timeout_s,
                           .grace_s = st->o->kill_grace_s,
                           .log_limit = st->log_limit,
                           .tick = on_tick,
                           .sample = on_sample,
                           .ud = &t};
        if (st->cpurt)
            cpurt_settings(st->cpurt, job->env, environ);
        if (st->o->echo) {
            sp.follow_path = job->log_path;
            sp.output = on_output;
        }
        pr_proc_result res;
        pr_err perr;
        if (proc_run(&sp, &res, &perr) < 0) {
            rec->duration_s = 0;
            set_failed(rec, "launch_error", perr.msg);
        } else {
            runner_trim lt;
            memset(&lt, 0, sizeof lt);
            record_ended(st, c, &res, rec);
            /* Stopping sbatch does not stop the batch job it waits for. */
            if (job->plan && job->plan->batch &&
                (res.timed_out || res.log_stopped || res.interrupted || res.term_signal)) {
                char *id = launch_batch_job_id(job->log_path);
                if (id) {
                    launch_stop(id, fd);
                    runner_warn(st, "%s: cancelled Slurm job %s", c->name, id);
                }
                free(id);
            }
            /* Also when interrupted: the partial log that stays is cut too. */
            pr_err terr;
            if (res.log_limited &&
                runner_log_trim(fd, job->log_path, st->log_limit, &lt, &terr) < 0)
                runner_warn(st, "%s: %s", c->name, terr.msg);
            if (res.interrupted) {
                rc = 1;
                goto out;
            }
            launch_collect(job->plan, st->out, job->log_path, job->log_rel,
                           rule_get(st->rule)->rank, &lr);
            record_launch(&lr, rec);
            classify(st, c, job, &lr, &res, &lt, rec);
        }
    }
    if (job->prepare_error || !lr.log_file) {
        /* What the launcher meant to run is still worth recording. */
        launch_collect(job->plan, st->out, job->log_path, job->log_rel, -1, &lr);
        record_launch(&lr, rec);
        free(rec->log_file);
        rec->log_file = pr_xstrdup(job->log_rel);
    }
    if (pr_record_write(job->record_path, rec, err) < 0)
        goto out;
    rc = 0;
out:
    launch_result_free(&lr);
    if (fd >= 0)
        close(fd);
    /* Interrupted: the case has no record (--resume runs it again), and the
     * log of the interrupted job stays. */
    if (rc < 0) {
        /* A previous record without its log must not come back describing
         * the new one. */
        if (had_record && !had_log)
            (void)unlink(job->log_path);
        runner_aside_restore(&old);
    } else
        runner_aside_drop(&old);
    runner_aside_free(&old);
    pr_fileio_strv_free(outs);
    return rc;
}
