/* site_page: one Markdown page rendered to a complete HTML document (ids, tables as CSV). */
#include "site.h"

#include <stdlib.h>
#include <string.h>

#include "base/cmarkx.h"
#include "fileio.h"
#include "site_int.h"

/* Safe rendering (the default of cmark-gfm 0.29: raw HTML is replaced by a
 * comment); alignment as style attributes, valid HTML5. */
#define SITE_RENDER_OPTS (CMARK_OPT_DEFAULT | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES)

/* Replaces the heading by a custom block holding its HTML with the id:
 * cmark's renderer writes no ids.  The heading's content is rendered by
 * cmark itself (safe), only the id attribute is added. */
static void heading_cb(void *ctx, cmark_node *h, const char *anchor, const char *plain)
{
    site_page_ctx *pc = ctx;
    if (!pc->have_title) {
        pr_buf_puts(&pc->title, plain);
        pc->have_title = 1;
    }
    char *html = cmark_render_html(h, SITE_RENDER_OPTS, pc->exts);
    pr_buf b = PR_BUF_INIT;
    /* html is "<hN>...</hN>\n": the id goes after "<hN". */
    pr_buf_put(&b, html, 3);
    pr_buf_puts(&b, " id=\"");
    md_xml(&b, anchor);
    pr_buf_putc(&b, '"');
    pr_buf_puts(&b, html + 3);
    free(html);
    cmark_node *cb = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK);
    cmark_node_set_on_enter(cb, pr_buf_cstr(&b));
    cmark_node_set_on_exit(cb, "");
    cmark_node_insert_before(h, cb);
    cmark_node_unlink(h);
    cmark_node_free(h);
    pr_buf_free(&b);
}

static int is_explicit_anchor(cmark_node *node)
{
    return cmarkx_explicit_anchor(node, NULL);
}

/* The explicit anchors (cmarkx_explicit_anchor: a tag pair, which
 * safe rendering drops) are rendered as that anchor and nothing else, so
 * that a link to a row of a table lands on it, as on GitHub.  A table cell
 * may hold no custom node (cmark-gfm's table extension refuses it), so
 * each pair becomes a text node "\x01N\x01" and the rendered body's
 * markers are replaced by the anchors (ids, whose characters need no
 * escaping); a page whose text has a \x01 of its own keeps none (they are
 * dropped as any raw HTML).  Returns the ids, in marker order (the caller
 * frees them with pr_fileio_strv_free); NULL when there are none. */
static char **explicit_anchors(cmark_node *root, const char *md, size_t len)
{
    if (memchr(md, '\x01', len))
        return NULL;
    size_t n;
    cmark_node **v = cmarkx_collect(root, is_explicit_anchor, &n);
    char **ids = n ? pr_xcalloc(n + 1, sizeof *ids) : NULL;
    pr_buf id = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        pr_buf_clear(&id);
        cmarkx_explicit_anchor(v[i], &id);
        ids[i] = pr_xstrdup(pr_buf_cstr(&id));
        pr_buf_clear(&id);
        pr_buf_printf(&id, "\x01%zu\x01", i);
        cmark_node *text = cmark_node_new(CMARK_NODE_TEXT);
        cmark_node_set_literal(text, pr_buf_cstr(&id));
        cmark_node_insert_before(v[i], text);
        cmark_node *close = cmark_node_next(v[i]);
        cmark_node_unlink(close);
        cmark_node_free(close);
        cmark_node_unlink(v[i]);
        cmark_node_free(v[i]);
    }
    pr_buf_free(&id);
    free(v);
    return ids;
}

/* Appends body with each marker of explicit_anchors replaced by its
 * anchor. */
static void put_body(pr_buf *out, const char *body, char *const *ids)
{
    const char *p = body, *m;
    size_t n = 0;
    if (!ids) { /* no marker: any \x01 is the page's own */
        pr_buf_puts(out, body);
        return;
    }
    while (ids[n])
        n++;
    while ((m = strchr(p, '\x01')) != NULL) {
        char *end;
        unsigned long i = strtoul(m + 1, &end, 10);
        pr_buf_put(out, p, (size_t)(m - p));
        if (end > m + 1 && *end == '\x01' && i < n) {
            pr_buf_puts(out, "<a id=\"");
            md_xml(out, ids[i]);
            pr_buf_puts(out, "\"></a>");
            p = end + 1;
        } else { /* cannot happen: the page had no \x01 of its own */
            pr_buf_putc(out, '\x01');
            p = m + 1;
        }
    }
    pr_buf_puts(out, p);
}

/* The name of table n (from 1) of the page with file stem stem:
 * "<stem>.table-<n>.csv" beside it (malloc'd). */
char *site_table_csv_name(const char *stem, size_t n)
{
    return pr_xasprintf("%s.table-%zu.csv", stem, n);
}

/* Each GFM table of the document as CSV (cmarkx.h, cmarkx_table_csv)
 * into pc->csvs, and right after the table a paragraph linking that file
 * ("CSV"). */
