#include "mdimport.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include "1-load/data.h"
#include "base/cmarkx.h"
#include "buf.h"
#include "csvtable.h"
#include "fileio.h"
#include "jdoc.h"
#include "record.h"
#include "stats.h"
#include "suite.h"

/* The significant digits a real is written with (JSON_REAL_PRECISION): 15
 * keep every decimal of up to 15 digits and print 2946.3 as 2946.3, not
 * 2946.3000000000002. */
#define MDI_REAL_DIGITS 15

/* One table of the document, with the last heading before it. */
typedef struct found_table {
    cmark_node *node;
    char *heading; /* plain text; "" when none */
    char *caption; /* the last paragraph before it, since that heading; "" when none */
} found_table;

static void free_found(found_table *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].heading);
        free(v[i].caption);
    }
    free(v);
}

/* Lists the document's tables in order (tables inside list items too). */
static found_table *find_tables(cmark_node *root, size_t *n_out)
{
    found_table *v = NULL;
    size_t n = 0;
    char *heading = pr_xstrdup(""), *caption = pr_xstrdup("");
    cmark_iter *it = cmark_iter_new(root);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *node = cmark_iter_get_node(it);
        if (ev != CMARK_EVENT_ENTER)
            continue;
        if (cmark_node_get_type(node) == CMARK_NODE_HEADING) {
            pr_buf b = PR_BUF_INIT;
            cmarkx_plain(node, &b);
            free(heading);
            heading = pr_buf_detach(&b);
            free(caption);
            caption = pr_xstrdup("");
        } else if (cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH) {
            pr_buf b = PR_BUF_INIT;
            cmarkx_plain(node, &b);
            free(caption);
            caption = pr_buf_detach(&b);
        } else if (strcmp(cmark_node_get_type_string(node), "table") == 0) {
            v = pr_xrealloc(v, (n + 1) * sizeof *v);
            v[n].node = node;
            v[n].heading = pr_xstrdup(heading);
            v[n].caption = pr_xstrdup(caption);
            n++;
        }
    }
    cmark_iter_free(it);
    free(heading);
    free(caption);
    *n_out = n;
    return v;
}

/* Appends s to out, at most max bytes, control characters as '?': text
 * from a file, for a message on a terminal. */
static void put_visible(pr_buf *out, const char *s, size_t max)
{
    size_t i = 0;
    for (; i < max && s[i]; i++)
        pr_buf_putc(out, (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i]);
    if (s[i])
        pr_buf_puts(out, "...");
}

/* Appends what to dropped ("; "-separated) unless it is there already;
 * past 400 bytes only "; ..." (a cell of a million tags makes one line). */
static void add_dropped(pr_buf *dropped, const char *what)
{
    const char *have = pr_buf_cstr(dropped);
    if (dropped->len > 400) {
        if (!strstr(have, "; ..."))
            pr_buf_puts(dropped, "; ...");
        return;
    }
    for (const char *h = strstr(have, what); h; h = strstr(h + 1, what)) {
        size_t l = strlen(what);
        if ((h == have || h[-1] == ' ') && (h[l] == '\0' || h[l] == ';'))
            return;
    }
    pr_buf_printf(dropped, "%s%s", dropped->len ? "; " : "", what);
}

/* Says what the raw HTML lit is, for a warning: "raw HTML <script>", "raw
 * HTML </b>", "an HTML comment"; appended to dropped. */
static void drop_html(const char *lit, pr_buf *dropped)
{
    pr_buf what = PR_BUF_INIT;
    const char *p = lit ? lit : "";
    if (strncmp(p, "<!--", 4) == 0) {
        pr_buf_puts(&what, "an HTML comment");
    } else {
        int closing = p[0] == '<' && p[1] == '/';
        const char *name = p + (p[0] == '<') + closing;
        size_t l = 0;
        while (l < 32 &&
               ((name[l] >= 'a' && name[l] <= 'z') || (name[l] >= 'A' && name[l] <= 'Z') ||
                (name[l] >= '0' && name[l] <= '9') || name[l] == '-'))
            l++;
        if (l)
            pr_buf_printf(&what, "raw HTML <%s%.*s>", closing ? "/" : "", (int)l, name);
        else
            pr_buf_puts(&what, "raw HTML");
    }
    add_dropped(dropped, pr_buf_cstr(&what));
    pr_buf_free(&what);
}

