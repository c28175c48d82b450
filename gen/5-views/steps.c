#include "steps.h"

#include <stdlib.h>
#include <string.h>

#include "3-tables/view.h"
#include "base/md.h"
#include "buf.h"

/* A placeholder a block shows as a shell variable the reader (or a node's
 * launcher) sets: {name} -> "$VAR". */
typedef struct ref {
    const char *name, *var;
} ref;

/* The variables a block uses, for its first line and the page's list. */
typedef struct used_vars {
    const char *names[64];
    size_t n;
} used_vars;

static void use_var(used_vars *u, const char *var)
{
    for (size_t i = 0; i < u->n; i++)
        if (strcmp(u->names[i], var) == 0)
            return;
    if (u->n < sizeof u->names / sizeof *u->names)
        u->names[u->n++] = var;
}

/* Appends template word t as shell words: the text from the data (values
 * included) quoted by md_shell_word, each ref as "$VAR" (quoted: a path
 * with spaces stays one word).  "{{" and "}}" are literal braces.  The
 * suite loader has checked every name: an unknown one (not reached) is kept
 * as text, quoted. */
static void put_word(pr_buf *out, const char *t, const pr_suite_var *vals, size_t nvals,
                     const ref *refs, size_t nrefs, used_vars *used)
{
    pr_buf piece = PR_BUF_INIT;
    int any = 0;
    while (*t) {
        if ((t[0] == '{' || t[0] == '}') && t[1] == t[0]) {
            pr_buf_putc(&piece, t[0]);
            t += 2;
            continue;
        }
        const char *end = t[0] == '{' ? strchr(t, '}') : NULL;
        if (!end) {
            pr_buf_putc(&piece, *t++);
            continue;
        }
        size_t len = (size_t)(end - t - 1);
        const ref *r = NULL;
        const char *val = NULL;
        for (size_t i = 0; i < nrefs && !r; i++)
            if (strlen(refs[i].name) == len && memcmp(refs[i].name, t + 1, len) == 0)
                r = &refs[i];
        for (size_t i = 0; i < nvals && !r && !val; i++)
            if (strlen(vals[i].name) == len && memcmp(vals[i].name, t + 1, len) == 0)
                val = vals[i].value;
        if (r) {
            if (piece.len)
                md_shell_word(out, pr_buf_cstr(&piece));
            pr_buf_clear(&piece);
            pr_buf_printf(out, "\"$%s\"", r->var);
            use_var(used, r->var);
            any = 1;
        } else if (val) {
            pr_buf_puts(&piece, val);
        } else {
            pr_buf_put(&piece, t, len + 2);
        }
        t = end + 1;
    }
    if (piece.len || !any)
        md_shell_word(out, pr_buf_cstr(&piece));
    pr_buf_free(&piece);
}

/* The block of lines (consumed) as a ```bash block into out, its first
 * line saying which variables it needs (bash stops there when one is
 * unset, naming it). */
static void put_block(pr_buf *out, pr_buf *lines, const used_vars *used)
{
    pr_buf code = PR_BUF_INIT;
    if (used->n) {
        pr_buf_putc(&code, ':');
        for (size_t i = 0; i < used->n; i++)
            pr_buf_printf(&code, " \"${%s:?}\"", used->names[i]);
        pr_buf_putc(&code, '\n');
    }
    pr_buf_puts(&code, pr_buf_cstr(lines));
    md_code_block(out, "bash", pr_buf_cstr(&code));
    pr_buf_free(&code);
    pr_buf_clear(lines);
}

/* The refs steps may use: the built-in variables and the suite's vars, each
 * {NAME} -> "$NAME".  Caller frees the array. */
static ref *step_refs(const pr_suite *s, size_t *n)
{
    json_t *decl = json_object_get(s->steps, "vars");
    size_t cap = json_object_size(decl) + 4;
    ref *r = pr_xmalloc(cap * sizeof *r);
    *n = 0;
    for (const char *const *b = pr_suite_step_builtin_vars; *b; b++)
        r[(*n)++] = (ref){*b, *b};
    const char *k;
    json_t *v;
    json_object_foreach(decl, k, v) r[(*n)++] = (ref){k, k};
    return r;
}

static int steps_lines(const pr_suite *s, const char *key, pr_buf *lines_out, used_vars *used_out);

