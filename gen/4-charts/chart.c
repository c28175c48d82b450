/* chart: the chart model and its setters.  See chart.h for the model and
 * the ownership rules, chart_int.h for how the files share the work. */
#include "chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/md.h"
#include "chart_int.h"

/* A label as the chart keeps it: line breaks and other control characters
 * become spaces, since each line of a label would be a paragraph of its own
 * that the line limit (CHART_MAX_LINES) does not bound. */
static char *label_dup(const char *s)
{
    char *d = pr_xstrdup(s ? s : "");
    for (char *p = d; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    return d;
}

pr_chart *chart_new(pr_chart_kind kind, const char *title, const char *x_label, const char *y_label)
{
    pr_chart *c = pr_xcalloc(1, sizeof *c);
    c->kind = kind == PR_CHART_BARS ? PR_CHART_BARS : PR_CHART_LINE_LOG2X;
    c->lang = PR_CHART_LANG_EN;
    c->title = label_dup(title);
    c->x_label = label_dup(x_label);
    c->y_label = label_dup(y_label);
    c->decimals = -1;
    return c;
}

void chart_free(pr_chart *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->nseries; i++) {
        chart_series *s = &c->series[i];
        free(s->label);
        for (size_t j = 0; j < s->npts; j++)
            free(s->pts[j].text);
        free(s->pts);
        free(s->gaps);
        for (size_t j = 0; j < s->ncells; j++) {
            free(s->cells[j].state);
            free(s->cells[j].text);
        }
        free(s->cells);
    }
    free(c->series);
    for (int i = 0; i < c->ncats; i++)
        free(c->cats[i]);
    free(c->cats);
    free(c->title);
    free(c->x_label);
    free(c->y_label);
    free(c->ideal_label);
    free(c->flag_label);
    free(c->alt_note);
    free(c->ref_label);
    free(c);
}

void chart_set_lang(pr_chart *c, pr_chart_lang lang)
{
    c->lang = lang == PR_CHART_LANG_ZH ? PR_CHART_LANG_ZH : PR_CHART_LANG_EN;
}

int chart_add_series(pr_chart *c, const char *label, int style)
{
    if (c->nseries == c->capseries) {
        c->capseries = c->capseries ? 2 * c->capseries : 4;
        c->series = pr_xrealloc(c->series, (size_t)c->capseries * sizeof *c->series);
    }
    chart_series *s = &c->series[c->nseries];
    memset(s, 0, sizeof *s);
    s->label = label_dup(label);
    s->style = style;
    return c->nseries++;
}

void chart_add_point(pr_chart *c, int series, double x, double y)
{
    chart_add_point_full(c, series, x, y, NULL, 0, 0);
}

void chart_add_point_text(pr_chart *c, int series, double x, double y, const char *text)
{
    chart_add_point_full(c, series, x, y, text, 0, 0);
}

void chart_add_point_flagged(pr_chart *c, int series, double x, double y, const char *text)
{
    chart_add_point_full(c, series, x, y, text, 0, 1);
}

/* The text is copied into the point; chart_free frees it. */
void chart_add_point_full(pr_chart *c, int series, double x, double y, const char *text,
                          int run_set, int flagged)
{
    if (series < 0 || series >= c->nseries)
        return;
    if (!isfinite(x) || !isfinite(y) || x <= 0 || y < 0)
        return;
    chart_series *s = &c->series[series];
    if (s->npts == s->cappts) {
        s->cappts = s->cappts ? 2 * s->cappts : 8;
        s->pts = pr_xrealloc(s->pts, s->cappts * sizeof *s->pts);
    }
    if (s->npts && x < s->pts[s->npts - 1].x)
        s->unsorted = 1;
    s->pts[s->npts].x = x;
    s->pts[s->npts].y = y;
    s->pts[s->npts].text = text ? label_dup(text) : NULL;
    s->pts[s->npts].set = run_set;
    s->pts[s->npts].flagged = flagged != 0;
    s->npts++;
}

void chart_set_flag_label(pr_chart *c, const char *label)
{
    free(c->flag_label);
    c->flag_label = label ? label_dup(label) : NULL;
}

void chart_set_alt_note(pr_chart *c, const char *note)
{
    free(c->alt_note);
    c->alt_note = note ? label_dup(note) : NULL;
}

void chart_add_ref_y(pr_chart *c, double y, const char *label)
{
    if (!isfinite(y) || y < 0)
        return;
    c->has_ref = 1;
    c->ref_y = y;
    free(c->ref_label);
    c->ref_label = label && *label ? label_dup(label) : NULL;
}

