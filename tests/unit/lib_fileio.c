/* lib/fileio: what killed writers leave, and who removes it. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

/* A PID no process has (above any pid_max). */
#define DEAD "999999999"

static int there(const char *dir, const char *rel)
{
    char *p = pr_fileio_path_join(dir, rel);
    struct stat st;
    int rc = lstat(p, &st) == 0;
    free(p);
    return rc;
}

Test(dead_temps, only_dead_writers_temporary_files_go)
{
    char *d = tmpdir();
    char *live = pr_xasprintf("c.tmp.%ld.AbCdEf", (long)getppid());
    char *ours = pr_xasprintf("c.tmp.%ld.AbCdEf", (long)getpid());
    const char *gone[] = {"c.tmp." DEAD ".AbCdEf", "c.tmp." DEAD, "x_speed.tmp." DEAD ".Q1w2E3",
                          "c.tmp." DEAD ".oldrun/inner"};
    const char *kept[] = {"notes.tmp.keep",
                          "c.tmp." DEAD ".toolong",
                          "c.tmp.0.AbCdEf",
                          "c.tmp.-5.AbCdEf",
                          "c.tmp",
                          "c",
                          live,
                          ours};
    for (size_t i = 0; i < sizeof gone / sizeof *gone; i++)
        put(d, gone[i], "x\n");
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        put(d, kept[i], "x\n");
    pr_fileio_remove_dead_temps(d, "");
    for (size_t i = 0; i < sizeof gone / sizeof *gone; i++)
        cr_expect(!there(d, gone[i]), "%s: a dead writer's file was left", gone[i]);
    cr_expect(!there(d, "c.tmp." DEAD ".oldrun"), "a dead writer's folder was left");
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        cr_expect(there(d, kept[i]), "%s was removed", kept[i]);
    rm_rf(d);
    free(live);
    free(ours);
    free(d);
}

Test(dead_temps, the_stem_filter_and_a_missing_folder)
{
    char *d = tmpdir();
    put(d, "a_speed.tmp." DEAD ".AbCdEf", "x\n");
    put(d, "env.json.tmp." DEAD ".AbCdEf", "x\n");
    pr_fileio_remove_dead_temps(d, "_speed");
    cr_expect(!there(d, "a_speed.tmp." DEAD ".AbCdEf"));
    cr_expect(there(d, "env.json.tmp." DEAD ".AbCdEf"), "not a record's: kept");
    char *missing = pr_fileio_path_join(d, "nowhere");
    pr_fileio_remove_dead_temps(missing, ""); /* nothing to list: nothing happens */
    free(missing);
    rm_rf(d);
    free(d);
}

/* ---- pr_fileio_swapdir: a folder replaced as a whole ---- */

/* Opens a swap of dir, puts name into its staging tree, swaps it in. */
static void swap_in(const char *dir, const char *name)
{
    pr_fileio_swapdir sd;
    pr_err err;
    cr_assert(pr_fileio_swapdir_open(&sd, dir, &err) == 0, "%s", err.msg);
    cr_assert(sd.stage, "no staging folder");
    put(sd.stage, name, "new\n");
    cr_assert(pr_fileio_swapdir_swap(&sd, "tree", &err) == 0, "%s", err.msg);
    pr_fileio_swapdir_free(&sd);
}

/* The entries of dir (ls -A), one string. */
static char *entries(const char *dir)
{
    char **names;
    pr_err err;
    cr_assert(pr_fileio_list_dir(dir, &names, NULL, &err) == 0, "%s", err.msg);
    pr_buf b = PR_BUF_INIT;
    for (char **p = names; *p; p++)
        pr_buf_printf(&b, "%s%s", p == names ? "" : " ", *p);
    pr_fileio_strv_free(names);
    return pr_buf_detach(&b);
}

Test(swapdir, new_then_replaced_whole)
{
    char *d = tmpdir();
    char *out = pr_fileio_path_join(d, "sub/out");
    swap_in(out, "a");
    cr_expect(there(out, "a"));
    swap_in(out, "b");
    cr_expect(there(out, "b") && !there(out, "a"), "the previous tree is gone whole");
    char *parent = pr_fileio_path_join(d, "sub");
    char *e = entries(parent);
    cr_expect_str_eq(e, "out", "nothing left beside the folder");
    free(e);
    free(parent);
    rm_rf(d);
    free(out);
    free(d);
}

