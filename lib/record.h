/* record: the per-case result record, the contract between measure and gen.
 *
 * One JSON file per case (logs/index/<case>_speed).  It carries the seeds'
 * keys exactly (log_file, model_name, mission_name, direction_id, run_mode,
 * index, gpu_num, FINAL_RESULT, JOB_FAIL_FLAG, UNIT) and perfrepro's own
 * fields beside them.  A failed case has JOB_FAIL_FLAG 1, FINAL_RESULT null
 * and a failure reason: never a number.  docs/data-model.md documents it.
 *
 * This module is the only writer and the only validator of records.
 */
#ifndef PR_RECORD_H
#define PR_RECORD_H

#include <jansson.h>

#include "err.h"
#include "jdoc.h"

#define PR_SCHEMA_VERSION 1

/* Precisions perfrepro knows; anything else is an error. */
extern const char *const pr_precisions[];
/* Failure reasons. */
extern const char *const pr_fail_reasons[];
/* Returns 1 when s is in the NULL-terminated list. */
int pr_record_str_in(const char *s, const char *const *list);
/* 1 when s is an IPv4 (dotted quad) or IPv6 literal: records never carry
 * machine addresses (launch.hosts). */
int pr_record_is_ip_address(const char *s);
/* 1 when s is a git commit id: 7 to 40 hex digits.  A suite's or published
 * table's source.commit must be one (a report pastes it into
 * `git checkout`). */
int pr_record_is_commit_id(const char *s);

/* The longest string (or key) a data file may hold, in bytes.  Text from
 * data reaches the reports escaped, and cmark-gfm spends about 170 bytes of
 * memory per escaped character when the site renders a page: a 4 MB
 * description cost 686 MB.  The longest shipped value is 617 bytes. */
#define PR_TEXT_MAX 16384
/* Fails at the first string or key under c (c included) longer than
 * PR_TEXT_MAX, naming its field. */
int pr_record_text_check(const pr_jdoc_jcur *c, pr_err *err);

typedef struct pr_record {
    /* The seeds' keys. */
    char *log_file;      /* relative to the run directory, e.g. logs/train_log/<case> */
    char *model_name;    /* e.g. clas_ResNet50 */
    char *mission_name;  /* e.g. 图像分类 */
    int direction_id;    /* 0 CV, 1 NLP, 2 Rec */
    char run_mode[3];    /* "sp" or "mp" */
    int index;           /* 1: speed */
    int gpu_num;         /* nodes * gpus_per_node */
    double final_result; /* meaningful only when !failed */
    int failed;          /* JOB_FAIL_FLAG */
    char *unit;
    /* perfrepro's fields. */
    char *model;             /* report folder, e.g. ResNet50 */
    char *framework;         /* report sub-folder, e.g. PyTorch */
    char *framework_version; /* may be NULL */
    char *case_name;
    char *precision;
    int batch_size; /* per GPU; 0 when not applicable */
    int nodes;
    int gpus_per_node;
    int repeat;        /* 1-based */
    int seq_len;       /* 0 when not applicable */
    char *origin;      /* "measured" (perfrepro ran it) or "parsed" (existing logs) */
    char *fail_reason; /* one of pr_fail_reasons when failed */
    char *fail_detail; /* may be NULL */
    char *env;         /* environment record path relative to the run directory, may be NULL */
    char *started_at;  /* ISO 8601 UTC, may be NULL */
    double duration_s; /* < 0 when unknown */
    int exit_status;   /* -1 when unknown */
    int term_signal;   /* 0 when none */
    json_t *stats;     /* owned; object or NULL */
    json_t *rule;      /* owned; object or NULL */
    json_t *metrics;   /* owned; object or NULL (time_to_train_s, accuracy, ...) */
    json_t *logs;      /* owned; array of extra log paths (per rank) or NULL */
    char *platform;    /* data/platforms/ id the figure belongs to, may be NULL (gen
                          * then matches the run's env.json) */
    json_t *source;    /* owned; where an imported log was published: {repo, commit,
                          * path, url} or NULL */
    json_t *launch;    /* owned; how a multi-node launcher ran the case (launcher,
                          * tasks, ranks, job_id, hosts, container, script) or NULL */
    json_t *command;   /* owned; array of strings or NULL */
    json_t *ended_processes; /* owned; what the job left running that measure ended:
                              * {count, names, survived} or NULL */
    json_t *log_facts;       /* owned; what the log states about its run: an array of
                          * {key, value, line[, file][, cut]} (lib/recfacts.h) or NULL */
    json_t *step_trace;      /* owned; every record the parse rule read and what became of
                          * it (lib/rectrace.h) or NULL */
    json_t *steady;          /* owned; the run's steady window and verdict, computed from
                          * step_trace (lib/steady.h) or NULL (not judged) */
} pr_record;

/* Checks an importer's --repo OWNER/NAME, --commit (a commit id) and --path
 * (a relative path in the repository), naming the option: 0, or -1 with err
 * set. */
int pr_record_source_opts_check(const char *repo, const char *commit, const char *path,
                                pr_err *err);
/* Checks a record's "source" object (repo OWNER/NAME, commit id, relative
 * path, optional http(s) url): what a loaded record's source must be. */
int pr_record_source_check(const pr_jdoc_jcur *sc, pr_err *err);

/* Sets every field to its empty value. */
/* The runs a successful record stands for: a record of several runs (a
 * parse of several logs) holds their figures in stats.per_run (all numbers)
 * and their median as FINAL_RESULT; any other record is one run, its
 * FINAL_RESULT.  Writes them to out (room for the count, may be NULL to
 * count only) and returns how many; 0 for a failed record. */
size_t pr_record_run_values(const pr_record *r, double *out);
void pr_record_init(pr_record *r);
/* Frees what r owns and re-initialises it. */
void pr_record_clear(pr_record *r);
/* Builds the JSON object (a new reference the caller owns).  Key order is
 * fixed, so the same record always serialises to the same bytes. */
json_t *pr_record_to_json(const pr_record *r);
/* Serialises to text (caller frees), ending in a newline. */
char *pr_record_dumps(const pr_record *r);
/* Validates the object at c strictly and fills r (which the caller clears).
 * Errors name file, line, column and field. */
int pr_record_from_json(const pr_jdoc_jcur *c, pr_record *r, pr_err *err);
int pr_record_load(const char *path, pr_record *r, pr_err *err);
/* Checks r's own consistency (the same checks as loading). */
int pr_record_check(const pr_record *r, pr_err *err);
/* Writes r atomically to path. */
int pr_record_write(const char *path, const pr_record *r, pr_err *err);

#endif
