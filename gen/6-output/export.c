/* export: every figure the reports show, as tidy data (export.h). */
#include "export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/runset.h"
#include "2-model/audit.h"
#include "2-model/flags.h"
#include "3-tables/fw_columns.h"
#include "3-tables/fw_pubtab.h"
#include "3-tables/fw_tables.h"
#include "3-tables/mdtable.h"
#include "3-tables/rule_words.h"
#include "5-views/fw_order.h"
#include "base/md.h"
#include "jdoc.h"
#include "vec.h"

/* A walk over the rows: the columns it writes (fw_columns, or a longer
 * table in a test), and the last rule it wrote (most rows of a run set
 * share one: a dump and a read-back a row were a tenth of
 * reports/figures.csv, issue 31 #17). */
typedef struct ex_cols {
    const fw_columns_column *t;
    size_t n;
    rule_words_last rule;
} ex_cols;

int export_format_of(const char *name, export_format *fmt)
{
    static const char *const names[] = {"csv", "jsonl", "bencher", "otava"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) {
            *fmt = (export_format)i;
            return 0;
        }
    return -1;
}

/* A new row: no column set yet; a column it lacks is null.  The writers
 * walk the columns (the exported rows of fw_columns, fw_columns.h), so the
 * row need not hold them in order: 35 nulls a row were a tenth of
 * reports/figures.csv at 10^5 records (issue 31 #17). */
static json_t *new_row(void)
{
    return json_object();
}

/* row with every exported column of cols, in column order, null where row
 * has none (a new object; row is left as it was). */
static json_t *full_row(const ex_cols *cols, const json_t *row)
{
    json_t *full = json_object();
    for (size_t i = 0; i < cols->n; i++)
        if (cols->t[i].exported) {
            json_t *v = json_object_get(row, cols->t[i].key);
            json_object_set_new(full, cols->t[i].key, v ? json_incref(v) : json_null());
        }
    return full;
}

/* Column key of row gets s (copied); nothing when s is NULL or empty. */
static void set_str(json_t *row, const char *key, const char *s)
{
    if (s && *s)
        json_object_set_new(row, key, json_string(s));
}

/* Column key gets v (a real); nothing when it is NAN. */
static void set_real(json_t *row, const char *key, double v)
{
    if (isfinite(v))
        json_object_set_new(row, key, json_real(v));
}

static void set_int(json_t *row, const char *key, long long v)
{
    json_object_set_new(row, key, json_integer((json_int_t)v));
}

/* What was run, common to both kinds of row. */
static void set_case(json_t *row, const rmodel_fw *f, const rmodel_cfg *c, const char *precision,
                     int bs, int nodes, int gpus)
{
    set_str(row, "model", f->model);
    set_str(row, "framework", f->framework);
    /* Which way value is better ("higher", "lower", "unknown"): a time to
     * train is not a throughput (lib/unitdir.h). */
    set_str(row, "direction", pr_unitdir_word(f->dir));
    set_str(row, "unit", f->unit); /* what value counts: images/s, min, s/step */
    set_str(row, "platform", c->platform ? c->platform->id : NULL);
    set_str(row, "precision", precision);
    set_int(row, "batch_size", bs);
    set_int(row, "nodes", nodes);
    set_int(row, "gpus", gpus);
}

/* A published figure as its source printed it: its text, else its number
 * as the tables print it (mdtable.c, mdtable_pub_value, unescaped); a state
 * word (TODO, OOM) for no figure.  Appended to out. */
static void printed_figure(const pr_pub_row *r, pr_buf *out)
{
    if (!r->has_value) {
        pr_buf_puts(out, r->state);
    } else if (r->printed) {
        pr_buf_puts(out, r->printed);
    } else {
        int d = data_pub_decimals(r);
        md_number(out, r->value, d > 6 ? 6 : d);
    }
}

static void set_flags(json_t *row, unsigned bits)
{
    pr_buf b = PR_BUF_INIT;
    flags_bits_keys(bits, &b);
    set_str(row, "flags", pr_buf_cstr(&b));
    pr_buf_free(&b);
}

/* The run folder of the run set rc stands for (rmodel.h: the newest). */
static void set_run_sets(json_t *row, const rmodel_cell *rc)
{
    set_str(row, "run_set", rc->set_run ? rc->set_run->name : "");
}