/* pr_cmarkx_plain_opts' dropped: says what a cell's raw HTML or image's
 * picture is, appended to the warning's list (ctx, a pr_buf). */
static void cell_dropped(void *ctx, cmark_node *node)
{
    pr_buf *dropped = ctx;
    if (cmark_node_get_type(node) == CMARK_NODE_HTML_INLINE) {
        drop_html(cmark_node_get_literal(node), dropped);
        return;
    }
    pr_buf what = PR_BUF_INIT;
    pr_buf_puts(&what, "an image (");
    put_visible(&what, cmark_node_get_url(node) ? cmark_node_get_url(node) : "", 80);
    pr_buf_putc(&what, ')');
    add_dropped(dropped, pr_buf_cstr(&what));
    pr_buf_free(&what);
}

/* Appends the plain text of node's inlines to out, as GitHub shows it: text
 * and code as written, an image by its alt text, a line break as a blank;
 * raw HTML is left out.  What was left out (raw HTML, an image's picture)
 * is described in dropped when it is not NULL. */
static void cell_plain(cmark_node *node, pr_buf *out, pr_buf *dropped)
{
    pr_cmarkx_plain_opts o = {1, dropped ? cell_dropped : NULL, dropped};
    cmarkx_plain_opts_walk(node, out, &o);
}

/* The trimmed plain text of a table cell (cell_plain); the caller frees it. */
static char *cell_text(cmark_node *cell, pr_buf *dropped)
{
    pr_buf b = PR_BUF_INIT;
    cell_plain(cell, &b, dropped);
    char *t = pr_buf_xstrdup_trimmed(pr_buf_cstr(&b));
    pr_buf_free(&b);
    return t;
}

/* The i-th cell of a row (NULL when the row is shorter). */
static cmark_node *cell_at(cmark_node *row, size_t i)
{
    cmark_node *c = cmark_node_first_child(row);
    for (; c && i; i--)
        c = cmark_node_next(c);
    return c;
}

/* Reads a whole number at *p (digits only), advancing p; -1 when none. */
static long whole(const char **p)
{
    const char *s = *p;
    if (*s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || v <= 0 || v > (1L << 20))
        return -1;
    *p = end;
    return v;
}

/* The nodes and GPUs a row's first cell names: "8", "GPU=8", "GPU=8,BS=96",
 * "8卡", "1机8卡" (nodes 0 when it does not say; *bs the batch size the cell
 * states, 0 when none). */
static int row_key(const char *s, long *nodes, long *gpus, long *bs)
{
    const char *p = s;
    *nodes = 0;
    *bs = 0;
    if (strncmp(p, "GPU=", 4) == 0) {
        p += 4;
        if ((*gpus = whole(&p)) < 0)
            return -1;
        if (*p == '\0')
            return 0;
        if (*p++ != ',')
            return -1;
        while (*p == ' ')
            p++;
        if (strncmp(p, "BS=", 3) != 0)
            return -1;
        p += 3;
        *bs = whole(&p);
        return *bs > 0 && *p == '\0' ? 0 : -1;
    }
    long a = whole(&p);
    if (a < 0)
        return -1;
    if (*p == '\0') {
        *gpus = a;
        return 0;
    }
    if (strncmp(p, "机", strlen("机")) == 0) {
        p += strlen("机");
        *nodes = a;
        if ((a = whole(&p)) < 0)
            return -1;
    }
    if (strcmp(p, "卡") != 0)
        return -1;
    *gpus = a;
    return 0;
}

