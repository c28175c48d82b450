#include "logscan.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"

#define NONE SIZE_MAX

size_t logscan_clean(char *s, size_t len)
{
    size_t w = 0, i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        if (c == 0) {
            i++;
            continue;
        }
        if (c != 0x1b) {
            s[w++] = (char)c;
            i++;
            continue;
        }
        if (i + 1 >= len) {
            i++;
            continue;
        }
        unsigned char k = (unsigned char)s[i + 1];
        size_t j = i + 2;
        if (k == '[') {
            /* CSI: parameter and intermediate bytes, then one final byte. */
            while (j < len && (unsigned char)s[j] >= 0x20 && (unsigned char)s[j] <= 0x3f)
                j++;
            if (j < len && (unsigned char)s[j] >= 0x40 && (unsigned char)s[j] <= 0x7e)
                j++;
        } else if (k == ']') {
            /* OSC: up to BEL or ST (ESC \); unterminated runs to the end. */
            while (j < len && s[j] != 0x07 && !(s[j] == 0x1b && j + 1 < len && s[j + 1] == '\\'))
                j++;
            if (j < len)
                j += s[j] == 0x07 ? 1 : 2;
        } else if (k == '(' || k == ')' || k == '*' || k == '+') {
            if (j < len)
                j++; /* charset designation: one more byte */
        }
        i = j < len ? j : len;
    }
    return w;
}

/* OpenMPI's --timestamp-output puts ctime()'s date before the tag: "Mon May
 * 31 13:38:21 2021[1,0]<stderr>:" (the day padded with a blank, "May  3";
 * an unpadded "May 3" is taken too).  Returns the date's length when s
 * starts with one followed by '[', else 0. */
static size_t mpi_timestamp(const char *s, size_t len)
{
    static const char days[] = "SunMonTueWedThuFriSat";
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    if (len < 24 || s[3] != ' ' || s[7] != ' ')
        return 0;
    int ok_day = 0, ok_month = 0;
    for (int i = 0; i < 7; i++)
        ok_day |= memcmp(s, days + 3 * i, 3) == 0;
    for (int i = 0; i < 12; i++)
        ok_month |= memcmp(s + 4, months + 3 * i, 3) == 0;
    if (!ok_day || !ok_month)
        return 0;
    size_t i = 8;
    if (s[i] == ' ')
        i++;
    size_t d0 = i;
    while (i < d0 + 2 && s[i] >= '0' && s[i] <= '9')
        i++;
    if (i == d0 || s[i++] != ' ')
        return 0;
    /* "hh:mm:ss yyyy[" */
    static const char shape[] = "00:00:00 0000[";
    for (size_t k = 0; shape[k]; k++, i++) {
        if (i >= len)
            return 0;
        if (shape[k] == '0' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[k])
            return 0;
    }
    return i - 1;
}

size_t logscan_mpi_prefix(const char *s, size_t len, int *rank)
{
    if (len && s[0] != '[') {
        size_t ts = mpi_timestamp(s, len);
        size_t tag = ts ? logscan_mpi_prefix(s + ts, len - ts, rank) : 0;
        return tag ? ts + tag : 0;
    }
    size_t i = 1;
    if (len < 8 || s[0] != '[')
        return 0;
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++;
    if (i == 1 || i >= len || s[i] != ',')
        return 0;
    size_t r0 = ++i;
    long r = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9') {
        if (r < INT_MAX / 10)
            r = r * 10 + (s[i] - '0');
        else
            r = INT_MAX;
        i++;
    }
    if (i == r0 || i + 1 >= len || s[i] != ']' || s[i + 1] != '<')
        return 0;
    i += 2;
    size_t w0 = i;
    while (i < len && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
        i++;
    if (i == w0 || i + 1 >= len || s[i] != '>' || s[i + 1] != ':')
        return 0;
    *rank = (int)r;
    return i + 2;
}

/* The next offset of one byte value, cached: `at` is its offset (NONE when
 * absent from [.., scanned)), so each byte is searched once per value. */
typedef struct next_of {
    size_t at, scanned;
} next_of;

static size_t find_next(next_of *n, const char *buf, size_t from, size_t end, int c)
{
    if (n->at != NONE && n->at >= from)
        return n->at;
    size_t s = n->scanned > from ? n->scanned : from;
    if (s < end) {
        const char *q = memchr(buf + s, c, end - s);
        if (q) {
            n->at = (size_t)(q - buf);
            n->scanned = n->at + 1;
            return n->at;
        }
    }
    n->at = NONE;
    n->scanned = end > from ? end : from;
    return NONE;
}

/* The buffer's content moved down by k bytes. */
static void shift_next(next_of *n, size_t k)
{
    n->at = (n->at != NONE && n->at >= k) ? n->at - k : NONE;
    n->scanned = n->scanned > k ? n->scanned - k : 0;
}

