/* runner: the run loop and the public API of runner.h: selecting the cases,
 * checking the suite's inputs and datasets, the framework version and
 * env.json, progress events, and each case in turn (runcase.c). */
#include "runner_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "1-facts/envinfo.h"
#include "fileio.h"
#include "md5.h"

/* ======================================================================
 * Formatting
 * ====================================================================== */

void runner_fmt_duration(double s, char out[32])
{
    if (!(s >= 0))
        s = 0;
    if (s < 59.95) {
        snprintf(out, 32, "%.1fs", s);
        return;
    }
    long t = (long)(s + 0.5);
    if (t < 3600)
        snprintf(out, 32, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(out, 32, "%ldh%02ldm", t / 3600, (t % 3600) / 60);
}

/* ======================================================================
 * Suites
 * ====================================================================== */

void runner_emit(const runner_state *st, pr_run_event *ev)
{
    if (st->o->event)
        st->o->event(ev, st->o->ud);
}

void runner_warn(const runner_state *st, const char *fmt, ...)
{
    pr_buf b = PR_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    pr_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    pr_run_event ev = {.kind = PR_EV_WARN, .text = pr_buf_cstr(&b), .len = b.len, .eta_s = -1};
    runner_emit(st, &ev);
    pr_buf_free(&b);
}

/* The estimated time left: the mean duration of the cases run so far times
 * the cases still to run, less what the running case has done; < 0 while
 * nothing has finished. */
double runner_eta(const runner_state *st, double running_elapsed)
{
    if (st->ran_n == 0)
        return -1;
    double mean = st->ran_s / (double)st->ran_n;
    size_t left = 0;
    for (size_t i = st->index + 1; i < st->nsel; i++)
        left += st->todo[i];
    double cur = running_elapsed < 0 ? 0 : mean - running_elapsed;
    return mean * (double)left + (cur > 0 ? cur : 0);
}

static int select_cases(runner_state *st, pr_err *err)
{
    const pr_suite *s = st->s;
    const pr_run_opts *o = st->o;
    st->sel = pr_xmalloc((s->ncases ? s->ncases : 1) * sizeof *st->sel);
    for (size_t i = 0; i < s->ncases; i++) {
        int keep = o->nonly == 0;
        for (size_t p = 0; p < o->nonly && !keep; p++)
            keep = fnmatch(o->only[p], s->cases[i].name, 0) == 0;
        if (keep)
            st->sel[st->nsel++] = i;
    }
    for (size_t p = 0; p < o->nonly; p++) {
        size_t hits = 0;
        for (size_t i = 0; i < s->ncases; i++)
            hits += fnmatch(o->only[p], s->cases[i].name, 0) == 0;
        if (!hits && st->nsel)
            runner_warn(st, "--only %s matches no case", o->only[p]);
    }
    if (st->nsel == 0) {
        pr_buf names = PR_BUF_INIT;
        for (size_t i = 0; i < s->ncases && i < 8; i++)
            pr_buf_printf(&names, "%s%s", i ? ", " : "", s->cases[i].name);
        if (s->ncases > 8)
            pr_buf_printf(&names, ", ... (%zu in all)", s->ncases);
        pr_err_set(err, s->path, 0, 0, NULL, "--only selects no case; the cases are: %s",
                   pr_buf_cstr(&names));
        pr_buf_free(&names);
        return -1;
    }
    return 0;
}

/* 1 when path holds a valid record of case c of this suite (kept in rec,
 * which the caller clears either way). */
static int valid_record(const runner_state *st, const char *path, const pr_suite_case *c,
                        pr_record *rec)
{
    pr_err ignored;
    struct stat sb;
    /* lstat: a link planted at the record's path is no record of ours. */
    if (lstat(path, &sb) < 0 || !S_ISREG(sb.st_mode) || pr_record_load(path, rec, &ignored) < 0)
        return 0;
    return strcmp(rec->case_name, c->name) == 0 && strcmp(rec->model, st->s->model) == 0 &&
           strcmp(rec->framework, st->s->framework) == 0;
}

/* Checks every dataset's md5 before anything runs. */
static int verify_datasets(runner_state *st, pr_err *err)
{
    for (size_t i = 0; i < json_array_size(st->s->datasets); i++) {
        json_t *d = json_array_get(st->s->datasets, i);
        const char *path = json_string_value(json_object_get(d, "path"));
        const char *want = json_string_value(json_object_get(d, "md5"));
        const char *name = json_string_value(json_object_get(d, "name"));
        pr_buf label = PR_BUF_INIT;
        if (name)
            pr_buf_printf(&label, "dataset \"%s\" (%s)", name, path);
        else
            pr_buf_printf(&label, "dataset %s", path);
        pr_run_event ev = {
            .kind = PR_EV_DATASET, .text = pr_buf_cstr(&label), .len = label.len, .eta_s = -1};
        runner_emit(st, &ev);
        char got[33];
        pr_err e;
        int rc = pr_md5_file(path, got, proc_runner_interrupt_flag(), &e);
        if (rc < 0 && (*proc_runner_interrupt_flag())) {
            pr_buf_free(&label);
            return 0; /* the caller sees the interruption */
        }
        if (rc < 0)
            pr_err_set(err, st->s->path, 0, 0, NULL, "%s: %s (expected md5 %s)",
                       pr_buf_cstr(&label), e.msg, want);
        else if (strcmp(got, want) != 0)
            pr_err_set(err, st->s->path, 0, 0, NULL,
                       "%s: md5 is %s, expected %s: the file differs from the one the suite "
                       "was written for",
                       pr_buf_cstr(&label), got, want);
        pr_buf_free(&label);
        if (rc < 0 || strcmp(got, want) != 0)
            return -1;
    }
    return 0;
}

/* Runs the suite's framework_version_command (no shell, 60 s at most) and
 * keeps the first line of its standard output, trimmed.  NULL + a warning
 * when it fails. */
static char *run_version_command(runner_state *st)
{
    char *out = NULL, **argv = NULL;
    size_t n = 0;
    pr_err err;
    char *tmpl = pr_fileio_path_join(st->out, ".version.XXXXXX");
    int fd = mkostemp(tmpl, O_CLOEXEC);
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || devnull < 0) {
        runner_warn(st, "framework_version_command: cannot create a temporary file: %s",
                    strerror(errno));
        goto out;
    }
    unlink(tmpl);
    for (size_t i = 0; i < json_array_size(st->s->version_command); i++)
        launch_strv_push(&argv, &n,
                         pr_xstrdup(json_string_value(json_array_get(st->s->version_command, i))));
    pr_proc_spec sp = {.argv = argv,
                       .out_fd = fd,
                       .err_fd = devnull,
                       .timeout_s = 60,
                       .grace_s = st->o->kill_grace_s};
    pr_proc_result res;
    if (proc_run(&sp, &res, &err) < 0) {
        runner_warn(st, "framework_version_command: %s", err.msg);
        goto out;
    }
    if (res.interrupted)
        goto out;
    if (res.launch_errno) {
        runner_warn(st, "framework_version_command: cannot run %s: %s", argv[0],
                    strerror(res.launch_errno));
        goto out;
    }
    if (res.timed_out || res.exit_status != 0) {
        runner_warn(st, "framework_version_command (%s) %s %d", argv[0],
                    res.timed_out     ? "gave no answer within 60 s, timeout"
                    : res.term_signal ? "was killed by signal"
                                      : "exited with status",
                    res.timed_out     ? 60
                    : res.term_signal ? res.term_signal
                                      : res.exit_status);
        goto out;
    }
    char buf[4096];
    ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
    if (got < 0)
        got = 0;
    buf[got] = '\0';
    size_t len = strcspn(buf, "\r\n");
    while (len && isspace((unsigned char)buf[len - 1]))
        len--;
    size_t b = 0;
    while (b < len && isspace((unsigned char)buf[b]))
        b++;
    if (b == len) {
        runner_warn(st, "framework_version_command (%s) printed nothing on its first line",
                    argv[0]);
        goto out;
    }
    pr_buf v = PR_BUF_INIT;
    runner_clean_text(&v, buf + b, len - b);
    out = pr_buf_detach(&v);
out:
    if (fd >= 0)
        close(fd);
    if (devnull >= 0)
        close(devnull);
    free(tmpl);
    pr_fileio_strv_free(argv);
    return out;
}

