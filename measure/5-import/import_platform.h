/* import_platform: a platform made from a README's machine section (a
 * manifest's "platform ID PATH --group TITLE" line, docs/import.md): the
 * GPU line of that group of the README's environment sections ("Tesla
 * V100-SXM2-32GB * 8": the device, its memory in the model's name, GPUs
 * per node), with the host's CPU and memory lines, becomes
 * data/platforms/ID.json; a platform file already there must agree with
 * what the README says (the difference is named), and is rewritten. */
#ifndef PR_IMPORT_PLATFORM_H
#define PR_IMPORT_PLATFORM_H
#include <jansson.h>

#include "err.h"
#include "import_manifest.h"

/* The platform line p of manifest m says, from env (borrowed: what
 * perfrepro-gen import-env wrote for p->path): a new platform object
 * (caller decrefs), or NULL with err naming the manifest's line and what
 * is missing (no such group, no GPU line, no GPU count). */
json_t *import_platform_of_env(const import_manifest_t *m, const import_manifest_platform *p,
                               json_t *env, pr_err *err);

/* Writes platform (borrowed) to platforms_dir/ID.json.  When there is one
 * already, every device field the README states must be the file's (then
 * it is rewritten as the README says it, keeping the link to the README
 * line a first import wrote: a manifest's platform line makes the file the
 * import's), else -1 with err naming the field, both values
 * and the README's line, and nothing is written. */
int import_platform_write_or_check(const import_manifest_t *m, const import_manifest_platform *p,
                                   json_t *platform, const char *platforms_dir, pr_err *err);

#endif
