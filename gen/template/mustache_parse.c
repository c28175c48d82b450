/* mustache_parse: the template parser of the mustache module (mustache.h).
 *
 * A template is parsed in four passes over a flat token list, then rendered
 * from a node tree:
 *   1. tokenize: text (split around its first and last newline) and tags,
 *      following set-delimiter tags as they come;
 *   2. match: pair section/parent/block tags with their closing tags and
 *      note each token's enclosing tag;
 *   3. standalone: decide which tags stand alone on their line and drop the
 *      whitespace and newline around them (with the ~inheritance rules for
 *      parent and block tags);
 *   4. build: the node tree.
 * mustache.c renders the tree.
 */
#include "mustache_int.h"

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
/* Tokens                                                              */

enum tkind {
    K_TEXT,
    K_VAR,      /* {{x}} */
    K_RAW,      /* {{{x}}} {{&x}} */
    K_SECTION,  /* {{#x}} */
    K_INVERTED, /* {{^x}} */
    K_CLOSE,    /* {{/x}} */
    K_PARTIAL,  /* {{>x}} */
    K_PARENT,   /* {{<x}} */
    K_BLOCK,    /* {{$x}} */
    K_COMMENT,  /* {{!x}} */
    K_DELIM     /* {{=a b=}} */
};

struct tok {
    enum tkind kind;
    size_t start, end;   /* extent in the source (tags include delimiters) */
    size_t nstart, nlen; /* trimmed tag content (after '*' when dynamic) */
    int line, col;
    bool dynamic; /* {{>*x}} {{<*x}} */
    bool ignored; /* inside a parent tag but not in one of its blocks */
    bool removed; /* text dropped by a standalone tag */
    bool standalone;
    bool open_sa; /* argument block whose opening tag ends its line */
    enum bmode bmode;
    long match;          /* the matching opening/closing tag */
    long container;      /* the enclosing section/parent/block tag, or -1 */
    size_t ind, ind_len; /* indentation (source span) */
    size_t ded, ded_len; /* block: indentation removed from content lines */
};

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

/* ------------------------------------------------------------------ */
/* Parser                                                              */

