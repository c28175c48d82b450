/* The export (export.h): CSV escaping (RFC 4180, commas, quotes, line
 * breaks, Chinese), numbers in their shortest exact form, and the rows of a
 * small hand-made data folder: a measured configuration with its
 * published table (median, interval, speedup, efficiency, gap verdict, a
 * failed case with its reason) and that table's rows as printed, in each
 * format. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "2-model/rmodel.h"
#include "3-tables/fw_columns.h"
#include "3-tables/fw_tables.h"
#include "6-output/export.h"
#include "base/md.h"
#include "jdoc.h"
#include "template/lang.h"
#include "testutil.h"

static char *csv_field(const char *s)
{
    pr_buf b = PR_BUF_INIT;
    md_csv_field(&b, s);
    return pr_buf_detach(&b);
}

Test(export, csv_fields_per_rfc_4180)
{
    const char *cases[][2] = {
        {"plain", "plain"},
        {"a,b", "\"a,b\""},
        {"say \"hi\"", "\"say \"\"hi\"\"\""},
        {"two\nlines", "\"two\nlines\""},
        {"cr\rhere", "\"cr\rhere\""},
        {"混合精度（AMP / FP16）", "混合精度（AMP / FP16）"},
        {"中文,逗号", "\"中文,逗号\""},
        {" spaced ", " spaced "},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = csv_field(cases[i][0]);
        cr_expect_str_eq(got, cases[i][1], "field \"%s\"", cases[i][0]);
        free(got);
    }
    char *null = csv_field(NULL);
    cr_expect_str_eq(null, "");
    free(null);
}

/* OWASP's CSV injection advice: a text cell starting with = + - @ tab or
 * CR is quoted with a leading ', so a spreadsheet shows it as text; a plain
 * number ("-3.5") stays a number. */
Test(export, csv_formulas_made_text)
{
    const char *cases[][2] = {
        {"=1+1", "\"'=1+1\""},
        {"+cmd|' /C calc'!A0", "\"'+cmd|' /C calc'!A0\""},
        {"-2+3", "\"'-2+3\""},
        {"@SUM(A1)", "\"'@SUM(A1)\""},
        {"\tx", "\"'\tx\""},
        {"\rx", "\"'\rx\""},
        {"=a,\"b\"", "\"'=a,\"\"b\"\"\""},
        {"-", "\"'-\""},
        {"-inf", "\"'-inf\""},
        {"-0x10", "\"'-0x10\""},
        {"-3.5", "-3.5"},
        {"+1e5", "+1e5"},
        {"-.5", "-.5"},
        {"+0.1%", "+0.1%"},
        {"-4.6%", "-4.6%"},
        {"+16.83 %", "\"'+16.83 %\""},
        {"-4%%", "\"'-4%%\""},
        {"a=b", "a=b"},
        {"−31.66 %", "−31.66 %"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = csv_field(cases[i][0]);
        cr_expect_str_eq(got, cases[i][1], "field \"%s\"", cases[i][0]);
        free(got);
    }
}

static char *shortest(double v)
{
    pr_buf b = PR_BUF_INIT;
    md_num_shortest(&b, v);
    return b.len ? pr_buf_detach(&b) : (pr_buf_free(&b), pr_xstrdup(""));
}

Test(export, numbers_in_their_shortest_exact_form)
{
    const struct {
        double v;
        const char *s;
    } cases[] = {{0.1, "0.1"},
                 {100, "100"},
                 {1510.92, "1510.92"},
                 {-2.5, "-2.5"},
                 {-0.0, "0"},
                 {1.5e-4, "0.00015"},
                 {1.5e-5, "1.5e-05"},
                 {2.7594938767729934e-5, "2.7594938767729934e-05"},
                 {1e-7, "1e-07"},
                 {1e20, "1e+20"},
                 {158.6111873, "158.6111873"},
                 {1.0 / 3, "0.3333333333333333"},
                 {NAN, ""}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = shortest(cases[i].v);
        cr_expect_str_eq(got, cases[i].s, "%.17g", cases[i].v);
        if (isfinite(cases[i].v))
            cr_expect(strtod(got, NULL) == cases[i].v, "%s reads back", got);
        free(got);
    }
}

/* The fewest digits, found from 15 up, agree with trying 1 to 17 in turn
 * on values of every size (a fixed pseudo-random sequence). */
Test(export, shortest_digits_are_the_fewest)
{
    unsigned long long x = 88172645463325252ull;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v = (double)(x >> 11) / 9007199254740992.0 * pow(10, (int)(x % 40) - 20);
        if (i % 3 == 0)
            v = round(v * 1e4) / 1e4; /* a few digits */
        int want = 17;
        for (int p = 1; p < 17; p++) {
            char b[40];
            snprintf(b, sizeof b, "%.*g", p, v);
            if (strtod(b, NULL) == v) {
                want = p;
                break;
            }
        }
        cr_assert_eq(md_num_shortest_digits(v), want, "%.17g", v);
        char *s = shortest(v);
        cr_assert(strtod(s, NULL) == v, "%s reads back as %.17g", s, v);
        free(s);
    }
}

