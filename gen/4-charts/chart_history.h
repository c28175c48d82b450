/* chart_history: the chart of one history series (history.h): its points
 * over their dates, in date order and evenly spaced (a point is a run set
 * or a revision, not a clock), each reproduced point's interval as a
 * whisker, the change points as dashed vertical lines between the two
 * points they part, points judged other than ok ringed, and the current
 * segment's prediction band for the next point shaded from the segment's
 * first point to the right edge (clipped to the plot: it does not widen
 * the y range).  y is linear over the data, not from 0:
 * the chart shows change, the table the figures.
 *
 * Drawn through chart_out.c (the same PNG encoder and stable SVG as every
 * chart; Noto Sans CJK SC); deterministic.  The caller's text is copied
 * nowhere: everything the spec points to is borrowed for the call.
 */
#ifndef PR_CHART_HISTORY_H
#define PR_CHART_HISTORY_H

#include <stddef.h>

#include "buf.h"
#include "err.h"

typedef struct chart_history_spec {
    const char *title, *y_label;
    const char *points_label, *change_label, *band_label, *flag_label; /* the legend */
    size_t n;
    const char *const *dates; /* n labels of the x axis */
    const double *values;     /* n > 0 values */
    const double *lo, *hi;    /* n each, NAN where a point has no interval; may be NULL */
    const int *change;        /* n: 1 where a new segment starts */
    const int *flagged;       /* n: 1 where the point is judged other than ok */
    double band_lo, band_hi;  /* NAN: no band */
    size_t band_from;         /* the current segment's first point */
} chart_history_spec;

/* Renders at width x height (720 x 360 is the pages' size), appending to
 * out.  0, or -1 with err set (a label no font draws, a bad size). */
int chart_history_render_svg(const chart_history_spec *c, int width, int height, pr_buf *out,
                             pr_err *err);
int chart_history_render_png(const chart_history_spec *c, int width, int height, pr_buf *out,
                             pr_err *err);

#endif
