/* cmarkx: cmark-gfm parsing with the GFM extensions, and shared helpers. */
#include "cmarkx.h"

#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>

void cmarkx_parse(pr_cmarkx_doc *d, const char *md, size_t len, int options)
{
    static const char *const exts[] = {"table", "strikethrough", "autolink", "tagfilter"};
    cmark_gfm_core_extensions_ensure_registered();
    d->parser = cmark_parser_new(options);
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        cmark_syntax_extension *e = cmark_find_syntax_extension(exts[i]);
        if (e) /* always there once registered; a missing one only loses markup */
            cmark_parser_attach_syntax_extension(d->parser, e);
    }
    cmark_parser_feed(d->parser, md, len);
    d->root = cmark_parser_finish(d->parser);
}

void cmarkx_free(pr_cmarkx_doc *d)
{
    if (d->root)
        cmark_node_free(d->root);
    if (d->parser)
        cmark_parser_free(d->parser);
    d->root = NULL;
    d->parser = NULL;
}

cmark_llist *cmarkx_extensions(const pr_cmarkx_doc *d)
{
    return cmark_parser_get_syntax_extensions(d->parser);
}

void cmarkx_plain_opts_walk(cmark_node *node, pr_buf *out, const pr_cmarkx_plain_opts *o)
{
    for (cmark_node *c = cmark_node_first_child(node); c; c = cmark_node_next(c)) {
        switch (cmark_node_get_type(c)) {
        case CMARK_NODE_TEXT:
        case CMARK_NODE_CODE: {
            const char *lit = cmark_node_get_literal(c);
            if (lit)
                pr_buf_puts(out, lit);
            break;
        }
        case CMARK_NODE_SOFTBREAK:
        case CMARK_NODE_LINEBREAK:
            pr_buf_putc(out, ' ');
            break;
        case CMARK_NODE_HTML_INLINE: /* dropped in safe rendering */
            if (o->dropped)
                o->dropped(o->ctx, c);
            break;
        case CMARK_NODE_IMAGE:
            if (o->dropped)
                o->dropped(o->ctx, c);
            if (o->image_alt)
                cmarkx_plain_opts_walk(c, out, o);
            break;
        default:
            cmarkx_plain_opts_walk(c, out, o);
            break;
        }
    }
}

void cmarkx_plain(cmark_node *node, pr_buf *out)
{
    static const pr_cmarkx_plain_opts text_content = {0, NULL, NULL};
    cmarkx_plain_opts_walk(node, out, &text_content);
}

int cmarkx_line(cmark_node *node)
{
    for (; node; node = cmark_node_parent(node)) {
        int l = cmark_node_get_start_line(node);
        if (l > 0)
            return l;
    }
    return 0;
}

int cmarkx_in_table(cmark_node *node)
{
    for (node = cmark_node_parent(node); node; node = cmark_node_parent(node)) {
        const char *t = cmark_node_get_type_string(node);
        if (t && strncmp(t, "table", 5) == 0)
            return 1;
    }
    return 0;
}

int cmarkx_explicit_anchor(cmark_node *node, pr_buf *id)
{
    static const char open[] = "<a id=\"";
    if (cmark_node_get_type(node) != CMARK_NODE_HTML_INLINE)
        return 0;
    cmark_node *close = cmark_node_next(node);
    const char *lit = cmark_node_get_literal(node);
    const char *end_lit = close ? cmark_node_get_literal(close) : NULL;
    if (!lit || !end_lit || cmark_node_get_type(close) != CMARK_NODE_HTML_INLINE ||
        strcmp(end_lit, "</a>") != 0 || strncmp(lit, open, sizeof open - 1) != 0)
        return 0;
    const char *v = lit + sizeof open - 1, *p = v;
    while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')
        p++;
    if (p == v || strcmp(p, "\">") != 0)
        return 0;
    /* Not in a heading, which has its own anchor (and whose text the
     * site's rendering of anchors would change). */
    for (cmark_node *a = cmark_node_parent(node); a; a = cmark_node_parent(a))
        if (cmark_node_get_type(a) == CMARK_NODE_HEADING)
            return 0;
    if (id)
        pr_buf_put(id, v, (size_t)(p - v));
    return 1;
}

