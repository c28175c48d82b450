/* abmodel: an A/B comparison, cell by cell (abmodel.h). */
#include "abmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/runset.h"
#include "base/md.h"
#include "buf.h"
#include "stats.h"
#include "steady.h"
#include "suite.h"

/* One side's cells while they are gathered: the samples (or published
 * rows) of each key. */
typedef struct pool {
    samples_key key;
    abmodel_half h;
    const samples_sample **smp; /* the run sets' samples pooled here */
    size_t nsmp;
} pool;

typedef struct pools {
    pool *v;
    size_t n;
} pools;

static pool *pool_of(pools *p, const samples_key *k)
{
    for (size_t i = 0; i < p->n; i++)
        if (samples_key_cmp(&p->v[i].key, k) == 0)
            return &p->v[i];
    p->v = pr_xrealloc(p->v, (p->n + 1) * sizeof *p->v);
    pool *x = &p->v[p->n++];
    memset(x, 0, sizeof *x);
    x->key = *k;
    x->h.median = NAN;
    return x;
}

static void add_values(abmodel_half *h, const double *v, size_t n)
{
    h->values = pr_xrealloc(h->values, (h->n + n + 1) * sizeof *h->values);
    memcpy(h->values + h->n, v, n * sizeof *v);
    h->n += n;
}

/* The median of the pooled runs, and the record closest to it (the first
 * such in run set and data order). */
static void finish(pool *x)
{
    abmodel_half *h = &x->h;
    if (!h->n)
        return;
    h->median = pr_stats_median(h->values, h->n); /* sorts them: "ascending" */
    double best = INFINITY;
    for (size_t i = 0; i < x->nsmp; i++)
        for (size_t j = 0; j < x->smp[i]->nrecs; j++) {
            const pr_record *r = x->smp[i]->recs[j];
            double dist = fabs(r->final_result - h->median);
            if (!r->failed && dist < best) {
                best = dist;
                h->rec = r;
                h->run = x->smp[i]->run;
            }
        }
}

static int pool_cmp(const void *pa, const void *pb)
{
    return samples_key_cmp(&((const pool *)pa)->key, &((const pool *)pb)->key);
}

/* Selects side s of d and gathers its cells into p. */
static void gather(const pr_dataset *d, const samples_set *ss, const comparisons_sel *sel,
                   abmodel_side *s, pools *p)
{
    s->sel = sel;
    if (sel->kind == CD_SEL_PUBLISHED) {
        for (size_t i = 0; i < d->npubs; i++) {
            const pr_pub_table *t = &d->pubs[i];
            if (!comparisons_sel_pub(sel, t))
                continue;
            s->pubs = pr_xrealloc(s->pubs, (s->npubs + 1) * sizeof *s->pubs);
            s->pubs[s->npubs++] = t;
            for (size_t j = 0; t->platform && j < t->nrows; j++) {
                const pr_pub_row *row = &t->rows[j];
                if (!row->has_value || !(row->value > 0))
                    continue;
                samples_key k = {t->model,      t->framework, t->precision, t->platform,
                                 t->batch_size, row->nodes,   row->gpus};
                pool *x = pool_of(p, &k);
                add_values(&x->h, &row->value, 1);
                x->h.nrecs++;
                if (!x->h.pub) {
                    x->h.pub = t;
                    x->h.pub_row = row;
                }
            }
        }
    } else {
        for (size_t i = 0; i < d->nruns; i++)
            if (comparisons_sel_run(sel, &d->runs[i])) {
                s->runs = pr_xrealloc(s->runs, (s->nruns + 1) * sizeof *s->runs);
                s->runs[s->nruns++] = &d->runs[i];
            }
        for (size_t i = 0; i < samples_count(ss); i++) {
            const samples_sample *x = samples_at(ss, i);
            if (!comparisons_sel_run(sel, x->run))
                continue;
            pool *q = pool_of(p, &x->key);
            add_values(&q->h, x->values, x->nvalues);
            q->h.nrecs += x->nrecs;
            q->h.nfailed += x->nfailed;
            q->smp = pr_xrealloc(q->smp, (q->nsmp + 1) * sizeof *q->smp);
            q->smp[q->nsmp++] = x;
            for (size_t j = 0; j < x->nrecs; j++) {
                const pr_record *r = x->recs[j];
                if (r->failed || pr_steady_verdict_of(r->steady) != PR_STEADY_UNSTEADY)
                    continue;
                q->h.unsteady =
                    pr_xrealloc(q->h.unsteady, (q->h.nunsteady + 1) * sizeof *q->h.unsteady);
                q->h.unsteady[q->h.nunsteady++] = (abmodel_unsteady){x->run, r};
            }
        }
    }
    for (size_t i = 0; i < p->n; i++)
        finish(&p->v[i]);
    pr_qsort(p->v, p->n, sizeof *p->v, pool_cmp);
}

