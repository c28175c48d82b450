/* cmarkx: the one place that parses Markdown the way GitHub does, shared by
 * the site (site*.c) and the checker (check.c).
 *
 * Parsing: cmark-gfm with the GFM extensions table, strikethrough, autolink
 * and tagfilter attached.  Never plain cmark.  Rendering of a parsed
 * document goes through cmark_render_html with cmarkx_extensions(); the
 * default (safe) mode is kept: raw HTML is dropped, never passed through.
 *
 * Besides parsing: the plain text and GitHub anchor of a heading node, the
 * line of any node, and the small URL helpers both the site and the checker
 * need (scheme test, percent-decoding, lexical resolution of a relative
 * link against a folder).
 */
#ifndef PR_CMARKX_H
#define PR_CMARKX_H

#include <stddef.h>

#include <cmark-gfm.h>

#include "buf.h"
#include "md.h"

typedef struct pr_cmarkx_doc {
    cmark_parser *parser; /* kept for its extension list, used when rendering */
    cmark_node *root;
} pr_cmarkx_doc;

/* Parses md[0..len) with the GFM extensions attached.  options are cmark
 * parse options (CMARK_OPT_DEFAULT is right for both users).  Never fails:
 * any byte string is Markdown. */
void cmarkx_parse(pr_cmarkx_doc *d, const char *md, size_t len, int options);
void cmarkx_free(pr_cmarkx_doc *d);
/* The extensions to pass to cmark_render_html. */
cmark_llist *cmarkx_extensions(const pr_cmarkx_doc *d);

/* Appends the text content of node's descendants, as a browser's
 * textContent of the rendered HTML: text and code literals, a space for a
 * soft or hard break; image alt text is left out (an <img> has no text). */
void cmarkx_plain(cmark_node *node, pr_buf *out);
/* The same walk, for text as GitHub shows it in a table cell: an image by
 * its alt text (image_alt), and each raw HTML node or image handed to
 * dropped(ctx, node) (may be NULL) before its alt text, so that a caller can
 * say what was left out. */
typedef struct pr_cmarkx_plain_opts {
    int image_alt;
    void (*dropped)(void *ctx, cmark_node *node);
    void *ctx;
} pr_cmarkx_plain_opts;
void cmarkx_plain_opts_walk(cmark_node *node, pr_buf *out, const pr_cmarkx_plain_opts *o);

/* A GFM table node as CSV (RFC 4180, md.h's md_csv_field), appended to
 * out: a record per row (the header first), each cell's text as GitHub
 * shows it (the walk above with images by their alt text), lines ended by
 * CRLF. */
void cmarkx_table_csv(cmark_node *table, pr_buf *out);

/* The start line of node, or of its nearest ancestor that has one (the
 * autolink extension leaves its nodes without a position).  0 if none. */
int cmarkx_line(cmark_node *node);

/* 1 when node is inside a GFM table (any of its cells). */
int cmarkx_in_table(cmark_node *node);

/* The nodes of root's tree (root included) for which want(node) is 1, in
 * document order, in an array the caller frees (NULL when none); *n gets
 * how many.  Collected before the caller changes the tree, which would
 * upset an iterator. */
cmark_node **cmarkx_collect(cmark_node *root, int (*want)(cmark_node *), size_t *n);

/* Calls fn for each heading of the document, in order, with the anchor
 * GitHub gives it (with the -1, -2 suffixes of repeated headings).  The
 * callback may replace the heading node (it is not visited again).
 * anchors_out, when not NULL, receives the set of every anchor (the caller
 * frees it with md_anchors_free): the headings', then each explicit
 * anchor's id (cmarkx_explicit_anchor). */
typedef void (*cmarkx_heading_fn)(void *ctx, cmark_node *heading, const char *anchor,
                                  const char *plain);
void cmarkx_headings(cmark_node *root, cmarkx_heading_fn fn, void *ctx,
                     pr_md_anchors **anchors_out);

/* 1 when node opens an explicit anchor, the one form of raw HTML the
 * reports write (a figure's row on the audit page, which no heading can
 * name): the inline tag <a id="ID"> with the inline </a> right after it,
 * ID of lower-case ASCII letters, digits, '-' and '_' (an anchor GitHub
 * keeps, and one md_anchor leaves as it is), outside headings (which
 * have their own anchor).  id, when not NULL, gets ID appended.  The site
 * renders these two nodes as that anchor, the checker counts ID among the
 * page's anchors; other raw HTML stays dropped. */
int cmarkx_explicit_anchor(cmark_node *node, pr_buf *id);

/* Link helpers. */

/* 1 when url starts with a URI scheme ("http:", "mailto:" ...): an ASCII
 * letter, then letters, digits, '+', '-', '.', then ':'.  *scheme_len gets
 * the length of the scheme without the colon when not NULL. */
int cmarkx_has_scheme(const char *url, size_t *scheme_len);
/* Appends s[0..len) with %XX escapes decoded (an invalid escape is kept). */
void cmarkx_percent_decode(pr_buf *out, const char *s, size_t len);
/* Appends path percent-encoded for an href: unreserved characters, '/' and
 * the sub-delimiters stay, everything else (space, '%', '#', '?', non-ASCII
 * bytes) becomes %XX. */
void cmarkx_percent_encode(pr_buf *out, const char *path);
/* Resolves the relative path rel against the folder base (both relative to
 * the same root; base "" or "." is the root itself) lexically: "." and
 * empty components dropped, ".." removes one.  Returns the malloc'd
 * normalised path ("" for the root itself), or NULL when it climbs above
 * the root. */
char *cmarkx_resolve(const char *base, const char *rel);

/* For a page file name: 1 when name is README.md or README.<lang>.md (or
 * AUDIT.md, AUDIT.<lang>.md: the audit page; HISTORY, REGRESSIONS; a
 * framework's machine page PLATFORM-<name>.md: platform-<name>.html).  lang_out (when not NULL)
 * gets the malloc'd language tag: "zh-CN" for README.md, <lang> otherwise;
 * html_out (when not NULL) the malloc'd page name of the site: index.html
 * or index.<lang>.html (audit.html, audit.<lang>.html). */
int cmarkx_readme_name(const char *name, char **lang_out, char **html_out);

#endif
