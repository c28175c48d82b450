/* Unit tests of gen/4-charts/chart.c: PNG/SVG output, pixels of the plot area, bar
 * gaps, determinism (in one process and across two), CJK fonts, edge cases.
 *
 * With PR_CHART_SAMPLES=DIR in the environment, the test "samples" also
 * writes sample charts (scaling, bars, bytes axis, empty) to DIR as PNG and
 * SVG, for looking at them. */
#include <cairo.h>
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "4-charts/chart.h"
#include "4-charts/chart_int.h"
#include "base/md.h"
#include "buf.h"
#include "err.h"

#define W 720
#define H 400

/* ------------------------------------------------------------ helpers */

static pr_chart *scaling_chart(void)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "ResNet50 v1.5 吞吐扩展 (images/s)", "GPU 数量",
                            "吞吐 (images/s)");
    chart_set_lang(c, PR_CHART_LANG_ZH);
    int s = chart_add_series(c, "本次测量 (PyTorch, FP16)", PR_CHART_SOLID);
    int pub = chart_add_series(c, "公开数据 (NVIDIA)", PR_CHART_HOLLOW_MARKERS);
    static const double x[] = {1, 2, 4, 8, 16, 32};
    static const double y[] = {347.12, 604.11, 899.41, 1404.55, 2384.3, 5552.77};
    static const double yp[] = {380, 740, 1450, 2850, 5500, 10600};
    for (int i = 0; i < 6; i++) {
        chart_add_point(c, s, x[i], y[i]);
        chart_add_point(c, pub, x[i], yp[i]);
    }
    chart_add_ideal(c, 1, 347.12);
    return c;
}

/* Two series x three categories; series 1 in category 1 is a gap labelled
 * OOM unless with_value. */
static pr_chart *bar_chart(int with_value)
{
    pr_chart *c = chart_new(PR_CHART_BARS, "框架对比 (images/s)", "GPU 数量", "吞吐 (images/s)");
    int a = chart_add_series(c, "PyTorch", PR_CHART_SOLID);
    int b = chart_add_series(c, "TensorFlow", PR_CHART_SOLID);
    chart_add_category(c, "1");
    chart_add_category(c, "8");
    chart_add_category(c, "32");
    chart_set_bar(c, a, 0, 347.12);
    chart_set_bar(c, a, 1, 1404.55);
    chart_set_bar(c, a, 2, 5552.77);
    chart_set_bar(c, b, 0, 330.5);
    if (with_value)
        chart_set_bar(c, b, 1, 1300);
    else
        chart_set_bar_state(c, b, 1, "OOM");
    chart_set_bar(c, b, 2, 5100.2);
    return c;
}

static pr_chart *bytes_chart(void)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "NCCL all-reduce 总线带宽 (8 GPUs)",
                            "消息大小 (bytes)", "总线带宽 (GB/s)");
    chart_set_x_bytes(c, 1);
    int nv = chart_add_series(c, "NVLink", PR_CHART_SOLID);
    int pcie = chart_add_series(c, "PCIe", PR_CHART_DASHED);
    int pub = chart_add_series(c, "公开数据", PR_CHART_HOLLOW_MARKERS | PR_CHART_NO_LINE);
    for (int k = 3; k <= 33; k++) {
        double x = ldexp(1, k);
        chart_add_point(c, nv, x, 230.0 * x / (x + 4e6));
        chart_add_point(c, pcie, x, 22.0 * x / (x + 1e6));
        if (k % 4 == 1)
            chart_add_point(c, pub, x, 240.0 * x / (x + 3e6));
    }
    return c;
}

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

/* Decodes a PNG with cairo (libpng): checks our encoder too. */
static cairo_surface_t *decode_png(const pr_buf *png)
{
    reader r = {png, 0};
    cairo_surface_t *sf = cairo_image_surface_create_from_png_stream(read_buf, &r);
    cr_assert_eq(cairo_surface_status(sf), CAIRO_STATUS_SUCCESS, "PNG does not decode: %s",
                 cairo_status_to_string(cairo_surface_status(sf)));
    cr_assert_eq(r.at, png->len, "bytes after the PNG's end");
    return sf;
}

static uint32_t pixel(cairo_surface_t *sf, int x, int y)
{
    const unsigned char *d = cairo_image_surface_get_data(sf);
    const uint32_t *row =
        (const uint32_t *)(const void *)(d + (size_t)y * cairo_image_surface_get_stride(sf));
    return row[x] & 0xffffff;
}

/* A pixel of colour: its channels differ by more than 60 (greys, the grid
 * and black text do not count). */
