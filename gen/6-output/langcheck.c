#include "langcheck.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* What stands for something the check leaves out (code, a URL, a name): it
 * ends a run of words, and is no language's character. */
#define GAP '\x01'
/* Latin words in a row that make an English sentence on a Chinese page:
 * three still pass ("NVLink 互连", "batch size" in a name), four do not. */
#define RUN_MIN 4
/* Offending lines listed by line number after the first one, at most. */
#define MORE_MAX 12

/* ------------------------------------------------------------------ names */

#define NONE ((size_t)-1)

/* FNV-1a, 64 bits. */
static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* The slot of name in ns->slots: the one holding it, else the free one it
 * would take. */
static size_t name_slot(const langcheck_names *ns, const char *name)
{
    size_t mask = ns->nslots - 1;
    for (size_t i = name_hash(name) & mask;; i = (i + 1) & mask)
        if (!ns->slots[i] || strcmp(ns->v[ns->slots[i] - 1].text, name) == 0)
            return i;
}

/* Doubles ns->slots (at least 64) and puts every name back. */
static void grow_slots(langcheck_names *ns)
{
    free(ns->slots);
    ns->nslots = ns->nslots ? 2 * ns->nslots : 64;
    ns->slots = pr_xcalloc(ns->nslots, sizeof *ns->slots);
    for (size_t i = 0; i < ns->n; i++)
        ns->slots[name_slot(ns, ns->v[i].text)] = i + 1;
}

static void matcher_free(struct lc_matcher *m);

/* 1 when s holds a letter (ASCII, or any non-ASCII byte): a printed value
 * without one ("1", "2.0") can hold no words of either language, and cutting
 * it out of a line as a name would cut words apart ("level O1" read as
 * "level O" when "1", an OMP_NUM_THREADS of an env.json, was a name). */
static int has_letter(const char *s)
{
    for (; *s; s++)
        if ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (unsigned char)*s >= 0x80)
            return 1;
    return 0;
}

void langcheck_names_add(langcheck_names *ns, const char *name, int cjk_ok)
{
    if (!name || !*name)
        return;
    if (2 * (ns->n + 1) > ns->nslots)
        grow_slots(ns);
    size_t slot = name_slot(ns, name);
    if (ns->slots[slot]) {
        ns->v[ns->slots[slot] - 1].cjk_ok |= cjk_ok;
        return;
    }
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? 2 * ns->cap : 64;
        ns->v = pr_xrealloc(ns->v, ns->cap * sizeof *ns->v);
    }
    ns->v[ns->n].text = pr_xstrdup(name);
    ns->v[ns->n].len = strlen(name);
    ns->v[ns->n].cjk_ok = cjk_ok;
    ns->slots[slot] = ++ns->n;
    /* the automaton no longer holds every name: the next search builds it */
    matcher_free(ns->m);
    ns->m = NULL;
}

static void add_table_names(langcheck_names *ns, const pr_pub_table *t)
{
    langcheck_names_add(ns, t->label, 0);
    langcheck_names_add(ns, t->model_title, 0);
    langcheck_names_add(ns, t->framework_title, 0);
    langcheck_names_add(ns, t->source_title, 1);
}

/* Every string of an environment record: what a machine printed (a GPU's
 * name, a version line), quoted as it is. */
static void add_printed(langcheck_names *ns, const json_t *v)
{
    const char *k;
    json_t *val;
    size_t i;
    if (json_is_string(v) && has_letter(json_string_value(v)))
        langcheck_names_add(ns, json_string_value(v), 0);
    else if (json_is_object(v))
        json_object_foreach((json_t *)v, k, val) add_printed(ns, val);
    else if (json_is_array(v))
        json_array_foreach(v, i, val) add_printed(ns, val);
}

