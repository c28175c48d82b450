/* checkpage: residue checks of one parsed page (checkpage.h). */
#include "checkpage.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmark-gfm-core-extensions.h>

#include "base/cmarkx.h"
#include "buf.h"

/* The longest row text a message quotes. */
#define QUOTE_MAX 80

typedef struct page {
    checkpage_fn fn;
    void *ctx;
    int hardware;
} page;

static void report(page *p, pr_check_kind kind, int line, const pr_buf *msg)
{
    p->fn(p->ctx, kind, line, pr_buf_cstr(msg));
}

static int ascii_punct(unsigned char ch)
{
    return ch < 0x80 && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", ch) && ch;
}

/* A backslash the reader sees before punctuation: the text node's literal
 * is what renders, escapes already taken away. */
static void check_escape(page *p, cmark_node *text)
{
    const char *lit = cmark_node_get_literal(text);
    for (const char *s = lit ? strchr(lit, '\\') : NULL; s; s = strchr(s + 1, '\\')) {
        if (!ascii_punct((unsigned char)s[1]))
            continue;
        pr_buf msg = PR_BUF_INIT;
        const char *from = s - lit > 20 ? s - 20 : lit;
        pr_buf_printf(&msg,
                      "visible backslash in \"%.*s\": the text renders \"\\%c\" (escaped twice?)",
                      (int)(s + 2 - from), from, s[1]);
        report(p, PR_CHECK_VISIBLE_ESCAPE, cmarkx_line(text), &msg);
        pr_buf_free(&msg);
        return; /* one per text node */
    }
}

/* ---- tables ------------------------------------------------------------- */

typedef struct table {
    size_t ncols, nrows;  /* nrows: body rows */
    const uint8_t *align; /* 'l', 'c', 'r' or 0 per column */
    char **cells;         /* header then body rows, ncols each, trimmed text */
    int *lines;           /* each row's line, header first */
} table;

static char *cell_text(cmark_node *cell)
{
    pr_buf b = PR_BUF_INIT;
    cmarkx_plain(cell, &b);
    size_t s = 0, e = b.len;
    while (s < e && (b.data[s] == ' ' || b.data[s] == '\t'))
        s++;
    while (e > s && (b.data[e - 1] == ' ' || b.data[e - 1] == '\t'))
        e--;
    char *t = pr_xmalloc(e - s + 1);
    if (e > s) /* an empty cell's buffer has no data (memcpy(NULL) is UB) */
        memcpy(t, b.data + s, e - s);
    t[e - s] = '\0';
    pr_buf_free(&b);
    return t;
}

/* Reads the table node into t; table_free frees it. */
static void table_read(cmark_node *tn, table *t)
{
    memset(t, 0, sizeof *t);
    t->ncols = cmark_gfm_extensions_get_table_columns(tn);
    t->align = cmark_gfm_extensions_get_table_alignments(tn);
    size_t rows = 0;
    for (cmark_node *r = cmark_node_first_child(tn); r; r = cmark_node_next(r))
        rows++;
    t->cells = pr_xcalloc(rows * t->ncols + 1, sizeof *t->cells);
    t->lines = pr_xcalloc(rows + 1, sizeof *t->lines);
    size_t i = 0;
    for (cmark_node *r = cmark_node_first_child(tn); r; r = cmark_node_next(r), i++) {
        t->lines[i] = cmarkx_line(r);
        size_t c = 0;
        for (cmark_node *cell = cmark_node_first_child(r); cell && c < t->ncols;
             cell = cmark_node_next(cell))
            t->cells[i * t->ncols + c++] = cell_text(cell);
        for (; c < t->ncols; c++)
            t->cells[i * t->ncols + c] = pr_xstrdup("");
    }
    t->nrows = rows ? rows - 1 : 0;
}

static void table_free(table *t)
{
    for (size_t i = 0; i < (t->nrows + 1) * t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->lines);
}

/* Cell of body row r (0-based), column c. */
static const char *body(const table *t, size_t r, size_t c)
{
    return t->cells[(r + 1) * t->ncols + c];
}