cmark_node **cmarkx_collect(cmark_node *root, int (*want)(cmark_node *), size_t *n)
{
    size_t cap = 0;
    cmark_node **v = NULL;
    *n = 0;
    cmark_iter *it = cmark_iter_new(root);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *c = cmark_iter_get_node(it);
        if (ev == CMARK_EVENT_ENTER && want(c)) {
            if (*n == cap)
                v = pr_xrealloc(v, (cap = cap ? cap * 2 : 32) * sizeof *v);
            v[(*n)++] = c;
        }
    }
    cmark_iter_free(it);
    return v;
}

static int is_heading(cmark_node *node)
{
    return cmark_node_get_type(node) == CMARK_NODE_HEADING;
}

void cmarkx_headings(cmark_node *root, cmarkx_heading_fn fn, void *ctx, pr_md_anchors **anchors_out)
{
    /* Collected first: the callback may replace nodes. */
    size_t n;
    cmark_node **v = cmarkx_collect(root, is_heading, &n);
    cmark_event_type ev;
    cmark_iter *it;
    pr_md_anchors *a = md_anchors_new();
    pr_buf plain = PR_BUF_INIT, anchor = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        pr_buf_clear(&plain);
        pr_buf_clear(&anchor);
        cmarkx_plain(v[i], &plain);
        md_anchors_add(a, pr_buf_cstr(&plain), &anchor);
        if (fn)
            fn(ctx, v[i], pr_buf_cstr(&anchor), pr_buf_cstr(&plain));
    }
    /* The explicit anchors, after the headings: GitHub numbers repeated
     * headings among themselves only. */
    if (anchors_out) {
        it = cmark_iter_new(root);
        while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
            pr_buf_clear(&plain);
            pr_buf_clear(&anchor);
            cmark_node *c = cmark_iter_get_node(it);
            if (ev == CMARK_EVENT_ENTER && cmarkx_explicit_anchor(c, &plain))
                md_anchors_add(a, pr_buf_cstr(&plain), &anchor);
        }
        cmark_iter_free(it);
    }
    pr_buf_free(&plain);
    pr_buf_free(&anchor);
    free(v);
    if (anchors_out)
        *anchors_out = a;
    else
        md_anchors_free(a);
}

static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

int cmarkx_has_scheme(const char *url, size_t *scheme_len)
{
    if (!is_alpha((unsigned char)url[0]))
        return 0;
    size_t i = 1;
    while (is_alpha((unsigned char)url[i]) || is_digit((unsigned char)url[i]) || url[i] == '+' ||
           url[i] == '-' || url[i] == '.')
        i++;
    if (url[i] != ':')
        return 0;
    if (scheme_len)
        *scheme_len = i;
    return 1;
}

static int hexval(int c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

void cmarkx_percent_decode(pr_buf *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        int h, l;
        if (s[i] == '%' && i + 2 < len && (h = hexval((unsigned char)s[i + 1])) >= 0 &&
            (l = hexval((unsigned char)s[i + 2])) >= 0) {
            pr_buf_putc(out, h * 16 + l);
            i += 2;
        } else {
            pr_buf_putc(out, s[i]);
        }
    }
}

void cmarkx_percent_encode(pr_buf *out, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        unsigned char c = *p;
        if (is_alpha(c) || is_digit(c) || strchr("-._~/!$&'*+,;=:@", c)) {
            pr_buf_putc(out, c);
        } else {
            pr_buf_putc(out, '%');
            pr_buf_putc(out, hex[c >> 4]);
            pr_buf_putc(out, hex[c & 15]);
        }
    }
}

/* Appends the components of p to the stack parts (a '/'-joined buffer);
 * returns -1 when a ".." climbs above the root. */
