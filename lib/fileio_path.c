/* fileio_path: folders made and listed; paths joined, checked and made relative as strings. */
#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int pr_fileio_mkdirs(const char *path, pr_err *err)
{
    if (!*path || pr_fileio_is_dir(path))
        return 0;
    /* The parent usually exists: one mkdir; walk up only when it does not. */
    if (mkdir(path, 0755) == 0 || errno == EEXIST)
        return pr_fileio_is_dir(path)
                   ? 0
                   : pr_err_set(err, path, 0, 0, NULL, "exists and is not a directory");
    if (errno != ENOENT)
        return pr_err_errno(err, path, "cannot create directory");
    char *parent = pr_fileio_path_dirname(path);
    /* "/" and "." are their own parents and always exist. */
    int rc = strcmp(parent, path) == 0
                 ? pr_err_set(err, path, 0, 0, NULL, "cannot create directory")
                 : pr_fileio_mkdirs(parent, err);
    free(parent);
    if (rc < 0)
        return -1;
    if (mkdir(path, 0755) < 0 && errno != EEXIST)
        return pr_err_errno(err, path, "cannot create directory");
    return pr_fileio_is_dir(path)
               ? 0
               : pr_err_set(err, path, 0, 0, NULL, "exists and is not a directory");
}

int pr_fileio_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int pr_fileio_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int pr_fileio_path_is_safe_relative(const char *rel)
{
    if (!rel || !*rel || rel[0] == '/')
        return 0;
    const char *seg = rel;
    for (const char *s = rel;; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '/' || c == '\0') {
            size_t n = (size_t)(s - seg);
            if (n == 0 || (n == 1 && seg[0] == '.') || (n == 2 && seg[0] == '.' && seg[1] == '.'))
                return 0;
            if (c == '\0')
                return 1;
            seg = s + 1;
        } else if (c < 0x20 || c == 0x7f || c == '\\') {
            return 0;
        }
    }
}

char *pr_fileio_path_join(const char *a, const char *b)
{
    if (!a || !*a || strcmp(a, ".") == 0)
        return pr_xstrdup(b);
    size_t la = strlen(a);
    return pr_xasprintf("%s%s%s", a, a[la - 1] == '/' ? "" : "/", b);
}

char *pr_fileio_path_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return pr_xstrdup(".");
    if (slash == path)
        return pr_xstrdup("/");
    return pr_xstrndup(path, (size_t)(slash - path));
}

/* Counts the components of a normalised relative directory ("." has none). */
static size_t count_components(const char *dir)
{
    if (!*dir || strcmp(dir, ".") == 0)
        return 0;
    size_t n = 1;
    for (const char *s = dir; *s; s++)
        if (*s == '/' && s[1])
            n++;
    return n;
}

char *pr_fileio_path_relative(const char *from_dir, const char *to_path)
{
    /* Skip the common leading directories. */
    const char *f = strcmp(from_dir, ".") == 0 ? "" : from_dir;
    const char *t = to_path;
    for (;;) {
        const char *fe = strchr(f, '/');
        const char *te = strchr(t, '/');
        size_t fl = fe ? (size_t)(fe - f) : strlen(f);
        size_t tl = te ? (size_t)(te - t) : 0;
        if (!*f || !te || fl != tl || strncmp(f, t, fl) != 0)
            break;
        f = fe ? fe + 1 : f + fl;
        t = te + 1;
    }
    pr_buf b = PR_BUF_INIT;
    for (size_t i = count_components(f); i > 0; i--)
        pr_buf_puts(&b, "../");
    pr_buf_puts(&b, t);
    return pr_buf_detach(&b);
}

int pr_fileio_strv_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int pr_fileio_list_dir(const char *dir, char ***names_out, size_t *count_out, pr_err *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return pr_err_errno(err, dir, "cannot open directory");
    size_t n = 0, cap = 16;
    char **v = pr_xmalloc(cap * sizeof *v);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n + 1 >= cap)
            v = pr_xrealloc(v, (cap *= 2) * sizeof *v);
        v[n++] = pr_xstrdup(e->d_name);
    }
    closedir(d);
    pr_qsort(v, n, sizeof *v, pr_fileio_strv_cmp);
    v[n] = NULL;
    *names_out = v;
    if (count_out)
        *count_out = n;
    return 0;
}

void pr_fileio_strv_free(char **v)
{
    if (!v)
        return;
    for (char **p = v; *p; p++)
        free(*p);
    free(v);
}
