/* import_mlperf_steps: the run set's suite (DATA/runs/RUN/suite.json) of an
 * MLPerf result whose implementation the submission carries
 * (SUBMITTER/benchmarks/BENCHMARK/implementations/SYSTEM/): the steps its
 * README gives, from its own files: the image built from the Dockerfile
 * (its FROM_IMAGE_NAME the base), the config_*.sh the README sources, and
 * the Slurm run.sub submitted with sbatch, under pyxis. */
#ifndef PR_IMPORT_MLPERF_STEPS_H
#define PR_IMPORT_MLPERF_STEPS_H

#include "err.h"
#include "import_mlperf_runs.h"

/* Writes RUN/suite.json for e when its implementation folder exists (else
 * nothing): 0, or -1 with err naming the file that is not as expected. */
int import_mlperf_steps_write(const import_mlperf_entry *e, const import_mlperf_runs_mlperf_dest *d,
                              const char *run, const char *platform, int nodes, int per_node,
                              pr_err *err);

/* Checks, before anything is written, the implementation files of e that
 * import_mlperf_steps_write may read (its README-SYSTEM.md and Dockerfile,
 * where present): regular files inside submission of at most
 * IMPORT_MLPERF_TEXT_LIMIT bytes.  A missing one is the write's to report. */
int import_mlperf_steps_check(const char *submission, const import_mlperf_entry *e, pr_err *err);

#endif
