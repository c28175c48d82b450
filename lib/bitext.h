/* bitext: a data string that reports show, in one language or in both.
 *
 * A field of a data file that a page shows as prose (a suite's
 * description, a platform's interconnect, a benchmark's notes, a published
 * table's note) is either a plain string, shown as it is on both pages, or
 * {"zh": "...", "en": "..."}, each page showing its own language.  A plain
 * string must then read right on both pages: a name, a code or a number
 * (the language check of gen/6-output/langcheck.c fails the build otherwise).
 *
 * Memory: a pr_bitext owns both strings (copies of the document's; equal
 * copies for a plain string); pr_bitext_free frees them.
 */
#ifndef PR_BITEXT_H
#define PR_BITEXT_H

#include "err.h"
#include "jdoc.h"

typedef struct pr_bitext {
    char *zh, *en; /* both NULL when the field is absent */
} pr_bitext;

/* Reads key of object obj into out (left zeroed when absent).  Returns 1
 * when present and valid, 0 when absent (an error instead when required),
 * -1 with err naming the file, line and field: not a string nor an object,
 * an object with keys other than zh and en, or with either missing or not a
 * non-empty string. */
int pr_bitext_jbitext(const pr_jdoc_jcur *obj, const char *key, int required, pr_bitext *out,
                      pr_err *err);

/* The text in language code ("zh" or "en"; any other reads English),
 * borrowed from t; NULL when the field was absent. */
const char *pr_bitext_in(const pr_bitext *t, const char *code);

void pr_bitext_free(pr_bitext *t);

#endif