static const char v100[] =
    "{\"perfrepro\": 1, \"title\": {\"zh\": \"V100 × 8\", \"en\": \"V100 x 8\"},\n"
    " \"device\": {\"kind\": \"gpu\", \"model\": \"Tesla V100-SXM2-32GB\", \"memory_gb\": 32,\n"
    "            \"per_node\": 8}, \"match\": [\"V100-SXM2-32GB\"]}\n";
static const char classes[] =
    "{\"perfrepro\": 1, \"classes\": [\n"
    " {\"id\": \"fp32\", \"title\": {\"zh\": \"FP32\", \"en\": \"FP32\"}, \"modes\": [\"fp32\"]},\n"
    " {\"id\": \"tf32\", \"title\": {\"zh\": \"TF32\", \"en\": \"TF32\"}, \"modes\": [\"tf32\"]},\n"
    " {\"id\": \"mixed\", \"title\": {\"zh\": \"混合精度\", \"en\": \"Mixed precision\"},\n"
    "  \"modes\": [\"amp\", \"fp16\", \"bf16\"]},\n"
    " {\"id\": \"fp8\", \"title\": {\"zh\": \"FP8\", \"en\": \"FP8\"}, \"modes\": [\"fp8\"]}]}\n";
/* The published table: a label with a comma and quotes, 100 at 1 GPU and
 * 800.0 (as printed) at 8. */
static const char published[] =
    "{\"perfrepro\": 1, \"label\": \"Src, \\\"q\\\"\",\n"
    " \"source\": {\"title\": \"Src\", \"url\": \"https://example.com/src\", \"date\": "
    "\"2020-09-01\",\n"
    "            \"line\": 12},\n"
    " \"platform\": \"V100-x8\", \"tables\": [\n"
    "  {\"model\": \"M\", \"framework\": \"F\", \"precision\": \"amp\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"throughput\": 100},\n"
    "    {\"nodes\": 1, \"gpus\": 8, \"throughput\": 800, \"printed\": \"800.0\"}]}]}\n";

/* A record of M/F amp BS=64 on the V100 at gpus, repeat rep; value < 0: it
 * failed out of memory. */
static void put_record(const char *dir, int gpus, int rep, double value)
{
    char *name = pr_xasprintf("F_amp_%d_r%d", gpus, rep);
    int nodes = gpus > 8 ? gpus / 8 : 1;
    char *fig = value < 0 ? pr_xstrdup("null") : pr_xasprintf("%g", value);
    char *rec = pr_xasprintf(
        "{\"log_file\": \"logs/train_log/%s\", \"model_name\": \"m\", \"mission_name\": \"x\",\n"
        " \"direction_id\": 0, \"run_mode\": \"%s\", \"index\": 1, \"gpu_num\": %d,\n"
        " \"FINAL_RESULT\": %s, \"JOB_FAIL_FLAG\": %d, \"UNIT\": \"images/s\", \"perfrepro\": 1,\n"
        " \"model\": \"M\", \"framework\": \"F\", \"case\": \"F_amp_%d\", \"precision\": \"amp\",\n"
        " \"batch_size\": 64, \"nodes\": %d, \"gpus_per_node\": %d, \"repeat\": %d,\n"
        " \"origin\": \"measured\", \"logs\": [], \"command\": [], \"platform\": \"V100-x8\",\n"
        " %s\"started_at\": \"2024-03-0%dT10:00:00Z\"}\n",
        name, gpus > 1 ? "mp" : "sp", gpus, fig, value < 0, gpus, nodes, gpus / nodes, rep,
        value < 0 ? "\"failure\": {\"reason\": \"oom\"}, " : "", rep);
    char *rel = pr_xasprintf("runs/r1/logs/index/%s_speed", name);
    char *log = pr_xasprintf("runs/r1/logs/train_log/%s", name);
    put(dir, rel, rec);
    put(dir, log, "ips: 1\n");
    free(log);
    free(rel);
    free(rec);
    free(fig);
    free(name);
}

