/* logscan: reading a log line by line in constant memory.
 *
 * Logs are messy (field notes): ANSI colour codes, NUL bytes, progress bars
 * redrawn with a bare \r, "[1,0]<stdout>:" prefixes from mpirun, a last line
 * cut off without a newline, and several GB in all.  The scanner reads
 * through one fixed buffer of PR_LOGSCAN_BUF bytes and hands each cleaned
 * line to a callback:
 *
 *   - \n, \r\n and a bare \r each end a line (a redrawn progress bar becomes
 *     several lines; the last state of the bar is a line of its own);
 *   - ANSI escape sequences (CSI "ESC [ ... final", OSC "ESC ] ... BEL|ESC \",
 *     and two/three-byte escapes) and NUL bytes are removed;
 *   - one leading OpenMPI tag "[job,rank]<stdout|stderr|...>:", with the
 *     date mpirun --timestamp-output puts before it ("Mon May 31 13:38:21
 *     2021[1,0]<stderr>:"), is removed and its rank reported;
 *   - a last line without a newline is still a line;
 *   - a line longer than the buffer is not handed over: it is counted in
 *     overlong_lines and skipped (memory stays bounded whatever the input).
 *
 * The hot path finds line ends with memchr and looks for ESC/NUL/\r with
 * memchr once per buffer, so clean text costs a few passes of memchr.
 */
#ifndef PR_LOGSCAN_H
#define PR_LOGSCAN_H

#include <stddef.h>

#include "err.h"

#define PR_LOGSCAN_BUF (64 * 1024)

typedef struct pr_logline {
    char *text; /* NUL-terminated; the callback may modify it */
    size_t len;
    int rank;                  /* from the mpirun tag; -1 when the line had none */
    unsigned long long lineno; /* 1-based; a bare \r ends a line too */
    /* The line as the file has it: its 1-based number counting \n line
     * ends only (what an editor or `sed -n Np` shows: it differs from
     * lineno after a progress bar redrawn with \r), the offset of its first
     * byte in the file, and the length of the mpirun tag (and date) removed
     * from its start: the cleaned line began at text - prefix_len. */
    unsigned long long fileline;
    unsigned long long offset;
    size_t prefix_len;
} pr_logline;

typedef struct pr_logscan_stats {
    unsigned long long lines;          /* every line, overlong ones included */
    unsigned long long bytes;          /* bytes read */
    unsigned long long overlong_lines; /* skipped: longer than the buffer */
} pr_logscan_stats;

/* Called once per line.  Returns 0 to go on, 1 to stop reading (not an
 * error), -1 on error (err set). */
typedef int (*logscan_fn)(const pr_logline *line, void *ctx, pr_err *err);

/* Scans fd to its end; name is used in messages.  st is added to (not
 * reset), so several files can be counted together. */
int logscan_fd(int fd, const char *name, logscan_fn fn, void *ctx, pr_logscan_stats *st,
               pr_err *err);
/* Opens path and scans it. */
int logscan_path(const char *path, logscan_fn fn, void *ctx, pr_logscan_stats *st, pr_err *err);

/* Removes ANSI escape sequences and NUL bytes from s[0..len) in place;
 * returns the new length.  (Exposed for tests and for other readers.) */
size_t logscan_clean(char *s, size_t len);
/* When s starts with an OpenMPI tag "[N,R]<word>:", or with one after
 * --timestamp-output's date ("Mon May 31 13:38:21 2021[N,R]<word>:"),
 * returns the prefix's length and sets *rank to R; otherwise returns 0. */
size_t logscan_mpi_prefix(const char *s, size_t len, int *rank);

#endif
