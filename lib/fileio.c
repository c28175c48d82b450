#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int pr_open_regular(const char *path, pr_err *err)
{
    /* O_NONBLOCK: opening a FIFO for reading must not wait for a writer;
     * O_NOCTTY: a terminal device must not become our controlling tty. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return pr_err_errno(err, path, "cannot open");
    struct stat st;
    if (fstat(fd, &st) < 0) {
        pr_err_errno(err, path, "cannot stat");
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        pr_err_set(err, path, 0, 0, NULL, "is %s, not a regular file",
                   S_ISDIR(st.st_mode)    ? "a directory"
                   : S_ISFIFO(st.st_mode) ? "a FIFO"
                   : S_ISCHR(st.st_mode)  ? "a character device"
                   : S_ISBLK(st.st_mode)  ? "a block device"
                   : S_ISSOCK(st.st_mode) ? "a socket"
                                          : "a special file");
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

int pr_read_file_max(const char *path, size_t max_bytes, pr_buf *out, pr_err *err)
{
    int rc = -1;
    int fd = pr_open_regular(path, err);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) < 0) {
        pr_err_errno(err, path, "cannot stat");
        goto out;
    }
    /* st_size of a sparse file is what a read would return: refuse before
     * reading, so a 1 GB hole costs nothing. */
    if ((unsigned long long)st.st_size > max_bytes) {
        pr_err_set(err, path, 0, 0, NULL, "is %lld bytes, more than the %zu MiB a file read whole may weigh",
                   (long long)st.st_size, max_bytes >> 20);
        goto out;
    }
    /* Room for the whole file and the read that sees its end. */
    size_t step = (size_t)st.st_size + 1;
    size_t start = out->len;
    for (;;) {
        pr_buf_grow(out, step < 4096 ? 4096 : step);
        step = 65536;
        ssize_t n = read(fd, out->data + out->len, out->cap - out->len - 1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            pr_err_errno(err, path, "cannot read");
            goto out;
        }
        if (n == 0)
            break;
        out->len += (size_t)n;
        out->data[out->len] = '\0';
        /* A file growing while we read it is held to the same limit. */
        if (out->len - start > max_bytes) {
            pr_err_set(err, path, 0, 0, NULL, "grew past the %zu MiB a file read whole may weigh",
                       max_bytes >> 20);
            goto out;
        }
    }
    rc = 0;
out:
    close(fd);
    return rc;
}

int pr_read_file(const char *path, pr_buf *out, pr_err *err)
{
    return pr_read_file_max(path, PR_READ_MAX_BYTES, out, err);
}

int pr_path_within(const char *root, const char *path, pr_err *err)
{
    int rc = -1;
    char *real_root = realpath(root, NULL);
    char *real_path = NULL;
    if (!real_root) {
        pr_err_errno(err, root, "cannot resolve");
        goto out;
    }
    real_path = realpath(path, NULL);
    if (!real_path) {
        pr_err_errno(err, path, "cannot resolve");
        goto out;
    }
    size_t n = strlen(real_root);
    int inside = strcmp(real_root, "/") == 0 ||
                 (strncmp(real_path, real_root, n) == 0 &&
                  (real_path[n] == '/' || real_path[n] == '\0'));
    if (!inside) {
        pr_err_set(err, path, 0, 0, NULL, "resolves outside %s (a symbolic link?); refusing to read it",
                   root);
        goto out;
    }
    rc = 0;
out:
    free(real_root);
    free(real_path);
    return rc;
}

