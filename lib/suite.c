/* suite: a suite file loaded and checked (keys, sources, compare), and freed. */
#include "suite.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jdoc.h"
#include "record.h"
#include "suite_int.h"

static const char *const suite_keys[] = {"perfrepro",       "model",
                                         "model_title",     "framework",
                                         "framework_title", "framework_version",
                                         "model_name",      "mission_name",
                                         "direction_id",    "unit",
                                         "description",     "source",
                                         "image",           "steps",
                                         "environment",     "command",
                                         "shell",           "env",
                                         "timeout_s",       "log_limit_mib",
                                         "max_iter",        "seq_len",
                                         "matrix",          "rule",
                                         "datasets",        "framework_version_command",
                                         "launcher",        "case_name",
                                         "gap_threshold",   "ranks",
                                         "container",       "kind",
                                         "compare",         "platform",
                                         "summary",         NULL};

static const char *const kinds[] = {"training", "hardware", NULL};

static const char *const summaries[] = {"median", "olympic", NULL};

static const char *const compare_keys[] = {"of", "to", "framework", "label", "target", NULL};

static const char *const source_keys[] = {"repo", "path", "commit", NULL};

static const char *const environment_keys[] = {"os",      "gpu",   "cpu",  "memory",    "driver",
                                               "cuda",    "cudnn", "nccl", "framework", "image",
                                               "network", "nodes", NULL};

static const char *const dataset_keys[] = {"path", "md5", "name", NULL};

static const char *const launchers[] = {"local", "mpirun", "slurm", NULL};

const char *const pr_suite_ranks[] = {"per_gpu", "per_node", NULL};

const char *const pr_suite_containers[] = {"none", "docker", "apptainer", "pyxis", NULL};

static int dup_str(const pr_jdoc_jcur *c, const char *key, int required, char **out, pr_err *err)
{
    const char *s = NULL;
    int rc = pr_jdoc_jstr(c, key, required, &s, err);
    if (rc == 1)
        *out = pr_xstrdup(s);
    return rc;
}

/* An array of strings (each checked), or absent. */
static int str_array(const pr_jdoc_jcur *c, const char *key, int required, size_t min, json_t **out,
                     pr_err *err)
{
    pr_jdoc_jcur a;
    int rc = pr_jdoc_jarr(c, key, required, min, &a, err);
    if (rc <= 0)
        return rc;
    for (size_t i = 0; i < json_array_size(a.v); i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&a, i);
        if (!json_is_string(it.v))
            return pr_jdoc_jfail(&it, err, "expected a string");
    }
    *out = json_incref(a.v);
    return 1;
}

/* An object whose values are strings; keys limited to allowed when given. */
static int str_object(const pr_jdoc_jcur *c, const char *key, const char *const *allowed,
                      json_t **out, pr_err *err)
{
    pr_jdoc_jcur o;
    int rc = pr_jdoc_jobj(c, key, 0, &o, err);
    if (rc <= 0)
        return rc;
    if (allowed && pr_jdoc_jobject(&o, allowed, err) < 0)
        return -1;
    const char *k;
    json_t *v;
    json_object_foreach(o.v, k, v)
    {
        if (!json_is_string(v)) {
            pr_jdoc_jcur it = pr_jdoc_jchild(&o, k);
            return pr_jdoc_jfail(&it, err, "expected a string");
        }
    }
    *out = json_incref(o.v);
    return 1;
}

static int check_templates(const pr_jdoc_jcur *arr_or_obj, pr_err *err)
{
    if (json_is_array(arr_or_obj->v)) {
        for (size_t i = 0; i < json_array_size(arr_or_obj->v); i++) {
            pr_jdoc_jcur it = pr_jdoc_jitem(arr_or_obj, i);
            if (json_is_object(it.v) ? pr_suite_check_by_precision(&it, err) < 0
                                     : pr_suite_check_template(&it, err) < 0)
                return -1;
        }
    } else if (json_is_object(arr_or_obj->v)) {
        const char *k;
        json_t *val;
        json_object_foreach(arr_or_obj->v, k, val)
        {
            pr_jdoc_jcur it = pr_jdoc_jchild(arr_or_obj, k);
            if (pr_suite_check_template(&it, err) < 0)
                return -1;
        }
    }
    return 0;
}

