/* fileio_int: what the files of lib/fileio share (fileio.c reading and
 * containment, fileio_write.c atomic writes, fileio_copy.c copies).
 * Not for gen or measure: they use fileio.h.
 */
#ifndef PR_FILEIO_INT_H
#define PR_FILEIO_INT_H

#include <stddef.h>
#include <sys/stat.h>

#include "err.h"
#include "fileio.h"

/* pr_fileio_open_regular, and *st_out what fstat said of the file (fileio.c). */
int pr_fileio_open_regular_stat(const char *path, struct stat *st_out, pr_err *err);
/* Writes len bytes at p to fd, again after EINTR and short writes: 0, or -1
 * with errno set (fileio_write.c). */
int pr_fileio_write_all(int fd, const char *p, size_t len);

#endif
