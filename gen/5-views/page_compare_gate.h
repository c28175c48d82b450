/* page_compare_gate: the words of the gate in front of a comparison's
 * statistics (abmodel.h, docs/statistics.md#steady-state) for a cell it
 * stopped: the page's "not judged: runs r2, r3 of B unsteady (r2: CV
 * 26.7 %; r3: regime change at step 7, CV 81.3 %)", the JSON's gate object
 * and the CSV's gate column.  page_compare.c calls it; one file, so that
 * the page's own layout stays apart from the gate's wording.
 *
 * Memory: buffers are the caller's; page_compare_gate_json returns a new reference.
 */
#ifndef PR_PAGE_COMPARE_GATE_H
#define PR_PAGE_COMPARE_GATE_H

#include <jansson.h>

#include "2-model/abmodel.h"
#include "buf.h"
#include "err.h"
#include "template/lang.h"

/* Ratios are printed with this many decimals on the page and in the gate's
 * words. */
#define PC_RATIO_DECIMALS 3

/* Appends "not judged: WHY" for cell x of c (x->gate set) in l's language. */
void page_compare_gate_words(const lang *l, const abmodel_cmp *c, const abmodel_cell *x,
                             pr_buf *out, pr_err *err);
/* Appends the gate's bits as keys, ";"-joined, in this order: unsteady,
 * implausible, out_of_range; nothing when 0. */
void page_compare_gate_keys(unsigned gate, pr_buf *out);
/* null when x is judged, else {"why": [keys], "unsteady": [{side, run_set,
 * case, repeat, steady}], "max_effect"}. */
json_t *page_compare_gate_json(const abmodel_cmp *c, const abmodel_cell *x);

#endif
