/* likewise: like with like in a cross-framework comparison (likewise.h). */
#include "likewise.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/md.h"
#include "compare.h"
#include "mdtable.h"
#include "recfacts.h"
#include "rule_words.h"
#include "unitdir.h"

/* A fact normalised: word, a strings.json key rendered with {{arg}}, or
 * NULL for arg as it is.  Two facts are alike when both are equal. */
typedef struct {
    const char *word;
    char arg[PR_RECFACTS_VALUE_MAX + 1]; /* a fact's value fits whole: no cut mid-character */
    int raw; /* arg is the log's text as printed: shown as code, in any language */
} lw_norm;

/* Normalises value, printed under key in record r's log; 0 when the key
 * decides nothing here (the next key of the concept is tried). */
typedef int (*lw_normalise)(const char *key, const char *value, const pr_record *r, lw_norm *out);

static int is_true(const char *v)
{
    return !strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "yes");
}

static int is_false(const char *v)
{
    return !strcasecmp(v, "false") || !strcmp(v, "0") || !strcasecmp(v, "no");
}

static void set_arg(lw_norm *o, const char *word, const char *arg)
{
    o->word = word;
    o->raw = 0;
    snprintf(o->arg, sizeof o->arg, "%s", arg);
}

/* As set_arg, arg being the log's own text. */
static void set_raw(lw_norm *o, const char *word, const char *arg)
{
    set_arg(o, word, arg);
    o->raw = 1;
}

/* A number as its shortest text ("256.0" -> "256"); as printed when it is
 * none. */
static void set_number(lw_norm *o, const char *word, const char *v)
{
    char *end = NULL;
    double d = strtod(v, &end);
    if (end && end != v && !*end) {
        char n[64];
        snprintf(n, sizeof n, "%.10g", d);
        set_arg(o, word, n);
    } else {
        set_raw(o, word, v);
    }
}

static const char *fact(const pr_record *r, const char *key)
{
    return pr_recfacts_value(r->log_facts, key, NULL);
}

/* The precision the run trained in: an AMP level where the log prints one
 * (O2 is pure FP16), AMP, or the data type. */
static int norm_precision(const char *key, const char *v, const pr_record *r, lw_norm *o)
{
    if (strstr(key, "level")) {
        if (!strcasecmp(v, "O2"))
            set_arg(o, "lw_v_pure_fp16", "O2");
        else if (!strcasecmp(v, "O0"))
            set_arg(o, NULL, "FP32 (O0)");
        else
            set_raw(o, "lw_v_amp_level", v);
        return 1;
    }
    if (!strcmp(key, "arg.AMP.use_amp")) {
        /* Paddle's AMP section: off is FP32 whatever its level says. */
        if (!is_false(v))
            return 0;
        set_arg(o, NULL, "FP32");
        return 1;
    }
    if (!strcmp(key, "arg.use_pure_fp16")) {
        /* Paddle's pure FP16 is O2; off, use_amp says AMP or not. */
        if (!is_true(v))
            return 0;
        set_arg(o, "lw_v_pure_fp16", "O2");
        return 1;
    }
    if (!strcmp(key, "arg.amp") || !strcmp(key, "arg.use_amp")) {
        if (is_true(v)) {
            set_arg(o, NULL, "AMP");
            return 1;
        }
        /* AMP off: a data type or an FP16 flag decides, FP32 where the log
         * prints none. */
        if (is_false(v) && !fact(r, "arg.dtype") && !fact(r, "arg.use_fp16") &&
            !fact(r, "arg.fp16")) {
            set_arg(o, NULL, "FP32");
            return 1;
        }
        return 0;
    }
    if (!strcmp(v, "float16") || !strcasecmp(v, "fp16"))
        set_arg(o, NULL, "FP16");
    else if (!strcmp(v, "float32") || !strcasecmp(v, "fp32"))
        set_arg(o, NULL, "FP32");
    else if (!strcmp(v, "bfloat16") || !strcasecmp(v, "bf16"))
        set_arg(o, NULL, "BF16");
    else if (!strcmp(key, "arg.use_fp16") && is_true(v))
        set_arg(o, NULL, "FP16");
    else if (!strcmp(key, "arg.fp16") && (is_true(v) || is_false(v)))
        set_arg(o, NULL,
                is_true(v) ? "fp16=True"
                           : "FP32"); /* on: as printed, its meaning is the script's */
    else
        return 0;
    return 1;
}