/* When rc's figure was measured: the earliest start its records state
 * (the successful ones', a failed cell's failures'), else the first date
 * of its run set (runset.h). */
static void set_cell_date(json_t *row, const rmodel_cell *rc, const pr_run *run)
{
    const char *first = NULL;
    for (unsigned i = 0; i < rc->nrecs; i++) {
        const pr_record *r = rc->recs[i];
        if (rc->runs[i] != rc->set_run || (rc->n_ok && r->failed) || !r->started_at)
            continue;
        if (!first || strcmp(r->started_at, first) < 0)
            first = r->started_at;
    }
    if (first) {
        set_str(row, "date", first);
        return;
    }
    pr_buf b = PR_BUF_INIT;
    if (run && runset_dates(run, &b) && b.len >= 10) {
        pr_buf_truncate(&b, 10);
        set_str(row, "date", pr_buf_cstr(&b));
    }
    pr_buf_free(&b);
}

/* The log of record r of run, as loaded (relative to where the command
 * runs: the repository root for the default --data). */
static void set_log(json_t *row, const pr_run *run, const pr_record *r)
{
    if (!run || !r || !r->log_file || !*r->log_file)
        return;
    const char *dir = run->dir;
    while (dir[0] == '.' && dir[1] == '/')
        dir += 2;
    json_object_set_new(row, "log", json_sprintf("%s/%s", dir, r->log_file));
}

/* Where published table t's figures are, as the pages link it:
 * "REPO/PATH#L<line>" (or "#table-<n>", its place in the file, without a
 * line), else its label. */
static void set_pub_source(json_t *row, const pr_pub_table *t)
{
    if (!t->source_repo || !t->source_path) {
        set_str(row, "published_source", t->label);
        return;
    }
    json_object_set_new(
        row, "published_source",
        t->source_line > 0
            ? json_sprintf("%s/%s#L%d", t->source_repo, t->source_path, t->source_line)
            : json_sprintf("%s/%s#table-%d", t->source_repo, t->source_path, t->index + 1));
}

/* The audit's verdict on item it (audit.h), in its words. */
static void set_audit_verdict(json_t *row, const audit_item *it)
{
    if (!it)
        return;
    pr_buf b = PR_BUF_INIT;
    audit_item_verdict_words(it, &b);
    set_str(row, "audit_verdict", pr_buf_cstr(&b));
    pr_buf_free(&b);
}

/* The row of cell rc (with runs) of configuration c of f.  Its published
 * figure is its own source's only: the figure the audit pairs with the
 * imported log behind the median (the run set's import).  A measured run
 * set, or a figure of another machine of the same platform (another
 * table), has none here: the pages show those beside it. */
static json_t *cell_row(ex_cols *cols, const rmodel_world *w, const rmodel_fw *f,
                        const rmodel_cfg *c, const rmodel_cell *rc)
{
    json_t *row = new_row();
    set_case(row, f, c, c->precision, c->bs, rc->nodes, rc->gpus);
    set_run_sets(row, rc);
    const pr_record *lr = rc->n_ok ? rc->link_rec : rc->fail_rec;
    const pr_run *lrun = rc->n_ok ? rc->link_run : rc->fail_run;
    set_cell_date(row, rc, lrun);
    if (rc->n_ok) {
        set_str(row, "state", rc->imported ? "imported" : "measured");
        set_real(row, "value", rc->median);
        if (rc->ci_coverage > 0) {
            set_real(row, "ci_lo", rc->ci_lo);
            set_real(row, "ci_hi", rc->ci_hi);
            set_real(row, "ci_coverage", rc->ci_coverage);
        }
        set_int(row, "runs", rc->n_ok);
        int summary = 0;
        long long nrec = flags_cell_records(rc, &summary);
        if (nrec >= 0 && !summary)
            set_int(row, "records", nrec);
        double sp, eff;
        if (fw_tables_cell_scaling(f, c, rc, &sp, &eff)) {
            set_real(row, "speedup", sp);
            set_real(row, "efficiency", eff);
        }
    } else {
        set_str(row, "state", "failed");
        set_str(row, "reason", rc->fail_rec ? rc->fail_rec->fail_reason : NULL);
        set_int(row, "runs", rc->n_total);
    }
    const audit_item *own = rc->imported && lr ? audit_item_of_rec(w->audit, lr) : NULL;
    if (own && !own->other_bs) {
        pr_buf b = PR_BUF_INIT;
        printed_figure(own->row, &b);
        set_str(row, "published", pr_buf_cstr(&b));
        pr_buf_free(&b);
        set_pub_source(row, own->table);
        double gap;
        fw_tables_gap_verdict v = fw_tables_gap(f, rc, own->row, &gap);
        set_real(row, "gap", gap);
        set_str(row, "verdict", fw_tables_gap_key(v));
        set_audit_verdict(row, own);
    }
    set_flags(row, flags_cell_bits(c, rc));
    const json_t *src = lr && rc->imported ? lr->source : NULL;
    set_str(row, "source_repo", pr_jdoc_json_str(src, "repo"));
    set_str(row, "source_commit", pr_jdoc_json_str(src, "commit"));
    set_str(row, "source_url", pr_jdoc_json_str(src, "url"));
    set_log(row, lrun, lr);
    if (lr && lr->rule)
        set_str(row, "rule", rule_words_shortest_of(&cols->rule, lr->rule));
    /* A column whose row makes its own value (fw_columns.h). */
    for (size_t i = 0; i < cols->n; i++)
        if (cols->t[i].exported && cols->t[i].value)
            json_object_set_new(row, cols->t[i].key, cols->t[i].value(f, c, rc));
    return row;
}

