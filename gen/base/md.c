#include "md.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double md_round(double v, int decimals)
{
    double scale = pow(10.0, decimals);
    /* The 1e-9 nudge makes 2.675 (stored as 2.67499999...) round as written. */
    double r = round(v * scale + (v >= 0 ? 1e-9 : -1e-9)) / scale;
    return r == 0 ? 0.0 : r;
}

void md_number(pr_buf *out, double v, int decimals)
{
    pr_buf_printf(out, "%.*f", decimals, md_round(v, decimals));
}

/* 1 when s is a plain decimal number, [+-]digits[.digits][e[+-]digits],
 * or one with a '%' right after it ("+0.1%", a page's gap): what a
 * spreadsheet reads as that number, never as a formula. */
static int csv_plain_number(const char *s)
{
    const char *p = s + (*s == '+' || *s == '-');
    size_t digits = strspn(p, "0123456789");
    p += digits;
    if (*p == '.') {
        size_t frac = strspn(p + 1, "0123456789");
        digits += frac;
        p += 1 + frac;
    }
    if (!digits)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p += 1 + (p[1] == '+' || p[1] == '-');
        size_t exp = strspn(p, "0123456789");
        if (!exp)
            return 0;
        p += exp;
    }
    return !*p || (p[0] == '%' && !p[1]);
}

/* A text cell a spreadsheet would run as a formula: it starts with one of
 * OWASP's triggers (= + - @ tab CR) and is not a plain number ("-3.5"). */
static int csv_formula_like(const char *s)
{
    return *s && strchr("=+-@\t\r", *s) && !csv_plain_number(s);
}

void md_csv_field(pr_buf *out, const char *s)
{
    if (!s)
        return;
    int formula = csv_formula_like(s);
    int quote = formula;
    for (const char *p = s; *p && !quote; p++)
        quote = *p == ',' || *p == '"' || *p == '\r' || *p == '\n';
    if (!quote) {
        pr_buf_puts(out, s);
        return;
    }
    pr_buf_putc(out, '"');
    if (formula) /* OWASP: a leading ' makes the cell text */
        pr_buf_putc(out, '\'');
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            pr_buf_putc(out, '"');
        pr_buf_putc(out, *p);
    }
    pr_buf_putc(out, '"');
}

/* v's shortest digits: digits[] gets the significant digits (no trailing
 * zeros, NUL-ended), *exp10 the decimal exponent of the first.  15
 * significant digits are tried first (DBL_DIG: a decimal of 15 digits or
 * fewer that reads back as v is v's nearest at 15, so %.14e finds it with
 * its zeros stripped), then 16, then 17, which always reads back. */
static int shortest_digits(double v, char digits[20], int *exp10)
{
    char b[40];
    /* A whole number below 10^15 is its own digits: printed as an integer,
     * not through the decimal conversion of a double (a median of whole
     * images/s is most of reports/figures.csv, issue 31 #17). */
    if (fabs(v) < 1e15 && v == trunc(v) && v != 0) {
        int n = snprintf(b, sizeof b, "%lld", (long long)fabs(v));
        *exp10 = n - 1;
        while (n > 1 && b[n - 1] == '0')
            n--;
        memcpy(digits, b, (size_t)n);
        digits[n] = '\0';
        return n;
    }
    for (int p = 15; p <= 17; p++) {
        snprintf(b, sizeof b, "%.*e", p - 1, v);
        if (p < 17 && strtod(b, NULL) != v)
            continue;
        const char *m = b + (b[0] == '-');
        size_t n = 0;
        for (; *m && *m != 'e'; m++)
            if (*m >= '0' && *m <= '9')
                digits[n++] = *m;
        while (n > 1 && digits[n - 1] == '0')
            n--;
        digits[n] = '\0';
        *exp10 = atoi(m + 1);
        return (int)n;
    }
    return 17; /* not reached */
}

int md_num_shortest_digits(double v)
{
    if (!isfinite(v) || v == 0)
        return 1;
    char digits[20];
    int exp10;
    return shortest_digits(v, digits, &exp10);
}