/* NCHW or NHWC, however the framework says it. */
static int norm_layout(const char *key, const char *v, const pr_record *r, lw_norm *o)
{
    (void)r;
    if (strstr(key, "channels_last")) {
        if (!is_true(v) && !is_false(v))
            return 0;
        set_arg(o, NULL, is_true(v) ? "NHWC" : "NCHW");
        return 1;
    }
    char up[64];
    size_t n = 0;
    for (; v[n] && n + 1 < sizeof up; n++)
        up[n] = (char)(v[n] >= 'a' && v[n] <= 'z' ? v[n] - 'a' + 'A' : v[n]);
    up[n] = 0;
    if (strcmp(up, "NCHW") && strcmp(up, "NHWC") && strcmp(up, "NCDHW") && strcmp(up, "NDHWC"))
        return 0;
    set_arg(o, NULL, up);
    return 1;
}

/* DALI on the CPU or the GPU, DALI with its device not printed, no DALI,
 * or the backend as printed. */
static int norm_loader(const char *key, const char *v, const pr_record *r, lw_norm *o)
{
    (void)r;
    if (!strcmp(key, "arg.data_backend")) {
        if (!strcasecmp(v, "dali-cpu"))
            set_arg(o, NULL, "DALI (CPU)");
        else if (!strcasecmp(v, "dali-gpu"))
            set_arg(o, NULL, "DALI (GPU)");
        else
            set_raw(o, NULL, v);
        return 1;
    }
    if (is_true(v))
        set_arg(o, NULL, "DALI");
    else if (is_false(v))
        set_arg(o, "lw_v_no_dali", "");
    else
        return 0;
    return 1;
}

/* Static or dynamic loss scaling from its initial scale; only the initial
 * scale where the log prints neither flag (an "init" scale is a dynamic
 * scaler's start, a "static" one says what it is). */
static int norm_loss_scale(const char *key, const char *v, const pr_record *r, lw_norm *o)
{
    const char *dyn = NULL, *stat = NULL;
    int dynamic = -1;
    if (!strcmp(key, "arg.AMP.scale_loss"))
        dyn = fact(r, "arg.AMP.use_dynamic_loss_scaling");
    else if (!strcmp(key, "arg.scale_loss"))
        dyn = fact(r, "arg.use_dynamic_loss_scaling");
    else if (!strcmp(key, "arg.static_loss_scale")) {
        dyn = fact(r, "arg.dynamic_loss_scale");
        stat = fact(r, "arg.use_static_loss_scaling");
        dynamic = 0;
    } else if (!strcmp(key, "arg.init_loss_scale"))
        dynamic = 1;
    if (dyn)
        dynamic = is_true(dyn);
    if (stat)
        dynamic = is_false(stat);
    set_number(o,
               dynamic < 0 ? "lw_v_scale_from"
               : dynamic   ? "lw_v_dynamic_scale"
                           : "lw_v_static_scale",
               v);
    return 1;
}

/* The concepts compared: one row each, its label (strings.json), the log
 * argument keys that state it in priority order, how a value is
 * normalised, and whether it matters only for reduced precision. */
