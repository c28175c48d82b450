#include "md5.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"

/* Per-round shift amounts and the sine-derived constants of RFC 1321. */
static const unsigned char md5_s[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                        5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                                        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
static const uint32_t md5_k[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};

static uint32_t rotl(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

/* One 64-byte block; the words are little-endian whatever the host is. */
static void md5_block(uint32_t h[4], const unsigned char *p)
{
    uint32_t w[16];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
               (uint32_t)p[4 * i + 3] << 24;
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    for (int i = 0; i < 64; i++) {
        uint32_t f;
        int g;
        if (i < 16) {
            f = (b & c) | (~b & d);
            g = i;
        } else if (i < 32) {
            f = (d & b) | (~d & c);
            g = (5 * i + 1) % 16;
        } else if (i < 48) {
            f = b ^ c ^ d;
            g = (3 * i + 5) % 16;
        } else {
            f = c ^ (b | ~d);
            g = (7 * i) % 16;
        }
        uint32_t t = d;
        d = c;
        c = b;
        b = b + rotl(a + f + md5_k[i] + w[g], md5_s[i]);
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
}

void pr_md5_init(pr_md5 *m)
{
    m->h[0] = 0x67452301;
    m->h[1] = 0xefcdab89;
    m->h[2] = 0x98badcfe;
    m->h[3] = 0x10325476;
    m->total = 0;
    m->used = 0;
}

void pr_md5_update(pr_md5 *m, const void *data, size_t len)
{
    const unsigned char *p = data;
    m->total += len;
    if (m->used) {
        size_t take = 64 - m->used < len ? 64 - m->used : len;
        memcpy(m->blk + m->used, p, take);
        m->used += take;
        p += take;
        len -= take;
        if (m->used < 64)
            return;
        md5_block(m->h, m->blk);
        m->used = 0;
    }
    for (; len >= 64; p += 64, len -= 64)
        md5_block(m->h, p);
    memcpy(m->blk, p, len);
    m->used = len;
}

void pr_md5_final(pr_md5 *m, unsigned char out[16])
{
    uint64_t bits = m->total * 8;
    unsigned char pad[72] = {0x80};
    /* Pad to 56 mod 64, then the length in bits, little-endian. */
    size_t npad = (m->used < 56 ? 56 : 120) - m->used;
    for (int i = 0; i < 8; i++)
        pad[npad + (size_t)i] = (unsigned char)(bits >> (8 * i));
    uint64_t keep = m->total;
    pr_md5_update(m, pad, npad + 8);
    m->total = keep;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (unsigned char)(m->h[i] >> (8 * j));
}

void pr_md5_hex(const unsigned char d[16], char out[33])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[32] = '\0';
}

int pr_md5_file(const char *path, char hex[33], const volatile sig_atomic_t *stop, pr_err *err)
{
    enum { CHUNK = 1 << 20 };
    int rc = -1;
    unsigned char *buf = NULL;
    /* Regular files only: a FIFO (or a device) as a dataset would block the
     * run, or never end, before any case. */
    int fd = pr_fileio_open_regular(path, err);
    if (fd < 0) {
        if (pr_fileio_is_dir(path))
            pr_err_set(err, path, 0, 0, NULL,
                       "is a directory: a checksum is taken of one file (an archive or a "
                       "manifest)");
        return -1;
    }
    buf = pr_xmalloc(CHUNK);
    pr_md5 m;
    pr_md5_init(&m);
    for (;;) {
        if (stop && *stop) {
            pr_err_set(err, path, 0, 0, NULL, "checksum interrupted");
            goto out;
        }
        ssize_t n = read(fd, buf, CHUNK);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            pr_err_errno(err, path, "cannot read");
            goto out;
        }
        if (n == 0)
            break;
        pr_md5_update(&m, buf, (size_t)n);
    }
    unsigned char d[16];
    pr_md5_final(&m, d);
    pr_md5_hex(d, hex);
    rc = 0;
out:
    free(buf);
    close(fd);
    return rc;
}
