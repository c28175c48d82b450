/* chart: scaling and comparison charts drawn with Cairo + Pango.
 *
 * A pr_chart is an opaque model built with the pr_chart_add_* / set_*
 * calls and rendered to SVG or PNG bytes.  All strings are UTF-8 (Chinese
 * allowed) and are copied: the caller keeps ownership of what it passes in.
 * The chart owns everything it holds; chart_free releases it.
 *
 * Every label is drawn with the font family "Noto Sans CJK SC" (Debian /
 * Ubuntu package fonts-noto-cjk).  A missing font, or a label holding a
 * character no installed font can draw, makes rendering fail with a
 * pr_err instead of drawing empty boxes.
 *
 * Rendering is deterministic: the same chart at the same size gives the same
 * bytes (no timestamps, fixed font options, fixed text language zh-cn, no
 * hinting, SVG ids renumbered), independent of LANG.  Bytes may differ
 * between machines with other versions of cairo, pixman, FreeType, the
 * fonts or zlib.
 *
 * Layout: title on top (wrapped), plot area, x tick labels and x axis label
 * below it, then the legend below everything, centred in rows, so it never
 * covers data; the y axis label reads upwards on the left.  Wrapped text
 * (title, axis labels, legend entries) takes two lines at most, the second
 * ending in an ellipsis when the text is longer; control characters in any
 * label (line breaks included) are drawn as spaces.  Fonts scale with
 * the size (12 px tick labels at 720x400).  Colours: Okabe-Ito; the ideal
 * line is dashed grey.
 *
 * Line charts (PR_CHART_LINE_LOG2X): x on a log2 axis with ticks on powers
 * of two (thinned to 1-2-5-10 steps of the exponent when labels would
 * collide); y linear from 0 with 1-2-5 ticks, or logarithmic (set_y_log:
 * log-log, where linear scaling is a straight line) with ticks at 1-2-5
 * times powers of ten.  Points with a non-finite x or y, a negative y or an
 * x <= 0 are skipped when added; on a log y axis a point with y = 0 is not
 * drawn either.  Markers stand at the points added and nowhere else; a
 * series' line joins its points in increasing x (stable for equal x),
 * whatever the order they were added, except across a gap: a planned
 * case with no figure (chart_add_gap).  Points more than a factor of
 * two apart in x (a power of two with no point) are joined by thin dots,
 * not the line, so that no segment suggests a value nobody measured (the
 * alt text says what the dots mean).
 * A PR_CHART_NO_MARKERS series (a reference line) joins all its points.
 * Nor is a segment drawn between points of two run sets
 * (chart_add_point_full's run_set): figures of two machines, software
 * stacks or parse rules are no line; the alt text then names each run
 * set's points ("2 run sets: x=1, 8 | x=32").
 *
 * Flagged points and bars (a figure a sanity rule flags, whose table
 * carries a ❗ footnote): a red badge with a white exclamation mark above
 * the point (the series' own marker stays visible below it; below the
 * point when the image has no room above) or above the bar (and its value
 * label), a legend entry of its own (chart_set_flag_label)
 * when anything is flagged, and a last sentence of the alt text naming
 * each flagged figure ("Flagged ❗ ...: PyTorch at x=8: 1070.37").
 *
 * A reference level (chart_add_ref_y: the 100 % of an efficiency
 * chart) is a dashed grey line across the whole plot, inside the y range.
 *
 * Legend: only series with something drawn (a point, a bar or a state);
 * the ideal line's entry only when the line is drawn.
 *
 * Bar charts (PR_CHART_BARS): one group per category, one bar per series in
 * each group.  Geometry (useful to tests): the plot width is divided into
 * equal category slots; the bars of a slot cover its middle 80%, each bar
 * 0.8 * slot / nseries wide, series in order from left to right.  A value
 * that is missing (never set, or set with chart_set_bar_state) is drawn as
 * a gap labelled with the state text (e.g. "OOM", "未测"), never as a zero
 * bar, in the axis labels' font size (legible, not a footnote): across the
 * bar's place when it fits, else reading upwards.  Values are printed above
 * the bars when every one of them fits its bar's width.
 *
 * Numbers in the alt text: a value's own text when it was given one (as the
 * page's table prints it: a published figure as printed), else rounded to
 * the chart's decimals (chart_set_decimals; by default 6 significant
 * digits), so the alt text and the tables read the same figures.
 * Category labels that do not fit their slot wrap at spaces (two lines at
 * most) or else only every k-th is drawn.
 *
 * Threads: a pr_chart is not locked; render distinct charts from distinct
 * threads freely (Pango's font map is per thread).
 */
