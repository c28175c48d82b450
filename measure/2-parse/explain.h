/* explain: how a parse rule turns logs into a case value, record by record
 * (`perfrepro-measure parse --explain`, docs/parse-rules.md).
 *
 * The logs are read once (parse_scan) and reduced with the rule's own
 * keys (parse_reduce): the same readers and reducers as a plain parse, so
 * the result explained is the record's FINAL_RESULT.  The text lists every
 * record the rule read (line number, value, what became of it: kept,
 * skipped as warm-up, trimmed at the low or high end, not picked, ignored,
 * not a clean number, another step, another rank), then the arithmetic.
 * The listing is streamed: its memory does not grow with the text.
 */
#ifndef PR_EXPLAIN_H
#define PR_EXPLAIN_H

#include <stddef.h>

#include "buf.h"
#include "err.h"
#include "parse.h"
#include "rule.h"

/* The text is written out as it is made, PR_EXPLAIN_CHUNK bytes at a time
 * or so (a record's line may go past it): the listing of a log of millions
 * of records is never held whole. */
#define PR_EXPLAIN_CHUNK 65536

/* Where the text goes: write(text, len, arg, err) gets each piece in order
 * (text is explain_run's, valid during the call); it returns 0, or -1 with
 * err set, which stops the explanation. */
typedef int (*explain_write)(const char *text, size_t len, void *arg, pr_err *err);

/* Writes the explanation of rule on logs[0..nlogs) through write.
 * *has_value is set to 1 when the case has a value, 0 when it failed (the
 * text says why).  Returns -1 with err set when args do not suit the rule
 * or a log cannot be read (nothing was written), or when write failed.
 * Memory: the scan's (about 24 bytes per record) and 2 bytes per record
 * (18 while the used records of a median or trimmed mean are sorted). */
int explain_run(const pr_rule *rule, const char *const *logs, size_t nlogs,
                const pr_parse_args *args, explain_write write, void *arg, int *has_value,
                pr_err *err);

#endif
