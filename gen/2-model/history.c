#include "history.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/runset.h"
#include "base/md.h"
#include "fileio.h"
#include "stats.h"
#include "unitdir.h"

static int str_cmp0(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

/* Orders series: cell, reproduced before published, source label, repo. */
static int series_cmp(const void *pa, const void *pb)
{
    const history_series *a = pa, *b = pb;
    int c = samples_key_cmp(&a->key, &b->key);
    if (c)
        return c;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if ((c = str_cmp0(a->label, b->label)))
        return c;
    return str_cmp0(a->repo, b->repo);
}

/* Orders published points by date, then the table's file and position. */
static int point_cmp(const void *pa, const void *pb)
{
    const history_point *a = pa, *b = pb;
    int c = strcmp(a->date, b->date);
    if (c)
        return c;
    if ((c = strcmp(a->pub->file, b->pub->file)))
        return c;
    return (a->pub->index > b->pub->index) - (a->pub->index < b->pub->index);
}

static history_series *add_series(history_set *s, history_kind kind, const samples_key *k)
{
    s->v = pr_xrealloc(s->v, (s->n + 1) * sizeof *s->v);
    history_series *x = &s->v[s->n++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->key = *k;
    return x;
}

static history_point *add_point(history_series *x)
{
    x->pts = pr_xrealloc(x->pts, (x->n + 1) * sizeof *x->pts);
    history_point *p = &x->pts[x->n++];
    memset(p, 0, sizeof *p);
    p->lo = p->hi = p->coverage = p->lim_lo = p->lim_hi = NAN;
    return p;
}

/* The reproduced series: consecutive samples of one key (samples_build's
 * order: by key, then date), experiments and samples without a run left
 * out. */
static void add_reproduced(history_set *s, const samples_set *sm)
{
    history_series *cur = NULL;
    for (size_t i = 0; i < samples_count(sm); i++) {
        const samples_sample *x = samples_at(sm, i);
        if (runset_is_experiment(x->run) || !x->nvalues || !x->last[0])
            continue;
        if (!cur || samples_key_cmp(&cur->key, &x->key)) {
            cur = add_series(s, HS_REPRODUCED, &x->key);
            cur->unit = x->link_rec ? x->link_rec->unit : NULL;
        }
        history_point *p = add_point(cur);
        snprintf(p->date, sizeof p->date, "%s", x->last);
        p->value = x->median;
        p->runs = x->nvalues;
        p->run = x->run;
        p->link_rec = x->link_rec;
        double cov;
        size_t k = pr_stats_median_ci(x->nvalues, &cov);
        if (k) {
            p->lo = x->values[k - 1];
            p->hi = x->values[x->nvalues - k];
            p->coverage = cov;
        }
    }
}

/* 1 when s reads YYYY-MM-DD (a table's source.date is free text). */
static int is_ymd(const char *s)
{
    for (int i = 0; i < 10; i++)
        if (i == 4 || i == 7 ? s[i] != '-' : !isdigit((unsigned char)s[i]))
            return 0;
    return s[10] == '\0';
}

/* The published series: every table with a platform and a date
 * (YYYY-MM-DD), each row with a figure, one series per source and cell. */
static void add_published(history_set *s, const pr_dataset *d)
{
    size_t first = s->n;
    for (size_t i = 0; i < d->npubs; i++) {
        const pr_pub_table *t = &d->pubs[i];
        if (!t->platform || !t->date || !is_ymd(t->date))
            continue;
        for (size_t j = 0; j < t->nrows; j++) {
            const pr_pub_row *r = &t->rows[j];
            if (!r->has_value || !(r->value > 0))
                continue;
            samples_key k = {t->model,      t->framework, t->precision, t->platform,
                             t->batch_size, r->nodes,     r->gpus};
            history_series *x = NULL;
            for (size_t q = first; q < s->n && !x; q++)
                if (!samples_key_cmp(&s->v[q].key, &k) && !str_cmp0(s->v[q].label, t->label) &&
                    !str_cmp0(s->v[q].repo, t->source_repo))
                    x = &s->v[q];
            if (!x) {
                x = add_series(s, HS_PUBLISHED, &k);
                x->label = t->label;
                x->repo = t->source_repo;
                x->unit = t->unit;
            }
            history_point *p = add_point(x);
            snprintf(p->date, sizeof p->date, "%s", t->date);
            p->value = r->value;
            p->runs = 1;
            p->pub = t;
            p->row = r;
        }
    }
    for (size_t q = first; q < s->n; q++)
        qsort(s->v[q].pts, s->v[q].n, sizeof *s->v[q].pts, point_cmp);
}

/* Appends the [a-z0-9-] form of s to out: letters lowered, runs of
 * anything else one dash. */
static void slugify(pr_buf *out, const char *s)
{
    int dash = 1;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c < 0x80 && isalnum(*c)) {
            pr_buf_putc(out, tolower(*c));
            dash = 0;
        } else if (!dash) {
            pr_buf_putc(out, '-');
            dash = 1;
        }
    }
    if (out->len && out->data[out->len - 1] == '-')
        out->len--;
}

