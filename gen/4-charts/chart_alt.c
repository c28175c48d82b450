/* chart_alt: the one-line alt text of a chart. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart_int.h"

/* ------------------------------------------------------------- alt text */

static void alt_num(pr_buf *b, double v)
{
    char t[64];
    snprintf(t, sizeof t, "%.6g", v);
    pr_buf_puts(b, t);
}

static void alt_x(const pr_chart *c, pr_buf *b, double x)
{
    double l = log2(x);
    if (c->x_bytes && l == floor(l) && l >= 0 && l < 70) {
        char t[64];
        chart_x_tick_label((int)l, 1, t, sizeof t);
        pr_buf_puts(b, t);
    } else {
        alt_num(b, x);
    }
}

/* The run sets of a series' points (sorted), when more than one: "; 2
 * run sets: x=1, 8 | x=32", each set's x in increasing order, the sets in
 * the order of their first x. */
static void alt_sets(const pr_chart *c, pr_buf *b, const chart_pt *pts, size_t n)
{
    int zh = c->lang == PR_CHART_LANG_ZH;
    size_t nsets = 0;
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = pts[j].set == pts[i].set;
        nsets += !seen;
    }
    if (nsets < 2)
        return;
    if (zh)
        pr_buf_printf(b, "；%zu 个运行组：", nsets);
    else
        pr_buf_printf(b, "; %zu run sets: ", nsets);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = pts[j].set == pts[i].set;
        if (seen)
            continue;
        if (k++)
            pr_buf_puts(b, " | ");
        pr_buf_puts(b, "x=");
        int first = 1;
        for (size_t j = i; j < n; j++) {
            if (pts[j].set != pts[i].set)
                continue;
            if (!first)
                pr_buf_puts(b, zh ? "、" : ", ");
            first = 0;
            alt_x(c, b, pts[j].x);
        }
    }
}

/* The last sentence: each flagged figure, by series, where it stands and
 * as the table prints it. */
static void alt_flags(const pr_chart *c, pr_buf *b)
{
    int zh = c->lang == PR_CHART_LANG_ZH;
    if (!chart_any_flagged(c))
        return;
    pr_buf_puts(b, zh ? "存疑（见表格脚注 ❗）：" : "Flagged (see the table's footnote ❗): ");
    int any = 0;
    for (int i = 0; i < c->nseries; i++) {
        const chart_series *s = &c->series[i];
        const char *label = s->label[0] ? s->label : (zh ? "（未命名）" : "(unnamed)");
        for (size_t j = 0; j < s->npts; j++) {
            const chart_pt *q = &s->pts[j];
            if (!q->flagged || !chart_pt_visible(c, q))
                continue;
            pr_buf_puts(b, any++ ? (zh ? "；" : "; ") : "");
            pr_buf_puts(b, label);
            pr_buf_puts(b, zh ? " x=" : " at x=");
            alt_x(c, b, q->x);
            pr_buf_puts(b, zh ? " 时 " : ": ");
            chart_put_number(c, b, q->y, q->text);
        }
        for (size_t k = 0; k < s->ncells && (int)k < c->ncats; k++) {
            const chart_cell *cell = &s->cells[k];
            if (!cell->flagged || cell->kind != CELL_VALUE)
                continue;
            pr_buf_puts(b, any++ ? (zh ? "；" : "; ") : "");
            pr_buf_puts(b, label);
            pr_buf_puts(b, zh ? " " : ", ");
            pr_buf_puts(b, c->cats[k]);
            pr_buf_puts(b, zh ? " 为 " : ": ");
            chart_put_number(c, b, cell->value, cell->text);
        }
    }
    pr_buf_puts(b, zh ? "。" : ". ");
}

