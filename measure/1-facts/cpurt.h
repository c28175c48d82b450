/* cpurt: what decides a CPU result, seen from outside the job.
 *
 * A CPU training step's speed depends on libraries the job loads itself:
 * which BLAS (Debian's reference BLAS made one-thread ResNet-50 steps 15x
 * slower than two threads, issue 30), which OpenMP runtime and oneDNN, how
 * many threads ran, and the settings those libraries read from the
 * environment (threads, OpenMP's wait policy).  None of that is in the
 * suite or the host description, so measure looks at the job's processes
 * while it runs (/proc/PID/maps and status, Linux) and keeps what it saw as
 * env.json's "runtime" (lib/envrec.h).
 *
 * Memory: cpurt_new's result is the caller's (cpurt_free);
 * cpurt_to_json returns a new reference.
 */
#ifndef PR_CPURT_H
#define PR_CPURT_H

#include <jansson.h>
#include <sys/types.h>

typedef struct pr_cpurt pr_cpurt;

pr_cpurt *cpurt_new(void);
void cpurt_free(pr_cpurt *rt);

/* Looks at every process of process group pgid now: the libraries of
 * interest it has mapped and its thread count.  A process that ends
 * meanwhile is skipped; without /proc nothing is seen. */
void cpurt_sample(pr_cpurt *rt, pid_t pgid);

/* Reads /proc/PID/maps-formatted text (one process's mappings) into rt:
 * what cpurt_sample does per process, for tests. */
void cpurt_add_maps(pr_cpurt *rt, const char *maps);
/* Notes a process's thread count (the largest is kept). */
void cpurt_add_threads(pr_cpurt *rt, long threads);

/* Notes the job's environment (the first call wins): the settings of the
 * libraries above, each variable's value or "not set".  env lists
 * "NAME=value" on top of base (environ), either may be NULL. */
void cpurt_settings(pr_cpurt *rt, char *const *env, char *const *base);

/* {"libraries": [{"kind", "file"}...] sorted by kind and file,
 *  "threads_max": N or null, "settings": {NAME: value or null}} - a new
 * reference; NULL when no library of interest was seen (a job in a
 * container or on other nodes is out of sight from here). */
json_t *cpurt_to_json(const pr_cpurt *rt);

#endif
