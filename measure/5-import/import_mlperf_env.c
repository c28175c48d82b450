/* import_mlperf_env: a system description as a source environment (see
 * the header). */
#include "import_mlperf_env.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"

/* The kind (docs/data-model.md, "Source environments") of a description's
 * key; a key not here is "other", shown with its key.  One row a key. */
static const struct key_kind {
    const char *key, *kind;
} key_kinds[] = {
    {"host_processor_model_name", "cpu"},
    {"host_memory_capacity", "memory"},
    {"host_networking", "network"},
    {"accelerator_model_name", "gpu"},
    {"framework", "framework"},
    {"operating_system", "os"},
    {"cuda_version", "cuda"},
    {"cuda_driver_version", "driver"},
    {"nccl_version", "nccl"},
    {"cudnn_version", "cudnn"},
    {"kernel_version", "kernel"},
    {"python", "python"},
    {"python_version", "python"},
};

static const char *kind_of(const char *key)
{
    for (size_t i = 0; i < sizeof key_kinds / sizeof *key_kinds; i++)
        if (!strcmp(key_kinds[i].key, key))
            return key_kinds[i].kind;
    return "other";
}

/* The line of each key of text's top object and of the objects in it, as
 * lines[KEY] and lines["PARENT/KEY"] (a new object the caller decrefs).
 * Jansson keeps no positions; the description is plain JSON, so a key is a
 * string at depth 1 or 2 followed by a colon. */
static json_t *key_lines(const char *text)
{
    json_t *lines = json_object();
    int line = 1, depth = 0;
    char parent[256] = "";
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            line++;
        else if (*p == '{' || *p == '[')
            depth++;
        else if (*p == '}' || *p == ']')
            depth--;
        else if (*p == '"') {
            const char *start = ++p;
            while (*p && *p != '"')
                p += p[0] == '\\' && p[1] ? 2 : 1;
            if (!*p)
                break;
            size_t len = (size_t)(p - start);
            const char *q = p + 1;
            while (*q == ' ' || *q == '\t' || *q == '\r')
                q++;
            if (*q != ':' || len >= sizeof parent || (depth != 1 && depth != 2))
                continue;
            char *key = depth == 1 ? pr_xstrndup(start, len)
                                   : pr_xasprintf("%s/%.*s", parent, (int)len, start);
            if (depth == 1)
                snprintf(parent, sizeof parent, "%.*s", (int)len, start);
            if (!json_object_get(lines, key))
                json_object_set_new(lines, key, json_integer(line));
            free(key);
        }
    }
    return lines;
}

/* Appends {key, kind, value, line} for value when it states something (a
 * non-empty string or a number). */
static void add_item(json_t *items, const char *key, const char *kind, json_t *value, json_t *at)
{
    char *text = json_is_string(value) ? pr_xstrdup(json_string_value(value))
                 : json_is_number(value)
                     ? json_dumps(value, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17))
                     : NULL;
    if (text && *text && json_is_integer(at))
        json_array_append_new(items, json_pack("{s:s, s:s, s:s, s:O}", "key", key, "kind", kind,
                                               "value", text, "line", at));
    free(text);
}

int import_mlperf_env_write(const char *path, const char *rel, const char *group, const char *repo,
                            const char *commit, const char *id, const char *data, pr_err *err)
{
    int rc = -1;
    pr_buf text = PR_BUF_INIT;
    json_t *d = NULL, *lines = NULL, *out = NULL;
    char *dir = pr_xasprintf("%s/environments", data);
    char *dst = pr_xasprintf("%s/%s.json", dir, id);
    char *dumped = NULL;
    json_error_t je;
    if (pr_fileio_read_file(path, &text, err) < 0)
        goto out;
    d = json_loads(pr_buf_cstr(&text), 0, &je);
    if (!json_is_object(d)) {
        pr_err_set(err, path, je.line, je.column, NULL, "not a JSON object: %s", je.text);
        goto out;
    }
    lines = key_lines(pr_buf_cstr(&text));
    json_t *items = json_array();
    const char *k;
    json_t *v;
    json_object_foreach(d, k, v)
    {
        if (!json_is_object(v)) {
            add_item(items, k, kind_of(k), v, json_object_get(lines, k));
            continue;
        }
        const char *sk;
        json_t *sv;
        json_object_foreach(v, sk, sv)
        {
            char *at = pr_xasprintf("%s/%s", k, sk);
            add_item(items, sk, kind_of(sk), sv, json_object_get(lines, at));
            free(at);
        }
    }
    char *url = pr_xasprintf("https://github.com/%s/blob/%s/%s", repo, commit, rel);
    out = json_pack("{s:i, s:{s:s, s:s, s:s, s:s}, s:[{s:s, s:i, s:o}]}", "perfrepro", 1, "source",
                    "repo", repo, "commit", commit, "path", rel, "url", url, "groups", "title",
                    group, "line", 1, "items", items);
    free(url);
    dumped = json_dumps(out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    pr_buf_clear(&text);
    pr_buf_puts(&text, dumped);
    pr_buf_putc(&text, '\n');
    if (pr_fileio_mkdirs(dir, err) < 0 ||
        pr_fileio_write_if_changed(dst, text.data, text.len, err) < 0)
        goto out;
    rc = 0;
out:
    json_decref(d);
    json_decref(lines);
    json_decref(out);
    free(dumped);
    free(dir);
    free(dst);
    pr_buf_free(&text);
    return rc;
}

int import_mlperf_env_runset(const char *run_dir, const char *name, const char *env_id,
                             const char *group, pr_err *err)
{
    json_t *o = json_pack("{s:i, s:{s:s, s:s}, s:[{s:s, s:s}]}", "perfrepro", 1, "title", "zh",
                          name, "en", name, "environment", "file", env_id, "group", group);
    char *dumped = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, dumped);
    pr_buf_putc(&b, '\n');
    char *dst = pr_xasprintf("%s/runset.json", run_dir);
    int rc = pr_fileio_write_if_changed(dst, b.data, b.len, err);
    free(dst);
    free(dumped);
    pr_buf_free(&b);
    json_decref(o);
    return rc < 0 ? -1 : 0;
}
