/* `perfrepro-measure run`: the command line of the runner.  Parses the
 * options, prints progress (the runner reports through events and never
 * prints) and turns the outcome into the exit status.
 * docs/measure-run.md is the user's reference; keep --help in step. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "4-run/runner.h"
#include "buf.h"
#include "cmd.h"
#include "err.h"
#include "jdoc.h"
#include "record.h"
#include "suite.h"

static const char run_usage[] =
    "usage: perfrepro-measure run SUITE.json [options]\n"
    "\n"
    "Runs every case of the suite's matrix in order, keeps each job's output in\n"
    "DIR/logs/train_log/<case>, parses it with the suite's rule and writes one\n"
    "record per case to DIR/logs/index/<case>_speed; DIR/env.json describes the host.\n"
    "\n"
    "options:\n"
    "  -o, --out DIR        output directory (default: perfrepro-out/<model>/<framework>)\n"
    "      --resume         keep the cases that already have a valid record; run the rest\n"
    "  -n, --dry-run        print each case's command (shell-quoted); run and write nothing\n"
    "      --only PATTERN   run only the cases whose name matches the shell pattern\n"
    "                       (fnmatch; repeatable: a case matching any is run)\n"
    "      --timeout S      seconds a case may run (overrides the suite's timeout_s)\n"
    "      --kill-grace S   seconds between SIGTERM and SIGKILL when a case is stopped\n"
    "                       (default 5)\n"
    "      --log-limit MIB  the most a case's log may grow to, in MiB (overrides the\n"
    "                       suite's log_limit_mib; default 1024): past it the case is\n"
    "                       stopped and fails (log_limit), its log's head and tail kept\n"
    "      --echo           copy each job's output to standard output as well\n"
    "      --launcher NAME  how cases are started: local, mpirun or slurm (default: the\n"
    "                       suite's; docs/multi-node.md)\n"
    "      --master-port N  the {master_port} / MASTER_PORT of the jobs (default 29500)\n"
    "      --ranks MODE     multi-node launchers: per_gpu (a process per GPU) or per_node\n"
    "                       (one per node, e.g. torchrun); default: the suite's \"ranks\"\n"
    "      --hosts LIST     mpirun: the nodes, h1:8,h2:8 (name[:slots], comma-separated)\n"
    "      --hostfile FILE  mpirun: the nodes, from an OpenMPI hostfile\n"
    "      --container KIND none, docker (local), apptainer or pyxis (slurm): run the\n"
    "                       suite's image (default: the suite's \"container\")\n"
    "      --mount SRC[:DST]  containers: one more bind mount (repeatable)\n"
    "      --sbatch-opt OPT slurm, outside an allocation: one more #SBATCH option of the\n"
    "                       batch job, e.g. --sbatch-opt=--partition=gpu (repeatable)\n"
    "      --srun-opt OPT   slurm: one more srun option (repeatable)\n"
    "      --no-gpu-request slurm: do not ask for --gpus-per-node (clusters without GPU\n"
    "                       GRES, or that give whole nodes)\n"
    "  -h, --help           this text\n"
    "\n"
    "exit status: 0 every selected case succeeded; 1 some case failed (see its record's\n"
    "failure); 2 usage, suite, launcher, dataset or output-directory error (nothing\n"
    "was run); 130 / 143 interrupted by SIGINT / SIGTERM (completed records are kept:\n"
    "run again with --resume to finish).\n";

typedef struct progress {
    int tty;       /* stderr is a terminal: a live line */
    int color;     /* colours allowed (a terminal, NO_COLOR unset) */
    int live_open; /* a live line is on screen, without its newline */
    int echo;
} progress;

/* Shows line as the live line, cut to the terminal's width so that it
 * never wraps (a wrapped line cannot be redrawn in place). */
static void show_live(progress *p, const char *line)
{
    struct winsize ws;
    size_t cols = 80;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
        cols = ws.ws_col;
    size_t n = strlen(line);
    fprintf(stderr, "\r\033[K%.*s", (int)(n < cols - 1 ? n : cols - 1), line);
    p->live_open = 1;
}