/* The suite's steps[key] as one block (NULL when it gives none); the
 * variables they use are added to all.  Caller frees the result. */
static char *steps_block(const pr_suite *s, const char *key, used_vars *all)
{
    pr_buf lines = PR_BUF_INIT, out = PR_BUF_INIT;
    used_vars used = {{0}, 0};
    if (!steps_lines(s, key, &lines, &used))
        return NULL;
    put_block(&out, &lines, &used);
    for (size_t i = 0; i < used.n; i++)
        use_var(all, used.names[i]);
    pr_buf_free(&lines);
    return pr_buf_detach(&out);
}

/* The lines of the suite's steps[key] appended to lines, the variables
 * they use added to used; 0 when it gives none. */
static int steps_lines(const pr_suite *s, const char *key, pr_buf *lines_out, used_vars *used_out)
{
    json_t *a = s->steps ? json_object_get(s->steps, key) : NULL;
    if (!json_array_size(a))
        return 0;
    size_t nrefs;
    ref *refs = step_refs(s, &nrefs);
    used_vars used = {{0}, 0};
    pr_buf lines = PR_BUF_INIT;
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *argv = json_array_get(a, i);
        for (size_t j = 0; j < json_array_size(argv); j++) {
            if (j)
                pr_buf_putc(&lines, ' ');
            put_word(&lines, json_string_value(json_array_get(argv, j)), NULL, 0, refs, nrefs,
                     &used);
        }
        pr_buf_putc(&lines, '\n');
    }
    pr_buf_puts(lines_out, pr_buf_cstr(&lines));
    for (size_t i = 0; i < used.n; i++)
        use_var(used_out, used.names[i]);
    free(refs);
    pr_buf_free(&lines);
    return 1;
}

/* 1 when name can be assigned before a command (NAME=value). */
static int env_name_ok(const char *name)
{
    if (!name[0] || (name[0] >= '0' && name[0] <= '9'))
        return 0;
    return strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
           strlen(name);
}

/* The framework's own command of case c on node `node` (0-based), as the
 * local runner and the launchers start it, into lines: the suite's env and
 * CUDA_VISIBLE_DEVICES as measure sets them, then the command with the
 * case's values.  On one node the runner's values are real (127.0.0.1,
 * port 29500, rank 0); on several, node 0's address and port are the
 * reader's MASTER_ADDR and MASTER_PORT and the rank is the node's, and a
 * suite that starts a process per GPU ("ranks": "per_gpu") takes each
 * process's LOCAL_RANK.  With "shell": true the command string is the
 * suite's shell code, kept as written, each value put into it quoted. */
