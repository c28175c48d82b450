/* chart_layout: where everything goes: title, legend rows, category
 * labels, the plot area left by the labels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart_int.h"

/* -------------------------------------------------------------- layout */
void chart_plan_free(plan *p)
{
    free(p->leg);
    free(p->rowoff);
}

/* The legend names only what is drawn: a series without a point, bar or
 * state, or an ideal line with no data beyond its base, has no entry. */
static int plan_legend(const pr_chart *c, rctx *r, plan *p)
{
    /* the series, then the ideal line, the reference level and the flag */
    int n = c->nseries + 3;
    p->leg = pr_xcalloc((size_t)n + 1, sizeof *p->leg);
    p->rowoff = pr_xcalloc((size_t)n + 1, sizeof *p->rowoff);
    double avail = p->W - 2 * p->m;
    double sw = p->swatch, sgap = 6 * p->s, egap = 18 * p->s;
    double x = 0, rowh = 0;
    int row = 0;
    for (int i = 0; i < n; i++) {
        int si = i < c->nseries ? i : LEG_IDEAL - (i - c->nseries);
        const char *text = si >= 0           ? c->series[si].label
                           : si == LEG_IDEAL ? chart_ideal_label(c)
                           : si == LEG_REF   ? chart_ref_label(c)
                                             : chart_flag_label(c);
        int drawn = si >= 0           ? chart_series_drawn(c, si)
                    : si == LEG_IDEAL ? chart_ideal_drawn(c)
                    : si == LEG_REF   ? c->has_ref && c->kind == PR_CHART_LINE_LOG2X
                                      : chart_any_flagged(c);
        if (!*text || !drawn)
            continue;
        if (chart_text_set(r, r->f_tick, text, 0, PANGO_ALIGN_LEFT))
            return -1;
        double tw = r->lw;
        if (sw + sgap + tw > avail)
            tw = avail - sw - sgap; /* drawn wrapped */
        chart_entry *e = &p->leg[p->nleg++];
        e->series = si;
        e->text = text;
        e->w = sw + sgap + tw;
        if (x > 0 && x + e->w > avail) {
            p->rowoff[row] = (avail - (x - egap)) / 2;
            row++;
            x = 0;
        }
        e->x = x;
        e->row = row;
        x += e->w + egap;
        rowh = fmax(rowh, r->lh);
        if (sw + sgap + r->lw > avail) {
            chart_text_set(r, r->f_tick, text, tw, PANGO_ALIGN_LEFT);
            rowh = fmax(rowh, r->lh);
        }
    }
    if (p->nleg) {
        p->rowoff[row] = (avail - (x - egap)) / 2;
        p->legrows = row + 1;
        p->leg_rowh = rowh + 4 * p->s;
    }
    return 0;
}

/* How the category labels fit their slots: all on one line; else wrapped
 * at spaces to at most two lines (no word wider than the slot); else one
 * line each, only every cat_step-th drawn.  *h: the height they take. */
static int plan_categories(const pr_chart *c, rctx *r, plan *p, double *h)
{
    double slot = p->pw / c->ncats, avail = slot - 4 * r->s, maxw = 0, lineh = 0;
    for (int k = 0; k < c->ncats; k++) {
        if (chart_text_set(r, r->f_tick, c->cats[k], 0, PANGO_ALIGN_CENTER))
            return -1;
        maxw = fmax(maxw, r->lw);
        lineh = fmax(lineh, r->lh);
    }
    p->cat_wrap = 0;
    p->cat_step = 1;
    *h = lineh;
    if (maxw <= avail)
        return 0;
    int wrap_ok = 1;
    double wh = 0;
    r->wrap_mode = PANGO_WRAP_WORD;
    for (int k = 0; k < c->ncats && wrap_ok; k++) {
        const char *t = c->cats[k];
        if (!strchr(t, ' ')) {
            wrap_ok = 0;
            break;
        }
        /* every word must fit: else Pango breaks inside it */
        for (const char *w = t; *w && wrap_ok;) {
            size_t n = strcspn(w, " ");
            if (n) {
                char *word = pr_xstrndup(w, n);
                chart_text_set(r, r->f_tick, word, 0, PANGO_ALIGN_CENTER);
                free(word);
                if (r->lw > avail)
                    wrap_ok = 0;
            }
            w += n;
            w += strspn(w, " ");
        }
        if (!wrap_ok)
            break;
        chart_text_set(r, r->f_tick, t, avail, PANGO_ALIGN_CENTER);
        if (pango_layout_get_line_count(r->pl) > 2)
            wrap_ok = 0;
        wh = fmax(wh, r->lh);
    }
    r->wrap_mode = PANGO_WRAP_WORD_CHAR;
    if (r->failed)
        return -1;
    if (wrap_ok) {
        p->cat_wrap = 1;
        *h = wh;
        return 0;
    }
    p->cat_step = (int)ceil((maxw + 8 * r->s) / slot);
    if (p->cat_step < 1)
        p->cat_step = 1;
    return 0;
}

