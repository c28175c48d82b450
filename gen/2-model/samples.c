#include "samples.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"
#include "runset.h"
#include "stats.h"

struct sm_set {
    sm_sample *v;
    size_t n;
};

static int str_cmp0(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

int sm_key_cmp(const sm_key *a, const sm_key *b)
{
    int c;
    if ((c = str_cmp0(a->model, b->model)) || (c = str_cmp0(a->framework, b->framework)) ||
        (c = str_cmp0(a->platform->id, b->platform->id)) ||
        (c = str_cmp0(a->precision, b->precision)))
        return c;
    if (a->bs != b->bs)
        return a->bs < b->bs ? -1 : 1;
    if (a->gpus != b->gpus)
        return a->gpus < b->gpus ? -1 : 1;
    if (a->nodes != b->nodes)
        return a->nodes < b->nodes ? -1 : 1;
    return 0;
}

char *sm_key_label(const sm_key *k)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_printf(&b, "%s · %s · %s · %s · bs %d · %d×%d", k->model, k->framework,
                  k->platform->id, k->precision, k->bs, k->nodes, k->gpus);
    return pr_buf_detach(&b);
}

static int sample_cmp(const void *pa, const void *pb)
{
    const sm_sample *a = pa, *b = pb;
    int c = sm_key_cmp(&a->key, &b->key);
    if (c)
        return c;
    if ((c = strcmp(a->last, b->last)))
        return c;
    return strcmp(a->run->name, b->run->name);
}

/* The sample of run for key k in s, added when absent.  Linear in the run's
 * own samples (those added since first_of_run): a run set holds tens of
 * cells. */
static sm_sample *sample_of(sm_set *s, size_t first_of_run, const pr_run *run, const sm_key *k)
{
    for (size_t i = first_of_run; i < s->n; i++)
        if (sm_key_cmp(&s->v[i].key, k) == 0)
            return &s->v[i];
    s->v = pr_xrealloc(s->v, (s->n + 1) * sizeof *s->v);
    sm_sample *x = &s->v[s->n++];
    memset(x, 0, sizeof *x);
    x->key = *k;
    x->run = run;
    snprintf(x->first, sizeof x->first, "%s", rs_first(run));
    snprintf(x->last, sizeof x->last, "%s", rs_last(run));
    return x;
}

static void finish(sm_sample *x)
{
    x->median = NAN;
    if (!x->nvalues) {
        x->link_rec = x->nrecs ? x->recs[0] : NULL;
        return;
    }
    x->median = pr_stats_median(x->values, x->nvalues); /* sorts them: "ascending" */
    double best = INFINITY;
    for (size_t i = 0; i < x->nrecs; i++) {
        const pr_record *r = x->recs[i];
        double dist = fabs(r->final_result - x->median);
        if (!r->failed && dist < best) {
            best = dist;
            x->link_rec = r;
        }
    }
}

sm_set *sm_build(const pr_dataset *d)
{
    sm_set *s = pr_xcalloc(1, sizeof *s);
    for (size_t i = 0; i < d->nruns; i++) {
        const pr_run *run = &d->runs[i];
        size_t first = s->n;
        for (size_t j = 0; j < run->nrecords; j++) {
            const pr_record *r = &run->records[j];
            sm_key k = {r->model, r->framework, r->precision, pr_data_record_platform(d, run, r),
                        r->batch_size, r->nodes, r->gpu_num};
            if (!k.platform)
                continue;
            sm_sample *x = sample_of(s, first, run, &k);
            x->recs = pr_xrealloc(x->recs, (x->nrecs + 1) * sizeof *x->recs);
            x->recs[x->nrecs++] = r;
            size_t nrun = pr_record_run_values(r, NULL);
            if (!nrun) {
                x->nfailed++;
                continue;
            }
            x->values = pr_xrealloc(x->values, (x->nvalues + nrun) * sizeof *x->values);
            x->nvalues += pr_record_run_values(r, x->values + x->nvalues);
        }
    }
    for (size_t i = 0; i < s->n; i++)
        finish(&s->v[i]);
    if (s->n)
        qsort(s->v, s->n, sizeof *s->v, sample_cmp);
    return s;
}

void sm_free(sm_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].values);
        free(s->v[i].recs);
    }
    free(s->v);
    free(s);
}

size_t sm_count(const sm_set *s)
{
    return s->n;
}

const sm_sample *sm_at(const sm_set *s, size_t i)
{
    return &s->v[i];
}