void md_num_shortest(pr_buf *out, double v)
{
    if (!isfinite(v))
        return;
    if (v == 0) {
        pr_buf_putc(out, '0');
        return;
    }
    char d[20];
    int e;
    int n = shortest_digits(v, d, &e);
    if (v < 0)
        pr_buf_putc(out, '-');
    /* The digits' decimal exponent: from 1e-4 to 1e16 the same digits in
     * fixed notation (100, not "1e+02"), else in %g's exponent form
     * ("2.7594938767729934e-05", not 23 characters of zeros and digits):
     * where Python's repr switches too. */
    if (e >= -4 && e < 16) {
        if (e < 0) {
            pr_buf_puts(out, "0.");
            for (int i = -1; i > e; i--)
                pr_buf_putc(out, '0');
            pr_buf_puts(out, d);
        } else if (e + 1 >= n) {
            pr_buf_puts(out, d);
            for (int i = n; i <= e; i++)
                pr_buf_putc(out, '0');
        } else {
            pr_buf_put(out, d, (size_t)e + 1);
            pr_buf_putc(out, '.');
            pr_buf_puts(out, d + e + 1);
        }
    } else {
        pr_buf_putc(out, d[0]);
        if (n > 1) {
            pr_buf_putc(out, '.');
            pr_buf_puts(out, d + 1);
        }
        pr_buf_printf(out, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    }
}

static void escape_inline(pr_buf *out, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f) {
            pr_buf_putc(out, ' ');
        } else if (strchr("|\\`*_[]<>#!~$", c)) {
            pr_buf_putc(out, '\\');
            pr_buf_putc(out, c);
        } else if (c == '&') {
            pr_buf_puts(out, "&amp;");
        } else {
            pr_buf_putc(out, c);
        }
    }
}

void md_cell(pr_buf *out, const char *s)
{
    escape_inline(out, s);
}
void md_text(pr_buf *out, const char *s)
{
    escape_inline(out, s);
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static void put_pct(pr_buf *out, unsigned char c)
{
    static const char hex[] = "0123456789ABCDEF";
    pr_buf_putc(out, '%');
    pr_buf_putc(out, hex[c >> 4]);
    pr_buf_putc(out, hex[c & 15]);
}

void md_link_target(pr_buf *out, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        /* A URL's own escapes (%20) stay as they are: encoding them again
         * would point somewhere else. */
        int escape = c == '%' && is_hex(s[1]) && is_hex(s[2]);
        if (c <= 0x20 || c == 0x7f || c == '(' || c == ')' || c == '<' || c == '>' || c == '"' ||
            c == '\\' || c == '`' || (c == '%' && !escape) || c == '|')
            put_pct(out, c);
        else
            pr_buf_putc(out, c);
    }
}

void md_link_path(pr_buf *out, const char *path)
{
    /* '#' and '?' would end the path (fragment, query), '&' start an
     * entity, ':' in the first part read as a scheme; controls, space and
     * DEL are escaped too; UTF-8 is kept as GitHub accepts it.  Runs of
     * the rest are copied whole (a log link per record on every page). */
    static const char escaped[] = "\"#%&()<>?[\\]^`{|}:\x7f \x01\x02\x03\x04\x05\x06\x07\x08"
                                  "\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16"
                                  "\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f";
    for (const char *s = path; s && *s;) {
        size_t n = strcspn(s, escaped);
        pr_buf_put(out, s, n);
        s += n;
        if (*s)
            put_pct(out, (unsigned char)*s++);
    }
}

void md_shell_word(pr_buf *out, const char *s)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789_@%+=:,./-";
    if (s && *s && strspn(s, safe) == strlen(s)) {
        pr_buf_puts(out, s);
        return;
    }
    pr_buf_putc(out, '\'');
    for (; s && *s; s++) {
        if (*s == '\'')
            pr_buf_puts(out, "'\\''");
        else
            pr_buf_putc(out, *s);
    }
    pr_buf_putc(out, '\'');
}

static size_t longest_run(const char *s, char ch)
{
    size_t best = 0, cur = 0;
    for (; s && *s; s++) {
        cur = *s == ch ? cur + 1 : 0;
        if (cur > best)
            best = cur;
    }
    return best;
}

