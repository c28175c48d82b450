/* pages: one view builder per page, each in its own file.  A view is the
 * JSON object the page's template (templates/<lang>/<page>.mustache) reads;
 * every figure in it comes from the report model (rmodel.h).
 *
 *   page_index.c      OUT/README.md: every model and framework, headline, date
 *   page_bench.c      OUT/perfrepro-bench/README.md: perfrepro's own speed
 *   page_model.c      OUT/<Model>/README.md: frameworks side by side
 *   page_audit.c      OUT/AUDIT.md: published figures against their logs
 *   page_framework.c  OUT/<Model>/<Framework>/README.md: the reproduction
 *                     report (page_hw.c: its per-point section)
 *
 * Memory: each returns a new view the caller frees (json_decref), or NULL
 * with err set; charts go on oc, drawn later (chartspec.h).
 */
#ifndef PR_PAGES_H
#define PR_PAGES_H

#include <jansson.h>

#include "2-model/audit.h"
#include "2-model/rmodel.h"
#include "4-charts/chartspec.h"
#include "err.h"
#include "template/lang.h"

/* The folder of the bench page, under the output folder. */
#define PAGES_BENCH_DIR "perfrepro-bench"

json_t *page_index_view(const rmodel_world *w, const lang *l, pr_err *err);
json_t *page_bench_view(const rmodel_world *w, const lang *l);
json_t *page_audit_view(const rmodel_world *w, const lang *l, const audit_model *m, pr_err *err);
json_t *page_model_view(const rmodel_world *w, const lang *l, const rmodel_model *m,
                        chartspec_queue *oc, pr_err *err);
json_t *page_framework_view(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                            chartspec_queue *oc, pr_err *err);
/* The sections of a framework page (and of its machines' pages,
 * fw_split.h), in page order. */
enum {
    PF_ENV = 1u << 0,     /* 环境介绍 / Environment */
    PF_SETUP = 1u << 1,   /* 环境搭建 / Setup (the plan's) */
    PF_STEPS = 1u << 2,   /* 测试步骤 / Running the tests */
    PF_RESULTS = 1u << 3, /* 测试结果 / Results */
    PF_LOGS = 1u << 4,    /* 日志数据 / Logs */
    PF_NOTES = 1u << 5    /* 说明 / Notes */
};
/* Sets view's section numbers ("n_env" ... "n_notes") for the sections
 * present (PF_* flags), numbered in page order. */
void page_framework_numbers(json_t *view, const lang *l, unsigned sections);

#endif