void langcheck_names_from_data(langcheck_names *ns, const pr_dataset *d)
{
    /* The language links of every page: each language's own name. */
    langcheck_names_add(ns, "中文", 1);
    langcheck_names_add(ns, "English", 0);
    for (size_t i = 0; i < d->nsuites; i++) {
        langcheck_names_add(ns, d->suites[i]->model_title, 0);
        langcheck_names_add(ns, d->suites[i]->framework_title, 0);
    }
    for (size_t i = 0; i < d->npubs; i++)
        add_table_names(ns, &d->pubs[i]);
    for (size_t i = 0; i < d->nrestated; i++)
        add_table_names(ns, &d->restated[i]);
    for (size_t i = 0; i < d->nruns; i++)
        add_printed(ns, d->runs[i].env);
    for (size_t i = 0; i < d->platforms.n; i++) {
        const pr_platform *p = &d->platforms.v[i];
        langcheck_names_add(ns, p->title_en, 0);
        langcheck_names_add(ns, p->device, 0);
        for (char **m = p->match; m && *m; m++)
            langcheck_names_add(ns, *m, 0);
    }
}

void langcheck_names_free(langcheck_names *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        free(ns->v[i].text);
    free(ns->v);
    free(ns->slots);
    matcher_free(ns->m);
    *ns = (langcheck_names)LC_NAMES_INIT;
}

/* ------------------------------------------------------------- Markdown */

/* The scanner's state across lines: inside a fenced code block (its fence
 * character), inside an HTML comment. */
typedef struct scan {
    char fence;
    int comment;
} scan;