/* The error for a plot squeezed out by its labels, naming what took the
 * room (the caller prefixes the chart's file). */
static int too_small(rctx *r, const plan *p)
{
    return pr_err_set(r->err, NULL, 0, 0, "chart",
                      "%.0fx%.0f pixels is too small for the chart's labels (title %.0f px, "
                      "x label %.0f px, y label %.0f px, legend %d row(s) of %.0f px)",
                      p->W, p->H, p->title_h, p->xlab_h, p->ylab_w, p->legrows, p->leg_rowh);
}

int chart_make_plan(const pr_chart *c, rctx *r, int W, int H, plan *p)
{
    memset(p, 0, sizeof *p);
    p->W = W;
    p->H = H;
    p->s = r->s;
    p->m = 10 * r->s;
    p->gap = 6 * r->s;
    p->tick = 5 * r->s;
    p->swatch = c->kind == PR_CHART_BARS ? 14 * r->s : 30 * r->s;
    double m = p->m, gap = p->gap;

    /* title */
    double top = m;
    if (c->title[0]) {
        if (chart_text_set(r, r->f_title, c->title, W - 2 * m, PANGO_ALIGN_CENTER))
            return -1;
        p->title_h = r->lh;
        top += p->title_h + 1.5 * gap;
    }
    if (chart_text_set(r, r->f_tick, "0123456789", 0, PANGO_ALIGN_LEFT))
        return -1;
    double digit_h = r->lh;
    top = fmax(top, m + digit_h / 2 + 2);

    if (plan_legend(c, r, p))
        return -1;
    double legend_h = p->legrows * p->leg_rowh;

    double ymin, ymax;
    double right_over = 0;
    if (c->kind == PR_CHART_LINE_LOG2X) {
        chart_line_ranges(c, p, &ymin, &ymax);
        char lab[64];
        chart_x_tick_label(p->emax, c->x_bytes, lab, sizeof lab);
        if (chart_text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT))
            return -1;
        right_over = r->lw / 2 + 2;
        p->xtick_h = digit_h;
    } else {
        ymax = chart_bar_ymax(c, p);
        p->xtick_h = digit_h; /* refined once the slot width is known */
    }
    if (c->x_label[0]) {
        if (chart_text_set(r, r->f_axis, c->x_label, W - 2 * m, PANGO_ALIGN_CENTER))
            return -1;
        p->xlab_h = r->lh;
    }

    /* bottom stack: tick marks, tick labels, axis label, legend */
    double bottom = H - m;
    if (p->nleg)
        bottom -= legend_h + gap;
    if (p->xlab_h > 0)
        bottom -= p->xlab_h + gap / 2;

    /* y axis label (rotated, wrapped at the plot height) and y ticks; the
     * bar category labels may wrap to two lines, estimated first */
    for (int pass = 0; pass < 2; pass++) {
        p->py = round(top);
        double ph = bottom - p->xtick_h - p->tick - gap / 2 - p->py;
        p->ph = round(ph);
        if (p->ph < 20 * r->s || p->ph < 10)
            return too_small(r, p);
        int target = (int)(p->ph / (45 * r->s));
        if (c->kind == PR_CHART_LINE_LOG2X && c->y_log)
            chart_y_ticks_log(ymin, ymax, target > 8 ? 8 : target, &p->yt);
        else
            chart_y_ticks(ymax, target > 8 ? 8 : target, &p->yt);
        p->ytick_w = 0;
        char lab[64];
        for (int k = 0; k <= p->yt.n; k++) {
            chart_y_tick_label(&p->yt, k, lab, sizeof lab);
            if (chart_text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT))
                return -1;
            p->ytick_w = fmax(p->ytick_w, r->lw);
        }
        p->ylab_w = 0;
        if (c->y_label[0]) {
            if (chart_text_set(r, r->f_axis, c->y_label, p->ph, PANGO_ALIGN_CENTER))
                return -1;
            p->ylab_w = r->lh + gap;
        }
        p->px = round(m + p->ylab_w + p->ytick_w + p->tick + 3 * r->s);
        p->pw = round(W - m - right_over - p->px);
        if (p->pw < 20 * r->s || p->pw < 10)
            return too_small(r, p);
        if (c->kind != PR_CHART_BARS || c->ncats == 0)
            break;
        double h;
        if (plan_categories(c, r, p, &h))
            return -1;
        if (pass == 1 || h <= p->xtick_h + 0.5)
            break;
        p->xtick_h = h;
    }
    if (c->kind == PR_CHART_LINE_LOG2X && chart_plan_x_ticks(c, r, p))
        return -1;
    return 0;
}
