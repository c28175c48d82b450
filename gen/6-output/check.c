/* check: link and content checker of the generated Markdown reports. */
#include "check.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/cmarkx.h"
#include "base/md.h"
#include "checkpage.h"
#include "fileio.h"

/* Parse options: NORMALIZE joins adjacent text nodes, so a placeholder is
 * never split over two nodes. */
#define CHECK_PARSE_OPTS (CMARK_OPT_DEFAULT | CMARK_OPT_NORMALIZE)

static const char *const kind_names[PR_CHECK_NKINDS] = {
    "missing-file",        "missing-anchor", "empty-target",
    "placeholder",         "no-alt",         "absolute-path",
    "outside-root",        "bad-url",        "special-file",
    "visible-escape",      "empty-row",      "empty-table",
    "inapplicable-column",
};

const char *check_kind_name(pr_check_kind k)
{
    return (unsigned)k < PR_CHECK_NKINDS ? kind_names[k] : "unknown";
}

void check_format(const pr_check_problem *p, pr_buf *out)
{
    if (p->line > 0)
        pr_buf_printf(out, "%s:%d: %s", p->file, p->line, p->msg);
    else
        pr_buf_printf(out, "%s: %s", p->file, p->msg);
}

void check_result_free(pr_check_result *r)
{
    for (size_t i = 0; i < r->nproblems; i++) {
        free(r->problems[i].file);
        free(r->problems[i].msg);
    }
    free(r->problems);
    memset(r, 0, sizeof *r);
}

/* ---- anchors of the pages, by path relative to the root ---------------- */

typedef struct anchor_slot {
    char *path;
    pr_md_anchors *anchors; /* NULL: the file could not be read */
} anchor_slot;

typedef struct anchor_map {
    anchor_slot *v;
    size_t n, cap; /* cap is 0 or a power of two */
} anchor_map;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static anchor_slot *map_find(anchor_map *m, const char *path)
{
    if (!m->cap)
        return NULL;
    for (size_t i = hash_str(path) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->v[i].path)
            return NULL;
        if (strcmp(m->v[i].path, path) == 0)
            return &m->v[i];
    }
}

static void map_put(anchor_map *m, char *path, pr_md_anchors *anchors)
{
    if (2 * (m->n + 1) > m->cap) {
        anchor_map g = {pr_xcalloc(m->cap ? m->cap * 2 : 64, sizeof(anchor_slot)), 0,
                        m->cap ? m->cap * 2 : 64};
        for (size_t i = 0; i < m->cap; i++)
            if (m->v[i].path)
                map_put(&g, m->v[i].path, m->v[i].anchors);
        free(m->v);
        *m = g;
    }
    size_t i = hash_str(path) & (m->cap - 1);
    while (m->v[i].path)
        i = (i + 1) & (m->cap - 1);
    m->v[i].path = path;
    m->v[i].anchors = anchors;
    m->n++;
}

static void map_free(anchor_map *m)
{
    for (size_t i = 0; i < m->cap; i++) {
        free(m->v[i].path);
        md_anchors_free(m->v[i].anchors);
    }
    free(m->v);
}

/* ---- the run ------------------------------------------------------------ */

typedef struct checker {
    const pr_check_opts *o;
    pr_check_result *r;
    char *abs_root;     /* realpath of the root */
    char *reports_rel;  /* the reports folder relative to the root ("" if it is) */
    anchor_map anchors; /* every page parsed so far, and link targets */
    /* the page being checked */
    const char *page_file; /* as printed */
    char *page_dir;        /* its folder relative to the root */
    pr_md_anchors *page_anchors;
} checker;

