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

/* `perfrepro-measure import --mlperf SUBMISSION`: with dry_run, the scores
 * printed to out (import_mlperf_print); else each system's platform written
 * into data/platforms/ (import_mlperf_sys), its runs into data/runs/
 * (import_mlperf_runs, published at repo and commit), and the scores
 * printed. */
int import_mlperf_import(const char *submission, const char *data, const char *repo,
                         const char *commit, int dry_run, FILE *out, pr_err *err);

#endif