static int write_all(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static int write_replace(const char *path, const void *data, size_t len, int durable,
                         pr_err *err);

/* Creates "PATH.tmp.PID.XXXXXX" beside path with O_CREAT|O_EXCL|O_NOFOLLOW
 * and a random suffix: the name cannot be predicted, and a file or symbolic
 * link already there is never opened, so nobody can redirect our write by
 * planting one.  (Not mkostemp: its internal open bypasses the write-fault
 * shim the tests inject.)  *tmp_out is malloc'd (the caller frees it);
 * returns the fd or -1. */
static int create_temp(const char *path, char **tmp_out, pr_err *err)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    char *tmp = pr_xasprintf("%s" PR_TEMP_INFIX "%ld.XXXXXX", path, (long)getpid());
    char *suffix = tmp + strlen(tmp) - 6;
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned char rnd[6];
        if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
            /* No entropy source: the O_EXCL below still refuses planted names. */
            unsigned long x = (unsigned long)time(NULL) * 2654435761u + (unsigned long)attempt;
            for (int i = 0; i < 6; i++, x >>= 5)
                rnd[i] = (unsigned char)x;
        }
        for (int i = 0; i < 6; i++)
            suffix[i] = alphabet[rnd[i] % (sizeof alphabet - 1)];
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0) {
            *tmp_out = tmp;
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    pr_err_errno(err, tmp, "cannot create");
    free(tmp);
    return -1;
}

int pr_is_temp_name(const char *name, long *pid_out)
{
    const char *infix = strstr(name, PR_TEMP_INFIX);
    if (!infix)
        return 0;
    /* The last occurrence: a file name may itself contain the infix. */
    for (const char *next; (next = strstr(infix + 1, PR_TEMP_INFIX));)
        infix = next;
    const char *p = infix + strlen(PR_TEMP_INFIX);
    char *end;
    errno = 0;
    long pid = strtol(p, &end, 10);
    if (end == p || errno || pid <= 0)
        return 0;
    /* "PID" alone is the old predictable form; "PID.XXXXXX" the current. */
    if (*end == '.' && strlen(end + 1) == 6)
        end += 7;
    if (*end)
        return 0;
    if (pid_out)
        *pid_out = pid;
    return 1;
}

int pr_write_atomic(const char *path, const void *data, size_t len, pr_err *err)
{
    return write_replace(path, data, len, 1, err);
}

int pr_write_temp(const char *path, const void *data, size_t len, int durable, char **tmp_out,
                  pr_err *err)
{
    int rc = -1, fd = -1;
    char *dir = pr_path_dirname(path);
    char *tmp = NULL;
    if (pr_mkdirs(dir, err) < 0)
        goto out;
    if ((fd = create_temp(path, &tmp, err)) < 0)
        goto out;
    if (write_all(fd, data, len) < 0) {
        pr_err_errno(err, path, "cannot write");
        goto out;
    }
    if (durable && fsync(fd) < 0 && errno != EINVAL && errno != EROFS) {
        pr_err_errno(err, path, "cannot sync");
        goto out;
    }
    if (close(fd) < 0) {
        fd = -1;
        pr_err_errno(err, path, "cannot write");
        goto out;
    }
    fd = -1;
    *tmp_out = tmp;
    tmp = NULL;
    rc = 0;
out:
    if (fd >= 0)
        close(fd);
    if (tmp)
        unlink(tmp);
    free(tmp);
    free(dir);
    return rc;
}

