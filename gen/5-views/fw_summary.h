/* fw_summary: what a framework page says, in a few lines at its top
 * (issue 34): the headline figure of each precision at the largest
 * single-node count, the scaling at the largest count where one run set
 * gives it, the audit's counts and the caveats that matter. */
#ifndef PR_FW_SUMMARY_H
#define PR_FW_SUMMARY_H

#include <jansson.h>

#include "2-model/rmodel.h"
#include "template/lang.h"

/* Sets in view (named apart from a platform's "summary_table", which a
 * Mustache section would otherwise inherit): "short_head" and "short_table"
 * (the headline table) where f has a figure, "short_lines" (an array of
 * {"text": Markdown}), and "has_short". */
void fw_summary(const rmodel_world *w, const lang *l, const rmodel_fw *f, json_t *view,
                pr_err *err);

#endif