void md_code_block(pr_buf *out, const char *lang, const char *s)
{
    size_t n = longest_run(s, '`') + 1;
    if (n < 3)
        n = 3;
    for (size_t i = 0; i < n; i++)
        pr_buf_putc(out, '`');
    pr_buf_puts(out, lang ? lang : "");
    pr_buf_putc(out, '\n');
    pr_buf_puts(out, s ? s : "");
    if (!s || !*s || s[strlen(s) - 1] != '\n')
        pr_buf_putc(out, '\n');
    for (size_t i = 0; i < n; i++)
        pr_buf_putc(out, '`');
    pr_buf_putc(out, '\n');
}

void md_code_span(pr_buf *out, const char *s)
{
    size_t n = longest_run(s, '`') + 1;
    for (size_t i = 0; i < n; i++)
        pr_buf_putc(out, '`');
    int pad = s && (*s == '`' || (*s && s[strlen(s) - 1] == '`'));
    if (pad)
        pr_buf_putc(out, ' ');
    for (const char *p = s; p && *p; p++)
        pr_buf_putc(out, (unsigned char)*p < 0x20 ? ' ' : *p);
    if (pad)
        pr_buf_putc(out, ' ');
    for (size_t i = 0; i < n; i++)
        pr_buf_putc(out, '`');
}

void md_code_cell(pr_buf *out, const char *s)
{
    /* GFM splits a table row at every unescaped '|', code spans included;
     * "\|" there is a '|' in the code. */
    pr_buf tmp = PR_BUF_INIT;
    md_code_span(&tmp, s);
    for (const char *p = pr_buf_cstr(&tmp); *p; p++) {
        if (*p == '|')
            pr_buf_putc(out, '\\');
        pr_buf_putc(out, *p);
    }
    pr_buf_free(&tmp);
}

/* Decodes one UTF-8 sequence; returns its length (1 for invalid bytes). */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    size_t n = (s[0] & 0xE0) == 0xC0   ? 2
               : (s[0] & 0xF0) == 0xE0 ? 3
               : (s[0] & 0xF8) == 0xF0 ? 4
                                       : 0;
    if (!n) {
        *cp = 0xFFFD;
        return 1;
    }
    uint32_t v = s[0] & (0xFF >> (n + 1));
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3F);
    }
    *cp = v;
    return n;
}

/* GitHub keeps letters, marks, numbers and connector punctuation.  Without
 * a Unicode database we keep every non-ASCII code point except the
 * punctuation and symbol blocks headings use in practice. */
static int anchor_keeps(uint32_t cp)
{
    if (cp < 0x80)
        return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9') ||
               cp == '-' || cp == '_' || cp == ' ';
    if (cp >= 0x80 && cp <= 0xBF)
        return cp == 0xAA || cp == 0xB2 || cp == 0xB3 || cp == 0xB5 || cp == 0xB9 || cp == 0xBA ||
               (cp >= 0xBC && cp <= 0xBE);
    if (cp == 0xD7 || cp == 0xF7)
        return 0;
    if (cp >= 0x2000 && cp <= 0x2BFF) /* general punctuation, arrows, symbols */
        return (cp >= 0x2070 && cp <= 0x209F) || (cp >= 0x2150 && cp <= 0x218F);
    if (cp >= 0x3000 && cp <= 0x303F) /* CJK punctuation: keep the iteration marks */
        return cp == 0x3005 || cp == 0x3006 || cp == 0x3007 || (cp >= 0x3021 && cp <= 0x3029);
    if (cp >= 0xFE30 && cp <= 0xFE4F) /* CJK compatibility forms */
        return 0;
    if (cp >= 0xFF00 && cp <= 0xFFEF) /* fullwidth: keep digits and letters */
        return (cp >= 0xFF10 && cp <= 0xFF19) || (cp >= 0xFF21 && cp <= 0xFF3A) ||
               (cp >= 0xFF41 && cp <= 0xFF5A) || cp == 0xFF3F || (cp >= 0xFF66);
    if (cp >= 0x1F000) /* emoji and pictographs */
        return 0;
    return cp != 0xFFFD;
}