static void make_ids(history_series *x)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_printf(&b, "%s/%s/%s/%s/bs%d/%dx%d", x->key.model, x->key.framework, x->key.platform->id,
                  x->key.precision, x->key.bs, x->key.nodes, x->key.gpus);
    if (x->kind == HS_PUBLISHED)
        pr_buf_printf(&b, "/published/%s", x->label ? x->label : "");
    x->id = pr_buf_detach(&b);
    pr_buf_printf(&b, "%s/%s/bs%d/%dx%d", x->key.platform->id, x->key.precision, x->key.bs,
                  x->key.nodes, x->key.gpus);
    if (x->kind == HS_PUBLISHED)
        pr_buf_printf(&b, "/%s", x->label ? x->label : "published");
    pr_buf sl = PR_BUF_INIT;
    slugify(&sl, pr_buf_cstr(&b));
    x->slug = pr_buf_detach(&sl);
    pr_buf_clear(&b);
    pr_buf_printf(&b, "history/");
    slugify(&b, x->key.model);
    pr_buf_putc(&b, '/');
    slugify(&b, x->key.framework);
    pr_buf_printf(&b, "/%s", x->slug);
    x->tag = pr_buf_detach(&b);
}

/* Orders mark m against series x as series_cmp orders series, the repo
 * left out (a mark names a published source by its label). */
static int mark_cmp(const history_decl_mark *m, const history_series *x)
{
    samples_key k = {m->model, m->framework, m->precision, m->platform, m->bs, m->nodes, m->gpus};
    int c = samples_key_cmp(&k, &x->key);
    if (c)
        return c;
    history_kind kind = m->source ? HS_PUBLISHED : HS_REPRODUCED;
    if (kind != x->kind)
        return kind < x->kind ? -1 : 1;
    return str_cmp0(m->source, x->label);
}

typedef struct {
    size_t series, point, mark;
} mark_at;

static int mark_at_cmp(const void *pa, const void *pb)
{
    const mark_at *a = pa, *b = pb;
    if (a->series != b->series)
        return a->series < b->series ? -1 : 1;
    return (a->mark > b->mark) - (a->mark < b->mark);
}

typedef struct {
    const char *date;
    size_t i;
} dated;

static int dated_cmp(const void *pa, const void *pb)
{
    const dated *a = pa, *b = pb;
    int c = strcmp(a->date, b->date);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* The first point after the first of series x dated date, or 0 (none);
 * *idx is x's points sorted by date, made on first use (the caller frees). */
static size_t point_on(const history_series *x, dated **idx, const char *date)
{
    if (!*idx) {
        *idx = pr_xmalloc(x->n * sizeof **idx);
        for (size_t j = 0; j < x->n; j++)
            (*idx)[j] = (dated){x->pts[j].date, j};
        qsort(*idx, x->n, sizeof **idx, dated_cmp);
    }
    size_t lo = 0, hi = x->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp((*idx)[mid].date, date) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < x->n && !strcmp((*idx)[lo].date, date); lo++)
        if ((*idx)[lo].i > 0)
            return (*idx)[lo].i;
    return 0;
}

