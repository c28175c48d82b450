/* chart_svgtext: chart text in SVG as <text> elements.
 * Cairo's SVG surface draws every letter as a filled path (a 720x400 bar
 * chart was 200 KB, 193 KB of it glyph outlines), so the words could not be
 * searched, selected, read aloud or diffed.  On an SVG render chart_text
 * hands each laid-out label here instead of drawing it: one <text> per
 * layout line, placed where Pango put its baseline, with the family, size,
 * weight, colour and rotation it had, and the whole set goes in one group
 * before cairo's closing </svg>.  (matplotlib's svg.fonttype "none" writes
 * the same kind of SVG.) */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/md.h"
#include "chart_int.h"

static const cairo_user_data_key_t record_key;

void chart_svgtext_attach(cairo_surface_t *sf, pr_buf *rec)
{
    cairo_surface_set_user_data(sf, &record_key, rec, NULL);
}

/* Numbers in the SVG: two decimals, trailing zeros dropped, no "-0". */
static void put_num(pr_buf *out, double v)
{
    char s[48];
    v = round(v * 100) / 100;
    if (v == 0)
        v = 0;
    snprintf(s, sizeof s, "%.2f", v);
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == '0')
        s[--n] = 0;
    if (n > 0 && s[n - 1] == '.')
        s[--n] = 0;
    pr_buf_puts(out, s);
}

/* The words line shows: its runs' text, an ellipsis run as "…". */
static void line_text(PangoLayoutLine *line, const char *text, pr_buf *words)
{
    for (GSList *l = line->runs; l; l = l->next) {
        const PangoGlyphItem *run = l->data;
        if (run->item->analysis.flags & PANGO_ANALYSIS_FLAG_IS_ELLIPSIS)
            pr_buf_puts(words, "\xe2\x80\xa6");
        else
            pr_buf_put(words, text + run->item->offset, (size_t)run->item->length);
    }
}

static void put_fill(pr_buf *rec, cairo_t *cr)
{
    double r = 0, g = 0, b = 0, a = 1;
    cairo_pattern_get_rgba(cairo_get_source(cr), &r, &g, &b, &a);
    pr_buf_printf(rec, " fill=\"#%02x%02x%02x\"", (int)lround(r * 255), (int)lround(g * 255),
                  (int)lround(b * 255));
    if (a < 1) {
        pr_buf_puts(rec, " fill-opacity=\"");
        put_num(rec, a);
        pr_buf_putc(rec, '"');
    }
}

/* Records pl at cr's current point when cr draws into an SVG surface that
 * chart_svgtext_attach marked; ax (0 start, 0.5 middle, 1 end) says which end
 * of each line is its anchor, so a viewer's font of another width keeps
 * the text where the chart put it.  Returns 1 when recorded (draw
 * nothing), 0 when the caller draws the glyphs. */
int chart_svgtext_show(cairo_t *cr, PangoLayout *pl, double ax)
{
    pr_buf *rec = cairo_surface_get_user_data(cairo_get_target(cr), &record_key);
    if (!rec)
        return 0;
    double ox, oy;
    cairo_get_current_point(cr, &ox, &oy);
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    double deg = round(atan2(m.yx, m.xx) * 180 / M_PI);
    const PangoFontDescription *fd = pango_layout_get_font_description(pl);
    double px = fd ? pango_font_description_get_size(fd) / (double)PANGO_SCALE : 12;
    int bold = fd && pango_font_description_get_weight(fd) >= PANGO_WEIGHT_SEMIBOLD;
    const char *anchor = ax > 0.75 ? "end" : ax > 0.25 ? "middle" : "start";
    const char *text = pango_layout_get_text(pl);

    pr_buf words = PR_BUF_INIT;
    PangoLayoutIter *it = pango_layout_get_iter(pl);
    do {
        PangoLayoutLine *line = pango_layout_iter_get_line_readonly(it);
        PangoRectangle lr;
        pango_layout_iter_get_line_extents(it, NULL, &lr);
        double bx = ox + (lr.x + ax * lr.width) / (double)PANGO_SCALE;
        double by = oy + pango_layout_iter_get_baseline(it) / (double)PANGO_SCALE;
        cairo_user_to_device(cr, &bx, &by);
        words.len = 0;
        line_text(line, text, &words);
        if (words.len == 0)
            continue;
        pr_buf_puts(rec, "<text x=\"");
        put_num(rec, bx);
        pr_buf_puts(rec, "\" y=\"");
        put_num(rec, by);
        pr_buf_puts(rec, "\" font-size=\"");
        put_num(rec, px);
        pr_buf_putc(rec, '"');
        if (bold)
            pr_buf_puts(rec, " font-weight=\"bold\"");
        if (strcmp(anchor, "start") != 0)
            pr_buf_printf(rec, " text-anchor=\"%s\"", anchor);
        put_fill(rec, cr);
        if (deg != 0) {
            pr_buf_printf(rec, " transform=\"rotate(%d ", (int)deg);
            put_num(rec, bx);
            pr_buf_putc(rec, ' ');
            put_num(rec, by);
            pr_buf_puts(rec, ")\"");
        }
        pr_buf_putc(rec, '>');
        md_xml(rec, pr_buf_cstr(&words));
        pr_buf_puts(rec, "</text>\n");
    } while (pango_layout_iter_next_line(it));
    pango_layout_iter_free(it);
    pr_buf_free(&words);
    return 1;
}

/* Appends svg (cairo's document) to out with the recorded text inserted as
 * one group before its closing tag. */
void chart_svgtext_finish(const pr_buf *svg, const pr_buf *rec, pr_buf *out)
{
    static const char close[] = "</svg>";
    size_t at = svg->len;
    for (size_t i = svg->len; i >= sizeof close - 1; i--) {
        if (memcmp(svg->data + i - (sizeof close - 1), close, sizeof close - 1) == 0) {
            at = i - (sizeof close - 1);
            break;
        }
    }
    pr_buf_put(out, svg->data, at);
    if (rec->len) {
        pr_buf_puts(out, "<g font-family=\"'" CHART_FAMILY "', 'Noto Sans CJK', sans-serif\""
                         " xml:space=\"preserve\">\n");
        pr_buf_put(out, rec->data, rec->len);
        pr_buf_puts(out, "</g>\n");
    }
    pr_buf_put(out, svg->data + at, svg->len - at);
}
