/* srcenv: source environments (srcenv.h): the kinds table, the strict
 * loader of DATA/environments/ID.json and the set of them. */
#include "srcenv.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "jdoc.h"
#include "record.h"

/* ---------------------------------------------------------------- kinds */

static const char *const kinds[] = {"os",       "gpu",   "cpu",    "memory",    "driver",
                                    "cuda",     "cudnn", "nccl",   "framework", "image",
                                    "network",  "code",  "python", "kernel",    "compiler",
                                    "topology", "text",  "other",  NULL};

static const char *const frameworks[] = {"PyTorch", "Paddle", "TensorFlow", "MXNet",
                                         "OneFlow", "JAX",    "MindSpore",  NULL};

/* The documented table (docs/data-model.md, "Source environments"): a key,
 * once a trailing "版本"/"Version" is left out, and its kind. */
static const struct key_kind {
    const char *key, *kind, *framework;
} key_kinds[] = {
    {"系统", "os", NULL},
    {"操作系统", "os", NULL},
    {"OS", "os", NULL},
    {"System", "os", NULL},
    {"GPU", "gpu", NULL},
    {"显卡", "gpu", NULL},
    {"CPU", "cpu", NULL},
    {"Driver", "driver", NULL},
    {"驱动", "driver", NULL},
    {"GPU Driver", "driver", NULL},
    {"NVIDIA Driver", "driver", NULL},
    {"内存", "memory", NULL},
    {"Memory", "memory", NULL},
    {"RAM", "memory", NULL},
    {"Docker", "image", NULL},
    {"镜像", "image", NULL},
    {"Docker 镜像", "image", NULL},
    {"Image", "image", NULL},
    {"Docker image", "image", NULL},
    {"Container", "image", NULL},
    {"容器", "image", NULL},
    {"PyTorch", "framework", "PyTorch"},
    {"Paddle", "framework", "Paddle"},
    {"PaddlePaddle", "framework", "Paddle"},
    {"TensorFlow", "framework", "TensorFlow"},
    {"MXNet", "framework", "MXNet"},
    {"OneFlow", "framework", "OneFlow"},
    {"JAX", "framework", "JAX"},
    {"MindSpore", "framework", "MindSpore"},
    {"框架", "framework", NULL},
    {"Framework", "framework", NULL},
    {"CUDA", "cuda", NULL},
    {"cuDNN", "cudnn", NULL},
    {"NCCL", "nccl", NULL},
    {"模型代码", "code", NULL},
    {"代码", "code", NULL},
    {"Code", "code", NULL},
    {"Model code", "code", NULL},
    {"Python", "python", NULL},
    {"网络", "network", NULL},
    {"Network", "network", NULL},
    {"Interconnect", "network", NULL},
    {"内核", "kernel", NULL},
    {"Kernel", "kernel", NULL},
    {"编译器", "compiler", NULL},
    {"Compiler", "compiler", NULL},
    {"GCC", "compiler", NULL},
};

int srcenv_kind_known(const char *kind)
{
    return kind && pr_record_str_in(kind, kinds);
}

int srcenv_framework_known(const char *name)
{
    return name && pr_record_str_in(name, frameworks);
}

