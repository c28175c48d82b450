#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "logscan.h"
#include "numbers.h"
#include "stats.h"

/* Above this many used records the case-wide median in stats is left out,
 * so that the mean and last reducers run in bounded memory (4 MiB). */
#define KEEP_FOR_STATS ((size_t)1 << 19)
#define NCCL_MAX_COLS 32

/* perfrepro-gpu tables: at most this many column groups and cells in a row,
 * and this long a group or column name. */
enum { GPU_MAX_GROUPS = 16, GPU_MAX_COLS = 64, GPU_NAME_MAX = 32 };

/* The header of one perfrepro-gpu bandwidth or GEMM table. */
typedef struct gpu_table {
    int ngroups;
    char names[GPU_MAX_GROUPS][GPU_NAME_MAX];
    int shape;                /* rows by M N K (GEMM), else by size in bytes */
    int ncols;                /* cells in a row */
    int xcol[3];              /* the size's column, or M's, N's and K's */
    int rate[GPU_MAX_GROUPS]; /* each group's rate column */
    char unit[GPU_NAME_MAX];  /* the rate column's name: GB/s or TFLOP/s */
} gpu_table;

/* Reading perfrepro-gpu tables: the header being read, and what the run
 * keeps of the first table holding the rule's variant (metrics.table). */
typedef struct gpu_state {
    gpu_table cand;  /* the last "#" line's words: the group line, maybe */
    gpu_table cur;   /* the current table's header */
    int state;       /* 0 no table, 1 column line read (units next), 2 rows */
    int var;         /* the variant's group in cur; -1: cur lacks it */
    unsigned long long tables, missing; /* headers read; those without the variant */
    gpu_table novar; /* the first table without the variant (failure detail) */
    gpu_table first; /* the first table with it: metrics.table, the unit */
    int have_first, collect, unit_mixed;
    char mixed_unit[GPU_NAME_MAX];
    char var_name[GPU_NAME_MAX];          /* the variant read (the default's name) */
    unsigned long long *tx;               /* the collected rows: 3 x values each */
    double *tv;                           /* and ngroups rates (NAN: N/A) */
    size_t nrows, caprows;
    double peak_pending, peak;            /* "# Theoretical peak : X GB/s" */
    int have_peak_pending, have_peak;
} gpu_state;

/* ---- one run: the records of one log (or of all parts of one log) ---- */

typedef struct run {
    const pr_rule *rule;
    const pr_rule_cfg *c;
    size_t kw_len, lf_len, bk_len; /* strlen of keyword, line_filter, batch_keyword */
    unsigned long long seen, ignored, skipped, used, other_rank;
    double sum, last, max, min;
    /* the first line whose value was not a clean number (failure detail) */
    unsigned long long lineno, bad_line;
    char bad_text[40];
    /* dllogger: lines with the metric whose step the rule does not take, by
     * their kind (pr_step: iteration, epoch, summary) */
    unsigned long long other_step[3];
    double *v; /* used values, when the reducer needs them */
    size_t nv, capv;
    /* global batch read from record lines (batch_keyword) */
    double gbs;
    int gbs_state; /* 0 none yet, 1 all equal, 2 differing */
    unsigned long long gbs_missing;
    /* nccl-tests: the columns of the last table header, and the first
     * placement's value by message size (for bandwidth-versus-size charts) */
    int nccl_ncols, nccl_col[2];
    double *sx, *sy;
    size_t ns, caps;
    /* mxnet-summary */
    int tbl_state, tbl_col;
    unsigned long long tables;
    /* mllog */
    int have_start;
    double start_ms;
    unsigned long long nonconv, nonconv_used; /* runs that did not converge */
    gpu_state g; /* perfrepro-gpu */
    pr_logscan_stats scan;
    /* the case, for values kept across runs */
    struct kase *k;
    /* pr_parse_scan: every value read goes to list too; the line's DLLogger
     * step (PR_SCAN_NO_STEP for other formats), and the rank of a line of
     * another rank read only for the list (-1: a line this rule reads) */
    struct reclist *list;
    int cur_step, probe_rank;
    unsigned part; /* which log of the run is being read (files: parts) */
    pr_run_trace *trace; /* pr_parse_reduce: how finish_run got the value */
} run;

/* pr_parse_scan's records of one run, in log order. */
typedef struct reclist {
    pr_scan_rec *v;
    size_t n, cap;
    pr_buf *text; /* the scan's texts of values that are not clean numbers */
} reclist;

typedef struct kase {
    const pr_parse_args *args;
    double *all; /* used values of every run, for the median in stats */
    size_t nall, capall;
    int all_dropped;
    double sum, min, max;
    unsigned long long used;
    char gpu_unit[GPU_NAME_MAX]; /* perfrepro-gpu: the unit of the first run's records */
} kase;

static void push(double **v, size_t *n, size_t *cap, double x)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 256;
        *v = pr_xrealloc(*v, *cap * sizeof **v);
    }
    (*v)[(*n)++] = x;
}

static int per_step(pr_value_kind v)
{
    return v == PR_VALUE_SECONDS_PER_STEP || v == PR_VALUE_MS_PER_STEP ||
           v == PR_VALUE_STEPS_PER_SECOND;
}

/* Appends what was read on the current line to the scan's list. */
static void list_add(run *r, int kind, double x, int batch_read, double b, const char *val)
{
    reclist *l = r->list;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = pr_xrealloc(l->v, l->cap * sizeof *l->v);
    }
    pr_scan_rec *e = &l->v[l->n++];
    memset(e, 0, sizeof *e);
    e->lineno = r->lineno;
    e->value = x;
    e->batch = b;
    e->rank = r->probe_rank;
    e->part = r->part;
    e->kind = (unsigned char)kind;
    e->step = (unsigned char)r->cur_step;
    e->batch_read = (unsigned char)batch_read;
    if (val) {
        /* what ignore_value keeps of it, so that a replay keeps the same */
        e->text = l->text->len + 1;
        pr_buf_put(l->text, val, strnlen(val, sizeof r->bad_text - 1));
        pr_buf_putc(l->text, '\0');
    }
}

/* A number that add_record found counted: ignored, skipped or used
 * (pr_rec_status).  batch_read: the record's line may give the global batch
 * (b, NAN when it does not). */
