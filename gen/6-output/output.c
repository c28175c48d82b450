/* output: the writer of the reports tree (output.h).
 *
 * The pages (cmd/report.c's report_build renders them into output_emit)
 * go into a staging folder beside OUT, unchanged files hard-linked to
 * OUT's, and the staging folder is swapped with OUT in one renameat2(RENAME_EXCHANGE): at any instant OUT is
 * the old generation or the new one.  Where no staging folder can be
 * swapped (OUT is a mount point, or its parent is not ours to write),
 * changed files are written beside their targets and renamed into place
 * once the whole generation rendered.  Leftovers of dead builds are removed
 * first.  The staging folder, the swap and the leftovers are lib/fileio_swap.c's
 * pr_fileio_swapdir, which perfrepro-gen site uses too.  A render's pages may be
 * handed to a writer thread of their own (output_queue_*).
 */
#include "output.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"

#define MARKER ".perfrepro-reports"

struct output_tree {
    const char *out_dir;
    char **written;
    size_t n;
    /* Hardening: killing a build left OUT mixing old and new pages, and
     * *.tmp.* files that no later build removed.  A build now writes its
     * generation into a staging folder beside OUT (unchanged files are hard
     * links to OUT's: same inode and mtime; changed ones are written there),
     * then swaps it with OUT in one renameat2(RENAME_EXCHANGE) and removes
     * the old tree: at any instant OUT is the old generation or the new one.
     * Every build first removes the staging folders of dead builds. */
    pr_fileio_swapdir sd; /* sd.stage: the staging folder (NULL: in place, below);
                        sd.real: OUT with links resolved, NULL when new */
    char *made_dir;       /* the folder of the staging tree last created */
    int changed;          /* the generation differs from OUT: swap */
    /* In place, where no staging folder can be swapped (OUT is a mount
     * point, or its parent is not writable): changed files are written to
     * temporary files first and renamed into place only once the whole
     * generation rendered and every write succeeded (a failed build leaves
     * the previous generation; a killed one may not).  The previous content
     * of each staged file is kept so that a rename failing half-way through
     * the commit can put back the files already renamed. */
    struct staged {
        char *full, *tmp;
        char *old; /* previous content, NULL when the file did not exist */
        size_t old_len;
    } * staged;
    size_t nstaged;
    pr_report_stats stats; /* what this generation wrote */
};

/* Puts rel into the staging tree: a hard link to OUT's file full when it
 * holds the same bytes, else a new file. */
static int stage_file(output_tree *wr, const char *rel, const char *full, int same,
                      const char *data, size_t len, pr_err *err)
{
    char *dst = pr_fileio_path_join(wr->sd.stage, rel);
    char *dir = pr_fileio_path_dirname(dst);
    int rc = 0;
    /* Pages come folder by folder: one mkdir -p per folder, not per file. */
    if (!wr->made_dir || strcmp(wr->made_dir, dir) != 0) {
        rc = pr_fileio_mkdirs(dir, err);
        free(wr->made_dir);
        wr->made_dir = rc == 0 ? pr_xstrdup(dir) : NULL;
    }
    if (rc == 0 && same) {
        rc = pr_fileio_link_or_copy(full, dst, err);
    } else if (rc == 0) {
        rc = pr_fileio_write_new(dst, data, len, err);
        wr->changed = 1;
    }
    free(dir);
    free(dst);
    return rc;
}

int output_emit(void *ctx, const char *path, const char *data, size_t len, pr_err *err)
{
    output_tree *wr = ctx;
    /* Paths come from model and framework ids, which loading checks; refuse
     * anything that would leave the output folder all the same. */
    if (!pr_fileio_path_is_safe_relative(path))
        return pr_err_set(err, wr->out_dir, 0, 0, NULL,
                          "refusing to write \"%s\": not a path inside the output folder", path);
    char *full = pr_fileio_path_join(wr->out_dir, path);
    pr_buf old = PR_BUF_INIT;
    pr_err ignored;
    struct stat st;
    /* Only a regular file of OUT is compared (and linked): a symbolic link
     * planted there is replaced, never followed. */
    int existed = lstat(full, &st) == 0 && S_ISREG(st.st_mode) &&
                  pr_fileio_read_file(full, &old, &ignored) == 0;
    int same = existed && old.len == len && (len == 0 || memcmp(old.data, data, len) == 0);
    int rc = 0;
    wr->stats.files++;
    wr->stats.bytes += len;
    if (!same)
        wr->stats.rewritten++;
    if (wr->sd.stage) {
        rc = stage_file(wr, path, full, same, data, len, err);
    } else if (!same) {
        char *tmp = NULL;
        rc = pr_fileio_write_temp(full, data, len, 0, &tmp, err);
        if (rc == 0) {
            wr->staged = pr_xrealloc(wr->staged, (wr->nstaged + 1) * sizeof *wr->staged);
            struct staged *sf = &wr->staged[wr->nstaged++];
            sf->full = full;
            sf->tmp = tmp;
            sf->old_len = old.len;
            sf->old = existed ? pr_buf_detach(&old) : NULL;
            full = NULL;
        }
    }
    pr_buf_free(&old);
    free(full);
    wr->written = pr_xrealloc(wr->written, (wr->n + 1) * sizeof *wr->written);
    wr->written[wr->n++] = pr_xstrdup(path);
    return rc;
}