static void add_problem(checker *c, pr_check_kind kind, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add_problem(checker *c, pr_check_kind kind, int line, const char *fmt, ...)
{
    pr_check_result *r = c->r;
    if (r->nproblems == r->cap)
        r->problems =
            pr_xrealloc(r->problems, (r->cap = r->cap ? r->cap * 2 : 16) * sizeof *r->problems);
    pr_buf msg = PR_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    pr_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    pr_check_problem *p = &r->problems[r->nproblems++];
    p->kind = kind;
    p->file = pr_xstrdup(c->page_file);
    p->line = line;
    p->msg = pr_buf_detach(&msg);
}

/* The anchors of the Markdown file at path (relative to the root), parsed
 * once.  NULL when it cannot be read. */
static pr_md_anchors *anchors_of(checker *c, const char *path)
{
    anchor_slot *s = map_find(&c->anchors, path);
    if (s)
        return s->anchors;
    char *fs = pr_fileio_path_join(c->abs_root, path);
    pr_buf md = PR_BUF_INIT;
    pr_err ignored;
    pr_md_anchors *a = NULL;
    /* A page linked only through a symbolic link to outside is not read. */
    if (pr_fileio_check_regular_within(c->abs_root, fs, &ignored) == 0 &&
        pr_fileio_read_file(fs, &md, &ignored) == 0) {
        pr_cmarkx_doc d;
        cmarkx_parse(&d, pr_buf_cstr(&md), md.len, CHECK_PARSE_OPTS);
        cmarkx_headings(d.root, NULL, NULL, &a);
        cmarkx_free(&d);
    }
    pr_buf_free(&md);
    free(fs);
    map_put(&c->anchors, pr_xstrdup(path), a);
    return a;
}

static int lower_eq(const char *s, size_t n, const char *lit)
{
    if (strlen(lit) != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch - 'A' + 'a');
        if (ch != lit[i])
            return 0;
    }
    return 1;
}

static int host_char(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '-' || ch == '.' || ch == '_' || ch == '~' || ch == '%' || ch >= 0x80;
}

/* NULL when url (with the scheme http or https) is well formed, else what
 * is wrong. */
static const char *http_problem(const char *url, size_t scheme_len)
{
    for (const unsigned char *p = (const unsigned char *)url; *p; p++)
        if (*p <= 0x20 || *p == 0x7f || *p == '\\' || *p == '<' || *p == '>' || *p == '"')
            return "contains a space, control character or one of \\ < > \"";
    const char *a = url + scheme_len + 1;
    if (strncmp(a, "//", 2) != 0)
        return "has no //host after the scheme";
    a += 2;
    size_t alen = strcspn(a, "/?#");
    const char *at = memchr(a, '@', alen);
    if (at) { /* user info: skip it */
        alen -= (size_t)(at + 1 - a);
        a = at + 1;
    }
    if (alen == 0)
        return "has an empty host";
    size_t hlen = alen;
    if (a[0] == '[') {
        const char *close = memchr(a, ']', alen);
        if (!close)
            return "has an unclosed [IPv6] host";
        for (const char *p = a + 1; p < close; p++)
            if (!strchr("0123456789abcdefABCDEF:.", *p))
                return "has a malformed [IPv6] host";
        hlen = (size_t)(close + 1 - a);
    } else {
        const char *colon = memchr(a, ':', alen);
        if (colon)
            hlen = (size_t)(colon - a);
        if (hlen == 0)
            return "has an empty host";
        for (size_t i = 0; i < hlen; i++)
            if (!host_char((unsigned char)a[i]))
                return "has a host with characters a host cannot have";
    }
    if (hlen < alen) {
        if (a[hlen] != ':' || hlen + 1 == alen)
            return "has a malformed port";
        for (size_t i = hlen + 1; i < alen; i++)
            if (a[i] < '0' || a[i] > '9')
                return "has a malformed port";
    }
    return NULL;
}

static void check_fragment(checker *c, int line, const char *url, const char *frag,
                           const char *target_desc, pr_md_anchors *anchors)
{
    if (!*frag) {
        add_problem(c, PR_CHECK_EMPTY_TARGET, line, "empty fragment in link '%s'", url);
        return;
    }
    pr_buf dec = PR_BUF_INIT;
    cmarkx_percent_decode(&dec, frag, strlen(frag));
    if (!anchors || !md_anchors_has(anchors, pr_buf_cstr(&dec)))
        add_problem(c, PR_CHECK_MISSING_ANCHOR, line,
                    "link '%s': no heading or explicit anchor of %s produces #%s", url, target_desc,
                    pr_buf_cstr(&dec));
    pr_buf_free(&dec);
}

