/* parse: applying a rule to the logs of one case.
 *
 * The logs of a case are its repeats (rule "files": "runs"): each is read
 * and reduced on its own (skip, min_records, reduce, conversion, round), and
 * the case value is the median of the per-run values.  With "files":
 * "workers" they are one run's logs, one per worker (node), each reduced
 * the same way, and the case value is their sum, mean or min ("combine"),
 * as the source combined them.  With "files":
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
    json_t *log_facts;       /* owned array or NULL: what the log states about its run
                              * (measure/1-facts/logfacts.h), the record's log_facts */
    json_t *step_trace;      /* owned object or NULL: every record the rule read and
                              * what became of it (measure/2-parse/parsetrace.h) */
} pr_parse_result;

void parse_result_init(pr_parse_result *res);
void parse_result_clear(pr_parse_result *res);

/* Checks that args give what the rule needs: the GPU count for per_card
 * values, batch size and GPU count for per-step values, the sequence length
 * for per-step values in tokens, both for the MXNet summary table, and a
 * unit for raw values (perfrepro-gpu's tables name theirs).  The message
 * names the command-line option. */
int parse_check_args(const pr_rule *rule, const pr_parse_args *args, pr_err *err);

/* Parses logs[0..nlogs) with rule into res (which the caller initialised).
 * Returns 0 with res filled, failed or not; -1 only when args do not suit
 * the rule (see parse_check_args).  A log that cannot be read makes the
 * case fail with parse_error.  The same reading collects res->log_facts:
 * from the first log of "files": "runs" (its first run), from every part
 * of "files": "parts" (an item of part k > 0 says "file": k); lines of
 * other ranks than the rule's are left out as the records are.  When every
 * log was read, res->step_trace gets the records' trace, from a second
 * reading (parsetrace_steptrace_make). */
int parse_logs(const pr_rule *rule, const char *const *logs, size_t nlogs,
               const pr_parse_args *args, pr_parse_result *res, pr_err *err);

/* ---- Scanning once, reducing many times (explain.c, fit.c) ----
 *
 * parse_scan reads the logs once, as parse_logs does (the same
 * readers), and keeps in memory every value it read: each number with its
 * line, DLLogger lines of every step (tagged with theirs), values that are
 * not clean numbers, and the numbers on other ranks' lines (line formats
 * only; listed, not counted).  parse_reduce then counts those records
 * under a rule's counting keys (pr_reduce_keys: skip, reduce, trim, step,
 * round, min_records), or under others, through the same code as
 * parse_logs: for the rule's own keys it gives the same value, failure
 * and stats.  Memory grows with the records (24 bytes each, issue 31 #22). */

typedef struct pr_scan pr_scan;

/* What a listed line held. */
enum { PR_SCAN_NUMBER, PR_SCAN_NOT_CLEAN, PR_SCAN_IGNORED };
/* pr_scan_rec.step of a line that is no DLLogger step line. */
enum { PR_SCAN_NO_STEP = 255 };

/* 24 bytes a record (issue 31 #22: 48 before): what a line's record needs
 * that is rare or repeats (a value's text, the global batch) lies in the
 * scan's tables, read through parse_scan_text and parse_scan_batch.  A log of
 * more than 2^32 - 1 lines, or more than 65535 parts, is refused by
 * parse_scan. */
typedef struct pr_scan_rec {
    double value;        /* PR_SCAN_NUMBER: as read (inf: an MLPerf run that did
                            * not converge, "non_converged": "worst") */
    unsigned lineno;     /* in its log, 1-based */
    int rank;            /* -1, or the rank of another rank's line (only listed) */
    unsigned aux;        /* the scan's own (parse_scan_text, parse_scan_batch) */
    unsigned short part; /* which log of the run ("files": "parts") */
    unsigned char kind;  /* PR_SCAN_NUMBER, PR_SCAN_NOT_CLEAN (a value that is not a
                            * clean number), PR_SCAN_IGNORED (an N/A cell, a run that
                            * did not converge, ...) */
    unsigned char step;  /* pr_rulecfg_step of its DLLogger line, or PR_SCAN_NO_STEP */
} pr_scan_rec;

