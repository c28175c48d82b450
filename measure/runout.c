/* runout: the run's output tree: its folders and the lock that keeps a
 * second measure out, the temporary files a killed measure left, and a
 * case's previous record and logs, kept aside until the new record is
 * written (runner_int.h). */
#include "runner_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

/* DIR/logs/index/<case>_speed (malloc'd): the seeds' index file name. */
char *pr_runner_record_path(const char *out_dir, const char *case_name)
{
    return pr_xasprintf("%s/logs/index/%s_speed", out_dir, case_name);
}

/* Creates the output tree and takes the lock that keeps a second measure
 * out of it.  *lock_fd stays open (and locked) until the run ends. */
int pr_runner_prepare_out(run_state *st, int *lock_fd, pr_err *err)
{
    if (pr_mkdirs(st->o->out_dir, err) < 0)
        return -1;
    char *abs = realpath(st->o->out_dir, NULL);
    if (!abs)
        return pr_err_errno(err, st->o->out_dir, "cannot resolve");
    st->out = pr_xstrdup(abs);
    free(abs);
    *lock_fd = open(st->out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (*lock_fd < 0)
        return pr_err_errno(err, st->out, "cannot open");
    /* Only "held by another" stops us: a file system without locks (some
     * network ones) runs unguarded rather than not at all. */
    if (flock(*lock_fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK)
        return pr_err_set(err, st->out, 0, 0, NULL,
                          "another perfrepro-measure is running into this directory");
    char *logs = pr_path_join(st->out, "logs/train_log");
    char *index = pr_path_join(st->out, "logs/index");
    int rc = pr_mkdirs(logs, err) < 0 || pr_mkdirs(index, err) < 0 ? -1 : 0;
    if (rc == 0) {
        /* What a measure killed outright left (temporary files, the
         * previous run's files moved aside by pr_runner_run_case); only a
         * process that is gone: `measure parse --out` writes into the same
         * folders without our lock. */
        pr_remove_dead_temps(index, "_speed");
        pr_remove_dead_temps(logs, "");
        pr_remove_dead_temps(st->out, "env.json");
    }
    free(logs);
    free(index);
    return rc;
}

/* Moves path to "PATH.tmp.PID.oldrun" when anything is there (a name
 * pr_is_temp_name knows: a measure killed meanwhile leaves it to the next
 * run's pr_remove_dead_temps). */
int pr_runner_aside_move(aside *a, const char *path, pr_err *err)
{
    struct stat st;
    if (lstat(path, &st) < 0)
        return errno == ENOENT ? 0 : pr_err_errno(err, path, "cannot look at");
    char *to = pr_xasprintf("%s" PR_TEMP_INFIX "%ld.oldrun", path, (long)getpid());
    if (rename(path, to) < 0) {
        pr_err_errno(err, path, "cannot move the previous run's file aside");
        free(to);
        return -1;
    }
    pr_strv_push(&a->from, &a->n, pr_xstrdup(path));
    pr_strv_push(&a->to, &a->nto, to);
    return 0;
}

/* Puts every file back, the last moved first; what the new run wrote in
 * its place goes. */
void pr_runner_aside_restore(aside *a)
{
    for (size_t i = a->n; i-- > 0;) {
        (void)pr_remove_tree(a->from[i]);
        (void)rename(a->to[i], a->from[i]);
    }
}

/* Removes the previous run's files (the new record is written). */
void pr_runner_aside_drop(aside *a)
{
    for (size_t i = 0; i < a->n; i++)
        (void)pr_remove_tree(a->to[i]);
}

void pr_runner_aside_free(aside *a)
{
    pr_strv_free(a->from);
    pr_strv_free(a->to);
    memset(a, 0, sizeof *a);
}
