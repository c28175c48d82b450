#include "runset.h"

#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "jdoc.h"
#include "recfacts.h"
#include "record.h"
#include "suite.h"

struct pr_runset {
    pr_bitext title;
    pr_bitext note;                /* NULLs when none */
    int experiment;                /* an A/B side: compared, not a framework's figures */
    size_t nenv;                   /* declared environment groups */
    const srcenv_file **env_files; /* each one resolved (borrowed from the set) */
    const srcenv_group **env_groups;
    json_t *rule; /* borrowed from a record */
    char first[11], last[11];
};

static const char *const runset_keys[] = {"perfrepro",  "title",       "note",
                                          "experiment", "environment", NULL};
static const char *const env_ref_keys[] = {"file", "group", NULL};

void runset_free(pr_runset *s)
{
    if (!s)
        return;
    pr_bitext_free(&s->title);
    pr_bitext_free(&s->note);
    free(s->env_files);
    free(s->env_groups);
    free(s);
}

/* The environment file named stem (data/environments/STEM.json) in envs. */
static const srcenv_file *env_file_named(const srcenv_set *envs, const char *stem)
{
    size_t n = strlen(stem);
    for (size_t i = 0; envs && i < srcenv_set_count(envs); i++) {
        const srcenv_file *f = srcenv_set_at(envs, i);
        const char *name = srcenv_file_name(f), *base = strrchr(name, '/');
        base = base ? base + 1 : name;
        if (strncmp(base, stem, n) == 0 && strcmp(base + n, ".json") == 0)
            return f;
    }
    return NULL;
}

static const srcenv_group *group_titled(const srcenv_file *f, const char *title)
{
    for (size_t i = 0; i < srcenv_file_ngroups(f); i++)
        if (strcmp(srcenv_group_title(srcenv_file_group(f, i)), title) == 0)
            return srcenv_file_group(f, i);
    return NULL;
}

/* Reads the declarations of path into s, its environment groups resolved
 * in envs. */
static int read_decl(const char *path, const srcenv_set *envs, pr_runset *s, pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_jdoc_jcur root = pr_jdoc_root(doc), env;
    long long version;
    int rc = -1, has;
    if (pr_jdoc_jobject(&root, runset_keys, err) < 0 || pr_record_text_check(&root, err) < 0 ||
        pr_jdoc_jint(&root, "perfrepro", 1, 1, 1, &version, err) < 0 ||
        pr_bitext_jbitext(&root, "title", 1, &s->title, err) < 0 ||
        pr_bitext_jbitext(&root, "note", 0, &s->note, err) < 0 ||
        pr_jdoc_jbool(&root, "experiment", 0, &s->experiment, err) < 0 ||
        (has = pr_jdoc_jarr(&root, "environment", 0, 1, &env, err)) < 0)
        goto out;
    for (size_t i = 0; has && i < json_array_size(env.v); i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&env, i);
        const char *file, *group;
        if (pr_jdoc_jobject(&it, env_ref_keys, err) < 0 ||
            pr_jdoc_jstr(&it, "file", 1, &file, err) < 0 ||
            pr_jdoc_jstr(&it, "group", 1, &group, err) < 0)
            goto out;
        const srcenv_file *f = pr_suite_name_is_safe(file) ? env_file_named(envs, file) : NULL;
        const srcenv_group *g = f ? group_titled(f, group) : NULL;
        if (!f) {
            pr_jdoc_jcur c = pr_jdoc_jchild(&it, "file");
            pr_jdoc_jfail(&c, err, "no environment file data/environments/%s.json", file);
            goto out;
        }
        if (!g) {
            pr_jdoc_jcur c = pr_jdoc_jchild(&it, "group");
            pr_jdoc_jfail(&c, err, "%s has no group titled \"%s\"", srcenv_file_name(f), group);
            goto out;
        }
        s->env_files = pr_xrealloc(s->env_files, (i + 1) * sizeof *s->env_files);
        s->env_groups = pr_xrealloc(s->env_groups, (i + 1) * sizeof *s->env_groups);
        s->env_files[i] = f;
        s->env_groups[i] = g;
        s->nenv = i + 1;
    }
    rc = 0;
out:
    pr_jdoc_free(doc);
    return rc;
}

/* The date part (YYYY-MM-DD) of an ISO 8601 time, or NULL. */
static const char *date_of(const char *t, char out[11])
{
    if (!t || strlen(t) < 10 || t[4] != '-' || t[7] != '-')
        return NULL;
    memcpy(out, t, 10);
    out[10] = 0;
    return out;
}

static void widen(pr_runset *s, const char *date)
{
    if (!date)
        return;
    if (!s->first[0] || strcmp(date, s->first) < 0)
        memcpy(s->first, date, 11);
    if (!s->last[0] || strcmp(date, s->last) > 0)
        memcpy(s->last, date, 11);
}

