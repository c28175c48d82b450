/* envrec: the schema of the environment record (DIR/env.json), checked in
 * one place.  perfrepro-measure writes it (measure/1-facts/envinfo.c); perfrepro-gen
 * loads it (gen/1-load/data_run.c) and shows it.  docs/data-model.md and
 * docs/measure-run.md describe the fields.
 *
 *   {"perfrepro": 1,                            required
 *    "captured_at": "2026-05-01T12:34:56Z",      required, UTC
 *    "host": {"cpu_model", "cpu_count", "memory_gb", "arch", "os", "kernel",
 *             "compiler"} or null,
 *    "framework": {"name", "version"} or null,
 *    "gpu": {"name", "count", "driver", "cuda", "cudnn", "nccl",
 *            "cuda_driver", "cublaslt"} or null,
 *    "runtime": {"libraries": [{"kind": blas|lapack|openmp|onednn,
 *                               "file"}...],
 *                "threads_max", "settings": {NAME: value or null}}, optional:
 *               what the jobs' processes loaded (measure/1-facts/cpurt.h),
 *    "note": "free text"}
 *
 * Every field of host, framework and gpu is optional and may be null (not
 * found); a counted field (cpu_count, gpu count) is an integer from 1,
 * memory_gb a finite number above 0, every other one a string.  Unknown keys
 * are errors.
 */
#ifndef PR_ENVREC_H
#define PR_ENVREC_H

#include <jansson.h>

#include "err.h"
#include "jdoc.h"

/* Checks the record at root; the error is "FILE:LINE:COL: FIELD: ...". */
int pr_envrec_check(const pr_jdoc_jcur *root, pr_err *err);
/* Loads path (a regular file) and checks it; *out is a new reference the
 * caller owns (json_decref), set only on success. */
int pr_envrec_load(const char *path, json_t **out, pr_err *err);

#endif
