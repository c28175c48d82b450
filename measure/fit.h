/* fit: which rules reproduce a published figure
 * (`perfrepro-measure parse --fit FIGURE`, docs/parse-rules.md).
 *
 * The user gives a rule that says how the log is read (profile, keyword,
 * scope, value, unit, ...); fit searches the keys that say which records
 * count and how they are combined: skip, reduce (with a few trims), the
 * DLLogger step, and round when a case has several runs.  Scope and value
 * stay as given: guessing them would hide the per-card/global trap.
 *
 * Each case (a figure and its logs) is read once (pr_parse_scan) and every
 * candidate is reduced from memory (pr_parse_reduce), with the same code as
 * a plain parse.  A candidate reproduces a figure printed with d decimals
 * when its value rounded to d decimals (as Python's round) prints as the
 * figure; one that matches only when truncated is reported as such.
 */
#ifndef PR_FIT_H
#define PR_FIT_H

#include <jansson.h>
#include <stddef.h>

#include "buf.h"
#include "err.h"
#include "parse.h"
#include "rule.h"

/* One published figure and the logs of the case behind it. */
typedef struct pr_fit_case {
    const char *figure; /* as printed: "428", "19.428" */
    const char *const *logs;
    size_t nlogs;
    pr_parse_args args;
} pr_fit_case;

typedef struct pr_fit_opts {
    size_t limit;       /* rules listed per section; 0: all */
    long long max_skip; /* the largest skip tried */
    int json;           /* report as one JSON object (--json) */
} pr_fit_opts;

/* The number of decimals of a figure written as digits with an optional
 * decimal part ("428", "19.428"), or -1 when it is not one (a sign, an
 * exponent, grouped digits, more than 12 decimals or 40 characters). */
int pr_fit_figure_decimals(const char *s);

/* Searches the rules made from base (base_json: the same rule as the user
 * wrote it, borrowed; the rules listed are it with the searched keys set)
 * for those that reproduce every case's figure, and appends the report to
 * out: those rules, simplest first; when there are none, the rules that
 * reproduce some of the figures and the closest ones with their
 * differences.  *fits is set to 1 when a rule reproduces every figure.
 * Returns -1 with err set on bad input (a figure that is not a plain
 * decimal, options the rule needs, a log that cannot be read). */
int pr_fit(const pr_rule *base, const json_t *base_json, const pr_fit_case *cases,
           size_t ncases, const pr_fit_opts *o, pr_buf *out, int *fits, pr_err *err);

#endif