static int is_colour(uint32_t p)
{
    int r = (p >> 16) & 255, g = (p >> 8) & 255, b = p & 255;
    int mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
    int mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
    return mx - mn > 60;
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

static long count_in(cairo_surface_t *sf, double x0, double y0, double x1, double y1,
                     int (*pred)(uint32_t, uint32_t), uint32_t arg)
{
    long n = 0;
    for (int y = (int)ceil(y0); y < (int)floor(y1); y++)
        for (int x = (int)ceil(x0); x < (int)floor(x1); x++)
            n += pred(pixel(sf, x, y), arg);
    return n;
}

static int pred_colour(uint32_t p, uint32_t unused)
{
    (void)unused;
    return is_colour(p);
}

static int pred_near(uint32_t p, uint32_t want)
{
    return near(p, want, 40);
}

static int pred_not_white(uint32_t p, uint32_t unused)
{
    (void)unused;
    return p != 0xffffff;
}

static void render_png_ok(const pr_chart *c, int w, int h, pr_buf *out)
{
    pr_err err = {{0}};
    int rc = chart_render_png(c, w, h, out, &err);
    cr_assert_eq(rc, 0, "render_png: %s", err.msg);
    cr_assert_gt(out->len, 8u);
}

static void render_svg_ok(const pr_chart *c, int w, int h, pr_buf *out)
{
    pr_err err = {{0}};
    int rc = chart_render_svg(c, w, h, out, &err);
    cr_assert_eq(rc, 0, "render_svg: %s", err.msg);
    cr_assert_gt(out->len, 8u);
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* -------------------------------------------------------------- fonts */

Test(chart, fonts_available)
{
    pr_err err = {{0}};
    cr_assert_eq(chart_check_fonts(&err), 0, "%s", err.msg);
    /* remembered: a second call is free and still 0 */
    cr_assert_eq(chart_check_fonts(&err), 0);
}

Test(chart, chinese_title_has_no_unknown_glyphs)
{
    const char *title = "ResNet50 v1.5 吞吐扩展 (images/s)";
    PangoFontMap *fm = pango_cairo_font_map_get_default();
    PangoContext *ctx = pango_font_map_create_context(fm);
    pango_context_set_language(ctx, pango_language_from_string("zh-cn"));
    PangoLayout *lay = pango_layout_new(ctx);
    PangoFontDescription *d = pango_font_description_from_string("Noto Sans CJK SC 12");
    pango_layout_set_font_description(lay, d);
    pango_layout_set_text(lay, title, -1);
    cr_assert_eq(pango_layout_get_unknown_glyphs_count(lay), 0);
    pango_font_description_free(d);
    g_object_unref(lay);
    g_object_unref(ctx);

    /* render also checks every label it draws */
    pr_chart *c = scaling_chart();
    pr_buf png = PR_BUF_INIT;
    render_png_ok(c, W, H, &png);
    pr_buf_free(&png);
    chart_free(c);
}

Test(chart, undrawable_label_fails_instead_of_boxes)
{
    /* U+0378 is unassigned: no font has a glyph for it */
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "title \xCD\xB8", "x", "y");
    int s = chart_add_series(c, "s", 0);
    chart_add_point(c, s, 1, 1);
    pr_buf out = PR_BUF_INIT;
    pr_buf_puts(&out, "keep");
    pr_err err = {{0}};
    cr_assert_eq(chart_render_png(c, W, H, &out, &err), -1);
    cr_assert(strstr(err.msg, "fonts-noto-cjk"), "%s", err.msg);
    cr_assert_str_eq(pr_buf_cstr(&out), "keep", "out changed on failure");
    cr_assert_eq(chart_render_svg(c, W, H, &out, &err), -1);
    cr_assert_str_eq(pr_buf_cstr(&out), "keep");
    pr_buf_free(&out);
    chart_free(c);
}

Test(chart, invalid_utf8_label_fails)
{
    pr_chart *c = chart_new(PR_CHART_BARS, "t", "x", "y");
    chart_add_series(c, "bad \xff\xfe", 0);
    chart_add_category(c, "1");
    chart_set_bar(c, 0, 0, 1);
    pr_buf out = PR_BUF_INIT;
    pr_err err = {{0}};
    cr_assert_eq(chart_render_png(c, W, H, &out, &err), -1);
    cr_assert(strstr(err.msg, "UTF-8"), "%s", err.msg);
    cr_assert_eq(out.len, 0u);
    pr_buf_free(&out);
    chart_free(c);
}

/* Each Criterion test runs in a fresh process, so fontconfig is not yet
 * initialised here and FONTCONFIG_FILE still takes effect. */
Test(chart, missing_cjk_font_is_an_error)
{
    const char *dir = NULL;
    static const char *const dirs[] = {"/usr/share/fonts/truetype/dejavu",
                                       "/usr/share/fonts/truetype/liberation",
                                       "/usr/share/fonts/truetype/freefont"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (access(dirs[i], R_OK) == 0) {
            dir = dirs[i];
            break;
        }
    if (!dir)
        cr_skip_test("no non-CJK font directory to build a config from");
    char path[] = "/tmp/pr-chart-fonts-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f,
            "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n"
            "<fontconfig><dir>%s</dir></fontconfig>\n",
            dir);
    fclose(f);
    setenv("FONTCONFIG_FILE", path, 1);

    pr_err err = {{0}};
    int rc = chart_check_fonts(&err);
    pr_chart *c = scaling_chart();
    pr_buf out = PR_BUF_INIT;
    pr_err err2 = {{0}};
    int rc2 = chart_render_png(c, W, H, &out, &err2);
    unlink(path);
    cr_assert_eq(rc, -1, "check_fonts passed without the CJK font");
    cr_assert(strstr(err.msg, "fonts-noto-cjk"), "%s", err.msg);
    cr_assert(strstr(err.msg, "Noto Sans CJK SC"), "%s", err.msg);
    cr_assert_eq(rc2, -1);
    cr_assert(strstr(err2.msg, "fonts-noto-cjk"), "%s", err2.msg);
    cr_assert_eq(out.len, 0u);
    pr_buf_free(&out);
    chart_free(c);
}

/* ---------------------------------------------------------------- PNG */

Test(chart, png_header_and_size)
{
    pr_chart *c = scaling_chart();
    static const int sizes[][2] = {{720, 400}, {1440, 800}, {400, 300}, {100, 100}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        pr_buf png = PR_BUF_INIT;
        pr_err err = {{0}};
        int rc = chart_render_png(c, sizes[i][0], sizes[i][1], &png, &err);
        if (sizes[i][0] == 100) {
            /* too small for these labels: an error, not a mess */
            if (rc != 0) {
                cr_assert(strstr(err.msg, "too small"), "%s", err.msg);
                pr_buf_free(&png);
                continue;
            }
        }
        cr_assert_eq(rc, 0, "%dx%d: %s", sizes[i][0], sizes[i][1], err.msg);
        const unsigned char *p = (const unsigned char *)png.data;
        cr_assert_eq(memcmp(p, "\x89PNG\r\n\x1a\n", 8), 0);
        cr_assert_eq(memcmp(p + 12, "IHDR", 4), 0);
        cr_assert_eq(be32(p + 16), (uint32_t)sizes[i][0]);
        cr_assert_eq(be32(p + 20), (uint32_t)sizes[i][1]);
        cr_assert_eq(memcmp(p + png.len - 8, "IEND", 4), 0);
        cairo_surface_t *sf = decode_png(&png);
        cr_assert_eq(cairo_image_surface_get_width(sf), sizes[i][0]);
        cr_assert_eq(cairo_image_surface_get_height(sf), sizes[i][1]);
        cairo_surface_destroy(sf);
        pr_buf_free(&png);
    }
    chart_free(c);
}

Test(chart, png_is_appended)
{
    pr_chart *c = scaling_chart();
    pr_buf out = PR_BUF_INIT, alone = PR_BUF_INIT;
    pr_buf_puts(&out, "prefix");
    render_png_ok(c, W, H, &out);
    render_png_ok(c, W, H, &alone);
    cr_assert_eq(out.len, 6 + alone.len);
    cr_assert_eq(memcmp(out.data, "prefix", 6), 0);
    cr_assert_eq(memcmp(out.data + 6, alone.data, alone.len), 0);
    pr_buf_free(&out);
    pr_buf_free(&alone);
    chart_free(c);
}

Test(chart, bad_sizes_are_errors)
{
    pr_chart *c = scaling_chart();
    pr_buf out = PR_BUF_INIT;
    pr_err err = {{0}};
    cr_assert_eq(chart_render_png(c, 0, 400, &out, &err), -1);
    cr_assert(strstr(err.msg, "size"), "%s", err.msg);
    cr_assert_eq(chart_render_png(c, 720, -5, &out, &err), -1);
    cr_assert_eq(chart_render_svg(c, 50, 50, &out, &err), -1);
    cr_assert_eq(chart_render_png(c, 100000, 400, &out, &err), -1);
    cr_assert_eq(out.len, 0u);
    pr_buf_free(&out);
    chart_free(c);
}

Test(chart, plot_area_is_drawn)
{
    pr_chart *c = scaling_chart();
    pr_chart *e = chart_new(PR_CHART_LINE_LOG2X, "ResNet50 v1.5 吞吐扩展 (images/s)", "GPU 数量",
                            "吞吐 (images/s)");
    chart_add_series(e, "本次测量 (PyTorch, FP16)", PR_CHART_SOLID);
    double x, y, w, h;
    pr_err err = {{0}};
    cr_assert_eq(chart_plot_area(c, W, H, &x, &y, &w, &h, &err), 0, "%s", err.msg);
    /* the plot area is most of the image */
    cr_assert_gt(w, W * 0.6);
    cr_assert_gt(h, H * 0.5);
    cr_assert_geq(x, 0);
    cr_assert_geq(y, 0);
    cr_assert_leq(x + w, W);
    cr_assert_leq(y + h, H);

    pr_buf a = PR_BUF_INIT, b = PR_BUF_INIT;
    render_png_ok(c, W, H, &a);
    render_png_ok(e, W, H, &b);
    cairo_surface_t *sa = decode_png(&a), *sb = decode_png(&b);
    /* inside the axes, 2 px in */
    long ca = count_in(sa, x + 2, y + 2, x + w - 2, y + h - 2, pred_colour, 0);
    long cb = count_in(sb, x + 2, y + 2, x + w - 2, y + h - 2, pred_colour, 0);
    long na = count_in(sa, x + 2, y + 2, x + w - 2, y + h - 2, pred_not_white, 0);
    long nb = count_in(sb, x + 2, y + 2, x + w - 2, y + h - 2, pred_not_white, 0);
    cr_assert_gt(ca, 1500, "only %ld coloured pixels in the plot area", ca);
    cr_assert_eq(cb, 0, "%ld coloured pixels in an empty chart's plot area", cb);
    cr_assert_gt(na, nb + 1500, "chart %ld vs empty %ld non-white pixels", na, nb);
    /* the empty chart still has its grid and its "no data" note */
    cr_assert_gt(nb, 100);
    /* the measured series (Okabe-Ito blue) and the published one
     * (vermillion) are both there */
    cr_assert_gt(count_in(sa, x, y, x + w, y + h, pred_near, 0x0072B2), 300);
    cr_assert_gt(count_in(sa, x, y, x + w, y + h, pred_near, 0xD55E00), 300);
    /* the legend is below the plot area, not over it: the legend swatches
     * are coloured pixels below the x axis */
    cr_assert_gt(count_in(sa, 0, y + h + 2, W, H, pred_near, 0x0072B2), 20);
    cairo_surface_destroy(sa);
    cairo_surface_destroy(sb);
    pr_buf_free(&a);
    pr_buf_free(&b);
    chart_free(c);
    chart_free(e);
}

Test(chart, bar_gap_draws_no_bar)
{
    pr_chart *gap = bar_chart(0), *full = bar_chart(1);
    double x, y, w, h;
    pr_err err = {{0}};
    cr_assert_eq(chart_plot_area(gap, W, H, &x, &y, &w, &h, &err), 0, "%s", err.msg);
    double x2, y2, w2, h2;
    cr_assert_eq(chart_plot_area(full, W, H, &x2, &y2, &w2, &h2, &err), 0, "%s", err.msg);
    cr_assert(x == x2 && y == y2 && w == w2 && h == h2, "same layout expected");

    pr_buf a = PR_BUF_INIT, b = PR_BUF_INIT;
    render_png_ok(gap, W, H, &a);
    render_png_ok(full, W, H, &b);
    cairo_surface_t *sa = decode_png(&a), *sb = decode_png(&b);
    /* geometry from chart.h: 3 slots, bars over the middle 80%, 2 series */
    double slot = w / 3, bw = 0.8 * slot / 2;
    double bx0 = x + slot + 0.1 * slot + bw, bx1 = bx0 + bw; /* series 1, category 1 */
    const uint32_t vermillion = 0xD55E00, blue = 0x0072B2;
    long in_gap = count_in(sa, bx0 + 2, y, bx1 - 2, y + h - 1, pred_near, vermillion);
    long in_full = count_in(sb, bx0 + 2, y, bx1 - 2, y + h - 1, pred_near, vermillion);
    cr_assert_eq(in_gap, 0, "%ld bar-coloured pixels where the OOM gap is", in_gap);
    cr_assert_gt(in_full, 1000, "the reference bar is missing (%ld)", in_full);
    /* the gap has its label: dark pixels near the baseline of that column */
    long label = count_in(sa, bx0, y + h - 40, bx1, y + h - 1, pred_not_white, 0);
    cr_assert_gt(label, 20, "no state label in the gap (%ld)", label);
    /* the neighbouring bar of series 0 is still drawn */
    double ax0 = x + slot + 0.1 * slot;
    cr_assert_gt(count_in(sa, ax0 + 2, y, ax0 + bw - 2, y + h - 1, pred_near, blue), 1000);
    cairo_surface_destroy(sa);
    cairo_surface_destroy(sb);
    pr_buf_free(&a);
    pr_buf_free(&b);
    chart_free(gap);
    chart_free(full);
}

/* -------------------------------------------------------- determinism */

Test(chart, same_bytes_twice_in_one_process)
{
    pr_chart *charts[] = {scaling_chart(), bar_chart(0), bytes_chart()};
    for (size_t i = 0; i < 3; i++) {
        pr_buf p1 = PR_BUF_INIT, p2 = PR_BUF_INIT, s1 = PR_BUF_INIT, s2 = PR_BUF_INIT;
        render_png_ok(charts[i], W, H, &p1);
        render_svg_ok(charts[i], W, H, &s1);
        render_png_ok(charts[i], W, H, &p2);
        render_svg_ok(charts[i], W, H, &s2);
        cr_assert_eq(p1.len, p2.len, "chart %zu: PNG sizes differ", i);
        cr_assert_eq(memcmp(p1.data, p2.data, p1.len), 0, "chart %zu: PNG bytes differ", i);
        cr_assert_eq(s1.len, s2.len, "chart %zu: SVG sizes differ", i);
        cr_assert_eq(memcmp(s1.data, s2.data, s1.len), 0, "chart %zu: SVG bytes differ", i);
        pr_buf_free(&p1);
        pr_buf_free(&p2);
        pr_buf_free(&s1);
        pr_buf_free(&s2);
        chart_free(charts[i]);
    }
}

static void render_both(pr_buf *out)
{
    pr_chart *c = scaling_chart();
    render_png_ok(c, W, H, out);
    render_svg_ok(c, W, H, out);
    chart_free(c);
    c = bar_chart(0);
    render_png_ok(c, W, H, out);
    chart_free(c);
}

Test(chart, same_bytes_in_two_processes)
{
    /* Neither process has touched fontconfig or Pango before rendering. */
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        pr_buf b = PR_BUF_INIT;
        pr_err err;
        pr_chart *c = scaling_chart();
        int ok =
            chart_render_png(c, W, H, &b, &err) == 0 && chart_render_svg(c, W, H, &b, &err) == 0;
        chart_free(c);
        c = bar_chart(0);
        ok = ok && chart_render_png(c, W, H, &b, &err) == 0;
        for (size_t off = 0; ok && off < b.len;) {
            ssize_t n = write(fds[1], b.data + off, b.len - off);
            if (n <= 0)
                _exit(2);
            off += (size_t)n;
        }
        _exit(ok ? 0 : 1);
    }
    close(fds[1]);
    pr_buf child = PR_BUF_INIT;
    char tmp[65536];
    ssize_t n;
    while ((n = read(fds[0], tmp, sizeof tmp)) > 0)
        pr_buf_put(&child, tmp, (size_t)n);
    close(fds[0]);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child failed");

    pr_buf mine = PR_BUF_INIT;
    render_both(&mine);
    cr_assert_eq(child.len, mine.len, "sizes differ: %zu vs %zu", child.len, mine.len);
    cr_assert_eq(memcmp(child.data, mine.data, mine.len), 0, "bytes differ between processes");
    pr_buf_free(&child);
    pr_buf_free(&mine);
}

