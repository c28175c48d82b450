#include "workers.h"

#include <pthread.h>
#include <unistd.h>

typedef struct wk_pool {
    workers_job_fn job;
    void *ctx;
    size_t n, next; /* next: guarded by lock */
    pthread_mutex_t lock;
} wk_pool;

static void *work(void *arg)
{
    wk_pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next++;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->n)
            return NULL;
        p->job(p->ctx, i);
    }
}

size_t workers_processors(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > WK_MAX_THREADS ? WK_MAX_THREADS : (size_t)cpus;
}

void workers_run_on(size_t threads, size_t n, workers_job_fn job, void *ctx)
{
    wk_pool p = {job, ctx, n, 0, PTHREAD_MUTEX_INITIALIZER};
    size_t nthreads = threads ? threads : workers_processors();
    if (nthreads > WK_MAX_THREADS)
        nthreads = WK_MAX_THREADS;
    if (nthreads > n)
        nthreads = n;
    pthread_t tids[WK_MAX_THREADS];
    size_t started = 0;
    for (; started + 1 < nthreads; started++)
        if (pthread_create(&tids[started], NULL, work, &p) != 0)
            break;
    work(&p); /* this thread works too */
    for (size_t i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
}

void workers_run(size_t n, workers_job_fn job, void *ctx)
{
    workers_run_on(0, n, job, ctx);
}

void workers_beside_start(workers_beside *b, int allow, void *(*fn)(void *), void *arg)
{
    b->threaded = allow && pthread_create(&b->tid, NULL, fn, arg) == 0;
    if (!b->threaded)
        fn(arg);
}

void workers_beside_wait(workers_beside *b)
{
    if (b->threaded)
        pthread_join(b->tid, NULL);
    b->threaded = 0;
}
