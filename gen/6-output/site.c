/* site: the reports rendered to a self-contained static HTML site. */
#include "site.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cmarkx.h"
#include "base/md.h"
#include "fileio.h"

#define SITE_MARKER ".perfrepro-site"
#define SITE_FILES "files" /* where files from outside the reports folder go */
/* Safe rendering (the default of cmark-gfm 0.29: raw HTML is replaced by a
 * comment); alignment as style attributes, valid HTML5. */
#define SITE_RENDER_OPTS (CMARK_OPT_DEFAULT | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES)

typedef struct copy_job {
    char *dest; /* relative to OUT */
    char *src;  /* filesystem path */
    char *page; /* the first page linking to it (for messages) */
} copy_job;

typedef struct site {
    const char *reports, *out, *templates;
    char *abs_root, *abs_reports;
    /* Hardening: a killed site left OUT neither the old site nor the new
     * one.  The site is built into a staging folder beside OUT (unchanged
     * files hard links to OUT's: same inode and mtime) and swapped in whole
     * (pr_fileio_swapdir, as perfrepro-gen build swaps the reports); sd.stage NULL:
     * OUT is a mount point or its parent is not ours, written in place. */
    pr_fileio_swapdir sd;
    int changed;   /* staging: the new tree differs from OUT (swap it in) */
    dev_t out_dev; /* OUT, not to be crawled when it lies inside the reports */
    ino_t out_ino;
    char *reports_rel; /* reports relative to the root; "" when it is the root */
    copy_job *jobs;
    size_t njobs, jcap;
    char **written; /* every path of OUT this build produces */
    size_t nwritten, wcap;
    pr_site_stats st;
    const char *page; /* the page being rendered (for messages) */
    int failed;       /* a link that must not be published: lerr says why */
    pr_err lerr;
} site;

typedef struct page_ctx {
    site *s;              /* NULL: no link rewriting */
    const char *root_dir; /* the page's folder relative to the root */
    const char *site_dir; /* the page's folder relative to OUT ("" at the top) */
    cmark_llist *exts;
    pr_buf title;
    int have_title;
    /* Building: the page's file name without ".html" ("index.en"), and the
     * CSV of each of its tables, in order (table_csvs). */
    const char *stem;
    pr_buf *csvs;
    size_t ncsvs;
    char *feed; /* the index's Atom feed (in the page's folder), or NULL */
} page_ctx;

static void html_escape(pr_buf *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            pr_buf_puts(out, "&amp;");
            break;
        case '<':
            pr_buf_puts(out, "&lt;");
            break;
        case '>':
            pr_buf_puts(out, "&gt;");
            break;
        case '"':
            pr_buf_puts(out, "&quot;");
            break;
        default:
            pr_buf_putc(out, *s);
            break;
        }
    }
}

/* ---- links ----------------------------------------------------------- */

static void add_job(site *s, const char *dest, const char *src)
{
    if (s->njobs == s->jcap)
        s->jobs = pr_xrealloc(s->jobs, (s->jcap = s->jcap ? s->jcap * 2 : 64) * sizeof *s->jobs);
    s->jobs[s->njobs].dest = pr_xstrdup(dest);
    s->jobs[s->njobs].src = pr_xstrdup(src);
    s->jobs[s->njobs].page = pr_xstrdup(s->page);
    s->njobs++;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}

/* Hardening: a log named x.html (or .svg, .js, .xhtml, ...) was copied under
 * its own name and served as an active page from the site: stored XSS.
 * Every copied file gets a name a web server serves as inert content: its
 * own when it ends in one of these (lower case), else NAME.txt.  The charts
 * gen draws into the reports (*.svg, *.png inside the reports folder) and
 * its Atom feeds (*.atom there) keep their names.  Returns a malloc'd dest. */
static char *inert_dest(const char *dest, int in_reports)
{
    static const char *const inert[] = {".txt", ".log", ".json", ".csv", ".png", NULL};
    for (const char *const *e = inert; *e; e++)
        if (ends_with(dest, *e))
            return pr_xstrdup(dest);
    if (in_reports && (ends_with(dest, ".svg") || ends_with(dest, ".atom")))
        return pr_xstrdup(dest);
    return pr_xasprintf("%s.txt", dest);
}