/* The argv of run's command template: its suite's (RUN/suite.json), else
 * the data's suite of its records' model and framework (per-precision parts
 * as JSON), else its first record's command; NULL-terminated, the caller
 * frees it. */
static char **run_argv(const pr_dataset *d, const pr_run *run, size_t *n)
{
    const json_t *cmd = run->suite ? run->suite->command : NULL;
    for (size_t i = 0; !cmd && run->nrecords && i < d->nsuites; i++)
        if (strcmp(d->suites[i]->model, run->records[0].model) == 0 &&
            strcmp(d->suites[i]->framework, run->records[0].framework) == 0)
            cmd = d->suites[i]->command;
    for (size_t i = 0; !cmd && i < run->nrecords; i++)
        cmd = run->records[i].command;
    size_t k = json_array_size(cmd);
    char **v = pr_xcalloc(k + 1, sizeof *v);
    for (size_t i = 0; i < k; i++) {
        const json_t *w = json_array_get(cmd, i);
        v[i] = json_is_string(w) ? pr_xstrdup(json_string_value(w))
                                 : json_dumps(w, JSON_COMPACT | JSON_SORT_KEYS);
    }
    *n = k;
    return v;
}

static void argv_words(char **v, size_t n, pr_buf *out)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            pr_buf_putc(out, ' ');
        md_shell_word(out, v[i]);
    }
}

/* The words of x that are not in the longest common subsequence of x and
 * y (keep[i] 0), each run of them with the option before it ("--threads
 * 1"), runs joined by " … ". */
static void argv_changed(char **x, size_t nx, const unsigned char *keep, pr_buf *out)
{
    for (size_t i = 0; i < nx;) {
        if (keep[i]) {
            i++;
            continue;
        }
        if (out->len)
            pr_buf_puts(out, " … ");
        if (i > 0 && x[i - 1][0] == '-')
            md_shell_word(out, x[i - 1]), pr_buf_putc(out, ' ');
        for (; i < nx && !keep[i]; i++) {
            md_shell_word(out, x[i]);
            if (i + 1 < nx && !keep[i + 1])
                pr_buf_putc(out, ' ');
        }
    }
}

/* Marks in ka and kb the words of a and b in their longest common
 * subsequence. */
static void lcs(char **a, size_t na, char **b, size_t nb, unsigned char *ka, unsigned char *kb)
{
    size_t *t = pr_xcalloc((na + 1) * (nb + 1), sizeof *t);
#define T(i, j) t[(i) * (nb + 1) + (j)]
    for (size_t i = na; i-- > 0;)
        for (size_t j = nb; j-- > 0;)
            T(i, j) = strcmp(a[i], b[j]) == 0      ? T(i + 1, j + 1) + 1
                      : T(i + 1, j) >= T(i, j + 1) ? T(i + 1, j)
                                                   : T(i, j + 1);
    for (size_t i = 0, j = 0; i < na && j < nb;) {
        if (strcmp(a[i], b[j]) == 0) {
            ka[i++] = kb[j++] = 1;
        } else if (T(i + 1, j) >= T(i, j + 1)) {
            i++;
        } else {
            j++;
        }
    }
#undef T
    free(t);
}

