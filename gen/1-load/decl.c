#include "decl.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"
#include "jdoc.h"
#include "record.h"
#include "suite.h"

static const char *const classes_keys[] = {"perfrepro", "classes", NULL};
static const char *const class_keys[] = {"id", "title", "modes", NULL};
static const char *const title_keys[] = {"zh", "en", NULL};
static const char *const model_keys[] = {"perfrepro", "headline", NULL};
static const char *const headline_keys[] = {"platform", "precision_class", "batch_size", "gpus",
                                            NULL};

static void free_classes(pr_decls *c)
{
    for (size_t i = 0; i < c->nclasses; i++) {
        free(c->classes[i].id);
        free(c->classes[i].title_zh);
        free(c->classes[i].title_en);
        free(c->classes[i].modes);
    }
    free(c->classes);
    c->classes = NULL;
    c->nclasses = 0;
}

void decl_free_all(pr_decls *c)
{
    free_classes(c);
    for (size_t i = 0; i < c->nmodels; i++) {
        free(c->models[i].id);
        free(c->models[i].file);
    }
    free(c->models);
    c->models = NULL;
    c->nmodels = 0;
}

const pr_prec_class *decl_class_of(const pr_decls *c, const char *mode)
{
    for (size_t i = 0; i < c->nclasses; i++)
        for (const char **m = c->classes[i].modes; *m; m++)
            if (strcmp(*m, mode) == 0)
                return &c->classes[i];
    return NULL;
}

const pr_model_decl *decl_model(const pr_decls *c, const char *model_id)
{
    for (size_t i = 0; i < c->nmodels; i++)
        if (strcmp(c->models[i].id, model_id) == 0)
            return &c->models[i];
    return NULL;
}

/* Upper-case display of a mode ("fp32" -> "FP32"); the caller frees it. */
static char *upper(const char *s)
{
    char *u = pr_xstrdup(s);
    for (char *p = u; *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    return u;
}

/* The class of its own of one mode (title: the mode upper-case). */
static void mode_class(pr_prec_class *k, const char *const *mode)
{
    k->id = pr_xstrdup(*mode);
    k->title_zh = upper(*mode);
    k->title_en = upper(*mode);
    k->modes = pr_xcalloc(2, sizeof *k->modes);
    k->modes[0] = *mode;
}

/* One class per mode: what no classes file means. */
static void default_classes(pr_decls *c)
{
    size_t n = 0;
    while (pr_precisions[n])
        n++;
    c->classes = pr_xcalloc(n, sizeof *c->classes);
    for (size_t i = 0; i < n; i++)
        mode_class(&c->classes[i], &pr_precisions[i]);
    c->nclasses = n;
}

/* Reads one class object into k. */
static int read_class(const pr_jdoc_jcur *it, pr_prec_class *k, pr_err *err)
{
    const char *s;
    pr_jdoc_jcur title, modes;
    if (pr_jdoc_jobject(it, class_keys, err) < 0 || pr_jdoc_jstr(it, "id", 1, &s, err) < 0)
        return -1;
    k->id = pr_xstrdup(s);
    if (!pr_suite_name_is_safe(s)) {
        pr_jdoc_jcur i = pr_jdoc_jchild(it, "id");
        return pr_jdoc_jfail(&i, err, "\"%s\" is not a safe id ([A-Za-z0-9._+-])", s);
    }
    if (pr_jdoc_jobj(it, "title", 1, &title, err) < 0 ||
        pr_jdoc_jobject(&title, title_keys, err) < 0 || pr_jdoc_jstr(&title, "zh", 1, &s, err) < 0)
        return -1;
    k->title_zh = pr_xstrdup(s);
    if (pr_jdoc_jstr(&title, "en", 1, &s, err) < 0)
        return -1;
    k->title_en = pr_xstrdup(s);
    if (pr_jdoc_jarr(it, "modes", 1, 1, &modes, err) < 0)
        return -1;
    size_t n = json_array_size(modes.v);
    k->modes = pr_xcalloc(n + 1, sizeof *k->modes);
    for (size_t i = 0; i < n; i++) {
        pr_jdoc_jcur m = pr_jdoc_jitem(&modes, i);
        const char *v = json_string_value(m.v);
        for (const char *const *p = pr_precisions; v && *p && !k->modes[i]; p++)
            if (strcmp(*p, v) == 0)
                k->modes[i] = *p;
        if (!k->modes[i])
            return pr_jdoc_jfail(
                &m, err, "expected a precision mode (fp32, tf32, fp16, amp, bf16, fp8, unstated)");
    }
    return 0;
}

int decl_load_classes(pr_decls *c, const char *path, pr_err *err)
{
    if (!path) {
        default_classes(c);
        return 0;
    }
    pr_jdoc *doc = NULL;
    int rc = -1;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_jdoc_jcur root = pr_jdoc_root(doc), list;
    long long v;
    if (pr_jdoc_jobject(&root, classes_keys, err) < 0 || pr_record_text_check(&root, err) < 0 ||
        pr_jdoc_jint(&root, "perfrepro", 1, 1, 1, &v, err) < 0 ||
        pr_jdoc_jarr(&root, "classes", 1, 1, &list, err) < 0)
        goto out;
    size_t n = json_array_size(list.v);
    c->classes = pr_xcalloc(n + 1, sizeof *c->classes); /* + "unstated"'s own, below */
    for (size_t i = 0; i < n; i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&list, i);
        c->nclasses = i + 1;
        if (read_class(&it, &c->classes[i], err) < 0)
            goto out;
        for (size_t j = 0; j < i; j++)
            if (strcmp(c->classes[j].id, c->classes[i].id) == 0) {
                pr_jdoc_jfail(&it, err, "a second class \"%s\"", c->classes[i].id);
                goto out;
            }
        for (const char **m = c->classes[i].modes; *m; m++)
            for (size_t j = 0; j <= i; j++)
                for (const char **o = c->classes[j].modes; *o; o++)
                    if (o != m && strcmp(*o, *m) == 0) {
                        pr_jdoc_jfail(&it, err, "the mode \"%s\" is in class \"%s\" already", *m,
                                      c->classes[j].id);
                        goto out;
                    }
    }
    /* "unstated" (a source that states no precision) compares with nothing
     * else: a classes file written before it gets it as a class of its own. */
    const char *const *unstated = pr_precisions;
    while (strcmp(*unstated, "unstated") != 0)
        unstated++;
    int named = 0;
    for (size_t i = 0; i < c->nclasses; i++)
        named |= strcmp(c->classes[i].id, *unstated) == 0;
    if (!decl_class_of(c, *unstated) && !named)
        mode_class(&c->classes[c->nclasses++], unstated);
    for (const char *const *p = pr_precisions; *p; p++)
        if (!decl_class_of(c, *p)) {
            pr_jdoc_jfail(&list, err, "the mode \"%s\" is in no class (every mode must be in one)",
                          *p);
            goto out;
        }
    rc = 0;
out:
    if (rc < 0)
        free_classes(c);
    pr_jdoc_free(doc);
    return rc;
}

