/* chart_trace: the step trace chart (docs/statistics.md#step-traces): a
 * log's records, value against step number, drawn with Cairo in the look
 * of the other charts (chart_int.h): warm-up steps grey, the averaged
 * window shaded, kept steps a blue line, trimmed records orange triangles
 * (down: low end, up: high end), stalls vermillion rings, the median or
 * picked record a black diamond, records without a value a grey tick on
 * the x axis, binned points a bar from the bin's min to its max, the
 * figure a dashed black line with its value, runs apart by a dotted line.
 *
 * Language-neutral: only numbers and the unit are drawn (the words go in
 * the page's alt text), so one image serves every language.  Below
 * CT_SMALL_WIDTH pixels wide no text is drawn at all (a thumbnail).
 * Deterministic as the other charts (same model, same bytes).
 */
#ifndef PR_CHART_TRACE_H
#define PR_CHART_TRACE_H

#include <stddef.h>

#include "buf.h"
#include "err.h"

#define CT_SMALL_WIDTH 400

typedef struct chart_trace_point {
    double x;      /* step number, from 1, counted on across runs */
    double lo, hi; /* the value (a bin's min and max); NAN: none */
    char status;   /* a status character of lib/rectrace.h */
    int stall;     /* 1: a stall at the low end (a rate), 2: at the high end (a
                    * time); steptrace.c's rule */
} chart_trace_point;

typedef struct chart_trace {
    const chart_trace_point *pts;
    size_t n;
    double xmax;             /* the last step */
    double figure;           /* the figure's line; NAN: none */
    const char *figure_text; /* its value as the page prints it (borrowed) */
    const double *windows;   /* per run with one, the first and last step averaged */
    size_t nwindows;
    const double *breaks; /* where one run ends and the next begins */
    size_t nbreaks;
    const char *y_label; /* the unit (borrowed); NULL: none */
} chart_trace;

/* Renders t at width x height into out (appended).  0, or -1 with err set
 * (a size out of range, no font). */
int chart_trace_render_svg(const chart_trace *t, int width, int height, pr_buf *out, pr_err *err);
int chart_trace_render_png(const chart_trace *t, int width, int height, pr_buf *out, pr_err *err);

#endif
