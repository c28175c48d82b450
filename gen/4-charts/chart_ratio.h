/* chart_ratio: the chart of an A/B comparison (docs/report-format.md#comparison-pages):
 * one row per cell, its ratio B/A as a point on a linear x axis and its
 * interval as a bar with end caps, the band 1 ± δ shaded, a dashed line
 * at 1.  A cell without an interval (fewer than 2 runs a side) is a hollow
 * point; colours follow the verdict (Okabe-Ito: faster bluish green,
 * slower vermillion, equivalent blue, changed below δ orange, inconclusive
 * and insufficient grey), and the shapes say the same without colour
 * (filled: an interval, hollow: none).  Drawn with Cairo and Pango in the
 * look of the other charts (chart_int.h), deterministic as they are.  The
 * words are the caller's (one chart per language); the alt text is the
 * page's.
 */
#ifndef PR_CHART_RATIO_H
#define PR_CHART_RATIO_H

#include <stddef.h>

#include "buf.h"
#include "err.h"

typedef struct chart_ratio_row {
    const char *label; /* the cell, plain text (borrowed) */
    double ratio;      /* NAN: none (nothing drawn) */
    double lo, hi;     /* NAN: no interval */
    int verdict;       /* a pr_abstat_verdict (lib/abstat.h) */
} chart_ratio_row;

typedef struct chart_ratio_chart {
    const char *title;       /* borrowed, may be NULL */
    const char *x_label;     /* "throughput ratio B/A" */
    const char *band_label;  /* legend of the shaded band: "1 ± 5 %" */
    const char *point_label; /* legend of a point and its bar */
    double delta;
    const chart_ratio_row *rows;
    size_t n;
} chart_ratio_chart;

/* The height a render width pixels wide takes (it grows with the rows). */
int chart_ratio_height(const chart_ratio_chart *c, int width);
/* Renders c at width x chart_ratio_height into out (appended).  0, or -1 with err
 * set (a size out of range, no font, text no font draws). */
int chart_ratio_render_svg(const chart_ratio_chart *c, int width, pr_buf *out, pr_err *err);
int chart_ratio_render_png(const chart_ratio_chart *c, int width, pr_buf *out, pr_err *err);

#endif
