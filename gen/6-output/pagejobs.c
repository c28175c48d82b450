#include "pagejobs.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/workers.h"
#include "buf.h"

/* Jobs in flight per thread: enough to even out pages of unequal length,
 * few enough that their files are a small part of memory. */
enum { PJ_WINDOW_PER_THREAD = 8 };

/* One file a job made: offsets into its slot's bytes (the path ends with
 * a NUL; the data may hold NULs). */
typedef struct pj_file {
    size_t path_at, data_at, len;
} pj_file;

/* What one job made, held until its turn. */
typedef struct pj_slot {
    pr_buf bytes;
    pj_file *files;
    size_t nfiles, cap;
    int rc;
    pr_err err;
} pj_slot;

/* The jobs in flight: items are claimed in order, at most width ahead of
 * the next one to pass on, each into slot item % width.  All fields below
 * lock are guarded by it. */
typedef struct pj_pool {
    pagejobs_fn job;
    void *ctx;
    size_t n, width;
    pj_slot *slots;
    pthread_mutex_t lock;
    pthread_cond_t changed; /* an item done, a slot freed, or stop */
    size_t next_claim, next_emit;
    unsigned char *ready; /* per slot: its item is done */
    int stop;             /* an item failed: claim no more */
} pj_pool;

/* emit_fn: keeps a copy of the file in the slot (ctx). */
static int hold_file(void *ctx, const char *path, const char *data, size_t len, pr_err *err)
{
    (void)err;
    pj_slot *s = ctx;
    if (s->nfiles == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4;
        s->files = pr_xrealloc(s->files, s->cap * sizeof *s->files);
    }
    pj_file *f = &s->files[s->nfiles++];
    f->path_at = s->bytes.len;
    pr_buf_puts(&s->bytes, path);
    pr_buf_putc(&s->bytes, '\0');
    f->data_at = s->bytes.len;
    f->len = len;
    if (len)
        pr_buf_put(&s->bytes, data, len);
    return 0;
}

/* Claims the next item when there is room for it (lock held); 0 when not. */
static int claim(pj_pool *p, size_t *item)
{
    if (p->stop || p->next_claim >= p->n || p->next_claim >= p->next_emit + p->width)
        return 0;
    *item = p->next_claim++;
    return 1;
}

/* Runs item into its slot and marks it ready (called without the lock). */
static void run_item(pj_pool *p, size_t item)
{
    pj_slot *s = &p->slots[item % p->width];
    pr_buf_clear(&s->bytes);
    s->nfiles = 0;
    s->rc = p->job(p->ctx, item, hold_file, s, &s->err);
    pthread_mutex_lock(&p->lock);
    p->ready[item % p->width] = 1;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
}

/* A worker thread: claims and runs items until none is left or stop. */
static void *worker(void *arg)
{
    pj_pool *p = arg;
    size_t item;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        if (claim(p, &item)) {
            pthread_mutex_unlock(&p->lock);
            run_item(p, item);
            pthread_mutex_lock(&p->lock);
        } else if (p->stop || p->next_claim >= p->n) {
            break;
        } else {
            pthread_cond_wait(&p->changed, &p->lock); /* the window is full */
        }
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Passes slot s's files on; then its failure, if it failed. */
static int pass_on(pj_slot *s, emit_fn emit, void *ectx, pr_err *err)
{
    int rc = 0;
    for (size_t f = 0; f < s->nfiles && rc == 0; f++) {
        const pj_file *pf = &s->files[f];
        rc = emit(ectx, s->bytes.data + pf->path_at, s->bytes.data + pf->data_at, pf->len, err);
    }
    if (rc == 0 && s->rc < 0) {
        *err = s->err;
        rc = -1;
    }
    return rc;
}

int pagejobs_run(size_t threads, size_t n, pagejobs_fn job, pagejobs_done_fn done, void *ctx,
                 emit_fn emit, void *ectx, pr_err *err)
{
    int rc = 0;
    if (!threads)
        threads = workers_processors();
    if (threads == 1 || n < 2) {
        /* One after another, as before there were threads: nothing held. */
        for (size_t i = 0; i < n && rc == 0; i++)
            if ((rc = job(ctx, i, emit, ectx, err)) == 0 && done)
                done(ctx, i);
        return rc;
    }
    pj_pool p;
    memset(&p, 0, sizeof p);
    p.job = job;
    p.ctx = ctx;
    p.n = n;
    p.width = threads * PJ_WINDOW_PER_THREAD;
    p.slots = pr_xcalloc(p.width, sizeof *p.slots);
    p.ready = pr_xcalloc(p.width, 1);
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.changed, NULL);
    pthread_t tids[WK_MAX_THREADS];
    size_t started = 0;
    for (; started + 1 < threads && started < WK_MAX_THREADS; started++)
        if (pthread_create(&tids[started], NULL, worker, &p) != 0)
            break;
    /* This thread passes the items on in order, and runs items while the
     * next one is not ready. */
    pthread_mutex_lock(&p.lock);
    while (p.next_emit < n && rc == 0) {
        size_t item, at = p.next_emit % p.width;
        if (p.ready[at]) {
            pthread_mutex_unlock(&p.lock);
            rc = pass_on(&p.slots[at], emit, ectx, err);
            if (rc == 0 && done)
                done(ctx, p.next_emit);
            pthread_mutex_lock(&p.lock);
            p.ready[at] = 0;
            p.next_emit++;
            p.stop = rc < 0;
            pthread_cond_broadcast(&p.changed);
        } else if (claim(&p, &item)) {
            pthread_mutex_unlock(&p.lock);
            run_item(&p, item);
            pthread_mutex_lock(&p.lock);
        } else {
            pthread_cond_wait(&p.changed, &p.lock);
        }
    }
    p.stop = 1;
    pthread_cond_broadcast(&p.changed);
    pthread_mutex_unlock(&p.lock);
    for (size_t i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    for (size_t i = 0; i < p.width; i++) {
        pr_buf_free(&p.slots[i].bytes);
        free(p.slots[i].files);
    }
    pthread_cond_destroy(&p.changed);
    pthread_mutex_destroy(&p.lock);
    free(p.ready);
    free(p.slots);
    return rc;
}