/* ---------------------------------------------------------------- SVG */

Test(chart, svg_is_svg_of_the_size)
{
    pr_chart *c = scaling_chart();
    pr_buf svg = PR_BUF_INIT;
    render_svg_ok(c, W, H, &svg);
    const char *s = pr_buf_cstr(&svg);
    cr_assert(strncmp(s, "<?xml", 5) == 0);
    cr_assert(strstr(s, "<svg"), "no <svg>");
    cr_assert(strstr(s, "width=\"720px\""), "width");
    cr_assert(strstr(s, "height=\"400px\""), "height");
    cr_assert(strstr(s, "viewBox=\"0 0 720 400\""), "viewBox");
    cr_assert(strstr(s, "</svg>"), "not finished");
    /* the surface id is renumbered (cairo's is a process-wide counter) */
    cr_assert(strstr(s, "id=\"surface1\""), "surface id");
    /* Okabe-Ito colours are used */
    cr_assert(strstr(s, "rgb(0%,44.705882%,69.803922%)") || strstr(s, "rgb(0%,44.7"),
              "no Okabe-Ito blue in the SVG");
    pr_buf_free(&svg);
    chart_free(c);
}

/* The text content of every <text> element in svg, XML entities decoded,
 * whitespace dropped (a wrapped label is one element per line).  Caller
 * frees. */
