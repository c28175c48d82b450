/* chart_int: what the files of the chart share (chart.c the model and its
 * setters, chart_text.c fonts and text, chart_axes.c scales, ticks and
 * axes, chart_layout.c the layout, chart_draw.c series, bars and legend,
 * chart_out.c PNG and SVG, chart_alt.c the alt text).  Private to them:
 * nothing outside gen/chart*.c includes it. */
#ifndef PR_CHART_INT_H
#define PR_CHART_INT_H

#include <cairo.h>
#include <pango/pangocairo.h>
#include <stddef.h>

#include "chart.h"

#define CHART_FAMILY "Noto Sans CJK SC"
#define CHART_FONT_PACKAGE "fonts-noto-cjk"
#define CHART_MIN_SIZE 100
#define CHART_MAX_SIZE 4096
/* The most lines a wrapped label (title, axis label, legend entry) takes. */
#define CHART_MAX_LINES 2
/* Sample drawn by chart_check_fonts: Han characters of the reports,
 * Latin letters, digits and the punctuation used in labels. */
#define CHART_FONT_SAMPLE                                                                          \
    "吞吐扩展 理想线性 数量 未测 无数据 带宽 (images/s) GPU 1K 8G – 0123456789"

/* ---------------------------------------------------------------- model */

typedef struct {
    double x, y;
    char *text;  /* owned by the series' pts array (a sorted copy borrows
                 * it); NULL: formatted with the chart's decimals */
    int set;     /* run set: points of two are never joined */
    int flagged; /* drawn with the flagged badge */
} chart_pt;

enum { CELL_UNSET, CELL_VALUE, CELL_STATE };

typedef struct {
    int kind;
    double value;
    char *state;
    char *text; /* the alt text's figure for a value; NULL: formatted */
    int flagged;
} chart_cell;

typedef struct {
    char *label;
    int style;
    chart_pt *pts;
    size_t npts, cappts;
    int unsorted;
    double *gaps; /* x of cases without a figure */
    size_t ngaps, capgaps;
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
    int y_log;
    int decimals;     /* < 0: %.6g */
    char *flag_label; /* NULL: the default by language */
    char *alt_note;   /* the alt text's last sentence; NULL: none */
    int has_ref;
    double ref_y;
    char *ref_label;
};

/* The cell of series at category, NULL when never set (borrowed). */
const chart_cell *chart_cell_get(const pr_chart *c, int series, int category);
/* The ideal line's legend text and the "no data" note, in c's language
 * (static or owned by c). */
const char *chart_ideal_label(const pr_chart *c);
const char *chart_no_data_text(const pr_chart *c);
/* The points of a series in increasing x, equal x in the order added;
 * *owned tells whether the caller frees the returned array. */
chart_pt *chart_sorted_points(const chart_series *s, int *owned);
/* Whether point q is drawn (a log y axis has no place for y = 0). */
int chart_pt_visible(const pr_chart *c, const chart_pt *q);
/* How points a and b (a->x <= b->x, neighbours) of series s are joined:
 * not at all (0: two run sets, or a gap between them), by the series'
 * line (CH_JOIN_LINE: no power of two skipped, b <= 2 a), or by a thin
 * dotted span (CH_JOIN_SPAN: one run set, powers of two between them with
 * no figure: the points are one run set's, the dots claim no value
 * between them). */
enum { CH_JOIN_LINE = 1, CH_JOIN_SPAN = 2 };
int chart_joined(const chart_series *s, const chart_pt *a, const chart_pt *b);
/* Whether some series of c has a dotted span (the alt text says what the
 * dots mean). */
int chart_has_spans(const pr_chart *c);
/* Whether anything of c is flagged (a visible point or a bar's value);
 * the flag legend text and the reference line's, in c's language. */
int chart_any_flagged(const pr_chart *c);
const char *chart_flag_label(const pr_chart *c);
const char *chart_ref_label(const pr_chart *c);
/* The flagged badge: a red disc with a white exclamation mark, its centre
 * at (x, y), radius r (chart_draw.c; the legend draws it too). */
void chart_draw_flag_badge(cairo_t *cr, double x, double y, double r);
/* Whether series i has anything drawn (it gets a legend entry then). */
int chart_series_drawn(const pr_chart *c, int i);
/* Where the ideal line ends: the largest x of a drawn point; 0 when none. */
double chart_ideal_end(const pr_chart *c);
/* Whether the ideal line is drawn: some data beyond its base. */
int chart_ideal_drawn(const pr_chart *c);
/* Appends v as the alt text and the tables print it: text when not NULL,
 * else rounded to c's decimals. */
void chart_put_number(const pr_chart *c, pr_buf *b, double v, const char *text);

/* ------------------------------------------------------------- palette */

typedef struct {
    double r, g, b;
} rgb;

static const rgb c_text = {0.13, 0.13, 0.13};
static const rgb c_axis = {0.25, 0.25, 0.25};
static const rgb c_grid = {0.90, 0.90, 0.90};
static const rgb c_ideal = {0.55, 0.55, 0.55};
static const rgb c_note = {0.35, 0.35, 0.35};
/* The flagged badge: a crimson apart from Okabe-Ito's vermillion. */
static const rgb c_flag = {0.80, 0.0, 0.10};

