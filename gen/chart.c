/* chart: scaling and comparison charts drawn with Cairo + Pango.
 * See chart.h for the model and the ownership rules. */
#include "chart.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <float.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#define CHART_FAMILY "Noto Sans CJK SC"
#define CHART_FONT_PACKAGE "fonts-noto-cjk"
#define CHART_MIN_SIZE 100
#define CHART_MAX_SIZE 4096
/* The most lines a wrapped label (title, axis label, legend entry) takes. */
#define CHART_MAX_LINES 2
/* Sample drawn by pr_chart_check_fonts: Han characters of the reports,
 * Latin letters, digits and the punctuation used in labels. */
#define CHART_FONT_SAMPLE "吞吐扩展 理想线性 数量 未测 无数据 带宽 (images/s) GPU 1K 8G – 0123456789"

/* ---------------------------------------------------------------- model */

typedef struct {
    double x, y;
} chart_pt;

enum { CELL_UNSET, CELL_VALUE, CELL_STATE };

typedef struct {
    int kind;
    double value;
    char *state;
} chart_cell;

typedef struct {
    char *label;
    int style;
    chart_pt *pts;
    size_t npts, cappts;
    int unsorted;
    chart_cell *cells;
    size_t ncells;
} chart_series;

struct pr_chart {
    pr_chart_kind kind;
    pr_chart_lang lang;
    char *title, *x_label, *y_label;
    chart_series *series;
    int nseries, capseries;
    char **cats;
    int ncats, capcats;
    int has_ideal;
    double ideal_x1, ideal_y1;
    char *ideal_label;
    int x_bytes;
};

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

pr_chart *pr_chart_new(pr_chart_kind kind, const char *title, const char *x_label,
                       const char *y_label)
{
    pr_chart *c = pr_xcalloc(1, sizeof *c);
    c->kind = kind == PR_CHART_BARS ? PR_CHART_BARS : PR_CHART_LINE_LOG2X;
    c->lang = PR_CHART_LANG_EN;
    c->title = label_dup(title);
    c->x_label = label_dup(x_label);
    c->y_label = label_dup(y_label);
    return c;
}

void pr_chart_free(pr_chart *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->nseries; i++) {
        chart_series *s = &c->series[i];
        free(s->label);
        free(s->pts);
        for (size_t j = 0; j < s->ncells; j++)
            free(s->cells[j].state);
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
    free(c);
}

void pr_chart_set_lang(pr_chart *c, pr_chart_lang lang)
{
    c->lang = lang == PR_CHART_LANG_ZH ? PR_CHART_LANG_ZH : PR_CHART_LANG_EN;
}

int pr_chart_add_series(pr_chart *c, const char *label, int style)
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

void pr_chart_add_point(pr_chart *c, int series, double x, double y)
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
    s->npts++;
}

void pr_chart_add_ideal(pr_chart *c, double x1, double y1)
{
    if (!isfinite(x1) || !isfinite(y1) || x1 <= 0 || y1 < 0)
        return;
    c->has_ideal = 1;
    c->ideal_x1 = x1;
    c->ideal_y1 = y1;
}

void pr_chart_set_ideal_label(pr_chart *c, const char *label)
{
    free(c->ideal_label);
    c->ideal_label = label ? label_dup(label) : NULL;
}

void pr_chart_set_x_bytes(pr_chart *c, int bytes_axis)
{
    c->x_bytes = bytes_axis != 0;
}

void pr_chart_add_category(pr_chart *c, const char *label)
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

void pr_chart_set_bar(pr_chart *c, int series, int category, double value)
{
    chart_cell *cell = cell_for(c, series, category);
    if (!cell)
        return;
    free(cell->state);
    cell->state = NULL;
    if (isfinite(value) && value >= 0) {
        cell->kind = CELL_VALUE;
        cell->value = value;
    } else {
        cell->kind = CELL_UNSET;
    }
}

void pr_chart_set_bar_state(pr_chart *c, int series, int category, const char *state_label)
{
    chart_cell *cell = cell_for(c, series, category);
    if (!cell)
        return;
    free(cell->state);
    cell->kind = CELL_STATE;
    cell->state = label_dup(state_label && *state_label ? state_label : "\xE2\x80\x93");
}

static const chart_cell *cell_get(const pr_chart *c, int series, int category)
{
    const chart_series *s = &c->series[series];
    if ((size_t)category < s->ncells)
        return &s->cells[category];
    return NULL;
}

static const char *ideal_label(const pr_chart *c)
{
    if (c->ideal_label)
        return c->ideal_label;
    return c->lang == PR_CHART_LANG_ZH ? "理想线性扩展" : "ideal linear scaling";
}

static const char *no_data_text(const pr_chart *c)
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

/* The points of a series in increasing x, equal x in the order added;
 * *owned tells whether the caller frees the returned array. */
static chart_pt *sorted_points(const chart_series *s, int *owned)
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

/* ------------------------------------------------------------- palette */

typedef struct {
    double r, g, b;
} rgb;

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

static const rgb c_text = {0.13, 0.13, 0.13};
static const rgb c_axis = {0.25, 0.25, 0.25};
static const rgb c_grid = {0.90, 0.90, 0.90};
static const rgb c_ideal = {0.55, 0.55, 0.55};
static const rgb c_note = {0.35, 0.35, 0.35};

static rgb series_color(int i)
{
    return palette[i % NPALETTE];
}

