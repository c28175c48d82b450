/* buf: the one growable byte buffer of perfrepro.
 *
 * Out-of-memory policy (decided once, for the whole project): every
 * allocation goes through pr_xmalloc/pr_xrealloc, which print a message and
 * abort() when the allocator fails.  Callers never check for NULL from them.
 * Jansson is configured with the same allocators (pr_jdoc_json_init), so a NULL
 * from a json_*() constructor means a programming error, not memory.
 */
#ifndef PR_BUF_H
#define PR_BUF_H

#include <stdarg.h>
#include <stddef.h>

void *pr_xmalloc(size_t size);
void *pr_xcalloc(size_t n, size_t size);
void *pr_xrealloc(void *ptr, size_t size);
/* Returns a malloc'd copy; the caller frees it.  NULL in gives NULL out. */
char *pr_xstrdup(const char *s);
char *pr_xstrndup(const char *s, size_t n);
/* A copy of s without the blanks and tabs at either end (the caller's). */
char *pr_buf_xstrdup_trimmed(const char *s);
/* Returns a malloc'd formatted string; the caller frees it. */
char *pr_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* qsort that accepts an empty array given as NULL (qsort(NULL, 0, ...) is
 * undefined behaviour, and an empty model or tree has no array at all). */
void pr_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* A growable buffer.  data is always NUL-terminated when non-NULL, so it can
 * be used as a C string when the content holds no NUL bytes.  The fields are
 * public on purpose (like cmark_strbuf): readers index data[0..len). */
typedef struct pr_buf {
    char *data;
    size_t len;
    size_t cap;
} pr_buf;

#define PR_BUF_INIT                                                                                \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

void pr_buf_init(pr_buf *b);
/* Frees the storage; the buffer is empty and reusable afterwards. */
void pr_buf_free(pr_buf *b);
/* Hands the storage to the caller (who frees it with free()); the buffer is
 * left empty.  Never returns NULL: an empty buffer gives "". */
char *pr_buf_detach(pr_buf *b);
void pr_buf_clear(pr_buf *b);
/* Makes room for extra more bytes (and the terminating NUL): pr_buf_grow
 * when there is room already is a comparison, inline (the pages append a
 * byte at a time); pr_buf_reserve reallocates. */
void pr_buf_reserve(pr_buf *b, size_t extra);
static inline void pr_buf_grow(pr_buf *b, size_t extra)
{
    if (!(extra < b->cap - b->len))
        pr_buf_reserve(b, extra);
}
void pr_buf_put(pr_buf *b, const void *data, size_t len);
void pr_buf_puts(pr_buf *b, const char *s);
static inline void pr_buf_putc(pr_buf *b, int c)
{
    pr_buf_grow(b, 1);
    b->data[b->len++] = (char)c;
    b->data[b->len] = '\0';
}
void pr_buf_printf(pr_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pr_buf_vprintf(pr_buf *b, const char *fmt, va_list ap);
/* Drops bytes so that len == new_len (new_len <= len). */
void pr_buf_truncate(pr_buf *b, size_t new_len);
/* Returns a C string view ("" when empty); valid until the next change. */
const char *pr_buf_cstr(const pr_buf *b);

#endif
