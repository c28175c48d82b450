/* lib/fstree (the staging copy of an import) and fileio's sparse copies. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fstree.h"
#include "testutil.h"

static ino_t inode(const char *dir, const char *rel)
{
    char *p = pr_fileio_path_join(dir, rel);
    struct stat st;
    cr_assert(lstat(p, &st) == 0, "%s", p);
    free(p);
    return st.st_ino;
}

Test(fstree, a_copy_of_links_relinked_where_unchanged)
{
    char *d = tmpdir();
    char *src = pr_fileio_path_join(d, "data"), *dst = pr_fileio_path_join(d, "stage");
    put(src, "runs/r1/a", "a\n");
    put(src, "runs/r1/b", "b\n");
    put(src, "published/p.json", "{}\n");
    char *link = pr_fileio_path_join(src, "runs/r1/l");
    cr_assert(symlink("a", link) == 0);
    cr_assert(mkdir(dst, 0755) == 0);
    pr_err err;
    pr_buf before = PR_BUF_INIT, after = PR_BUF_INIT;
    cr_assert(pr_fstree_tree_listing(src, &before, &err) == 0, "%s", err.msg);
    cr_assert(pr_fstree_tree_link(src, dst, &err) == 0, "%s", err.msg);
    cr_expect_eq(inode(src, "runs/r1/a"), inode(dst, "runs/r1/a"), "a copy of hard links");
    cr_expect_eq(inode(src, "published/p.json"), inode(dst, "published/p.json"));
    char target[16] = {0};
    char *copied = pr_fileio_path_join(dst, "runs/r1/l");
    cr_expect(readlink(copied, target, sizeof target - 1) == 1 && !strcmp(target, "a"),
              "a link is copied as a link");
    /* Rewritten in the copy: a with its old bytes, b with new ones. */
    put(dst, "runs/r1/a", "a\n");
    put(dst, "runs/r1/b", "B\n");
    cr_expect_neq(inode(src, "runs/r1/a"), inode(dst, "runs/r1/a"));
    cr_assert(pr_fstree_tree_relink_unchanged(src, dst, &err) == 0, "%s", err.msg);
    cr_expect_eq(inode(src, "runs/r1/a"), inode(dst, "runs/r1/a"), "unchanged: relinked");
    cr_expect_neq(inode(src, "runs/r1/b"), inode(dst, "runs/r1/b"), "changed: kept new");
    cr_assert(pr_fstree_tree_listing(src, &after, &err) == 0, "%s", err.msg);
    cr_expect(before.len == after.len && !memcmp(before.data, after.data, before.len),
              "the source tree was not written");
    put(src, "runs/r1/c", "c\n");
    pr_buf_clear(&after);
    cr_assert(pr_fstree_tree_listing(src, &after, &err) == 0, "%s", err.msg);
    cr_expect(before.len != after.len || memcmp(before.data, after.data, before.len),
              "a new file changes the listing");
    pr_buf_free(&before);
    pr_buf_free(&after);
    rm_rf(d);
    free(copied);
    free(link);
    free(src);
    free(dst);
    free(d);
}

Test(fstree, a_fifo_is_not_copied)
{
    char *d = tmpdir();
    char *src = pr_fileio_path_join(d, "data"), *dst = pr_fileio_path_join(d, "stage");
    put(src, "a", "a\n");
    char *fifo = pr_fileio_path_join(src, "pipe");
    cr_assert(mkfifo(fifo, 0644) == 0);
    cr_assert(mkdir(dst, 0755) == 0);
    pr_err err;
    cr_expect(pr_fstree_tree_link(src, dst, &err) < 0);
    cr_expect(strstr(err.msg, "FIFO"), "%s", err.msg);
    rm_rf(d);
    free(fifo);
    free(src);
    free(dst);
    free(d);
}

/* Writes "head", a 32 MiB hole and "tail" to path. */
static void put_sparse(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    cr_assert(write(fd, "head\n", 5) == 5);
    cr_assert(ftruncate(fd, 32 << 20) == 0);
    cr_assert(lseek(fd, 0, SEEK_END) >= 0 && write(fd, "tail\n", 5) == 5);
    close(fd);
}