static void count(pr_run_summary *sum, const pr_record *rec)
{
    if (!rec->failed) {
        sum->ok++;
        return;
    }
    sum->failed++;
    for (size_t i = 0; i < PR_RUN_NREASONS && pr_fail_reasons[i]; i++)
        if (strcmp(pr_fail_reasons[i], rec->fail_reason) == 0)
            sum->by_reason[i]++;
}

/* Builds the suite's parse rule and checks that the cases give what it
 * needs.  The suite file is read again for its rule: the rule's errors then
 * name the suite's file, line and column (pr_suite keeps no document). */
static int compile_rule(runner_state *st, pr_err *err)
{
    pr_jdoc *doc = NULL;
    int rc = -1;
    if (pr_jdoc_load(st->s->path, &doc, err) < 0)
        return -1;
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    pr_jdoc_jcur rule = pr_jdoc_jchild(&root, "rule");
    if (rule_from_jcur(&rule, &st->rule, err) < 0)
        goto out;
    for (size_t i = 0; i < st->nsel; i++) {
        pr_parse_args a = runner_parse_args(st->s, &st->s->cases[st->sel[i]]);
        if (parse_check_args(st->rule, &a, err) < 0) {
            /* The message names `parse`'s options; a suite gives the
             * batch size and GPU count per case, and seq_len and unit. */
            pr_err_prefix(err,
                          "%s: rule: the suite does not give what the rule needs "
                          "(--seq-len is the suite's \"seq_len\", --unit its \"unit\")",
                          st->s->path);
            goto out;
        }
    }
    st->rule_json = rule_to_json(st->rule);
    rc = 0;
out:
    pr_jdoc_free(doc);
    return rc;
}