/* Where every mark of d applies: the point of each series it names (one
 * series, or several sources of one label), sorted by series then mark, into
 * *out (the caller frees).  A mark naming no step after the first point of
 * some series is an error, the first in the file's order reported.  Binary
 * searches: 2·10^4 pins on one series were a scan of every series and point
 * per mark. */
static int locate_marks(const pr_dataset *d, const history_set *s, mark_at **out, size_t *nout,
                        pr_err *err)
{
    mark_at *v = NULL;
    size_t n = 0, cap = 0;
    dated **idx = pr_xcalloc(s->n + 1, sizeof *idx);
    int rc = -1;
    for (size_t i = 0; i < d->history.nmarks; i++) {
        const history_decl_mark *m = &d->history.marks[i];
        size_t lo = 0, hi = s->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (mark_cmp(m, &s->v[mid]) > 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        int series = 0, found = 0;
        for (size_t q = lo; q < s->n && !mark_cmp(m, &s->v[q]); q++) {
            series = 1;
            size_t at = point_on(&s->v[q], &idx[q], m->date);
            if (!at)
                continue;
            found = 1;
            if (n == cap)
                v = pr_xrealloc(v, (cap = cap ? 2 * cap : 16) * sizeof *v);
            v[n++] = (mark_at){q, at, i};
        }
        if (!found) {
            char *w = history_decl_where(&d->history, m);
            pr_err_set(err, NULL, 0, 0, NULL, "%s: %s", w,
                       series ? "no point of the series after its first has this date"
                              : "no history series (of two points or more) is this "
                                "cell and source");
            free(w);
            goto out;
        }
    }
    if (n)
        qsort(v, n, sizeof *v, mark_at_cmp);
    *out = v;
    *nout = n;
    v = NULL;
    rc = 0;
out:
    for (size_t q = 0; q < s->n; q++)
        free(idx[q]);
    free(idx);
    free(v);
    return rc;
}

/* How limits lo .. hi (throughput; NAN: none) judge in series x: none,
 * wider than the series' own range (in log: the ratio hi/lo beyond
 * max/min), or informative. */
static history_band band_of(const history_series *x, double lo, double hi)
{
    if (!isfinite(lo) || !isfinite(hi))
        return HS_BAND_NONE;
    return log(hi) - log(lo) > log(x->range_hi) - log(x->range_lo) ? HS_BAND_WIDE : HS_BAND_OK;
}

/* What x can test (docs/statistics.md#history): its range, each point's
 * judging band, the current band, the steps seen and unjudged (v: the log
 * values). */
static void testability(history_series *x, const double *v)
{
    x->range_lo = x->range_hi = x->pts[0].value;
    for (size_t i = 1; i < x->n; i++) {
        x->range_lo = fmin(x->range_lo, x->pts[i].value);
        x->range_hi = fmax(x->range_hi, x->pts[i].value);
    }
    double *spread = pr_xmalloc(x->n * sizeof *spread);
    pr_trend_step_spreads(v, x->n, spread);
    x->nseen = 0;
    for (size_t i = 0; i < x->n; i++) {
        history_point *p = &x->pts[i];
        p->spread = spread[i];
        p->judged = band_of(x, p->lim_lo, p->lim_hi);
        p->step = i ? expm1(v[i] - v[i - 1]) : NAN;
        p->step_seen = i && isfinite(p->spread) && !p->change && !p->mark &&
                       p->state == PR_TREND_OK && p->judged != HS_BAND_OK &&
                       fabs(v[i] - v[i - 1]) > PR_TREND_STEP_FACTOR * p->spread;
        x->nseen += p->step_seen;
    }
    free(spread);
    x->band = band_of(x, x->band_lo, x->band_hi);
    x->cp_testable = x->n >= HS_CP_POINTS;
    x->testable = x->cp_testable || x->band == HS_BAND_OK;
}

/* Change points, states and limits of x with its marks (ms[0 .. nm-1],
 * locate_marks' entries of this series). */
static int judge(const pr_dataset *d, history_series *x, const mark_at *ms, size_t nm, pr_err *err)
{
    size_t n = x->n, *pins = pr_xcalloc(nm + 1, sizeof *pins),
           *vetoes = pr_xcalloc(nm + 1, sizeof *vetoes), np = 0, nv = 0;
    double *v = pr_xcalloc(n, sizeof *v), *lo = pr_xcalloc(n, sizeof *lo),
           *hi = pr_xcalloc(n, sizeof *hi), *pvals = NULL;
    pr_trend_state *st = pr_xcalloc(n, sizeof *st);
    size_t *cps = NULL, ncps = 0;
    int rc = -1;
    for (size_t i = 0; i < n; i++)
        v[i] = log(x->pts[i].value);
    for (size_t i = 0; i < nm; i++) {
        const history_decl_mark *m = &d->history.marks[ms[i].mark];
        x->pts[ms[i].point].mark = m;
        if (m->veto)
            vetoes[nv++] = ms[i].point;
        else
            pins[np++] = ms[i].point;
    }
    pr_trend_opts o;
    pr_trend_opts_default(&o);
    o.pinned = pins;
    o.npinned = np;
    o.vetoed = vetoes;
    o.nvetoed = nv;
    if (pr_trend_change_points(v, n, &o, &cps, &pvals, &ncps) < 0) {
        pr_err_set(err, NULL, 0, 0, NULL, "%s: invalid pins or vetoes", x->id);
        goto out;
    }
    pr_trend_judge(v, n, cps, ncps, PR_TREND_ALPHA, st, lo, hi);
    /* A time (lower is better) regresses when it rises. */
    int lower = pr_unitdir_lower(x->unit);
    for (size_t i = 0; i < n; i++) {
        x->pts[i].state = lower ? pr_trend_state_lower(st[i]) : st[i];
        x->pts[i].lim_lo = exp(lo[i]);
        x->pts[i].lim_hi = exp(hi[i]);
    }
    for (size_t i = 0; i < ncps; i++) {
        x->pts[cps[i]].change = 1;
        x->pts[cps[i]].pvalue = pvals ? pvals[i] : NAN;
    }
    x->ncps = ncps;
    size_t seg = ncps ? cps[ncps - 1] : 0;
    double blo, bhi;
    x->band_lo = x->band_hi = NAN;
    if (pr_trend_prediction(v + seg, n - seg, PR_TREND_ALPHA, &blo, &bhi) == 0) {
        x->band_lo = exp(blo);
        x->band_hi = exp(bhi);
    }
    testability(x, v);
    rc = 0;
out:
    free(pins);
    free(vetoes);
    free(v);
    free(lo);
    free(hi);
    free(st);
    free(cps);
    free(pvals);
    return rc;
}

int history_build(const pr_dataset *d, history_set **out, pr_err *err)
{
    history_set *s = pr_xcalloc(1, sizeof *s);
    samples_set *sm = samples_build(d);
    mark_at *marks = NULL;
    size_t nmarks = 0;
    int rc = -1;
    add_reproduced(s, sm);
    add_published(s, d);
    /* Only series of two points or more are history. */
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->v[i].n >= 2)
            s->v[k++] = s->v[i];
        else
            free(s->v[i].pts);
    }
    s->n = k;
    if (s->n)
        qsort(s->v, s->n, sizeof *s->v, series_cmp);
    for (size_t i = 0; i < s->n; i++)
        make_ids(&s->v[i]);
    if (locate_marks(d, s, &marks, &nmarks, err) < 0)
        goto out;
    for (size_t i = 0, k = 0; i < s->n; i++) {
        size_t from = k;
        while (k < nmarks && marks[k].series == i)
            k++;
        if (judge(d, &s->v[i], marks + from, k - from, err) < 0)
            goto out;
        s->ntestable += s->v[i].testable;
    }
    *out = s;
    s = NULL;
    rc = 0;