Test(fileio, a_sparse_file_is_copied_sparse)
{
    char *d = tmpdir();
    char *src = pr_fileio_path_join(d, "sparse.log"),
         *dst = pr_fileio_path_join(d, "copy/sparse.log");
    put_sparse(src);
    pr_err err;
    cr_assert(pr_fileio_copy_file_atomic(src, dst, &err) == 0, "%s", err.msg);
    struct stat st;
    cr_assert(stat(dst, &st) == 0);
    cr_expect_eq(st.st_size, (32 << 20) + 5);
    cr_expect_lt((long long)st.st_blocks * 512, 4LL << 20, "the copy takes %lld bytes",
                 (long long)st.st_blocks * 512);
    char *cmd = pr_xasprintf("cmp -s '%s' '%s'", src, dst);
    cr_expect(system(cmd) == 0, "the copy's bytes differ");
    /* A file that ends in zeros keeps its size. */
    int fd = open(src, O_WRONLY | O_TRUNC);
    cr_assert(fd >= 0 && write(fd, "x", 1) == 1 && ftruncate(fd, 1 << 20) == 0);
    close(fd);
    cr_assert(pr_fileio_copy_file_atomic(src, dst, &err) == 0, "%s", err.msg);
    cr_assert(stat(dst, &st) == 0);
    cr_expect_eq(st.st_size, 1 << 20);
    cr_expect(system(cmd) == 0, "the copy's bytes differ");
    rm_rf(d);
    free(cmd);
    free(src);
    free(dst);
    free(d);
}

/* How many entries dir holds (temporaries left behind show here). */
static int entries(const char *dir)
{
    char *cmd = pr_xasprintf("ls -A '%s' | wc -l", dir);
    FILE *f = popen(cmd, "r");
    int n = -1;
    cr_assert(f && fscanf(f, "%d", &n) == 1);
    pclose(f);
    free(cmd);
    return n;
}