/* "kind" and "compare": how gen presents a hardware suite's tables. */
static int read_compare(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err)
{
    const char *kind = "training";
    pr_jdoc_jcur arr;
    if (pr_jdoc_jenum(root, "kind", 0, kinds, &kind, err) < 0)
        return -1;
    s->hardware = strcmp(kind, "hardware") == 0;
    /* "summary": "olympic" asks the reports for the olympic mean too
     * (docs/statistics.md); the median stays the figure. */
    const char *summary = "median";
    if (pr_jdoc_jenum(root, "summary", 0, summaries, &summary, err) < 0)
        return -1;
    s->olympic = strcmp(summary, "olympic") == 0;
    int rc = pr_jdoc_jarr(root, "compare", 0, 1, &arr, err);
    if (rc <= 0)
        return rc;
    size_t n = json_array_size(arr.v);
    s->compares = pr_xcalloc(n, sizeof *s->compares);
    for (size_t i = 0; i < n; i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&arr, i);
        pr_suite_compare *k = &s->compares[s->ncompares++];
        const char *of = NULL, *to = NULL, *fw = NULL, *label = NULL;
        k->target = NAN;
        if (pr_jdoc_jobject(&it, compare_keys, err) < 0 ||
            pr_jdoc_jstr(&it, "of", 1, &of, err) < 0 || pr_jdoc_jstr(&it, "to", 1, &to, err) < 0 ||
            pr_jdoc_jstr(&it, "framework", 0, &fw, err) < 0 ||
            pr_jdoc_jstr(&it, "label", 0, &label, err) < 0 ||
            pr_jdoc_jnum(&it, "target", 0, 0, &k->target, err) < 0)
            return -1;
        if ((strcmp(of, "*") == 0) != (strcmp(to, "*") == 0)) {
            pr_jdoc_jcur c = pr_jdoc_jchild(&it, "to");
            return pr_jdoc_jfail(&c, err,
                                 "\"*\" (every column by name) must be in both \"of\" and "
                                 "\"to\"");
        }
        if (!fw && strcmp(of, to) == 0) {
            pr_jdoc_jcur c = pr_jdoc_jchild(&it, "to");
            return pr_jdoc_jfail(&c, err,
                                 "a column compared with itself: name another column or a "
                                 "\"framework\"");
        }
        char why[160];
        const char *bad = fw ? pr_suite_name_unsafe_why(fw, why, sizeof why) : NULL;
        if (bad) {
            pr_jdoc_jcur c = pr_jdoc_jchild(&it, "framework");
            return pr_jdoc_jfail(&c, err, "\"%s\" is not a safe folder name: %s", fw, bad);
        }
        k->of = pr_xstrdup(of);
        k->to = pr_xstrdup(to);
        k->framework = fw ? pr_xstrdup(fw) : NULL;
        k->label = label ? pr_xstrdup(label) : NULL;
        pr_jdoc_jpos(&it, &k->line, &k->col);
    }
    return 0;
}

/* source.repo, .path and .commit become `git clone`, `cd` and `git
 * checkout` lines of the report (shell-quoted there): a commit is a commit
 * id or null (stated: the seed names none; an absent one would leave the
 * reader unsure whether the clone matches the figures), and neither repo nor path may start with '-' (an option to git or cd,
 * whatever the quoting) or hold control characters. */