#define LW_KEYS 10
static const struct {
    const char *label;
    const char *keys[LW_KEYS];
    lw_normalise norm;
    int reduced_only;
} concepts[] = {
    {"lw_c_precision",
     {"arg.AMP.use_amp", "arg.AMP.level", "arg.amp_level", "arg.opt_level", "arg.use_pure_fp16",
      "arg.amp", "arg.use_amp", "arg.dtype", "arg.use_fp16", "arg.fp16"},
     norm_precision,
     0},
    {"lw_c_memory_format",
     {"arg.memory_format", "arg.channels_last", "arg.Arch.data_format", "arg.data_format",
      "arg.conv_layout", NULL},
     norm_layout,
     0},
    {"lw_c_loader",
     {"arg.data_backend", "arg.Global.use_dali", "arg.use_dali", "arg.dali", NULL},
     norm_loader,
     0},
    {"lw_c_loss_scale",
     {"arg.AMP.scale_loss", "arg.static_loss_scale", "arg.scale_loss", "arg.init_loss_scale", NULL},
     norm_loss_scale,
     1},
};
#define LW_NCONCEPTS (sizeof concepts / sizeof *concepts)

/* One distinct value of a concept in a column, where it was first printed. */
typedef struct {
    lw_norm v;
    const pr_record *rec;
    const pr_run *run;
    int line;
} lw_val;

typedef struct {
    lw_val vals[4]; /* distinct values; more are not listed */
    size_t nvals;
    int unstated; /* a record of the column states nothing of it */
} lw_fact;

typedef struct {
    size_t col; /* in mc */
    lw_fact facts[LW_NCONCEPTS];
    /* Its distinct estimators (rule_words_estimator_key), each with its rule and
     * the rows whose figures it made (more than 4: the rest join the last). */
    struct {
        const json_t *rule;
        char *key;
        const rmodel_row **rows;
        size_t nrows;
    } ests[4];
    size_t nests;
    int published; /* a figure of it is published, no log's */
} lw_col;

struct likewise_cmp {
    const rmodel_mcfg *mc;
    lw_col *cols;
    size_t ncols;
    /* The ranking's row and columns (alike only). */
    const rmodel_row *rank_row;
    size_t fast, slow;
    double fast_v, slow_v;
    int lower; /* the figures are times (lib/unitdir.h): the fastest is the lowest */
};

static const rmodel_cell *cell_of(const rmodel_cfg *fc, const rmodel_row *row)
{
    for (size_t i = 0; i < fc->ncells; i++)
        if (fc->cells[i].nodes == row->nodes && fc->cells[i].gpus == row->gpus)
            return &fc->cells[i];
    return NULL;
}

static int norm_equal(const lw_norm *a, const lw_norm *b)
{
    return ((!a->word && !b->word) || (a->word && b->word && !strcmp(a->word, b->word))) &&
           a->raw == b->raw && !strcmp(a->arg, b->arg);
}

/* Adds what record r (of run) states of concept k to fact f. */
static void add_fact(lw_fact *f, size_t k, const pr_record *r, const pr_run *run)
{
    if (concepts[k].reduced_only && r->precision && !strcmp(r->precision, "fp32"))
        return;
    for (size_t i = 0; i < LW_KEYS && concepts[k].keys[i]; i++) {
        int line = 0;
        const char *v = pr_recfacts_value(r->log_facts, concepts[k].keys[i], &line);
        lw_norm n = {0};
        if (!v || !concepts[k].norm(concepts[k].keys[i], v, r, &n))
            continue;
        for (size_t j = 0; j < f->nvals; j++)
            if (norm_equal(&f->vals[j].v, &n))
                return;
        if (f->nvals < sizeof f->vals / sizeof *f->vals)
            f->vals[f->nvals++] = (lw_val){n, r, run, line};
        return;
    }
    f->unstated = 1;
}

/* The cell of row in column c that a figure stands for, from a log: its
 * record and run; 0 when it has none. */
static int column_cell(const rmodel_mcfg *mc, size_t c, const rmodel_row *row,
                       const pr_record **rec, const pr_run **run, double *value)
{
    const rmodel_cell *rc = cell_of(mc->fcfgs[c], row);
    if (!rc)
        return 0;
    if (rc->origin == RM_MEASURED && rc->link_rec) {
        *rec = rc->link_rec;
        *run = rc->link_run;
        *value = rc->median;
        return 1;
    }
    if (rc->origin == RM_PUBLISHED) {
        *rec = NULL;
        *value = rc->pub ? rc->pub->value : 0;
        return 1;
    }
    return 0;
}