static void framework_command(pr_buf *lines, const pr_suite *s, const pr_suite_case *c, int node,
                              used_vars *used)
{
    pr_buf st = PR_BUF_INIT, num = PR_BUF_INIT;
    size_t nv;
    pr_suite_var *vars = pr_suite_case_vars(s, c, &st, &nv);
    int multi = c->nodes > 1;
    char rank[16], world[16];
    snprintf(rank, sizeof rank, "%d", node);
    snprintf(world, sizeof world, "%d", c->gpus);
    pr_buf_printf(&num, "%s.log", c->name);
    const pr_suite_var extra[] = {
        {"log_dir", "."},         {"log_file", pr_buf_cstr(&num)}, {"workdir", "."},
        {"hostfile", "hostfile"}, {"world_size", world},           {"node_rank", rank},
        {"local_rank", "0"},      {"master_addr", "127.0.0.1"},    {"master_port", "29500"}};
    const size_t nextra = sizeof extra / sizeof *extra;
    pr_suite_var *all = pr_xmalloc((nv + nextra) * sizeof *all);
    memcpy(all, vars, nv * sizeof *all);
    memcpy(all + nv, extra, sizeof extra);
    /* On several nodes one block serves every node: the rank is the
     * node's NODE_RANK, set on each. */
    static const ref multi_refs[] = {{"master_addr", "MASTER_ADDR"},
                                     {"master_port", "MASTER_PORT"},
                                     {"node_rank", "NODE_RANK"},
                                     {"local_rank", "LOCAL_RANK"}};
    size_t nrefs = !multi ? 0 : strcmp(s->ranks, "per_gpu") == 0 ? 4 : 3;
    json_t *cmd = pr_suite_case_command(s, c);
    const char *k;
    json_t *v;
    int cvd = 0, use_env = 0;
    json_object_foreach(s->env, k, v)
    {
        cvd |= strcmp(k, "CUDA_VISIBLE_DEVICES") == 0;
        use_env |= !env_name_ok(k);
    }
    /* The environment: assignments before an argv, exports before shell
     * code (measure sets them for the whole of it); `env` where a name is
     * no shell variable. */
    const char *sep = s->shell ? "\n" : " ";
    if (!s->shell && use_env)
        pr_buf_puts(lines, "env ");
    json_object_foreach(s->env, k, v)
    {
        pr_buf asg = PR_BUF_INIT;
        pr_buf_printf(&asg, "%s=", k);
        if (s->shell)
            pr_buf_puts(lines, "export ");
        /* A name that is no shell variable is data: one quoted word. */
        if (use_env)
            md_shell_word(lines, pr_buf_cstr(&asg));
        else
            pr_buf_puts(lines, pr_buf_cstr(&asg));
        put_word(lines, json_string_value(v), all, nv + nextra, multi_refs, nrefs, used);
        pr_buf_puts(lines, sep);
        pr_buf_free(&asg);
    }
    if (!cvd) {
        pr_buf_printf(lines, "%sCUDA_VISIBLE_DEVICES=", s->shell ? "export " : "");
        for (int g = 0; g < c->gpus_per_node; g++)
            pr_buf_printf(lines, "%s%d", g ? "," : "", g);
        pr_buf_puts(lines, sep);
    }
    if (s->shell) {
        /* Each value quoted on its own, then put into the suite's shell code. */
        pr_buf q = PR_BUF_INIT;
        pr_suite_var *qv = pr_xmalloc((nv + nextra) * sizeof *qv);
        size_t *off = pr_xmalloc((nv + nextra) * sizeof *off);
        for (size_t i = 0; i < nv + nextra; i++) {
            off[i] = q.len;
            const ref *r = NULL;
            for (size_t j = 0; j < nrefs && !r; j++)
                if (strcmp(multi_refs[j].name, all[i].name) == 0)
                    r = &multi_refs[j];
            if (r) {
                pr_buf_printf(&q, "\"$%s\"", r->var);
            } else {
                md_shell_word(&q, all[i].value);
            }
            pr_buf_putc(&q, '\0');
        }
        for (size_t i = 0; i < nv + nextra; i++)
            qv[i] = (pr_suite_var){all[i].name, q.data + off[i]};
        const char *t = json_string_value(json_array_get(cmd, 0));
        pr_buf code = PR_BUF_INIT;
        pr_err e;
        for (size_t j = 0; j < nrefs; j++) {
            char ph[32];
            snprintf(ph, sizeof ph, "{%s}", multi_refs[j].name);
            if (strstr(t, ph))
                use_var(used, multi_refs[j].var);
        }
        if (pr_suite_template_expand(t, qv, nv + nextra, NULL, 0, &code, &e) < 0) {
            pr_buf_clear(&code);
            pr_buf_puts(&code, t); /* the suite loader checked it: not reached */
        }
        pr_buf_puts(lines, pr_buf_cstr(&code));
        pr_buf_free(&code);
        pr_buf_free(&q);
        free(qv);
        free(off);
    }
    for (size_t i = 0; !s->shell && i < json_array_size(cmd); i++) {
        if (i)
            pr_buf_putc(lines, ' ');
        put_word(lines, json_string_value(json_array_get(cmd, i)), all, nv + nextra, multi_refs,
                 nrefs, used);
    }
    pr_buf_putc(lines, '\n');
    json_decref(cmd);
    free(all);
    free(vars);
    pr_buf_free(&st);
    pr_buf_free(&num);
}

/* Appends path as one word, under "$PERFREPRO"/ when the commands run in
 * the framework's checkout (prefix) and path is relative. */
static void put_path(pr_buf *out, const char *path, int prefix, used_vars *used)
{
    if (prefix && path[0] != '/') {
        pr_buf_puts(out, "\"$PERFREPRO\"/");
        use_var(used, "PERFREPRO");
    }
    md_shell_word(out, path);
}

/* The perfrepro command that runs case c (every repeat) and records it:
 * measure's local runner on one node, its Slurm launcher on several. */
