/* chart_draw: series (lines, markers), bars and their state labels, the
 * title, the legend, and the whole render. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart_int.h"

/* ------------------------------------------------------------- palette */

/* Okabe-Ito, ordered for contrast on white; yellow last. */
static const rgb palette[] = {
    {0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0}, /* blue */
    {0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0}, /* vermillion */
    {0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0}, /* bluish green */
    {0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0}, /* orange */
    {0xCC / 255.0, 0x79 / 255.0, 0xA7 / 255.0}, /* reddish purple */
    {0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0}, /* sky blue */
    {0x00 / 255.0, 0x00 / 255.0, 0x00 / 255.0}, /* black */
    {0xF0 / 255.0, 0xE4 / 255.0, 0x42 / 255.0}, /* yellow */
};
#define NPALETTE ((int)(sizeof palette / sizeof palette[0]))

static rgb series_color(int i)
{
    return palette[i % NPALETTE];
}

static rgb tint(rgb c, double f)
{
    rgb t = {c.r + (1 - c.r) * f, c.g + (1 - c.g) * f, c.b + (1 - c.b) * f};
    return t;
}

/* ------------------------------------------------------------- drawing */

static void marker_path(cairo_t *cr, int shape, double x, double y, double r)
{
    switch (shape % 6) {
    case 0:
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, r, 0, 2 * M_PI);
        break;
    case 1: {
        double h = r * 0.88;
        cairo_rectangle(cr, x - h, y - h, 2 * h, 2 * h);
        break;
    }
    case 2: {
        double h = r * 1.2;
        cairo_move_to(cr, x, y - h);
        cairo_line_to(cr, x + h * 0.866, y + h * 0.5);
        cairo_line_to(cr, x - h * 0.866, y + h * 0.5);
        cairo_close_path(cr);
        break;
    }
    case 3: {
        double h = r * 1.2;
        cairo_move_to(cr, x, y - h);
        cairo_line_to(cr, x + h * 0.8, y);
        cairo_line_to(cr, x, y + h);
        cairo_line_to(cr, x - h * 0.8, y);
        cairo_close_path(cr);
        break;
    }
    case 4: {
        double h = r * 1.2;
        cairo_move_to(cr, x, y + h);
        cairo_line_to(cr, x + h * 0.866, y - h * 0.5);
        cairo_line_to(cr, x - h * 0.866, y - h * 0.5);
        cairo_close_path(cr);
        break;
    }
    default: {
        double h = r * 1.1;
        for (int i = 0; i < 5; i++) {
            double a = -M_PI / 2 + i * 2 * M_PI / 5;
            if (i == 0)
                cairo_move_to(cr, x + h * cos(a), y + h * sin(a));
            else
                cairo_line_to(cr, x + h * cos(a), y + h * sin(a));
        }
        cairo_close_path(cr);
        break;
    }
    }
}

static void draw_marker(cairo_t *cr, int index, int style, double x, double y, double r, double s)
{
    rgb col = series_color(index);
    marker_path(cr, index, x, y, r);
    if (style & PR_CHART_HOLLOW_MARKERS) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill_preserve(cr);
        chart_set_rgb(cr, col);
        cairo_set_line_width(cr, 1.6 * s);
        cairo_stroke(cr);
    } else {
        chart_set_rgb(cr, col);
        cairo_fill(cr);
    }
}

/* The radius of a series' markers: hollow ones ring a solid one. */
static double marker_r(int style, double r)
{
    return style & PR_CHART_HOLLOW_MARKERS ? 1.4 * r : r;
}

/* Sets the line style of a series; returns 0 when it has no line. */
static int series_line(cairo_t *cr, int style, double s)
{
    if (style & PR_CHART_NO_LINE)
        return 0;
    double w = (style & PR_CHART_HOLLOW_MARKERS) ? 1.2 * s : 2.0 * s;
    cairo_set_line_width(cr, w);
    if (style & PR_CHART_DASHED) {
        double d[] = {6 * s, 4 * s};
        cairo_set_dash(cr, d, 2, 0);
    } else {
        cairo_set_dash(cr, NULL, 0, 0);
    }
    return 1;
}

