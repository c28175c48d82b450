/* logfacts: the collector (logfacts.h): keeping facts within the record's
 * limits, the first and last date of the log, the versions, GPU and
 * container a log prints, and the command it echoes.  The argument dumps
 * are logfacts_args.c. */
#include "logfacts_int.h"

#include <stdlib.h>
#include <string.h>

#include "recfacts.h"

/* Facts found once and for all (pr_logfacts.seen). */
enum {
    LF_SEEN_RELEASE = 1 << 0,
    LF_SEEN_BUILD = 1 << 1,
    LF_SEEN_FRAMEWORK = 1 << 2,
    LF_SEEN_GPU = 1 << 3,
    LF_SEEN_DRIVER = 1 << 4,
    LF_SEEN_DRIVER_CUDA = 1 << 5,
    LF_SEEN_CUDA = 1 << 6,
    LF_SEEN_CUDNN = 1 << 7,
    LF_SEEN_NCCL = 1 << 8,
    LF_SEEN_COMMAND = 1 << 9,
    LF_SEEN_ALL = (1 << 10) - 1,
    /* the facts the "ersion" lines give */
    LF_SEEN_VERSION_LINES =
        LF_SEEN_DRIVER | LF_SEEN_DRIVER_CUDA | LF_SEEN_CUDA | LF_SEEN_CUDNN | LF_SEEN_NCCL
};

/* Where to look for a date in a line: it starts in its first bytes. */
enum { DATE_WITHIN = 64 };

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}
static int is_blank(int c)
{
    return c == ' ' || c == '\t';
}

/* s[0..n) with the blanks at both ends left out. */
static const char *trim(const char *s, size_t *n)
{
    while (*n && is_blank((unsigned char)*s)) {
        s++;
        (*n)--;
    }
    while (*n && is_blank((unsigned char)s[*n - 1]))
        (*n)--;
    return s;
}

/* ---- the collector ---- */

pr_logfacts *logfacts_new(void)
{
    pr_logfacts *f = pr_xcalloc(1, sizeof *f);
    f->d.fmt = -1;
    f->d.list_indent = -1;
    f->head_end = PR_LOGFACTS_HEAD;
    return f;
}

void logfacts_free(pr_logfacts *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++) {
        free(f->items[i].key);
        free(f->items[i].value);
    }
    free(f->items);
    logfacts_dump_free(&f->d);
    pr_buf_free(&f->scratch);
    free(f);
}

void logfacts_file(pr_logfacts *f, unsigned file, unsigned long long size,
                   unsigned long long *head_end, unsigned long long *tail_start)
{
    f->file = file;
    f->head_end = PR_LOGFACTS_HEAD;
    f->smi_rows = 0;
    /* a dump does not run on into the next part */
    logfacts_dump_free(&f->d);
    f->d.fmt = -1;
    f->d.list_indent = -1;
    *head_end = PR_LOGFACTS_HEAD;
    *tail_start = size > PR_LOGFACTS_TAIL ? size - PR_LOGFACTS_TAIL : 0;
    if (*tail_start < *head_end)
        *tail_start = *head_end;
}

/* The length of the longest prefix of s[0..n) that is valid UTF-8 and ends
 * on a character boundary, at most max. */
static size_t utf8_cut(const char *s, size_t n, size_t max)
{
    if (n <= max)
        return n;
    size_t k = max;
    while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
        k--;
    return k;
}

/* The length of the UTF-8 sequence at s[0..n), or 0 when it is not one
 * (overlong forms, surrogates and values past U+10FFFF are not). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return len;
}

/* Appends s[0..n) to b as valid UTF-8 without control characters (a
 * control byte becomes a blank, a byte that is no UTF-8 '?'), at most max
 * bytes of it.  Returns 1 when the text was longer. */
static int put_clean(pr_buf *b, const char *s, size_t n, size_t max)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t k = u[i] < 0x80 ? 1 : utf8_seq(u + i, n - i);
        if (b->len + (k ? k : 1) > max)
            return 1;
        if (k == 0)
            pr_buf_putc(b, '?');
        else if (k == 1)
            pr_buf_putc(b, u[i] < 0x20 || u[i] == 0x7f ? ' ' : u[i]);
        else
            pr_buf_put(b, s + i, k);
        i += k ? k : 1;
    }
    return 0;
}

/* Replaces every IPv4 address in v by PR_RECFACTS_ADDRESS (records carry
 * no machine address); returns 1 when that made v longer than max and it
 * was cut. */