static void measure_command(pr_buf *lines, const pr_suite *s, const pr_suite_case *c, int prefix,
                            used_vars *used)
{
    char *dir = c ? pr_xasprintf("data/runs/%s-%s-%d", s->model, s->framework, c->gpus)
                  : pr_xasprintf("data/runs/%s-%s", s->model, s->framework);
    if (c && c->nodes > 1)
        pr_buf_printf(lines, "salloc -N%d --gpus-per-node=%d --exclusive \\\n  ", c->nodes,
                      c->gpus_per_node);
    put_path(lines, "bin/perfrepro-measure", prefix, used);
    pr_buf_puts(lines, " run ");
    put_path(lines, s->path, prefix, used);
    if (c && c->nodes > 1)
        pr_buf_puts(lines, " --launcher slurm");
    if (c) {
        /* Case names are [A-Za-z0-9._+-]: no pattern character. */
        pr_buf_printf(lines, " --only %s", c->name);
        int repeats = 0;
        for (size_t i = 0; i < s->ncases; i++)
            repeats |= s->cases[i].repeat > 1;
        if (repeats)
            pr_buf_printf(lines, " --only '%s_r*'", c->name);
    }
    pr_buf_puts(lines, c && c->nodes > 1 ? " \\\n  --out " : " --out ");
    put_path(lines, dir, prefix, used);
    pr_buf_putc(lines, '\n');
    free(dir);
}

/* The cases a page shows commands for, ordered by GPU count then nodes:
 * every case where every_case (a run set's: the commands behind its
 * figures, every precision), else the first of each (nodes, GPUs per node)
 * (a plan's: its other cases differ only in batch size and precision).
 * Caller frees the array. */
static const pr_suite_case **shown_cases(const pr_suite *s, int every_case, size_t *n)
{
    const pr_suite_case **out = pr_xcalloc(s->ncases ? s->ncases : 1, sizeof *out);
    *n = 0;
    for (size_t i = 0; i < s->ncases; i++) {
        const pr_suite_case *c = &s->cases[i];
        int seen = 0;
        for (size_t j = 0; j < *n && !seen; j++)
            seen = !every_case && out[j]->nodes == c->nodes &&
                   out[j]->gpus_per_node == c->gpus_per_node;
        if (seen)
            continue;
        size_t at = *n;
        while (at > 0 && (out[at - 1]->gpus > c->gpus ||
                          (out[at - 1]->gpus == c->gpus && out[at - 1]->nodes > c->nodes))) {
            out[at] = out[at - 1];
            at--;
        }
        out[at] = c;
        (*n)++;
    }
    return out;
}

/* The source checkout: clone once, at the commit when the suite names one. */
static void source_view(const pr_suite *s, json_t *view)
{
    pr_buf code = PR_BUF_INIT, b = PR_BUF_INIT;
    /* The folder git clone makes: the last part of the URL without .git. */
    const char *base = strrchr(s->source_repo, '/');
    base = base && base[1] ? base + 1 : s->source_repo;
    size_t blen = strlen(base);
    if (blen > 4 && strcmp(base + blen - 4, ".git") == 0)
        blen -= 4;
    char *folder = pr_xstrndup(base, blen);
    /* Every value from the suite is one shell word: pasted, the block runs
     * git and cd, nothing the data spells. */
    pr_buf_puts(&code, "git clone ");
    md_shell_word(&code, s->source_repo);
    pr_buf_puts(&code, "\ncd ");
    md_shell_word(&code, folder);
    pr_buf_putc(&code, '\n');
    free(folder);
    if (s->source_commit) {
        pr_buf_puts(&code, "git checkout ");
        md_shell_word(&code, s->source_commit);
        pr_buf_putc(&code, '\n');
    }
    if (s->source_path) {
        pr_buf_puts(&code, "cd ");
        md_shell_word(&code, s->source_path);
        pr_buf_putc(&code, '\n');
    }
    md_code_block(&b, "bash", pr_buf_cstr(&code));
    view_md(view, "source_block", &b);
    /* Checkout and set-up as one block: what a reader pastes first. */
    used_vars used = {{0}, 0};
    pr_buf setup = PR_BUF_INIT, both = PR_BUF_INIT;
    if (steps_lines(s, "setup", &setup, &used)) {
        pr_buf_puts(&code, pr_buf_cstr(&setup));
        put_block(&both, &code, &used);
        view_md(view, "prepare_block", &both);
    } else
        json_object_set_new(view, "prepare_block", json_false()); /* not the page's */
    pr_buf_free(&setup);
    pr_buf_free(&both);
    view_text(view, "source_repo", s->source_repo);
    view_text(view, "source_commit", s->source_commit);
    json_object_set_new(view, "source_unpinned", json_boolean(!s->source_commit));
    pr_buf_free(&code);
    pr_buf_free(&b);
}