static void check_url(checker *c, cmark_node *node, int is_image)
{
    const char *url = cmark_node_get_url(node);
    int line = cmarkx_line(node);
    const char *what = is_image ? "image" : "link";
    c->r->nlinks++;
    if (!url || !*url) {
        add_problem(c, PR_CHECK_EMPTY_TARGET, line, "empty %s target", what);
        return;
    }
    size_t slen;
    if (cmarkx_has_scheme(url, &slen)) {
        if (lower_eq(url, slen, "http") || lower_eq(url, slen, "https")) {
            const char *why = http_problem(url, slen);
            if (why)
                add_problem(c, PR_CHECK_BAD_URL, line, "%s '%s' is not a valid URL: it %s", what,
                            url, why);
        } else if (lower_eq(url, slen, "mailto")) {
            const char *addr = url + slen + 1;
            const char *at = strchr(addr, '@');
            if (!at || at == addr || !at[1] || strpbrk(addr, " \t\r\n<>\"\\"))
                add_problem(c, PR_CHECK_BAD_URL, line, "%s '%s' is not a valid mailto: URL", what,
                            url);
        } else {
            add_problem(c, PR_CHECK_BAD_URL, line,
                        "%s '%s' has the scheme '%.*s': only http, https and mailto are allowed",
                        what, url, (int)slen, url);
        }
        return;
    }
    if (url[0] == '/') {
        add_problem(c, PR_CHECK_ABSOLUTE_PATH, line,
                    "%s '%s' is an absolute path: use a path relative to the page", what, url);
        return;
    }
    const char *hash = strchr(url, '#');
    size_t plen = hash ? (size_t)(hash - url) : strlen(url);
    const char *q = memchr(url, '?', plen);
    if (q)
        plen = (size_t)(q - url);
    const char *frag = hash ? hash + 1 : NULL;
    if (plen == 0) { /* "#frag" or "?x#frag": this page */
        if (frag)
            check_fragment(c, line, url, frag, "this page", c->page_anchors);
        return;
    }
    pr_buf path = PR_BUF_INIT;
    cmarkx_percent_decode(&path, url, plen);
    char *target = cmarkx_resolve(c->page_dir, pr_buf_cstr(&path));
    pr_buf_free(&path);
    if (!target) {
        add_problem(c, PR_CHECK_OUTSIDE_ROOT, line, "%s '%s' climbs above the repository root",
                    what, url);
        return;
    }
    char *fs = pr_fileio_path_join(c->abs_root, target);
    struct stat st;
    pr_err ignored;
    if (stat(fs, &st) != 0) {
        add_problem(c, PR_CHECK_MISSING_FILE, line, "%s '%s': no such file (%s)", what, url,
                    *target ? target : ".");
    } else if (pr_fileio_path_within(c->abs_root, fs, &ignored) < 0) {
        /* Hardening: a committed symbolic link to /etc/shadow passed, and
         * the site published what it pointed to. */
        add_problem(c, PR_CHECK_OUTSIDE_ROOT, line,
                    "%s '%s' resolves outside the repository root (a symbolic link?)", what, url);
    } else if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        add_problem(c, PR_CHECK_SPECIAL_FILE, line, "%s '%s' is %s, not a regular file", what, url,
                    pr_fileio_mode_name(st.st_mode));
    } else if (frag) {
        size_t tl = strlen(target);
        if (S_ISREG(st.st_mode) && tl > 3 && strcmp(target + tl - 3, ".md") == 0) {
            check_fragment(c, line, url, frag, target, anchors_of(c, target));
        } else if (S_ISDIR(st.st_mode)) {
            /* GitHub shows the folder's README.md: its headings count. */
            char *readme = pr_fileio_path_join(target, "README.md");
            char *rfs = pr_fileio_path_join(c->abs_root, readme);
            if (pr_fileio_is_file(rfs))
                check_fragment(c, line, url, frag, readme, anchors_of(c, readme));
            free(rfs);
            free(readme);
        } else if (!*frag) {
            add_problem(c, PR_CHECK_EMPTY_TARGET, line, "empty fragment in link '%s'", url);
        }
        /* A fragment into another kind of file (#L280 of a log) is not
         * checked. */
    }
    free(fs);
    free(target);
}

