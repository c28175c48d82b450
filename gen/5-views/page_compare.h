/* page_compare: an A/B comparison (abmodel.h) as a page
 * (templates/<lang>/compare.mustache, docs/report-format.md#comparison-pages),
 * as JSON (one object) and as CSV (one row per compared cell), and its
 * ratio chart (chart_ratio.h).  `perfrepro-gen compare` prints one of them;
 * make reports writes each declared comparison (comparisons.h) as
 * OUT/compare/NAME/README.md and README.en.md with its chart.
 *
 * Memory: views and JSON are new references the caller frees; buffers are
 * the caller's.
 */
#ifndef PR_PAGE_COMPARE_H
#define PR_PAGE_COMPARE_H

#include <jansson.h>

#include "1-load/comparisons.h"
#include "2-model/abmodel.h"
#include "2-model/rmodel.h"
#include "buf.h"
#include "err.h"
#include "template/lang.h"

/* The folder of the comparison pages, under the output folder. */
#define PAGES_COMPARE_DIR "compare"

/* What a page says of a comparison beyond its cells: its declaration
 * (NULL on the command line: the title and labels come from the
 * selectors), and the chart's file names relative to the page (NULL: no
 * chart). */
typedef struct page_compare_meta {
    const comparisons_decl *decl;
    const char *chart_svg, *chart_png;
} page_compare_meta;

/* The page view of c in l's language; page_rel is the page's folder
 * relative to w's output folder (links are relative to it). */
json_t *page_compare_view(const rmodel_world *w, const lang *l, const abmodel_cmp *c,
                          const page_compare_meta *meta, const char *page_rel, pr_err *err);
/* The ratio chart of c in l's language, SVG and PNG into svg and png
 * (either may be NULL).  0, or -1 with err set. */
int page_compare_chart(const lang *l, const abmodel_cmp *c, const page_compare_meta *meta,
                       pr_buf *svg, pr_buf *png, pr_err *err);
/* c as one JSON object (docs/report-format.md#comparison-pages). */
json_t *page_compare_json(const abmodel_cmp *c, const comparisons_decl *decl);
/* c as CSV: a header, one row per compared cell, appended to out. */
void page_compare_csv(const abmodel_cmp *c, pr_buf *out);
/* The message of a refused comparison (A and B share no platform), in
 * English for the command line, appended to out. */
void page_compare_refusal(const abmodel_cmp *c, pr_buf *out);

/* The index's list of declared comparisons: [{"link": "[title](compare/NAME/README.md)"}]
 * in l's language, by name; a new array. */
json_t *page_compare_index(const pr_dataset *d, const lang *l);

/* What `perfrepro-gen compare` does once its options are read. */
typedef struct page_compare_opts {
    const char *a, *b;                 /* selectors; NULL with declared */
    const char *declared;              /* a declared comparison's NAME, or NULL */
    double delta;                      /* 0: the declared one, else PR_AB_DELTA_DEFAULT */
    const char *format;                /* "md", "json" or "csv" */
    const char *lang;                  /* "zh" or "en" (md) */
    const char *templates;             /* holds zh/ and en/ (md) */
    const char *out;                   /* the file the text goes to (links are relative to its
                            * folder), or NULL: standard output */
    const char *chart_svg, *chart_png; /* md into a file: the chart's files, or NULL */
} page_compare_opts;
/* Compares per o over d (borrowed): the text into text, the chart (md
 * with o->chart_svg) into svg and png, and *slower set to the number of
 * cells found slower.  -1 with err set on a bad selector, an unknown
 * declared name, a side that selects nothing, or a refused comparison
 * (A and B share no platform: page_compare_refusal's message). */
int page_compare_cli(const pr_dataset *d, const page_compare_opts *o, pr_buf *text, pr_buf *svg,
                     pr_buf *png, size_t *slower, pr_err *err);

#endif