/* The commands of each shown case: per node the framework's own, then
 * perfrepro's. */
static void cases_view(const pr_suite *s, int every_case, json_t *view, int prefix, used_vars *all)
{
    size_t n;
    const pr_suite_case **shown = shown_cases(s, every_case, &n);
    json_t *arr = json_array();
    pr_buf lines = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        const pr_suite_case *c = shown[i];
        json_t *cv =
            json_pack("{s:i,s:i,s:i,s:b,s:b,s:i,s:s,s:s,s:b}", "gpus", c->gpus, "nodes", c->nodes,
                      "gpus_per_node", c->gpus_per_node, "multi", c->nodes > 1, "one", c->gpus == 1,
                      "batch_size", c->batch_size, "precision", c->precision, "case", c->name,
                      "per_gpu", c->nodes > 1 && strcmp(s->ranks, "per_gpu") == 0);
        json_object_set_new(cv, "last_gpu", json_integer(c->gpus_per_node - 1));
        json_object_set_new(cv, "last_node", json_integer(c->nodes - 1));
        json_object_set_new(cv, "one_per_node", json_boolean(c->gpus_per_node == 1));
        pr_buf code = PR_BUF_INIT;
        md_code_span(&code, c->name);
        view_md(cv, "case_code", &code);
        pr_buf_free(&code);
        json_t *nodes = json_array();
        /* One block for all nodes (the rank is "$NODE_RANK"). */
        for (int node = 0; node < 1; node++) {
            used_vars used = {{0}, 0};
            pr_buf b = PR_BUF_INIT;
            framework_command(&lines, s, c, node, &used);
            put_block(&b, &lines, &used);
            for (size_t j = 0; j < used.n; j++)
                use_var(all, used.names[j]);
            /* The label names NODE_RANK only where the command takes it. */
            for (size_t j = 0; j < used.n; j++)
                if (strcmp(used.names[j], "NODE_RANK") == 0)
                    json_object_set_new(cv, "node_rank", json_true());
            json_t *nv = json_pack("{s:i,s:i}", "rank", node, "last", c->nodes - 1);
            view_md(nv, "block", &b);
            json_array_append_new(nodes, nv);
            pr_buf_free(&b);
        }
        json_object_set_new(cv, "node_cmds", nodes);
        used_vars used = {{0}, 0};
        pr_buf b = PR_BUF_INIT;
        measure_command(&lines, s, c, prefix, &used);
        put_block(&b, &lines, &used);
        for (size_t j = 0; j < used.n; j++)
            use_var(all, used.names[j]);
        view_md(cv, "perfrepro_block", &b);
        pr_buf_free(&b);
        json_array_append_new(arr, cv);
    }
    json_object_set_new(view, "gpu_cases", arr);
    /* The single-node cases' own commands in one block, each under its
     * case's name (run sets show them so: what their logs ran). */
    json_t *singles = json_array();
    used_vars su = {{0}, 0};
    pr_buf sl = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (shown[i]->nodes > 1)
            continue;
        pr_buf_printf(&sl, "# %s\n", shown[i]->name);
        framework_command(&sl, s, shown[i], 0, &su);
        pr_buf code = PR_BUF_INIT;
        md_code_span(&code, shown[i]->name);
        json_t *one =
            json_pack("{s:i,s:b,s:i,s:s}", "gpus", shown[i]->gpus, "one", shown[i]->gpus == 1,
                      "batch_size", shown[i]->batch_size, "precision", shown[i]->precision);
        view_md(one, "case_code", &code);
        if (json_array_size(singles))
            json_object_set_new(json_array_get(singles, json_array_size(singles) - 1), "sep",
                                json_string("sep"));
        json_array_append_new(singles, one);
        pr_buf_free(&code);
    }
    if (json_array_size(singles)) {
        pr_buf b = PR_BUF_INIT;
        put_block(&b, &sl, &su);
        view_md(view, "single_cmds", &b);
        pr_buf_free(&b);
    } else
        json_object_set_new(view, "single_cmds", json_false()); /* not the page's */
    json_object_set_new(view, "single_cases", singles);
    /* perfrepro's command of each shown case in one block, each under its
     * case's name: one command per case, as the plan lists them. */
    used_vars mu = {{0}, 0};
    pr_buf ml = PR_BUF_INIT, mb = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        pr_buf_printf(&ml, "# %s\n", shown[i]->name);
        measure_command(&ml, s, shown[i], prefix, &mu);
    }
    if (n) {
        put_block(&mb, &ml, &mu);
        for (size_t j = 0; j < mu.n; j++)
            use_var(all, mu.names[j]);
        view_md(view, "perfrepro_cases_block", &mb);
    }
    json_object_set_new(view, "multi_cases", json_boolean(n && shown[n - 1]->nodes > 1));
    pr_buf_free(&ml);
    pr_buf_free(&mb);
    pr_buf_free(&sl);
    pr_buf_free(&lines);
    free(shown);
}

