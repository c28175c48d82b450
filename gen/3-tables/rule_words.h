/* rule_words: a parse rule (docs/parse-rules.md) said in words for a
 * framework page's notes ("DLLogger iteration records: the number after
 * `train.total_ips`, throughput (the whole job's rate), rank 0's lines only;
 * per run the mean of records 10 to the end, at least 1 record"), and its
 * JSON in the shortest form that reads back as the same rule (no float
 * noise: 0.05, not 0.050000000000000003).
 *
 * Memory: rule_words appends to the caller's buffer; rule_words_json_shortest
 * returns a string the caller frees.
 */
#ifndef PR_RULE_WORDS_H
#define PR_RULE_WORDS_H

#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "template/lang.h"

/* Rule (borrowed) in l's words, as Markdown, appended to out.  Keys the
 * words do not cover are listed after them, as written, so that nothing of
 * the rule is left out. */
void rule_words(const lang *l, const json_t *rule, pr_buf *out, pr_err *err);

/* The estimator of rule (borrowed) in l's words, as Markdown appended to
 * out: which records count and how they are reduced ("the 5 % trimmed
 * mean of records 11 to the end"), or the log's own summary it reads.
 * Appends nothing for NULL. */
void rule_words_estimator(const lang *l, const json_t *rule, pr_buf *out, pr_err *err);

/* The keys of rule that make its estimator (source, table, step, skip,
 * reduce, trim), as compact JSON the caller frees: two rules with equal
 * keys estimate alike.  NULL for NULL. */
char *rule_words_estimator_key(const json_t *rule);

/* v as compact JSON with sorted keys, each real in the fewest digits that
 * still read back as the same document. */
char *rule_words_json_shortest(const json_t *v);

/* The last rule a walk over records wrote and its text: records mostly
 * share one rule, whose text is then made once, not once a record.
 * Zero-initialise; rule_words_last_free frees the text. */
typedef struct rule_words_last {
    const json_t *rule; /* borrowed from the record that had it */
    char *text;         /* rule_words_json_shortest(rule) */
} rule_words_last;

/* rule_words_json_shortest(rule), from last when rule equals its rule
 * (json_equal, and no real 0 whose sign would print), else made and kept
 * in last; borrowed: valid until the next call or rule_words_last_free. */
const char *rule_words_shortest_of(rule_words_last *last, const json_t *rule);
void rule_words_last_free(rule_words_last *last);

#endif
