/* compare: the pieces of the pages that put frameworks side by side (the
 * model page, the index) and so must compare only like with like: a
 * configuration's name by its precision class, a cell with the mark of
 * where its figure comes from, a published table's source, and the cell a
 * model's declared headline configuration picks for each framework.
 *
 * Memory: everything appends to a caller's pr_buf or returns what it
 * borrows from the report model.
 */
#ifndef PR_COMPARE_H
#define PR_COMPARE_H

#include "2-model/audit.h"
#include "2-model/rmodel.h"
#include "buf.h"
#include "err.h"
#include "template/lang.h"

/* The title of platform p in l's language (p NULL: "machine not stated"). */
const char *compare_platform_title(const lang *l, const pr_platform *p);

/* A model configuration's name by its class, never by one mode of a class
 * of several ("混合精度（AMP / FP16）BS=64 · <platform>"); the platform left
 * out when !with_platform.  As Markdown appended to out, or as plain text
 * (charts) the caller frees. */
void compare_config_name(const lang *l, const rmodel_cfg *c, int with_platform, pr_buf *out,
                         pr_err *err);
char *compare_config_plain(const lang *l, const rmodel_cfg *c, int with_platform, pr_err *err);

/* The exact mode column col of mc shows ("AMP"), upper-case, into out; 0
 * (nothing written) when its class has one mode only, so the heading says
 * it already. */
int compare_col_mode(const rmodel_mcfg *mc, size_t col, pr_buf *out);

/* Where published table t comes from: its label linked to its URL (when
 * it has one) and its variant. */
void compare_pub_source(const lang *l, const pr_pub_table *t, pr_buf *out, pr_err *err);

/* A model's headline: the one configuration and GPU count the index shows
 * for all its frameworks.  The declared one (DATA/models/ID.json) when
 * some framework has a figure there; else the one the rule picks
 * (docs/data-model.md#headline): reproductions (runs measured or parsed
 * from logs) over published figures, then the platform where the
 * frameworks' newest run sets are, then the most frameworks with figures;
 * never a configuration without figures. */
typedef struct compare_headline {
    const rmodel_mcfg *mc;         /* NULL: the model has no figure on a known platform */
    int gpus;                      /* the GPU count shown (the fewest nodes) */
    const pr_model_decl *decl;     /* the declaration it follows; NULL: chosen by the rule */
    const pr_model_decl *declared; /* the model's declaration, used or not; may be NULL */
} compare_headline;

void compare_headline_of(const rmodel_world *w, const rmodel_model *m, compare_headline *h);

/* The model configuration of model m's headline (compare_headline_of), NULL
 * when it has none; *decl (may be NULL) gets the declaration it follows,
 * NULL when the rule chose it. */
const rmodel_mcfg *compare_headline_cfg(const rmodel_world *w, const rmodel_model *m,
                                        const pr_model_decl **decl);
/* Framework f's cell in headline configuration mc at GPU count gpus: one
 * with a figure over one with a state, then the fewest nodes; NULL when f
 * has no figure or state there. */
const rmodel_cell *compare_headline_cell(const rmodel_mcfg *mc, const rmodel_fw *f, int gpus);

/* The audit (audit.h) of record r, the log behind a figure, when its
 * source printed another figure for its case (AU_DIFFERS; not a figure
 * printed under another batch size whose log r is); NULL when none or a
 * is NULL. */
const audit_item *compare_audit_differs(const audit_model *a, const pr_record *r);
/* The heading of audit item it in the audit's list of differing figures
 * (Markdown), and its anchor there (without '#'): the model page links
 * the figure's cell to it.  One function makes both, so the link and the
 * heading cannot drift apart.  Both are appended. */
void compare_audit_heading(const lang *l, const audit_item *it, pr_buf *md, pr_buf *anchor,
                           pr_err *err);
/* The audited figure (audit.h) behind what cell rc shows: its imported
 * log's (the record the cell links: the median's, or the failure's), or
 * its published row's; NULL when the audit covers neither (or a is NULL). */
const audit_item *compare_audit_of_cell(const audit_model *a, const rmodel_cell *rc);
/* Appends the compact link from a page in folder page_rel (relative to the
 * output folder: "ResNet50", "ResNet50/Paddle") to its row on the audit
 * page, its verdict as the text and in words as the title:
 * " [✅](../AUDIT.md#fig-… "audit: reproduced")".  Nothing when it is NULL. */
void compare_audit_verdict_link(const lang *l, const audit_item *it, const char *page_rel,
                                pr_buf *out);
/* Sets "audit_legend" in view (what the verdict marks of
 * compare_audit_verdict_link mean, linking the audit from page folder
 * page_rel) when the audit covers a figure of model (and of framework fw;
 * NULL: any); nothing otherwise. */
void compare_audit_legend(const lang *l, const audit_model *a, const char *model, const char *fw,
                          const char *page_rel, json_t *view, pr_err *err);
/* A relative difference in percent, signed; one below 0.01 % keeps two
 * significant digits (155.0695 against 155.077 is -0.0048 %, not
 * "-0.00 %"). */
void compare_signed_pct(pr_buf *out, double pct);
#endif
