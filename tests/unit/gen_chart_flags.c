/* Unit tests of gen/chart*.c's flagged figures (badge, legend entry, alt
 * text), run sets (no line joins two), the reference level of an
 * efficiency chart, and chart_has_segments: SVG content, PNG pixels
 * and alt text. */
#include <cairo.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "4-charts/chart.h"
#include "buf.h"
#include "err.h"

#define W 720
#define H 400
/* The badge's crimson (chart_int.h c_flag) as SVG and as a pixel. */
#define FLAG_SVG "fill:rgb(80%,0%,10%)"
#define FLAG_RGB 0xCC001A

/* ------------------------------------------------------------ helpers */

typedef struct {
    const pr_buf *b;
    size_t at;
} reader;

static cairo_status_t read_buf(void *closure, unsigned char *data, unsigned int len)
{
    reader *r = closure;
    if (r->b->len - r->at < len)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, r->b->data + r->at, len);
    r->at += len;
    return CAIRO_STATUS_SUCCESS;
}

static cairo_surface_t *render_png(const pr_chart *c)
{
    pr_buf png = PR_BUF_INIT;
    pr_err err = {{0}};
    cr_assert_eq(chart_render_png(c, W, H, &png, &err), 0, "render_png: %s", err.msg);
    reader r = {&png, 0};
    cairo_surface_t *sf = cairo_image_surface_create_from_png_stream(read_buf, &r);
    cr_assert_eq(cairo_surface_status(sf), CAIRO_STATUS_SUCCESS);
    pr_buf_free(&png);
    return sf;
}

static char *render_svg(const pr_chart *c)
{
    pr_buf svg = PR_BUF_INIT;
    pr_err err = {{0}};
    cr_assert_eq(chart_render_svg(c, W, H, &svg, &err), 0, "render_svg: %s", err.msg);
    return pr_buf_detach(&svg);
}

static int near(uint32_t p, uint32_t want, int tol)
{
    for (int sh = 0; sh <= 16; sh += 8) {
        int a = (p >> sh) & 255, b = (want >> sh) & 255;
        if (abs(a - b) > tol)
            return 0;
    }
    return 1;
}

/* Pixels near colour want in [x0, x1) x [y0, y1), clipped to the image. */
static long count_near(cairo_surface_t *sf, double x0, double y0, double x1, double y1,
                       uint32_t want)
{
    const unsigned char *d = cairo_image_surface_get_data(sf);
    int stride = cairo_image_surface_get_stride(sf);
    long n = 0;
    for (int y = (int)fmax(0, ceil(y0)); y < (int)fmin(H, floor(y1)); y++)
        for (int x = (int)fmax(0, ceil(x0)); x < (int)fmin(W, floor(x1)); x++) {
            const uint32_t *row = (const uint32_t *)(const void *)(d + (size_t)y * stride);
            n += near(row[x] & 0xffffff, want, 40);
        }
    return n;
}