static char *export_data(void)
{
    char *d = tmpdir();
    put(d, "platforms/V100-x8.json", v100);
    put(d, "precision-classes.json", classes);
    put(d, "published/src.json", published);
    put_record(d, 1, 1, 98);
    put_record(d, 1, 2, 100);
    put_record(d, 1, 3, 102);
    put_record(d, 8, 1, 700);
    put_record(d, 8, 2, 710);
    put_record(d, 8, 3, 720);
    put_record(d, 16, 1, -1);
    return d;
}

/* The CSV record of rows[i] (without its CRLF). */
static char *record_of(const json_t *rows, size_t i)
{
    pr_buf b = PR_BUF_INIT;
    export_csv_record(json_array_get(rows, i), &b);
    cr_assert(b.len >= 2 && strcmp(b.data + b.len - 2, "\r\n") == 0);
    pr_buf_truncate(&b, b.len - 2);
    return pr_buf_detach(&b);
}

Test(export, rows_of_a_small_data_folder)
{
    char *d = export_data();
    pr_dataset *ds = NULL;
    pr_err err;
    cr_assert(data_load(d, &ds, &err) == 0, "%s", err.msg);
    rmodel_world *w = rmodel_build(ds, "/tmp/perfrepro-export-out");
    json_t *rows = export_rows(w);
    /* Three reproduced cells (1, 8 and the failed 16 GPUs), then the
     * table's two published figures. */
    cr_assert_eq(json_array_size(rows), 5);
    /* every key a row has is an exported row of fw_columns (fw_columns.h) */
    size_t nexported = 0;
    for (size_t i = 0; i < fw_columns_count; i++)
        nexported += fw_columns[i].exported;
    cr_expect_eq(json_object_size(json_array_get(rows, 0)), nexported);
    cr_expect_eq(json_object_size(json_array_get(rows, 3)), nexported);
    char *r1 = record_of(rows, 0), *r8 = record_of(rows, 1), *r16 = record_of(rows, 2);
    char *p1 = record_of(rows, 3), *p8 = record_of(rows, 4);
    /* 98, 100, 102: the interval is min – max, 75 %.  The runs were
     * measured here: the published table is another machine's (issue 30,
     * finding 6), so no published figure, gap or verdict in the row. */
    char *want = pr_xasprintf(
        "M,F,V100-x8,r1,2024-03-01T10:00:00Z,amp,64,1,1,measured,,100,higher,images/s,,98,"
        "102,0.75,3,,1,100,,,,,,,,,,,,%s/runs/r1/logs/train_log/F_amp_1_r2,",
        d);
    cr_expect_str_eq(r1, want);
    free(want);
    /* Speedup 7.1, efficiency 88.75 %. */
    want = pr_xasprintf(
        "M,F,V100-x8,r1,2024-03-01T10:00:00Z,amp,64,1,8,measured,,710,higher,images/s,,700,720,"
        "0.75,3,,7.1,88.75,,,,,,,,,,,,%s/runs/r1/logs/train_log/F_amp_8_r2,",
        d);
    cr_expect_str_eq(r8, want);
    free(want);
    want = pr_xasprintf(
        "M,F,V100-x8,r1,2024-03-01T10:00:00Z,amp,64,2,16,failed,oom,,higher,images/s,,,,,1,,,,,,,"
        ",,,,,,,,%s/runs/r1/logs/train_log/F_amp_16_r1,",
        d);
    cr_expect_str_eq(r16, want);
    free(want);
    /* A published figure names its table (no repository: its label).
     * images/s: "higher" is better (lib/unitdir.c). */
    cr_expect_str_eq(
        p1, "M,F,V100-x8,,2020-09-01,amp,64,1,1,published,,100,higher,images/s,100,,,,,,,,,"
            "\"Src, \"\"q\"\"\",,,,,\"Src, \"\"q\"\"\",,,12,https://example.com/src,,");
    cr_expect_str_eq(
        p8, "M,F,V100-x8,,2020-09-01,amp,64,1,8,published,,800,higher,images/s,800.0,,,,,,8,100,,"
            "\"Src, \"\"q\"\"\",,,,,\"Src, \"\"q\"\"\",,,12,https://example.com/src,,");

    /* Each format, twice the same bytes. */
    const export_format fmts[] = {EX_CSV, EX_JSONL, EX_BENCHER, EX_OTAVA};
    for (size_t f = 0; f < 4; f++) {
        pr_buf a = PR_BUF_INIT, b = PR_BUF_INIT;
        cr_assert(export_render(rows, fmts[f], 0, &a, &err) == 0, "%s", err.msg);
        json_t *again = export_rows(w);
        cr_assert(export_render(again, fmts[f], 0, &b, &err) == 0, "%s", err.msg);
        cr_expect(a.len == b.len && memcmp(a.data, b.data, a.len) == 0, "format %zu", f);
        json_decref(again);
        /* Streamed (gen's figures.csv): the same bytes. */
        pr_buf c = PR_BUF_INIT;
        cr_assert(export_render_world(w, fmts[f], 0, &c, &err) == 0, "%s", err.msg);
        cr_expect(a.len == c.len && memcmp(a.data, c.data, a.len) == 0, "streamed, format %zu", f);
        pr_buf_free(&c);
        if (fmts[f] == EX_BENCHER) {
            json_error_t je;
            json_t *doc = json_loads(pr_buf_cstr(&a), 0, &je);
            cr_assert(doc, "%s", je.text);
            cr_expect_eq(json_object_size(doc), 2, "the two measured figures");
            json_t *m =
                json_object_get(json_object_get(doc, "M/F/V100-x8/amp/bs64/1x8/r1"), "throughput");
            cr_expect(json_real_value(json_object_get(m, "value")) == 710);
            cr_expect(json_real_value(json_object_get(m, "lower_value")) == 700);
            cr_expect(json_real_value(json_object_get(m, "upper_value")) == 720);
            json_decref(doc);
        } else if (fmts[f] == EX_JSONL) {
            /* The first line: the columns in order, numbers as numbers. */
            char *nl = strchr(pr_buf_cstr(&a), '\n');
            cr_assert(nl);
            json_t *o = json_loadb(a.data, (size_t)(nl - a.data), 0, NULL);
            cr_assert(o);
            cr_expect(json_real_value(json_object_get(o, "value")) == 100);
            cr_expect(json_is_null(json_object_get(o, "reason")));
            cr_expect(strncmp(a.data, "{\"model\":\"M\",\"framework\":\"F\",", 29) == 0);
            json_decref(o);
        } else if (fmts[f] == EX_OTAVA) {
            /* Oldest first: the published figures (2020), then the runs. */
            const char *want = "time,model,framework,platform,precision,batch_size,nodes,gpus,"
                               "run_set,source,direction,unit,throughput\r\n2020-09-01,M,F,"
                               "V100-x8,amp,64,1,1,,\"Src, \"\"q\"\"\",higher,images/s,100\r\n";
            cr_expect(strncmp(a.data, want, strlen(want)) == 0, "%s", a.data);
        }
        pr_buf_free(&a);
        pr_buf_free(&b);
    }
    /* A BOM for CSV and Otava only. */
    pr_buf bom = PR_BUF_INIT;
    cr_expect(export_render(rows, EX_CSV, 1, &bom, &err) == 0);
    cr_expect(bom.len > 3 && memcmp(bom.data, "\xEF\xBB\xBFmodel,", 9) == 0);
    pr_buf_clear(&bom);
    cr_expect(export_render(rows, EX_JSONL, 1, &bom, &err) < 0);
    pr_buf_free(&bom);
    free(r1);
    free(r8);
    free(r16);
    free(p1);
    free(p8);
    json_decref(rows);
    rmodel_free(w);
    data_free(ds);
    rm_rf(d);
    free(d);
}

