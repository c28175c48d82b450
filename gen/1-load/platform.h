/* platform: the machines figures were obtained on (data/platforms/ID.json).
 *
 * A platform is the hardware a figure belongs to: the device (GPU or CPU)
 * model and its memory, devices per node, and the interconnect between
 * nodes.  The software stack a source used on it (driver, CUDA, framework,
 * image) stays with that source's table or run, never with the platform:
 * two frameworks compared on one platform ran their own stacks.  Figures of
 * different platforms are never compared.
 *
 * Published tables name their platform by id ("platform"), or say
 * "unstated" when their source does not state its machine; a measured run's
 * platform is found from its environment record (the device name, matched
 * against each platform's "match" names).
 */
#ifndef PR_PLATFORM_H
#define PR_PLATFORM_H

#include <jansson.h>
#include <stddef.h>

#include "bitext.h"
#include "err.h"
#include "jdoc.h"
#include "template/lang.h"

/* The id a source that does not state its machine is declared with. */
#define PR_PLATFORM_UNSTATED "unstated"

typedef struct pr_platform {
    char *id; /* the file's stem: data/platforms/ID.json */
    char *file;
    char *title_zh, *title_en;
    char *kind;             /* "gpu" or "cpu" */
    char *device;           /* e.g. "Tesla V100-SXM2-16GB" */
    double memory_gb;       /* per device; NAN when not stated */
    int per_node;           /* devices (GPUs, or CPU cores) per node; 0 when not stated */
    pr_bitext interconnect; /* NULLs when not stated */
    int tf32;               /* the device has TF32 math, which frameworks may use for FP32
                             * by default (docs/data-model.md#fp32-on-tf32-devices) */
    char **match;           /* device names that mean this platform (NULL-terminated) */
    /* A platform made from a system description ("system"): the nodes it
     * has (0: not a system, a node model), its host processor and counts
     * (0 when not stated). */
    int nodes;
    char *host_cpu;
    int host_sockets, host_cores, host_threads;
    char *source; /* where import read the machine (an https link to a README's
                   * line: a manifest's platform line); NULL when not stated */
} pr_platform;

typedef struct pr_platforms {
    pr_platform *v;
    size_t n;
} pr_platforms;

/* Loads one platform file (DATA/platforms/ID.json, ID from its name) into
 * ps; the caller found it inside the data directory.  A second platform of
 * the same id, device name or match name is an error. */
int platform_add_file(pr_platforms *ps, const char *path, pr_err *err);
void platform_list_free(pr_platforms *ps);
/* The platform with this id, or NULL. */
const pr_platform *platform_find(const pr_platforms *ps, const char *id);
/* Reads key (a platform id or "unstated") of obj into *out: NULL for
 * "unstated", else the platform.  Returns 1 when present, 0 when absent,
 * -1 (an error naming the field and the known ids) when unknown. */
int platform_ref(const pr_platforms *ps, const pr_jdoc_jcur *obj, const char *key,
                 const pr_platform **out, int *unstated, pr_err *err);
/* The platform whose device or match names equal device_name (ignoring
 * case), or NULL. */
const pr_platform *platform_for_device(const pr_platforms *ps, const char *device_name);

/* What one of the platform's devices is: "gpu", or on a CPU platform
 * "thread" for a system (its per_node counts the host's threads: "4 nodes
 * × 16 threads") and "core" for a node model. */
const char *platform_device_word(const pr_platform *p);

/* 1 when p is a CPU machine (its counts are processes, not GPUs). */
int platform_is_cpu(const pr_platform *p);
/* A row's count in l's words, appended to out: "1 node × 8 GPUs" on a GPU
 * machine, "4 nodes × 16 threads" on a described CPU system, "1 node × 8
 * processes" on another CPU one.  gpus is the total over the nodes. */
void platform_count_label(const lang *l, const pr_platform *p, int nodes, int gpus, pr_buf *out,
                          pr_err *err);

#endif