static size_t count_str(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void map_ok(const pr_chart *c, double x, double y, double *px, double *py)
{
    pr_err err = {{0}};
    cr_assert_eq(chart_map_point(c, W, H, x, y, px, py, &err), 0, "%s", err.msg);
}

static void plot_ok(const pr_chart *c, double *x, double *y, double *w, double *h)
{
    pr_err err = {{0}};
    cr_assert_eq(chart_plot_area(c, W, H, x, y, w, h, &err), 0, "%s", err.msg);
}

/* ResNet50 PyTorch on V100-16GB as DLPerf printed it: 1070.37 at 8 GPUs
 * is below 4 GPUs' figure (flagged) when flag. */
static pr_chart *dlperf(int flag, pr_chart_lang lang)
{
    pr_chart *c =
        chart_new(PR_CHART_LINE_LOG2X, "ResNet50 PyTorch", "GPUs", "Throughput (images/s)");
    chart_set_lang(c, lang);
    chart_set_y_log(c, 1);
    int s = chart_add_series(c, "published (DLPerf)", PR_CHART_SOLID);
    static const double x[] = {1, 4, 8, 16, 32};
    static const double y[] = {306.35, 1079.19, 1070.37, 2093.53, 4119.84};
    static const char *const t[] = {"306.35", "1079.19", "1070.37", "2093.53", "4119.84"};
    for (int i = 0; i < 5; i++)
        chart_add_point_full(c, s, x[i], y[i], t[i], 0, flag && x[i] == 8);
    return c;
}

/* ------------------------------------------------------ flagged points */

Test(chart_flags, flagged_point_has_badge_legend_and_alt_text)
{
    pr_chart *plain = dlperf(0, PR_CHART_LANG_EN), *flagged = dlperf(1, PR_CHART_LANG_EN);
    char *sp = render_svg(plain), *sf = render_svg(flagged);
    /* The badge above the point and the legend's swatch: crimson twice. */
    cr_assert_eq(count_str(sp, FLAG_SVG), 0, "a badge on a chart with no flag");
    cr_assert_eq(count_str(sf, FLAG_SVG), 2, "badge and legend swatch: %zu crimson shapes",
                 count_str(sf, FLAG_SVG));
    /* In the PNG: crimson just above the point at 8 GPUs, and in the
     * legend below the plot; none near the other points. */
    double px, py, x, y, w, h;
    map_ok(flagged, 8, 1070.37, &px, &py);
    plot_ok(flagged, &x, &y, &w, &h);
    cairo_surface_t *img = render_png(flagged), *pimg = render_png(plain);
    cr_assert_gt(count_near(img, px - 10, py - 30, px + 10, py - 4, FLAG_RGB), 40);
    cr_assert_gt(count_near(img, 0, y + h + 2, W, H, FLAG_RGB), 40, "no legend badge");
    double qx, qy;
    map_ok(flagged, 4, 1079.19, &qx, &qy);
    cr_assert_eq(count_near(img, qx - 10, qy - 30, qx + 10, qy + 10, FLAG_RGB), 0);
    cr_assert_eq(count_near(pimg, 0, 0, W, H, FLAG_RGB), 0);
    /* The alt text names the figure as the table prints it. */
    char *alt = chart_alt_text(flagged), *palt = chart_alt_text(plain);
    cr_assert(strstr(alt, "Flagged (see the table's footnote ❗): published (DLPerf) at x=8: "
                          "1070.37."),
              "%s", alt);
    cr_assert_null(strstr(palt, "Flagged"), "%s", palt);
    cairo_surface_destroy(img);
    cairo_surface_destroy(pimg);
    free(alt);
    free(palt);
    free(sp);
    free(sf);
    chart_free(plain);
    chart_free(flagged);
}

Test(chart_flags, flagged_alt_text_in_chinese)
{
    pr_chart *c = dlperf(1, PR_CHART_LANG_ZH);
    char *alt = chart_alt_text(c);
    cr_assert(strstr(alt, "存疑（见表格脚注 ❗）：published (DLPerf) x=8 时 1070.37。"), "%s", alt);
    free(alt);
    chart_free(c);
}

/* A flag on a point at the top of the plot still shows (not clipped). */
Test(chart_flags, badge_of_top_point_is_drawn)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, NULL, NULL, NULL);
    int s = chart_add_series(c, "a", PR_CHART_SOLID);
    chart_add_point(c, s, 1, 10);
    chart_add_point_flagged(c, s, 2, 20, "20");
    cairo_surface_t *img = render_png(c);
    cr_assert_gt(count_near(img, 0, 0, W, H, FLAG_RGB), 80);
    cairo_surface_destroy(img);
    chart_free(c);
}

/* --------------------------------------------------------- flagged bars */

/* DeepLabV3+ V100-SXM2-32GB FP32 BS=4, per GPU: mmseg's published 243 at
 * 32 GPUs is 178.7 % efficient (flagged). */
static pr_chart *deeplab_bars(int flag)
{
    pr_chart *c =
        chart_new(PR_CHART_BARS, "DeepLabV3+ FP32 BS=4", "GPUs", "Throughput per GPU (samples/s)");
    chart_set_flag_label(c, "flagged: see the table's footnote");
    int m = chart_add_series(c, "mmsegmentation (parsed)", PR_CHART_SOLID);
    int mp = chart_add_series(c, "mmsegmentation (published)", PR_CHART_HOLLOW_MARKERS);
    int p = chart_add_series(c, "Paddle (parsed)", PR_CHART_SOLID);
    chart_add_category(c, "1×1 GPUs");
    chart_add_category(c, "1×8 GPUs");
    chart_add_category(c, "4×32 GPUs");
    chart_set_bar_text(c, m, 0, 4.252, "4.25");
    chart_set_bar_text(c, m, 1, 3.206, "25.65 (3.21 per GPU)");
    chart_set_bar_text(c, mp, 2, 243 / 32.0, "243 (7.59 per GPU)");
    chart_set_bar_text(c, p, 0, 6.136, "6.14");
    chart_set_bar_text(c, p, 1, 5.549, "44.39 (5.55 per GPU)");
    chart_set_bar_text(c, p, 2, 5.461, "174.74 (5.46 per GPU)");
    if (flag)
        chart_flag_bar(c, mp, 2);
    return c;
}

