/* envimport: `perfrepro-gen import-env` (envimport.h). */
#include "envimport.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>

#include "1-load/srcenv.h"
#include "base/cmarkx.h"
#include "buf.h"
#include "fileio.h"
#include "jdoc.h"
#include "record.h"
#include "suite.h"

const char *const pr_envimport_default_sections[] = {"环境介绍",    "物理机环境",  "机器环境",
                                                     "硬件环境",    "Docker 镜像", "软件环境",
                                                     "Environment", NULL};

/* The state of one walk over the document. */
typedef struct walk {
    const pr_envimport_opts *o;
    const char *const *titles;
    size_t ntitles;
    json_t *groups;        /* owned: [{title, section, line, items}] */
    json_t *heading_items; /* borrowed: the items of the current heading's own group, NULL
                              * until a flat item needs it */
    char *heading;         /* the last heading's text ("" before any) */
    int heading_line;
    int in_section, section_level;
    pr_buf found; /* the sections found, for messages: "“T” (line N)" */
    size_t nfound, nitems;
    int first_line; /* of the first section found */
    pr_err *err;
} walk;

/* s without a leading number ("二、", "1.", "3) "): s itself when it has
 * none (borrowed from s). */
static const char *strip_number(const char *s)
{
    static const char *const numerals[] = {"一", "二", "三", "四", "五", "六",
                                           "七", "八", "九", "十", NULL};
    static const char *const seps[] = {".", "、", "．", ")", "）", NULL};
    const char *p = s;
    size_t n = 0;
    for (;;) {
        if (*p >= '0' && *p <= '9') {
            p++;
            n++;
            continue;
        }
        const char *const *u = numerals;
        while (*u && strncmp(p, *u, strlen(*u)) != 0)
            u++;
        if (!*u)
            break;
        p += strlen(*u);
        n++;
    }
    if (n == 0)
        return s;
    const char *const *sep = seps;
    while (*sep && strncmp(p, *sep, strlen(*sep)) != 0)
        sep++;
    if (!*sep)
        return s;
    p += strlen(*sep);
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* 1 when text, as printed or without its number, is one of the titles. */
static int title_matches(const walk *w, const char *text)
{
    const char *bare = strip_number(text);
    for (size_t i = 0; i < w->ntitles; i++)
        if (strcmp(text, w->titles[i]) == 0 || strcmp(bare, w->titles[i]) == 0)
            return 1;
    return 0;
}

static void note_found(walk *w, const char *text, int line)
{
    if (w->nfound++ == 0)
        w->first_line = line;
    pr_buf_printf(&w->found, "%s\"%s\" (line %d)", w->found.len ? ", " : "", text, line);
}

/* The node's first child when it is a paragraph (a list item's own text). */
static cmark_node *first_para(cmark_node *n)
{
    cmark_node *c = cmark_node_first_child(n);
    return c && cmark_node_get_type(c) == CMARK_NODE_PARAGRAPH ? c : NULL;
}

static int has_child_list(cmark_node *n)
{
    for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c))
        if (cmark_node_get_type(c) == CMARK_NODE_LIST)
            return 1;
    return 0;
}

/* The plain text of node (a paragraph or heading), blanks trimmed; the
 * caller frees it. */
static char *plain_of(cmark_node *node)
{
    pr_buf b = PR_BUF_INIT;
    cmarkx_plain(node, &b);
    char *t = pr_buf_xstrdup_trimmed(pr_buf_cstr(&b));
    pr_buf_free(&b);
    return t;
}

/* The URL of the first link below node with one, or NULL (borrowed from
 * the document). */
static const char *first_url(cmark_node *node)
{
    const char *url = NULL;
    cmark_iter *it = cmark_iter_new(node);
    cmark_event_type ev;
    while (!url && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        if (ev == CMARK_EVENT_ENTER && cmark_node_get_type(n) == CMARK_NODE_LINK) {
            const char *u = cmark_node_get_url(n);
            if (u && *u)
                url = u;
        }
    }
    cmark_iter_free(it);
    return url;
}

