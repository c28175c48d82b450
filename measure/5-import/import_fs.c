/* import_fs: sources, ownership, lock and staging of an import (import_fs.h). */
#include "import_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fstree.h"
#include "suite.h"

int import_fs_lock_data(const char *data, int *fd, pr_err *err)
{
    char *dir = pr_fileio_path_dirname(data);
    const char *slash = strrchr(data, '/');
    char *path = pr_xasprintf("%s/.%s.import.lock", dir, slash ? slash + 1 : data);
    int rc = -1;
    *fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (*fd < 0) {
        pr_err_errno(err, path, "cannot open the import lock");
        goto out;
    }
    if (flock(*fd, LOCK_EX | LOCK_NB) < 0) {
        if (errno != EWOULDBLOCK) {
            pr_err_errno(err, path, "cannot lock");
            goto out;
        }
        fprintf(stderr,
                "perfrepro-measure import: another import is writing %s: waiting for "
                "it (lock %s)\n",
                data, path);
        while (flock(*fd, LOCK_EX) < 0)
            if (errno != EINTR) {
                pr_err_errno(err, path, "cannot lock");
                goto out;
            }
    }
    rc = 0;
out:
    if (rc < 0 && *fd >= 0) {
        close(*fd);
        *fd = -1;
    }
    free(path);
    free(dir);
    return rc;
}

void import_fs_unlock_data(int fd)
{
    if (fd >= 0)
        close(fd);
}

int import_fs_check_source(const char *from_real, const char *rel, long long max_bytes,
                           const char *manifest, int line, const char *field, int *exists,
                           pr_err *err)
{
    char *path = pr_xasprintf("%s/%s", from_real, rel);
    struct stat st;
    pr_err why;
    int rc = -1;
    if (exists)
        *exists = 1;
    if (lstat(path, &st) < 0 && errno == ENOENT) {
        if (exists) {
            *exists = 0;
            rc = 0;
        } else
            pr_err_set(err, manifest, line, 0, field, "%s: no such file in %s", rel, from_real);
        goto out;
    }
    /* A link may point to a file of the source, never out of it: what is
     * copied into data/ is published. */
    if (pr_fileio_check_regular_within(from_real, path, &why) < 0) {
        pr_err_set(err, manifest, line, 0, field, "%s: %s", rel, why.msg);
        goto out;
    }
    if (stat(path, &st) < 0) {
        pr_err_errno(err, path, "cannot stat");
        goto out;
    }
    if (max_bytes > 0 && st.st_size > max_bytes) {
        pr_err_set(err, manifest, line, 0, field,
                   "%s: %lld bytes, over the limit of %lld bytes (a log's: log_limit_mib of "
                   "suites/RUN.json beside the manifest; default %lld MiB, as measure run's)",
                   rel, (long long)st.st_size, max_bytes, PR_SUITE_LOG_LIMIT >> 20);
        goto out;
    }
    rc = 0;
out:
    free(path);
    return rc;
}

int import_fs_check_file(const char *root, const char *path, long long max_bytes, const char *field,
                         int *exists, pr_err *err)
{
    size_t n = strlen(root);
    char *real = realpath(root, NULL);
    int rc = -1;
    if (!real) {
        pr_err_errno(err, root, "cannot resolve");
        goto out;
    }
    if (strncmp(path, root, n) || path[n] != '/') {
        pr_err_set(err, root, 0, 0, field, "%s: not a file of this folder", path);
        goto out;
    }
    rc = import_fs_check_source(real, path + n + 1, max_bytes, root, 0, field, exists, err);
out:
    free(real);
    return rc;
}

int import_fs_log_limit(const char *manifest_dir, const char *run, long long *limit, pr_err *err)
{
    char *path = pr_xasprintf("%s/suites/%s.json", manifest_dir, run);
    pr_suite *s = NULL;
    int rc = 0;
    *limit = PR_SUITE_LOG_LIMIT;
    if (access(path, F_OK) == 0) {
        rc = pr_suite_load(path, &s, err);
        if (rc == 0)
            *limit = s->log_limit;
    }
    pr_suite_free(s);
    free(path);
    return rc;
}

