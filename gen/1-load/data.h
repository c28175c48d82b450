/* data: everything gen reads from a data directory, validated strictly.
 *
 *   DATA/platforms/ID.json      the machines figures belong to (platform.h)
 *   DATA/precision-classes.json which precision modes compare (decl.h)
 *   DATA/models/ID.json         a model's headline configuration (decl.h)
 *   DATA/suites/.../NAME.json   suites (lib/suite.h)
 *   DATA/published/NAME.json    published figures with their sources
 *   DATA/restated/NAME.json     the same format: figures a report restates (audit only)
 *   DATA/runs/<run>/env.json   environment record of a measure run
 *   DATA/runs/<run>/logs/index/<case>_speed   result records (lib/record.h)
 *   DATA/runs/<run>/logs/train_log/<case>     raw logs
 *   DATA/runs/<run>/fit/<case>.json           the rules that reproduce the case's
 *                                             published figure (fitfile.h)
 *   DATA/bench/NAME.json       benchmarks of perfrepro itself (make bench)
 *   DATA/environments/ID.json  what a published source states about its machine and
 *                              software, read from its README (srcenv.h)
 *   DATA/comparisons/NAME.json an A/B comparison make reports renders (comparisons.h)
 *   DATA/history.json          steps of a history pinned or vetoed (history_decl.h)
 *
 * Any invalid file stops the load with an error naming file, line, column
 * and field; nothing partial is returned.
 */
#ifndef PR_DATA_H
#define PR_DATA_H

#include <jansson.h>
#include <stddef.h>

#include "decl.h"
#include "err.h"
#include "history_decl.h"
#include "platform.h"
#include "record.h"
#include "srcenv.h"
#include "suite.h"

/* A figure published elsewhere: a value, or a state such as TODO or OOM. */
typedef struct pr_pub_row {
    int nodes, gpus_per_node, gpus; /* gpus_per_node 0 when the source does not say */
    int has_value;
    double value;
    char *printed;     /* the figure as the source printed it ("428", "19.428"); NULL
                             * when the file does not say (then value is all there is) */
    const char *state; /* "TODO", "OOM" or "failed" when !has_value */
    int has_speedup;
    double speedup;         /* the speedup the source prints, to be checked */
    double time_to_train_s; /* NAN when absent */
    double accuracy;        /* percent; NAN when absent */
} pr_pub_row;

typedef struct pr_pub_table {
    char *file;  /* the published file it came from */
    int index;   /* its position in that file */
    char *label; /* short name of the source, e.g. "DLPerf" */
    char *source_title, *source_url, *source_repo, *source_path, *source_commit, *date;
    int source_line; /* 0 when unknown */
    char *model, *model_title, *framework, *framework_title;
    const char *precision;
    const char *paired_precision; /* the mode its figures pair with when its imported logs
                                   * ran another mode of its class than it prints
                                   * (pairing.h); NULL: its own */
    int batch_size;
    char *batch_label; /* e.g. "max_144"; NULL for the plain number */
    char *unit;
    pr_bitext variant;           /* which of the source's configurations; NULLs when one */
    pr_bitext note;              /* NULLs when none */
    int primary;                 /* compared with reproduced figures */
    const pr_platform *platform; /* the machine; NULL when the source does not state it */
    json_t *environment;         /* object of strings, or NULL */
    json_t *environment_lines;   /* key of environment -> the source's line, or NULL */
    pr_pub_row *rows;
    size_t nrows;
} pr_pub_table;

/* What a run folder declares and derives as a run set (runset.h). */
typedef struct pr_runset pr_runset;

typedef struct pr_run {
    char *dir;                   /* DATA/runs/<run> */
    char *name;                  /* <run> */
    json_t *env;                 /* the environment record, or NULL */
    const pr_platform *platform; /* matched from env's device name; NULL when none matches */
    pr_record *records;
    char **record_files; /* path of each record */
    json_t **fits;       /* per record: its fit report (RUN/fit/<case>.json, fitfile.h), or
                             * NULL */
    size_t nrecords;
    pr_runset *set;  /* the run folder as a run set (runset.h); owned */
    pr_suite *suite; /* RUN/suite.json: the suite that made these runs (their steps),
                             * or NULL; owned */
} pr_run;