/* The path inside the reports folder of target (relative to the root), or
 * NULL when target is outside it.  Points into target. */
static const char *in_reports(const site *s, const char *target)
{
    size_t n = strlen(s->reports_rel);
    if (n == 0)
        return target;
    if (strncmp(target, s->reports_rel, n) != 0)
        return NULL;
    if (target[n] == '\0')
        return target + n;
    return target[n] == '/' ? target + n + 1 : NULL;
}

/* The destination in OUT of the relative link path (decoded), or NULL when
 * it cannot be resolved.  Queues the copy of a plain file. */
static char *link_dest(page_ctx *pc, const char *path)
{
    site *s = pc->s;
    char *target = cmarkx_resolve(pc->root_dir, path);
    if (!target)
        return NULL;
    char *fs = *target ? pr_fileio_path_join(s->abs_root, target) : pr_xstrdup(s->abs_root);
    const char *rep = in_reports(s, target);
    char *dest = NULL;
    struct stat st;
    int found = stat(fs, &st) == 0;
    if (found && S_ISDIR(st.st_mode)) {
        char *readme = pr_fileio_path_join(fs, "README.md");
        if (rep && pr_fileio_is_file(readme))
            dest = *rep ? pr_fileio_path_join(rep, "index.html") : pr_xstrdup("index.html");
        free(readme);
    } else if (found && S_ISREG(st.st_mode)) {
        char *html = NULL;
        const char *base = strrchr(target, '/');
        base = base ? base + 1 : target;
        if (rep && cmarkx_readme_name(base, NULL, &html)) {
            char *dir = pr_fileio_path_dirname(rep);
            dest = pr_fileio_path_join(dir, html);
            free(dir);
            free(html);
        } else {
            char *plain = rep ? pr_xstrdup(rep) : pr_xasprintf(SITE_FILES "/%s", target);
            dest = inert_dest(plain, rep != NULL);
            free(plain);
            add_job(s, dest, fs);
        }
    } else if (found && !s->failed) {
        /* A FIFO blocks the copy, a device never ends: refused, not skipped,
         * so that nobody wonders where the file went. */
        s->failed = 1;
        pr_err_set(&s->lerr, s->page, 0, 0, NULL, "link '%s': %s is %s, not a regular file", path,
                   fs, pr_fileio_mode_name(st.st_mode));
    }
    free(fs);
    free(target);
    return dest;
}

static void rewrite_link(page_ctx *pc, cmark_node *n)
{
    const char *url = cmark_node_get_url(n);
    if (!url || !*url || url[0] == '#' || cmarkx_has_scheme(url, NULL))
        return;
    if (url[0] == '/') {
        pc->s->st.unresolved++;
        return;
    }
    size_t plen = strcspn(url, "?#");
    pr_buf path = PR_BUF_INIT;
    cmarkx_percent_decode(&path, url, plen);
    char *dest = plen ? link_dest(pc, pr_buf_cstr(&path)) : NULL;
    if (dest) {
        char *rel = pr_fileio_path_relative(pc->site_dir, dest);
        pr_buf nu = PR_BUF_INIT;
        cmarkx_percent_encode(&nu, rel);
        pr_buf_puts(&nu, url + plen);
        cmark_node_set_url(n, pr_buf_cstr(&nu));
        pr_buf_free(&nu);
        free(rel);
        free(dest);
    } else if (plen) {
        pc->s->st.unresolved++;
    }
    pr_buf_free(&path);
}

/* ---- one page -------------------------------------------------------- */

/* Replaces the heading by a custom block holding its HTML with the id:
 * cmark's renderer writes no ids.  The heading's content is rendered by
 * cmark itself (safe), only the id attribute is added. */