/* The row of row r of published table t, shown under configuration c of
 * f. */
static json_t *pub_row(const ex_cols *cols, const rmodel_world *w, const rmodel_fw *f,
                       const rmodel_cfg *c, const pr_pub_table *t, const pr_pub_row *r)
{
    json_t *row = new_row();
    set_case(row, f, c, t->precision, t->batch_size, r->nodes, r->gpus);
    set_str(row, "date", t->date);
    set_str(row, "state", r->has_value ? "published" : r->state);
    pr_buf b = PR_BUF_INIT;
    printed_figure(r, &b);
    if (r->has_value) {
        set_real(row, "value", r->value);
        set_str(row, "printed", pr_buf_cstr(&b));
    }
    pr_buf_free(&b);
    double sp, eff;
    if (fw_pubtab_row_scaling(w->audit, f, t, r, &sp, &eff)) {
        set_real(row, "speedup", sp);
        set_real(row, "efficiency", eff);
    }
    set_flags(row, flags_pub_row_bits(f, t, r));
    if (r->has_value) {
        set_pub_source(row, t);
        set_audit_verdict(row, audit_item_of_row(w->audit, r));
    }
    set_str(row, "source", t->label);
    set_str(row, "source_repo", t->source_repo);
    set_str(row, "source_commit", t->source_commit);
    if (t->source_line > 0)
        set_int(row, "source_line", t->source_line);
    set_str(row, "source_url", t->source_url);
    for (size_t i = 0; i < cols->n; i++)
        if (cols->t[i].exported && cols->t[i].pub_value)
            json_object_set_new(row, cols->t[i].key, cols->t[i].pub_value(f, t, r));
    return row;
}