likewise_cmp *likewise_build(const rmodel_mcfg *mc, const rmodel_row *rows, size_t nrows)
{
    if (!rows) {
        rows = mc->rows;
        nrows = mc->nrows;
    }
    likewise_cmp *c = pr_xcalloc(1, sizeof *c);
    c->mc = mc;
    c->cols = pr_xcalloc(mc->ncols ? mc->ncols : 1, sizeof *c->cols);
    for (size_t i = 0; i < mc->ncols; i++) {
        lw_col *col = &c->cols[c->ncols];
        int any = 0;
        col->col = i;
        for (size_t r = 0; r < nrows; r++) {
            const pr_record *rec = NULL;
            const pr_run *run = NULL;
            double v = 0;
            if (!column_cell(mc, i, &rows[r], &rec, &run, &v))
                continue;
            any = 1;
            if (!rec) {
                col->published = 1;
                continue;
            }
            for (size_t k = 0; k < LW_NCONCEPTS; k++)
                add_fact(&col->facts[k], k, rec, run);
            char *key = rule_words_estimator_key(rec->rule);
            size_t e = 0;
            while (e < col->nests && strcmp(col->ests[e].key, key ? key : ""))
                e++;
            if (e == sizeof col->ests / sizeof *col->ests)
                e--;
            if (e == col->nests) {
                col->nests++;
                col->ests[e].rule = rec->rule;
                col->ests[e].key = key ? key : pr_xstrdup("");
                col->ests[e].rows = pr_xcalloc(nrows, sizeof *col->ests[e].rows);
                key = NULL;
            }
            col->ests[e].rows[col->ests[e].nrows++] = &rows[r];
            free(key);
        }
        if (any)
            c->ncols++;
    }
    if (c->ncols < 2) {
        likewise_free(c);
        return NULL;
    }
    /* The ranking: the row with the most GPUs where two columns or more
     * have figures, fastest against slowest. */
    for (size_t r = nrows; likewise_alike(c) && r-- > 0 && !c->rank_row;) {
        size_t n = 0;
        for (size_t j = 0; j < c->ncols; j++) {
            const pr_record *rec = NULL;
            const pr_run *run = NULL;
            double v = 0;
            if (!column_cell(mc, c->cols[j].col, &rows[r], &rec, &run, &v) || !rec)
                continue;
            c->lower = pr_unitdir_lower(rec->unit);
            if (!n || pr_unitdir_better(c->lower ? PR_DIR_LOWER : PR_DIR_HIGHER, v, c->fast_v)) {
                c->fast = j;
                c->fast_v = v;
            }
            if (!n || pr_unitdir_better(c->lower ? PR_DIR_LOWER : PR_DIR_HIGHER, c->slow_v, v)) {
                c->slow = j;
                c->slow_v = v;
            }
            n++;
        }
        if (n >= 2 && c->slow_v > 0 && c->fast_v > 0)
            c->rank_row = &rows[r];
    }
    return c;
}

void likewise_free(likewise_cmp *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->ncols; i++)
        for (size_t e = 0; e < c->cols[i].nests; e++) {
            free(c->cols[i].ests[e].key);
            free(c->cols[i].ests[e].rows);
        }
    free(c->cols);
    free(c);
}

/* 1 when some record of some column states concept k: one no log states
 * (a memory format for a language model) is no precondition here. */
static int concept_stated(const likewise_cmp *c, size_t k)
{
    for (size_t i = 0; i < c->ncols; i++)
        if (c->cols[i].facts[k].nvals)
            return 1;
    return 0;
}

/* 1 when concept k has one value, stated by every record of every column,
 * or no log states it. */
