#include "runner.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "container.h"
#include "envinfo.h"
#include "fileio.h"
#include "gpuhost.h"
#include "logscan.h"
#include "md5.h"
#include "parse.h"
#include "rule.h"

extern char **environ;

/* ======================================================================
 * Small helpers
 * ====================================================================== */

/* Appends text[0..len) to out as valid UTF-8 without control characters:
 * ANSI escape sequences are dropped, other control bytes and invalid UTF-8
 * become '?'.  Log excerpts go into JSON strings, which must be UTF-8. */
static void put_clean_text(pr_buf *out, const char *text, size_t len)
{
    const unsigned char *p = (const unsigned char *)text, *end = p + len;
    while (p < end) {
        unsigned char c = *p;
        if (c == 0x1b) {
            /* ESC [ params letter (CSI), or ESC + one byte. */
            p++;
            if (p < end && *p == '[') {
                p++;
                while (p < end && !(*p >= 0x40 && *p <= 0x7e))
                    p++;
            }
            if (p < end)
                p++;
            continue;
        }
        if (c == '\t') {
            pr_buf_putc(out, ' ');
            p++;
            continue;
        }
        if (c < 0x20 || c == 0x7f) {
            pr_buf_putc(out, '?');
            p++;
            continue;
        }
        if (c < 0x80) {
            pr_buf_putc(out, (char)c);
            p++;
            continue;
        }
        /* A UTF-8 sequence: its length from the lead byte, then continuation
         * bytes; overlong forms and surrogates are rejected. */
        size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
        int ok = n > 0 && c < 0xf5 && (size_t)(end - p) >= n;
        for (size_t i = 1; ok && i < n; i++)
            ok = (p[i] & 0xc0) == 0x80;
        if (ok && n == 3)
            ok = !(c == 0xe0 && p[1] < 0xa0) && !(c == 0xed && p[1] >= 0xa0);
        if (ok && n == 4)
            ok = !(c == 0xf0 && p[1] < 0x90) && !(c == 0xf4 && p[1] >= 0x90);
        if (!ok) {
            pr_buf_putc(out, '?');
            p++;
            continue;
        }
        pr_buf_put(out, p, n);
        p += n;
    }
}

/* A JSON string of s made safe (see put_clean_text); a new reference. */
static json_t *clean_json_string(const char *s)
{
    pr_buf b = PR_BUF_INIT;
    put_clean_text(&b, s, strlen(s));
    json_t *j = json_string(pr_buf_cstr(&b));
    pr_buf_free(&b);
    return j;
}

/* ======================================================================
 * Shell words
 * ====================================================================== */

void pr_shell_quote(const char *s, pr_buf *out)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789_@%+=:,./-";
    if (*s && strspn(s, safe) == strlen(s)) {
        pr_buf_puts(out, s);
        return;
    }
    pr_buf_putc(out, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            pr_buf_puts(out, "'\\''");
        else
            pr_buf_putc(out, *s);
    }
    pr_buf_putc(out, '\'');
}

/* ======================================================================
 * Launchers
 * ====================================================================== */

static int local_vars(const pr_launch_ctx *ctx, pr_launch_vars *v, pr_err *err)
{
    if (ctx->c->nodes > 1)
        return pr_err_set(err, NULL, 0, 0, NULL,
                          "the case needs %d nodes; the local launcher runs one node "
                          "(select the case out with --only, or use a multi-node launcher)",
                          ctx->c->nodes);
    snprintf(v->master_addr, sizeof v->master_addr, "127.0.0.1");
    snprintf(v->master_port, sizeof v->master_port, "%d", ctx->master_port);
    snprintf(v->node_rank, sizeof v->node_rank, "0");
    snprintf(v->world_size, sizeof v->world_size, "%d", ctx->c->gpus);
    snprintf(v->local_rank, sizeof v->local_rank, "0");
    v->hostfile[0] = '\0';
    return 0;
}

/* The command itself, inside the suite's container when it names one
 * (docker or apptainer: the local launcher is one process on one node). */
static int local_wrap(const pr_launch_ctx *ctx, const pr_task *task, pr_launch_plan *p,
                      pr_err *err)
{
    char **v = NULL, **names = NULL;
    size_t n = 0, nn = 0;
    int rc = -1;
    memset(p, 0, sizeof *p);
    if (ctx->le && ctx->le->container != PR_CT_NONE) {
        for (char *const *e = task->env; e && *e; e++)
            pr_strv_push(&names, &nn, pr_xstrndup(*e, strcspn(*e, "=")));
        pr_container_spec cs = {ctx->le->container, ctx->le->image, ctx->workdir,
                                ctx->out_dir, ctx->le->mounts, names};
        if (pr_container_words(&cs, &v, &n, err) < 0)
            goto out;
    }
    for (size_t i = 0; i < task->argc; i++)
        pr_strv_push(&v, &n, pr_xstrdup(task->argv[i]));
    p->argv = v;
    v = NULL;
    p->ntasks = 1;
    rc = 0;
out:
    pr_strv_free(v);
    pr_strv_free(names);
    return rc;
}

const pr_launcher pr_launcher_local = {"local", local_vars, local_wrap};

/* To add a launcher: write its vars and wrap functions (launch.h) and add
 * it here; the suite's "launcher" and --launcher pick it by name. */
static const pr_launcher *const launchers[] = {&pr_launcher_local, &pr_launcher_mpirun,
                                               &pr_launcher_slurm};

const pr_launcher *pr_launcher_find(const char *name)
{
    for (size_t i = 0; i < sizeof launchers / sizeof *launchers; i++)
        if (strcmp(launchers[i]->name, name) == 0)
            return launchers[i];
    return NULL;
}

const char *pr_launcher_names(void)
{
    return "local, mpirun, slurm";
}

/* ======================================================================
 * Jobs
 * ====================================================================== */

void pr_job_free(pr_job *job)
{
    pr_strv_free(job->argv);
    pr_strv_free(job->env);
    free(job->log_path);
    free(job->log_rel);
    free(job->record_path);
    free(job->prepare_error);
    pr_launch_plan_free(job->plan);
    free(job->plan);
    memset(job, 0, sizeof *job);
}

/* DIR/logs/index/<case>_speed (malloc'd): the seeds' index file name. */
static char *record_path(const char *out_dir, const char *case_name)
{
    return pr_xasprintf("%s/logs/index/%s_speed", out_dir, case_name);
}

static int env_name_ok(const char *k)
{
    if (!(isalpha((unsigned char)*k) || *k == '_'))
        return 0;
    for (; *k; k++)
        if (!(isalnum((unsigned char)*k) || *k == '_'))
            return 0;
    return 1;
}

