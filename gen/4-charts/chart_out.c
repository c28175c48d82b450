/* chart_out: rendering to PNG (our own encoder) and SVG (cairo, ids made
 * stable), and the plot area a render uses. */
#include <cairo-svg.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "chart_int.h"

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

/* chart_draw_fn for a pr_chart: arg is the chart. */
static int draw_chart(cairo_t *cr, int width, int height, const void *arg, pr_err *err)
{
    return chart_render_on(arg, cr, width, height, err);
}

int chart_render_png(const pr_chart *c, int width, int height, pr_buf *out, pr_err *err)
{
    return chart_draw_png(width, height, draw_chart, c, out, err);
}

/* Appends svg to out with cairo's "surfaceN" ids renumbered 1, 2, ... in
 * order of appearance: cairo takes N from a process-wide counter of
 * surfaces, so it changes from one render to the next.  Chart text is
 * added after this (chart_svgtext_finish), so "surface" followed by digits
 * occurs only in ids and references to them. */
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

int chart_render_svg(const pr_chart *c, int width, int height, pr_buf *out, pr_err *err)
{
    return chart_draw_svg(width, height, draw_chart, c, out, err);
}

/* Lays c out at width × height on a scratch surface and reports the plot
 * area (x, y, w, h) and, when px is not NULL, the point (qx, qy) mapped
 * through it (px, py; px NAN on a chart without a numeric x axis). */
static int layout_query(const pr_chart *c, int width, int height, double qx, double qy,
                        double area[4], double *px, double *py, pr_err *err)
{
    if (check_size(width, height, err) || chart_check_fonts(err))
        return -1;
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *cr = cairo_create(sf);
    rctx r;
    plan p;
    chart_rctx_init(&r, cr, width, height, err);
    int rc = chart_make_plan(c, &r, width, height, &p);
    if (rc == 0) {
        area[0] = p.px;
        area[1] = p.py;
        area[2] = p.pw;
        area[3] = p.ph;
        if (px) {
            *px = c->kind == PR_CHART_LINE_LOG2X ? chart_map_x(&p, qx) : NAN;
            *py = chart_map_y(&p, qy);
        }
    }
    chart_plan_free(&p);
    chart_rctx_free(&r);
    cairo_destroy(cr);
    cairo_surface_destroy(sf);
    return rc;
}

int chart_plot_area(const pr_chart *c, int width, int height, double *x, double *y, double *w,
                    double *h, pr_err *err)
{
    double area[4];
    int rc = layout_query(c, width, height, 0, 0, area, NULL, NULL, err);
    if (rc == 0) {
        *x = area[0];
        *y = area[1];
        *w = area[2];
        *h = area[3];
    }
    return rc;
}

/* The same layout as plot_area, then one point mapped through it. */
int chart_map_point(const pr_chart *c, int width, int height, double x, double y, double *px,
                    double *py, pr_err *err)
{
    double area[4];
    return layout_query(c, width, height, x, y, area, px, py, err);
}

/* ---- drawings of other chart kinds (chart_trace.c) ----
 * The same PNG encoder, SVG id renumbering and checks, around a caller's
 * drawing: draw(cr, width, height, arg, err) returns 0 or -1 with err set. */

int chart_draw_png(int width, int height, chart_draw_fn draw, const void *arg, pr_buf *out,
                   pr_err *err)
{
    if (check_size(width, height, err) || chart_check_fonts(err))
        return -1;
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    if (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS) {
        int rc = pr_err_set(err, NULL, 0, 0, "chart", "cairo: %s",
                            cairo_status_to_string(cairo_surface_status(sf)));
        cairo_surface_destroy(sf);
        return rc;
    }
    cairo_t *cr = cairo_create(sf);
    int rc = draw(cr, width, height, arg, err);
    cairo_destroy(cr);
    if (rc == 0) {
        cairo_surface_flush(sf);
        rc = png_encode(sf, out, err);
    }
    cairo_surface_destroy(sf);
    return rc;
}

int chart_draw_svg(int width, int height, chart_draw_fn draw, const void *arg, pr_buf *out,
                   pr_err *err)
{
    if (check_size(width, height, err) || chart_check_fonts(err))
        return -1;
    pr_buf svg = PR_BUF_INIT, text = PR_BUF_INIT, ids = PR_BUF_INIT;
    cairo_surface_t *sf = cairo_svg_surface_create_for_stream(write_buf, &svg, width, height);
    chart_svgtext_attach(sf, &text);
    cairo_svg_surface_restrict_to_version(sf, CAIRO_SVG_VERSION_1_1);
    cairo_svg_surface_set_document_unit(sf, CAIRO_SVG_UNIT_PX);
    cairo_t *cr = cairo_create(sf);
    int rc = draw(cr, width, height, arg, err);
    cairo_destroy(cr);
    cairo_surface_finish(sf);
    if (rc == 0 && cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS)
        rc = pr_err_set(err, NULL, 0, 0, "chart", "writing SVG: %s",
                        cairo_status_to_string(cairo_surface_status(sf)));
    cairo_surface_destroy(sf);
    if (rc == 0) {
        svg_stable_ids(&svg, &ids);
        chart_svgtext_finish(&ids, &text, out);
    }
    pr_buf_free(&svg);
    pr_buf_free(&text);
    pr_buf_free(&ids);
    return rc;
}