/* What parse_reduce made of each listed record. */
typedef enum {
    PR_REC_USED,       /* counted by the reducer */
    PR_REC_SKIPPED,    /* dropped by skip (warm-up) */
    PR_REC_IGNORED,    /* a negative rate, a step time <= 0, an N/A cell, ... */
    PR_REC_NOT_CLEAN,  /* a value that is not a clean number */
    PR_REC_OTHER_STEP, /* a DLLogger line of a step the keys do not take */
    PR_REC_OTHER_RANK, /* a line of a rank the rule does not read */
} pr_rec_status;

/* The keys a reduction of scanned records may change. */
typedef struct pr_reduce_keys {
    long long skip;
    pr_rulecfg_reduce reduce;
    double trim_fraction;
    long long trim_min;
    pr_rulecfg_step step; /* profile dllogger only */
    int round;            /* -1: none */
    long long min_records;
} pr_reduce_keys;

/* How one run's value came about (parse_reduce).  Zero it before first
 * use; parse_reduce clears it again; parse_run_trace_clear frees detail. */
typedef struct pr_run_trace {
    unsigned long long seen, skipped, used, ignored, other_step, other_rank;
    size_t trim_each;        /* trimmed_mean: records dropped from each end */
    double reduced;          /* the reducer's result, as read */
    int gpus;                /* per_card: the multiplier; 0 otherwise */
    double samples_per_step; /* per-step values; 0 otherwise */
    int batch_from_log;      /* samples_per_step is the log's global batch */
    double before_round;     /* after the conversion */
    double value;            /* the run's value */
    int failed;
    const char *reason; /* static, when failed */
    char *detail;       /* owned, when failed */
} pr_run_trace;

void parse_run_trace_clear(pr_run_trace *t);

/* Reads logs[0..nlogs) with rule's reading keys into *out (free with
 * parse_scan_free).  The scan borrows rule, which must outlive it.  Returns -1
 * when args do not suit the rule (parse_check_args) or a log cannot be
 * read (unlike parse_logs, which fails the case). */
int parse_scan(const pr_rule *rule, const char *const *logs, size_t nlogs,
               const pr_parse_args *args, pr_scan **out, pr_err *err);
void parse_scan_free(pr_scan *s);
/* The runs: one per log, or one for "files": "parts". */
size_t parse_scan_runs(const pr_scan *s);
/* Run i's listed records, in log order (borrowed from s). */
const pr_scan_rec *parse_scan_records(const pr_scan *s, size_t i, size_t *n);
/* The start of a PR_SCAN_NOT_CLEAN value as read (at most 39 bytes), or NULL. */
const char *parse_scan_text(const pr_scan *s, const pr_scan_rec *rec);
/* The global batch on a PR_SCAN_NUMBER record's line (NAN: none), and in
 * *batch_read whether batch_keyword applies to its line. */
double parse_scan_batch(const pr_scan *s, const pr_scan_rec *rec, int *batch_read);
/* The path of the log a record of run i comes from. */
const char *parse_scan_log(const pr_scan *s, size_t i, unsigned part);

/* The counting keys of rule. */
void parse_reduce_keys_of(const pr_rule *rule, pr_reduce_keys *k);

/* parse_reduce's flags.  PR_REDUCE_LEAN: stats.median is null, as
 * parse_logs leaves it above 524288 records (it sorts every record);
 * the value, failure and the other stats are the same (fit.c, which reduces
 * thousands of times and reads only the value). */
enum { PR_REDUCE_LEAN = 1 };

/* Reduces s's records under keys (the rest of the scan's rule as it is)
 * into res (initialised by the caller), as parse_logs would with a rule
 * holding these keys.  traces (may be NULL): one per run, filled; status
 * (may be NULL): per run an array of one pr_rec_status per listed record,
 * filled.  Returns 0. */
int parse_reduce(const pr_scan *s, const pr_reduce_keys *keys, unsigned flags, pr_parse_result *res,
                 pr_run_trace *traces, unsigned char *const *status);

/* Moves the outcome into rec: FINAL_RESULT/JOB_FAIL_FLAG, failure, UNIT,
 * stats, metrics, log_facts, step_trace, and the normalised rule.  res is left empty. */
void parse_to_record(const pr_rule *rule, pr_parse_result *res, pr_record *rec);

#endif