static void heading_cb(void *ctx, cmark_node *h, const char *anchor, const char *plain)
{
    page_ctx *pc = ctx;
    if (!pc->have_title) {
        pr_buf_puts(&pc->title, plain);
        pc->have_title = 1;
    }
    char *html = cmark_render_html(h, SITE_RENDER_OPTS, pc->exts);
    pr_buf b = PR_BUF_INIT;
    /* html is "<hN>...</hN>\n": the id goes after "<hN". */
    pr_buf_put(&b, html, 3);
    pr_buf_puts(&b, " id=\"");
    html_escape(&b, anchor);
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
    size_t n = 0, cap = 0;
    cmark_node **v = NULL;
    cmark_iter *it = cmark_iter_new(root);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *c = cmark_iter_get_node(it);
        if (ev == CMARK_EVENT_ENTER && cmarkx_explicit_anchor(c, NULL)) {
            if (n == cap)
                v = pr_xrealloc(v, (cap = cap ? cap * 2 : 32) * sizeof *v);
            v[n++] = c;
        }
    }
    cmark_iter_free(it);
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
            html_escape(out, ids[i]);
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
static char *table_csv_name(const char *stem, size_t n)
{
    return pr_xasprintf("%s.table-%zu.csv", stem, n);
}

/* Each GFM table of the document as CSV (cmarkx.h, cmarkx_table_csv)
 * into pc->csvs, and right after the table a paragraph linking that file
 * ("CSV"). */
static void table_csvs(page_ctx *pc, cmark_node *root)
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
        char *name = table_csv_name(pc->stem, i + 1);
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
                html_escape(&html, text);
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

static void render(page_ctx *pc, const char *md, size_t len, const char *lang, const char *css_href,
                   const char *home_href, pr_buf *out)
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
                rewrite_link(pc, n);
        }
        cmark_iter_free(it);
        table_csvs(pc, d.root);
    }
    char **ids = explicit_anchors(d.root, md, len);
    cmarkx_headings(d.root, heading_cb, pc, NULL);
    keep_details(d.root);
    char *body = cmark_render_html(d.root, SITE_RENDER_OPTS, pc->exts);

    pr_buf_puts(out, "<!DOCTYPE html>\n<html lang=\"");
    html_escape(out, lang);
    pr_buf_puts(out, "\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<meta name=\"generator\" content=\"perfrepro-gen\">\n<title>");
    html_escape(out, pc->have_title && pc->title.len ? pr_buf_cstr(&pc->title) : "perfrepro");
    pr_buf_puts(out, "</title>\n");
    if (css_href) {
        pr_buf_puts(out, "<link rel=\"stylesheet\" href=\"");
        html_escape(out, css_href);
        pr_buf_puts(out, "\">\n");
    }
    if (pc->feed) {
        pr_buf_puts(out, "<link rel=\"alternate\" type=\"application/atom+xml\" href=\"");
        html_escape(out, pc->feed);
        pr_buf_puts(out, "\">\n");
    }
    pr_buf_puts(out, "</head>\n<body>\n");
    if (home_href) {
        pr_buf_puts(out, "<header><nav><a href=\"");
        html_escape(out, home_href);
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
    page_ctx pc = {NULL, "", "", NULL, PR_BUF_INIT, 0, NULL, NULL, 0, NULL};
    render(&pc, md, len, lang, css_href, NULL, out);
    pr_buf_free(&pc.title);
}

/* ---- the build ------------------------------------------------------- */

/* Notes that rel is a file of this build (not to be pruned). */
static void record_written(site *s, const char *rel)
{
    if (s->nwritten == s->wcap)
        s->written =
            pr_xrealloc(s->written, (s->wcap = s->wcap ? s->wcap * 2 : 64) * sizeof *s->written);
    s->written[s->nwritten++] = pr_xstrdup(rel);
}

/* Staging: the path of rel in the staging tree (malloc'd), its folder
 * created; NULL with err set when it cannot be. */
static char *stage_path(site *s, const char *rel, pr_err *err)
{
    char *dst = pr_fileio_path_join(s->sd.stage, rel);
    char *dir = pr_fileio_path_dirname(dst);
    if (pr_fileio_mkdirs(dir, err) < 0) {
        free(dst);
        dst = NULL;
    }
    free(dir);
    return dst;
}