/* Rows of a published table in GPU order (then nodes), stable. */
static int pub_row_qsort(const void *a, const void *b)
{
    const pr_pub_row *x = *(const pr_pub_row *const *)a, *y = *(const pr_pub_row *const *)b;
    if (x->gpus != y->gpus)
        return x->gpus < y->gpus ? -1 : 1;
    if (x->nodes != y->nodes)
        return x->nodes < y->nodes ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Gives row to fn, then lets it go; the first error stops the walk. */
static int emit(json_t *row, int (*fn)(void *, json_t *), void *ctx)
{
    int rc = fn(ctx, row);
    json_decref(row);
    return rc;
}

/* The published rows of f's configurations cfgs[first, end): each table a
 * page shows (fw_pubtab_shown), once, in f's table order, each row to fn. */
static int pub_rows(ex_cols *cols, const rmodel_world *w, const rmodel_fw *f, size_t first,
                    size_t end, const pr_pub_table **seen, size_t *nseen,
                    int (*fn)(void *, json_t *), void *ctx)
{
    int rc = 0;
    for (size_t i = first; i < end && rc == 0; i++) {
        const rmodel_cfg *c = &f->cfgs[i];
        for (size_t k = 0; k < f->npubs && rc == 0; k++) {
            const pr_pub_table *t = f->pubs[k];
            int dup = 0;
            for (size_t j = 0; j < *nseen && !dup; j++)
                dup = seen[j] == t;
            if (dup || !fw_pubtab_shown(c, t))
                continue;
            seen[(*nseen)++] = t;
            const pr_pub_row **rs = pr_xcalloc(t->nrows + 1, sizeof *rs);
            for (size_t r = 0; r < t->nrows; r++)
                rs[r] = &t->rows[r];
            pr_qsort(rs, t->nrows, sizeof *rs, pub_row_qsort);
            for (size_t r = 0; r < t->nrows && rc == 0; r++) /* a repeated row: its first */
                if (rmodel_pub_row(t, rs[r]->nodes, rs[r]->gpus) == rs[r])
                    rc = emit(pub_row(cols, w, f, c, t, rs[r]), fn, ctx);
            free(rs);
        }
    }
    return rc;
}

/* export_rows_of's sink: the array of full rows and their columns. */
typedef struct collect_ctx {
    const ex_cols *cols;
    json_t *rows;
} collect_ctx;

/* Appends row, every column in order, to the array of ctx. */
static int collect(void *ctx, json_t *row)
{
    collect_ctx *cc = ctx;
    json_array_append_new(cc->rows, full_row(cc->cols, row));
    return 0;
}

json_t *export_rows(const rmodel_world *w)
{
    return export_rows_of(fw_columns, fw_columns_count, w);
}

static int each_row(ex_cols *cols, const rmodel_world *w, int (*fn)(void *, json_t *), void *ctx);

json_t *export_rows_of(const fw_columns_column *t, size_t n, const rmodel_world *w)
{
    ex_cols cols = {t, n, {NULL, NULL}};
    collect_ctx cc = {&cols, json_array()};
    each_row(&cols, w, collect, &cc);
    rule_words_last_free(&cols.rule);
    return cc.rows;
}

int export_each_row(const rmodel_world *w, int (*fn)(void *ctx, json_t *row), void *ctx)
{
    ex_cols cols = {fw_columns, fw_columns_count, {NULL, NULL}};
    int rc = each_row(&cols, w, fn, ctx);
    rule_words_last_free(&cols.rule);
    return rc;
}

/* export_each_row over the columns cols. */
static int each_row(ex_cols *cols, const rmodel_world *w, int (*fn)(void *, json_t *), void *ctx)
{
    int rc = 0;
    for (size_t m = 0; m < w->nmodels && rc == 0; m++)
        for (size_t j = 0; j < w->models[m]->nfws && rc == 0; j++) {
            const rmodel_fw *f = w->models[m]->fws[j];
            fw_order_run *order = pr_xcalloc(f->ncfgs + 1, sizeof *order);
            size_t nplat = fw_order_runs(w, f, order);
            for (size_t p = 0; p < nplat && rc == 0; p++)
                for (size_t i = order[p].first; i < order[p].end && rc == 0; i++)
                    for (size_t k = 0; k < f->cfgs[i].ncells && rc == 0; k++)
                        if (f->cfgs[i].cells[k].nrecs)
                            rc = emit(cell_row(cols, w, f, &f->cfgs[i], &f->cfgs[i].cells[k]), fn,
                                      ctx);
            const pr_pub_table **seen = pr_xcalloc(f->npubs + 1, sizeof *seen);
            size_t nseen = 0;
            for (size_t p = 0; p < nplat && rc == 0; p++)
                rc = pub_rows(cols, w, f, order[p].first, order[p].end, seen, &nseen, fn, ctx);
            free(seen);
            free(order);
        }
    return rc;
}

/* A value of a row as CSV text: a string as a text field (md.h, quoted
 * and a formula made text), a number in its shortest exact form, null
 * empty. */
static void csv_value(const json_t *v, pr_buf *out)
{
    if (json_is_string(v))
        md_csv_field(out, json_string_value(v));
    else if (json_is_integer(v))
        pr_buf_printf(out, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        md_num_shortest(out, json_real_value(v));
}

void export_csv_record(const json_t *row, pr_buf *out)
{
    const char *sep = "";
    for (size_t i = 0; i < fw_columns_count; i++) {
        if (!fw_columns[i].exported)
            continue;
        pr_buf_puts(out, sep);
        csv_value(json_object_get(row, fw_columns[i].key), out);
        sep = ",";
    }
    pr_buf_puts(out, "\r\n");
}

/* A scalar (or, with JSON_ENCODE_ANY, a string) as Jansson writes it with
 * flags, appended to out; json_dumpb writes into out's room directly. */
static void dump_scalar(const json_t *v, size_t flags, pr_buf *out)
{
    char small[128];
    size_t n = json_dumpb(v, small, sizeof small, flags | JSON_ENCODE_ANY | JSON_COMPACT);
    if (n <= sizeof small) {
        pr_buf_put(out, small, n);
        return;
    }
    char *big = pr_xmalloc(n);
    json_dumpb(v, big, n, flags | JSON_ENCODE_ANY | JSON_COMPACT);
    pr_buf_put(out, big, n);
    free(big);
}

/* v as compact JSON, keys in their order, appended to out.  Jansson writes
 * every string and number; each real gets the fewest significant digits
 * that read back as it (md.h, md_num_shortest_digits), so 0.05 is "0.05"
 * beside a gap that needs 17 digits (one precision for a whole dump would
 * print 0.050000000000000003). */
static void put_json(const json_t *v, pr_buf *out)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *x;
        char sep = '{';
        json_object_foreach((json_t *)v, k, x)
        {
            pr_buf_putc(out, sep);
            json_t *key = json_string(k);
            dump_scalar(key, 0, out);
            json_decref(key);
            pr_buf_putc(out, ':');
            put_json(x, out);
            sep = ',';
        }
        pr_buf_puts(out, sep == '{' ? "{}" : "}");
    } else if (json_is_array(v)) {
        size_t i;
        json_t *x;
        char sep = '[';
        json_array_foreach(v, i, x)
        {
            pr_buf_putc(out, sep);
            put_json(x, out);
            sep = ',';
        }
        pr_buf_puts(out, sep == '[' ? "[]" : "]");
    } else if (json_is_real(v)) {
        dump_scalar(v, JSON_REAL_PRECISION(md_num_shortest_digits(json_real_value(v))), out);
    } else {
        dump_scalar(v, 0, out);
    }
}

