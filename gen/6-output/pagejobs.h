/* pagejobs: jobs that each make files (a page and its machine pages), run
 * on several threads, their files passed on in job order.
 *
 * The report's framework pages are most of a build: built and rendered one
 * after another they kept one processor busy (issue 31, item 17).  Here
 * each job writes into a buffer of its own; the calling thread passes the
 * files of job 0, 1, 2 ... on to emit in that order, so the output is the
 * same bytes on any number of threads.  When jobs fail, the first failing
 * one in job order is reported (its files before the failure are passed
 * on, as when the jobs run one after another) and no later job's files are.
 *
 * The threads take jobs in order, at most a few per thread ahead of the
 * next one to pass on (the calling thread passes files on and takes jobs
 * while it waits): memory holds those jobs' files, not the whole
 * generation's.
 *
 * A job reads what every job shares and writes only its own item's state:
 * the caller makes shared caches safe first (report.c says which).
 */
#ifndef PR_PAGEJOBS_H
#define PR_PAGEJOBS_H

#include <stddef.h>

#include "base/emit.h"
#include "err.h"

/* Makes item's files, passing each to emit(ectx, ...) (which keeps a copy).
 * Returns 0 or -1 with err set. */
typedef int (*pagejobs_fn)(void *ctx, size_t item, emit_fn emit, void *ectx, pr_err *err);
/* Called on the calling thread, in item order, once item's files were
 * passed on and it succeeded (to join what it queued besides files). */
typedef void (*pagejobs_done_fn)(void *ctx, size_t item);

/* Runs job for items 0..n-1 on up to threads threads (0: one per
 * processor; 1: each in turn on this thread, its files straight to emit),
 * passing their files to emit(ectx, ...) in item order and calling done
 * (may be NULL) after each.  Returns 0, or -1 with err set by the first
 * failing item or emit; no item after it is passed on or done. */
int pagejobs_run(size_t threads, size_t n, pagejobs_fn job, pagejobs_done_fn done, void *ctx,
                 emit_fn emit, void *ectx, pr_err *err);

#endif