/* One result of a benchmark of perfrepro itself (data/bench/NAME.json). */
typedef struct pr_bench_result {
    pr_bitext tool;          /* a name, or a name with a word on how it ran */
    double median, min, max; /* min/max NAN when absent */
    int runs;                /* the runs median, min and max are of, as timed */
    int timed_as_loop;       /* "timed_as": "loop": the runs were timed together (a mean
                              * per run), so no run has a time of its own: no range */
    double peak_rss_mb;      /* NAN when absent */
    int peak_rss_runs;       /* the runs peak_rss_mb is the largest of; 0: not said
                              * (files from before make bench recorded it) */
} pr_bench_result;

/* The machine a benchmark ran on, as make bench read it. */
typedef struct pr_bench_machine {
    char *cpu_model, *os, *kernel; /* NULL when the file does not say */
    long long cpu_count;           /* logical CPUs; 0 when not said */
    long long memory_mb;           /* total memory; 0 when not said */
} pr_bench_machine;

typedef struct pr_bench {
    char *file, *name, *title_zh, *title_en, *date, *command, *unit;
    pr_bitext notes; /* NULLs when absent */
    pr_bench_machine machine;
    /* The commit make bench measured (git rev-parse HEAD when it started),
     * NULL when the file names none: written before make bench recorded
     * it, so not re-measured at a named commit.  dirty: the working tree
     * then differed from that commit. */
    char *commit;
    int dirty;
    int higher_is_better;
    pr_bench_result *results;
    size_t nresults;
    /* The ratio the page states, computed there from two results of this
     * file (one run): ratio_of's median ÷ ratio_to's (both NULL when none;
     * borrowed from results); ratio_text its optional label. */
    const pr_bench_result *ratio_of, *ratio_to;
    pr_bitext ratio_text;  /* NULLs when no label */
    pr_bitext target_text; /* NULLs when no target */
    int target_met;
} pr_bench;

typedef struct pr_dataset {
    char *dir;
    pr_platforms platforms; /* DIR/platforms/ID.json */
    pr_decls decls;         /* DIR/precision-classes.json, DIR/models/ID.json */
    pr_bench *benches;
    size_t nbenches;
    pr_suite **suites;
    size_t nsuites;
    pr_pub_table *pubs;
    size_t npubs;
    pr_pub_table *restated; /* DIR/restated/NAME.json: tables that restate figures printed
                             * elsewhere (a report's comparison table), for the audit only */
    size_t nrestated;
    pr_run *runs;
    size_t nruns;
    srcenv_set *envs; /* DIR/environments/ID.json: source environments (never NULL
                             * once loaded) */
    struct comparisons_decl *comparisons; /* DIR/comparisons/NAME.json (comparisons.h), by name */
    size_t ncomparisons;
    history_decl_decls history; /* DIR/history.json: pinned and vetoed steps (none when absent) */
} pr_dataset;

/* The platform of a record of run: the one it names, else the run's (from
 * env.json); NULL when neither says. */
const pr_platform *data_record_platform(const pr_dataset *d, const pr_run *run, const pr_record *r);
/* Loads DIR; *out is the caller's (data_free). */
int data_load(const char *dir, pr_dataset **out, pr_err *err);
void data_free(pr_dataset *d);
/* Frees what a published table owns (gen/1-load/published.c). */
void data_pub_table_free(pr_pub_table *t);
/* The decimals row's figure was printed with: its printed text's, else
 * those of its number's shortest form (what checks against it allow for). */
int data_pub_decimals(const pr_pub_row *row);
/* Validates one published-figures file on its own (for tests and tools). */
int data_load_published(pr_dataset *d, const char *path, pr_err *err);
/* Validates text as the published-figures file path would be loaded by the
 * build, before it is written there: with the platforms of the data folder
 * above path's folder (DATA/platforms/) and, when that folder is published/
 * or restated/, after the other files in it (a table another file holds is a
 * duplicate).  0, or -1 with err naming path (the text's line and column) or
 * the other file at fault. */
int data_check_published(const char *path, const char *text, size_t len, pr_err *err);

#endif
