/* chart_trace: drawing a step trace (chart_trace.h). */
#include "chart_trace.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart_int.h"

static const rgb c_blue = {0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0};
static const rgb c_orange = {0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0};
static const rgb c_vermillion = {0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0};
static const rgb c_warmup = {0.62, 0.62, 0.62};
static const rgb c_window = {0.90, 0.955, 0.99}; /* sky blue, light */
static const rgb c_black = {0, 0, 0};

/* Where the plot goes and how values map onto it. */
typedef struct tplan {
    double px, py, pw, ph, s;
    double xmax;
    yticks yt, xt;
    int small;
} tplan;

static double map_x(const tplan *p, double x)
{
    return p->px + p->pw * x / p->xmax;
}

/* x ticks: every step of 1, 2 or 5 times a power of ten (at least 1) that
 * gives at most target labels, up to the last step. */
static void x_ticks(double last, int target, yticks *t)
{
    double step = 1;
    for (double mag = 1;; mag *= 10) {
        if (last / mag <= target) {
            step = mag;
            break;
        }
        if (last / (2 * mag) <= target) {
            step = 2 * mag;
            break;
        }
        if (last / (5 * mag) <= target) {
            step = 5 * mag;
            break;
        }
    }
    memset(t, 0, sizeof *t);
    t->step = step;
    t->n = (int)floor(last / step);
    t->top = t->n * step;
    t->unit = 1;
    t->suffix = "";
}
static double map_y(const tplan *p, double y)
{
    return p->py + p->ph * (1 - y / p->yt.top);
}

/* The window statuses: records the reducer used. */
static int in_window(char st)
{
    return st != 0 && strchr("KLHMPNUX", st) != NULL;
}

static void dot(cairo_t *cr, double x, double y, double r)
{
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, r, 0, 2 * M_PI);
}

static void triangle(cairo_t *cr, double x, double y, double r, int down)
{
    double d = down ? -1 : 1;
    cairo_move_to(cr, x, y - d * r * 1.15);
    cairo_line_to(cr, x + r, y + d * r * 0.6);
    cairo_line_to(cr, x - r, y + d * r * 0.6);
    cairo_close_path(cr);
}

static void diamond(cairo_t *cr, double x, double y, double r)
{
    cairo_move_to(cr, x, y - r * 1.3);
    cairo_line_to(cr, x + r, y);
    cairo_line_to(cr, x, y + r * 1.3);
    cairo_line_to(cr, x - r, y);
    cairo_close_path(cr);
}

/* The largest value drawn (the figure's line included). */
static double y_top(const chart_trace *t)
{
    double m = isfinite(t->figure) ? t->figure : 0;
    for (size_t i = 0; i < t->n; i++)
        if (isfinite(t->pts[i].hi) && t->pts[i].hi > m)
            m = t->pts[i].hi;
    return m > 0 ? m : 1;
}

/* Margins from the tick labels' widths (full size), or fixed (small). */
static void make_plan(const chart_trace *t, rctx *r, int W, int H, tplan *p)
{
    memset(p, 0, sizeof *p);
    p->small = W < CT_SMALL_WIDTH;
    p->s = p->small ? W / 360.0 : r->s;
    chart_y_ticks(y_top(t), p->small ? 2 : 5, &p->yt);
    double last = t->xmax > 1 ? t->xmax : 1;
    x_ticks(last, 8, &p->xt);
    /* the steps fill the width, half a step of room at each end (a few
     * steps: a whole one) */
    p->xmax = last + (last < 20 ? 1 : 0.5);
    double s = p->s;
    if (p->small) {
        p->px = 4 * s;
        p->py = 4 * s;
        p->pw = W - 8 * s;
        p->ph = H - 8 * s;
        return;
    }
    double wmax = 0;
    char lab[64];
    for (int k = 0; k <= p->yt.n; k++) {
        chart_y_tick_label(&p->yt, k, lab, sizeof lab);
        chart_text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT);
        wmax = fmax(wmax, r->lw);
    }
    double ylab = 0;
    if (t->y_label && *t->y_label) {
        chart_text_set(r, r->f_axis, t->y_label, 0, PANGO_ALIGN_LEFT);
        ylab = r->lh + 6 * s;
    }
    chart_text_set(r, r->f_tick, "0", 0, PANGO_ALIGN_LEFT);
    double tick_h = r->lh;
    /* the figure's value stands right of the plot, never over a record */
    double fig_w = 0;
    if (isfinite(t->figure) && t->figure_text) {
        chart_text_set(r, r->f_small, t->figure_text, 0, PANGO_ALIGN_LEFT);
        fig_w = r->lw + 6 * s;
    }
    p->px = 10 * s + ylab + wmax + 8 * s;
    p->py = 12 * s;
    p->pw = W - p->px - fmax(16 * s, fig_w + 8 * s);
    p->ph = H - p->py - tick_h - 14 * s;
}