static void clear_live(progress *p)
{
    if (p->live_open) {
        fputs("\r\033[K", stderr);
        p->live_open = 0;
    }
}

static const char *paint(const progress *p, const char *code)
{
    return p->color ? code : "";
}

/* "[i/N] case" */
static void put_head(pr_buf *b, const pr_run_event *ev)
{
    pr_buf_printf(b, "[%zu/%zu] %s", ev->index, ev->total, ev->c->name);
}

static void put_eta(pr_buf *b, double eta)
{
    char t[32];
    if (eta < 0) {
        pr_buf_puts(b, ", ETA ?");
        return;
    }
    runner_fmt_duration(eta, t);
    pr_buf_printf(b, ", ETA %s", t);
}

static void put_outcome(pr_buf *b, const progress *p, const pr_record *r)
{
    if (!r->failed)
        pr_buf_printf(b, "%sok%s %.6g %s", paint(p, "\033[32m"), paint(p, "\033[0m"),
                      r->final_result, r->unit ? r->unit : "");
    else
        pr_buf_printf(b, "%sFAILED%s %s%s%s", paint(p, "\033[31m"), paint(p, "\033[0m"),
                      r->fail_reason, r->fail_detail ? ": " : "",
                      r->fail_detail ? r->fail_detail : "");
}

static void on_event(const pr_run_event *ev, void *ud)
{
    progress *p = ud;
    pr_buf b = PR_BUF_INIT;
    char t[32];
    switch (ev->kind) {
    case PR_EV_DATASET:
        clear_live(p);
        fprintf(stderr, "checking %s\n", ev->text);
        break;
    case PR_EV_DRY:
        pr_buf_printf(&b, "# [%zu/%zu] %s", ev->index, ev->total, ev->c->name);
        if (ev->skipped)
            pr_buf_puts(&b, " (--resume keeps its valid record)");
        if (ev->job->prepare_error)
            pr_buf_printf(&b, " (would fail: %s)", ev->job->prepare_error);
        pr_buf_putc(&b, '\n');
        if (ev->job->argv) {
            runner_job_format(ev->job, &b);
            pr_buf_putc(&b, '\n');
        }
        fputs(pr_buf_cstr(&b), stdout);
        break;
    case PR_EV_CASE_START:
        clear_live(p);
        put_head(&b, ev);
        if (p->tty && !p->echo) {
            pr_buf_puts(&b, " running");
            put_eta(&b, ev->eta_s);
            show_live(p, pr_buf_cstr(&b));
        } else if (p->echo) {
            fprintf(stderr, "%s started\n", pr_buf_cstr(&b));
        }
        break;
    case PR_EV_CASE_TICK:
        if (!p->tty || p->echo)
            break;
        put_head(&b, ev);
        runner_fmt_duration(ev->elapsed_s, t);
        pr_buf_printf(&b, " ... elapsed %s", t);
        put_eta(&b, ev->eta_s);
        show_live(p, pr_buf_cstr(&b));
        break;
    case PR_EV_OUTPUT:
        fwrite(ev->text, 1, ev->len, stdout);
        fflush(stdout);
        break;
    case PR_EV_CASE_DONE:
        clear_live(p);
        put_head(&b, ev);
        pr_buf_putc(&b, ' ');
        if (ev->skipped) {
            pr_buf_puts(&b, "kept (--resume): ");
            put_outcome(&b, p, ev->rec);
        } else {
            put_outcome(&b, p, ev->rec);
            runner_fmt_duration(ev->elapsed_s, t);
            pr_buf_printf(&b, ", elapsed %s", t);
            if (ev->index < ev->total)
                put_eta(&b, ev->eta_s);
        }
        fprintf(stderr, "%s\n", pr_buf_cstr(&b));
        break;
    case PR_EV_WARN:
        clear_live(p);
        fprintf(stderr, "perfrepro-measure: %swarning%s: %s\n", paint(p, "\033[33m"),
                paint(p, "\033[0m"), ev->text);
        break;
    }
    fflush(stderr);
    pr_buf_free(&b);
}

