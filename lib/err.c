#include "err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"

int pr_err_set(pr_err *e, const char *file, int line, int col, const char *field, const char *fmt,
               ...)
{
    if (!e)
        return -1;
    pr_buf b = PR_BUF_INIT;
    if (file) {
        pr_buf_puts(&b, file);
        if (line > 0) {
            pr_buf_printf(&b, ":%d", line);
            if (col > 0)
                pr_buf_printf(&b, ":%d", col);
        }
        pr_buf_puts(&b, ": ");
    }
    if (field && *field)
        pr_buf_printf(&b, "%s: ", field);
    va_list ap;
    va_start(ap, fmt);
    pr_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    snprintf(e->msg, sizeof e->msg, "%s", pr_buf_cstr(&b));
    pr_buf_free(&b);
    return -1;
}

int pr_err_errno(pr_err *e, const char *file, const char *what)
{
    int saved = errno;
    return pr_err_set(e, file, 0, 0, NULL, "%s: %s", what, strerror(saved));
}

int pr_err_prefix(pr_err *e, const char *fmt, ...)
{
    if (!e)
        return -1;
    pr_buf b = PR_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    pr_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    pr_buf_printf(&b, ": %s", e->msg);
    snprintf(e->msg, sizeof e->msg, "%s", pr_buf_cstr(&b));
    pr_buf_free(&b);
    return -1;
}

int pr_err_missing_opts(pr_err *e, const pr_err_opt_need *need, size_t n)
{
    pr_buf names = PR_BUF_INIT;
    size_t missing = 0;
    for (size_t i = 0; i < n; i++)
        if (need[i].missing)
            pr_buf_printf(&names, "%s%s", missing++ ? ", " : "", need[i].name);
    if (missing)
        pr_err_set(e, NULL, 0, 0, NULL, "required option%s missing: %s", missing > 1 ? "s" : "",
                   pr_buf_cstr(&names));
    pr_buf_free(&names);
    return missing ? -1 : 0;
}
