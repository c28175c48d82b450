/* chart_axes: scales (log2 x, linear y), their ticks and labels, the
 * data ranges, and drawing the grid, axes and tick labels. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart_int.h"

/* --------------------------------------------------------------- ticks */

void chart_y_ticks(double ymax, int target, yticks *t)
{
    memset(t, 0, sizeof *t);
    if (!(ymax > 0))
        ymax = 1;
    if (!isfinite(ymax))
        ymax = DBL_MAX;
    if (target < 2)
        target = 2;
    double raw = ymax / target;
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    double nice = f <= 1.0 + 1e-9 ? 1 : f <= 2.0 + 1e-9 ? 2 : f <= 5.0 + 1e-9 ? 5 : 10;
    double step = nice * mag;
    if (!(step > 0) || !isfinite(step))
        step = raw > 0 && isfinite(raw) ? raw : 1;
    double k = ceil(ymax / step - 1e-9);
    if (k < 1)
        k = 1;
    if (k > 100)
        k = 100;
    t->step = step;
    t->n = (int)k;
    t->top = k * step;
    if (!isfinite(t->top)) {
        /* values near DBL_MAX: the last round tick would overflow */
        t->top = DBL_MAX;
        t->n = (int)floor(DBL_MAX / step);
    }
    t->unit = 1;
    t->suffix = "";
    if (t->top >= 1e15 || step < 1e-4) {
        t->sci = 1;
    } else if (t->top >= 1e6) {
        static const char *const sfx[] = {"k", "M", "G", "T"};
        int p = (int)floor(log10(t->top) / 3 + 1e-9);
        if (p > 4)
            p = 4;
        t->unit = pow(1000, p);
        t->suffix = sfx[p - 1];
        double su = step / t->unit;
        t->dec = su >= 1 - 1e-9 ? 0 : (int)ceil(-log10(su) - 1e-9);
    } else {
        t->dec = step >= 1 - 1e-9 ? 0 : (int)ceil(-log10(step) - 1e-9);
    }
}

/* Log ticks: the sparsest of powers of ten, 1-2-5 or 1-9 times them that
 * gives three ticks (a factor of 4 at least is shown, so 1-9 always
 * does); powers of ten thinned when there are more than target of them. */
