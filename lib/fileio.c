#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
static int open_regular(const char *path, struct stat *st_out, pr_err *err)
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

int pr_fileio_open_regular(const char *path, pr_err *err)
{
    struct stat st;
    return open_regular(path, &st, err);
}

int pr_fileio_read_file_max(const char *path, size_t max_bytes, pr_buf *out, pr_err *err)
{
    int rc = -1;
    struct stat st;
    int fd = open_regular(path, &st, err);
    if (fd < 0)
        return -1;
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

int pr_fileio_read_file(const char *path, pr_buf *out, pr_err *err)
{
    return pr_fileio_read_file_max(path, PR_READ_MAX_BYTES, out, err);
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

int pr_fileio_exchange(const char *a, const char *b)
{
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}

int pr_fileio_pid_alive(long pid)
{
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* Beside a folder NAME replaced as a whole: the staging folder of a writer,
 * ".NAME.staging.PID", and the previous tree while two plain renames
 * replace it, ".NAME.old.PID". */
#define SWAP_STAGING_INFIX ".staging."
#define SWAP_OLD_INFIX ".old."

/* Sets sd->real, sd->parent and sd->base from sd->dir (an existing folder,
 * links resolved, or a name to create); the caller frees them
 * (pr_fileio_swapdir_free). */
static int swap_locate(pr_fileio_swapdir *sd, pr_err *err)
{
    struct stat st;
    if (lstat(sd->dir, &st) == 0) {
        sd->real = realpath(sd->dir, NULL);
        if (!sd->real)
            return pr_err_errno(err, sd->dir, "cannot resolve");
        if (!pr_fileio_is_dir(sd->real))
            return pr_err_set(err, sd->dir, 0, 0, NULL, "exists and is not a folder");
        if (strcmp(sd->real, "/") == 0)
            return pr_err_set(err, sd->dir, 0, 0, NULL, "cannot be the root folder");
        sd->parent = pr_fileio_path_dirname(sd->real);
        sd->base = pr_xstrdup(strrchr(sd->real, '/') + 1);
        return 0;
    }
    char *dir = pr_xstrdup(sd->dir);
    for (size_t l = strlen(dir); l > 1 && dir[l - 1] == '/'; l--)
        dir[l - 1] = '\0';
    const char *slash = strrchr(dir, '/');
    sd->base = pr_xstrdup(slash ? slash + 1 : dir);
    sd->parent = pr_fileio_path_dirname(dir);
    free(dir);
    if (!sd->base[0] || strcmp(sd->base, ".") == 0 || strcmp(sd->base, "..") == 0)
        return pr_err_set(err, sd->dir, 0, 0, NULL, "not a folder name");
    return pr_fileio_mkdirs(sd->parent, err);
}

/* Removes what dead writers left beside the folder: their staging folders,
 * and an old tree (put back first when the folder is missing: a writer
 * killed between its two renames).  Returns 1 when it put one back. */
static int swap_leftovers(const pr_fileio_swapdir *sd)
{
    char **names = NULL;
    pr_err ignored;
    int restored = 0;
    if (pr_fileio_list_dir(sd->parent, &names, NULL, &ignored) < 0)
        return 0;
    size_t bl = strlen(sd->base);
    char *dir = pr_fileio_path_join(sd->parent, sd->base);
    for (char **p = names; *p; p++) {
        const char *name = *p, *kind = name + 1 + bl;
        if (name[0] != '.' || strncmp(name + 1, sd->base, bl) != 0)
            continue;
        int old = strncmp(kind, SWAP_OLD_INFIX, strlen(SWAP_OLD_INFIX)) == 0;
        if (!old && strncmp(kind, SWAP_STAGING_INFIX, strlen(SWAP_STAGING_INFIX)) != 0)
            continue;
        const char *digits = kind + strlen(old ? SWAP_OLD_INFIX : SWAP_STAGING_INFIX);
        char *end;
        errno = 0;
        long pid = strtol(digits, &end, 10);
        if (end == digits || *end || errno || pid <= 0 ||
            (pid != (long)getpid() && pr_fileio_pid_alive(pid)))
            continue;
        char *path = pr_fileio_path_join(sd->parent, name);
        struct stat st;
        if (old && lstat(dir, &st) < 0 && errno == ENOENT && rename(path, dir) == 0)
            restored = 1;
        else
            pr_fileio_remove_tree(path);
        free(path);
    }
    free(dir);
    pr_fileio_strv_free(names);
    return restored;
}

int pr_fileio_swapdir_open(pr_fileio_swapdir *sd, const char *dir, pr_err *err)
{
    struct stat st, pst;
    memset(sd, 0, sizeof *sd);
    sd->dir = dir;
    if (swap_locate(sd, err) < 0)
        return -1;
    if (swap_leftovers(sd) && !sd->real) {
        /* The folder is back: find it again (it may be reached through a
         * link now). */
        free(sd->parent);
        free(sd->base);
        sd->parent = sd->base = NULL;
        if (swap_locate(sd, err) < 0)
            return -1;
    }
    if (sd->real &&
        (stat(sd->parent, &pst) < 0 || stat(sd->real, &st) < 0 || pst.st_dev != st.st_dev))
        return 0; /* a mount point cannot be swapped: in place */
    char *name = pr_xasprintf(".%s" SWAP_STAGING_INFIX "%ld", sd->base, (long)getpid());
    sd->stage = pr_fileio_path_join(sd->parent, name);
    free(name);
    int rc = -1;
    if (mkdir(sd->stage, 0755) == 0) {
        /* The new tree keeps the permissions of the old one. */
        if (sd->real)
            (void)chmod(sd->stage, st.st_mode & 07777);
        rc = 0;
    } else if (sd->real && (errno == EACCES || errno == EPERM)) {
        rc = 0; /* the parent is not ours to write: in place */
    } else {
        rc = pr_err_errno(err, sd->stage, "cannot create the staging folder");
    }
    if (rc < 0 || !pr_fileio_is_dir(sd->stage)) {
        free(sd->stage);
        sd->stage = NULL;
    }
    return rc;
}

int pr_fileio_swapdir_swap(pr_fileio_swapdir *sd, const char *what, pr_err *err)
{
    int rc = 0;
    char *msg = NULL;
    if (!sd->real) {
        if (rename(sd->stage, sd->dir) < 0) {
            int e = errno;
            msg = pr_xasprintf("cannot rename the new %s into place", what);
            errno = e;
            rc = pr_err_errno(err, sd->dir, msg);
        } else {
            free(sd->stage);
            sd->stage = NULL;
        }
    } else if (pr_fileio_exchange(sd->stage, sd->real) == 0) {
        /* the staging folder now holds the previous tree */
    } else if (errno != EINVAL && errno != ENOSYS) {
        int e = errno;
        msg = pr_xasprintf("cannot swap the new %s (%s) into place", what, sd->stage);
        errno = e;
        rc = pr_err_errno(err, sd->real, msg);
    } else {
        /* No RENAME_EXCHANGE here: two renames.  A kill between them leaves
         * the folder missing and the previous tree at .NAME.old.PID, which
         * the next writer puts back. */
        char *name = pr_xasprintf(".%s" SWAP_OLD_INFIX "%ld", sd->base, (long)getpid());
        char *old = pr_fileio_path_join(sd->parent, name);
        free(name);
        int e;
        if (rename(sd->real, old) < 0) {
            e = errno;
            msg = pr_xasprintf("cannot move the previous %s aside", what);
            errno = e;
            rc = pr_err_errno(err, sd->real, msg);
        } else if (rename(sd->stage, sd->real) < 0) {
            e = errno;
            msg = pr_xasprintf("cannot rename the new %s into place", what);
            errno = e;
            rc = pr_err_errno(err, sd->real, msg);
            (void)rename(old, sd->real);
        } else {
            free(sd->stage);
            sd->stage = old;
            old = NULL;
        }
        free(old);
    }
    free(msg);
    return rc;
}

void pr_fileio_swapdir_free(pr_fileio_swapdir *sd)
{
    if (sd->stage)
        pr_fileio_remove_tree(sd->stage);
    free(sd->stage);
    free(sd->real);
    free(sd->parent);
    free(sd->base);
    memset(sd, 0, sizeof *sd);
}

/* rm -rf's step for nftw: the entry itself, never what a link points to. */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    (void)remove(path);
    return 0;
}

int pr_fileio_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) < 0)
        return errno == ENOENT ? 0 : -1;
    if (S_ISDIR(st.st_mode))
        (void)nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
    else
        (void)unlink(path);
    return lstat(path, &st) < 0 && errno == ENOENT ? 0 : -1;
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

