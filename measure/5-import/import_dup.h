/* import_dup: logs of an import that are byte-identical (issue 33 #6).
 * One run's log behind two figures (two cases, or two repeats of one) is
 * evidence reused: the plan names each pair, and the audit page does too
 * (gen/2-model/audit.h, audit_twin). */
#ifndef PR_IMPORT_DUP_H
#define PR_IMPORT_DUP_H
#include <stddef.h>

#include "buf.h"
#include "import_manifest.h"

/* Appends to out one line per pair of byte-identical logs among m's cases
 * (read under the folder from), each naming both manifest lines, cases and
 * paths; a path given twice counts too.  Returns how many pairs.  A log
 * that cannot be read is left to the import's own checks. */
size_t import_dup_identical_logs(const import_manifest_t *m, const char *from, pr_buf *out);

#endif