static int count_record(run *r, double x, int batch_read, double b)
{
    const pr_rule_cfg *c = r->c;
    /* A step time of 0 or a negative rate is a broken record, not data. */
    if ((c->value != PR_VALUE_RAW && x < 0) ||
        ((c->value == PR_VALUE_SECONDS_PER_STEP || c->value == PR_VALUE_MS_PER_STEP) && x <= 0)) {
        r->ignored++;
        return PR_REC_IGNORED;
    }
    r->seen++;
    if (r->seen <= (unsigned long long)c->skip) {
        r->skipped++;
        return PR_REC_SKIPPED;
    }
    if (batch_read) {
        if (!isnan(b)) {
            if (r->gbs_state == 0) {
                r->gbs = b;
                r->gbs_state = 1;
            } else if (b != r->gbs) {
                r->gbs_state = 2;
            }
        } else {
            r->gbs_missing++;
        }
    }
    r->used++;
    r->sum += x;
    r->last = x;
    if (r->used == 1 || x > r->max)
        r->max = x;
    if (r->used == 1 || x < r->min)
        r->min = x;
    if (c->reduce == PR_REDUCE_MEDIAN || c->reduce == PR_REDUCE_TRIMMED_MEAN)
        push(&r->v, &r->nv, &r->capv, x);
    /* A run that did not converge is a record (the slowest) but has no
     * time: the case's min, max, mean and median describe the others. */
    if (isinf(x)) {
        r->nonconv_used++;
        return PR_REC_USED;
    }
    kase *k = r->k;
    if (k->used == 0 || x < k->min)
        k->min = x;
    if (k->used == 0 || x > k->max)
        k->max = x;
    k->used++;
    k->sum += x;
    if (!k->all_dropped) {
        if (k->nall < KEEP_FOR_STATS) {
            push(&k->all, &k->nall, &k->capall, x);
        } else {
            free(k->all);
            k->all = NULL;
            k->nall = k->capall = 0;
            k->all_dropped = 1;
        }
    }
    return PR_REC_USED;
}

/* One number found: counts it, skips it or keeps it.  line is the record's
 * line when a global batch may be read from it (NULL otherwise). */
static void add_record(run *r, double x, const char *line, size_t len)
{
    const pr_rule_cfg *c = r->c;
    int batch_read = line && c->batch_keyword;
    double b = NAN;
    if (batch_read && (pr_num_after(line, len, c->batch_keyword, r->bk_len, c->thousands, &b,
                                    NULL) != PR_NUM_FOUND ||
                       !(b > 0)))
        b = NAN;
    if (r->list) {
        list_add(r, PR_SCAN_NUMBER, x, batch_read, b, NULL);
        if (r->probe_rank >= 0)
            return; /* another rank's line: listed, not counted */
    }
    count_record(r, x, batch_read, b);
}

/* A value that is not a clean number ("ips: None", "1,234.5", "12 345"):
 * counted, and the first one kept for the failure detail; with val NULL, a
 * value ignored without a text to quote (an N/A cell, a run that did not
 * converge). */
static void ignore_value(run *r, const char *val)
{
    if (r->list) {
        list_add(r, val ? PR_SCAN_NOT_CLEAN : PR_SCAN_IGNORED, NAN, 0, NAN, val);
        if (r->probe_rank >= 0)
            return;
    }
    r->ignored++;
    if (r->bad_line || !val)
        return;
    r->bad_line = r->lineno;
    size_t n = 0;
    for (; val[n] && n < sizeof r->bad_text - 1; n++) {
        unsigned char ch = (unsigned char)val[n];
        r->bad_text[n] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
    }
    while (n && r->bad_text[n - 1] == ' ')
        n--;
    r->bad_text[n] = '\0';
}

/* The value keyword or match finds in text: PR_NUM_NONE, PR_NUM_FOUND with
 * *x set, or PR_NUM_BAD with *val at the text that is no number (NULL when
 * the pattern could not be run). */
static int line_value(run *r, const char *text, size_t len, double *x, const char **val)
{
    const pr_rule_cfg *c = r->c;
    *val = NULL;
    if (c->keyword)
        return pr_num_after(text, len, c->keyword, r->kw_len, c->thousands, x, val);
    const char *cap;
    size_t cap_len;
    int edges = 0;
    int m = pr_rule_regex(r->rule, text, len, &cap, &cap_len, &edges);
    if (m < 0)
        return PR_NUM_BAD;
    if (m == 0)
        return PR_NUM_NONE;
    *val = cap;
    return pr_num_capture(text, cap, cap_len, edges, c->thousands, x) ? PR_NUM_FOUND
                                                                       : PR_NUM_BAD;
}

/* keyword or match on text; counts what it finds. */
static void extract(run *r, const char *text, size_t len, const char *line, size_t line_len)
{
    double x;
    const char *val;
    int kv = line_value(r, text, len, &x, &val);
    if (kv == PR_NUM_BAD)
        ignore_value(r, val);
    else if (kv == PR_NUM_FOUND)
        add_record(r, x, line, line_len);
}

/* A DLLogger step's kind (pr_step) by its number groups: two or more an
 * iteration, one an epoch, none a summary; a step labelled "Iteration" (TF
 * BERT prints "Iteration: N" alone) is an iteration whatever its count. */
static pr_step step_kind(int components, int labelled_iteration)
{
    if (labelled_iteration || components >= 2)
        return PR_STEP_ITERATION;
    return components == 1 ? PR_STEP_EPOCH : PR_STEP_SUMMARY;
}

/* Whether the rule takes a line of this kind; when not, a line that holds
 * the metric is counted for the failure detail. */
static int step_wanted(run *r, pr_step got, int has_metric)
{
    if (r->c->step == PR_STEP_ANY || r->c->step == got)
        return 1;
    if (has_metric)
        r->other_step[got]++;
    return 0;
}

/* "DLLL {json}": the step is an array ([epoch, iteration], [epoch], []), an
 * iteration count or "PARAMETER"; the metric is data[keyword]. */
static void dllogger_json(run *r, char *text, size_t len)
{
    const pr_rule_cfg *c = r->c;
    json_t *o = json_loadb(text + 5, len - 5, 0, NULL);
    if (!json_is_object(o)) {
        if (c->keyword && strstr(text, c->keyword))
            ignore_value(r, NULL);
        json_decref(o);
        return;
    }
    json_t *step = json_object_get(o, "step");
    /* A bare integer is an iteration count (TF BERT's "Iteration: N" on
     * stdout); an array tells its kind by its length. */
    pr_step kind = json_is_integer(step) ? PR_STEP_ITERATION
                   : step_kind(json_is_array(step) ? (int)json_array_size(step) : 0, 0);
    if (!json_is_string(step))
        r->cur_step = (int)kind;
    int has_metric = 0;
    if (!json_is_string(step) && c->step != PR_STEP_ANY && c->step != kind) {
        double x;
        const char *val;
        has_metric = c->keyword ? json_is_number(json_object_get(json_object_get(o, "data"),
                                                                 c->keyword))
                                : line_value(r, text, len, &x, &val) == PR_NUM_FOUND;
    }
    if (!json_is_string(step) && step_wanted(r, kind, has_metric)) {
        if (c->keyword) {
            json_t *val = json_object_get(json_object_get(o, "data"), c->keyword);
            if (json_is_number(val))
                add_record(r, json_number_value(val), NULL, 0);
            else if (val)
                ignore_value(r, NULL);
        } else {
            extract(r, text, len, NULL, 0);
        }
    }
    json_decref(o);
}