/* Writes rel of the site: into the staging tree (a hard link to OUT's file
 * when it holds data already), or in place only when it changed.  No fsync
 * (it made a fresh 1,000-page build ten times slower: bench/site_bench.sh);
 * readers still never see a part of a file. */
static int write_out(site *s, const char *rel, const void *data, size_t len, pr_err *err)
{
    record_written(s, rel);
    char *path = pr_fileio_path_join(s->out, rel);
    char *dst = NULL;
    int rc = -1, changed = 0;
    if (s->sd.stage) {
        if ((dst = stage_path(s, rel, err)))
            rc = pr_fileio_stage_write(path, dst, data, len, &changed, err);
    } else {
        changed = !pr_fileio_equals(path, data, len);
        rc = changed ? pr_fileio_write_if_changed(path, data, len, err) : 0;
    }
    if (rc == 0 && changed) {
        s->st.written++;
        s->changed = 1;
    }
    free(dst);
    free(path);
    return rc;
}

/* Copies the file src to rel of the site, streaming, as write_out writes. */
static int copy_out(site *s, const char *rel, const char *src, pr_err *err)
{
    record_written(s, rel);
    char *path = pr_fileio_path_join(s->out, rel);
    char *dst = NULL;
    int rc = -1, changed = 0;
    if (!s->sd.stage)
        rc = pr_fileio_copy_if_changed(src, path, &changed, err);
    else if ((dst = stage_path(s, rel, err)))
        rc = pr_fileio_stage_copy(src, path, dst, &changed, err);
    if (rc == 0 && changed) {
        s->st.written++;
        s->changed = 1;
    }
    free(dst);
    free(path);
    return rc;
}

/* How deep the walk follows folders: linked folders may loop. */
#define SITE_MAX_DEPTH 32

/* Appends the README*.md pages under dir to pages.  A page or folder that
 * resolves outside the root (a symbolic link), or a page that is a special
 * file, is an error: it would be published. */
static int collect_pages(site *s, const char *dir, const char *rel, int depth, char ***pages,
                         size_t *n, size_t *cap, pr_err *err)
{
    char **names;
    size_t count;
    if (depth > SITE_MAX_DEPTH)
        return pr_err_set(err, dir, 0, 0, NULL, "more than %d folders deep (a symbolic link loop?)",
                          SITE_MAX_DEPTH);
    if (pr_fileio_list_dir(dir, &names, &count, err) < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        const char *name = names[i];
        if (name[0] == '.')
            continue;
        char *fs = pr_fileio_path_join(dir, name);
        char *r = *rel ? pr_fileio_path_join(rel, name) : pr_xstrdup(name);
        int page = cmarkx_readme_name(name, NULL, NULL);
        struct stat st;
        int found = lstat(fs, &st) == 0;
        if (found && S_ISLNK(st.st_mode)) {
            found = stat(fs, &st) == 0;
            if (found && (S_ISDIR(st.st_mode) || page) &&
                pr_fileio_path_within(s->abs_root, fs, err) < 0)
                rc = -1;
        }
        if (rc < 0) {
            /* err says where it leads */
        } else if (found && S_ISDIR(st.st_mode)) {
            if (st.st_dev != s->out_dev || st.st_ino != s->out_ino) /* not our own output */
                rc = collect_pages(s, fs, r, depth + 1, pages, n, cap, err);
        } else if (found && page && !S_ISREG(st.st_mode)) {
            rc = pr_err_set(err, fs, 0, 0, NULL, "is %s, not a regular file",
                            pr_fileio_mode_name(st.st_mode));
        } else if (found && page) {
            if (*n == *cap)
                *pages = pr_xrealloc(*pages, (*cap = *cap ? *cap * 2 : 64) * sizeof **pages);
            (*pages)[(*n)++] = r;
            r = NULL;
        }
        free(r);
        free(fs);
    }
    pr_fileio_strv_free(names);
    return rc;
}

static int cmp_job(const void *a, const void *b)
{
    return strcmp(((const copy_job *)a)->dest, ((const copy_job *)b)->dest);
}

