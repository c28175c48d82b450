/* import_mlperf_runs: an MLPerf submission's runs filed into the data
 * folder (docs/import.md, "MLPerf Training"): per system and benchmark a
 * run folder DATA/runs/mlperf-SUBMITTER-SYSTEM-BENCHMARK/ with the result
 * files copied unchanged (logs/train_log/), one record per run
 * (logs/index/: time to train in minutes, status, throughput, global
 * batch, and the score of the system and benchmark with its factor and
 * unscaled value), the source's LICENSE and a SOURCE.md. */
#ifndef PR_IMPORT_MLPERF_RUNS_H
#define PR_IMPORT_MLPERF_RUNS_H

#include <stdio.h>

#include "err.h"
#include "import_mlperf.h"

typedef struct import_mlperf_runs_mlperf_dest {
    const char *data;          /* the data folder */
    const char *submission;    /* the SUBMITTER folder */
    const char *repo, *commit; /* where the source is published */
    FILE *out;                 /* where the scores are printed */
} import_mlperf_runs_mlperf_dest;

/* Files entry e (an import_mlperf_visit; ctx is an import_mlperf_runs_mlperf_dest). */
int import_mlperf_runs_write(const import_mlperf_entry *e, void *ctx, pr_err *err);

#endif
