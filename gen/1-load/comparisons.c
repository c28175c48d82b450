/* comparisons: selectors of A/B sides and the declared comparisons
 * (comparisons.h). */
#include "comparisons.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "abstat.h"
#include "buf.h"
#include "jdoc.h"
#include "recfacts.h"
#include "record.h"
#include "suite.h"

static const char *const decl_keys[] = {"perfrepro", "title",      "a",    "b",
                                        "delta",     "max_effect", "note", NULL};
static const char *const side_keys[] = {"label", "select", NULL};

#define SEL_ENV "env:"
#define SEL_PUB "published:"

/* Fills out from text; on error out holds nothing to free. */
int comparisons_sel_parse(const char *text, comparisons_sel *out, pr_err *err)
{
    memset(out, 0, sizeof *out);
    if (!text || !*text)
        return pr_err_set(err, NULL, 0, 0, NULL, "an empty selector");
    if (strncmp(text, SEL_ENV, strlen(SEL_ENV)) == 0) {
        const char *kv = text + strlen(SEL_ENV), *eq = strchr(kv, '=');
        if (!eq || eq == kv || !eq[1])
            return pr_err_set(err, NULL, 0, 0, NULL,
                              "\"%s\": env: wants KEY=VALUE (e.g. env:framework_version=2.1.0)",
                              text);
        out->kind = CD_SEL_ENV;
        out->key = pr_xstrndup(kv, (size_t)(eq - kv));
        out->value = pr_xstrdup(eq + 1);
    } else if (strncmp(text, SEL_PUB, strlen(SEL_PUB)) == 0) {
        const char *lv = text + strlen(SEL_PUB), *at = strrchr(lv, '@');
        if (!at || at == lv || !at[1])
            return pr_err_set(err, NULL, 0, 0, NULL,
                              "\"%s\": published: wants LABEL@DATE (e.g. "
                              "published:NVIDIA DeepLearningExamples@2021-04-20)",
                              text);
        out->kind = CD_SEL_PUBLISHED;
        out->key = pr_xstrndup(lv, (size_t)(at - lv));
        out->value = pr_xstrdup(at + 1);
    } else {
        if (strchr(text, '/'))
            return pr_err_set(err, NULL, 0, 0, NULL,
                              "\"%s\": a run folder name or a glob over names (no '/')", text);
        out->kind = CD_SEL_RUNS;
        out->value = pr_xstrdup(text);
    }
    out->text = pr_xstrdup(text);
    return 0;
}

void comparisons_sel_free(comparisons_sel *s)
{
    if (!s)
        return;
    free(s->text);
    free(s->key);
    free(s->value);
    memset(s, 0, sizeof *s);
}

/* What record r states of key: its framework_version, else the log fact. */
static const char *record_states(const pr_record *r, const char *key)
{
    if (strcmp(key, "framework_version") == 0)
        return r->framework_version;
    return pr_recfacts_value(r->log_facts, key, NULL);
}

int comparisons_sel_run(const comparisons_sel *s, const pr_run *run)
{
    if (s->kind == CD_SEL_RUNS)
        return fnmatch(s->value, run->name, 0) == 0;
    if (s->kind != CD_SEL_ENV)
        return 0;
    for (size_t i = 0; i < run->nrecords; i++) {
        const char *v = record_states(&run->records[i], s->key);
        if (v && strcmp(v, s->value) == 0)
            return 1;
    }
    return 0;
}

int comparisons_sel_pub(const comparisons_sel *s, const pr_pub_table *t)
{
    return s->kind == CD_SEL_PUBLISHED && t->label && t->date && strcmp(t->label, s->key) == 0 &&
           strcmp(t->date, s->value) == 0;
}

size_t comparisons_sel_count(const comparisons_sel *s, const pr_dataset *d)
{
    size_t n = 0;
    if (s->kind == CD_SEL_PUBLISHED) {
        for (size_t i = 0; i < d->npubs; i++)
            n += comparisons_sel_pub(s, &d->pubs[i]) != 0;
        return n;
    }
    for (size_t i = 0; i < d->nruns; i++)
        n += comparisons_sel_run(s, &d->runs[i]) != 0;
    return n;
}

const char *comparisons_sel_shared(const pr_dataset *d, const comparisons_sel *a,
                                   const comparisons_sel *b)
{
    for (size_t i = 0; i < d->nruns; i++)
        if (comparisons_sel_run(a, &d->runs[i]) && comparisons_sel_run(b, &d->runs[i]))
            return d->runs[i].name;
    for (size_t i = 0; i < d->npubs; i++)
        if (comparisons_sel_pub(a, &d->pubs[i]) && comparisons_sel_pub(b, &d->pubs[i]))
            return d->pubs[i].file;
    return NULL;
}

