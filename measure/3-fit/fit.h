/* fit: which rules reproduce a published figure
 * (`perfrepro-measure parse --fit FIGURE`, docs/parse-rules.md).
 *
 * The user gives a rule that says how the log is read (profile, keyword,
 * scope, value, unit, ...); fit searches the keys that say which records
 * count and how they are combined: skip, reduce (with a few trims), the
 * DLLogger step, and round when a case has several runs.  Scope and value
 * stay as given: guessing them would hide the per-card/global trap.
 *
 * Each case (a figure and its logs) is read once (parse_scan), each run
 * sorted once, and every candidate is reduced from memory by fitcalc.c,
 * which gives the values parse_reduce (a plain parse's code) gives, bit
 * for bit.  A candidate reproduces a figure printed with d decimals
 * when its value rounded to d decimals (as Python's round) prints as the
 * figure; one that matches only when truncated is reported as such.
 */
#ifndef PR_FIT_H
#define PR_FIT_H

#include <jansson.h>
#include <stddef.h>

#include "2-parse/parse.h"
#include "2-parse/rule.h"
#include "buf.h"
#include "err.h"
#include "fitcalc.h"

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
    /* tests: reduce every rule tried with parse_reduce, as one parse
     * would, instead of fitcalc (the same report, much slower) */
    int reference;
    pr_fitcalc_counts *counts; /* may be NULL: what the search did (added to) */
} pr_fit_opts;

/* The number of decimals of a figure written as digits with an optional
 * decimal part ("428", "19.428"), or -1 when it is not one (a sign, an
 * exponent, grouped digits, more than 12 decimals or 40 characters). */
int fit_figure_decimals(const char *s);
/* Checks a figure given to --fit: it must be a number a result can be
 * (finite, above 0) written as printed (fit_figure_decimals).  Returns
 * its decimals, or -1 with err naming --fit ("0" cannot be a result, "-5"
 * neither, "inf" is not finite, "1e3" is not written as printed). */
int fit_figure_check(const char *s, pr_err *err);

/* Searches the rules made from base (base_json: the same rule as the user
 * wrote it, borrowed; the rules listed are it with the searched keys set)
 * for those that reproduce every case's figure, and appends the report to
 * out: those rules, simplest first; when there are none, the rules that
 * reproduce some of the figures and the closest ones with their
 * differences.  *fits is set to 1 when a rule reproduces every figure.
 * Returns -1 with err set on bad input (a figure that is not a plain
 * decimal, options the rule needs, a log that cannot be read). */
int fit_run(const pr_rule *base, const json_t *base_json, const pr_fit_case *cases, size_t ncases,
            const pr_fit_opts *o, pr_buf *out, int *fits, pr_err *err);

#endif