/* 1 when s[0..n) ends with suffix (Latin letters without case). */
static int ends_with(const char *s, size_t n, const char *suffix)
{
    size_t l = strlen(suffix);
    return n >= l && strncasecmp(s + n - l, suffix, l) == 0;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

const char *srcenv_kind_of_key(const char *key, const char **framework)
{
    if (framework)
        *framework = NULL;
    if (!key)
        return "other";
    while (is_blank(*key))
        key++;
    size_t n = strlen(key);
    while (n && is_blank(key[n - 1]))
        n--;
    if (ends_with(key, n, "版本"))
        n -= strlen("版本");
    else if (ends_with(key, n, "version"))
        n -= strlen("version");
    while (n && is_blank(key[n - 1]))
        n--;
    for (size_t i = 0; i < sizeof key_kinds / sizeof *key_kinds; i++) {
        const struct key_kind *k = &key_kinds[i];
        if (strlen(k->key) == n && strncasecmp(k->key, key, n) == 0) {
            if (framework)
                *framework = k->framework;
            return k->kind;
        }
    }
    return "other";
}

/* ---------------------------------------------------------------- a file */

struct srcenv_item {
    const char *key, *kind, *framework, *value, *url; /* borrowed from the file's JSON */
    int line, end_line;
};

struct srcenv_group {
    const char *title, *section;
    int line;
    srcenv_item *items;
    size_t nitems;
};

struct srcenv_file {
    char *name;
    json_t *root; /* owned: every string below is borrowed from it */
    const char *repo, *commit, *path, *url;
    srcenv_group *groups;
    size_t ngroups;
};

static const char *const file_keys[] = {"perfrepro", "source", "groups", NULL};
static const char *const group_keys[] = {"title", "section", "line", "items", NULL};
static const char *const item_keys[] = {"key", "kind", "framework", "value",
                                        "url", "line", "end_line",  NULL};

/* A required or optional string that must not be empty when present. */
static int text_field(const pr_jdoc_jcur *c, const char *key, int required, const char **out,
                      pr_err *err)
{
    int rc = pr_jdoc_jstr(c, key, required, out, err);
    if (rc == 1 && !**out) {
        pr_jdoc_jcur k = pr_jdoc_jchild(c, key);
        return pr_jdoc_jfail(&k, err, "empty: leave the key out instead");
    }
    return rc;
}

/* Reads one item of group g at c into it. */
static int read_item(const pr_jdoc_jcur *c, int group_line, srcenv_item *it, pr_err *err)
{
    long long line = 0, end = 0;
    int has_end;
    memset(it, 0, sizeof *it);
    if (pr_jdoc_jobject(c, item_keys, err) < 0 || text_field(c, "key", 0, &it->key, err) < 0 ||
        pr_jdoc_jenum(c, "kind", 1, kinds, &it->kind, err) < 0 ||
        pr_jdoc_jstr(c, "value", 1, &it->value, err) < 0 ||
        text_field(c, "url", 0, &it->url, err) < 0 ||
        pr_jdoc_jint(c, "line", 1, 1, 1 << 30, &line, err) < 0 ||
        (has_end = pr_jdoc_jint(c, "end_line", 0, 1, 1 << 30, &end, err)) < 0)
        return -1;
    it->line = (int)line;
    it->end_line = has_end ? (int)end : it->line;
    if (pr_jdoc_jstr(c, "framework", 0, &it->framework, err) < 0)
        return -1;
    pr_jdoc_jcur f = pr_jdoc_jchild(c, "framework");
    if (it->framework && strcmp(it->kind, "framework") != 0)
        return pr_jdoc_jfail(&f, err, "only an item of kind \"framework\" names a framework");
    if (it->framework && !srcenv_framework_known(it->framework)) {
        pr_buf list = PR_BUF_INIT;
        for (const char *const *p = frameworks; *p; p++)
            pr_buf_printf(&list, "%s%s", p == frameworks ? "" : ", ", *p);
        pr_jdoc_jfail(&f, err, "unknown framework \"%s\" (one of: %s)", it->framework,
                      pr_buf_cstr(&list));
        pr_buf_free(&list);
        return -1;
    }
    if (!it->key && !it->value[0])
        return pr_jdoc_jfail(c, err, "an item with neither a key nor a value");
    if (has_end && it->end_line < it->line) {
        pr_jdoc_jcur e = pr_jdoc_jchild(c, "end_line");
        return pr_jdoc_jfail(&e, err, "%d is before the item's line %d", it->end_line, it->line);
    }
    if (it->line < group_line) {
        pr_jdoc_jcur l = pr_jdoc_jchild(c, "line");
        return pr_jdoc_jfail(&l, err, "%d is before its group's line %d", it->line, group_line);
    }
    return 0;
}

static int read_group(const pr_jdoc_jcur *c, srcenv_group *g, pr_err *err)
{
    long long line = 0;
    pr_jdoc_jcur items;
    if (pr_jdoc_jobject(c, group_keys, err) < 0 || text_field(c, "title", 1, &g->title, err) < 0 ||
        text_field(c, "section", 0, &g->section, err) < 0 ||
        pr_jdoc_jint(c, "line", 1, 1, 1 << 30, &line, err) < 0 ||
        pr_jdoc_jarr(c, "items", 1, 1, &items, err) < 0)
        return -1;
    g->line = (int)line;
    size_t n = json_array_size(items.v);
    g->items = pr_xcalloc(n, sizeof *g->items);
    for (; g->nitems < n; g->nitems++) {
        pr_jdoc_jcur ic = pr_jdoc_jitem(&items, g->nitems);
        if (read_item(&ic, g->line, &g->items[g->nitems], err) < 0)
            return -1;
    }
    return 0;
}

/* The source: a record's source (repo OWNER/NAME, commit, relative path),
 * with its url required and exactly the README's address at the commit. */
static int read_source(const pr_jdoc_jcur *root, srcenv_file *f, pr_err *err)
{
    pr_jdoc_jcur src;
    if (pr_jdoc_jobj(root, "source", 1, &src, err) < 0 || pr_record_source_check(&src, err) < 0 ||
        pr_jdoc_jstr(&src, "url", 1, &f->url, err) < 0)
        return -1;
    f->repo = pr_jdoc_json_str(src.v, "repo");
    f->commit = pr_jdoc_json_str(src.v, "commit");
    f->path = pr_jdoc_json_str(src.v, "path");
    char *want = pr_xasprintf("https://github.com/%s/blob/%s/%s", f->repo, f->commit, f->path);
    int rc = 0;
    if (strcmp(want, f->url) != 0) {
        pr_jdoc_jcur u = pr_jdoc_jchild(&src, "url");
        rc = pr_jdoc_jfail(&u, err, "\"%s\" is not the README's address at the commit (%s)", f->url,
                           want);
    }
    free(want);
    return rc;
}

/* Checks the document at root and fills f (which owns root once read). */
static int read_file(const pr_jdoc_jcur *root, srcenv_file *f, pr_err *err)
{
    long long v;
    pr_jdoc_jcur groups;
    if (pr_jdoc_jobject(root, file_keys, err) < 0 || pr_record_text_check(root, err) < 0 ||
        pr_jdoc_jint(root, "perfrepro", 1, 1, 1, &v, err) < 0 || read_source(root, f, err) < 0 ||
        pr_jdoc_jarr(root, "groups", 1, 1, &groups, err) < 0)
        return -1;
    size_t n = json_array_size(groups.v);
    f->groups = pr_xcalloc(n, sizeof *f->groups);
    for (; f->ngroups < n; f->ngroups++) {
        pr_jdoc_jcur gc = pr_jdoc_jitem(&groups, f->ngroups);
        if (read_group(&gc, &f->groups[f->ngroups], err) < 0) {
            f->ngroups++; /* its items are freed with the others */
            return -1;
        }
    }
    return 0;
}

/* Takes doc (freed here); *out set on success. */
static int from_doc(pr_jdoc *doc, srcenv_file **out, pr_err *err)
{
    srcenv_file *f = pr_xcalloc(1, sizeof *f);
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    f->name = pr_xstrdup(pr_jdoc_name(doc));
    f->root = json_incref(root.v);
    int rc = read_file(&root, f, err);
    pr_jdoc_free(doc);
    if (rc < 0) {
        srcenv_file_free(f);
        return -1;
    }
    *out = f;
    return 0;
}

int srcenv_file_load(const char *path, srcenv_file **out, pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    return from_doc(doc, out, err);
}

int srcenv_file_parse(const char *name, const char *text, size_t len, srcenv_file **out,
                      pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_parse(name, text, len, &doc, err) < 0)
        return -1;
    return from_doc(doc, out, err);
}