/* An error when s (what, at line) is longer than a data file may hold. */
static int check_len(const walk *w, const char *what, const char *s, int line)
{
    size_t n = strlen(s);
    if (n > PR_TEXT_MAX)
        return pr_err_set(w->err, w->o->markdown, line, 0, NULL,
                          "%s of %zu bytes: at most %d (PR_TEXT_MAX)", what, n, PR_TEXT_MAX);
    return 0;
}

/* Appends a group {title, section, line, items: []} to w->groups; returns
 * its items (borrowed), or NULL with w->err set. */
static json_t *new_group(walk *w, const char *title, int line)
{
    if (check_len(w, "a group title", title, line) < 0 ||
        check_len(w, "a heading", w->heading, w->heading_line) < 0)
        return NULL;
    json_t *g = json_object(), *items = json_array();
    json_object_set_new(g, "title", json_string(title));
    if (w->heading[0])
        json_object_set_new(g, "section", json_string(w->heading));
    json_object_set_new(g, "line", json_integer(line));
    json_object_set_new(g, "items", items); /* steals items; g keeps it alive */
    json_array_append_new(w->groups, g);    /* steals g */
    return items;
}

/* The items of the current heading's own group, made on first use. */
static json_t *heading_items(walk *w)
{
    if (!w->heading_items)
        w->heading_items = new_group(w, w->heading, w->heading_line);
    return w->heading_items;
}

/* Where text splits into key and value: the first "：", or the first ":"
 * not followed by "//" (a URL's scheme is no key); NULL when none.
 * *sep_len gets the separator's length. */
static const char *key_end(const char *text, size_t *sep_len)
{
    for (const char *p = text; *p; p++) {
        if (strncmp(p, "：", strlen("：")) == 0) {
            *sep_len = strlen("：");
            return p;
        }
        if (*p == ':' && strncmp(p + 1, "//", 2) != 0) {
            *sep_len = 1;
            return p;
        }
    }
    return NULL;
}

/* Appends to items the item para prints (at line: its list item's), or
 * nothing when it prints no text. */
static int add_text_item(walk *w, json_t *items, cmark_node *para, int line)
{
    int rc = -1;
    char *text = plain_of(para), *key = NULL;
    const char *url = first_url(para), *value = text;
    size_t sep = 0;
    const char *end = key_end(text, &sep);
    if (!*text) {
        rc = 0;
        goto out;
    }
    if (end) {
        size_t kl = (size_t)(end - text);
        while (kl && (text[kl - 1] == ' ' || text[kl - 1] == '\t'))
            kl--;
        value = end + sep;
        while (*value == ' ' || *value == '\t')
            value++;
        if (kl)
            key = pr_xstrndup(text, kl);
        else
            value = text; /* a colon first: nothing before it is a key */
    }
    if (check_len(w, "an item", text, line) < 0 || (url && check_len(w, "a link", url, line) < 0))
        goto out;
    const char *framework = NULL;
    const char *kind = srcenv_kind_of_key(key, &framework);
    json_t *it = json_object();
    if (key)
        json_object_set_new(it, "key", json_string(key));
    json_object_set_new(it, "kind", json_string(kind));
    if (framework)
        json_object_set_new(it, "framework", json_string(framework));
    json_object_set_new(it, "value", json_string(value));
    if (url)
        json_object_set_new(it, "url", json_string(url));
    json_object_set_new(it, "line", json_integer(line));
    json_array_append_new(items, it); /* steals it */
    w->nitems++;
    rc = 0;
out:
    free(key);
    free(text);
    return rc;
}

/* 1 when a code block's text is `nvidia-smi topo` output: the command, or
 * the matrix's header line (GPU0, then GPU1 after blanks). */
static int is_topology(const char *s)
{
    if (strstr(s, "nvidia-smi topo"))
        return 1;
    for (const char *p = strstr(s, "GPU0"); p; p = strstr(p + 1, "GPU0")) {
        const char *q = p + 4;
        if (*q != ' ' && *q != '\t')
            continue;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, "GPU1", 4) == 0)
            return 1;
    }
    return 0;
}

