/* audit: every published figure of a source whose logs are imported, set
 * against what perfrepro parses from its log (reports/AUDIT.md).
 *
 * A source is audited when some record's "source" names its repository
 * (the logs were published beside the figures).  Each of its figures is
 * matched with the imported record of the same model, framework, platform,
 * precision, batch size and GPU count, and gets a verdict: reproduced to
 * the printed precision, reproduced only by truncation, differs (by how
 * much), or the log gives no value.  Left over: figures with no log, and
 * logs with no figure.  Tables that restate figures (DATA/restated, a
 * report's comparison table) are set against the primary table that
 * prints the same case and against the log.
 *
 * A figure whose exact precision mode has no log is matched with a log of
 * another mode of the same precision class (an "FP16" column whose logs ran
 * AMP), and the item says so.
 *
 * Memory: audit_build returns a model that audit_free frees; it borrows from the
 * dataset.
 */
#ifndef PR_AUDIT_H
#define PR_AUDIT_H

#include <stddef.h>

#include "1-load/data.h"
#include "buf.h"
#include "err.h"

typedef enum {
    AU_REPRODUCED, /* the parsed value, rounded as printed, prints the figure; or (under set)
                    * a rule of the fit search does, though the run set's does not */
    AU_TRUNCATED,  /* only when cut, not rounded */
    AU_DIFFERS,
    AU_NO_VALUE, /* the case failed: the rule reads no value from the log */
    AU_NO_LOG,
    AU_PARTIAL_LOGS, /* not reproduced, and not reproducible from the logs published: the
                      * rule combines one log per worker ("files": "workers") and fewer logs
                      * than the figure's nodes are published (node 0's of 4) */
    AU_NVERDICTS
} audit_verdict;

typedef struct audit_item {
    const pr_pub_table *table; /* the figure: its table and row */
    const pr_pub_row *row;
    const pr_run *run; /* the log's record, NULL when none (AU_NO_LOG) */
    const pr_record *rec;
    const json_t *fit; /* the record's fit report (fitfile.h), or NULL */
    int other_mode;    /* the log ran another configuration than the figure is
                                * printed under: another mode of its precision class (AMP
                                * under an FP16 column, pairing.h), or (other_bs) another
                                * batch size whose log gives the figure */
    int other_bs;
    audit_verdict verdict;
    audit_verdict own;             /* the verdict under the record's own rule (the run set's) */
    double diff_pct;               /* (parsed - printed) / printed, in percent */
    int logs_published;            /* AU_PARTIAL_LOGS: the workers' logs the record was read */
    int logs_needed;               /* from, and the figure's node count */
    const json_t *under;           /* the rule that reproduces the figure when the record's own
                                * does not: the first of its fit report's "reproduced"
                                * (borrowed from fit); NULL when the own rule does, or none */
    double under_value;            /* what that rule gives */
    const pr_pub_table *primary;   /* restated figures: the primary table of the same case, */
    const pr_pub_row *primary_row; /* NULL when none prints it */
    char *anchor;                  /* the id of its row on the audit page ([a-z0-9-], unique
                                * there; from the case, so links stay put as data grows):
                                * "fig-resnet50-paddle-v100-sxm2-32gb-x8-fp16-bs256-1x8";
                                * NULL for restated figures (no page links them) */
} audit_item;

typedef struct audit_log {
    const pr_run *run;
    const pr_record *rec;
} audit_log;

/* Two audited figures whose logs (two records) are byte-identical: one
 * run cannot be the evidence of two figures (issue 33 #6). */
typedef struct audit_twin {
    size_t a, b; /* indices into items, a < b */
} audit_twin;

typedef struct audit_model {
    char **repos; /* the audited repositories, sorted */
    size_t nrepos;
    audit_item *items; /* the audited published figures, in data order */
    size_t nitems;
    audit_log *orphans; /* imported logs no published figure names */
    size_t norphans;
    audit_item *restated; /* every restated figure of an audited source */
    size_t nrestated;
    audit_twin *twins; /* figures read from byte-identical logs, in item order */
    size_t ntwins;
} audit_model;

/* Builds the audit of d.  Fails (err set, naming the fit report) when a
 * case's fit report searched for a figure that is not the one its table
 * prints, or names a case no table prints: the figure typed into the
 * import's manifest is checked against the imported table here. */
int audit_build(const pr_dataset *d, audit_model **out, pr_err *err);
void audit_free(audit_model *m);

/* How many of the audited figures with a log in run set run its own rule
 * (the one its records were parsed with) reproduces (*own), how many a rule
 * of the fit search reproduces instead (*under), out of *n. */
void audit_run_counts(const audit_model *m, const pr_run *run, size_t *own, size_t *under,
                      size_t *n);

/* The audited figure of published row row; NULL when the audit covers no
 * such figure. */
const audit_item *audit_item_of_row(const audit_model *m, const pr_pub_row *row);
/* The audited figure whose log is record r: one printed under r's own
 * batch size first, else one whose log r is under another; NULL when no
 * audited figure names r. */
const audit_item *audit_item_of_rec(const audit_model *m, const pr_record *r);

/* Item it's verdict as words for machine readers (the export's
 * audit_verdict column): "reproduced", "reproduced_under_other_rule" (a rule
 * of the fit search, not the run set's), "truncated", "differs", "no_value",
 * "no_log", "partial_logs"; the one place that says it, appended to out. */
void audit_item_verdict_words(const audit_item *it, pr_buf *out);

/* 1 when repo is one of m's audited repositories. */
int audit_audited(const audit_model *m, const char *repo);

/* What imported run's logs, as its folder says: the first code span naming
 * a file under scripts/ in RUN/SOURCE.md ("scripts/import-perf-logs.sh"), or
 * the import command with its manifest ("perfrepro-measure import m.tsv"),
 * malloc'd (the caller frees it); NULL when the folder says nothing of it
 * (no SOURCE.md, or none named there): the audit then says so rather than
 * guess. */
char *audit_run_importer(const pr_run *run);

/* The verdict of value against printed (a figure as printed: "19.428"):
 * AU_REPRODUCED, AU_TRUNCATED or AU_DIFFERS. */
audit_verdict audit_verdict_of(double value, const char *printed);

#endif
