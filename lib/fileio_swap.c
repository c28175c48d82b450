/* fileio_swap: a folder replaced whole (a staging folder swapped in), and trees removed. */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