#ifndef PR_CHART_H
#define PR_CHART_H

#include "buf.h"
#include "err.h"

typedef struct pr_chart pr_chart;

typedef enum { PR_CHART_LINE_LOG2X, PR_CHART_BARS } pr_chart_kind;

/* Series style flags, combined with |.  PR_CHART_SOLID (0) is a solid line
 * with filled markers.  PR_CHART_HOLLOW_MARKERS (published figures) draws
 * hollow markers and a thin line; add PR_CHART_NO_LINE for markers only.
 * In bar charts PR_CHART_HOLLOW_MARKERS draws a light bar with a coloured
 * outline; the other flags are ignored there. */
enum {
    PR_CHART_SOLID = 0,
    PR_CHART_DASHED = 1 << 0,
    PR_CHART_HOLLOW_MARKERS = 1 << 1,
    PR_CHART_NO_LINE = 1 << 2,
    /* A reference line (a theoretical peak): a line, no markers, since
     * markers stand for measured points only. */
    PR_CHART_NO_MARKERS = 1 << 3
};

/* Language of the chart's own words ("no data", the ideal line's default
 * legend entry, the alt text).  Labels given by the caller are used as
 * they are. */
typedef enum { PR_CHART_LANG_EN, PR_CHART_LANG_ZH } pr_chart_lang;

/* Returns a new chart (never NULL; aborts on OOM).  title, x_label and
 * y_label may be NULL (nothing drawn); put units in the axis labels, e.g.
 * "GPU 数量" and "吞吐 (images/s)".  The caller frees it with
 * chart_free. */
pr_chart *chart_new(pr_chart_kind kind, const char *title, const char *x_label,
                    const char *y_label);
/* NULL is allowed. */
void chart_free(pr_chart *c);

void chart_set_lang(pr_chart *c, pr_chart_lang lang);

/* Adds a series and returns its index (0, 1, ...).  label may be NULL or ""
 * (no legend entry).  Colours follow the Okabe-Ito palette and marker shapes
 * change with the index, so series stay distinct without colour. */
int chart_add_series(pr_chart *c, const char *label, int style);

/* Line charts.  An out-of-range series index is ignored. */
void chart_add_point(pr_chart *c, int series, double x, double y);
/* The same with the figure as the page's table prints it (e.g. "61.0",
 * copied; NULL: formatted with the chart's decimals), for the alt text. */
void chart_add_point_text(pr_chart *c, int series, double x, double y, const char *text);
/* The same with its run set (points of two run sets are never joined;
 * any int naming the set, 0 when there is one) and flagged (non-zero: drawn
 * with the flagged badge and named in the alt text). */
void chart_add_point_full(pr_chart *c, int series, double x, double y, const char *text,
                          int run_set, int flagged);
/* chart_add_point_text of a flagged figure (run set 0). */
void chart_add_point_flagged(pr_chart *c, int series, double x, double y, const char *text);
/* The legend text of flagged figures; default "flagged: see the table's
 * footnote" / "存疑：见表格脚注" by language (no ❗ in it: no installed font
 * draws one, so the badge beside it stands for it).  NULL restores it. */
void chart_set_flag_label(pr_chart *c, const char *label);
/* A sentence the alt text ends with (what the chart does not let a reader
 * conclude: "Not like with like, so no ranking: ..."); NULL: none. */
void chart_set_alt_note(pr_chart *c, const char *note);
/* A horizontal reference at y (line charts): a dashed grey line across
 * the plot, part of the y range, with label as its legend entry (NULL or
 * "": the ideal line's label).  A later call replaces an earlier one;
 * a non-finite or negative y is ignored. */
void chart_add_ref_y(pr_chart *c, double y, const char *label);
/* Marks x as a case of the series without a figure (planned, failed, not
 * published): the line does not join the points on either side of it.
 * Non-finite or non-positive x is ignored. */
void chart_add_gap(pr_chart *c, int series, double x);
/* Whether a line chart draws a segment anywhere (two points of a series
 * joined): a chart of markers alone says no more than a bar chart. */