/* A row as one JSON object: every exported column of fw_columns in
 * order, null where row has none (put_json), appended to out. */
static void put_row(const json_t *row, pr_buf *out)
{
    char sep = '{';
    for (size_t i = 0; i < fw_columns_count; i++) {
        if (!fw_columns[i].exported)
            continue;
        pr_buf_putc(out, sep);
        json_t *key = json_string(fw_columns[i].key);
        dump_scalar(key, 0, out);
        json_decref(key);
        pr_buf_putc(out, ':');
        const json_t *v = json_object_get(row, fw_columns[i].key);
        if (v)
            put_json(v, out);
        else
            pr_buf_puts(out, "null");
        sep = ',';
    }
    pr_buf_puts(out, sep == '{' ? "{}" : "}");
}

/* The Bencher benchmark name of a reproduced row: its case and run set,
 * "ResNet50/PyTorch/a100/amp/bs256/1x8/run". */
static void bencher_name(const json_t *row, pr_buf *out)
{
    const char *platform = pr_jdoc_json_str(row, "platform"),
               *rs = pr_jdoc_json_str(row, "run_set");
    pr_buf_printf(out, "%s/%s/%s/%s/bs%lld/%lldx%lld/%s", pr_jdoc_json_str(row, "model"),
                  pr_jdoc_json_str(row, "framework"), platform ? platform : "unstated",
                  pr_jdoc_json_str(row, "precision"),
                  (long long)json_integer_value(json_object_get(row, "batch_size")),
                  (long long)json_integer_value(json_object_get(row, "nodes")),
                  (long long)json_integer_value(json_object_get(row, "gpus")), rs ? rs : "");
}

/* The columns of the Otava CSV: the time, the attributes that name a
 * series, the one metric. */
/* direction and unit: which way the series is better and what it counts
 * (a time to train is no throughput: its test sets the metric's direction
 * to -1). */
static const char *const otava_columns[] = {
    "time", "model",   "framework", "platform",  "precision", "batch_size", "nodes",
    "gpus", "run_set", "source",    "direction", "unit",      "throughput"};

/* An Otava line waiting for its place: rows come in page order, Otava
 * wants them oldest first. */
typedef struct otava_line {
    char *date, *text; /* malloc'd */
    size_t index;
} otava_line;

