#include "samples.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/runset.h"
#include "buf.h"
#include "fileio.h"
#include "stats.h"

struct samples_set {
    samples_sample *v;
    size_t n;
};

static int str_cmp0(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

int samples_key_cmp(const samples_key *a, const samples_key *b)
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

char *samples_key_label(const samples_key *k)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_printf(&b, "%s · %s · %s · %s · bs %d · %d×%d", k->model, k->framework, k->platform->id,
                  k->precision, k->bs, k->nodes, k->gpus);
    return pr_buf_detach(&b);
}

static int sample_cmp(const void *pa, const void *pb)
{
    const samples_sample *a = pa, *b = pb;
    int c = samples_key_cmp(&a->key, &b->key);
    if (c)
        return c;
    if ((c = strcmp(a->last, b->last)))
        return c;
    return strcmp(a->run->name, b->run->name);
}

/* One record of a run set with its cell, for grouping by cell. */
typedef struct keyed_rec {
    samples_key key;
    size_t index; /* the record's place in its run set */
} keyed_rec;

/* By cell, then data order: each cell's records come out together and in
 * data order, so that a sort groups a run set's records in n log n where a
 * search per record was quadratic in the run set's cells (issue 31 #17). */
static int keyed_rec_cmp(const void *pa, const void *pb)
{
    const keyed_rec *a = pa, *b = pb;
    int c = samples_key_cmp(&a->key, &b->key);
    if (c)
        return c;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Appends to s one sample per cell of run, from its records keyed[0 .. n)
 * (sorted by keyed_rec_cmp); the samples' arrays are s's to free. */
static void add_run_samples(samples_set *s, size_t *cap, const pr_run *run, const keyed_rec *keyed,
                            size_t n)
{
    for (size_t lo = 0, hi; lo < n; lo = hi) {
        size_t nvalues = 0;
        for (hi = lo; hi < n && samples_key_cmp(&keyed[hi].key, &keyed[lo].key) == 0; hi++)
            nvalues += pr_record_run_values(&run->records[keyed[hi].index], NULL);
        if (s->n == *cap) {
            *cap = *cap ? 2 * *cap : 16;
            s->v = pr_xrealloc(s->v, *cap * sizeof *s->v);
        }
        samples_sample *x = &s->v[s->n++];
        memset(x, 0, sizeof *x);
        x->key = keyed[lo].key;
        x->run = run;
        snprintf(x->first, sizeof x->first, "%s", runset_first_date(run));
        snprintf(x->last, sizeof x->last, "%s", runset_last_date(run));
        x->recs = pr_xcalloc(hi - lo, sizeof *x->recs);
        x->values = nvalues ? pr_xcalloc(nvalues, sizeof *x->values) : NULL;
        for (size_t i = lo; i < hi; i++) {
            const pr_record *r = &run->records[keyed[i].index];
            x->recs[x->nrecs++] = r;
            size_t got = pr_record_run_values(r, x->values ? x->values + x->nvalues : NULL);
            if (!got)
                x->nfailed++;
            x->nvalues += got;
        }
    }
}

static void finish(samples_sample *x)
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

/* The run sets' cells are grouped by a sort of each run set's records
 * (keyed, freed here); s->v grows by doubling. */
samples_set *samples_build(const pr_dataset *d)
{
    samples_set *s = pr_xcalloc(1, sizeof *s);
    size_t cap = 0;
    keyed_rec *keyed = NULL;
    size_t keyed_cap = 0;
    for (size_t i = 0; i < d->nruns; i++) {
        const pr_run *run = &d->runs[i];
        if (run->nrecords > keyed_cap) {
            keyed_cap = run->nrecords;
            keyed = pr_xrealloc(keyed, keyed_cap * sizeof *keyed);
        }
        size_t n = 0;
        for (size_t j = 0; j < run->nrecords; j++) {
            const pr_record *r = &run->records[j];
            samples_key k = {
                r->model,      r->framework, r->precision, data_record_platform(d, run, r),
                r->batch_size, r->nodes,     r->gpu_num};
            if (!k.platform)
                continue;
            keyed[n++] = (keyed_rec){k, j};
        }
        if (n)
            qsort(keyed, n, sizeof *keyed, keyed_rec_cmp);
        add_run_samples(s, &cap, run, keyed, n);
    }
    free(keyed);
    for (size_t i = 0; i < s->n; i++)
        finish(&s->v[i]);
    if (s->n)
        qsort(s->v, s->n, sizeof *s->v, sample_cmp);
    return s;
}

void samples_free(samples_set *s)
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

size_t samples_count(const samples_set *s)
{
    return s->n;
}

const samples_sample *samples_at(const samples_set *s, size_t i)
{
    return &s->v[i];
}
