/* suite_int: the parts of lib/suite.c's loader that live in other files of
 * lib/ (suite_steps.c: the command's per-precision words and the steps).
 * Not for gen or measure: they use suite.h.
 */
#ifndef PR_SUITE_INT_H
#define PR_SUITE_INT_H

#include "jdoc.h"
#include "suite.h"

/* Checks the placeholders of the template string at c (suite.c). */
int pr_suite_check_template(const pr_jdoc_jcur *c, pr_err *err);
/* Checks a command element that is an object: precision -> array of
 * template strings (suite_steps.c). */
int pr_suite_check_by_precision(const pr_jdoc_jcur *c, pr_err *err);
/* Reads "command" into s->command (its elements strings or per-precision
 * objects; the templates are checked by the caller). */
int pr_suite_read_command(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err);
/* Reads and checks "steps" into s->steps (NULL when absent). */
int pr_suite_read_steps(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err);

#endif
