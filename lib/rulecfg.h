/* rulecfg: the one checker of parse rules (docs/parse-rules.md), without
 * their regular expressions.
 *
 * A parse rule is a JSON object (in suites, copied into every record, in
 * fit reports) saying how a log becomes one number.  measure builds rules
 * with it (measure/2-parse/rule.c compiles the "match" pattern through the hook);
 * gen checks the rules it loads (fit reports, RUN/fit/CASE.json) with the same
 * keys, types, ranges and combinations, without PCRE2, which it does not
 * link: a pattern there is checked as text (one line, not empty), not
 * compiled.
 *
 * Errors name the file, line, column and field: "FILE:L:C: rule.skip: ..."
 * for a rule that is a document's root, the document's own path
 * ("reproduced[0].rule.skip") inside a larger one.
 */
#ifndef PR_RULECFG_H
#define PR_RULECFG_H

#include <jansson.h>
#include <stddef.h>

#include "err.h"
#include "jdoc.h"

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
    PR_PROFILE_COUNT /* not a profile: the size of rulecfg.c's table */
} pr_rulecfg_profile;

/* What one extracted number means. */
typedef enum {
    PR_VALUE_THROUGHPUT,       /* a rate already in unit/s */
    PR_VALUE_SECONDS_PER_STEP, /* converted: samples per step / seconds */
    PR_VALUE_MS_PER_STEP,
    PR_VALUE_STEPS_PER_SECOND,
    PR_VALUE_RAW, /* taken as it is (bandwidth, time to train) */
} pr_rulecfg_value_kind;

typedef enum { PR_SCOPE_NONE, PR_SCOPE_PER_CARD, PR_SCOPE_GLOBAL } pr_rulecfg_scope;
typedef enum {
    PR_REDUCE_MEAN,
    PR_REDUCE_MEDIAN,
    PR_REDUCE_LAST,
    PR_REDUCE_TRIMMED_MEAN,
    PR_REDUCE_MAX,  /* the largest record as read (GEMM's best shape; a per-step
                     * value's slowest step) */
    PR_REDUCE_MIN,  /* the smallest record as read */
    PR_REDUCE_BEST, /* the fastest record: max of rates, min of step times */
} pr_rulecfg_reduce;
typedef enum {
    PR_SOURCE_RECORDS,       /* one record per matching line (keyword/match) */
    PR_SOURCE_AVG_BUSBW,     /* nccl-tests "# Avg bus bandwidth" footer */
    PR_SOURCE_ROWS,          /* table rows: nccl-tests, perfrepro-gpu */
    PR_SOURCE_TIME_TO_TRAIN, /* mllog run_start..run_stop, minutes */
    PR_SOURCE_SUMMARY_TABLE, /* the NGC MXNet benchmark's final table */
} pr_rulecfg_source;
typedef enum { PR_COLUMN_BUSBW, PR_COLUMN_ALGBW, PR_COLUMN_TIME } pr_rulecfg_column;
typedef enum { PR_PLACE_BOTH, PR_PLACE_OUT_OF_PLACE, PR_PLACE_IN_PLACE } pr_rulecfg_placement;
typedef enum { PR_STEP_ITERATION, PR_STEP_EPOCH, PR_STEP_SUMMARY, PR_STEP_ANY } pr_rulecfg_step;
/* workers: one log per worker (node) of one run, combined as the source
 * combined them (pr_rulecfg_combine). */
typedef enum { PR_FILES_RUNS, PR_FILES_PARTS, PR_FILES_WORKERS } pr_rulecfg_files;
typedef enum { PR_COMBINE_SUM, PR_COMBINE_MEAN, PR_COMBINE_MIN } pr_rulecfg_combine;
/* mllog: a run without a successful run_stop is left out, or scored as
 * MLPerf does, as the slowest run (an infinite time). */
typedef enum { PR_NONCONV_IGNORE, PR_NONCONV_WORST } pr_rulecfg_nonconv;

/* The resolved settings (profile defaults filled in).  Strings are NULL
 * when unset and owned by the rule. */
typedef struct pr_rulecfg_cfg {
    pr_rulecfg_profile profile;
    const char *keyword;     /* value = the token after it */
    const char *match;       /* PCRE2 pattern, one capture group */
    const char *line_filter; /* substring a line must contain */
    int rank;                /* keep lines of this mpirun rank; -1: all */
    pr_rulecfg_value_kind value;
    pr_rulecfg_scope scope;
    pr_rulecfg_source source;
    long long skip;
    pr_rulecfg_reduce reduce;
    double trim_fraction;
    long long trim_min;
    long long min_records;
    int round;                      /* decimals per run; -1: no rounding */
    const char *unit;               /* from the rule or the profile */
    pr_rulecfg_column column;       /* nccl-tests rows */
    pr_rulecfg_placement placement; /* nccl-tests rows */
    pr_rulecfg_step step;           /* dllogger */
    const char *table;              /* mxnet-summary: the table's title line */
    pr_rulecfg_files files;
    pr_rulecfg_combine combine;       /* files workers: how the workers' values make the figure */
    const char *batch_keyword;        /* per-step values: global batch read from the line */
    const char *variant;              /* perfrepro-gpu: the column group; NULL: the table's first */
    char thousands;                   /* the log's digit-group separator; 0: none */
    pr_rulecfg_nonconv non_converged; /* mllog */
} pr_rulecfg_cfg;

/* A checked rule: its settings and the storage of their strings (owned:
 * pr_rulecfg_clear frees them). */
typedef struct pr_rulecfg_def {
    pr_rulecfg_cfg cfg;
    char *keyword, *match, *line_filter, *unit, *table, *batch_keyword, *variant;
} pr_rulecfg_def;

/* Where a check stands, for the hook's errors. */
typedef struct pr_rulecfg_ctx pr_rulecfg_ctx;

/* Called with the "match" pattern once its text is checked (at: the key, or
 * the rule when a profile gives the pattern); returns 0, or -1 after
 * pr_rulecfg_fail. */
typedef int (*pr_rulecfg_match_fn)(const pr_rulecfg_ctx *x, const pr_jdoc_jcur *at,
                                   const char *pattern, void *arg);

/* Checks the rule object at c and resolves it (profile defaults filled in)
 * into *out, which the caller zeroed.  nopos: the document was made from a
 * value, so positions mean nothing and are left out.  match (may be NULL)
 * is called on the pattern with arg.  Returns 0, or -1 with err set; *out
 * may then hold strings to clear. */
int pr_rulecfg_check(const pr_jdoc_jcur *c, int nopos, pr_rulecfg_match_fn match, void *arg,
                     pr_rulecfg_def *out, pr_err *err);
void pr_rulecfg_clear(pr_rulecfg_def *d);
/* An error at k, with the field path written as the rule's own. */
int pr_rulecfg_fail(const pr_rulecfg_ctx *x, const pr_jdoc_jcur *k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The normalised rule: every key with its resolved value, in a fixed order
 * (a new reference; the caller owns it). */
json_t *pr_rulecfg_to_json(const pr_rulecfg_cfg *c);

/* The names used in JSON, for messages and documentation. */
const char *pr_rulecfg_profile_name(pr_rulecfg_profile p);
/* Whether fit tries profile p on logs with no rule (it needs no key). */
int pr_rulecfg_profile_probed(pr_rulecfg_profile p);
/* The fuzz_parse header value (byte 0 mod 13) that picks p; 0 when none. */
int pr_rulecfg_profile_fuzz_seed(pr_rulecfg_profile p);
const char *pr_rulecfg_value_name(pr_rulecfg_value_kind v);

#endif
