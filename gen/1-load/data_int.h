/* data_int: what the files of the data loader share (data.c the whole
 * folder, data_fs.c the checked walk, data_run.c one run folder,
 * data_bench.c benchmark files).  Private to them: gen reads data.h.
 */
#ifndef PR_DATA_INT_H
#define PR_DATA_INT_H

#include <jansson.h>
#include <stddef.h>

#include "data.h"
#include "err.h"

/* What lies at path, whose folder was already checked: 0 and *mode 0 when
 * nothing, 1 with *mode what it is (for a link, what it points to, once
 * known to lie inside root), -1 on error (data_fs.c). */
int data_entry(const char *root, const char *path, unsigned *mode, pr_err *err);
/* data_entry for each component of rel below the checked folder base; 1
 * with *mode of the last (data_fs.c). */
int data_path(const char *root, const char *base, const char *rel, unsigned *mode, pr_err *err);
/* Collects *.json below dir (checked to lie inside root), recursively,
 * sorted; *list and its strings malloc'd (pr_fileio_strv_free) (data_fs.c). */
int data_find_json(const char *root, const char *dir, int depth, char ***list, size_t *n,
                   pr_err *err);

/* Loads the run folder dir/name into d->runs; seen maps each case identity
 * to the record file that has it (data_run.c). */
int data_load_run(pr_dataset *d, json_t *seen, const char *dir, const char *name, pr_err *err);

/* Reads the benchmark file at path into d->benches (data_bench.c). */
int data_load_bench(pr_dataset *d, const char *path, pr_err *err);
/* Frees what b owns (not b) (data_bench.c). */
void data_free_bench(pr_bench *b);

#endif