void srcenv_file_free(srcenv_file *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->ngroups; i++)
        free(f->groups[i].items);
    free(f->groups);
    json_decref(f->root);
    free(f->name);
    free(f);
}

const char *srcenv_file_name(const srcenv_file *f)
{
    return f->name;
}
const char *srcenv_file_repo(const srcenv_file *f)
{
    return f->repo;
}
const char *srcenv_file_commit(const srcenv_file *f)
{
    return f->commit;
}
const char *srcenv_file_path(const srcenv_file *f)
{
    return f->path;
}
const char *srcenv_file_url(const srcenv_file *f)
{
    return f->url;
}
size_t srcenv_file_ngroups(const srcenv_file *f)
{
    return f->ngroups;
}
const srcenv_group *srcenv_file_group(const srcenv_file *f, size_t i)
{
    return i < f->ngroups ? &f->groups[i] : NULL;
}

const char *srcenv_group_title(const srcenv_group *g)
{
    return g->title;
}
const char *srcenv_group_section(const srcenv_group *g)
{
    return g->section;
}
int srcenv_group_line(const srcenv_group *g)
{
    return g->line;
}
size_t srcenv_group_nitems(const srcenv_group *g)
{
    return g->nitems;
}
const srcenv_item *srcenv_group_item(const srcenv_group *g, size_t i)
{
    return i < g->nitems ? &g->items[i] : NULL;
}

