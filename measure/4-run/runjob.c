/* runjob: a case made ready to run (runner.h, "One job"): its command
 * expanded, its environment, and the launcher's plan; and the shell words
 * that show it. */
#include "runner_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

/* ======================================================================
 * Shell words
 * ====================================================================== */

void runner_shell_quote(const char *s, pr_buf *out)
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
 * Jobs
 * ====================================================================== */

void runner_job_free(pr_job *job)
{
    pr_fileio_strv_free(job->argv);
    pr_fileio_strv_free(job->env);
    free(job->log_path);
    free(job->log_rel);
    free(job->record_path);
    free(job->prepare_error);
    launch_plan_free(job->plan);
    free(job->plan);
    memset(job, 0, sizeof *job);
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
                            "CUDA_VISIBLE_DEVICES=%s lists %d",
                            gpn, parent, have);
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
 * characters: runner_job_build refuses them), so that the word can then be
 * written both ways: with the reference as text, and as shell. */
static int sentinel_at(const char *p)
{
    return p[0] == '\x01' && p[1] >= 'a' && p[1] < 'a' + (int)NREFS && p[2] == '\x02' ? p[1] - 'a'
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
            runner_shell_quote(pr_buf_cstr(&piece), out);
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
    json_object_foreach(s->env, k, v)
    {
        if (strlen(k) == len && memcmp(k, name, len) == 0)
            return 1;
    }
    return 0;
}

