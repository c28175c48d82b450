/* abmodel: an A/B comparison of two selections of the data
 * (docs/statistics.md#compare), cell by cell.
 *
 * Each side is a selector (comparisons.h): its run sets' runs (samples.h)
 * pooled per cell, or a published revision's figures (each a 1-run
 * sample).  A cell both sides have is compared (lib/abstat.h:
 * Hodges–Lehmann ratio B/A, exact Moses interval, verdict); a cell one
 * side has only is listed.  Cells of different platforms are never
 * compared: when A and B share no platform the comparison is refused
 * (abmodel_cmp.refused) and has no cells.
 *
 * The gate in front of the statistics (docs/statistics.md#steady-state):
 * a cell is not judged (abmodel_cell.gate, never faster or slower, its ratio
 * still shown) when a run of either side is unsteady (its record's
 * "steady", lib/steady.h), when its ratio lies beyond the largest effect
 * the comparison declares (max_effect: implausible, not a finding), or
 * when the ratio or its interval is beyond what a double holds.  A
 * comparison whose every cell is gated or refused judges nothing
 * (abmodel_judged 0): the index does not list it.  A run set selected on both
 * sides is an error (a run set compared with itself is no comparison).
 *
 * What differs between A and B, language-neutral, in abmodel_cmp.diffs: the
 * items of runset_diff (dates, rule, declared environment) of each pair of run
 * sets, "command" (each side's suite argv, and the words that differ),
 * "framework_version" (when the records state different ones) and
 * "source" (a published side's revision).
 *
 * Memory: abmodel_build returns a comparison abmodel_free frees; it borrows from
 * the dataset and the selectors, which must outlive it.
 */
#ifndef PR_ABMODEL_H
#define PR_ABMODEL_H

#include <jansson.h>
#include <stddef.h>

#include "1-load/comparisons.h"
#include "1-load/data.h"
#include "abstat.h"
#include "err.h"
#include "samples.h"
#include "unitdir.h"

typedef struct abmodel_side {
    const comparisons_sel *sel;
    const pr_run **runs; /* the run sets selected, data order (by folder name) */
    size_t nruns;
    const pr_pub_table **pubs; /* a published side's tables, data order */
    size_t npubs;
} abmodel_side;

/* A run of a side that is unsteady: its run set and record. */
typedef struct abmodel_unsteady {
    const pr_run *run;
    const pr_record *rec;
} abmodel_unsteady;

/* One side of one cell. */
typedef struct abmodel_half {
    double *values; /* the pooled runs, ascending */
    size_t n;
    double median;              /* NAN when none */
    const pr_run *run;          /* the run set of rec */
    const pr_record *rec;       /* the record closest to the median (its log is linked); NULL
                                * on a published side */
    const pr_pub_table *pub;    /* a published side's table of the cell */
    const pr_pub_row *pub_row;  /* ... and its row (the figure as printed) */
    size_t nrecs, nfailed;      /* records, failed ones */
    abmodel_unsteady *unsteady; /* the unsteady runs, data order */
    size_t nunsteady;
} abmodel_half;

/* Why a cell is not judged: bits of abmodel_cell.gate. */
enum {
    ABM_GATE_UNSTEADY = 1,    /* a run of a side is unsteady */
    ABM_GATE_IMPLAUSIBLE = 2, /* the ratio beyond the declared max_effect (or its inverse) */
    ABM_GATE_RANGE = 4,       /* the ratio or its interval is not a finite positive number */
};

typedef struct abmodel_cell {
    samples_key key;
    abmodel_half a, b;
    /* Which way the cell's unit is better (lib/unitdir.h).  For a time
     * (PR_DIR_LOWER) r compares speeds: its ratio is A's time over B's, so
     * that above 1 is faster on every cell and the verdict reads as is. */
    pr_unitdir_dir dir;
    pr_abstat_result r;
    unsigned gate; /* 0: judged (r.verdict stands); else ABM_GATE_* bits */
} abmodel_cell;

typedef struct abmodel_only {
    samples_key key;
    int side; /* 0: A only, 1: B only */
    size_t runs;
} abmodel_only;

typedef struct abmodel_cmp {
    abmodel_side a, b;
    double delta;
    abmodel_cell *cells; /* sorted by key (samples_key_cmp) */
    size_t ncells;
    abmodel_only *only; /* sorted by key */
    size_t nonly;
    int refused;       /* A and B share no platform: no cells */
    double max_effect; /* the largest ratio (or its inverse) the change can give; 0: none */
    size_t counts[PR_AB_INSUFFICIENT + 1]; /* judged cells per verdict */
    size_t not_judged;                     /* cells the gate stopped */
    double expected_false;                 /* pr_abstat_expected_false over the judged cells */
    json_t *diffs;                         /* array of {"what", "a", "b", ...}; owned */
} abmodel_cmp;

/* Compares selection a with selection b of d (all borrowed) at delta,
 * with the declared max_effect (> 1, or 0 for none).  -1 with err set
 * when a side selects nothing, both select one run set or published table
 * (named), delta is out of (0, 1) or max_effect is neither 0 nor > 1; a
 * refused comparison (no shared platform) is 0 with refused set. */
int abmodel_build(const pr_dataset *d, const comparisons_sel *a, const comparisons_sel *b,
                  double delta, double max_effect, abmodel_cmp **out, pr_err *err);
/* 1 when c judges some cell: not refused, and not every cell gated. */
int abmodel_judged(const abmodel_cmp *c);
void abmodel_free(abmodel_cmp *c);

#endif
