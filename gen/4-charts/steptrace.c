/* steptrace: a record's step trace on its framework page (steptrace.h). */
#include "steptrace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/md.h"
#include "base/workers.h"
#include "chart_trace.h"
#include "stats.h"
#include "unitdir.h"

/* ---------------------------------------------------------------- names */

/* A file name part made of [a-z0-9.-] only: data never names files freely. */
static void slug(pr_buf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        pr_buf_putc(out, (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ? c : '-');
    }
}

/* The base name of rec's trace files: RUN.RECORD, the record's file name
 * without "_speed"; the caller frees it. */
static char *trace_base(const pr_run *run, const pr_record *rec)
{
    pr_buf b = PR_BUF_INIT;
    slug(&b, run->name, strlen(run->name));
    pr_buf_putc(&b, '.');
    size_t i = (size_t)(rec - run->records);
    const char *file = i < run->nrecords ? run->record_files[i] : rec->case_name;
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t n = strlen(base);
    if (n > 6 && strcmp(base + n - 6, "_speed") == 0)
        n -= 6;
    slug(&b, base, n);
    return pr_buf_detach(&b);
}

/* ---------------------------------------------------------------- model */

/* A stall found, for the alt text. */
typedef struct stall {
    double x, v;
    long long line;
} stall;

/* The chart and what the alt text says of it. */
typedef struct st_model {
    chart_trace_point *pts;
    size_t n;
    double *wins, *breaks;
    size_t nwins, nbreaks;
    double xmax, figure, factor, median, threshold; /* the first run's */
    char fig_text[32];
    int per_card, nruns;
    /* Stalls looked for: below the line for a rate, above it for a time
     * (lower is better: a stall is a slow step). */
    int stalls_on, slow_is_high;
    long long bin; /* the most records a point of a run holds */
    long long records, other, trim_low, trim_high, marked, none;
    pr_buf warm, window; /* step ranges, "11–120" (several runs: ", ") */
    stall *stalls;
    size_t nstalls;
} st_model;

static void model_free(st_model *m)
{
    free(m->pts);
    free(m->wins);
    free(m->breaks);
    free(m->stalls);
    pr_buf_free(&m->warm);
    pr_buf_free(&m->window);
}

static int window_code(char c)
{
    return c && strchr("KLHMPNUX", c) != NULL;
}

static void put_range(pr_buf *b, double a, double z)
{
    if (b->len)
        pr_buf_puts(b, ", ");
    if (a == z)
        pr_buf_printf(b, "%.0f", a);
    else
        pr_buf_printf(b, "%.0f–%.0f", a, z);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0..n) (n > 0), which it sorts. */
