/* parse: applying a rule to the logs of one case.
 *
 * The logs of a case are its repeats (rule "files": "runs"): each is read
 * and reduced on its own (skip, min_records, reduce, conversion, round), and
 * the case value is the median of the per-run values.  With "files":
 * "parts" the logs are pieces of one log (an MLPerf result cut into head and
 * tail) and are read as one, in the order given.
 *
 * A case that yields no number fails with a reason (no_records,
 * too_few_records, parse_error): never 0, never a number from what is left.
 * When any run fails, the case fails.
 *
 * Memory stays bounded for the mean, last and max reducers whatever the log
 * size; median and trimmed_mean keep the used values of a run (8 bytes
 * each).
 */
#ifndef PR_PARSE_H
#define PR_PARSE_H

#include <jansson.h>
#include <stddef.h>

#include "err.h"
#include "record.h"
#include "rule.h"

typedef struct pr_parse_args {
    int gpus;         /* total GPU count; 0 when not given */
    int batch_size;   /* per GPU; 0 when not given */
    int seq_len;      /* tokens per sample; 0 when not given */
    const char *unit; /* overrides the rule's unit; NULL when not given */
} pr_parse_args;

typedef struct pr_parse_result {
    int failed;
    const char *fail_reason; /* static, one of pr_fail_reasons, when failed */
    char *fail_detail;       /* owned; may be NULL */
    double value;            /* meaningful only when !failed */
    char *unit;              /* owned */
    json_t *stats;           /* owned object */
    json_t *metrics;         /* owned object or NULL */
} pr_parse_result;

void pr_parse_result_init(pr_parse_result *res);
void pr_parse_result_clear(pr_parse_result *res);

/* Checks that args give what the rule needs: the GPU count for per_card
 * values, batch size and GPU count for per-step values, the sequence length
 * for per-step values in tokens, both for the MXNet summary table, and a
 * unit for raw values (perfrepro-gpu's tables name theirs).  The message
 * names the command-line option. */
int pr_parse_check_args(const pr_rule *rule, const pr_parse_args *args, pr_err *err);

/* Parses logs[0..nlogs) with rule into res (which the caller initialised).
 * Returns 0 with res filled, failed or not; -1 only when args do not suit
 * the rule (see pr_parse_check_args).  A log that cannot be read makes the
 * case fail with parse_error. */
int pr_parse_logs(const pr_rule *rule, const char *const *logs, size_t nlogs,
                  const pr_parse_args *args, pr_parse_result *res, pr_err *err);

/* Moves the outcome into rec: FINAL_RESULT/JOB_FAIL_FLAG, failure, UNIT,
 * stats, metrics, and the normalised rule.  res is left empty. */
void pr_parse_to_record(const pr_rule *rule, pr_parse_result *res, pr_record *rec);

#endif