const char *srcenv_item_key(const srcenv_item *it)
{
    return it->key;
}
const char *srcenv_item_kind(const srcenv_item *it)
{
    return it->kind;
}
const char *srcenv_item_framework(const srcenv_item *it)
{
    return it->framework;
}
const char *srcenv_item_value(const srcenv_item *it)
{
    return it->value;
}
const char *srcenv_item_url(const srcenv_item *it)
{
    return it->url;
}
int srcenv_item_line(const srcenv_item *it)
{
    return it->line;
}
int srcenv_item_end_line(const srcenv_item *it)
{
    return it->end_line;
}

char *srcenv_item_link(const srcenv_file *f, const srcenv_item *it)
{
    if (it->end_line > it->line)
        return pr_xasprintf("%s#L%d-L%d", f->url, it->line, it->end_line);
    return pr_xasprintf("%s#L%d", f->url, it->line);
}

/* ---------------------------------------------------------------- a set */

struct srcenv_set {
    srcenv_file **files;
    size_t n;
};

srcenv_set *srcenv_set_new(void)
{
    return pr_xcalloc(1, sizeof(srcenv_set));
}

void srcenv_set_free(srcenv_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        srcenv_file_free(s->files[i]);
    free(s->files);
    free(s);
}

int srcenv_set_add_file(srcenv_set *s, const char *path, pr_err *err)
{
    srcenv_file *f = NULL;
    if (srcenv_file_load(path, &f, err) < 0)
        return -1;
    const srcenv_file *other = srcenv_set_find(s, f->repo, f->path);
    if (other) {
        pr_err_set(err, path, 0, 0, "source", "a second environment file for %s %s (first: %s)",
                   f->repo, f->path, other->name);
        srcenv_file_free(f);
        return -1;
    }
    s->files = pr_xrealloc(s->files, (s->n + 1) * sizeof *s->files);
    s->files[s->n++] = f;
    return 0;
}

size_t srcenv_set_count(const srcenv_set *s)
{
    return s ? s->n : 0;
}

const srcenv_file *srcenv_set_at(const srcenv_set *s, size_t i)
{
    return s && i < s->n ? s->files[i] : NULL;
}

const srcenv_file *srcenv_set_find(const srcenv_set *s, const char *repo, const char *path)
{
    for (size_t i = 0; s && i < s->n; i++)
        if (strcmp(s->files[i]->repo, repo) == 0 && strcmp(s->files[i]->path, path) == 0)
            return s->files[i];
    return NULL;
}
