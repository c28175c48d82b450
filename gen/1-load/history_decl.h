/* history_decl: DATA/history.json, the steps of a history the data pins
 * (always a change point) or vetoes (never one) (docs/data-model.md,
 * "History pins and vetoes").
 *
 *   {"perfrepro": 1,
 *    "pins":   [{"model", "framework", "platform", "precision", "batch_size",
 *                "nodes", "gpus", "source" (a published table's label;
 *                absent: the reproduced series), "date" (the first point
 *                of the new segment), "note": {"zh", "en"}}],
 *    "vetoes": [the same]}
 *
 * The file is optional.  It is loaded strictly (FILE:LINE:COL: field:
 * message); that a mark names a point of a series is checked when the
 * history is built (history.h), and the error names the mark's place here.
 *
 * Memory: an history_decl_decls is the dataset's (zeroed when there is no file);
 * history_decl_free frees what history_decl_load filled.
 */
#ifndef PR_HISTORY_DECL_H
#define PR_HISTORY_DECL_H

#include <stddef.h>

#include "bitext.h"
#include "err.h"
#include "platform.h"

typedef struct history_decl_mark {
    char *model, *framework, *precision;
    const pr_platform *platform;
    int bs, nodes, gpus;
    char *source;  /* a published source's label; NULL: the reproduced series */
    char date[11]; /* YYYY-MM-DD */
    pr_bitext note;
    int veto;     /* 0: a pin */
    size_t index; /* its place in its list ("pins" or "vetoes") */
} history_decl_mark;

typedef struct history_decl_decls {
    history_decl_mark *marks; /* in file order (the lists as the file gives them) */
    size_t nmarks;
    struct pr_jdoc *doc; /* the file, kept for history_decl_where */
} history_decl_decls;

/* Loads path (NULL: no file, nothing declared) with the platforms ps
 * (borrowed; the marks point into it).  0, or -1 with err set. */
int history_decl_load(history_decl_decls *h, const pr_platforms *ps, const char *path, pr_err *err);
void history_decl_free(history_decl_decls *h);
/* Where mark m of h is: "FILE:LINE:COL: pins[0].date", for errors found
 * later (a new string the caller frees; the position is looked up then, so
 * loading costs no scan of the text per mark). */
char *history_decl_where(const history_decl_decls *h, const history_decl_mark *m);

#endif