/* A warning sign no font need draw (none installed has ❗): a crimson
 * disc ringed in white, so that it stands out on a bar or a line, with a
 * white exclamation mark. */
void chart_draw_flag_badge(cairo_t *cr, double x, double y, double r)
{
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, r, 0, 2 * M_PI);
    chart_set_rgb(cr, c_flag);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 0.22 * r);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_stroke(cr);
    /* the mark: a bar tapering downwards, then a dot */
    double w = 0.2 * r;
    cairo_move_to(cr, x - w, y - 0.62 * r);
    cairo_line_to(cr, x + w, y - 0.62 * r);
    cairo_line_to(cr, x + 0.55 * w, y + 0.18 * r);
    cairo_line_to(cr, x - 0.55 * w, y + 0.18 * r);
    cairo_close_path(cr);
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y + 0.46 * r, 0.14 * r, 0, 2 * M_PI);
    cairo_fill(cr);
}

/* The badge's radius at scale s. */
static double badge_r(double s)
{
    return 7 * s;
}

static void draw_title(const pr_chart *c, rctx *r, const plan *p)
{
    if (!c->title[0])
        return;
    chart_set_rgb(r->cr, c_text);
    chart_text_set(r, r->f_title, c->title, p->W - 2 * p->m, PANGO_ALIGN_CENTER);
    chart_text_draw(r, p->W / 2, p->m, 0.5, 0);
}

static void draw_legend(const pr_chart *c, rctx *r, const plan *p)
{
    if (!p->nleg)
        return;
    cairo_t *cr = r->cr;
    double s = p->s;
    double y0 = p->H - p->m - p->legrows * p->leg_rowh;
    for (int i = 0; i < p->nleg; i++) {
        const chart_entry *e = &p->leg[i];
        double x = p->m + p->rowoff[e->row] + e->x;
        double cy = y0 + (e->row + 0.5) * p->leg_rowh;
        double sw = p->swatch;
        if (e->series == LEG_FLAG) {
            chart_draw_flag_badge(cr, x + sw / 2, round(cy) + 0.5, badge_r(s));
        } else if (e->series < 0) {
            chart_set_rgb(cr, c_ideal);
            cairo_set_line_width(cr, 1.6 * s);
            double d[] = {5 * s, 3.5 * s};
            cairo_set_dash(cr, d, 2, 0);
            cairo_move_to(cr, x, round(cy) + 0.5);
            cairo_line_to(cr, x + sw, round(cy) + 0.5);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
        } else if (c->kind == PR_CHART_BARS) {
            int style = c->series[e->series].style;
            rgb col = series_color(e->series);
            double h = 10 * s;
            cairo_rectangle(cr, round(x), round(cy - h / 2), round(sw), round(h));
            if (style & PR_CHART_HOLLOW_MARKERS) {
                chart_set_rgb(cr, tint(col, 0.7));
                cairo_fill_preserve(cr);
                chart_set_rgb(cr, col);
                cairo_set_line_width(cr, 1.5 * s);
                cairo_stroke(cr);
            } else {
                chart_set_rgb(cr, col);
                cairo_fill(cr);
            }
        } else {
            int style = c->series[e->series].style;
            chart_set_rgb(cr, series_color(e->series));
            if (series_line(cr, style, s)) {
                cairo_move_to(cr, x, round(cy) + 0.5);
                cairo_line_to(cr, x + sw, round(cy) + 0.5);
                cairo_stroke(cr);
            }
            cairo_set_dash(cr, NULL, 0, 0);
            if (!(style & PR_CHART_NO_MARKERS))
                draw_marker(cr, e->series, style, x + sw / 2, round(cy) + 0.5,
                            marker_r(style, 4.2 * s), s);
        }
        double tx = x + sw + 6 * s;
        double wrap = e->w - sw - 6 * s;
        chart_set_rgb(cr, c_text);
        chart_text_set(r, r->f_tick, e->text, wrap + 1, PANGO_ALIGN_LEFT);
        chart_text_draw(r, tx, cy, 0, 0.5);
    }
}