void chart_y_ticks_log(double ymin, double ymax, int target, yticks *t)
{
    static const double m125[] = {1, 2, 5}, m19[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    static const double *const sets[] = {m125, m125, m19};
    static const int nset[] = {1, 3, 9};
    memset(t, 0, sizeof *t);
    t->log = 1;
    if (!(ymin > 0) || !isfinite(ymin))
        ymin = 1;
    if (!(ymax >= ymin) || !isfinite(ymax))
        ymax = ymin * 10;
    double l0 = log10(ymin), l1 = log10(ymax);
    if (l1 - l0 < log10(4)) {
        double mid = (l0 + l1) / 2;
        l0 = mid - log10(2);
        l1 = mid + log10(2);
    }
    double pad = 0.06 * (l1 - l0);
    t->lo = l0 - pad;
    t->hi = l1 + pad;
    if (target < 3)
        target = 3;
    for (int si = 0; si < 3; si++) {
        int e0 = (int)floor(t->lo), e1 = (int)ceil(t->hi);
        /* powers of ten only: every step-th one when there are too many */
        int step = si == 0 ? (e1 - e0) / target + 1 : 1;
        int n = 0;
        for (int e = e0; e <= e1 && n < YT_MAX; e++) {
            if (si == 0 && e % step != 0)
                continue;
            for (int j = 0; j < nset[si] && n < YT_MAX; j++) {
                double v = sets[si][j] * pow(10, e);
                double lv = log10(v);
                if (v > 0 && isfinite(v) && lv >= t->lo && lv <= t->hi)
                    t->v[n++] = v;
            }
        }
        t->n = n - 1;
        if (n >= 3 || si == 2)
            break;
    }
}

double chart_y_tick_value(const yticks *t, int k)
{
    return t->log ? t->v[k] : k * t->step;
}

/* Log tick labels: 0.5, 20, 5000, 20000, 2M, 1e+20. */
static void log_tick_label(double v, char *out, size_t n)
{
    static const char *const sfx[] = {"M", "G", "T"};
    if (v >= 1e15 || v < 1e-4) {
        snprintf(out, n, "%.0e", v);
    } else if (v >= 1e6) {
        int p = (int)floor(log10(v) / 3 + 1e-9);
        snprintf(out, n, "%g%s", v / pow(1000, p), sfx[p - 2]);
    } else {
        snprintf(out, n, "%.*f", v >= 1 ? 0 : (int)ceil(-log10(v) - 1e-9), v);
    }
}

void chart_y_tick_label(const yticks *t, int k, char *out, size_t n)
{
    double v = chart_y_tick_value(t, k);
    if (t->log)
        log_tick_label(v, out, n);
    else if (k == 0)
        snprintf(out, n, "0");
    else if (t->sci)
        snprintf(out, n, "%.3g", v);
    else
        snprintf(out, n, "%.*f%s", t->dec, v / t->unit, t->suffix);
}

/* The label of the log2 x tick at 2^e. */
void chart_x_tick_label(int e, int bytes, char *out, size_t n)
{
    static const char *const sfx[] = {"", "K", "M", "G", "T", "P", "E"};
    if (bytes && e >= 0 && e < 70)
        snprintf(out, n, "%d%s", 1 << (e % 10), sfx[e / 10]);
    else if (e >= 0 && e <= 30)
        snprintf(out, n, "%ld", 1L << e);
    else if (e < 0 && e >= -6)
        snprintf(out, n, "%g", ldexp(1, e));
    else
        snprintf(out, n, "2^%d", e);
}

static int mod_floor(int a, int b)
{
    int m = a % b;
    return m < 0 ? m + b : m;
}

/* x of the log2 exponent l (ticks at integer l) */
double chart_map_e(const plan *p, double l)
{
    return p->px + (l - p->lmin) / (p->lmax - p->lmin) * p->pw;
}

double chart_map_x(const plan *p, double x)
{
    return chart_map_e(p, log2(x));
}

double chart_map_y(const plan *p, double y)
{
    double f = p->yt.log ? (log10(y) - p->yt.lo) / (p->yt.hi - p->yt.lo) : y / p->yt.top;
    double v = p->py + p->ph - f * p->ph;
    if (p->yt.log && !(y > 0))
        v = p->py + 10 * p->ph; /* nowhere: points at 0 are not drawn there */
    /* keep cairo's fixed-point coordinates in range for values far off */
    if (v < p->py - 10 * p->ph)
        v = p->py - 10 * p->ph;
    return v;
}

#define IDEAL_HEADROOM 2.5

/* Data ranges of a line chart. */
void chart_line_ranges(const pr_chart *c, plan *p, double *ymin, double *ymax)
{
    double xlo = INFINITY, xhi = -INFINITY, yhi = 0, ylo = INFINITY;
    for (int i = 0; i < c->nseries; i++) {
        const chart_series *s = &c->series[i];
        for (size_t j = 0; j < s->npts; j++) {
            if (!chart_pt_visible(c, &s->pts[j]))
                continue;
            if (s->pts[j].y > 0)
                ylo = fmin(ylo, s->pts[j].y);
            xlo = fmin(xlo, s->pts[j].x);
            xhi = fmax(xhi, s->pts[j].x);
            yhi = fmax(yhi, s->pts[j].y);
        }
    }
    p->have_points = isfinite(xlo);
    if (c->has_ideal) {
        xlo = fmin(xlo, c->ideal_x1);
        xhi = fmax(xhi, c->ideal_x1);
    }
    if (!isfinite(xlo)) {
        xlo = 1;
        xhi = 8;
    }
    p->xdmin = xlo;
    p->xdmax = xhi;
    double l0 = log2(xlo), l1 = log2(xhi);
    p->emin = (int)floor(l0 + 1e-9);
    p->emax = (int)ceil(l1 - 1e-9);
    if (p->emax <= p->emin) {
        p->emax = p->emin + 1;
        if (p->emin > 0)
            p->emin--;
    }
    double pad = 0.04 * (p->emax - p->emin);
    p->lmin = p->emin - pad;
    p->lmax = p->emax + pad;
    /* The ideal line runs from its base to the last measured point: with
     * no point beyond its base it says nothing and is not drawn. */
    p->ideal_end = chart_ideal_drawn(c) ? chart_ideal_end(c) : 0;
    if (p->ideal_end > 0) {
        double top = c->ideal_y1 * (p->ideal_end / c->ideal_x1);
        /* on a linear axis the ideal line is part of the range up to
         * IDEAL_HEADROOM times the data: far above, it would flatten the
         * data to the baseline, so it leaves through the top instead; on a
         * log axis it is a straight line and fits whole */
        if (!c->y_log && top > IDEAL_HEADROOM * yhi)
            top = IDEAL_HEADROOM * yhi;
        if (isfinite(top))
            yhi = fmax(yhi, top);
        if (c->ideal_y1 > 0)
            ylo = fmin(ylo, c->ideal_y1);
    }
    /* A reference level is in the range, with room above it: a point on
     * it (the 100 % of one GPU) would sit on the plot's top edge. */
    if (c->has_ref && c->kind == PR_CHART_LINE_LOG2X) {
        yhi = fmax(yhi, c->ref_y * 1.04);
        if (c->ref_y > 0)
            ylo = fmin(ylo, c->ref_y);
    }
    *ymin = ylo;
    *ymax = yhi;
}

double chart_bar_ymax(const pr_chart *c, plan *p)
{
    double yhi = 0, flagged = 0;
    for (int i = 0; i < c->nseries; i++)
        for (int k = 0; k < c->ncats; k++) {
            const chart_cell *cell = chart_cell_get(c, i, k);
            if (cell && cell->kind == CELL_VALUE) {
                p->have_bars = 1;
                yhi = fmax(yhi, cell->value);
                if (cell->flagged)
                    flagged = fmax(flagged, cell->value);
            }
        }
    /* room for the value labels above the bars, and for a flag's badge
     * above its label */
    return fmax(yhi * 1.06, flagged * 1.18);
}

/* Chooses the labelled x ticks so that labels do not collide. */
int chart_plan_x_ticks(const pr_chart *c, rctx *r, plan *p)
{
    double ppe = p->pw / (p->lmax - p->lmin);
    char lab[64];
    /* steps 1 2 5 10 20 50 ... exponents, aligned on multiples of the step
     * (so byte axes show 1K 1M 1G) */
    static const int mant[] = {1, 2, 5};
    for (long dec = 1; dec < 100000; dec *= 10) {
        for (int mi = 0; mi < 3; mi++) {
            long step = mant[mi] * dec;
            long span = (long)p->emax - p->emin;
            if (span / step > 200)
                continue;
            int base = p->emin + mod_floor(-p->emin, (int)step);
            if (base + step > p->emax)
                base = p->emin; /* fewer than two aligned ticks */
            double maxw = 0;
            for (long e = base; e <= p->emax; e += step) {
                chart_x_tick_label((int)e, c->x_bytes, lab, sizeof lab);
                if (chart_text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT))
                    return -1;
                maxw = fmax(maxw, r->lw);
            }
            if (step * ppe >= maxw + 12 * p->s || span / step < 1) {
                p->estep = (int)step;
                p->ebase = base;
                return 0;
            }
        }
    }
    p->estep = (int)(p->emax - p->emin);
    p->ebase = p->emin;
    return 0;
}