/* Side key of obj (a selector string, or {label, select}) into out. */
static int read_side(const pr_dataset *d, const pr_jdoc_jcur *obj, const char *key,
                     comparisons_side *out, pr_err *err)
{
    pr_jdoc_jcur c = pr_jdoc_jchild(obj, key), sc = c;
    const char *text;
    if (!c.v)
        return pr_jdoc_jfail(obj, err, "missing required key \"%s\"", key);
    if (json_is_object(c.v)) {
        if (pr_jdoc_jobject(&c, side_keys, err) < 0 ||
            pr_bitext_jbitext(&c, "label", 0, &out->label, err) < 0 ||
            pr_jdoc_jstr(&c, "select", 1, &text, err) < 0)
            return -1;
        sc = pr_jdoc_jchild(&c, "select");
    } else if (json_is_string(c.v)) {
        text = json_string_value(c.v);
    } else {
        return pr_jdoc_jfail(&c, err, "a selector string or {\"label\", \"select\"}");
    }
    pr_err inner;
    if (comparisons_sel_parse(text, &out->sel, &inner) < 0)
        return pr_jdoc_jfail(&sc, err, "%s", inner.msg);
    if (!comparisons_sel_count(&out->sel, d))
        return pr_jdoc_jfail(&sc, err, "\"%s\" selects no %s in the data", text,
                             out->sel.kind == CD_SEL_PUBLISHED ? "published table" : "run set");
    return 0;
}

static void decl_free(comparisons_decl *c)
{
    free(c->file);
    free(c->name);
    pr_bitext_free(&c->title);
    pr_bitext_free(&c->note);
    pr_bitext_free(&c->a.label);
    pr_bitext_free(&c->b.label);
    comparisons_sel_free(&c->a.sel);
    comparisons_sel_free(&c->b.sel);
}

int comparisons_load_file(pr_dataset *d, const char *path, pr_err *err)
{
    pr_jdoc *doc = NULL;
    comparisons_decl c;
    memset(&c, 0, sizeof c);
    c.delta = PR_AB_DELTA_DEFAULT;
    int rc = -1;
    if (pr_jdoc_load(path, &doc, err) < 0)
        goto out;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    c.file = pr_xstrdup(path);
    c.name = pr_xstrndup(base, strlen(base) - strlen(".json"));
    if (!pr_suite_name_is_safe(c.name)) {
        pr_err_set(err, path, 0, 0, NULL, "the file name must be a plain name ([A-Za-z0-9._-])");
        goto out;
    }
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    long long version;
    if (pr_jdoc_jobject(&root, decl_keys, err) < 0 || pr_record_text_check(&root, err) < 0 ||
        pr_jdoc_jint(&root, "perfrepro", 1, 1, 1, &version, err) < 0 ||
        pr_bitext_jbitext(&root, "title", 1, &c.title, err) < 0 ||
        pr_bitext_jbitext(&root, "note", 0, &c.note, err) < 0 ||
        pr_jdoc_jnum(&root, "delta", 0, 0, &c.delta, err) < 0 ||
        pr_jdoc_jnum(&root, "max_effect", 0, 0, &c.max_effect, err) < 0 ||
        read_side(d, &root, "a", &c.a, err) < 0 || read_side(d, &root, "b", &c.b, err) < 0)
        goto out;
    if (pr_jdoc_jchild(&root, "max_effect").v && !(c.max_effect > 1)) {
        pr_jdoc_jcur mc = pr_jdoc_jchild(&root, "max_effect");
        pr_jdoc_jfail(&mc, err,
                      "a ratio > 1: the largest B/A (or A/B) the change can give, e.g. 2 "
                      "for one thread to two");
        goto out;
    }
    const char *both = comparisons_sel_shared(d, &c.a.sel, &c.b.sel);
    if (both) {
        pr_jdoc_jcur bc = pr_jdoc_jchild(&root, "b");
        pr_jdoc_jfail(&bc, err,
                      "A and B both select %s: a run set compared with itself is no "
                      "comparison",
                      both);
        goto out;
    }
    if (!(c.delta > 0 && c.delta < 1)) {
        pr_jdoc_jcur dc = pr_jdoc_jchild(&root, "delta");
        pr_jdoc_jfail(&dc, err, "a fraction in (0, 1), e.g. 0.05 for 5 %%");
        goto out;
    }
    for (size_t i = 0; i < d->ncomparisons; i++)
        if (strcmp(d->comparisons[i].name, c.name) == 0) {
            pr_err_set(err, path, 0, 0, NULL, "a second comparison named \"%s\" (first: %s)",
                       c.name, d->comparisons[i].file);
            goto out;
        }
    d->comparisons = pr_xrealloc(d->comparisons, (d->ncomparisons + 1) * sizeof *d->comparisons);
    d->comparisons[d->ncomparisons++] = c;
    memset(&c, 0, sizeof c);
    rc = 0;
out:
    decl_free(&c);
    pr_jdoc_free(doc);
    return rc;
}

void comparisons_free_all(pr_dataset *d)
{
    for (size_t i = 0; i < d->ncomparisons; i++)
        decl_free(&d->comparisons[i]);
    free(d->comparisons);
    d->comparisons = NULL;
    d->ncomparisons = 0;
}

const comparisons_decl *comparisons_find(const pr_dataset *d, const char *name)
{
    for (size_t i = 0; i < d->ncomparisons; i++)
        if (strcmp(d->comparisons[i].name, name) == 0)
            return &d->comparisons[i];
    return NULL;
}