char *chart_alt_text(const pr_chart *c)
{
    int zh = c->lang == PR_CHART_LANG_ZH;
    pr_buf b = PR_BUF_INIT;
    const char *sep = zh ? "；" : "; ";
    const char *end = zh ? "。" : ". ";
    if (c->kind == PR_CHART_LINE_LOG2X) {
        plan p;
        double ymin, ymax;
        memset(&p, 0, sizeof p);
        chart_line_ranges(c, &p, &ymin, &ymax);
        pr_buf_puts(&b, zh ? "折线图：" : "Line chart: ");
        pr_buf_puts(&b, c->title[0] ? c->title : (zh ? "（无标题）" : "(untitled)"));
        pr_buf_puts(&b, end);
        pr_buf_puts(&b, zh ? "横轴：" : "X axis: ");
        if (c->x_label[0]) {
            pr_buf_puts(&b, c->x_label);
            pr_buf_puts(&b, zh ? "，" : ", ");
        }
        pr_buf_puts(&b, zh ? "以 2 为底的对数刻度，" : "log2 scale, ");
        alt_x(c, &b, p.have_points || c->has_ideal ? p.xdmin : ldexp(1, p.emin));
        pr_buf_puts(&b, zh ? " 至 " : " to ");
        alt_x(c, &b, p.have_points || c->has_ideal ? p.xdmax : ldexp(1, p.emax));
        pr_buf_puts(&b, end);
        pr_buf_puts(&b, zh ? "纵轴：" : "Y axis: ");
        if (c->y_label[0]) {
            pr_buf_puts(&b, c->y_label);
            pr_buf_puts(&b, zh ? "，" : ", ");
        }
        pr_buf_puts(&b, c->y_log ? (zh ? "对数刻度" : "log scale")
                                 : (zh ? "线性刻度，从 0 起" : "linear from 0"));
        pr_buf_puts(&b, end);
        if (!p.have_points) {
            pr_buf_puts(&b, zh ? "无数据" : "No data");
            pr_buf_puts(&b, end);
        }
        int any = 0;
        for (int i = 0; i < c->nseries; i++) {
            const chart_series *s = &c->series[i];
            if (!s->npts)
                continue;
            int owned;
            chart_pt *pts = chart_sorted_points(s, &owned);
            pr_buf_puts(&b, any ? sep : (zh ? "数据系列：" : "Series: "));
            any = 1;
            pr_buf_puts(&b, s->label[0] ? s->label : (zh ? "（未命名）" : "(unnamed)"));
            const chart_pt *a = &pts[0], *z = &pts[s->npts - 1];
            if (zh) {
                pr_buf_printf(&b, "（%zu 个点，x=", s->npts);
                alt_x(c, &b, a->x);
                pr_buf_puts(&b, " 时 ");
                chart_put_number(c, &b, a->y, a->text);
                if (s->npts > 1) {
                    pr_buf_puts(&b, "，x=");
                    alt_x(c, &b, z->x);
                    pr_buf_puts(&b, " 时 ");
                    chart_put_number(c, &b, z->y, z->text);
                }
                alt_sets(c, &b, pts, s->npts);
                pr_buf_puts(&b, "）");
            } else {
                pr_buf_printf(&b, " (%zu point%s, ", s->npts, s->npts == 1 ? "" : "s");
                chart_put_number(c, &b, a->y, a->text);
                pr_buf_puts(&b, " at x=");
                alt_x(c, &b, a->x);
                if (s->npts > 1) {
                    pr_buf_puts(&b, " to ");
                    chart_put_number(c, &b, z->y, z->text);
                    pr_buf_puts(&b, " at x=");
                    alt_x(c, &b, z->x);
                }
                alt_sets(c, &b, pts, s->npts);
                pr_buf_puts(&b, ")");
            }
            if (owned)
                free(pts);
        }
        if (any)
            pr_buf_puts(&b, end);
        if (chart_has_spans(c)) {
            pr_buf_puts(&b,
                        zh ? "点线连接同一运行组中 GPU 数相隔一倍以上的两点，中间的 GPU 数没有数据"
                           : "Dotted lines join points of one run set more than a doubling of GPUs "
                             "apart; nothing was measured between them");
            pr_buf_puts(&b, end);
        }
        if (chart_ideal_drawn(c)) {
            pr_buf_puts(&b, zh ? "灰色虚线：" : "Dashed grey line: ");
            pr_buf_puts(&b, chart_ideal_label(c));
            pr_buf_puts(&b, zh ? "（y = " : " (y = ");
            chart_put_number(c, &b, c->ideal_y1, NULL);
            pr_buf_puts(&b, " × x / ");
            alt_num(&b, c->ideal_x1);
            pr_buf_puts(&b, zh ? "）" : ")");
            pr_buf_puts(&b, end);
        }
        if (c->has_ref) {
            pr_buf_puts(&b, zh ? "灰色水平虚线：" : "Dashed grey level: ");
            pr_buf_puts(&b, chart_ref_label(c));
            pr_buf_puts(&b, zh ? "（y = " : " (y = ");
            chart_put_number(c, &b, c->ref_y, NULL);
            pr_buf_puts(&b, zh ? "）" : ")");
            pr_buf_puts(&b, end);
        }
    } else {
        pr_buf_puts(&b, zh ? "柱状图：" : "Bar chart: ");
        pr_buf_puts(&b, c->title[0] ? c->title : (zh ? "（无标题）" : "(untitled)"));
        pr_buf_puts(&b, end);
        pr_buf_puts(&b, zh ? "类别" : "Categories");
        if (c->x_label[0]) {
            pr_buf_puts(&b, zh ? "（" : " (");
            pr_buf_puts(&b, c->x_label);
            pr_buf_puts(&b, zh ? "）" : ")");
        }
        pr_buf_puts(&b, zh ? "：" : ": ");
        for (int k = 0; k < c->ncats; k++) {
            if (k)
                pr_buf_puts(&b, zh ? "、" : ", ");
            pr_buf_puts(&b, c->cats[k]);
        }
        if (!c->ncats)
            pr_buf_puts(&b, zh ? "无" : "none");
        pr_buf_puts(&b, end);
        if (c->y_label[0]) {
            pr_buf_puts(&b, zh ? "纵轴：" : "Y axis: ");
            pr_buf_puts(&b, c->y_label);
            pr_buf_puts(&b, end);
        }
        for (int i = 0; i < c->nseries && c->ncats; i++) {
            pr_buf_puts(&b, c->series[i].label[0] ? c->series[i].label
                                                  : (zh ? "（未命名）" : "(unnamed)"));
            pr_buf_puts(&b, zh ? "：" : ": ");
            for (int k = 0; k < c->ncats; k++) {
                const chart_cell *cell = chart_cell_get(c, i, k);
                if (k)
                    pr_buf_puts(&b, zh ? "，" : ", ");
                pr_buf_puts(&b, c->cats[k]);
                pr_buf_puts(&b, zh ? " 为 " : " = ");
                if (cell && cell->kind == CELL_VALUE)
                    chart_put_number(c, &b, cell->value, cell->text);
                else if (cell && cell->kind == CELL_STATE)
                    pr_buf_puts(&b, cell->state);
                else
                    pr_buf_puts(&b, zh ? "无数据" : "no data");
            }
            pr_buf_puts(&b, end);
        }
    }
    alt_flags(c, &b);
    if (c->alt_note) {
        while (b.len && b.data[b.len - 1] == ' ')
            pr_buf_truncate(&b, b.len - 1);
        pr_buf_putc(&b, ' ');
        pr_buf_puts(&b, c->alt_note);
    }
    /* one line, no trailing space */
    for (size_t i = 0; i < b.len; i++)
        if ((unsigned char)b.data[i] < 0x20 || b.data[i] == 0x7f)
            b.data[i] = ' ';
    while (b.len && b.data[b.len - 1] == ' ')
        pr_buf_truncate(&b, b.len - 1);
    return pr_buf_detach(&b);
}