Test(chart_flags, flagged_bar_has_badge_above_it)
{
    pr_chart *plain = deeplab_bars(0), *flagged = deeplab_bars(1);
    char *sp = render_svg(plain), *sf = render_svg(flagged);
    cr_assert_eq(count_str(sp, FLAG_SVG), 0);
    cr_assert_eq(count_str(sf, FLAG_SVG), 2, "%zu crimson shapes", count_str(sf, FLAG_SVG));
    /* geometry from chart.h: 3 slots, bars over the middle 80 %, 3 series */
    double x, y, w, h;
    plot_ok(flagged, &x, &y, &w, &h);
    double slot = w / 3, bw = 0.8 * slot / 3;
    double bx = x + 2 * slot + 0.1 * slot + bw; /* series 1, category 2 */
    cairo_surface_t *img = render_png(flagged);
    long above = count_near(img, bx, 0, bx + bw, y + h, FLAG_RGB);
    cr_assert_gt(above, 60, "no badge over the flagged bar (%ld)", above);
    /* nothing crimson over the other slots' bars */
    cr_assert_eq(count_near(img, x, 0, x + 2 * slot, y + h, FLAG_RGB), 0);
    /* the legend has the flag's entry */
    cr_assert_gt(count_near(img, 0, y + h + 2, W, H, FLAG_RGB), 40);
    char *alt = chart_alt_text(flagged);
    cr_assert(strstr(alt, "Flagged (see the table's footnote ❗): mmsegmentation (published), "
                          "4×32 GPUs: 243 (7.59 per GPU)."),
              "%s", alt);
    /* A state is no figure: flagging it draws nothing. */
    chart_set_bar_state(flagged, 1, 2, "OOM");
    char *s2 = render_svg(flagged);
    cr_assert_eq(count_str(s2, FLAG_SVG), 0);
    cairo_surface_destroy(img);
    free(s2);
    free(alt);
    free(sp);
    free(sf);
    chart_free(plain);
    chart_free(flagged);
}

/* ------------------------------------------------------------ run sets */

/* Blue (series 0) pixels strictly between x = a and x = b in the plot. */
static long blue_between(const pr_chart *c, double a, double b)
{
    double xa, xb, yy, x, y, w, h;
    map_ok(c, a, 1, &xa, &yy);
    map_ok(c, b, 1, &xb, &yy);
    plot_ok(c, &x, &y, &w, &h);
    cairo_surface_t *img = render_png(c);
    long n = count_near(img, xa + 8, y, xb - 8, y + h, 0x0072B2);
    cairo_surface_destroy(img);
    return n;
}

Test(chart_flags, no_line_joins_two_run_sets)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "sets", "GPUs", "samples/s");
    chart_set_y_log(c, 1);
    int s = chart_add_series(c, "measured", PR_CHART_SOLID);
    /* 1, 2 and 4 GPUs of one run set, 8 and 16 of another */
    chart_add_point_full(c, s, 16, 1500, NULL, 7, 0);
    chart_add_point_full(c, s, 1, 100, NULL, 3, 0);
    chart_add_point_full(c, s, 2, 195, NULL, 3, 0);
    chart_add_point_full(c, s, 4, 380, NULL, 3, 0);
    chart_add_point_full(c, s, 8, 760, NULL, 7, 0);
    cr_assert_gt(blue_between(c, 1, 2), 20, "one run set's neighbours are not joined");
    cr_assert_gt(blue_between(c, 8, 16), 20);
    cr_assert_eq(blue_between(c, 4, 8), 0, "a line joins two run sets");
    cr_assert(chart_has_segments(c));
    char *alt = chart_alt_text(c);
    cr_assert(
        strstr(alt, "(5 points, 100 at x=1 to 1500 at x=16; 2 run sets: x=1, 2, 4 | x=8, 16)"),
        "%s", alt);
    free(alt);
    chart_set_lang(c, PR_CHART_LANG_ZH);
    alt = chart_alt_text(c);
    cr_assert(strstr(alt, "；2 个运行组：x=1、2、4 | x=8、16）"), "%s", alt);
    free(alt);
    chart_free(c);
}