out:
    free(marks);
    samples_free(sm);
    history_free(s);
    return rc;
}

void history_free(history_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].pts);
        free(s->v[i].id);
        free(s->v[i].slug);
        free(s->v[i].tag);
    }
    free(s->v);
    free(s);
}

int history_point_notable(const history_point *p)
{
    return p->change || p->state != PR_TREND_OK || p->step_seen;
}

const char *history_band_key(history_band b)
{
    return b == HS_BAND_OK ? "informative" : b == HS_BAND_WIDE ? "not_informative" : "none";
}

const char *history_newest_date(const history_set *s)
{
    const char *best = "";
    for (size_t i = 0; i < s->n; i++)
        for (size_t j = 0; j < s->v[i].n; j++)
            if (strcmp(s->v[i].pts[j].date, best) > 0)
                best = s->v[i].pts[j].date;
    return best;
}

/* ------------------------------------------------------------ JSON, CSV */

/* A step as JSON and CSV give it: the relative change to 6 decimals (the
 * digits beyond are the log's rounding, not data). */
static double step_out(double step)
{
    return isfinite(step) ? md_round(step, 6) : step;
}

/* A finite number as JSON, else null (a new reference). */
static json_t *jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* Where point p came from: the revision's URL, or the run set and log. */
static const char *point_source(const history_point *p, const char **log)
{
    *log = NULL;
    if (p->pub)
        return p->pub->source_url;
    if (p->link_rec)
        *log = p->link_rec->log_file;
    return p->run->name;
}