/* Each real of a JSON line in its own shortest form: 0.05 beside a value
 * that needs 17 digits is "0.05", not 0.050000000000000003 (one precision
 * for the whole dump, issue 30 finding 6); Bencher the same. */
Test(export, json_reals_each_shortest)
{
    json_t *rows = json_array();
    json_t *row = json_object();
    json_object_set_new(row, "model", json_string("M"));
    json_object_set_new(row, "ci_coverage", json_real(0.05));
    json_object_set_new(row, "gap", json_real(0.1 + 0.2)); /* 17 digits */
    json_object_set_new(row, "value", json_real(-0.95));
    json_array_append_new(rows, row);
    pr_buf b = PR_BUF_INIT;
    pr_err err;
    cr_assert(export_render(rows, EX_JSONL, 0, &b, &err) == 0);
    /* Every column in column order (a column the row lacks is null). */
    const char *line = pr_buf_cstr(&b);
    cr_expect(strncmp(line, "{\"model\":\"M\",\"framework\":null,", 30) == 0, "%s", line);
    cr_expect(strstr(line, ",\"value\":-0.95,"), "%s", line);
    cr_expect(strstr(line, ",\"ci_coverage\":0.05,"), "%s", line);
    cr_expect(strstr(line, ",\"gap\":0.30000000000000004,"), "%s", line);
    cr_expect(strstr(line, ",\"rule\":null}\n"), "%s", line);
    pr_buf_free(&b);
    json_decref(rows);
}