/* 1 when s is one or more dashes ("-", "--", "—", "——", "–"): no figure. */
static int all_dashes(const char *s)
{
    static const char *const dashes[] = {"-", "—", "–", NULL};
    if (!*s)
        return 0;
    while (*s) {
        const char *const *d = dashes;
        for (; *d; d++)
            if (strncmp(s, *d, strlen(*d)) == 0)
                break;
        if (!*d)
            return 0;
        s += strlen(*d);
    }
    return 1;
}

/* A cell's figure: the number it starts with, exactly as printed (digits
 * with at most one '.'), and what follows it after a blank or as a
 * parenthesis ("33082.12 (O2)", "1438.518(O2)": an annotation); or a state.
 * Returns 1 for a number, 2 for a state (*state), 0 for an empty cell ("",
 * dashes such as "-" or "——", "N/A"), -1 when the cell is not a plain
 * figure. */
static int cell_figure(const char *s, double *value, char **printed, const char **annotation,
                       const char **state)
{
    static const char *const empty[] = {"", "N/A", "n/a", NULL};
    static const char *const states[] = {"TODO", "OOM", NULL};
    for (const char *const *e = empty; *e; e++)
        if (strcmp(s, *e) == 0)
            return 0;
    if (all_dashes(s))
        return 0;
    for (const char *const *e = states; *e; e++)
        if (strcmp(s, *e) == 0) {
            *state = *e;
            return 2;
        }
    size_t n = strspn(s, "0123456789.");
    const char *dot = memchr(s, '.', n);
    if (n == 0 || s[0] == '.' || s[n - 1] == '.' ||
        (dot && memchr(dot + 1, '.', n - (size_t)(dot - s) - 1)))
        return -1;
    if (s[n] != '\0' && s[n] != ' ' && s[n] != '(')
        return -1; /* "1,234", "12e3", "3x": not a figure as printed */
    *printed = pr_xstrndup(s, n);
    char *end;
    errno = 0;
    *value = strtod(*printed, &end);
    if (errno || *end || *value <= 0) {
        free(*printed);
        *printed = NULL;
        return -1;
    }
    const char *rest = s + n;
    while (*rest == ' ')
        rest++;
    *annotation = *rest ? rest : NULL;
    return 1;
}

/* The JSON number a figure printed as p (digits with at most one '.') is
 * written as, and in *value the number gen reads back from the file: a
 * whole number as an integer, else a real of MDI_REAL_DIGITS significant
 * digits.  NULL when that number does not print as p again at p's decimals
 * (pr_stats_printed_match): the figure cannot be kept exactly, and why says
 * what it would become.  The caller owns the json_t (a new reference). */
static json_t *exact_figure(const char *p, double *value, pr_buf *why)
{
    char *end;
    int d = pr_stats_printed_decimals(p);
    errno = 0;
    if (d == 0) {
        long long n = strtoll(p, &end, 10);
        if (errno || *end) {
            pr_buf_printf(why, "it is beyond the largest whole number a file keeps (%lld)",
                          LLONG_MAX);
            return NULL;
        }
        *value = (double)n;
        if (pr_stats_printed_match(*value, p) != PR_PRINTED_ROUNDED) {
            pr_buf_printf(why, "it would be read back as %.0f", *value);
            return NULL;
        }
        return json_integer(n);
    }
    double v = strtod(p, &end);
    if (d < 0 || errno || *end || !isfinite(v) || v <= 0) {
        pr_buf_puts(why, d < 0 ? "a number keeps at most 17 decimals"
                               : "it is beyond the range of a number");
        return NULL;
    }
    char digits[64];
    snprintf(digits, sizeof digits, "%.*g", MDI_REAL_DIGITS, v);
    *value = strtod(digits, NULL);
    if (*value != v || pr_stats_printed_match(v, p) != PR_PRINTED_ROUNDED) {
        pr_buf_printf(why, "it would be read back as %.*f (%d significant digits at most)", d,
                      *value, MDI_REAL_DIGITS);
        return NULL;
    }
    return json_real(v);
}

