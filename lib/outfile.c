#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"

/* All of p[0..len) to fd, through short writes and EINTR. */
static int write_all(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Where out writes: *dest gets the path to replace (path, or the regular
 * file a symbolic link resolves to, so the link stays), *into 1 when path
 * is a FIFO or character device (links followed) to write into in place;
 * a folder, socket or block device is an error naming what it is. */
static int out_target(const char *path, char **dest, int *into, pr_err *err)
{
    struct stat l, st;
    *into = 0;
    *dest = NULL;
    if (lstat(path, &l) < 0) {
        if (errno != ENOENT)
            return pr_err_errno(err, path, "cannot stat");
        *dest = pr_xstrdup(path);
        return 0;
    }
    if (stat(path, &st) < 0) /* a dangling link: replacing it would drop it */
        return pr_err_set(err, path, 0, 0, NULL, "a symbolic link to nothing: not written");
    if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
        *into = 1;
        return 0;
    }
    if (!S_ISREG(st.st_mode))
        return pr_err_set(err, path, 0, 0, NULL, "%s: not written",
                          pr_fileio_mode_name(st.st_mode));
    *dest = S_ISLNK(l.st_mode) ? realpath(path, NULL) : pr_xstrdup(path);
    if (!*dest)
        return pr_err_errno(err, path, "cannot resolve");
    return 0;
}

int pr_outfile_open(pr_outfile_out *o, const char *path, pr_err *err)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    if (!path) {
        o->fd = STDOUT_FILENO;
        o->path = pr_xstrdup("<stdout>");
        return 0;
    }
    int rc = -1, into = 0;
    char *dir = NULL;
    if (out_target(path, &o->dest, &into, err) < 0)
        goto out;
    o->path = pr_xstrdup(path);
    if (into) {
        if ((o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)) < 0) {
            pr_err_errno(err, path, "cannot open");
            goto out;
        }
        o->own_fd = 1;
        rc = 0;
        goto out;
    }
    dir = pr_fileio_path_dirname(o->dest);
    if (pr_fileio_mkdirs(dir, err) < 0 ||
        (o->fd = pr_fileio_create_temp(o->dest, &o->tmp, err)) < 0)
        goto out;
    o->own_fd = 1;
    rc = 0;
out:
    free(dir);
    if (rc < 0)
        pr_outfile_close(o, 0, NULL);
    return rc;
}

int pr_outfile_write(pr_outfile_out *o, const void *data, size_t len, pr_err *err)
{
    if (o->fd < 0 || write_all(o->fd, data, len) < 0)
        return pr_err_errno(err, o->path, "cannot write");
    return 0;
}

int pr_outfile_close(pr_outfile_out *o, int commit, pr_err *err)
{
    int rc = commit ? 0 : -1;
    if (commit && o->tmp && fsync(o->fd) < 0 && errno != EINVAL && errno != EROFS)
        rc = pr_err_errno(err, o->path, "cannot sync");
    if (o->own_fd && close(o->fd) < 0 && rc == 0)
        rc = pr_err_errno(err, o->path, "cannot write");
    if (o->tmp) {
        if (rc == 0)
            rc = pr_fileio_commit_temp(o->tmp, o->dest, err);
        else
            unlink(o->tmp);
    }
    free(o->tmp);
    free(o->dest);
    free(o->path);
    memset(o, 0, sizeof *o);
    o->fd = -1;
    return rc;
}

int pr_outfile_write_out(const char *path, const void *data, size_t len, pr_err *err)
{
    pr_outfile_out o;
    if (pr_outfile_open(&o, path, err) < 0)
        return -1;
    int rc = pr_outfile_write(&o, data, len, err);
    return pr_outfile_close(&o, rc == 0, err) < 0 ? -1 : rc;
}