/* Pages are written by a thread of their own while the next ones render:
 * creating a build's 10^3-10^4 files (and their folders) was a fifth to a
 * third of it (issue 31 #17).  The render's emit queues a copy, in order;
 * the writer thread does output_emit's work on each in turn, so the tree,
 * its bytes and the stats are what one thread writes.  The queue holds at
 * most WQ_MAX_BYTES besides one page (the render waits), and the writer's
 * first error is returned by the next emit and by wq_finish.  Without a
 * thread (pthread_create failed) emit writes at once. */
#define WQ_MAX_BYTES ((size_t)4 << 20)

typedef struct wq_item {
    char *path, *data;
    size_t len;
    struct wq_item *next;
} wq_item;

struct output_queue {
    output_tree *wr;
    pthread_t thread;
    int started;
    pthread_mutex_t lock;   /* guards what follows */
    pthread_cond_t changed; /* an item queued or written, or the end */
    wq_item *head, *tail;
    size_t bytes; /* of the items queued */
    int done;     /* no more items will come */
    int failed;   /* an item failed, or the render: the rest are dropped */
    pr_err err;   /* the writer's first error */
};
typedef struct output_queue write_queue;

static void *wq_run(void *arg)
{
    write_queue *q = arg;
    pthread_mutex_lock(&q->lock);
    for (;;) {
        while (!q->head && !q->done)
            pthread_cond_wait(&q->changed, &q->lock);
        wq_item *it = q->head;
        if (!it)
            break;
        int skip = q->failed;
        pthread_mutex_unlock(&q->lock);
        pr_err e;
        int rc = skip ? 0 : output_emit(q->wr, it->path, it->data, it->len, &e);
        pthread_mutex_lock(&q->lock);
        q->head = it->next; /* taken off only now: the render waits on bytes */
        if (!q->head)
            q->tail = NULL;
        q->bytes -= it->len;
        if (rc < 0 && !q->failed) {
            q->failed = 1;
            q->err = e;
        }
        pthread_cond_broadcast(&q->changed);
        free(it->path);
        free(it->data);
        free(it);
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

static void wq_start(write_queue *q, output_tree *wr)
{
    memset(q, 0, sizeof *q);
    q->wr = wr;
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->changed, NULL);
    q->started = pthread_create(&q->thread, NULL, wq_run, q) == 0;
}

/* emit_fn: path and a copy of data queued for the writer. */
static int wq_emit(void *ctx, const char *path, const char *data, size_t len, pr_err *err)
{
    write_queue *q = ctx;
    if (!q->started)
        return output_emit(q->wr, path, data, len, err);
    wq_item *it = pr_xmalloc(sizeof *it);
    it->path = pr_xstrdup(path);
    it->data = pr_xmalloc(len ? len : 1);
    if (len)
        memcpy(it->data, data, len);
    it->len = len;
    it->next = NULL;
    int rc = 0;
    pthread_mutex_lock(&q->lock);
    while (!q->failed && q->head && q->bytes + len > WQ_MAX_BYTES)
        pthread_cond_wait(&q->changed, &q->lock);
    if (q->failed) {
        *err = q->err;
        rc = -1;
    } else {
        if (q->tail)
            q->tail->next = it;
        else
            q->head = it;
        q->tail = it;
        q->bytes += len;
        it = NULL;
        pthread_cond_broadcast(&q->changed);
    }
    pthread_mutex_unlock(&q->lock);
    if (it) {
        free(it->path);
        free(it->data);
        free(it);
    }
    return rc;
}

/* Waits for the writer to write what is queued (to drop it when abandon:
 * the render failed) and ends it; -1 with err set (when not NULL) when a
 * write failed. */
static int wq_finish(write_queue *q, int abandon, pr_err *err)
{
    if (q->started) {
        pthread_mutex_lock(&q->lock);
        q->done = 1;
        q->failed |= abandon;
        pthread_cond_broadcast(&q->changed);
        pthread_mutex_unlock(&q->lock);
        pthread_join(q->thread, NULL);
    }
    pthread_mutex_destroy(&q->lock);
    pthread_cond_destroy(&q->changed);
    if (q->started && q->failed && !abandon && err)
        *err = q->err;
    return q->started && q->failed ? -1 : 0;
}

output_queue *output_queue_start(output_tree *tree)
{
    write_queue *q = pr_xmalloc(sizeof *q);
    wq_start(q, tree);
    return q;
}

int output_queue_emit(void *ctx, const char *path, const char *data, size_t len, pr_err *err)
{
    return wq_emit(ctx, path, data, len, err);
}

int output_queue_finish(output_queue *q, int abandon, pr_err *err)
{
    int rc = wq_finish(q, abandon, err);
    free(q);
    return rc;
}

/* Renames every staged file into place (commit), or removes them all.  When
 * a rename fails, the files renamed before it get their previous content
 * back (best effort: the message says when that failed too). */
static int finish_staged(output_tree *wr, int commit, pr_err *err)
{
    int rc = 0;
    size_t done = 0;
    for (size_t i = 0; commit && rc == 0 && i < wr->nstaged; i++) {
        if (pr_fileio_commit_temp(wr->staged[i].tmp, wr->staged[i].full, err) < 0)
            rc = -1;
        else
            done = i + 1;
    }
    for (size_t i = 0; i < wr->nstaged; i++) {
        struct staged *st = &wr->staged[i];
        if (rc < 0 && i < done) {
            pr_err e2;
            int undo = st->old ? pr_fileio_write_if_changed(st->full, st->old, st->old_len, &e2)
                               : unlink(st->full);
            if (undo < 0)
                pr_err_prefix(err, "%s could not be put back", st->full);
        }
        if (!commit || i >= done)
            unlink(st->tmp); /* pr_fileio_commit_temp removed the one that failed */
        free(st->full);
        free(st->tmp);
        free(st->old);
    }
    free(wr->staged);
    wr->staged = NULL;
    wr->nstaged = 0;
    return rc;
}

/* A file gen generates (README*.md, *.svg, *.png, figures.csv): one of an
 * earlier generation that this one did not write is stale. */
static int generated_name(const char *name)
{
    size_t l = strlen(name);
    return strcmp(name, "figures.csv") == 0 ||
           (strncmp(name, "README", 6) == 0 && l > 3 && strcmp(name + l - 3, ".md") == 0) ||
           (l > 4 && (strcmp(name + l - 4, ".svg") == 0 || strcmp(name + l - 4, ".png") == 0));
}

/* A temporary file of a writer that is no longer running. */
static int dead_temp(const char *name)
{
    long pid;
    return pr_fileio_is_temp_name(name, &pid) &&
           (pid == (long)getpid() || !pr_fileio_pid_alive(pid));
}

/* In place: removes generated files under dir that this generation did not
 * write, and temporary files of dead builds, then empty folders. */
static void remove_stale(const output_tree *wr, const char *rel)
{
    char *dir = rel[0] ? pr_fileio_path_join(wr->out_dir, rel) : pr_xstrdup(wr->out_dir);
    char **names = NULL;
    pr_err ignored;
    if (pr_fileio_list_dir(dir, &names, NULL, &ignored) < 0) {
        free(dir);
        return;
    }
    for (char **p = names; *p; p++) {
        char *r = rel[0] ? pr_xasprintf("%s/%s", rel, *p) : pr_xstrdup(*p);
        char *full = pr_fileio_path_join(wr->out_dir, r);
        struct stat st;
        if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
            remove_stale(wr, r);
            rmdir(full); /* only succeeds when empty */
        } else if (dead_temp(*p)) {
            unlink(full);
        } else if (generated_name(*p)) {
            int keep = 0;
            for (size_t i = 0; i < wr->n && !keep; i++)
                keep = strcmp(wr->written[i], r) == 0;
            if (!keep)
                unlink(full);
        }
        free(r);
        free(full);
    }
    pr_fileio_strv_free(names);
    free(dir);
}