static int word_char(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

static void check_placeholders(checker *c, cmark_node *text)
{
    static const char *const words[] = {"TODO", "XXX", "TBD"};
    const char *lit = cmark_node_get_literal(text);
    if (!lit)
        return;
    for (const char *p = lit; *p; p++) {
        if (*p != 'T' && *p != 'X')
            continue;
        if (p > lit && word_char((unsigned char)p[-1]))
            continue;
        for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
            size_t n = strlen(words[w]);
            if (strncmp(p, words[w], n) == 0 && !word_char((unsigned char)p[n])) {
                add_problem(c, PR_CHECK_PLACEHOLDER, cmarkx_line(text),
                            "leftover placeholder %s in text (a state belongs in a table cell; "
                            "to name the word, write it as code: `%s`)",
                            words[w], words[w]);
                p += n - 1;
                break;
            }
        }
    }
}

static void check_alt(checker *c, cmark_node *image)
{
    pr_buf alt = PR_BUF_INIT;
    for (cmark_node *ch = cmark_node_first_child(image); ch; ch = cmark_node_next(ch)) {
        /* alt text is the text of every descendant, nested images included */
        const char *lit = cmark_node_get_literal(ch);
        if (lit)
            pr_buf_puts(&alt, lit);
        cmarkx_plain(ch, &alt);
    }
    int blank = 1;
    for (size_t i = 0; i < alt.len; i++)
        if (alt.data[i] != ' ' && alt.data[i] != '\t')
            blank = 0;
    if (blank)
        add_problem(c, PR_CHECK_NO_ALT, cmarkx_line(image), "image '%s' has no alt text",
                    cmark_node_get_url(image) ? cmark_node_get_url(image) : "");
    pr_buf_free(&alt);
}

static void page_problem(void *ctx, pr_check_kind kind, int line, const char *msg)
{
    add_problem(ctx, kind, line, "%s", msg);
}

static void check_page(checker *c, const char *rel, const char *md, size_t len)
{
    size_t first = c->r->nproblems;
    char *path = pr_fileio_path_join(c->reports_rel, rel); /* relative to the root */
    c->page_dir = pr_fileio_path_dirname(path);
    if (strcmp(c->page_dir, ".") == 0)
        c->page_dir[0] = '\0';
    pr_cmarkx_doc d;
    cmarkx_parse(&d, md, len, CHECK_PARSE_OPTS);
    anchor_slot *s = map_find(&c->anchors, path);
    if (s) {
        c->page_anchors = s->anchors;
    } else {
        cmarkx_headings(d.root, NULL, NULL, &c->page_anchors);
        map_put(&c->anchors, pr_xstrdup(path), c->page_anchors);
    }
    int in_table = 0, in_image = 0;
    cmark_iter *it = cmark_iter_new(d.root);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(n);
        if ((cmark_node_get_type(n) & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK &&
            strcmp(cmark_node_get_type_string(n), "table") == 0) {
            in_table += ev == CMARK_EVENT_ENTER ? 1 : -1;
            continue;
        }
        if (t == CMARK_NODE_IMAGE && ev == CMARK_EVENT_EXIT)
            in_image--;
        if (ev != CMARK_EVENT_ENTER)
            continue;
        if (t == CMARK_NODE_LINK) {
            check_url(c, n, 0);
        } else if (t == CMARK_NODE_IMAGE) {
            in_image++;
            check_url(c, n, 1);
            check_alt(c, n);
        } else if (t == CMARK_NODE_TEXT && !in_table && !in_image) {
            check_placeholders(c, n);
        }
    }
    cmark_iter_free(it);
    checkpage_run(d.root, page_problem, c);
    /* The page's problems by line (insertion sort: stable, and a page has
     * few). */
    pr_check_problem *v = c->r->problems;
    for (size_t i = first + 1; i < c->r->nproblems; i++) {
        pr_check_problem p = v[i];
        size_t j = i;
        for (; j > first && v[j - 1].line > p.line; j--)
            v[j] = v[j - 1];
        v[j] = p;
    }
    cmarkx_free(&d);
    free(c->page_dir);
    c->page_dir = NULL;
    c->page_anchors = NULL;
    free(path);
}

/* How deep the walk follows folders: linked folders may loop. */
#define CHECK_MAX_DEPTH 32

/* Appends the *.md files under dir (relative path prefix rel) to pages.  An
 * entry that resolves outside the root, or a special file named *.md, is a
 * problem (line 0) and is left out. */