/* {"what": "command", ...} for run sets ra and rb when their argv differ. */
static void command_diff(const pr_dataset *d, const pr_run *ra, const pr_run *rb, json_t *diffs)
{
    size_t na, nb;
    char **a = run_argv(d, ra, &na), **b = run_argv(d, rb, &nb);
    unsigned char *ka = pr_xcalloc(na + 1, 1), *kb = pr_xcalloc(nb + 1, 1);
    lcs(a, na, b, nb, ka, kb);
    int same = na == nb;
    for (size_t i = 0; same && i < na; i++)
        same = ka[i];
    if (!same && (na || nb)) {
        pr_buf wa = PR_BUF_INIT, wb = PR_BUF_INIT, ca = PR_BUF_INIT, cb = PR_BUF_INIT;
        argv_words(a, na, &wa);
        argv_words(b, nb, &wb);
        argv_changed(a, na, ka, &ca);
        argv_changed(b, nb, kb, &cb);
        /* json_object_set_new steals the new strings */
        json_t *it =
            json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "what", "command", "a_run", ra->name,
                      "b_run", rb->name, "a", pr_buf_cstr(&wa), "b", pr_buf_cstr(&wb), "a_changed",
                      pr_buf_cstr(&ca), "b_changed", pr_buf_cstr(&cb));
        json_array_append_new(diffs, it);
        pr_buf_free(&wa);
        pr_buf_free(&wb);
        pr_buf_free(&ca);
        pr_buf_free(&cb);
    }
    for (size_t i = 0; i < na; i++)
        free(a[i]);
    for (size_t i = 0; i < nb; i++)
        free(b[i]);
    free(a);
    free(b);
    free(ka);
    free(kb);
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The framework versions the side's records state, sorted, ", "-joined;
 * "" when none. */
static char *versions(const abmodel_side *s)
{
    json_t *set = json_object();
    for (size_t i = 0; i < s->nruns; i++)
        for (size_t j = 0; j < s->runs[i]->nrecords; j++) {
            const char *v = s->runs[i]->records[j].framework_version;
            if (v)
                json_object_set_new(set, v, json_true());
        }
    size_t n = json_object_size(set), k = 0;
    const char **keys = pr_xcalloc(n + 1, sizeof *keys);
    const char *key;
    json_t *val;
    json_object_foreach(set, key, val) keys[k++] = key;
    pr_qsort(keys, n, sizeof *keys, str_cmp);
    pr_buf b = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++)
        pr_buf_printf(&b, "%s%s", i ? ", " : "", keys[i]);
    free(keys);
    json_decref(set);
    return pr_buf_detach(&b);
}

/* A published side's revisions: "LABEL DATE (commit C)" per table source,
 * each once, "; "-joined. */
static char *revisions(const abmodel_side *s)
{
    pr_buf b = PR_BUF_INIT;
    json_t *seen = json_object();
    for (size_t i = 0; i < s->npubs; i++) {
        const pr_pub_table *t = s->pubs[i];
        char *one = t->source_commit
                        ? pr_xasprintf("%s %s (%.8s)", t->label, t->date, t->source_commit)
                        : pr_xasprintf("%s %s", t->label, t->date);
        if (!json_object_get(seen, one)) {
            json_object_set_new(seen, one, json_true());
            pr_buf_printf(&b, "%s%s", b.len ? "; " : "", one);
        }
        free(one);
    }
    json_decref(seen);
    return pr_buf_detach(&b);
}

