/* parse_int.h: what the files of parse share (parse.c, parse_run.c,
 * parse_scan.c, parse_lines.c, parse_tables.c); nothing else includes it.
 * parse.h has the public API.
 *
 * parse.c: the public API, checking the arguments, setting up and freeing
 * a run, combining the runs of a case.  parse_run.c: reducing a run
 * (parse_finish_run) and why it failed.  parse_scan.c: parse_scan and
 * parse_reduce.  parse_lines.c: reading a run's logs line by line (rank
 * filtering, keyword and match, DLLogger text and JSON, step kinds) and
 * counting what they give.  parse_tables.c: the whole-table profiles
 * (perfrepro-gpu tables, nccl-tests rows, mxnet-summary tables, mllog time
 * to train). */
#ifndef PR_PARSE_INT_H
#define PR_PARSE_INT_H

#include <jansson.h>
#include <stddef.h>

#include "1-facts/logfacts.h"
#include "1-facts/logscan.h"
#include "buf.h"
#include "err.h"
#include "parse.h"
#include "rule.h"

/* perfrepro-gpu tables: at most this many column groups and cells in a row,
 * and this long a group or column name. */
enum { GPU_MAX_GROUPS = 16, GPU_MAX_COLS = 64, GPU_NAME_MAX = 32 };

/* The header of one perfrepro-gpu bandwidth or GEMM table. */
typedef struct parse_table {
    int ngroups;
    char names[GPU_MAX_GROUPS][GPU_NAME_MAX];
    int shape;                /* rows by M N K (GEMM), else by size in bytes */
    int ncols;                /* cells in a row */
    int xcol[3];              /* the size's column, or M's, N's and K's */
    int rate[GPU_MAX_GROUPS]; /* each group's rate column */
    char unit[GPU_NAME_MAX];  /* the rate column's name: GB/s or TFLOP/s */
} parse_table;

/* Reading perfrepro-gpu tables: the header being read, and what the run
 * keeps of the first table holding the rule's variant (metrics.table). */
typedef struct parse_state {
    parse_table cand;                   /* the last "#" line's words: the group line, maybe */
    parse_table cur;                    /* the current table's header */
    int state;                          /* 0 no table, 1 column line read (units next), 2 rows */
    int var;                            /* the variant's group in cur; -1: cur lacks it */
    unsigned long long tables, missing; /* headers read; those without the variant */
    parse_table novar;                  /* the first table without the variant (failure detail) */
    parse_table first;                  /* the first table with it: metrics.table, the unit */
    int have_first, collect, unit_mixed;
    char mixed_unit[GPU_NAME_MAX];
    char var_name[GPU_NAME_MAX]; /* the variant read (the default's name) */
    unsigned long long *tx;      /* the collected rows: 3 x values each */
    double *tv;                  /* and ngroups rates (NAN: N/A) */
    size_t nrows, caprows;
    double peak_pending, peak; /* "# Theoretical peak : X GB/s" */
    int have_peak_pending, have_peak;
} parse_state;

/* ---- one run: the records of one log (or of all parts of one log) ---- */

/* parse_run_init and parse_run_free (parse.c) set it up and free what it holds: v, sx,
 * sy, g.tx and g.tv (not list, trace or k, which the caller owns). */

typedef struct run {
    const pr_rule *rule;
    const pr_rulecfg_cfg *c;
    size_t kw_len, lf_len, bk_len; /* strlen of keyword, line_filter, batch_keyword */
    unsigned long long seen, ignored, skipped, used, other_rank;
    double sum, last, max, min;
    /* the first line whose value was not a clean number (failure detail) */
    unsigned long long lineno, bad_line;
    char bad_text[40];
    /* dllogger: lines with the metric whose step the rule does not take, by
     * their kind (pr_rulecfg_step: iteration, epoch, summary) */
    unsigned long long other_step[3];
    double *v; /* used values, when the reducer needs them */
    size_t nv, capv;
    /* global batch read from record lines (batch_keyword) */
    double gbs;
    int gbs_state; /* 0 none yet, 1 all equal, 2 differing */
    unsigned long long gbs_missing;
    /* nccl-tests: the columns of the last table header, and the first
     * placement's value by message size (for bandwidth-versus-size charts) */
    int nccl_ncols, nccl_col[2];
    double *sx, *sy;
    size_t ns, caps;
    /* mxnet-summary */
    int tbl_state, tbl_col;
    unsigned long long tables;
    /* mllog */
    int have_start;
    double start_ms;
    unsigned long long nonconv, nonconv_used; /* runs that did not converge */
    parse_state g;                            /* perfrepro-gpu */
    pr_logscan_stats scan;
    /* the case, for values kept across runs */
    struct kase *k;
    /* parse_scan: every value read goes to list too; the line's DLLogger
     * step (PR_SCAN_NO_STEP for other formats), and the rank of a line of
     * another rank read only for the list (-1: a line this rule reads) */
    struct reclist *list;
    int cur_step, probe_rank;
    unsigned part;       /* which log of the run is being read (files: parts) */
    pr_run_trace *trace; /* parse_reduce: how parse_finish_run got the value */
    /* parse_logs: the facts the log states (borrowed; NULL: not
     * collected), and the lines of the current file they are not read
     * from: offsets from fx_head on, fx_gap bytes of them (one unsigned
     * compare per line: offset - fx_head >= fx_gap hands the line over;
     * parse_run_init's 0 and ULLONG_MAX hand none) */
    pr_logfacts *facts;
    unsigned long long fx_head, fx_gap;
} run;

