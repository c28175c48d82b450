/* rmodel: the report model, built once from the loaded data and read by
 * every page.
 *
 *   world ─ models ─ frameworks ─ configurations ─ cells
 *
 * A model (ResNet50) has frameworks (PyTorch, NGC-PyTorch); a framework has
 * configurations (precision × batch size); a configuration has one cell per
 * row of its table (nodes × GPUs).  A cell holds what every page shows of
 * it, computed once at build time: the statistics of its runs (median,
 * range, runs, failures), the record whose log backs the median, its first
 * failure, whether the suite plans it, the primary published table's row,
 * and which of these the cell stands for (its origin).
 *
 * Frameworks keep the order in which the data first names them (published
 * tables first); configurations are sorted by precision then batch size;
 * rows and cells by GPUs then nodes.
 *
 * Memory: rmodel_build returns a world that rmodel_free frees.  It borrows from the
 * dataset (records, runs, suites, published tables), which must outlive it.
 * Pages read the structs below and never change them; the one exception is
 * the cache behind rmodel_log_path.
 */
#ifndef PR_RMODEL_H
#define PR_RMODEL_H

#include <pthread.h>
#include <stddef.h>

#include "1-load/data.h"
#include "unitdir.h"

typedef struct rmodel_row {
    int nodes, gpus;
} rmodel_row;

/* What one figure of a cell stands for (summary and cross tables, cross
 * charts): the first that applies. */
typedef enum {
    RM_MEASURED,  /* the median of the runs */
    RM_FAILED,    /* no run succeeded; fail_rec failed */
    RM_PUBLISHED, /* the primary published figure (pub->value) */
    RM_PUB_STATE, /* the primary published table's state word (pub->state) */
    RM_PLANNED,   /* the suite plans it: TODO */
    RM_NONE,
} rmodel_origin;

/* One case: a framework's configuration on nodes × GPUs. */
typedef struct rmodel_cell {
    /* (The counts are unsigned and first, the pointers after: a model holds
     * tens of thousands of cells, and padding was a tenth of each.) */
    int nodes, gpus;
    rmodel_origin origin;
    int planned;             /* the suite's matrix has the case */
    int imported;            /* the runs are logs someone else published (origin
                                * "parsed"), not runs perfrepro measured */
    unsigned n_other_origin; /* records of the lower-precedence origin left out */
    unsigned n_older;        /* records of older run sets of the case left out: the
                                * cell stands for the newest run set's runs (its last
                                * date, then folder name); the others are its history */
    /* 1 when a sanity rule (sanity.h) flags the figure the cell stands for
     * (its origin's), so that every view of it (framework and model tables,
     * index, charts) marks it; set by rmodel_build's flag pass. */
    int flagged;
    /* Its records (recs, runs below), in data order (every repeat, failed
     * ones included).  n_total counts each run of a several-run record;
     * median, min and max are set when n_ok. */
    unsigned nrecs, n_total, n_ok;
    unsigned nalts; /* entries of alt_tabs/alt_rows */
    const pr_record **recs;
    const pr_run **runs;
    double median, min, max;
    /* The decimals of the median's shortest form (pr_stats_shortest_decimals,
     * 0 without runs), and 1 when link_rec's unit is one where lower is
     * better (pr_unitdir_lower): once a cell, not once a view of it. */
    int median_decimals, link_lower;
    /* flags_cell_records of the cell, counted once (flags_count_records). */
    long long records_used;
    int records_summary;
    /* The median's order-statistic interval (lib/stats.h,
     * docs/statistics.md): [ci_lo, ci_hi] covers it with ci_coverage
     * (a fraction); ci_coverage 0 with one run.  olympic: the mean without
     * the best and worst run, NAN below 5 runs. */
    double ci_lo, ci_hi, ci_coverage, olympic;
    const pr_run *set_run;     /* the run set the cell stands for (the newest of its
                                * origin); NULL when it has no records */
    const pr_record *link_rec; /* the repeat whose log backs the median */
    const pr_run *link_run;
    const pr_record *fail_rec; /* the first failure */
    const pr_run *fail_run;
    double tt, acc;        /* NAN when not recorded */
    const pr_pub_row *pub; /* the primary published table's row; NULL: none */
    /* The other published figures for this cell (other tables of the same
     * platform, precision and batch size), in precedence order; owned,
     * NULL when there are none (most cells: no allocation). */
    const pr_pub_table **alt_tabs;
    const pr_pub_row **alt_rows;
} rmodel_cell;

/* A configuration.  A framework's own has its table; a model's (the union
 * over its frameworks, rmodel_mcfg) only the first three fields. */
typedef struct rmodel_cfg {
    const pr_platform *platform; /* NULL: the machine is not stated or not known */
    const pr_prec_class *klass;  /* the precision's class */
    const char *precision;
    int bs;
    const char *batch_label; /* display only; may be NULL */
    const pr_pub_table *pub; /* the published table figures are compared with */
    rmodel_cell *cells;      /* one per row of the table, in GPU order */
    size_t ncells;
    int has_tt, has_acc; /* a record of it has time to train, accuracy */
    int has_repro;       /* records or planned cases: a reproduction table */
    int hardware;        /* its suite measures the machine: the batch size (1) is
                              * no property of the figures, and labels leave it out */
} rmodel_cfg;

