/* import_fs: what `perfrepro-measure import` reads from --from and how it
 * writes --data (docs/import.md, "Files and folders"):
 *   - source files stay inside --from (links resolved) and are regular
 *     files; a log is within its run set's log limit;
 *   - a run folder is replaced only when its SOURCE.md names the manifest
 *     importing it (else --replace);
 *   - one import at a time per data folder (a lock beside it);
 *   - everything is written into a staging copy of the data folder (hard
 *     links), checked with `perfrepro-gen validate`, and swapped in whole
 *     in one step: a killed import leaves the old data folder or the new
 *     one, never a mix. */
#ifndef PR_IMPORT_FS_H
#define PR_IMPORT_FS_H

#include "buf.h"
#include "err.h"
#include "fileio.h"

/* Takes the lock of data folder data (PARENT/.NAME.import.lock, flock):
 * a second import waits, saying so on standard error.  *fd is closed by
 * import_fs_unlock_data (or by exit). */
int import_fs_lock_data(const char *data, int *fd, pr_err *err);
void import_fs_unlock_data(int fd);

/* Checks the source file rel (manifest file:line, field for messages): it
 * must resolve inside from_real and be a regular file of at most max_bytes
 * (0: any size).  *exists is 0 for a missing file when exists is not NULL
 * (an optional file); else a missing file is an error. */
int import_fs_check_source(const char *from_real, const char *rel, long long max_bytes,
                           const char *manifest, int line, const char *field, int *exists,
                           pr_err *err);

/* The same check for a file given by its path (under root, as typed):
 * import --mlperf's sources, which have no manifest line; the error names
 * root, field and the file's path below root. */
int import_fs_check_file(const char *root, const char *path, long long max_bytes, const char *field,
                         int *exists, pr_err *err);

/* The bytes a log of run set run may weigh: log_limit_mib of the run set's
 * suite (manifest_dir/suites/RUN.json, checked as gen loads it), else
 * measure run's default (PR_SUITE_LOG_LIMIT). */
int import_fs_log_limit(const char *manifest_dir, const char *run, long long *limit, pr_err *err);

/* 0 when the run folder run_dir may be replaced by manifest (its name as
 * SOURCE.md writes it): it does not exist, its SOURCE.md names this
 * manifest's command, or replace is set. */
int import_fs_check_owner(const char *run_dir, const char *manifest, int replace, pr_err *err);

/* A staging copy of the data folder. */
typedef struct import_fs_stage {
    pr_fileio_swapdir sd; /* sd.stage: the copy written into */
    pr_buf listing;       /* the data folder when it was copied (pr_fstree_tree_listing) */
} import_fs_stage;

/* Makes the staging copy of data (beside it, ".NAME.staging.PID"; what dead
 * imports left there is removed first).  Released with import_fs_stage_free. */
int import_fs_stage_open(import_fs_stage *s, const char *data, pr_err *err);
/* Puts files whose bytes did not change back as the data folder's own
 * (inode and mtime kept), checks the copy with `gen validate --data COPY`,
 * and unless dry_run swaps it in (refused when the data folder changed
 * since it was copied). */
int import_fs_stage_commit(import_fs_stage *s, const char *gen, int dry_run, pr_err *err);
void import_fs_stage_free(import_fs_stage *s);

#endif