/* What parse_scan's records of every run share: a record's aux is, for
 * PR_SCAN_NOT_CLEAN, 1 + the index of its text's offset in text_at; for
 * PR_SCAN_NUMBER, 0 when batch_keyword does not apply to its line, else
 * 1 + the index of its batch in batches (a new entry only when the batch
 * changes: most logs give one or two). */
typedef struct scantab {
    pr_buf text;     /* the texts of values that are not clean numbers, each NUL-ended */
    size_t *text_at; /* where each starts in text */
    size_t ntext, captext;
    double *batches;
    size_t nbatches, capbatches;
    unsigned long long too_far; /* a line number or table past 32 bits: the line, else 0 */
} scantab;

/* parse_scan's records of one run, in log order. */
typedef struct reclist {
    pr_scan_rec *v;
    size_t n, cap;
    scantab *tab; /* the scan's, shared by its runs */
} reclist;

typedef struct kase {
    const pr_parse_args *args;
    double *all; /* used values of every run, for the median in stats */
    size_t nall, capall;
    int all_dropped;
    double sum, min, max;
    unsigned long long used;
    char gpu_unit[GPU_NAME_MAX]; /* perfrepro-gpu: the unit of the first run's records */
} kase;

/* The runs of one case, reduced one after the other and combined. */
typedef struct parse_case_acc {
    const pr_rulecfg_cfg *c;
    const pr_parse_args *args;
    const char *unit;
    const char *const *logs;
    size_t nlogs, runs;
    json_t *stats, *per_run, *series, *table;
    const char *series_y; /* the series' column, for nccl-tests or perfrepro-gpu */
    char gpu_y[GPU_NAME_MAX], gpu_unit[GPU_NAME_MAX];
    kase k;
    double *vals;
    size_t nvals;
} parse_case_acc;

/* ---- a run set up, reduced; a case's runs combined (parse.c, parse_run.c) ---- */

/* 1 for the values that are step times or step rates (parse.c). */
int parse_per_step(pr_rulecfg_value_kind v);
/* 1 when unit counts tokens ("tokens/s") (parse.c). */
int parse_is_tokens(const char *unit);
/* json_real, but null for inf and NaN (json_real gives NULL for them, and
 * json_object_set_new drops the key) (parse.c). */
json_t *parse_jreal(double x);
/* The case's failure, when it is the first (takes detail's storage) (parse.c). */
void parse_fail(pr_parse_result *res, const char *reason, pr_buf *detail);
/* Sets r up for rule (c its settings) and the case k (parse.c). */
void parse_run_init(run *r, const pr_rule *rule, const pr_rulecfg_cfg *c, kase *k);
/* Frees what a run read into memory (not r itself) (parse.c). */
void parse_run_free(run *r);
/* Reduces one run to its value.  Returns 0 with *out set, or -1 after
 * recording the failure in res (parse_run.c). */
int parse_finish_run(run *r, const char *what, const pr_parse_args *a, const char *unit,
                     pr_parse_result *res, json_t *stats, double *out);
/* A case's runs: opened (res->unit set), each run added (io -1: its logs
 * could not be read), closed into res (the value, stats, metrics; frees
 * what a held) (parse.c). */
void parse_case_open(parse_case_acc *a, const pr_rulecfg_cfg *c, const pr_parse_args *args,
                     const char *const *logs, size_t nlogs, pr_parse_result *res);
void parse_case_add_run(parse_case_acc *a, run *r, size_t i, int io, pr_parse_result *res);
void parse_case_close(parse_case_acc *a, pr_parse_result *res);

/* ---- reading a run (parse_lines.c) ---- */

/* Reads logs[0..n) into r (parse_run_init'd by parse.c; its memory is freed by
 * parse.c's parse_run_free).  See parse_lines.c. */
int parse_read_run(run *r, const char *const *logs, size_t n, pr_err *err);
/* Counts a number read: returns its pr_rec_status. */
int parse_count_record(run *r, double x, int batch_read, double b);
/* A number found on a line (line: where a batch_keyword may be read, or
 * NULL). */
void parse_add_record(run *r, double x, const char *line, size_t len);
/* A value that is not a clean number (val: its text, or NULL). */
void parse_ignore_value(run *r, const char *val);

/* ---- whole-table profiles (parse_tables.c) ---- */

/* One log line to each profile's reader; text may be changed (cut into
 * words). */
void parse_nccl_row(run *r, char *text, size_t len);
void parse_gpu_line(run *r, char *text, size_t len);
void parse_mxnet_table(run *r, char *text);
void parse_mllog_line(run *r, const char *text, size_t len);
/* A run_start without its run_stop. */
void parse_mllog_not_converged(run *r);

/* perfrepro-gpu, when a run is reduced: why it has no records (appended to
 * d), whether its unit agrees (-1 with the reason in d), metrics.table (a
 * new reference the caller owns), the unit of a case without a table (a
 * static string). */
void parse_gpu_why_none(const run *r, pr_buf *d);
int parse_gpu_check_unit(const run *r, pr_buf *d);
json_t *parse_gpu_table_json(const parse_state *g);
const char *parse_gpu_guess_unit(const char *variant);

#endif