static inline void chart_set_rgb(cairo_t *cr, rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

/* ---------------------------------------------------------------- text */

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

/* chart_svgtext.c: chart text as SVG <text> (see there).  attach marks an
 * SVG surface to record into rec (the caller owns and frees rec); show
 * returns 1 when it recorded pl instead of drawing it; finish appends svg
 * to out with the recorded text before </svg>. */
void chart_svgtext_attach(cairo_surface_t *sf, pr_buf *rec);
int chart_svgtext_show(cairo_t *cr, PangoLayout *pl, double ax);
void chart_svgtext_finish(const pr_buf *svg, const pr_buf *rec, pr_buf *out);

/* Sets up r for one render on cr at width x height (fonts scaled); the
 * caller frees it with chart_rctx_free. */
void chart_rctx_init(rctx *r, cairo_t *cr, int width, int height, pr_err *err);
void chart_rctx_free(rctx *r);
/* Lays text out (wrapped at wrap px when wrap > 0) and sets r->lw/lh.
 * Returns 0, or -1 (and sets r->err once) when the text is not UTF-8 or
 * holds characters no installed font can draw. */
int chart_text_set(rctx *r, PangoFontDescription *f, const char *text, double wrap,
                   PangoAlignment align);
/* Draws the current layout with its logical box anchored at (x, y):
 * ax/ay 0 = left/top, 0.5 = centre, 1 = right/bottom. */
void chart_text_draw(rctx *r, double x, double y, double ax, double ay);
/* The same, rotated a quarter turn counter-clockwise about (x, y) (reading
 * from bottom to top); ax/ay are in the text's own frame. */
void chart_text_draw_up(rctx *r, double x, double y, double ax, double ay);

/* -------------------------------------------------------- scales, layout */

/* The most ticks of a log y axis. */
#define YT_MAX 40

/* y ticks.  Linear: 0, step, ..., n * step = top, with step 1, 2 or 5 times
 * a power of ten.  Log: v[0..n], 1-2-5 (or 1-9, or 1) times powers of ten
 * between 10^lo and 10^hi, the ends of the axis. */
typedef struct {
    double top, step;
    int n;
    int log;
    double lo, hi; /* log10 of the axis' ends */
    double v[YT_MAX];
    int dec;            /* decimals of the printed value */
    double unit;        /* the value is printed divided by unit ... */
    const char *suffix; /* ... followed by suffix */
    int sci;            /* %.3g instead */
} yticks;

enum { LEG_IDEAL = -1, LEG_REF = -2, LEG_FLAG = -3 };

typedef struct {
    int series; /* a series, else LEG_IDEAL, LEG_REF or LEG_FLAG */
    const char *text;
    double x, w; /* left edge, full width (swatch + text) */
    int row;
} chart_entry;

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
    chart_entry *leg;
    int nleg, legrows;
    double leg_rowh, *rowoff; /* row height; left offset of each row */
} plan;

/* Ticks of a linear y axis from 0 to at least ymax, about target steps. */
void chart_y_ticks(double ymax, int target, yticks *t);
/* Ticks of a log y axis over ymin..ymax (both > 0), at most about target. */
void chart_y_ticks_log(double ymin, double ymax, int target, yticks *t);
/* The value at tick k (0..t->n). */
double chart_y_tick_value(const yticks *t, int k);
void chart_y_tick_label(const yticks *t, int k, char *out, size_t n);
/* The label of the log2 x tick at 2^e (bytes: 8, 1K, 64M). */
void chart_x_tick_label(int e, int bytes, char *out, size_t n);
/* Pixel coordinates: x of log2 exponent l, of value x, y of value y. */
double chart_map_e(const plan *p, double l);
double chart_map_x(const plan *p, double x);
double chart_map_y(const plan *p, double y);
/* The data ranges of a line chart into p; *ymin (the smallest y > 0, for
 * a log axis) and *ymax, the ideal line's part included. */
void chart_line_ranges(const pr_chart *c, plan *p, double *ymin, double *ymax);
/* The top of a bar chart's y range; sets p->have_bars. */
double chart_bar_ymax(const pr_chart *c, plan *p);
/* Chooses the labelled x ticks of a line chart so labels do not collide. */
int chart_plan_x_ticks(const pr_chart *c, rctx *r, plan *p);
void chart_draw_grid_and_axes(const pr_chart *c, rctx *r, const plan *p);

/* The layout of c at W x H into p; 0, or -1 with r->err set.  The caller
 * frees p with chart_plan_free (also after a failure). */
int chart_make_plan(const pr_chart *c, rctx *r, int W, int H, plan *p);
void chart_plan_free(plan *p);

/* Renders the whole chart on cr (already sized W x H). */
int chart_render_on(const pr_chart *c, cairo_t *cr, int W, int H, pr_err *err);

/* Another kind of drawing (chart_trace.c) through chart_out.c's PNG encoder
 * and stable SVG: draw paints W x H on cr, 0 or -1 with err set. */
typedef int (*chart_draw_fn)(cairo_t *cr, int W, int H, const void *arg, pr_err *err);
int chart_draw_png(int width, int height, chart_draw_fn draw, const void *arg, pr_buf *out,
                   pr_err *err);
int chart_draw_svg(int width, int height, chart_draw_fn draw, const void *arg, pr_buf *out,
                   pr_err *err);

#endif