/* How the jobs of this run are built, into out_dir. */
static pr_job_ctx job_ctx(const runner_state *st, const char *out_dir)
{
    pr_job_ctx jc = {st->launcher,
                     out_dir,
                     st->workdir,
                     getenv("CUDA_VISIBLE_DEVICES"),
                     st->o->master_port ? st->o->master_port : 29500,
                     &st->le,
                     st->timeout_s};
    return jc;
}

/* Checks what the suite gives the runner before anything is created. */
static int check_inputs(runner_state *st, pr_err *err)
{
    const char *name = st->o->launcher ? st->o->launcher : st->s->launcher;
    st->launcher = launch_find(name);
    if (!st->launcher)
        return pr_err_set(err, NULL, 0, 0, NULL, "unknown launcher \"%s\" (this perfrepro has: %s)",
                          name, launch_launcher_names());
    if (launch_env_init(&st->le, st->s, name, &st->o->launch, err) < 0)
        return -1;
    st->le_ready = 1;
    /* What is wrong with the command or env of one case is wrong with all
     * (the templates are the suite's): building the first job finds it. */
    pr_job job;
    pr_job_ctx jc = job_ctx(st, st->o->out_dir);
    int rc = runner_job_build(st->s, &st->s->cases[st->sel[0]], &jc, &job, err);
    runner_job_free(&job);
    if (rc < 0 || compile_rule(st, err) < 0)
        return -1;
    /* Under a multi-node launcher the rule's rank names one of the tasks
     * perfrepro starts: a rank beyond them would read nothing, case after
     * case.  (Under local, ranks are the job's own business.) */
    int rank = rule_get(st->rule)->rank;
    if (rank > 0 && st->launcher != &pr_launcher_local) {
        int per_node = st->le.ranks == PR_RANKS_PER_NODE;
        for (size_t i = 0; i < st->nsel; i++) {
            const pr_suite_case *c = &st->s->cases[st->sel[i]];
            int tasks = c->nodes * (per_node ? 1 : c->gpus_per_node);
            if (rank >= tasks)
                return pr_err_set(err, st->s->path, 0, 0, "rule.rank",
                                  "%d, but case %s runs %d task%s under %s (ranks %s)", rank,
                                  c->name, tasks, tasks == 1 ? "" : "s", st->launcher->name,
                                  per_node ? "per_node" : "per_gpu");
        }
    }
    return 0;
}