static int otava_qsort(const void *a, const void *b)
{
    const otava_line *x = a, *y = b;
    int d = strcmp(x->date, y->date);
    if (d)
        return d;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Rows rendered one at a time into buf, which export_write empties into its
 * output as it fills: only Otava's lines (sorted by date at the end) and
 * nothing else outlive their row. */
typedef struct ex_stream {
    export_format fmt;
    pr_buf *buf;
    size_t nrows, nbench;
    otava_line *otava;
    size_t notava, cap;
} ex_stream;

static void stream_begin(ex_stream *st, export_format fmt, int bom, pr_buf *buf)
{
    memset(st, 0, sizeof *st);
    st->fmt = fmt;
    st->buf = buf;
    if (bom)
        pr_buf_puts(buf, "\xEF\xBB\xBF");
    if (fmt == EX_CSV) {
        const char *sep = "";
        for (size_t c = 0; c < fw_columns_count; c++)
            if (fw_columns[c].exported) {
                pr_buf_printf(buf, "%s%s", sep, fw_columns[c].key);
                sep = ",";
            }
        pr_buf_puts(buf, "\r\n");
    } else if (fmt == EX_OTAVA) {
        size_t nc = sizeof otava_columns / sizeof otava_columns[0];
        for (size_t c = 0; c < nc; c++)
            pr_buf_printf(buf, "%s%s", c ? "," : "", otava_columns[c]);
        pr_buf_puts(buf, "\r\n");
    } else if (fmt == EX_BENCHER) {
        pr_buf_putc(buf, '{');
    }
}

/* The Bencher measure of row: Bencher's own "throughput" for a rate; a
 * time (lower is better) or a unit of no known direction a measure of its
 * own named by direction and unit ("time-min", "value-widgets": Bencher
 * creates it), so that no time is a throughput and a threshold can bound it
 * on the side that is slower. */
static void bencher_measure(const json_t *row, pr_buf *out)
{
    const char *dir = pr_jdoc_json_str(row, "direction");
    if (dir && strcmp(dir, "higher") == 0) {
        pr_buf_puts(out, "throughput");
        return;
    }
    pr_buf_puts(out, dir && strcmp(dir, "lower") == 0 ? "time-" : "value-");
    const char *unit = pr_jdoc_json_str(row, "unit");
    /* a slug: [a-z0-9-], runs of anything else one '-' */
    int dash = 0;
    size_t start = out->len;
    for (const char *c = unit ? unit : ""; *c; c++) {
        char ch = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
            if (dash && out->len > start)
                pr_buf_putc(out, '-');
            pr_buf_putc(out, ch);
            dash = 0;
        } else {
            dash = 1;
        }
    }
    if (out->len == start)
        pr_buf_puts(out, "unitless");
}

/* Bencher Metric Format: {name: {MEASURE: {value, lower_value,
 * upper_value}}} for each reproduced figure (the interval when it has
 * one), MEASURE as bencher_measure names it. */
static void bencher_row(ex_stream *st, const json_t *row)
{
    json_t *v = json_object_get(row, "value");
    const char *state = pr_jdoc_json_str(row, "state");
    if (!json_is_real(v) || !state ||
        (strcmp(state, "measured") != 0 && strcmp(state, "imported") != 0))
        return;
    json_t *metric = json_object();
    json_object_set(metric, "value", v);
    json_t *lo = json_object_get(row, "ci_lo"), *hi = json_object_get(row, "ci_hi");
    if (json_is_real(lo) && json_is_real(hi)) {
        json_object_set(metric, "lower_value", lo);
        json_object_set(metric, "upper_value", hi);
    }
    pr_buf name = PR_BUF_INIT;
    bencher_name(row, &name);
    json_t *key = json_string(pr_buf_cstr(&name));
    if (st->nbench++)
        pr_buf_putc(st->buf, ',');
    dump_scalar(key, 0, st->buf);
    pr_buf measure = PR_BUF_INIT;
    bencher_measure(row, &measure);
    json_t *mkey = json_string(pr_buf_cstr(&measure));
    pr_buf_puts(st->buf, ":{");
    dump_scalar(mkey, 0, st->buf);
    pr_buf_putc(st->buf, ':');
    put_json(metric, st->buf);
    pr_buf_putc(st->buf, '}');
    json_decref(key);
    json_decref(mkey);
    json_decref(metric);
    pr_buf_free(&name);
    pr_buf_free(&measure);
}