/* Appends a code block's text as an item of kind topology or text, with its
 * line range (the fences); nothing for an empty block. */
static int add_code_item(walk *w, json_t *items, cmark_node *code)
{
    const char *lit = cmark_node_get_literal(code);
    size_t n = lit ? strlen(lit) : 0;
    if (n && lit[n - 1] == '\n')
        n--;
    if (n == 0)
        return 0;
    int line = cmark_node_get_start_line(code), end = cmark_node_get_end_line(code);
    char *text = pr_xstrndup(lit, n);
    int rc = check_len(w, "a code block", text, line);
    if (rc == 0) {
        json_t *it = json_object();
        json_object_set_new(it, "kind", json_string(is_topology(text) ? "topology" : "text"));
        json_object_set_new(it, "value", json_string(text));
        json_object_set_new(it, "line", json_integer(line));
        if (end > line)
            json_object_set_new(it, "end_line", json_integer(end));
        json_array_append_new(items, it); /* steals it */
        w->nitems++;
    }
    free(text);
    return rc;
}

/* Appends to items what lies below top, in order: each list item's own text,
 * every other paragraph, every code block (top's own text too when
 * with_own).  Iterative: nesting depth costs no stack. */
static int read_subtree(walk *w, cmark_node *top, json_t *items, int with_own)
{
    int rc = 0;
    cmark_iter *it = cmark_iter_new(top);
    cmark_event_type ev;
    while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it), *parent = cmark_node_parent(n), *p;
        if (ev != CMARK_EVENT_ENTER)
            continue;
        switch (cmark_node_get_type(n)) {
        case CMARK_NODE_ITEM:
            if ((n != top || with_own) && (p = first_para(n)))
                rc = add_text_item(w, items, p, cmarkx_line(n));
            break;
        case CMARK_NODE_PARAGRAPH:
        case CMARK_NODE_HEADING:
            /* A list item's first paragraph is its own text, read above. */
            if (!(parent && cmark_node_get_type(parent) == CMARK_NODE_ITEM &&
                  first_para(parent) == n))
                rc = add_text_item(w, items, n, cmarkx_line(n));
            cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
            break;
        case CMARK_NODE_CODE_BLOCK:
            rc = add_code_item(w, items, n);
            break;
        default:
            break;
        }
    }
    cmark_iter_free(it);
    return rc;
}

/* 1 when item's own text is a key ("系统：…"). */
static int item_has_key(cmark_node *item)
{
    cmark_node *p = first_para(item);
    if (!p)
        return 0;
    char *text = plain_of(p);
    size_t sep = 0;
    const char *end = key_end(text, &sep);
    int keyed = end && end > text;
    free(text);
    return keyed;
}

/* 1 when item is a sub-heading printed as a flat list item: no nested
 * list, no key and no link of its own, followed by a keyed item with no
 * nested list (Bert/OtherReports/PyTorch's " - 单机A100（单卡、8卡）", whose
 * indentation puts its items beside it rather than under it). */
static int is_flat_heading(cmark_node *item)
{
    cmark_node *p = first_para(item), *next = cmark_node_next(item);
    if (!p || has_child_list(item) || first_url(p) || item_has_key(item))
        return 0;
    char *text = plain_of(p);
    int url_like = strstr(text, "://") != NULL; /* a bare address is no title */
    free(text);
    if (url_like)
        return 0;
    return next && !has_child_list(next) && item_has_key(next);
}

/* A top-level list of a section: an item with a nested list is a group of
 * its own, and so is a flat sub-heading with the keyed items after it
 * (never an item itself); the others belong to the heading's group. */