/* "DLL <date> <time> - <step> key : value unit key : value ...".  The step
 * is what comes before the first key: "Epoch: 0 Iteration: 2", "(0, 200)",
 * "Iteration: 2", "Epoch: 0", "Summary:", "", "PARAMETER" (step_kind). */
static void dllogger_text(run *r, char *text, size_t len)
{
    char *body = memmem(text + 4, len - 4, " - ", 3);
    if (!body)
        return;
    body += 3;
    size_t blen = len - (size_t)(body - text);
    if (strncmp(body, "PARAMETER", 9) == 0)
        return;
    const char *colon = strstr(body, " : ");
    if (!colon)
        return;
    const char *key = colon;
    while (key > body && key[-1] == ' ')
        key--;
    while (key > body && !isspace((unsigned char)key[-1]))
        key--;
    int groups = 0, labelled = 0;
    for (const char *p = body; p < key; p++)
        if (isdigit((unsigned char)*p) && (p == body || !isdigit((unsigned char)p[-1])))
            groups++;
    for (const char *p = body; (p = pr_num_find(p, (size_t)(key - p), "Iteration", 9)); p += 9)
        if ((p == body || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[9]))
            labelled = 1;
    pr_step kind = step_kind(groups, labelled);
    r->cur_step = (int)kind;
    int has_metric = 0;
    if (r->c->step != PR_STEP_ANY && r->c->step != kind) {
        double x;
        const char *val;
        has_metric = line_value(r, body, blen, &x, &val) == PR_NUM_FOUND;
    }
    if (!step_wanted(r, kind, has_metric))
        return;
    extract(r, body, blen, body, blen);
}

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

static void nccl_row(run *r, char *text, size_t len)
{
    static const char *const col_names[] = {"busbw", "algbw", "time"};
    const pr_rule_cfg *c = r->c;
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
        if (pr_num_whole(tok[i], strlen(tok[i]), &x)) {
            add_record(r, x, NULL, 0);
            unsigned long long size;
            if (!charted++ && pr_num_count(tok[0], &size))
                series_add(r, size, x);
        } else {
            ignore_value(r, NULL);
        }
    }
}

static int gpu_group(const gpu_table *t, const char *name)
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
static void gpu_names(gpu_table *t, char *const *tok, int n)
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
static int gpu_columns(gpu_table *t, const gpu_table *groups, char *const *tok, int n)
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
            int d = strcmp(tok[i], "M") == 0 ? 0 : strcmp(tok[i], "N") == 0 ? 1
                    : strcmp(tok[i], "K") == 0 ? 2 : -1;
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

