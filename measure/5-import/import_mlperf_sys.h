/* import_mlperf_sys: an MLPerf system description (SUBMITTER/systems/
 * SYSTEM.json) made into a platform (data/platforms/ID.json, docs/
 * data-model.md "Platform"): a platform per system, with its node count,
 * accelerators per node, accelerator model and memory, host processors,
 * interconnect, framework and software as the description states them.  A
 * system without accelerators is a CPU platform whose devices are the
 * host's threads. */
#ifndef PR_IMPORT_MLPERF_SYS_H
#define PR_IMPORT_MLPERF_SYS_H

#include <jansson.h>

#include "err.h"

/* The platform id of SYSTEM of SUBMITTER: "mlperf-SUBMITTER-SYSTEM" (a new
 * string, freed by the caller). */
char *import_mlperf_sys_id(const char *submitter, const char *system);

/* The most devices (nodes x accelerators, or host threads, per node) a
 * system may have: MLPerf's largest has 11,616 GPUs. */
#define IMPORT_MLPERF_SYS_MAX_DEVICES 10000000L

/* The platform of the system description at path (rel: the path named in
 * the platform, relative to the source), a new object the caller decrefs;
 * NULL with err naming path and the field when a count is not a whole
 * number, the node count is missing, neither accelerators nor host
 * processors are stated, or the devices are over
 * IMPORT_MLPERF_SYS_MAX_DEVICES. */
json_t *import_mlperf_sys_platform(const char *path, const char *rel, pr_err *err);

/* Writes the platform of every SUBMITTER/systems/SYSTEM.json that has
 * results into data/platforms/, and what it states as the source
 * environment data/environments/ID.json (import_mlperf_env.h; the file
 * published in repo at commit); unchanged files untouched.  Without write,
 * only checks: each description a regular file inside the submission (links
 * resolved, at most IMPORT_MLPERF_TEXT_LIMIT bytes) that makes a platform,
 * and, when data is not NULL, each platform file absent or made by an
 * import of the same description (else replace must be set). */
int import_mlperf_sys_write(const char *submission, const char *data, const char *repo,
                            const char *commit, int replace, int write, pr_err *err);

#endif
