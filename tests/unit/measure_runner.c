/* Unit tests of the runner's parts: MD5, shell quoting, job building
 * (templates, environment, launchers), processes (exit, signal, launch
 * error, timeout with a grandchild, leftovers in the group and escaped from
 * it, the log limit), the record's ended_processes, out-of-memory detection,
 * formatting, the environment record and its schema (lib/envrec.c), and
 * what a suite may ask of the runner (safe case names, placeholders of a
 * shell command outside quotes).  The suite-level behaviour is tested end to
 * end by tests/scripts/measure_run_*.sh and hostile_measure_fs.sh.  No test
 * depends on the machine's speed: a timeout is either what is tested (and
 * the job hangs forever) or far beyond what the job takes. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "1-facts/envinfo.h"
#include "1-facts/logscan.h"
#include "4-run/runner.h"
#include "buf.h"
#include "envrec.h"
#include "fileio.h"
#include "jdoc.h"
#include "md5.h"
#include "record.h"
#include "suite.h"

/* ---- helpers ---- */

static char tmpdir[64];

static void mk_tmpdir(void)
{
    strcpy(tmpdir, "/tmp/pr-runner-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void rm_tmpdir(void)
{
    char *cmd = pr_xasprintf("rm -rf '%s'", tmpdir);
    cr_assert_eq(system(cmd), 0);
    free(cmd);
}

static char *write_tmp(const char *name, const char *text)
{
    char *p = pr_fileio_path_join(tmpdir, name);
    pr_err e;
    cr_assert_eq(pr_fileio_write_atomic(p, text, strlen(text), &e), 0, "%s", e.msg);
    return p;
}

static char *md5_of(const char *s)
{
    static char hex[33];
    pr_md5 m;
    unsigned char d[16];
    pr_md5_init(&m);
    pr_md5_update(&m, s, strlen(s));
    pr_md5_final(&m, d);
    pr_md5_hex(d, hex);
    return hex;
}

/* Runs `sh -c CMD` and returns its stdout (malloc'd). */
static char *sh_output(const char *cmd)
{
    FILE *f = popen(cmd, "r");
    cr_assert_not_null(f);
    pr_buf b = PR_BUF_INIT;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        pr_buf_put(&b, buf, n);
    pclose(f);
    return pr_buf_detach(&b);
}

/* ---- MD5 ---- */

Test(md5, rfc1321_vectors)
{
    cr_assert_str_eq(md5_of(""), "d41d8cd98f00b204e9800998ecf8427e");
    cr_assert_str_eq(md5_of("a"), "0cc175b9c0f1b6a831c399e269772661");
    cr_assert_str_eq(md5_of("abc"), "900150983cd24fb0d6963f7d28e17f72");
    cr_assert_str_eq(md5_of("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
    cr_assert_str_eq(md5_of("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
    cr_assert_str_eq(md5_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
                     "d174ab98d277d9f5a5611c2c9f419d9f");
    cr_assert_str_eq(md5_of("1234567890123456789012345678901234567890123456789012345678901234"
                            "5678901234567890"),
                     "57edf4a22be3c955ac49da2e2107b67a");
}

Test(md5, pieces_equal_whole)
{
    /* Lengths around the 55/56/64-byte padding edges, fed in odd pieces. */
    char data[300];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (char)(i * 7 + 3);
    size_t lens[] = {0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 300};
    for (size_t k = 0; k < sizeof lens / sizeof *lens; k++) {
        unsigned char d1[16], d2[16];
        pr_md5 m;
        pr_md5_init(&m);
        pr_md5_update(&m, data, lens[k]);
        pr_md5_final(&m, d1);
        pr_md5_init(&m);
        for (size_t off = 0, step = 1; off < lens[k]; off += step, step = step % 13 + 1)
            pr_md5_update(&m, data + off, off + step > lens[k] ? lens[k] - off : step);
        pr_md5_final(&m, d2);
        cr_assert_arr_eq(d1, d2, 16, "length %zu", lens[k]);
    }
}

Test(md5, file_and_errors, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    /* 1,000,000 x 'a': the classic long vector, across read chunks. */
    char *p = pr_fileio_path_join(tmpdir, "million");
    char *a = pr_xmalloc(1000000);
    memset(a, 'a', 1000000);
    pr_err e;
    cr_assert_eq(pr_fileio_write_atomic(p, a, 1000000, &e), 0);
    char hex[33];
    cr_assert_eq(pr_md5_file(p, hex, NULL, &e), 0, "%s", e.msg);
    cr_assert_str_eq(hex, "7707d6ae4e027c70eea2a935c2296f21");
    char *missing = pr_fileio_path_join(tmpdir, "missing");
    cr_assert_eq(pr_md5_file(missing, hex, NULL, &e), -1);
    cr_assert(strstr(e.msg, "No such file") != NULL, "%s", e.msg);
    cr_assert_eq(pr_md5_file(tmpdir, hex, NULL, &e), -1);
    cr_assert(strstr(e.msg, "directory") != NULL, "%s", e.msg);
    volatile sig_atomic_t stop = 1;
    cr_assert_eq(pr_md5_file(p, hex, &stop, &e), -1);
    cr_assert(strstr(e.msg, "interrupted") != NULL, "%s", e.msg);
    free(a);
    free(p);
    free(missing);
}

Test(md5, fifo_is_refused_without_blocking, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    /* Hardening: a dataset path that is a FIFO blocked the run forever
     * before any case. */
    char *p = pr_fileio_path_join(tmpdir, "fifo");
    cr_assert_eq(mkfifo(p, 0600), 0);
    char hex[33];
    pr_err e;
    cr_assert_eq(pr_md5_file(p, hex, NULL, &e), -1);
    cr_assert(strstr(e.msg, "FIFO") != NULL, "%s", e.msg);
    free(p);
}

/* ---- shell quoting ---- */

Test(shell_quote, plain_words_unchanged)
{
    const char *plain[] = {"abc", "/usr/bin/python3", "--lr=0.1", "a,b:c@d%e+f", "0,1,2"};
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i++) {
        pr_buf b = PR_BUF_INIT;
        runner_shell_quote(plain[i], &b);
        cr_assert_str_eq(pr_buf_cstr(&b), plain[i]);
        pr_buf_free(&b);
    }
    pr_buf b = PR_BUF_INIT;
    runner_shell_quote("", &b);
    cr_assert_str_eq(pr_buf_cstr(&b), "''");
    pr_buf_clear(&b);
    runner_shell_quote("it's", &b);
    cr_assert_str_eq(pr_buf_cstr(&b), "'it'\\''s'");
    pr_buf_free(&b);
}

Test(shell_quote, hostile_values_survive_sh, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    const char *hostile[] = {"'; rm -rf / #",
                             "$(id)",
                             "`id`",
                             "a b",
                             "\"x\"",
                             "\\",
                             "a\nb",
                             "*",
                             "~",
                             "!",
                             "$HOME",
                             ";&|<>()",
                             "''",
                             "'",
                             "-n",
                             "\t",
                             "x'$(touch PWNED)'y"};
    for (size_t i = 0; i < sizeof hostile / sizeof *hostile; i++) {
        pr_buf cmd = PR_BUF_INIT;
        pr_buf_printf(&cmd, "cd '%s' && printf '%%s|' ", tmpdir);
        runner_shell_quote(hostile[i], &cmd);
        char *got = sh_output(pr_buf_cstr(&cmd));
        char *want = pr_xasprintf("%s|", hostile[i]);
        cr_assert_str_eq(got, want, "value #%zu", i);
        free(got);
        free(want);
        pr_buf_free(&cmd);
    }
    char *pwned = pr_fileio_path_join(tmpdir, "PWNED");
    cr_assert_not(pr_fileio_is_file(pwned), "a quoted value ran a command");
    free(pwned);
}

/* ---- jobs ---- */

static pr_suite *load_suite(const char *json)
{
    char *p = write_tmp("suite.json", json);
    pr_suite *s = NULL;
    pr_err e;
    pr_jdoc_json_init();
    cr_assert_eq(pr_suite_load(p, &s, &e), 0, "%s", e.msg);
    free(p);
    return s;
}

static const char *env_get(char **env, const char *name)
{
    size_t n = strlen(name);
    for (; env && *env; env++)
        if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
            return *env + n + 1;
    return NULL;
}

#define SUITE_HEAD                                                                                 \
    "{\"perfrepro\": 1, \"model\": \"M\", \"framework\": \"F\", \"model_name\": \"m n\", "         \
    "\"mission_name\": \"x\", \"direction_id\": 0, \"unit\": \"samples/s\", "                      \
    "\"case_name\": \"c{gpus}\", \"rule\": {\"keyword\": \"ips:\", \"scope\": \"global\"}, "

Test(job, argv_env_and_runner_vars, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(
        SUITE_HEAD "\"command\": [\"run.sh\", \"{model_name}\", \"--bs={batch_size}\", "
                   "\"{master_addr}:{master_port}\", \"{world_size}\", \"{node_rank}\", "
                   "\"{local_rank}\", \"[{hostfile}]\", \"{log_file}\", \"{log_dir}\", "
                   "\"{workdir}\", \"{{literal}}\"], "
                   "\"env\": {\"A\": \"{precision}-{gpus}\"},"
                   "\"matrix\": {\"nodes\": [1], \"gpus_per_node\": [4], \"batch_size\": [32], "
                   "\"precision\": [\"amp\"]}}");
    pr_job_ctx ctx = {launch_find("local"), "/out", "/work", NULL, 29511, NULL, 0};
    pr_job job;
    pr_err e;
    cr_assert_eq(runner_job_build(s, &s->cases[0], &ctx, &job, &e), 0, "%s", e.msg);
    cr_assert_null(job.prepare_error);
    const char *want[] = {
        "run.sh", "m n",       "--bs=32", "127.0.0.1:29511",        "4",
        "0",      "0",         "[]",      "/out/logs/train_log/c4", "/out/logs/train_log",
        "/work",  "{literal}", NULL};
    size_t i = 0;
    for (; job.argv[i]; i++) {
        cr_assert_not_null(want[i], "extra argument %s", job.argv[i]);
        cr_assert_str_eq(job.argv[i], want[i]);
    }
    cr_assert_null(want[i], "missing argument %s", want[i]);
    cr_assert_str_eq(env_get(job.env, "A"), "amp-4");
    cr_assert_str_eq(env_get(job.env, "CUDA_VISIBLE_DEVICES"), "0,1,2,3");
    cr_assert_str_eq(env_get(job.env, "PERFREPRO_CASE"), "c4");
    cr_assert_str_eq(env_get(job.env, "PERFREPRO_LOG"), "/out/logs/train_log/c4");
    cr_assert_str_eq(job.log_rel, "logs/train_log/c4");
    cr_assert_str_eq(job.record_path, "/out/logs/index/c4_speed");
    runner_job_free(&job);
    pr_suite_free(s);
}

Test(job, visible_devices, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(
        SUITE_HEAD "\"command\": [\"x\"], "
                   "\"matrix\": {\"nodes\": [1], \"gpus_per_node\": [1, 2], \"batch_size\": [1], "
                   "\"precision\": [\"fp32\"]}}");
    pr_job_ctx ctx = {launch_find("local"), "/o", "/w", "GPU-a,GPU-b,GPU-c", 29500, NULL, 0};
    pr_job job;
    pr_err e;
    cr_assert_eq(runner_job_build(s, &s->cases[1], &ctx, &job, &e), 0);
    cr_assert_str_eq(env_get(job.env, "CUDA_VISIBLE_DEVICES"), "GPU-a,GPU-b");
    runner_job_free(&job);
    ctx.parent_cvd = "7";
    cr_assert_eq(runner_job_build(s, &s->cases[0], &ctx, &job, &e), 0);
    cr_assert_str_eq(env_get(job.env, "CUDA_VISIBLE_DEVICES"), "7");
    runner_job_free(&job);
    cr_assert_eq(runner_job_build(s, &s->cases[1], &ctx, &job, &e), 0);
    cr_assert_not_null(job.prepare_error, "2 GPUs from a list of 1");
    cr_assert(strstr(job.prepare_error, "lists 1") != NULL, "%s", job.prepare_error);
    runner_job_free(&job);
    pr_suite_free(s);

    /* The suite's own CUDA_VISIBLE_DEVICES wins and is not doubled. */
    s = load_suite(SUITE_HEAD "\"command\": [\"x\"], \"env\": {\"CUDA_VISIBLE_DEVICES\": "
                              "\"{gpu_list}\", \"PERFREPRO_CASE\": \"mine\"}, "
                              "\"matrix\": {\"nodes\": [1], \"gpus_per_node\": [3], "
                              "\"batch_size\": [1], \"precision\": [\"fp32\"]}}");
    ctx.parent_cvd = "5";
    cr_assert_eq(runner_job_build(s, &s->cases[0], &ctx, &job, &e), 0);
    cr_assert_null(job.prepare_error);
    size_t n = 0;
    for (char **v = job.env; *v; v++)
        n += strncmp(*v, "CUDA_VISIBLE_DEVICES=", 21) == 0;
    cr_assert_eq(n, 1);
    cr_assert_str_eq(env_get(job.env, "CUDA_VISIBLE_DEVICES"), "0,1,2");
    cr_assert_str_neq(env_get(job.env, "PERFREPRO_CASE"), "mine");
    runner_job_free(&job);
    pr_suite_free(s);
}

Test(job, shell_mode_quotes_values, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s =
        load_suite("{\"perfrepro\": 1, \"model\": \"M\", \"framework\": \"F\", "
                   "\"model_name\": \"'; touch PWNED # $(touch PWNED2)\", \"case_name\": \"c\", "
                   "\"mission_name\": \"x\", \"direction_id\": 0, \"unit\": \"samples/s\", "
                   "\"rule\": {\"keyword\": \"ips:\", \"scope\": \"global\"}, \"shell\": true, "
                   "\"command\": [\"printf '%s|' {model_name} {batch_size} > out.txt\"], "
                   "\"matrix\": {\"nodes\": [1], \"gpus_per_node\": [1], \"batch_size\": [8], "
                   "\"precision\": [\"fp32\"]}}");
    pr_job_ctx ctx = {launch_find("local"), tmpdir, tmpdir, NULL, 29500, NULL, 0};
    pr_job job;
    pr_err e;
    cr_assert_eq(runner_job_build(s, &s->cases[0], &ctx, &job, &e), 0, "%s", e.msg);
    cr_assert_str_eq(job.argv[0], "/bin/sh");
    cr_assert_str_eq(job.argv[1], "-c");
    cr_assert_null(job.argv[3]);
    /* Run it for real and see what printf got. */
    pr_buf cmd = PR_BUF_INIT;
    pr_buf_printf(&cmd, "cd '%s' && /bin/sh -c ", tmpdir);
    runner_shell_quote(job.argv[2], &cmd);
    pr_buf_puts(&cmd, " && cat out.txt");
    char *got = sh_output(pr_buf_cstr(&cmd));
    cr_assert_str_eq(got, "'; touch PWNED # $(touch PWNED2)|8|");
    char *p1 = pr_fileio_path_join(tmpdir, "PWNED"), *p2 = pr_fileio_path_join(tmpdir, "PWNED2");
    cr_assert_not(pr_fileio_is_file(p1));
    cr_assert_not(pr_fileio_is_file(p2));
    free(p1);
    free(p2);
    free(got);
    pr_buf_free(&cmd);
    runner_job_free(&job);
    pr_suite_free(s);
}

Test(job, format_is_a_shell_line, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(SUITE_HEAD "\"command\": [\"echo\", \"a b\", \"{case}\"], "
                                        "\"env\": {\"V\": \"x y\"}, "
                                        "\"matrix\": {\"nodes\": [1], \"gpus_per_node\": [1], "
                                        "\"batch_size\": [1], \"precision\": [\"fp32\"]}}");
    pr_job_ctx ctx = {launch_find("local"), "/o", "/w", NULL, 29500, NULL, 0};
    pr_job job;
    pr_err e;
    cr_assert_eq(runner_job_build(s, &s->cases[0], &ctx, &job, &e), 0);
    pr_buf b = PR_BUF_INIT;
    runner_job_format(&job, &b);
    cr_assert_str_eq(pr_buf_cstr(&b), "V='x y' CUDA_VISIBLE_DEVICES=0 PERFREPRO_CASE=c1 "
                                      "PERFREPRO_LOG=/o/logs/train_log/c1 echo 'a b' c1");
    pr_buf_free(&b);
    runner_job_free(&job);
    pr_suite_free(s);
}

Test(job, local_launcher_refuses_multi_node, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(SUITE_HEAD "\"command\": [\"x\"], \"matrix\": {\"nodes\": [2], "
                                        "\"gpus_per_node\": [8], \"batch_size\": [1], "
                                        "\"precision\": [\"fp32\"]}}");
    pr_job_ctx ctx = {launch_find("local"), "/o", "/w", NULL, 29500, NULL, 0};
    pr_job job;
    pr_err e;
    cr_assert_eq(runner_job_build(s, &s->cases[0], &ctx, &job, &e), 0);
    cr_assert_not_null(job.prepare_error);
    cr_assert(strstr(job.prepare_error, "2 nodes") != NULL, "%s", job.prepare_error);
    cr_assert_null(job.argv);
    runner_job_free(&job);
    pr_suite_free(s);
    cr_assert_null(launch_find("nosuch"));
}

Test(job, bad_env_name, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(SUITE_HEAD "\"command\": [\"x\"], \"env\": {\"A=B\": \"1\"}, "
                                        "\"matrix\": {\"nodes\": [1], \"gpus_per_node\": [1], "
                                        "\"batch_size\": [1], \"precision\": [\"fp32\"]}}");
    pr_job_ctx ctx = {launch_find("local"), "/o", "/w", NULL, 29500, NULL, 0};
    pr_job job;
    pr_err e;
    cr_assert_eq(runner_job_build(s, &s->cases[0], &ctx, &job, &e), -1);
    cr_assert(strstr(e.msg, "A=B") != NULL, "%s", e.msg);
    runner_job_free(&job);
    pr_suite_free(s);
}

/* ---- processes ---- */

static void signals_on(void)
{
    pr_err e;
    cr_assert_eq(proc_runner_signals_install(&e), 0);
    mk_tmpdir();
}

static void signals_off(void)
{
    proc_runner_signals_restore();
    rm_tmpdir();
}

/* Runs `sh -c script` with its output in OUT (read back into *out), the
 * grace and log limit given. */
static pr_proc_result run_sh_limits(const char *script, double timeout, double grace,
                                    long long log_limit, char **env, char **out)
{
    char *path = pr_fileio_path_join(tmpdir, "out");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    cr_assert(fd >= 0);
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    pr_proc_spec sp = {.argv = argv,
                       .env = env,
                       .out_fd = fd,
                       .err_fd = fd,
                       .timeout_s = timeout,
                       .grace_s = grace,
                       .log_limit = log_limit};
    pr_proc_result res;
    pr_err e;
    cr_assert_eq(proc_run(&sp, &res, &e), 0, "%s", e.msg);
    close(fd);
    if (out) {
        pr_buf b = PR_BUF_INIT;
        cr_assert_eq(pr_fileio_read_file(path, &b, &e), 0);
        *out = pr_buf_detach(&b);
    }
    free(path);
    return res;
}

/* Runs `sh -c script` (grace 0.2 s, no log limit). */
static pr_proc_result run_sh(const char *script, double timeout, char **env, char **out)
{
    return run_sh_limits(script, timeout, 0.2, 0, env, out);
}

Test(proc, exit_status_and_output, .init = signals_on, .fini = signals_off)
{
    char *out = NULL;
    pr_proc_result r = run_sh("echo out; echo err >&2; exit 7", 10, NULL, &out);
    cr_assert_eq(r.exit_status, 7);
    cr_assert_eq(r.term_signal, 0);
    cr_assert_not(r.timed_out);
    cr_assert_eq(r.launch_errno, 0);
    cr_assert_str_eq(out, "out\nerr\n");
    free(out);
}

Test(proc, signal, .init = signals_on, .fini = signals_off)
{
    pr_proc_result r = run_sh("kill -SEGV $$", 10, NULL, NULL);
    cr_assert_eq(r.term_signal, SIGSEGV);
    cr_assert_eq(r.exit_status, -1);
}

Test(proc, environment, .init = signals_on, .fini = signals_off)
{
    setenv("PR_TEST_KEEP", "kept", 1);
    setenv("PR_TEST_OVER", "old", 1);
    char *env[] = {"PR_TEST_OVER=new", "PR_TEST_NEW=x y", NULL};
    char *out = NULL;
    run_sh("echo \"$PR_TEST_KEEP $PR_TEST_OVER $PR_TEST_NEW\"; read x || echo eof", 10, env, &out);
    /* stdin is /dev/null: read sees end of file at once. */
    cr_assert_str_eq(out, "kept new x y\neof\n");
    free(out);
}

Test(proc, launch_error, .init = signals_on, .fini = signals_off)
{
    char *argv[] = {"/nonexistent/program", NULL};
    pr_proc_spec sp = {.argv = argv, .out_fd = 1, .err_fd = 2, .timeout_s = 5, .grace_s = 0.1};
    pr_proc_result r;
    pr_err e;
    cr_assert_eq(proc_run(&sp, &r, &e), 0);
    cr_assert_eq(r.launch_errno, ENOENT);
    char *argv2[] = {"no-such-program-in-path-perfrepro", NULL};
    sp.argv = argv2;
    cr_assert_eq(proc_run(&sp, &r, &e), 0);
    cr_assert_eq(r.launch_errno, ENOENT);
}

Test(proc, timeout_with_grandchild_holding_output, .init = signals_on, .fini = signals_off)
{
    /* The grandchild keeps the output open and ignores SIGTERM like its
     * parent: only SIGKILL to the group ends them, and waiting must not
     * depend on the output being closed.  The timeout leaves the shell
     * ample time to start them; the sleeps are far longer than any bound
     * below, so a slow machine cannot pass for a wait on the grandchild. */
    char *out = NULL;
    char *pidfile = pr_fileio_path_join(tmpdir, "pid");
    char *script = pr_xasprintf("trap '' TERM; echo started; sleep 300 & echo $! > '%s'; "
                                "sleep 300",
                                pidfile);
    pr_proc_result r = run_sh(script, 3, NULL, &out);
    cr_assert(r.timed_out);
    cr_assert_eq(r.term_signal, SIGKILL);
    cr_assert_eq(r.killed, 1, "the runner's SIGKILL after the grace is not said to be its own");
    cr_assert(r.duration_s >= 3 && r.duration_s < 150, "duration %g", r.duration_s);
    cr_assert_str_eq(out, "started\n");
    pr_buf b = PR_BUF_INIT;
    pr_err e;
    cr_assert_eq(pr_fileio_read_file(pidfile, &b, &e), 0, "%s", e.msg);
    long gc = strtol(pr_buf_cstr(&b), NULL, 10);
    cr_assert(gc > 0);
    cr_assert_eq(kill((pid_t)gc, 0), -1, "the grandchild %ld survived", gc);
    pr_buf_free(&b);
    free(pidfile);
    free(script);
    free(out);
}

Test(proc, leftovers_of_a_finished_job_are_ended, .init = signals_on, .fini = signals_off)
{
    /* Waiting for the sleep would last until the timeout (200 s). */
    pr_proc_result r = run_sh("sleep 300 & exit 0", 200, NULL, NULL);
    cr_assert_eq(r.exit_status, 0);
    cr_assert_not(r.timed_out);
    cr_assert(r.stray, "the background sleep was not noticed");
    cr_assert(r.duration_s < 150, "waited %g s for the background sleep", r.duration_s);
    /* Counted among the processes ended (the record's ended_processes). */
    cr_assert_eq(r.ended, 1, "ended %zu", r.ended);
    cr_assert_eq(r.nended_names, 1);
    cr_assert_str_eq(r.ended_names[0], "sleep");
}

Test(proc, a_sigkill_from_elsewhere_is_not_the_runners, .init = signals_on, .fini = signals_off)
{
    pr_proc_result r = run_sh("kill -KILL $$", 200, NULL, NULL);
    cr_assert_eq(r.term_signal, SIGKILL);
    cr_assert_eq(r.killed, 0);
    cr_assert_not(r.timed_out);
}

/* 1 while a process pid exists that is not a zombie. */
static int alive(long pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    char *out = NULL;
    pr_buf b = PR_BUF_INIT;
    pr_err e;
    if (pr_fileio_read_file(path, &b, &e) < 0)
        return 0;
    out = pr_buf_detach(&b);
    const char *close_p = strrchr(out, ')');
    int live = close_p && close_p[1] == ' ' && close_p[2] != 'Z';
    free(out);
    return live;
}

Test(proc, escaped_descendants_are_ended, .init = signals_on, .fini = signals_off)
{
    /* A process tree that left the job's group (setsid) and ignores
     * SIGTERM, still running when the job exits: found through the
     * subreaper, sent SIGTERM, then SIGKILL after the grace, and counted.
     * The job waits (5 s at most) until the sleep is started. */
    char *pidfile = pr_fileio_path_join(tmpdir, "pid");
    char *script = pr_xasprintf(
        "setsid sh -c \"trap '' TERM; sleep 300 & echo \\$! > '%s'; wait\" </dev/null & "
        "i=0; while [ $i -lt 500 ] && [ ! -s '%s' ]; do sleep 0.01; i=$((i + 1)); done; exit 0",
        pidfile, pidfile);
    pr_proc_result r = run_sh(script, 200, NULL, NULL);
    cr_assert_eq(r.exit_status, 0);
    cr_assert_not(r.timed_out);
    cr_assert_not(r.stray, "the escaped tree is not in the job's group");
    cr_assert_eq(r.ended, 2, "ended %zu", r.ended);
    /* The names, each once: "sh" and "sleep", or "sh" alone when the
     * scan caught the forked child before it became sleep (the job only
     * waits for $!, written before the exec). */
    cr_assert(r.nended_names == 2 || r.nended_names == 1, "%zu names", (size_t)r.nended_names);
    cr_assert_str_eq(r.ended_names[0], "sh");
    if (r.nended_names == 2)
        cr_assert_str_eq(r.ended_names[1], "sleep");
    cr_assert_eq(r.survived, 0);
    cr_assert(r.duration_s < 150, "duration %g", r.duration_s);
    pr_buf b = PR_BUF_INIT;
    pr_err e;
    cr_assert_eq(pr_fileio_read_file(pidfile, &b, &e), 0, "%s", e.msg);
    long gc = strtol(pr_buf_cstr(&b), NULL, 10);
    cr_assert(gc > 0);
    cr_assert_not(alive(gc), "the escaped sleep %ld runs on", gc);
    pr_buf_free(&b);
    free(pidfile);
    free(script);
}

Test(proc, a_job_without_leftovers_ends_none, .init = signals_on, .fini = signals_off)
{
    pr_proc_result r = run_sh("sleep 0.01; exit 0", 200, NULL, NULL);
    cr_assert_eq(r.ended, 0);
    cr_assert_eq(r.nended_names, 0);
}

Test(proc, log_limit_stops_a_flood, .init = signals_on, .fini = signals_off)
{
    /* yes writes far more than 64 KiB between two looks at the log, and
     * dies of SIGTERM: no SIGKILL, whatever the grace. */
    pr_proc_result r = run_sh_limits("echo first; exec yes flood", 200, 100, 65536, NULL, NULL);
    cr_assert(r.log_limited);
    cr_assert(r.log_stopped);
    cr_assert_not(r.timed_out);
    cr_assert_eq(r.killed, 0);
    cr_assert_eq(r.term_signal, SIGTERM);
    cr_assert(r.log_size > 65536, "log of %lld bytes", r.log_size);
    cr_assert(r.duration_s < 50, "duration %g", r.duration_s);
}

Test(proc, log_flood_ignoring_sigterm_is_killed_at_once, .init = signals_on, .fini = signals_off)
{
    /* The grace is 100 s: SIGKILL comes as soon as the log grows another
     * PR_PROC_LOG_SLACK past the stop, which yes does at once. */
    pr_proc_result r =
        run_sh_limits("trap '' TERM; echo first; exec yes flood", 200, 100, 65536, NULL, NULL);
    cr_assert(r.log_stopped);
    cr_assert_eq(r.killed, 2);
    cr_assert_eq(r.term_signal, SIGKILL);
    cr_assert(r.duration_s < 50, "waited %g s: the grace", r.duration_s);
}

Test(proc, log_past_its_limit_at_exit, .init = signals_on, .fini = signals_off)
{
    /* Written at once and exited: the limit is passed whether or not the
     * runner looked in between. */
    pr_proc_result r =
        run_sh_limits("head -c 200000 /dev/zero; exit 0", 200, 0.2, 65536, NULL, NULL);
    cr_assert(r.log_limited);
    /* Past the limit; all 200000 bytes unless the runner looked while head
     * was still writing (a loaded machine) and stopped it there. */
    cr_assert(r.log_size > 65536 && r.log_size <= 200000, "log_size %lld", (long long)r.log_size);
    pr_proc_result ok =
        run_sh_limits("head -c 60000 /dev/zero; exit 0", 200, 0.2, 65536, NULL, NULL);
    cr_assert_not(ok.log_limited);
    cr_assert_eq(ok.exit_status, 0);
}

/* ---- the record of what a job left running ---- */

/* A record as the runner writes one, with ended_processes set to the JSON
 * text ended (NULL: none), loaded back: 0, or -1 with the message in err. */
static int load_with_ended(const char *ended, pr_err *err)
{
    pr_record r;
    pr_record_init(&r);
    r.log_file = pr_xstrdup("logs/train_log/c");
    r.model_name = pr_xstrdup("fake");
    r.mission_name = pr_xstrdup("m");
    r.unit = pr_xstrdup("samples/s");
    r.model = pr_xstrdup("Fake");
    r.framework = pr_xstrdup("Sh");
    r.case_name = pr_xstrdup("c");
    r.precision = pr_xstrdup("fp32");
    r.origin = pr_xstrdup("measured");
    r.final_result = 1.5;
    json_error_t je;
    if (ended)
        cr_assert_not_null(r.ended_processes = json_loads(ended, 0, &je), "%s", ended);
    json_t *o = pr_record_to_json(&r);
    char *text = json_dumps(o, JSON_PRESERVE_ORDER);
    pr_jdoc *doc = NULL;
    cr_assert_eq(pr_jdoc_parse("rec", text, strlen(text), &doc, err), 0, "%s", err->msg);
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    pr_record back;
    pr_record_init(&back);
    int rc = pr_record_from_json(&root, &back, err);
    if (rc == 0) {
        /* What loads writes back the same, and passes the writer's check. */
        json_t *again = pr_record_to_json(&back);
        cr_assert(json_equal(again, o));
        json_decref(again);
        pr_err e2;
        cr_assert_eq(pr_record_check(&back, &e2), 0, "%s", e2.msg);
    } else {
        pr_err e2;
        cr_assert_eq(pr_record_check(&r, &e2), -1, "the writer's check let %s through", ended);
    }
    pr_record_clear(&back);
    pr_jdoc_free(doc);
    free(text);
    json_decref(o);
    pr_record_clear(&r);
    return rc;
}

Test(record, ended_processes)
{
    pr_err e;
    cr_assert_eq(load_with_ended(NULL, &e), 0, "%s", e.msg);
    cr_assert_eq(load_with_ended("{\"count\": 2, \"names\": [\"sh\", \"sleep\"]}", &e), 0, "%s",
                 e.msg);
    cr_assert_eq(load_with_ended("{\"count\": 40, \"names\": [\"python\"], \"survived\": 1}", &e),
                 0, "%s", e.msg);
    static const struct {
        const char *json, *want;
    } bad[] = {
        {"[1]", "ended_processes: expected an object"},
        {"{\"names\": [\"sh\"]}", "ended_processes: count: required"},
        {"{\"count\": 0, \"names\": [\"sh\"]}", "ended_processes.count: required"},
        {"{\"count\": 1}", "ended_processes: names: required"},
        {"{\"count\": 1, \"names\": []}", "ended_processes.names: required"},
        {"{\"count\": 1, \"names\": [\"a\", \"b\"]}", "at most count"},
        {"{\"count\": 2, \"names\": [\"a\", \"\"]}", "[1]: expected a command name"},
        {"{\"count\": 1, \"names\": [\"a\"], \"survived\": 2}",
         "ended_processes.survived: expected an integer from 0 to count"},
        {"{\"count\": 1, \"names\": [\"a\"], \"pids\": [1]}", "ended_processes.pids"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_eq(load_with_ended(bad[i].json, &e), -1, "%s loaded", bad[i].json);
        cr_expect(strstr(e.msg, bad[i].want), "%s: %s (want %s)", bad[i].json, e.msg, bad[i].want);
    }
}

Test(record, log_limit_is_a_reason)
{
    cr_assert(pr_record_str_in("log_limit", pr_fail_reasons));
    size_t n = 0;
    while (pr_fail_reasons[n])
        n++;
    cr_assert(n <= PR_RUN_NREASONS, "%zu reasons, the summary counts %d", n, PR_RUN_NREASONS);
}

/* ---- out of memory ---- */

Test(oom, messages)
{
    const char *yes[] = {
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB",
        "torch.cuda.OutOfMemoryError: CUDA out of memory.",
        "RuntimeError: CUDA error: out of memory",
        "ResourceExhaustedError: Out of memory error on GPU 0.",
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating",
        "2024 W OOM when allocating tensor with shape[256,1024]",
        "terminate called after throwing an instance of 'std::bad_alloc'",
        "MemoryError",
        "CUDA_ERROR_OUT_OF_MEMORY",
        "XlaRuntimeError: RESOURCE_EXHAUSTED: while allocating",
        "fork: Cannot allocate memory",
        "Memory cgroup out of memory: Killed process 1234 (python)",
        "[OOM]",
        "oom-kill:constraint=CONSTRAINT_MEMCG",
    };
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        cr_assert(runner_oom_match(yes[i], strlen(yes[i])), "missed: %s", yes[i]);
    const char *no[] = {"ZOOM lens",
                        "BOOM",
                        "OOMPH",
                        "room for improvement",
                        "loss: 0.3",
                        "memory: 12.5 GiB allocated",
                        "ips: 100.5 samples/sec",
                        "",
                        "oom"};
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        cr_assert_not(runner_oom_match(no[i], strlen(no[i])), "false positive: %s", no[i]);
}

Test(oom, log_scan, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    char *p = write_tmp("log", "step 1 ips: 100\n\033[31mRuntimeError: CUDA out of memory. "
                               "Tried\033[0m\nmore\nstd::bad_alloc last one\nend");
    pr_buf line = PR_BUF_INIT;
    pr_err e;
    cr_assert_eq(runner_log_find_oom(p, &line, &e), 1);
    cr_assert_str_eq(pr_buf_cstr(&line), "std::bad_alloc last one");
    free(p);
    p = write_tmp("log2", "\033[31mRuntimeError: CUDA out of memory\033[0m\n\xff\x01 tail\n");
    cr_assert_eq(runner_log_find_oom(p, &line, &e), 1);
    cr_assert_str_eq(pr_buf_cstr(&line), "RuntimeError: CUDA out of memory");
    free(p);
    p = write_tmp("clean", "all good\nips: 100\n");
    cr_assert_eq(runner_log_find_oom(p, &line, &e), 0);
    free(p);
    p = pr_fileio_path_join(tmpdir, "missing");
    cr_assert_eq(runner_log_find_oom(p, &line, &e), -1);
    free(p);
    pr_buf_free(&line);
}

Test(oom, fifo_log_is_refused_without_blocking, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    /* Hardening: a FIFO at a log's path blocked every reader of logs
     * (the runner's verdict, measure parse). */
    char *p = pr_fileio_path_join(tmpdir, "fifo");
    cr_assert_eq(mkfifo(p, 0600), 0);
    pr_buf line = PR_BUF_INIT;
    pr_err e;
    cr_assert_eq(runner_log_find_oom(p, &line, &e), -1);
    cr_assert(strstr(e.msg, "FIFO") != NULL, "%s", e.msg);
    pr_buf_free(&line);
    free(p);
}

/* ---- formatting ---- */

Test(format, duration)
{
    char b[32];
    struct {
        double s;
        const char *want;
    } t[] = {{0, "0.0s"},      {0.04, "0.0s"}, {12.34, "12.3s"},   {59.9, "59.9s"},
             {59.96, "1m00s"}, {100, "1m40s"}, {3599.4, "59m59s"}, {3600, "1h00m"},
             {7500, "2h05m"},  {-1, "0.0s"}};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        runner_fmt_duration(t[i].s, b);
        cr_assert_str_eq(b, t[i].want, "%g", t[i].s);
    }
}

Test(format, utc)
{
    char b[32];
    envinfo_fmt_utc(0, b);
    cr_assert_str_eq(b, "1970-01-01T00:00:00Z");
    envinfo_fmt_utc(1714566896, b);
    cr_assert_str_eq(b, "2024-05-01T12:34:56Z");
}

/* ---- environment record ---- */

Test(envinfo, os_release)
{
    char *v = envinfo_os_pretty_name("NAME=\"Debian\"\nPRETTY_NAME=\"Debian GNU/Linux 12 "
                                     "(bookworm)\"\nID=debian\n");
    cr_assert_str_eq(v, "Debian GNU/Linux 12 (bookworm)");
    free(v);
    v = envinfo_os_pretty_name("PRETTY_NAME=Alpine\n");
    cr_assert_str_eq(v, "Alpine");
    free(v);
    v = envinfo_os_pretty_name("PRETTY_NAME='Say \"hi\"'");
    cr_assert_str_eq(v, "Say \"hi\"");
    free(v);
    v = envinfo_os_pretty_name("PRETTY_NAME=\"a \\\"b\\\"\"\n");
    cr_assert_str_eq(v, "a \"b\"");
    free(v);
    cr_assert_null(envinfo_os_pretty_name("NAME=x\n"));
    cr_assert_null(envinfo_os_pretty_name("PRETTY_NAME=\"\"\n"));
}

Test(envinfo, cpu_model)
{
    char *v = envinfo_cpu_model("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel\t\t: 85\n"
                                "model name\t: Intel(R) Xeon(R) Gold 6271C CPU @ 2.60GHz\n");
    cr_assert_str_eq(v, "Intel(R) Xeon(R) Gold 6271C CPU @ 2.60GHz");
    free(v);
    v = envinfo_cpu_model("processor : 0\nBogoMIPS : 108\nModel : Raspberry Pi 4\n");
    cr_assert_str_eq(v, "Raspberry Pi 4");
    free(v);
    cr_assert_null(envinfo_cpu_model("processor : 0\n"));
}

Test(envinfo, capture_schema)
{
    json_t *o = envinfo_capture("PyTorch", "2.3.0", 1714566896);
    const char *keys[] = {"perfrepro", "captured_at", "host", "framework", "gpu"};
    cr_assert_eq(json_object_size(o), 5);
    for (size_t i = 0; i < 5; i++)
        cr_assert_not_null(json_object_get(o, keys[i]), "no %s", keys[i]);
    cr_assert_str_eq(json_string_value(json_object_get(o, "captured_at")), "2024-05-01T12:34:56Z");
    json_t *h = json_object_get(o, "host");
    const char *hk[] = {"cpu_model", "cpu_count", "memory_gb", "arch", "os", "kernel", "compiler"};
    cr_assert_eq(json_object_size(h), 7, "host has exactly the documented keys");
    for (size_t i = 0; i < 7; i++)
        cr_assert_not_null(json_object_get(h, hk[i]), "no host.%s", hk[i]);
    cr_assert(json_integer_value(json_object_get(h, "cpu_count")) >= 1);
    cr_assert(json_real_value(json_object_get(h, "memory_gb")) > 0);
    json_t *fw = json_object_get(o, "framework");
    cr_assert_str_eq(json_string_value(json_object_get(fw, "name")), "PyTorch");
    cr_assert_str_eq(json_string_value(json_object_get(fw, "version")), "2.3.0");
    cr_assert(json_is_null(json_object_get(o, "gpu")));
    json_decref(o);
    o = envinfo_capture("F", NULL, 0);
    cr_assert(json_is_null(json_object_get(json_object_get(o, "framework"), "version")));
    json_decref(o);
}

/* ---- the environment record's schema (lib/envrec.c) ---- */

Test(envrec, what_measure_writes_passes, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    json_t *o = envinfo_capture("PyTorch", "2.3.0", 1714566896);
    char *p = pr_fileio_path_join(tmpdir, "env.json");
    pr_err e;
    pr_jdoc_json_init();
    cr_assert_eq(envinfo_write(p, o, &e), 0, "%s", e.msg);
    json_t *back = NULL;
    cr_assert_eq(pr_envrec_load(p, &back, &e), 0, "%s", e.msg);
    cr_assert(json_equal(o, back));
    json_decref(back);
    /* A GPU workload's object, and null everywhere. */
    json_object_set_new(o, "gpu",
                        json_pack("{s:s,s:i,s:s,s:s,s:s,s:s,s:n}", "name", "H100", "count", 8,
                                  "driver", "550", "cuda", "12.4", "cudnn", "not found", "nccl",
                                  "2.21", "cublaslt"));
    json_object_set_new(o, "framework", json_null());
    json_object_set_new(json_object_get(o, "host"), "cpu_count", json_null());
    cr_assert_eq(envinfo_write(p, o, &e), 0, "%s", e.msg);
    cr_assert_eq(pr_envrec_load(p, &back, &e), 0, "%s", e.msg);
    json_decref(back);
    json_decref(o);
    free(p);
}

/* env.json with one host field replaced by value (JSON text) must fail at
 * FILE:LINE:COL: field with a message holding want. */
static void expect_env_refused(const char *body, const char *field, const char *want)
{
    char *p = write_tmp("env.json", body);
    json_t *back = NULL;
    pr_err e;
    pr_jdoc_json_init();
    cr_assert_eq(pr_envrec_load(p, &back, &e), -1, "accepted: %s", body);
    cr_assert_null(back);
    char *head = pr_xasprintf("%s:", p);
    cr_assert(strncmp(e.msg, head, strlen(head)) == 0, "no file name: %s", e.msg);
    /* FILE:LINE:COL: FIELD: */
    const char *q = e.msg + strlen(head);
    cr_assert(strspn(q, "0123456789") > 0 && q[strspn(q, "0123456789")] == ':', "%s", e.msg);
    char *f = pr_xasprintf(": %s: ", field);
    cr_assert(strstr(e.msg, f) != NULL, "field %s not named: %s", field, e.msg);
    cr_assert(strstr(e.msg, want) != NULL, "%s", e.msg);
    free(f);
    free(head);
    free(p);
}

Test(envrec, types_and_ranges, .init = mk_tmpdir, .fini = rm_tmpdir)
{
#define ENV(host, rest)                                                                            \
    "{\"perfrepro\": 1, \"captured_at\": \"2026-05-01T12:34:56Z\",\n \"host\": " host              \
    ",\n \"framework\": {\"name\": \"F\", \"version\": null}" rest "}"
    expect_env_refused(ENV("{\"cpu_count\": -1}", ""), "host.cpu_count", "out of range");
    expect_env_refused(ENV("{\"cpu_count\": \"1\"}", ""), "host.cpu_count", "integer");
    expect_env_refused(ENV("{\"cpu_count\": 1.5}", ""), "host.cpu_count", "integer");
    expect_env_refused(ENV("{\"memory_gb\": 0}", ""), "host.memory_gb", "above 0");
    expect_env_refused(ENV("{\"memory_gb\": \"512\"}", ""), "host.memory_gb", "number");
    expect_env_refused(ENV("{\"os\": 12}", ""), "host.os", "string");
    expect_env_refused(ENV("{\"hostname\": \"n1\"}", ""), "host.hostname", "unknown");
    expect_env_refused(ENV("[1]", ""), "host", "object");
    expect_env_refused(ENV("null", ", \"gpu\": {\"count\": 0}"), "gpu.count", "out of range");
    expect_env_refused(ENV("null", ", \"gpu\": {\"name\": [\"A\"]}"), "gpu.name", "string");
    expect_env_refused(ENV("null", ", \"gpu\": \"A100\""), "gpu", "object");
    expect_env_refused(ENV("null", ", \"note\": 3"), "note", "string");
    expect_env_refused(ENV("null", ", \"extra\": 3"), "extra", "unknown");
    expect_env_refused("{\"perfrepro\": 2, \"captured_at\": \"2026-05-01T12:34:56Z\"}", "perfrepro",
                       "out of range");
    expect_env_refused("{\"perfrepro\": 1, \"captured_at\": \"yesterday\"}", "captured_at",
                       "YYYY-MM-DDTHH:MM:SSZ");
    expect_env_refused("{\"perfrepro\": 1, \"captured_at\": \"2026-13-01T12:34:56Z\"}",
                       "captured_at", "YYYY-MM-DDTHH:MM:SSZ");
    expect_env_refused("{\"perfrepro\": 1,\n \"captured_at\": 1714566896}", "captured_at",
                       "string");
#undef ENV
}

/* ---- suite names and shell commands (lib/suite_names.c, lib/suite_template.c) ---- */

/* Loading json as a suite fails with a message that holds each of want
 * (NULL-terminated) and starts with FILE:LINE:COL. */
static void expect_suite_refused(const char *json, const char *const *want)
{
    char *p = write_tmp("suite.json", json);
    pr_suite *s = NULL;
    pr_err e;
    pr_jdoc_json_init();
    cr_assert_eq(pr_suite_load(p, &s, &e), -1, "accepted: %s", json);
    char *head = pr_xasprintf("%s:", p);
    cr_assert(strncmp(e.msg, head, strlen(head)) == 0, "no file name: %s", e.msg);
    const char *q = e.msg + strlen(head);
    size_t n = strspn(q, "0123456789");
    cr_assert(n > 0 && q[n] == ':' && strspn(q + n + 1, "0123456789") > 0, "no line:col: %s",
              e.msg);
    for (; *want; want++)
        cr_assert(strstr(e.msg, *want) != NULL, "no \"%s\" in: %s", *want, e.msg);
    free(head);
    free(p);
}

#define SUITE_BODY(case_name, shell, command)                                                      \
    "{\"perfrepro\": 1, \"model\": \"M\", \"framework\": \"F\", \"model_name\": \"m\",\n"          \
    " \"mission_name\": \"x\", \"direction_id\": 0, \"unit\": \"samples/s\",\n"                    \
    " \"case_name\": \"" case_name "\", \"shell\": " shell ",\n"                                   \
    " \"command\": [\"" command "\"],\n"                                                           \
    " \"matrix\": {\"nodes\": [1], \"gpus_per_node\": [1], \"batch_size\": [8],\n"                 \
    "            \"precision\": [\"fp32\"]},\n"                                                    \
    " \"rule\": {\"keyword\": \"ips:\", \"scope\": \"global\"}}"

Test(suite_names, case_name_refusals_say_why, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    const char *const html[] = {"matrix: case name \"x.html\"", "ends in \".html\"",
                                "active content", NULL};
    expect_suite_refused(SUITE_BODY("x.html", "false", "run.sh"), html);
    const char *const svg[] = {"\"c8.SVG\"", "ends in \".SVG\"", NULL};
    expect_suite_refused(SUITE_BODY("c{batch_size}.SVG", "false", "run.sh"), svg);
    const char *const slash[] = {"\"a/m\"", "'/' is not one of [A-Za-z0-9._+-]", NULL};
    expect_suite_refused(SUITE_BODY("a/{model_name}", "false", "run.sh"), slash);
    const char *const dot[] = {"\".m\"", "starts with '.'", NULL};
    expect_suite_refused(SUITE_BODY(".{model_name}", "false", "run.sh"), dot);
    const char *const dash[] = {"\"-m\"", "starts with '-'", NULL};
    expect_suite_refused(SUITE_BODY("-{model_name}", "false", "run.sh"), dash);
}

Test(suite_names, why_agrees_with_is_safe)
{
    const char *names[] = {"ok",    "a.b-c_d+e", "",        ".x",    "-x",   "a/b",
                           "a b",   "x.html",    "x.HTM",   "x.svg", "x.js", "x.html.txt",
                           "x\x01", "\xc3\xa9",  "x.xhtml", "html",  "a..b", NULL};
    char buf[160];
    for (const char **n = names; *n; n++) {
        const char *why = pr_suite_name_unsafe_why(*n, buf, sizeof buf);
        cr_assert_eq(why == NULL, pr_suite_name_is_safe(*n) != 0, "%s: %s", *n, why ? why : "safe");
    }
    char long_name[200];
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    cr_assert(strstr(pr_suite_name_unsafe_why(long_name, buf, sizeof buf), "128") != NULL);
}

Test(suite_shell, placeholders_inside_quotes_are_refused, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    /* Hardening: with "shell": true a value is one single-quoted word; inside
     * double quotes its quotes are literal and $(...) in it ran. */
    const char *const dq[] = {"suite.json:4:", "command[0]", "{model_name}", "inside double quotes",
                              NULL};
    expect_suite_refused(SUITE_BODY("c", "true", "good.sh --name=\\\"{model_name}\\\""), dq);
    const char *const sq[] = {"command[0]", "{model_name}", "inside single quotes", NULL};
    expect_suite_refused(SUITE_BODY("c", "true", "good.sh --name='{model_name}'"), sq);
    const char *const bq[] = {"{case}", "backquotes", NULL};
    expect_suite_refused(SUITE_BODY("c", "true", "echo `echo {case}`"), bq);
    const char *const cm[] = {"{case}", "comment", NULL};
    expect_suite_refused(SUITE_BODY("c", "true", "run.sh # {case}"), cm);
    const char *const bs[] = {"{case}", "backslash", NULL};
    expect_suite_refused(SUITE_BODY("c", "true", "run.sh \\\\{case}"), bs);
    const char *const dl[] = {"{case}", "'$'", NULL};
    expect_suite_refused(SUITE_BODY("c", "true", "run.sh ${case}"), dl);
    const char *const hd[] = {"{case}", "here-document", NULL};
    expect_suite_refused(SUITE_BODY("c", "true", "cat <<EOF\\n{case}\\nEOF"), hd);
    /* Outside quotes, in $(...), after a closed here-document, escaped or
     * literal braces: accepted; without "shell" quotes mean nothing. */
    const char *ok[] = {
        SUITE_BODY("c", "true", "run.sh --name={model_name} \\\"x\\\" 'y' {case}"),
        SUITE_BODY("c", "true", "run.sh $([ {precision} = fp16 ] && echo --fp16)"),
        SUITE_BODY("c", "true", "cat <<EOF\\nx\\nEOF\\nrun.sh {case} # done"),
        SUITE_BODY("c", "true", "run.sh \\\\\\\\{case} \\\\\\\"{case} a#{case} \\\"{{x}}\\\""),
        SUITE_BODY("c", "false", "--name=\\\"{model_name}\\\""),
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        pr_suite *s = load_suite(ok[i]);
        pr_suite_free(s);
    }
}