static int build_page(site *s, const char *rel, pr_err *err)
{
    char *src = pr_fileio_path_join(s->reports, rel);
    pr_buf md = PR_BUF_INIT, html = PR_BUF_INIT;
    int rc = pr_fileio_read_file(src, &md, err);
    if (rc == 0) {
        const char *base = strrchr(rel, '/');
        base = base ? base + 1 : rel;
        char *lang = NULL, *name = NULL;
        cmarkx_readme_name(base, &lang, &name);
        char *site_dir = pr_fileio_path_dirname(rel);
        if (strcmp(site_dir, ".") == 0)
            site_dir[0] = '\0';
        char *root_dir = cmarkx_resolve(s->reports_rel, site_dir);
        char *css = pr_fileio_path_relative(site_dir, "style.css");
        /* The top page in the page's language: "index" and the page's
         * language suffix ("history.en.html" -> "index.en.html"). */
        char *home_name = pr_xasprintf("index%s", strchr(name, '.'));
        char *home = pr_fileio_path_relative(site_dir, home_name);
        free(home_name);
        /* The page's stem names its tables' CSV files. */
        char *stem = pr_xstrndup(name, strlen(name) - strlen(".html"));
        page_ctx pc = {s, root_dir, site_dir, NULL, PR_BUF_INIT, 0, stem, NULL, 0, NULL};
        /* The index links the regressions' feed of its language in its head
         * (page_history.h: regressions.atom, regressions.en.atom). */
        if (!site_dir[0] && !strncmp(name, "index.", 6)) {
            char *feed = pr_xasprintf("regressions%s", name + 5), *at = strrchr(feed, '.');
            strcpy(at, ".atom"); /* "index.en.html" -> "regressions.en.atom" */
            char *fs = pr_fileio_path_join(s->reports, feed);
            if (pr_fileio_is_file(fs))
                pc.feed = feed;
            else
                free(feed);
            free(fs);
        }
        s->page = src;
        render(&pc, pr_buf_cstr(&md), md.len, lang, css, home, &html);
        s->page = NULL;
        char *dest = pr_fileio_path_join(site_dir, name);
        rc = write_out(s, dest, html.data, html.len, err);
        s->st.pages++;
        for (size_t i = 0; i < pc.ncsvs; i++) {
            char *csv = table_csv_name(stem, i + 1), *cdest = pr_fileio_path_join(site_dir, csv);
            if (rc == 0)
                rc = write_out(s, cdest, pc.csvs[i].data, pc.csvs[i].len, err);
            pr_buf_free(&pc.csvs[i]);
            free(cdest);
            free(csv);
        }
        free(pc.csvs);
        free(stem);
        free(dest);
        pr_buf_free(&pc.title);
        free(pc.feed);
        free(home);
        free(css);
        free(root_dir);
        free(site_dir);
        free(lang);
        free(name);
    }
    if (rc < 0 && err->msg[0] == '\0')
        pr_err_set(err, src, 0, 0, NULL, "cannot render");
    pr_buf_free(&md);
    pr_buf_free(&html);
    free(src);
    return rc;
}

/* Staging: counts the files under OUT/rel that this build did not produce
 * (they go with the swap), and notes when the new tree lacks a folder of
 * OUT: either makes the trees differ. */
static void count_stale(site *s, const char *rel)
{
    char *dir = *rel ? pr_fileio_path_join(s->out, rel) : pr_xstrdup(s->out);
    char **names;
    pr_err ignored;
    if (pr_fileio_list_dir(dir, &names, NULL, &ignored) == 0) {
        for (char **p = names; *p; p++) {
            char *r = *rel ? pr_fileio_path_join(rel, *p) : pr_xstrdup(*p);
            char *fs = pr_fileio_path_join(dir, *p);
            char *staged = pr_fileio_path_join(s->sd.stage, r);
            struct stat st, ss;
            if (lstat(fs, &st) == 0 && S_ISDIR(st.st_mode)) {
                count_stale(s, r);
                if (lstat(staged, &ss) < 0 || !S_ISDIR(ss.st_mode))
                    s->changed = 1;
            } else if (!bsearch(&r, s->written, s->nwritten, sizeof *s->written,
                                pr_fileio_strv_cmp)) {
                s->st.removed++;
                s->changed = 1;
            }
            free(staged);
            free(fs);
            free(r);
        }
        pr_fileio_strv_free(names);
    }
    free(dir);
}

