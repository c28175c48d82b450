/* emit: how a stage hands over a finished file (a page, a chart, a CSV)
 * without knowing where it goes: the report writer stages it on disk
 * (6-output/output.c), a test or benchmark keeps it in memory.
 *
 * Memory: path and data are borrowed for the call; the callee copies what
 * it keeps. */
#ifndef PR_EMIT_H
#define PR_EMIT_H

#include <stddef.h>

#include "err.h"

/* Takes the file path (relative to the output folder) with len bytes of
 * data.  Returns 0, or -1 with err set. */
typedef int (*emit_fn)(void *ctx, const char *path, const char *data, size_t len, pr_err *err);

#endif