/* Records are read and parsed on every processor (issue 31 #21); the error
 * is still the first in name order, the same at every load, and a check
 * across files (a missing log) before a broken file wins as it did. */
Test(export, records_loaded_in_parallel_first_error_in_name_order)
{
    char *d = export_data();
    for (int rep = 10; rep < 60; rep++)
        put_record(d, 8, rep, 700 + rep);
    put(d, "runs/r1/logs/index/F_amp_8_r45x_speed", "{\"broken\": ");
    put(d, "runs/r1/logs/index/F_amp_8_r52x_speed", "[1,");
    pr_err err;
    for (int i = 0; i < 20; i++) {
        pr_dataset *ds = NULL;
        cr_assert(data_load(d, &ds, &err) < 0);
        cr_expect(strstr(err.msg, "F_amp_8_r45x_speed") && strstr(err.msg, "invalid JSON"), "%s",
                  err.msg);
    }
    char *log = pr_fileio_path_join(d, "runs/r1/logs/train_log/F_amp_8_r30");
    cr_assert(unlink(log) == 0);
    pr_dataset *ds = NULL;
    cr_assert(data_load(d, &ds, &err) < 0);
    cr_expect(strstr(err.msg, "F_amp_8_r30_speed: log_file") != NULL, "%s", err.msg);
    free(log);
    rm_rf(d);
    free(d);
}
/* The recipe "How to add a column" (gen/README.md), followed once: a
 * throwaway column, the GPUs squared, added as one row of the column
 * table shows in the reproduction table (its heading and each row's cell)
 * and in the export (its key last, its value in each row: reproduced and
 * published; null where the published row's function says none). */