static int concept_alike(const likewise_cmp *c, size_t k)
{
    if (!concept_stated(c, k))
        return 1;
    for (size_t i = 0; i < c->ncols; i++) {
        const lw_fact *f = &c->cols[i].facts[k];
        if (f->unstated || f->nvals > 1 || c->cols[i].published)
            return 0;
        if (f->nvals && !c->cols[0].facts[k].nvals)
            return 0;
        if (f->nvals && !norm_equal(&f->vals[0].v, &c->cols[0].facts[k].vals[0].v))
            return 0;
    }
    return 1;
}

static int estimators_alike(const likewise_cmp *c)
{
    for (size_t i = 0; i < c->ncols; i++)
        if (c->cols[i].published || c->cols[i].nests != 1 || c->cols[0].nests != 1 ||
            strcmp(c->cols[i].ests[0].key, c->cols[0].ests[0].key))
            return 0;
    return 1;
}

int likewise_alike(const likewise_cmp *c)
{
    for (size_t k = 0; k < LW_NCONCEPTS; k++)
        if (!concept_alike(c, k))
            return 0;
    return estimators_alike(c);
}

/* Column i's name ("NGC PyTorch (AMP)"), as Markdown or plain text. */
static void col_name(const lang *l, const likewise_cmp *c, size_t i, int md, pr_buf *out,
                     pr_err *err)
{
    const rmodel_mcfg *mc = c->mc;
    size_t col = c->cols[i].col;
    pr_buf name = PR_BUF_INIT, mode = PR_BUF_INIT;
    pr_buf_puts(&name, mc->fws[col]->framework_title);
    if (compare_col_mode(mc, col, &mode)) {
        json_t *v = json_pack("{s:s}", "mode", pr_buf_cstr(&mode));
        char *m = lang_fmt_plain(l, "col_mode", v, err);
        if (m)
            pr_buf_puts(&name, m);
        free(m);
        json_decref(v);
    }
    if (md)
        md_text(out, pr_buf_cstr(&name));
    else
        pr_buf_puts(out, pr_buf_cstr(&name));
    pr_buf_free(&name);
    pr_buf_free(&mode);
}

/* A normalised value in l's words, as a Markdown table cell's text appended
 * to out: the log's own text as a code span, a word with its argument
 * filled in. */
static void norm_text(const lang *l, const lw_norm *n, pr_buf *out, pr_err *err)
{
    pr_buf arg = PR_BUF_INIT;
    if (n->raw)
        md_code_cell(&arg, n->arg);
    else
        md_text(&arg, n->arg);
    if (n->word) {
        json_t *v = json_pack("{s:s}", "arg", pr_buf_cstr(&arg));
        lang_fmt(l, n->word, v, out, err);
        json_decref(v);
    } else {
        pr_buf_puts(out, pr_buf_cstr(&arg));
    }
    pr_buf_free(&arg);
}

/* The labels of the concepts (and the estimator) that are not alike,
 * joined; returns how many. */
static size_t differing(const lang *l, const likewise_cmp *c, pr_buf *out)
{
    size_t n = 0;
    for (size_t k = 0; k < LW_NCONCEPTS; k++)
        if (!concept_alike(c, k)) {
            if (n++)
                pr_buf_puts(out, lang_str(l, "value_sep"));
            pr_buf_puts(out, lang_str(l, concepts[k].label));
        }
    if (!estimators_alike(c)) {
        if (n++)
            pr_buf_puts(out, lang_str(l, "value_sep"));
        pr_buf_puts(out, lang_str(l, "lw_c_estimator"));
    }
    return n;
}

