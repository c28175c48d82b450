/* fw_order: the order of a framework page's platform sections (fw_order.h). */
#include "fw_order.h"

#include <stdlib.h>
#include <string.h>

#include "3-tables/compare.h"
#include "3-tables/provenance.h"
#include "buf.h"

/* The platform of the model's representative configuration; NULL when the
 * model has none (the page keeps the amount-of-data order alone). */
static int model_id_cmp(const void *key, const void *elem)
{
    return strcmp(key, (*(const rmodel_model *const *)elem)->id);
}

/* w->models is sorted by id: a binary search, where a scan made every
 * framework page linear in the models (issue 31 #17). */
static const pr_platform *main_platform(const rmodel_world *w, const rmodel_fw *f)
{
    rmodel_model *const *m =
        w->nmodels ? bsearch(f->model, w->models, w->nmodels, sizeof *w->models, model_id_cmp)
                   : NULL;
    if (!m)
        return NULL;
    const rmodel_mcfg *mc = compare_headline_cfg(w, *m, NULL);
    return mc ? mc->cfg.platform : NULL;
}

/* The figures of f->cfgs[first, end): successful cells and the rows with a
 * figure of every published table of those configurations. */
static size_t figures(const rmodel_fw *f, size_t first, size_t end)
{
    size_t n = 0;
    for (size_t i = first; i < end; i++) {
        const rmodel_cfg *c = &f->cfgs[i];
        for (size_t r = 0; r < c->ncells; r++)
            n += c->cells[r].n_ok > 0;
        for (size_t t = 0; t < f->npubs; t++)
            if (rmodel_pub_of(f->pubs[t], c))
                for (size_t r = 0; r < f->pubs[t]->nrows; r++)
                    n += f->pubs[t]->rows[r].has_value;
    }
    return n;
}

/* The rank of a run's kind: main, GPU, not stated, CPU. */
static int kind_rank(const fw_order_run *r, const pr_platform *p)
{
    return r->main ? 0 : r->cpu ? 3 : p ? 1 : 2;
}

size_t fw_order_runs(const rmodel_world *w, const rmodel_fw *f, fw_order_run *out)
{
    const pr_platform *mainp = main_platform(w, f);
    size_t n = 0, *nfig = pr_xcalloc(f->ncfgs + 1, sizeof *nfig);
    for (size_t first = 0; first < f->ncfgs;) {
        const pr_platform *p = f->cfgs[first].platform;
        size_t end = first;
        while (end < f->ncfgs && f->cfgs[end].platform == p)
            end++;
        fw_order_run r = {first, end, p && p == mainp, platform_is_cpu(p)};
        size_t k = figures(f, first, end);
        /* Insertion, stable: kind, then more figures first. */
        size_t j = n;
        for (; j > 0; j--) {
            const fw_order_run *q = &out[j - 1];
            const pr_platform *qp = f->cfgs[q->first].platform;
            int a = kind_rank(&r, p), b = kind_rank(q, qp);
            if (b < a || (b == a && nfig[j - 1] >= k))
                break;
            out[j] = *q;
            nfig[j] = nfig[j - 1];
        }
        out[j] = r;
        nfig[j] = k;
        n++;
        first = end;
    }
    free(nfig);
    return n;
}
