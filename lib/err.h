/* err: the error value library code returns.
 *
 * Library functions return 0 on success and -1 on failure, filling a
 * caller-owned pr_err.  Only main() prints it.  The message names the file,
 * line, column and field where they are known, as
 *   FILE:LINE:COL: FIELD: what is wrong
 */
#ifndef PR_ERR_H
#define PR_ERR_H

#include <stddef.h>

typedef struct pr_err {
    char msg[1024];
} pr_err;

/* Sets the message.  file may be NULL; line/col <= 0 are left out; field may
 * be NULL or "".  Returns -1 so that callers can write
 * `return pr_err_set(...)`. */
int pr_err_set(pr_err *e, const char *file, int line, int col, const char *field, const char *fmt,
               ...) __attribute__((format(printf, 6, 7)));
/* Sets a message from errno: "FILE: what: strerror(errno)". Returns -1. */
int pr_err_errno(pr_err *e, const char *file, const char *what);
/* Prefixes the current message with "prefix: " (for context). Returns -1. */
int pr_err_prefix(pr_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A command's required option: its name, and whether the user left it out. */
typedef struct pr_err_opt_need {
    int missing;
    const char *name;
} pr_err_opt_need;
/* Names every missing option of need[0..n) in one message ("required
 * options missing: --repo, --out"), so that a user fixes them in one try.
 * Returns 0 when none is missing, else -1. */
int pr_err_missing_opts(pr_err *e, const pr_err_opt_need *need, size_t n);

#endif
