/* report: turns a loaded dataset into the reports tree.
 *
 *   OUT/README.md                       index of every model and framework
 *   OUT/<Model>/README.md               cross-framework comparison
 *   OUT/<Model>/<Framework>/README.md   the reproduction report
 * and README.en.md beside each in English.  Every figure is computed from
 * records and published tables (rmodel.c, once per render); templates give
 * the prose.  report.c is the pipeline, 6-output/output.c the writer.
 */
#ifndef PR_REPORT_H
#define PR_REPORT_H

#include "1-load/data.h"
#include "6-output/output.h" /* pr_report_stats */
#include "base/emit.h"
#include "err.h"

typedef struct pr_report_opts {
    const char *templates_dir; /* holds zh/ and en/ */
    const char *out_dir;
    int charts; /* draw SVG/PNG charts */
    /* The size the generation may have (0: no limit): a build over it
     * fails and leaves the previous generation (issue 34: reports/ is
     * committed, and every rebuild adds its bytes to history for ever). */
    unsigned long long budget_bytes;
    pr_report_stats *stats; /* filled when not NULL, also on failure */
    /* Threads that build the model and framework pages (0: one per
     * processor; 1: one after another, as before).  The output is the
     * same bytes with any number. */
    size_t jobs;
} pr_report_opts;

/* Writes every page (only where the content changed) and removes files of
 * an earlier generation that are no longer produced, all at once: the new
 * generation is built in a staging folder beside the output (unchanged
 * files hard-linked) and swapped in with one rename, so that a build killed
 * at any instant leaves the old generation or the new one; leftovers of
 * dead builds are removed first.  Every template file must resolve inside
 * templates_dir.  Returns 0 or -1 with err set; on error the previous
 * generation is left as it was and no staging folder stays, also when the
 * generation is larger than o->budget_bytes. */
int report_build(const pr_dataset *d, const pr_report_opts *o, pr_err *err);

/* Renders the pages in memory without writing: for tests and benchmarks.
 * Calls emit(ctx, relative_path, bytes, len) for each file. */
int report_render(const pr_dataset *d, const pr_report_opts *o, emit_fn emit, void *ctx,
                  pr_err *err);

#endif