/* Staging: brings into the staging tree what OUT/rel holds that the build
 * keeps though it did not write it (files gen does not generate: notes
 * someone added, the marker), as hard links; a stale generated file, a
 * temporary file or an emptied folder is left behind and marks the
 * generation as changed. */
static int carry_over(output_tree *wr, const char *rel, pr_err *err)
{
    char *dir = rel[0] ? pr_fileio_path_join(wr->sd.real, rel) : pr_xstrdup(wr->sd.real);
    char **names = NULL;
    int rc = pr_fileio_list_dir(dir, &names, NULL, err);
    for (char **p = names; rc == 0 && p && *p; p++) {
        char *r = rel[0] ? pr_xasprintf("%s/%s", rel, *p) : pr_xstrdup(*p);
        char *full = pr_fileio_path_join(dir, *p);
        char *dst = pr_fileio_path_join(wr->sd.stage, r);
        struct stat st, ds;
        int staged = lstat(dst, &ds) == 0;
        if (lstat(full, &st) < 0) {
            /* vanished meanwhile */
        } else if (S_ISDIR(st.st_mode)) {
            rc = carry_over(wr, r, err);
            if (rc == 0 && lstat(dst, &ds) < 0)
                wr->changed = 1; /* emptied: it goes */
        } else if (staged) {
            /* written by this build */
        } else if (pr_fileio_is_temp_name(*p, NULL) || generated_name(*p)) {
            wr->changed = 1; /* stale: it goes */
        } else {
            char *ddir = pr_fileio_path_dirname(dst);
            rc = pr_fileio_mkdirs(ddir, err);
            if (rc == 0)
                rc = pr_fileio_link_or_copy(full, dst, err);
            free(ddir);
        }
        free(dst);
        free(full);
        free(r);
    }
    pr_fileio_strv_free(names);
    free(dir);
    return rc;
}