static char *svg_words(const char *svg, int *ntext)
{
    pr_buf w = PR_BUF_INIT;
    *ntext = 0;
    for (const char *p = strstr(svg, "<text"); p; p = strstr(p, "<text")) {
        const char *b = strchr(p, '>');
        const char *e = b ? strstr(b, "</text>") : NULL;
        cr_assert(e, "unclosed <text>");
        (*ntext)++;
        for (const char *q = b + 1; q < e; q++) {
            static const struct {
                const char *ent;
                char c;
            } ents[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}};
            size_t k = 0;
            while (k < 4 && strncmp(q, ents[k].ent, strlen(ents[k].ent)) != 0)
                k++;
            if (k < 4) {
                pr_buf_putc(&w, ents[k].c);
                q += strlen(ents[k].ent) - 1;
            } else if (*q != ' ') {
                pr_buf_putc(&w, *q);
            }
        }
        p = e;
    }
    char *out = strdup(pr_buf_cstr(&w));
    pr_buf_free(&w);
    return out;
}

static void assert_words_in(const char *words, const char *label)
{
    char want[512];
    size_t n = 0;
    for (const char *q = label; *q && n + 1 < sizeof want; q++)
        if (*q != ' ')
            want[n++] = *q;
    want[n] = 0;
    cr_assert(strstr(words, want), "\"%s\" is not in the SVG's text (%s)", label, words);
}

/* Chart words are <text> elements, not glyph outlines: selectable,
 * searchable, and a bar chart is a few KB (it was 200 KB of paths). */
Test(chart, svg_words_are_text)
{
    pr_chart *c = chart_new(PR_CHART_BARS, "框架对比 <A&B> \"x\"", "GPU 数量", "吞吐 (images/s)");
    int a = chart_add_series(c, "PyTorch & 公开", PR_CHART_SOLID);
    int b = chart_add_series(c, "TensorFlow", PR_CHART_SOLID);
    chart_add_category(c, "1");
    chart_add_category(c, "8 卡");
    chart_set_bar(c, a, 0, 347.12);
    chart_set_bar(c, a, 1, 1404.55);
    chart_set_bar(c, b, 0, 330.5);
    chart_set_bar_state(c, b, 1, "OOM");
    pr_buf svg = PR_BUF_INIT;
    render_svg_ok(c, W, H, &svg);
    const char *s = pr_buf_cstr(&svg);
    int ntext = 0;
    char *words = svg_words(s, &ntext);
    cr_assert_gt(ntext, 5, "%d <text> elements", ntext);
    static const char *const labels[] = {"框架对比 <A&B> \"x\"",
                                         "GPU 数量",
                                         "吞吐 (images/s)",
                                         "PyTorch & 公开",
                                         "TensorFlow",
                                         "8 卡",
                                         "OOM"};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        assert_words_in(words, labels[i]);
    cr_assert_null(strstr(s, "<symbol"), "glyph outlines in the SVG");
    cr_assert(strstr(s, "font-family=\"'Noto Sans CJK SC'"), "no font family named");
    cr_assert(strstr(s, "sans-serif"), "no generic fallback family");
    /* the y axis title reads bottom to top */
    cr_assert(strstr(s, "transform=\"rotate(-90 "), "no rotated text");
    cr_assert_lt(svg.len, 40 * 1024, "bar chart SVG is %zu bytes", svg.len);
    free(words);
    pr_buf_free(&svg);
    chart_free(c);
}

/* A line chart's series, ticks and ideal-line label are text as well. */
Test(chart, svg_line_chart_words_are_text)
{
    pr_chart *c = scaling_chart();
    pr_buf svg = PR_BUF_INIT;
    render_svg_ok(c, W, H, &svg);
    int ntext = 0;
    char *words = svg_words(pr_buf_cstr(&svg), &ntext);
    static const char *const labels[] = {"ResNet50 v1.5 吞吐扩展 (images/s)",
                                         "本次测量 (PyTorch, FP16)", "公开数据 (NVIDIA)", "32"};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        assert_words_in(words, labels[i]);
    cr_assert_lt(svg.len, 40 * 1024, "line chart SVG is %zu bytes", svg.len);
    free(words);
    pr_buf_free(&svg);
    chart_free(c);
}

/* The PNG and the SVG show the same words: the drawing on an image surface
 * (the PNG's), its text recorded instead of drawn, gives the very <text>
 * elements that the SVG carries, in the same places. */