static void draw_no_data(const pr_chart *c, rctx *r, const plan *p)
{
    chart_set_rgb(r->cr, c_note);
    chart_text_set(r, r->f_axis, chart_no_data_text(c), 0, PANGO_ALIGN_LEFT);
    chart_text_draw(r, p->px + p->pw / 2, p->py + p->ph / 2, 0.5, 0.5);
}

static void draw_lines(const pr_chart *c, rctx *r, const plan *p)
{
    cairo_t *cr = r->cr;
    double s = p->s, mr = 4.2 * s;
    cairo_save(cr);
    double pad = mr + 2 * s;
    cairo_rectangle(cr, p->px - pad, p->py - pad, p->pw + 2 * pad, p->ph + 2 * pad);
    cairo_clip(cr);

    if (p->ideal_end > 0) {
        cairo_save(cr);
        cairo_reset_clip(cr);
        cairo_rectangle(cr, p->px, p->py, p->pw, p->ph);
        cairo_clip(cr);
        chart_set_rgb(cr, c_ideal);
        cairo_set_line_width(cr, 1.6 * s);
        double d[] = {5 * s, 3.5 * s};
        cairo_set_dash(cr, d, 2, 0);
        double l0 = log2(c->ideal_x1), l1 = log2(p->ideal_end);
        int n = 96;
        for (int i = 0; i <= n; i++) {
            double x = exp2(l0 + (l1 - l0) * i / n);
            double y = c->ideal_y1 * (x / c->ideal_x1);
            if (i == 0)
                cairo_move_to(cr, chart_map_x(p, x), chart_map_y(p, y));
            else
                cairo_line_to(cr, chart_map_x(p, x), chart_map_y(p, y));
        }
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_restore(cr);
    }
    if (c->has_ref) {
        /* the reference level, across the whole plot */
        chart_set_rgb(cr, c_ideal);
        cairo_set_line_width(cr, 1.6 * s);
        double d[] = {5 * s, 3.5 * s};
        cairo_set_dash(cr, d, 2, 0);
        double y = round(chart_map_y(p, c->ref_y)) + 0.5;
        cairo_move_to(cr, p->px, y);
        cairo_line_to(cr, p->px + p->pw, y);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }

    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (int i = 0; i < c->nseries; i++) {
        const chart_series *se = &c->series[i];
        if (se->npts < 2)
            continue;
        int owned;
        chart_pt *pts = chart_sorted_points(se, &owned);
        chart_set_rgb(cr, series_color(i));
        if (series_line(cr, se->style, s)) {
            /* a segment only between neighbours with no gap between them */
            const chart_pt *prev = NULL;
            for (size_t j = 0; j < se->npts; j++) {
                if (!chart_pt_visible(c, &pts[j]))
                    continue;
                double x = chart_map_x(p, pts[j].x), y = chart_map_y(p, pts[j].y);
                if (prev && chart_joined(se, prev, &pts[j]) == CH_JOIN_LINE)
                    cairo_line_to(cr, x, y);
                else
                    cairo_move_to(cr, x, y);
                prev = &pts[j];
            }
            cairo_stroke(cr);
            /* one run set's points powers of two apart: thin dots, no line
             * through values nobody measured */
            double dots[] = {1.2 * s, 3.4 * s};
            cairo_set_dash(cr, dots, 2, 0);
            cairo_set_line_width(cr, 1.3 * s);
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
            prev = NULL;
            for (size_t j = 0; j < se->npts; j++) {
                if (!chart_pt_visible(c, &pts[j]))
                    continue;
                if (prev && chart_joined(se, prev, &pts[j]) == CH_JOIN_SPAN) {
                    cairo_move_to(cr, chart_map_x(p, prev->x), chart_map_y(p, prev->y));
                    cairo_line_to(cr, chart_map_x(p, pts[j].x), chart_map_y(p, pts[j].y));
                }
                prev = &pts[j];
            }
            cairo_stroke(cr);
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
        }
        cairo_set_dash(cr, NULL, 0, 0);
        if (owned)
            free(pts);
    }
    cairo_set_dash(cr, NULL, 0, 0);
    /* Hollow markers (published figures) first and larger, solid ones
     * (measured) on top: a measurement equal to the published figure shows
     * as a dot inside its ring instead of vanishing under it. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < c->nseries; i++) {
            const chart_series *se = &c->series[i];
            if ((!(se->style & PR_CHART_HOLLOW_MARKERS)) != pass)
                continue;
            /* thousands of points: markers would only hide the line */
            if ((se->npts > 200 && !(se->style & PR_CHART_NO_LINE)) ||
                (se->style & PR_CHART_NO_MARKERS))
                continue;
            for (size_t j = 0; j < se->npts; j++)
                if (chart_pt_visible(c, &se->pts[j]))
                    draw_marker(cr, i, se->style, chart_map_x(p, se->pts[j].x),
                                chart_map_y(p, se->pts[j].y), marker_r(se->style, mr), s);
        }
    cairo_restore(cr);
    /* Flags on top of everything, just above their points (the series'
     * marker stays visible), unclipped: a point at the top of the range
     * keeps its badge. */
    double br = badge_r(s);
    for (int i = 0; i < c->nseries; i++) {
        const chart_series *se = &c->series[i];
        for (size_t j = 0; j < se->npts; j++)
            if (se->pts[j].flagged && chart_pt_visible(c, &se->pts[j])) {
                double x = chart_map_x(p, se->pts[j].x), y = chart_map_y(p, se->pts[j].y);
                double off = marker_r(se->style, mr) + 1.5 * s + br;
                /* stays inside the image: below the point when above runs out */
                double by = y - off - br < 0 ? y + off : y - off;
                chart_draw_flag_badge(cr, x, by, br);
            }
    }
}