Test(swapdir, dead_writers_leftovers_go_and_a_tree_moved_aside_comes_back)
{
    char *d = tmpdir();
    char *out = pr_fileio_path_join(d, "out");
    char *live = pr_xasprintf(".out.staging.%ld", (long)getppid());
    put(d, ".out.staging." DEAD "/x", "x\n");
    put(d, ".out.old." DEAD "/old", "old\n"); /* killed between its two renames */
    put(d, ".other.staging." DEAD "/x", "not ours\n");
    put(d, ".out.staging.12ab/x", "not a PID\n");
    char *lx = pr_fileio_path_join(live, "x");
    put(d, lx, "a live writer's\n");
    pr_fileio_swapdir sd;
    pr_err err;
    cr_assert(pr_fileio_swapdir_open(&sd, out, &err) == 0, "%s", err.msg);
    /* Put back before anything else: the folder exists again. */
    cr_expect(there(out, "old"), "the previous tree was not put back");
    cr_expect(sd.real != NULL, "the tree put back was taken for none");
    put(sd.stage, "new", "new\n");
    cr_assert(pr_fileio_swapdir_swap(&sd, "tree", &err) == 0, "%s", err.msg);
    pr_fileio_swapdir_free(&sd);
    cr_expect(there(out, "new") && !there(out, "old"));
    cr_expect(!there(d, ".out.staging." DEAD) && !there(d, ".out.old." DEAD),
              "a dead writer's tree was left");
    cr_expect(there(d, lx), "a live writer's staging folder was removed");
    cr_expect(there(d, ".other.staging." DEAD "/x") && there(d, ".out.staging.12ab/x"),
              "a folder perfrepro does not name so was removed");
    free(lx);
    free(live);
    rm_rf(d);
    free(out);
    free(d);
}

Test(swapdir, given_up_trees_and_refusals)
{
    char *d = tmpdir();
    char *out = pr_fileio_path_join(d, "out");
    put(out, "keep", "old\n");
    pr_fileio_swapdir sd;
    pr_err err;
    cr_assert(pr_fileio_swapdir_open(&sd, out, &err) == 0, "%s", err.msg);
    put(sd.stage, "half", "x\n");
    pr_fileio_swapdir_free(&sd); /* a writer that failed: its tree goes, the folder stays */
    cr_expect(there(out, "keep") && !there(out, "half"));
    char *e = entries(d);
    cr_expect_str_eq(e, "out");
    free(e);
    char *file = pr_fileio_path_join(out, "keep");
    cr_expect_eq(pr_fileio_swapdir_open(&sd, file, &err), -1);
    cr_expect(strstr(err.msg, "not a folder") != NULL, "%s", err.msg);
    pr_fileio_swapdir_free(&sd);
    cr_expect_eq(pr_fileio_swapdir_open(&sd, "/", &err), -1);
    pr_fileio_swapdir_free(&sd);
    free(file);
    rm_rf(d);
    free(out);
    free(d);
}

/* ---- pr_fileio_stage_write, pr_fileio_stage_copy: a staging tree beside the old one ---- */

static ino_t inode(const char *dir, const char *rel)
{
    char *p = pr_fileio_path_join(dir, rel);
    struct stat st;
    cr_assert(lstat(p, &st) == 0, "no %s", p);
    free(p);
    return st.st_ino;
}

Test(stage, unchanged_files_are_links_changed_ones_new)
{
    char *d = tmpdir();
    put(d, "old/same", "same\n");
    put(d, "old/differs", "before\n");
    put(d, "src/same", "same\n");
    put(d, "src/differs", "after\n");
    char *old = pr_fileio_path_join(d, "old"), *stage = pr_fileio_path_join(d, "stage");
    cr_assert(mkdir(stage, 0755) == 0);
    const char *names[] = {"same", "differs", "missing"};
    for (int copy = 0; copy < 2; copy++) {
        for (size_t i = 0; i < 3; i++) {
            char *rel = pr_xasprintf("%s-%d", names[i], copy);
            char *prev = pr_fileio_path_join(old, names[i]), *dst = pr_fileio_path_join(stage, rel);
            char *srel = pr_xasprintf("src/%s", i == 2 ? "same" : names[i]);
            char *src = pr_fileio_path_join(d, srel);
            int changed = -1;
            pr_err err;
            const char *text = i == 1 ? "after\n" : "same\n";
            int rc = copy ? pr_fileio_stage_copy(src, prev, dst, &changed, &err)
                          : pr_fileio_stage_write(prev, dst, text, strlen(text), &changed, &err);
            cr_assert(rc == 0, "%s", err.msg);
            cr_expect_eq(changed, i != 0, "%s: changed %d", rel, changed);
            cr_expect(pr_fileio_equals(dst, text, strlen(text)), "%s: wrong content", rel);
            if (i == 0)
                cr_expect_eq(inode(stage, rel), inode(old, "same"), "an unchanged file is a link");
            else if (i == 1)
                cr_expect_neq(inode(stage, rel), inode(old, "differs"));
            /* dst must not exist: nothing planted there is written through */
            cr_expect_eq(copy
                             ? pr_fileio_stage_copy(src, prev, dst, &changed, &err)
                             : pr_fileio_stage_write(prev, dst, text, strlen(text), &changed, &err),
                         -1);
            free(src);
            free(srel);
            free(dst);
            free(prev);
            free(rel);
        }
    }
    rm_rf(d);
    free(stage);
    free(old);
    free(d);
}
