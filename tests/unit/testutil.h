/* Helpers the Criterion tests share: temporary folders and files.  Static
 * inline so that a test file using only some of them compiles warning-free. */
#ifndef PR_TESTUTIL_H
#define PR_TESTUTIL_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"

/* A new empty folder under /tmp; the caller frees the path (and removes the
 * folder with rm_rf). */
static inline char *tmpdir(void)
{
    char tmpl[] = "/tmp/perfrepro-test-XXXXXX";
    char *d = mkdtemp(tmpl);
    cr_assert(d);
    return pr_xstrdup(d);
}

/* Writes text to dir/rel, creating folders. */
static inline void put(const char *dir, const char *rel, const char *text)
{
    char *path = pr_fileio_path_join(dir, rel);
    pr_err err;
    cr_assert(pr_fileio_write_atomic(path, text, strlen(text), &err) == 0, "%s", err.msg);
    free(path);
}

static inline void rm_rf(const char *dir)
{
    char *cmd = pr_xasprintf("rm -rf '%s'", dir);
    cr_assert(system(cmd) == 0);
    free(cmd);
}

#endif