static int gpu_same_columns(const gpu_table *a, const gpu_table *b)
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
    gpu_state *g = &r->g;
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
    gpu_state *g = &r->g;
    const gpu_table *t = &g->cur;
    char *tok[GPU_MAX_COLS];
    if (split_ws(p, tok, GPU_MAX_COLS) != t->ncols)
        return;
    unsigned long long x[3] = {0, 0, 0};
    for (int i = 0; i < (t->shape ? 3 : 1); i++)
        if (!pr_num_count(tok[t->xcol[i]], &x[i]) || (t->shape && x[i] == 0))
            return; /* a line of another shape (a matrix has no empty side) */
    double v[GPU_MAX_GROUPS];
    for (int i = 0; i < t->ngroups; i++) {
        const char *cell = tok[t->rate[i]];
        /* N/A: the kernel or precision did not run; a negative rate is no rate */
        if (!pr_num_whole(cell, strlen(cell), &v[i]) || v[i] < 0)
            v[i] = NAN;
    }
    if (g->var >= 0) {
        if (isnan(v[g->var]))
            ignore_value(r, NULL);
        else
            add_record(r, v[g->var], NULL, 0);
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

/* perfrepro-gpu's bandwidth and GEMM tables (measure/gpuhost.c):
 *   #                           copy                               read
 *   #       size     time      GB/s   %peak  #wrong     time      GB/s ...
 *   #        (B)     (us)    (GB/s)     (%)             (us)    (GB/s) ...
 *        1048576     5.20    403.30    12.0       0     3.10    338.20 ...
 * a group line (the "#" line just before the column line), the column line
 * (size, or M N K, then the groups), the units line, one row per size or
 * shape.  Columns are found by name, so their order may change. */
static void gpu_line(run *r, char *text, size_t len)
{
    gpu_state *g = &r->g;
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
    int kv = pr_num_after(text, len, "# Theoretical peak", 18, 0, &peak, NULL);
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
static void mxnet_table(run *r, char *text)
{
    const pr_rule_cfg *c = r->c;
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
        if (pr_num_whole(cell, strlen(cell), &x))
            add_record(r, x, NULL, 0);
        else
            ignore_value(r, NULL);
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
static void mllog_not_converged(run *r)
{
    r->have_start = 0;
    if (r->c->non_converged == PR_NONCONV_WORST) {
        r->nonconv++;
        add_record(r, INFINITY, NULL, 0);
    } else {
        ignore_value(r, NULL);
    }
}

/* ":::MLLOG {json}" anywhere in the line; time to train is run_stop minus
 * the run_start before it, in minutes.  A run_stop whose status is not
 * "success" is not a time to train; one without a run_start is ignored. */
static void mllog_line(run *r, const char *text, size_t len)
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
            mllog_not_converged(r);
        r->start_ms = t;
        r->have_start = 1;
    } else if (strcmp(key, "run_stop") == 0) {
        const char *status =
            json_string_value(json_object_get(json_object_get(o, "metadata"), "status"));
        if (!r->have_start)
            ignore_value(r, NULL);
        else if (!status || strcmp(status, "success") == 0)
            add_record(r, (t - r->start_ms) / 60000.0, NULL, 0);
        else
            mllog_not_converged(r);
        r->have_start = 0;
    }
    json_decref(o);
}

static int on_line(const pr_logline *l, void *vr, pr_err *err)
{
    (void)err;
    run *r = vr;
    const pr_rule_cfg *c = r->c;
    r->lineno = l->lineno;
    r->cur_step = PR_SCAN_NO_STEP;
    r->probe_rank = -1;
    if (c->rank >= 0 && l->rank >= 0 && l->rank != c->rank) {
        r->other_rank++;
        /* pr_parse_scan lists the records of other ranks' lines (not
         * counted); only line formats are read so, as tables keep state */
        if (!r->list || c->source != PR_SOURCE_RECORDS)
            return 0;
        r->probe_rank = l->rank;
    }
    switch (c->source) {
    case PR_SOURCE_RECORDS:
        if (c->line_filter && !pr_num_find(l->text, l->len, c->line_filter, r->lf_len))
            return 0;
        if (c->profile == PR_PROFILE_DLLOGGER) {
            if (l->len >= 5 && memcmp(l->text, "DLLL ", 5) == 0)
                dllogger_json(r, l->text, l->len);
            else if (l->len >= 4 && memcmp(l->text, "DLL ", 4) == 0)
                dllogger_text(r, l->text, l->len);
            return 0;
        }
        extract(r, l->text, l->len, l->text, l->len);
        return 0;
    case PR_SOURCE_AVG_BUSBW: {
        double x;
        const char *val;
        int kv = pr_num_after(l->text, l->len, "# Avg bus bandwidth", 19, 0, &x, &val);
        if (kv == PR_NUM_FOUND)
            add_record(r, x, NULL, 0);
        else if (kv == PR_NUM_BAD)
            ignore_value(r, val);
        return 0;
    }
    case PR_SOURCE_ROWS:
        if (c->profile == PR_PROFILE_PERFREPRO_GPU)
            gpu_line(r, l->text, l->len);
        else
            nccl_row(r, l->text, l->len);
        return 0;
    case PR_SOURCE_TIME_TO_TRAIN:
        mllog_line(r, l->text, l->len);
        return 0;
    case PR_SOURCE_SUMMARY_TABLE:
        mxnet_table(r, l->text);
        return 0;
    }
    return 0;
}

/* ---- reducing and combining ---- */

static const char *resolve_unit(const pr_rule_cfg *c, const pr_parse_args *a)
{
    if (a->unit)
        return a->unit;
    if (c->unit)
        return c->unit;
    return c->value == PR_VALUE_RAW ? NULL : "samples/s";
}

static int is_tokens(const char *unit) { return unit && strncmp(unit, "tokens", 6) == 0; }

int pr_parse_check_args(const pr_rule *rule, const pr_parse_args *a, pr_err *err)
{
    const pr_rule_cfg *c = pr_rule_get(rule);
    const char *unit = resolve_unit(c, a);
    /* perfrepro-gpu's tables name their unit (GB/s, TFLOP/s) */
    if (!unit && c->profile != PR_PROFILE_PERFREPRO_GPU)
        return pr_err_set(err, NULL, 0, 0, "unit",
                          "raw values have no unit of their own: give \"unit\" in the rule or "
                          "--unit");
    if (c->scope == PR_SCOPE_PER_CARD && a->gpus <= 0)
        return pr_err_set(err, NULL, 0, 0, "--gpus",
                          "needed: the rule's scope is per_card (the log's value is multiplied "
                          "by the GPU count)");
    if (per_step(c->value) && !c->batch_keyword) {
        if (a->batch_size <= 0)
            return pr_err_set(err, NULL, 0, 0, "--batch-size",
                              "needed: %s values are converted with batch size x GPUs",
                              pr_value_name(c->value));
        if (a->gpus <= 0)
            return pr_err_set(err, NULL, 0, 0, "--gpus",
                              "needed: %s values are converted with batch size x GPUs",
                              pr_value_name(c->value));
    }
    if (per_step(c->value) && is_tokens(unit) && a->seq_len <= 0)
        return pr_err_set(err, NULL, 0, 0, "--seq-len",
                          "needed: the unit is %s, so samples per step are multiplied by the "
                          "sequence length",
                          unit);
    if (c->source == PR_SOURCE_SUMMARY_TABLE && (a->gpus <= 0 || a->batch_size <= 0))
        return pr_err_set(err, NULL, 0, 0, a->gpus <= 0 ? "--gpus" : "--batch-size",
                          "needed: the summary table has one row per GPU count and one column "
                          "per batch size");
    return 0;
}

void pr_parse_result_init(pr_parse_result *res) { memset(res, 0, sizeof *res); }

void pr_parse_result_clear(pr_parse_result *res)
{
    free(res->fail_detail);
    free(res->unit);
    json_decref(res->stats);
    json_decref(res->metrics);
    pr_parse_result_init(res);
}

/* json_real gives NULL for inf and NaN, and json_object_set_new(o, k, NULL)
 * silently drops the key: a statistic that overflowed is null instead. */
static json_t *jreal(double x) { return isfinite(x) ? json_real(x) : json_null(); }

static void fail(pr_parse_result *res, const char *reason, pr_buf *detail)
{
    if (res->failed)
        return; /* the first failing run names the case's failure */
    res->failed = 1;
    res->fail_reason = reason;
    res->fail_detail = pr_buf_detach(detail);
}

/* Why a perfrepro-gpu run has no records, after "no records". */
static void gpu_why_none(const run *r, pr_buf *d)
{
    const gpu_state *g = &r->g;
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
            pr_buf_printf(d, ": none of the %llu tables has variant \"%s\" (the first one's "
                             "variants:", g->tables, r->c->variant);
        for (int i = 0; i < g->novar.ngroups; i++)
            pr_buf_printf(d, "%s %s", i ? "," : "", g->novar.names[i]);
        pr_buf_puts(d, ")");
        return;
    }
    pr_buf_printf(d, ": every \"%s\" cell is N/A (%llu row%s)", g->var_name, r->ignored,
                  r->ignored == 1 ? "" : "s");
}

/* A run's records must be in one unit, the same in every run. */
static int gpu_check_unit(const run *r, pr_buf *d)
{
    const gpu_state *g = &r->g;
    kase *k = r->k;
    if (g->unit_mixed) {
        pr_buf_printf(d, "the log's tables are in %s and in %s: one rule reads one kind of "
                         "table (\"variant\" chooses one)",
                      g->first.unit, g->mixed_unit);
        return -1;
    }
    if (!k->gpu_unit[0]) {
        strcpy(k->gpu_unit, g->first.unit);
    } else if (strcmp(k->gpu_unit, g->first.unit) != 0) {
        pr_buf_printf(d, "its table is in %s, an earlier run's in %s", g->first.unit,
                      k->gpu_unit);
        return -1;
    }
    return 0;
}

/* metrics.table: the first table holding the variant, every group, N/A as
 * null; rows by size in bytes or by shape "MxNxK". */
static json_t *gpu_table_json(const gpu_state *g)
{
    const gpu_table *t = &g->first;
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
    json_t *o = json_pack("{s:s,s:s,s:o,s:o}", "x", t->shape ? "shape" : "bytes", "unit",
                          t->unit, "columns", cols, "rows", rows);
    if (g->have_peak)
        json_object_set_new(o, "peak", json_real(g->peak));
    return o;
}

/* The unit of a case whose logs hold no table: what perfrepro-gpu's own
 * group names measure. */