int pr_commit_temp(const char *tmp, const char *path, pr_err *err)
{
    if (rename(tmp, path) < 0) {
        pr_err_errno(err, path, "cannot rename into place");
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* Writes through a temporary file and rename; durable adds the fsync that
 * makes the content survive a crash, not only an interrupted writer. */
static int write_replace(const char *path, const void *data, size_t len, int durable,
                         pr_err *err)
{
    char *tmp = NULL;
    if (pr_write_temp(path, data, len, durable, &tmp, err) < 0)
        return -1;
    int rc = pr_commit_temp(tmp, path, err);
    free(tmp);
    return rc;
}

int pr_copy_temp(const char *src, const char *dst, char **tmp_out, pr_err *err)
{
    int rc = -1, in = -1, out = -1;
    char *dir = pr_path_dirname(dst);
    char *tmp = NULL;
    char *buf = pr_xmalloc(1 << 16);
    if (pr_mkdirs(dir, err) < 0)
        goto out;
    if ((in = pr_open_regular(src, err)) < 0)
        goto out;
    if ((out = create_temp(dst, &tmp, err)) < 0)
        goto out;
    for (;;) {
        ssize_t n = read(in, buf, 1 << 16);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            pr_err_errno(err, src, "cannot read");
            goto out;
        }
        if (n == 0)
            break;
        if (write_all(out, buf, (size_t)n) < 0) {
            pr_err_errno(err, dst, "cannot write");
            goto out;
        }
    }
    if (fsync(out) < 0 && errno != EINVAL && errno != EROFS) {
        pr_err_errno(err, dst, "cannot sync");
        goto out;
    }
    int fd = out;
    out = -1;
    if (close(fd) < 0) {
        pr_err_errno(err, dst, "cannot write");
        goto out;
    }
    *tmp_out = tmp;
    tmp = NULL;
    rc = 0;
out:
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
    if (tmp)
        unlink(tmp);
    free(buf);
    free(tmp);
    free(dir);
    return rc;
}

int pr_copy_file_atomic(const char *src, const char *dst, pr_err *err)
{
    char *tmp = NULL;
    int rc = pr_copy_temp(src, dst, &tmp, err);
    if (rc == 0)
        rc = pr_commit_temp(tmp, dst, err);
    free(tmp);
    return rc;
}

int pr_file_equals(const char *path, const void *data, size_t len)
{
    pr_buf old = PR_BUF_INIT;
    pr_err ignored;
    int same = pr_is_file(path) && pr_read_file(path, &old, &ignored) == 0 && old.len == len &&
               (len == 0 || memcmp(old.data, data, len) == 0);
    pr_buf_free(&old);
    return same;
}

int pr_write_if_changed(const char *path, const void *data, size_t len, pr_err *err)
{
    if (pr_file_equals(path, data, len))
        return 0;
    return write_replace(path, data, len, 0, err);
}

int pr_mkdirs(const char *path, pr_err *err)
{
    if (!*path || pr_is_dir(path))
        return 0;
    /* The parent usually exists: one mkdir; walk up only when it does not. */
    if (mkdir(path, 0755) == 0 || errno == EEXIST)
        return pr_is_dir(path) ? 0 : pr_err_set(err, path, 0, 0, NULL, "exists and is not a directory");
    if (errno != ENOENT)
        return pr_err_errno(err, path, "cannot create directory");
    char *parent = pr_path_dirname(path);
    /* "/" and "." are their own parents and always exist. */
    int rc = strcmp(parent, path) == 0 ? pr_err_set(err, path, 0, 0, NULL, "cannot create directory")
                                       : pr_mkdirs(parent, err);
    free(parent);
    if (rc < 0)
        return -1;
    if (mkdir(path, 0755) < 0 && errno != EEXIST)
        return pr_err_errno(err, path, "cannot create directory");
    return pr_is_dir(path) ? 0 : pr_err_set(err, path, 0, 0, NULL, "exists and is not a directory");
}

int pr_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int pr_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int pr_path_is_safe_relative(const char *rel)
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

char *pr_path_join(const char *a, const char *b)
{
    if (!a || !*a || strcmp(a, ".") == 0)
        return pr_xstrdup(b);
    size_t la = strlen(a);
    return pr_xasprintf("%s%s%s", a, a[la - 1] == '/' ? "" : "/", b);
}

char *pr_path_dirname(const char *path)
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

char *pr_path_relative(const char *from_dir, const char *to_path)
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

int pr_strv_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int pr_list_dir(const char *dir, char ***names_out, size_t *count_out, pr_err *err)
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
    qsort(v, n, sizeof *v, pr_strv_cmp);
    v[n] = NULL;
    *names_out = v;
    if (count_out)
        *count_out = n;
    return 0;
}

void pr_strv_free(char **v)
{
    if (!v)
        return;
    for (char **p = v; *p; p++)
        free(*p);
    free(v);
}