static int read_list(walk *w, cmark_node *list)
{
    int rc = 0;
    json_t *flat = NULL; /* the group of the last flat sub-heading */
    for (cmark_node *i = cmark_node_first_child(list); i && rc == 0; i = cmark_node_next(i)) {
        json_t *items;
        if (has_child_list(i) || is_flat_heading(i)) {
            cmark_node *p = first_para(i);
            char *title = p ? plain_of(p) : pr_xstrdup("");
            items = new_group(w, title[0] ? title : w->heading, cmarkx_line(i));
            free(title);
            flat = has_child_list(i) ? NULL : items;
            if (!items)
                rc = -1;
            else if (!flat)
                rc = read_subtree(w, i, items, 0);
        } else if (flat && item_has_key(i)) {
            rc = read_subtree(w, i, flat, 1);
        } else {
            flat = NULL;
            items = heading_items(w);
            rc = items ? read_subtree(w, i, items, 1) : -1;
        }
    }
    return rc;
}

/* A list item outside the sections whose text is a section title (the
 * README's "- 多机网络部署" under 环境搭建): a group of what it holds.  An
 * item whose text holds a link is no section: a table of contents'
 * "[一、环境介绍](#一环境介绍)" points to the heading, which is read itself. */
static int read_item_section(walk *w, cmark_node *item, int *matched)
{
    cmark_node *p = first_para(item);
    *matched = 0;
    if (!p || first_url(p))
        return 0;
    char *text = plain_of(p);
    int rc = 0;
    if (title_matches(w, text)) {
        *matched = 1;
        int line = cmarkx_line(item);
        note_found(w, text, line);
        json_t *items = new_group(w, text, line);
        rc = items ? read_subtree(w, item, items, 0) : -1;
    }
    free(text);
    return rc;
}

/* Walks the document once, filling w->groups. */
static int read_sections(walk *w, cmark_node *root)
{
    int rc = 0;
    cmark_iter *it = cmark_iter_new(root);
    cmark_event_type ev;
    while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        if (ev != CMARK_EVENT_ENTER)
            continue;
        switch (cmark_node_get_type(n)) {
        case CMARK_NODE_HEADING: {
            int level = cmark_node_get_heading_level(n);
            if (w->in_section && level <= w->section_level)
                w->in_section = 0;
            free(w->heading);
            w->heading = plain_of(n);
            w->heading_line = cmarkx_line(n);
            w->heading_items = NULL;
            if (!w->in_section && title_matches(w, w->heading)) {
                w->in_section = 1;
                w->section_level = level;
                note_found(w, w->heading, w->heading_line);
            }
            cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
            break;
        }
        case CMARK_NODE_LIST:
            if (w->in_section) {
                rc = read_list(w, n);
                cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
            }
            break;
        case CMARK_NODE_CODE_BLOCK:
            if (w->in_section) {
                json_t *items = heading_items(w);
                rc = items ? add_code_item(w, items, n) : -1;
            }
            break;
        case CMARK_NODE_ITEM: {
            int matched = 0;
            rc = read_item_section(w, n, &matched);
            if (matched)
                cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
            break;
        }
        case CMARK_NODE_PARAGRAPH:
            cmark_iter_reset(it, n, CMARK_EVENT_EXIT); /* its inlines are no blocks */
            break;
        default:
            break;
        }
    }
    cmark_iter_free(it);
    return rc;
}

/* Checks the options that end up in the file (the loader checks the rest).
 * Every missing option is named in one message. */
static int check_opts(const pr_envimport_opts *o, pr_err *err)
{
    const pr_err_opt_need required[] = {
        {!o->markdown, "--markdown"}, {!o->repo, "--repo"}, {!o->commit, "--commit"},
        {!o->path, "--path"},         {!o->out, "--out"},
    };
    if (pr_err_missing_opts(err, required, sizeof required / sizeof required[0]) < 0)
        return -1;
    for (size_t i = 0; o->sections && i < o->nsections; i++)
        if (!o->sections[i][0])
            return pr_err_set(err, NULL, 0, 0, "--section", "an empty title");
    return pr_record_source_opts_check(o->repo, o->commit, o->path, err);
}

