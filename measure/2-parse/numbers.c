#include "numbers.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Longest number text read (digits, separators, sign, exponent). */
enum { NUM_MAX = 64 };

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_word(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* Exact powers of ten (all representable in a double). */
static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* "ddd.ddd" with at most 15 significant digits, read without strtod: both
 * the digits and the power of ten are exact doubles, so one division is
 * correctly rounded and the result is the one strtod gives (Clinger's fast
 * path).  Returns 0 when the text needs strtod (exponent, many digits). */
static int fast_decimal(const char *t, double *out, const char **end)
{
    const char *p = t;
    int neg = 0;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    unsigned long long m = 0;
    int digits = 0, frac = 0;
    for (; is_digit(*p); p++, digits++)
        m = m * 10 + (unsigned)(*p - '0');
    if (*p == '.')
        for (p++; is_digit(*p); p++, digits++, frac++)
            m = m * 10 + (unsigned)(*p - '0');
    if (digits == 0 || digits > 15 || *p == 'e' || *p == 'E')
        return 0;
    double v = (double)m / pow10_exact[frac];
    *out = neg ? -v : v;
    *end = p;
    return 1;
}

/* Decimal notation only, no grouping: "None", "nan", "inf" and hex are not
 * numbers.  Says nothing about what follows (see clean_end). */
static int plain_number(const char *t, double *out, const char **end)
{
    const char *q = t;
    if (*q == '+' || *q == '-')
        q++;
    if (*q == '.')
        q++;
    if (!is_digit(*q))
        return 0;
    if (fast_decimal(t, out, end))
        return 1;
    char *e;
    errno = 0;
    double v = strtod(t, &e);
    if (errno == ERANGE || !isfinite(v))
        return 0;
    for (const char *x = t; x < e; x++)
        if (!(is_digit(*x) || *x == '.' || *x == 'e' || *x == 'E' || *x == '+' || *x == '-'))
            return 0; /* strtod read hex or "infinity" */
    *out = v;
    *end = e;
    return 1;
}

/* Digits grouped by sep ("1,234", "-1,234,567.5" for ','): returns 1 with
 * the number and *end past it, 0 when t does not start with grouped digits
 * (read it plainly), -1 when it does but the groups are not of three
 * digits after one to three ("1,23", "1234,567"). */
static int grouped_number(const char *t, char sep, double *out, const char **end)
{
    char tmp[NUM_MAX];
    size_t n = 0;
    const char *p = t;
    if (*p == '+' || *p == '-')
        tmp[n++] = *p++;
    const char *d0 = p;
    while (is_digit(*p))
        p++;
    size_t lead = (size_t)(p - d0);
    if (lead == 0 || *p != sep || !is_digit(p[1]))
        return 0;
    if (lead > 3)
        return -1;
    memcpy(tmp + n, d0, lead);
    n += lead;
    while (*p == sep && is_digit(p[1])) {
        if (!is_digit(p[2]) || !is_digit(p[3]) || is_digit(p[4]) || n + 3 >= NUM_MAX)
            return -1;
        memcpy(tmp + n, p + 1, 3);
        n += 3;
        p += 4;
    }
    if (*p == '.' && is_digit(p[1])) {
        tmp[n++] = *p++;
        while (is_digit(*p)) {
            if (n + 1 >= NUM_MAX)
                return -1;
            tmp[n++] = *p++;
        }
    }
    tmp[n] = '\0';
    const char *e;
    if (!plain_number(tmp, out, &e) || *e != '\0')
        return -1;
    *end = p;
    return 1;
}

/* What may follow a number: the end, a blank, punctuation or a unit
 * ("0.895," "12.5ms" "393.5 samples/sec").  Not more digits, dots, colons
 * or slashes ("12:30:44", "1.2.3", "8/40"), a broken exponent ("1e5e5"),
 * hex ("0x1A"), digits grouped by a comma or quote ("1,234" "12'345"), and,
 * when blanks count (a keyword's value), digits after blanks ("12 345"). */
static int clean_end(const char *e, int blanks_count)
{
    unsigned char c = (unsigned char)*e;
    if (c == '\0' || c == '\n' || c == '\r' || c == '\v' || c == '\f')
        return 1;
    if (c == ' ' || c == '\t') {
        if (!blanks_count)
            return 1;
        while (*e == ' ' || *e == '\t')
            e++;
        return !is_digit(*e);
    }
    if (isalpha(c)) {
        if (c == 'e' || c == 'E')
            return isalpha((unsigned char)e[1]) != 0;
        return !((c == 'x' || c == 'X') && isxdigit((unsigned char)e[1]));
    }
    if (strchr(",;|)]}%\"'", c))
        return !((c == ',' || c == '\'') && is_digit(e[1]));
    return 0;
}

static int read_at(const char *t, char sep, int blanks_count, double *out, const char **end)
{
    const char *e = NULL;
    double v;
    int g = sep ? grouped_number(t, sep, &v, &e) : 0;
    if (g < 0 || (g == 0 && !plain_number(t, &v, &e)))
        return 0;
    /* after a grouped number, the separator and a digit are a bad group */
    if (!clean_end(e, blanks_count) || (sep && *e == sep && is_digit(e[1])))
        return 0;
    *out = v;
    if (end)
        *end = e;
    return 1;
}

int numbers_read(const char *t, char sep, double *out, const char **end)
{
    return read_at(t, sep, 1, out, end);
}

/* Comparing the needle's first and last bytes 16 positions at a time and
 * checking the candidates with memcmp is several times faster on log lines
 * than glibc's memmem, which sets up a shift table on every call. */
const char *numbers_find(const char *s, size_t len, const char *n, size_t m)
{
    if (m == 0 || m > len)
        return NULL;
    if (m == 1)
        return memchr(s, n[0], len);
    size_t i = 0;
#ifdef __SSE2__
    const __m128i first = _mm_set1_epi8(n[0]), last = _mm_set1_epi8(n[m - 1]);
    for (; i + m - 1 + 16 <= len; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + m - 1));
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last)));
        while (mask) {
            unsigned bit = (unsigned)__builtin_ctz(mask);
            if (memcmp(s + i + bit + 1, n + 1, m - 2) == 0)
                return s + i + bit;
            mask &= mask - 1;
        }
    }