static void fmt_value(double v, char *out, size_t n)
{
    double a = fabs(v);
    if (v == 0)
        snprintf(out, n, "0");
    else if (a >= 1e4 && a < 1e15)
        snprintf(out, n, "%.0f", v);
    else
        snprintf(out, n, "%.4g", v);
}

/* The label of a missing bar, standing on the baseline in the bar's place,
 * in the axis labels' size (a 10-pixel grey "TODO" read as a smudge):
 * across if it fits, else reading upwards on a white ground, so that it
 * stays legible where it is wider than a thin bar. */
static void draw_state(rctx *r, const char *state, double cx, double base, double bw)
{
    cairo_t *cr = r->cr;
    double s = r->s;
    chart_text_set(r, r->f_axis, state, 0, PANGO_ALIGN_LEFT);
    if (r->lw <= bw - 2 * s) {
        chart_set_rgb(cr, c_note);
        chart_text_draw(r, cx, base - 3 * s, 0.5, 1);
        return;
    }
    if (r->lh > bw) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_rectangle(cr, round(cx - r->lh / 2), round(base - 3 * s - r->lw - s), round(r->lh),
                        round(r->lw + 2 * s));
        cairo_fill(cr);
    }
    chart_set_rgb(cr, c_note);
    chart_text_draw_up(r, cx, base - 3 * s, 0, 0.5);
}