static int write_replace(const char *path, const void *data, size_t len, int durable, pr_err *err);

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

/* Copies what is left of in (src) to out (dst). */
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
        if (write_all(out, buf, (size_t)n) < 0) {
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

int pr_fileio_write_new(const char *path, const void *data, size_t len, pr_err *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return pr_err_errno(err, path, "cannot create");
    int bad = write_all(fd, data, len) < 0;
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

int pr_fileio_stage_copy(const char *src, const char *prev, const char *dst, int *changed,
                         pr_err *err)
{
    int rc = -1;
    struct stat st;
    *changed = 0;
    int in = open_regular(src, &st, err);
    if (in < 0)
        return -1;
    int same = same_content(in, st.st_size, prev);
    if (same < 0) {
        pr_err_errno(err, src, "cannot read");
        goto out;
    }
    *changed = !same;
    rc = same ? pr_fileio_link_or_copy(prev, dst, err) : copy_to_new(in, src, dst, err);
out:
    close(in);
    return rc;
}

int pr_fileio_copy_if_changed(const char *src, const char *dst, int *changed, pr_err *err)
{
    int rc = -1, out = -1;
    char *dir = pr_fileio_path_dirname(dst);
    char *tmp = NULL;
    *changed = 0;
    int in = pr_fileio_open_regular(src, err);
    struct stat st;
    if (in < 0)
        goto out;
    if (fstat(in, &st) < 0) {
        pr_err_errno(err, src, "cannot stat");
        goto out;
    }
    int same = same_content(in, st.st_size, dst);
    if (same < 0) {
        pr_err_errno(err, src, "cannot read");
        goto out;
    }
    if (same) {
        rc = 0;
        goto out;
    }
    if (pr_fileio_mkdirs(dir, err) < 0 || (out = create_temp(dst, &tmp, err)) < 0 ||
        copy_stream(in, src, out, dst, err) < 0)
        goto out;
    int fd = out;
    out = -1;
    if (close(fd) < 0) {
        pr_err_errno(err, dst, "cannot write");
        goto out;
    }
    rc = pr_fileio_commit_temp(tmp, dst, err);
    free(tmp);
    tmp = NULL;
    *changed = rc == 0;
out:
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
    if (tmp)
        unlink(tmp);
    free(tmp);
    free(dir);
    return rc;
}

int pr_fileio_copy_temp(const char *src, const char *dst, char **tmp_out, pr_err *err)
{
    int rc = -1, in = -1, out = -1;
    char *dir = pr_fileio_path_dirname(dst);
    char *tmp = NULL;
    if (pr_fileio_mkdirs(dir, err) < 0)
        goto out;
    if ((in = pr_fileio_open_regular(src, err)) < 0)
        goto out;
    if ((out = create_temp(dst, &tmp, err)) < 0)
        goto out;
    if (copy_stream(in, src, out, dst, err) < 0)
        goto out;
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
    free(tmp);
    free(dir);
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

int pr_fileio_create_temp(const char *path, char **tmp_out, pr_err *err)
{
    return create_temp(path, tmp_out, err);
}