int chart_has_segments(const pr_chart *c);
/* Non-zero: a logarithmic y axis (log-log with the log2 x axis). */
void chart_set_y_log(pr_chart *c, int log_axis);
/* Decimals of the numbers the alt text prints for values given without
 * their own text (rounded half away from zero, as the tables round);
 * negative: 6 significant digits (the default). */
void chart_set_decimals(pr_chart *c, int decimals);
/* Ideal linear scaling from (x1, y1): dashed grey line y = y1 * x / x1 from
 * x1 to the largest x of the data.  chart_add_ideal(c, 1, 1) is the
 * diagonal y = x of a speedup chart.  A later call replaces an earlier one;
 * x1 <= 0, y1 < 0 or non-finite values are ignored.  The ideal line is part
 * of the y range up to 2.5 times the largest data value; beyond that it
 * leaves the plot through its top edge rather than flatten the data. */
void chart_add_ideal(pr_chart *c, double x1, double y1);
/* Legend text of the ideal line; default "ideal linear scaling" /
 * "理想线性扩展" by language.  NULL restores the default. */
void chart_set_ideal_label(pr_chart *c, const char *label);
/* Non-zero: format the log2 x ticks as byte sizes (8, 512, 1K, 64M, 8G). */
void chart_set_x_bytes(pr_chart *c, int bytes_axis);

/* Bar charts.  Categories are drawn in the order added; returns nothing:
 * the category's index is the number of categories added before it.
 * Out-of-range indices are ignored.  A value that is NaN, infinite or
 * negative is treated as missing. */
void chart_add_category(pr_chart *c, const char *label);
void chart_set_bar(pr_chart *c, int series, int category, double value);
/* The same with how the alt text reads the bar (copied; NULL: the value
 * with the chart's decimals), e.g. the table's figure when the bar shows it
 * per GPU: "5886.93 (735.87 per GPU)". */
void chart_set_bar_text(pr_chart *c, int series, int category, double value, const char *text);
/* Flags the bar of series at category (a value set before or after):
 * drawn with the flagged badge above it and named in the alt text.  A
 * missing bar is not flagged. */
void chart_flag_bar(pr_chart *c, int series, int category);
/* Marks the bar as missing with a short explanation drawn in its place
 * ("OOM", "未测").  It replaces a value set before; NULL or "" gives the
 * neutral label "–". */
void chart_set_bar_state(pr_chart *c, int series, int category, const char *state_label);

/* Renders at width x height pixels (each 100..4096) and appends the bytes
 * to out (SVG 1.1 text with text as glyph outlines, or an 8-bit RGB PNG).
 * Returns 0, or -1 with err set (fonts missing, a label that cannot be
 * drawn, a bad size, a cairo failure); out is left as it was on failure. */
int chart_render_svg(const pr_chart *c, int width, int height, pr_buf *out, pr_err *err);
int chart_render_png(const pr_chart *c, int width, int height, pr_buf *out, pr_err *err);

/* The plot area (inside the axes) that a render at width x height uses, in
 * pixels from the top-left corner.  Returns 0, or -1 with err set like
 * render. */
int chart_plot_area(const pr_chart *c, int width, int height, double *x, double *y, double *w,
                    double *h, pr_err *err);

/* Where the value (x, y) of a line chart lands in a render at width x
 * height, in pixels from the top-left corner (the geometry tests check:
 * on log-log axes ideal scaling is a straight line).  Returns 0, or -1
 * with err set like render. */
int chart_map_point(const pr_chart *c, int width, int height, double x, double y, double *px,
                    double *py, pr_err *err);

/* A one-line plain-text description (title, axes and ranges, series with
 * their first and last points, every bar) for an image's alt text, its
 * numbers as described above.  The caller frees
 * it.  It holds no newline; Markdown escaping ([ ] etc.) is the caller's. */
char *chart_alt_text(const pr_chart *c);

/* Checks that the family "Noto Sans CJK SC" is installed and that Pango
 * draws a sample of Chinese text with no unknown glyphs.  Returns 0, or -1
 * with err naming the package to install (fonts-noto-cjk).  The success is
 * remembered per thread; render calls it. */
int chart_check_fonts(pr_err *err);

#endif
