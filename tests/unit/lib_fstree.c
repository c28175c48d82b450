/* lib/fstree (the staging copy of an import) and fileio's sparse copies. */
#include <criterion/criterion.h>
#include <fcntl.h>
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

Test(fileio, a_sparse_file_is_copied_sparse)
{
    char *d = tmpdir();
    char *src = pr_fileio_path_join(d, "sparse.log"),
         *dst = pr_fileio_path_join(d, "copy/sparse.log");
    int fd = open(src, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    cr_assert(write(fd, "head\n", 5) == 5);
    cr_assert(ftruncate(fd, 32 << 20) == 0);
    cr_assert(lseek(fd, 0, SEEK_END) >= 0 && write(fd, "tail\n", 5) == 5);
    close(fd);
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
    fd = open(src, O_WRONLY | O_TRUNC);
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
