/* fstree: hard-link copies, relinking and listings of trees (fstree.h). */
#include "fstree.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

/* Folders deeper than this are a loop or hostile, never data. */
#define TREE_MAX_DEPTH 64

static int link_tree(const char *src, const char *dst, int depth, pr_err *err)
{
    char **names = NULL;
    int rc = -1;
    if (depth > TREE_MAX_DEPTH)
        return pr_err_set(err, src, 0, 0, NULL, "more than %d folders deep", TREE_MAX_DEPTH);
    if (pr_fileio_list_dir(src, &names, NULL, err) < 0)
        return -1;
    for (char **p = names; *p; p++) {
        char *from = pr_fileio_path_join(src, *p), *to = pr_fileio_path_join(dst, *p);
        struct stat st;
        int ok = -1;
        if (lstat(from, &st) < 0)
            pr_err_errno(err, from, "cannot stat");
        else if (S_ISDIR(st.st_mode)) {
            if (mkdir(to, st.st_mode & 07777) < 0)
                pr_err_errno(err, to, "cannot create the folder");
            else
                ok = link_tree(from, to, depth + 1, err);
        } else if (S_ISREG(st.st_mode)) {
            ok = pr_fileio_link_or_copy(from, to, err); /* a copy where links are refused */
        } else if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            ssize_t n = readlink(from, target, sizeof target - 1);
            if (n < 0)
                pr_err_errno(err, from, "cannot read the link");
            else {
                target[n] = '\0';
                ok = symlink(target, to) < 0 ? pr_err_errno(err, to, "cannot link") : 0;
            }
        } else
            pr_err_set(err, from, 0, 0, NULL, "%s, not a file or folder",
                       pr_fileio_mode_name(st.st_mode));
        free(from);
        free(to);
        if (ok < 0)
            goto out;
    }
    rc = 0;
out:
    pr_fileio_strv_free(names);
    return rc;
}

int pr_fstree_tree_link(const char *src, const char *dst, pr_err *err)
{
    return link_tree(src, dst, 0, err);
}

/* 1 when the open files a and b (of size bytes each) hold the same bytes. */
static int same_bytes(int a, int b, off_t size)
{
    char x[65536], y[65536];
    off_t left = size;
    while (left > 0) {
        size_t want = left < (off_t)sizeof x ? (size_t)left : sizeof x;
        ssize_t n = read(a, x, want), m;
        if (n <= 0)
            return 0;
        for (ssize_t got = 0; got < n; got += m)
            if ((m = read(b, y + got, (size_t)(n - got))) <= 0)
                return 0;
        if (memcmp(x, y, (size_t)n))
            return 0;
        left -= n;
    }
    return 1;
}

static int relink(const char *prev, const char *cur, int depth, pr_err *err)
{
    char **names = NULL;
    int rc = -1;
    if (depth > TREE_MAX_DEPTH)
        return pr_err_set(err, cur, 0, 0, NULL, "more than %d folders deep", TREE_MAX_DEPTH);
    if (pr_fileio_list_dir(cur, &names, NULL, err) < 0)
        return -1;
    for (char **p = names; *p; p++) {
        char *old = pr_fileio_path_join(prev, *p), *now = pr_fileio_path_join(cur, *p);
        struct stat so, sn;
        int ok = 0;
        if (lstat(now, &sn) == 0 && lstat(old, &so) == 0) {
            if (S_ISDIR(sn.st_mode) && S_ISDIR(so.st_mode))
                ok = relink(old, now, depth + 1, err);
            else if (S_ISREG(sn.st_mode) && S_ISREG(so.st_mode) && sn.st_ino != so.st_ino &&
                     sn.st_size == so.st_size) {
                int a = open(old, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
                int b = open(now, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
                int same = a >= 0 && b >= 0 && same_bytes(a, b, sn.st_size);
                if (a >= 0)
                    close(a);
                if (b >= 0)
                    close(b);
                /* The old file's mode may differ: only equal modes are kept.
                 * Where a link is refused (protected_hardlinks, another
                 * file system) the new file stays. */
                char *tmp = pr_xasprintf("%s.relink", now);
                if (same && (so.st_mode & 07777) == (sn.st_mode & 07777) && link(old, tmp) == 0 &&
                    rename(tmp, now) < 0) {
                    ok = pr_err_errno(err, now, "cannot link to the unchanged file");
                    unlink(tmp);
                }
                free(tmp);
            }
        }
        free(old);
        free(now);
        if (ok < 0)
            goto out;
    }
    rc = 0;
out:
    pr_fileio_strv_free(names);
    return rc;
}

int pr_fstree_tree_relink_unchanged(const char *prev, const char *cur, pr_err *err)
{
    return relink(prev, cur, 0, err);
}

static int listing(const char *dir, const char *rel, int depth, pr_buf *out, pr_err *err)
{
    char **names = NULL;
    int rc = -1;
    if (depth > TREE_MAX_DEPTH)
        return pr_err_set(err, dir, 0, 0, NULL, "more than %d folders deep", TREE_MAX_DEPTH);
    if (pr_fileio_list_dir(dir, &names, NULL, err) < 0)
        return -1;
    for (char **p = names; *p; p++) {
        char *path = pr_fileio_path_join(dir, *p);
        char *sub = rel ? pr_fileio_path_join(rel, *p) : pr_xstrdup(*p);
        struct stat st;
        int ok = 0;
        if (lstat(path, &st) < 0)
            ok = pr_err_errno(err, path, "cannot stat");
        else {
            pr_buf_printf(out, "%s\t%o\t%llu\t%lld\t%lld.%09ld\n", sub, (unsigned)st.st_mode,
                          (unsigned long long)st.st_ino, (long long)st.st_size,
                          (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
            if (S_ISDIR(st.st_mode))
                ok = listing(path, sub, depth + 1, out, err);
        }
        free(path);
        free(sub);
        if (ok < 0)
            goto out;
    }
    rc = 0;
out:
    pr_fileio_strv_free(names);
    return rc;
}

int pr_fstree_tree_listing(const char *dir, pr_buf *out, pr_err *err)
{
    return listing(dir, NULL, 0, out, err);
}