static int blank_addresses(pr_buf *v, size_t max)
{
    int cut = 0;
    size_t alen;
    long at;
    while ((at = pr_recfacts_find_ipv4(v->data ? v->data : "", v->len, &alen)) >= 0) {
        pr_buf o = PR_BUF_INIT;
        pr_buf_put(&o, v->data, (size_t)at);
        pr_buf_puts(&o, PR_RECFACTS_ADDRESS);
        pr_buf_put(&o, v->data + at + alen, v->len - (size_t)at - alen);
        if (o.len > max) {
            pr_buf_truncate(&o, utf8_cut(o.data, o.len, max));
            cut = 1;
        }
        pr_buf_free(v);
        *v = o;
    }
    return cut;
}

void logfacts_add(pr_logfacts *f, const char *key, size_t klen, const char *s, size_t n,
                  unsigned long long line, int fmt)
{
    int is_arg = klen > 4 && memcmp(key, "arg.", 4) == 0;
    if (klen > PR_RECFACTS_KEY_MAX)
        return;
    for (size_t i = 4; is_arg && i < klen; i++)
        if (!pr_recfacts_name_char((unsigned char)key[i]))
            return;
    /* room is kept for time.first, time.last and facts.truncated */
    if (f->n >= PR_RECFACTS_MAX - 3) {
        if (f->dropped++ == 0) {
            f->dropped_line = line;
            f->dropped_file = f->file;
        }
        return;
    }
    while (n && is_blank((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n && is_blank((unsigned char)s[n - 1]))
        n--;
    int is_command = klen == 7 && memcmp(key, "command", 7) == 0;
    size_t max = is_command ? PR_RECFACTS_COMMAND_MAX : PR_RECFACTS_VALUE_MAX;
    pr_buf v = PR_BUF_INIT;
    int cut = put_clean(&v, s, n, max);
    if (is_arg || is_command)
        cut |= blank_addresses(&v, max);
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 32;
        f->items = pr_xrealloc(f->items, f->cap * sizeof *f->items);
    }
    logfacts_item *it = &f->items[f->n++];
    it->key = pr_xstrndup(key, klen);
    it->value = pr_buf_detach(&v);
    it->line = line;
    it->file = f->file;
    it->cut = cut;
    it->fmt = fmt;
}

void logfacts_add_arg(pr_logfacts *f, int fmt, const char *prefix, size_t plen, const char *name,
                      size_t nlen, const char *s, size_t n, unsigned long long line)
{
    pr_buf *k = &f->scratch;
    pr_buf_clear(k);
    pr_buf_puts(k, "arg.");
    if (plen) {
        pr_buf_put(k, prefix, plen);
        pr_buf_putc(k, '.');
    }
    pr_buf_put(k, name, nlen);
    logfacts_add(f, k->data, k->len, s, n, line, fmt);
}

void logfacts_begin_dump(pr_logfacts *f, int fmt, unsigned long long line)
{
    const char *name = pr_recfacts_formats[fmt];
    f->formats |= 1u << fmt;
    logfacts_add(f, "args.format", 11, name, strlen(name), line, -1);
}

/* ---- dates: time.first and time.last ---- */

/* n digits at s as a number, or -1. */
static int num(const char *s, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!is_digit((unsigned char)s[i]))
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* A date and time starting at s[i] (s[0..n)): YYYY-MM-DD or YYYY/MM/DD,
 * then a blank or T, hh:mm:ss, a fraction after '.' or ',' and a zone right
 * after (Z, +hh:mm, +hhmm) as the log printed them.  Writes the ISO form to
 * out and returns 1, or 0. */
static int date_at(const char *s, size_t n, size_t i, char out[48])
{
    if (i + 19 > n)
        return 0;
    const char *p = s + i;
    char sep = p[4];
    if ((sep != '-' && sep != '/') || p[7] != sep || (p[10] != ' ' && p[10] != 'T') ||
        p[13] != ':' || p[16] != ':')
        return 0;
    int y = num(p, 4), mo = num(p + 5, 2), d = num(p + 8, 2), h = num(p + 11, 2),
        mi = num(p + 14, 2), se = num(p + 17, 2);
    if (y < 1970 || y > 2099 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 ||
        mi > 59 || se < 0 || se > 60)
        return 0;
    size_t j = i + 19;
    int w = 19;
    memcpy(out, p, 19); /* checked digits and separators: only these two differ */
    out[4] = out[7] = '-';
    out[10] = 'T';
    if (j < n && (s[j] == '.' || s[j] == ',') && j + 1 < n && is_digit((unsigned char)s[j + 1])) {
        size_t k = j + 1;
        while (k < n && is_digit((unsigned char)s[k]))
            k++;
        if (k - j - 1 > 9)
            return 0;
        out[w++] = '.';
        memcpy(out + w, s + j + 1, k - j - 1);
        w += (int)(k - j - 1);
        j = k;
    } else if (j < n && is_digit((unsigned char)s[j])) {
        return 0;
    }
    if (j < n && s[j] == 'Z' && (j + 1 >= n || !is_digit((unsigned char)s[j + 1]))) {
        out[w++] = 'Z';
    } else if (j + 5 <= n && (s[j] == '+' || s[j] == '-') && num(s + j + 1, 2) >= 0) {
        size_t k = j + 3;
        if (k < n && s[k] == ':')
            k++;
        if (k + 2 <= n && num(s + k, 2) >= 0 &&
            (k + 2 >= n || !is_digit((unsigned char)s[k + 2]))) {
            memcpy(out + w, s + j, k + 2 - j);
            w += (int)(k + 2 - j);
        }
    }
    out[w] = '\0';
    return 1;
}

/* ctime()'s date, as mpirun --timestamp-output puts it before the tag:
 * "Wed Jun  1 12:18:46 2022" at s[0..n). */
static int ctime_at(const char *s, size_t n, char out[48])
{
    static const char days[] = "SunMonTueWedThuFriSat";
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    if (n < 24 || s[3] != ' ' || s[7] != ' ')
        return 0;
    int day_ok = 0, mo = 0;
    for (int i = 0; i < 7; i++)
        day_ok |= memcmp(s, days + 3 * i, 3) == 0;
    for (int i = 0; i < 12 && !mo; i++)
        if (memcmp(s + 4, months + 3 * i, 3) == 0)
            mo = i + 1;
    if (!day_ok || !mo)
        return 0;
    size_t i = 8;
    if (s[i] == ' ')
        i++;
    int d = 0, k = 0;
    while (k < 2 && i < n && is_digit((unsigned char)s[i])) {
        d = d * 10 + (s[i++] - '0');
        k++;
    }
    if (!k || d < 1 || d > 31 || i + 14 > n || s[i] != ' ' || s[i + 3] != ':' || s[i + 6] != ':' ||
        s[i + 9] != ' ')
        return 0;
    int h = num(s + i + 1, 2), mi = num(s + i + 4, 2), se = num(s + i + 7, 2),
        y = num(s + i + 10, 4);
    if (h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 60 || y < 1970 || y > 2099)
        return 0;
    const int parts[6] = {y, mo, d, h, mi, se};
    char *o = out;
    for (int k = 0; k < 6; k++) {
        if (k == 0) {
            *o++ = (char)('0' + y / 1000);
            *o++ = (char)('0' + y / 100 % 10);
        }
        *o++ = (char)('0' + parts[k] / 10 % 10);
        *o++ = (char)('0' + parts[k] % 10);
        *o++ = "--T::"[k < 5 ? k : 0];
    }
    o[-1] = '\0';
    return 1;
}

/* The line's date: the first in its first bytes, else the date mpirun put
 * before its tag. */
static void line_date(pr_logfacts *f, const pr_logline *l)
{
    char iso[48];
    int found = 0;
    size_t lim = l->len < DATE_WITHIN ? l->len : DATE_WITHIN;
    for (size_t i = 0; i < lim && !found; i++)
        if (is_digit((unsigned char)l->text[i]) &&
            (i == 0 || !is_digit((unsigned char)l->text[i - 1])))
            found = date_at(l->text, l->len, i, iso);
    if (!found && l->prefix_len >= 24)
        found = ctime_at(l->text - l->prefix_len, l->prefix_len, iso);
    if (!found)
        return;
    if (!f->first[0]) {
        memcpy(f->first, iso, sizeof iso);
        f->first_line = l->fileline;
        f->first_file = f->file;
    }
    memcpy(f->last, iso, sizeof iso);
    f->last_line = l->fileline;
    f->last_file = f->file;
}

/* ---- versions, GPU, container, command ---- */

/* s[0..n) starts with the text p. */
static int starts(const char *s, size_t n, const char *p)
{
    size_t k = strlen(p);
    return n >= k && memcmp(s, p, k) == 0;
}

/* The token after s[0..n)'s first p (blanks, ':' and '=' skipped): up to a
 * blank, ',' or ';', without a trailing '.' or ')'.  Returns its length
 * (0: none) with *tok set. */
static size_t token_after(const char *s, size_t n, const char *p, const char **tok)
{
    size_t k = strlen(p);
    const char *q = memmem(s, n, p, k);
    if (!q)
        return 0;
    const char *e = s + n;
    q += k;
    while (q < e && (is_blank((unsigned char)*q) || *q == ':' || *q == '='))
        q++;
    const char *t = q;
    while (q < e && !is_blank((unsigned char)*q) && *q != ',' && *q != ';')
        q++;
    while (q > t && (q[-1] == '.' || q[-1] == ')'))
        q--;
    *tok = t;
    return (size_t)(q - t);
}

/* Keeps key = the token after p, once (bit). */
static void once_token(pr_logfacts *f, unsigned bit, const char *key, const char *s, size_t n,
                       const char *p, unsigned long long line)
{
    const char *t;
    size_t k;
    if (f->seen & bit || !(k = token_after(s, n, p, &t)))
        return;
    f->seen |= bit;
    logfacts_add(f, key, strlen(key), t, k, line, -1);
}

/* The frameworks whose version a log prints as "NAME Version V" (NGC
 * banners) or "NAME: V" (mmcv's and PaddleSeg's environment tables). */
static void framework(pr_logfacts *f, const char *s, size_t n, unsigned long long line)
{
    static const char *const names[] = {"PyTorch", "TensorFlow", "MXNet", "PaddlePaddle", NULL};
    for (const char *const *nm = names; *nm; nm++) {
        size_t k = strlen(*nm);
        if (n <= k + 2 || memcmp(s, *nm, k) != 0)
            continue;
        const char *rest = s + k;
        size_t rn = n - k;
        const char *t;
        size_t tl = 0;
        if (starts(rest, rn, " Version "))
            tl = token_after(rest, rn, " Version ", &t);
        else if (starts(rest, rn, ": "))
            tl = token_after(rest, rn, ": ", &t);
        if (!tl)
            return;
        f->seen |= LF_SEEN_FRAMEWORK;
        logfacts_add(f, "framework.name", 14, *nm, k, line, -1);
        logfacts_add(f, "framework.version", 17, t, tl, line, -1);
        return;
    }
}

/* "GPU 0: NAME (UUID: ...)" (nvidia-smi -L), "GPU 0,1,2,3: NAME" (mmcv),
 * "GPU: ['GPU 0: NAME', ...]" (PaddleSeg): the first GPU's name. */
static void gpu_name(pr_logfacts *f, const char *s, size_t n, unsigned long long line)
{
    const char *e = s + n, *p = s;
    if (starts(s, n, "GPU: ['GPU "))
        p = s + 7;
    else if (!starts(s, n, "GPU "))
        return;
    p += 4;
    const char *d0 = p;
    while (p < e && (is_digit((unsigned char)*p) || *p == ','))
        p++;
    if (p == d0 || e - p < 3 || p[0] != ':' || p[1] != ' ')
        return;
    p += 2;
    const char *q = p;
    while (q < e && *q != '\'' && !(e - q >= 7 && memcmp(q, " (UUID", 6) == 0))
        q++;
    if (q == p)
        return;
    f->seen |= LF_SEEN_GPU;
    logfacts_add(f, "gpu.name", 8, p, (size_t)(q - p), line, -1);
}

/* nvidia-smi's GPU row: "|   0  Tesla V100-SXM2...  On   | 00000000:...". */
static void smi_row(pr_logfacts *f, const char *s, size_t n, unsigned long long line)
{
    const char *e = s + n, *p = s + 1;
    if (!n || s[0] != '|')
        return;
    while (p < e && is_blank((unsigned char)*p))
        p++;
    const char *d0 = p;
    while (p < e && is_digit((unsigned char)*p))
        p++;
    if (p == d0 || p == e || !is_blank((unsigned char)*p))
        return;
    const char *bar = memchr(p, '|', (size_t)(e - p));
    if (!bar)
        return;
    const char *q = bar;
    while (q > p && is_blank((unsigned char)q[-1]))
        q--;
    /* the persistence mode ends the cell */
    if (q - p > 3 && memcmp(q - 3, " On", 3) == 0)
        q -= 3;
    else if (q - p > 4 && memcmp(q - 4, " Off", 4) == 0)
        q -= 4;
    while (p < q && is_blank((unsigned char)*p))
        p++;
    if (q <= p)
        return;
    f->seen |= LF_SEEN_GPU;
    f->smi_rows = 0;
    logfacts_add(f, "gpu.name", 8, p, (size_t)(q - p), line, -1);
}

/* The first command the log echoes: a line that runs python (or torchrun),
 * as typed or traced by `set -x` ("+ python3 -m ..."; a "++" line is a
 * command substitution, not the command), or a Python argv list
 * (['/opt/conda/bin/python', '-u', './main.py', ...]). */
static void command(pr_logfacts *f, const char *s, size_t n, unsigned long long line)
{
    const char *e = s + n, *p = s;
    if (s[0] == '[') {
        if (n < 3 || s[1] != '\'')
            return;
        const char *q = memchr(s + 2, '\'', n - 2);
        if (!q || s[n - 1] != ']')
            return;
        const char *w = q;
        while (w > s + 2 && (is_digit((unsigned char)w[-1]) || w[-1] == '.'))
            w--;
        if (w - (s + 2) < 6 || memcmp(w - 6, "python", 6) != 0 || (w - 6 > s + 2 && w[-7] != '/'))
            return;
        f->seen |= LF_SEEN_COMMAND;
        logfacts_add(f, "command", 7, s, n, line, -1);
        return;
    }
    if (starts(s, n, "+ "))
        p += 2;
    const char *w = p;
    while (w < e && !is_blank((unsigned char)*w))
        w++;
    if (w == e)
        return;        /* a command with no argument is not a run */
    const char *b = w; /* the word's base name */
    while (b > p && b[-1] != '/')
        b--;
    const char *v = b + 6;
    if (w - b >= 8 && memcmp(b, "torchrun", 8) == 0 && w - b == 8) {
        /* torchrun */
    } else if (w - b >= 6 && memcmp(b, "python", 6) == 0) {
        while (v < w && (is_digit((unsigned char)*v) || *v == '.'))
            v++;
        if (v != w)
            return;
    } else {
        return;
    }
    f->seen |= LF_SEEN_COMMAND;
    logfacts_add(f, "command", 7, p, (size_t)(e - p), line, -1);
}

/* 1 when s[0..n) holds "Version" or "NCCL version": memchr for the two
 * capitals is much cheaper than memmem on every line of the head. */
static int has_version(const char *s, size_t n)
{
    static const char caps[2] = {'V', 'N'};
    static const char *const rest[2] = {"Version", "NCCL version"};
    for (int k = 0; k < 2; k++) {
        size_t len = strlen(rest[k]);
        const char *p = s, *e = s + n;
        while ((p = memchr(p, caps[k], (size_t)(e - p)))) {
            if ((size_t)(e - p) >= len && memcmp(p, rest[k], len) == 0)
                return 1;
            p++;
        }
    }
    return 0;
}

/* Versions printed anywhere in a line ("... NCCL INFO NCCL version 2.8.4",
 * Paddle's "Driver API Version: 12.0, Runtime API Version: 11.2", "cuDNN
 * Version: 8.2.", nvidia-smi's header). */
static void version_line(pr_logfacts *f, const char *s, size_t n, unsigned long long line)
{
    if (!has_version(s, n))
        return;
    once_token(f, LF_SEEN_NCCL, "nccl.version", s, n, "NCCL version ", line);
    once_token(f, LF_SEEN_CUDA, "cuda.version", s, n, "Runtime API Version:", line);
    once_token(f, LF_SEEN_DRIVER_CUDA, "gpu.driver_cuda", s, n, "Driver API Version:", line);
    once_token(f, LF_SEEN_CUDNN, "cudnn.version", s, n, "cuDNN Version:", line);
    if (memmem(s, n, "NVIDIA-SMI", 10)) {
        once_token(f, LF_SEEN_DRIVER, "gpu.driver", s, n, "Driver Version:", line);
        once_token(f, LF_SEEN_DRIVER_CUDA, "gpu.driver_cuda", s, n, "CUDA Version:", line);
        if (!(f->seen & LF_SEEN_GPU))
            f->smi_rows = 12;
    }
}

static void env_line(pr_logfacts *f, const char *s, size_t n, unsigned long long line)
{
    s = trim(s, &n);
    if (!n)
        return;
    if (f->smi_rows > 0) {
        f->smi_rows--;
        smi_row(f, s, n, line);
    }
    if ((f->seen & LF_SEEN_VERSION_LINES) != LF_SEEN_VERSION_LINES)
        version_line(f, s, n, line);
    if (!(f->seen & LF_SEEN_COMMAND) && strchr("+[/pt.", s[0]))
        command(f, s, n, line);
    /* mmcv's environment table lists "  - CUDA Runtime 11.0", "  - CuDNN 8.0.1" */
    if (s[0] == '-' && n > 2 && s[1] == ' ') {
        s += 2;
        n -= 2;
    }
    switch (s[0]) {
    case 'N':
        if (starts(s, n, "NVIDIA Release ")) {
            once_token(f, LF_SEEN_RELEASE, "container.release", s, n, "NVIDIA Release ", line);
            once_token(f, LF_SEEN_BUILD, "container.build", s, n, "(build ", line);
        }
        break;
    case 'C':
        if (starts(s, n, "Container nvidia build ="))
            once_token(f, LF_SEEN_BUILD, "container.build", s, n, "build =", line);
        else if (starts(s, n, "CUDA Runtime "))
            once_token(f, LF_SEEN_CUDA, "cuda.version", s, n, "CUDA Runtime ", line);
        else if (starts(s, n, "CuDNN "))
            once_token(f, LF_SEEN_CUDNN, "cudnn.version", s, n, "CuDNN ", line);
        break;
    case 'c':
        if (starts(s, n, "cudnn: "))
            once_token(f, LF_SEEN_CUDNN, "cudnn.version", s, n, "cudnn: ", line);
        break;
    case 'G':
        if (!(f->seen & LF_SEEN_GPU))
            gpu_name(f, s, n, line);
        break;
    case 'P':
    case 'T':
    case 'M':
        if (!(f->seen & LF_SEEN_FRAMEWORK))
            framework(f, s, n, line);
        break;
    }
}

void logfacts_line_add(pr_logfacts *f, const pr_logline *l)
{
    line_date(f, l);
    if (l->offset >= f->head_end) {
        /* the tail: dates, and the command a script echoes when it ends */
        size_t n = l->len;
        const char *s = trim(l->text, &n);
        if (!(f->seen & LF_SEEN_COMMAND) && n && strchr("+[/pt.", s[0]))
            command(f, s, n, l->fileline);
        return;
    }
    logfacts_line_ref ln = {l->text, l->len, l->fileline};
    if ((f->seen & LF_SEEN_ALL) != LF_SEEN_ALL || f->smi_rows)
        env_line(f, l->text, l->len, l->fileline);
    logfacts_args_line(f, &ln);
}

/* ---- the record's log_facts ---- */

/* Items in log order: by file, then line, then the order they were kept. */
typedef struct ordered {
    const logfacts_item *it;
    size_t seq;
} ordered;

static int by_place(const void *a, const void *b)
{
    const ordered *x = a, *y = b;
    if (x->it->file != y->it->file)
        return x->it->file < y->it->file ? -1 : 1;
    if (x->it->line != y->it->line)
        return x->it->line < y->it->line ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

json_t *logfacts_json(pr_logfacts *f)
{
    char dropped[32];
    logfacts_item extra[3] = {
        {"time.first", f->first, f->first_line, f->first_file, 0, -1},
        {"time.last", f->last, f->last_line, f->last_file, 0, -1},
        {"facts.truncated", dropped, f->dropped_line, f->dropped_file, 0, -1},
    };
    snprintf(dropped, sizeof dropped, "%llu", f->dropped);
    size_t total = f->n + 3, k = 0;
    ordered *o = pr_xcalloc(total, sizeof *o);
    for (size_t i = 0; i < f->n; i++, k++)
        o[k] = (ordered){&f->items[i], k};
    if (f->first[0]) {
        o[k] = (ordered){&extra[0], k};
        k++;
        o[k] = (ordered){&extra[1], k};
        k++;
    }
    if (f->dropped) {
        o[k] = (ordered){&extra[2], k};
        k++;
    }
    json_t *arr = NULL;
    if (k) {
        qsort(o, k, sizeof *o, by_place);
        arr = json_array();
    }
    for (size_t i = 0; i < k; i++) {
        const logfacts_item *it = o[i].it;
        /* json_pack copies the strings; json_array_append_new steals obj */
        json_t *obj = json_pack("{s:s,s:s,s:I}", "key", it->key, "value", it->value, "line",
                                (json_int_t)it->line);
        if (!obj)
            continue; /* not expected: values are made valid UTF-8 */
        if (it->file)
            json_object_set_new(obj, "file", json_integer((json_int_t)it->file));
        if (it->cut)
            json_object_set_new(obj, "cut", json_true());
        json_array_append_new(arr, obj);
    }
    free(o);
    return arr;
}