void md_anchor(pr_buf *out, const char *heading)
{
    const unsigned char *s = (const unsigned char *)heading;
    while (*s) {
        uint32_t cp;
        size_t n = utf8_decode(s, &cp);
        if (anchor_keeps(cp)) {
            if (cp == ' ')
                pr_buf_putc(out, '-');
            else if (cp >= 'A' && cp <= 'Z')
                pr_buf_putc(out, (int)(cp - 'A' + 'a'));
            else
                pr_buf_put(out, s, n);
        }
        s += n;
    }
}

struct pr_md_anchors {
    char **v;
    size_t n, cap;
};

pr_md_anchors *md_anchors_new(void)
{
    return pr_xcalloc(1, sizeof(pr_md_anchors));
}

void md_anchors_free(pr_md_anchors *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    free(a);
}

int md_anchors_has(const pr_md_anchors *a, const char *anchor)
{
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->v[i], anchor) == 0)
            return 1;
    return 0;
}

void md_anchors_add(pr_md_anchors *a, const char *heading, pr_buf *out)
{
    pr_buf base = PR_BUF_INIT, cand = PR_BUF_INIT;
    md_anchor(&base, heading);
    pr_buf_puts(&cand, pr_buf_cstr(&base));
    for (int i = 1; md_anchors_has(a, pr_buf_cstr(&cand)); i++) {
        pr_buf_clear(&cand);
        pr_buf_printf(&cand, "%s-%d", pr_buf_cstr(&base), i);
    }
    if (a->n == a->cap)
        a->v = pr_xrealloc(a->v, (a->cap = a->cap ? a->cap * 2 : 16) * sizeof *a->v);
    a->v[a->n++] = pr_xstrdup(pr_buf_cstr(&cand));
    pr_buf_puts(out, pr_buf_cstr(&cand));
    pr_buf_free(&base);
    pr_buf_free(&cand);
}

static void put_utf8(pr_buf *out, uint32_t cp)
{
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        cp = 0xFFFD;
    if (cp < 0x80) {
        pr_buf_putc(out, (int)cp);
    } else if (cp < 0x800) {
        pr_buf_putc(out, (int)(0xC0 | (cp >> 6)));
        pr_buf_putc(out, (int)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        pr_buf_putc(out, (int)(0xE0 | (cp >> 12)));
        pr_buf_putc(out, (int)(0x80 | ((cp >> 6) & 0x3F)));
        pr_buf_putc(out, (int)(0x80 | (cp & 0x3F)));
    } else {
        pr_buf_putc(out, (int)(0xF0 | (cp >> 18)));
        pr_buf_putc(out, (int)(0x80 | ((cp >> 12) & 0x3F)));
        pr_buf_putc(out, (int)(0x80 | ((cp >> 6) & 0x3F)));
        pr_buf_putc(out, (int)(0x80 | (cp & 0x3F)));
    }
}

/* The entity at s (s[0] == '&') decoded into out; returns the bytes it
 * takes, 0 when s starts no entity this module knows (then '&' is text).
 * The escapers write "&amp;": without this the TOC made "#r-ampd" for a
 * heading GitHub anchors "#rd". */
static size_t entity(const char *s, const char *end, pr_buf *out)
{
    static const struct {
        const char *name;
        char c;
    } named[] = {{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}};
    size_t avail = (size_t)(end - s) - 1;
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        size_t n = strlen(named[i].name);
        if (n <= avail && memcmp(s + 1, named[i].name, n) == 0) {
            pr_buf_putc(out, named[i].c);
            return n + 1;
        }
    }
    if (avail < 3 || s[1] != '#')
        return 0;
    int hex = s[2] == 'x' || s[2] == 'X';
    const char *p = s + 2 + hex;
    uint32_t cp = 0;
    size_t digits = 0;
    for (; p < end && (hex ? is_hex(*p) : (*p >= '0' && *p <= '9')); p++, digits++)
        if (cp <= 0x10FFFF)
            cp = cp * (hex ? 16 : 10) + (uint32_t)(*p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10);
    if (digits == 0 || digits > (hex ? 6u : 7u) || p >= end || *p != ';')
        return 0;
    put_utf8(out, cp);
    return (size_t)(p + 1 - s);
}

