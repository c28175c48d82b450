/* outfile: a command's --out FILE (export, history, compare), which may
 * be a regular file to replace or a FIFO or device to write into. */
#ifndef PR_OUTFILE_H
#define PR_OUTFILE_H

#include <stddef.h>

#include "err.h"

/* A command's --out FILE (export, history, compare), written as a stream:
 * FILE missing or a regular file is written through a temporary file and
 * renamed into place on commit (a symbolic link to a regular file stays a
 * link; its target is replaced); FILE that is a FIFO or character device
 * (links followed: /dev/stdout, a named pipe) is written into in place,
 * never renamed over; a folder, socket, block device or dangling link is
 * refused, naming what it is.  path NULL is standard output.  The caller
 * closes with pr_outfile_close, commit 0 to give up (the temporary file
 * removed; what went into a FIFO cannot be taken back). */
typedef struct pr_outfile_out {
    int fd, own_fd;
    char *path; /* as given, for messages */
    char *dest; /* the regular file to replace; NULL when written in place */
    char *tmp;  /* the temporary file beside dest */
} pr_outfile_out;
int pr_outfile_open(pr_outfile_out *o, const char *path, pr_err *err);
int pr_outfile_write(pr_outfile_out *o, const void *data, size_t len, pr_err *err);
int pr_outfile_close(pr_outfile_out *o, int commit, pr_err *err);
/* All of data to path by the same rules, at once. */
int pr_outfile_write_out(const char *path, const void *data, size_t len, pr_err *err);

#endif
