#include "langcheck.h"

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

void lc_names_add(lc_names *ns, const char *name, int cjk_ok)
{
    if (!name || !*name)
        return;
    for (size_t i = 0; i < ns->n; i++)
        if (strcmp(ns->v[i].text, name) == 0) {
            ns->v[i].cjk_ok |= cjk_ok;
            return;
        }
    /* Longest first: "PyTorch (synthetic data)" goes out whole before
     * "PyTorch" could cut it. */
    size_t at = 0, len = strlen(name);
    while (at < ns->n && strlen(ns->v[at].text) >= len)
        at++;
    ns->v = pr_xrealloc(ns->v, (ns->n + 1) * sizeof *ns->v);
    memmove(&ns->v[at + 1], &ns->v[at], (ns->n - at) * sizeof *ns->v);
    ns->v[at].text = pr_xstrdup(name);
    ns->v[at].cjk_ok = cjk_ok;
    ns->n++;
}

static void add_table_names(lc_names *ns, const pr_pub_table *t)
{
    lc_names_add(ns, t->label, 0);
    lc_names_add(ns, t->model_title, 0);
    lc_names_add(ns, t->framework_title, 0);
    lc_names_add(ns, t->source_title, 1);
}

/* Every string of an environment record: what a machine printed (a GPU's
 * name, a version line), quoted as it is. */
static void add_printed(lc_names *ns, const json_t *v)
{
    const char *k;
    json_t *val;
    size_t i;
    if (json_is_string(v))
        lc_names_add(ns, json_string_value(v), 0);
    else if (json_is_object(v))
        json_object_foreach((json_t *)v, k, val) add_printed(ns, val);
    else if (json_is_array(v))
        json_array_foreach(v, i, val) add_printed(ns, val);
}

void lc_names_from_data(lc_names *ns, const pr_dataset *d)
{
    /* The language links of every page: each language's own name. */
    lc_names_add(ns, "中文", 1);
    lc_names_add(ns, "English", 0);
    for (size_t i = 0; i < d->nsuites; i++) {
        lc_names_add(ns, d->suites[i]->model_title, 0);
        lc_names_add(ns, d->suites[i]->framework_title, 0);
    }
    for (size_t i = 0; i < d->npubs; i++)
        add_table_names(ns, &d->pubs[i]);
    for (size_t i = 0; i < d->nrestated; i++)
        add_table_names(ns, &d->restated[i]);
    for (size_t i = 0; i < d->nruns; i++)
        add_printed(ns, d->runs[i].env);
    for (size_t i = 0; i < d->platforms.n; i++) {
        const pr_platform *p = &d->platforms.v[i];
        lc_names_add(ns, p->title_en, 0);
        lc_names_add(ns, p->device, 0);
        for (char **m = p->match; m && *m; m++)
            lc_names_add(ns, *m, 0);
    }
}

void lc_names_free(lc_names *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        free(ns->v[i].text);
    free(ns->v);
    ns->v = NULL;
    ns->n = 0;
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
    return c > 0x20 && c < 0x7f && !((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
                                     (c >= 'a' && c <= 'z'));
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

/* Replaces every occurrence of each name in text (NUL-terminated, edited in
 * place) by GAPs; on an English page only the names that may hold Chinese
 * go, and only those that do (the others would hide nothing). */
static void remove_names(char *text, const lc_names *ns, int zh)
{
    for (size_t i = 0; i < ns->n; i++) {
        if (!zh && !ns->v[i].cjk_ok)
            continue;
        size_t len = strlen(ns->v[i].text);
        for (char *p = strstr(text, ns->v[i].text); p; p = strstr(p + len, ns->v[i].text))
            memset(p, GAP, len);
    }
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

int lc_check_page(const char *page, const char *code, const char *md, size_t len,
                  const lc_names *ns, pr_err *err)
{
    int zh = strcmp(code, "zh") == 0;
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
        } else if (!sc.fence) {
            pr_buf_clear(&prose);
            prose_of(&sc, s, e, &prose);
            char *text = (char *)pr_buf_cstr(&prose);
            remove_names(text, ns, zh);
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
                        pr_buf_cstr(&first), nmore ? "; also on line(s) " : "",
                        pr_buf_cstr(&more), nmore > MORE_MAX ? ", …" : "",
                        " (docs/data-model.md#one-language-per-page)");
    }
    pr_buf_free(&prose);
    pr_buf_free(&first);
    pr_buf_free(&more);
    return rc;
}