void md_heading_plain(pr_buf *out, const char *s, size_t len)
{
    const char *end = s + len;
    while (s < end) {
        char c = *s;
        size_t n;
        if (c == '\\' && s + 1 < end) {
            pr_buf_putc(out, s[1]);
            s += 2;
        } else if (c == '&' && (n = entity(s, end, out)) > 0) {
            s += n;
        } else if (c == '`') {
            /* A code span keeps its content as written (no escapes, no
             * entities); an unmatched run of backticks is text. */
            size_t run = 0;
            while (s + run < end && s[run] == '`')
                run++;
            const char *close = NULL;
            for (const char *q = s + run; q < end;) {
                if (*q != '`') {
                    q++;
                    continue;
                }
                size_t r = 0;
                while (q + r < end && q[r] == '`')
                    r++;
                if (r == run) {
                    close = q;
                    break;
                }
                q += r;
            }
            if (close) {
                const char *a = s + run, *b = close;
                if (b - a >= 2 && a[0] == ' ' && b[-1] == ' ' && b - a > (ptrdiff_t)strspn(a, " "))
                    a++, b--;
                pr_buf_put(out, a, (size_t)(b - a));
                s = close + run;
            } else {
                s += run; /* the markers vanish; GitHub drops '`' from anchors anyway */
            }
        } else if (c == '*' || c == '_') {
            s++; /* emphasis markers vanish, their content stays */
        } else if (c == '[') {
            s++; /* link text stays; the target is skipped below */
        } else if (c == ']' && s + 1 < end && s[1] == '(') {
            const char *close = memchr(s, ')', (size_t)(end - s));
            s = close ? close + 1 : end;
        } else if (c == ']') {
            s++;
        } else {
            pr_buf_putc(out, c);
            s++;
        }
    }
}

void md_toc(pr_buf *out, const char *md, int min_level, int max_level)
{
    pr_md_anchors *a = md_anchors_new();
    int in_fence = 0;
    const char *line = md;
    while (*line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (len >= 3 && (strncmp(line, "```", 3) == 0 || strncmp(line, "~~~", 3) == 0)) {
            in_fence = !in_fence;
        } else if (!in_fence && len > 0 && line[0] == '#') {
            int level = 0;
            while ((size_t)level < len && line[level] == '#')
                level++;
            if (level <= 6 && (size_t)level < len && line[level] == ' ') {
                const char *t = line + level + 1;
                size_t tl = len - (size_t)level - 1;
                while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '#'))
                    tl--;
                pr_buf plain = PR_BUF_INIT, anchor = PR_BUF_INIT;
                md_heading_plain(&plain, t, tl);
                md_anchors_add(a, pr_buf_cstr(&plain), &anchor);
                if (level >= min_level && level <= max_level) {
                    for (int i = min_level; i < level; i++)
                        pr_buf_puts(out, "  ");
                    pr_buf_puts(out, "- [");
                    pr_buf_put(out, t, tl);
                    pr_buf_puts(out, "](#");
                    pr_buf_puts(out, pr_buf_cstr(&anchor));
                    pr_buf_puts(out, ")\n");
                }
                pr_buf_free(&plain);
                pr_buf_free(&anchor);
            }
        }
        line += len + (nl ? 1 : 0);
    }
    md_anchors_free(a);
}

/* The length of the UTF-8 sequence at s (1 .. 4) when it is well formed
 * (shortest form, no surrogate, at most U+10FFFF), with its code point in
 * *cp; 0 when it is not. */
static size_t utf8_char(const unsigned char *s, unsigned *cp)
{
    size_t n = s[0] < 0x80                    ? 1
               : s[0] >= 0xC2 && s[0] <= 0xDF ? 2
               : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
               : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
                                              : 0;
    if (!n)
        return 0;
    unsigned c = n == 1 ? s[0] : s[0] & (0x7F >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3F);
    }
    if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
        (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

void md_xml(pr_buf *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c;
        size_t n = utf8_char(p, &c);
        if (!n) { /* not UTF-8: dropped, byte by byte */
            p++;
            continue;
        }
        switch (c) {
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
            /* XML 1.0's Char: tab, LF, CR, U+0020-D7FF, U+E000-FFFD,
             * U+10000-10FFFF; anything else is dropped (no escape makes it
             * legal) */
            if (c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF) ||
                (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000)
                pr_buf_put(out, (const char *)p, n);
        }
        p += n;
    }
}