static int collect_pages(checker *c, const char *dir, const char *rel, int depth, char ***pages,
                         size_t *n, size_t *cap, pr_err *err)
{
    char **names;
    size_t count;
    if (depth > CHECK_MAX_DEPTH)
        return pr_err_set(err, dir, 0, 0, NULL, "more than %d folders deep (a symbolic link loop?)",
                          CHECK_MAX_DEPTH);
    if (pr_fileio_list_dir(dir, &names, &count, err) < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        const char *name = names[i];
        if (name[0] == '.')
            continue;
        char *fs = pr_fileio_path_join(dir, name);
        char *r = *rel ? pr_fileio_path_join(rel, name) : pr_xstrdup(name);
        size_t nl = strlen(name);
        int md = nl > 3 && strcmp(name + nl - 3, ".md") == 0;
        struct stat st;
        pr_err ignored;
        c->page_file = fs;
        if (lstat(fs, &st) < 0 || (S_ISLNK(st.st_mode) && stat(fs, &st) < 0)) {
            /* vanished, or a dangling link: nothing to check */
        } else if ((S_ISDIR(st.st_mode) || md) &&
                   pr_fileio_path_within(c->abs_root, fs, &ignored) < 0) {
            add_problem(c, PR_CHECK_OUTSIDE_ROOT, 0,
                        "resolves outside the repository root (a symbolic link?): not read");
        } else if (S_ISDIR(st.st_mode)) {
            rc = collect_pages(c, fs, r, depth + 1, pages, n, cap, err);
        } else if (md && !S_ISREG(st.st_mode)) {
            add_problem(c, PR_CHECK_SPECIAL_FILE, 0, "is %s, not a regular file: not read",
                        pr_fileio_mode_name(st.st_mode));
        } else if (md) {
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

int check_reports(const pr_check_opts *o, pr_check_result *r, pr_err *err)
{
    const char *reports = o->reports ? o->reports : "reports";
    checker c = {o, r, NULL, NULL, {NULL, 0, 0}, NULL, NULL, NULL};
    char **pages = NULL;
    size_t npages = 0, cap = 0;
    int rc = -1;
    char *abs_reports = realpath(reports, NULL);
    if (!abs_reports || !pr_fileio_is_dir(abs_reports)) {
        pr_err_set(err, reports, 0, 0, NULL, "not a folder of reports");
        goto out;
    }
    if (o->root) {
        c.abs_root = realpath(o->root, NULL);
        if (!c.abs_root || !pr_fileio_is_dir(c.abs_root)) {
            pr_err_set(err, o->root, 0, 0, NULL, "the root is not a folder");
            goto out;
        }
    } else {
        c.abs_root = pr_fileio_path_dirname(abs_reports);
    }
    size_t rl = strlen(c.abs_root);
    if (strcmp(abs_reports, c.abs_root) == 0)
        c.reports_rel = pr_xstrdup("");
    else if (strcmp(c.abs_root, "/") == 0)
        c.reports_rel = pr_xstrdup(abs_reports + 1);
    else if (strncmp(abs_reports, c.abs_root, rl) == 0 && abs_reports[rl] == '/')
        c.reports_rel = pr_xstrdup(abs_reports + rl + 1);
    else {
        pr_err_set(err, reports, 0, 0, NULL, "not inside the root %s", c.abs_root);
        goto out;
    }
    if (collect_pages(&c, reports, "", 0, &pages, &npages, &cap, err) < 0)
        goto out;
    c.page_file = NULL;
    pr_qsort(pages, npages, sizeof *pages, pr_fileio_strv_cmp);
    rc = 0;
    for (size_t i = 0; i < npages && rc == 0; i++) {
        char *fs = pr_fileio_path_join(reports, pages[i]);
        pr_buf md = PR_BUF_INIT;
        if (pr_fileio_read_file(fs, &md, err) < 0) {
            rc = -1;
        } else {
            c.page_file = fs;
            check_page(&c, pages[i], pr_buf_cstr(&md), md.len);
            r->npages++;
        }
        pr_buf_free(&md);
        free(fs);
    }
out:
    for (size_t i = 0; i < npages; i++)
        free(pages[i]);
    free(pages);
    map_free(&c.anchors);
    free(c.reports_rel);
    free(c.abs_root);
    free(abs_reports);
    return rc;
}
