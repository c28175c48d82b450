/* chart_history: drawing a history series (chart_history.h). */
#include "chart_history.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart_int.h"

static const rgb c_blue = {0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0};
static const rgb c_vermillion = {0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0};
static const rgb c_band = {0.86, 0.93, 0.98}; /* sky blue, light */

/* The plot and its scales. */
typedef struct hplan {
    double px, py, pw, ph, s;
    double ylo, yhi, step; /* the axis' ends and tick step */
    int dec;               /* decimals of the tick labels */
    int xstep;             /* every xstep-th date is labelled */
    double W;
} hplan;

static double map_x(const hplan *p, const chart_history_spec *c, double i)
{
    return p->px + p->pw * (i + 0.5) / (double)c->n;
}

static double map_y(const hplan *p, double y)
{
    return p->py + p->ph * (1 - (y - p->ylo) / (p->yhi - p->ylo));
}

static void grow(double v, double *lo, double *hi)
{
    if (isfinite(v) && v > 0) {
        *lo = fmin(*lo, v);
        *hi = fmax(*hi, v);
    }
}

/* The y range over values, intervals and band, padded, on 1-2-5 ticks. */
static void y_scale(const chart_history_spec *c, hplan *p)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < c->n; i++) {
        grow(c->values[i], &lo, &hi);
        if (c->lo)
            grow(c->lo[i], &lo, &hi);
        if (c->hi)
            grow(c->hi[i], &lo, &hi);
    }
    /* The band does not widen the range (a 99 % interval of few points
     * is wide): it is clipped to the plot, the data stay legible. */
    double span = hi - lo;
    if (!(span > 0))
        span = fabs(hi) * 0.1 + 1;
    lo -= span * 0.1;
    hi += span * 0.1;
    double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw))), step = mag;
    if (raw / mag > 5)
        step = 10 * mag;
    else if (raw / mag > 2)
        step = 5 * mag;
    else if (raw / mag > 1)
        step = 2 * mag;
    p->step = step;
    p->ylo = floor(lo / step) * step;
    if (p->ylo < 0 && lo >= 0)
        p->ylo = 0;
    p->yhi = ceil(hi / step) * step;
    p->dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
}

/* Lays out the title, the axes and the legend row. */
static void make_plan(const chart_history_spec *c, rctx *r, int W, int H, hplan *p)
{
    memset(p, 0, sizeof *p);
    double s = p->s = r->s, m = 12 * s;
    p->W = W;
    y_scale(c, p);
    chart_text_set(r, r->f_title, c->title, W - 2 * m, PANGO_ALIGN_CENTER);
    double top = m + r->lh + 8 * s;
    double ytw = 0;
    for (double v = p->ylo; v <= p->yhi + p->step / 2; v += p->step) {
        char lab[64];
        snprintf(lab, sizeof lab, "%.*f", p->dec, v);
        chart_text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT);
        ytw = fmax(ytw, r->lw);
    }
    chart_text_set(r, r->f_axis, c->y_label, 0, PANGO_ALIGN_LEFT);
    double ylab = r->lh;
    chart_text_set(r, r->f_tick, "2000-00-00", 0, PANGO_ALIGN_LEFT);
    double dw = r->lw, th = r->lh;
    double legend_h = th + 10 * s;
    p->px = m + ylab + 6 * s + ytw + 6 * s;
    p->py = top;
    p->pw = W - p->px - m - 8 * s;
    p->ph = H - top - m - th - 8 * s - legend_h;
    if (p->ph < 40)
        p->ph = 40;
    p->xstep = 1;
    while (p->pw / (double)c->n * p->xstep < dw + 8 * s && (size_t)p->xstep < c->n)
        p->xstep++;
}

static void dot(cairo_t *cr, double x, double y, double r)
{
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, r, 0, 2 * M_PI);
}