json_t *history_to_json(const history_set *s)
{
    json_t *root = json_object(), *arr = json_array();
    json_object_set_new(root, "perfrepro", json_integer(1));
    json_object_set_new(root, "testable_series", json_integer((json_int_t)s->ntestable));
    json_object_set_new(root, "series", arr); /* steals arr; filled below */
    for (size_t i = 0; i < s->n; i++) {
        const history_series *x = &s->v[i];
        json_t *o = json_object(), *pts = json_array(), *cps = json_array();
        json_object_set_new(o, "id", json_string(x->id));
        json_object_set_new(o, "kind",
                            json_string(x->kind == HS_PUBLISHED ? "published" : "reproduced"));
        json_object_set_new(o, "model", json_string(x->key.model));
        json_object_set_new(o, "framework", json_string(x->key.framework));
        json_object_set_new(o, "platform", json_string(x->key.platform->id));
        json_object_set_new(o, "precision", json_string(x->key.precision));
        json_object_set_new(o, "batch_size", json_integer(x->key.bs));
        json_object_set_new(o, "nodes", json_integer(x->key.nodes));
        json_object_set_new(o, "gpus", json_integer(x->key.gpus));
        if (x->kind == HS_PUBLISHED) {
            json_object_set_new(o, "source", x->label ? json_string(x->label) : json_null());
            json_object_set_new(o, "repo", x->repo ? json_string(x->repo) : json_null());
        }
        json_object_set_new(o, "unit", x->unit ? json_string(x->unit) : json_null());
        json_object_set_new(o, "testable", json_boolean(x->testable));
        json_object_set_new(o, "change_points_testable", json_boolean(x->cp_testable));
        json_object_set_new(o, "band", json_string(history_band_key(x->band)));
        json_object_set_new(o, "range_lo", jnum(x->range_lo));
        json_object_set_new(o, "range_hi", jnum(x->range_hi));
        for (size_t j = 0; j < x->n; j++) {
            const history_point *p = &x->pts[j];
            json_t *q = json_object();
            const char *log, *src = point_source(p, &log);
            json_object_set_new(q, "date", json_string(p->date));
            json_object_set_new(q, "value", json_real(p->value));
            if (p->row && p->row->printed)
                json_object_set_new(q, "printed", json_string(p->row->printed));
            json_object_set_new(q, "lo", jnum(p->lo));
            json_object_set_new(q, "hi", jnum(p->hi));
            json_object_set_new(q, "coverage", jnum(p->coverage));
            json_object_set_new(q, "runs", json_integer((json_int_t)p->runs));
            json_object_set_new(q, "state", json_string(pr_trend_state_key(p->state)));
            json_object_set_new(q, "limit_lo", jnum(p->lim_lo));
            json_object_set_new(q, "limit_hi", jnum(p->lim_hi));
            json_object_set_new(q, "judged", json_string(history_band_key(p->judged)));
            json_object_set_new(q, "step", jnum(step_out(p->step)));
            json_object_set_new(q, "usual_spread", jnum(p->spread));
            json_object_set_new(q, "step_seen", json_boolean(p->step_seen));
            json_object_set_new(q, "change_point", json_boolean(p->change));
            if (p->change)
                json_object_set_new(q, "pvalue", jnum(p->pvalue));
            if (p->mark)
                json_object_set_new(q, p->mark->veto ? "vetoed" : "pinned", json_true());
            if (x->kind == HS_PUBLISHED) {
                json_object_set_new(q, "url", src ? json_string(src) : json_null());
                json_object_set_new(q, "commit",
                                    p->pub->source_commit ? json_string(p->pub->source_commit)
                                                          : json_null());
            } else {
                json_object_set_new(q, "run_set", json_string(src));
                json_object_set_new(q, "log", log ? json_string(log) : json_null());
            }
            json_array_append_new(pts, q);
            if (p->change)
                json_array_append_new(cps, json_string(p->date));
        }
        json_object_set_new(o, "points", pts);
        json_object_set_new(o, "change_points", cps);
        json_object_set_new(o, "band_lo", jnum(x->band_lo));
        json_object_set_new(o, "band_hi", jnum(x->band_hi));
        json_array_append_new(arr, o);
    }
    return root;
}