static const char *gpu_guess_unit(const char *variant)
{
    static const char *const gemm[] = {"fp32", "tf32", "fp16", "bf16", "fp8", NULL};
    return variant && pr_str_in(variant, gemm) ? "TFLOP/s" : "GB/s";
}

/* Why values were ignored, after their count: the first one, and the
 * "thousands" key when it looks like grouped digits. */
static void why_ignored(const run *r, pr_buf *d)
{
    if (!r->bad_line)
        return;
    pr_buf_printf(d, "; the first, line %llu: \"%s\"", r->bad_line, r->bad_text);
    const char *t = r->bad_text;
    for (size_t i = 1; !r->c->thousands && t[0] && t[i] && t[i + 1]; i++)
        if (isdigit((unsigned char)t[i - 1]) && strchr(",' _", t[i]) &&
            isdigit((unsigned char)t[i + 1])) {
            pr_buf_puts(d, "; digits grouped by a separator are read only when the rule names "
                           "it (\"thousands\": \",\")");
            break;
        }
}

/* Lines with the metric that the rule's "step" left out, by their kind and
 * the "step" that takes them. */
static void why_other_step(const run *r, pr_buf *d)
{
    static const char *const kinds[] = {"iteration", "epoch", "summary", "any"};
    unsigned long long n = r->other_step[0] + r->other_step[1] + r->other_step[2];
    if (!n)
        return;
    pr_buf_printf(d, "; %llu line%s with the metric left out by \"step\": \"%s\" (", n,
                  n == 1 ? "" : "s", kinds[r->c->step]);
    const char *sep = "";
    for (int k = 0; k < 3; k++) {
        if (!r->other_step[k])
            continue;
        pr_buf_printf(d, "%s%llu %s line%s: \"step\": \"%s\" takes %s", sep, r->other_step[k],
                      kinds[k], r->other_step[k] == 1 ? "" : "s", kinds[k],
                      r->other_step[k] == 1 ? "it" : "them");
        sep = "; ";
    }
    pr_buf_puts(d, ")");
}

/* A run's failure: the case's, when it is the first (fail takes detail's
 * storage then), and the trace's (a copy the trace owns). */
static void run_fail(run *r, pr_parse_result *res, const char *reason, pr_buf *detail)
{
    if (r->trace) {
        r->trace->failed = 1;
        r->trace->reason = reason;
        free(r->trace->detail);
        r->trace->detail = pr_xstrdup(pr_buf_cstr(detail));
    }
    fail(res, reason, detail);
}

/* Reduces one run to its value.  Returns 0 with *out set, or -1 after
 * recording the failure in res. */
static int finish_run(run *r, const char *what, const pr_parse_args *a, const char *unit,
                      pr_parse_result *res, json_t *stats, double *out)
{
    const pr_rule_cfg *c = r->c;
    int rc = -1;
    pr_buf d = PR_BUF_INIT;
    pr_buf_printf(&d, "%s: ", what);
    int gpu = c->profile == PR_PROFILE_PERFREPRO_GPU;
    if (r->seen == 0) {
        pr_buf_printf(&d, "no records");
        if (gpu)
            gpu_why_none(r, &d);
        else if (r->ignored) {
            pr_buf_printf(&d, " (%llu matching line%s without a clean number", r->ignored,
                          r->ignored == 1 ? "" : "s");
            why_ignored(r, &d);
            pr_buf_puts(&d, ")");
        }
        why_other_step(r, &d);
        if (c->source == PR_SOURCE_SUMMARY_TABLE)
            pr_buf_printf(&d, " (%llu \"%s\" table%s; no cell for %d GPUs x batch %d)",
                          r->tables, c->table, r->tables == 1 ? "" : "s", a->gpus,
                          a->batch_size);
        run_fail(r, res, "no_records", &d);
        goto out;
    }
    if (gpu && gpu_check_unit(r, &d) < 0) {
        run_fail(r, res, "parse_error", &d);
        goto out;
    }
    if (r->used < (unsigned long long)c->min_records) {
        pr_buf_printf(&d, "%llu record%s, %llu left after skipping %lld; min_records is %lld",
                      r->seen, r->seen == 1 ? "" : "s", r->used, c->skip, c->min_records);
        if (r->ignored) {
            pr_buf_printf(&d, "; %llu matching line%s without a clean number", r->ignored,
                          r->ignored == 1 ? "" : "s");
            why_ignored(r, &d);
        }
        why_other_step(r, &d);
        run_fail(r, res, "too_few_records", &d);
        goto out;
    }
    double x = 0;
    switch (c->reduce) {
    case PR_REDUCE_MEAN:
        x = r->sum / (double)r->used;
        break;
    case PR_REDUCE_LAST:
        x = r->last;
        break;
    case PR_REDUCE_MAX:
        x = r->max;
        break;
    case PR_REDUCE_MIN:
        x = r->min;
        break;
    case PR_REDUCE_BEST: /* the fastest: the shortest step, the highest rate */
        x = c->value == PR_VALUE_SECONDS_PER_STEP || c->value == PR_VALUE_MS_PER_STEP ? r->min
                                                                                     : r->max;
        break;
    case PR_REDUCE_MEDIAN:
        x = pr_stats_median(r->v, r->nv);
        break;
    case PR_REDUCE_TRIMMED_MEAN: {
        pr_err e;
        size_t dropped = 0;
        if (pr_stats_trimmed_mean(r->v, r->nv, c->trim_fraction, (size_t)c->trim_min, &x,
                                  &dropped, &e) < 0) {
            pr_buf_printf(&d, "%llu record%s after skipping %lld: %s", r->used,
                          r->used == 1 ? "" : "s", c->skip, e.msg);
            run_fail(r, res, "too_few_records", &d);
            goto out;
        }
        if (r->trace)
            r->trace->trim_each = pr_stats_trim_count((size_t)r->used, c->trim_fraction,
                                                      (size_t)c->trim_min);
        json_t *t = json_object_get(stats, "trimmed");
        json_integer_set(t, json_integer_value(t) + (json_int_t)dropped);
        break;
    }
    }
    if (r->trace)
        r->trace->reduced = x;
    if (isinf(x) && r->nonconv_used) {
        /* MLPerf: too many runs that did not converge, and there is no score */
        pr_buf_printf(&d,
                      "%llu of %llu runs did not converge (no run_stop with status success; "
                      "\"non_converged\": \"worst\" scores them as the slowest): ",
                      r->nonconv_used, r->used);
        if (c->reduce == PR_REDUCE_TRIMMED_MEAN) {
            size_t drop =
                pr_stats_trim_count((size_t)r->used, c->trim_fraction, (size_t)c->trim_min);
            pr_buf_printf(&d, "the trimmed mean drops %zu from each end, so at most %zu may",
                          drop, drop);
        } else {
            pr_buf_puts(&d, "the reduced value is one of them (MLPerf's olympic mean is "
                            "\"reduce\": \"trimmed_mean\", \"trim\": {\"fraction\": 0, "
                            "\"min\": 1})");
        }
        run_fail(r, res, "too_few_records", &d);
        goto out;
    }
    if (c->value == PR_VALUE_THROUGHPUT && c->scope == PR_SCOPE_PER_CARD) {
        x *= a->gpus;
        if (r->trace)
            r->trace->gpus = a->gpus;
    }
    if (per_step(c->value)) {
        double s;
        if (r->gbs_state == 2 || (r->gbs_state == 1 && r->gbs_missing)) {
            pr_buf_printf(&d,
                          "the global batch size (\"%s\") is not the same on every used record "
                          "line; raise skip past the batch-size ramp-up",
                          c->batch_keyword);
            run_fail(r, res, "parse_error", &d);
            goto out;
        }
        if (r->gbs_state == 1) {
            s = r->gbs;
            if (r->trace)
                r->trace->batch_from_log = 1;
        } else {
            if (a->batch_size <= 0 || a->gpus <= 0) {
                pr_buf_printf(&d, "the log gives no global batch size (\"%s\"): give "
                                  "--batch-size and --gpus",
                              c->batch_keyword ? c->batch_keyword : "");
                run_fail(r, res, "parse_error", &d);
                goto out;
            }
            s = (double)a->batch_size * a->gpus;
        }
        if (is_tokens(unit))
            s *= a->seq_len;
        json_object_set_new(stats, "samples_per_step", jreal(s));
        if (r->trace)
            r->trace->samples_per_step = s;
        if (c->value == PR_VALUE_SECONDS_PER_STEP)
            x = s / x;
        else if (c->value == PR_VALUE_MS_PER_STEP)
            x = s * 1000.0 / x;
        else
            x = s * x;
    }
    if (r->trace)
        r->trace->before_round = x;
    if (c->round >= 0)
        x = pr_stats_round(x, c->round);
    /* Hardening (fuzz_parse): raw records may be negative (docs/parse-rules.md)
     * and sums or conversions may overflow, but a record's FINAL_RESULT must be
     * a finite number >= 0 or the case fails; printing -1 or dropping the key
     * (json_real(inf) is NULL) made a record gen refuses to load. */
    if (!isfinite(x) || x < 0) {
        pr_buf_printf(&d, "the value is %g: a result must be a finite number >= 0", x);
        run_fail(r, res, "parse_error", &d);
        goto out;
    }
    *out = x;
    if (r->trace)
        r->trace->value = x;
    rc = 0;
out:
    pr_buf_free(&d); /* fail() took it unless an earlier run failed first */
    return rc;
}