static void set_rgb(cairo_t *cr, rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

static rgb tint(rgb c, double f)
{
    rgb t = {c.r + (1 - c.r) * f, c.g + (1 - c.g) * f, c.b + (1 - c.b) * f};
    return t;
}

/* ---------------------------------------------------------------- fonts */

static _Thread_local int fonts_checked;

static PangoLanguage *chart_language(void)
{
    return pango_language_from_string("zh-cn");
}

static int font_is_family(PangoFont *font, const char *family)
{
    if (!font)
        return 0;
    PangoFontDescription *d = pango_font_describe(font);
    const char *f = pango_font_description_get_family(d);
    int ok = f && strcasecmp(f, family) == 0;
    pango_font_description_free(d);
    return ok;
}

int pr_chart_check_fonts(pr_err *err)
{
    if (fonts_checked)
        return 0;
    PangoFontMap *fm = pango_cairo_font_map_get_default();
    PangoContext *ctx = pango_font_map_create_context(fm);
    pango_context_set_language(ctx, chart_language());
    PangoFontDescription *desc = pango_font_description_new();
    pango_font_description_set_family_static(desc, CHART_FAMILY);
    pango_font_description_set_absolute_size(desc, 12 * PANGO_SCALE);
    pango_context_set_font_description(ctx, desc);

    int rc = 0;
    char found[200] = "no font at all";
    PangoFont *font = pango_font_map_load_font(fm, ctx, desc);
    if (font) {
        PangoFontDescription *d = pango_font_describe(font);
        const char *f = pango_font_description_get_family(d);
        snprintf(found, sizeof found, "\"%s\"", f ? f : "?");
        pango_font_description_free(d);
    }
    if (!font_is_family(font, CHART_FAMILY)) {
        rc = pr_err_set(err, NULL, 0, 0, "chart fonts",
                        "the font family \"%s\" is not installed (fontconfig gives %s); "
                        "install the package %s",
                        CHART_FAMILY, found, CHART_FONT_PACKAGE);
    } else {
        PangoLayout *lay = pango_layout_new(ctx);
        pango_layout_set_text(lay, CHART_FONT_SAMPLE, -1);
        int unknown = pango_layout_get_unknown_glyphs_count(lay);
        /* Every run of the sample must come from the CJK family, not a
         * fallback font. */
        int foreign = 0;
        char other[200] = "";
        for (GSList *l = pango_layout_get_lines_readonly(lay); l; l = l->next) {
            PangoLayoutLine *line = l->data;
            for (GSList *r = line->runs; r; r = r->next) {
                PangoGlyphItem *run = r->data;
                if (!font_is_family(run->item->analysis.font, CHART_FAMILY)) {
                    foreign = 1;
                    if (!other[0] && run->item->analysis.font) {
                        PangoFontDescription *d = pango_font_describe(run->item->analysis.font);
                        const char *f = pango_font_description_get_family(d);
                        snprintf(other, sizeof other, "%s", f ? f : "?");
                        pango_font_description_free(d);
                    }
                }
            }
        }
        if (unknown > 0)
            rc = pr_err_set(err, NULL, 0, 0, "chart fonts",
                            "Pango draws %d character(s) of a Chinese sample as unknown glyphs "
                            "with \"%s\"; install the package %s",
                            unknown, CHART_FAMILY, CHART_FONT_PACKAGE);
        else if (foreign)
            rc = pr_err_set(err, NULL, 0, 0, "chart fonts",
                            "Pango draws part of a Chinese sample with \"%s\" instead of \"%s\"; "
                            "install the package %s",
                            other[0] ? other : "another font", CHART_FAMILY, CHART_FONT_PACKAGE);
        g_object_unref(lay);
    }
    if (font)
        g_object_unref(font);
    pango_font_description_free(desc);
    g_object_unref(ctx);
    if (rc == 0)
        fonts_checked = 1;
    return rc;
}

/* ------------------------------------------------------------ rendering */

/* What one render needs: the cairo context, one reused Pango layout and the
 * fonts, sized from the scale s (1 at 720 px wide). */
typedef struct {
    cairo_t *cr;
    PangoContext *pc;
    PangoLayout *pl;
    PangoFontDescription *f_title, *f_axis, *f_tick, *f_small, *f_tiny;
    double s;
    pr_err *err;
    int failed;
    PangoWrapMode wrap_mode; /* for wrapped text; PANGO_WRAP_WORD_CHAR unless set */
    /* logical extents of the current layout text, in pixels */
    double lx, ly, lw, lh;
} rctx;

static PangoFontDescription *font_px(double px, int bold)
{
    PangoFontDescription *d = pango_font_description_new();
    pango_font_description_set_family_static(d, CHART_FAMILY);
    pango_font_description_set_absolute_size(d, round(px * PANGO_SCALE));
    if (bold)
        pango_font_description_set_weight(d, PANGO_WEIGHT_BOLD);
    return d;
}

static void rctx_init(rctx *r, cairo_t *cr, int width, int height, pr_err *err)
{
    memset(r, 0, sizeof *r);
    r->cr = cr;
    r->err = err;
    double s = fmin(width / 720.0, height / 360.0);
    r->s = s < 0.8 ? 0.8 : s > 4 ? 4 : s;

    r->pc = pango_cairo_create_context(cr);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_subpixel_order(fo, CAIRO_SUBPIXEL_ORDER_RGB);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    pango_cairo_context_set_font_options(r->pc, fo);
    cairo_font_options_destroy(fo);
    pango_cairo_context_set_resolution(r->pc, 96);
    pango_context_set_language(r->pc, chart_language());
    pango_context_set_base_dir(r->pc, PANGO_DIRECTION_LTR);
    r->pl = pango_layout_new(r->pc);
    r->wrap_mode = PANGO_WRAP_WORD_CHAR;

    double fs = r->s;
    r->f_title = font_px(16 * fs, 1);
    r->f_axis = font_px(13 * fs, 0);
    r->f_tick = font_px(12 * fs, 0);
    r->f_small = font_px(10.5 * fs, 0);
    r->f_tiny = font_px(fmax(8, 8.5 * fs), 0);
}

static void rctx_free(rctx *r)
{
    if (r->pl)
        g_object_unref(r->pl);
    if (r->pc)
        g_object_unref(r->pc);
    pango_font_description_free(r->f_title);
    pango_font_description_free(r->f_axis);
    pango_font_description_free(r->f_tick);
    pango_font_description_free(r->f_small);
    pango_font_description_free(r->f_tiny);
}

/* Lays text out (wrapped at wrap px when wrap > 0) and sets r->lw/lh.
 * Returns 0, or -1 (and sets r->err once) when the text is not UTF-8 or
 * holds characters no installed font can draw. */
static int text_set(rctx *r, PangoFontDescription *f, const char *text, double wrap,
                    PangoAlignment align)
{
    if (!g_utf8_validate(text, -1, NULL)) {
        if (!r->failed)
            pr_err_set(r->err, NULL, 0, 0, "chart", "label is not valid UTF-8");
        r->failed = 1;
        text = "";
    }
    pango_layout_set_font_description(r->pl, f);
    pango_layout_set_width(r->pl, wrap > 0 ? (int)(wrap * PANGO_SCALE) : -1);
    pango_layout_set_wrap(r->pl, r->wrap_mode);
    /* Wrapped text takes CHART_MAX_LINES lines at most, the last one ending
     * in an ellipsis: a 530-character label took the whole height ("too
     * small for the chart's labels"). */
    pango_layout_set_ellipsize(r->pl, wrap > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
    pango_layout_set_height(r->pl, -CHART_MAX_LINES);
    pango_layout_set_alignment(r->pl, align);
    pango_layout_set_text(r->pl, text, -1);
    int unknown = pango_layout_get_unknown_glyphs_count(r->pl);
    if (unknown > 0) {
        if (!r->failed)
            pr_err_set(r->err, NULL, 0, 0, "chart",
                       "label \"%.200s\": %d character(s) that no installed font can draw "
                       "(the charts use \"%s\" from the package %s)",
                       text, unknown, CHART_FAMILY, CHART_FONT_PACKAGE);
        r->failed = 1;
    }
    PangoRectangle lr;
    pango_layout_get_extents(r->pl, NULL, &lr);
    r->lx = (double)lr.x / PANGO_SCALE;
    r->ly = (double)lr.y / PANGO_SCALE;
    r->lw = (double)lr.width / PANGO_SCALE;
    r->lh = (double)lr.height / PANGO_SCALE;
    return r->failed ? -1 : 0;
}

/* Draws the current layout with its logical box anchored at (x, y):
 * ax/ay 0 = left/top, 0.5 = centre, 1 = right/bottom. */
/* Shows the layout at the current point.  On SVG surfaces the text becomes
 * paths: cairo's glyph subsetting for SVG walks the whole charmap of the CJK
 * font for every chart, which cost more than all the drawing. */
static void show_layout(rctx *r)
{
    if (cairo_surface_get_type(cairo_get_target(r->cr)) == CAIRO_SURFACE_TYPE_SVG) {
        pango_cairo_layout_path(r->cr, r->pl);
        cairo_fill(r->cr);
    } else {
        pango_cairo_show_layout(r->cr, r->pl);
    }
}

static void text_draw(rctx *r, double x, double y, double ax, double ay)
{
    cairo_move_to(r->cr, round(x - ax * r->lw - r->lx), round(y - ay * r->lh - r->ly));
    show_layout(r);
}

/* The same, rotated a quarter turn counter-clockwise about (x, y) (reading
 * from bottom to top); ax/ay are in the text's own frame. */
static void text_draw_up(rctx *r, double x, double y, double ax, double ay)
{
    cairo_save(r->cr);
    cairo_translate(r->cr, round(x), round(y));
    cairo_rotate(r->cr, -M_PI / 2);
    cairo_move_to(r->cr, round(-ax * r->lw - r->lx), round(-ay * r->lh - r->ly));
    show_layout(r);
    cairo_restore(r->cr);
}

/* --------------------------------------------------------------- ticks */

/* y ticks: 0, step, ..., n * step = top, with step 1, 2 or 5 times a power
 * of ten. */
typedef struct {
    double top, step;
    int n;
    int dec;       /* decimals of the printed value */
    double unit;   /* the value is printed divided by unit ... */
    const char *suffix; /* ... followed by suffix */
    int sci;       /* %.3g instead */
} yticks;

static void y_ticks(double ymax, int target, yticks *t)
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

static void y_tick_label(const yticks *t, int k, char *out, size_t n)
{
    double v = k * t->step;
    if (k == 0)
        snprintf(out, n, "0");
    else if (t->sci)
        snprintf(out, n, "%.3g", v);
    else
        snprintf(out, n, "%.*f%s", t->dec, v / t->unit, t->suffix);
}

/* The label of the log2 x tick at 2^e. */
static void x_tick_label(int e, int bytes, char *out, size_t n)
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

/* -------------------------------------------------------------- layout */

typedef struct {
    int series; /* -1: the ideal line */
    const char *text;
    double x, w; /* left edge, full width (swatch + text) */
    int row;
} legend_entry;

typedef struct {
    double W, H, s, m, gap, tick;
    double px, py, pw, ph;
    double title_h;
    /* y axis */
    yticks yt;
    double ytick_w, ylab_w;
    /* x axis */
    double xtick_h, xlab_h;
    /* line charts */
    int have_points;
    double xdmin, xdmax; /* data x range (ideal included) */
    int emin, emax;      /* tick exponents */
    double lmin, lmax;   /* mapped log2 range */
    int estep, ebase;    /* labelled ticks: e = ebase + k * estep */
    double ideal_end;    /* x where the ideal line stops */
    /* bar charts */
    int have_bars;
    int cat_wrap; /* category labels wrap at spaces, else one line ... */
    int cat_step; /* ... and only every cat_step-th is drawn */
    double swatch;
    /* legend */
    legend_entry *leg;
    int nleg, legrows;
    double leg_rowh, *rowoff; /* row height; left offset of each row */
} plan;

static void plan_free(plan *p)
{
    free(p->leg);
    free(p->rowoff);
}

/* x of the log2 exponent l (ticks at integer l) */
static double map_e(const plan *p, double l)
{
    return p->px + (l - p->lmin) / (p->lmax - p->lmin) * p->pw;
}

static double map_x(const plan *p, double x)
{
    return map_e(p, log2(x));
}

static double map_y(const plan *p, double y)
{
    double v = p->py + p->ph - y / p->yt.top * p->ph;
    /* keep cairo's fixed-point coordinates in range for values far off */
    if (v < p->py - 10 * p->ph)
        v = p->py - 10 * p->ph;
    return v;
}

#define IDEAL_HEADROOM 2.5

/* Data ranges of a line chart. */
static void line_ranges(const pr_chart *c, plan *p, double *ymax)
{
    double xlo = INFINITY, xhi = -INFINITY, yhi = 0;
    for (int i = 0; i < c->nseries; i++) {
        const chart_series *s = &c->series[i];
        for (size_t j = 0; j < s->npts; j++) {
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
    if (c->has_ideal) {
        double end = p->have_points ? xhi : ldexp(1, p->emax);
        if (!isfinite(end))
            end = DBL_MAX;
        p->ideal_end = end;
        double top = c->ideal_y1 * (end / c->ideal_x1);
        /* the ideal line is part of the range, up to IDEAL_HEADROOM times
         * the data: far above, it would flatten the data to the baseline,
         * so it leaves through the top of the plot instead */
        if (p->have_points && top > IDEAL_HEADROOM * yhi)
            top = IDEAL_HEADROOM * yhi;
        if (isfinite(top))
            yhi = fmax(yhi, top);
    }
    *ymax = yhi;
}

static double bar_ymax(const pr_chart *c, plan *p)
{
    double yhi = 0;
    for (int i = 0; i < c->nseries; i++)
        for (int k = 0; k < c->ncats; k++) {
            const chart_cell *cell = cell_get(c, i, k);
            if (cell && cell->kind == CELL_VALUE) {
                p->have_bars = 1;
                yhi = fmax(yhi, cell->value);
            }
        }
    /* room for the value labels above the bars */
    return yhi * 1.06;
}

/* Chooses the labelled x ticks so that labels do not collide. */
static int plan_x_ticks(const pr_chart *c, rctx *r, plan *p)
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
                x_tick_label((int)e, c->x_bytes, lab, sizeof lab);
                if (text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT))
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

static int plan_legend(const pr_chart *c, rctx *r, plan *p)
{
    int n = c->nseries + (c->kind == PR_CHART_LINE_LOG2X && c->has_ideal);
    p->leg = pr_xcalloc((size_t)n + 1, sizeof *p->leg);
    p->rowoff = pr_xcalloc((size_t)n + 1, sizeof *p->rowoff);
    double avail = p->W - 2 * p->m;
    double sw = p->swatch, sgap = 6 * p->s, egap = 18 * p->s;
    double x = 0, rowh = 0;
    int row = 0;
    for (int i = 0; i < n; i++) {
        int si = i < c->nseries ? i : -1;
        const char *text = si >= 0 ? c->series[si].label : ideal_label(c);
        if (!*text)
            continue;
        if (text_set(r, r->f_tick, text, 0, PANGO_ALIGN_LEFT))
            return -1;
        double tw = r->lw;
        if (sw + sgap + tw > avail)
            tw = avail - sw - sgap; /* drawn wrapped */
        legend_entry *e = &p->leg[p->nleg++];
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
            text_set(r, r->f_tick, text, tw, PANGO_ALIGN_LEFT);
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
        if (text_set(r, r->f_tick, c->cats[k], 0, PANGO_ALIGN_CENTER))
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
                text_set(r, r->f_tick, word, 0, PANGO_ALIGN_CENTER);
                free(word);
                if (r->lw > avail)
                    wrap_ok = 0;
            }
            w += n;
            w += strspn(w, " ");
        }
        if (!wrap_ok)
            break;
        text_set(r, r->f_tick, t, avail, PANGO_ALIGN_CENTER);
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
                      "x label %.0f px, y label %.0f px, legend %d row(s) of %.0f px)", p->W, p->H,
                      p->title_h, p->xlab_h, p->ylab_w, p->legrows, p->leg_rowh);
}

static int make_plan(const pr_chart *c, rctx *r, int W, int H, plan *p)
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
        if (text_set(r, r->f_title, c->title, W - 2 * m, PANGO_ALIGN_CENTER))
            return -1;
        p->title_h = r->lh;
        top += p->title_h + 1.5 * gap;
    }
    if (text_set(r, r->f_tick, "0123456789", 0, PANGO_ALIGN_LEFT))
        return -1;
    double digit_h = r->lh;
    top = fmax(top, m + digit_h / 2 + 2);

    if (plan_legend(c, r, p))
        return -1;
    double legend_h = p->legrows * p->leg_rowh;

    double ymax;
    double right_over = 0;
    if (c->kind == PR_CHART_LINE_LOG2X) {
        line_ranges(c, p, &ymax);
        char lab[64];
        x_tick_label(p->emax, c->x_bytes, lab, sizeof lab);
        if (text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT))
            return -1;
        right_over = r->lw / 2 + 2;
        p->xtick_h = digit_h;
    } else {
        ymax = bar_ymax(c, p);
        p->xtick_h = digit_h; /* refined once the slot width is known */
    }
    if (c->x_label[0]) {
        if (text_set(r, r->f_axis, c->x_label, W - 2 * m, PANGO_ALIGN_CENTER))
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
        y_ticks(ymax, target > 8 ? 8 : target, &p->yt);
        p->ytick_w = 0;
        char lab[64];
        for (int k = 0; k <= p->yt.n; k++) {
            y_tick_label(&p->yt, k, lab, sizeof lab);
            if (text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT))
                return -1;
            p->ytick_w = fmax(p->ytick_w, r->lw);
        }
        p->ylab_w = 0;
        if (c->y_label[0]) {
            if (text_set(r, r->f_axis, c->y_label, p->ph, PANGO_ALIGN_CENTER))
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
    if (c->kind == PR_CHART_LINE_LOG2X && plan_x_ticks(c, r, p))
        return -1;
    return 0;
}

