/* mustache_standalone: pass 3 of the template parser (mustache_parse.c):
 * the standalone-line rules.  A tag alone on its line (but for blanks) takes
 * the line away; a parent pair stands alone as a whole; an argument block's
 * newlines belong to its tags, and a standalone block's content is
 * reindented.  Marks tokens only: build reads the marks. */
#include "mustache_parse_int.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

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

void mustache_standalone_pass(struct parser *p)
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