/* The columns of a header row, for an error message. */
static void list_columns(cmark_node *header, pr_buf *out)
{
    for (cmark_node *c = cmark_node_first_child(header); c; c = cmark_node_next(c)) {
        char *t = cell_text(c, NULL);
        pr_buf_printf(out, "%s\"%s\"", out->len ? ", " : "", t);
        free(t);
    }
}

/* The whole number a cell holds ("8"), or -1. */
static long cell_count(const char *s)
{
    const char *p = s;
    long v = whole(&p);
    return v > 0 && *p == '\0' ? v : -1;
}

/* The index of the column named text in the header, or -1. */
static long column_index(cmark_node *header, const char *text)
{
    long i = 0;
    for (cmark_node *c = cmark_node_first_child(header); c; c = cmark_node_next(c), i++) {
        char *t = cell_text(c, NULL);
        int same = strcmp(t, text) == 0;
        free(t);
        if (same)
            return i;
    }
    return -1;
}

/* A row read, to find a second one of its configuration. */
typedef struct seen_row {
    long nodes, gpus;
    int line;
} seen_row;

/* Builds the table object from the chosen Markdown table (json_t * new, the
 * caller owns it).  What was read goes to summary, a line per row whose
 * cells had something left out (raw HTML, images) to warnings. */
