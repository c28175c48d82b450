/* Unit tests of gen/chartspec*.c: a cell whose rmodel_cell.flagged the flag
 * pass sets is drawn flagged in its framework page's scaling chart and in
 * its model page's bars (the field set by hand here, on tests/golden/data). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "2-model/rmodel.h"
#include "4-charts/chartspec.h"
#include "template/lang.h"

#define FLAG_EN "Flagged (see the table's footnote ❗): "

typedef struct fixture {
    pr_dataset *d;
    rmodel_world *w;
    lang l;
    rmodel_model *m;
    rmodel_fw *f;
    rmodel_cfg *c;
    rmodel_cell *cell; /* a measured cell beyond 1 GPU of c */
} fixture;

static void setup(fixture *x)
{
    pr_err err;
    memset(x, 0, sizeof *x);
    cr_assert(data_load("tests/golden/data", &x->d, &err) == 0, "%s", err.msg);
    x->w = rmodel_build(x->d, "out");
    x->l.code = "en";
    x->l.readme = "README.en.md";
    x->l.other_readme = "README.md";
    cr_assert(lang_load(&x->l, "templates", &err) == 0, "%s", err.msg);
    for (size_t i = 0; i < x->w->nmodels && !x->cell; i++)
        for (size_t j = 0; j < x->w->models[i]->nfws && !x->cell; j++) {
            rmodel_fw *f = x->w->models[i]->fws[j];
            for (size_t k = 0; k < f->ncfgs && !x->cell; k++) {
                size_t measured = 0;
                rmodel_cell *beyond = NULL;
                for (size_t r = 0; r < f->cfgs[k].ncells; r++) {
                    rmodel_cell *rc = &f->cfgs[k].cells[r];
                    measured += rc->origin == RM_MEASURED;
                    if (rc->origin == RM_MEASURED && rc->gpus > 1)
                        beyond = rc;
                }
                if (measured >= 3 && beyond) {
                    x->m = x->w->models[i];
                    x->f = f;
                    x->c = &f->cfgs[k];
                    x->cell = beyond;
                }
            }
        }
    cr_assert(x->cell, "no configuration with three measured figures in tests/golden/data");
}

static void teardown(fixture *x)
{
    lang_free(&x->l);
    rmodel_free(x->w);
    data_free(x->d);
}

/* The Markdown (with the alt text) of c's scaling chart. */
static char *scaling_md(fixture *x)
{
    chartspec_queue oc = {NULL, NULL, 1, NULL, 0, 0, "out"};
    pr_buf md = PR_BUF_INIT;
    pr_err err;
    cr_assert(chartspec_fw_scaling(&x->l, x->f, x->c, "M/F", &oc, &md, &err) == 0, "%s", err.msg);
    cr_assert_eq(oc.njobs, 1u, "no scaling chart queued");
    chartspec_free(&oc);
    return pr_buf_detach(&md);
}

/* The Markdown of the model page's charts of the configuration holding c. */
static char *model_md(fixture *x)
{
    for (size_t i = 0; i < x->m->ncfgs; i++)
        for (size_t j = 0; j < x->m->cfgs[i].ncols; j++)
            if (x->m->cfgs[i].fcfgs[j] == x->c) {
                chartspec_queue oc = {NULL, NULL, 1, NULL, 0, 0, "out"};
                pr_buf md = PR_BUF_INIT;
                pr_err err;
                cr_assert(chartspec_model(&x->l, x->m, &x->m->cfgs[i], &oc, &md, &err) == 0, "%s",
                          err.msg);
                cr_assert_geq(oc.njobs, 1u, "no model chart queued");
                chartspec_free(&oc);
                return pr_buf_detach(&md);
            }
    cr_assert_fail("the configuration is on no model page");
    return NULL;
}

Test(chartspec, flagged_cell_is_flagged_in_its_charts)
{
    fixture x;
    setup(&x);
    char *plain = scaling_md(&x), *mplain = model_md(&x);
    cr_assert_null(strstr(plain, FLAG_EN), "flagged with no flag set: %s", plain);
    cr_assert_null(strstr(mplain, FLAG_EN), "flagged with no flag set: %s", mplain);

    x.cell->flagged = 1; /* as rmodel_build's flag pass would */
    char *flagged = scaling_md(&x), *mflagged = model_md(&x);
    char want[64];
    snprintf(want, sizeof want, "at x=%d: ", x.cell->gpus);
    const char *at = strstr(flagged, FLAG_EN);
    cr_assert(at && strstr(at, want), "scaling chart: the %d-GPU figure is not flagged: %s",
              x.cell->gpus, flagged);
    /* The model page's bars name it by its row's label ("1 node × 8 GPUs: "). */
    snprintf(want, sizeof want, "%d node%s × %d GPUs: ", x.cell->nodes,
             x.cell->nodes == 1 ? "" : "s", x.cell->gpus / x.cell->nodes);
    at = strstr(mflagged, FLAG_EN);
    cr_assert(at && strstr(at, want), "model bars: the %d-GPU figure is not flagged: %s",
              x.cell->gpus, mflagged);
    free(plain);
    free(mplain);
    free(flagged);
    free(mflagged);
    teardown(&x);
}