/* ------------------------------------------------------------- drawing */

static double snap(double v, double lw)
{
    long w = lround(lw);
    return (w % 2) ? floor(v) + 0.5 : round(v);
}

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

static void draw_marker(cairo_t *cr, int index, int style, double x, double y, double r,
                        double s)
{
    rgb col = series_color(index);
    marker_path(cr, index, x, y, r);
    if (style & PR_CHART_HOLLOW_MARKERS) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill_preserve(cr);
        set_rgb(cr, col);
        cairo_set_line_width(cr, 1.6 * s);
        cairo_stroke(cr);
    } else {
        set_rgb(cr, col);
        cairo_fill(cr);
    }
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

static void draw_grid_and_axes(const pr_chart *c, rctx *r, const plan *p)
{
    cairo_t *cr = r->cr;
    double s = p->s, lw = fmax(1, round(s));
    char lab[64];
    cairo_set_dash(cr, NULL, 0, 0);

    /* horizontal grid */
    cairo_set_line_width(cr, lw);
    set_rgb(cr, c_grid);
    for (int k = 1; k <= p->yt.n; k++) {
        double y = snap(map_y(p, k * p->yt.step), lw);
        cairo_move_to(cr, p->px, y);
        cairo_line_to(cr, p->px + p->pw, y);
    }
    if (c->kind == PR_CHART_LINE_LOG2X) {
        for (long e = p->ebase; e <= p->emax; e += p->estep) {
            double x = snap(map_e(p, (double)e), lw);
            cairo_move_to(cr, x, p->py);
            cairo_line_to(cr, x, p->py + p->ph);
        }
    }
    cairo_stroke(cr);

    /* axes */
    set_rgb(cr, c_axis);
    double x0 = snap(p->px, lw), y0 = snap(p->py + p->ph, lw);
    cairo_move_to(cr, x0, p->py);
    cairo_line_to(cr, x0, y0);
    cairo_line_to(cr, p->px + p->pw, y0);
    /* y ticks */
    for (int k = 0; k <= p->yt.n; k++) {
        double y = snap(map_y(p, k * p->yt.step), lw);
        cairo_move_to(cr, x0 - p->tick, y);
        cairo_line_to(cr, x0, y);
    }
    /* x ticks */
    if (c->kind == PR_CHART_LINE_LOG2X) {
        int minor = p->estep > 1 && (long)p->emax - p->emin <= 400;
        for (long e = minor ? p->emin : p->ebase; e <= p->emax; e += minor ? 1 : p->estep) {
            int major = mod_floor((int)(e - p->ebase), p->estep) == 0 && e >= p->ebase;
            double x = snap(map_e(p, (double)e), lw);
            cairo_move_to(cr, x, y0);
            cairo_line_to(cr, x, y0 + (major ? p->tick : p->tick * 0.55));
        }
    }
    cairo_stroke(cr);

    /* tick labels */
    set_rgb(cr, c_text);
    for (int k = 0; k <= p->yt.n; k++) {
        y_tick_label(&p->yt, k, lab, sizeof lab);
        text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT);
        text_draw(r, x0 - p->tick - 3 * s, map_y(p, k * p->yt.step), 1, 0.5);
    }
    double ylab = y0 + p->tick + p->gap / 2;
    if (c->kind == PR_CHART_LINE_LOG2X) {
        for (long e = p->ebase; e <= p->emax; e += p->estep) {
            x_tick_label((int)e, c->x_bytes, lab, sizeof lab);
            text_set(r, r->f_tick, lab, 0, PANGO_ALIGN_LEFT);
            text_draw(r, map_e(p, (double)e), ylab, 0.5, 0);
        }
    } else if (c->ncats > 0) {
        double slot = p->pw / c->ncats;
        r->wrap_mode = PANGO_WRAP_WORD;
        for (int k = 0; k < c->ncats; k += p->cat_step) {
            text_set(r, r->f_tick, c->cats[k], p->cat_wrap ? slot - 4 * s : 0, PANGO_ALIGN_CENTER);
            text_draw(r, p->px + (k + 0.5) * slot, ylab, 0.5, 0);
            if (p->cat_step > 1) {
                /* mark the labelled slots when some are left out */
                set_rgb(cr, c_axis);
                cairo_set_line_width(cr, lw);
                double x = snap(p->px + (k + 0.5) * slot, lw);
                cairo_move_to(cr, x, y0);
                cairo_line_to(cr, x, y0 + p->tick);
                cairo_stroke(cr);
                set_rgb(cr, c_text);
            }
        }
        r->wrap_mode = PANGO_WRAP_WORD_CHAR;
    }

    /* axis labels */
    if (c->x_label[0]) {
        text_set(r, r->f_axis, c->x_label, p->W - 2 * p->m, PANGO_ALIGN_CENTER);
        double cx = fmin(fmax(p->px + p->pw / 2, p->m + r->lw / 2), p->W - p->m - r->lw / 2);
        text_draw(r, cx, ylab + p->xtick_h + p->gap / 2, 0.5, 0);
    }
    if (c->y_label[0]) {
        text_set(r, r->f_axis, c->y_label, p->ph, PANGO_ALIGN_CENTER);
        text_draw_up(r, p->m, p->py + p->ph / 2, 0.5, 0);
    }
}