static void add_count(json_t *stats, const char *key, unsigned long long n)
{
    json_t *t = json_object_get(stats, key);
    json_integer_set(t, json_integer_value(t) + (json_int_t)n);
}

/* Reads logs[0..n) as one run (several only for "files": "parts").
 * Returns -1 with err set when a log cannot be read. */
static int read_run(run *r, const char *const *logs, size_t n, pr_err *err)
{
    for (size_t i = 0; i < n; i++) {
        r->part = (unsigned)i;
        if (pr_logscan_path(logs[i], on_line, r, &r->scan, err) < 0)
            return -1;
    }
    r->cur_step = PR_SCAN_NO_STEP;
    r->probe_rank = -1;
    if (r->c->source == PR_SOURCE_TIME_TO_TRAIN && r->have_start)
        mllog_not_converged(r); /* the log ends inside a run */
    return 0;
}

static void run_init(run *r, const pr_rule *rule, const pr_rule_cfg *c, kase *k)
{
    memset(r, 0, sizeof *r);
    r->rule = rule;
    r->c = c;
    r->k = k;
    r->kw_len = c->keyword ? strlen(c->keyword) : 0;
    r->lf_len = c->line_filter ? strlen(c->line_filter) : 0;
    r->bk_len = c->batch_keyword ? strlen(c->batch_keyword) : 0;
    r->cur_step = PR_SCAN_NO_STEP;
    r->probe_rank = -1;
}

/* Frees what a run read into memory (not r itself). */
static void run_free(run *r)
{
    free(r->sx);
    free(r->sy);
    free(r->v);
    free(r->g.tx);
    free(r->g.tv);
}

/* The runs of one case, reduced one after the other and combined. */
typedef struct case_acc {
    const pr_rule_cfg *c;
    const pr_parse_args *args;
    const char *unit;
    const char *const *logs;
    size_t nlogs, runs;
    json_t *stats, *per_run, *series, *table;
    const char *series_y; /* the series' column, for nccl-tests or perfrepro-gpu */
    char gpu_y[GPU_NAME_MAX], gpu_unit[GPU_NAME_MAX];
    kase k;
    double *vals;
    size_t nvals;
} case_acc;

static void case_open(case_acc *a, const pr_rule_cfg *c, const pr_parse_args *args,
                      const char *const *logs, size_t nlogs, pr_parse_result *res)
{
    memset(a, 0, sizeof *a);
    a->c = c;
    a->args = args;
    a->logs = logs;
    a->nlogs = nlogs;
    a->unit = resolve_unit(c, args);
    res->unit = pr_xstrdup(a->unit);
    a->stats = json_object();
    static const char *const counters[] = {"records_seen", "records_used", "skipped",
                                           "trimmed", "ignored", "lines", "bytes",
                                           "overlong_lines", "other_rank_lines", NULL};
    for (const char *const *k = counters; *k; k++)
        json_object_set_new(a->stats, *k, json_integer(0));
    if (c->profile == PR_PROFILE_DLLOGGER)
        json_object_set_new(a->stats, "other_step_lines", json_integer(0));
    if (c->source == PR_SOURCE_TIME_TO_TRAIN)
        json_object_set_new(a->stats, "non_converged", json_integer(0));
    a->per_run = json_array();
    a->k.args = args;
    a->runs = c->files == PR_FILES_PARTS ? 1 : nlogs;
    a->vals = pr_xcalloc(a->runs, sizeof *a->vals);
}

/* Run i, read (io 0) or not (io -1: a log could not be read, the case has
 * failed already): its counts, its value, the first run's table. */
