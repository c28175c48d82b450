/* fit_int.h: what the files of --fit share (fit.c: the search; fitreport.c:
 * the report, as text and as JSON); nothing else includes it.  fit.h has
 * the public API, fitcalc.h the reductions. */
#ifndef PR_FIT_INT_H
#define PR_FIT_INT_H

#include <jansson.h>
#include <stddef.h>

#include "2-parse/parse.h"
#include "2-parse/rule.h"
#include "buf.h"
#include "err.h"
#include "fit.h"
#include "fitcalc.h"

/* How a candidate's value compares with a figure. */
enum { MATCH_ROUND, MATCH_TRUNC, MATCH_MISS, MATCH_FAIL };

/* The trims tried with trimmed_mean, simplest first: the default (Paddle's
 * benchmark scripts), the olympic mean (MLPerf: the fastest and the slowest
 * dropped), then 5 %, 10 % and 25 % of the records from each end. */
extern const pr_fitcalc_trim pr_fit_trims[];
enum { NTRIMS = 5 };

/* The DLLogger steps' names, in pr_step's order. */
extern const char *const pr_fit_step_names[];

/* One case: its figure and its records in memory. */
typedef struct fcase {
    const pr_fit_case *in;
    int decimals;
    char canon[48]; /* the figure with leading zeros dropped */
    double figure;
    pr_scan *scan;
    pr_fitcalc *calc; /* the scan's reductions under the step searched */
    char *label;      /* owned */
} fcase;

typedef struct cand {
    pr_reduce_keys k;
    int trim;           /* index in trims; -1 unless trimmed_mean */
    int red_order;      /* index in reducers */
    int step_order;     /* index in steps; 0 outside dllogger */
    int round_searched; /* round is a searched key (else the rule's own) */
    int complexity;     /* keys that differ from their defaults */
    long long same_to;  /* the largest skip that gives the same values */
    size_t at;          /* where its values are in the fit's arrays */
    int nround, ntrunc, nfail;
    double worst; /* the largest relative difference */
} cand;

typedef struct fit {
    fcase *cs;
    size_t nc;
    const pr_rulecfg_cfg *base;
    cand *cands;
    size_t ncand, capcand;
    double *vals;         /* ncases per candidate; NAN: no value */
    unsigned char *match; /* MATCH_* */
    const char **reason;  /* static: the failure's reason */
    size_t nvals, capvals;
    size_t tried;
    int reference; /* parse_reduce for every candidate (tests) */
} fit;

/* The signed difference of v from the case's figure, relative to it. */
double fit_rel_diff(const fcase *fc, double v);

/* The report of a search whose candidates are sorted simplest first,
 * appended to out: as text, or as one JSON object (--json).  *fits is set
 * to 1 when a rule reproduces every figure.  Returns -1 with err set when a
 * rule to list does not build (a bug: it is checked before it is shown). */
int fit_report_text(fit *f, const json_t *base_json, const pr_fit_opts *o, pr_buf *out, int *fits,
                    pr_err *err);
int fit_report_json(fit *f, const json_t *base_json, const pr_fit_opts *o, pr_buf *out, int *fits,
                    pr_err *err);

#endif