static void table_csvs(site_page_ctx *pc, cmark_node *root)
{
    cmark_node **tables = NULL;
    size_t n = 0;
    cmark_iter *it = cmark_iter_new(root);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *node = cmark_iter_get_node(it);
        if (ev == CMARK_EVENT_ENTER && strcmp(cmark_node_get_type_string(node), "table") == 0) {
            tables = pr_xrealloc(tables, (n + 1) * sizeof *tables);
            tables[n++] = node;
        }
    }
    cmark_iter_free(it);
    pc->csvs = n ? pr_xcalloc(n, sizeof *pc->csvs) : NULL;
    pc->ncsvs = n;
    for (size_t i = 0; i < n; i++) {
        pr_buf_init(&pc->csvs[i]);
        cmarkx_table_csv(tables[i], &pc->csvs[i]);
        char *name = site_table_csv_name(pc->stem, i + 1);
        cmark_node *para = cmark_node_new(CMARK_NODE_PARAGRAPH);
        cmark_node *link = cmark_node_new(CMARK_NODE_LINK);
        cmark_node *text = cmark_node_new(CMARK_NODE_TEXT);
        cmark_node_set_url(link, name);
        cmark_node_set_literal(text, "CSV");
        cmark_node_append_child(link, text);
        cmark_node_append_child(para, link);
        cmark_node_insert_after(tables[i], para);
        free(name);
    }
    free(tables);
}

/* The folded blocks the pages write (a machine's environment, a run set's
 * steps, the rules' JSON): an HTML block of exactly "<details><summary>TEXT
 * </summary>" or "</details>" becomes that HTML again, TEXT (Markdown text:
 * its backslash escapes undone) escaped; every other raw HTML stays dropped
 * by safe rendering.  A custom block renders its on_enter as it is. */
static void keep_details(cmark_node *root)
{
    static const char open[] = "<details><summary>", close_sum[] = "</summary>",
                      end[] = "</details>";
    cmark_node *next;
    for (cmark_node *n = cmark_node_first_child(root); n; n = next) {
        next = cmark_node_next(n);
        const char *lit = cmark_node_get_literal(n);
        if (cmark_node_get_type(n) != CMARK_NODE_HTML_BLOCK || !lit)
            continue;
        size_t len = strlen(lit);
        while (len && (lit[len - 1] == '\n' || lit[len - 1] == ' '))
            len--;
        pr_buf html = PR_BUF_INIT;
        size_t ol = sizeof open - 1, cl = sizeof close_sum - 1;
        if (len == sizeof end - 1 && memcmp(lit, end, len) == 0) {
            pr_buf_puts(&html, end);
        } else if (len > ol + cl && memcmp(lit, open, ol) == 0 &&
                   memcmp(lit + len - cl, close_sum, cl) == 0) {
            char *text = pr_xstrndup(lit + ol, len - ol - cl);
            if (!strchr(text, '<') && !strchr(text, '\n')) {
                /* "\_" is "_": undo the Markdown escapes, then HTML's. */
                char *w = text;
                for (const char *r = text; *r; r++) {
                    if (*r == '\\' && r[1] && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", r[1]))
                        r++;
                    *w++ = *r;
                }
                *w = '\0';
                pr_buf_puts(&html, open);
                md_xml(&html, text);
                pr_buf_puts(&html, close_sum);
            }
            free(text);
        }
        if (html.len) {
            cmark_node *b = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK);
            cmark_node_set_on_enter(b, pr_buf_cstr(&html));
            cmark_node_replace(n, b);
            cmark_node_free(n);
        }
        pr_buf_free(&html);
    }
}

void site_render(site_page_ctx *pc, const char *md, size_t len, const char *lang,
                 const char *css_href, const char *home_href, pr_buf *out)
{
    pr_cmarkx_doc d;
    cmarkx_parse(&d, md, len, CMARK_OPT_DEFAULT);
    pc->exts = cmarkx_extensions(&d);
    if (pc->s) {
        cmark_iter *it = cmark_iter_new(d.root);
        cmark_event_type ev;
        while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
            cmark_node *n = cmark_iter_get_node(it);
            cmark_node_type t = cmark_node_get_type(n);
            if (ev == CMARK_EVENT_ENTER && (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE))
                site_rewrite_link(pc, n);
        }
        cmark_iter_free(it);
        table_csvs(pc, d.root);
    }
    char **ids = explicit_anchors(d.root, md, len);
    cmarkx_headings(d.root, heading_cb, pc, NULL);
    keep_details(d.root);
    char *body = cmark_render_html(d.root, SITE_RENDER_OPTS, pc->exts);

    pr_buf_puts(out, "<!DOCTYPE html>\n<html lang=\"");
    md_xml(out, lang);
    pr_buf_puts(out, "\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<meta name=\"generator\" content=\"perfrepro-gen\">\n<title>");
    md_xml(out, pc->have_title && pc->title.len ? pr_buf_cstr(&pc->title) : "perfrepro");
    pr_buf_puts(out, "</title>\n");
    if (css_href) {
        pr_buf_puts(out, "<link rel=\"stylesheet\" href=\"");
        md_xml(out, css_href);
        pr_buf_puts(out, "\">\n");
    }
    if (pc->feed) {
        pr_buf_puts(out, "<link rel=\"alternate\" type=\"application/atom+xml\" href=\"");
        md_xml(out, pc->feed);
        pr_buf_puts(out, "\">\n");
    }
    pr_buf_puts(out, "</head>\n<body>\n");
    if (home_href) {
        pr_buf_puts(out, "<header><nav><a href=\"");
        md_xml(out, home_href);
        pr_buf_puts(out, "\">perfrepro</a></nav></header>\n");
    }
    pr_buf_puts(out, "<main>\n");
    put_body(out, body, ids);
    pr_buf_puts(out, "</main>\n</body>\n</html>\n");
    free(body);
    pr_fileio_strv_free(ids);
    cmarkx_free(&d);
}

void site_render_page(const char *md, size_t len, const char *lang, const char *css_href,
                      pr_buf *out)
{
    site_page_ctx pc = {NULL, "", "", NULL, PR_BUF_INIT, 0, NULL, NULL, 0, NULL};
    site_render(&pc, md, len, lang, css_href, NULL, out);
    pr_buf_free(&pc.title);
}
