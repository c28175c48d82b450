/* import_mlperf: an MLPerf Training submission's folders read as MLPerf
 * publishes them (docs/import.md, "MLPerf Training"):
 *   SUBMITTER/results/SYSTEM/BENCHMARK/result_N.txt  one run each (:::MLLOG)
 *   SUBMITTER/results/SYSTEM/BENCHMARK/scaling.json  the score's factor
 *   SUBMITTER/systems/SYSTEM.json                    the system (platform)
 * Each run's time to train is run_start to run_stop in minutes; the score
 * per system and benchmark is import_mlperf_score's. */
#ifndef PR_IMPORT_MLPERF_H
#define PR_IMPORT_MLPERF_H

#include <stdio.h>

#include "err.h"
#include "import_mlperf_score.h"

/* One result file. */
typedef struct import_mlperf_result {
    char file[64];          /* its name in the BENCHMARK folder: "result_0.txt" */
    double minutes;         /* run_stop - run_start, ms / 60000 */
    int converged;          /* run_stop's status is "success" */
    char status[16];        /* "success", "aborted" */
    char benchmark[64];     /* submission_benchmark; "" when not logged */
    long long global_batch; /* global_batch_size; 0 when not logged */
    double throughput;      /* mean of tracked_stats' throughput; 0 when none */
    size_t throughputs;     /* how many were logged */
    int start_line, stop_line;
    long long start_ms; /* run_start's time_ms: the run's date */
} import_mlperf_result;

/* Reads the MLLOG lines of path.  Refuses (naming file, line and key) a
 * line that is no JSON object, a run_start or run_stop missing or logged
 * twice, a stop before the start, a status other than success/aborted. */
int import_mlperf_result_read(const char *path, import_mlperf_result *out, pr_err *err);
/* scaling.json's scaling_factor into *factor; 1 when path does not exist. */
int import_mlperf_scaling_read(const char *path, double *factor, pr_err *err);

/* One system and benchmark of a submission: its runs and score. */
typedef struct import_mlperf_entry {
    const char *submitter, *system, *benchmark; /* folder names */
    const char *dir;                            /* the BENCHMARK folder */
    const import_mlperf_result *results;        /* result_0.. in order */
    size_t nresults;
    import_mlperf_score score;
} import_mlperf_entry;

typedef int (*import_mlperf_visit)(const import_mlperf_entry *e, void *ctx, pr_err *err);

/* Visits every SYSTEM/BENCHMARK of submission (a SUBMITTER folder) in
 * name order, its score computed; stops at the first error (a visit's
 * own, or a folder's: runs numbered with a gap, a benchmark the results
 * disagree on, no score). */
int import_mlperf_walk(const char *submission, import_mlperf_visit visit, void *ctx, pr_err *err);

/* Prints one line per system and benchmark of submission (the dry run of
 * `import --mlperf`): the score to 17 significant digits, the unscaled
 * mean, the factor, the runs averaged. */
int import_mlperf_print(const char *submission, FILE *out, pr_err *err);

/* The most bytes a system description, scaling.json, licence or
 * implementation file of a submission may weigh (a result file: a log's,
 * PR_SUITE_LOG_LIMIT). */
#define IMPORT_MLPERF_TEXT_LIMIT (16LL << 20)

/* What `import --mlperf` is asked. */
typedef struct import_mlperf_opts {
    const char *submission;    /* the SUBMITTER folder */
    const char *data;          /* the data folder */
    const char *repo, *commit; /* where the source is published (not for a dry run) */
    const char *gen;           /* perfrepro-gen, which validates the staged copy */
    int dry_run, replace;
} import_mlperf_opts;

/* `perfrepro-measure import --mlperf SUBMISSION`, with the manifest
 * import's guarantees (docs/import.md, "Files and folders"): every source a
 * regular file inside the submission (the licence: inside its parent), of
 * bounded size; run folders and platforms absent or made by import --mlperf
 * (else replace); all checked before anything is written.  With dry_run,
 * the scores printed to out (as import_mlperf_print) and nothing written.
 * Else, holding the data folder's lock, each system's platform (import_
 * mlperf_sys) and its runs (import_mlperf_runs) written into a staging copy
 * of the data folder, the scores printed, the copy validated with gen and
 * swapped in whole (import_fs). */
int import_mlperf(const import_mlperf_opts *o, FILE *out, pr_err *err);

#endif