static json_t *differences(const pr_dataset *d, const abmodel_cmp *c)
{
    json_t *diffs = json_array();
    for (size_t i = 0; i < c->a.nruns; i++)
        for (size_t j = 0; j < c->b.nruns; j++) {
            const pr_run *ra = c->a.runs[i], *rb = c->b.runs[j];
            json_t *rd = runset_diff(ra, rb);
            size_t k;
            json_t *it;
            json_array_foreach(rd, k, it)
            {
                json_object_set_new(it, "a_run", json_string(ra->name));
                json_object_set_new(it, "b_run", json_string(rb->name));
            }
            json_array_extend(diffs, rd);
            json_decref(rd);
            command_diff(d, ra, rb, diffs);
        }
    if (c->a.nruns && c->b.nruns) {
        char *va = versions(&c->a), *vb = versions(&c->b);
        if (strcmp(va, vb) != 0)
            json_array_append_new(
                diffs, json_pack("{s:s,s:s,s:s}", "what", "framework_version", "a", va, "b", vb));
        free(va);
        free(vb);
    }
    if (c->a.npubs || c->b.npubs) {
        char *ra = revisions(&c->a), *rb = revisions(&c->b);
        if (strcmp(ra, rb) != 0)
            json_array_append_new(diffs,
                                  json_pack("{s:s,s:s,s:s}", "what", "source", "a", ra, "b", rb));
        free(ra);
        free(rb);
    }
    return diffs;
}

/* Frees p and the values not moved to a cell. */
static void free_pools(pools *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->v[i].h.values);
        free(p->v[i].h.unsteady);
        free(p->v[i].smp);
    }
    free(p->v);
}

/* 1 when some cell of a and some of b share a platform. */
static int share_platform(const pools *a, const pools *b)
{
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = 0; j < b->n; j++)
            if (a->v[i].key.platform == b->v[j].key.platform)
                return 1;
    return 0;
}

static void add_only(abmodel_cmp *c, const pool *x, int side)
{
    c->only = pr_xrealloc(c->only, (c->nonly + 1) * sizeof *c->only);
    c->only[c->nonly++] = (abmodel_only){x->key, side, x->h.n};
}

/* The gate of cell x (abmodel.h): its ABM_GATE_* bits. */
static unsigned gate_of(const abmodel_cell *x, double max_effect)
{
    const pr_abstat_result *r = &x->r;
    if (!r->m || !r->n) /* no run on a side: insufficient, nothing to gate */
        return 0;
    /* 1e-300 against 1e300: a ratio past DBL_MAX, an interval of inf or 0 */
    if (!(isfinite(r->ratio) && r->ratio > 0) ||
        (r->k && !(isfinite(r->lo) && isfinite(r->hi) && r->lo > 0 && r->lo <= r->hi)))
        return ABM_GATE_RANGE;
    unsigned g = 0;
    if (x->a.nunsteady || x->b.nunsteady)
        g |= ABM_GATE_UNSTEADY;
    if (max_effect > 1 && (r->ratio > max_effect || r->ratio < 1 / max_effect))
        g |= ABM_GATE_IMPLAUSIBLE;
    return g;
}

int abmodel_judged(const abmodel_cmp *c)
{
    return !c->refused && c->ncells > c->not_judged;
}

/* The direction of a side's unit: its record's, else its published
 * table's. */
static pr_unitdir_dir half_dir(const abmodel_half *h)
{
    return pr_unitdir_of(h->rec ? h->rec->unit : h->pub ? h->pub->unit : NULL);
}

