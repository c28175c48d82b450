/* chart_ratio: drawing the ratio chart of an A/B comparison (chart_ratio.h). */
#include "chart_ratio.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "abstat.h"
#include "chart_int.h"

static const rgb c_blue = {0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0};
static const rgb c_vermillion = {0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0};
static const rgb c_green = {0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0};
static const rgb c_orange = {0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0};
static const rgb c_grey = {0.45, 0.45, 0.45};
static const rgb c_band = {0.88, 0.93, 0.97};
static const rgb c_one = {0.15, 0.15, 0.15};

static rgb verdict_rgb(int v)
{
    switch (v) {
    case PR_AB_FASTER:
        return c_green;
    case PR_AB_SLOWER:
        return c_vermillion;
    case PR_AB_EQUIVALENT:
        return c_blue;
    case PR_AB_CHANGED_SMALL:
        return c_orange;
    default:
        return c_grey;
    }
}

/* The scale of a render width pixels wide, as chart_rctx_init sets it for a
 * chart at least half as high as wide. */
static double scale_of(int width)
{
    double s = width / 720.0;
    return s < 0.8 ? 0.8 : s > 4 ? 4 : s;
}

int chart_ratio_height(const chart_ratio_chart *c, int width)
{
    double s = scale_of(width);
    double h = 200 * s + (double)c->n * 30 * s;
    return (int)fmin(CHART_MAX_SIZE, fmax(width / 2.0, ceil(h)));
}

typedef struct rplan {
    double px, py, pw, ph, s, row_h;
    double xmin, xmax, step;
    double title_h;
} rplan;

static double map_x(const rplan *p, double x)
{
    return p->px + p->pw * (x - p->xmin) / (p->xmax - p->xmin);
}

/* The x range: every ratio and interval end, and the band, with room;
 * ticks every step (1, 2 or 5 times a power of ten, about 6 of them). */
static void x_range(const chart_ratio_chart *c, rplan *p)
{
    double lo = 1 - c->delta, hi = 1 + c->delta;
    for (size_t i = 0; i < c->n; i++) {
        const chart_ratio_row *r = &c->rows[i];
        double v[3] = {r->ratio, r->lo, r->hi};
        for (int k = 0; k < 3; k++)
            if (isfinite(v[k])) {
                lo = fmin(lo, v[k]);
                hi = fmax(hi, v[k]);
            }
    }
    double span = hi - lo, raw = span / 6, mag = pow(10, floor(log10(raw)));
    p->step = raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag : 10 * mag;
    p->xmin = floor((lo - span * 0.04) / p->step) * p->step;
    p->xmax = ceil((hi + span * 0.04) / p->step) * p->step;
    if (p->xmin < 0)
        p->xmin = 0;
}

static int plan_of(const chart_ratio_chart *c, rctx *r, int W, int H, rplan *p)
{
    memset(p, 0, sizeof *p);
    double s = p->s = r->s;
    x_range(c, p);
    p->title_h = 0;
    if (c->title && *c->title) {
        if (chart_text_set(r, r->f_title, c->title, W - 24 * s, PANGO_ALIGN_CENTER) < 0)
            return -1;
        p->title_h = r->lh + 10 * s;
    }
    double labw = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (chart_text_set(r, r->f_tick, c->rows[i].label, W * 0.45, PANGO_ALIGN_RIGHT) < 0)
            return -1;
        labw = fmax(labw, r->lw);
    }
    chart_text_set(r, r->f_tick, "0", 0, PANGO_ALIGN_LEFT);
    double tick_h = r->lh;
    chart_text_set(r, r->f_axis, c->x_label ? c->x_label : "", W - 24 * s, PANGO_ALIGN_CENTER);
    double xlab_h = r->lh;
    chart_text_set(r, r->f_tick, c->band_label ? c->band_label : "", 0, PANGO_ALIGN_LEFT);
    double leg_h = r->lh;
    p->px = 12 * s + labw + 10 * s;
    p->py = 12 * s + p->title_h;
    p->pw = W - p->px - 24 * s;
    p->ph = H - p->py - (6 * s + tick_h + 8 * s + xlab_h + 12 * s + leg_h + 12 * s);
    p->row_h = c->n ? p->ph / (double)c->n : p->ph;
    return r->failed ? -1 : 0;
}

static void tick_label(double v, double step, char *out, size_t n)
{
    int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    snprintf(out, n, "%.*f", dec, v);
}