int runner_job_build(const pr_suite *s, const pr_suite_case *c, const pr_job_ctx *ctx, pr_job *job,
                     pr_err *err)
{
    int rc = -1;
    pr_buf st = PR_BUF_INIT, b = PR_BUF_INIT, qst = PR_BUF_INIT, sh = PR_BUF_INIT;
    size_t nv = 0, nargv = 0, nenv = 0;
    pr_suite_var *vars = pr_suite_case_vars(s, c, &st, &nv);
    /* The case's words: per-precision ones resolved (fp16 adds --fp16). */
    json_t *cmd = pr_suite_case_command(s, c);
    pr_suite_var *qvars = NULL;
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
    job->log_path = pr_fileio_path_join(ctx->out_dir, job->log_rel);
    job->record_path = runner_record_path(ctx->out_dir, c->name);
    log_dir = pr_fileio_path_join(ctx->out_dir, "logs/train_log");

    for (size_t i = 0; i < json_array_size(cmd); i++)
        if (strpbrk(json_string_value(json_array_get(cmd, i)), "\x01\x02")) {
            pr_err_set(err, s->path, 0, 0, "command", "control characters in the command");
            goto out;
        }
    pr_launch_ctx lc = {s,
                        c,
                        ctx->master_port,
                        ctx->le,
                        ctx->out_dir,
                        ctx->workdir,
                        job->log_path,
                        ctx->timeout_s > 0 ? ctx->timeout_s : s->timeout_s};
    pr_err lerr;
    if (ctx->launcher->vars(&lc, &lv, &lerr) < 0)
        job->prepare_error = pr_xstrdup(lerr.msg);
    pr_suite_var extra[] = {{"log_dir", log_dir},
                            {"log_file", job->log_path},
                            {"workdir", ctx->workdir},
                            {"master_addr", lv.master_addr},
                            {"master_port", lv.master_port},
                            {"node_rank", lv.node_rank},
                            {"world_size", lv.world_size},
                            {"local_rank", lv.local_rank},
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
                runner_shell_quote(i < nv ? vars[i].value : extra[i - nv].value, &qst);
            pr_buf_putc(&qst, '\0');
        }
        qvars = pr_xmalloc(nq * sizeof *qvars);
        for (size_t i = 0; i < nq; i++) {
            qvars[i].name = i < nv ? vars[i].name : extra[i - nv].name;
            qvars[i].value = qst.data + off[i];
        }
        free(off);
        const char *t = json_string_value(json_array_get(cmd, 0));
        if (pr_suite_template_expand(t, qvars, nq, NULL, 0, &b, err) < 0) {
            pr_err_prefix(err, "%s: command", s->path);
            goto out;
        }
        pr_buf_puts(&sh, pr_buf_cstr(&b));
        launch_strv_push(&argv, &nargv, pr_xstrdup("/bin/sh"));
        launch_strv_push(&argv, &nargv, pr_xstrdup("-c"));
        launch_strv_push(&argv, &nargv, pr_buf_detach(&b));
    } else {
        pr_buf_puts(&sh, "exec");
        for (size_t i = 0; i < json_array_size(cmd); i++) {
            const char *t = json_string_value(json_array_get(cmd, i));
            pr_buf_clear(&b);
            if (pr_suite_template_expand(t, vars, nv, extra, nextra, &b, err) < 0) {
                pr_err_prefix(err, "%s: command", s->path);
                goto out;
            }
            uses_refs |= strchr(pr_buf_cstr(&b), '\x01') != NULL;
            pr_buf_putc(&sh, ' ');
            put_shell_word(pr_buf_cstr(&b), &sh);
            launch_strv_push(&argv, &nargv, unsentinel(pr_buf_cstr(&b)));
        }
    }

    /* The environment: the suite's (expanded), then perfrepro's own, then
     * the launcher's (the suite's values win). */
    int suite_cvd = 0;
    const char *k;
    json_t *v;
    json_object_foreach(s->env, k, v)
    {
        if (!env_name_ok(k)) {
            pr_err_set(err, s->path, 0, 0, "env", "\"%s\" is not an environment variable name", k);
            goto out;
        }
        if (strcmp(k, "PERFREPRO_CASE") == 0 || strcmp(k, "PERFREPRO_LOG") == 0)
            continue;
        suite_cvd |= strcmp(k, "CUDA_VISIBLE_DEVICES") == 0;
        pr_buf_clear(&b);
        pr_buf_printf(&b, "%s=", k);
        if (pr_suite_template_expand(json_string_value(v), vars, nv, extra, nextra, &b, err) < 0) {
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
        launch_strv_push(&job->env, &nenv, pr_xstrdup(pr_buf_cstr(&b)));
    }
    if (!suite_cvd) {
        char *why = NULL;
        cvd = visible_devices(ctx->parent_cvd, c->gpus_per_node, &why);
        if (cvd)
            launch_strv_push(&job->env, &nenv, pr_xasprintf("CUDA_VISIBLE_DEVICES=%s", cvd));
        else if (!job->prepare_error)
            job->prepare_error = why;
        else
            free(why);
    }
    launch_strv_push(&job->env, &nenv, pr_xasprintf("PERFREPRO_CASE=%s", c->name));
    launch_strv_push(&job->env, &nenv, pr_xasprintf("PERFREPRO_LOG=%s", job->log_path));
    for (char **e = lv.env; e && *e; e++)
        if (!suite_sets(s, *e, strcspn(*e, "=")))
            launch_strv_push(&job->env, &nenv, pr_xstrdup(*e));

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
out:
    pr_fileio_strv_free(argv);
    pr_fileio_strv_free(lv.env);
    launch_plan_free(&plan);
    free(vars);
    json_decref(cmd);
    free(qvars);
    free(log_dir);
    free(cvd);
    pr_buf_free(&st);
    pr_buf_free(&qst);
    pr_buf_free(&b);
    pr_buf_free(&sh);
    return rc;
}

void runner_job_format(const pr_job *job, pr_buf *out)
{
    if (job->plan && job->plan->script) {
        /* A quoted here-document delimiter: the script is written as it is. */
        pr_buf_puts(out, "cat >");
        runner_shell_quote(job->plan->script_path, out);
        pr_buf_puts(out, " <<'PERFREPRO_SBATCH_EOF'\n");
        pr_buf_puts(out, job->plan->script);
        pr_buf_puts(out, "PERFREPRO_SBATCH_EOF\n");
    }
    for (char **e = job->env; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        pr_buf_put(out, *e, (size_t)(eq - *e + 1));
        runner_shell_quote(eq + 1, out);
        pr_buf_putc(out, ' ');
    }
    for (char **a = job->argv; a && *a; a++) {
        if (a != job->argv)
            pr_buf_putc(out, ' ');
        runner_shell_quote(*a, out);
    }
}
