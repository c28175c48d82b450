/* md5: the MD5 digest (RFC 1321), for checking datasets against the
 * checksums a suite names.  Not for security: MD5 is what the benchmark
 * repositories publish beside their data, so it is what we compare with.
 */
#ifndef PR_MD5_H
#define PR_MD5_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

typedef struct pr_md5 {
    uint32_t h[4];
    uint64_t total;        /* bytes hashed so far */
    unsigned char blk[64]; /* a partial block */
    size_t used;           /* bytes in blk */
} pr_md5;

void pr_md5_init(pr_md5 *m);
void pr_md5_update(pr_md5 *m, const void *data, size_t len);
/* Writes the 16-byte digest; m must be re-initialised before reuse. */
void pr_md5_final(pr_md5 *m, unsigned char out[16]);
/* Formats a digest as 32 lowercase hex digits and a NUL. */
void pr_md5_hex(const unsigned char d[16], char out[33]);

/* Hashes the file at path into hex (32 lowercase hex digits + NUL).
 * stop, when not NULL, is checked between reads: when it becomes non-zero the
 * hashing stops with an error (measure's interruption flag). */
int pr_md5_file(const char *path, char hex[33], const volatile sig_atomic_t *stop, pr_err *err);

#endif
