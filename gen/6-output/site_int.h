/* site_int: what the files of the site share (site.c the build,
 * site_page.c one page, site_links.c its links).  Private to them: gen
 * reads site.h.
 */
#ifndef PR_SITE_INT_H
#define PR_SITE_INT_H

#include <stddef.h>
#include <sys/types.h>

#include "base/cmarkx.h"
#include "buf.h"
#include "err.h"
#include "fileio.h"
#include "site.h"

typedef struct site_copy_job {
    char *dest; /* relative to OUT */
    char *src;  /* filesystem path */
    char *page; /* the first page linking to it (for messages) */
} site_copy_job;

typedef struct site {
    const char *reports, *out, *templates;
    char *abs_root, *abs_reports;
    /* Hardening: a killed site left OUT neither the old site nor the new
     * one.  The site is built into a staging folder beside OUT (unchanged
     * files hard links to OUT's: same inode and mtime) and swapped in whole
     * (pr_fileio_swapdir, as perfrepro-gen build swaps the reports); sd.stage NULL:
     * OUT is a mount point or its parent is not ours, written in place. */
    pr_fileio_swapdir sd;
    int changed;   /* staging: the new tree differs from OUT (swap it in) */
    dev_t out_dev; /* OUT, not to be crawled when it lies inside the reports */
    ino_t out_ino;
    char *reports_rel; /* reports relative to the root; "" when it is the root */
    site_copy_job *jobs;
    size_t njobs, jcap;
    char **written; /* every path of OUT this build produces */
    size_t nwritten, wcap;
    pr_site_stats st;
    const char *page; /* the page being rendered (for messages) */
    int failed;       /* a link that must not be published: lerr says why */
    pr_err lerr;
} site;

typedef struct site_page_ctx {
    site *s;              /* NULL: no link rewriting */
    const char *root_dir; /* the page's folder relative to the root */
    const char *site_dir; /* the page's folder relative to OUT ("" at the top) */
    cmark_llist *exts;
    pr_buf title;
    int have_title;
    /* Building: the page's file name without ".html" ("index.en"), and the
     * CSV of each of its tables, in order (table_csvs). */
    const char *stem;
    pr_buf *csvs;
    size_t ncsvs;
    char *feed; /* the index's Atom feed (in the page's folder), or NULL */
} site_page_ctx;

/* Points a link or image node of the page at what the site has for it
 * (a page's .html, a copied file, queued in s->jobs); a link it cannot
 * resolve is counted (site_links.c). */
void site_rewrite_link(site_page_ctx *pc, cmark_node *n);
/* Renders the Markdown md as a complete HTML document into out; with pc->s
 * its links rewritten and its tables written as CSV (site_page.c). */
void site_render(site_page_ctx *pc, const char *md, size_t len, const char *lang,
                 const char *css_href, const char *home_href, pr_buf *out);
/* The name of table n (from 1) of the page with file stem stem:
 * "<stem>.table-<n>.csv" beside it (malloc'd) (site_page.c). */
char *site_table_csv_name(const char *stem, size_t n);

#endif