typedef struct rmodel_fw {
    const char *model, *framework, *model_title, *framework_title, *unit;
    /* Which way unit is better (lib/unitdir.h): a time to train or a step
     * time is better lower; PR_DIR_UNKNOWN reads as higher, and pages say
     * the unit's direction is unknown. */
    pr_unitdir_dir dir;
    const pr_suite *suite;
    const pr_record **recs;
    const pr_run **runs;
    const pr_platform **rec_plats; /* each record's platform */
    size_t nrecs;
    size_t n_measured, n_imported; /* records by origin */
    const pr_pub_table **pubs;
    size_t npubs;
    rmodel_cfg *cfgs;
    size_t ncfgs;
    rmodel_row *rows; /* every configuration's rows, in GPU order */
    size_t nrows;
    /* The dates of the data the page shows, YYYY-MM-DD, "" when none: the
     * span of its run sets' dates (records' own start dates where a run
     * set states none), and the span of its published sources' dates. */
    char run_first[11], run_last[11];
    char pub_first[11], pub_last[11];
    /* The headline: the figure at the largest GPU count, in the
     * configuration where it is best (highest, or lowest when dir is
     * PR_DIR_LOWER); measured figures first, then
     * published ones.  head_cfg is NULL when there is none. */
    const rmodel_cfg *head_cfg;
    const rmodel_cell *head_cell;
    double head_value;
    int head_measured;
    /* The cells' record lists (owned here; cells point into them). */
    const pr_record **cell_recs;
    const pr_run **cell_runs;
} rmodel_fw;

/* A configuration of a model page, keyed by platform, precision class and
 * batch size (cfg.klass; cfg.precision is its first column's mode): the
 * frameworks that have it (its columns, each with its own configuration,
 * whose exact mode may differ within the class) and the union of their
 * rows.  Configurations of no known platform are compared with nothing and
 * have no model configuration. */
typedef struct rmodel_mcfg {
    rmodel_cfg cfg;           /* the key and its label */
    const rmodel_fw **fws;    /* the columns, in framework order */
    const rmodel_cfg **fcfgs; /* each column's own configuration */
    size_t ncols;
    rmodel_row *rows; /* in GPU order */
    size_t nrows;
} rmodel_mcfg;

typedef struct rmodel_model {
    const char *id, *title;
    rmodel_fw **fws;
    size_t nfws;
    rmodel_mcfg *cfgs; /* every configuration any framework has, sorted */
    size_t ncfgs;
} rmodel_model;

typedef struct rmodel_world {
    const pr_dataset *d;
    rmodel_model **models; /* sorted by id */
    size_t nmodels;
    char *out_abs;            /* the output folder, absolute and normalised */
    char **run_abs;           /* absolute folder of each run, by index in d->runs */
    char ***log_rel;          /* each record's log relative to out_abs; lazy */
    pthread_mutex_t log_lock; /* guards log_rel: pages are built on several threads */
    /* The repository's docs/statistics.md beside the data folder, or NULL
     * when there is none (a data folder elsewhere): looked up once, not by
     * every page's note (view_stats_link). */
    char *stats_doc;
    /* The audit of published figures against their logs (audit.h), set
     * by the caller once built (report.c): a model page's cell says when
     * the source printed another figure than its log gives.  NULL: none
     * (no audited source).  Borrowed. */
    const struct audit_model *audit;
} rmodel_world;

/* Groups d (borrowed) and computes every cell.  out_dir is where the pages
 * go (links are relative to it).  The caller frees the result with rmodel_free. */
rmodel_world *rmodel_build(const pr_dataset *d, const char *out_dir);
void rmodel_free(rmodel_world *w);

/* The cell of framework configuration c (one of an rmodel_fw's cfgs) at nodes ×
 * GPUs; a shared empty cell (RM_NONE, no runs) when its table has no such
 * row.  Borrowed from the world. */
const rmodel_cell *rmodel_cell_of(const rmodel_cfg *c, int nodes, int gpus);
/* The cell speedup and efficiency are against: 1 node x 1 GPU when it has
 * records (failed ones too: then there is no baseline), else the smallest count measured (fewest GPUs, then fewest nodes:
 * a source measured from 8 GPUs up, a CPU cluster) when another count is
 * measured too, else the empty 1x1
 * cell (n_ok 0).  Never NULL; owned by c. */
const rmodel_cell *rmodel_base_cell(const rmodel_cfg *c);
/* 1 when published table t holds figures of configuration c: its platform,
 * batch size and the precision mode it pairs with (pairing.h). */
int rmodel_pub_of(const pr_pub_table *t, const rmodel_cfg *c);

/* Framework fw_id of model model_id; NULL when none. */
const rmodel_fw *rmodel_find_fw(const rmodel_world *w, const char *model_id, const char *fw_id);

/* The row of published table t (may be NULL) at nodes × GPUs; NULL when
 * none (the first, when the table repeats it). */
const pr_pub_row *rmodel_pub_row(const pr_pub_table *t, int nodes, int gpus);

/* Adds nodes × GPUs to *rows (malloc'd, the caller's) unless it is there;
 * rmodel_row_qsort sorts rows in GPU order. */
void rmodel_row_add(rmodel_row **rows, size_t *n, int nodes, int gpus);
int rmodel_row_qsort(const void *a, const void *b);

/* The link from page directory page_rel (relative to the output folder) to
 * file (a path as loaded, relative to the cwd or absolute); the caller
 * frees it. */
char *rmodel_link_to(const rmodel_world *w, const char *page_rel, const char *file);

/* The path of r's log (r is a record of run, its log_file not empty)
 * relative to the output folder: computed once per record, borrowed. */
const char *rmodel_log_path(const rmodel_world *w, const pr_run *run, const pr_record *r);

#endif