/* CUDA_VISIBLE_DEVICES for a case: the first gpn entries of measure's own
 * list when it has one (a shared machine restricted to some GPUs), else
 * 0..gpn-1.  Returns a malloc'd value, or NULL + why when the list is too
 * short. */
static char *visible_devices(const char *parent, int gpn, char **why)
{
    pr_buf b = PR_BUF_INIT;
    if (!parent || !*parent) {
        for (int g = 0; g < gpn; g++)
            pr_buf_printf(&b, "%s%d", g ? "," : "", g);
        return pr_buf_detach(&b);
    }
    const char *p = parent;
    int have = 0;
    while (have < gpn && *p) {
        size_t n = strcspn(p, ",");
        if (n) {
            if (have++)
                pr_buf_putc(&b, ',');
            pr_buf_put(&b, p, n);
        }
        p += n;
        if (*p == ',')
            p++;
    }
    if (have < gpn) {
        *why = pr_xasprintf("the case needs %d GPUs per node but measure's "
                            "CUDA_VISIBLE_DEVICES=%s lists %d", gpn, parent, have);
        pr_buf_free(&b);
        return NULL;
    }
    return pr_buf_detach(&b);
}

/* The runner variables a multi-node launcher leaves to each task, and the
 * variable the task's wrapper sets for each. */
static const struct {
    unsigned bit;
    const char *name, *var;
} task_refs[] = {{PR_REF_MASTER_ADDR, "master_addr", "MASTER_ADDR"},
                 {PR_REF_NODE_RANK, "node_rank", "NODE_RANK"},
                 {PR_REF_LOCAL_RANK, "local_rank", "LOCAL_RANK"}};
#define NREFS (sizeof task_refs / sizeof *task_refs)

/* While an argv word is expanded, a per-task reference stands as the
 * sentinel "\x01" + letter + "\x02" (templates cannot hold control
 * characters: pr_job_build refuses them), so that the word can then be
 * written both ways: with the reference as text, and as shell. */
static int sentinel_at(const char *p)
{
    return p[0] == '\x01' && p[1] >= 'a' && p[1] < 'a' + (int)NREFS && p[2] == '\x02'
               ? p[1] - 'a'
               : -1;
}

/* word with each sentinel written as "${VAR}", as text. */
static char *unsentinel(const char *word)
{
    pr_buf b = PR_BUF_INIT;
    for (const char *p = word; *p; p++) {
        int k = sentinel_at(p);
        if (k >= 0) {
            pr_buf_printf(&b, "${%s}", task_refs[k].var);
            p += 2;
        } else {
            pr_buf_putc(&b, *p);
        }
    }
    return pr_buf_detach(&b);
}

/* word as one shell word: its text quoted piece by piece, each sentinel a
 * "${VAR}" expansion between the pieces. */
static void put_shell_word(const char *word, pr_buf *out)
{
    pr_buf piece = PR_BUF_INIT;
    int any = 0;
    for (const char *p = word;; p++) {
        int k = *p ? sentinel_at(p) : -1;
        if (*p && k < 0) {
            pr_buf_putc(&piece, *p);
            continue;
        }
        if (piece.len) {
            pr_shell_quote(pr_buf_cstr(&piece), out);
            pr_buf_clear(&piece);
            any = 1;
        }
        if (!*p)
            break;
        pr_buf_printf(out, "\"${%s}\"", task_refs[k].var);
        any = 1;
        p += 2;
    }
    if (!any)
        pr_buf_puts(out, "''");
    pr_buf_free(&piece);
}

/* 1 when the suite's env sets name. */
static int suite_sets(const pr_suite *s, const char *name, size_t len)
{
    const char *k;
    json_t *v;
    json_object_foreach(s->env, k, v) {
        if (strlen(k) == len && memcmp(k, name, len) == 0)
            return 1;
    }
    return 0;
}

