/* mustache_parse: the template parser of the mustache module (mustache.h).
 *
 * A template is parsed in four passes over a flat token list, then rendered
 * from a node tree:
 *   1. tokenize: text (split around its first and last newline) and tags,
 *      following set-delimiter tags as they come;
 *   2. match: pair section/parent/block tags with their closing tags and
 *      note each token's enclosing tag;
 *   3. standalone (mustache_standalone.c): decide which tags stand alone on
 *      their line and drop the whitespace and newline around them (with the
 *      ~inheritance rules for parent and block tags);
 *   4. build: the node tree.
 * mustache.c renders the tree.  The token and parser types the two files
 * share are in mustache_parse_int.h.
 */
#include "mustache_parse_int.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"
#include "mustache.h"

/* ------------------------------------------------------------------ */
/* Nodes                                                               */

void mustache_node_free(struct node *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->nkids; i++)
        mustache_node_free(n->kids[i]);
    free(n->kids);
    free(n->name);
    free(n);
}

/* Appends kid (now owned by parent). */
static void node_add(struct node *parent, struct node *kid)
{
    if (parent->nkids == parent->capkids) {
        parent->capkids = parent->capkids ? parent->capkids * 2 : 4;
        parent->kids = pr_xrealloc(parent->kids, parent->capkids * sizeof *parent->kids);
    }
    parent->kids[parent->nkids++] = kid;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static int perr(struct parser *p, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int perr(struct parser *p, int line, int col, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return pr_err_set(p->err, p->tname, line, col, NULL, "%s", msg);
}

/* Line and column (1-based, bytes) of pos; positions must not go back. */
static void locate(struct parser *p, size_t pos, int *line, int *col)
{
    for (; p->lc_pos < pos; p->lc_pos++) {
        if (p->src[p->lc_pos] == '\n') {
            if (p->lc_line < INT_MAX)
                p->lc_line++;
            p->lc_col = 1;
        } else if (p->lc_col < INT_MAX) {
            p->lc_col++;
        }
    }
    *line = p->lc_line;
    *col = p->lc_col;
}

static struct tok *push_tok(struct parser *p, enum tkind kind, size_t start, size_t end)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 64;
        p->t = pr_xrealloc(p->t, p->cap * sizeof *p->t);
    }
    struct tok *t = &p->t[p->n++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->start = start;
    t->end = end;
    t->match = -1;
    t->container = -1;
    return t;
}

/* Text [a, b) as at most three tokens: its first line (with its newline),
 * the whole lines after it, and the rest after the last newline.  Only the
 * lines next to tags matter for standalone tags; whole lines in between
 * stay one token (and one node), so that memory does not grow with the
 * number of lines. */
static void add_text(struct parser *p, size_t a, size_t b)
{
    if (a >= b)
        return;
    const char *nl = memchr(p->src + a, '\n', b - a);
    if (!nl) {
        push_tok(p, K_TEXT, a, b);
        return;
    }
    size_t e = (size_t)(nl - p->src) + 1;
    push_tok(p, K_TEXT, a, e);
    size_t last = b;
    while (last > e && p->src[last - 1] != '\n')
        last--;
    if (last > e)
        push_tok(p, K_TEXT, e, last);
    if (b > last)
        push_tok(p, K_TEXT, last, b);
}

/* Finds the closing delimiter of a tag whose content starts at cs: ctag, or
 * pre followed by ctag when pre is not NUL ("}}}" and "=}}").  Sets *ce to
 * the first byte of the closer. */
static bool find_closer(const char *src, size_t len, size_t cs, char pre, const char *ctag,
                        size_t clen, size_t *ce)
{
    size_t from = pre ? cs + 1 : cs;
    while (from < len && len - from >= clen) {
        const char *h = memmem(src + from, len - from, ctag, clen);
        if (!h)
            return false;
        size_t hp = (size_t)(h - src);
        if (!pre) {
            *ce = hp;
            return true;
        }
        if (src[hp - 1] == pre) {
            *ce = hp - 1;
            return true;
        }
        from = hp + 1;
    }
    return false;
}

static char sigil(enum tkind k)
{
    switch (k) {
    case K_SECTION:
        return '#';
    case K_INVERTED:
        return '^';
    case K_PARENT:
        return '<';
    case K_BLOCK:
        return '$';
    case K_PARTIAL:
        return '>';
    case K_CLOSE:
        return '/';
    default:
        return ' ';
    }
}

/* Clamps a length for "%.*s" in messages. */
static int mlen(size_t n)
{
    return n > 80 ? 80 : (int)n;
}

/* Checks a tag name: non-empty, no whitespace or NUL; a path (path true) is
 * "." or dot-separated non-empty parts. */
static int check_name(struct parser *p, const struct tok *t, bool path)
{
    const char *s = p->src + t->nstart;
    size_t n = t->nlen;
    if (n == 0)
        return perr(p, t->line, t->col, "empty tag name");
    for (size_t i = 0; i < n; i++)
        if (is_space(s[i]) || s[i] == '\0')
            return perr(p, t->line, t->col, "invalid tag name '%.*s': whitespace inside a name",
                        mlen(n), s);
    if (path && !(n == 1 && s[0] == '.')) {
        bool empty_part = s[0] == '.' || s[n - 1] == '.';
        for (size_t i = 1; i < n; i++)
            if (s[i] == '.' && s[i - 1] == '.')
                empty_part = true;
        if (empty_part)
            return perr(p, t->line, t->col, "invalid name '%.*s': empty part in a dotted name",
                        mlen(n), s);
    }
    return 0;
}

static int tokenize(struct parser *p)
{
    const char *src = p->src;
    size_t len = p->len;
    const char *otag = "{{", *ctag = "}}";
    size_t olen = 2, clen = 2;
    size_t pos = 0;
    for (;;) {
        const char *hit = pos < len ? memmem(src + pos, len - pos, otag, olen) : NULL;
        size_t ts = hit ? (size_t)(hit - src) : len;
        add_text(p, pos, ts);
        if (!hit)
            return 0;
        int line, col;
        locate(p, ts, &line, &col);
        size_t q = ts + olen;
        char c = q < len ? src[q] : '\0';
        enum tkind kind = K_VAR;
        char pre = '\0';
        size_t cs = q + 1;
        switch (c) {
        case '{':
            kind = K_RAW;
            pre = '}';
            break;
        case '&':
            kind = K_RAW;
            break;
        case '=':
            kind = K_DELIM;
            pre = '=';
            break;
        case '!':
            kind = K_COMMENT;
            break;
        case '#':
            kind = K_SECTION;
            break;
        case '^':
            kind = K_INVERTED;
            break;
        case '/':
            kind = K_CLOSE;
            break;
        case '>':
            kind = K_PARTIAL;
            break;
        case '<':
            kind = K_PARENT;
            break;
        case '$':
            kind = K_BLOCK;
            break;
        default:
            cs = q;
            break;
        }
        size_t ce;
        if (!find_closer(src, len, cs, pre, ctag, clen, &ce)) {
            if (pre)
                return perr(p, line, col, "unclosed tag: no '%c%.*s' after '%.*s%c'", pre,
                            mlen(clen), ctag, mlen(olen), otag, c);
            return perr(p, line, col, "unclosed tag: no '%.*s' after '%.*s'", mlen(clen), ctag,
                        mlen(olen), otag);
        }
        size_t te = ce + (pre ? 1 : 0) + clen;
        struct tok *t = push_tok(p, kind, ts, te);
        t->line = line;
        t->col = col;
        size_t a = cs, b = ce;
        while (a < b && is_space(src[a]))
            a++;
        while (b > a && is_space(src[b - 1]))
            b--;
        t->nstart = a;
        t->nlen = b - a;
        pos = te;
        switch (kind) {
        case K_COMMENT:
            break;
        case K_DELIM: {
            size_t m = a;
            while (m < b && !is_space(src[m]))
                m++;
            size_t m2 = m;
            while (m2 < b && is_space(src[m2]))
                m2++;
            size_t m3 = m2;
            while (m3 < b && !is_space(src[m3]))
                m3++;
            if (m == a || m2 == b || m3 != b)
                return perr(p, line, col,
                            "invalid set-delimiter tag '%.*s': expected two delimiters "
                            "separated by whitespace, as in {{=<%% %%>=}}",
                            mlen(te - ts), src + ts);
            otag = src + a;
            olen = m - a;
            ctag = src + m2;
            clen = b - m2;
            break;
        }
        case K_PARTIAL:
        case K_PARENT:
            if (t->nlen && src[a] == '*') {
                t->dynamic = true;
                a++;
                while (a < b && is_space(src[a]))
                    a++;
                t->nstart = a;
                t->nlen = b - a;
            }
            if (check_name(p, t, t->dynamic) < 0)
                return -1;
            break;
        case K_BLOCK:
            if (check_name(p, t, false) < 0)
                return -1;
            break;
        case K_CLOSE: /* checked against its opening tag */
            if (t->nlen == 0)
                return perr(p, line, col, "empty tag name");
            break;
        default:
            if (check_name(p, t, true) < 0)
                return -1;
            break;
        }
    }
}

/* Whether closing tag c closes opening tag o. */
static bool close_matches(const struct parser *p, const struct tok *o, const struct tok *c)
{
    const char *cn = p->src + c->nstart;
    size_t cl = c->nlen;
    if (o->dynamic) {
        if (cl == 0 || cn[0] != '*')
            return false;
        cn++;
        cl--;
        while (cl && is_space(*cn)) {
            cn++;
            cl--;
        }
    }
    return cl == o->nlen && memcmp(cn, p->src + o->nstart, cl) == 0;
}

static int match_pass(struct parser *p)
{
    long stack[PR_MUSTACHE_MAX_NESTING];
    size_t sp = 0;
    for (size_t i = 0; i < p->n; i++) {
        struct tok *t = &p->t[i];
        t->container = sp ? stack[sp - 1] : -1;
        switch (t->kind) {
        case K_SECTION:
        case K_INVERTED:
        case K_PARENT:
        case K_BLOCK:
            if (sp == PR_MUSTACHE_MAX_NESTING)
                return perr(p, t->line, t->col, "sections nested more than %d deep",
                            PR_MUSTACHE_MAX_NESTING);
            stack[sp++] = (long)i;
            break;
        case K_CLOSE: {
            if (!sp)
                return perr(p, t->line, t->col, "closing tag '{{/%.*s}}' without an opening tag",
                            mlen(t->nlen), p->src + t->nstart);
            long o = stack[--sp];
            struct tok *ot = &p->t[o];
            if (!close_matches(p, ot, t))
                return perr(p, t->line, t->col,
                            "closing tag '{{/%.*s}}' does not match '{{%c%s%.*s}}' opened at "
                            "line %d, column %d",
                            mlen(t->nlen), p->src + t->nstart, sigil(ot->kind),
                            ot->dynamic ? "*" : "", mlen(ot->nlen), p->src + ot->nstart, ot->line,
                            ot->col);
            t->match = o;
            ot->match = (long)i;
            t->container = sp ? stack[sp - 1] : -1;
            break;
        }
        default:
            break;
        }
    }
    if (sp) {
        const struct tok *ot = &p->t[stack[sp - 1]];
        return perr(p, ot->line, ot->col, "unclosed section '{{%c%s%.*s}}': no '{{/%s%.*s}}'",
                    sigil(ot->kind), ot->dynamic ? "*" : "", mlen(ot->nlen), p->src + ot->nstart,
                    ot->dynamic ? "*" : "", mlen(ot->nlen), p->src + ot->nstart);
    }
    /* Inside a parent tag only its blocks count; everything else is ignored
     * (the spec: text inside a parent is ignored, $ tags are parsed). */
    for (size_t i = 0; i < p->n; i++) {
        struct tok *t = &p->t[i];
        long c = t->container;
        if (c < 0)
            t->ignored = false;
        else if (p->t[c].kind == K_PARENT)
            t->ignored =
                !(t->kind == K_BLOCK || (t->kind == K_CLOSE && p->t[t->match].kind == K_BLOCK));
        else
            t->ignored = p->t[c].ignored;
    }
    return 0;
}

/* Returns a malloc'd path for name [s, s+n): its parts separated by NULs,
 * *nseg parts; NULL with *nseg 0 for ".".  The node owning it frees it. */
static char *make_path(const char *s, size_t n, int *nseg)
{
    if (n == 1 && s[0] == '.') {
        *nseg = 0;
        return NULL;
    }
    char *name = pr_xstrndup(s, n);
    int k = 1;
    for (size_t i = 0; i < n; i++) {
        if (name[i] == '.') {
            name[i] = '\0';
            if (k < INT_MAX)
                k++;
        }
    }
    *nseg = k;
    return name;
}

/* Returns a zeroed node located at tag t (may be NULL); freed by mustache_node_free
 * of the tree it is added to. */
static struct node *new_node(const struct parser *p, enum nkind kind, const struct tok *t)
{
    struct node *n = pr_xcalloc(1, sizeof *n);
    n->kind = kind;
    n->tname = p->tname;
    if (t) {
        n->line = t->line;
        n->col = t->col;
    }
    return n;
}

static struct node *build(struct parser *p)
{
    struct node *stack[PR_MUSTACHE_MAX_NESTING + 1];
    size_t sp = 0;
    struct node *root = new_node(p, N_ROOT, NULL);
    stack[sp++] = root;
    for (size_t i = 0; i < p->n; i++) {
        const struct tok *t = &p->t[i];
        if (t->ignored)
            continue;
        const char *s = p->src;
        struct node *top = stack[sp - 1];
        struct node *n = NULL;
        switch (t->kind) {
        case K_TEXT:
            if (t->removed || t->end == t->start)
                continue;
            n = new_node(p, N_TEXT, t);
            n->text = s + t->start;
            n->len = t->end - t->start;
            n->bol = t->start == 0 || s[t->start - 1] == '\n';
            node_add(top, n);
            break;
        case K_VAR:
        case K_RAW:
            n = new_node(p, N_VAR, t);
            n->escape = t->kind == K_VAR;
            n->name = make_path(s + t->nstart, t->nlen, &n->nseg);
            node_add(top, n);
            break;
        case K_SECTION:
        case K_INVERTED:
            n = new_node(p, t->kind == K_SECTION ? N_SECTION : N_INVERTED, t);
            n->name = make_path(s + t->nstart, t->nlen, &n->nseg);
            node_add(top, n);
            stack[sp++] = n;
            break;
        case K_PARTIAL:
        case K_PARENT:
            n = new_node(p, t->kind == K_PARTIAL ? N_PARTIAL : N_PARENT, t);
            n->dynamic = t->dynamic;
            if (t->dynamic) {
                n->name = make_path(s + t->nstart, t->nlen, &n->nseg);
            } else {
                n->name = pr_xstrndup(s + t->nstart, t->nlen);
                n->nseg = 1;
            }
            n->standalone = t->standalone;
            n->ind = s + t->ind;
            n->ind_len = t->ind_len;
            node_add(top, n);
            if (t->kind == K_PARENT)
                stack[sp++] = n;
            break;
        case K_BLOCK:
            n = new_node(p, N_BLOCK, t);
            n->name = pr_xstrndup(s + t->nstart, t->nlen);
            n->nseg = 1;
            n->open_sa = t->open_sa;
            n->bmode = t->bmode;
            n->ind = s + t->ind;
            n->ind_len = t->ind_len;
            n->ded = s + t->ded;
            n->ded_len = t->ded_len;
            node_add(top, n);
            stack[sp++] = n;
            break;
        case K_CLOSE:
            sp--;
            break;
        default: /* comments, set delimiters */
            break;
        }
    }
    return root;
}

/* Parses [src, src+len) into *root (the caller frees it with mustache_node_free).
 * The nodes point into src and at tname, which must outlive them. */
int mustache_parse(const char *src, size_t len, const char *tname, struct node **root, pr_err *err)
{
    struct parser p = {0};
    p.src = src;
    p.len = len;
    p.tname = tname;
    p.err = err;
    p.lc_line = 1;
    p.lc_col = 1;
    int rc = tokenize(&p);
    if (rc == 0)
        rc = match_pass(&p);
    if (rc == 0) {
        mustache_standalone_pass(&p);
        *root = build(&p);
    }
    free(p.t);
    return rc;
}