static void draw_axes(const chart_trace *t, rctx *r, const tplan *p)
{
    cairo_t *cr = r->cr;
    double s = p->s, lw = fmax(1, round(s));
    char lab[64];
    cairo_set_line_width(cr, lw);
    chart_set_rgb(cr, c_grid);
    for (int k = 1; k <= p->yt.n; k++) {
        double y = round(map_y(p, chart_y_tick_value(&p->yt, k))) + 0.5;
        cairo_move_to(cr, p->px, y);
        cairo_line_to(cr, p->px + p->pw, y);
    }
    cairo_stroke(cr);
    chart_set_rgb(cr, c_axis);
    double x0 = round(p->px) + 0.5, y0 = round(p->py + p->ph) + 0.5;
    cairo_move_to(cr, x0, p->py);
    cairo_line_to(cr, x0, y0);
    cairo_line_to(cr, p->px + p->pw, y0);
    cairo_stroke(cr);
    if (p->small)
        return;
    double tick = 4 * s;
    for (int k = 0; k <= p->yt.n; k++) {
        double y = round(map_y(p, chart_y_tick_value(&p->yt, k))) + 0.5;
        cairo_move_to(cr, x0 - tick, y);
        cairo_line_to(cr, x0, y);
    }
    for (int k = 1; k <= p->xt.n; k++) {
        double x = round(map_x(p, k * p->xt.step)) + 0.5;
        cairo_move_to(cr, x, y0);
        cairo_line_to(cr, x, y0 + tick);
    }
    cairo_stroke(cr);
    chart_set_rgb(cr, c_text);
    for (int k = 0; k <= p->yt.n; k++) {
        chart_y_tick_label(&p->yt, k, lab, sizeof lab);
        chart_text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT);
        chart_text_draw(r, x0 - tick - 3 * s, map_y(p, chart_y_tick_value(&p->yt, k)), 1, 0.5);
    }
    for (int k = 1; k <= p->xt.n; k++) {
        snprintf(lab, sizeof lab, "%.0f", k * p->xt.step);
        chart_text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT);
        chart_text_draw(r, map_x(p, k * p->xt.step), y0 + tick + 2 * s, 0.5, 0);
    }
    if (t->y_label && *t->y_label) {
        chart_text_set(r, r->f_axis, t->y_label, 0, PANGO_ALIGN_LEFT);
        chart_text_draw_up(r, 8 * s, p->py + p->ph / 2, 0.5, 0);
    }
}

/* A line through the points of one kind (window or warm-up), broken where
 * a point of another kind, a run's end or a point without value lies. */