/* The characters (UTF-8 sequences) of s[0, n). */
static size_t utf8_chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* The column where line's list item text starts ("- ", "  * ", "12. "):
 * what a continuation is indented to; 0 for a paragraph. */
static size_t item_indent(const char *line, size_t n)
{
    size_t i = 0;
    while (i < n && line[i] == ' ')
        i++;
    if (i + 1 < n && strchr("-*+", line[i]) && line[i + 1] == ' ')
        return i + 2;
    size_t d = i;
    while (d < n && line[d] >= '0' && line[d] <= '9')
        d++;
    if (d > i && d + 1 < n && (line[d] == '.' || line[d] == ')') && line[d + 1] == ' ')
        return d + 2;
    return 0;
}

/* 1 when text at s (of n bytes) may start a continuation line: nothing
 * that Markdown would read as a new block (a list item, heading, quote,
 * table, fence, HTML). */
static int safe_continuation(const char *s, size_t n)
{
    if (!n || strchr("-+*#>|<`~=", s[0]) || s[0] == ' ')
        return 0;
    size_t d = 0;
    while (d < n && s[d] >= '0' && s[d] <= '9')
        d++;
    return !(d > 0 && d < n && (s[d] == '.' || s[d] == ')'));
}

/* One prose line (no newline), broken as md_wrap_prose says. */
static void wrap_line(pr_buf *out, const char *line, size_t n)
{
    size_t indent = item_indent(line, n), start = 0;
    /* In a code span; in a link's (target); inside [link text] or an
     * image's [alt text], which tests and readers take whole. */
    int code = 0, target = 0, depth = 0;
    for (size_t i = 0; i < n; i++) {
        char c = line[i];
        if (c == '\\' && i + 1 < n) {
            i++;
            continue;
        }
        if (c == '`')
            code = !code;
        else if (!code && c == '(' && i > 0 && line[i - 1] == ']')
            target = 1;
        else if (!code && c == ')' && target)
            target = 0;
        else if (!code && !target && c == '[')
            depth++;
        else if (!code && !target && c == ']' && depth > 0)
            depth--;
        if (code || target || depth)
            continue;
        /* The break point: after ". " / "; " (the space dropped), or after
         * "。" / "；" (3 bytes each). */
        size_t end = 0, next = 0;
        if ((c == '.' || c == ';') && i + 1 < n && line[i + 1] == ' ')
            end = i + 1, next = i + 2;
        else if (i + 3 <= n && (memcmp(line + i, "\xE3\x80\x82", 3) == 0 ||
                                memcmp(line + i, "\xEF\xBC\x9B", 3) == 0))
            end = next = i + 3;
        if (!end || next >= n || !safe_continuation(line + next, n - next) ||
            utf8_chars(line + start, end - start) < PR_MD_WRAP_AT)
            continue;
        pr_buf_put(out, line + start, end - start);
        pr_buf_putc(out, '\n');
        for (size_t k = 0; k < indent; k++)
            pr_buf_putc(out, ' ');
        start = next;
        i = next - 1;
    }
    pr_buf_put(out, line + start, n - start);
}

void md_wrap_prose(pr_buf *out, const char *md, size_t len)
{
    int fenced = 0;
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(md + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (md + pos)) : len - pos;
        const char *line = md + pos;
        size_t lead = 0;
        while (lead < n && line[lead] == ' ')
            lead++;
        int fence = n - lead >= 3 &&
                    (memcmp(line + lead, "```", 3) == 0 || memcmp(line + lead, "~~~", 3) == 0);
        if (fence)
            fenced = !fenced;
        /* An image's line is its alt text, which readers of the page
         * do not see and tests read as one line: left whole. */
        int image = n - lead >= 2 && line[lead] == '!' && line[lead + 1] == '[';
        int prose =
            !fenced && !fence && !image && lead < n && !strchr("|#<", line[lead]) && lead < 4;
        if (prose && utf8_chars(line, n) > PR_MD_WRAP_OVER)
            wrap_line(out, line, n);
        else
            pr_buf_put(out, line, n);
        if (nl)
            pr_buf_putc(out, '\n');
        pos += n + (nl != NULL);
    }
}