static json_t *read_table(const pr_mdimport_opts *o, const found_table *ft, int number,
                          const csvtable_lines *lm, pr_buf *summary, pr_buf *warnings, pr_err *err)
{
    json_t *rows = json_array(), *table = NULL;
    seen_row *seen = NULL;
    pr_buf annotations = PR_BUF_INIT, annotations_zh = PR_BUF_INIT;
    cmark_node *header = cmark_node_first_child(ft->node);
    int line = csvtable_line(lm, cmarkx_line(ft->node));
    long col = -1;
    /* Nodes and GPUs in columns of their own, else both in the first cell. */
    long nodes_col = -1, gpus_col = -1;
    const char *count_opt[2][2] = {{"--nodes-column", o->nodes_column},
                                   {"--gpus-column", o->gpus_column}};
    long *count_col[2] = {&nodes_col, &gpus_col};
    for (int k = 0; k < 2; k++)
        if (count_opt[k][1] && (*count_col[k] = column_index(header, count_opt[k][1])) < 0) {
            pr_buf cols = PR_BUF_INIT;
            list_columns(header, &cols);
            pr_err_set(err, o->markdown, line, 0, count_opt[k][0],
                       "table %d has no column \"%s\" (its columns: %s)", number, count_opt[k][1],
                       pr_buf_cstr(&cols));
            pr_buf_free(&cols);
            goto out;
        }
    size_t i = 0;
    for (cmark_node *c = cmark_node_first_child(header); c; c = cmark_node_next(c), i++) {
        char *t = cell_text(c, NULL);
        if (strcmp(t, o->column) == 0 && col < 0)
            col = (long)i;
        free(t);
    }
    if (col < 0) {
        pr_buf cols = PR_BUF_INIT;
        list_columns(header, &cols);
        pr_err_set(err, o->markdown, line, 0, "--column",
                   "table %d has no column \"%s\" (its columns: %s)", number, o->column,
                   pr_buf_cstr(&cols));
        pr_buf_free(&cols);
        goto out;
    }
    size_t used = 0, empty = 0, nbody = 0;
    for (cmark_node *row = cmark_node_next(header); row; row = cmark_node_next(row)) {
        int rline = csvtable_line(lm, cmarkx_line(row));
        if (++nbody > PR_MDIMPORT_MAX_ROWS) {
            pr_err_set(err, o->markdown, rline, 0, NULL,
                       "table %d has more than %d rows: a table of published figures has a row "
                       "per GPU count",
                       number, PR_MDIMPORT_MAX_ROWS);
            goto out;
        }
        cmark_node *kc = cell_at(row, 0), *vc = cell_at(row, (size_t)col);
        pr_buf dropped = PR_BUF_INIT, why = PR_BUF_INIT;
        char *key = kc ? cell_text(kc, &dropped) : pr_xstrdup("");
        char *val = vc ? cell_text(vc, &dropped) : pr_xstrdup("");
        long nodes = 0, gpus = 0, bs = 0;
        double value = 0;
        char *printed = NULL;
        const char *annotation = NULL, *state = NULL;
        json_t *number = NULL;
        int kind = -1, rc = 0;
        if (dropped.len) {
            /* GitHub shows no text for them: the row is read without them,
             * and the user is told (a figure or note may be missing). */
            pr_buf_printf(warnings, "%s:%d: left out of the row's cells: %s (read as \"",
                          o->markdown, rline, pr_buf_cstr(&dropped));
            put_visible(warnings, key, 80);
            pr_buf_puts(warnings, "\", \"");
            put_visible(warnings, val, 80);
            pr_buf_puts(warnings, "\")\n");
        }
        if (gpus_col >= 0) {
            char *gc = cell_at(row, (size_t)gpus_col)
                           ? cell_text(cell_at(row, (size_t)gpus_col), NULL)
                           : pr_xstrdup("");
            char *nc = nodes_col >= 0 && cell_at(row, (size_t)nodes_col)
                           ? cell_text(cell_at(row, (size_t)nodes_col), NULL)
                           : NULL;
            if ((gpus = cell_count(gc)) < 0)
                rc = pr_err_set(err, o->markdown, rline, 0, o->gpus_column,
                                "\"%s\" is not a GPU count (a whole number)", gc);
            else if (nodes_col >= 0 && (nodes = nc ? cell_count(nc) : -1) < 0)
                rc = pr_err_set(err, o->markdown, rline, 0, o->nodes_column,
                                "\"%s\" is not a node count (a whole number)", nc ? nc : "");
            free(gc);
            free(nc);
        }
        if (rc < 0) {
            /* reported above */
        } else if (gpus_col < 0 && row_key(key, &nodes, &gpus, &bs) < 0) {
            rc = pr_err_set(err, o->markdown, rline, 0, NULL,
                            "the first cell \"%s\" names no GPU count (\"8\", \"GPU=8,BS=96\", "
                            "\"8卡\", \"1机8卡\")",
                            key);
        } else if (bs && bs != o->batch_size) {
            rc = pr_err_set(err, o->markdown, rline, 0, "--batch-size",
                            "the first cell \"%s\" prints batch size %ld, not %d", key, bs,
                            o->batch_size);
        } else if ((kind = cell_figure(val, &value, &printed, &annotation, &state)) < 0) {
            rc = pr_err_set(err, o->markdown, rline, 0, o->column,
                            "\"%s\" is not a figure as printed (digits with one '.', then "
                            "nothing or a blank and a note)",
                            val);
        } else if (kind == 1 && !(number = exact_figure(printed, &value, &why))) {
            rc = pr_err_set(err, o->markdown, rline, 0, o->column,
                            "\"%s\" cannot be kept exactly: %s", printed, pr_buf_cstr(&why));
        } else if (nodes == 0) {
            int gpn = o->gpus_per_node > 0 ? o->gpus_per_node : 8;
            if (gpus > gpn && gpus % gpn != 0)
                rc = pr_err_set(err, o->markdown, rline, 0, NULL,
                                "%ld GPUs do not fill nodes of %d (--gpus-per-node)", gpus, gpn);
            nodes = gpus > gpn ? gpus / gpn : 1;
        } else if (gpus % nodes != 0) {
            rc = pr_err_set(err, o->markdown, rline, 0, NULL,
                            "%ld GPUs do not divide over %ld nodes", gpus, nodes);
        }
        /* One row per configuration (the loader refuses a second): stop at
         * the first repeat, before building anything more. */
        for (size_t j = 0; rc == 0 && kind > 0 && j < used; j++)
            if (seen[j].nodes == nodes && seen[j].gpus == gpus)
                rc = pr_err_set(err, o->markdown, rline, 0, NULL,
                                "a second row for %ld node(s), %ld GPU(s) (the first is %s:%d)",
                                nodes, gpus, o->markdown, seen[j].line);
        if (rc == 0 && kind == 0) {
            empty++;
        } else if (rc == 0) {
            json_t *r = json_object();
            json_object_set_new(r, "nodes", json_integer(nodes));
            json_object_set_new(r, "gpus", json_integer(gpus));
            json_object_set_new(r, "gpus_per_node", json_integer(gpus / nodes));
            if (kind == 1) {
                /* Whole numbers stay integers in JSON (428, not 428.0). */
                json_object_set(r, "throughput", number);
                json_object_set_new(r, "printed", json_string(printed));
            } else {
                json_object_set_new(r, "state", json_string(state));
            }
            json_array_append_new(rows, r);
            seen = pr_xrealloc(seen, (used + 1) * sizeof *seen);
            seen[used].nodes = nodes;
            seen[used].gpus = gpus;
            seen[used].line = rline;
            used++;
            /* The note is shown on both pages: written in both languages. */
            if (annotation) {
                /* "1 GPU", "8 GPUs" (fwpage, issue 23: no "GPU(s)" on a page). */
                pr_buf_printf(&annotations, "%s%ld GPU%s: \"%s\"", annotations.len ? "; " : "",
                              gpus, gpus == 1 ? "" : "s", annotation);
                pr_buf_printf(&annotations_zh, "%s%ld 卡：“%s”", annotations_zh.len ? "；" : "",
                              gpus, annotation);
            }
        }
        json_decref(number);
        pr_buf_free(&dropped);
        pr_buf_free(&why);
        free(printed);
        free(key);
        free(val);
        if (rc < 0)
            goto out;
    }
    if (used == 0) {
        pr_err_set(err, o->markdown, line, 0, "--column",
                   "column \"%s\" of table %d holds no figure", o->column, number);
        goto out;
    }
    table = json_object();
    json_object_set_new(table, "model", json_string(o->model));
    if (o->model_title)
        json_object_set_new(table, "model_title", json_string(o->model_title));
    json_object_set_new(table, "framework", json_string(o->framework));
    if (o->framework_title)
        json_object_set_new(table, "framework_title", json_string(o->framework_title));
    json_object_set_new(table, "precision", json_string(o->precision));
    json_object_set_new(table, "batch_size", json_integer(o->batch_size));
    if (o->batch_label)
        json_object_set_new(table, "batch_label", json_string(o->batch_label));
    json_object_set_new(table, "unit", json_string(o->unit));
    if (o->variant)
        json_object_set_new(table, "variant", json_string(o->variant));
    /* --note is the user's, in whatever language they wrote it; the cells'
     * notes gen words itself, so in both languages (a bilingual note). */
    if (annotations.len) {
        const char *user = o->note ? o->note : "";
        const char *gap = o->note ? " " : "";
        char *zh =
            pr_xasprintf("%s%s单元格中另印有说明：%s。", user, gap, pr_buf_cstr(&annotations_zh));
        char *en = pr_xasprintf("%s%sNotes printed in the cells: %s.", user, gap,
                                pr_buf_cstr(&annotations));
        json_object_set_new(table, "note", json_pack("{s:s,s:s}", "zh", zh, "en", en));
        free(zh);
        free(en);
    } else if (o->note) {
        json_object_set_new(table, "note", json_string(o->note));
    }
    json_object_set_new(table, "platform", json_string(o->platform));
    json_t *src = json_object();
    if (ft->heading[0] || ft->caption[0]) {
        char *title = pr_xasprintf("%s%s%s", ft->heading,
                                   ft->heading[0] && ft->caption[0] ? " / " : "", ft->caption);
        json_object_set_new(src, "title", json_string(title));
        free(title);
    }
    json_object_set_new(src, "repo", json_string(o->repo));
    json_object_set_new(src, "path", json_string(o->path));
    json_object_set_new(src, "commit", json_string(o->commit));
    json_object_set_new(src, "line", json_integer(line));
    char *url =
        pr_xasprintf("https://github.com/%s/blob/%s/%s#L%d", o->repo, o->commit, o->path, line);
    json_object_set_new(src, "url", json_string(url));
    free(url);
    json_object_set_new(table, "source", src);
    json_object_set_new(table, "rows", rows);
    pr_buf_printf(summary, "%s:%d: table %d, column \"%s\": %zu row(s)", o->markdown, line, number,
                  o->column, used);
    if (empty)
        pr_buf_printf(summary, ", %zu empty cell(s) left out", empty);
out:
    if (!table)
        json_decref(rows); /* else the table holds them */
    free(seen);
    pr_buf_free(&annotations);
    pr_buf_free(&annotations_zh);
    return table;
}

