#include "pagejobs.h"

#include <stdlib.h>

#include "base/workers.h"
#include "buf.h"

/* Jobs of a window per thread: enough to even out pages of unequal
 * length, few enough that their files are a small part of memory. */
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

typedef struct pj_window {
    pagejobs_fn job;
    void *ctx;
    size_t first; /* the item of slots[0] */
    pj_slot *slots;
} pj_window;

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

/* workers_job_fn: runs the window's job i into its slot. */
static void run_slot(void *ctx, size_t i)
{
    pj_window *w = ctx;
    pj_slot *s = &w->slots[i];
    s->rc = w->job(w->ctx, w->first + i, hold_file, s, &s->err);
}

int pagejobs_run(size_t threads, size_t n, pagejobs_fn job, pagejobs_done_fn done, void *ctx,
                 emit_fn emit, void *ectx, pr_err *err)
{
    int rc = 0;
    if (!threads)
        threads = workers_processors();
    if (threads == 1) {
        /* One after another, as before there were threads: nothing held. */
        for (size_t i = 0; i < n && rc == 0; i++)
            if ((rc = job(ctx, i, emit, ectx, err)) == 0 && done)
                done(ctx, i);
        return rc;
    }
    size_t width = threads * PJ_WINDOW_PER_THREAD;
    pj_window w = {job, ctx, 0, pr_xcalloc(width, sizeof(pj_slot))};
    for (; w.first < n && rc == 0; w.first += width) {
        size_t k = n - w.first < width ? n - w.first : width;
        for (size_t i = 0; i < k; i++) {
            pj_slot *s = &w.slots[i];
            pr_buf_clear(&s->bytes);
            s->nfiles = 0;
            s->rc = 0;
        }
        workers_run_on(threads, k, run_slot, &w);
        for (size_t i = 0; i < k && rc == 0; i++) {
            pj_slot *s = &w.slots[i];
            for (size_t f = 0; f < s->nfiles && rc == 0; f++) {
                const pj_file *pf = &s->files[f];
                rc = emit(ectx, s->bytes.data + pf->path_at, s->bytes.data + pf->data_at, pf->len,
                          err);
            }
            if (rc == 0 && s->rc < 0) {
                *err = s->err;
                rc = -1;
            }
            if (rc == 0 && done)
                done(ctx, w.first + i);
        }
    }
    for (size_t i = 0; i < width; i++) {
        pr_buf_free(&w.slots[i].bytes);
        free(w.slots[i].files);
    }
    free(w.slots);
    return rc;
}
