/* recfacts: the "log_facts" key of a result record (docs/data-model.md):
 * what a log states about its own run (its arguments, container, GPU,
 * versions, command and dates), each value with the line it came from.
 *
 * measure writes it (measure/1-facts/logfacts.c reads the log); record_load.c checks it
 * when a record loads, through pr_recfacts_check.  This module holds what
 * both sides must agree on: the limits, the keys, the values a key takes,
 * and the address finder (records carry no machine address: measure blanks
 * them, loading refuses them).
 */
#ifndef PR_RECFACTS_H
#define PR_RECFACTS_H

#include <stddef.h>

#include "err.h"
#include "jdoc.h"

/* Items in one record's log_facts, "facts.truncated" (how many were left
 * out past the limit, at the line of the first) included. */
#define PR_RECFACTS_MAX 512
/* Bytes of one value, and of a command (a training command line runs to
 * 700 bytes); a longer one is cut there and marked "cut": true. */
#define PR_RECFACTS_VALUE_MAX 512
#define PR_RECFACTS_COMMAND_MAX 4096
/* Bytes of one key ("arg." and the name). */
#define PR_RECFACTS_KEY_MAX 128
/* What stands for an address in a value. */
#define PR_RECFACTS_ADDRESS "(address)"

/* The argument dump formats ("args.format" values), NULL-terminated. */
extern const char *const pr_recfacts_formats[];

/* 1 when c (any byte) may be part of an argument name: [A-Za-z0-9_.+-]. */
int pr_recfacts_name_char(int c);

/* The first IPv4 address in s[0..n) that stands alone (not inside a longer
 * run of digits, dots and letters: "cuda12.0.1.011" and "1.2.3.4.5" are
 * none), with its ":port" when one follows: returns its offset and sets
 * *len; -1 when there is none.  IPv6 literals are not searched (their
 * shape is that of times, "12:30:44"). */
long pr_recfacts_find_ipv4(const char *s, size_t n, size_t *len);

/* 1 when s is a date and time as log_facts writes it:
 * YYYY-MM-DDThh:mm:ss, then optionally .fraction (1 to 9 digits) and a
 * zone as the log printed it (Z, +hh:mm, +hhmm). */
int pr_recfacts_is_time(const char *s);

/* Checks the log_facts array at c (a record's "log_facts"): every item an
 * object {key, value, line[, file][, cut]} with a known key, a value of at
 * most PR_RECFACTS_VALUE_MAX bytes (a command PR_RECFACTS_COMMAND_MAX) that
 * suits its key, items in log order
 * (file, then line), at most PR_RECFACTS_MAX of them.  Errors name the
 * item and field: "r.json:40:17: log_facts[3].line: ...". */
int pr_recfacts_check(const pr_jdoc_jcur *c, pr_err *err);
/* The value of the first item of facts (a checked log_facts array, or
 * NULL) with key key, borrowed, and its line in *line (may be NULL); NULL
 * when there is none. */
const char *pr_recfacts_value(const json_t *facts, const char *key, int *line);

#endif