#endif
    return memmem(s + i, len - i, n, m);
}

int numbers_after(const char *s, size_t len, const char *kw, size_t kwlen, char sep, double *out,
                  const char **val)
{
    const char *p = s, *end = s + len;
    int word_start = is_word(kw[0]), word_end = is_word(kw[kwlen - 1]);
    int has_sep = kw[kwlen - 1] == ':' || kw[kwlen - 1] == '=';
    const char *q;
    while ((q = numbers_find(p, (size_t)(end - p), kw, kwlen)) != NULL) {
        const char *t = q + kwlen;
        p = q + 1;
        if ((word_start && q > s && is_word(q[-1])) || (word_end && t < end && is_word(*t)))
            continue;
        while (*t == ' ' || *t == '\t')
            t++;
        if (!has_sep && (*t == ':' || *t == '=')) {
            t++;
            while (*t == ' ' || *t == '\t')
                t++;
        }
        if (val)
            *val = t;
        return read_at(t, sep, 1, out, NULL) ? PR_NUM_FOUND : PR_NUM_BAD;
    }
    return PR_NUM_NONE;
}

/* Copies s[0..len), blanks trimmed, to tmp; 0 when empty or too long. */
static int trimmed(const char *s, size_t len, char *tmp, const char **start)
{
    while (len && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 0 || len >= NUM_MAX)
        return 0;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    if (start)
        *start = s;
    return 1;
}

int numbers_whole(const char *s, size_t len, double *out)
{
    char tmp[NUM_MAX];
    const char *e;
    return trimmed(s, len, tmp, NULL) && read_at(tmp, 0, 1, out, &e) && *e == '\0';
}

/* Whether s..after (a number) with what follows reads as digits grouped
 * by one blank, "12 345": one to three digits, one blank, three digits.
 * Table columns, further apart or wider, are not taken for it. */
static int blank_grouped(const char *s, const char *after)
{
    size_t n = (size_t)(after - s);
    if (n < 1 || n > 3)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_digit(s[i]))
            return 0;
    return after[0] == ' ' && is_digit(after[1]) && is_digit(after[2]) && is_digit(after[3]) &&
           !is_digit(after[4]) && after[4] != '.';
}

int numbers_capture(const char *line, const char *cap, size_t cap_len, int edges, char sep,
                    double *out)
{
    char tmp[NUM_MAX];
    const char *s, *e;
    if (!trimmed(cap, cap_len, tmp, &s) || !read_at(tmp, sep, 1, out, &e) || *e != '\0')
        return 0;
    /* The characters right around the capture must not continue the
     * number: "1,234.5" captured as "1" or as "234.5" is no record.  What the
     * pattern itself matched there, and blanks (a table's columns), end it. */
    if ((edges & PR_NUM_EDGE_START) && cap == s && s > line) {
        char b = s[-1];
        if (is_digit(b) || b == '.')
            return 0;
        if ((b == ',' || b == '\'' || (sep && b == sep)) && s - 1 > line && is_digit(s[-2]))
            return 0;
    }
    const char *after = s + (e - tmp);
    if ((edges & PR_NUM_EDGE_END) && after == cap + cap_len &&
        (!clean_end(after, 0) || (sep && *after == sep && is_digit(after[1])) ||
         blank_grouped(s, after)))
        return 0;
    return 1;
}

int numbers_count(const char *s, unsigned long long *out)
{
    if (!*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!is_digit(*p))
            return 0;
    errno = 0;
    char *e;
    unsigned long long v = strtoull(s, &e, 10);
    if (errno == ERANGE || *e != '\0' || v > (1ULL << 53))
        return 0;
    *out = v;
    return 1;
}