static void draw_line(const chart_trace *t, cairo_t *cr, const tplan *p, int window, rgb col)
{
    chart_set_rgb(cr, col);
    cairo_set_line_width(cr, fmax(1, 1.4 * p->s));
    int open = 0;
    size_t b = 0;
    for (size_t i = 0; i < t->n; i++) {
        const chart_trace_point *q = &t->pts[i];
        while (b < t->nbreaks && t->breaks[b] < q->x) {
            b++;
            open = 0;
        }
        int mine = window ? in_window(q->status) : q->status == 'W';
        if (!mine || !isfinite(q->lo)) {
            open = 0;
            continue;
        }
        double y = map_y(p, (q->lo + q->hi) / 2);
        if (open)
            cairo_line_to(cr, map_x(p, q->x), y);
        else
            cairo_move_to(cr, map_x(p, q->x), y);
        open = 1;
    }
    cairo_stroke(cr);
}

/* What is drawn of one record, in batches: each batch one path, filled or
 * stroked once, so that an SVG holds one element per kind of mark, not one
 * per record (a 3000-record trace stays small). */
enum { M_TICK, M_BAR_WARM, M_BAR_WIN, M_DOT_WARM, M_DOT_WIN, M_TRIANGLE, M_DIAMOND, M_RING, M_N };

/* The most steps drawn with a dot each; past it the line says it. */
enum { CT_DOTS_MAX = 400 };

static void add_mark(cairo_t *cr, int kind, const chart_trace_point *q, const tplan *p, double rad,
                     double big)
{
    double x = map_x(p, q->x), s = p->s;
    if (kind == M_TICK) {
        cairo_move_to(cr, x, p->py + p->ph);
        cairo_line_to(cr, x, p->py + p->ph - 5 * s);
        return;
    }
    double ylo = map_y(p, q->lo), yhi = map_y(p, q->hi), y = (ylo + yhi) / 2;
    switch (kind) {
    case M_BAR_WARM:
    case M_BAR_WIN:
        cairo_move_to(cr, x, ylo);
        cairo_line_to(cr, x, yhi);
        break;
    case M_DOT_WARM:
    case M_DOT_WIN:
        /* a zero-length segment with a round cap: a dot in a few bytes of
         * SVG where an arc takes four curves */
        (void)rad;
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x, y);
        break;
    case M_TRIANGLE:
        triangle(cr, x, q->status == 'L' ? ylo : yhi, big, q->status == 'L');
        break;
    case M_DIAMOND:
        diamond(cr, x, y, big);
        break;
    case M_RING:
        dot(cr, x, q->stall == 2 ? yhi : ylo, big * 1.9); /* at the slow end */
        break;
    }
}

/* Whether point q gets a mark of kind. */
static int has_mark(const chart_trace *t, const tplan *p, const chart_trace_point *q, int kind)
{
    if (!isfinite(q->lo))
        return kind == M_TICK;
    int warm = q->status == 'W', win = in_window(q->status);
    int dots = t->n <= CT_DOTS_MAX && !(p->small && t->n > 200);
    switch (kind) {
    case M_BAR_WARM:
        return warm && q->hi > q->lo;
    case M_BAR_WIN:
        return !warm && q->hi > q->lo;
    case M_DOT_WARM:
        return dots && warm;
    case M_DOT_WIN:
        return dots && !warm && !strchr("LHMP", q->status);
    case M_TRIANGLE:
        return q->status == 'L' || q->status == 'H';
    case M_DIAMOND:
        return q->status == 'M' || q->status == 'P';
    case M_RING:
        return q->stall && win;
    }
    return 0;
}