/* Parses a number of seconds: finite, and > 0 (or >= 0 when zero_ok). */
static int parse_seconds(const char *opt, const char *s, int zero_ok, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < 0 || (v == 0 && !zero_ok)) {
        fprintf(stderr,
                "perfrepro-measure run: %s: expected a number of seconds %s 0, got "
                "\"%s\"\n",
                opt, zero_ok ? ">=" : ">", s);
        return -1;
    }
    *out = v;
    return 0;
}

/* Parses --log-limit: a number of MiB within the range a suite's
 * log_limit_mib takes. */
static int parse_mib(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < PR_SUITE_LOG_LIMIT_MIN_MIB ||
        v > PR_SUITE_LOG_LIMIT_MAX_MIB) {
        fprintf(stderr,
                "perfrepro-measure run: --log-limit: expected a number of MiB from %g "
                "to %g, got \"%s\"\n",
                PR_SUITE_LOG_LIMIT_MIN_MIB, PR_SUITE_LOG_LIMIT_MAX_MIB, s);
        return -1;
    }
    *out = v;
    return 0;
}

static void print_summary(const pr_run_summary *sum, const char *out)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_printf(&b, "perfrepro-measure: %zu case%s: %zu ok, %zu failed", sum->selected,
                  sum->selected == 1 ? "" : "s", sum->ok, sum->failed);
    int first = 1;
    for (size_t i = 0; i < PR_RUN_NREASONS && pr_fail_reasons[i]; i++) {
        if (!sum->by_reason[i])
            continue;
        pr_buf_printf(&b, "%s%s %zu", first ? " (" : ", ", pr_fail_reasons[i], sum->by_reason[i]);
        first = 0;
    }
    if (!first)
        pr_buf_putc(&b, ')');
    if (sum->skipped)
        pr_buf_printf(&b, ", %zu kept from before", sum->skipped);
    size_t left = sum->selected - sum->ok - sum->failed;
    if (left)
        pr_buf_printf(&b, ", %zu not run", left);
    pr_buf_printf(&b, "; output: %s\n", out);
    if (sum->interrupted) {
        pr_buf_printf(&b, "perfrepro-measure: interrupted by signal %d (%s)", sum->interrupted,
                      sum->interrupted == SIGINT    ? "SIGINT"
                      : sum->interrupted == SIGTERM ? "SIGTERM"
                                                    : "SIGHUP");
        if (sum->interrupted_case)
            pr_buf_printf(&b, " during %s, which has no record", sum->interrupted_case);
        pr_buf_puts(&b, "; the completed records are kept: run again with --resume to finish\n");
    }
    fputs(pr_buf_cstr(&b), stderr);
    pr_buf_free(&b);
}

static void run_usage_print(FILE *f)
{
    fputs(run_usage, f);
}

const pr_cli_command cmd_run_command = {
    "run", cmd_run, NULL, "run a suite's cases and write one record per case", run_usage_print};