int import_fs_check_owner(const char *run_dir, const char *manifest, int replace, pr_err *err)
{
    struct stat st;
    if (replace || (lstat(run_dir, &st) < 0 && errno == ENOENT))
        return 0;
    char *source = pr_xasprintf("%s/SOURCE.md", run_dir);
    char *mark = pr_xasprintf("`perfrepro-measure import %s`", manifest);
    pr_buf text;
    pr_buf_init(&text);
    pr_err ignored;
    int rc = 0;
    if (pr_fileio_read_file(source, &text, &ignored) < 0 || !strstr(pr_buf_cstr(&text), mark))
        rc = pr_err_set(err, run_dir, 0, 0, NULL,
                        "exists and was not made by this manifest (its SOURCE.md does not say "
                        "%s): give --replace to replace it",
                        mark);
    pr_buf_free(&text);
    free(mark);
    free(source);
    return rc;
}

/* Removes from the copy's runs/ the staging and old trees of dead writers
 * (".RUN.staging.PID", ".RUN.old.PID": imports before the whole data folder
 * was staged swapped run folders one by one, and a kill left them). */
static void drop_dead_run_trees(const char *stage)
{
    char *runs = pr_fileio_path_join(stage, "runs");
    char **names = NULL;
    pr_err ignored;
    if (pr_fileio_list_dir(runs, &names, NULL, &ignored) == 0)
        for (char **p = names; *p; p++) {
            const char *kind = (*p)[0] == '.' ? strrchr(*p, '.') : NULL;
            char *end;
            long pid = kind ? strtol(kind + 1, &end, 10) : 0;
            if (!kind || kind == *p || pid <= 0 || *end || pr_fileio_pid_alive(pid))
                continue;
            size_t before = (size_t)(kind - *p);
            if ((before > 8 && !strncmp(kind - 8, ".staging", 8)) ||
                (before > 4 && !strncmp(kind - 4, ".old", 4))) {
                char *path = pr_fileio_path_join(runs, *p);
                pr_fileio_remove_tree(path);
                free(path);
            }
        }
    pr_fileio_strv_free(names);
    free(runs);
}

int import_fs_stage_open(import_fs_stage *s, const char *data, pr_err *err)
{
    memset(s, 0, sizeof *s);
    pr_buf_init(&s->listing);
    if (pr_fileio_swapdir_open(&s->sd, data, err) < 0)
        return -1;
    if (!s->sd.stage)
        return pr_err_set(err, data, 0, 0, NULL,
                          "cannot stage the import beside this folder (a mount point, or its "
                          "parent is not writable): import into a data folder that can be "
                          "replaced whole");
    if (pr_fstree_tree_listing(data, &s->listing, err) < 0 ||
        pr_fstree_tree_link(data, s->sd.stage, err) < 0)
        return -1;
    drop_dead_run_trees(s->sd.stage);
    return 0;
}

/* `gen validate --data dir`, its messages on standard error; 0 when valid. */
static int validate(const char *gen, const char *dir, pr_err *err)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return pr_err_errno(err, gen, "fork");
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 1);
        execl(gen, gen, "validate", "--data", dir, (char *)NULL);
        fprintf(stderr, "perfrepro-measure import: cannot run %s: %s\n", gen, strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return pr_err_errno(err, gen, "waitpid");
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    return pr_err_set(err, NULL, 0, 0, NULL,
                      "the imported data would not load (perfrepro-gen validate, its message "
                      "above, on the staging copy): nothing was written");
}

int import_fs_stage_commit(import_fs_stage *s, const char *gen, int dry_run, pr_err *err)
{
    const char *data = s->sd.real;
    pr_buf now;
    pr_buf_init(&now);
    int rc = -1;
    if (pr_fstree_tree_relink_unchanged(data, s->sd.stage, err) < 0 ||
        validate(gen, s->sd.stage, err) < 0)
        goto out;
    if (dry_run) {
        rc = 0;
        goto out;
    }
    /* The lock keeps other imports out; anything else that wrote into the
     * data folder meanwhile would be lost by the swap. */
    if (pr_fstree_tree_listing(data, &now, err) < 0)
        goto out;
    if (now.len != s->listing.len || memcmp(now.data, s->listing.data, now.len)) {
        pr_err_set(err, data, 0, 0, NULL,
                   "changed while the import ran (another writer): nothing was written; run "
                   "the import again");
        goto out;
    }
    rc = pr_fileio_swapdir_swap(&s->sd, "data folder", err);
out:
    pr_buf_free(&now);
    return rc;
}

void import_fs_stage_free(import_fs_stage *s)
{
    pr_fileio_swapdir_free(&s->sd);
    pr_buf_free(&s->listing);
}
