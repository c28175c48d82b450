/* rule: how a log becomes one number, written down.
 *
 * A parse rule is a JSON object (stored in suites, copied into every record)
 * that says which lines hold records, how a value is read from a line, what
 * the value means (a rate per card or for the whole job, or a time per step),
 * which records count (skip, reduce, min_records) and the unit.  A `profile`
 * fills in the defaults for a known log format.  docs/parse-rules.md is the
 * reference for every key.
 *
 * Rules are validated strictly: an unknown key, a wrong type, a bad enum
 * value, contradicting keys or a bad regular expression is an error that
 * names the file, line, column and field ("FILE:L:C: rule.skip: ...").
 *
 * A pr_rule is immutable once built, except for the PCRE2 match data it
 * carries: use one pr_rule from one thread at a time.
 */
#ifndef PR_RULE_H
#define PR_RULE_H

#include <jansson.h>
#include <stddef.h>

#include "err.h"
#include "jdoc.h"

typedef struct pr_rule pr_rule;

typedef enum {
    PR_PROFILE_NONE,
    PR_PROFILE_PADDLE_IPS,
    PR_PROFILE_DLLOGGER,
    PR_PROFILE_KERAS_TIMEHISTORY,
    PR_PROFILE_MMSEG,
    PR_PROFILE_FAIRSEQ,
    PR_PROFILE_MEGATRON,
    PR_PROFILE_PYTORCH_EXAMPLES,
    PR_PROFILE_NCCL_TESTS,
    PR_PROFILE_MLLOG,
    PR_PROFILE_MXNET_SUMMARY,
    PR_PROFILE_PERFREPRO_GPU,
} pr_profile;

/* What one extracted number means. */
typedef enum {
    PR_VALUE_THROUGHPUT,       /* a rate already in unit/s */
    PR_VALUE_SECONDS_PER_STEP, /* converted: samples per step / seconds */
    PR_VALUE_MS_PER_STEP,
    PR_VALUE_STEPS_PER_SECOND,
    PR_VALUE_RAW,              /* taken as it is (bandwidth, time to train) */
} pr_value_kind;

typedef enum { PR_SCOPE_NONE, PR_SCOPE_PER_CARD, PR_SCOPE_GLOBAL } pr_scope;
typedef enum {
    PR_REDUCE_MEAN,
    PR_REDUCE_MEDIAN,
    PR_REDUCE_LAST,
    PR_REDUCE_TRIMMED_MEAN,
    PR_REDUCE_MAX,  /* the largest record as read (GEMM's best shape; a per-step
                     * value's slowest step) */
    PR_REDUCE_MIN,  /* the smallest record as read */
    PR_REDUCE_BEST, /* the fastest record: max of rates, min of step times */
} pr_reduce;
typedef enum {
    PR_SOURCE_RECORDS,       /* one record per matching line (keyword/match) */
    PR_SOURCE_AVG_BUSBW,     /* nccl-tests "# Avg bus bandwidth" footer */
    PR_SOURCE_ROWS,          /* table rows: nccl-tests, perfrepro-gpu */
    PR_SOURCE_TIME_TO_TRAIN, /* mllog run_start..run_stop, minutes */
    PR_SOURCE_SUMMARY_TABLE, /* the NGC MXNet benchmark's final table */
} pr_source;
typedef enum { PR_COLUMN_BUSBW, PR_COLUMN_ALGBW, PR_COLUMN_TIME } pr_column;
typedef enum { PR_PLACE_BOTH, PR_PLACE_OUT_OF_PLACE, PR_PLACE_IN_PLACE } pr_placement;
typedef enum { PR_STEP_ITERATION, PR_STEP_EPOCH, PR_STEP_SUMMARY, PR_STEP_ANY } pr_step;
typedef enum { PR_FILES_RUNS, PR_FILES_PARTS } pr_files;
/* mllog: a run without a successful run_stop is left out, or scored as
 * MLPerf does, as the slowest run (an infinite time). */
typedef enum { PR_NONCONV_IGNORE, PR_NONCONV_WORST } pr_nonconv;

/* The resolved settings (profile defaults filled in).  Strings are NULL
 * when unset and owned by the rule. */
typedef struct pr_rule_cfg {
    pr_profile profile;
    const char *keyword;       /* value = the token after it */
    const char *match;         /* PCRE2 pattern, one capture group */
    const char *line_filter;   /* substring a line must contain */
    int rank;                  /* keep lines of this mpirun rank; -1: all */
    pr_value_kind value;
    pr_scope scope;
    pr_source source;
    long long skip;
    pr_reduce reduce;
    double trim_fraction;
    long long trim_min;
    long long min_records;
    int round;                 /* decimals per run; -1: no rounding */
    const char *unit;          /* from the rule or the profile */
    pr_column column;          /* nccl-tests rows */
    pr_placement placement;    /* nccl-tests rows */
    pr_step step;              /* dllogger */
    const char *table;         /* mxnet-summary: the table's title line */
    pr_files files;
    const char *batch_keyword; /* per-step values: global batch read from the line */
    const char *variant;       /* perfrepro-gpu: the column group; NULL: the table's first */
    char thousands;            /* the log's digit-group separator; 0: none */
    pr_nonconv non_converged;  /* mllog */
} pr_rule_cfg;

/* Builds a rule from the object at c.  When c is a document's root, error
 * paths are written "rule.KEY"; inside a larger document they are the
 * document's own path ("cases[0].rule.KEY"). */
int pr_rule_from_jcur(const pr_jcur *c, pr_rule **out, pr_err *err);
/* Builds a rule from a JSON value already loaded (a suite's "rule"); the
 * errors name `name` and the field ("suite.json: rule.skip: ...") without a
 * line and column.  Prefer pr_rule_from_jcur when the document is at hand. */
int pr_rule_from_json(json_t *v, const char *name, pr_rule **out, pr_err *err);
/* Parses JSON text; name is used in messages ("<--rule>" for inline text). */
int pr_rule_parse(const char *name, const char *text, size_t len, pr_rule **out, pr_err *err);
/* Loads a rule file. */
int pr_rule_load(const char *path, pr_rule **out, pr_err *err);
void pr_rule_free(pr_rule *r);

const pr_rule_cfg *pr_rule_get(const pr_rule *r);
/* The normalised rule: every key with its resolved value, in a fixed order
 * (a new reference; the caller owns it).  Building a rule from this object
 * gives the same rule again. */
json_t *pr_rule_to_json(const pr_rule *r);

/* Runs the rule's regular expression on s[0..len).  Returns 1 and sets
 * *cap and *cap_len to the capture on a match, 0 on no match, -1 on a matching
 * error (e.g. the match limit; the line is treated as unreadable).  *edges
 * gets PR_NUM_EDGE_START when the capture starts the whole match and
 * PR_NUM_EDGE_END when it ends it (numbers.h). */
int pr_rule_regex(const pr_rule *r, const char *s, size_t len, const char **cap, size_t *cap_len,
                  int *edges);

/* The names used in JSON, for messages and documentation. */
const char *pr_profile_name(pr_profile p);
const char *pr_value_name(pr_value_kind v);

#endif