Test(chart, png_and_svg_show_the_same_words)
{
    pr_chart *charts[] = {scaling_chart(), bar_chart(0)};
    for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
        pr_buf svg = PR_BUF_INIT, rec = PR_BUF_INIT;
        render_svg_ok(charts[i], W, H, &svg);
        cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
        chart_svgtext_attach(sf, &rec);
        cairo_t *cr = cairo_create(sf);
        pr_err err;
        cr_assert_eq(chart_render_on(charts[i], cr, W, H, &err), 0, "%s", err.msg);
        cairo_destroy(cr);
        cairo_surface_destroy(sf);
        cr_assert_gt(rec.len, 0, "the image drawing shows no text");
        cr_assert(memmem(svg.data, svg.len, rec.data, rec.len),
                  "chart %zu: the SVG's text is not the PNG's:\n%s", i, pr_buf_cstr(&rec));
        pr_buf_free(&svg);
        pr_buf_free(&rec);
        chart_free(charts[i]);
    }
}

/* --------------------------------------------------------- edge cases */

static void render_all(const pr_chart *c)
{
    pr_buf b = PR_BUF_INIT;
    render_png_ok(c, W, H, &b);
    cairo_surface_t *sf = decode_png(&b);
    cairo_surface_destroy(sf);
    pr_buf_clear(&b);
    render_svg_ok(c, W, H, &b);
    pr_buf_free(&b);
    char *alt = chart_alt_text(c);
    cr_assert(alt && *alt);
    cr_assert_null(strchr(alt, '\n'));
    free(alt);
}

Test(chart, empty_charts)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, NULL, NULL, NULL);
    render_all(c);
    chart_add_series(c, "nothing", 0);
    render_all(c);
    chart_free(c);
    c = chart_new(PR_CHART_BARS, "", "", "");
    render_all(c);
    chart_add_category(c, "1");
    render_all(c);
    chart_add_series(c, "s", 0);
    render_all(c); /* a category, a series, no value */
    chart_set_bar_state(c, 0, 0, NULL);
    render_all(c);
    chart_free(c);
    chart_free(NULL);
}

Test(chart, single_point_and_single_bar)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "one", "GPUs", "images/s");
    int s = chart_add_series(c, "s", 0);
    chart_add_point(c, s, 1, 100);
    render_all(c);
    chart_free(c);
    c = chart_new(PR_CHART_LINE_LOG2X, "one", "GPUs", "images/s");
    s = chart_add_series(c, "s", PR_CHART_HOLLOW_MARKERS);
    chart_add_point(c, s, 8, 0);
    render_all(c);
    chart_free(c);
    c = chart_new(PR_CHART_BARS, "one", "GPUs", "images/s");
    chart_add_series(c, "s", 0);
    chart_add_category(c, "1");
    chart_set_bar(c, 0, 0, 0);
    render_all(c);
    chart_free(c);
}

Test(chart, bad_values_are_skipped)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "bad", "GPUs", "images/s");
    int s = chart_add_series(c, "s", 0);
    chart_add_point(c, s, NAN, 1);
    chart_add_point(c, s, 1, NAN);
    chart_add_point(c, s, INFINITY, 1);
    chart_add_point(c, s, 2, INFINITY);
    chart_add_point(c, s, 2, -INFINITY);
    chart_add_point(c, s, 4, -5);
    chart_add_point(c, s, 0, 5); /* 0 on a log axis */
    chart_add_point(c, s, -2, 5);
    chart_add_point(c, 7, 1, 1); /* no such series */
    chart_add_point(c, -1, 1, 1);
    chart_add_ideal(c, 0, 1);
    chart_add_ideal(c, NAN, 1);
    chart_add_ideal(c, 1, -1);
    char *alt = chart_alt_text(c);
    cr_assert(strstr(alt, "No data"), "%s", alt);
    cr_assert_null(strstr(alt, "ideal"), "%s", alt);
    free(alt);
    render_all(c);
    /* the skipped points left nothing coloured in the plot area */
    double x, y, w, h;
    pr_err err;
    cr_assert_eq(chart_plot_area(c, W, H, &x, &y, &w, &h, &err), 0);
    pr_buf b = PR_BUF_INIT;
    render_png_ok(c, W, H, &b);
    cairo_surface_t *sf = decode_png(&b);
    cr_assert_eq(count_in(sf, x + 2, y + 2, x + w - 2, y + h - 2, pred_colour, 0), 0);
    cairo_surface_destroy(sf);
    pr_buf_free(&b);
    chart_free(c);

    c = chart_new(PR_CHART_BARS, "bad", "GPUs", "images/s");
    chart_add_series(c, "s", 0);
    chart_add_category(c, "1");
    chart_add_category(c, "2");
    chart_set_bar(c, 0, 0, NAN);
    chart_set_bar(c, 0, 1, -3);
    chart_set_bar(c, 0, 5, 3); /* no such category */
    chart_set_bar(c, 3, 0, 3); /* no such series */
    chart_set_bar_state(c, 0, 9, "x");
    render_all(c);
    chart_free(c);
}

Test(chart, huge_and_tiny_values)
{
    static const double ys[] = {1e300, DBL_MAX, 1e-300, 5e-324, 1e15, 123456789.0, 0.003};
    for (size_t i = 0; i < sizeof ys / sizeof ys[0]; i++) {
        pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "huge", "x", "y");
        int s = chart_add_series(c, "s", 0);
        chart_add_point(c, s, 1, ys[i] / 2);
        chart_add_point(c, s, 2, ys[i]);
        chart_add_ideal(c, 1, ys[i] / 2);
        render_all(c);
        chart_free(c);
        c = chart_new(PR_CHART_BARS, "huge", "x", "y");
        chart_add_series(c, "s", 0);
        chart_add_category(c, "a");
        chart_set_bar(c, 0, 0, ys[i]);
        render_all(c);
        chart_free(c);
    }
    /* x over the whole double range */
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "wide", "x", "y");
    int s = chart_add_series(c, "s", 0);
    chart_add_point(c, s, 5e-324, 1);
    chart_add_point(c, s, 1, 2);
    chart_add_point(c, s, DBL_MAX, 3);
    chart_add_ideal(c, DBL_MAX, 1);
    render_all(c);
    chart_set_x_bytes(c, 1);
    render_all(c);
    chart_free(c);
    c = chart_new(PR_CHART_LINE_LOG2X, "ideal only", "x", "y");
    chart_add_ideal(c, DBL_MAX, 1e300);
    render_all(c);
    chart_free(c);
}