static int check_source(const pr_jdoc_jcur *c, const pr_suite *s, pr_err *err)
{
    const char *keys[] = {"repo", "path"};
    const char *vals[] = {s->source_repo, s->source_path};
    for (int i = 0; i < 2; i++) {
        if (!vals[i])
            continue;
        pr_jdoc_jcur f = pr_jdoc_jchild(c, keys[i]);
        if (vals[i][0] == '-' || vals[i][0] == '\0')
            return pr_jdoc_jfail(&f, err, "must not be empty or start with '-'");
        for (const char *p = vals[i]; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                return pr_jdoc_jfail(&f, err, "control character (\\x%02x) in the value",
                                     (unsigned)(unsigned char)*p);
    }
    if (!json_object_get(c->v, "commit"))
        return pr_jdoc_jfail(c, err,
                             "no \"commit\": give the commit the figures came from, or "
                             "null when the seed names none (the report then says that it clones "
                             "the default branch)");
    if (s->source_commit && !pr_record_is_commit_id(s->source_commit)) {
        pr_jdoc_jcur f = pr_jdoc_jchild(c, "commit");
        return pr_jdoc_jfail(&f, err, "\"%.80s\" is not a commit id (7 to 40 hex digits)",
                             s->source_commit);
    }
    return 0;
}

static int read_suite(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err)
{
    long long v;
    pr_jdoc_jcur c;
    if (pr_jdoc_jobject(root, suite_keys, err) < 0 || pr_record_text_check(root, err) < 0 ||
        pr_jdoc_jint(root, "perfrepro", 1, 1, 1, &v, err) < 0 ||
        dup_str(root, "model", 1, &s->model, err) < 0)
        return -1;
    char why[160];
    const char *bad = pr_suite_name_unsafe_why(s->model, why, sizeof why);
    c = pr_jdoc_jchild(root, "model");
    if (bad)
        return pr_jdoc_jfail(&c, err, "\"%s\" is not a safe folder name: %s", s->model, bad);
    if (dup_str(root, "framework", 1, &s->framework, err) < 0)
        return -1;
    c = pr_jdoc_jchild(root, "framework");
    if ((bad = pr_suite_name_unsafe_why(s->framework, why, sizeof why)))
        return pr_jdoc_jfail(&c, err, "\"%s\" is not a safe folder name: %s", s->framework, bad);
    if (dup_str(root, "model_title", 0, &s->model_title, err) < 0 ||
        dup_str(root, "framework_title", 0, &s->framework_title, err) < 0 ||
        dup_str(root, "framework_version", 0, &s->framework_version, err) < 0 ||
        dup_str(root, "model_name", 1, &s->model_name, err) < 0 ||
        dup_str(root, "mission_name", 1, &s->mission_name, err) < 0 ||
        pr_jdoc_jint(root, "direction_id", 1, 0, 2, &v, err) < 0)
        return -1;
    s->direction_id = (int)v;
    if (dup_str(root, "unit", 1, &s->unit, err) < 0 ||
        pr_bitext_jbitext(root, "description", 0, &s->description, err) < 0 ||
        dup_str(root, "image", 0, &s->image, err) < 0 ||
        dup_str(root, "platform", 0, &s->platform, err) < 0)
        return -1;
    if (s->platform && !pr_suite_name_is_safe(s->platform)) {
        pr_jdoc_jcur pc = pr_jdoc_jchild(root, "platform");
        return pr_jdoc_jfail(&pc, err, "\"%s\" is not a platform id ([A-Za-z0-9._+-])",
                             s->platform);
    }
    if (!s->model_title)
        s->model_title = pr_xstrdup(s->model);
    if (!s->framework_title)
        s->framework_title = pr_xstrdup(s->framework);
    int rc = pr_jdoc_jobj(root, "source", 0, &c, err);
    if (rc < 0)
        return -1;
    if (rc && (pr_jdoc_jobject(&c, source_keys, err) < 0 ||
               dup_str(&c, "repo", 1, &s->source_repo, err) < 0 ||
               dup_str(&c, "path", 0, &s->source_path, err) < 0 ||
               /* null: the seed names no commit (the report says so). */
               (!json_is_null(json_object_get(c.v, "commit")) &&
                dup_str(&c, "commit", 0, &s->source_commit, err) < 0) ||
               check_source(&c, s, err) < 0))
        return -1;
    if (pr_suite_read_steps(s, root, err) < 0 ||
        str_object(root, "environment", environment_keys, &s->environment, err) < 0 ||
        pr_suite_read_command(s, root, err) < 0)
        return -1;
    c = pr_jdoc_jchild(root, "command");
    if (check_templates(&c, err) < 0 || pr_jdoc_jbool(root, "shell", 0, &s->shell, err) < 0)
        return -1;
    if (s->shell &&
        (json_array_size(s->command) != 1 || !json_is_string(json_array_get(s->command, 0))))
        return pr_jdoc_jfail(&c, err, "with \"shell\": true the command is one string");
    if (s->shell) {
        pr_jdoc_jcur cmd = pr_jdoc_jitem(&c, 0);
        if (pr_suite_check_shell_placeholders(&cmd, err) < 0)
            return -1;
    }
    if (str_object(root, "env", NULL, &s->env, err) < 0)
        return -1;
    c = pr_jdoc_jchild(root, "env");
    if (c.v && check_templates(&c, err) < 0)
        return -1;
    s->timeout_s = 3600;
    double mib = -1;
    if (pr_jdoc_jnum(root, "log_limit_mib", 0, PR_SUITE_LOG_LIMIT_MIN_MIB, &mib, err) < 0)
        return -1;
    if (mib > PR_SUITE_LOG_LIMIT_MAX_MIB) {
        c = pr_jdoc_jchild(root, "log_limit_mib");
        return pr_jdoc_jfail(&c, err, "%g MiB: at most %g (1 TiB)", mib,
                             PR_SUITE_LOG_LIMIT_MAX_MIB);
    }
    s->log_limit = mib > 0 ? (long long)(mib * 1048576.0) : PR_SUITE_LOG_LIMIT;
    if (pr_jdoc_jnum(root, "timeout_s", 0, 1, &s->timeout_s, err) < 0 ||
        /* Hardening: up to INT_MAX, the int it is stored in (1 << 40 was
         * accepted and wrapped to 0 in {max_iter}). */
        pr_jdoc_jint(root, "max_iter", 0, 1, INT_MAX, &v, err) < 0)
        return -1;
    s->max_iter = json_is_integer(json_object_get(root->v, "max_iter")) ? (int)v : 0;
    if (pr_jdoc_jint(root, "seq_len", 0, 1, 1 << 24, &v, err) < 0)
        return -1;
    s->seq_len = json_is_integer(json_object_get(root->v, "seq_len")) ? (int)v : 0;
    const char *l = "local";
    if (pr_jdoc_jenum(root, "launcher", 0, launchers, &l, err) < 0)
        return -1;
    s->launcher = pr_xstrdup(l);
    const char *rk = "per_gpu", *ct = "none";
    if (pr_jdoc_jenum(root, "ranks", 0, pr_suite_ranks, &rk, err) < 0 ||
        pr_jdoc_jenum(root, "container", 0, pr_suite_containers, &ct, err) < 0)
        return -1;
    s->ranks = pr_xstrdup(rk);
    s->container = pr_xstrdup(ct);
    if (strcmp(ct, "none") != 0 && !s->image) {
        c = pr_jdoc_jchild(root, "container");
        return pr_jdoc_jfail(&c, err, "a container needs the suite's \"image\"");
    }
    s->gap_threshold = 0.05;
    if (pr_jdoc_jnum(root, "gap_threshold", 0, 0, &s->gap_threshold, err) < 0)
        return -1;
    if (dup_str(root, "case_name", 0, &s->case_name, err) < 0)
        return -1;
    if (!s->case_name)
        s->case_name = pr_xstrdup("{model_name}_{run_mode}_bs{batch_size}_{precision}_{gpus}");
    if (pr_jdoc_jobj(root, "rule", 1, &c, err) < 0)
        return -1;
    s->rule = json_incref(c.v);
    rc = pr_jdoc_jarr(root, "datasets", 0, 0, &c, err);
    if (rc < 0)
        return -1;
    for (size_t i = 0; rc && i < json_array_size(c.v); i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&c, i);
        const char *tmp;
        if (pr_jdoc_jobject(&it, dataset_keys, err) < 0 ||
            pr_jdoc_jstr(&it, "path", 1, &tmp, err) < 0 ||
            pr_jdoc_jstr(&it, "md5", 1, &tmp, err) < 0)
            return -1;
        size_t n = strlen(tmp);
        if (n != 32 || strspn(tmp, "0123456789abcdef") != 32) {
            pr_jdoc_jcur md = pr_jdoc_jchild(&it, "md5");
            return pr_jdoc_jfail(&md, err, "expected 32 lowercase hex digits");
        }
    }
    if (rc)
        s->datasets = json_incref(c.v);
    if (str_array(root, "framework_version_command", 0, 1, &s->version_command, err) < 0 ||
        read_compare(s, root, err) < 0)
        return -1;
    return pr_suite_read_matrix(s, root, err);
}

