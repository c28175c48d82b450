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
    char *p = pr_path_join(dir, rel);
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
    const char *kept[] = {"notes.tmp.keep", "c.tmp." DEAD ".toolong", "c.tmp.0.AbCdEf",
                          "c.tmp.-5.AbCdEf", "c.tmp", "c", live, ours};
    for (size_t i = 0; i < sizeof gone / sizeof *gone; i++)
        put(d, gone[i], "x\n");
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        put(d, kept[i], "x\n");
    pr_remove_dead_temps(d, "");
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
    pr_remove_dead_temps(d, "_speed");
    cr_expect(!there(d, "a_speed.tmp." DEAD ".AbCdEf"));
    cr_expect(there(d, "env.json.tmp." DEAD ".AbCdEf"), "not a record's: kept");
    char *missing = pr_path_join(d, "nowhere");
    pr_remove_dead_temps(missing, ""); /* nothing to list: nothing happens */
    free(missing);
    rm_rf(d);
    free(d);
}
