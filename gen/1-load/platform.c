#include "platform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "record.h"
#include "suite.h"

static const char *const platform_keys[] = {
    "perfrepro", "title", "device", "interconnect", "match", "tf32", "system", "source", NULL};
static const char *const system_keys[] = {"nodes",    "host",        "network", "framework",
                                          "software", "description", NULL};
static const char *const host_keys[] = {"processor", "sockets", "cores", "threads", "memory", NULL};
static const char *const title_keys[] = {"zh", "en", NULL};
static const char *const device_keys[] = {"kind", "model", "memory_gb", "per_node", NULL};
static const char *const device_kinds[] = {"gpu", "cpu", NULL};

static void free_platform(pr_platform *p)
{
    free(p->id);
    free(p->file);
    free(p->title_zh);
    free(p->title_en);
    free(p->kind);
    free(p->device);
    free(p->host_cpu);
    free(p->source);
    pr_bitext_free(&p->interconnect);
    if (p->match) {
        for (char **m = p->match; *m; m++)
            free(*m);
        free(p->match);
    }
}

void platform_list_free(pr_platforms *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        free_platform(&ps->v[i]);
    free(ps->v);
    ps->v = NULL;
    ps->n = 0;
}

const pr_platform *platform_find(const pr_platforms *ps, const char *id)
{
    for (size_t i = 0; i < ps->n; i++)
        if (strcmp(ps->v[i].id, id) == 0)
            return &ps->v[i];
    return NULL;
}

const pr_platform *platform_for_device(const pr_platforms *ps, const char *device_name)
{
    if (!device_name)
        return NULL;
    for (size_t i = 0; i < ps->n; i++) {
        const pr_platform *p = &ps->v[i];
        if (p->nodes > 0)
            continue; /* a system is named by id, never found by its device */
        if (strcasecmp(p->device, device_name) == 0)
            return p;
        for (char **m = p->match; m && *m; m++)
            if (strcasecmp(*m, device_name) == 0)
                return p;
    }
    return NULL;
}

/* The id of a platform file: its name without ".json"; the caller frees it. */
static char *id_of(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    return pr_xstrndup(base, n);
}

/* Reads the optional "system" object (a platform made from a system
 * description: its node count and host) into p. */
static int read_system(const pr_jdoc_jcur *root, pr_platform *p, pr_err *err)
{
    pr_jdoc_jcur sys, host;
    long long v;
    const char *s;
    int rc = pr_jdoc_jobj(root, "system", 0, &sys, err);
    if (rc <= 0)
        return rc;
    if (pr_jdoc_jobject(&sys, system_keys, err) < 0 ||
        pr_jdoc_jint(&sys, "nodes", 1, 1, 1 << 20, &v, err) < 0)
        return -1;
    p->nodes = (int)v;
    if (pr_jdoc_jstr(&sys, "network", 0, &s, err) < 0 ||
        pr_jdoc_jstr(&sys, "framework", 0, &s, err) < 0 ||
        pr_jdoc_jstr(&sys, "description", 0, &s, err) < 0)
        return -1;
    if ((rc = pr_jdoc_jobj(&sys, "host", 0, &host, err)) < 0)
        return -1;
    if (rc == 0)
        return 0;
    if (pr_jdoc_jobject(&host, host_keys, err) < 0 || pr_jdoc_jstr(&host, "memory", 0, &s, err) < 0)
        return -1;
    if ((rc = pr_jdoc_jstr(&host, "processor", 0, &s, err)) < 0)
        return -1;
    if (rc)
        p->host_cpu = pr_xstrdup(s);
    const struct {
        const char *key;
        int *count;
    } counts[] = {
        {"sockets", &p->host_sockets}, {"cores", &p->host_cores}, {"threads", &p->host_threads}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        if ((rc = pr_jdoc_jint(&host, counts[i].key, 0, 1, 1 << 20, &v, err)) < 0)
            return -1;
        *counts[i].count = rc ? (int)v : 0;
    }
    return 0;
}