int abmodel_build(const pr_dataset *d, const comparisons_sel *a, const comparisons_sel *b,
                  double delta, double max_effect, abmodel_cmp **out, pr_err *err)
{
    if (!(delta > 0 && delta < 1))
        return pr_err_set(err, NULL, 0, 0, "delta", "%g is not a fraction in (0, 1)", delta);
    if (!(max_effect == 0 || (max_effect > 1 && isfinite(max_effect))))
        return pr_err_set(err, NULL, 0, 0, "max_effect", "%g is not a ratio > 1", max_effect);
    const comparisons_sel *sels[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (!comparisons_sel_count(sels[i], d))
            return pr_err_set(err, NULL, 0, 0, i ? "B" : "A", "\"%s\" selects no %s", sels[i]->text,
                              sels[i]->kind == CD_SEL_PUBLISHED ? "published table" : "run set");
    const char *both = comparisons_sel_shared(d, a, b);
    if (both)
        return pr_err_set(err, NULL, 0, 0, NULL,
                          "A (\"%s\") and B (\"%s\") both select %s: a run set compared with "
                          "itself is no comparison",
                          a->text, b->text, both);
    abmodel_cmp *c = pr_xcalloc(1, sizeof *c);
    c->delta = delta;
    c->max_effect = max_effect;
    samples_set *ss = samples_build(d);
    pools pa = {NULL, 0}, pb = {NULL, 0};
    gather(d, ss, a, &c->a, &pa);
    gather(d, ss, b, &c->b, &pb);
    c->refused = pa.n && pb.n && !share_platform(&pa, &pb);
    double *cov = pr_xcalloc(pa.n + 1, sizeof *cov);
    for (size_t i = 0, j = 0; i < pa.n || j < pb.n;) {
        int k = i >= pa.n ? 1 : j >= pb.n ? -1 : samples_key_cmp(&pa.v[i].key, &pb.v[j].key);
        if (k < 0 || (k == 0 && c->refused)) {
            add_only(c, &pa.v[i++], 0);
            continue;
        }
        if (k > 0) {
            add_only(c, &pb.v[j++], 1);
            continue;
        }
        c->cells = pr_xrealloc(c->cells, (c->ncells + 1) * sizeof *c->cells);
        abmodel_cell *x = &c->cells[c->ncells++];
        memset(x, 0, sizeof *x);
        x->key = pa.v[i].key;
        x->a = pa.v[i].h;
        x->b = pb.v[j].h;
        /* the values move to the cell */
        pa.v[i].h.values = pb.v[j].h.values = NULL;
        pa.v[i].h.unsteady = pb.v[j].h.unsteady = NULL;
        /* values are positive (records and published rows are checked);
         * pr_abstat_compare refuses nothing here.  A time is compared the
         * other way round (B's against A's): on the log scale that is the
         * speed ratio, and "faster" means less time. */
        x->dir = half_dir(&x->a);
        int lower = x->dir == PR_DIR_LOWER;
        int bad = lower ? pr_abstat_compare(x->b.values, x->b.n, x->a.values, x->a.n, delta, &x->r)
                        : pr_abstat_compare(x->a.values, x->a.n, x->b.values, x->b.n, delta, &x->r);
        if (lower && !bad) {
            x->r.m = x->a.n;
            x->r.n = x->b.n;
        }
        if (bad < 0) {
            memset(&x->r, 0, sizeof x->r);
            x->r.verdict = PR_AB_INSUFFICIENT;
            x->r.ratio = x->r.lo = x->r.hi = NAN;
        }
        x->gate = gate_of(x, max_effect);
        if (x->gate) {
            c->not_judged++;
        } else {
            c->counts[x->r.verdict]++;
            cov[c->ncells - 1 - c->not_judged] = x->r.coverage;
        }
        i++, j++;
    }
    c->expected_false = pr_abstat_expected_false(cov, c->ncells - c->not_judged);
    free(cov);
    c->diffs = differences(d, c);
    free_pools(&pa);
    free_pools(&pb);
    /* the cells borrow keys, records and tables from d, not from ss */
    samples_free(ss);
    *out = c;
    return 0;
}

void abmodel_free(abmodel_cmp *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->ncells; i++) {
        free(c->cells[i].a.values);
        free(c->cells[i].b.values);
        free(c->cells[i].a.unsteady);
        free(c->cells[i].b.unsteady);
    }
    free(c->cells);
    free(c->only);
    free(c->a.runs);
    free(c->a.pubs);
    free(c->b.runs);
    free(c->b.pubs);
    json_decref(c->diffs);
    free(c);
}