static void draw_title(const pr_chart *c, rctx *r, const plan *p)
{
    if (!c->title[0])
        return;
    set_rgb(r->cr, c_text);
    text_set(r, r->f_title, c->title, p->W - 2 * p->m, PANGO_ALIGN_CENTER);
    text_draw(r, p->W / 2, p->m, 0.5, 0);
}

static void draw_legend(const pr_chart *c, rctx *r, const plan *p)
{
    if (!p->nleg)
        return;
    cairo_t *cr = r->cr;
    double s = p->s;
    double y0 = p->H - p->m - p->legrows * p->leg_rowh;
    for (int i = 0; i < p->nleg; i++) {
        const legend_entry *e = &p->leg[i];
        double x = p->m + p->rowoff[e->row] + e->x;
        double cy = y0 + (e->row + 0.5) * p->leg_rowh;
        double sw = p->swatch;
        if (e->series < 0) {
            set_rgb(cr, c_ideal);
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
                set_rgb(cr, tint(col, 0.7));
                cairo_fill_preserve(cr);
                set_rgb(cr, col);
                cairo_set_line_width(cr, 1.5 * s);
                cairo_stroke(cr);
            } else {
                set_rgb(cr, col);
                cairo_fill(cr);
            }
        } else {
            int style = c->series[e->series].style;
            set_rgb(cr, series_color(e->series));
            if (series_line(cr, style, s)) {
                cairo_move_to(cr, x, round(cy) + 0.5);
                cairo_line_to(cr, x + sw, round(cy) + 0.5);
                cairo_stroke(cr);
            }
            cairo_set_dash(cr, NULL, 0, 0);
            draw_marker(cr, e->series, style, x + sw / 2, round(cy) + 0.5, 4.2 * s, s);
        }
        double tx = x + sw + 6 * s;
        double wrap = e->w - sw - 6 * s;
        set_rgb(cr, c_text);
        text_set(r, r->f_tick, e->text, wrap + 1, PANGO_ALIGN_LEFT);
        text_draw(r, tx, cy, 0, 0.5);
    }
}