/* The rule most of run's figures were read with, ties to the first in
 * record order: the successful records counted by their rule's canonical
 * text (one pass; a run may hold a hundred thousand records). */
static json_t *majority_rule(const pr_run *run)
{
    json_t *counts = json_object();
    json_t *best = NULL;
    json_int_t best_n = 0;
    char **keys = pr_xcalloc(run->nrecords + 1, sizeof *keys);
    const json_t *last = NULL; /* the rule of keys[last_at] */
    size_t last_at = 0;
    for (size_t i = 0; i < run->nrecords; i++) {
        json_t *r = run->records[i].rule;
        if (!r || run->records[i].failed)
            continue;
        /* Records of a run mostly share one rule: its text once, not once
         * a record (json_equal, but for a real 0, is what the sorted dump compares). */
        keys[i] = last && json_equal(r, last) && !pr_jdoc_json_has_zero_real(r)
                      ? pr_xstrdup(keys[last_at])
                      : json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS);
        last = r;
        last_at = i;
        json_t *c = json_object_get(counts, keys[i]);
        json_int_t n = c ? json_integer_value(c) + 1 : 1;
        json_object_set_new(counts, keys[i], json_integer(n));
        if (n > best_n)
            best_n = n;
    }
    for (size_t i = 0; i < run->nrecords; i++) {
        if (!best && keys[i] && json_integer_value(json_object_get(counts, keys[i])) == best_n)
            best = run->records[i].rule;
        free(keys[i]);
    }
    free(keys);
    json_decref(counts);
    return best;
}

int runset_load(const srcenv_set *envs, pr_run *run, const char *decl, pr_err *err)
{
    pr_runset *s = pr_xcalloc(1, sizeof *s);
    int rc = -1;
    if (decl && read_decl(decl, envs, s, err) < 0)
        goto out;
    s->rule = majority_rule(run);
    for (size_t i = 0; i < run->nrecords; i++) {
        char day[11];
        widen(s, date_of(run->records[i].started_at, day));
        /* What the log itself states: its first and last timestamps. */
        const json_t *facts = run->records[i].log_facts;
        widen(s, date_of(pr_recfacts_value(facts, "time.first", NULL), day));
        widen(s, date_of(pr_recfacts_value(facts, "time.last", NULL), day));
    }
    run->set = s;
    s = NULL;
    rc = 0;
out:
    runset_free(s);
    return rc;
}

const char *runset_title(const pr_run *run, const char *code)
{
    const char *t = run->set ? pr_bitext_in(&run->set->title, code) : NULL;
    return t ? t : run->name;
}

const char *runset_note(const pr_run *run, const char *code)
{
    return run->set ? pr_bitext_in(&run->set->note, code) : NULL;
}

int runset_is_experiment(const pr_run *run)
{
    return run->set && run->set->experiment;
}

size_t runset_env_count(const pr_run *run)
{
    return run->set ? run->set->nenv : 0;
}

const srcenv_file *runset_env_file(const pr_run *run, size_t i)
{
    return run->set->env_files[i];
}

const srcenv_group *runset_env_group(const pr_run *run, size_t i)
{
    return run->set->env_groups[i];
}

/* The rule most of run's figures were read with (borrowed; NULL when it
 * has none). */
static const json_t *rs_rule(const pr_run *run)
{
    return run->set ? run->set->rule : NULL;
}

/* A rule's value as the rule cells print it: strings bare, numbers in
 * their shortest form (0.05, not 0.050000000000000003), "—" when absent. */
static void rule_value(const json_t *v, pr_buf *out)
{
    if (!v)
        pr_buf_puts(out, "—");
    else if (json_is_string(v))
        pr_buf_puts(out, json_string_value(v));
    else if (json_is_integer(v))
        pr_buf_printf(out, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        pr_buf_printf(out, "%.15g", json_real_value(v));
    else {
        char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(15));
        pr_buf_puts(out, s ? s : "?");
        free(s);
    }
}

static int rule_key_diff(const char *key, const json_t *va, const json_t *vb, int n, pr_buf *out)
{
    if (va && vb && json_equal(va, vb))
        return n;
    if (n)
        pr_buf_puts(out, ", ");
    pr_buf_printf(out, "%s ", key);
    rule_value(va, out);
    pr_buf_puts(out, " / ");
    rule_value(vb, out);
    return n + 1;
}

int runset_rule_diff(const json_t *a, const json_t *b, pr_buf *out)
{
    int n = 0;
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)a, key, v) n =
        rule_key_diff(key, v, json_object_get(b, key), n, out);
    json_object_foreach((json_t *)b, key, v) if (!json_object_get(a, key)) n =
        rule_key_diff(key, NULL, v, n, out);
    return n;
}

int runset_dates(const pr_run *run, pr_buf *out)
{
    const pr_runset *s = run->set;
    if (!s || !s->first[0])
        return 0;
    if (strcmp(s->first, s->last) == 0)
        pr_buf_puts(out, s->first);
    else
        pr_buf_printf(out, "%s – %s", s->first, s->last);
    return 1;
}