int pr_job_build(const pr_suite *s, const pr_case *c, const pr_job_ctx *ctx, pr_job *job,
                 pr_err *err)
{
    int rc = -1;
    pr_buf st = PR_BUF_INIT, b = PR_BUF_INIT, qst = PR_BUF_INIT, sh = PR_BUF_INIT;
    size_t nv = 0, nargv = 0, nenv = 0;
    pr_var *vars = pr_suite_case_vars(s, c, &st, &nv);
    pr_var *qvars = NULL;
    char **argv = NULL;
    char *log_dir = NULL, *cvd = NULL;
    int uses_refs = 0;
    pr_launch_vars lv;
    pr_launch_plan plan;
    char sentinels[NREFS][4];
    memset(job, 0, sizeof *job);
    memset(&lv, 0, sizeof lv);
    memset(&plan, 0, sizeof plan);

    job->log_rel = pr_xasprintf("logs/train_log/%s", c->name);
    job->log_path = pr_path_join(ctx->out_dir, job->log_rel);
    job->record_path = record_path(ctx->out_dir, c->name);
    log_dir = pr_path_join(ctx->out_dir, "logs/train_log");

    for (size_t i = 0; i < json_array_size(s->command); i++)
        if (strpbrk(json_string_value(json_array_get(s->command, i)), "\x01\x02")) {
            pr_err_set(err, s->path, 0, 0, "command", "control characters in the command");
            goto out;
        }
    pr_launch_ctx lc = {s, c, ctx->master_port, ctx->le, ctx->out_dir, ctx->workdir,
                        job->log_path, ctx->timeout_s > 0 ? ctx->timeout_s : s->timeout_s};
    pr_err lerr;
    if (ctx->launcher->vars(&lc, &lv, &lerr) < 0)
        job->prepare_error = pr_xstrdup(lerr.msg);
    pr_var extra[] = {
        {"log_dir", log_dir},           {"log_file", job->log_path},
        {"workdir", ctx->workdir},      {"master_addr", lv.master_addr},
        {"master_port", lv.master_port}, {"node_rank", lv.node_rank},
        {"world_size", lv.world_size},  {"local_rank", lv.local_rank},
        {"hostfile", lv.hostfile}};
    const size_t nextra = sizeof extra / sizeof *extra;
    /* The per-task references (none for local): their sentinels, and
     * which extra entries they are. */
    unsigned ref_of[sizeof extra / sizeof *extra] = {0};
    for (size_t k = 0; k < NREFS; k++) {
        snprintf(sentinels[k], sizeof sentinels[k], "\x01%c\x02", (int)('a' + k));
        for (size_t i = 0; i < nextra; i++)
            if ((lv.refs & task_refs[k].bit) && strcmp(extra[i].name, task_refs[k].name) == 0) {
                extra[i].value = sentinels[k];
                ref_of[i] = 1 + (unsigned)k;
            }
    }

    if (s->shell) {
        /* Every value becomes one shell word, so that no value, however it
         * is spelt, can be read by /bin/sh as syntax; a per-task reference
         * becomes "${VAR}", which the task's shell expands. */
        size_t nq = nv + nextra;
        size_t *off = pr_xmalloc(nq * sizeof *off);
        for (size_t i = 0; i < nq; i++) {
            off[i] = qst.len;
            if (i >= nv && ref_of[i - nv])
                pr_buf_printf(&qst, "\"${%s}\"", task_refs[ref_of[i - nv] - 1].var);
            else
                pr_shell_quote(i < nv ? vars[i].value : extra[i - nv].value, &qst);
            pr_buf_putc(&qst, '\0');
        }
        qvars = pr_xmalloc(nq * sizeof *qvars);
        for (size_t i = 0; i < nq; i++) {
            qvars[i].name = i < nv ? vars[i].name : extra[i - nv].name;
            qvars[i].value = qst.data + off[i];
        }
        free(off);
        const char *t = json_string_value(json_array_get(s->command, 0));
        if (pr_template_expand(t, qvars, nq, NULL, 0, &b, err) < 0)
            goto fail_cmd;
        pr_buf_puts(&sh, pr_buf_cstr(&b));
        pr_strv_push(&argv, &nargv, pr_xstrdup("/bin/sh"));
        pr_strv_push(&argv, &nargv, pr_xstrdup("-c"));
        pr_strv_push(&argv, &nargv, pr_buf_detach(&b));
    } else {
        pr_buf_puts(&sh, "exec");
        for (size_t i = 0; i < json_array_size(s->command); i++) {
            const char *t = json_string_value(json_array_get(s->command, i));
            pr_buf_clear(&b);
            if (pr_template_expand(t, vars, nv, extra, nextra, &b, err) < 0)
                goto fail_cmd;
            uses_refs |= strchr(pr_buf_cstr(&b), '\x01') != NULL;
            pr_buf_putc(&sh, ' ');
            put_shell_word(pr_buf_cstr(&b), &sh);
            pr_strv_push(&argv, &nargv, unsentinel(pr_buf_cstr(&b)));
        }
    }

    /* The environment: the suite's (expanded), then perfrepro's own, then
     * the launcher's (the suite's values win). */
    int suite_cvd = 0;
    const char *k;
    json_t *v;
    json_object_foreach(s->env, k, v) {
        if (!env_name_ok(k)) {
            pr_err_set(err, s->path, 0, 0, "env", "\"%s\" is not an environment variable name",
                       k);
            goto out;
        }
        if (strcmp(k, "PERFREPRO_CASE") == 0 || strcmp(k, "PERFREPRO_LOG") == 0)
            continue;
        suite_cvd |= strcmp(k, "CUDA_VISIBLE_DEVICES") == 0;
        pr_buf_clear(&b);
        pr_buf_printf(&b, "%s=", k);
        if (pr_template_expand(json_string_value(v), vars, nv, extra, nextra, &b, err) < 0) {
            pr_err_prefix(err, "%s: env.%s", s->path, k);
            goto out;
        }
        if (strchr(pr_buf_cstr(&b), '\x01')) {
            /* Variables are set once for every task. */
            pr_err_set(err, s->path, 0, 0, NULL,
                       "env.%s: {master_addr}, {node_rank} and {local_rank} differ between "
                       "the tasks of the %s launcher and cannot be set in env: each task has "
                       "them as MASTER_ADDR, NODE_RANK and LOCAL_RANK",
                       k, ctx->launcher->name);
            goto out;
        }
        pr_strv_push(&job->env, &nenv, pr_xstrdup(pr_buf_cstr(&b)));
    }
    if (!suite_cvd) {
        char *why = NULL;
        cvd = visible_devices(ctx->parent_cvd, c->gpus_per_node, &why);
        if (cvd)
            pr_strv_push(&job->env, &nenv, pr_xasprintf("CUDA_VISIBLE_DEVICES=%s", cvd));
        else if (!job->prepare_error)
            job->prepare_error = why;
        else
            free(why);
    }
    pr_strv_push(&job->env, &nenv, pr_xasprintf("PERFREPRO_CASE=%s", c->name));
    pr_strv_push(&job->env, &nenv, pr_xasprintf("PERFREPRO_LOG=%s", job->log_path));
    for (char **e = lv.env; e && *e; e++)
        if (!suite_sets(s, *e, strcspn(*e, "=")))
            pr_strv_push(&job->env, &nenv, pr_xstrdup(*e));

    if (!job->prepare_error) {
        pr_task task = {argv, nargv, s->shell || uses_refs ? pr_buf_cstr(&sh) : NULL, job->env};
        if (ctx->launcher->wrap(&lc, &task, &plan, &lerr) < 0) {
            job->prepare_error = pr_xstrdup(lerr.msg);
        } else {
            job->argv = plan.argv;
            plan.argv = NULL;
            job->plan = pr_xmalloc(sizeof *job->plan);
            *job->plan = plan;
            memset(&plan, 0, sizeof plan);
        }
    }
    rc = 0;
    goto out;
fail_cmd:
    pr_err_prefix(err, "%s: command", s->path);
out:
    pr_strv_free(argv);
    pr_strv_free(lv.env);
    pr_launch_plan_free(&plan);
    free(vars);
    free(qvars);
    free(log_dir);
    free(cvd);
    pr_buf_free(&st);
    pr_buf_free(&qst);
    pr_buf_free(&b);
    pr_buf_free(&sh);
    return rc;
}

void pr_job_format(const pr_job *job, pr_buf *out)
{
    if (job->plan && job->plan->script) {
        /* A quoted here-document delimiter: the script is written as it is. */
        pr_buf_puts(out, "cat >");
        pr_shell_quote(job->plan->script_path, out);
        pr_buf_puts(out, " <<'PERFREPRO_SBATCH_EOF'\n");
        pr_buf_puts(out, job->plan->script);
        pr_buf_puts(out, "PERFREPRO_SBATCH_EOF\n");
    }
    for (char **e = job->env; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        pr_buf_put(out, *e, (size_t)(eq - *e + 1));
        pr_shell_quote(eq + 1, out);
        pr_buf_putc(out, ' ');
    }
    for (char **a = job->argv; a && *a; a++) {
        if (a != job->argv)
            pr_buf_putc(out, ' ');
        pr_shell_quote(*a, out);
    }
}

/* ======================================================================
 * Out-of-memory messages
 * ====================================================================== */

/* What frameworks and runtimes print when memory runs out.  ci: matched
 * case-insensitively (the pattern is written lowercase); word: must not
 * touch a letter, digit or '_' on either side ("OOM" but not "ZOOM"). */
