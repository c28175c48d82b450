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
 * Names are left out longest first (a name holding another goes out whole,
 * and of two overlapping names the longer wins, wherever it starts), names
 * of one length in the order added, each name's occurrences from the left.
 * The search is one pass over each line with an Aho-Corasick automaton of
 * all the names, built once on the first check after names were added: its
 * cost grows with the text and the occurrences found, not with the number
 * of names (a strstr per name per line was 18.7 % of a build of 100,000
 * records, issue #22).
 *
 * Memory: an langcheck_names is the caller's (LC_NAMES_INIT); langcheck_names_add copies
 * each name, the check builds its automaton into it, langcheck_names_free frees
 * both.
 */
#ifndef PR_LANGCHECK_H
#define PR_LANGCHECK_H

#include <stddef.h>

#include "1-load/data.h"
#include "err.h"

typedef struct langcheck_name {
    char *text;
    size_t len;
    int cjk_ok; /* may stand on an English page though it holds Chinese */
} langcheck_name;

typedef struct langcheck_names {
    langcheck_name *v; /* in the order added, each once */
    size_t n, cap;
    size_t *slots; /* hash of v for langcheck_names_add: index + 1, 0 when free */
    size_t nslots;
    struct lc_matcher *m; /* the automaton; NULL until a check needs it */
    /* Steps of the names' search since set to 0 (bytes of text read,
     * failure links followed, occurrences weighed): for tests, which show
     * it bounded by the text, not by names x lines, with no clock.
     * Atomic: pages are checked on several threads. */
    _Atomic size_t work;
} langcheck_names;

#define LC_NAMES_INIT                                                                              \
    {                                                                                              \
        NULL, 0, 0, NULL, 0, NULL, 0                                                               \
    }

/* Adds name (ignored when NULL or empty); a name added again keeps its
 * place and may hold Chinese when either said so. */
void langcheck_names_add(langcheck_names *ns, const char *name, int cjk_ok);
/* Adds every name d declares (see above), and "中文", "English". */
void langcheck_names_from_data(langcheck_names *ns, const pr_dataset *d);
void langcheck_names_free(langcheck_names *ns);

/* Builds ns's automaton now (a check builds it when names were added
 * since): call it before pages are checked on several threads, which then
 * change nothing in ns but the work counter. */
void langcheck_names_prepare(langcheck_names *ns);

/* Replaces the names in text (NUL-terminated, edited in place) by the byte
 * that stands for what the check leaves out (0x01); on an English page
 * (zh 0) only the names that may hold Chinese.  Builds ns's automaton when
 * names were added since the last search.  The step of langcheck_check_page after
 * code and links are left out; declared for tests. */
void langcheck_names_remove(langcheck_names *ns, char *text, int zh);

/* Checks page (its path, for messages) of language code ("zh" or "en"),
 * md[0..len).  Returns 0, or -1 with err "PAGE:LINE: what: «text»" for the
 * first offending line (the message counts and lists the lines of the
 * others).  ns is only changed by the automaton built into it and its
 * work counter. */
int langcheck_check_page(const char *page, const char *code, const char *md, size_t len,
                         langcheck_names *ns, pr_err *err);

#endif
