/* data_fs: what may be read in the data folder: each path checked, links kept inside it. */
#include "data.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "data_int.h"

/* Hardening: a symbolic link in the data folder (a record, a log, a run or
 * log folder, a suite) made gen read, and the site publish, /etc/shadow or
 * /proc/self/environ.  Whatever is read must resolve inside the data folder
 * (pr_fileio_path_within); special files are refused when read (pr_fileio_read_file), or
 * here for logs, which are only linked.
 *
 * What lies at path, whose folder was already checked (one lstat; realpath
 * only for a link): 0 and *mode 0 when nothing, 1 with *mode what it is (for
 * a link, what it points to, once known to lie inside root), -1 on error. */
int data_entry(const char *root, const char *path, unsigned *mode, pr_err *err)
{
    struct stat st;
    *mode = 0;
    if (lstat(path, &st) < 0)
        return errno == ENOENT ? 0 : pr_err_errno(err, path, "cannot stat");
    if (S_ISLNK(st.st_mode)) {
        if (pr_fileio_path_within(root, path, err) < 0)
            return -1;
        if (stat(path, &st) < 0)
            return pr_err_errno(err, path, "cannot stat");
    }
    *mode = st.st_mode;
    return 1;
}

/* data_entry for each component of rel below the checked folder base
 * (base/rel must not be in the output); 1 with *mode of the last. */
int data_path(const char *root, const char *base, const char *rel, unsigned *mode, pr_err *err)
{
    char *path = pr_xstrdup(base);
    int rc = 1;
    for (const char *seg = rel; rc == 1 && *seg;) {
        size_t n = strcspn(seg, "/");
        char *next = pr_xasprintf("%s/%.*s", path, (int)n, seg);
        free(path);
        path = next;
        rc = data_entry(root, path, mode, err);
        seg += n + (seg[n] == '/');
        if (rc == 1 && *seg && !S_ISDIR(*mode))
            rc = pr_err_set(err, path, 0, 0, NULL, "is %s, not a folder",
                            pr_fileio_mode_name(*mode));
    }
    free(path);
    return rc;
}

/* How deep data_find_json follows folders: linked folders may loop. */
#define DATA_MAX_DEPTH 32

/* Collects *.json below dir (checked to lie inside root), recursively,
 * sorted. */
int data_find_json(const char *root, const char *dir, int depth, char ***list, size_t *n,
                   pr_err *err)
{
    char **names = NULL;
    if (depth > DATA_MAX_DEPTH)
        return pr_err_set(err, dir, 0, 0, NULL, "more than %d folders deep (a symbolic link loop?)",
                          DATA_MAX_DEPTH);
    if (pr_fileio_list_dir(dir, &names, NULL, err) < 0)
        return -1;
    int rc = 0;
    for (char **p = names; *p && rc == 0; p++) {
        char *path = pr_fileio_path_join(dir, *p);
        size_t l = strlen(*p);
        unsigned mode;
        if ((rc = data_entry(root, path, &mode, err)) < 0) {
            free(path);
            break;
        }
        rc = 0;
        if (S_ISDIR(mode)) {
            rc = data_find_json(root, path, depth + 1, list, n, err);
        } else if (l > 5 && strcmp(*p + l - 5, ".json") == 0) {
            *list = pr_xrealloc(*list, (*n + 2) * sizeof **list);
            (*list)[(*n)++] = path;
            (*list)[*n] = NULL;
            path = NULL;
        }
        free(path);
    }
    pr_fileio_strv_free(names);
    return rc;
}
