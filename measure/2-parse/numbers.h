/* numbers: reading one number out of a log line, strictly.
 *
 * A log's number is decimal ("393.5", "-2", "1.2e3") and must end where a
 * number ends: the end of the line, a blank, punctuation (",;|)]}%\"'") or
 * a unit ("12.5ms").  Text that only starts like a number is not one, so
 * that a line never yields a silently wrong value:
 *   "None", "nan", "inf", hex, times ("12:30:44"), versions ("1.2.3"),
 *   "8/40", "1e5e5", and grouped digits ("1,234.5", "12 345", "12'345")
 * are not numbers.  Grouped digits are read only when the rule declares the
 * separator (pr_rulecfg_cfg.thousands): then "1,234.5" is 1234.5, and groups
 * that are not of three digits ("1,23") are still not a number.
 *
 * Every function reads NUL-terminated text and never writes to it.
 */
#ifndef PR_NUMBERS_H
#define PR_NUMBERS_H

#include <stddef.h>

/* What numbers_after found. */
enum { PR_NUM_NONE = 0, PR_NUM_FOUND = 1, PR_NUM_BAD = 2 };

/* Reads the number at t; sep is the declared thousands separator (0:
 * none).  Returns 1 with *out set (and *end, when not NULL, just past the
 * number), 0 when t does not hold a clean number. */
int numbers_read(const char *t, char sep, double *out, const char **end);

/* The value after keyword kw (kwlen bytes) in s[0..len), s NUL-terminated.
 * The keyword must stand as a token of its own ("ips:" does not match
 * "avg_ips:", "Time" not "Timestamp"); then come blanks, a ':' or '=' when
 * kw does not end in one, blanks, and the number.  Returns PR_NUM_NONE (no
 * keyword), PR_NUM_FOUND (*out set) or PR_NUM_BAD (the keyword stands
 * there, its value is not a clean number); *val (may be NULL) gets where
 * the value starts when the keyword was found. */
int numbers_after(const char *s, size_t len, const char *kw, size_t kwlen, char sep, double *out,
                  const char **val);

/* A regular expression's capture cap[0..cap_len) inside line (which is
 * NUL-terminated): the capture, blanks trimmed, must be one whole number.
 * Where the capture starts the pattern's match (edges has
 * PR_NUM_EDGE_START) the character before it, and where it ends the match
 * (PR_NUM_EDGE_END) the text after it, must not continue the number:
 * "1,234.5" captured as "1" or as "234.5" is not a number. */
enum { PR_NUM_EDGE_START = 1, PR_NUM_EDGE_END = 2 };
int numbers_capture(const char *line, const char *cap, size_t cap_len, int edges, char sep,
                    double *out);

/* A number that fills the whole of s[0..len), blanks trimmed (a table
 * cell). */
int numbers_whole(const char *s, size_t len, double *out);

/* A count that fills all of s: digits only, at most 2^53 so that it is
 * exact in a double (sizes, M, N, K). */
int numbers_count(const char *s, unsigned long long *out);

/* memmem for short needles in log lines (see numbers.c); NULL when absent. */
const char *numbers_find(const char *s, size_t len, const char *n, size_t m);

#endif