static double median_of(double *v, size_t n)
{
    pr_qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Stalls are looked for in runs of at least this many used records. */
enum { ST_STALL_MIN = 5 };

/* One run of the trace into m: its points from step *x on (records of
 * other steps and ranks are not drawn), its window, warm-up range and
 * stalls. */
static void model_run(st_model *m, json_t *run, double *x)
{
    const char *st = json_string_value(json_object_get(run, "status"));
    json_t *lines = json_object_get(run, "lines"), *vals = json_object_get(run, "values");
    json_t *maxs = json_object_get(run, "max");
    long long bin = json_integer_value(json_object_get(run, "bin"));
    long long records = json_integer_value(json_object_get(run, "records"));
    size_t np = strlen(st), first = m->n;
    double w0 = NAN, w1 = NAN, u0 = NAN, u1 = NAN;
    double *used = pr_xcalloc(np + 1, sizeof *used);
    size_t nused = 0, *src = pr_xcalloc(np + 1, sizeof *src); /* point -> index in run */
    if (bin > m->bin)
        m->bin = bin;
    for (size_t i = 0; i < np; i++) {
        /* the records the point holds (the last bin may hold fewer) */
        long long held = records - (long long)i * bin < bin ? records - (long long)i * bin : bin;
        if (st[i] == 'S' || st[i] == 'R') {
            m->other += held;
            continue;
        }
        json_t *v = json_array_get(vals, i), *h = maxs ? json_array_get(maxs, i) : v;
        src[m->n - first] = i;
        chart_trace_point *q = &m->pts[m->n++];
        q->status = st[i];
        q->lo = json_is_null(v) ? NAN : json_number_value(v);
        q->hi = json_is_null(h) ? NAN : json_number_value(h);
        q->stall = 0;
        /* Steps are the records the rule counted (explain's "records
         * read"); one it ignored stands between two steps. */
        if (st[i] == 'I' || st[i] == 'C') {
            q->x = *x + 0.5;
        } else {
            q->x = *x + 1;
            *x += (double)held;
            m->records += held;
        }
        if (isnan(q->lo))
            m->none++;
        if (st[i] == 'L')
            m->trim_low += held;
        else if (st[i] == 'H')
            m->trim_high += held;
        else if (st[i] == 'M' || st[i] == 'P')
            m->marked++;
        if (st[i] == 'W') {
            w0 = isnan(w0) ? q->x : w0;
            w1 = q->x;
        }
        if (window_code(st[i])) {
            u0 = isnan(u0) ? q->x : u0;
            u1 = q->x;
            if (!isnan(q->lo))
                used[nused++] = q->lo;
        }
    }
    if (!isnan(w0))
        put_range(&m->warm, w0, w1);
    if (!isnan(u0)) {
        put_range(&m->window, u0, u1);
        m->wins[2 * m->nwins] = u0;
        m->wins[2 * m->nwins + 1] = u1;
        m->nwins++;
    }
    /* Stalls: a used record far from its run's median on the slow side:
     * a rate below ST_STALL_FRACTION of it (and ST_STALL_MADS deviations),
     * a time (s/step) above the median divided by ST_STALL_FRACTION (and as
     * many deviations). */
    if (m->stalls_on && nused >= ST_STALL_MIN) {
        double med = median_of(used, nused);
        for (size_t i = 0; i < nused; i++)
            used[i] = fabs(used[i] - med);
        double mad = median_of(used, nused);
        double line = m->slow_is_high ? fmax(med / ST_STALL_FRACTION, med + ST_STALL_MADS * mad)
                                      : fmin(ST_STALL_FRACTION * med, med - ST_STALL_MADS * mad);
        if (m->nruns == 0) {
            m->median = med;
            m->threshold = line;
        }
        for (size_t i = first; i < m->n; i++) {
            chart_trace_point *q = &m->pts[i];
            /* a binned point's slowest record: its lowest rate, highest time */
            double v = m->slow_is_high ? q->hi : q->lo;
            if (window_code(q->status) && (m->slow_is_high ? v > line : v < line)) {
                q->stall = m->slow_is_high ? 2 : 1;
                m->stalls = pr_xrealloc(m->stalls, (m->nstalls + 1) * sizeof *m->stalls);
                m->stalls[m->nstalls++] =
                    (stall){q->x, v, json_integer_value(json_array_get(lines, src[i - first]))};
            }
        }
    }
    free(used);
    free(src);
    m->nruns++;
}

/* rec's chart model; 0, 1 when rec has no trace to draw (none, or one
 * too large to be made), 2 when its trace holds one record. */
static int model_build(const pr_record *rec, st_model *m)
{
    memset(m, 0, sizeof *m);
    json_t *t = rec->step_trace;
    json_t *runs = t ? json_object_get(t, "runs") : NULL;
    if (!runs)
        return 1;
    size_t total = 0, nruns = json_array_size(runs);
    for (size_t i = 0; i < nruns; i++)
        total += strlen(json_string_value(json_object_get(json_array_get(runs, i), "status")));
    /* One record (an MLPerf run's time to train) is a figure, not a
     * series: nothing to draw. */
    if (total < 2)
        return 2;
    const char *scale = json_string_value(json_object_get(t, "scale"));
    const char *value = pr_jdoc_json_str(rec->rule, "value");
    m->per_card = strcmp(scale, "per_card") == 0;
    m->factor = json_number_value(json_object_get(t, "factor"));
    /* a rate: a throughput, or step times the scale made one; else the
     * unit says which way is slow (unitdir.h: s/step is a time) */
    int rate = (value && strcmp(value, "throughput") == 0) || strcmp(scale, "as_read") != 0;
    pr_unitdir_dir dir = pr_unitdir_of(rec->unit);
    m->slow_is_high = !rate && dir == PR_DIR_LOWER;
    m->stalls_on = rate || dir != PR_DIR_UNKNOWN;
    m->pts = pr_xcalloc(total + 1, sizeof *m->pts);
    m->wins = pr_xcalloc(2 * nruns + 2, sizeof *m->wins);
    m->breaks = pr_xcalloc(nruns + 1, sizeof *m->breaks);
    m->median = NAN;
    double x = 0;
    for (size_t i = 0; i < nruns; i++) {
        if (i)
            m->breaks[m->nbreaks++] = x + 0.5;
        model_run(m, json_array_get(runs, i), &x);
    }
    m->xmax = x;
    m->figure = rec->failed ? NAN : rec->final_result;
    snprintf(m->fig_text, sizeof m->fig_text, "%.10g", m->figure);
    return 0;
}

static void model_chart(const st_model *m, const pr_record *rec, chart_trace *c)
{
    memset(c, 0, sizeof *c);
    c->pts = m->pts;
    c->n = m->n;
    c->xmax = m->xmax;
    c->figure = m->figure;
    c->figure_text = isfinite(m->figure) ? m->fig_text : NULL;
    c->windows = m->wins;
    c->nwindows = m->nwins;
    c->breaks = m->breaks;
    c->nbreaks = m->nbreaks;
    c->y_label = rec->unit;
}

/* ---------------------------------------------------------------- page */

/* The most stalls the alt text names one by one. */
enum { ST_ALT_STALLS = 6 };

static json_t *num(double v)
{
    return json_sprintf("%.6g", v);
}

/* The alt text's view of m (a new reference the caller owns). */
static json_t *alt_view(const st_model *m, const pr_record *rec)
{
    json_t *v = json_object();
    json_object_set_new(v, "records", json_integer(m->records));
    if (m->records == 1)
        json_object_set_new(v, "one", json_true());
    if (m->other)
        json_object_set_new(v, "other", json_integer(m->other));
    json_object_set_new(v, "unit", json_string(rec->unit ? rec->unit : ""));
    if (m->per_card && m->factor > 1)
        json_object_set_new(v, "gpus", json_sprintf("%.0f", m->factor));
    if (m->nruns > 1)
        json_object_set_new(v, "runs", json_integer(m->nruns));
    if (m->bin > 1)
        json_object_set_new(v, "bin", json_integer(m->bin));
    /* "Step 1" or "Steps 1–10" */
    if (m->warm.len)
        json_object_set_new(v, "warmup", json_string(pr_buf_cstr(&m->warm)));
    if (m->warm.len && !strpbrk(pr_buf_cstr(&m->warm), ",–"))
        json_object_set_new(v, "warm_one", json_true());
    if (m->window.len)
        json_object_set_new(v, "window", json_string(pr_buf_cstr(&m->window)));
    if (m->window.len && !strpbrk(pr_buf_cstr(&m->window), ",–"))
        json_object_set_new(v, "window_one", json_true());
    if (m->trim_low + m->trim_high) {
        json_object_set_new(v, "trimmed", json_integer(m->trim_low + m->trim_high));
        json_object_set_new(v, "trim_low", json_integer(m->trim_low));
        json_object_set_new(v, "trim_high", json_integer(m->trim_high));
    }
    if (m->marked)
        json_object_set_new(v, "marked", json_true());
    if (m->none)
        json_object_set_new(v, "none", json_integer(m->none));
    if (isfinite(m->figure))
        json_object_set_new(v, "figure", json_string(m->fig_text));
    if (m->stalls_on && isfinite(m->median)) {
        if (m->slow_is_high)
            json_object_set_new(v, "slow_is_high", json_true());
        json_object_set_new(v, "median", num(m->median));
        json_object_set_new(v, "threshold", num(m->threshold));
        json_object_set_new(v, "fraction", json_sprintf("%g", ST_STALL_FRACTION * 100));
        json_object_set_new(v, "mads", json_sprintf("%g", ST_STALL_MADS));
    }
    if (m->nstalls) {
        json_t *list = json_array();
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < m->nstalls; i++) {
            const stall *s = &m->stalls[i];
            lo = fmin(lo, s->v);
            hi = fmax(hi, s->v);
            if (i >= ST_ALT_STALLS)
                continue;
            json_t *it = json_pack("{s:o,s:I,s:o}", "step", json_sprintf("%.0f", s->x), "line",
                                   (json_int_t)s->line, "value", num(s->v));
            if (m->per_card && m->factor > 1)
                json_object_set_new(it, "per_card", num(s->v / m->factor));
            if (i + 1 == m->nstalls || i + 1 == ST_ALT_STALLS)
                json_object_set_new(it, "last", json_true());
            json_array_append_new(list, it);
        }
        json_object_set_new(v, "stalls", list);
        json_object_set_new(v, "nstalls", json_integer((json_int_t)m->nstalls));
        if (m->nstalls > ST_ALT_STALLS)
            json_object_set_new(v, "more", json_integer((json_int_t)(m->nstalls - ST_ALT_STALLS)));
        if (m->nstalls > 1) {
            json_object_set_new(v, "stall_lo", num(lo));
            json_object_set_new(v, "stall_hi", num(hi));
        }
        if (m->nstalls > 1 && m->per_card && m->factor > 1) {
            json_object_set_new(v, "stall_lo_card", num(lo / m->factor));
            json_object_set_new(v, "stall_hi_card", num(hi / m->factor));
        }
    }
    return v;
}

