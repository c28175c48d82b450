/* suite_int: the parts of lib/suite.c's loader that live in other files of
 * lib/ (suite_steps.c: the command's per-precision words and the steps;
 * suite_template.c: templates; suite_matrix.c: the cases).
 * Not for gen or measure: they use suite.h.
 */
#ifndef PR_SUITE_INT_H
#define PR_SUITE_INT_H

#include "jdoc.h"
#include "suite.h"

/* Checks the placeholders of the template string at c (suite_template.c). */
int pr_suite_check_template(const pr_jdoc_jcur *c, pr_err *err);
/* Refuses a placeholder of the shell command at c that the shell would not
 * read as one word; pr_suite_check_template has checked the template's
 * syntax (suite_template.c). */
int pr_suite_check_shell_placeholders(const pr_jdoc_jcur *c, pr_err *err);
/* Reads "matrix" into s->cases: every combination but the excluded points,
 * at most PR_SUITE_MAX_CASES, no two of one name (suite_matrix.c). */
int pr_suite_read_matrix(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err);
/* Checks a command element that is an object: precision -> array of
 * template strings (suite_steps.c). */
int pr_suite_check_by_precision(const pr_jdoc_jcur *c, pr_err *err);
/* Reads "command" into s->command (its elements strings or per-precision
 * objects; the templates are checked by the caller). */
int pr_suite_read_command(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err);
/* Reads and checks "steps" into s->steps (NULL when absent). */
int pr_suite_read_steps(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err);

#endif