static void draw_no_data(const pr_chart *c, rctx *r, const plan *p)
{
    set_rgb(r->cr, c_note);
    text_set(r, r->f_axis, no_data_text(c), 0, PANGO_ALIGN_LEFT);
    text_draw(r, p->px + p->pw / 2, p->py + p->ph / 2, 0.5, 0.5);
}

static void draw_lines(const pr_chart *c, rctx *r, const plan *p)
{
    cairo_t *cr = r->cr;
    double s = p->s, mr = 4.2 * s;
    cairo_save(cr);
    double pad = mr + 2 * s;
    cairo_rectangle(cr, p->px - pad, p->py - pad, p->pw + 2 * pad, p->ph + 2 * pad);
    cairo_clip(cr);

    if (c->has_ideal && p->ideal_end > c->ideal_x1) {
        cairo_save(cr);
        cairo_reset_clip(cr);
        cairo_rectangle(cr, p->px, p->py, p->pw, p->ph);
        cairo_clip(cr);
        set_rgb(cr, c_ideal);
        cairo_set_line_width(cr, 1.6 * s);
        double d[] = {5 * s, 3.5 * s};
        cairo_set_dash(cr, d, 2, 0);
        double l0 = log2(c->ideal_x1), l1 = log2(p->ideal_end);
        int n = 96;
        for (int i = 0; i <= n; i++) {
            double x = exp2(l0 + (l1 - l0) * i / n);
            double y = c->ideal_y1 * (x / c->ideal_x1);
            if (i == 0)
                cairo_move_to(cr, map_x(p, x), map_y(p, y));
            else
                cairo_line_to(cr, map_x(p, x), map_y(p, y));
        }
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_restore(cr);
    }

    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (int i = 0; i < c->nseries; i++) {
        const chart_series *se = &c->series[i];
        if (se->npts < 2)
            continue;
        int owned;
        chart_pt *pts = sorted_points(se, &owned);
        set_rgb(cr, series_color(i));
        if (series_line(cr, se->style, s)) {
            for (size_t j = 0; j < se->npts; j++) {
                double x = map_x(p, pts[j].x), y = map_y(p, pts[j].y);
                if (j == 0)
                    cairo_move_to(cr, x, y);
                else
                    cairo_line_to(cr, x, y);
            }
            cairo_stroke(cr);
        }
        cairo_set_dash(cr, NULL, 0, 0);
        if (owned)
            free(pts);
    }
    cairo_set_dash(cr, NULL, 0, 0);
    for (int i = 0; i < c->nseries; i++) {
        const chart_series *se = &c->series[i];
        /* thousands of points: markers would only hide the line */
        if (se->npts > 200 && !(se->style & PR_CHART_NO_LINE))
            continue;
        for (size_t j = 0; j < se->npts; j++)
            draw_marker(cr, i, se->style, map_x(p, se->pts[j].x), map_y(p, se->pts[j].y), mr,
                        s);
    }
    cairo_restore(cr);
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

/* The label of a missing bar, standing on the baseline in the bar's place:
 * across if it fits, else reading upwards, else (bars thinner than a line
 * of text) a small grey cross. */
static void draw_state(rctx *r, const char *state, double cx, double base, double bw)
{
    cairo_t *cr = r->cr;
    double s = r->s;
    set_rgb(cr, c_note);
    text_set(r, r->f_small, state, 0, PANGO_ALIGN_LEFT);
    if (r->lw <= bw - 2 * s) {
        text_draw(r, cx, base - 3 * s, 0.5, 1);
        return;
    }
    if (r->lh > bw + 2 * s)
        text_set(r, r->f_tiny, state, 0, PANGO_ALIGN_LEFT);
    if (r->lh <= bw + 2 * s) {
        text_draw_up(r, cx, base - 3 * s, 0, 0.5);
        return;
    }
    double h = fmax(1.5, fmin(bw / 2, 3 * s));
    cairo_set_line_width(cr, fmax(1, s));
    cairo_move_to(cr, cx - h, base - 3 * s - 2 * h);
    cairo_line_to(cr, cx + h, base - 3 * s);
    cairo_move_to(cr, cx + h, base - 3 * s - 2 * h);
    cairo_line_to(cr, cx - h, base - 3 * s);
    cairo_stroke(cr);
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
            const chart_cell *cell = cell_get(c, i, k);
            if (cell && cell->kind == CELL_VALUE) {
                fmt_value(cell->value, lab, sizeof lab);
                text_set(r, r->f_small, lab, 0, PANGO_ALIGN_LEFT);
                values_fit = r->lw <= bw + 2 * s;
            }
        }
    cairo_save(cr);
    cairo_rectangle(cr, p->px, p->py - p->gap, p->pw, p->ph + p->gap);
    cairo_clip(cr);
    for (int k = 0; k < c->ncats; k++) {
        for (int i = 0; i < c->nseries; i++) {
            const chart_cell *cell = cell_get(c, i, k);
            double x = p->px + k * slot + 0.1 * slot + i * bw;
            double cx = x + bw / 2;
            if (cell && cell->kind == CELL_VALUE) {
                rgb col = series_color(i);
                double top = map_y(p, cell->value);
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
                    set_rgb(cr, tint(col, 0.7));
                    cairo_fill(cr);
                    double lw = fmax(1, round(1.5 * s));
                    cairo_rectangle(cr, x0 + lw / 2, y0 + lw / 2, x1 - x0 - lw, base - y0 - lw / 2);
                    set_rgb(cr, col);
                    cairo_set_line_width(cr, lw);
                    cairo_stroke(cr);
                } else {
                    set_rgb(cr, col);
                    cairo_fill(cr);
                }
                if (values_fit) {
                    fmt_value(cell->value, lab, sizeof lab);
                    text_set(r, r->f_small, lab, 0, PANGO_ALIGN_LEFT);
                    set_rgb(cr, c_text);
                    text_draw(r, cx, y0 - 2 * s, 0.5, 1);
                }
            } else if (cell && cell->kind == CELL_STATE) {
                draw_state(r, cell->state, cx, base, bw);
            }
        }
    }
    cairo_restore(cr);
}