/* 1 when tables a and b describe the same cell set (the one replaces the
 * other on a re-import). */
static int same_table(json_t *a, json_t *b)
{
    static const char *const keys[] = {"model",       "framework", "precision", "batch_size",
                                       "batch_label", "variant",   "platform",  NULL};
    for (const char *const *k = keys; *k; k++) {
        json_t *x = json_object_get(a, *k), *y = json_object_get(b, *k);
        if (!(x == y || (x && y && json_equal(x, y))))
            return 0;
    }
    return 1;
}

/* Checks the options that end up in the file (the loader checks the rest).
 * Every missing option is named in one message: a first try should not
 * turn into one more try per option. */
static int check_opts(const pr_mdimport_opts *o, pr_err *err)
{
    const pr_err_opt_need required[] = {
        {!o->markdown, "--markdown"},
        {o->table <= 0 && !o->heading && !(o->markdown && csvtable_separator(o->markdown)),
         "--table N or --after TEXT"},
        {!o->column, "--column"},
        {!o->model, "--model"},
        {!o->framework, "--framework"},
        {!o->precision, "--precision"},
        {o->batch_size <= 0, "--batch-size"},
        {!o->unit, "--unit"},
        {!o->platform, "--platform"},
        {!o->repo, "--repo"},
        {!o->commit, "--commit"},
        {!o->path, "--path"},
        {!o->out, "--out"},
    };
    if (pr_err_missing_opts(err, required, sizeof required / sizeof required[0]) < 0)
        return -1;
    if (!pr_suite_name_is_safe(o->model) || !pr_suite_name_is_safe(o->framework))
        return pr_err_set(err, NULL, 0, 0, "--model/--framework", "not a safe folder name");
    return pr_record_source_opts_check(o->repo, o->commit, o->path, err);
}