int output_open(const char *out_dir, output_tree **tree, pr_err *err)
{
    output_tree *wr = pr_xcalloc(1, sizeof *wr);
    wr->out_dir = out_dir;
    *tree = wr;
    char *marker = pr_fileio_path_join(out_dir, MARKER);
    int rc = -1;
    static const char note[] = "Generated by perfrepro-gen: files here are rewritten from data/.\n";
    if (pr_fileio_is_dir(out_dir) && !pr_fileio_is_file(marker)) {
        char **names = NULL;
        size_t n = 0;
        if (pr_fileio_list_dir(out_dir, &names, &n, err) < 0)
            goto out;
        pr_fileio_strv_free(names);
        if (n) {
            pr_err_set(err, out_dir, 0, 0, NULL,
                       "exists, is not empty and has no %s marker: not overwriting it", MARKER);
            goto out;
        }
    }
    if (pr_fileio_swapdir_open(&wr->sd, out_dir, err) < 0)
        goto out;
    if (wr->sd.stage ? output_emit(wr, MARKER, note, sizeof note - 1, err) < 0
                     : pr_fileio_write_if_changed(marker, note, sizeof note - 1, err) < 0)
        goto out;
    rc = 0;
out:
    free(marker);
    return rc;
}

const pr_report_stats *output_stats(const output_tree *wr)
{
    return &wr->stats;
}

int output_commit(output_tree *wr, pr_err *err)
{
    if (wr->sd.stage) {
        if (wr->sd.real && carry_over(wr, "", err) < 0)
            return -1;
        /* Nothing changed: OUT stays as it is, folders included. */
        if ((wr->changed || !wr->sd.real) && pr_fileio_swapdir_swap(&wr->sd, "reports", err) < 0)
            return -1;
        return 0;
    }
    if (finish_staged(wr, 1, err) < 0)
        return -1;
    remove_stale(wr, "");
    return 0;
}

void output_free(output_tree *wr)
{
    if (!wr)
        return;
    finish_staged(wr, 0, NULL);      /* after a failure: the staged files go */
    pr_fileio_swapdir_free(&wr->sd); /* the previous generation, or a failed one */
    for (size_t i = 0; i < wr->n; i++)
        free(wr->written[i]);
    free(wr->written);
    free(wr->made_dir);
    free(wr);
}