void steptrace_trace_md(const rmodel_world *w, const lang *l, const chartspec_queue *oc,
                        const pr_run *run, const pr_record *rec, const char *page_rel, pr_buf *md,
                        pr_err *err)
{
    (void)w;
    (void)page_rel; /* the traces lie in the page's own folder */
    if (!oc->charts)
        return;
    st_model m;
    int built = model_build(rec, &m);
    if (built == 2) {
        model_free(&m);
        pr_buf_puts(md, " ");
        pr_buf_puts(md, lang_str(l, "trace_one"));
        return;
    }
    if (built != 0) {
        model_free(&m);
        /* a failed case has no figure to trace */
        if (rec->failed && !rec->step_trace)
            return;
        const char *why = rec->step_trace ? pr_jdoc_json_str(rec->step_trace, "omitted") : NULL;
        json_t *v = json_pack("{s:s?}", "why", why);
        pr_buf_puts(md, " ");
        lang_fmt(l, why ? "trace_omitted" : "trace_none", v, md, err);
        json_decref(v);
        return;
    }
    char *base = trace_base(run, rec);
    json_t *v = alt_view(&m, rec);
    char *alt = lang_fmt_plain(l, "trace_alt", v, err);
    /* on the item's own line: a page lists tens of figures */
    pr_buf_puts(md, " [![");
    md_text(md, alt);
    pr_buf_puts(md, "](");
    md_link_path(md, "traces/");
    pr_buf_printf(md, "%s.small.png)](traces/%s.svg)", base, base);
    free(alt);
    json_decref(v);
    free(base);
    model_free(&m);
}