static void draw_frame(const chart_ratio_chart *c, rctx *r, const rplan *p)
{
    cairo_t *cr = r->cr;
    double s = p->s, lw = fmax(1, round(s)), y0 = round(p->py + p->ph) + 0.5;
    /* the band 1 ± δ */
    chart_set_rgb(cr, c_band);
    double b0 = map_x(p, fmax(p->xmin, 1 - c->delta)), b1 = map_x(p, fmin(p->xmax, 1 + c->delta));
    cairo_rectangle(cr, b0, p->py, b1 - b0, p->ph);
    cairo_fill(cr);
    /* grid and ticks */
    cairo_set_line_width(cr, lw);
    chart_set_rgb(cr, c_grid);
    int nt = (int)llround((p->xmax - p->xmin) / p->step);
    for (int k = 0; k <= nt; k++) {
        double x = round(map_x(p, p->xmin + k * p->step)) + 0.5;
        cairo_move_to(cr, x, p->py);
        cairo_line_to(cr, x, p->py + p->ph);
    }
    cairo_stroke(cr);
    chart_set_rgb(cr, c_axis);
    cairo_move_to(cr, p->px, y0);
    cairo_line_to(cr, p->px + p->pw, y0);
    for (int k = 0; k <= nt; k++) {
        double x = round(map_x(p, p->xmin + k * p->step)) + 0.5;
        cairo_move_to(cr, x, y0);
        cairo_line_to(cr, x, y0 + 4 * s);
    }
    cairo_stroke(cr);
    char lab[64];
    chart_set_rgb(cr, c_text);
    for (int k = 0; k <= nt; k++) {
        tick_label(p->xmin + k * p->step, p->step, lab, sizeof lab);
        chart_text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT);
        chart_text_draw(r, map_x(p, p->xmin + k * p->step), y0 + 6 * s, 0.5, 0);
    }
    double y = y0 + 6 * s + r->lh + 8 * s;
    if (c->x_label) {
        chart_text_set(r, r->f_axis, c->x_label, p->pw, PANGO_ALIGN_CENTER);
        chart_text_draw(r, p->px + p->pw / 2, y, 0.5, 0);
        y += r->lh + 12 * s;
    }
    /* the line at 1, dashed, over the band */
    double one = round(map_x(p, 1)) + 0.5, dash[] = {5 * s, 3 * s};
    chart_set_rgb(cr, c_one);
    cairo_set_line_width(cr, fmax(1, 1.2 * s));
    cairo_set_dash(cr, dash, 2, 0);
    cairo_move_to(cr, one, p->py);
    cairo_line_to(cr, one, p->py + p->ph);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    /* legend: the band's swatch and the point with its bar */
    double sw = 18 * s, gap = 8 * s, x = p->px;
    if (c->band_label) {
        chart_text_set(r, r->f_tick, c->band_label, 0, PANGO_ALIGN_LEFT);
        chart_set_rgb(cr, c_band);
        cairo_rectangle(cr, x, y + r->lh / 2 - 6 * s, sw, 12 * s);
        cairo_fill(cr);
        chart_set_rgb(cr, c_text);
        chart_text_draw(r, x + sw + gap, y, 0, 0);
        x += sw + gap + r->lw + 3 * gap;
    }
    if (c->point_label) {
        chart_text_set(r, r->f_tick, c->point_label, 0, PANGO_ALIGN_LEFT);
        double ym = y + r->lh / 2;
        chart_set_rgb(cr, c_grey);
        cairo_set_line_width(cr, fmax(1, 1.6 * s));
        cairo_move_to(cr, x, ym);
        cairo_line_to(cr, x + sw, ym);
        cairo_stroke(cr);
        cairo_arc(cr, x + sw / 2, ym, 4 * s, 0, 2 * M_PI);
        cairo_fill(cr);
        chart_set_rgb(cr, c_text);
        chart_text_draw(r, x + sw + gap, y, 0, 0);
    }
}

static void draw_rows(const chart_ratio_chart *c, rctx *r, const rplan *p)
{
    cairo_t *cr = r->cr;
    double s = p->s, rad = 4.5 * s, cap = 5 * s;
    for (size_t i = 0; i < c->n; i++) {
        const chart_ratio_row *q = &c->rows[i];
        double y = p->py + p->row_h * ((double)i + 0.5);
        chart_set_rgb(cr, c_text);
        chart_text_set(r, r->f_tick, q->label, p->px - 22 * s, PANGO_ALIGN_RIGHT);
        chart_text_draw(r, p->px - 10 * s, y, 1, 0.5);
        if (!isfinite(q->ratio))
            continue;
        chart_set_rgb(cr, verdict_rgb(q->verdict));
        cairo_set_line_width(cr, fmax(1, 1.8 * s));
        int bar = isfinite(q->lo) && isfinite(q->hi);
        if (bar) {
            double x0 = map_x(p, q->lo), x1 = map_x(p, q->hi);
            cairo_move_to(cr, x0, y);
            cairo_line_to(cr, x1, y);
            cairo_move_to(cr, x0, y - cap);
            cairo_line_to(cr, x0, y + cap);
            cairo_move_to(cr, x1, y - cap);
            cairo_line_to(cr, x1, y + cap);
            cairo_stroke(cr);
        }
        cairo_new_sub_path(cr);
        cairo_arc(cr, map_x(p, q->ratio), y, rad, 0, 2 * M_PI);
        if (bar) {
            cairo_fill(cr);
        } else {
            cairo_set_source_rgb(cr, 1, 1, 1);
            cairo_fill_preserve(cr);
            chart_set_rgb(cr, verdict_rgb(q->verdict));
            cairo_stroke(cr);
        }
    }
}

static int draw(cairo_t *cr, int W, int H, const void *arg, pr_err *err)
{
    const chart_ratio_chart *c = arg;
    rctx r;
    rplan p;
    chart_rctx_init(&r, cr, W, H, err);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    int rc = plan_of(c, &r, W, H, &p);
    if (rc == 0 && c->title && *c->title) {
        chart_set_rgb(cr, c_text);
        chart_text_set(&r, r.f_title, c->title, W - 24 * p.s, PANGO_ALIGN_CENTER);
        chart_text_draw(&r, W / 2.0, 12 * p.s, 0.5, 0);
    }
    if (rc == 0) {
        draw_frame(c, &r, &p);
        draw_rows(c, &r, &p);
    }
    int failed = r.failed || rc < 0;
    chart_rctx_free(&r);
    return failed ? -1 : 0;
}

int chart_ratio_render_svg(const chart_ratio_chart *c, int width, pr_buf *out, pr_err *err)
{
    return chart_draw_svg(width, chart_ratio_height(c, width), draw, c, out, err);
}

int chart_ratio_render_png(const chart_ratio_chart *c, int width, pr_buf *out, pr_err *err)
{
    return chart_draw_png(width, chart_ratio_height(c, width), draw, c, out, err);
}