typedef struct scan {
    char *buf;
    next_of nl, cr, esc, nul;
    logscan_fn fn;
    void *ctx;
    pr_logscan_stats *st;
    pr_err *err;
    unsigned long long lineno;
    unsigned long long fileline; /* the \n-counted number of the next line */
    unsigned long long base;     /* the file offset of buf[0] */
} scan;

/* Hands buf[a..b) to the callback; buf[b] may be overwritten. */
static int emit(scan *s, size_t a, size_t b, size_t end)
{
    char *text = s->buf + a;
    size_t len = b - a;
    size_t e = find_next(&s->esc, s->buf, a, end, 0x1b);
    size_t z = find_next(&s->nul, s->buf, a, end, 0);
    if ((e != NONE && e < b) || (z != NONE && z < b))
        len = logscan_clean(text, len);
    text[len] = '\0';
    pr_logline line = {text, len, -1, ++s->lineno, s->fileline, s->base + a, 0};
    /* a tag, or the date --timestamp-output puts before it */
    if (len &&
        (text[0] == '[' || (text[0] >= 'A' && text[0] <= 'W' && len > 24 && text[3] == ' '))) {
        size_t p = logscan_mpi_prefix(text, len, &line.rank);
        line.text += p;
        line.len -= p;
        line.prefix_len = p;
    }
    s->st->lines++;
    return s->fn(&line, s->ctx, s->err);
}

int logscan_fd(int fd, const char *name, logscan_fn fn, void *ctx, pr_logscan_stats *st,
               pr_err *err)
{
    scan s = {pr_xmalloc(PR_LOGSCAN_BUF + 1),
              {NONE, 0},
              {NONE, 0},
              {NONE, 0},
              {NONE, 0},
              fn,
              ctx,
              st,
              err,
              0,
              1,
              0};
    size_t end = 0;     /* bytes in the buffer */
    int skipping = 0;   /* inside an overlong line: drop until its end */
    int pending_cr = 0; /* a \r ended the buffer: a \n next belongs to it */
    int rc = 0;
    for (;;) {
        ssize_t r;
        do
            r = read(fd, s.buf + end, PR_LOGSCAN_BUF - end);
        while (r < 0 && errno == EINTR);
        if (r < 0) {
            rc = pr_err_errno(err, name, "read");
            goto out;
        }
        int eof = r == 0;
        size_t ls = 0;
        if (pending_cr && r > 0 && s.buf[end] == '\n') {
            ls = end + 1;
            s.fileline++; /* the \r\n split by the read */
        }
        pending_cr = 0;
        st->bytes += (unsigned long long)r;
        end += (size_t)r;
        for (;;) {
            size_t nl = find_next(&s.nl, s.buf, ls, end, '\n');
            size_t cr = find_next(&s.cr, s.buf, ls, end, '\r');
            size_t brk = nl < cr ? nl : cr;
            if (brk == NONE) {
                if (eof && ls < end && !skipping) {
                    if ((rc = emit(&s, ls, end, end)) != 0)
                        goto out;
                    ls = end;
                }
                break;
            }
            int was_cr = s.buf[brk] == '\r';
            if (skipping) {
                skipping = 0;
            } else if ((rc = emit(&s, ls, brk, end)) != 0) {
                goto out;
            }
            ls = brk + 1;
            if (was_cr) {
                if (ls < end && s.buf[ls] == '\n') {
                    ls++;
                    s.fileline++;
                } else if (ls == end) {
                    pending_cr = 1;
                }
            } else {
                s.fileline++;
            }
        }
        if (eof)
            break;
        if (ls == 0 && end == PR_LOGSCAN_BUF) {
            /* No line end in a full buffer: drop what we have, and the
             * rest of the line as it comes. */
            if (!skipping) {
                st->overlong_lines++;
                st->lines++;
                s.lineno++;
            }
            skipping = 1;
            ls = end;
        }
        if (ls > 0) {
            s.base += ls;
            memmove(s.buf, s.buf + ls, end - ls);
            shift_next(&s.nl, ls);
            shift_next(&s.cr, ls);
            shift_next(&s.esc, ls);
            shift_next(&s.nul, ls);
            end -= ls;
        }
    }
out:
    free(s.buf);
    return rc < 0 ? -1 : 0;
}

int logscan_path(const char *path, logscan_fn fn, void *ctx, pr_logscan_stats *st, pr_err *err)
{
    /* Regular files only: a FIFO planted as a log must not block the scan. */
    int fd = pr_fileio_open_regular(path, err);
    if (fd < 0)
        return -1;
#ifdef POSIX_FADV_SEQUENTIAL
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    int rc = logscan_fd(fd, path, fn, ctx, st, err);
    close(fd);
    return rc;
}
