/* envinfo: the environment record of a run (DIR/env.json).
 *
 *   {"perfrepro": 1,
 *    "captured_at": "2024-05-01T12:34:56Z",
 *    "host": {"cpu_model", "cpu_count", "memory_gb", "arch", "os", "kernel", "compiler"},
 *    "framework": {"name", "version"},
 *    "gpu": null}
 *
 * No host name, user name or address: the records and logs are published.
 * A value that cannot be found is null.  "gpu" stays null here; a GPU
 * workload fills it.  docs/measure-run.md documents the schema.
 */
#ifndef PR_ENVINFO_H
#define PR_ENVINFO_H

#include <jansson.h>
#include <time.h>

#include "err.h"

/* Builds the record (a new reference the caller owns).  framework_version
 * may be NULL. */
json_t *envinfo_capture(const char *framework, const char *framework_version, time_t now);
/* Writes it atomically to path (pretty-printed, keys in a fixed order). */
int envinfo_write(const char *path, const json_t *env, pr_err *err);

/* Formats t as ISO 8601 UTC, e.g. "2024-05-01T12:34:56Z". */
void envinfo_fmt_utc(time_t t, char out[32]);

/* The first line of /etc/os-release's PRETTY_NAME from text (the file's
 * content), unquoted; a malloc'd string or NULL. */
char *envinfo_os_pretty_name(const char *text);
/* The CPU model from /proc/cpuinfo's text ("model name", else "Model",
 * else "Hardware"); a malloc'd string or NULL. */
char *envinfo_cpu_model(const char *text);

#endif