static int whole_number(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

static int is_dash(const char *s)
{
    return !*s || strcmp(s, "—") == 0 || strcmp(s, "–") == 0 || strcmp(s, "-") == 0;
}

/* The first figure column (see checkpage.h): after the key columns. */
static size_t first_figure_col(const table *t)
{
    size_t k = 0;
    while (k < t->ncols && t->align[k] != 'r')
        k++;
    if (k > 0)
        return k;
    for (; k < 2 && k < t->ncols; k++) {
        int all = t->nrows > 0;
        for (size_t r = 0; r < t->nrows && all; r++)
            all = whole_number(body(t, r, k));
        if (!all)
            break;
    }
    return k;
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return 0;
}

/* The row as "a | b | c", shortened, for messages. */
static void quote_row(const table *t, size_t row, pr_buf *out)
{
    pr_buf b = PR_BUF_INIT;
    for (size_t c = 0; c < t->ncols; c++)
        pr_buf_printf(&b, "%s%s", c ? " | " : "", t->cells[row * t->ncols + c]);
    if (b.len > QUOTE_MAX) {
        size_t n = QUOTE_MAX;
        while (n > 0 && ((unsigned char)b.data[n] & 0xC0) == 0x80)
            n--; /* not inside a UTF-8 sequence */
        pr_buf_printf(out, "%.*s…", (int)n, b.data);
    } else {
        pr_buf_puts(out, pr_buf_cstr(&b));
    }
    pr_buf_free(&b);
}

static void check_table(page *p, cmark_node *tn)
{
    table t;
    table_read(tn, &t);
    pr_buf msg = PR_BUF_INIT;
    if (p->hardware)
        for (size_t c = 0; c < t.ncols; c++) {
            const char *h = t.cells[c];
            if (strstr(h, "加速比") || strstr(h, "扩展效率") || contains_ci(h, "speedup") ||
                contains_ci(h, "efficiency")) {
                pr_buf_clear(&msg);
                pr_buf_printf(&msg,
                              "column \"%s\" on a page that measures the machine: speedup and "
                              "scaling efficiency do not apply to a hardware suite",
                              h);
                report(p, PR_CHECK_INAPPLICABLE_COLUMN, t.lines[0], &msg);
            }
        }
    size_t first = first_figure_col(&t);
    int nfig = 0;
    for (size_t c = first; c < t.ncols; c++)
        nfig += t.align[c] == 'r';
    size_t dash = 0, todo = 0, zero = 0, other = 0;
    for (size_t r = 0; nfig && r < t.nrows; r++) {
        size_t rd = 0, rt = 0, rz = 0, ro = 0;
        for (size_t c = first; c < t.ncols; c++) {
            if (t.align[c] != 'r')
                continue;
            const char *s = body(&t, r, c);
            if (is_dash(s))
                rd++;
            else if (strcmp(s, "TODO") == 0)
                rt++;
            else if (strcmp(s, "0") == 0)
                rz++;
            else
                ro++;
        }
        dash += rd, todo += rt, zero += rz, other += ro;
        if (ro || (rt && !rz))
            continue;
        pr_buf_clear(&msg);
        pr_buf_puts(&msg, "table row \"");
        quote_row(&t, r + 1, &msg);
        pr_buf_puts(&msg, rz ? "\" has 0 runs and no figure: leave the row out (a planned case "
                               "is TODO in the summary table)"
                             : "\" has no figure (every figure cell is — or empty): leave the "
                               "row out");
        report(p, PR_CHECK_EMPTY_ROW, t.lines[r + 1], &msg);
    }
    if (nfig && !other && !(todo && !dash && !zero)) {
        pr_buf_clear(&msg);
        pr_buf_puts(&msg, "table \"");
        quote_row(&t, 0, &msg);
        pr_buf_puts(&msg, t.nrows ? "\" has no figure (only TODO, — or 0): leave it out"
                                  : "\" has no rows: leave it out");
        report(p, PR_CHECK_EMPTY_TABLE, t.lines[0], &msg);
    }
    pr_buf_free(&msg);
    table_free(&t);
}

static int is_table(cmark_node *n)
{
    const char *s = cmark_node_get_type_string(n);
    return s && strcmp(s, "table") == 0;
}

void checkpage_run(cmark_node *root, checkpage_fn fn, void *ctx)
{
    page p = {fn, ctx, 0};
    /* The marker first: it is a block of the page, and governs its tables. */
    for (cmark_node *n = cmark_node_first_child(root); n; n = cmark_node_next(n)) {
        const char *lit = cmark_node_get_literal(n);
        if (cmark_node_get_type(n) == CMARK_NODE_HTML_BLOCK && lit &&
            strstr(lit, PR_CHECK_HARDWARE_MARK))
            p.hardware = 1;
    }
    cmark_iter *it = cmark_iter_new(root);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        if (ev != CMARK_EVENT_ENTER)
            continue;
        cmark_node *n = cmark_iter_get_node(it);
        if (cmark_node_get_type(n) == CMARK_NODE_TEXT)
            check_escape(&p, n);
        else if (is_table(n))
            check_table(&p, n);
    }
    cmark_iter_free(it);
}