Test(chart, many_points_series_and_categories)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "many", "x", "y");
    for (int k = 0; k < 12; k++) {
        char name[32];
        snprintf(name, sizeof name, "series %d", k);
        int s = chart_add_series(c, name, k % 4 == 3 ? PR_CHART_HOLLOW_MARKERS : k % 2);
        for (int i = 0; i < 2000; i++)
            chart_add_point(c, s, 1 + i * 0.5, (double)(i * (k + 1)));
    }
    render_all(c);
    chart_free(c);
    c = chart_new(PR_CHART_BARS, "many", "x", "y");
    for (int k = 0; k < 40; k++) {
        char name[32];
        snprintf(name, sizeof name, "c%d", k);
        chart_add_category(c, name);
    }
    for (int s = 0; s < 9; s++) {
        chart_add_series(c, "framework with a rather long name",
                         s % 2 ? PR_CHART_HOLLOW_MARKERS : 0);
        for (int k = 0; k < 40; k++) {
            if ((k + s) % 7 == 0)
                chart_set_bar_state(c, s, k, "未测");
            else
                chart_set_bar(c, s, k, k * 10.0 + s);
        }
    }
    render_all(c);
    chart_free(c);
}

Test(chart, long_labels_and_unsorted_points)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X,
                            "一个非常非常长的标题，用来检查换行是否正常工作，而不会超出图片的宽度；"
                            "A very long English title that also has to wrap to the next line",
                            "GPU 数量 (a long axis label with units, GPUs)",
                            "吞吐 (images/s), a long axis label that has to wrap as well");
    int s = chart_add_series(c,
                             "a legend entry with a label so long that it must be cut or "
                             "wrapped to fit in the width of the chart at all, really",
                             0);
    chart_add_point(c, s, 32, 5);
    chart_add_point(c, s, 1, 1);
    chart_add_point(c, s, 4, 3);
    chart_add_point(c, s, 4, 2);
    render_all(c);
    char *alt = chart_alt_text(c);
    /* first and last by x, whatever the order added */
    cr_assert(strstr(alt, "1 at x=1 to 5 at x=32"), "%s", alt);
    free(alt);
    chart_free(c);
}

/* Labels of any length from data: wrapped text stops at two lines with an
 * ellipsis and line breaks are spaces, so the plot keeps its room (a
 * 530-character published label gave "720x400 pixels is too small for the
 * chart's labels"). */
Test(chart, very_long_labels_are_ellipsized)
{
    char big[1201], lines[601];
    for (int i = 0; i < 1200; i++)
        big[i] = i % 7 == 6 ? ' ' : 'L';
    big[1200] = '\0';
    for (int i = 0; i < 600; i++)
        lines[i] = i % 2 ? '\n' : 'x';
    lines[600] = '\0';
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, big, big, big);
    int a = chart_add_series(c, big, 0);
    int b = chart_add_series(c, lines, PR_CHART_HOLLOW_MARKERS);
    for (int g = 1; g <= 32; g *= 2) {
        chart_add_point(c, a, g, 100.0 * g);
        chart_add_point(c, b, g, 90.0 * g);
    }
    chart_add_ideal(c, 1, 100);
    double x, y, w, h;
    pr_err err = {{0}};
    cr_assert_eq(chart_plot_area(c, W, H, &x, &y, &w, &h, &err), 0, "%s", err.msg);
    cr_expect_gt(h, H * 0.2, "the labels left a plot %.0f px high", h);
    cr_expect_gt(w, W * 0.5, "the labels left a plot %.0f px wide", w);
    render_all(c);
    chart_free(c);

    c = chart_new(PR_CHART_BARS, lines, NULL, NULL);
    chart_add_series(c, big, 0);
    chart_add_category(c, lines);
    chart_set_bar(c, 0, 0, 1);
    chart_set_bar_state(c, 0, 0, lines);
    render_all(c);
    chart_free(c);
}

/* When labels still leave no room (a hundred long legend entries), the
 * error says which labels took it; the report prefixes the chart's file. */
Test(chart, too_small_names_what_took_the_room)
{
    char label[301];
    memset(label, 'M', 300);
    label[300] = '\0';
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "t", "x", "y");
    for (int i = 0; i < 100; i++) {
        int s = chart_add_series(c, label, 0);
        chart_add_point(c, s, 1, i + 1.0);
    }
    pr_buf out = PR_BUF_INIT;
    pr_err err = {{0}};
    cr_assert_eq(chart_render_svg(c, W, H, &out, &err), -1);
    cr_expect(strstr(err.msg, "too small for the chart's labels") && strstr(err.msg, "legend 100"),
              "%s", err.msg);
    cr_expect_eq(out.len, 0);
    pr_buf_free(&out);
    chart_free(c);
}

/* ----------------------------------------------------------- alt text */

Test(chart, alt_text_describes_the_chart)
{
    pr_chart *c = scaling_chart();
    char *alt = chart_alt_text(c);
    cr_assert(strstr(alt, "ResNet50 v1.5 吞吐扩展 (images/s)"), "%s", alt);
    cr_assert(strstr(alt, "本次测量 (PyTorch, FP16)"), "%s", alt);
    cr_assert(strstr(alt, "公开数据 (NVIDIA)"), "%s", alt);
    cr_assert(strstr(alt, "347.12"), "%s", alt);
    cr_assert(strstr(alt, "5552.77"), "%s", alt);
    cr_assert(strstr(alt, "理想线性扩展"), "%s", alt);
    free(alt);
    chart_free(c);

    c = bar_chart(0);
    alt = chart_alt_text(c);
    cr_assert(strstr(alt, "Bar chart: 框架对比 (images/s)."), "%s", alt);
    cr_assert(strstr(alt, "TensorFlow: 1 = 330.5, 8 = OOM, 32 = 5100.2."), "%s", alt);
    free(alt);
    chart_free(c);

    c = bytes_chart();
    alt = chart_alt_text(c);
    cr_assert(strstr(alt, "log2 scale, 8 to 8G"), "%s", alt);
    free(alt);
    chart_set_ideal_label(c, "ideal");
    chart_free(c);

    c = chart_new(PR_CHART_BARS, "t\nwith newline", NULL, NULL);
    alt = chart_alt_text(c);
    cr_assert_null(strchr(alt, '\n'), "%s", alt);
    free(alt);
    chart_free(c);
}

/* ------------------------------------------- what the charts may claim */

/* The DeepLabV3+ AMP scaling chart of the issue: 1, 8 and 32 GPUs, nothing
 * at 2, 4 or 16. */
static pr_chart *sparse_scaling(int ylog)
{
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "sparse", "GPUs", "samples/s");
    if (ylog)
        chart_set_y_log(c, 1);
    int s = chart_add_series(c, "measured", PR_CHART_SOLID);
    chart_add_point(c, s, 1, 7.76);
    chart_add_point(c, s, 8, 41.31);
    chart_add_point(c, s, 32, 199.53);
    chart_add_ideal(c, 1, 7.76);
    return c;
}

static void map_ok(const pr_chart *c, double x, double y, double *px, double *py)
{
    pr_err err = {{0}};
    cr_assert_eq(chart_map_point(c, W, H, x, y, px, py, &err), 0, "%s", err.msg);
}

