/* langcheck: one language per page.
 *
 * Every page gen writes exists in Chinese (README.md, AUDIT.md) and in
 * English (README.en.md, AUDIT.en.md); a sentence of the other language on
 * a page is a bug of its strings, templates or data.  The check reads the
 * rendered Markdown, line by line, and leaves out what is not prose: fenced
 * code blocks, code spans, HTML comments and tags, link and image targets,
 * bare URLs, and the names the data declares (below).  What is left must be
 * the page's language:
 *
 *   zh pages: no run of 4 or more consecutive Latin words.  A word is
 *     letters only (a hyphen or apostrophe inside allowed); a token holding
 *     a digit, '/', '.', '_', '=' or the like is an identifier or a unit and
 *     ends the run, and so does any Chinese character or punctuation.
 *     Spaces and ASCII punctuation between words continue it.
 *   en pages: no Chinese character (CJK ideographs, CJK and full-width
 *     punctuation).
 *
 * Names: the titles of models, frameworks and platforms, the device models,
 * the published sources' labels and titles, and what machines printed (the
 * strings of the runs' environment records) are names: shown as written on
 * both pages, they are left out before the zh check.  Only two kinds of
 * name may hold Chinese on an English page: a cited source's title (a
 * heading of the source document, which a translation would not find) and
 * the link to the Chinese page ("中文").
 *
 * Memory: an lc_names is the caller's (zeroed); lc_names_add copies each
 * name, lc_names_free frees them.
 */
#ifndef PR_LANGCHECK_H
#define PR_LANGCHECK_H

#include <stddef.h>

#include "data.h"
#include "err.h"

typedef struct lc_name {
    char *text;
    int cjk_ok; /* may stand on an English page though it holds Chinese */
} lc_name;

typedef struct lc_names {
    lc_name *v;
    size_t n;
} lc_names;

/* Adds name (ignored when NULL or empty; kept longest first, so that a
 * name holding another is left out whole). */
void lc_names_add(lc_names *ns, const char *name, int cjk_ok);
/* Adds every name d declares (see above), and "中文", "English". */
void lc_names_from_data(lc_names *ns, const pr_dataset *d);
void lc_names_free(lc_names *ns);

/* Checks page (its path, for messages) of language code ("zh" or "en"),
 * md[0..len).  Returns 0, or -1 with err "PAGE:LINE: what: «text»" for the
 * first offending line (the message counts and lists the lines of the
 * others). */
int lc_check_page(const char *page, const char *code, const char *md, size_t len,
                  const lc_names *ns, pr_err *err);

#endif
