/* view: what every page view shares.  A page view is the JSON object its
 * template reads; values that hold Markdown are escaped here, once, and the
 * templates write them as they are.
 *
 * Memory: the setters copy what they are given (view_md consumes its buffer);
 * the view stays the caller's.
 */
#ifndef PR_VIEW_H
#define PR_VIEW_H

#include <jansson.h>

#include "2-model/rmodel.h"
#include "buf.h"
#include "err.h"
#include "template/lang.h"

/* Notes a page collects while its tables are written. */
typedef struct view_notes {
    int no_baseline, published, gap, speedup_flag, failed;
    int stats;              /* a cell of several runs, or a gap judged against them */
    int insufficient;       /* a gap not judged: fewer than 3 runs */
    int olympic;            /* an olympic-mean column */
    int sanity;             /* a figure flagged ❗ (sanity.h) */
    int batch_differs;      /* a time with no speedup: its global batch is not the baseline's */
    const char *stats_link; /* docs/statistics.md from the page; NULL: not found */
} view_notes;

/* Sets key to v as it is (Markdown already, or a word); nothing when v is
 * NULL. */
void view_str(json_t *o, const char *k, const char *v);
/* Sets key to the Markdown in b (consumed: b is left empty). */
void view_md(json_t *o, const char *k, pr_buf *b);
/* Sets key to v escaped as Markdown text; nothing when v is NULL. */
void view_text(json_t *o, const char *k, const char *v);

/* Sets key to unit as pages name it, escaped: "min, lower is better" for
 * a time, "foo, direction unknown: …" for a unit lib/unitdir.c does not
 * list, the unit alone for a rate; and "lower" (true) for a time, which
 * the templates name a time, not a throughput. */
void view_unit(json_t *o, const lang *l, const char *k, const char *unit);

/* The values every page has: the table of contents mark and the links
 * between the two languages' READMEs. */
void view_page(json_t *view, const lang *l);

/* The link from page directory page_rel to docs/statistics.md beside the
 * data folder (the method the notes cite), encoded for a link target;
 * NULL when there is no such file.  The caller frees it. */
char *view_stats_link(const rmodel_world *w, const char *page_rel);

/* Sets "notes" to the notes nt asks for (the rounding note always); f
 * (NULL on pages of several frameworks) gives the gap threshold. */
void view_notes_set(json_t *view, const lang *l, const view_notes *nt, const rmodel_fw *f,
                    pr_err *err);

#endif