/* The ranking's words: {gpus, fast, fast_v, slow, slow_v, ratio}. */
static json_t *ranking_view(const lang *l, const likewise_cmp *c, int md, pr_err *err)
{
    pr_buf g = PR_BUF_INIT, fast = PR_BUF_INIT, slow = PR_BUF_INIT, fv = PR_BUF_INIT,
           sv = PR_BUF_INIT;
    lang_gpus_label(l, c->rank_row->nodes, c->rank_row->gpus, &g, err);
    col_name(l, c, c->fast, md, &fast, err);
    col_name(l, c, c->slow, md, &slow, err);
    md_number(&fv, c->fast_v, PR_DECIMALS_VALUE);
    md_number(&sv, c->slow_v, PR_DECIMALS_VALUE);
    char ratio[32];
    /* How many times as fast: a time's ratio is the slow one's over the fast one's. */
    snprintf(ratio, sizeof ratio, "%.2f", c->lower ? c->slow_v / c->fast_v : c->fast_v / c->slow_v);
    json_t *v = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "gpus", pr_buf_cstr(&g), "fast",
                          pr_buf_cstr(&fast), "slow", pr_buf_cstr(&slow), "fast_v",
                          pr_buf_cstr(&fv), "slow_v", pr_buf_cstr(&sv), "ratio", ratio);
    pr_buf_free(&g);
    pr_buf_free(&fast);
    pr_buf_free(&slow);
    pr_buf_free(&fv);
    pr_buf_free(&sv);
    return v;
}

/* Column i's estimator ("the mean of records 10 to the end"), per GPU count
 * where the column's rules differ; appended to out. */
static void col_estimator(const lang *l, const likewise_cmp *c, size_t i, pr_buf *out, pr_err *err)
{
    const lw_col *col = &c->cols[i];
    for (size_t e = 0; e < col->nests; e++) {
        if (e)
            pr_buf_puts(out, " / ");
        pr_buf est = PR_BUF_INIT, at = PR_BUF_INIT;
        rule_words_estimator(l, col->ests[e].rule, &est, err);
        if (col->nests == 1) {
            pr_buf_puts(out, pr_buf_cstr(&est));
            pr_buf_free(&est);
            continue;
        }
        /* Several estimators in one column: each with its rows. */
        for (size_t r = 0; r < col->ests[e].nrows; r++) {
            if (r)
                pr_buf_puts(&at, lang_str(l, "value_sep"));
            lang_gpus_label(l, col->ests[e].rows[r]->nodes, col->ests[e].rows[r]->gpus, &at, err);
        }
        json_t *v = json_pack("{s:s,s:s}", "est", pr_buf_cstr(&est), "rows", pr_buf_cstr(&at));
        lang_fmt(l, "lw_est_rows", v, out, err);
        json_decref(v);
        pr_buf_free(&est);
        pr_buf_free(&at);
    }
    if (col->published)
        pr_buf_puts(out, lang_str(l, col->nests ? "lw_also_published" : "lw_published"));
}

/* Each column's estimator ("FwA (AMP): the mean of records 10 to the end;
 * ..."), appended to list. */
static void estimator_list(const lang *l, const likewise_cmp *c, pr_buf *list, pr_err *err)
{
    for (size_t i = 0; i < c->ncols; i++) {
        if (i)
            pr_buf_puts(list, lang_str(l, "list_sep"));
        col_name(l, c, i, 1, list, err);
        pr_buf_puts(list, lang_str(l, "lw_colon"));
        col_estimator(l, c, i, list, err);
    }
}

/* Column i's values of concept k as a table cell: each normalised value
 * with the log line that printed it; "—" when its logs state none. */
static void fact_cell(const rmodel_world *w, const lang *l, const likewise_cmp *c, size_t i,
                      size_t k, const char *page_rel, pr_buf *out, pr_err *err)
{
    const lw_fact *f = &c->cols[i].facts[k];
    if (!f->nvals) {
        pr_buf_puts(out, lang_str(l, "lw_none"));
        return;
    }
    for (size_t j = 0; j < f->nvals; j++) {
        if (j)
            pr_buf_puts(out, " / ");
        norm_text(l, &f->vals[j].v, out, err);
        pr_buf link = PR_BUF_INIT, text = PR_BUF_INIT;
        md_code_cell(&text, f->vals[j].rec->case_name);
        pr_buf_printf(&text, " L%d", f->vals[j].line);
        pr_buf_puts(out, " (");
        mdtable_log_line_link(w, page_rel, f->vals[j].run, f->vals[j].rec, f->vals[j].line,
                              pr_buf_cstr(&text), &link);
        pr_buf_puts(out, pr_buf_cstr(&link));
        pr_buf_putc(out, ')');
        pr_buf_free(&link);
        pr_buf_free(&text);
    }
    if (f->unstated || c->cols[i].published) {
        pr_buf_puts(out, " / ");
        pr_buf_puts(out, lang_str(l, "lw_none"));
    }
}

