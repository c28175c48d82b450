/* chartspec_flags: which figures a chart draws flagged, and the run set
 * each belongs to: a chart says what its tables say (a ❗ travels with its
 * figure; no line joins two run sets). */
#include <stdlib.h>
#include <string.h>

#include "1-load/pairing.h"
#include "2-model/flags.h"
#include "3-tables/mdtable.h"
#include "chartspec_int.h"

/* Who frees: chartspec_flags_free. */
void chartspec_flags_of(const rmodel_fw *f, const rmodel_cfg *c, chartspec_flags *fl)
{
    size_t n = c->ncells;
    fl->meas = pr_xcalloc(n + 1, 1);
    fl->pub = pr_xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++) {
        const rmodel_cell *rc = &c->cells[i];
        /* The flag pass decided both (flags.h): the median a cell's runs
         * give, and each row of its primary published table. */
        fl->meas[i] = rc->origin == RM_MEASURED && rc->flagged;
        fl->pub[i] = c->pub && flags_pub_row_flagged(f, c->pub, rc->pub);
    }
}

void chartspec_flags_free(chartspec_flags *fl)
{
    free(fl->meas);
    free(fl->pub);
    fl->meas = fl->pub = NULL;
}

/* As the published table's speedup flag finds it (gen/3-tables/fw_tables.c). */
const pr_run *chartspec_pub_row_run(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *r)
{
    return flags_pub_row_run(f, t, r);
}

const void *chartspec_pub_row_set(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *r)
{
    const pr_run *run = chartspec_pub_row_run(f, t, r);
    return run ? (const void *)run : (const void *)t;
}

/* Who frees: chartspec_sets_free. */
int chartspec_set_id(chartspec_sets *s, const void *key)
{
    for (int i = 0; i < s->n; i++)
        if (s->key[i] == key)
            return i;
    if (s->n == s->cap)
        s->key = pr_xrealloc(s->key, (size_t)(s->cap = s->cap ? 2 * s->cap : 8) * sizeof *s->key);
    s->key[s->n] = key;
    return s->n++;
}

void chartspec_sets_free(chartspec_sets *s)
{
    free(s->key);
    s->key = NULL;
    s->n = s->cap = 0;
}
