/* container: the words that run a task inside the suite's image, for the
 * engine in use.
 *
 *   docker     docker run --rm --gpus all --ipc=host -v W:W -v O:O -w W
 *              -e NAME... IMAGE   (prefix; local launcher only)
 *   apptainer  apptainer exec --nv --bind W,O --pwd W IMAGE   (prefix; any launcher)
 *   pyxis      --container-image=IMAGE --container-mounts=W:W,O:O
 *              --container-workdir=W   (srun options; slurm launcher only)
 *
 * W is the working directory and O the output directory, mounted at the same
 * paths so that every path the runner gives a job ({log_dir}, {workdir},
 * PERFREPRO_LOG) means the same inside.  No container engine runs in
 * perfrepro's tests: what they check is this argv.
 */
#ifndef PR_CONTAINER_H
#define PR_CONTAINER_H

#include <stddef.h>

#include "err.h"
#include "launch.h"

typedef struct pr_container_spec {
    pr_container_kind kind;
    const char *image;
    const char *workdir;    /* absolute */
    const char *out_dir;    /* absolute */
    char *const *mounts;    /* "SRC[:DST]", NULL-terminated or NULL */
    char *const *env_names; /* variables docker passes in (-e NAME), NULL-terminated or NULL */
} pr_container_spec;

/* Appends the container's words to the NULL-terminated *v (docker and
 * apptainer: the prefix before the command; pyxis: srun options); nothing
 * for PR_CT_NONE.  -1 + err when the spec cannot work (no image, a mount
 * that is not SRC[:DST] with absolute paths). */
int container_words(const pr_container_spec *sp, char ***v, size_t *n, pr_err *err);

/* The image as the engine names it: apptainer takes docker://REF for a
 * registry reference (a path or a URI stays as it is); pyxis/enroot write
 * the registry host with '#': nvcr.io/nvidia/pytorch:24.01-py3 becomes
 * nvcr.io#nvidia/pytorch:24.01-py3.  Malloc'd. */
char *container_image_ref(pr_container_kind kind, const char *image);

/* "none", "docker", ... and back (-1: unknown). */
const char *container_name(pr_container_kind kind);
int container_kind_of(const char *name);

#endif