Test(chart_flags, has_segments)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, NULL, NULL, NULL);
    int s = chart_add_series(c, "a", PR_CHART_SOLID);
    /* 1, 8 and 32 GPUs: markers alone */
    chart_add_point(c, s, 1, 10);
    chart_add_point(c, s, 8, 70);
    chart_add_point(c, s, 32, 250);
    cr_assert_not(chart_has_segments(c));
    /* 16 of another run set than 32: still none */
    chart_add_point_full(c, s, 16, 130, NULL, 1, 0);
    cr_assert_not(chart_has_segments(c));
    /* 4 of the 8's run set: one segment */
    chart_add_point(c, s, 4, 36);
    cr_assert(chart_has_segments(c));
    chart_free(c);
    pr_chart *b = chart_new(PR_CHART_BARS, NULL, NULL, NULL);
    cr_assert_not(chart_has_segments(b));
    chart_free(b);
}

/* ----------------------------------------------------------- efficiency */

/* Scaling efficiency of Perf's ResNet50 NGC PyTorch: 100, 94.3, 88.8 %,
 * the last across two run sets (flagged, a set of its own). */
static pr_chart *efficiency(void)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "ResNet50 NGC PyTorch: scaling efficiency", "GPUs",
                            "Scaling efficiency (%)");
    chart_set_decimals(c, 1);
    int s = chart_add_series(c, "FP32 BS=256 (published)", PR_CHART_HOLLOW_MARKERS);
    chart_add_point_full(c, s, 1, 100, "100.0%", 0, 0);
    chart_add_point_full(c, s, 8, 94.28, "94.3%", 0, 0);
    chart_add_point_full(c, s, 32, 88.83, "88.8%", 1, 1);
    chart_add_ref_y(c, 100, "100 % = ideal linear scaling");
    return c;
}

Test(chart_flags, efficiency_has_linear_axis_and_100_level)
{
    pr_chart *c = efficiency();
    double x, y, w, h, x1, y100, x32, y888, xx, y0;
    plot_ok(c, &x, &y, &w, &h);
    map_ok(c, 1, 100, &x1, &y100);
    map_ok(c, 32, 88.83, &x32, &y888);
    map_ok(c, 1, 0, &xx, &y0);
    /* linear from 0: 0 on the x axis, 100 inside the plot with room above */
    cr_assert_float_eq(y0, y + h, 0.5);
    cr_assert_gt(y100, y + 5, "the 100 %% level sits on the plot's top edge");
    /* linear: 88.8 % is 11.2 % of 100 %'s height below it */
    cr_assert_float_eq((y888 - y100) / (y0 - y100), (100 - 88.83) / 100, 0.01);
    /* the dashed grey level runs across the plot (between the points too) */
    cairo_surface_t *img = render_png(c);
    long grey = count_near(img, x1 + 20, y100 - 1.5, x32 - 20, y100 + 1.5, 0x8C8C8C);
    cr_assert_gt(grey, 150, "no 100 %% level (%ld grey pixels)", grey);
    /* the 88.8 % point carries a badge */
    cr_assert_gt(count_near(img, x32 - 10, y888 - 35, x32 + 10, y888 - 4, FLAG_RGB), 40);
    cairo_surface_destroy(img);
    char *alt = chart_alt_text(c);
    cr_assert(strstr(alt, "Y axis: Scaling efficiency (%), linear from 0."), "%s", alt);
    cr_assert(strstr(alt, "(3 points, 100.0% at x=1 to 88.8% at x=32; 2 run sets: x=1, 8 | x=32)"),
              "%s", alt);
    cr_assert(strstr(alt, "Dashed grey level: 100 % = ideal linear scaling (y = 100.0)."), "%s",
              alt);
    cr_assert(strstr(alt, "Flagged (see the table's footnote ❗): FP32 BS=256 (published) at x=32: "
                          "88.8%."),
              "%s", alt);
    char *svg = render_svg(c);
    cr_assert_eq(count_str(svg, FLAG_SVG), 2);
    /* a dashed stroke: the level (and the legend's swatch) */
    cr_assert_geq(count_str(svg, "stroke-dasharray"), 2);
    free(svg);
    free(alt);
    chart_free(c);
}

/* All below 100 %: the level still sets the range. */
Test(chart_flags, efficiency_range_includes_100)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, NULL, NULL, NULL);
    int s = chart_add_series(c, "a", PR_CHART_SOLID);
    chart_add_point(c, s, 2, 40);
    chart_add_point(c, s, 4, 30);
    chart_add_ref_y(c, 100, NULL);
    double x, y, w, h, px, py;
    plot_ok(c, &x, &y, &w, &h);
    map_ok(c, 2, 100, &px, &py);
    cr_assert_gt(py, y);
    cr_assert_lt(py, y + h);
    /* its legend entry defaults to the ideal line's words */
    char *alt = chart_alt_text(c);
    cr_assert(strstr(alt, "Dashed grey level: ideal linear scaling (y = 100)"), "%s", alt);
    free(alt);
    chart_free(c);
}