static void draw_bars(const pr_chart *c, rctx *r, const plan *p)
{
    cairo_t *cr = r->cr;
    double s = p->s;
    if (c->ncats == 0 || c->nseries == 0)
        return;
    double slot = p->pw / c->ncats;
    double bw = 0.8 * slot / c->nseries;
    double base = p->py + p->ph;
    char lab[64];
    /* value labels above the bars: on all bars or on none */
    int values_fit = 1;
    for (int k = 0; k < c->ncats && values_fit; k++)
        for (int i = 0; i < c->nseries && values_fit; i++) {
            const chart_cell *cell = chart_cell_get(c, i, k);
            if (cell && cell->kind == CELL_VALUE) {
                fmt_value(cell->value, lab, sizeof lab);
                chart_text_set(r, r->f_small, lab, 0, PANGO_ALIGN_LEFT);
                values_fit = r->lw <= bw + 2 * s;
            }
        }
    cairo_save(cr);
    cairo_rectangle(cr, p->px, p->py - p->gap, p->pw, p->ph + p->gap);
    cairo_clip(cr);
    for (int k = 0; k < c->ncats; k++) {
        for (int i = 0; i < c->nseries; i++) {
            const chart_cell *cell = chart_cell_get(c, i, k);
            double x = p->px + k * slot + 0.1 * slot + i * bw;
            double cx = x + bw / 2;
            if (cell && cell->kind == CELL_VALUE) {
                rgb col = series_color(i);
                double top = chart_map_y(p, cell->value);
                /* pixel-aligned edges, a hairline of white between bars */
                double x0 = round(x), x1 = round(x + bw);
                if (x1 - x0 >= 4)
                    x1 -= 1;
                if (x1 <= x0)
                    x1 = x0 + 1;
                double y0 = round(top);
                if (y0 > base - 1 && cell->value > 0)
                    y0 = base - 1;
                cairo_rectangle(cr, x0, y0, x1 - x0, base - y0);
                if (c->series[i].style & PR_CHART_HOLLOW_MARKERS) {
                    chart_set_rgb(cr, tint(col, 0.7));
                    cairo_fill(cr);
                    double lw = fmax(1, round(1.5 * s));
                    cairo_rectangle(cr, x0 + lw / 2, y0 + lw / 2, x1 - x0 - lw, base - y0 - lw / 2);
                    chart_set_rgb(cr, col);
                    cairo_set_line_width(cr, lw);
                    cairo_stroke(cr);
                } else {
                    chart_set_rgb(cr, col);
                    cairo_fill(cr);
                }
                if (values_fit) {
                    fmt_value(cell->value, lab, sizeof lab);
                    chart_text_set(r, r->f_small, lab, 0, PANGO_ALIGN_LEFT);
                    chart_set_rgb(cr, c_text);
                    chart_text_draw(r, cx, y0 - 2 * s, 0.5, 1);
                }
            }
        }
    }
    cairo_restore(cr);
    /* Flags above their bars and value labels, unclipped. */
    double br = badge_r(s), labh = 0;
    if (values_fit && chart_text_set(r, r->f_small, "0123456789", 0, PANGO_ALIGN_LEFT) == 0)
        labh = r->lh;
    for (int k = 0; k < c->ncats; k++)
        for (int i = 0; i < c->nseries; i++) {
            const chart_cell *cell = chart_cell_get(c, i, k);
            if (!cell || cell->kind != CELL_VALUE || !cell->flagged)
                continue;
            double cx = p->px + k * slot + 0.1 * slot + (i + 0.5) * bw;
            double top = fmin(round(chart_map_y(p, cell->value)), base - 1);
            double by = top - 2 * s - labh - 1.5 * s - br;
            chart_draw_flag_badge(cr, cx, by < br ? br : by, br);
        }
    cairo_save(cr);
    cairo_rectangle(cr, p->px, p->py - p->gap, p->pw, p->ph + p->gap);
    cairo_clip(cr);
    /* States last: a label wider than its bar's place stays on top. */
    for (int k = 0; k < c->ncats; k++)
        for (int i = 0; i < c->nseries; i++) {
            const chart_cell *cell = chart_cell_get(c, i, k);
            if (cell && cell->kind == CELL_STATE)
                draw_state(r, cell->state, p->px + k * slot + 0.1 * slot + (i + 0.5) * bw, base,
                           bw);
        }
    cairo_restore(cr);
}

/* Renders the whole chart on cr (already sized W x H). */
int chart_render_on(const pr_chart *c, cairo_t *cr, int W, int H, pr_err *err)
{
    rctx r;
    plan p;
    chart_rctx_init(&r, cr, W, H, err);
    int rc = chart_make_plan(c, &r, W, H, &p);
    if (rc == 0) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
        chart_draw_grid_and_axes(c, &r, &p);
        if (c->kind == PR_CHART_LINE_LOG2X) {
            draw_lines(c, &r, &p);
            if (!p.have_points)
                draw_no_data(c, &r, &p);
        } else {
            draw_bars(c, &r, &p);
            if (!p.have_bars)
                draw_no_data(c, &r, &p);
        }
        draw_title(c, &r, &p);
        draw_legend(c, &r, &p);
        if (r.failed)
            rc = -1;
        else if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
            rc = pr_err_set(err, NULL, 0, 0, "chart", "cairo: %s",
                            cairo_status_to_string(cairo_status(cr)));
    }
    chart_plan_free(&p);
    chart_rctx_free(&r);
    return rc;
}
