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
 * Memory: samples_build returns a set that samples_free frees; it borrows from the
 * dataset, which must outlive it.
 */
#ifndef PR_SAMPLES_H
#define PR_SAMPLES_H

#include <stddef.h>

#include "1-load/data.h"

typedef struct samples_key {
    const char *model, *framework, *precision;
    const pr_platform *platform;
    int bs, nodes, gpus;
} samples_key;

typedef struct samples_sample {
    samples_key key;
    const pr_run *run; /* the run set */
    double *values;    /* the successful runs, ascending */
    size_t nvalues;
    const pr_record **recs; /* every record of the cell in this run set, data order */
    size_t nrecs, nfailed;
    double median;             /* NAN when no run succeeded */
    const pr_record *link_rec; /* the successful record closest to the median, else the first */
    char first[11], last[11];  /* the run set's dates (runset_dates); "" when unknown */
} samples_sample;

typedef struct samples_set samples_set;

/* Samples every run set of d (borrowed).  Sorted by key (samples_key_cmp), then
 * by the run set's last date, then by run folder name. */
samples_set *samples_build(const pr_dataset *d);
void samples_free(samples_set *s);
size_t samples_count(const samples_set *s);
const samples_sample *samples_at(const samples_set *s, size_t i);
/* Orders cells: model, framework, platform id, precision, batch size,
 * GPUs, nodes. */
int samples_key_cmp(const samples_key *a, const samples_key *b);
/* The cell as one line: "ResNet50 · PyTorch-CPU · CPU-AMD-EPYC-x2 · fp32 ·
 * bs 8 · 1×1" (ids, no language); the caller frees it. */
char *samples_key_label(const samples_key *k);

#endif
