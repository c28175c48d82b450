/* fuzz_mustache: the template engine on a template and its data.
 *
 * The input is TEMPLATE \0 DATA \0 PARTIALS: the template text, JSON data
 * (not JSON: rendered with no data) and a JSON object mapping partial names
 * to template strings (mustache_json_loader).  Missing parts are empty.
 * The last byte's low bit picks the default HTML escaping or a Markdown-like
 * escaper passed through the options, as gen does.
 *
 * Invariants: mustache_render returns 0 or -1 with a "NAME:LINE:COL:"
 * message; on error the output buffer is left as it was; never a crash or
 * a hang (limits on nesting, partial depth and output).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "jdoc.h"
#include "template/mustache.h"

static void die(const char *what)
{
    fprintf(stderr, "fuzz_mustache: %s\n", what);
    abort();
}

static void md_escape(void *ctx, pr_buf *out, const char *s, size_t len)
{
    (void)ctx;
    for (size_t i = 0; i < len; i++) {
        if (strchr("|\\`*_[]<>&", s[i]) && s[i])
            pr_buf_putc(out, '\\');
        pr_buf_putc(out, s[i] == '\n' ? ' ' : s[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pr_jdoc_json_init();
    const char *t = (const char *)data;
    const char *end = t + size;
    const char *z1 = memchr(t, '\0', size);
    size_t tlen = z1 ? (size_t)(z1 - t) : size;
    const char *dtext = z1 ? z1 + 1 : end;
    const char *z2 = memchr(dtext, '\0', (size_t)(end - dtext));
    size_t dlen = z2 ? (size_t)(z2 - dtext) : (size_t)(end - dtext);
    const char *ptext = z2 ? z2 + 1 : end;
    size_t plen = (size_t)(end - ptext);

    json_t *d = dlen ? json_loadb(dtext, dlen, 0, NULL) : NULL;
    json_t *partials = plen ? json_loadb(ptext, plen, 0, NULL) : NULL;
    pr_mustache_opts o = {"fuzz.mustache", mustache_json_loader, partials, NULL, NULL};
    if (size && (data[size - 1] & 1))
        o.escape = md_escape;

    pr_buf out = PR_BUF_INIT;
    pr_buf_puts(&out, "before");
    pr_err e;
    e.msg[0] = '\0';
    if (mustache_render(t, tlen, d, &o, &out, &e) < 0) {
        if (!e.msg[0])
            die("an error without a message");
        if (out.len != 6 || memcmp(out.data, "before", 6) != 0)
            die("the output changed on error");
    } else if (out.len < 6 || memcmp(out.data, "before", 6) != 0) {
        die("the output before the call was changed");
    }
    pr_buf_free(&out);
    json_decref(d);
    json_decref(partials);
    return 0;
}