/* In place: removes the files under OUT/rel that this build did not
 * produce, and the folders left empty. */
static void prune(site *s, const char *rel)
{
    char *dir = *rel ? pr_fileio_path_join(s->out, rel) : pr_xstrdup(s->out);
    char **names;
    pr_err ignored;
    if (pr_fileio_list_dir(dir, &names, NULL, &ignored) == 0) {
        for (char **p = names; *p; p++) {
            char *r = *rel ? pr_fileio_path_join(rel, *p) : pr_xstrdup(*p);
            char *fs = pr_fileio_path_join(dir, *p);
            struct stat st;
            if (lstat(fs, &st) == 0 && S_ISDIR(st.st_mode)) {
                prune(s, r);
                rmdir(fs); /* fails, as it should, when not empty */
            } else if (strcmp(r, SITE_MARKER) != 0 &&
                       !bsearch(&r, s->written, s->nwritten, sizeof *s->written,
                                pr_fileio_strv_cmp)) {
                if (unlink(fs) == 0)
                    s->st.removed++;
            }
            free(fs);
            free(r);
        }
        pr_fileio_strv_free(names);
    }
    free(dir);
}

/* Checks that OUT may be replaced (a site's, or empty, or new), then opens
 * its staging folder (removing what killed sites left beside it). */
static int prepare_out(site *s, int *had_marker, pr_err *err)
{
    struct stat st;
    *had_marker = 0;
    if (!pr_fileio_is_dir(s->out) && stat(s->out, &st) == 0)
        return pr_err_set(err, s->out, 0, 0, NULL, "exists and is not a folder");
    char *marker = pr_fileio_path_join(s->out, SITE_MARKER);
    *had_marker = pr_fileio_is_file(marker);
    free(marker);
    if (!*had_marker && pr_fileio_is_dir(s->out)) {
        char **names;
        size_t n;
        if (pr_fileio_list_dir(s->out, &names, &n, err) < 0)
            return -1;
        pr_fileio_strv_free(names);
        if (n > 0)
            return pr_err_set(
                err, s->out, 0, 0, NULL,
                "is not empty and was not written by perfrepro-gen site (no " SITE_MARKER
                "): refusing to write there");
    }
    if (pr_fileio_swapdir_open(&s->sd, s->out, err) < 0)
        return -1;
    /* OUT, or the staging folder while OUT is new (its name starts with a
     * dot: not crawled either). */
    const char *self = s->sd.real ? s->sd.real : s->sd.stage;
    if (stat(self, &st) < 0)
        return pr_err_errno(err, self, "cannot stat");
    s->out_dev = st.st_dev;
    s->out_ino = st.st_ino;
    return 0;
}

