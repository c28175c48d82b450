/* import_platform: platforms made from a README's machine section (see the
 * header). */
#include "import_platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "fileio.h"

/* The first item of kind in group g; NULL when none. */
static json_t *item_of(json_t *g, const char *kind)
{
    size_t i;
    json_t *it;
    json_array_foreach(json_object_get(g, "items"), i, it)
    {
        const char *k = json_string_value(json_object_get(it, "kind"));
        if (k && !strcmp(k, kind))
            return it;
    }
    return NULL;
}

/* "MODEL * N" (or ×, x): MODEL into *model (caller frees) and N into
 * *count; 0 when read, -1 when the line states no whole count. */
static int split_count(const char *s, char **model, long *count)
{
    const char *mul = NULL;
    for (const char *p = s; *p; p++)
        if (*p == '*' || !strncmp(p, "×", strlen("×")) ||
            ((*p == 'x' || *p == 'X') && p > s && p[-1] == ' ' && p[1] == ' '))
            mul = p;
    if (!mul)
        return -1;
    const char *num = mul + (strncmp(mul, "×", strlen("×")) ? 1 : strlen("×"));
    while (*num == ' ')
        num++;
    char *end = NULL;
    errno = 0;
    long n = *num >= '0' && *num <= '9' ? strtol(num, &end, 10) : -1;
    while (end && *end == ' ')
        end++;
    if (!end || *end || errno || n < 1 || n > 100000)
        return -1;
    size_t len = (size_t)(mul - s);
    while (len && s[len - 1] == ' ')
        len--;
    if (!len)
        return -1;
    *model = pr_xstrndup(s, len);
    *count = n;
    return 0;
}

/* The memory the model's name states ("V100-SXM2-32GB": 32); 0 when none. */
static long memory_gb_of_model(const char *model)
{
    for (const char *p = model; *p; p++) {
        if (*p < '0' || *p > '9' || (p > model && p[-1] >= '0' && p[-1] <= '9'))
            continue;
        char *end = NULL;
        long v = strtol(p, &end, 10);
        if (end && (end[0] == 'G' || end[0] == 'g') && (end[1] == 'B' || end[1] == 'b') && v > 0 &&
            v < 100000)
            return v;
    }
    return 0;
}

/* The model without the vendor's brand ("Tesla ", "NVIDIA "): the title's
 * and the match pattern's name.  Borrowed from model. */
static const char *short_name(const char *model)
{
    static const char *const brands[] = {"Tesla ", "NVIDIA "};
    for (size_t i = 0; i < sizeof brands / sizeof *brands; i++)
        if (!strncmp(model, brands[i], strlen(brands[i])))
            return model + strlen(brands[i]);
    return model;
}

/* Devices whose FP32 matrix maths runs as TF32 by default (Ampere and
 * later: the frameworks' default there), so a page's FP32 figure says so.
 * A property of the device, not of a machine: one row per generation. */
static const char *const tf32_devices[] = {"A100", "A30", "A10", "H100", "H200", "H800", "A800"};

static int runs_tf32(const char *model)
{
    for (size_t i = 0; i < sizeof tf32_devices / sizeof *tf32_devices; i++) {
        const char *at = strstr(model, tf32_devices[i]);
        size_t n = strlen(tf32_devices[i]);
        /* "A10" is not "A100"'s prefix match: the name ends or a '-' follows. */
        if (at && (at[n] == '\0' || at[n] == '-' || at[n] == ' '))
            return 1;
    }
    return 0;
}