static const struct {
    const char *s;
    int ci, word;
} oom_pats[] = {
    {"out of memory", 1, 0},            /* CUDA out of memory; CUDA error: out of memory;
                                           Paddle "Out of memory error"; kernel OOM killer */
    {"out_of_memory", 1, 0},            /* CUDA_ERROR_OUT_OF_MEMORY, cuBLAS/cuDNN statuses */
    {"cudaerrormemoryallocation", 1, 0},
    {"resourceexhaustederror", 1, 0},   /* TensorFlow */
    {"resource_exhausted", 1, 0},       /* XLA / JAX status */
    {"std::bad_alloc", 0, 0},           /* C++ allocation failure */
    {"MemoryError", 0, 0},              /* Python */
    {"cannot allocate memory", 1, 0},   /* ENOMEM: fork, mmap */
    {"oom-kill", 1, 0},                 /* cgroup / kernel */
    {"oom_kill", 1, 0},
    {"OOM", 0, 1},                      /* TF "OOM when allocating tensor" */
};

static int word_char(unsigned char c)
{
    return isalnum(c) || c == '_';
}

/* s[0..len) and its lowercase copy low. */
static int oom_match(const char *s, const char *low, size_t len)
{
    for (size_t k = 0; k < sizeof oom_pats / sizeof *oom_pats; k++) {
        const char *hay = oom_pats[k].ci ? low : s;
        size_t pl = strlen(oom_pats[k].s);
        const char *p = hay, *m;
        while ((m = memmem(p, len - (size_t)(p - hay), oom_pats[k].s, pl)) != NULL) {
            size_t off = (size_t)(m - hay);
            if (!oom_pats[k].word ||
                ((off == 0 || !word_char((unsigned char)hay[off - 1])) &&
                 (off + pl == len || !word_char((unsigned char)hay[off + pl]))))
                return 1;
            p = m + 1;
        }
    }
    return 0;
}

int pr_oom_match(const char *line, size_t len)
{
    char *low = pr_xmalloc(len + 1);
    for (size_t i = 0; i < len; i++)
        low[i] = (char)tolower((unsigned char)line[i]);
    int r = oom_match(line, low, len);
    free(low);
    return r;
}

/* What a failed job's log says about its failure, from one pass. */
typedef struct log_verdict {
    char *low;          /* scratch: the line in lowercase */
    pr_buf oom;         /* the last out-of-memory line */
    int has_oom;
    /* The last "PERFREPRO_FAILURE: reason: detail" line with a reason
     * records know (the GPU workloads print it, see gpuhost.h). */
    char reason[32];
    pr_buf detail;
    int stated;
} log_verdict;

static int verdict_line(const pr_logline *l, void *ctx, pr_err *err)
{
    (void)err;
    log_verdict *v = ctx;
    char reason[32];
    const char *detail;
    if (pr_gpu_failure_parse(l->text, reason, sizeof reason, &detail) &&
        pr_str_in(reason, pr_fail_reasons)) {
        memcpy(v->reason, reason, sizeof reason);
        pr_buf_clear(&v->detail);
        size_t n = strlen(detail);
        put_clean_text(&v->detail, detail, n < 300 ? n : 300);
        v->stated = 1;
    }
    for (size_t i = 0; i < l->len; i++)
        v->low[i] = (char)tolower((unsigned char)l->text[i]);
    if (oom_match(l->text, v->low, l->len)) {
        pr_buf_clear(&v->oom);
        put_clean_text(&v->oom, l->text, l->len < 200 ? l->len : 200);
        v->has_oom = 1;
    }
    return 0;
}

/* Reads the log at path once into v (which the caller frees with
 * verdict_free, also after -1). */
static int read_verdict(const char *path, log_verdict *v, pr_err *err)
{
    memset(v, 0, sizeof *v);
    v->low = pr_xmalloc(PR_LOGSCAN_BUF + 1);
    pr_logscan_stats st;
    memset(&st, 0, sizeof st);
    return pr_logscan_path(path, verdict_line, v, &st, err);
}

static void verdict_free(log_verdict *v)
{
    free(v->low);
    pr_buf_free(&v->oom);
    pr_buf_free(&v->detail);
}

/* Reads every log of a job in turn (the case's log, then each task's) into
 * one verdict: the last statement or out-of-memory line over them wins. */
static int read_verdicts(const char *out_dir, const char *log_path, const pr_launch_result *lr,
                         log_verdict *v, pr_err *err)
{
    if (read_verdict(log_path, v, err) < 0)
        return -1;
    pr_logscan_stats st;
    memset(&st, 0, sizeof st);
    for (char **l = lr->logs; l && *l; l++) {
        char *path = pr_path_join(out_dir, *l);
        if (strcmp(path, log_path) != 0 && pr_is_file(path))
            pr_logscan_path(path, verdict_line, v, &st, err);
        free(path);
    }
    return 0;
}

int pr_log_find_oom(const char *path, pr_buf *line, pr_err *err)
{
    log_verdict v;
    int rc = read_verdict(path, &v, err);
    if (rc == 0 && v.has_oom) {
        pr_buf_clear(line);
        pr_buf_put(line, v.oom.data, v.oom.len);
    }
    verdict_free(&v);
    return rc < 0 ? -1 : v.has_oom;
}

/* ======================================================================
 * Formatting
 * ====================================================================== */

void pr_fmt_duration(double s, char out[32])
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

typedef struct run_state {
    const pr_suite *s;
    const pr_run_opts *o;
    pr_run_summary *sum;
    const pr_launcher *launcher;
    pr_launch_env le;       /* the run's launch options and findings */
    int le_ready;
    pr_rule *rule;
    pr_rule *rule_parts;    /* the rule reading several logs as one (Slurm, rank "all") */
    json_t *rule_json;      /* the normalised rule, stored in every record */
    char *out;              /* absolute output directory */
    char *workdir;          /* absolute */
    char *version;          /* the framework version measured, or NULL */
    double timeout_s;
    size_t *sel;            /* indices of the selected cases */
    size_t nsel;
    pr_record *kept;        /* per selected case: its valid record (--resume) */
    unsigned char *todo;    /* per selected case: 1 when it runs now */
    size_t index;           /* the case running, 0-based among sel */
    double ran_s;           /* time spent in the cases run so far */
    size_t ran_n;
} run_state;

static void emit(const run_state *st, pr_run_event *ev)
{
    if (st->o->event)
        st->o->event(ev, st->o->ud);
}

