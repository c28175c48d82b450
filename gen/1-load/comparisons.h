/* comparisons: what one side of an A/B comparison selects, and the
 * comparisons declared in DATA/comparisons/NAME.json (docs/data-model.md#comparisons).
 *
 * A selector is one of
 *   RUN or GLOB          run folders of data/runs/ by name (fnmatch); several
 *                        run sets on one side pool their runs per cell
 *   env:KEY=VALUE        run sets one of whose records states it: KEY
 *                        framework_version (the record's), or a log fact key
 *                        (lib/recfacts.h: container.release, cuda.version, ...)
 *   published:LABEL@DATE the tables of a published source (its label) of one
 *                        revision (its date): each printed figure a 1-run
 *                        sample of its cell
 *
 * A declared comparison: {"perfrepro": 1, "title": {"zh", "en"}, "a": SIDE,
 * "b": SIDE, "delta": optional fraction in (0, 1), "max_effect": optional
 * ratio > 1 (the largest effect the change can have), "note": optional text},
 * SIDE a selector string or {"label": {"zh", "en"}, "select": SELECTOR}.
 * Loaded strictly: an unknown key, a bad selector, a selector that selects
 * nothing, or sides that select one run set both is an error naming the
 * file, line and field.
 *
 * Memory: comparisons_sel_parse fills a caller's comparisons_sel that comparisons_sel_free frees;
 * comparisons_load_file attaches the declarations to the dataset (d->comparisons),
 * freed by comparisons_free_all (data_free calls it).
 */
#ifndef PR_COMPARISONS_H
#define PR_COMPARISONS_H

#include <stddef.h>

#include "bitext.h"
#include "data.h"
#include "err.h"

typedef enum { CD_SEL_RUNS, CD_SEL_ENV, CD_SEL_PUBLISHED } comparisons_sel_kind;

typedef struct comparisons_sel {
    comparisons_sel_kind kind;
    char *text;  /* as written */
    char *key;   /* env: KEY; published: LABEL; runs: NULL */
    char *value; /* env: VALUE; published: DATE; runs: the glob */
} comparisons_sel;

/* Parses text into out (the caller's; comparisons_sel_free).  0, or -1 with err
 * saying what is wrong (no file: the caller prefixes where it came from). */
int comparisons_sel_parse(const char *text, comparisons_sel *out, pr_err *err);
void comparisons_sel_free(comparisons_sel *s);
/* 1 when s (runs or env) selects run. */
int comparisons_sel_run(const comparisons_sel *s, const pr_run *run);
/* 1 when s (published) selects table t. */
int comparisons_sel_pub(const comparisons_sel *s, const pr_pub_table *t);
/* How many run sets or published tables of d s selects. */
size_t comparisons_sel_count(const comparisons_sel *s, const pr_dataset *d);
/* The name of the first run set (its folder) or published table (its file)
 * of d that a and b both select; NULL when none (borrowed from d). */
const char *comparisons_sel_shared(const pr_dataset *d, const comparisons_sel *a,
                                   const comparisons_sel *b);

typedef struct comparisons_side {
    pr_bitext label; /* NULLs when the side is a bare selector */
    comparisons_sel sel;
} comparisons_side;

typedef struct comparisons_decl {
    char *file; /* DATA/comparisons/NAME.json */
    char *name; /* NAME: the page's folder, reports/compare/NAME/ */
    pr_bitext title;
    pr_bitext note; /* NULLs when none */
    comparisons_side a, b;
    double delta;      /* PR_AB_DELTA_DEFAULT when not declared */
    double max_effect; /* 0 when not declared */
} comparisons_decl;

/* Loads DATA/comparisons/NAME.json at path into d (after its runs and
 * published tables; data.c calls it per file, in name order).  0, or -1
 * with err set. */
int comparisons_load_file(pr_dataset *d, const char *path, pr_err *err);
void comparisons_free_all(pr_dataset *d);
/* The declaration named name; NULL when none. */
const comparisons_decl *comparisons_find(const pr_dataset *d, const char *name);

#endif