/* Reads the platform object at root into p (fields p owns). */
static int read_platform(const pr_jdoc_jcur *root, pr_platform *p, pr_err *err)
{
    long long v;
    const char *s;
    int rc;
    pr_jdoc_jcur title, dev, match;
    if (pr_jdoc_jobject(root, platform_keys, err) < 0 ||
        pr_jdoc_jint(root, "perfrepro", 1, 1, 1, &v, err) < 0 ||
        pr_jdoc_jobj(root, "title", 1, &title, err) < 0 ||
        pr_jdoc_jobject(&title, title_keys, err) < 0)
        return -1;
    if (pr_jdoc_jstr(&title, "zh", 1, &s, err) < 0)
        return -1;
    p->title_zh = pr_xstrdup(s);
    if (pr_jdoc_jstr(&title, "en", 1, &s, err) < 0)
        return -1;
    p->title_en = pr_xstrdup(s);
    if (pr_jdoc_jobj(root, "device", 1, &dev, err) < 0 ||
        pr_jdoc_jobject(&dev, device_keys, err) < 0 ||
        pr_jdoc_jenum(&dev, "kind", 1, device_kinds, &s, err) < 0)
        return -1;
    p->kind = pr_xstrdup(s);
    if (pr_jdoc_jstr(&dev, "model", 1, &s, err) < 0)
        return -1;
    if (!*s) {
        pr_jdoc_jcur m = pr_jdoc_jchild(&dev, "model");
        return pr_jdoc_jfail(&m, err, "the device model may not be empty");
    }
    p->device = pr_xstrdup(s);
    p->memory_gb = NAN;
    if (pr_jdoc_jnum(&dev, "memory_gb", 0, 0, &p->memory_gb, err) < 0)
        return -1;
    if ((rc = pr_jdoc_jint(&dev, "per_node", 0, 1, 1 << 20, &v, err)) < 0)
        return -1;
    p->per_node = rc ? (int)v : 0;
    if (pr_bitext_jbitext(root, "interconnect", 0, &p->interconnect, err) < 0)
        return -1;
    if (pr_jdoc_jbool(root, "tf32", 0, &p->tf32, err) < 0)
        return -1;
    /* "source": where import read the machine (a README's line). */
    const char *src;
    if ((rc = pr_jdoc_jstr(root, "source", 0, &src, err)) < 0)
        return -1;
    if (rc && strncmp(src, "https://", 8) != 0) {
        pr_jdoc_jcur at = pr_jdoc_jchild(root, "source");
        return pr_jdoc_jfail(&at, err, "expected an https:// link to the line it was read from");
    }
    p->source = rc ? pr_xstrdup(src) : NULL;
    if (read_system(root, p, err) < 0)
        return -1;
    if ((rc = pr_jdoc_jarr(root, "match", 0, 1, &match, err)) < 0)
        return -1;
    size_t n = rc ? json_array_size(match.v) : 0;
    p->match = pr_xcalloc(n + 1, sizeof *p->match);
    for (size_t i = 0; i < n; i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&match, i);
        if (!json_is_string(it.v) || !*json_string_value(it.v))
            return pr_jdoc_jfail(&it, err, "expected a device name (a non-empty string)");
        p->match[i] = pr_xstrdup(json_string_value(it.v));
    }
    return 0;
}

int platform_add_file(pr_platforms *ps, const char *path, pr_err *err)
{
    pr_jdoc *doc = NULL;
    pr_platform p;
    memset(&p, 0, sizeof p);
    int rc = -1;
    p.id = id_of(path);
    p.file = pr_xstrdup(path);
    if (!pr_suite_name_is_safe(p.id) || strcmp(p.id, PR_PLATFORM_UNSTATED) == 0) {
        pr_err_set(err, path, 0, 0, NULL,
                   "\"%s\" cannot be a platform id (a safe file name [A-Za-z0-9._+-], not \"%s\")",
                   p.id, PR_PLATFORM_UNSTATED);
        goto out;
    }
    if (pr_jdoc_load(path, &doc, err) < 0)
        goto out;
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    if (pr_record_text_check(&root, err) < 0 || read_platform(&root, &p, err) < 0)
        goto out;
    /* One device name means one platform: a run's environment is matched by
     * it.  Systems are exempt: a 4-GPU and an 8-GPU box of one GPU, or two
     * clusters, are each their own platform, named by id. */
    const pr_platform *other = p.nodes > 0 ? NULL : platform_for_device(ps, p.device);
    for (char **m = p.match; !other && *m; m++)
        other = platform_for_device(ps, *m);
    if (other) {
        pr_err_set(err, path, 0, 0, "device",
                   "\"%s\" (or one of its match names) already names platform %s (%s)", p.device,
                   other->id, other->file);
        goto out;
    }
    ps->v = pr_xrealloc(ps->v, (ps->n + 1) * sizeof *ps->v);
    ps->v[ps->n++] = p;
    memset(&p, 0, sizeof p);
    rc = 0;
out:
    free_platform(&p);
    pr_jdoc_free(doc);
    return rc;
}

int platform_ref(const pr_platforms *ps, const pr_jdoc_jcur *obj, const char *key,
                 const pr_platform **out, int *unstated, pr_err *err)
{
    const char *s;
    int rc = pr_jdoc_jstr(obj, key, 0, &s, err);
    if (rc <= 0)
        return rc;
    *unstated = strcmp(s, PR_PLATFORM_UNSTATED) == 0;
    *out = *unstated ? NULL : platform_find(ps, s);
    if (*unstated || *out)
        return 1;
    pr_buf known = PR_BUF_INIT;
    for (size_t i = 0; i < ps->n; i++)
        pr_buf_printf(&known, "%s, ", ps->v[i].id);
    pr_buf_puts(&known,
                "\"" PR_PLATFORM_UNSTATED "\" for a source that does not state its machine");
    pr_jdoc_jcur k = pr_jdoc_jchild(obj, key);
    pr_jdoc_jfail(&k, err, "unknown platform \"%s\" (data/platforms/ has: %s)", s,
                  pr_buf_cstr(&known));
    pr_buf_free(&known);
    return -1;
}

const char *platform_device_word(const pr_platform *p)
{
    if (!p || !p->kind || strcmp(p->kind, "cpu"))
        return "gpu";
    return p->nodes > 0 ? "thread" : "core";
}

int platform_is_cpu(const pr_platform *p)
{
    return p && strcmp(p->kind, "cpu") == 0;
}

void platform_count_label(const lang *l, const pr_platform *p, int nodes, int gpus, pr_buf *out,
                          pr_err *err)
{
    if (!platform_is_cpu(p)) {
        lang_gpus_label(l, nodes, gpus, out, err);
        return;
    }
    /* A system's description counts hardware threads per node ("4 nodes ×
     * 16 threads"); a bare CPU platform counts the processes a run used. */
    json_t *v = lang_count_view(nodes, gpus);
    json_object_set_new(v, "thread", json_boolean(!strcmp(platform_device_word(p), "thread")));
    lang_fmt(l, "procs_label", v, out, err);
    json_decref(v);
}