json_t *import_platform_of_env(const import_manifest_t *m, const import_manifest_platform *p,
                               json_t *env, pr_err *err)
{
    json_t *out = NULL, *g = NULL, *it;
    char *model = NULL, *title = NULL, *where = NULL;
    pr_buf titles = PR_BUF_INIT;
    size_t i;
    long per_node;
    json_array_foreach(json_object_get(env, "groups"), i, it)
    {
        const char *t = json_string_value(json_object_get(it, "title"));
        if (t && !strcmp(t, p->group) && !g)
            g = it;
        pr_buf_printf(&titles, "%s\"%s\"", titles.len ? ", " : "", t ? t : "");
    }
    if (!g) {
        pr_err_set(err, m->file, p->line, 0, "platform",
                   "%s has no environment group \"%s\" (its groups: %s)", p->path, p->group,
                   titles.len ? pr_buf_cstr(&titles) : "none");
        goto out;
    }
    json_t *gpu = item_of(g, "gpu");
    const char *gv = gpu ? json_string_value(json_object_get(gpu, "value")) : NULL;
    int gline = gpu ? (int)json_integer_value(json_object_get(gpu, "line")) : 0;
    if (!gv) {
        pr_err_set(err, m->file, p->line, 0, "platform",
                   "group \"%s\" of %s names no GPU: a platform needs its device", p->group,
                   p->path);
        goto out;
    }
    if (split_count(gv, &model, &per_node) < 0) {
        pr_err_set(err, m->file, p->line, 0, "platform",
                   "%s:%d: GPU \"%s\" states no GPUs per node (write it as \"MODEL * N\")", p->path,
                   gline, gv);
        goto out;
    }
    out = json_object();
    json_object_set_new(out, "perfrepro", json_integer(1));
    title = pr_xasprintf("%s × %ld", short_name(model), per_node);
    json_object_set_new(out, "title", json_pack("{s:s,s:s}", "zh", title, "en", title));
    json_t *dev = json_pack("{s:s,s:s}", "kind", "gpu", "model", model);
    long gb = memory_gb_of_model(model);
    if (gb)
        json_object_set_new(dev, "memory_gb", json_integer(gb));
    json_object_set_new(dev, "per_node", json_integer(per_node));
    json_object_set_new(out, "device", dev);
    if (runs_tf32(model))
        json_object_set_new(out, "tf32", json_true());
    json_object_set_new(out, "match", json_pack("[s]", short_name(model)));
    /* Where it was read: the README's GPU line.  No "system": a README's
     * machine is one node, found by its device as any node's platform (a
     * system of N nodes is named by its id only); its host lines vary
     * between a source's machines of one device and stay in the run set's
     * environment. */
    where = pr_xasprintf("https://github.com/%s/blob/%s/%s#L%d", m->repo ? m->repo : "",
                         m->commit ? m->commit : "", p->path, gline);
    json_object_set_new(out, "source", json_string(where));
out:
    pr_buf_free(&titles);
    free(model);
    free(title);
    free(where);
    return out;
}

/* The device fields a README states, compared one by one: "" when they
 * agree, else the first difference ("device.per_node: the file says 8,
 * the README 4"; caller frees). */
static char *device_difference(json_t *have, json_t *want)
{
    static const char *const keys[] = {"kind", "model", "memory_gb", "per_node"};
    json_t *hd = json_object_get(have, "device"), *wd = json_object_get(want, "device");
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        json_t *w = json_object_get(wd, keys[i]);
        json_t *h = json_object_get(hd, keys[i]);
        if (!w)
            continue;
        int same = h && (json_is_number(w) && json_is_number(h)
                             ? json_number_value(w) == json_number_value(h)
                             : json_equal(w, h));
        if (!same) {
            char *hs = h ? json_dumps(h, JSON_ENCODE_ANY) : pr_xstrdup("nothing");
            char *ws = json_dumps(w, JSON_ENCODE_ANY);
            char *d = pr_xasprintf("device.%s: the file says %s, the README %s", keys[i], hs, ws);
            free(hs);
            free(ws);
            return d;
        }
    }
    return pr_xstrdup("");
}

int import_platform_write_or_check(const import_manifest_t *m, const import_manifest_platform *p,
                                   json_t *platform, const char *platforms_dir, pr_err *err)
{
    int rc = -1;
    char *path = pr_xasprintf("%s/%s.json", platforms_dir, p->id);
    char *text = NULL, *diff = NULL;
    json_t *have = NULL;
    struct stat st;
    pr_buf b = PR_BUF_INIT;
    if (stat(path, &st) == 0) {
        json_error_t je;
        have = json_load_file(path, 0, &je);
        if (!json_is_object(have)) {
            pr_err_set(err, path, je.line, je.column, NULL, "not a JSON object: %s", je.text);
            goto out;
        }
        diff = device_difference(have, platform);
        if (*diff) {
            pr_err_set(err, m->file, p->line, 0, "platform",
                       "data/platforms/%s.json differs from what %s says (%s): %s", p->id, p->path,
                       json_string_value(json_object_get(platform, "source")), diff);
            goto out;
        }
        /* Agrees: rewritten as the README says it, so that the file is the
         * import's whatever was typed into it before (a hand title, an
         * interconnect no line states).  Several READMEs state one machine
         * (each model's of a source): the link already there stays, so
         * that importing one manifest again changes nothing. */
        json_t *was = json_object_get(have, "source");
        if (json_is_string(was))
            json_object_set(platform, "source", was);
    }
    if (mkdir(platforms_dir, 0777) < 0 && errno != EEXIST) {
        pr_err_errno(err, platforms_dir, "cannot create");
        goto out;
    }
    text = json_dumps(platform, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    pr_buf_puts(&b, text);
    pr_buf_putc(&b, '\n');
    rc = pr_fileio_write_if_changed(path, b.data, b.len, err);
out:
    pr_buf_free(&b);
    json_decref(have);
    free(text);
    free(diff);
    free(path);
    return rc;
}