/* Log-log axes: ideal linear scaling y = y1 x is a straight line, checked
 * on the geometry: equal steps on x and y for each doubling. */
Test(chart, loglog_ideal_is_straight)
{
    pr_chart *c = sparse_scaling(1);
    double x0, y0, xa, ya;
    map_ok(c, 1, 7.76, &x0, &y0);
    map_ok(c, 2, 2 * 7.76, &xa, &ya);
    double dx = xa - x0, dy = ya - y0;
    cr_assert_gt(dx, 10);
    cr_assert_lt(dy, -10, "y does not rise with x");
    for (int k = 2; k <= 5; k++) {
        double x, y;
        map_ok(c, ldexp(1, k), ldexp(7.76, k), &x, &y);
        cr_assert_float_eq(x - x0, k * dx, 1e-6, "x step %d", k);
        cr_assert_float_eq(y - y0, k * dy, 1e-6, "y step %d", k);
    }
    /* on a linear y axis the same points bend (what the issue saw) */
    pr_chart *lin = sparse_scaling(0);
    double l0, l1, l2, lx;
    map_ok(lin, 1, 7.76, &lx, &l0);
    map_ok(lin, 2, 2 * 7.76, &lx, &l1);
    map_ok(lin, 4, 4 * 7.76, &lx, &l2);
    cr_assert_gt(fabs((l2 - l1) - (l1 - l0)), 1);
    /* the alt text says so */
    char *alt = chart_alt_text(c);
    cr_assert(strstr(alt, "Y axis: samples/s, log scale"), "%s", alt);
    free(alt);
    chart_free(lin);
    chart_free(c);
}

/* Blue (series 0) pixels in the columns strictly between x = a and x = b. */
static long blue_between(const pr_chart *c, double a, double b)
{
    double xa, xb, y, px, py, pw, ph;
    map_ok(c, a, 1, &xa, &y);
    map_ok(c, b, 1, &xb, &y);
    pr_err err = {{0}};
    cr_assert_eq(chart_plot_area(c, W, H, &px, &py, &pw, &ph, &err), 0);
    pr_buf png = PR_BUF_INIT;
    render_png_ok(c, W, H, &png);
    cairo_surface_t *sf = decode_png(&png);
    long n = count_in(sf, xa + 8, py, xb - 8, py + ph, pred_near, 0x0072B2);
    cairo_surface_destroy(sf);
    pr_buf_free(&png);
    return n;
}

/* No line where nothing was measured: across a power of two with no
 * point (1 to 8 GPUs) only thin dots join one run set's points, none
 * across a gap the caller marks or between two run sets; neighbours are
 * joined by the series' line. */
Test(chart, no_line_across_missing_data)
{
    pr_chart *d = chart_new(PR_CHART_LINE_LOG2X, "dense", "GPUs", "samples/s");
    chart_set_y_log(d, 1);
    int ds = chart_add_series(d, "measured", PR_CHART_SOLID);
    for (int g = 1; g <= 32; g *= 2)
        chart_add_point(d, ds, g,
                        g == 1    ? 7.76
                        : g == 8  ? 41.31
                        : g == 32 ? 199.53
                                  : 7.76 * g * 0.9);
    long solid = blue_between(d, 1, 8);
    chart_free(d);
    pr_chart *c = sparse_scaling(1);
    long dotted = blue_between(c, 1, 8);
    cr_assert_gt(dotted, 0, "one run set's points 1 and 8 GPUs apart are not joined");
    cr_assert_lt(dotted * 2, solid, "1 and 8 GPUs joined by a line (%ld vs %ld pixels)", dotted,
                 solid);
    char *alt = chart_alt_text(c);
    cr_assert(strstr(alt, "Dotted lines join points of one run set"), "%s", alt);
    free(alt);
    chart_free(c);
    c = sparse_scaling(1);
    chart_add_point_full(c, 0, 64, 390, NULL, 1, 0);
    cr_assert_eq(blue_between(c, 32, 64), 0, "a line or dots join two run sets");
    chart_free(c);

    c = chart_new(PR_CHART_LINE_LOG2X, "gap", "GPUs", "samples/s");
    chart_set_y_log(c, 1);
    int s = chart_add_series(c, "measured", PR_CHART_SOLID);
    for (int g = 1; g <= 32; g *= 2)
        if (g != 8)
            chart_add_point(c, s, g, 10.0 * g);
    cr_assert_gt(blue_between(c, 1, 2), 20, "neighbours are not joined");
    chart_add_gap(c, s, 3);
    cr_assert_eq(blue_between(c, 2, 4), 0, "a line crosses the gap at 3");
    cr_assert_gt(blue_between(c, 16, 32), 20);
    chart_free(c);

    /* a reference line (no markers) joins its ends */
    c = chart_new(PR_CHART_LINE_LOG2X, "peak", "bytes", "GB/s");
    s = chart_add_series(c, "peak", PR_CHART_DASHED | PR_CHART_NO_MARKERS);
    chart_add_point(c, s, 1024, 100);
    chart_add_point(c, s, 1 << 30, 100);
    cr_assert_gt(blue_between(c, 1 << 12, 1 << 28), 20, "the peak line is missing");
    chart_free(c);
}

/* The legend names only what is drawn. */
Test(chart, no_legend_entry_without_data)
{
    double x, y, w, h;
    pr_err err = {{0}};
    for (int bars = 0; bars < 2; bars++) {
        pr_chart *c = chart_new(bars ? PR_CHART_BARS : PR_CHART_LINE_LOG2X, "t", "x", "y");
        int a = chart_add_series(c, "has data", PR_CHART_SOLID);
        int b = chart_add_series(c, "nothing", PR_CHART_SOLID); /* vermillion */
        (void)b;
        if (bars) {
            chart_add_category(c, "1");
            chart_set_bar(c, a, 0, 5);
        } else {
            chart_add_point(c, a, 1, 5);
            chart_add_point(c, a, 2, 9);
        }
        cr_assert_eq(chart_plot_area(c, W, H, &x, &y, &w, &h, &err), 0, "%s", err.msg);
        pr_buf png = PR_BUF_INIT;
        render_png_ok(c, W, H, &png);
        cairo_surface_t *sf = decode_png(&png);
        cr_assert_gt(count_in(sf, 0, y + h + 2, W, H, pred_near, 0x0072B2), 20);
        cr_assert_eq(count_in(sf, 0, y + h + 2, W, H, pred_near, 0xD55E00), 0,
                     "a legend entry for a series without data (%s)", bars ? "bars" : "lines");
        cairo_surface_destroy(sf);
        pr_buf_free(&png);
        chart_free(c);
    }
    /* an ideal line with no data beyond its base is neither drawn nor named */
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "t", "x", "y");
    int s = chart_add_series(c, "one", PR_CHART_SOLID);
    chart_add_point(c, s, 1, 5);
    chart_add_ideal(c, 1, 5);
    char *alt = chart_alt_text(c);
    cr_assert_null(strstr(alt, "ideal"), "%s", alt);
    free(alt);
    /* the same pixels as without the ideal line */
    pr_chart *bare = chart_new(PR_CHART_LINE_LOG2X, "t", "x", "y");
    s = chart_add_series(bare, "one", PR_CHART_SOLID);
    chart_add_point(bare, s, 1, 5);
    pr_buf p1 = PR_BUF_INIT, p2 = PR_BUF_INIT;
    render_png_ok(c, W, H, &p1);
    render_png_ok(bare, W, H, &p2);
    cr_assert(p1.len == p2.len && memcmp(p1.data, p2.data, p1.len) == 0,
              "an ideal line with nothing beyond its base changed the chart");
    pr_buf_free(&p1);
    pr_buf_free(&p2);
    chart_free(bare);
    chart_free(c);
}