static void sq_head(const fw_columns_table *t, size_t pub, pr_buf *out)
{
    (void)t;
    (void)pub;
    pr_buf_puts(out, "GPUs²");
}
static void sq_cell(fw_columns_row *r, pr_buf *out)
{
    pr_buf_printf(out, "%d", r->rc->gpus * r->rc->gpus);
}
static json_t *sq_value(const rmodel_fw *f, const rmodel_cfg *c, const rmodel_cell *rc)
{
    (void)f;
    (void)c;
    return json_integer(rc->gpus * rc->gpus);
}
static json_t *sq_pub_value(const rmodel_fw *f, const pr_pub_table *t, const pr_pub_row *r)
{
    (void)f;
    (void)t;
    return r->gpus > 1 ? json_integer(r->gpus * r->gpus) : json_null();
}

Test(export, a_column_is_one_row)
{
    char *d = export_data();
    pr_dataset *ds = NULL;
    pr_err err;
    cr_assert(data_load(d, &ds, &err) == 0, "%s", err.msg);
    rmodel_world *w = rmodel_build(ds, "/tmp/perfrepro-export-out");
    size_t n = fw_columns_count + 1;
    fw_columns_column *t = calloc(n, sizeof *t);
    memcpy(t, fw_columns, fw_columns_count * sizeof *t);
    t[n - 1] = (fw_columns_column){.key = "gpus_squared",
                                   .exported = 1,
                                   .head = sq_head,
                                   .cell = sq_cell,
                                   .value = sq_value,
                                   .pub_value = sq_pub_value};
    /* the page: the heading last, a cell in each row */
    lang l = {"en", "README.en.md", "README.md", NULL, NULL, NULL, NULL, {NULL}};
    cr_assert(lang_load(&l, "templates", &err) == 0, "%s", err.msg);
    const rmodel_fw *f = w->models[0]->fws[0];
    view_notes nt;
    memset(&nt, 0, sizeof nt);
    pr_buf page = PR_BUF_INIT, own = PR_BUF_INIT;
    fw_tables_repro_table_of(t, n, w, &l, f, &f->cfgs[0], "", &nt, &page, &err);
    fw_tables_repro_table(w, &l, f, &f->cfgs[0], "", &nt, &own, &err);
    const char *md = pr_buf_cstr(&page);
    cr_assert(strstr(md, " | log | GPUs² |\n"), "%s", md);
    cr_assert(strstr(md, " | 1 |\n") && strstr(md, " | 64 |\n") && strstr(md, " | 256 |\n"), "%s",
              md);
    cr_assert(!strstr(pr_buf_cstr(&own), "GPUs²"));
    /* the export: the key last; 1, 64, 256 in the reproduced rows; the
     * published 1 and 8 GPUs: null (its function says none below 2), 64 */
    json_t *rows = export_rows_of(t, n, w);
    cr_assert_eq(json_array_size(rows), 5);
    const long long want[] = {1, 64, 256};
    for (size_t i = 0; i < 5; i++) {
        json_t *row = json_array_get(rows, i);
        const char *key = NULL, *k;
        json_t *v;
        json_object_foreach(row, k, v) key = k;
        cr_assert_str_eq(key, "gpus_squared");
        v = json_object_get(row, "gpus_squared");
        if (i == 3)
            cr_assert(json_is_null(v), "row %zu", i);
        else
            cr_assert_eq(json_integer_value(v), i < 3 ? want[i] : 64, "row %zu", i);
    }
    json_decref(rows);
    pr_buf_free(&page);
    pr_buf_free(&own);
    lang_free(&l);
    free(t);
    rmodel_free(w);
    data_free(ds);
    rm_rf(d);
    free(d);
}

/* Every row of the column table is whole: a cell has a heading, a column
 * is in the table or the export, keys are unique. */
Test(export, every_column_row_is_whole)
{
    for (size_t i = 0; i < fw_columns_count; i++) {
        const fw_columns_column *c = &fw_columns[i];
        cr_expect(c->key && *c->key, "row %zu has no key", i);
        cr_expect(c->exported || c->cell, "%s: neither shown nor exported", c->key);
        cr_expect(!c->cell == !(c->head || c->head_id), "%s: cell and heading", c->key);
        cr_expect(!(c->value || c->pub_value) || c->exported, "%s: a value not exported", c->key);
        for (size_t j = 0; j < i; j++)
            cr_expect(strcmp(c->key, fw_columns[j].key) != 0, "%s twice", c->key);
    }
}
