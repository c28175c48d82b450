#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pr_oom(size_t size)
{
    fprintf(stderr, "perfrepro: out of memory (allocating %zu bytes)\n", size);
    abort();
}

void *pr_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        pr_oom(size);
    return p;
}

void *pr_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        pr_oom(n * size);
    return p;
}

void *pr_xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        pr_oom(size);
    return p;
}

char *pr_xstrdup(const char *s)
{
    if (!s)
        return NULL;
    return pr_xstrndup(s, strlen(s));
}

char *pr_xstrndup(const char *s, size_t n)
{
    if (!s)
        return NULL;
    char *p = pr_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *pr_buf_xstrdup_trimmed(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t l = strlen(s);
    while (l && (s[l - 1] == ' ' || s[l - 1] == '\t'))
        l--;
    return pr_xstrndup(s, l);
}

char *pr_xasprintf(const char *fmt, ...)
{
    pr_buf b = PR_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    pr_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    return pr_buf_detach(&b);
}

void pr_buf_init(pr_buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void pr_buf_free(pr_buf *b)
{
    free(b->data);
    pr_buf_init(b);
}

char *pr_buf_detach(pr_buf *b)
{
    char *p = b->data;
    if (!p)
        p = pr_xstrdup("");
    pr_buf_init(b);
    return p;
}

void pr_buf_clear(pr_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void pr_buf_reserve(pr_buf *b, size_t extra)
{
    if (extra > (size_t)-1 / 2 - b->len)
        pr_oom(extra);
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap *= 2;
    b->data = pr_xrealloc(b->data, cap);
    b->cap = cap;
}

void pr_buf_put(pr_buf *b, const void *data, size_t len)
{
    pr_buf_grow(b, len);
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void pr_buf_puts(pr_buf *b, const char *s)
{
    pr_buf_put(b, s, strlen(s));
}

void pr_buf_vprintf(pr_buf *b, const char *fmt, va_list ap)
{
    /* One pass when the text fits in the room left (the common case); a
     * second, into exactly enough room, when it does not. */
    pr_buf_grow(b, 64);
    size_t room = b->cap - b->len;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(b->data + b->len, room, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        b->data[b->len] = '\0';
        return;
    }
    if ((size_t)n >= room) {
        pr_buf_grow(b, (size_t)n);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    }
    b->len += (size_t)n;
}

void pr_buf_printf(pr_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pr_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void pr_buf_truncate(pr_buf *b, size_t new_len)
{
    if (new_len < b->len) {
        b->len = new_len;
        b->data[new_len] = '\0';
    }
}

const char *pr_buf_cstr(const pr_buf *b)
{
    return b->data ? b->data : "";
}

void pr_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, n, size, cmp);
}