void likewise_markdown(const rmodel_world *w, const lang *l, const likewise_cmp *c,
                       const char *page_rel, pr_buf *out, pr_err *err)
{
    pr_buf list = PR_BUF_INIT;
    pr_buf_puts(out, lang_str(l, "lw_heading"));
    pr_buf_puts(out, "\n\n");
    /* One row per fact (the estimator first), one column per framework:
     * the facts side by side, each value linked to its log line. */
    size_t n = c->ncols + 1;
    pr_buf *cells = pr_xcalloc(n, sizeof *cells);
    const char **heads = pr_xcalloc(n, sizeof *heads);
    pr_buf *names = pr_xcalloc(n, sizeof *names);
    heads[0] = lang_str(l, "lw_fact");
    for (size_t i = 0; i < c->ncols; i++) {
        col_name(l, c, i, 0, &names[i + 1], err);
        heads[i + 1] = pr_buf_cstr(&names[i + 1]);
    }
    mdtable_head(out, heads, n, (int)n);
    md_cell(&cells[0], lang_str(l, "lw_c_estimator"));
    for (size_t i = 0; i < c->ncols; i++)
        col_estimator(l, c, i, &cells[i + 1], err);
    mdtable_row(out, cells, n);
    for (size_t k = 0; k < LW_NCONCEPTS; k++) {
        if (!concept_stated(c, k))
            continue;
        mdtable_cells_clear(cells, n);
        md_cell(&cells[0], lang_str(l, concepts[k].label));
        for (size_t i = 0; i < c->ncols; i++)
            fact_cell(w, l, c, i, k, page_rel, &cells[i + 1], err);
        mdtable_row(out, cells, n);
    }
    pr_buf_putc(out, '\n');
    /* The conclusion and its preconditions. */
    if (likewise_alike(c) && c->rank_row) {
        json_t *v = ranking_view(l, c, 1, err);
        lang_fmt(l, "lw_ranking", v, out, err);
        json_decref(v);
    } else {
        differing(l, c, &list);
        json_t *v = json_pack("{s:s}", "what", pr_buf_cstr(&list));
        lang_fmt(l, "lw_no_ranking", v, out, err);
        json_decref(v);
    }
    pr_buf_putc(out, '\n');
    mdtable_cells_free(cells, n);
    mdtable_cells_free(names, n);
    free(cells);
    free(names);
    free(heads);
    pr_buf_free(&list);
}

void likewise_plain(const lang *l, const likewise_cmp *c, pr_buf *out, pr_err *err)
{
    char *s = NULL;
    if (likewise_alike(c) && c->rank_row) {
        json_t *v = ranking_view(l, c, 0, err);
        s = lang_fmt_plain(l, "lw_plain_ranking", v, err);
        json_decref(v);
    } else {
        pr_buf what = PR_BUF_INIT;
        differing(l, c, &what);
        json_t *v = json_pack("{s:s}", "what", pr_buf_cstr(&what));
        s = lang_fmt_plain(l, "lw_plain_differ", v, err);
        json_decref(v);
        pr_buf_free(&what);
    }
    if (s)
        pr_buf_puts(out, s);
    free(s);
}

void likewise_summary_md(const lang *l, const likewise_cmp *c, pr_buf *out, pr_err *err)
{
    pr_buf note = PR_BUF_INIT, list = PR_BUF_INIT;
    likewise_plain(l, c, &note, err);
    estimator_list(l, c, &list, err);
    md_text(out, pr_buf_cstr(&note));
    json_t *v = json_pack("{s:s}", "list", pr_buf_cstr(&list));
    lang_fmt(l, "lw_index_estimators", v, out, err);
    json_decref(v);
    pr_buf_free(&note);
    pr_buf_free(&list);
}