static void warn(const run_state *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void warn(const run_state *st, const char *fmt, ...)
{
    pr_buf b = PR_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    pr_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    pr_run_event ev = {.kind = PR_EV_WARN, .text = pr_buf_cstr(&b), .len = b.len, .eta_s = -1};
    emit(st, &ev);
    pr_buf_free(&b);
}

/* The estimated time left: the mean duration of the cases run so far times
 * the cases still to run, less what the running case has done; < 0 while
 * nothing has finished. */
static double eta(const run_state *st, double running_elapsed)
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

static int select_cases(run_state *st, pr_err *err)
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
            warn(st, "--only %s matches no case", o->only[p]);
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
static int valid_record(const run_state *st, const char *path, const pr_case *c, pr_record *rec)
{
    pr_err ignored;
    struct stat sb;
    /* lstat: a link planted at the record's path is no record of ours. */
    if (lstat(path, &sb) < 0 || !S_ISREG(sb.st_mode) || pr_record_load(path, rec, &ignored) < 0)
        return 0;
    return strcmp(rec->case_name, c->name) == 0 && strcmp(rec->model, st->s->model) == 0 &&
           strcmp(rec->framework, st->s->framework) == 0;
}

/* Removes the temporary files (pr_is_temp_name: "NAME.tmp.PID.XXXXXX" and
 * the older "NAME.tmp.PID"; NAME ending in stem_end) and the previous
 * run's files moved aside (run_case) that a measure killed outright left.
 * Only those of a process that is gone: `measure parse --out` writes into
 * the same folders without our lock. */
static void remove_stale_temps(const char *dir, const char *stem_end)
{
    char **names = NULL;
    size_t se = strlen(stem_end);
    pr_err ignored;
    if (pr_list_dir(dir, &names, NULL, &ignored) < 0)
        return;
    for (char **e = names; *e; e++) {
        long pid;
        if (!pr_is_temp_name(*e, &pid))
            continue;
        /* NAME ends where the last infix starts (pr_is_temp_name's rule). */
        const char *t = strstr(*e, PR_TEMP_INFIX);
        for (const char *next; (next = strstr(t + 1, PR_TEMP_INFIX));)
            t = next;
        if ((size_t)(t - *e) < se || memcmp(t - se, stem_end, se) != 0)
            continue;
        if (pid == (long)getpid() || pr_pid_alive(pid))
            continue;
        char *p = pr_path_join(dir, *e);
        (void)pr_remove_tree(p);
        free(p);
    }
    pr_strv_free(names);
}

/* Creates the output tree and takes the lock that keeps a second measure
 * out of it.  *lock_fd stays open (and locked) until the run ends. */
static int prepare_out(run_state *st, int *lock_fd, pr_err *err)
{
    if (pr_mkdirs(st->o->out_dir, err) < 0)
        return -1;
    char *abs = realpath(st->o->out_dir, NULL);
    if (!abs)
        return pr_err_errno(err, st->o->out_dir, "cannot resolve");
    st->out = pr_xstrdup(abs);
    free(abs);
    *lock_fd = open(st->out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (*lock_fd < 0)
        return pr_err_errno(err, st->out, "cannot open");
    /* Only "held by another" stops us: a file system without locks (some
     * network ones) runs unguarded rather than not at all. */
    if (flock(*lock_fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK)
        return pr_err_set(err, st->out, 0, 0, NULL,
                          "another perfrepro-measure is running into this directory");
    char *logs = pr_path_join(st->out, "logs/train_log");
    char *index = pr_path_join(st->out, "logs/index");
    int rc = pr_mkdirs(logs, err) < 0 || pr_mkdirs(index, err) < 0 ? -1 : 0;
    if (rc == 0) {
        remove_stale_temps(index, "_speed");
        remove_stale_temps(logs, "");
        remove_stale_temps(st->out, "env.json");
    }
    free(logs);
    free(index);
    return rc;
}

/* Checks every dataset's md5 before anything runs. */
static int verify_datasets(run_state *st, pr_err *err)
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
        pr_run_event ev = {.kind = PR_EV_DATASET, .text = pr_buf_cstr(&label), .len = label.len,
                           .eta_s = -1};
        emit(st, &ev);
        char got[33];
        pr_err e;
        int rc = pr_md5_file(path, got, pr_runner_interrupt_flag(), &e);
        if (rc < 0 && (*pr_runner_interrupt_flag())) {
            pr_buf_free(&label);
            return 0; /* the caller sees the interruption */
        }
        if (rc < 0)
            pr_err_set(err, st->s->path, 0, 0, NULL, "%s: %s (expected md5 %s)",
                       pr_buf_cstr(&label), e.msg, want);
        else if (strcmp(got, want) != 0)
            pr_err_set(err, st->s->path, 0, 0, NULL,
                       "%s: md5 is %s, expected %s: the file differs from the one the suite "
                       "was written for", pr_buf_cstr(&label), got, want);
        pr_buf_free(&label);
        if (rc < 0 || strcmp(got, want) != 0)
            return -1;
    }
    return 0;
}

/* Runs the suite's framework_version_command (no shell, 60 s at most) and
 * keeps the first line of its standard output, trimmed.  NULL + a warning
 * when it fails. */
static char *run_version_command(run_state *st)
{
    char *out = NULL, **argv = NULL;
    size_t n = 0;
    pr_err err;
    char *tmpl = pr_path_join(st->out, ".version.XXXXXX");
    int fd = mkostemp(tmpl, O_CLOEXEC);
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || devnull < 0) {
        warn(st, "framework_version_command: cannot create a temporary file: %s",
             strerror(errno));
        goto out;
    }
    unlink(tmpl);
    for (size_t i = 0; i < json_array_size(st->s->version_command); i++)
        pr_strv_push(&argv, &n,
                  pr_xstrdup(json_string_value(json_array_get(st->s->version_command, i))));
    pr_proc_spec sp = {.argv = argv, .out_fd = fd, .err_fd = devnull, .timeout_s = 60,
                       .grace_s = st->o->kill_grace_s};
    pr_proc_result res;
    if (pr_proc_run(&sp, &res, &err) < 0) {
        warn(st, "framework_version_command: %s", err.msg);
        goto out;
    }
    if (res.interrupted)
        goto out;
    if (res.launch_errno) {
        warn(st, "framework_version_command: cannot run %s: %s", argv[0],
             strerror(res.launch_errno));
        goto out;
    }
    if (res.timed_out || res.exit_status != 0) {
        warn(st, "framework_version_command (%s) %s %d", argv[0],
             res.timed_out      ? "gave no answer within 60 s, timeout"
             : res.term_signal ? "was killed by signal"
                                : "exited with status",
             res.timed_out ? 60 : res.term_signal ? res.term_signal : res.exit_status);
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
        warn(st, "framework_version_command (%s) printed nothing on its first line", argv[0]);
        goto out;
    }
    pr_buf v = PR_BUF_INIT;
    put_clean_text(&v, buf + b, len - b);
    out = pr_buf_detach(&v);
out:
    if (fd >= 0)
        close(fd);
    if (devnull >= 0)
        close(devnull);
    free(tmpl);
    pr_strv_free(argv);
    return out;
}

