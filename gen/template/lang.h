/* lang: one language of the reports (templates/<code>/): its strings and
 * its page templates.
 *
 * strings.json holds every word and sentence gen writes into a page; each
 * is itself a small mustache template, parsed once when the language loads
 * (a missing key is an error then, not a blank in a report).  The page
 * templates (<page>.mustache) are parsed on first use and kept.
 *
 * Memory: a lang is the caller's (code and the README names set, the rest
 * zero); lang_load fills it and lang_free frees what it filled.
 */
#ifndef PR_LANG_H
#define PR_LANG_H

#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "mustache.h"

typedef struct lang {
    const char *code;   /* "zh" or "en" */
    const char *readme; /* README.md or README.en.md */
    const char *other_readme;
    char *dir;                   /* templates/<code> */
    json_t *strings;             /* strings.json */
    pr_mustache_tmpl **compiled; /* strings, by index in string_keys, parsed once */
    json_t *index;               /* key -> its index in string_keys (a hash lookup) */
    pr_mustache_tmpl *pages[8];  /* page templates, by index in page_names */
} lang;

/* The audit page, at the top of the output folder, per language: cells of
 * every page link to it. */
#define PAGES_AUDIT_ZH "AUDIT.md"
#define PAGES_AUDIT_EN "AUDIT.en.md"

/* Where a page view asks for its table of contents (the "toc" value):
 * lang_render replaces it with the list of the headings after it. */
#define LANG_TOC_MARK "\x01toc\x01"

/* Loads templates_dir/<l->code>/strings.json.  Returns 0 or -1 with err
 * set (naming the key whose string does not parse). */
int lang_load(lang *l, const char *templates_dir, pr_err *err);
void lang_free(lang *l);

/* The string key, as written (borrowed). */
const char *lang_str(const lang *l, const char *key);

/* Renders the string key with view (borrowed), its values escaped as
 * Markdown text, appending to out. */
int lang_fmt(const lang *l, const char *key, json_t *view, pr_buf *out, pr_err *err);

/* Like lang_fmt, for text that is not Markdown (chart labels): nothing
 * escaped.  Returns a malloc'd string the caller frees. */
char *lang_fmt_plain(const lang *l, const char *key, json_t *view, pr_err *err);

/* The values a count's label reads (gpus_label, procs_label): nodes, gpus
 * (the total), per_node, one_node, one (one device per node); a new
 * reference the caller owns. */
json_t *lang_count_view(int nodes, int gpus);
/* A GPU count's label ("1机8卡", "4 nodes × 8 GPUs"), appended to out. */
void lang_gpus_label(const lang *l, int nodes, int gpus, pr_buf *out, pr_err *err);

/* Renders templates/<lang>/<page>.mustache (page: index, model, framework,
 * bench, audit or compare) with view (borrowed), appending to out, and fills in the table
 * of contents from the headings it produced. */
int lang_render(lang *l, const char *page, json_t *view, pr_buf *out, pr_err *err);

#endif
