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
char *runner_record_path(const char *out_dir, const char *case_name)
{
    return pr_xasprintf("%s/logs/index/%s_speed", out_dir, case_name);
}

/* Creates the output tree and takes the lock that keeps a second measure
 * out of it.  *lock_fd stays open (and locked) until the run ends. */
int runner_prepare_out(runner_state *st, int *lock_fd, pr_err *err)
{
    if (pr_fileio_mkdirs(st->o->out_dir, err) < 0)
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
    char *logs = pr_fileio_path_join(st->out, "logs/train_log");
    char *index = pr_fileio_path_join(st->out, "logs/index");
    int rc = pr_fileio_mkdirs(logs, err) < 0 || pr_fileio_mkdirs(index, err) < 0 ? -1 : 0;
    if (rc == 0) {
        /* What a measure killed outright left (temporary files, the
         * previous run's files moved aside by runner_run_case); only a
         * process that is gone: `measure parse --out` writes into the same
         * folders without our lock. */
        pr_fileio_remove_dead_temps(index, "_speed");
        pr_fileio_remove_dead_temps(logs, "");
        pr_fileio_remove_dead_temps(st->out, "env.json");
        pr_fileio_remove_dead_temps(st->out, "suite.json");
    }
    free(logs);
    free(index);
    return rc;
}

/* Moves path to "PATH.tmp.PID.oldrun" when anything is there (a name
 * pr_fileio_is_temp_name knows: a measure killed meanwhile leaves it to the next
 * run's pr_fileio_remove_dead_temps). */
int runner_aside_move(aside *a, const char *path, pr_err *err)
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
    launch_strv_push(&a->from, &a->n, pr_xstrdup(path));
    launch_strv_push(&a->to, &a->nto, to);
    return 0;
}

/* Puts every file back, the last moved first; what the new run wrote in
 * its place goes. */
void runner_aside_restore(aside *a)
{
    for (size_t i = a->n; i-- > 0;) {
        (void)pr_fileio_remove_tree(a->from[i]);
        (void)rename(a->to[i], a->from[i]);
    }
}

/* Removes the previous run's files (the new record is written). */
void runner_aside_drop(aside *a)
{
    for (size_t i = 0; i < a->n; i++)
        (void)pr_fileio_remove_tree(a->to[i]);
}

void runner_aside_free(aside *a)
{
    pr_fileio_strv_free(a->from);
    pr_fileio_strv_free(a->to);
    memset(a, 0, sizeof *a);
}

/* ======================================================================
 * A log past its limit
 * ====================================================================== */

#define TRIM_KEEP_MAX (16LL << 20) /* kept at each end of a log past its limit */
#define TRIM_ALIGN 65536           /* how far a cut looks for a line's end */
#define TRIM_CHUNK (1 << 20)       /* bytes copied at a time */

/* Reads (want_write 0) or writes len bytes of buf at off, whole.  0, or -1
 * with errno set (EIO for a file shorter than expected). */
static int rw_at(int fd, int want_write, char *buf, size_t len, off_t off)
{
    while (len > 0) {
        ssize_t n = want_write ? pwrite(fd, buf, len, off) : pread(fd, buf, len, off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return -1;
        }
        buf += n;
        len -= (size_t)n;
        off += n;
    }
    return 0;
}

/* Moves len bytes at from to dest inside the file (the ranges may overlap:
 * copied front to back when dest < from, back to front otherwise). */
static int move_range(int fd, char *buf, off_t dest, off_t from, long long len)
{
    long long done = 0;
    while (done < len) {
        size_t n = (size_t)(len - done < TRIM_CHUNK ? len - done : TRIM_CHUNK);
        off_t at = dest < from ? (off_t)done : (off_t)(len - done - (long long)n);
        if (rw_at(fd, 0, buf, n, from + at) < 0 || rw_at(fd, 1, buf, n, dest + at) < 0)
            return -1;
        done += (long long)n;
    }
    return 0;
}

/* The log past its limit is cut in place (it may be many GB: copied
 * through one buffer, never read whole), through a descriptor of its own
 * opened from path: the runner's fd is write-only and appends (on Linux
 * pwrite appends on an O_APPEND descriptor).  O_NOFOLLOW and the same
 * inode as fd: a file put in its place since is never touched. */
int runner_log_trim(int fd, const char *path, long long limit, runner_trim *t, pr_err *err)
{
    int rc = -1, rw = -1;
    char *buf = NULL;
    struct stat sb, rsb;
    memset(t, 0, sizeof *t);
    if (fstat(fd, &sb) < 0)
        goto out;
    t->size = (long long)sb.st_size;
    if (t->size <= limit) {
        rc = 0;
        goto out;
    }
    rw = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (rw < 0 || fstat(rw, &rsb) < 0)
        goto out;
    if (rsb.st_dev != sb.st_dev || rsb.st_ino != sb.st_ino) {
        errno = ESTALE;
        goto out;
    }
    long long keep = (limit - 256) / 2;
    if (keep > TRIM_KEEP_MAX)
        keep = TRIM_KEEP_MAX;
    if (keep < 0)
        keep = 0;
    buf = pr_xmalloc(TRIM_CHUNK);
    /* The head ends after the last newline of its last TRIM_ALIGN bytes,
     * the tail starts after the first newline of its first TRIM_ALIGN. */
    long long head = keep, from = t->size - keep;
    size_t win = (size_t)(keep < TRIM_ALIGN ? keep : TRIM_ALIGN);
    int head_nl = head == 0;
    if (win && rw_at(rw, 0, buf, win, (off_t)(head - (long long)win)) < 0)
        goto out;
    char *nl = win ? memrchr(buf, '\n', win) : NULL;
    if (nl) {
        head = head - (long long)win + (nl - buf) + 1;
        head_nl = 1;
    }
    if (win && rw_at(rw, 0, buf, win, (off_t)from) < 0)
        goto out;
    nl = win ? memchr(buf, '\n', win) : NULL;
    if (nl)
        from += (nl - buf) + 1;
    t->head = head;
    t->tail = t->size - from;
    t->dropped = from - head;
    char line[256];
    int m = snprintf(line, sizeof line,
                     "%s[perfrepro-measure: %lld bytes dropped here: the log passed its limit of "
                     "%lld bytes; its first %lld and last %lld bytes are kept]\n",
                     head_nl ? "" : "\n", t->dropped, limit, t->head, t->tail);
    if (m < 0 || (size_t)m >= sizeof line) {
        errno = EOVERFLOW;
        goto out;
    }
    if (move_range(rw, buf, (off_t)(head + m), (off_t)from, t->tail) < 0 ||
        rw_at(rw, 1, line, (size_t)m, (off_t)head) < 0 ||
        ftruncate(rw, (off_t)(head + m + t->tail)) < 0)
        goto out;
    rc = 0;
out:
    if (rc < 0)
        pr_err_errno(err, path, "cannot cut the log down to its limit");
    if (rw >= 0)
        close(rw);
    free(buf);
    return rc;
}