static const char *signal_name(int sig)
{
    static const struct {
        int n;
        const char *s;
    } t[] = {{SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"},
             {SIGILL, "SIGILL"},   {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"},
             {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"},
             {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
             {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
             {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"}};
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
    put_clean_text(&b, detail, strlen(detail));
    rec->failed = 1;
    free(rec->fail_reason);
    free(rec->fail_detail);
    rec->fail_reason = r;
    rec->fail_detail = pr_buf_detach(&b);
}

/* An mpirun --host list may name hosts by address: see runner.h. */
char *pr_scrub_addresses(const char *s)
{
    pr_buf b = PR_BUF_INIT;
    const char *p = s;
    while (*p) {
        size_t n = strspn(p, "0123456789.");
        int bounded = (p == s || !isalnum((unsigned char)p[-1])) &&
                      !isalnum((unsigned char)p[n]);
        if (n >= 7 && bounded) {
            char *tok = pr_xstrndup(p, n);
            int addr = pr_is_ip_address(tok) && strncmp(tok, "127.", 4) != 0 &&
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
static void record_base(const run_state *st, const pr_case *c, const pr_job *job, pr_record *rec)
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
            char *w = pr_scrub_addresses(*a);
            json_array_append_new(rec->command, clean_json_string(w));
            free(w);
        }
    }
}

/* The values the rule may need from the case (per_card scope, per-step
 * conversions); the suite's unit names what the records report. */
static pr_parse_args parse_args(const pr_suite *s, const pr_case *c)
{
    pr_parse_args a = {c->gpus, c->batch_size, s->seq_len, s->unit};
    return a;
}

/* Applies the suite's rule to the log of a job that exited 0: fills
 * FINAL_RESULT, stats and metrics, or the failure the rule reports
 * (no_records, too_few_records, parse_error). */
static void analyse_log(run_state *st, const pr_case *c, const pr_job *job,
                        const pr_launch_result *lr, pr_record *rec)
{
    pr_parse_args a = parse_args(st->s, c);
    pr_parse_result res;
    pr_err e;
    size_t nlogs = 0;
    while (lr->parse[nlogs])
        nlogs++;
    const pr_rule *rule = st->rule;
    if (lr->parts) {
        /* Several tasks' logs read as one, as mpirun's merged log is. */
        if (!st->rule_parts) {
            json_t *j = pr_rule_to_json(st->rule);
            json_object_set_new(j, "files", json_string("parts"));
            if (pr_rule_from_json(j, st->s->path, &st->rule_parts, &e) < 0)
                st->rule_parts = NULL;
            json_decref(j);
        }
        if (st->rule_parts)
            rule = st->rule_parts;
    }
    pr_parse_result_init(&res);
    if (pr_parse_logs(rule, (const char *const *)lr->parse, nlogs, &a, &res, &e) < 0) {
        /* check_inputs ran pr_parse_check_args: not expected. */
        pr_parse_result_clear(&res);
        set_failed(rec, "parse_error", e.msg);
        return;
    }
    pr_parse_to_record(rule, &res, rec);
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

/* Decides what the record says about a job that ran (or tried to). */
static void classify(run_state *st, const pr_case *c, const pr_job *job,
                     const pr_launch_result *lr, const pr_proc_result *res, pr_record *rec)
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
        pr_buf_printf(&d, "no exit within %gs: its process group was sent SIGTERM, then "
                      "SIGKILL after %gs", st->timeout_s, st->o->kill_grace_s);
        if (lr->job_id)
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
    log_verdict v;
    if (read_verdicts(st->out, job->log_path, lr, &v, &e) < 0)
        v.stated = v.has_oom = 0; /* an unreadable log tells nothing more */
    if (v.stated && strcmp(reason, "timeout") != 0) {
        pr_buf b = PR_BUF_INIT;
        pr_buf_printf(&b, "%s (%s)", pr_buf_cstr(&v.detail), pr_buf_cstr(&d));
        set_failed(rec, v.reason, pr_buf_cstr(&b));
        pr_buf_free(&b);
        verdict_free(&v);
        goto out;
    }
    if (v.has_oom) {
        pr_buf_printf(&d, "; the log reports: %s", pr_buf_cstr(&v.oom));
        /* A hang after running out of memory is still reported as the
         * timeout it was; the detail names the message. */
        if (strcmp(reason, "timeout") != 0)
            reason = "oom";
    } else if (res->term_signal == SIGKILL) {
        pr_buf_puts(&d, ", not sent by perfrepro: often the kernel's out-of-memory killer");
    }
    verdict_free(&v);
    set_failed(rec, reason, pr_buf_cstr(&d));
out:
    pr_buf_free(&d);
}

typedef struct tick_ctx {
    const run_state *st;
    const pr_case *c;
} tick_ctx;

static void on_tick(void *ud, double elapsed)
{
    tick_ctx *t = ud;
    pr_run_event ev = {.kind = PR_EV_CASE_TICK, .index = t->st->index + 1,
                       .total = t->st->nsel, .c = t->c, .elapsed_s = elapsed,
                       .eta_s = eta(t->st, elapsed)};
    emit(t->st, &ev);
}

static void on_output(void *ud, const char *data, size_t len)
{
    tick_ctx *t = ud;
    pr_run_event ev = {.kind = PR_EV_OUTPUT, .index = t->st->index + 1, .total = t->st->nsel,
                       .c = t->c, .text = data, .len = len, .eta_s = -1};
    emit(t->st, &ev);
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

/* Moves path to "PATH.tmp.PID.oldrun" when anything is there (a name
 * pr_is_temp_name knows: a measure killed meanwhile leaves it to the next
 * run's remove_stale_temps). */
static int aside_move(aside *a, const char *path, pr_err *err)
{
    struct stat st;
    if (lstat(path, &st) < 0)
        return errno == ENOENT ? 0 : pr_err_errno(err, path, "cannot look at");
    char *to = pr_xasprintf("%s" PR_TEMP_INFIX "%ld.oldrun", path, (long)getpid());
    if (rename(path, to) < 0) {
        pr_err_errno(err, path, "cannot move the previous run's file aside");
        free(to);
        return -1;
    }
    pr_strv_push(&a->from, &a->n, pr_xstrdup(path));
    pr_strv_push(&a->to, &a->nto, to);
    return 0;
}

/* Puts every file back, the last moved first; what the new run wrote in
 * its place goes. */
static void aside_restore(aside *a)
{
    for (size_t i = a->n; i-- > 0;) {
        (void)pr_remove_tree(a->from[i]);
        (void)rename(a->to[i], a->from[i]);
    }
}

/* Removes the previous run's files (the new record is written). */
static void aside_drop(aside *a)
{
    for (size_t i = 0; i < a->n; i++)
        (void)pr_remove_tree(a->to[i]);
}

static void aside_free(aside *a)
{
    pr_strv_free(a->from);
    pr_strv_free(a->to);
    memset(a, 0, sizeof *a);
}

/* Runs one case and writes its record.  Returns 0 when done, 1 when measure
 * was interrupted (no record: --resume runs the case again), -1 + err when
 * the output directory failed us (the run stops; the case's previous record
 * and logs are as they were). */
static int run_case(run_state *st, const pr_case *c, const pr_job *job, pr_record *rec,
                    pr_err *err)
{
    int rc = -1, fd = -1, had_record = 0, had_log = 0;
    pr_launch_result lr;
    aside old;
    char **outs = pr_launch_outputs(job->plan);
    memset(&lr, 0, sizeof lr);
    memset(&old, 0, sizeof old);
    if (aside_move(&old, job->record_path, err) < 0)
        goto out;
    had_record = old.n > 0;
    if (aside_move(&old, job->log_path, err) < 0)
        goto out;
    had_log = old.n > (size_t)had_record;
    for (char **o = outs; o && *o; o++)
        if (aside_move(&old, *o, err) < 0)
            goto out;
    record_base(st, c, job, rec);
    char when[32];
    pr_fmt_utc(time(NULL), when);
    rec->started_at = pr_xstrdup(when);
    /* Nothing is at the path now: O_EXCL|O_NOFOLLOW refuses a file or link
     * planted since rather than writing through it. */
    fd = open(job->log_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC,
              0644);
    if (fd < 0) {
        pr_err_errno(err, job->log_path, "cannot create the log");
        goto out;
    }
    if (!job->prepare_error && job->plan && job->plan->script &&
        pr_write_atomic(job->plan->script_path, job->plan->script, strlen(job->plan->script),
                        err) < 0)
        goto out;
    if (job->prepare_error) {
        rec->duration_s = 0;
        set_failed(rec, "launch_error", job->prepare_error);
    } else {
        tick_ctx t = {st, c};
        pr_proc_spec sp = {.argv = job->argv, .env = job->env, .out_fd = fd, .err_fd = fd,
                           .timeout_s = st->timeout_s, .grace_s = st->o->kill_grace_s,
                           .tick = on_tick, .ud = &t};
        if (st->o->echo) {
            sp.follow_path = job->log_path;
            sp.output = on_output;
        }
        pr_proc_result res;
        pr_err perr;
        if (pr_proc_run(&sp, &res, &perr) < 0) {
            rec->duration_s = 0;
            set_failed(rec, "launch_error", perr.msg);
        } else {
            if (res.stray)
                warn(st, "%s: processes of its group outlived it and were ended", c->name);
            if (res.unkillable)
                warn(st, "%s: processes of its group survived SIGKILL and were left behind",
                     c->name);
            /* Stopping sbatch does not stop the batch job it waits for. */
            if (job->plan && job->plan->batch &&
                (res.timed_out || res.interrupted || res.term_signal)) {
                char *id = pr_launch_batch_job_id(job->log_path);
                if (id) {
                    pr_launch_stop(id, fd);
                    warn(st, "%s: cancelled Slurm job %s", c->name, id);
                }
                free(id);
            }
            if (res.interrupted) {
                rc = 1;
                goto out;
            }
            pr_launch_collect(job->plan, st->out, job->log_path, job->log_rel,
                              pr_rule_get(st->rule)->rank, &lr);
            record_launch(&lr, rec);
            classify(st, c, job, &lr, &res, rec);
        }
    }
    if (job->prepare_error || !lr.log_file) {
        /* What the launcher meant to run is still worth recording. */
        pr_launch_collect(job->plan, st->out, job->log_path, job->log_rel, -1, &lr);
        record_launch(&lr, rec);
        free(rec->log_file);
        rec->log_file = pr_xstrdup(job->log_rel);
    }
    if (pr_record_write(job->record_path, rec, err) < 0)
        goto out;
    rc = 0;
out:
    pr_launch_result_free(&lr);
    if (fd >= 0)
        close(fd);
    /* Interrupted: the case has no record (--resume runs it again), and the
     * log of the interrupted job stays. */
    if (rc < 0) {
        /* A previous record without its log must not come back describing
         * the new one. */
        if (had_record && !had_log)
            (void)unlink(job->log_path);
        aside_restore(&old);
    } else
        aside_drop(&old);
    aside_free(&old);
    pr_strv_free(outs);
    return rc;
}

static void count(pr_run_summary *sum, const pr_record *rec)
{
    if (!rec->failed) {
        sum->ok++;
        return;
    }
    sum->failed++;
    for (size_t i = 0; pr_fail_reasons[i] && i < PR_RUN_NREASONS; i++)
        if (strcmp(pr_fail_reasons[i], rec->fail_reason) == 0)
            sum->by_reason[i]++;
}

/* Builds the suite's parse rule and checks that the cases give what it
 * needs.  The suite file is read again for its rule: the rule's errors then
 * name the suite's file, line and column (pr_suite keeps no document). */
static int compile_rule(run_state *st, pr_err *err)
{
    pr_jdoc *doc = NULL;
    int rc = -1;
    if (pr_jdoc_load(st->s->path, &doc, err) < 0)
        return -1;
    pr_jcur root = pr_jdoc_root(doc);
    pr_jcur rule = pr_jchild(&root, "rule");
    if (pr_rule_from_jcur(&rule, &st->rule, err) < 0)
        goto out;
    for (size_t i = 0; i < st->nsel; i++) {
        pr_parse_args a = parse_args(st->s, &st->s->cases[st->sel[i]]);
        if (pr_parse_check_args(st->rule, &a, err) < 0) {
            /* The message names `parse`'s options; a suite gives the
             * batch size and GPU count per case, and seq_len and unit. */
            pr_err_prefix(err, "%s: rule: the suite does not give what the rule needs "
                          "(--seq-len is the suite's \"seq_len\", --unit its \"unit\")",
                          st->s->path);
            goto out;
        }
    }
    st->rule_json = pr_rule_to_json(st->rule);
    rc = 0;
out:
    pr_jdoc_free(doc);
    return rc;
}

/* How the jobs of this run are built, into out_dir. */
static pr_job_ctx job_ctx(const run_state *st, const char *out_dir)
{
    pr_job_ctx jc = {st->launcher, out_dir, st->workdir, getenv("CUDA_VISIBLE_DEVICES"),
                     st->o->master_port ? st->o->master_port : 29500, &st->le, st->timeout_s};
    return jc;
}

/* Checks what the suite gives the runner before anything is created. */
static int check_inputs(run_state *st, pr_err *err)
{
    const char *name = st->o->launcher ? st->o->launcher : st->s->launcher;
    st->launcher = pr_launcher_find(name);
    if (!st->launcher)
        return pr_err_set(err, NULL, 0, 0, NULL, "unknown launcher \"%s\" (this perfrepro has: %s)",
                          name, pr_launcher_names());
    if (pr_launch_env_init(&st->le, st->s, name, &st->o->launch, err) < 0)
        return -1;
    st->le_ready = 1;
    /* What is wrong with the command or env of one case is wrong with all
     * (the templates are the suite's): building the first job finds it. */
    pr_job job;
    pr_job_ctx jc = job_ctx(st, st->o->out_dir);
    int rc = pr_job_build(st->s, &st->s->cases[st->sel[0]], &jc, &job, err);
    pr_job_free(&job);
    if (rc < 0 || compile_rule(st, err) < 0)
        return -1;
    /* Under a multi-node launcher the rule's rank names one of the tasks
     * perfrepro starts: a rank beyond them would read nothing, case after
     * case.  (Under local, ranks are the job's own business.) */
    int rank = pr_rule_get(st->rule)->rank;
    if (rank > 0 && st->launcher != &pr_launcher_local) {
        int per_node = st->le.ranks == PR_RANKS_PER_NODE;
        for (size_t i = 0; i < st->nsel; i++) {
            const pr_case *c = &st->s->cases[st->sel[i]];
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
static int dry_run(run_state *st, pr_err *err)
{
    pr_job_ctx jc = job_ctx(st, st->out);
    for (size_t i = 0; i < st->nsel; i++) {
        const pr_case *c = &st->s->cases[st->sel[i]];
        pr_job job;
        int rc = pr_job_build(st->s, c, &jc, &job, err);
        if (rc == 0) {
            pr_run_event ev = {.kind = PR_EV_DRY, .index = i + 1, .total = st->nsel, .c = c,
                               .job = &job, .skipped = !st->todo[i], .eta_s = -1};
            emit(st, &ev);
        }
        pr_job_free(&job);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* Runs (or, with --resume, keeps) the selected cases in order.  -1 + err
 * only when the output directory fails us. */
static int run_cases(run_state *st, pr_err *err)
{
    pr_job_ctx jc = job_ctx(st, st->out);
    for (st->index = 0; st->index < st->nsel; st->index++) {
        const pr_case *c = &st->s->cases[st->sel[st->index]];
        if ((*pr_runner_interrupt_flag())) {
            st->sum->interrupted = (*pr_runner_interrupt_flag());
            break;
        }
        pr_run_event ev = {.index = st->index + 1, .total = st->nsel, .c = c, .eta_s = -1};
        if (!st->todo[st->index]) {
            ev.kind = PR_EV_CASE_DONE;
            ev.rec = &st->kept[st->index];
            ev.skipped = 1;
            ev.eta_s = eta(st, -1);
            st->sum->skipped++;
            count(st->sum, &st->kept[st->index]);
            emit(st, &ev);
            continue;
        }
        pr_job job;
        pr_record rec;
        pr_record_init(&rec);
        int crc = pr_job_build(st->s, c, &jc, &job, err);
        if (crc == 0) {
            ev.kind = PR_EV_CASE_START;
            ev.job = &job;
            ev.eta_s = eta(st, 0);
            emit(st, &ev);
            crc = run_case(st, c, &job, &rec, err);
        }
        if (crc == 0) {
            st->sum->ran++;
            count(st->sum, &rec);
            st->ran_s += rec.duration_s > 0 ? rec.duration_s : 0;
            st->ran_n++;
            ev.kind = PR_EV_CASE_DONE;
            ev.rec = &rec;
            ev.elapsed_s = rec.duration_s;
            ev.eta_s = eta(st, -1);
            emit(st, &ev);
        }
        pr_record_clear(&rec);
        pr_job_free(&job);
        if (crc == 1) {
            st->sum->interrupted = (*pr_runner_interrupt_flag());
            st->sum->interrupted_case = c->name;
            break;
        }
        if (crc < 0)
            return -1;
    }
    return 0;
}

int pr_run_suite(const pr_suite *s, const pr_run_opts *o, pr_run_summary *sum, pr_err *err)
{
    int rc = -1, lock_fd = -1, installed = 0;
    run_state st;
    memset(&st, 0, sizeof st);
    memset(sum, 0, sizeof *sum);
    st.s = s;
    st.o = o;
    st.sum = sum;
    st.timeout_s = o->timeout_s > 0 ? o->timeout_s : s->timeout_s;
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
                                      : pr_path_join(st.workdir, o->out_dir);
    } else {
        if (pr_runner_signals_install(err) < 0)
            goto out;
        installed = 1;
        if (prepare_out(&st, &lock_fd, err) < 0)
            goto out;
    }
    for (size_t i = 0; i < st.nsel; i++) {
        pr_record_init(&st.kept[i]);
        char *rp = record_path(st.out, s->cases[st.sel[i]].name);
        st.todo[i] = !(o->resume && valid_record(&st, rp, &s->cases[st.sel[i]], &st.kept[i]));
        free(rp);
    }
    if (o->dry_run) {
        rc = dry_run(&st, err);
        goto out;
    }
    if (verify_datasets(&st, err) < 0)
        goto out;
    if ((*pr_runner_interrupt_flag())) {
        sum->interrupted = (*pr_runner_interrupt_flag());
        rc = 0;
        goto out;
    }
    if (s->version_command) {
        st.version = run_version_command(&st);
        if (st.version && s->framework_version && strcmp(st.version, s->framework_version) != 0)
            warn(&st, "framework_version_command says %s but the suite says %s: the records "
                 "keep %s", st.version, s->framework_version, st.version);
    }
    if ((*pr_runner_interrupt_flag())) {
        sum->interrupted = (*pr_runner_interrupt_flag());
        rc = 0;
        goto out;
    }
    json_t *env = pr_envinfo_capture(s->framework, st.version ? st.version : s->framework_version,
                                     time(NULL));
    char *env_path = pr_path_join(st.out, "env.json");
    int wrc = pr_envinfo_write(env_path, env, err);
    free(env_path);
    json_decref(env);
    if (wrc < 0)
        goto out;

    if (run_cases(&st, err) < 0)
        goto out;
    rc = 0;
out:
    if (installed) {
        if (rc == 0 && !sum->interrupted && (*pr_runner_interrupt_flag()))
            sum->interrupted = (*pr_runner_interrupt_flag());
        pr_runner_signals_restore();
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
    pr_rule_free(st.rule);
    pr_rule_free(st.rule_parts);
    if (st.le_ready)
        pr_launch_env_free(&st.le);
    return rc;
}