static void case_add_run(case_acc *a, run *r, size_t i, int io, pr_parse_result *res)
{
    const pr_rule_cfg *c = a->c;
    json_t *stats = a->stats;
    add_count(stats, "records_seen", r->seen);
    add_count(stats, "records_used", r->used);
    add_count(stats, "skipped", r->skipped);
    add_count(stats, "ignored", r->ignored);
    add_count(stats, "lines", r->scan.lines);
    add_count(stats, "bytes", r->scan.bytes);
    add_count(stats, "overlong_lines", r->scan.overlong_lines);
    add_count(stats, "other_rank_lines", r->other_rank);
    if (c->profile == PR_PROFILE_DLLOGGER)
        add_count(stats, "other_step_lines", r->other_step[0] + r->other_step[1] + r->other_step[2]);
    if (c->source == PR_SOURCE_TIME_TO_TRAIN)
        add_count(stats, "non_converged", r->nonconv);
    pr_buf what = PR_BUF_INIT;
    if (a->runs > 1)
        pr_buf_printf(&what, "run %zu (%s)", i + 1, a->logs[i]);
    else
        pr_buf_puts(&what, a->nlogs > 1 ? "the log parts" : a->logs[0]);
    double x;
    if (io == 0 && finish_run(r, pr_buf_cstr(&what), a->args, a->unit, res, stats, &x) == 0) {
        a->vals[a->nvals++] = x;
        json_array_append_new(a->per_run, json_real(x));
    } else {
        json_array_append_new(a->per_run, json_null()); /* this run failed */
    }
    pr_buf_free(&what);
    /* The first run's table, as "series" in metrics: value by size. */
    if (r->ns && !a->series) {
        static const char *const col_names[] = {"busbw", "algbw", "time"};
        a->series = json_array();
        for (size_t j = 0; j < r->ns; j++)
            json_array_append_new(a->series, json_pack("[f,f]", r->sx[j], r->sy[j]));
        strcpy(a->gpu_y, r->g.var_name);
        a->series_y = c->profile == PR_PROFILE_PERFREPRO_GPU ? a->gpu_y : col_names[c->column];
    }
    if (r->g.have_first && !a->table)
        a->table = gpu_table_json(&r->g);
    /* the unit of a table even when it gave no records (all N/A, no variant) */
    if (!a->gpu_unit[0] && r->g.tables)
        strcpy(a->gpu_unit, r->g.have_first ? r->g.first.unit : r->g.novar.unit);
}

/* The case value (the median of the runs'), its stats and metrics, into
 * res; frees what a held. */
static void case_close(case_acc *a, pr_parse_result *res)
{
    const pr_rule_cfg *c = a->c;
    json_t *stats = a->stats;
    kase *k = &a->k;
    if (!res->unit && c->profile == PR_PROFILE_PERFREPRO_GPU)
        res->unit = pr_xstrdup(k->gpu_unit[0]   ? k->gpu_unit
                               : a->gpu_unit[0] ? a->gpu_unit
                                                : gpu_guess_unit(c->variant));
    json_object_set_new(stats, "runs", json_integer((json_int_t)a->runs));
    json_object_set_new(stats, "per_run", a->per_run);
    if (k->used) {
        json_object_set_new(stats, "min", jreal(k->min));
        json_object_set_new(stats, "max", jreal(k->max));
        json_object_set_new(stats, "mean", jreal(k->sum / (double)k->used));
        json_object_set_new(stats, "median", k->all_dropped
                                                 ? json_null()
                                                 : jreal(pr_stats_median(k->all, k->nall)));
    }
    if (!res->failed) {
        res->value = pr_stats_median(a->vals, a->nvals);
        if (c->source == PR_SOURCE_TIME_TO_TRAIN || c->source == PR_SOURCE_AVG_BUSBW) {
            /* Reports read time to train in seconds (docs/data-model.md);
             * the figure itself stays in the rule's unit (minutes). */
            res->metrics = json_object();
            if (c->source == PR_SOURCE_TIME_TO_TRAIN)
                json_object_set_new(res->metrics, "time_to_train_s", jreal(res->value * 60.0));
            else
                json_object_set_new(res->metrics, "avg_busbw", json_real(res->value));
        }
        if (a->series) {
            if (!res->metrics)
                res->metrics = json_object();
            json_object_set_new(res->metrics, "series",
                                json_pack("{s:s,s:s,s:o}", "x", "bytes", "y", a->series_y,
                                          "points", a->series));
            a->series = NULL;
        }
        if (a->table) {
            if (!res->metrics)
                res->metrics = json_object();
            json_object_set_new(res->metrics, "table", a->table);
            a->table = NULL;
        }
    }
    json_decref(a->series);
    json_decref(a->table);
    res->stats = stats;
    free(a->vals);
    free(k->all);
}

int pr_parse_logs(const pr_rule *rule, const char *const *logs, size_t nlogs,
                  const pr_parse_args *args, pr_parse_result *res, pr_err *err)
{
    const pr_rule_cfg *c = pr_rule_get(rule);
    if (pr_parse_check_args(rule, args, err) < 0)
        return -1;
    if (nlogs == 0)
        return pr_err_set(err, NULL, 0, 0, NULL, "no log given");
    case_acc a;
    case_open(&a, c, args, logs, nlogs, res);
    for (size_t i = 0; i < a.runs; i++) {
        run r;
        run_init(&r, rule, c, &a.k);
        const char *const *part = c->files == PR_FILES_PARTS ? logs : logs + i;
        size_t nparts = c->files == PR_FILES_PARTS ? nlogs : 1;
        pr_err e;
        int io = read_run(&r, part, nparts, &e);
        if (io < 0) {
            pr_buf d = PR_BUF_INIT;
            pr_buf_puts(&d, e.msg);
            fail(res, "parse_error", &d);
            pr_buf_free(&d);
        }
        case_add_run(&a, &r, i, io, res);
        run_free(&r);
    }
    case_close(&a, res);
    return 0;
}

/* ---- scanning once, reducing many times (explain.c, fit.c) ---- */

struct pr_scan {
    const pr_rule *rule;
    pr_rule_cfg cfg; /* the rule's, reading every step and skipping nothing */
    pr_parse_args args;
    char **logs;
    size_t nlogs, runs;
    run *run;       /* each run's state after reading: tables, counts */
    reclist *lists; /* and its records */
    pr_buf text;
    kase k;
};

void pr_scan_free(pr_scan *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->runs; i++) {
        run_free(&s->run[i]);
        free(s->lists[i].v);
    }
    for (size_t i = 0; i < s->nlogs; i++)
        free(s->logs[i]);
    free(s->logs);
    free(s->run);
    free(s->lists);
    free((char *)s->args.unit);
    pr_buf_free(&s->text);
    free(s->k.all);
    free(s);
}