int pr_suite_load(const char *path, pr_suite **out, pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_suite *s = pr_xcalloc(1, sizeof *s);
    s->path = pr_xstrdup(path);
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    int rc = read_suite(s, &root, err);
    pr_jdoc_free(doc);
    if (rc < 0) {
        pr_suite_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

void pr_suite_free(pr_suite *s)
{
    if (!s)
        return;
    char **strs[] = {&s->path,        &s->model,           &s->model_title,
                     &s->framework,   &s->framework_title, &s->framework_version,
                     &s->model_name,  &s->mission_name,    &s->unit,
                     &s->source_repo, &s->source_path,     &s->source_commit,
                     &s->image,       &s->platform,        &s->launcher,
                     &s->case_name,   &s->ranks,           &s->container};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
        free(*strs[i]);
    pr_bitext_free(&s->description);
    json_t *js[] = {s->command, s->env,      s->steps,          s->environment,
                    s->rule,    s->datasets, s->version_command};
    for (size_t i = 0; i < sizeof js / sizeof *js; i++)
        json_decref(js[i]);
    for (size_t i = 0; i < s->ncases; i++)
        free(s->cases[i].name);
    free(s->cases);
    for (size_t i = 0; i < s->ncompares; i++) {
        free(s->compares[i].of);
        free(s->compares[i].to);
        free(s->compares[i].framework);
        free(s->compares[i].label);
    }
    free(s->compares);
    free(s);
}