const char *runset_first_date(const pr_run *run)
{
    return run->set ? run->set->first : "";
}

const char *runset_last_date(const pr_run *run)
{
    return run->set ? run->set->last : "";
}

/* The run's dates, or "—". */
static void span(const pr_run *run, pr_buf *out)
{
    if (!runset_dates(run, out))
        pr_buf_puts(out, "—");
}

/* Appends {what, a, b} to arr (a and b copied). */
static void add_diff(json_t *arr, const char *what, const char *a, const char *b)
{
    json_array_append_new(arr, json_pack("{s:s,s:s,s:s}", "what", what, "a", a, "b", b));
}

/* The first value of kind its declared environment groups state, or NULL. */
static const char *env_value(const pr_run *run, const char *kind)
{
    for (size_t g = 0; g < runset_env_count(run); g++) {
        const srcenv_group *grp = runset_env_group(run, g);
        for (size_t i = 0; i < srcenv_group_nitems(grp); i++)
            if (strcmp(srcenv_item_kind(srcenv_group_item(grp, i)), kind) == 0)
                return srcenv_item_value(srcenv_group_item(grp, i));
    }
    return NULL;
}

/* run's env.json runtime (measure/1-facts/cpurt.h) as "NAME=value" per setting
 * ("NAME not set") and "KIND: file, file" per kind of library, in the
 * record's order, into a JSON object keyed by setting or kind. */
static json_t *runtime_facts(const pr_run *run)
{
    json_t *out = json_object(), *rt = json_object_get(run->env, "runtime");
    if (!json_is_object(rt))
        return out;
    const char *name;
    json_t *v;
    json_object_foreach(json_object_get(rt, "settings"), name, v)
    {
        char *text = json_is_string(v) ? pr_xasprintf("%s=%s", name, json_string_value(v))
                                       : pr_xasprintf("%s not set", name);
        json_object_set_new(out, name, json_string(text));
        free(text);
    }
    size_t i;
    json_array_foreach(json_object_get(rt, "libraries"), i, v)
    {
        const char *kind = json_string_value(json_object_get(v, "kind"));
        const char *file = json_string_value(json_object_get(v, "file"));
        const char *base = file ? strrchr(file, '/') : NULL;
        if (!kind || !file)
            continue;
        json_t *had = json_object_get(out, kind);
        char *text = had ? pr_xasprintf("%s, %s", json_string_value(had), base ? base + 1 : file)
                         : pr_xasprintf("%s: %s", kind, base ? base + 1 : file);
        json_object_set_new(out, kind, json_string(text));
        free(text);
    }
    return out;
}

/* The runtime facts a and b both recorded and that differ (a run set
 * without a runtime, imported or from another machine, says nothing). */
static void runtime_diff(const pr_run *a, const pr_run *b, json_t *arr)
{
    json_t *fa = runtime_facts(a), *fb = runtime_facts(b), *va;
    const char *key;
    json_object_foreach(fa, key, va)
    {
        json_t *vb = json_object_get(fb, key);
        if (vb && strcmp(json_string_value(va), json_string_value(vb)) != 0)
            add_diff(arr, "runtime", json_string_value(va), json_string_value(vb));
    }
    json_decref(fa);
    json_decref(fb);
}

json_t *runset_diff(const pr_run *a, const pr_run *b)
{
    json_t *arr = json_array();
    if (a == b)
        return arr;
    pr_buf x = PR_BUF_INIT, y = PR_BUF_INIT;
    span(a, &x);
    span(b, &y);
    if (strcmp(pr_buf_cstr(&x), pr_buf_cstr(&y)) != 0)
        add_diff(arr, "dates", pr_buf_cstr(&x), pr_buf_cstr(&y));
    pr_buf_clear(&x);
    const json_t *ra = rs_rule(a), *rb = rs_rule(b);
    if (ra && rb && runset_rule_diff(ra, rb, &x))
        add_diff(arr, "rule", pr_buf_cstr(&x), "");
    /* What their sources state of machine and software, kind by kind. */
    static const char *const kinds[] = {"gpu",   "cpu",       "memory", "os",    "driver",
                                        "image", "framework", "cuda",   "cudnn", "nccl"};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        const char *va = env_value(a, kinds[k]), *vb = env_value(b, kinds[k]);
        if (va && vb && strcmp(va, vb) != 0) {
            add_diff(arr, "env", va, vb);
            json_object_set_new(json_array_get(arr, json_array_size(arr) - 1), "kind",
                                json_string(kinds[k]));
        }
    }
    /* What the jobs loaded and ran with, where measure saw it (env.json). */
    runtime_diff(a, b, arr);
    pr_buf_free(&x);
    pr_buf_free(&y);
    return arr;
}