int pr_parse_scan(const pr_rule *rule, const char *const *logs, size_t nlogs,
                  const pr_parse_args *args, pr_scan **out, pr_err *err)
{
    if (pr_parse_check_args(rule, args, err) < 0)
        return -1;
    if (nlogs == 0)
        return pr_err_set(err, NULL, 0, 0, NULL, "no log given");
    pr_scan *s = pr_xcalloc(1, sizeof *s);
    s->rule = rule;
    s->cfg = *pr_rule_get(rule);
    /* Every record is listed: the reduction decides which count. */
    s->cfg.skip = 0;
    s->cfg.reduce = PR_REDUCE_MEAN;
    s->cfg.min_records = 1;
    s->cfg.round = -1;
    if (s->cfg.profile == PR_PROFILE_DLLOGGER)
        s->cfg.step = PR_STEP_ANY;
    s->args = *args;
    s->args.unit = pr_xstrdup(args->unit);
    s->k.args = &s->args;
    s->nlogs = nlogs;
    s->logs = pr_xcalloc(nlogs, sizeof *s->logs);
    for (size_t i = 0; i < nlogs; i++)
        s->logs[i] = pr_xstrdup(logs[i]);
    s->runs = s->cfg.files == PR_FILES_PARTS ? 1 : nlogs;
    s->run = pr_xcalloc(s->runs, sizeof *s->run);
    s->lists = pr_xcalloc(s->runs, sizeof *s->lists);
    int rc = -1;
    for (size_t i = 0; i < s->runs; i++) {
        run *r = &s->run[i];
        run_init(r, rule, &s->cfg, &s->k);
        s->lists[i].text = &s->text;
        r->list = &s->lists[i];
        int parts = s->cfg.files == PR_FILES_PARTS;
        if (read_run(r, logs + (parts ? 0 : i), parts ? nlogs : 1, err) < 0)
            goto out;
        r->list = NULL;
    }
    *out = s;
    s = NULL;
    rc = 0;
out:
    pr_scan_free(s);
    return rc;
}

size_t pr_scan_runs(const pr_scan *s) { return s->runs; }

const pr_scan_rec *pr_scan_records(const pr_scan *s, size_t run_index, size_t *n)
{
    *n = s->lists[run_index].n;
    return s->lists[run_index].v;
}

const char *pr_scan_text(const pr_scan *s, const pr_scan_rec *rec)
{
    return rec->text ? s->text.data + rec->text - 1 : NULL;
}

const char *pr_scan_log(const pr_scan *s, size_t run_index, unsigned part)
{
    return s->cfg.files == PR_FILES_PARTS ? s->logs[part] : s->logs[run_index];
}

void pr_reduce_keys_of(const pr_rule *rule, pr_reduce_keys *k)
{
    const pr_rule_cfg *c = pr_rule_get(rule);
    k->skip = c->skip;
    k->reduce = c->reduce;
    k->trim_fraction = c->trim_fraction;
    k->trim_min = c->trim_min;
    k->step = c->step;
    k->round = c->round;
    k->min_records = c->min_records;
}

/* Counts a run's listed records again under other keys, as reading them
 * did: the same count_record and ignore_value. */
static void replay(run *r, const reclist *l, const pr_buf *text, unsigned char *status)
{
    const pr_rule_cfg *c = r->c;
    for (size_t i = 0; i < l->n; i++) {
        const pr_scan_rec *e = &l->v[i];
        int st;
        r->lineno = e->lineno;
        if (e->rank >= 0) {
            st = PR_REC_OTHER_RANK;
        } else if (e->step != PR_SCAN_NO_STEP && c->step != PR_STEP_ANY && c->step != e->step) {
            if (e->kind == PR_SCAN_NUMBER) /* a line with the metric: step_wanted */
                r->other_step[e->step]++;
            st = PR_REC_OTHER_STEP;
        } else if (e->kind == PR_SCAN_NUMBER) {
            st = count_record(r, e->value, e->batch_read, e->batch);
        } else {
            ignore_value(r, e->text ? text->data + e->text - 1 : NULL);
            st = e->kind == PR_SCAN_NOT_CLEAN ? PR_REC_NOT_CLEAN : PR_REC_IGNORED;
        }
        if (status)
            status[i] = (unsigned char)st;
    }
}

void pr_run_trace_clear(pr_run_trace *t)
{
    free(t->detail);
    memset(t, 0, sizeof *t);
}

int pr_parse_reduce(const pr_scan *s, const pr_reduce_keys *keys, unsigned flags,
                    pr_parse_result *res, pr_run_trace *traces, unsigned char *const *status)
{
    pr_rule_cfg c = *pr_rule_get(s->rule);
    c.skip = keys->skip;
    c.reduce = keys->reduce;
    c.trim_fraction = keys->trim_fraction;
    c.trim_min = keys->trim_min;
    c.round = keys->round;
    c.min_records = keys->min_records;
    if (c.profile == PR_PROFILE_DLLOGGER)
        c.step = keys->step;
    case_acc a;
    case_open(&a, &c, &s->args, (const char *const *)s->logs, s->nlogs, res);
    if (flags & PR_REDUCE_LEAN)
        a.k.all_dropped = 1; /* no copy of every record for stats.median */
    for (size_t i = 0; i < s->runs; i++) {
        const run *sr = &s->run[i];
        run r;
        run_init(&r, s->rule, &c, &a.k);
        /* what reading left that is not a record: tables, line counts */
        r.other_rank = sr->other_rank;
        r.scan = sr->scan;
        r.tables = sr->tables;
        r.nonconv = sr->nonconv;
        r.g = sr->g; /* borrowed: the table's rows stay the scan's */
        r.sx = sr->sx;
        r.sy = sr->sy;
        r.ns = sr->ns;
        if (traces) {
            pr_run_trace_clear(&traces[i]);
            r.trace = &traces[i];
        }
        replay(&r, &s->lists[i], &s->text, status ? status[i] : NULL);
        if (r.trace) {
            r.trace->seen = r.seen;
            r.trace->skipped = r.skipped;
            r.trace->used = r.used;
            r.trace->ignored = r.ignored;
            r.trace->other_rank = r.other_rank;
            r.trace->other_step = r.other_step[0] + r.other_step[1] + r.other_step[2];
        }
        case_add_run(&a, &r, i, 0, res);
        free(r.v);
    }
    case_close(&a, res);
    return 0;
}

void pr_parse_to_record(const pr_rule *rule, pr_parse_result *res, pr_record *rec)
{
    rec->failed = res->failed;
    rec->final_result = res->failed ? 0 : res->value;
    free(rec->fail_reason);
    free(rec->fail_detail);
    rec->fail_reason = res->failed ? pr_xstrdup(res->fail_reason) : NULL;
    rec->fail_detail = res->fail_detail;
    res->fail_detail = NULL;
    free(rec->unit);
    rec->unit = res->unit;
    res->unit = NULL;
    json_decref(rec->stats);
    rec->stats = res->stats;
    res->stats = NULL;
    json_decref(rec->metrics);
    rec->metrics = res->metrics;
    res->metrics = NULL;
    json_decref(rec->rule);
    rec->rule = pr_rule_to_json(rule);
    pr_parse_result_clear(res);
}
