/* gpuhost_int: what the files of the GPU workloads' host half share
 * (gpuhost.c names, sizes, formulas; gpuhost_args.c the command line;
 * gpuhost_table.c the tables).  Plain C, private to them: the CUDA side
 * (*.cu) and the tests read gpuhost.h.
 */
#ifndef PR_GPUHOST_INT_H
#define PR_GPUHOST_INT_H

#include "gpuhost.h"

/* The names the command line takes and the tables print, by enum value
 * (gpuhost.c). */
extern const char *const gpuhost_coll_names[PR_GPU_NCOLL];
extern const char *const gpuhost_redop_names[PR_GPU_NREDOP];
extern const char *const gpuhost_prec_names[PR_GPU_NPREC];
extern const char *const gpuhost_bwk_names[PR_GPU_NBWK];

/* The index of s in names[0..n), or -1 (gpuhost.c). */
int gpuhost_index_of(const char *s, const char *const *names, int n);

#endif