int mdimport_run(const pr_mdimport_opts *o, char **summary_out, char **warnings_out, pr_err *err)
{
    int rc = -1;
    pr_buf md = PR_BUF_INIT, summary = PR_BUF_INIT, warnings = PR_BUF_INIT, body = PR_BUF_INIT;
    pr_cmarkx_doc doc = {NULL, NULL};
    csvtable_lines lm = {NULL, 0, 0};
    found_table *tables = NULL;
    size_t ntables = 0;
    json_t *table = NULL, *file = NULL;
    char *text = NULL;
    if (check_opts(o, err) < 0 ||
        pr_fileio_read_file_max(o->markdown, PR_MDIMPORT_MAX_BYTES, &md, err) < 0)
        goto out;
    if (csvtable_separator(o->markdown)) {
        /* A CSV file is its one table, read as the pipe table it makes. */
        pr_buf csv = PR_BUF_INIT;
        int r =
            csvtable_to_markdown(md.data ? md.data : "", md.len, csvtable_separator(o->markdown),
                                 PR_MDIMPORT_MAX_BYTES, &csv, &lm);
        pr_buf_free(&md);
        md = csv;
        if (r < 0) {
            pr_err_set(err, o->markdown, 0, 0, NULL,
                       "the table it makes is larger than %zu MiB "
                       "(a table of published figures has a row per GPU count)",
                       PR_MDIMPORT_MAX_BYTES >> 20);
            goto out;
        }
    }
    cmarkx_parse(&doc, md.data ? md.data : "", md.len, CMARK_OPT_DEFAULT);
    tables = find_tables(doc.root, &ntables);
    int number = o->table;
    if (number <= 0 && lm.map && !o->heading)
        number = 1;
    if (number <= 0) {
        for (size_t i = 0; i < ntables && number <= 0; i++)
            if (strstr(tables[i].heading, o->heading) || strstr(tables[i].caption, o->heading))
                number = (int)i + 1;
        if (number <= 0) {
            pr_err_set(err, o->markdown, 0, 0, "--after",
                       "no table after a heading or paragraph containing \"%s\"", o->heading);
            goto out;
        }
    } else if ((size_t)number > ntables) {
        pr_err_set(err, o->markdown, 0, 0, "--table", "there is no table %d (the file has %zu)",
                   number, ntables);
        goto out;
    }
    if (!(table = read_table(o, &tables[number - 1], number, &lm, &summary, &warnings, err)))
        goto out;
    if (pr_fileio_is_file(o->out)) {
        pr_buf old = PR_BUF_INIT;
        json_error_t je;
        int r = pr_fileio_read_file(o->out, &old, err);
        if (r == 0 && !(file = json_loadb(old.data ? old.data : "", old.len, 0, &je)))
            pr_err_set(err, o->out, je.line, je.column, NULL, "%s", je.text);
        pr_buf_free(&old);
        if (!file)
            goto out;
        if (!json_is_array(json_object_get(file, "tables"))) {
            pr_err_set(err, o->out, 0, 0, "tables", "not a published-figures file");
            goto out;
        }
    } else {
        file = json_object();
        json_object_set_new(file, "perfrepro", json_integer(1));
        json_object_set_new(file, "label", json_string(o->label ? o->label : o->repo));
        json_t *src = json_object();
        json_object_set_new(src, "title", json_string(o->label ? o->label : o->repo));
        json_object_set_new(src, "repo", json_string(o->repo));
        json_object_set_new(file, "source", src);
        json_object_set_new(file, "tables", json_array());
    }
    json_t *list = json_object_get(file, "tables");
    size_t i = 0;
    for (; i < json_array_size(list); i++)
        if (same_table(json_array_get(list, i), table))
            break;
    if (i < json_array_size(list)) {
        json_array_set(list, i, table); /* a re-import replaces what it imported before */
        pr_buf_puts(&summary, " (replaced the earlier import)");
    } else {
        json_array_append(list, table);
    }
    text = json_dumps(file,
                      JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(MDI_REAL_DIGITS));
    pr_buf_puts(&body, text);
    pr_buf_putc(&body, '\n');
    /* What the build would refuse is never written: the file (a good one
     * above all) stays as it was. */
    if (data_check_published(o->out, body.data, body.len, err) < 0) {
        pr_err_prefix(err, "%s not written, the build would refuse the new content", o->out);
        goto out;
    }
    if (pr_fileio_write_atomic(o->out, body.data, body.len, err) < 0)
        goto out;
    pr_buf_printf(&summary, " -> %s", o->out);
    if (warnings.len)
        pr_buf_truncate(&warnings, warnings.len - 1); /* the last '\n' */
    *summary_out = pr_buf_detach(&summary);
    *warnings_out = warnings.len ? pr_buf_detach(&warnings) : NULL;
    rc = 0;
out:
    free(text);
    json_decref(table);
    json_decref(file);
    free_found(tables, ntables);
    free(lm.map);
    if (doc.root)
        cmarkx_free(&doc);
    pr_buf_free(&md);
    pr_buf_free(&summary);
    pr_buf_free(&warnings);
    pr_buf_free(&body);
    return rc;
}
