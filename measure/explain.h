/* explain: how a parse rule turns logs into a case value, record by record
 * (`perfrepro-measure parse --explain`, docs/parse-rules.md).
 *
 * The logs are read once (pr_parse_scan) and reduced with the rule's own
 * keys (pr_parse_reduce): the same readers and reducers as a plain parse, so
 * the result explained is the record's FINAL_RESULT.  The text lists every
 * record the rule read (line number, value, what became of it: kept,
 * skipped as warm-up, trimmed at the low or high end, not picked, ignored,
 * not a clean number, another step, another rank), then the arithmetic.
 */
#ifndef PR_EXPLAIN_H
#define PR_EXPLAIN_H

#include <stddef.h>

#include "buf.h"
#include "err.h"
#include "parse.h"
#include "rule.h"

/* Appends the explanation of rule on logs[0..nlogs) to out.  *has_value is
 * set to 1 when the case has a value, 0 when it failed (the text says why).
 * Returns -1 with err set when args do not suit the rule or a log cannot be
 * read (nothing useful was appended). */
int pr_explain(const pr_rule *rule, const char *const *logs, size_t nlogs,
               const pr_parse_args *args, pr_buf *out, int *has_value, pr_err *err);

#endif