Test(fileio, copy_if_changed_keeps_holes_and_leaves_an_unchanged_file_alone)
{
    char *d = tmpdir();
    char *src = pr_fileio_path_join(d, "sparse.log"), *out = pr_fileio_path_join(d, "site/x"),
         *dst = pr_fileio_path_join(d, "site/x/sparse.log");
    put_sparse(src);
    pr_err err;
    int changed = -1;
    cr_assert(pr_fileio_copy_if_changed(src, dst, &changed, &err) == 0, "%s", err.msg);
    cr_expect_eq(changed, 1, "a new file is written");
    struct stat st;
    cr_assert(lstat(dst, &st) == 0 && S_ISREG(st.st_mode));
    cr_expect_eq(st.st_size, (32 << 20) + 5);
    cr_expect_lt((long long)st.st_blocks * 512, 4LL << 20, "the copy takes %lld bytes",
                 (long long)st.st_blocks * 512);
    mode_t mask = umask(022);
    umask(mask);
    cr_expect_eq(st.st_mode & 07777, 0644 & ~mask, "mode %o", (unsigned)(st.st_mode & 07777));
    char *cmd = pr_xasprintf("cmp -s '%s' '%s'", src, dst);
    cr_expect(system(cmd) == 0, "the copy's bytes differ");
    cr_expect_eq(entries(out), 1, "no temporary left behind");
    /* The same bytes again: not rewritten (same inode, its old mtime). */
    struct timespec old[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
    cr_assert(utimensat(AT_FDCWD, dst, old, AT_SYMLINK_NOFOLLOW) == 0);
    ino_t ino = st.st_ino;
    changed = -1;
    cr_assert(pr_fileio_copy_if_changed(src, dst, &changed, &err) == 0, "%s", err.msg);
    cr_expect_eq(changed, 0, "unchanged");
    cr_assert(lstat(dst, &st) == 0);
    cr_expect_eq(st.st_ino, ino, "the file was replaced");
    cr_expect_eq(st.st_mtime, 1000000000, "the file was rewritten");
    /* Other bytes: replaced through a rename (a new inode). */
    put(d, "sparse.log", "other\n");
    cr_assert(pr_fileio_copy_if_changed(src, dst, &changed, &err) == 0, "%s", err.msg);
    cr_expect_eq(changed, 1);
    cr_assert(lstat(dst, &st) == 0);
    cr_expect_neq(st.st_ino, ino);
    cr_expect(system(cmd) == 0, "the copy's bytes differ");
    cr_expect_eq(entries(out), 1, "no temporary left behind");
    rm_rf(d);
    free(cmd);
    free(src);
    free(out);
    free(dst);
    free(d);
}

Test(fileio, copies_write_no_link_and_read_only_regular_files)
{
    char *d = tmpdir();
    char *src = pr_fileio_path_join(d, "a.log"), *victim = pr_fileio_path_join(d, "victim"),
         *out = pr_fileio_path_join(d, "out"), *dst = pr_fileio_path_join(d, "out/a.log");
    put(d, "a.log", "new\n");
    put(d, "victim", "keep\n");
    cr_assert(mkdir(out, 0755) == 0);
    /* A link at dst is replaced, never written through. */
    cr_assert(symlink(victim, dst) == 0);
    pr_err err;
    int changed = -1;
    cr_assert(pr_fileio_copy_if_changed(src, dst, &changed, &err) == 0, "%s", err.msg);
    cr_expect_eq(changed, 1);
    struct stat st;
    cr_assert(lstat(dst, &st) == 0);
    cr_expect(S_ISREG(st.st_mode), "dst is still a link");
    pr_buf b = PR_BUF_INIT;
    cr_assert(pr_fileio_read_file(victim, &b, &err) == 0, "%s", err.msg);
    cr_expect(b.len == 5 && !memcmp(b.data, "keep\n", 5), "written through the link");
    pr_buf_free(&b);
    cr_assert(unlink(dst) == 0 && symlink(victim, dst) == 0);
    cr_assert(pr_fileio_copy_file_atomic(src, dst, &err) == 0, "%s", err.msg);
    cr_assert(lstat(dst, &st) == 0);
    cr_expect(S_ISREG(st.st_mode), "dst is still a link");
    cr_assert(pr_fileio_read_file(victim, &b, &err) == 0, "%s", err.msg);
    cr_expect(b.len == 5 && !memcmp(b.data, "keep\n", 5), "written through the link");
    pr_buf_free(&b);
    /* A source that is not a regular file: an error, nothing left in out. */
    char *fifo = pr_fileio_path_join(d, "pipe");
    cr_assert(mkfifo(fifo, 0644) == 0);
    char *tmp = NULL;
    cr_expect(pr_fileio_copy_if_changed(fifo, dst, &changed, &err) < 0);
    cr_expect(strstr(err.msg, "not a regular file"), "%s", err.msg);
    cr_expect(pr_fileio_copy_temp(fifo, dst, &tmp, &err) < 0);
    cr_expect(strstr(err.msg, "not a regular file"), "%s", err.msg);
    cr_expect(pr_fileio_copy_temp(d, dst, &tmp, &err) < 0, "a folder is copied");
    cr_expect_null(tmp);
    cr_expect_eq(entries(out), 1, "a temporary left behind");
    /* copy_temp: a temporary beside dst, dst untouched until the commit. */
    cr_assert(pr_fileio_copy_temp(src, dst, &tmp, &err) == 0, "%s", err.msg);
    cr_expect(!strncmp(tmp, dst, strlen(dst)) && strstr(tmp, PR_TEMP_INFIX), "%s", tmp);
    cr_expect_eq(entries(out), 2);
    cr_assert(pr_fileio_commit_temp(tmp, dst, &err) == 0, "%s", err.msg);
    cr_expect_eq(entries(out), 1);
    free(tmp);
    rm_rf(d);
    free(fifo);
    free(src);
    free(victim);
    free(out);
    free(dst);
    free(d);
}
