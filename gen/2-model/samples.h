/* samples: each cell's runs per run set, straight from the records: what
 * compare and history set side by side (docs/statistics.md#compare).
 *
 * A cell is model × framework × platform × precision × batch size ×
 * nodes × GPUs; a sample is one run set's runs of one cell: its successful
 * runs (a record of several runs counts each, pr_record_run_values, as the
 * framework pages count them), its records (failed ones too) and the run
 * set's dates.  Every run set is sampled, experiments (runset.h) included;
 * records of no known platform are left out (nothing can be compared
 * with them).
 *
 * Memory: sm_build returns a set that sm_free frees; it borrows from the
 * dataset, which must outlive it.
 */
#ifndef PR_SAMPLES_H
#define PR_SAMPLES_H

#include <stddef.h>

#include "data.h"

typedef struct sm_key {
    const char *model, *framework, *precision;
    const pr_platform *platform;
    int bs, nodes, gpus;
} sm_key;

typedef struct sm_sample {
    sm_key key;
    const pr_run *run;        /* the run set */
    double *values;           /* the successful runs, ascending */
    size_t nvalues;
    const pr_record **recs;   /* every record of the cell in this run set, data order */
    size_t nrecs, nfailed;
    double median;            /* NAN when no run succeeded */
    const pr_record *link_rec;/* the successful record closest to the median, else the first */
    char first[11], last[11]; /* the run set's dates (rs_dates); "" when unknown */
} sm_sample;

typedef struct sm_set sm_set;

/* Samples every run set of d (borrowed).  Sorted by key (sm_key_cmp), then
 * by the run set's last date, then by run folder name. */
sm_set *sm_build(const pr_dataset *d);
void sm_free(sm_set *s);
size_t sm_count(const sm_set *s);
const sm_sample *sm_at(const sm_set *s, size_t i);
/* Orders cells: model, framework, platform id, precision, batch size,
 * GPUs, nodes. */
int sm_key_cmp(const sm_key *a, const sm_key *b);
/* The cell as one line: "ResNet50 · PyTorch-CPU · CPU-AMD-EPYC-x2 · fp32 ·
 * bs 8 · 1×1" (ids, no language); the caller frees it. */
char *sm_key_label(const sm_key *k);

#endif