/* Renders the whole chart on cr (already sized W x H). */
static int render_on(const pr_chart *c, cairo_t *cr, int W, int H, pr_err *err)
{
    rctx r;
    plan p;
    rctx_init(&r, cr, W, H, err);
    int rc = make_plan(c, &r, W, H, &p);
    if (rc == 0) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
        draw_grid_and_axes(c, &r, &p);
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
    plan_free(&p);
    rctx_free(&r);
    return rc;
}

static int check_size(int width, int height, pr_err *err)
{
    if (width < CHART_MIN_SIZE || height < CHART_MIN_SIZE || width > CHART_MAX_SIZE ||
        height > CHART_MAX_SIZE)
        return pr_err_set(err, NULL, 0, 0, "chart",
                          "size %dx%d is out of range (each side %d..%d pixels)", width, height,
                          CHART_MIN_SIZE, CHART_MAX_SIZE);
    return 0;
}

static cairo_status_t write_buf(void *closure, const unsigned char *data, unsigned int len)
{
    pr_buf_put(closure, data, len);
    return CAIRO_STATUS_SUCCESS;
}

/* PNG encoding.  cairo_surface_write_to_png_stream goes through libpng's
 * adaptive row filters and zlib level 6, which cost about ten times the
 * drawing itself at 720x400.  Charts are long runs of one colour, which
 * deflate finds without any row filter: filter type None and a fast zlib
 * level give files about the size of cairo's (35 KB for the sample chart)
 * in a fraction of the time.  Output: signature, IHDR (8-bit RGB), one
 * IDAT, IEND; no time or text chunks, so the bytes depend on the pixels
 * (and the zlib build) only. */
#define PNG_ZLEVEL 2
#define PNG_ROWS_PER_STEP 16

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* Appends a PNG chunk: length, type, data, CRC of type and data. */
static void png_chunk(pr_buf *out, const char *type, const unsigned char *data, size_t len)
{
    unsigned char b[4];
    put_be32(b, (uint32_t)len);
    pr_buf_put(out, b, 4);
    pr_buf_put(out, type, 4);
    if (len)
        pr_buf_put(out, data, len);
    uLong c = crc32(0L, Z_NULL, 0);
    c = crc32(c, (const Bytef *)type, 4);
    if (len)
        c = crc32(c, data, (uInt)len);
    put_be32(b, (uint32_t)c);
    pr_buf_put(out, b, 4);
}

/* Rows y0..y1-1 of sf as PNG scanlines: filter byte 0, then 8-bit RGB. */
static void png_rows(cairo_surface_t *sf, int y0, int y1, unsigned char *raw)
{
    int w = cairo_image_surface_get_width(sf);
    int stride = cairo_image_surface_get_stride(sf);
    const unsigned char *data = cairo_image_surface_get_data(sf);
    for (int y = y0; y < y1; y++) {
        const uint32_t *px = (const uint32_t *)(const void *)(data + (size_t)y * stride);
        unsigned char *row = raw + (size_t)(y - y0) * ((size_t)w * 3 + 1);
        row[0] = 0;
        for (int x = 0; x < w; x++) {
            uint32_t v = px[x];
            row[1 + 3 * x] = (unsigned char)(v >> 16);
            row[2 + 3 * x] = (unsigned char)(v >> 8);
            row[3 + 3 * x] = (unsigned char)v;
        }
    }
}