void chart_add_gap(pr_chart *c, int series, double x)
{
    if (series < 0 || series >= c->nseries || !isfinite(x) || x <= 0)
        return;
    chart_series *s = &c->series[series];
    if (s->ngaps == s->capgaps) {
        s->capgaps = s->capgaps ? 2 * s->capgaps : 8;
        s->gaps = pr_xrealloc(s->gaps, s->capgaps * sizeof *s->gaps);
    }
    s->gaps[s->ngaps++] = x;
}

void chart_set_y_log(pr_chart *c, int log_axis)
{
    c->y_log = log_axis != 0;
}

void chart_set_decimals(pr_chart *c, int decimals)
{
    c->decimals = decimals < 0 ? -1 : decimals > 12 ? 12 : decimals;
}

void chart_add_ideal(pr_chart *c, double x1, double y1)
{
    if (!isfinite(x1) || !isfinite(y1) || x1 <= 0 || y1 < 0)
        return;
    c->has_ideal = 1;
    c->ideal_x1 = x1;
    c->ideal_y1 = y1;
}

void chart_set_ideal_label(pr_chart *c, const char *label)
{
    free(c->ideal_label);
    c->ideal_label = label ? label_dup(label) : NULL;
}

void chart_set_x_bytes(pr_chart *c, int bytes_axis)
{
    c->x_bytes = bytes_axis != 0;
}

void chart_add_category(pr_chart *c, const char *label)
{
    if (c->ncats == c->capcats) {
        c->capcats = c->capcats ? 2 * c->capcats : 8;
        c->cats = pr_xrealloc(c->cats, (size_t)c->capcats * sizeof *c->cats);
    }
    c->cats[c->ncats++] = label_dup(label);
}

static chart_cell *cell_for(pr_chart *c, int series, int category)
{
    if (series < 0 || series >= c->nseries || category < 0 || category >= c->ncats)
        return NULL;
    chart_series *s = &c->series[series];
    if ((size_t)category >= s->ncells) {
        size_t n = (size_t)c->ncats;
        s->cells = pr_xrealloc(s->cells, n * sizeof *s->cells);
        memset(s->cells + s->ncells, 0, (n - s->ncells) * sizeof *s->cells);
        s->ncells = n;
    }
    return &s->cells[category];
}

void chart_set_bar(pr_chart *c, int series, int category, double value)
{
    chart_set_bar_text(c, series, category, value, NULL);
}

/* The text is copied into the cell; chart_free frees it. */
void chart_set_bar_text(pr_chart *c, int series, int category, double value, const char *text)
{
    chart_cell *cell = cell_for(c, series, category);
    if (!cell)
        return;
    free(cell->state);
    cell->state = NULL;
    free(cell->text);
    cell->text = text && isfinite(value) && value >= 0 ? label_dup(text) : NULL;
    if (isfinite(value) && value >= 0) {
        cell->kind = CELL_VALUE;
        cell->value = value;
    } else {
        cell->kind = CELL_UNSET;
    }
}

void chart_flag_bar(pr_chart *c, int series, int category)
{
    chart_cell *cell = cell_for(c, series, category);
    if (cell)
        cell->flagged = 1;
}

void chart_set_bar_state(pr_chart *c, int series, int category, const char *state_label)
{
    chart_cell *cell = cell_for(c, series, category);
    if (!cell)
        return;
    free(cell->state);
    free(cell->text);
    cell->text = NULL;
    cell->kind = CELL_STATE;
    cell->state = label_dup(state_label && *state_label ? state_label : "\xE2\x80\x93");
}

const chart_cell *chart_cell_get(const pr_chart *c, int series, int category)
{
    const chart_series *s = &c->series[series];
    if ((size_t)category < s->ncells)
        return &s->cells[category];
    return NULL;
}

const char *chart_ideal_label(const pr_chart *c)
{
    if (c->ideal_label)
        return c->ideal_label;
    return c->lang == PR_CHART_LANG_ZH ? "理想线性扩展" : "ideal linear scaling";
}

const char *chart_flag_label(const pr_chart *c)
{
    if (c->flag_label)
        return c->flag_label;
    return c->lang == PR_CHART_LANG_ZH ? "存疑：见表格脚注" : "flagged: see the table's footnote";
}

const char *chart_ref_label(const pr_chart *c)
{
    return c->ref_label ? c->ref_label : chart_ideal_label(c);
}

int chart_any_flagged(const pr_chart *c)
{
    for (int i = 0; i < c->nseries; i++) {
        const chart_series *s = &c->series[i];
        for (size_t j = 0; j < s->npts; j++)
            if (s->pts[j].flagged && chart_pt_visible(c, &s->pts[j]))
                return 1;
        for (size_t k = 0; k < s->ncells; k++)
            if (s->cells[k].flagged && s->cells[k].kind == CELL_VALUE)
                return 1;
    }
    return 0;
}