int site_build(const pr_site_opts *o, pr_site_stats *stats, pr_err *err)
{
    site s;
    memset(&s, 0, sizeof s);
    s.reports = o->reports ? o->reports : "reports";
    s.out = o->out ? o->out : "build/site";
    s.templates = o->templates ? o->templates : "templates";
    err->msg[0] = '\0';
    char **pages = NULL;
    size_t npages = 0, pcap = 0;
    pr_buf css = PR_BUF_INIT;
    int rc = -1, had_marker = 0;

    s.abs_reports = realpath(s.reports, NULL);
    if (!s.abs_reports || !pr_fileio_is_dir(s.abs_reports)) {
        pr_err_set(err, s.reports, 0, 0, NULL, "not a folder of reports");
        goto out;
    }
    if (o->root) {
        s.abs_root = realpath(o->root, NULL);
        if (!s.abs_root || !pr_fileio_is_dir(s.abs_root)) {
            pr_err_set(err, o->root, 0, 0, NULL, "the root is not a folder");
            goto out;
        }
    } else {
        s.abs_root = pr_fileio_path_dirname(s.abs_reports);
    }
    size_t rl = strlen(s.abs_root);
    if (strcmp(s.abs_reports, s.abs_root) == 0) {
        s.reports_rel = pr_xstrdup("");
    } else if (strcmp(s.abs_root, "/") == 0) {
        s.reports_rel = pr_xstrdup(s.abs_reports + 1);
    } else if (strncmp(s.abs_reports, s.abs_root, rl) == 0 && s.abs_reports[rl] == '/') {
        s.reports_rel = pr_xstrdup(s.abs_reports + rl + 1);
    } else {
        pr_err_set(err, s.reports, 0, 0, NULL, "not inside the root %s", s.abs_root);
        goto out;
    }
    char *css_path = pr_fileio_path_join(s.templates, "site/style.css");
    int css_rc = pr_fileio_check_regular_within(s.templates, css_path, err);
    if (css_rc == 0)
        css_rc = pr_fileio_read_file(css_path, &css, err);
    free(css_path);
    if (css_rc < 0 || prepare_out(&s, &had_marker, err) < 0)
        goto out;
    if (collect_pages(&s, s.reports, "", 0, &pages, &npages, &pcap, err) < 0)
        goto out;
    pr_qsort(pages, npages, sizeof *pages, pr_fileio_strv_cmp);
    for (size_t i = 0; i < npages; i++) {
        if (build_page(&s, pages[i], err) < 0)
            goto out;
        if (s.failed) {
            *err = s.lerr;
            goto out;
        }
    }
    /* Copy the linked files, each once, streaming (logs can be large). */
    pr_qsort(s.jobs, s.njobs, sizeof *s.jobs, cmp_job);
    for (size_t i = 0; i < s.njobs; i++) {
        const copy_job *j = &s.jobs[i], *prev = i > 0 ? &s.jobs[i - 1] : NULL;
        if (prev && strcmp(j->dest, prev->dest) == 0) {
            if (strcmp(j->src, prev->src) == 0)
                continue;
            /* "x" and "x.txt" both become x.txt */
            pr_err_set(err, j->page, 0, 0, NULL, "%s and %s would both be published as %s",
                       prev->src, j->src, j->dest);
            goto out;
        }
        /* Hardening: what a link leads to must stay inside the root. */
        if (pr_fileio_path_within(s.abs_root, j->src, err) < 0) {
            pr_err_prefix(err, "%s: refusing to publish a link", j->page);
            goto out;
        }
        if (copy_out(&s, j->dest, j->src, err) < 0)
            goto out;
        s.st.files++;
    }
    if (write_out(&s, "style.css", css.data, css.len, err) < 0)
        goto out;
    static const char marker[] = "Generated by perfrepro-gen site: every file here is rewritten "
                                 "from the reports; files no longer produced are removed.\n";
    if (write_out(&s, SITE_MARKER, marker, sizeof marker - 1, err) < 0)
        goto out;
    pr_qsort(s.written, s.nwritten, sizeof *s.written, pr_fileio_strv_cmp);
    if (s.sd.stage) {
        if (s.sd.real)
            count_stale(&s, "");
        /* Nothing changed: OUT stays as it is (the staging tree goes). */
        if ((s.changed || !s.sd.real) && pr_fileio_swapdir_swap(&s.sd, "site", err) < 0)
            goto out;
    } else if (had_marker) {
        prune(&s, "");
    }
    rc = 0;
out:
    pr_fileio_swapdir_free(&s.sd); /* the previous site, or one given up */
    if (stats)
        *stats = s.st;
    for (size_t i = 0; i < npages; i++)
        free(pages[i]);
    free(pages);
    for (size_t i = 0; i < s.njobs; i++) {
        free(s.jobs[i].dest);
        free(s.jobs[i].src);
        free(s.jobs[i].page);
    }
    free(s.jobs);
    for (size_t i = 0; i < s.nwritten; i++)
        free(s.written[i]);
    free(s.written);
    pr_buf_free(&css);
    free(s.abs_root);
    free(s.abs_reports);
    free(s.reports_rel);
    return rc;
}
