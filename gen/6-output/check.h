/* check: the link and content checker of the generated reports.
 *
 *   perfrepro-gen check [--reports DIR] [--root DIR]
 *
 * Parses every Markdown file under the reports folder with cmark-gfm (the
 * GFM extensions attached, as GitHub renders them) and reports, as
 * FILE:LINE: problem, each of:
 *
 *   - a relative link or image whose file does not exist (resolved against
 *     the page's folder; links may leave reports/ for the rest of the
 *     repository, e.g. ../../../data/runs/..., and must exist there);
 *   - a #fragment (on the same page, or on another .md page) that no heading
 *     of that page produces, by GitHub's anchor algorithm (md_anchor with
 *     the -1, -2 suffixes of repeated headings), nor an explicit anchor
 *     <a id="..."></a> (cmarkx_explicit_anchor: the audit's rows);
 *   - an empty link target [x]() (and an empty fragment "#");
 *   - a leftover placeholder (the words TODO, XXX, TBD, case-sensitive) in
 *     text: paragraphs, headings, list items, link text; not in table cells,
 *     where TODO is a legitimate state, nor in the alt text of an image (a
 *     chart's description names the same states as its table), nor in code
 *     spans or code blocks;
 *   - an image without alt text;
 *   - a link to an absolute filesystem path (/etc/...);
 *   - a relative link that climbs above the repository root (--root, by
 *     default the parent of the reports folder), or whose target is a
 *     symbolic link (or lies in a linked folder) resolving outside it;
 *   - a relative link to a FIFO, device or socket (special-file);
 *   - a URL with a scheme that is not a well-formed http(s) or mailto URL
 *     (nothing is fetched);
 *   - residue (checkpage.h): text that renders a backslash before
 *     punctuation (escaped twice), a table row or a whole table with no
 *     figure, a row of a planned case with 0 runs, and speedup or
 *     efficiency columns on a page marked as a hardware suite's.
 *
 * A page (or folder) under the reports folder that resolves outside the root
 * or is a special file is reported, with line 0, and not read.
 *
 * Line numbers are cmark's start lines of the offending node.
 */
#ifndef PR_CHECK_H
#define PR_CHECK_H

#include <stddef.h>

#include "buf.h"
#include "err.h"

typedef enum pr_check_kind {
    PR_CHECK_MISSING_FILE,   /* relative link to a file that does not exist */
    PR_CHECK_MISSING_ANCHOR, /* #fragment no heading produces */
    PR_CHECK_EMPTY_TARGET,   /* [x]() or an empty fragment */
    PR_CHECK_PLACEHOLDER,    /* TODO / XXX / TBD outside tables and code */
    PR_CHECK_NO_ALT,         /* image without alt text */
    PR_CHECK_ABSOLUTE_PATH,  /* /etc/passwd */
    PR_CHECK_OUTSIDE_ROOT,   /* ../../.. above the repository root */
    PR_CHECK_BAD_URL,        /* not a well-formed http(s)/mailto URL */
    PR_CHECK_SPECIAL_FILE,   /* a FIFO, device or socket: never read or published */
    /* Residue a reader sees (checkpage.h says exactly what each is). */
    PR_CHECK_VISIBLE_ESCAPE,      /* "max\\_144": a backslash that renders */
    PR_CHECK_EMPTY_ROW,           /* a table row with no figure, or 0 runs */
    PR_CHECK_EMPTY_TABLE,         /* a table with no figure (only TODO and dashes) */
    PR_CHECK_INAPPLICABLE_COLUMN, /* speedup or efficiency on a hardware page */
    PR_CHECK_NKINDS
} pr_check_kind;

/* A short stable name per kind: "missing-file", "missing-anchor", ... */
const char *check_kind_name(pr_check_kind k);

typedef struct pr_check_problem {
    pr_check_kind kind;
    char *file; /* the page: the reports folder joined with its path */
    int line;   /* 1-based; 0 when unknown */
    char *msg;  /* what is wrong, naming the link or word */
} pr_check_problem;

typedef struct pr_check_result {
    pr_check_problem *problems; /* in page order (sorted paths), then by line */
    size_t nproblems, cap;
    size_t npages; /* Markdown files checked */
    size_t nlinks; /* links and images looked at */
} pr_check_result;

#define PR_CHECK_RESULT_INIT                                                                       \
    {                                                                                              \
        NULL, 0, 0, 0, 0                                                                           \
    }

typedef struct pr_check_opts {
    const char *reports; /* the folder of the generated Markdown; NULL: "reports" */
    const char *root;    /* the repository root; NULL: the parent of reports */
} pr_check_opts;

/* Checks every *.md under o->reports (recursively; names starting with '.'
 * are skipped), appending the problems found to r.  Returns 0 when the
 * check ran (whether or not problems were found: look at r->nproblems), -1
 * with err set when it could not (reports missing, unreadable file, reports
 * not inside root). */
int check_reports(const pr_check_opts *o, pr_check_result *r, pr_err *err);

/* Appends "FILE:LINE: msg" (no newline) for p. */
void check_format(const pr_check_problem *p, pr_buf *out);

void check_result_free(pr_check_result *r);

#endif