static int png_encode(cairo_surface_t *sf, pr_buf *out, pr_err *err)
{
    int w = cairo_image_surface_get_width(sf), h = cairo_image_surface_get_height(sf);
    size_t rowlen = (size_t)w * 3 + 1;

    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, PNG_ZLEVEL, Z_DEFLATED, 15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        return pr_err_set(err, NULL, 0, 0, "chart", "writing PNG: zlib deflateInit2 failed");
    /* one IDAT holding the whole stream: room for the worst case */
    size_t bound = deflateBound(&zs, (uLong)(rowlen * (size_t)h));
    unsigned char *z = pr_xmalloc(bound);
    unsigned char *raw = pr_xmalloc(rowlen * PNG_ROWS_PER_STEP);
    zs.next_out = z;
    zs.avail_out = (uInt)bound;
    int zr = Z_OK;
    for (int y = 0; y < h && zr == Z_OK; y += PNG_ROWS_PER_STEP) {
        int y1 = y + PNG_ROWS_PER_STEP < h ? y + PNG_ROWS_PER_STEP : h;
        png_rows(sf, y, y1, raw);
        zs.next_in = raw;
        zs.avail_in = (uInt)(rowlen * (size_t)(y1 - y));
        zr = deflate(&zs, y1 == h ? Z_FINISH : Z_NO_FLUSH);
    }
    size_t zlen = bound - zs.avail_out;
    deflateEnd(&zs);
    free(raw);
    if (zr != Z_STREAM_END) {
        free(z);
        return pr_err_set(err, NULL, 0, 0, "chart", "writing PNG: zlib deflate failed (%d)", zr);
    }

    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    pr_buf_put(out, sig, sizeof sig);
    unsigned char ihdr[13] = {0};
    put_be32(ihdr, (uint32_t)w);
    put_be32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8; /* bit depth */
    ihdr[9] = 2; /* colour type RGB; compression, filter, interlace 0 */
    png_chunk(out, "IHDR", ihdr, sizeof ihdr);
    png_chunk(out, "IDAT", z, zlen);
    png_chunk(out, "IEND", NULL, 0);
    free(z);
    return 0;
}

int pr_chart_render_png(const pr_chart *c, int width, int height, pr_buf *out, pr_err *err)
{
    if (check_size(width, height, err) || pr_chart_check_fonts(err))
        return -1;
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    if (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS) {
        int rc = pr_err_set(err, NULL, 0, 0, "chart", "cairo: %s",
                            cairo_status_to_string(cairo_surface_status(sf)));
        cairo_surface_destroy(sf);
        return rc;
    }
    cairo_t *cr = cairo_create(sf);
    int rc = render_on(c, cr, width, height, err);
    cairo_destroy(cr);
    if (rc == 0) {
        cairo_surface_flush(sf);
        rc = png_encode(sf, out, err);
    }
    cairo_surface_destroy(sf);
    return rc;
}

/* Appends svg to out with cairo's "surfaceN" ids renumbered 1, 2, ... in
 * order of appearance: cairo takes N from a process-wide counter of
 * surfaces, so it changes from one render to the next.  Text is drawn as
 * glyph outlines, so "surface" followed by digits occurs only in ids and
 * references to them. */
static void svg_stable_ids(const pr_buf *svg, pr_buf *out)
{
    static const char key[] = "surface";
    const size_t klen = sizeof key - 1;
    unsigned long seen[16];
    size_t nseen = 0;
    size_t i = 0, from = 0;
    while (i + klen < svg->len) {
        const char *hit = memmem(svg->data + i, svg->len - i, key, klen);
        if (!hit)
            break;
        size_t at = (size_t)(hit - svg->data), d = at + klen, e = d;
        while (e < svg->len && svg->data[e] >= '0' && svg->data[e] <= '9' && e - d < 18)
            e++;
        if (e == d || (at > 0 && svg->data[at - 1] != '"' && svg->data[at - 1] != '#')) {
            i = at + klen;
            continue;
        }
        unsigned long v = strtoul(svg->data + d, NULL, 10);
        size_t k = 0;
        while (k < nseen && seen[k] != v)
            k++;
        if (k == nseen && nseen < sizeof seen / sizeof seen[0])
            seen[nseen++] = v;
        pr_buf_put(out, svg->data + from, d - from);
        if (k < nseen)
            pr_buf_printf(out, "%zu", k + 1);
        else
            pr_buf_put(out, svg->data + d, e - d); /* more than 16: keep */
        from = i = e;
    }
    pr_buf_put(out, svg->data + from, svg->len - from);
}

int pr_chart_render_svg(const pr_chart *c, int width, int height, pr_buf *out, pr_err *err)
{
    if (check_size(width, height, err) || pr_chart_check_fonts(err))
        return -1;
    pr_buf svg = PR_BUF_INIT;
    cairo_surface_t *sf = cairo_svg_surface_create_for_stream(write_buf, &svg, width, height);
    cairo_svg_surface_restrict_to_version(sf, CAIRO_SVG_VERSION_1_1);
    cairo_svg_surface_set_document_unit(sf, CAIRO_SVG_UNIT_PX);
    cairo_t *cr = cairo_create(sf);
    int rc = render_on(c, cr, width, height, err);
    cairo_destroy(cr);
    cairo_surface_finish(sf);
    if (rc == 0 && cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS)
        rc = pr_err_set(err, NULL, 0, 0, "chart", "writing SVG: %s",
                        cairo_status_to_string(cairo_surface_status(sf)));
    cairo_surface_destroy(sf);
    if (rc == 0)
        svg_stable_ids(&svg, out);
    pr_buf_free(&svg);
    return rc;
}

int pr_chart_plot_area(const pr_chart *c, int width, int height, double *x, double *y,
                       double *w, double *h, pr_err *err)
{
    if (check_size(width, height, err) || pr_chart_check_fonts(err))
        return -1;
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *cr = cairo_create(sf);
    rctx r;
    plan p;
    rctx_init(&r, cr, width, height, err);
    int rc = make_plan(c, &r, width, height, &p);
    if (rc == 0) {
        *x = p.px;
        *y = p.py;
        *w = p.pw;
        *h = p.ph;
    }
    plan_free(&p);
    rctx_free(&r);
    cairo_destroy(cr);
    cairo_surface_destroy(sf);
    return rc;
}

/* ------------------------------------------------------------- alt text */

static void alt_num(pr_buf *b, double v)
{
    char t[64];
    snprintf(t, sizeof t, "%.6g", v);
    pr_buf_puts(b, t);
}

