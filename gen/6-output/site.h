/* site: the reports as a static HTML site.
 *
 *   perfrepro-gen site [--reports DIR] [--out DIR] [--root DIR] [--templates DIR]
 *
 * Renders every README*.md under the reports folder with cmark-gfm (GFM
 * tables, strikethrough, autolinks; safe mode: raw HTML from data or logs
 * is dropped, never passed through) into OUT, mirroring the tree:
 *
 *   REPORTS/README.md             -> OUT/index.html     (lang="zh-CN")
 *   REPORTS/README.<lang>.md      -> OUT/index.<lang>.html (lang="<lang>")
 *   REPORTS/<M>/<F>/README.md     -> OUT/<M>/<F>/index.html
 *   TEMPLATES/site/style.css      -> OUT/style.css
 *
 * Headings get id attributes equal to GitHub's anchors (with the -1, -2
 * suffixes of repeated headings), so every #fragment of the Markdown works.
 * Relative links are rewritten so that the site stands alone:
 *   - a README*.md page -> its HTML page (#fragment kept); a folder that
 *     holds a README.md -> its index.html;
 *   - any other file inside the reports folder (charts: *.svg, *.png) is
 *     copied to the same place in OUT (the link stays as it is);
 *   - a file outside the reports folder but inside the repository root
 *     (logs in data/runs/..., suites in data/suites/...) is copied to
 *     OUT/files/<its path relative to the root> and the link points there.
 * A copied file whose name does not end in .txt, .log, .json, .csv or .png
 * (or is a .svg chart inside the reports folder) gets ".txt" appended, so
 * that no log is served as a page.  A page, folder or copied file that
 * resolves outside the root, or is a FIFO or device, is an error.
 * http(s) links, #fragments and links that cannot be resolved (missing,
 * absolute, above the root; `perfrepro-gen check` reports those) are left
 * as they are and counted in the stats.
 *
 * Output is deterministic (same input, same bytes), each file is written
 * atomically and only when its content changed.  OUT holds a marker file
 * .perfrepro-site; files of an earlier build that are no longer produced
 * are removed.  An OUT that exists, is not empty and has no marker is
 * refused, so that a wrong --out cannot delete anything.
 */
#ifndef PR_SITE_H
#define PR_SITE_H

#include <stddef.h>

#include "buf.h"
#include "err.h"

typedef struct pr_site_opts {
    const char *reports;   /* NULL: "reports" */
    const char *out;       /* NULL: "build/site" */
    const char *root;      /* NULL: the parent of reports */
    const char *templates; /* NULL: "templates"; the stylesheet is site/style.css there */
} pr_site_opts;

typedef struct pr_site_stats {
    size_t pages;      /* HTML pages rendered */
    size_t files;      /* other files copied (charts, logs, suites) */
    size_t written;    /* files whose content changed and were written */
    size_t removed;    /* stale files of an earlier build removed */
    size_t unresolved; /* relative links left as they were (see check) */
} pr_site_stats;

/* Builds the site.  stats may be NULL.  Returns 0, or -1 with err set (an
 * unreadable page, a failed write, a refused OUT). */
int site_build(const pr_site_opts *o, pr_site_stats *stats, pr_err *err);

/* Renders one Markdown page to a complete HTML document, without touching
 * the filesystem: for tests.  lang is the lang attribute ("zh-CN", "en"),
 * css_href the stylesheet link (NULL: none).  Links are not rewritten. */
void site_render_page(const char *md, size_t len, const char *lang, const char *css_href,
                      pr_buf *out);

#endif