static void draw_axes(const chart_history_spec *c, rctx *r, const hplan *p)
{
    cairo_t *cr = r->cr;
    double s = p->s;
    cairo_set_line_width(cr, 1);
    for (double v = p->ylo; v <= p->yhi + p->step / 2; v += p->step) {
        double y = round(map_y(p, v)) + 0.5;
        chart_set_rgb(cr, c_grid);
        cairo_move_to(cr, p->px, y);
        cairo_line_to(cr, p->px + p->pw, y);
        cairo_stroke(cr);
        char lab[64];
        snprintf(lab, sizeof lab, "%.*f", p->dec, fabs(v) < p->step / 2 ? 0.0 : v);
        chart_text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT);
        chart_set_rgb(cr, c_text);
        chart_text_draw(r, p->px - 6 * s, y, 1, 0.5);
    }
    chart_set_rgb(cr, c_axis);
    cairo_move_to(cr, p->px + 0.5, p->py);
    cairo_line_to(cr, p->px + 0.5, p->py + p->ph + 0.5);
    cairo_line_to(cr, p->px + p->pw, p->py + p->ph + 0.5);
    cairo_stroke(cr);
    for (size_t i = 0; i < c->n; i += (size_t)p->xstep) {
        double x = map_x(p, c, (double)i);
        chart_text_set(r, r->f_tick, c->dates[i], 0, PANGO_ALIGN_LEFT);
        chart_set_rgb(cr, c_text);
        chart_text_draw(r, x, p->py + p->ph + 4 * s, 0.5, 0);
    }
    chart_text_set(r, r->f_axis, c->y_label, p->ph, PANGO_ALIGN_CENTER);
    chart_set_rgb(cr, c_text);
    chart_text_draw_up(r, 12 * s, p->py + p->ph / 2, 0.5, 0);
    chart_text_set(r, r->f_title, c->title, p->W - 24 * s, PANGO_ALIGN_CENTER);
    chart_text_draw(r, p->W / 2, 12 * s, 0.5, 0);
}

/* One legend entry at x: its swatch drawn by kind, then its text; returns
 * the x after it. */
static double put_legend(rctx *r, const hplan *p, double x, double y, int kind, const char *text)
{
    cairo_t *cr = r->cr;
    double s = p->s, w = 18 * s;
    if (kind == 0) {
        chart_set_rgb(cr, c_blue);
        dot(cr, x + w / 2, y, 4 * s);
        cairo_fill(cr);
    } else if (kind == 1) {
        double dash[] = {4 * s, 3 * s};
        chart_set_rgb(cr, c_vermillion);
        cairo_set_line_width(cr, fmax(1.2, 1.5 * s));
        cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, x + w / 2, y - 7 * s);
        cairo_line_to(cr, x + w / 2, y + 7 * s);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    } else if (kind == 2) {
        chart_set_rgb(cr, c_band);
        cairo_rectangle(cr, x, y - 6 * s, w, 12 * s);
        cairo_fill(cr);
    } else {
        chart_set_rgb(cr, c_flag);
        cairo_set_line_width(cr, fmax(1.2, 1.6 * s));
        dot(cr, x + w / 2, y, 7 * s);
        cairo_stroke(cr);
    }
    chart_text_set(r, r->f_small, text, 0, PANGO_ALIGN_LEFT);
    chart_set_rgb(cr, c_text);
    chart_text_draw(r, x + w + 4 * s, y, 0, 0.5);
    return x + w + 4 * s + r->lw + 16 * s;
}