int decl_add_model(pr_decls *c, const pr_platforms *ps, const char *path, pr_err *err)
{
    pr_jdoc *doc = NULL;
    int rc = -1, unstated = 0;
    pr_model_decl m;
    memset(&m, 0, sizeof m);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    m.id = pr_xstrndup(base, bl > 5 && strcmp(base + bl - 5, ".json") == 0 ? bl - 5 : bl);
    m.file = pr_xstrdup(path);
    if (!pr_suite_name_is_safe(m.id)) {
        pr_err_set(err, path, 0, 0, NULL, "\"%s\" is not a safe model id", m.id);
        goto out;
    }
    if (pr_jdoc_load(path, &doc, err) < 0)
        goto out;
    pr_jdoc_jcur root = pr_jdoc_root(doc), h;
    long long v;
    const char *s;
    if (pr_jdoc_jobject(&root, model_keys, err) < 0 ||
        pr_jdoc_jint(&root, "perfrepro", 1, 1, 1, &v, err) < 0 ||
        pr_jdoc_jobj(&root, "headline", 1, &h, err) < 0 ||
        pr_jdoc_jobject(&h, headline_keys, err) < 0)
        goto out;
    int has = platform_ref(ps, &h, "platform", &m.platform, &unstated, err);
    if (has < 0)
        goto out;
    if (!has || unstated) {
        pr_jdoc_jcur p = has ? pr_jdoc_jchild(&h, "platform") : h;
        pr_jdoc_jfail(&p, err,
                      "the headline needs a platform of data/platforms/ (not \"unstated\")");
        goto out;
    }
    if (pr_jdoc_jstr(&h, "precision_class", 1, &s, err) < 0)
        goto out;
    for (size_t i = 0; i < c->nclasses && !m.precision_class; i++)
        if (strcmp(c->classes[i].id, s) == 0)
            m.precision_class = &c->classes[i];
    if (!m.precision_class) {
        pr_jdoc_jcur p = pr_jdoc_jchild(&h, "precision_class");
        pr_buf known = PR_BUF_INIT;
        for (size_t i = 0; i < c->nclasses; i++)
            pr_buf_printf(&known, "%s%s", i ? ", " : "", c->classes[i].id);
        pr_jdoc_jfail(&p, err, "unknown class \"%s\" (data/precision-classes.json has: %s)", s,
                      pr_buf_cstr(&known));
        pr_buf_free(&known);
        goto out;
    }
    if (pr_jdoc_jint(&h, "batch_size", 1, 1, 1 << 24, &v, err) < 0)
        goto out;
    m.batch_size = (int)v;
    if (pr_jdoc_jint(&h, "gpus", 1, 1, 1 << 20, &v, err) < 0)
        goto out;
    m.gpus = (int)v;
    c->models = pr_xrealloc(c->models, (c->nmodels + 1) * sizeof *c->models);
    c->models[c->nmodels++] = m;
    memset(&m, 0, sizeof m);
    rc = 0;
out:
    free(m.id);
    free(m.file);
    pr_jdoc_free(doc);
    return rc;
}