/* --dry-run: one event per selected case with its job; nothing runs. */
static int dry_run(runner_state *st, pr_err *err)
{
    pr_job_ctx jc = job_ctx(st, st->out);
    for (size_t i = 0; i < st->nsel; i++) {
        const pr_suite_case *c = &st->s->cases[st->sel[i]];
        pr_job job;
        int rc = runner_job_build(st->s, c, &jc, &job, err);
        if (rc == 0) {
            pr_run_event ev = {.kind = PR_EV_DRY,
                               .index = i + 1,
                               .total = st->nsel,
                               .c = c,
                               .job = &job,
                               .skipped = !st->todo[i],
                               .eta_s = -1};
            runner_emit(st, &ev);
        }
        runner_job_free(&job);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* Runs (or, with --resume, keeps) the selected cases in order.  -1 + err
 * only when the output directory fails us. */
static int run_cases(runner_state *st, pr_err *err)
{
    pr_job_ctx jc = job_ctx(st, st->out);
    for (st->index = 0; st->index < st->nsel; st->index++) {
        const pr_suite_case *c = &st->s->cases[st->sel[st->index]];
        if ((*proc_runner_interrupt_flag())) {
            st->sum->interrupted = (*proc_runner_interrupt_flag());
            break;
        }
        pr_run_event ev = {.index = st->index + 1, .total = st->nsel, .c = c, .eta_s = -1};
        if (!st->todo[st->index]) {
            ev.kind = PR_EV_CASE_DONE;
            ev.rec = &st->kept[st->index];
            ev.skipped = 1;
            ev.eta_s = runner_eta(st, -1);
            st->sum->skipped++;
            count(st->sum, &st->kept[st->index]);
            runner_emit(st, &ev);
            continue;
        }
        pr_job job;
        pr_record rec;
        pr_record_init(&rec);
        int crc = runner_job_build(st->s, c, &jc, &job, err);
        if (crc == 0) {
            ev.kind = PR_EV_CASE_START;
            ev.job = &job;
            ev.eta_s = runner_eta(st, 0);
            runner_emit(st, &ev);
            crc = runner_run_case(st, c, &job, &rec, err);
        }
        if (crc == 0) {
            st->sum->ran++;
            count(st->sum, &rec);
            st->ran_s += rec.duration_s > 0 ? rec.duration_s : 0;
            st->ran_n++;
            ev.kind = PR_EV_CASE_DONE;
            ev.rec = &rec;
            ev.elapsed_s = rec.duration_s;
            ev.eta_s = runner_eta(st, -1);
            runner_emit(st, &ev);
        }
        pr_record_clear(&rec);
        runner_job_free(&job);
        if (crc == 1) {
            st->sum->interrupted = (*proc_runner_interrupt_flag());
            st->sum->interrupted_case = c->name;
            break;
        }
        if (crc < 0)
            return -1;
    }
    return 0;
}

int runner_suite(const pr_suite *s, const pr_run_opts *o, pr_run_summary *sum, pr_err *err)
{
    int rc = -1, lock_fd = -1, installed = 0;
    json_t *env = NULL;
    char *env_path = NULL;
    runner_state st;
    memset(&st, 0, sizeof st);
    memset(sum, 0, sizeof *sum);
    st.s = s;
    st.o = o;
    st.sum = sum;
    st.timeout_s = o->timeout_s > 0 ? o->timeout_s : s->timeout_s;
    st.log_limit = o->log_limit_mib > 0 ? (long long)(o->log_limit_mib * 1048576.0) : s->log_limit;
    char *cwd = getcwd(NULL, 0);
    if (!cwd) {
        pr_err_errno(err, ".", "cannot find the current directory");
        goto out;
    }
    st.workdir = pr_xstrdup(cwd);
    free(cwd);
    if (select_cases(&st, err) < 0 || check_inputs(&st, err) < 0)
        goto out;
    sum->selected = st.nsel;
    st.kept = pr_xcalloc(st.nsel, sizeof *st.kept);
    st.todo = pr_xmalloc(st.nsel);
    if (o->dry_run) {
        /* Writes nothing: paths are shown as they would be. */
        st.out = o->out_dir[0] == '/' ? pr_xstrdup(o->out_dir)
                                      : pr_fileio_path_join(st.workdir, o->out_dir);
    } else {
        if (proc_runner_signals_install(err) < 0)
            goto out;
        installed = 1;
        if (runner_prepare_out(&st, &lock_fd, err) < 0)
            goto out;
    }
    for (size_t i = 0; i < st.nsel; i++) {
        pr_record_init(&st.kept[i]);
        char *rp = runner_record_path(st.out, s->cases[st.sel[i]].name);
        st.todo[i] = !(o->resume && valid_record(&st, rp, &s->cases[st.sel[i]], &st.kept[i]));
        free(rp);
    }
    if (o->dry_run) {
        rc = dry_run(&st, err);
        goto out;
    }
    if (verify_datasets(&st, err) < 0)
        goto out;
    if ((*proc_runner_interrupt_flag())) {
        sum->interrupted = (*proc_runner_interrupt_flag());
        rc = 0;
        goto out;
    }
    if (s->version_command) {
        st.version = run_version_command(&st);
        if (st.version && s->framework_version && strcmp(st.version, s->framework_version) != 0)
            runner_warn(&st,
                        "framework_version_command says %s but the suite says %s: the "
                        "records keep %s",
                        st.version, s->framework_version, st.version);
    }
    if ((*proc_runner_interrupt_flag())) {
        sum->interrupted = (*proc_runner_interrupt_flag());
        rc = 0;
        goto out;
    }
    env = envinfo_capture(s->framework, st.version ? st.version : s->framework_version, time(NULL));
    env_path = pr_fileio_path_join(st.out, "env.json");
    int wrc = envinfo_write(env_path, env, err);
    /* The run keeps the suite that made it: its steps are those its
     * figures came from (docs/data-model.md#run-sets). */
    char *suite_copy = pr_fileio_path_join(st.out, "suite.json");
    if (wrc == 0)
        wrc = pr_fileio_copy_file_atomic(s->path, suite_copy, err);
    free(suite_copy);
    if (wrc < 0)
        goto out;

    st.cpurt = cpurt_new();
    if (run_cases(&st, err) < 0)
        goto out;
    /* What the jobs loaded is known only now: env.json again, with it. */
    json_t *runtime = cpurt_to_json(st.cpurt);
    if (runtime) {
        json_object_set_new(env, "runtime", runtime);
        if (envinfo_write(env_path, env, err) < 0)
            goto out;
    }
    rc = 0;
out:
    cpurt_free(st.cpurt);
    json_decref(env);
    free(env_path);
    if (installed) {
        if (rc == 0 && !sum->interrupted && (*proc_runner_interrupt_flag()))
            sum->interrupted = (*proc_runner_interrupt_flag());
        proc_runner_signals_restore();
    }
    if (lock_fd >= 0)
        close(lock_fd);
    for (size_t i = 0; st.kept && i < st.nsel; i++)
        pr_record_clear(&st.kept[i]);
    free(st.kept);
    free(st.todo);
    free(st.sel);
    free(st.out);
    free(st.workdir);
    free(st.version);
    json_decref(st.rule_json);
    rule_free(st.rule);
    rule_free(st.rule_parts);
    if (st.le_ready)
        launch_env_free(&st.le);
    return rc;
}
