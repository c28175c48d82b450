/* workers: the same job for items 0..n-1 on this machine's processors (up
 * to WK_MAX_THREADS threads, this one among them), for the drawing of
 * charts and step traces and the reading of a run set's record files.
 * Each item is done exactly once; the order they are done in is not fixed,
 * so a job writes only its own item's results and the caller emits them in
 * item order afterwards (deterministic output).
 *
 * Memory: nothing is kept; a thread that cannot be started leaves its share
 * to the others. */
#ifndef PR_WORKERS_H
#define PR_WORKERS_H

#include <pthread.h>
#include <stddef.h>

#define WK_MAX_THREADS 8

typedef void (*workers_job_fn)(void *ctx, size_t item);

/* Runs job(ctx, i) for every i in [0, n) and returns when all are done. */
void workers_run(size_t n, workers_job_fn job, void *ctx);
/* The same on at most threads threads (1: all on this one, in item order;
 * 0: workers_processors()). */
void workers_run_on(size_t threads, size_t n, workers_job_fn job, void *ctx);
/* The processors online, 1 to WK_MAX_THREADS. */
size_t workers_processors(void);

/* One job beside this thread's work (the published tables while the run
 * sets load, the audit while the report model builds, figures.csv while
 * the pages render): fn(arg) on a thread of its own when allow and one
 * can be started, else here at once.  The caller waits for it with
 * workers_beside_wait before it reads what fn wrote (and may wait again:
 * the second wait does nothing). */
typedef struct workers_beside {
    pthread_t tid;
    int threaded; /* 1 while tid runs fn */
} workers_beside;

void workers_beside_start(workers_beside *b, int allow, void *(*fn)(void *), void *arg);
void workers_beside_wait(workers_beside *b);

#endif