static int draw(cairo_t *cr, int W, int H, const void *arg, pr_err *err)
{
    const chart_history_spec *c = arg;
    rctx r;
    hplan p;
    chart_rctx_init(&r, cr, W, H, err);
    make_plan(c, &r, W, H, &p);
    double s = p.s;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    int band = isfinite(c->band_lo) && isfinite(c->band_hi) && c->band_from < c->n;
    if (band) {
        double x0 = map_x(&p, c, (double)c->band_from) - p.pw / (double)c->n / 2;
        double y0 = map_y(&p, c->band_hi), y1 = map_y(&p, c->band_lo);
        chart_set_rgb(cr, c_band);
        cairo_save(cr);
        cairo_rectangle(cr, p.px, p.py, p.pw, p.ph);
        cairo_clip(cr);
        cairo_rectangle(cr, x0, y0, p.px + p.pw - x0, y1 - y0);
        cairo_fill(cr);
        cairo_restore(cr);
    }
    draw_axes(c, &r, &p);
    /* change points: between the two points they part */
    int any_change = 0, any_flag = 0;
    double dash[] = {5 * s, 4 * s};
    chart_set_rgb(cr, c_vermillion);
    cairo_set_line_width(cr, fmax(1.2, 1.5 * s));
    cairo_set_dash(cr, dash, 2, 0);
    for (size_t i = 1; i < c->n; i++)
        if (c->change[i]) {
            double x = round(map_x(&p, c, (double)i - 0.5)) + 0.5;
            cairo_move_to(cr, x, p.py);
            cairo_line_to(cr, x, p.py + p.ph);
            any_change = 1;
        }
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    /* intervals, the line, the points */
    chart_set_rgb(cr, c_blue);
    cairo_set_line_width(cr, fmax(1, 1.2 * s));
    for (size_t i = 0; c->lo && c->hi && i < c->n; i++)
        if (isfinite(c->lo[i]) && isfinite(c->hi[i])) {
            double x = round(map_x(&p, c, (double)i)) + 0.5;
            cairo_move_to(cr, x, map_y(&p, c->lo[i]));
            cairo_line_to(cr, x, map_y(&p, c->hi[i]));
            cairo_move_to(cr, x - 4 * s, map_y(&p, c->lo[i]));
            cairo_line_to(cr, x + 4 * s, map_y(&p, c->lo[i]));
            cairo_move_to(cr, x - 4 * s, map_y(&p, c->hi[i]));
            cairo_line_to(cr, x + 4 * s, map_y(&p, c->hi[i]));
        }
    cairo_stroke(cr);
    cairo_set_line_width(cr, fmax(1.2, 1.6 * s));
    for (size_t i = 0; i < c->n; i++) {
        double x = map_x(&p, c, (double)i), y = map_y(&p, c->values[i]);
        if (i == 0 || c->change[i])
            cairo_move_to(cr, x, y); /* no line across a change point */
        else
            cairo_line_to(cr, x, y);
    }
    cairo_stroke(cr);
    for (size_t i = 0; i < c->n; i++) {
        double x = map_x(&p, c, (double)i), y = map_y(&p, c->values[i]);
        chart_set_rgb(cr, c_blue);
        dot(cr, x, y, 4.5 * s);
        cairo_fill(cr);
        if (c->flagged[i]) {
            chart_set_rgb(cr, c_flag);
            dot(cr, x, y, 8 * s);
            cairo_stroke(cr);
            any_flag = 1;
        }
    }
    /* the legend, one row under the dates */
    chart_text_set(&r, r.f_tick, "2000-00-00", 0, PANGO_ALIGN_LEFT);
    double ly = p.py + p.ph + 4 * s + r.lh + 14 * s, lx = p.px;
    lx = put_legend(&r, &p, lx, ly, 0, c->points_label);
    if (any_change)
        lx = put_legend(&r, &p, lx, ly, 1, c->change_label);
    if (band)
        lx = put_legend(&r, &p, lx, ly, 2, c->band_label);
    if (any_flag)
        put_legend(&r, &p, lx, ly, 3, c->flag_label);
    int failed = r.failed;
    chart_rctx_free(&r);
    return failed ? -1 : 0;
}

int chart_history_render_svg(const chart_history_spec *c, int width, int height, pr_buf *out,
                             pr_err *err)
{
    return chart_draw_svg(width, height, draw, c, out, err);
}

int chart_history_render_png(const chart_history_spec *c, int width, int height, pr_buf *out,
                             pr_err *err)
{
    return chart_draw_png(width, height, draw, c, out, err);
}