/* A CSV field (md.h, md_csv_field: quoted when needed, a formula made
 * text), then the separator or the record's end. */
static void csv_field(pr_buf *out, const char *s, int last)
{
    md_csv_field(out, s ? s : "");
    pr_buf_puts(out, last ? "\r\n" : ",");
}

/* A number in its shortest form, "" when not finite. */
static void csv_num(pr_buf *out, double v)
{
    if (isfinite(v))
        pr_buf_printf(out, "%.*f", pr_stats_shortest_decimals(v), v);
    pr_buf_printf(out, ",");
}

void history_to_csv(const history_set *s, pr_buf *out)
{
    static const char *const heads[] = {
        "series",    "kind",       "model",        "framework", "platform",
        "precision", "batch_size", "nodes",        "gpus",      "source",
        "date",      "value",      "lo",           "hi",        "coverage",
        "runs",      "state",      "limit_lo",     "limit_hi",  "judged",
        "step",      "step_seen",  "change_point", "mark",      "series_testable",
        "link",      NULL};
    for (size_t i = 0; heads[i]; i++)
        csv_field(out, heads[i], !heads[i + 1]);
    for (size_t i = 0; i < s->n; i++) {
        const history_series *x = &s->v[i];
        for (size_t j = 0; j < x->n; j++) {
            const history_point *p = &x->pts[j];
            const char *log, *src = point_source(p, &log);
            csv_field(out, x->id, 0);
            csv_field(out, x->kind == HS_PUBLISHED ? "published" : "reproduced", 0);
            csv_field(out, x->key.model, 0);
            csv_field(out, x->key.framework, 0);
            csv_field(out, x->key.platform->id, 0);
            csv_field(out, x->key.precision, 0);
            pr_buf_printf(out, "%d,%d,%d,", x->key.bs, x->key.nodes, x->key.gpus);
            csv_field(out, x->label, 0);
            csv_field(out, p->date, 0);
            if (p->row && p->row->printed)
                csv_field(out, p->row->printed, 0);
            else
                csv_num(out, p->value);
            csv_num(out, p->lo);
            csv_num(out, p->hi);
            csv_num(out, p->coverage);
            pr_buf_printf(out, "%zu,", p->runs);
            csv_field(out, pr_trend_state_key(p->state), 0);
            csv_num(out, p->lim_lo);
            csv_num(out, p->lim_hi);
            csv_field(out, history_band_key(p->judged), 0);
            csv_num(out, step_out(p->step));
            csv_field(out, p->step_seen ? "yes" : "no", 0);
            csv_field(out, p->change ? "yes" : "no", 0);
            csv_field(out, !p->mark ? "" : p->mark->veto ? "vetoed" : "pinned", 0);
            csv_field(out, x->testable ? "yes" : "no", 0);
            pr_buf b = PR_BUF_INIT;
            if (log)
                pr_buf_printf(&b, "%s/%s", src, log);
            else
                pr_buf_printf(&b, "%s", src ? src : "");
            csv_field(out, pr_buf_cstr(&b), 1);
            pr_buf_free(&b);
        }
    }
}
