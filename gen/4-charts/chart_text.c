/* chart_text: the CJK font check, the per-render context and text layout.
 * Every label goes through chart_text_set, which refuses text a font cannot
 * draw instead of drawing empty boxes. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "chart_int.h"

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

int chart_check_fonts(pr_err *err)
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

static PangoFontDescription *font_px(double px, int bold)
{
    PangoFontDescription *d = pango_font_description_new();
    pango_font_description_set_family_static(d, CHART_FAMILY);
    pango_font_description_set_absolute_size(d, round(px * PANGO_SCALE));
    if (bold)
        pango_font_description_set_weight(d, PANGO_WEIGHT_BOLD);
    return d;
}

void chart_rctx_init(rctx *r, cairo_t *cr, int width, int height, pr_err *err)
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

void chart_rctx_free(rctx *r)
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
int chart_text_set(rctx *r, PangoFontDescription *f, const char *text, double wrap,
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

/* Shows the layout at the current point; ax is the anchor along the text
 * (0 start, 0.5 middle, 1 end).  On SVG surfaces the text becomes <text>
 * elements (chart_svgtext.c): cairo's glyph subsetting for SVG walked the
 * whole charmap of the CJK font for every chart, and glyph outlines were
 * 193 KB of a 200 KB bar chart. */
static void show_layout(rctx *r, double ax)
{
    if (chart_svgtext_show(r->cr, r->pl, ax))
        return;
    if (cairo_surface_get_type(cairo_get_target(r->cr)) == CAIRO_SURFACE_TYPE_SVG) {
        pango_cairo_layout_path(r->cr, r->pl);
        cairo_fill(r->cr);
    } else {
        pango_cairo_show_layout(r->cr, r->pl);
    }
}

void chart_text_draw(rctx *r, double x, double y, double ax, double ay)
{
    cairo_move_to(r->cr, round(x - ax * r->lw - r->lx), round(y - ay * r->lh - r->ly));
    show_layout(r, ax);
}

/* The same, rotated a quarter turn counter-clockwise about (x, y) (reading
 * from bottom to top); ax/ay are in the text's own frame. */
void chart_text_draw_up(rctx *r, double x, double y, double ax, double ay)
{
    cairo_save(r->cr);
    cairo_translate(r->cr, round(x), round(y));
    cairo_rotate(r->cr, -M_PI / 2);
    cairo_move_to(r->cr, round(-ax * r->lw - r->lx), round(-ay * r->lh - r->ly));
    show_layout(r, ax);
    cairo_restore(r->cr);
}