static int push_components(pr_buf *parts, const char *p)
{
    while (*p) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 0 || (n == 1 && p[0] == '.')) {
            /* nothing */
        } else if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (parts->len == 0)
                return -1;
            char *slash = NULL;
            for (size_t i = parts->len; i > 0; i--)
                if (parts->data[i - 1] == '/') {
                    slash = parts->data + i - 1;
                    break;
                }
            pr_buf_truncate(parts, slash ? (size_t)(slash - parts->data) : 0);
        } else {
            if (parts->len)
                pr_buf_putc(parts, '/');
            pr_buf_put(parts, p, n);
        }
        p += n;
        if (*p == '/')
            p++;
    }
    return 0;
}

char *cmarkx_resolve(const char *base, const char *rel)
{
    pr_buf parts = PR_BUF_INIT;
    if (push_components(&parts, base ? base : "") < 0 || push_components(&parts, rel) < 0) {
        pr_buf_free(&parts);
        return NULL;
    }
    return pr_buf_detach(&parts);
}

/* The page stems of a report tree and the HTML name each becomes; a
 * suffixed stem takes "-<name>" ([a-z0-9-]) after it, kept in the HTML
 * name (PLATFORM-v100-x8.md: platform-v100-x8.html, a framework's machine
 * page). */
static const struct {
    const char *md, *html;
    int suffixed;
} page_stems[] = {{"README", "index", 0},
                  {"AUDIT", "audit", 0},
                  {"HISTORY", "history", 0},
                  {"REGRESSIONS", "regressions", 0},
                  {"PLATFORM", "platform", 1}};

int cmarkx_readme_name(const char *name, char **lang_out, char **html_out)
{
    size_t n = strlen(name), stem_len = 0, suffix_len = 0;
    const char *html_stem = NULL;
    for (size_t i = 0; i < sizeof page_stems / sizeof *page_stems && !html_stem; i++) {
        size_t l = strlen(page_stems[i].md), k = l;
        if (strncmp(name, page_stems[i].md, l) != 0)
            continue;
        if (page_stems[i].suffixed) {
            if (name[l] != '-')
                continue;
            for (k = l + 1; (name[k] >= 'a' && name[k] <= 'z') ||
                            is_digit((unsigned char)name[k]) || name[k] == '-';
                 k++)
                ;
            if (k == l + 1)
                continue;
        }
        if (name[k] == '.') {
            stem_len = k;
            suffix_len = k - l;
            html_stem = page_stems[i].html;
        }
    }
    if (!html_stem || n < stem_len + 3 || strcmp(name + n - 3, ".md") != 0)
        return 0;
    const char *suffix = name + stem_len - suffix_len;
    const char *lang = NULL;
    size_t lang_len = 0;
    if (n > stem_len + 3) {
        if (name[stem_len] != '.' || n == stem_len + 4)
            return 0;
        lang = name + stem_len + 1;
        lang_len = n - stem_len - 4;
        for (size_t i = 0; i < lang_len; i++)
            if (!is_alpha((unsigned char)lang[i]) && !is_digit((unsigned char)lang[i]) &&
                lang[i] != '-' && lang[i] != '_')
                return 0;
    }
    if (lang_out)
        *lang_out = lang ? pr_xstrndup(lang, lang_len) : pr_xstrdup("zh-CN");
    if (html_out)
        *html_out = lang ? pr_xasprintf("%s%.*s.%.*s.html", html_stem, (int)suffix_len, suffix,
                                        (int)lang_len, lang)
                         : pr_xasprintf("%s%.*s.html", html_stem, (int)suffix_len, suffix);
    return 1;
}

void cmarkx_table_csv(cmark_node *table, pr_buf *out)
{
    pr_cmarkx_plain_opts po = {1, NULL, NULL};
    for (cmark_node *row = cmark_node_first_child(table); row; row = cmark_node_next(row)) {
        for (cmark_node *cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell)) {
            pr_buf text = PR_BUF_INIT;
            cmarkx_plain_opts_walk(cell, &text, &po);
            if (cell != cmark_node_first_child(row))
                pr_buf_putc(out, ',');
            md_csv_field(out, pr_buf_cstr(&text));
            pr_buf_free(&text);
        }
        pr_buf_puts(out, "\r\n");
    }
}
