/* import_run: what `perfrepro-measure import` does with a read manifest
 * (docs/import.md): rules per run set, parses, fit reports, source files,
 * README parts.  The command line is cmd_import.c's. */
#ifndef PR_IMPORT_RUN_H
#define PR_IMPORT_RUN_H

#include "err.h"
#include "import_manifest.h"

typedef struct import_run_opts {
    const char *self;         /* this program, for its parse subprocesses */
    const char *gen;          /* perfrepro-gen, for the README parts */
    const char *manifest_dir; /* rules/, runsets/, suites/ are looked up beside the manifest */
    const char *data;         /* the data folder written */
    const char *from;         /* the source folder */
    int dry_run;              /* everything is done in the staging copy, then thrown away */
    int replace;              /* --replace: replace run folders this manifest did not make */
} import_run_opts;

/* Nodes of c: as given, else GPUs over the platform's devices per node
 * (one node when the GPUs fit in one, o->data's platforms/); an error names
 * the manifest line. */
int import_run_case_nodes(const import_manifest_t *m, const import_manifest_case *c,
                          const import_run_opts *o, int *nodes, pr_err *err);

/* Imports m (or prints the plan); returns 0, 1 when some figure is not
 * reproduced by its run set's rule, or -1 with err set.  Sets the figure of
 * each case whose figure is a table cell ("@ID"). */
int import_run(import_manifest_t *m, const import_run_opts *o, pr_err *err);

#endif
