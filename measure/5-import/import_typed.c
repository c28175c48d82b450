/* import_typed: whose typed figures data/published/import-NAME.json holds. */
#include "import_typed.h"

#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "md5.h"

char *import_typed_path(const import_manifest_t *m, const char *data)
{
    char *id = import_manifest_typed_published_id(m->file);
    char *path = pr_xasprintf("%s/published/%s.json", data, id);
    free(id);
    return path;
}

/* Every table of the file has its own source, so gen never shows the
 * file-level title: it is free to name the manifest. */
char *import_typed_marker(const import_manifest_t *m, const char *data)
{
    char real[PATH_MAX];
    const char *slash = strrchr(data, '/');
    size_t rootlen = slash ? (size_t)(slash - data) : 0;
    if (!realpath(m->file, real)) {
        const char *base = strrchr(m->file, '/');
        return pr_xasprintf("figures typed in %s", base ? base + 1 : m->file);
    }
    if (rootlen && !strncmp(real, data, rootlen) && real[rootlen] == '/')
        return pr_xasprintf("figures typed in %s", real + rootlen + 1);
    pr_md5 h;
    unsigned char d[16];
    char hex[33];
    pr_md5_init(&h);
    pr_md5_update(&h, real, strlen(real));
    pr_md5_final(&h, d);
    pr_md5_hex(d, hex);
    return pr_xasprintf("figures typed in %s (outside the repository, path digest %.12s)",
                        strrchr(real, '/') + 1, hex);
}

int import_typed_check(const import_manifest_t *m, const char *data, int replace, pr_err *err)
{
    if (!m->published_path || replace)
        return 0;
    char *path = import_typed_path(m, data), *marker = import_typed_marker(m, data);
    json_t *old = NULL;
    int rc = 0;
    if (access(path, F_OK) == 0) {
        json_error_t je;
        old = json_load_file(path, 0, &je);
        const char *title =
            json_string_value(json_object_get(json_object_get(old, "source"), "title"));
        if (!title || strcmp(title, marker))
            rc = pr_err_set(err, m->file, 0, 0, "published",
                            "%s already holds the figures of another manifest (\"%.120s\"), "
                            "and the file is named after the manifest's base name: rename this "
                            "manifest, or give --replace",
                            path,
                            title ? title
                            : old ? "no source title"
                                  : je.text);
    }
    json_decref(old);
    free(marker);
    free(path);
    return rc;
}