struct parser {
    const char *src;
    size_t len;
    const char *tname;
    pr_err *err;
    struct tok *t;
    size_t n, cap;
    size_t lc_pos; /* line/column tracking: position reached so far */
    int lc_line, lc_col;
};

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Blanks for standalone-line purposes. */
static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static bool blank_span(const char *s, size_t a, size_t b)
{
    for (; a < b; a++)
        if (!is_blank(s[a]))
            return false;
    return true;
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

#define NOT_CLEAR (-2L)
#define CLEAR_NONE (-1L)

static bool text_ends_nl(const struct parser *p, const struct tok *t)
{
    return t->kind == K_TEXT && t->end > t->start && p->src[t->end - 1] == '\n';
}

/* Whether only blanks stand between the start of the line and tag i.
 * Returns NOT_CLEAR, CLEAR_NONE (nothing between) or the index of the blank
 * text token between. */
static long lclear(const struct parser *p, long i)
{
    long j = i - 1;
    if (j < 0)
        return CLEAR_NONE;
    const struct tok *t = &p->t[j];
    if (t->kind != K_TEXT)
        return NOT_CLEAR;
    if (text_ends_nl(p, t))
        return CLEAR_NONE;
    if (!blank_span(p->src, t->start, t->end))
        return NOT_CLEAR;
    if (j == 0 || p->t[j - 1].kind == K_TEXT)
        return j;
    return NOT_CLEAR;
}

/* Whether only blanks stand between tag i and the end of its line (newline
 * or end of template).  Returns NOT_CLEAR, CLEAR_NONE (end of template right
 * after) or the index of the text token holding the rest of the line. */
static long rclear(const struct parser *p, long i)
{
    long j = i + 1;
    if ((size_t)j >= p->n)
        return CLEAR_NONE;
    const struct tok *t = &p->t[j];
    if (t->kind != K_TEXT)
        return NOT_CLEAR;
    size_t e = t->end;
    if (text_ends_nl(p, t)) {
        e--;
        if (e > t->start && p->src[e - 1] == '\r')
            e--;
        return blank_span(p->src, t->start, e) ? j : NOT_CLEAR;
    }
    return blank_span(p->src, t->start, e) && (size_t)j + 1 == p->n ? j : NOT_CLEAR;
}

/* Removes the left blank token l (if any) and records it as the
 * indentation of tag t. */
static void take_indent(struct parser *p, struct tok *t, long l)
{
    if (l >= 0) {
        p->t[l].removed = true;
        t->ind = p->t[l].start;
        t->ind_len = p->t[l].end - p->t[l].start;
    } else {
        t->ind = t->start;
        t->ind_len = 0;
    }
}

/* The usual rule: a tag alone on its line (but for blanks) takes the whole
 * line away. */
static void standalone_std(struct parser *p, long i)
{
    long l = lclear(p, i);
    if (l == NOT_CLEAR)
        return;
    long r = rclear(p, i);
    if (r == NOT_CLEAR)
        return;
    struct tok *t = &p->t[i];
    t->standalone = true;
    take_indent(p, t, l);
    if (r >= 0)
        p->t[r].removed = true;
}

/* The indentation of the first line in [a, b) that is not blank. */
static bool intrinsic_indent(const char *s, size_t a, size_t b, size_t *ind, size_t *ind_len)
{
    while (a < b) {
        size_t k = a;
        while (k < b && is_blank(s[k]))
            k++;
        if (k < b && s[k] != '\n' && s[k] != '\r') {
            *ind = a;
            *ind_len = k - a;
            return true;
        }
        const char *nl = k < b ? memchr(s + k, '\n', b - k) : NULL;
        if (!nl)
            return false;
        a = (size_t)(nl - s) + 1;
    }
    return false;
}

static bool is_arg_block(const struct parser *p, long i)
{
    const struct tok *t = &p->t[i];
    return t->kind == K_BLOCK && t->container >= 0 && p->t[t->container].kind == K_PARENT;
}

static void standalone_pass(struct parser *p)
{
    for (long i = 0; (size_t)i < p->n; i++) {
        struct tok *t = &p->t[i];
        if (t->kind == K_TEXT || t->ignored)
            continue;
        switch (t->kind) {
        case K_SECTION:
        case K_INVERTED:
        case K_COMMENT:
        case K_DELIM:
        case K_PARTIAL:
            standalone_std(p, i);
            break;
        case K_PARENT: {
            /* The parent pair is standalone as a whole: blanks before the
             * opening tag, blanks and newline after the closing tag. */
            long l = lclear(p, i);
            long r = rclear(p, t->match);
            if (l != NOT_CLEAR && r != NOT_CLEAR) {
                t->standalone = true;
                take_indent(p, t, l);
                if (r >= 0)
                    p->t[r].removed = true;
            }
            break;
        }
        case K_BLOCK:
            if (is_arg_block(p, i)) {
                /* An argument: what is left of the tag is ignored parent
                 * text; when the tag ends its line, the newline is the
                 * tag's and the content starts on the next line. */
                long r = rclear(p, i);
                if (r != NOT_CLEAR) {
                    t->open_sa = true;
                    if (r >= 0)
                        p->t[r].removed = true;
                }
            } else {
                standalone_std(p, i);
            }
            break;
        case K_CLOSE: {
            long m = t->match;
            struct tok *o = &p->t[m];
            if (o->kind == K_PARENT)
                break;
            if (o->kind == K_BLOCK && is_arg_block(p, m)) {
                /* Closing an argument: blanks before it on its line go;
                 * the newline before them is content; what follows is
                 * ignored parent text. */
                long l = lclear(p, i);
                size_t ce = t->start;
                if (l >= 0) {
                    p->t[l].removed = true;
                    ce = p->t[l].start;
                }
                if (o->open_sa &&
                    !intrinsic_indent(p->src, p->t[m + 1].end, ce, &o->ded, &o->ded_len))
                    o->ded_len = 0;
                break;
            }
            standalone_std(p, i);
            if (o->kind != K_BLOCK)
                break;
            if (o->standalone) {
                /* Block reindentation: the block is indented as its first
                 * non-blank content line (else as its tag), and that
                 * indentation is removed from its content lines. */
                o->bmode = B_OPEN;
                size_t cs = p->t[m + 1].end;
                size_t ce = t->standalone ? t->ind : t->start;
                size_t ind, ind_len;
                if (cs <= ce && intrinsic_indent(p->src, cs, ce, &ind, &ind_len)) {
                    o->ind = ind;
                    o->ind_len = ind_len;
                }
                o->ded = o->ind;
                o->ded_len = o->ind_len;
            } else if (!t->standalone && !memchr(p->src + o->end, '\n', t->start - o->end)) {
                long l = lclear(p, m);
                long r = rclear(p, i);
                if (l != NOT_CLEAR && r != NOT_CLEAR) {
                    /* Opening and closing tag alone on one line: the line's
                     * indentation becomes the block's; its newline stays. */
                    o->bmode = B_PAIR;
                    take_indent(p, o, l);
                }
            }
            break;
        }
        default:
            break;
        }
    }
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
        standalone_pass(&p);
        *root = build(&p);
    }
    free(p.t);
    return rc;
}