const char *chart_no_data_text(const pr_chart *c)
{
    return c->lang == PR_CHART_LANG_ZH ? "无数据" : "no data";
}

typedef struct {
    chart_pt p;
    size_t i; /* order added */
} chart_pti;

static int cmp_pti(const void *a, const void *b)
{
    const chart_pti *pa = a, *pb = b;
    if (pa->p.x != pb->p.x)
        return pa->p.x < pb->p.x ? -1 : 1;
    return pa->i < pb->i ? -1 : pa->i > pb->i;
}

/* Who frees: see chart_int.h. */
chart_pt *chart_sorted_points(const chart_series *s, int *owned)
{
    *owned = 0;
    if (!s->unsorted)
        return s->pts;
    chart_pti *t = pr_xmalloc(s->npts * sizeof *t);
    for (size_t i = 0; i < s->npts; i++) {
        t[i].p = s->pts[i];
        t[i].i = i;
    }
    pr_qsort(t, s->npts, sizeof *t, cmp_pti);
    chart_pt *p = pr_xmalloc(s->npts * sizeof *p);
    for (size_t i = 0; i < s->npts; i++)
        p[i] = t[i].p;
    free(t);
    *owned = 1;
    return p;
}

int chart_pt_visible(const pr_chart *c, const chart_pt *q)
{
    return !c->y_log || q->y > 0;
}

/* On the log2 axis every power of two is a tick: a point at 1 and one at 8
 * GPUs joined by a segment drew values at 2 and 4 that nobody measured, so
 * points more than a factor of two apart are not joined either; a
 * reference line (no markers: a peak) joins its ends. */
int chart_joined(const chart_series *s, const chart_pt *a, const chart_pt *b)
{
    double x0 = a->x, x1 = b->x;
    if (a->set != b->set)
        return 0;
    for (size_t i = 0; i < s->ngaps; i++)
        if (s->gaps[i] > x0 && s->gaps[i] < x1)
            return 0;
    if (x1 > 2 * x0 * (1 + 1e-9) && !(s->style & PR_CHART_NO_MARKERS))
        return CH_JOIN_SPAN;
    return CH_JOIN_LINE;
}

/* Whether two neighbouring points of some series of c are joined the
 * way kind says (chart_joined). */
static int any_join(const pr_chart *c, int kind)
{
    if (c->kind != PR_CHART_LINE_LOG2X)
        return 0;
    int found = 0;
    for (int i = 0; i < c->nseries && !found; i++) {
        const chart_series *s = &c->series[i];
        if (s->npts < 2 || (s->style & PR_CHART_NO_LINE))
            continue;
        int owned;
        chart_pt *pts = chart_sorted_points(s, &owned);
        const chart_pt *prev = NULL;
        for (size_t j = 0; j < s->npts && !found; j++) {
            if (!chart_pt_visible(c, &pts[j]))
                continue;
            found = prev && chart_joined(s, prev, &pts[j]) == kind;
            prev = &pts[j];
        }
        if (owned)
            free(pts);
    }
    return found;
}

int chart_has_spans(const pr_chart *c)
{
    return any_join(c, CH_JOIN_SPAN);
}

int chart_has_segments(const pr_chart *c)
{
    return any_join(c, CH_JOIN_LINE);
}

int chart_series_drawn(const pr_chart *c, int i)
{
    const chart_series *s = &c->series[i];
    for (size_t j = 0; j < s->npts; j++)
        if (chart_pt_visible(c, &s->pts[j]))
            return 1;
    for (size_t k = 0; k < s->ncells; k++)
        if (s->cells[k].kind != CELL_UNSET)
            return 1;
    return 0;
}

double chart_ideal_end(const pr_chart *c)
{
    double end = 0;
    for (int i = 0; i < c->nseries; i++)
        for (size_t j = 0; j < c->series[i].npts; j++)
            if (chart_pt_visible(c, &c->series[i].pts[j]))
                end = fmax(end, c->series[i].pts[j].x);
    return end;
}

int chart_ideal_drawn(const pr_chart *c)
{
    return c->kind == PR_CHART_LINE_LOG2X && c->has_ideal && chart_ideal_end(c) > c->ideal_x1 &&
           !(c->y_log && c->ideal_y1 <= 0);
}

/* Rounded with md_number, the tables' one rounding policy. */
void chart_put_number(const pr_chart *c, pr_buf *b, double v, const char *text)
{
    if (text)
        pr_buf_puts(b, text);
    else if (c->decimals >= 0 && fabs(v) < 1e15)
        md_number(b, v, c->decimals);
    else
        pr_buf_printf(b, "%.6g", v);
}