static double snap(double v, double lw)
{
    long w = lround(lw);
    return (w % 2) ? floor(v) + 0.5 : round(v);
}

void chart_draw_grid_and_axes(const pr_chart *c, rctx *r, const plan *p)
{
    cairo_t *cr = r->cr;
    double s = p->s, lw = fmax(1, round(s));
    char lab[64];
    cairo_set_dash(cr, NULL, 0, 0);

    /* horizontal grid */
    cairo_set_line_width(cr, lw);
    chart_set_rgb(cr, c_grid);
    for (int k = p->yt.log ? 0 : 1; k <= p->yt.n; k++) {
        double y = snap(chart_map_y(p, chart_y_tick_value(&p->yt, k)), lw);
        cairo_move_to(cr, p->px, y);
        cairo_line_to(cr, p->px + p->pw, y);
    }
    if (c->kind == PR_CHART_LINE_LOG2X) {
        for (long e = p->ebase; e <= p->emax; e += p->estep) {
            double x = snap(chart_map_e(p, (double)e), lw);
            cairo_move_to(cr, x, p->py);
            cairo_line_to(cr, x, p->py + p->ph);
        }
    }
    cairo_stroke(cr);

    /* axes */
    chart_set_rgb(cr, c_axis);
    double x0 = snap(p->px, lw), y0 = snap(p->py + p->ph, lw);
    cairo_move_to(cr, x0, p->py);
    cairo_line_to(cr, x0, y0);
    cairo_line_to(cr, p->px + p->pw, y0);
    /* y ticks */
    for (int k = 0; k <= p->yt.n; k++) {
        double y = snap(chart_map_y(p, chart_y_tick_value(&p->yt, k)), lw);
        cairo_move_to(cr, x0 - p->tick, y);
        cairo_line_to(cr, x0, y);
    }
    /* x ticks */
    if (c->kind == PR_CHART_LINE_LOG2X) {
        int minor = p->estep > 1 && (long)p->emax - p->emin <= 400;
        for (long e = minor ? p->emin : p->ebase; e <= p->emax; e += minor ? 1 : p->estep) {
            int major = mod_floor((int)(e - p->ebase), p->estep) == 0 && e >= p->ebase;
            double x = snap(chart_map_e(p, (double)e), lw);
            cairo_move_to(cr, x, y0);
            cairo_line_to(cr, x, y0 + (major ? p->tick : p->tick * 0.55));
        }
    }
    cairo_stroke(cr);

    /* tick labels */
    chart_set_rgb(cr, c_text);
    for (int k = 0; k <= p->yt.n; k++) {
        chart_y_tick_label(&p->yt, k, lab, sizeof lab);
        chart_text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT);
        chart_text_draw(r, x0 - p->tick - 3 * s, chart_map_y(p, chart_y_tick_value(&p->yt, k)), 1,
                        0.5);
    }
    double ylab = y0 + p->tick + p->gap / 2;
    if (c->kind == PR_CHART_LINE_LOG2X) {
        for (long e = p->ebase; e <= p->emax; e += p->estep) {
            chart_x_tick_label((int)e, c->x_bytes, lab, sizeof lab);
            chart_text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT);
            chart_text_draw(r, chart_map_e(p, (double)e), ylab, 0.5, 0);
        }
    } else if (c->ncats > 0) {
        double slot = p->pw / c->ncats;
        r->wrap_mode = PANGO_WRAP_WORD;
        for (int k = 0; k < c->ncats; k += p->cat_step) {
            chart_text_set(r, r->f_tick, c->cats[k], p->cat_wrap ? slot - 4 * s : 0,
                           PANGO_ALIGN_CENTER);
            chart_text_draw(r, p->px + (k + 0.5) * slot, ylab, 0.5, 0);
            if (p->cat_step > 1) {
                /* mark the labelled slots when some are left out */
                chart_set_rgb(cr, c_axis);
                cairo_set_line_width(cr, lw);
                double x = snap(p->px + (k + 0.5) * slot, lw);
                cairo_move_to(cr, x, y0);
                cairo_line_to(cr, x, y0 + p->tick);
                cairo_stroke(cr);
                chart_set_rgb(cr, c_text);
            }
        }
        r->wrap_mode = PANGO_WRAP_WORD_CHAR;
    }

    /* axis labels */
    if (c->x_label[0]) {
        chart_text_set(r, r->f_axis, c->x_label, p->W - 2 * p->m, PANGO_ALIGN_CENTER);
        double cx = fmin(fmax(p->px + p->pw / 2, p->m + r->lw / 2), p->W - p->m - r->lw / 2);
        chart_text_draw(r, cx, ylab + p->xtick_h + p->gap / 2, 0.5, 0);
    }
    if (c->y_label[0]) {
        chart_text_set(r, r->f_axis, c->y_label, p->ph, PANGO_ALIGN_CENTER);
        chart_text_draw_up(r, p->m, p->py + p->ph / 2, 0.5, 0);
    }
}
