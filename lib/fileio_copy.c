/* fileio_copy: copying files, as links into a staging folder when unchanged, only when changed.
 * One copy loop (copy_stream: holes kept) and one temporary-file-then-rename
 * path (copy_to_temp) serve every copy. */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio_int.h"

/* 1 when p[0..n) is all zero bytes. */
static int all_zero(const char *p, size_t n)
{
    return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

/* Copies in to the new regular file out.  Blocks of zeros become holes (a
 * seek past them, the size set at the end), so a sparse log stays sparse
 * (the copy's bytes are the same). */
static int copy_stream(int in, const char *src, int out, const char *dst, pr_err *err)
{
    int rc = -1, hole = 0;
    off_t size = 0;
    char *buf = pr_xmalloc(1 << 16);
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
        size += n;
        if (n == 1 << 16 && all_zero(buf, (size_t)n) && lseek(out, n, SEEK_CUR) >= 0) {
            hole = 1;
            continue;
        }
        hole = 0;
        if (pr_fileio_write_all(out, buf, (size_t)n) < 0) {
            pr_err_errno(err, dst, "cannot write");
            goto out;
        }
    }
    if (hole && ftruncate(out, size) < 0) {
        pr_err_errno(err, dst, "cannot write");
        goto out;
    }
    rc = 0;
out:
    free(buf);
    return rc;
}

/* Reads up to len bytes, fewer only at the end of the file; -1 on error. */
static ssize_t read_full(int fd, char *p, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, p + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

/* Creates dst (pr_fileio_write_new's rules) holding what is left of in (src); on
 * error dst is removed. */
static int copy_to_new(int in, const char *src, const char *dst, pr_err *err)
{
    int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (out < 0)
        return pr_err_errno(err, dst, "cannot create");
    int rc = copy_stream(in, src, out, dst, err);
    if (close(out) < 0 && rc == 0)
        rc = pr_err_errno(err, dst, "cannot write");
    if (rc < 0)
        unlink(dst);
    return rc;
}

int pr_fileio_link_or_copy(const char *src, const char *dst, pr_err *err)
{
    if (link(src, dst) == 0)
        return 0;
    /* Another file system, a file system without hard links, too many
     * links, or a file we may not link (protected_hardlinks): copy it. */
    int e = errno;
    struct stat st;
    if ((e != EXDEV && e != EPERM && e != EMLINK && e != EOPNOTSUPP && e != ENOTSUP) ||
        lstat(src, &st) < 0 || !S_ISREG(st.st_mode)) { /* a link is never followed */
        errno = e;
        return pr_err_errno(err, dst, "cannot link");
    }
    int in = pr_fileio_open_regular(src, err);
    if (in < 0)
        return -1;
    int rc = copy_to_new(in, src, dst, err);
    close(in);
    return rc;
}

int pr_fileio_stage_write(const char *prev, const char *dst, const void *data, size_t len,
                          int *changed, pr_err *err)
{
    *changed = !pr_fileio_equals(prev, data, len);
    return *changed ? pr_fileio_write_new(dst, data, len, err)
                    : pr_fileio_link_or_copy(prev, dst, err);
}

/* 1 when the regular file dst holds exactly what in (of st_size size)
 * holds; in is rewound. */
static int same_content(int in, off_t size, const char *dst)
{
    struct stat st;
    if (lstat(dst, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size != size)
        return 0;
    int fd = open(dst, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return 0;
    char *a = pr_xmalloc(1 << 16), *b = pr_xmalloc(1 << 16);
    int same = 1;
    for (;;) {
        ssize_t na = read_full(in, a, 1 << 16), nb = read_full(fd, b, 1 << 16);
        if (na < 0 || nb < 0 || na != nb || memcmp(a, b, (size_t)na) != 0) {
            same = 0;
            break;
        }
        if (na == 0)
            break;
    }
    free(a);
    free(b);
    close(fd);
    if (lseek(in, 0, SEEK_SET) < 0)
        same = -1;
    return same;
}

/* Opens the regular file src and says in *same whether the regular file
 * other holds the same bytes (a link at other never does); returns the fd,
 * rewound (the caller closes it), or -1. */
static int open_compared(const char *src, const char *other, int *same, pr_err *err)
{
    struct stat st;
    int in = pr_fileio_open_regular_stat(src, &st, err);
    if (in < 0)
        return -1;
    *same = same_content(in, st.st_size, other);
    if (*same < 0) {
        pr_err_errno(err, src, "cannot read");
        close(in);
        return -1;
    }
    return in;
}

int pr_fileio_stage_copy(const char *src, const char *prev, const char *dst, int *changed,
                         pr_err *err)
{
    int same;
    *changed = 0;
    int in = open_compared(src, prev, &same, err);
    if (in < 0)
        return -1;
    *changed = !same;
    int rc = same ? pr_fileio_link_or_copy(prev, dst, err) : copy_to_new(in, src, dst, err);
    close(in);
    return rc;
}

/* The one temporary-file path of the copies: copies what is left of in
 * (src) to a new temporary file beside dst (pr_fileio_create_temp: O_EXCL,
 * O_NOFOLLOW, mode 0644), creating dst's parent folders, with an fsync when
 * durable.  Sets *tmp_out (malloc'd: the caller frees it, after
 * pr_fileio_commit_temp or unlink); on error nothing is left behind. */
static int copy_to_temp(int in, const char *src, const char *dst, int durable, char **tmp_out,
                        pr_err *err)
{
    int rc = -1, out = -1;
    char *dir = pr_fileio_path_dirname(dst);
    char *tmp = NULL;
    if (pr_fileio_mkdirs(dir, err) < 0 || (out = pr_fileio_create_temp(dst, &tmp, err)) < 0 ||
        copy_stream(in, src, out, dst, err) < 0)
        goto out;
    if (durable && fsync(out) < 0 && errno != EINVAL && errno != EROFS) {
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
    if (out >= 0)
        close(out);
    if (tmp)
        unlink(tmp);
    free(tmp);
    free(dir);
    return rc;
}

/* Regenerated output: no fsync (pr_fileio_write_if_changed's rule). */
int pr_fileio_copy_if_changed(const char *src, const char *dst, int *changed, pr_err *err)
{
    int same;
    char *tmp = NULL;
    *changed = 0;
    int in = open_compared(src, dst, &same, err);
    if (in < 0)
        return -1;
    int rc = same ? 0 : copy_to_temp(in, src, dst, 0, &tmp, err);
    if (!same && rc == 0) {
        rc = pr_fileio_commit_temp(tmp, dst, err); /* removes tmp on error */
        *changed = rc == 0;
    }
    close(in);
    free(tmp);
    return rc;
}

/* What perfrepro-measure keeps (logs, a suite): its own data, so synced. */
int pr_fileio_copy_temp(const char *src, const char *dst, char **tmp_out, pr_err *err)
{
    int in = pr_fileio_open_regular(src, err);
    if (in < 0)
        return -1;
    int rc = copy_to_temp(in, src, dst, 1, tmp_out, err);
    close(in);
    return rc;
}

int pr_fileio_copy_file_atomic(const char *src, const char *dst, pr_err *err)
{
    char *tmp = NULL;
    int rc = pr_fileio_copy_temp(src, dst, &tmp, err);
    if (rc == 0)
        rc = pr_fileio_commit_temp(tmp, dst, err);
    free(tmp);
    return rc;
}
