/* fileio_write: files written atomically through temporary files; dead writers' ones removed. */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "fileio_int.h"

int pr_fileio_write_all(int fd, const char *p, size_t len)
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

static int write_replace(const char *path, const void *data, size_t len, int durable, pr_err *err);

/* Creates "PATH.tmp.PID.XXXXXX" beside path with O_CREAT|O_EXCL|O_NOFOLLOW
 * and a random suffix: the name cannot be predicted, and a file or symbolic
 * link already there is never opened, so nobody can redirect our write by
 * planting one.  (Not mkostemp: its internal open bypasses the write-fault
 * shim the tests inject.)  *tmp_out is malloc'd (the caller frees it);
 * returns the fd or -1. */
int pr_fileio_create_temp(const char *path, char **tmp_out, pr_err *err)
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

int pr_fileio_is_temp_name(const char *name, long *pid_out)
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

void pr_fileio_remove_dead_temps(const char *dir, const char *stem_end)
{
    char **names = NULL;
    size_t se = strlen(stem_end);
    pr_err ignored;
    if (pr_fileio_list_dir(dir, &names, NULL, &ignored) < 0)
        return;
    for (char **e = names; *e; e++) {
        long pid;
        if (!pr_fileio_is_temp_name(*e, &pid))
            continue;
        /* NAME ends where the last infix starts (pr_fileio_is_temp_name's rule). */
        const char *t = strstr(*e, PR_TEMP_INFIX);
        for (const char *next; (next = strstr(t + 1, PR_TEMP_INFIX));)
            t = next;
        if ((size_t)(t - *e) < se || memcmp(t - se, stem_end, se) != 0)
            continue;
        if (pid == (long)getpid() || pr_fileio_pid_alive(pid))
            continue;
        char *p = pr_fileio_path_join(dir, *e);
        (void)pr_fileio_remove_tree(p);
        free(p);
    }
    pr_fileio_strv_free(names);
}

int pr_fileio_write_atomic(const char *path, const void *data, size_t len, pr_err *err)
{
    return write_replace(path, data, len, 1, err);
}

int pr_fileio_write_temp(const char *path, const void *data, size_t len, int durable,
                         char **tmp_out, pr_err *err)
{
    int rc = -1, fd = -1;
    char *dir = pr_fileio_path_dirname(path);
    char *tmp = NULL;
    if (pr_fileio_mkdirs(dir, err) < 0)
        goto out;
    if ((fd = pr_fileio_create_temp(path, &tmp, err)) < 0)
        goto out;
    if (pr_fileio_write_all(fd, data, len) < 0) {
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

int pr_fileio_commit_temp(const char *tmp, const char *path, pr_err *err)
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
static int write_replace(const char *path, const void *data, size_t len, int durable, pr_err *err)
{
    char *tmp = NULL;
    if (pr_fileio_write_temp(path, data, len, durable, &tmp, err) < 0)
        return -1;
    int rc = pr_fileio_commit_temp(tmp, path, err);
    free(tmp);
    return rc;
}

int pr_fileio_write_new(const char *path, const void *data, size_t len, pr_err *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return pr_err_errno(err, path, "cannot create");
    int bad = pr_fileio_write_all(fd, data, len) < 0;
    if (bad)
        pr_err_errno(err, path, "cannot write");
    if (close(fd) < 0 && !bad) {
        bad = 1;
        pr_err_errno(err, path, "cannot write");
    }
    if (bad)
        unlink(path);
    return bad ? -1 : 0;
}

int pr_fileio_equals(const char *path, const void *data, size_t len)
{
    pr_buf old = PR_BUF_INIT;
    pr_err ignored;
    struct stat st;
    /* A symbolic link is never read (nor written through): it is replaced. */
    int same = lstat(path, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == len &&
               pr_fileio_read_file(path, &old, &ignored) == 0 && old.len == len &&
               (len == 0 || memcmp(old.data, data, len) == 0);
    pr_buf_free(&old);
    return same;
}

int pr_fileio_write_if_changed(const char *path, const void *data, size_t len, pr_err *err)
{
    if (pr_fileio_equals(path, data, len))
        return 0;
    return write_replace(path, data, len, 0, err);
}