static int is_ascii_punct(unsigned char c)
{
    return c > 0x20 && c < 0x7f &&
           !((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
}

/* The end of a link target that starts at s (just after "]("): the ')'
 * that closes it, nested parentheses counted; e when none. */
static const char *target_end(const char *s, const char *e)
{
    int depth = 0;
    for (; s < e; s++) {
        if (*s == '\\' && s + 1 < e)
            s++;
        else if (*s == '(')
            depth++;
        else if (*s == ')' && depth-- == 0)
            return s;
    }
    return e;
}

/* Appends to out the prose of line s[0..e): code spans, comments, tags,
 * link targets and URLs replaced by GAP, backslash escapes and &amp;
 * undone. */
static void prose_of(scan *sc, const char *s, const char *e, pr_buf *out)
{
    while (s < e) {
        if (sc->comment) {
            const char *end = memmem(s, (size_t)(e - s), "-->", 3);
            if (!end)
                return;
            sc->comment = 0;
            s = end + 3;
            pr_buf_putc(out, GAP);
            continue;
        }
        size_t left = (size_t)(e - s);
        if (left >= 4 && memcmp(s, "<!--", 4) == 0) {
            sc->comment = 1;
            s += 4;
        } else if (*s == '\\' && left > 1 && is_ascii_punct((unsigned char)s[1])) {
            pr_buf_putc(out, s[1]);
            s += 2;
        } else if (*s == '`') {
            size_t n = 0;
            while (n < left && s[n] == '`')
                n++;
            const char *c = s + n, *close = NULL;
            while (c < e && !close) {
                size_t m = 0;
                while (c + m < e && c[m] == '`')
                    m++;
                if (m == n)
                    close = c;
                c += m ? m : 1;
            }
            pr_buf_putc(out, GAP);
            s = close ? close + n : s + n;
        } else if (left >= 2 && s[0] == ']' && s[1] == '(') {
            pr_buf_putc(out, GAP);
            const char *end = target_end(s + 2, e);
            s = end < e ? end + 1 : e;
        } else if (*s == '<' && left > 1 &&
                   (s[1] == '/' || ((s[1] | 0x20) >= 'a' && (s[1] | 0x20) <= 'z')) &&
                   memchr(s, '>', left)) {
            /* an HTML tag or an autolink: no prose inside */
            pr_buf_putc(out, GAP);
            s = (const char *)memchr(s, '>', left) + 1;
        } else if ((left > 7 && memcmp(s, "http://", 7) == 0) ||
                   (left > 8 && memcmp(s, "https://", 8) == 0)) {
            pr_buf_putc(out, GAP);
            while (s < e && *s != ' ' && *s != ')')
                s++;
        } else if (left >= 5 && memcmp(s, "&amp;", 5) == 0) {
            pr_buf_putc(out, '&');
            s += 5;
        } else {
            pr_buf_putc(out, *s++);
        }
    }
}

/* --------------------------------------------------------- the names' search
 *
 * What the check did before, and must still do exactly: for each name,
 * longest first (one length in the order added), replace each occurrence
 * in the line, from the left, by GAPs; an occurrence overlapping one
 * already replaced (by a longer name, or by the same name just before) is
 * no longer there.  So a name's occurrence in the line as it came counts
 * when, at the name's turn, none of its bytes is a GAP yet: the automaton
 * finds every occurrence of every name in one pass, they are then applied
 * in the names' order.
 *
 * A name holding the GAP byte itself could match across what an earlier
 * name left out, which the line as it came does not show: such names (no
 * data has them) are searched with strstr at their turn, as before. */

/* A state of the automaton: the prefix of one or more names. */
typedef struct ac_state {
    size_t fail;        /* the longest proper suffix that is a state */
    size_t dict;        /* the longest proper suffix that is a whole name, NONE */
    size_t rank;        /* the name it is (its turn), NONE */
    size_t first, next; /* first child, next sibling (for building) */
    unsigned char byte; /* the byte that leads here from the parent */
} ac_state;

/* An occurrence: the name's turn and where it starts in the line. */
typedef struct ac_hit {
    size_t rank, at;
} ac_hit;

typedef struct lc_matcher {
    ac_state *st; /* st[0] the root */
    size_t nst;
    size_t root[256];    /* the root's children by byte, 0 when none */
    uint64_t *ekey;      /* the other edges: key (state << 8 | byte) + 1, 0 free */
    size_t *eval, ecap;  /* the child; ecap a power of two */
    size_t *order;       /* turn -> index in the names (ns->v) */
    size_t *slow, nslow; /* the turns of the names holding a GAP, ascending */
} lc_matcher;

/* One line's occurrences: the caller's scratch, so that pages are checked
 * on several threads with one automaton (report.c). */
typedef struct ac_hits {
    ac_hit *v;
    size_t n, cap;
} ac_hits;

static void matcher_free(lc_matcher *m)
{
    if (!m)
        return;
    free(m->st);
    free(m->ekey);
    free(m->eval);
    free(m->order);
    free(m->slow);
    free(m);
}

static size_t edge_slot(const lc_matcher *m, uint64_t key)
{
    size_t mask = m->ecap - 1;
    for (size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & mask;; i = (i + 1) & mask)
        if (m->ekey[i] == key || !m->ekey[i])
            return i;
}

/* The child of state s by byte c; 0 when none (the root is nobody's). */
static size_t edge_get(const lc_matcher *m, size_t s, unsigned char c)
{
    if (!s)
        return m->root[c];
    size_t i = edge_slot(m, ((uint64_t)s << 8 | c) + 1);
    return m->ekey[i] ? m->eval[i] : 0;
}

/* The child of state s by byte c, made when there is none. */
static size_t edge_make(lc_matcher *m, size_t s, unsigned char c)
{
    size_t t = edge_get(m, s, c);
    if (t)
        return t;
    t = m->nst++;
    m->st[t] = (ac_state){0, NONE, NONE, 0, m->st[s].first, c};
    m->st[s].first = t;
    if (!s) {
        m->root[c] = t;
    } else {
        uint64_t key = ((uint64_t)s << 8 | c) + 1;
        size_t i = edge_slot(m, key);
        m->ekey[i] = key;
        m->eval[i] = t;
    }
    return t;
}

typedef struct by_len {
    size_t len, index;
} by_len;

/* Longest first, one length in the order added. */
static int by_len_cmp(const void *a, const void *b)
{
    const by_len *x = a, *y = b;
    if (x->len != y->len)
        return x->len > y->len ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The automaton of ns's names: a new matcher the caller frees with
 * matcher_free. */
static lc_matcher *matcher_build(const langcheck_names *ns)
{
    lc_matcher *m = pr_xcalloc(1, sizeof *m);
    by_len *turns = pr_xmalloc((ns->n ? ns->n : 1) * sizeof *turns);
    size_t bytes = 0;
    for (size_t i = 0; i < ns->n; i++) {
        turns[i] = (by_len){ns->v[i].len, i};
        bytes += ns->v[i].len;
    }
    pr_qsort(turns, ns->n, sizeof *turns, by_len_cmp);
    m->order = pr_xmalloc((ns->n ? ns->n : 1) * sizeof *m->order);
    m->slow = pr_xmalloc((ns->n ? ns->n : 1) * sizeof *m->slow);
    m->st = pr_xmalloc((bytes + 1) * sizeof *m->st);
    m->st[0] = (ac_state){0, NONE, NONE, 0, 0, 0};
    m->nst = 1;
    for (m->ecap = 16; m->ecap < 2 * (bytes + 1); m->ecap *= 2)
        ;
    m->ekey = pr_xcalloc(m->ecap, sizeof *m->ekey);
    m->eval = pr_xmalloc(m->ecap * sizeof *m->eval);
    for (size_t r = 0; r < ns->n; r++) {
        const langcheck_name *nm = &ns->v[turns[r].index];
        m->order[r] = turns[r].index;
        if (memchr(nm->text, GAP, nm->len)) {
            m->slow[m->nslow++] = r;
            continue;
        }
        size_t s = 0;
        for (size_t i = 0; i < nm->len; i++)
            s = edge_make(m, s, (unsigned char)nm->text[i]);
        m->st[s].rank = r; /* names are kept once: no other ends here */
    }
    free(turns);
    /* Failure and name links, breadth first: a state's suffixes are
     * shorter, so theirs are known when it is reached. */
    size_t *queue = pr_xmalloc(m->nst * sizeof *queue), head = 0, tail = 0;
    for (size_t t = m->st[0].first; t; t = m->st[t].next)
        queue[tail++] = t; /* fail 0, dict NONE: as made */
    while (head < tail) {
        size_t s = queue[head++];
        for (size_t t = m->st[s].first; t; t = m->st[t].next) {
            unsigned char c = m->st[t].byte;
            size_t f = m->st[s].fail;
            while (f && !edge_get(m, f, c))
                f = m->st[f].fail;
            size_t g = edge_get(m, f, c);
            m->st[t].fail = g;
            m->st[t].dict = m->st[g].rank != NONE ? g : m->st[g].dict;
            queue[tail++] = t;
        }
    }
    free(queue);
    return m;
}

/* Occurrences from first to last turn, from the left within one. */
static int hit_cmp(const void *a, const void *b)
{
    const ac_hit *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* A name holding a GAP, at its turn: searched in the line as it is now. */
static void remove_slow(const langcheck_name *nm, char *text, size_t *work)
{
    for (char *p = strstr(text, nm->text); p; p = strstr(p + nm->len, nm->text)) {
        *work += (size_t)(p - text) + nm->len;
        memset(p, GAP, nm->len);
    }
    *work += strlen(text);
}

/* langcheck_names_remove with the automaton built, hits as scratch; adds
 * its steps to *work.  Reads ns only. */
static void remove_names(const langcheck_names *ns, ac_hits *hits, char *text, int zh, size_t *work)
{
    const lc_matcher *m = ns->m;
    hits->n = 0;
    size_t s = 0;
    for (size_t i = 0; text[i]; i++) {
        unsigned char c = (unsigned char)text[i];
        size_t t = 0;
        while (s && !(t = edge_get(m, s, c))) {
            s = m->st[s].fail;
            (*work)++;
        }
        s = s ? t : m->root[c];
        (*work)++;
        for (size_t h = m->st[s].rank != NONE ? s : m->st[s].dict; h != NONE; h = m->st[h].dict) {
            const langcheck_name *nm = &ns->v[m->order[m->st[h].rank]];
            (*work)++;
            if (!zh && !nm->cjk_ok)
                continue;
            if (hits->n == hits->cap) {
                hits->cap = hits->cap ? 2 * hits->cap : 16;
                hits->v = pr_xrealloc(hits->v, hits->cap * sizeof *hits->v);
            }
            hits->v[hits->n++] = (ac_hit){m->st[h].rank, i + 1 - nm->len};
        }
    }
    pr_qsort(hits->v, hits->n, sizeof *hits->v, hit_cmp);
    size_t k = 0;
    for (size_t j = 0; j <= hits->n; j++) {
        size_t rank = j < hits->n ? hits->v[j].rank : NONE;
        for (; k < m->nslow && m->slow[k] < rank; k++) {
            const langcheck_name *nm = &ns->v[m->order[m->slow[k]]];
            if (zh || nm->cjk_ok)
                remove_slow(nm, text, work);
        }
        if (j == hits->n)
            break;
        char *p = text + hits->v[j].at;
        size_t len = ns->v[m->order[rank]].len;
        if (!memchr(p, GAP, len))
            memset(p, GAP, len);
    }
}

void langcheck_names_prepare(langcheck_names *ns)
{
    if (ns->n && !ns->m)
        ns->m = matcher_build(ns);
}

void langcheck_names_remove(langcheck_names *ns, char *text, int zh)
{
    if (!ns->n)
        return;
    langcheck_names_prepare(ns);
    ac_hits hits = {NULL, 0, 0};
    size_t work = 0;
    remove_names(ns, &hits, text, zh, &work);
    ns->work += work;
    free(hits.v);
}

/* The code point at *s (advanced past it); a bad byte reads as itself. */
static unsigned utf8_next(const unsigned char **s)
{
    const unsigned char *p = *s;
    unsigned c = *p, n = 0;
    if (c >= 0xf0 && (c & 0xf8) == 0xf0)
        c &= 0x07, n = 3;
    else if ((c & 0xf0) == 0xe0)
        c &= 0x0f, n = 2;
    else if ((c & 0xe0) == 0xc0)
        c &= 0x1f, n = 1;
    for (unsigned i = 1; i <= n; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            *s = p + 1;
            return *p;
        }
        c = (c << 6) | (p[i] & 0x3f);
    }
    *s = p + 1 + n;
    return c;
}

/* CJK ideographs, CJK punctuation, full-width forms, kana. */
static int is_cjk(unsigned c)
{
    return (c >= 0x3000 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) ||
           (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) ||
           (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xffef) ||
           (c >= 0x20000 && c <= 0x2ffff);
}

/* English page: the first Chinese character of text; sets *at, *len to the
 * Chinese stretch around it (up to the next ASCII letter or the end).
 * Returns 0 when there is none. */
static int find_cjk(const char *text, size_t *at, size_t *len)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        const unsigned char *start = p;
        if (!is_cjk(utf8_next(&p)))
            continue;
        const unsigned char *end = p;
        while (*end && *end != GAP && !((*end | 0x20) >= 'a' && (*end | 0x20) <= 'z'))
            utf8_next(&end);
        *at = (size_t)(start - (const unsigned char *)text);
        *len = (size_t)(end - start);
        return 1;
    }
    return 0;
}

/* A token (ASCII, no space) is a word when, its surrounding punctuation
 * left aside, it is letters with at most a hyphen or apostrophe between
 * two of them. */
static int is_word(const char *s, size_t n)
{
    while (n && strchr("([{\"'*", *s))
        s++, n--;
    while (n && strchr(")]}\"'*,.;:!?", s[n - 1]))
        n--;
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int letter = (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
        int inner = (c == '-' || c == '\'') && i > 0 && i + 1 < n;
        if (!letter && !inner)
            return 0;
    }
    return 1;
}

/* Chinese page: the first run of RUN_MIN words or more in text; sets *at,
 * *len to it.  Returns 0 when there is none. */
static int find_latin_run(const char *text, size_t *at, size_t *len)
{
    const char *p = text, *run = NULL, *run_end = NULL;
    int words = 0;
    for (;;) {
        unsigned char c = (unsigned char)*p;
        if (c == ' ' || c == '\t') {
            p++;
            continue;
        }
        const char *tok = p;
        while (*p && *p != ' ' && *p != '\t' && *p != GAP && !((unsigned char)*p & 0x80))
            p++;
        int word = p > tok && is_word(tok, (size_t)(p - tok));
        if (word) {
            if (!words++)
                run = tok;
            run_end = p;
        }
        if (!word || !*p) {
            if (words >= RUN_MIN) {
                *at = (size_t)(run - text);
                *len = (size_t)(run_end - run);
                return 1;
            }
            words = 0;
        }
        if (!*p)
            return 0;
        if (p == tok) {
            /* a GAP or a non-ASCII character (Chinese, ×, –): the run ends */
            const unsigned char *u = (const unsigned char *)p;
            utf8_next(&u);
            p = (const char *)u;
            if (words >= RUN_MIN) {
                *at = (size_t)(run - text);
                *len = (size_t)(run_end - run);
                return 1;
            }
            words = 0;
        }
    }
}

/* Fenced code block: a line that opens or closes one (up to three spaces,
 * then three backticks or tildes). */
static char fence_of(const char *s, const char *e)
{
    for (int i = 0; i < 3 && s < e && *s == ' '; i++)
        s++;
    if (e - s >= 3 && (s[0] == '`' || s[0] == '~') && s[1] == s[0] && s[2] == s[0])
        return s[0];
    return 0;
}

/* Copies text[at..at+len) into a message, GAPs shown as "…". */
static void quote(pr_buf *out, const char *text, size_t at, size_t len)
{
    for (size_t i = at; i < at + len; i++)
        if (text[i] == GAP)
            pr_buf_puts(out, "…");
        else
            pr_buf_putc(out, text[i]);
}

/* An English page's line that cannot hold Chinese: outside a comment, no
 * comment opening, and no byte that starts a character of is_cjk's ranges
 * (U+3000 and up: a lead byte of 0xE3 or more).  Its prose would find
 * nothing, and reading it would change no state: most lines of a page are
 * this, and skip the names and the prose. */
static int no_cjk_possible(const scan *sc, const char *s, const char *e)
{
    if (sc->comment)
        return 0;
    for (const unsigned char *p = (const unsigned char *)s; p < (const unsigned char *)e; p++)
        if (*p >= 0xE3 || (*p == '<' && e - (const char *)p >= 4 && memcmp(p, "<!--", 4) == 0))
            return 0;
    return 1;
}

int langcheck_check_page(const char *page, const char *code, const char *md, size_t len,
                         langcheck_names *ns, pr_err *err)
{
    int zh = strcmp(code, "zh") == 0;
    if (ns->n && !ns->m)
        langcheck_names_prepare(ns);
    ac_hits hits = {NULL, 0, 0};
    size_t work = 0;
    scan sc = {0, 0};
    pr_buf prose = PR_BUF_INIT, first = PR_BUF_INIT, more = PR_BUF_INIT;
    int first_line = 0, nmore = 0, rc = 0;
    const char *s = md, *end = md + len;
    for (int line = 1; s < end; line++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *e = nl ? nl : end;
        char f = sc.comment ? 0 : fence_of(s, e);
        if (f && (!sc.fence || sc.fence == f)) {
            sc.fence = sc.fence ? 0 : f;
        } else if (!sc.fence && !(!zh && no_cjk_possible(&sc, s, e))) {
            pr_buf_clear(&prose);
            prose_of(&sc, s, e, &prose);
            char *text = (char *)pr_buf_cstr(&prose);
            if (ns->n)
                remove_names(ns, &hits, text, zh, &work);
            size_t at, n;
            if (zh ? find_latin_run(text, &at, &n) : find_cjk(text, &at, &n)) {
                if (!first_line) {
                    first_line = line;
                    quote(&first, text, at, n);
                } else if (nmore++ < MORE_MAX) {
                    pr_buf_printf(&more, "%s%d", nmore > 1 ? ", " : "", line);
                }
            }
        }
        s = nl ? nl + 1 : end;
    }
    if (first_line) {
        rc = pr_err_set(err, page, first_line, 0, NULL, "%s: «%s»%s%s%s%s",
                        zh ? "English words on a Chinese page" : "Chinese on an English page",
                        pr_buf_cstr(&first), nmore ? "; also on line(s) " : "", pr_buf_cstr(&more),
                        nmore > MORE_MAX ? ", …" : "",
                        " (docs/data-model.md#one-language-per-page)");
    }
    ns->work += work;
    free(hits.v);
    pr_buf_free(&prose);
    pr_buf_free(&first);
    pr_buf_free(&more);
    return rc;
}