static void draw_marks(const chart_trace *t, cairo_t *cr, const tplan *p)
{
    double s = p->s;
    double rad = fmax(1.2, (p->small ? 1.1 : 1.8) * s), big = fmax(2.5, (p->small ? 2.4 : 4.2) * s);
    if (t->xmax <= 20)
        rad = big; /* a few steps: each a marker of its own */
    for (int kind = 0; kind < M_N; kind++) {
        int any = 0;
        cairo_new_path(cr);
        for (size_t i = 0; i < t->n; i++)
            if (has_mark(t, p, &t->pts[i], kind)) {
                add_mark(cr, kind, &t->pts[i], p, rad, big);
                any = 1;
            }
        if (!any)
            continue;
        switch (kind) {
        case M_TICK:
            chart_set_rgb(cr, c_warmup);
            cairo_set_line_width(cr, fmax(1, s));
            cairo_stroke(cr);
            break;
        case M_BAR_WARM:
        case M_BAR_WIN:
            chart_set_rgb(cr, kind == M_BAR_WARM ? c_warmup : c_blue);
            cairo_set_line_width(cr, fmax(1, 1.2 * s));
            cairo_stroke(cr);
            break;
        case M_DOT_WARM:
        case M_DOT_WIN:
            chart_set_rgb(cr, kind == M_DOT_WARM ? c_warmup : c_blue);
            cairo_set_line_width(cr, 2 * rad);
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
            cairo_stroke(cr);
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
            break;
        case M_TRIANGLE:
            chart_set_rgb(cr, c_orange);
            cairo_fill(cr);
            break;
        case M_DIAMOND:
            chart_set_rgb(cr, c_black);
            cairo_fill(cr);
            break;
        case M_RING:
            /* a ring, so that a trimmed record's triangle shows inside */
            chart_set_rgb(cr, c_vermillion);
            cairo_set_line_width(cr, fmax(1.2, 1.6 * s));
            cairo_stroke(cr);
            break;
        }
    }
}

static int draw(cairo_t *cr, int W, int H, const void *arg, pr_err *err)
{
    const chart_trace *t = arg;
    rctx r;
    tplan p;
    chart_rctx_init(&r, cr, W, H, err);
    make_plan(t, &r, W, H, &p);
    double s = p.s, half = p.pw / p.xmax / 2;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    /* the averaged windows, behind everything */
    chart_set_rgb(cr, c_window);
    for (size_t k = 0; k < t->nwindows; k++) {
        double a = map_x(&p, t->windows[2 * k]) - half, b = map_x(&p, t->windows[2 * k + 1]) + half;
        cairo_rectangle(cr, a, p.py, b - a, p.ph);
    }
    cairo_fill(cr);
    draw_axes(t, &r, &p);
    /* runs apart */
    chart_set_rgb(cr, c_note);
    cairo_set_line_width(cr, fmax(1, s));
    double dash[] = {2 * s, 3 * s};
    cairo_set_dash(cr, dash, 2, 0);
    for (size_t k = 0; k < t->nbreaks; k++) {
        double x = round(map_x(&p, t->breaks[k])) + 0.5;
        cairo_move_to(cr, x, p.py);
        cairo_line_to(cr, x, p.py + p.ph);
    }
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    /* the figure's line, under the records */
    if (isfinite(t->figure)) {
        double y = round(map_y(&p, t->figure)) + 0.5;
        double fd[] = {6 * s, 4 * s};
        chart_set_rgb(cr, c_black);
        cairo_set_line_width(cr, fmax(1, 1.2 * s));
        cairo_set_dash(cr, fd, 2, 0);
        cairo_move_to(cr, p.px, y);
        cairo_line_to(cr, p.px + p.pw, y);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    draw_line(t, cr, &p, 0, c_warmup);
    draw_line(t, cr, &p, 1, c_blue);
    draw_marks(t, cr, &p);
    /* the figure's value, over everything */
    if (isfinite(t->figure) && !p.small && t->figure_text) {
        double y = round(map_y(&p, t->figure)) + 0.5;
        chart_text_set(&r, r.f_small, t->figure_text, 0, PANGO_ALIGN_LEFT);
        chart_set_rgb(cr, c_black);
        chart_text_draw(&r, p.px + p.pw + 4 * s, y, 0, 0.5);
    }
    int failed = r.failed;
    chart_rctx_free(&r);
    return failed ? -1 : 0;
}

int chart_trace_render_svg(const chart_trace *t, int width, int height, pr_buf *out, pr_err *err)
{
    return chart_draw_svg(width, height, draw, t, out, err);
}

int chart_trace_render_png(const chart_trace *t, int width, int height, pr_buf *out, pr_err *err)
{
    return chart_draw_png(width, height, draw, t, out, err);
}