int cmd_run(int argc, char **argv)
{
    int status = 2;
    pr_suite *suite = NULL;
    char *out_default = NULL;
    /* Room for every argument: a list option may be given that often. */
    const char **only = pr_xcalloc((size_t)argc, sizeof *only);
    const char **mounts = pr_xcalloc((size_t)argc, sizeof *mounts);
    const char **sbatch = pr_xcalloc((size_t)argc, sizeof *sbatch);
    const char **srun = pr_xcalloc((size_t)argc, sizeof *srun);
    size_t nonly = 0, nmounts = 0, nsbatch = 0, nsrun = 0;
    const char *timeout = NULL, *grace = NULL, *loglim = NULL, *port = NULL;
    pr_run_opts o;
    memset(&o, 0, sizeof o);
    o.kill_grace_s = 5;
    progress prog;
    memset(&prog, 0, sizeof prog);
    const pr_cli_option opts[] = {
        {"--out", 'o', .value = &o.out_dir},
        {"--resume", .flag = &o.resume},
        {"--dry-run", 'n', .flag = &o.dry_run},
        {"--only", .list = only, .count = &nonly},
        {"--timeout", .value = &timeout},
        {"--kill-grace", .value = &grace},
        {"--log-limit", .value = &loglim},
        {"--echo", .flag = &o.echo},
        {"--launcher", .value = &o.launcher},
        {"--master-port", .value = &port},
        {"--ranks", .value = &o.launch.ranks},
        {"--hosts", .value = &o.launch.hosts},
        {"--hostfile", .value = &o.launch.hostfile},
        {"--container", .value = &o.launch.container},
        {"--mount", .list = mounts, .count = &nmounts},
        {"--sbatch-opt", .list = sbatch, .count = &nsbatch},
        {"--srun-opt", .list = srun, .count = &nsrun},
        {"--no-gpu-request", .flag = &o.launch.no_gpu_request},
    };
    int first;
    int parsed = pr_cli_parse_args("perfrepro-measure", &cmd_run_command, opts,
                                   sizeof opts / sizeof *opts, argc, argv, &first);
    if (parsed != CLI_OK) {
        status = pr_cli_status(parsed);
        goto out;
    }
    if ((timeout && parse_seconds("--timeout", timeout, 0, &o.timeout_s) < 0) ||
        (grace && parse_seconds("--kill-grace", grace, 1, &o.kill_grace_s) < 0) ||
        (loglim && parse_mib(loglim, &o.log_limit_mib) < 0))
        goto out;
    if (port) {
        char *end;
        errno = 0;
        long v = strtol(port, &end, 10);
        if (errno || end == port || *end || v < 1 || v > 65535) {
            fprintf(stderr,
                    "perfrepro-measure run: --master-port: expected a port from 1 "
                    "to 65535, got \"%s\"\n",
                    port);
            goto out;
        }
        o.master_port = (int)v;
    }
    /* The suite may come before or after the options. */
    if (argc - first != 1) {
        status = pr_cli_usage_error("perfrepro-measure", &cmd_run_command,
                                    argc - first > 1 ? "one suite at a time"
                                                     : "which suite? (SUITE.json)");
        goto out;
    }
    const char *suite_path = argv[first];
    pr_err err;
    pr_jdoc_json_init();
    if (pr_suite_load(suite_path, &suite, &err) < 0) {
        fprintf(stderr, "perfrepro-measure run: %s\n", err.msg);
        goto out;
    }
    if (!o.out_dir) {
        out_default = pr_xasprintf("perfrepro-out/%s/%s", suite->model, suite->framework);
        o.out_dir = out_default;
    }
    /* argv's strings: the runner keeps them as char *const *. */
    o.only = (char *const *)only;
    o.nonly = nonly;
    o.launch.mounts = (char *const *)mounts;
    o.launch.nmounts = nmounts;
    o.launch.sbatch_opts = (char *const *)sbatch;
    o.launch.nsbatch = nsbatch;
    o.launch.srun_opts = (char *const *)srun;
    o.launch.nsrun = nsrun;
    const char *nc = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    prog.tty = isatty(STDERR_FILENO) && !(term && strcmp(term, "dumb") == 0);
    prog.color = prog.tty && !(nc && *nc);
    prog.echo = o.echo;
    o.event = on_event;
    o.ud = &prog;
    pr_run_summary sum;
    if (runner_suite(suite, &o, &sum, &err) < 0) {
        clear_live(&prog);
        fprintf(stderr, "perfrepro-measure run: %s\n", err.msg);
        goto out;
    }
    if (o.dry_run) {
        status = 0;
        goto out;
    }
    print_summary(&sum, o.out_dir);
    status = sum.interrupted ? 128 + sum.interrupted : sum.failed ? 1 : 0;
out:
    pr_suite_free(suite);
    free(out_default);
    free((void *)only);
    free((void *)mounts);
    free((void *)sbatch);
    free((void *)srun);
    return status;
}
