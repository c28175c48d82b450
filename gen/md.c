#include "md.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

double pr_md_round(double v, int decimals)
{
    double scale = pow(10.0, decimals);
    /* The 1e-9 nudge makes 2.675 (stored as 2.67499999...) round as written. */
    double r = round(v * scale + (v >= 0 ? 1e-9 : -1e-9)) / scale;
    return r == 0 ? 0.0 : r;
}

void pr_md_number(pr_buf *out, double v, int decimals)
{
    pr_buf_printf(out, "%.*f", decimals, pr_md_round(v, decimals));
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

void pr_md_cell(pr_buf *out, const char *s) { escape_inline(out, s); }
void pr_md_text(pr_buf *out, const char *s) { escape_inline(out, s); }

void pr_md_link_target(pr_buf *out, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c <= 0x20 || c == 0x7f || c == '(' || c == ')' || c == '<' || c == '>' ||
            c == '"' || c == '\\' || c == '`' || c == '%' || c == '|') {
            pr_buf_putc(out, '%');
            pr_buf_putc(out, hex[c >> 4]);
            pr_buf_putc(out, hex[c & 15]);
        } else {
            pr_buf_putc(out, c);
        }
    }
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

void pr_md_code_block(pr_buf *out, const char *lang, const char *s)
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

void pr_md_code_span(pr_buf *out, const char *s)
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

/* Decodes one UTF-8 sequence; returns its length (1 for invalid bytes). */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    size_t n = (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
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

void pr_md_anchor(pr_buf *out, const char *heading)
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

pr_md_anchors *pr_md_anchors_new(void) { return pr_xcalloc(1, sizeof(pr_md_anchors)); }

void pr_md_anchors_free(pr_md_anchors *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    free(a);
}

int pr_md_anchors_has(const pr_md_anchors *a, const char *anchor)
{
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->v[i], anchor) == 0)
            return 1;
    return 0;
}

void pr_md_anchors_add(pr_md_anchors *a, const char *heading, pr_buf *out)
{
    pr_buf base = PR_BUF_INIT, cand = PR_BUF_INIT;
    pr_md_anchor(&base, heading);
    pr_buf_puts(&cand, pr_buf_cstr(&base));
    for (int i = 1; pr_md_anchors_has(a, pr_buf_cstr(&cand)); i++) {
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

void pr_md_heading_plain(pr_buf *out, const char *s, size_t len)
{
    const char *end = s + len;
    while (s < end) {
        char c = *s;
        if (c == '\\' && s + 1 < end) {
            pr_buf_putc(out, s[1]);
            s += 2;
        } else if (c == '*' || c == '_' || c == '`') {
            s++; /* emphasis and code markers vanish, their content stays */
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

void pr_md_toc(pr_buf *out, const char *md, int min_level, int max_level)
{
    pr_md_anchors *a = pr_md_anchors_new();
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
                pr_md_heading_plain(&plain, t, tl);
                pr_md_anchors_add(a, pr_buf_cstr(&plain), &anchor);
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
    pr_md_anchors_free(a);
}
