/* import_mlperf_env: what an MLPerf system description (SUBMITTER/systems/
 * SYSTEM.json) states of the machine and its software, kept as a source
 * environment (data/environments/ID.json, docs/data-model.md "Source
 * environments"): every stated key as printed, with the line it is on, so
 * that a page links each item to its line as it links a README's; and the
 * run set's declaration of it (RUN/runset.json "environment"). */
#ifndef PR_IMPORT_MLPERF_ENV_H
#define PR_IMPORT_MLPERF_ENV_H

#include "err.h"

/* Writes DATA/environments/ID.json from the description at path (rel: its
 * path in repo at commit; group: the title of its one group, the system's
 * id).  Unchanged files are left untouched; -1 with err naming path when it
 * is no JSON object. */
int import_mlperf_env_write(const char *path, const char *rel, const char *group, const char *repo,
                            const char *commit, const char *id, const char *data, pr_err *err);

/* Writes RUN_DIR/runset.json: the run set titled by its folder's name,
 * whose environment is group of DATA/environments/ENV_ID.json. */
int import_mlperf_env_runset(const char *run_dir, const char *name, const char *env_id,
                             const char *group, pr_err *err);

#endif