/* The variables the page's blocks use: the built-in ones as flags (the
 * template explains them), the suite's with what to set them to. */
static void vars_view(const pr_suite *s, json_t *view, const used_vars *all)
{
    json_t *list = json_array();
    json_t *decl = s->steps ? json_object_get(s->steps, "vars") : NULL;
    for (size_t i = 0; i < all->n; i++) {
        const char *name = all->names[i];
        if (strcmp(name, "PERFREPRO") == 0) {
            json_object_set_new(view, "var_perfrepro", json_true());
            continue;
        }
        if (strcmp(name, "MASTER_ADDR") == 0 || strcmp(name, "MASTER_PORT") == 0) {
            json_object_set_new(view, "var_master", json_true());
            continue;
        }
        if (strcmp(name, "NODE_RANK") == 0) {
            json_object_set_new(view, "var_node_rank", json_true());
            continue;
        }
        if (strcmp(name, "LOCAL_RANK") == 0) {
            json_object_set_new(view, "var_local_rank", json_true());
            continue;
        }
        json_t *d = json_object_get(decl, name);
        json_t *item = json_object();
        pr_buf b = PR_BUF_INIT;
        md_code_span(&b, name);
        view_md(item, "name", &b);
        view_text(item, "zh",
                  json_is_string(d) ? json_string_value(d)
                                    : json_string_value(json_object_get(d, "zh")));
        view_text(item, "en",
                  json_is_string(d) ? json_string_value(d)
                                    : json_string_value(json_object_get(d, "en")));
        json_array_append_new(list, item);
        pr_buf_free(&b);
    }
    json_object_set_new(view, "has_vars", json_boolean(all->n > 0));
    json_object_set_new(view, "step_vars", list);
}

void steps_view(const pr_suite *s, int every_case, json_t *view)
{
    used_vars all = {{0}, 0};
    /* With a source the framework's commands run in its checkout, and
     * perfrepro's are named from the reader's perfrepro checkout. */
    int prefix = s->source_repo != NULL;
    if (s->source_repo)
        source_view(s, view);
    else
        json_object_set_new(view, "prepare_block", json_false()); /* not the page's */
    char *blk;
    if ((blk = steps_block(s, "setup", &all)))
        json_object_set_new(view, "setup_block", json_string(blk)), free(blk);
    if ((blk = steps_block(s, "single_node", &all)))
        json_object_set_new(view, "single_block", json_string(blk)), free(blk);
    if ((blk = steps_block(s, "multi_node", &all)))
        json_object_set_new(view, "multi_block", json_string(blk)), free(blk);
    pr_buf lines = PR_BUF_INIT, b = PR_BUF_INIT;
    used_vars used = {{0}, 0};
    measure_command(&lines, s, NULL, prefix, &used);
    put_block(&b, &lines, &used);
    view_md(view, "measure_block", &b);
    for (size_t i = 0; i < used.n; i++)
        use_var(&all, used.names[i]);
    cases_view(s, every_case, view, prefix, &all);
    vars_view(s, view, &all);
    pr_buf_free(&lines);
    pr_buf_free(&b);
}