/* The alt text reads the figures the tables print: PR_DECIMALS_VALUE with
 * the tables' rounding (md_number), published figures as printed. */
Test(chart, alt_numbers_as_the_tables)
{
    static const double v[] = {747.295, 11548.5, 13.8666, 2.675};
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "t", "GPUs", "y");
    chart_set_decimals(c, PR_DECIMALS_VALUE);
    int s = chart_add_series(c, "measured", PR_CHART_SOLID);
    int p = chart_add_series(c, "published", PR_CHART_HOLLOW_MARKERS);
    chart_add_point(c, s, 1, v[0]);
    chart_add_point(c, s, 32, v[1]);
    chart_add_point_text(c, p, 1, 61, "61.0");
    chart_add_point_text(c, p, 8, 428, "428");
    chart_add_ideal(c, 1, v[0]);
    pr_chart *b = chart_new(PR_CHART_BARS, "t", "GPUs", "y");
    chart_set_decimals(b, PR_DECIMALS_VALUE);
    chart_add_series(b, "fw", PR_CHART_SOLID);
    chart_add_category(b, "1");
    chart_add_category(b, "8");
    chart_set_bar(b, 0, 0, v[2]);
    chart_set_bar_text(b, 0, 1, v[1] / 8, "11548.50 (1443.56 per GPU)");
    char *alt = chart_alt_text(c), *balt = chart_alt_text(b);
    for (int i = 0; i < 3; i++) {
        pr_buf want = PR_BUF_INIT;
        md_number(&want, v[i], PR_DECIMALS_VALUE);
        cr_assert(strstr(i == 2 ? balt : alt, pr_buf_cstr(&want)), "no %s in %s",
                  pr_buf_cstr(&want), i == 2 ? balt : alt);
        pr_buf_free(&want);
    }
    cr_assert(strstr(alt, "747.30 at x=1 to 11548.50 at x=32"), "%s", alt);
    cr_assert(strstr(alt, "61.0 at x=1 to 428 at x=8"), "%s", alt);
    cr_assert(strstr(alt, "y = 747.30 × x / 1"), "%s", alt);
    cr_assert_null(strstr(alt, "747.295"), "%s", alt);
    cr_assert(strstr(balt, "1 = 13.87, 8 = 11548.50 (1443.56 per GPU)."), "%s", balt);
    free(alt);
    free(balt);
    chart_free(c);
    chart_free(b);
}

/* Ink box of the non-white pixels in a rectangle: height. */
static int ink_height(cairo_surface_t *sf, double x0, double y0, double x1, double y1)
{
    int top = -1, bottom = -1;
    for (int y = (int)ceil(y0); y < (int)floor(y1); y++)
        for (int x = (int)ceil(x0); x < (int)floor(x1); x++)
            if (pixel(sf, x, y) != 0xffffff) {
                if (top < 0)
                    top = y;
                bottom = y;
            }
    return top < 0 ? 0 : bottom - top + 1;
}

/* A TODO/OOM gap is labelled in at least the axis label's size: the same
 * word as the x axis label has at least its height. */
Test(chart, state_labels_as_large_as_axis_labels)
{
    pr_chart *c = chart_new(PR_CHART_BARS, NULL, "OOM", NULL);
    chart_add_series(c, "a", PR_CHART_SOLID);
    chart_add_category(c, "1");
    chart_add_category(c, "8");
    chart_set_bar(c, 0, 0, 100);
    chart_set_bar_state(c, 0, 1, "OOM");
    double x, y, w, h;
    pr_err err = {{0}};
    cr_assert_eq(chart_plot_area(c, W, H, &x, &y, &w, &h, &err), 0, "%s", err.msg);
    pr_buf png = PR_BUF_INIT;
    render_png_ok(c, W, H, &png);
    cairo_surface_t *sf = decode_png(&png);
    /* the state: inside the plot, in the second slot, above the axis */
    int state = ink_height(sf, x + w / 2 + 2, y + 2, x + w - 2, y + h - 2);
    /* the x axis label: below the tick labels (two lines of ticks down) */
    double slot = w / 2;
    int axis = ink_height(sf, x + slot - 40, y + h + 30, x + slot + 40, H);
    cr_assert_gt(axis, 5, "no x axis label found");
    cr_assert_geq(state, axis, "state label %d px high, axis label %d px", state, axis);
    cairo_surface_destroy(sf);
    pr_buf_free(&png);
    chart_free(c);
}

/* ------------------------------------------------------------ samples */

static void write_file(const char *dir, const char *name, const pr_buf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert(f, "cannot write %s", path);
    cr_assert_eq(fwrite(b->data, 1, b->len, f), b->len);
    cr_assert_eq(fclose(f), 0);
}

Test(chart, samples)
{
    const char *dir = getenv("PR_CHART_SAMPLES");
    pr_chart *charts[] = {
        scaling_chart(), bar_chart(0), bytes_chart(),
        chart_new(PR_CHART_LINE_LOG2X, "无数据的图", "GPU 数量", "吞吐 (images/s)"),
        sparse_scaling(1)};
    chart_set_lang(charts[3], PR_CHART_LANG_ZH);
    static const char *const names[] = {"chart_scaling", "chart_bars", "chart_bytes", "chart_empty",
                                        "chart_loglog_sparse"};
    for (size_t i = 0; i < 5; i++) {
        pr_buf png = PR_BUF_INIT, svg = PR_BUF_INIT;
        render_png_ok(charts[i], W, H, &png);
        render_svg_ok(charts[i], W, H, &svg);
        if (dir && *dir) {
            char name[64];
            snprintf(name, sizeof name, "%s.png", names[i]);
            write_file(dir, name, &png);
            snprintf(name, sizeof name, "%s.svg", names[i]);
            write_file(dir, name, &svg);
        }
        pr_buf_free(&png);
        pr_buf_free(&svg);
        chart_free(charts[i]);
    }
}
