/* runset: a run folder of data/runs/ is one run set.
 *
 * A run set is the runs that share one machine (a host or a cluster), one
 * software stack, one command template and one parse rule, over a span of
 * dates: what `perfrepro-measure run --out DIR` writes is one, and an
 * import puts logs of another machine or year in a folder of their own.
 * Speedups, efficiencies and gaps are computed within a run set; a figure
 * set against one of another run set says so, and what differs.
 *
 * What a run folder cannot say by itself it may declare in RUN/runset.json
 * (docs/data-model.md#run-sets): a title and the environment groups of a
 * source README (data/environments/).  The rest is derived from
 * the records: the run set's rule (the rule most of its figures were read
 * with; a record read otherwise is flagged), its dates (the records'
 * started_at, and the first and last timestamps their logs print:
 * log_facts time.first and time.last).
 *
 * Memory: runset_load attaches a pr_runset to the run (run->set), freed by
 * runset_free; everything the accessors return is borrowed from it.
 */
#ifndef PR_RUNSET_H
#define PR_RUNSET_H

#include <jansson.h>

#include "bitext.h"
#include "buf.h"
#include "data.h"
#include "srcenv.h"

/* Reads the declarations of decl (RUN/runset.json, checked by the caller to
 * be a regular file inside the data folder; NULL when there is none),
 * strictly (FILE:LINE:COL: field: message), its environment groups found
 * in envs (data/environments/), and derives the rule and dates from run's
 * records.  0, or -1 with err set. */
int runset_load(const srcenv_set *envs, pr_run *run, const char *decl, pr_err *err);
void runset_free(pr_runset *s);

/* The run set's title in language code, else the run folder's name. */
const char *runset_title(const pr_run *run, const char *code);
/* The run set's declared note in language code (why it exists, how it
 * was run); NULL when none. */
const char *runset_note(const pr_run *run, const char *code);
/* 1 when the run set declares "experiment": true: one side of an A/B
 * (data/comparisons/), whose figures the comparison shows and the
 * framework, model and index pages, the history and the export leave out
 * (docs/data-model.md#run-sets). */
int runset_is_experiment(const pr_run *run);
/* The declared environment groups: how many, and each one's file and
 * group (srcenv.h; borrowed from the dataset's environments). */
size_t runset_env_count(const pr_run *run);
const srcenv_file *runset_env_file(const pr_run *run, size_t i);
const srcenv_group *runset_env_group(const pr_run *run, size_t i);
/* Appends the run set's dates to out ("2023-07-28 – 2023-08-04", or one
 * date) and returns 1; 0 and nothing when no record or log states one. */
int runset_dates(const pr_run *run, pr_buf *out);

/* The first and the last date (YYYY-MM-DD) of runset_dates; "" when none. */
const char *runset_first_date(const pr_run *run);
const char *runset_last_date(const pr_run *run);

/* Appends to out, comma-separated, the keys in which rule a differs from
 * rule b ("skip 9 / 0", "step iteration / summary"); nothing when they are
 * equal.  Returns the number of keys that differ. */
int runset_rule_diff(const json_t *a, const json_t *b, pr_buf *out);
/* What differs between run sets a and b, as a new array (the caller's) of
 * {"what": "dates"|"rule"|"env"|"runtime", "a": TEXT, "b": TEXT} in that
 * order ("env" items add "kind": what their declared environment groups
 * state of gpu, cpu, memory, os, driver, image, framework, cuda, cudnn,
 * nccl, where both state it; "runtime": a setting ("OMP_NUM_THREADS=1") or
 * a kind of library ("blas: libopenblasp-r0.3.21.so") of the jobs, from
 * env.json, where both recorded it).  Empty when a == b. */
json_t *runset_diff(const pr_run *a, const pr_run *b);

#endif