/* Apache Otava's CSV input: a row per figure with a date. */
static void otava_row(ex_stream *st, const json_t *row)
{
    const char *date = pr_jdoc_json_str(row, "date");
    if (!json_is_real(json_object_get(row, "value")) || !date)
        return;
    pr_buf b = PR_BUF_INIT;
    csv_value(json_object_get(row, "date"), &b);
    size_t nc = sizeof otava_columns / sizeof otava_columns[0];
    for (size_t c = 1; c < nc - 1; c++) {
        pr_buf_putc(&b, ',');
        csv_value(json_object_get(row, otava_columns[c]), &b);
    }
    pr_buf_putc(&b, ',');
    csv_value(json_object_get(row, "value"), &b);
    pr_buf_puts(&b, "\r\n");
    *PR_VEC_PUSH(st->otava, st->notava, st->cap) =
        (otava_line){pr_xstrdup(date), pr_buf_detach(&b), st->nrows};
}

static void stream_row(ex_stream *st, const json_t *row)
{
    switch (st->fmt) {
    case EX_CSV:
        export_csv_record(row, st->buf);
        break;
    case EX_JSONL:
        put_row(row, st->buf);
        pr_buf_putc(st->buf, '\n');
        break;
    case EX_BENCHER:
        bencher_row(st, row);
        break;
    case EX_OTAVA:
        otava_row(st, row);
        break;
    }
    st->nrows++;
}

static void stream_end(ex_stream *st)
{
    if (st->fmt == EX_BENCHER)
        pr_buf_puts(st->buf, "}\n");
    if (st->fmt == EX_OTAVA) {
        pr_qsort(st->otava, st->notava, sizeof *st->otava, otava_qsort);
        for (size_t i = 0; i < st->notava; i++) {
            pr_buf_puts(st->buf, st->otava[i].text);
            free(st->otava[i].text);
            free(st->otava[i].date);
        }
        free(st->otava);
        st->otava = NULL;
    }
}

static const char *bom_refusal(export_format fmt, int bom)
{
    return bom && fmt != EX_CSV && fmt != EX_OTAVA
               ? "--bom is for csv and otava only (JSON has no byte order mark)"
               : NULL;
}

int export_render(const json_t *rows, export_format fmt, int bom, pr_buf *out, pr_err *err)
{
    const char *bad = bom_refusal(fmt, bom);
    if (bad)
        return pr_err_set(err, NULL, 0, 0, NULL, "%s", bad);
    ex_stream st;
    stream_begin(&st, fmt, bom, out);
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) stream_row(&st, row);
    stream_end(&st);
    return 0;
}

static int render_row(void *ctx, json_t *row)
{
    stream_row(ctx, row);
    return 0;
}

int export_render_world(const rmodel_world *w, export_format fmt, int bom, pr_buf *out, pr_err *err)
{
    const char *bad = bom_refusal(fmt, bom);
    if (bad)
        return pr_err_set(err, NULL, 0, 0, NULL, "%s", bad);
    ex_stream st;
    stream_begin(&st, fmt, bom, out);
    export_each_row(w, render_row, &st);
    stream_end(&st);
    return 0;
}

/* export_write's sink: each row rendered, then written once the buffer holds
 * 64 KiB. */
typedef struct write_ctx {
    ex_stream st;
    pr_buf buf;
    pr_outfile_out *o;
    pr_err *err;
    int rc;
} write_ctx;

static int flush(write_ctx *wc, size_t at_least)
{
    if (wc->rc == 0 && wc->buf.len >= at_least && wc->buf.len) {
        wc->rc = pr_outfile_write(wc->o, wc->buf.data, wc->buf.len, wc->err);
        pr_buf_clear(&wc->buf);
    }
    return wc->rc;
}

static int write_row(void *ctx, json_t *row)
{
    write_ctx *wc = ctx;
    stream_row(&wc->st, row);
    return flush(wc, (size_t)64 << 10);
}

int export_write(const rmodel_world *w, export_format fmt, int bom, pr_outfile_out *o, pr_err *err)
{
    const char *bad = bom_refusal(fmt, bom);
    if (bad)
        return pr_err_set(err, NULL, 0, 0, NULL, "%s", bad);
    write_ctx wc = {.o = o, .err = err};
    pr_buf_init(&wc.buf);
    stream_begin(&wc.st, fmt, bom, &wc.buf);
    export_each_row(w, write_row, &wc);
    stream_end(&wc.st);
    int rc = flush(&wc, 0);
    pr_buf_free(&wc.buf);
    return rc;
}
