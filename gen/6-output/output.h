/* output: the reports tree written as one generation.  Files are emitted one
 * by one (output_emit, an emit_fn); output_commit makes them OUT
 * at once: staged beside OUT (unchanged files hard-linked) and swapped in
 * with one rename, or, where OUT cannot be swapped, written to temporary
 * files renamed into place at the end.  Files of an earlier generation no
 * longer emitted are removed; notes someone added are kept.
 *
 * Memory: output_open allocates the tree (also on failure); output_free
 * frees it and removes whatever was staged and not committed.
 */
#ifndef PR_OUTPUT_H
#define PR_OUTPUT_H

#include <stddef.h>

#include "err.h"

/* What a generation wrote: every file, how many of them differ from the
 * previous one (new or rewritten), and their bytes. */
typedef struct pr_report_stats {
    size_t files, rewritten;
    unsigned long long bytes;
} pr_report_stats;

typedef struct output_tree output_tree;

/* Starts a generation of out_dir: refuses a non-empty folder without the
 * marker gen leaves, removes dead builds' leftovers, writes the marker.
 * *tree is set also on failure (output_free it).  Returns 0 or -1. */
int output_open(const char *out_dir, output_tree **tree, pr_err *err);

/* Emits one file: path relative to OUT (anything else is refused), its
 * bytes.  ctx is the output_tree.  Returns 0 or -1. */
int output_emit(void *ctx, const char *path, const char *data, size_t len, pr_err *err);

/* What has been emitted so far (owned by the tree). */
const pr_report_stats *output_stats(const output_tree *tree);

/* Makes the emitted files OUT, all at once (nothing when none changed).
 * Returns 0 or -1; on failure OUT is the previous generation. */
int output_commit(output_tree *tree, pr_err *err);

/* Pages written by a thread of their own while the next ones render (issue
 * 31): creating a build's files was a fifth to a third of it.  A queue
 * started on tree takes each emitted file (output_queue_emit, an emit_fn)
 * as a copy, in order, at most 4 MiB besides one file (the caller waits);
 * the writer thread does output_emit's work on each, so the tree, its bytes
 * and the stats are what one thread writes.  The writer's first error is
 * returned by the next emit and by output_queue_finish, which waits for
 * what is queued (drops it when abandon), ends the thread and frees q.
 * Without a thread emit writes at once. */
typedef struct output_queue output_queue;
output_queue *output_queue_start(output_tree *tree);
int output_queue_emit(void *ctx, const char *path, const char *data, size_t len, pr_err *err);
int output_queue_finish(output_queue *q, int abandon, pr_err *err);

/* Frees tree (NULL is fine); staged files not committed are removed. */
void output_free(output_tree *tree);

#endif