static void alt_x(const pr_chart *c, pr_buf *b, double x)
{
    double l = log2(x);
    if (c->x_bytes && l == floor(l) && l >= 0 && l < 70) {
        char t[64];
        x_tick_label((int)l, 1, t, sizeof t);
        pr_buf_puts(b, t);
    } else {
        alt_num(b, x);
    }
}

char *pr_chart_alt_text(const pr_chart *c)
{
    int zh = c->lang == PR_CHART_LANG_ZH;
    pr_buf b = PR_BUF_INIT;
    const char *sep = zh ? "；" : "; ";
    const char *end = zh ? "。" : ". ";
    if (c->kind == PR_CHART_LINE_LOG2X) {
        plan p;
        double ymax;
        memset(&p, 0, sizeof p);
        line_ranges(c, &p, &ymax);
        pr_buf_puts(&b, zh ? "折线图：" : "Line chart: ");
        pr_buf_puts(&b, c->title[0] ? c->title : (zh ? "（无标题）" : "(untitled)"));
        pr_buf_puts(&b, end);
        pr_buf_puts(&b, zh ? "横轴：" : "X axis: ");
        if (c->x_label[0]) {
            pr_buf_puts(&b, c->x_label);
            pr_buf_puts(&b, zh ? "，" : ", ");
        }
        pr_buf_puts(&b, zh ? "以 2 为底的对数刻度，" : "log2 scale, ");
        alt_x(c, &b, p.have_points || c->has_ideal ? p.xdmin : ldexp(1, p.emin));
        pr_buf_puts(&b, zh ? " 至 " : " to ");
        alt_x(c, &b, p.have_points || c->has_ideal ? p.xdmax : ldexp(1, p.emax));
        pr_buf_puts(&b, end);
        pr_buf_puts(&b, zh ? "纵轴：" : "Y axis: ");
        if (c->y_label[0]) {
            pr_buf_puts(&b, c->y_label);
            pr_buf_puts(&b, zh ? "，" : ", ");
        }
        pr_buf_puts(&b, zh ? "线性刻度，从 0 起" : "linear from 0");
        pr_buf_puts(&b, end);
        if (!p.have_points) {
            pr_buf_puts(&b, zh ? "无数据" : "No data");
            pr_buf_puts(&b, end);
        }
        int any = 0;
        for (int i = 0; i < c->nseries; i++) {
            const chart_series *s = &c->series[i];
            if (!s->npts)
                continue;
            int owned;
            chart_pt *pts = sorted_points(s, &owned);
            pr_buf_puts(&b, any ? sep : (zh ? "数据系列：" : "Series: "));
            any = 1;
            pr_buf_puts(&b, s->label[0] ? s->label : (zh ? "（未命名）" : "(unnamed)"));
            const chart_pt *a = &pts[0], *z = &pts[s->npts - 1];
            if (zh) {
                pr_buf_printf(&b, "（%zu 个点，x=", s->npts);
                alt_x(c, &b, a->x);
                pr_buf_puts(&b, " 时 ");
                alt_num(&b, a->y);
                if (s->npts > 1) {
                    pr_buf_puts(&b, "，x=");
                    alt_x(c, &b, z->x);
                    pr_buf_puts(&b, " 时 ");
                    alt_num(&b, z->y);
                }
                pr_buf_puts(&b, "）");
            } else {
                pr_buf_printf(&b, " (%zu point%s, ", s->npts, s->npts == 1 ? "" : "s");
                alt_num(&b, a->y);
                pr_buf_puts(&b, " at x=");
                alt_x(c, &b, a->x);
                if (s->npts > 1) {
                    pr_buf_puts(&b, " to ");
                    alt_num(&b, z->y);
                    pr_buf_puts(&b, " at x=");
                    alt_x(c, &b, z->x);
                }
                pr_buf_puts(&b, ")");
            }
            if (owned)
                free(pts);
        }
        if (any)
            pr_buf_puts(&b, end);
        if (c->has_ideal) {
            pr_buf_puts(&b, zh ? "灰色虚线：" : "Dashed grey line: ");
            pr_buf_puts(&b, ideal_label(c));
            pr_buf_puts(&b, zh ? "（y = " : " (y = ");
            alt_num(&b, c->ideal_y1);
            pr_buf_puts(&b, " × x / ");
            alt_num(&b, c->ideal_x1);
            pr_buf_puts(&b, zh ? "）" : ")");
            pr_buf_puts(&b, end);
        }
    } else {
        pr_buf_puts(&b, zh ? "柱状图：" : "Bar chart: ");
        pr_buf_puts(&b, c->title[0] ? c->title : (zh ? "（无标题）" : "(untitled)"));
        pr_buf_puts(&b, end);
        pr_buf_puts(&b, zh ? "类别" : "Categories");
        if (c->x_label[0]) {
            pr_buf_puts(&b, zh ? "（" : " (");
            pr_buf_puts(&b, c->x_label);
            pr_buf_puts(&b, zh ? "）" : ")");
        }
        pr_buf_puts(&b, zh ? "：" : ": ");
        for (int k = 0; k < c->ncats; k++) {
            if (k)
                pr_buf_puts(&b, zh ? "、" : ", ");
            pr_buf_puts(&b, c->cats[k]);
        }
        if (!c->ncats)
            pr_buf_puts(&b, zh ? "无" : "none");
        pr_buf_puts(&b, end);
        if (c->y_label[0]) {
            pr_buf_puts(&b, zh ? "纵轴：" : "Y axis: ");
            pr_buf_puts(&b, c->y_label);
            pr_buf_puts(&b, end);
        }
        for (int i = 0; i < c->nseries && c->ncats; i++) {
            pr_buf_puts(&b, c->series[i].label[0] ? c->series[i].label
                                                 : (zh ? "（未命名）" : "(unnamed)"));
            pr_buf_puts(&b, zh ? "：" : ": ");
            for (int k = 0; k < c->ncats; k++) {
                const chart_cell *cell = cell_get(c, i, k);
                if (k)
                    pr_buf_puts(&b, zh ? "，" : ", ");
                pr_buf_puts(&b, c->cats[k]);
                pr_buf_puts(&b, zh ? " 为 " : " = ");
                if (cell && cell->kind == CELL_VALUE)
                    alt_num(&b, cell->value);
                else if (cell && cell->kind == CELL_STATE)
                    pr_buf_puts(&b, cell->state);
                else
                    pr_buf_puts(&b, zh ? "无数据" : "no data");
            }
            pr_buf_puts(&b, end);
        }
    }
    /* one line, no trailing space */
    for (size_t i = 0; i < b.len; i++)
        if ((unsigned char)b.data[i] < 0x20 || b.data[i] == 0x7f)
            b.data[i] = ' ';
    while (b.len && b.data[b.len - 1] == ' ')
        pr_buf_truncate(&b, b.len - 1);
    return pr_buf_detach(&b);
}