/* ---------------------------------------------------------------- images */

/* One record's images: drawn on a worker thread, emitted in data order so
 * that the output does not depend on the threads. */
typedef struct st_job {
    st_model m;
    chart_trace c; /* points into m: set once jobs no longer moves */
    const pr_record *rec;
    char *base, *dir;
    pr_buf svg, small;
    pr_err err;
    int rc;
} st_job;

/* workers_job_fn: draws job i of jobs (ctx). */
static void draw_job(void *ctx, size_t i)
{
    st_job *j = &((st_job *)ctx)[i];
    j->rc = chart_trace_render_svg(&j->c, ST_FULL_W, ST_FULL_H, &j->svg, &j->err);
    if (j->rc == 0)
        j->rc = chart_trace_render_png(&j->c, ST_SMALL_W, ST_SMALL_H, &j->small, &j->err);
}

/* Emits job j's files.  0, or -1 with err set. */
static int emit_job(const chartspec_queue *oc, st_job *j, pr_err *err)
{
    static const char *const ext[] = {"svg", "small.png"};
    const pr_buf *data[] = {&j->svg, &j->small};
    if (j->rc < 0) {
        *err = j->err;
        return pr_err_prefix(err, "%s/%s/traces/%s.svg", oc->out_dir, j->dir, j->base);
    }
    for (int k = 0; k < 2; k++) {
        char *path = pr_xasprintf("%s/traces/%s.%s", j->dir, j->base, ext[k]);
        int rc = oc->emit(oc->ctx, path, data[k]->data, data[k]->len, err);
        free(path);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* Traces drawn at a time: the images of a batch are emitted before the next
 * is drawn, so memory holds one batch's models and images, not every
 * trace's (4 MB of SVG on the shipped data). */
#define ST_BATCH 16

/* Draws jobs[0..n) on the workers and emits them in order (0, or -1 with
 * err set by the first that fails); frees what each job holds either way. */
static int flush_batch(const chartspec_queue *oc, st_job *jobs, size_t n, pr_err *err)
{
    workers_run(n, draw_job, jobs);
    int rc = 0;
    for (size_t q = 0; q < n; q++) {
        st_job *j = &jobs[q];
        if (rc == 0)
            rc = emit_job(oc, j, err);
        model_free(&j->m);
        pr_buf_free(&j->svg);
        pr_buf_free(&j->small);
        free(j->base);
        free(j->dir);
    }
    return rc;
}

int steptrace_emit(const rmodel_world *w, const chartspec_queue *oc, pr_err *err)
{
    if (!oc->charts)
        return 0;
    st_job jobs[ST_BATCH];
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < w->nmodels && rc == 0; i++) {
        const rmodel_model *mo = w->models[i];
        for (size_t j = 0; j < mo->nfws && rc == 0; j++) {
            const rmodel_fw *f = mo->fws[j];
            for (size_t k = 0; k < f->nrecs && rc == 0; k++) {
                st_job *jb = &jobs[n];
                memset(jb, 0, sizeof *jb);
                if (model_build(f->recs[k], &jb->m) != 0) {
                    model_free(&jb->m);
                    continue;
                }
                jb->rec = f->recs[k];
                jb->base = trace_base(f->runs[k], f->recs[k]);
                jb->dir = pr_xasprintf("%s/%s", f->model, f->framework);
                model_chart(&jb->m, jb->rec, &jb->c);
                if (++n == ST_BATCH) {
                    rc = flush_batch(oc, jobs, n, err);
                    n = 0;
                }
            }
        }
    }
    if (rc == 0)
        rc = flush_batch(oc, jobs, n, err);
    return rc;
}