/* The groups that hold items (a group whose items were all empty is no
 * group); a new array the caller owns. */
static json_t *kept_groups(json_t *groups)
{
    json_t *kept = json_array(), *g;
    size_t i;
    json_array_foreach(groups, i, g) if (json_array_size(json_object_get(g, "items")))
        json_array_append(kept, g);
    return kept;
}

int envimport_run(const pr_envimport_opts *o, char **summary_out, pr_err *err)
{
    int rc = -1;
    pr_buf md = PR_BUF_INIT, body = PR_BUF_INIT, summary = PR_BUF_INIT;
    pr_cmarkx_doc doc = {NULL, NULL};
    walk w;
    memset(&w, 0, sizeof w);
    w.o = o;
    w.err = err;
    w.groups = json_array();
    w.heading = pr_xstrdup("");
    w.titles = o->sections ? o->sections : pr_envimport_default_sections;
    w.ntitles = o->sections ? o->nsections : 0;
    if (!o->sections)
        while (pr_envimport_default_sections[w.ntitles])
            w.ntitles++;
    json_t *file = NULL, *groups = NULL;
    char *text = NULL;
    srcenv_file *check = NULL;
    if (check_opts(o, err) < 0 || pr_fileio_read_file(o->markdown, &md, err) < 0)
        goto out;
    cmarkx_parse(&doc, md.data ? md.data : "", md.len, CMARK_OPT_DEFAULT);
    if (read_sections(&w, doc.root) < 0)
        goto out;
    if (w.nfound == 0) {
        pr_buf titles = PR_BUF_INIT;
        for (size_t i = 0; i < w.ntitles; i++)
            pr_buf_printf(&titles, "%s\"%s\"", i ? ", " : "", w.titles[i]);
        pr_err_set(err, o->markdown, 0, 0, "--section",
                   "no heading or list item titled %s (a heading matches with or without its "
                   "number: \"二、环境介绍\")",
                   pr_buf_cstr(&titles));
        pr_buf_free(&titles);
        goto out;
    }
    groups = kept_groups(w.groups);
    if (json_array_size(groups) == 0) {
        pr_err_set(err, o->markdown, w.first_line, 0, "--section",
                   "the section(s) %s hold no list item or code block", pr_buf_cstr(&w.found));
        goto out;
    }
    file = json_object();
    json_object_set_new(file, "perfrepro", json_integer(1));
    char *url = pr_xasprintf("https://github.com/%s/blob/%s/%s", o->repo, o->commit, o->path);
    json_object_set_new(file, "source",
                        json_pack("{s:s,s:s,s:s,s:s}", "repo", o->repo, "commit", o->commit, "path",
                                  o->path, "url", url));
    free(url);
    json_object_set(file, "groups", groups);
    text = json_dumps(file, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    pr_buf_puts(&body, text);
    pr_buf_putc(&body, '\n');
    /* What is written is what gen loads: the loader's checks, before writing. */
    if (srcenv_file_parse(o->out, body.data, body.len, &check, err) < 0) {
        pr_err_prefix(err, "%s: what import-env read does not load", o->markdown);
        goto out;
    }
    int same = pr_fileio_equals(o->out, body.data, body.len);
    if (!same && pr_fileio_write_atomic(o->out, body.data, body.len, err) < 0)
        goto out;
    pr_buf_printf(&summary, "%s: %zu group(s), %zu item(s) from %s -> %s%s", o->markdown,
                  json_array_size(groups), w.nitems, pr_buf_cstr(&w.found), o->out,
                  same ? " (unchanged)" : "");
    *summary_out = pr_buf_detach(&summary);
    rc = 0;
out:
    srcenv_file_free(check);
    free(text);
    json_decref(file);
    json_decref(groups);
    json_decref(w.groups);
    free(w.heading);
    pr_buf_free(&w.found);
    if (doc.root)
        cmarkx_free(&doc);
    pr_buf_free(&md);
    pr_buf_free(&body);
    pr_buf_free(&summary);
    return rc;
}
