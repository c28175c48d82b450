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

#include "buf.h"
#include "err.h"
#include "lang.h"
#include "rmodel.h"

/* The title of platform p in l's language (p NULL: "machine not stated"). */
const char *cmp_platform_title(const lang *l, const pr_platform *p);

/* A model configuration's name by its class, never by one mode of a class
 * of several ("混合精度（AMP / FP16）BS=64 · <platform>"); the platform left
 * out when !with_platform.  As Markdown appended to out, or as plain text
 * (charts) the caller frees. */
void cmp_config_name(const lang *l, const rm_cfg *c, int with_platform, pr_buf *out, pr_err *err);
char *cmp_config_plain(const lang *l, const rm_cfg *c, int with_platform, pr_err *err);

/* The exact mode column col of mc shows ("AMP"), upper-case, into out; 0
 * (nothing written) when its class has one mode only, so the heading says
 * it already. */
int cmp_col_mode(const rm_mcfg *mc, size_t col, pr_buf *out);

/* Where published table t comes from: its label linked to its URL (when
 * it has one) and its variant. */
void cmp_pub_source(const lang *l, const pr_pub_table *t, pr_buf *out, pr_err *err);

/* A model's headline: the one configuration and GPU count the index shows
 * for all its frameworks.  The declared one (DATA/models/ID.json) when
 * some framework has a figure there; else the one the rule picks
 * (docs/data-model.md#headline): reproductions (runs measured or parsed
 * from logs) over published figures, then the platform where the
 * frameworks' newest run sets are, then the most frameworks with figures;
 * never a configuration without figures. */
typedef struct cmp_headline {
    const rm_mcfg *mc;              /* NULL: the model has no figure on a known platform */
    int gpus;                       /* the GPU count shown (the fewest nodes) */
    const pr_model_decl *decl;      /* the declaration it follows; NULL: chosen by the rule */
    const pr_model_decl *declared;  /* the model's declaration, used or not; may be NULL */
} cmp_headline;

void cmp_headline_of(const rm_world *w, const rm_model *m, cmp_headline *h);

/* The model configuration of model m's headline (cmp_headline_of), NULL
 * when it has none; *decl (may be NULL) gets the declaration it follows,
 * NULL when the rule chose it. */
const rm_mcfg *cmp_headline_cfg(const rm_world *w, const rm_model *m,
                                const pr_model_decl **decl);
/* Framework f's cell in headline configuration mc at the declared GPU
 * count (the fewest nodes); NULL when f has no figure or state there. */
const rm_cell *cmp_headline_cell(const rm_mcfg *mc, const rm_fw *f, int gpus);

#endif
