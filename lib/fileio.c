/* fileio: regular files read whole, and whether a path or tree stays inside a root. */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio_int.h"

const char *pr_fileio_mode_name(unsigned mode)
{
    return S_ISREG(mode)    ? "a regular file"
           : S_ISDIR(mode)  ? "a directory"
           : S_ISLNK(mode)  ? "a symbolic link"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "a special file";
}

/* pr_fileio_open_regular, and *st_out what fstat said of the file (a read whole
 * needs its size: one fstat, not two). */
static int open_regular_flags(const char *path, int flags, struct stat *st_out, pr_err *err)
{
    /* O_NONBLOCK: opening a FIFO for reading must not wait for a writer;
     * O_NOCTTY: a terminal device must not become our controlling tty. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | flags);
    if (fd < 0 && errno == ELOOP && (flags & O_NOFOLLOW))
        return -2; /* a symbolic link: the caller checks where it leads */
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
                   pr_fileio_mode_name(st.st_mode));
        close(fd);
        return -1;
    }
    /* O_NONBLOCK stays: on a regular file it changes nothing (reads of a
     * regular file never block on Linux), and clearing it cost two system
     * calls per data file (a fifth of loading 20,000 records). */
    *st_out = st;
    return fd;
}

int pr_fileio_open_regular_stat(const char *path, struct stat *st_out, pr_err *err)
{
    return open_regular_flags(path, 0, st_out, err);
}

int pr_fileio_open_regular(const char *path, pr_err *err)
{
    struct stat st;
    return pr_fileio_open_regular_stat(path, &st, err);
}

/* pr_fileio_read_file_max; with O_NOFOLLOW in flags, 1 (nothing read, no error)
 * when path is a symbolic link. */
static int read_file_flags(const char *path, int flags, size_t max_bytes, pr_buf *out, pr_err *err)
{
    int rc = -1;
    struct stat st;
    int fd = open_regular_flags(path, flags, &st, err);
    if (fd < 0)
        return fd == -2 ? 1 : -1;
    /* st_size of a sparse file is what a read would return: refuse before
     * reading, so a 1 GB hole costs nothing. */
    if ((unsigned long long)st.st_size > max_bytes) {
        pr_err_set(err, path, 0, 0, NULL,
                   "is %lld bytes, more than the %zu MiB a file read whole may weigh",
                   (long long)st.st_size, max_bytes >> 20);
        goto out;
    }
    /* Room for the whole file and the read that sees its end. */
    size_t step = (size_t)st.st_size + 1;
    size_t start = out->len;
    for (;;) {
        pr_buf_grow(out, step < 4096 ? 4096 : step);
        step = 65536;
        size_t room = out->cap - out->len - 1;
        ssize_t n = read(fd, out->data + out->len, room);
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
        /* A short read of a regular file is its end: no second read to be
         * told so (one system call per data file; 10^5 records at a time).
         * Not for a file whose size says nothing (st_size 0: /proc's). */
        if ((size_t)n < room && st.st_size > 0 && out->len - start >= (size_t)st.st_size)
            break;
    }
    rc = 0;
out:
    close(fd);
    return rc;
}

int pr_fileio_read_file_max(const char *path, size_t max_bytes, pr_buf *out, pr_err *err)
{
    return read_file_flags(path, 0, max_bytes, out, err);
}

int pr_fileio_read_file_nofollow(const char *path, pr_buf *out, pr_err *err)
{
    return read_file_flags(path, O_NOFOLLOW, PR_READ_MAX_BYTES, out, err);
}

int pr_fileio_read_file(const char *path, pr_buf *out, pr_err *err)
{
    return pr_fileio_read_file_max(path, PR_READ_MAX_BYTES, out, err);
}

int pr_fileio_same_bytes(const char *a, const char *b)
{
    pr_buf x = PR_BUF_INIT, y = PR_BUF_INIT;
    pr_err ignored;
    int same = pr_fileio_read_file(a, &x, &ignored) == 0 &&
               pr_fileio_read_file(b, &y, &ignored) == 0 && x.len == y.len &&
               (x.len == 0 || memcmp(x.data, y.data, x.len) == 0);
    pr_buf_free(&x);
    pr_buf_free(&y);
    return same;
}

int pr_fileio_path_within(const char *root, const char *path, pr_err *err)
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
    int inside = strcmp(real_root, "/") == 0 || (strncmp(real_path, real_root, n) == 0 &&
                                                 (real_path[n] == '/' || real_path[n] == '\0'));
    if (!inside) {
        pr_err_set(err, path, 0, 0, NULL,
                   "resolves outside %s (a symbolic link?); refusing to read it", root);
        goto out;
    }
    rc = 0;
out:
    free(real_root);
    free(real_path);
    return rc;
}

int pr_fileio_check_regular_within(const char *root, const char *path, pr_err *err)
{
    if (pr_fileio_path_within(root, path, err) < 0)
        return -1;
    struct stat st;
    if (stat(path, &st) < 0)
        return pr_err_errno(err, path, "cannot stat");
    if (!S_ISREG(st.st_mode))
        return pr_err_set(err, path, 0, 0, NULL, "is %s, not a regular file",
                          pr_fileio_mode_name(st.st_mode));
    return 0;
}

/* The walk of pr_fileio_check_tree_within below root. */
static int check_tree(const char *root, const char *dir, pr_err *err)
{
    char **names;
    if (pr_fileio_list_dir(dir, &names, NULL, err) < 0)
        return -1;
    int rc = 0;
    for (char **p = names; *p && rc == 0; p++) {
        char *path = pr_fileio_path_join(dir, *p);
        struct stat st;
        if (lstat(path, &st) < 0) {
            rc = pr_err_errno(err, path, "cannot stat");
        } else if (S_ISDIR(st.st_mode)) {
            rc = check_tree(root, path, err);
        } else if (S_ISLNK(st.st_mode)) {
            /* Checked where it points; a folder it points to inside the
             * tree is walked at its own place (no loops). */
            rc = pr_fileio_path_within(root, path, err);
            if (rc == 0 && stat(path, &st) < 0)
                rc = pr_err_errno(err, path, "cannot stat");
            if (rc == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
                rc = pr_err_set(err, path, 0, 0, NULL, "is %s, not a regular file",
                                pr_fileio_mode_name(st.st_mode));
        } else if (!S_ISREG(st.st_mode)) {
            rc = pr_err_set(err, path, 0, 0, NULL, "is %s, not a regular file",
                            pr_fileio_mode_name(st.st_mode));
        }
        free(path);
    }
    pr_fileio_strv_free(names);
    return rc;
}

int pr_fileio_check_tree_within(const char *dir, pr_err *err)
{
    return check_tree(dir, dir, err);
}
