/* parse_tables: the whole-table profiles (docs/parse-rules.md): the
 * perfrepro-gpu bandwidth and GEMM tables, nccl-tests rows, the
 * mxnet-summary table and mllog time to train, each fed one line at a time
 * by parse_lines.c; and what parse.c and parse_run.c ask of perfrepro-gpu
 * tables when they reduce a run. */
#include "parse_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numbers.h"
#include "record.h"

#define NCCL_MAX_COLS 32

/* Splits s on blanks into at most max tokens; returns the count (max + 1
 * when there are more). */
static int split_ws(char *s, char **tok, int max)
{
    int n = 0;
    for (char *p = s; *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (n == max)
            return max + 1;
        tok[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
    return n;
}

enum { SERIES_MAX = 4096 };

/* One point of metrics.series (value by size).  A bounded series: tables
 * have tens of rows, logs may hold many.  Only what a record may hold
 * (docs/data-model.md): a size exact in a double and a value >= 0. */
static void series_add(run *r, unsigned long long size, double y)
{
    if (r->ns >= SERIES_MAX || y < 0)
        return;
    if (r->ns == r->caps) {
        r->caps = r->caps ? 2 * r->caps : 64;
        r->sx = pr_xrealloc(r->sx, r->caps * sizeof *r->sx);
        r->sy = pr_xrealloc(r->sy, r->caps * sizeof *r->sy);
    }
    r->sx[r->ns] = (double)size;
    r->sy[r->ns++] = y;
}

/* nccl-tests table rows.  The header line names the columns (it changed
 * across versions: with or without "root", "#wrong" or "error"), so the
 * cells are found by name: the first "busbw" is out-of-place, the second
 * in-place.  Rows before any header are not read. */

void parse_nccl_row(run *r, char *text, size_t len)
{
    static const char *const col_names[] = {"busbw", "algbw", "time"};
    const pr_rulecfg_cfg *c = r->c;
    char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    char *tok[NCCL_MAX_COLS];
    if (*p == '#') {
        if (!memmem(text, len, "busbw", 5))
            return;
        int n = split_ws(p + 1, tok, NCCL_MAX_COLS);
        if (n > NCCL_MAX_COLS || n < 4 || strcmp(tok[0], "size") != 0)
            return;
        int found = 0;
        for (int i = 0; i < n; i++)
            if (strcmp(tok[i], col_names[c->column]) == 0 && found < 2)
                r->nccl_col[found++] = i;
        if (found == 2) {
            r->nccl_ncols = n;
        } else if (found == 1) {
            r->nccl_ncols = n;
            r->nccl_col[1] = -1;
        }
        return;
    }
    if (!r->nccl_ncols || !isdigit((unsigned char)*p))
        return;
    int n = split_ws(p, tok, NCCL_MAX_COLS);
    if (n != r->nccl_ncols)
        return;
    for (const char *q = tok[0]; *q; q++)
        if (!isdigit((unsigned char)*q))
            return;
    int charted = 0;
    for (int place = 0; place < 2; place++) {
        if ((place == 0 && c->placement == PR_PLACE_IN_PLACE) ||
            (place == 1 && c->placement == PR_PLACE_OUT_OF_PLACE))
            continue;
        int i = r->nccl_col[place];
        if (i < 0)
            continue;
        double x;
        if (numbers_whole(tok[i], strlen(tok[i]), &x)) {
            parse_add_record(r, x, NULL, 0);
            unsigned long long size;
            if (!charted++ && numbers_count(tok[0], &size))
                series_add(r, size, x);
        } else {
            parse_ignore_value(r, NULL);
        }
    }
}

static int gpu_group(const parse_table *t, const char *name)
{
    for (int g = 0; g < t->ngroups; g++)
        if (strcmp(t->names[g], name) == 0)
            return g;
    return -1;
}

/* A group name: printable ASCII, so that it is valid JSON text as it is. */
static int gpu_name_ok(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if ((unsigned char)s[n] > 126 || !isgraph((unsigned char)s[n]))
            return 0;
    return n > 0 && n < GPU_NAME_MAX;
}

/* The words of a "#" line as group names; ngroups 0 when they cannot be
 * (too many, too long, repeated, not ASCII). */
static void gpu_names(parse_table *t, char *const *tok, int n)
{
    t->ngroups = 0;
    if (n < 1 || n > GPU_MAX_GROUPS)
        return;
    for (int i = 0; i < n; i++) {
        if (!gpu_name_ok(tok[i]) || gpu_group(t, tok[i]) >= 0) {
            t->ngroups = 0;
            return;
        }
        strcpy(t->names[t->ngroups++], tok[i]);
    }
}

/* The column line under the group line: "size" or M N K, then ngroups
 * groups of equal width, each with one rate column (GB/s or TFLOP/s) found
 * by name.  Returns 1 with t filled (names from the group line). */
static int gpu_columns(parse_table *t, const parse_table *groups, char *const *tok, int n)
{
    int nx;
    if (strcmp(tok[0], "size") == 0) {
        t->shape = 0;
        nx = 1;
        t->xcol[0] = 0;
    } else {
        t->shape = 1;
        nx = 3;
        if (n < 3)
            return 0;
        t->xcol[0] = t->xcol[1] = t->xcol[2] = -1;
        for (int i = 0; i < 3; i++) {
            int d = strcmp(tok[i], "M") == 0   ? 0
                    : strcmp(tok[i], "N") == 0 ? 1
                    : strcmp(tok[i], "K") == 0 ? 2
                                               : -1;
            if (d < 0 || t->xcol[d] >= 0)
                return 0;
            t->xcol[d] = i;
        }
    }
    int ng = groups->ngroups;
    if (ng < 1 || n <= nx || (n - nx) % ng != 0)
        return 0;
    int width = (n - nx) / ng;
    t->unit[0] = '\0';
    for (int g = 0; g < ng; g++) {
        t->rate[g] = -1;
        for (int i = nx + g * width; i < nx + (g + 1) * width; i++) {
            if (strcmp(tok[i], "GB/s") != 0 && strcmp(tok[i], "TFLOP/s") != 0)
                continue;
            /* one rate per group, the same in every group */
            if (t->rate[g] >= 0 || (t->unit[0] && strcmp(t->unit, tok[i]) != 0))
                return 0;
            t->rate[g] = i;
            strcpy(t->unit, tok[i]);
        }
        if (t->rate[g] < 0)
            return 0;
    }
    t->ngroups = ng;
    memcpy(t->names, groups->names, sizeof t->names);
    t->ncols = n;
    return 1;
}

static int gpu_same_columns(const parse_table *a, const parse_table *b)
{
    if (a->ngroups != b->ngroups || a->shape != b->shape || strcmp(a->unit, b->unit) != 0)
        return 0;
    for (int g = 0; g < a->ngroups; g++)
        if (strcmp(a->names[g], b->names[g]) != 0)
            return 0;
    return 1;
}

/* A header read in full: which group is the variant, and whether its rows
 * go to metrics.table (the first table with the variant, and later ones
 * with the same columns). */
static void gpu_header_done(run *r)
{
    parse_state *g = &r->g;
    const char *want = r->c->variant;
    g->state = 2;
    g->tables++;
    g->var = want ? gpu_group(&g->cur, want) : 0;
    g->collect = 0;
    if (g->var < 0) {
        if (g->missing++ == 0)
            g->novar = g->cur;
    } else if (!g->have_first) {
        g->first = g->cur;
        g->have_first = g->collect = 1;
        strcpy(g->var_name, g->cur.names[g->var]);
        g->have_peak = g->have_peak_pending && !g->cur.shape;
        g->peak = g->peak_pending;
    } else {
        g->collect = gpu_same_columns(&g->first, &g->cur);
        /* records in two units cannot be reduced to one figure */
        if (strcmp(g->first.unit, g->cur.unit) != 0 && !g->unit_mixed) {
            g->unit_mixed = 1;
            strcpy(g->mixed_unit, g->cur.unit);
        }
    }
    g->have_peak_pending = 0; /* a peak line belongs to the table after it */
}

static void gpu_row(run *r, char *p)
{
    parse_state *g = &r->g;
    const parse_table *t = &g->cur;
    char *tok[GPU_MAX_COLS];
    if (split_ws(p, tok, GPU_MAX_COLS) != t->ncols)
        return;
    unsigned long long x[3] = {0, 0, 0};
    for (int i = 0; i < (t->shape ? 3 : 1); i++)
        if (!numbers_count(tok[t->xcol[i]], &x[i]) || (t->shape && x[i] == 0))
            return; /* a line of another shape (a matrix has no empty side) */
    double v[GPU_MAX_GROUPS];
    for (int i = 0; i < t->ngroups; i++) {
        const char *cell = tok[t->rate[i]];
        /* N/A: the kernel or precision did not run; a negative rate is no rate */
        if (!numbers_whole(cell, strlen(cell), &v[i]) || v[i] < 0)
            v[i] = NAN;
    }
    if (g->var >= 0) {
        if (isnan(v[g->var]))
            parse_ignore_value(r, NULL);
        else
            parse_add_record(r, v[g->var], NULL, 0);
    }
    if (g->collect && g->nrows < SERIES_MAX) {
        if (g->nrows == g->caprows) {
            g->caprows = g->caprows ? 2 * g->caprows : 64;
            g->tx = pr_xrealloc(g->tx, g->caprows * 3 * sizeof *g->tx);
            g->tv = pr_xrealloc(g->tv, g->caprows * GPU_MAX_GROUPS * sizeof *g->tv);
        }
        memcpy(g->tx + 3 * g->nrows, x, sizeof x);
        memcpy(g->tv + GPU_MAX_GROUPS * g->nrows, v, (size_t)t->ngroups * sizeof *v);
        g->nrows++;
    }
    /* metrics.series: bandwidth by size, as for nccl-tests */
    if (!t->shape && g->var >= 0 && !isnan(v[g->var]))
        series_add(r, x[0], v[g->var]);
}

/* perfrepro-gpu's bandwidth and GEMM tables (measure/gpu/gpuhost_table.c):
 *   #                           copy                               read
 *   #       size     time      GB/s   %peak  #wrong     time      GB/s ...
 *   #        (B)     (us)    (GB/s)     (%)             (us)    (GB/s) ...
 *        1048576     5.20    403.30    12.0       0     3.10    338.20 ...
 * a group line (the "#" line just before the column line), the column line
 * (size, or M N K, then the groups), the units line, one row per size or
 * shape.  Columns are found by name, so their order may change. */
void parse_gpu_line(run *r, char *text, size_t len)
{
    parse_state *g = &r->g;
    char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '#') {
        g->cand.ngroups = 0; /* the group line must be just before */
        if (g->state == 1)
            g->state = 0; /* a header without its units line */
        else if (g->state == 2 && isdigit((unsigned char)*p))
            gpu_row(r, p);
        return;
    }
    double peak;
    int kv = numbers_after(text, len, "# Theoretical peak", 18, 0, &peak, NULL);
    if (kv != PR_NUM_NONE) {
        g->have_peak_pending = kv == PR_NUM_FOUND && peak > 0; /* "unknown" is no peak */
        g->peak_pending = peak;
    }
    char *tok[GPU_MAX_COLS];
    int n = split_ws(p + 1, tok, GPU_MAX_COLS);
    if (n > GPU_MAX_COLS)
        n = 0; /* too wide for a header of ours */
    if (g->state == 1) {
        g->state = 0;
        g->cand.ngroups = 0;
        char want[GPU_NAME_MAX + 2];
        snprintf(want, sizeof want, "(%s)", g->cur.unit);
        for (int i = 0; i < n; i++)
            if (strcmp(tok[i], want) == 0) {
                gpu_header_done(r);
                return;
            }
    }
    if (n > 0 && (strcmp(tok[0], "size") == 0 || strcmp(tok[0], "M") == 0 ||
                  strcmp(tok[0], "N") == 0 || strcmp(tok[0], "K") == 0)) {
        /* a new table starts here, whether or not its header is ours */
        g->state = gpu_columns(&g->cur, &g->cand, tok, n) ? 1 : 0;
        g->cand.ngroups = 0;
        return;
    }
    gpu_names(&g->cand, tok, n);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* The table NVIDIA's MXNet benchmark.py prints at the end:
 *   train.ips
 *              |    128    |
 *   ------------------------
 *        1     |   389.54  |
 * a title line, a header of batch sizes, dashes, one row per GPU count. */
void parse_mxnet_table(run *r, char *text)
{
    const pr_rulecfg_cfg *c = r->c;
    const pr_parse_args *a = r->k->args;
    char *t = trim(text);
    if (strcmp(t, c->table) == 0) {
        r->tbl_state = 1;
        r->tables++;
        return;
    }
    int bar = strchr(t, '|') != NULL;
    switch (r->tbl_state) {
    case 1: { /* header: "| bs | bs |" */
        r->tbl_state = bar ? 2 : 0;
        r->tbl_col = -1;
        int i = 0;
        for (char *cell = strtok(t, "|"); cell; cell = strtok(NULL, "|"), i++) {
            char *e;
            errno = 0;
            long bs = strtol(cell, &e, 10);
            if (e != cell && errno == 0 && *trim(e) == '\0' && bs == a->batch_size)
                r->tbl_col = i;
        }
        /* the leading cell is blank, so strtok started at the first size */
        break;
    }
    case 2:
        r->tbl_state = t[0] == '-' && strspn(t, "-") == strlen(t) ? 3 : 0;
        break;
    case 3: {
        if (!bar) {
            r->tbl_state = 0;
            break;
        }
        char *cells[64];
        int n = 0;
        char *p = t;
        for (;;) {
            char *q = strchr(p, '|');
            if (n == 64)
                break;
            cells[n++] = p;
            if (!q)
                break;
            *q = '\0';
            p = q + 1;
        }
        char *e;
        errno = 0;
        long g = strtol(cells[0], &e, 10);
        if (e == cells[0] || errno || *trim(e) != '\0' || g != a->gpus || r->tbl_col < 0 ||
            r->tbl_col + 1 >= n)
            break;
        double x;
        char *cell = cells[r->tbl_col + 1];
        if (numbers_whole(cell, strlen(cell), &x))
            parse_add_record(r, x, NULL, 0);
        else
            parse_ignore_value(r, NULL);
        break;
    }
    default:
        break;
    }
}

/* A run that started and did not converge: a run_stop whose status is not
 * "success", or none before the next run_start or the end of the log.
 * MLPerf scores it as the slowest run ("non_converged": "worst": an
 * infinite time, which a trimmed mean may drop); otherwise it is ignored. */
void parse_mllog_not_converged(run *r)
{
    r->have_start = 0;
    if (r->c->non_converged == PR_NONCONV_WORST) {
        r->nonconv++;
        parse_add_record(r, INFINITY, NULL, 0);
    } else {
        parse_ignore_value(r, NULL);
    }
}

/* ":::MLLOG {json}" anywhere in the line; time to train is run_stop minus
 * the run_start before it, in minutes.  A run_stop whose status is not
 * "success" is not a time to train; one without a run_start is ignored. */
void parse_mllog_line(run *r, const char *text, size_t len)
{
    const char *q = memmem(text, len, ":::MLLOG", 8);
    if (!q || !memmem(q, len - (size_t)(q - text), "\"run_st", 7))
        return;
    q += 8;
    json_t *o = json_loadb(q, len - (size_t)(q - text), 0, NULL);
    const char *key = json_string_value(json_object_get(o, "key"));
    json_t *tm = json_object_get(o, "time_ms");
    if (!key || !json_is_number(tm)) {
        json_decref(o);
        return;
    }
    double t = json_number_value(tm);
    if (strcmp(key, "run_start") == 0) {
        if (r->have_start)
            parse_mllog_not_converged(r);
        r->start_ms = t;
        r->have_start = 1;
    } else if (strcmp(key, "run_stop") == 0) {
        const char *status =
            json_string_value(json_object_get(json_object_get(o, "metadata"), "status"));
        if (!r->have_start)
            parse_ignore_value(r, NULL);
        else if (!status || strcmp(status, "success") == 0)
            parse_add_record(r, (t - r->start_ms) / 60000.0, NULL, 0);
        else
            parse_mllog_not_converged(r);
        r->have_start = 0;
    }
    json_decref(o);
}

/* Why a perfrepro-gpu run has no records, after "no records". */
void parse_gpu_why_none(const run *r, pr_buf *d)
{
    const parse_state *g = &r->g;
    if (g->tables == 0) {
        pr_buf_puts(d, ": no perfrepro-gpu bandwidth or GEMM table (a \"#  size ...\" or "
                       "\"#  M  N  K ...\" column line under a line of group names, over a "
                       "units line)");
        return;
    }
    if (!g->have_first) {
        if (g->tables == 1)
            pr_buf_printf(d, ": the table has no variant \"%s\" (its variants:", r->c->variant);
        else
            pr_buf_printf(d,
                          ": none of the %llu tables has variant \"%s\" (the first one's "
                          "variants:",
                          g->tables, r->c->variant);
        for (int i = 0; i < g->novar.ngroups; i++)
            pr_buf_printf(d, "%s %s", i ? "," : "", g->novar.names[i]);
        pr_buf_puts(d, ")");
        return;
    }
    pr_buf_printf(d, ": every \"%s\" cell is N/A (%llu row%s)", g->var_name, r->ignored,
                  r->ignored == 1 ? "" : "s");
}

/* A run's records must be in one unit, the same in every run. */
int parse_gpu_check_unit(const run *r, pr_buf *d)
{
    const parse_state *g = &r->g;
    kase *k = r->k;
    if (g->unit_mixed) {
        pr_buf_printf(d,
                      "the log's tables are in %s and in %s: one rule reads one kind of "
                      "table (\"variant\" chooses one)",
                      g->first.unit, g->mixed_unit);
        return -1;
    }
    if (!k->gpu_unit[0]) {
        strcpy(k->gpu_unit, g->first.unit);
    } else if (strcmp(k->gpu_unit, g->first.unit) != 0) {
        pr_buf_printf(d, "its table is in %s, an earlier run's in %s", g->first.unit, k->gpu_unit);
        return -1;
    }
    return 0;
}

/* metrics.table: the first table holding the variant, every group, N/A as
 * null; rows by size in bytes or by shape "MxNxK". */
json_t *parse_gpu_table_json(const parse_state *g)
{
    const parse_table *t = &g->first;
    json_t *cols = json_array(), *rows = json_array();
    for (int i = 0; i < t->ngroups; i++)
        json_array_append_new(cols, json_string(t->names[i]));
    for (size_t j = 0; j < g->nrows; j++) {
        const unsigned long long *x = g->tx + 3 * j;
        const double *v = g->tv + GPU_MAX_GROUPS * j;
        json_t *row;
        if (t->shape) {
            char shape[80];
            snprintf(shape, sizeof shape, "%llux%llux%llu", x[0], x[1], x[2]);
            row = json_pack("[s]", shape);
        } else {
            row = json_pack("[I]", (json_int_t)x[0]);
        }
        for (int i = 0; i < t->ngroups; i++)
            json_array_append_new(row, isnan(v[i]) ? json_null() : json_real(v[i]));
        json_array_append_new(rows, row);
    }
    json_t *o = json_pack("{s:s,s:s,s:o,s:o}", "x", t->shape ? "shape" : "bytes", "unit", t->unit,
                          "columns", cols, "rows", rows);
    if (g->have_peak)
        json_object_set_new(o, "peak", json_real(g->peak));
    return o;
}

/* The unit of a case whose logs hold no table: what perfrepro-gpu's own
 * group names measure. */
const char *parse_gpu_guess_unit(const char *variant)
{
    static const char *const gemm[] = {"fp32", "tf32", "fp16", "bf16", "fp8", NULL};
    return variant && pr_record_str_in(variant, gemm) ? "TFLOP/s" : "GB/s";
}
