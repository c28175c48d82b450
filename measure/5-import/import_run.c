/* import_run: the import itself (docs/import.md). */
#include "import_run.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"
#include "import_dup.h"
#include "import_fs.h"
#include "import_platform.h"
#include "import_pub.h"
#include "import_steps.h"
#include "import_typed.h"

/* A growable argv whose strings it owns. */
typedef struct im_argv {
    char **v;
    size_t n;
} im_argv;

static void av_push(im_argv *a, const char *s)
{
    a->v = pr_xrealloc(a->v, (a->n + 2) * sizeof *a->v);
    a->v[a->n++] = pr_xstrdup(s);
    a->v[a->n] = NULL;
}

static void av_pushi(im_argv *a, int x)
{
    char s[32];
    snprintf(s, sizeof s, "%d", x);
    av_push(a, s);
}

static void av_free(im_argv *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    a->v = NULL;
    a->n = 0;
}

/* Runs a->v (v[0] a path) in dir, its standard output appended to out,
 * standard error passed through.  Returns its exit status, or -1 with err
 * set when it could not run or was killed. */
static int run_child(const char *dir, const im_argv *a, pr_buf *out, pr_err *err)
{
    int fd[2];
    if (pipe(fd) < 0)
        return pr_err_errno(err, a->v[0], "pipe");
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return pr_err_errno(err, a->v[0], "fork");
    }
    if (pid == 0) {
        close(fd[0]);
        if (dup2(fd[1], 1) < 0 || (dir && chdir(dir) < 0))
            _exit(127);
        close(fd[1]);
        execv(a->v[0], a->v);
        fprintf(stderr, "perfrepro-measure import: cannot run %s: %s\n", a->v[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    char chunk[65536];
    ssize_t got;
    while ((got = read(fd[0], chunk, sizeof chunk)) != 0) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            break;
        pr_buf_put(out, chunk, (size_t)got);
    }
    close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return pr_err_errno(err, a->v[0], "waitpid");
    if (!WIFEXITED(st))
        return pr_err_set(err, a->v[0], 0, 0, NULL, "killed by signal %d", WTERMSIG(st));
    if (WEXITSTATUS(st) == 127)
        return pr_err_set(err, a->v[0], 0, 0, NULL, "could not be run");
    return WEXITSTATUS(st);
}

/* The rule as `parse --rule` takes it: inline JSON as written, or
 * @/ABSOLUTE/rules/NAME.json beside the manifest (absolute: the parse runs in
 * the source folder).  NULL with err set (naming the manifest line) when the
 * file is missing.  Caller frees. */
static char *rule_arg(const char *text, const import_manifest_t *m, int line,
                      const import_run_opts *o, pr_err *err)
{
    if (text[0] == '{')
        return pr_xstrdup(text);
    if (strchr(text, '/') || !*text) {
        pr_err_set(err, m->file, line, 0, "rule",
                   "\"%s\": a rule name (rules/NAME.json beside the manifest) or inline JSON",
                   text);
        return NULL;
    }
    char *path = pr_xasprintf("%s/rules/%s.json", o->manifest_dir, text);
    char real[PATH_MAX];
    char *r = realpath(path, real) ? pr_xasprintf("@%s", real) : NULL;
    if (!r)
        pr_err_set(err, m->file, line, 0, "rule", "no rule file %s", path);
    free(path);
    return r;
}

int import_run_case_nodes(const import_manifest_t *m, const import_manifest_case *c,
                          const import_run_opts *o, int *nodes, pr_err *err)
{
    if (c->nodes) {
        *nodes = c->nodes;
        return 0;
    }
    char *path = pr_xasprintf("%s/platforms/%s.json", o->data, c->platform);
    json_error_t je;
    json_t *p = json_load_file(path, 0, &je);
    json_int_t per_node = 0;
    int rc = -1;
    if (!p) {
        pr_err_set(err, m->file, c->line, 0, "platform", "\"%s\": no platform file %s (%s)",
                   c->platform, path, je.text);
        goto out;
    }
    per_node = json_integer_value(json_object_get(json_object_get(p, "device"), "per_node"));
    if (c->gpus == 1 || (per_node > 0 && c->gpus <= per_node)) {
        *nodes = 1;
        rc = 0;
    } else if (per_node <= 0)
        pr_err_set(err, m->file, c->line, 0, "nodes",
                   "%d GPUs, and %s says no devices per node: give the node count", c->gpus, path);
    else if (c->gpus % per_node)
        pr_err_set(err, m->file, c->line, 0, "nodes",
                   "%d GPUs do not divide into nodes of %lld devices (platform %s): give the "
                   "node count",
                   c->gpus, (long long)per_node, c->platform);
    else {
        *nodes = (int)(c->gpus / per_node);
        rc = 0;
    }
out:
    json_decref(p);
    free(path);
    return rc;
}

/* The case's options for a --fit search after its figure. */
static void push_fit_case(im_argv *a, const import_manifest_case *c)
{
    av_push(a, "--fit");
    av_push(a, c->figure);
    av_push(a, "--gpus");
    av_pushi(a, c->gpus);
    av_push(a, "--batch-size");
    av_pushi(a, c->batch_size);
    if (c->seq_len) {
        av_push(a, "--seq-len");
        av_push(a, c->seq_len);
    }
    av_push(a, "--unit");
    av_push(a, c->unit);
    for (size_t i = 0; i < c->nlogs; i++)
        av_push(a, c->logs[i]);
}

/* How many of a fit candidate's figures it reproduces (rounded). */
static size_t cand_rounded(const json_t *cand)
{
    size_t k = 0, i;
    json_t *v;
    json_array_foreach(json_object_get(cand, "matches"), i, v) k +=
        json_is_string(v) && !strcmp(json_string_value(v), "rounded");
    return k;
}

/* The skeleton as a rule: inline JSON, or @FILE (rule_arg), as compact
 * JSON (caller frees); NULL with err set when it does not read. */
static char *skeleton_rule(const import_manifest_t *m, int line, const char *skeleton, pr_err *err)
{
    json_error_t je;
    json_t *j =
        skeleton[0] == '@' ? json_load_file(skeleton + 1, 0, &je) : json_loads(skeleton, 0, &je);
    char *rule = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    if (!rule)
        pr_err_set(err, m->file, line, 0, "rule", "fit: the skeleton %s does not read (%s)",
                   skeleton, j ? "not JSON" : je.text);
    json_decref(j);
    return rule;
}

/* The run set's rule found from skeleton over all its printed figures at
 * once: the first rule that reproduces every figure (fit's order: simplest
 * first, then the smaller skip), else the one that reproduces the most,
 * ties to the smallest largest difference (fit's "closest" order); when no
 * rule reproduces any figure, the skeleton itself (the profile's defaults
 * for what it leaves out): a closest guess never becomes the run set's
 * figures (a log's smallest record chosen for being nearest the printed
 * figure), the fit reports name it in the audit instead.  One rule for the
 * whole run set.  A new compact JSON string (caller frees), or NULL with
 * err set. */
static char *fit_rule(const import_manifest_t *m, const import_manifest_case *const *cs, size_t n,
                      const char *skeleton, const import_run_opts *o, pr_err *err)
{
    im_argv a = {0};
    pr_buf out;
    pr_buf_init(&out);
    json_t *doc = NULL;
    char *rule = NULL;
    av_push(&a, o->self);
    av_push(&a, "parse");
    av_push(&a, "--rule");
    av_push(&a, skeleton);
    av_push(&a, "--json");
    av_push(&a, "--limit");
    av_push(&a, "0");
    int line = cs[0]->line, nfig = 0;
    for (size_t i = 0; i < n; i++)
        if (cs[i]->figure) {
            push_fit_case(&a, cs[i]);
            nfig++;
        }
    if (!nfig) {
        pr_err_set(err, m->file, line, 0, "rule",
                   "fit: needs a printed figure in run set %s (every line says \"-\")", cs[0]->run);
        goto out;
    }
    int st = run_child(o->from, &a, &out, err);
    if (st < 0 || st > 1) {
        if (st > 1)
            pr_err_set(err, m->file, line, 0, "rule",
                       "parse --fit failed for run set %s (exit %d, its message above)", cs[0]->run,
                       st);
        goto out;
    }
    json_error_t je;
    if (!(doc = json_loadb(out.data ? out.data : "", out.len, 0, &je))) {
        pr_err_set(err, m->file, line, 0, "rule", "parse --fit printed no JSON (%s)", je.text);
        goto out;
    }
    const json_t *best = json_array_get(json_object_get(doc, "reproduced"), 0);
    size_t i, most = 0;
    json_t *c;
    if (!best)
        json_array_foreach(json_object_get(doc, "closest"), i, c) if (cand_rounded(c) > most)
        {
            best = c;
            most = cand_rounded(c);
        }
    if (!best) {
        /* No rule reproduces any figure: the rule as the manifest gives it. */
        printf("  no rule of the search reproduces a figure of run set %s: its rule is the "
               "skeleton as given (its fit reports name the closest)\n",
               cs[0]->run);
        rule = skeleton_rule(m, line, skeleton, err);
        goto out;
    }
    rule = json_dumps(json_object_get(best, "rule"), JSON_COMPACT | JSON_PRESERVE_ORDER);
out:
    json_decref(doc);
    pr_buf_free(&out);
    av_free(&a);
    return rule;
}

static const char *mission_of(const import_manifest_t *m, const char *model, int direction)
{
    for (size_t i = 0; i < m->nmissions; i++)
        if (!strcmp(m->missions[i].model, model))
            return direction ? m->missions[i].direction : m->missions[i].name;
    return NULL;
}

/* Writes data to path (in the staging copy of the data folder, also in a
 * dry run) unless it already holds exactly that. */
static int put_file(const char *path, const char *data, size_t len, pr_err *err)
{
    return pr_fileio_write_if_changed(path, data, len, err);
}

static int copy_if_present(const char *src, const char *dst, pr_err *err)
{
    pr_buf b;
    pr_buf_init(&b);
    int rc = 0;
    if (access(src, F_OK) == 0)
        rc = pr_fileio_read_file(src, &b, err) < 0
                 ? -1
                 : put_file(dst, b.data ? b.data : "", b.len, err);
    pr_buf_free(&b);
    return rc;
}

/* "reproduced" when value, rounded to the figure's decimals, prints it. */
static int reproduces(double value, const char *figure)
{
    const char *dot = strchr(figure, '.');
    int dec = dot ? (int)strlen(dot + 1) : 0;
    char s[64];
    snprintf(s, sizeof s, "%.*f", dec, value);
    return strcmp(s, figure) == 0;
}

/* One case: its record filed (or, in a dry run, its value), its fit report.
 * *differs set when its figure is not reproduced. */
static int import_case(const import_manifest_t *m, const import_manifest_case *c, const char *rule,
                       const char *run_dir, const import_run_opts *o, int *differs, pr_err *err)
{
    im_argv a = {0};
    pr_buf out;
    pr_buf_init(&out);
    json_t *rec = NULL;
    int nodes, rc = -1;
    if (import_run_case_nodes(m, c, o, &nodes, err) < 0)
        goto out;
    av_push(&a, o->self);
    av_push(&a, "parse");
    av_push(&a, "--rule");
    av_push(&a, rule);
    av_push(&a, "--gpus");
    av_pushi(&a, c->gpus);
    av_push(&a, "--nodes");
    av_pushi(&a, nodes);
    av_push(&a, "--batch-size");
    av_pushi(&a, c->batch_size);
    if (c->seq_len) {
        av_push(&a, "--seq-len");
        av_push(&a, c->seq_len);
    }
    const char *kv[][2] = {{"--precision", c->precision},
                           {"--unit", c->unit},
                           {"--model", c->model},
                           {"--framework", c->framework},
                           {"--case", c->case_name},
                           {"--model-name", c->case_name},
                           {"--mission-name", mission_of(m, c->model, 0)},
                           {"--direction-id", mission_of(m, c->model, 1)},
                           {"--platform", c->platform},
                           {"--source-repo", m->repo},
                           {"--source-commit", m->commit},
                           {"--source-path", c->logs[0]}};
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        if (kv[i][1]) {
            av_push(&a, kv[i][0]);
            av_push(&a, kv[i][1]);
        }
    av_push(&a, "--out");
    av_push(&a, run_dir);
    for (size_t i = 0; i < c->nlogs; i++)
        av_push(&a, c->logs[i]);
    int st = run_child(o->from, &a, &out, err);
    if (st < 0)
        goto out;
    if (st > 1) {
        pr_err_set(err, m->file, c->line, 0, "log", "perfrepro-measure parse failed (exit %d)", st);
        goto out;
    }
    json_error_t je;
    rec = json_loadb(out.data ? out.data : "", out.len, 0, &je);
    const json_t *v = json_object_get(rec, "FINAL_RESULT");
    char value[64] = "no value";
    if (json_is_number(v))
        snprintf(value, sizeof value, "%.10g", json_number_value(v));
    const char *verdict = "";
    if (c->figure) {
        int ok = json_is_number(v) && reproduces(json_number_value(v), c->figure);
        *differs |= !ok;
        verdict = ok ? "reproduced" : "DIFFERS";
    }
    printf("  %-40s %dx%d GPUs  bs %-5d %-5s  %-12s figure %-10s %s\n", c->case_name, nodes,
           c->gpus, c->batch_size, c->precision, value, c->figure ? c->figure : "-", verdict);
    if (!c->figure) {
        rc = 0;
        goto out;
    }
    av_free(&a);
    pr_buf_clear(&out);
    av_push(&a, o->self);
    av_push(&a, "parse");
    av_push(&a, "--rule");
    av_push(&a, rule);
    av_push(&a, "--json");
    av_push(&a, "--limit");
    av_push(&a, "3");
    push_fit_case(&a, c);
    st = run_child(o->from, &a, &out, err);
    if (st < 0)
        goto out;
    if (st > 1) {
        pr_err_set(err, m->file, c->line, 0, "figure", "parse --fit failed (exit %d)", st);
        goto out;
    }
    char *fit_path = pr_xasprintf("%s/fit/%s.json", run_dir, c->case_name);
    rc = put_file(fit_path, out.data ? out.data : "", out.len, err);
    free(fit_path);
out:
    json_decref(rec);
    pr_buf_free(&out);
    av_free(&a);
    return rc;
}

/* The manifest as SOURCE.md names it: as typed when relative (from the
 * repository root, where the import runs), else its file name alone, so
 * that no path of the importing machine is kept. */
static const char *manifest_name(const char *file)
{
    return file[0] != '/' ? file : strrchr(file, '/') + 1;
}

static int write_source_md(const import_manifest_t *m, const char *run, const char *run_dir,
                           int has_licence, pr_err *err)
{
    pr_buf b;
    pr_buf_init(&b);
    pr_buf_printf(&b,
                  "# %s\n\n"
                  "Logs of %s (https://github.com/%s) at commit\n"
                  "`%s`, copied unchanged into `logs/train_log/` and parsed by\n"
                  "`perfrepro-measure import %s` (docs/import.md). Each\n"
                  "record under `logs/index/` names the file it came from (`source.path`) and "
                  "the rule\nthat read it; `fit/` holds, per case with a published figure, "
                  "the rules that\nreproduce it (`parse --fit --json`).\n",
                  run, m->repo, m->repo, m->commit, manifest_name(m->file));
    /* A manifest's notes on its figures (NAME-findings.md beside NAME.tsv). */
    const char *dot = strrchr(m->file, '.');
    char *findings = pr_xasprintf(
        "%.*s-findings.md",
        (int)(dot && !strchr(dot, '/') ? dot - m->file : (ptrdiff_t)strlen(m->file)), m->file);
    if (access(findings, F_OK) == 0)
        pr_buf_printf(&b,
                      "Why each rule, and what was checked by hand for every figure the rule "
                      "does not\nreproduce: `%s` and `%s`.\n",
                      manifest_name(m->file), manifest_name(findings));
    free(findings);
    pr_buf_puts(&b, has_licence ? "Licence: the source's, `LICENSE` beside this file.\n"
                                : "Licence: the source folder has no `LICENSE`.\n");
    char *path = pr_xasprintf("%s/SOURCE.md", run_dir);
    int rc = put_file(path, b.data, b.len, err);
    free(path);
    pr_buf_free(&b);
    return rc;
}

/* One run set: its rule, its cases, its source files, written into
 * out_root/runs/RUN (the staging copy of the data folder), rebuilt whole. */
static int import_run_set(const import_manifest_t *m, const char *run, const import_run_opts *o,
                          const char *out_root, int *differs, pr_err *err)
{
    const import_manifest_case **cs = pr_xcalloc(m->ncases, sizeof *cs);
    size_t n = 0;
    char **rules = NULL, *run_dir = pr_xasprintf("%s/runs/%s", out_root, run);
    int rc = -1;
    for (size_t i = 0; i < m->ncases; i++)
        if (!strcmp(m->cases[i].run, run))
            cs[n++] = &m->cases[i];
    /* One rule per run set, given or searched for: figures read with two
     * rules have no speedup between them, and a figure another rule
     * reproduces is the audit's to name (reproduced under RULE). */
    int fit = !strncmp(cs[0]->rule, "fit:", 4);
    for (size_t i = 1; i < n; i++)
        if (strcmp(cs[i]->rule, cs[0]->rule)) {
            pr_err_set(err, m->file, cs[i]->line, 0, "rule",
                       "\"%s\", but line %d gives run set %s the rule \"%s\": one rule per "
                       "run set (give every line of it the rule that reproduces most of its "
                       "figures, or fit:; the audit names the rule that reproduces each other "
                       "figure)",
                       cs[i]->rule, cs[0]->line, run, cs[0]->rule);
            goto out;
        }
    rules = pr_xcalloc(n, sizeof *rules);
    printf("%s\n", run);
    for (size_t i = 0; i < n; i++) {
        if (i && fit) {
            rules[i] = pr_xstrdup(rules[0]);
            continue;
        }
        char *given = rule_arg(cs[i]->rule + (fit ? 4 : 0), m, cs[i]->line, o, err);
        if (!given)
            goto out;
        if (fit) {
            rules[i] = fit_rule(m, cs, n, given, o, err);
            free(given);
            if (!rules[i])
                goto out;
        } else
            rules[i] = given;
        if (i == 0 || strcmp(cs[i]->rule, cs[i - 1]->rule))
            printf("  rule (%s): %s\n", fit ? "found with --fit over its figures" : "given",
                   fit || cs[i]->rule[0] == '{' ? rules[i] : cs[i]->rule);
    }
    /* The staging copy's links to the previous import go; files whose bytes
     * come out the same are linked back before the swap (import_fs.h). */
    const char *dest = run_dir;
    if (pr_fileio_remove_tree(run_dir) != 0) {
        pr_err_errno(err, run_dir, "cannot remove the previous import");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        if (import_case(m, cs[i], rules[i], dest, o, differs, err) < 0)
            goto out;
    char *src = pr_xasprintf("%s/LICENSE", o->from), *dst = pr_xasprintf("%s/LICENSE", dest);
    int has_licence = access(src, F_OK) == 0;
    rc = copy_if_present(src, dst, err);
    free(src);
    free(dst);
    const char *extra[][2] = {{"runsets", "runset.json"}, {"suites", "suite.json"}};
    for (size_t i = 0; rc == 0 && i < 2; i++) {
        src = pr_xasprintf("%s/%s/%s.json", o->manifest_dir, extra[i][0], run);
        dst = pr_xasprintf("%s/%s", dest, extra[i][1]);
        rc = copy_if_present(src, dst, err);
        free(src);
        free(dst);
    }
    /* What the hand files do not give, the import writes (import_steps.h). */
    if (rc == 0)
        rc = import_steps_write(m, run, dest, out_root, err);
    if (rc == 0)
        rc = write_source_md(m, run, dest, has_licence, err);
out:
    for (size_t i = 0; rules && i < n; i++)
        free(rules[i]);
    free(rules);
    free(run_dir);
    free(cs);
    return rc;
}

/* A README part through perfrepro-gen import-table / import-env. */
static int import_readme(const import_manifest_t *m, const import_manifest_readme *r,
                         const import_run_opts *o, const char *out_root, pr_err *err)
{
    im_argv a = {0};
    pr_buf out;
    pr_buf_init(&out);
    /* Inside --data (or the dry run's scratch copy) by construction: the ID
     * is a safe name and the line's options cannot give --out or --markdown
     * (import_manifest.c refuses them at load). */
    char *md = pr_xasprintf("%s/%s", o->from, r->path);
    char *dst =
        pr_xasprintf("%s/%s/%s.json", out_root, r->is_env ? "environments" : "published", r->id);
    av_push(&a, o->gen);
    av_push(&a, r->is_env ? "import-env" : "import-table");
    const char *kv[][2] = {{"--markdown", md},
                           {"--repo", m->repo},
                           {"--commit", m->commit},
                           {"--path", r->path},
                           {"--out", dst}};
    for (size_t i = 0; i < 5; i++) {
        av_push(&a, kv[i][0]);
        av_push(&a, kv[i][1]);
    }
    for (size_t i = 0; i < r->nopts; i++)
        av_push(&a, r->opts[i]);
    int rc = 0;
    /* Written into the staging copy of the data folder (also in a dry run). */
    printf("%s %s -> %s/%s/%s.json\n", r->is_env ? "environment" : "table", r->path, o->data,
           r->is_env ? "environments" : "published", r->id);
    {
        int st = run_child(NULL, &a, &out, err);
        if (st != 0) {
            if (st > 0)
                pr_err_set(err, m->file, r->line, 0, r->is_env ? "env" : "table",
                           "perfrepro-gen %s failed (exit %d, its message above)", a.v[1], st);
            rc = -1;
        }
    }
    free(md);
    free(dst);
    pr_buf_free(&out);
    av_free(&a);
    return rc;
}

/* A platform line: the README's environment sections through perfrepro-gen
 * import-env into a scratch file beside the staged data folder, then its
 * group's machine into platforms/ID.json (import_platform.c). */
static int import_platform_line(const import_manifest_t *m, const import_manifest_platform *p,
                                const import_run_opts *o, const char *out_root, pr_err *err)
{
    im_argv a = {0};
    pr_buf out;
    pr_buf_init(&out);
    int rc = -1;
    json_t *env = NULL, *platform = NULL;
    char *md = pr_xasprintf("%s/%s", o->from, p->path);
    char *scratch = pr_xasprintf("%s/.platform-%s.env.json", out_root, p->id);
    char *platforms = pr_xasprintf("%s/platforms", out_root);
    const char *argv[] = {o->gen,     "import-env", "--markdown", md,      "--repo", m->repo,
                          "--commit", m->commit,    "--path",     p->path, "--out",  scratch};
    for (size_t i = 0; i < sizeof argv / sizeof *argv; i++)
        av_push(&a, argv[i]);
    printf("platform %s -> %s/platforms/%s.json\n", p->path, o->data, p->id);
    int st = run_child(NULL, &a, &out, err);
    if (st != 0) {
        if (st > 0)
            pr_err_set(err, m->file, p->line, 0, "platform",
                       "perfrepro-gen import-env failed (exit %d, its message above)", st);
        goto out;
    }
    json_error_t je;
    env = json_load_file(scratch, 0, &je);
    if (!env) {
        pr_err_set(err, scratch, je.line, je.column, NULL, "%s", je.text);
        goto out;
    }
    platform = import_platform_of_env(m, p, env, err);
    if (platform && import_platform_write_or_check(m, p, platform, platforms, err) == 0)
        rc = 0;
out:
    unlink(scratch);
    json_decref(env);
    json_decref(platform);
    free(md);
    free(scratch);
    free(platforms);
    pr_buf_free(&out);
    av_free(&a);
    return rc;
}

int import_run(import_manifest_t *m, const import_run_opts *o, pr_err *err)
{
    int differs = 0, rc = -1, lock = -1;
    struct stat st;
    char *from = NULL;
    import_fs_stage stage;
    memset(&stage, 0, sizeof stage);
    if (stat(o->from, &st) < 0 || !S_ISDIR(st.st_mode))
        return pr_err_set(err, o->from, 0, 0, "--from", "not a folder");
    from = realpath(o->from, NULL);
    if (!from)
        return pr_err_errno(err, o->from, "cannot resolve");
    /* One import at a time writes a data folder: two would interleave. */
    if (import_fs_lock_data(o->data, &lock, err) < 0)
        goto out;
    /* Every input checked before anything is written. */
    for (size_t i = 0; i < m->ncases; i++) {
        const import_manifest_case *c = &m->cases[i];
        int nodes;
        long long limit;
        json_t *figure = NULL;
        if (import_run_case_nodes(m, c, o, &nodes, err) < 0)
            goto out;
        if (!c->nlogs) /* a published figure only: no run set */
            continue;
        if (import_fs_log_limit(o->manifest_dir, c->run, &limit, err) < 0)
            goto out;
        if (c->figure && !c->figure_table && import_pub_figure_json(m, c, &figure, err) < 0)
            goto out;
        json_decref(figure);
        for (size_t j = 0; j < c->nlogs; j++)
            if (import_fs_check_source(from, c->logs[j], limit, m->file, c->line, "log", NULL,
                                       err) < 0)
                goto out;
        char *run_dir = pr_xasprintf("%s/runs/%s", o->data, c->run);
        int mine = !c->first_of_run ||
                   import_fs_check_owner(run_dir, manifest_name(m->file), o->replace, err) == 0;
        free(run_dir);
        if (!mine) {
            pr_err_prefix(err, "%s:%d: run", m->file, c->line);
            goto out;
        }
    }
    if (import_typed_check(m, o->data, o->replace, err) < 0)
        goto out;
    for (size_t i = 0; i < m->nreadmes; i++)
        if (import_fs_check_source(from, m->readmes[i].path, 0, m->file, m->readmes[i].line,
                                   m->readmes[i].is_env ? "env" : "table", NULL, err) < 0)
            goto out;
    for (size_t i = 0; i < m->nplatforms; i++)
        if (import_fs_check_source(from, m->platforms[i].path, 0, m->file, m->platforms[i].line,
                                   "platform", NULL, err) < 0)
            goto out;
    if (m->nplatforms && !m->repo) {
        pr_err_set(err, m->file, m->platforms[0].line, 0, "platform",
                   "a platform line needs the manifest's \"source\" line (its link)");
        goto out;
    }
    /* A published page is read for the line of its figures (import_pub.c):
     * when present, a regular file inside --from, as every source file. */
    for (size_t i = 0; i < m->npubs; i++) {
        int present;
        if (import_fs_check_source(from, m->pubs[i].path, 0, m->file, m->pubs[i].line, "published",
                                   &present, err) < 0)
            goto out;
    }
    int has_licence; /* copied by import_run_set when present */
    if (m->ncases &&
        import_fs_check_source(from, "LICENSE", 0, m->file, 0, "LICENSE", &has_licence, err) < 0)
        goto out;
    if (o->dry_run)
        printf("dry run: nothing is written\n");
    /* Everything goes into a copy of the data folder, checked with gen's
     * loaders and swapped in whole (a dry run throws it away). */
    if (import_fs_stage_open(&stage, o->data, err) < 0)
        goto out;
    const char *out_root = stage.sd.stage;
    /* The machines first: a table's or a run set's platform may be one. */
    for (size_t i = 0; i < m->nplatforms; i++)
        if (import_platform_line(m, &m->platforms[i], o, out_root, err) < 0)
            goto out;
    /* The README parts first: a line's figure may be a cell of their tables. */
    for (size_t i = 0; i < m->nreadmes; i++)
        if (import_readme(m, &m->readmes[i], o, out_root, err) < 0)
            goto out;
    char *pubdir = pr_xasprintf("%s/published", out_root);
    for (size_t i = 0; i < m->ncases; i++)
        if (m->cases[i].figure_table && !m->cases[i].figure &&
            import_pub_cell_figure(m, &m->cases[i], pubdir, o, err) < 0) {
            free(pubdir);
            goto out;
        }
    free(pubdir);
    for (size_t i = 0; i < m->ncases; i++)
        if (m->cases[i].first_of_run && m->cases[i].nlogs &&
            import_run_set(m, m->cases[i].run, o, out_root, &differs, err) < 0)
            goto out;
    if (m->published_path && import_pub_write_typed_published(m, o, out_root, err) < 0)
        goto out;
    /* Evidence reused: said in the plan and on standard error, not refused
     * (a source may really have published one log twice; the audit says so). */
    pr_buf twins = PR_BUF_INIT;
    size_t ntwins = import_dup_identical_logs(m, from, &twins);
    if (ntwins) {
        fputs(pr_buf_cstr(&twins), stdout);
        fflush(stdout);
        /* the first pair in full, where the plan goes elsewhere */
        const char *first = pr_buf_cstr(&twins) + strlen("  warning: identical logs: ");
        fprintf(stderr,
                "perfrepro-measure import: warning: %zu pair%s of byte-identical logs (the "
                "plan names each); the first: %.*s",
                ntwins, ntwins > 1 ? "s" : "", (int)strcspn(first, "\n") + 1, first);
    }
    pr_buf_free(&twins);
    if (import_fs_stage_commit(&stage, o->gen, o->dry_run, err) < 0)
        goto out;
    rc = differs;
out:
    import_fs_stage_free(&stage);
    import_fs_unlock_data(lock);
    free(from);
    return rc;
}
