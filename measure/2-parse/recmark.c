/* recmark: which used records the reducer trimmed, took as the median or
 * picked (recmark.h).  Moved out of explain.c so that the record's
 * step_trace (parsetrace.c) marks records exactly as --explain lists them. */
#include "recmark.h"

#include <stdlib.h>

/* One used record, for sorting by value (then by line order). */
typedef struct used_rec {
    double v;
    size_t i; /* index in the run's list */
} used_rec;

static int cmp_used(const void *a, const void *b)
{
    const used_rec *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static int step_time(pr_rulecfg_value_kind v)
{
    return v == PR_VALUE_SECONDS_PER_STEP || v == PR_VALUE_MS_PER_STEP;
}

/* The reducer that picks one record (last, max, min, best) as max or min
 * or last: 'l', '>' or '<'; 0 for the others. */
static int picker(const pr_rulecfg_cfg *c)
{
    switch (c->reduce) {
    case PR_REDUCE_LAST:
        return 'l';
    case PR_REDUCE_MAX:
        return '>';
    case PR_REDUCE_MIN:
        return '<';
    case PR_REDUCE_BEST:
        return step_time(c->value) ? '<' : '>';
    default:
        return 0;
    }
}

void recmark_mark_used(const pr_rulecfg_cfg *c, const pr_scan_rec *recs, size_t n,
                       const unsigned char *st, const pr_run_trace *t, unsigned char *mark,
                       size_t *pick, size_t mid[2])
{
    *pick = (size_t)-1;
    mid[0] = mid[1] = (size_t)-1;
    used_rec *u = pr_xcalloc(n ? n : 1, sizeof *u);
    size_t nu = 0;
    for (size_t i = 0; i < n; i++)
        if (st[i] == PR_REC_USED)
            u[nu++] = (used_rec){recs[i].value, i};
    int p = picker(c);
    if (p && nu) {
        size_t best = u[0].i;
        for (size_t j = 1; j < nu; j++) {
            double v = u[j].v, b = recs[best].value;
            if (p == 'l' || (p == '>' && v > b) || (p == '<' && v < b))
                best = u[j].i;
        }
        *pick = best;
        for (size_t j = 0; j < nu; j++)
            mark[u[j].i] = u[j].i == best ? PR_MARK_PICKED : PR_MARK_NOT_PICKED;
    } else if (nu && !t->failed &&
               (c->reduce == PR_REDUCE_MEDIAN || c->reduce == PR_REDUCE_TRIMMED_MEAN)) {
        pr_qsort(u, nu, sizeof *u, cmp_used);
        if (c->reduce == PR_REDUCE_MEDIAN) {
            mid[0] = u[(nu - 1) / 2].i;
            mid[1] = u[nu / 2].i;
            mark[mid[0]] = mark[mid[1]] = PR_MARK_MEDIAN;
        } else {
            for (size_t j = 0; j < t->trim_each && j < nu; j++) {
                mark[u[j].i] = PR_MARK_TRIM_LOW;
                mark[u[nu - 1 - j].i] = PR_MARK_TRIM_HIGH;
            }
        }
    }
    free(u);
}
