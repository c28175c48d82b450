/* import_mlperf_score: MLPerf Training's score of one system and benchmark
 * (training_policies, training_rules.adoc "Benchmark results"; the
 * result_summarizer of mlcommons/logging): the olympic mean of the runs'
 * times to train, a run that did not converge counted as the slowest,
 * times the submission's scaling.json factor.  Lower is better. */
#ifndef PR_IMPORT_MLPERF_SCORE_H
#define PR_IMPORT_MLPERF_SCORE_H

#include <stddef.h>

#include "err.h"

/* One benchmark's rule: the runs a result needs and the runs dropped from
 * each end (the fastest and the slowest); one row per benchmark. */
typedef struct import_mlperf_score_bench {
    const char *benchmark; /* the results folder's name: "resnet" */
    size_t runs;
    size_t drop_each_end;
    /* How its records are filed: the model (report folder), the seeds'
     * mission and direction (0 CV, 1 NLP), the precision class. */
    const char *model, *mission;
    int direction_id;
    const char *precision;
} import_mlperf_score_bench;

/* The rule of benchmark (a results folder's name), or NULL when MLPerf
 * Training v4.0 has no such benchmark. */
const import_mlperf_score_bench *import_mlperf_score_rule(const char *benchmark);

/* One run: its time to train in minutes (run_start to run_stop) and
 * whether it converged (run_stop's status "success"). */
typedef struct import_mlperf_score_mlperf_run {
    double minutes;
    int converged;
} import_mlperf_score_mlperf_run;

typedef struct import_mlperf_score {
    double unscaled; /* the olympic mean, minutes */
    double factor;   /* scaling.json's, 1 when there is none */
    double score;    /* unscaled * factor */
    size_t used;     /* runs averaged */
    size_t not_converged;
} import_mlperf_score;

/* The score of runs[0..n) under the rule of benchmark, times factor.
 * Refuses (naming where, a folder, and the rule) an unknown benchmark, a
 * count of runs other than the rule's, a factor that is not above 0, and
 * more runs that did not converge than the slowest end drops (the result
 * has no score then). */
int import_mlperf_score_compute(const char *where, const char *benchmark,
                                const import_mlperf_score_mlperf_run *runs, size_t n, double factor,
                                import_mlperf_score *out, pr_err *err);

#endif
