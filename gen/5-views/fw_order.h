/* fw_order: the order of a framework page's platform sections.
 *
 * The main platform first (the platform of the model's representative
 * configuration, compare.c's compare_headline_cfg), then the other GPU
 * platforms by amount of data (figures: runs and published rows), then a
 * machine not stated, CPU machines last (their own section, never among
 * the GPU ones).  Ties keep the configurations' order (by platform name).
 *
 * Memory: fw_order_runs fills the caller's array of (first, end) ranges of
 * f->cfgs; it allocates nothing.
 */
#ifndef PR_FW_ORDER_H
#define PR_FW_ORDER_H

#include <stddef.h>

#include "2-model/rmodel.h"

typedef struct fw_order_run {
    size_t first, end; /* f->cfgs[first, end): one platform's configurations */
    int main;          /* the model's representative platform */
    int cpu;           /* a CPU machine */
} fw_order_run;

/* The platform runs of f's configurations in page order, into out (room for
 * f->ncfgs entries); returns how many. */
size_t fw_order_runs(const rmodel_world *w, const rmodel_fw *f, fw_order_run *out);

#endif
