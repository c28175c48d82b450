/* rmodel_int: what the files of the report model share (rmodel.c the
 * grouping, rows, summaries and paths; rmodel_cells.c the cells).
 * Private to them: gen reads rmodel.h.
 */
#ifndef PR_RMODEL_INT_H
#define PR_RMODEL_INT_H

#include "rmodel.h"

/* f's configuration platform × precision × bs; NULL when none (rmodel.c). */
rmodel_cfg *rmodel_find_cfg(const rmodel_fw *f, const pr_platform *platform, const char *precision,
                            int bs);
/* The platform a suite plans its cases on (NULL when it does not say) (rmodel.c). */
const pr_platform *rmodel_suite_platform(const rmodel_world *w, const pr_suite *s);
/* Fills f's configurations: their primary published tables and cells, each
 * record in the cell of its case (in data order), each cell's statistics
 * (rmodel_cells.c). */
void rmodel_build_cells(const rmodel_world *w, rmodel_fw *f);

#endif
