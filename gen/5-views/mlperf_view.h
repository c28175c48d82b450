/* mlperf_view: on a framework page of MLPerf Training results, each
 * system's score as MLPerf's rules compute it (perfrepro-measure import
 * --mlperf keeps it in every record's metrics.mlperf_score): the score,
 * the unscaled olympic mean and the factor side by side, lowest first,
 * with each system's nodes, GPUs and global batch. */
#ifndef PR_MLPERF_VIEW_H
#define PR_MLPERF_VIEW_H

#include <jansson.h>

#include "2-model/rmodel.h"
#include "err.h"
#include "template/lang.h"

/* Sets view's "mlperf_scores" (a Markdown table) when f's records carry
 * MLPerf scores; else nothing. */
void mlperf_view_set(const lang *l, const rmodel_fw *f, json_t *view, pr_err *err);

#endif
