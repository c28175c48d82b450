/* perfrepro-gen import-table: published figures read from real READMEs
 * (../shared/perf, PaddlePaddle/Perf; skipped when absent) and from small
 * tables made here, kept exactly as printed, loadable by gen. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <cmark-gfm.h>

#include "1-load/data.h"
#include "base/cmarkx.h"
#include "gentest.h"
#include "import/mdimport.h"
#include "jdoc.h"
#include "testutil.h"

#define COMMIT "e7a07c4d39e04de5e24652daaf02d204f0209acb"

/* The PaddlePaddle/Perf snapshot: $PERFREPRO_SHARED/perf (../shared/perf by
 * default), as the other tests find the shared data. */
static const char *perf_dir(void)
{
    static char dir[4096];
    const char *s = getenv("PERFREPRO_SHARED");
    snprintf(dir, sizeof dir, "%s/perf", s && *s ? s : "../shared");
    return dir;
}

/* PATH under the snapshot; a few live at once (static storage). */
static const char *perf_file(const char *rel)
{
    static char paths[4][8192];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", perf_dir(), rel);
    return p;
}

static int have_perf(void)
{
    struct stat st;
    return stat(perf_file("README.md"), &st) == 0;
}

static pr_mdimport_opts opts(const char *md, const char *path, const char *after,
                             const char *column, const char *out)
{
    pr_mdimport_opts o;
    memset(&o, 0, sizeof o);
    o.markdown = md;
    o.path = path;
    o.heading = after;
    o.column = column;
    o.model = "ResNet50";
    o.framework = "Paddle";
    o.precision = "fp32";
    o.batch_size = 256;
    o.unit = "images/s";
    o.platform = "unstated";
    o.repo = "PaddlePaddle/Perf";
    o.commit = COMMIT;
    o.gpus_per_node = 8;
    o.out = out;
    return o;
}

/* The rows of the first table of a published file, as "gpus:printed" or
 * "gpus:STATE" joined by spaces; the caller frees it. */
static char *rows_of(const char *file)
{
    json_error_t je;
    json_t *j = json_load_file(file, 0, &je);
    cr_assert(j, "%s: %s", file, je.text);
    json_t *rows = json_object_get(json_array_get(json_object_get(j, "tables"), 0), "rows");
    pr_buf b = PR_BUF_INIT;
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r)
    {
        json_t *p = json_object_get(r, "printed");
        pr_buf_printf(&b, "%s%lld:%s", i ? " " : "",
                      (long long)json_integer_value(json_object_get(r, "gpus")),
                      p ? json_string_value(p) : json_string_value(json_object_get(r, "state")));
    }
    json_decref(j);
    return pr_buf_detach(&b);
}

/* gen loads the file (with dir's platforms): NULL, or the error. */
static const char *loads(const char *dir)
{
    static pr_err err;
    pr_dataset *d = NULL;
    if (data_load(dir, &d, &err) < 0)
        return err.msg;
    data_free(d);
    return NULL;
}

Test(mdimport, a_real_readme_keeps_every_figure_as_printed)
{
    if (!have_perf())
        cr_skip_test("no %s", perf_dir());
    char *dir = tmpdir();
    char *out = pr_fileio_path_join(dir, "published/perf.json");
    pr_mdimport_opts o = opts(perf_file("ResNet50V1.5/README.md"), "ResNet50V1.5/README.md",
                              "V100上训练吞吐率", "FP32(BS=256)", out);
    char *summary = NULL, *warnings = NULL;
    pr_err err;
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) == 0, "%s", err.msg);
    cr_expect(strstr(summary, "README.md:201: table 2"), "%s", summary);
    char *rows = rows_of(out);
    cr_expect_str_eq(rows, "1:393.561 8:3019.361 32:10984.436");
    free(rows);
    /* The top README: "GPU=8,BS=256" rows, linked column heads, a "-" cell. */
    pr_mdimport_opts top = opts(perf_file("README.md"), "README.md", "FP32测试", "NGC MXNet", out);
    top.framework = "NGC-MXNet";
    free(summary);
    cr_assert(mdimport_run(&top, &summary, &warnings, &err) == 0, "%s", err.msg);
    cr_expect(strstr(summary, "2 row(s), 1 empty cell(s) left out"), "%s", summary);
    json_error_t je;
    json_t *j = json_load_file(out, 0, &je);
    cr_assert(j);
    json_t *t = json_array_get(json_object_get(j, "tables"), 1);
    json_t *r0 = json_array_get(json_object_get(t, "rows"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(r0, "printed")), "380.55");
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(t, "source"), "url")),
                     "https://github.com/PaddlePaddle/Perf/blob/" COMMIT "/README.md#L68");
    json_decref(j);
    const char *e = loads(dir);
    cr_expect(!e, "gen refuses what import-table wrote: %s", e);
    free(summary);
    free(out);
    rm_rf(dir);
    free(dir);
}

Test(mdimport, exact_strings_notes_in_cells_and_reimport)
{
    char *dir = tmpdir();
    put(dir, "t.md",
        "# Results\n\n"
        "- On V100:\n\n"
        "  |卡数 | FP32(BS=256) | FP16(BS=256) |\n"
        "  |:-----:|:-----:|:-----:|\n"
        "  |1 | 428 | 33082.12 (O2) |\n"
        "  |8 | 2946.30 |  |\n"
        "  |4机32卡 | 19.428 | OOM |\n");
    char *md = pr_fileio_path_join(dir, "t.md"),
         *out = pr_fileio_path_join(dir, "published/p.json");
    pr_mdimport_opts o = opts(md, "t.md", "On V100", "FP32(BS=256)", out);
    char *summary = NULL, *warnings = NULL;
    pr_err err;
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) == 0, "%s", err.msg);
    free(summary);
    char *rows = rows_of(out);
    cr_expect_str_eq(rows, "1:428 8:2946.30 32:19.428");
    free(rows);
    /* 428 stays a whole number in the file, 2946.30 keeps its zero as printed. */
    pr_buf text = PR_BUF_INIT;
    cr_assert(pr_fileio_read_file(out, &text, &err) == 0);
    cr_expect(strstr(text.data, "\"throughput\": 428,"), "%s", text.data);
    cr_expect(strstr(text.data, "\"printed\": \"2946.30\""), "%s", text.data);
    pr_buf_free(&text);
    /* FP16: a note printed in a cell goes to the table's note; an empty
     * cell is no row; OOM is a state. */
    o.column = "FP16(BS=256)";
    o.precision = "fp16";
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) == 0, "%s", err.msg);
    cr_expect(strstr(summary, "1 empty cell(s) left out"), "%s", summary);
    free(summary);
    json_error_t je;
    json_t *j = json_load_file(out, 0, &je);
    json_t *tables = json_object_get(j, "tables");
    cr_assert_eq(json_array_size(tables), 2);
    json_t *t = json_array_get(tables, 1);
    /* gen words that note itself, so in both languages */
    json_t *note = json_object_get(t, "note");
    cr_expect(strstr(json_string_value(json_object_get(note, "en")), "1 GPU: \"(O2)\""));
    cr_expect(strstr(json_string_value(json_object_get(note, "zh")), "1 卡：“(O2)”"));
    json_t *rs = json_object_get(t, "rows");
    cr_assert_eq(json_array_size(rs), 2);
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(rs, 1), "state")), "OOM");
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(rs, 1), "nodes")), 4);
    json_decref(j);
    /* The same import again replaces its table. */
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) == 0, "%s", err.msg);
    cr_expect(strstr(summary, "replaced"), "%s", summary);
    free(summary);
    j = json_load_file(out, 0, &je);
    cr_expect_eq(json_array_size(json_object_get(j, "tables")), 2);
    json_decref(j);
    cr_expect(!loads(dir), "%s", loads(dir));
    free(md);
    free(out);
    rm_rf(dir);
    free(dir);
}

Test(mdimport, comparison_tables_a_column_per_framework)
{
    char *dir = tmpdir();
    put(dir, "t.md",
        "## 2.与业内其它框架对比\n\n"
        "- V100-AMP测试\n\n"
        "  | 参数 | [PaddlePaddle](./x) | NGC MXNet |\n"
        "  |:-----:|:-----:|:-----:|\n"
        "  | GPU=1,BS=256 | 1438.518(O2) | 1471.9 |\n"
        "  | GPU=8, BS=256 | 10936.815(O2) | 10336 |\n"
        "  | GPU=32,BS=256 | 39972.131 | —— |\n\n"
        "- A100-AMP测试\n\n"
        "  | 参数 | NGC MXNet |\n"
        "  |:-----:|:-----:|\n"
        "  | GPU=1,BS=96 | 3046.4 |\n"
        "  | GPU=8,BS=x | 22690 |\n");
    char *md = pr_fileio_path_join(dir, "t.md"),
         *out = pr_fileio_path_join(dir, "published/p.json");
    /* A linked column head; notes in parentheses with no blank go to the note. */
    pr_mdimport_opts o = opts(md, "t.md", "V100-AMP测试", "PaddlePaddle", out);
    o.precision = "amp";
    char *summary = NULL, *warnings = NULL;
    pr_err err;
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) == 0, "%s", err.msg);
    free(summary);
    char *rows = rows_of(out);
    cr_expect_str_eq(rows, "1:1438.518 8:10936.815 32:39972.131");
    free(rows);
    json_error_t je;
    json_t *j = json_load_file(out, 0, &je);
    json_t *t = json_array_get(json_object_get(j, "tables"), 0);
    cr_expect(strstr(json_string_value(json_object_get(json_object_get(t, "note"), "en")),
                     "8 GPUs: \"(O2)\""));
    json_decref(j);
    /* "——" is no figure. */
    o.column = "NGC MXNet";
    o.framework = "NGC-MXNet";
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) == 0, "%s", err.msg);
    cr_expect(strstr(summary, "2 row(s), 1 empty cell(s) left out"), "%s", summary);
    free(summary);
    cr_expect(!loads(dir), "%s", loads(dir));
    /* A batch size printed in the row must be --batch-size. */
    o.batch_size = 128;
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) < 0);
    cr_expect(strstr(err.msg, "t.md:7:") && strstr(err.msg, "--batch-size") &&
                  strstr(err.msg, "\"GPU=1,BS=256\" prints batch size 256, not 128"),
              "%s", err.msg);
    o.heading = "A100-AMP测试";
    o.batch_size = 96;
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) < 0);
    cr_expect(strstr(err.msg, "t.md:16:") && strstr(err.msg, "\"GPU=8,BS=x\" names no GPU count"),
              "%s", err.msg);
    free(md);
    free(out);
    rm_rf(dir);
    free(dir);
}

Test(mdimport, a_real_comparison_table_indented_under_a_list_item)
{
    if (!have_perf())
        cr_skip_test("no %s", perf_dir());
    char *dir = tmpdir();
    char *out = pr_fileio_path_join(dir, "published/perf.json");
    pr_mdimport_opts o =
        opts(perf_file("Bert/README.md"), "Bert/README.md", "V100-FP32测试", "NGC PyTorch", out);
    o.model = "BERT-Base";
    o.framework = "NGC-PyTorch";
    o.batch_size = 96;
    o.unit = "sequences/s";
    char *summary = NULL, *warnings = NULL;
    pr_err err;
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) == 0, "%s", err.msg);
    cr_expect(strstr(summary, "README.md:296: table 3"), "%s", summary);
    free(summary);
    char *rows = rows_of(out);
    cr_expect_str_eq(rows, "1:158.6111 8:1232.11 32:3496.94");
    free(rows);
    /* Its A100 rows print BS=96 where the NGC README's own table says 128. */
    o.heading = "A100-FP32测试";
    o.batch_size = 128;
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) < 0);
    cr_expect(strstr(err.msg, "README.md:317:") && strstr(err.msg, "prints batch size 96, not 128"),
              "%s", err.msg);
    free(out);
    rm_rf(dir);
    free(dir);
}

Test(mdimport, clear_errors)
{
    char *dir = tmpdir();
    put(dir, "t.md",
        "|卡数 | FP32(BS=256) |\n|---|---|\n|1 | 1,234.5 |\n\n"
        "|GPUs | FP32 |\n|---|---|\n|one | 12 |\n");
    char *md = pr_fileio_path_join(dir, "t.md"), *out = pr_fileio_path_join(dir, "p.json");
    pr_mdimport_opts o = opts(md, "t.md", NULL, "FP16(BS=256)", out);
    o.table = 1;
    char *summary = NULL, *warnings = NULL;
    pr_err err;
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) < 0);
    cr_expect(strstr(err.msg, "t.md:1:") && strstr(err.msg, "no column \"FP16(BS=256)\"") &&
                  strstr(err.msg, "\"卡数\", \"FP32(BS=256)\""),
              "%s", err.msg);
    o.column = "FP32(BS=256)";
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) < 0);
    cr_expect(strstr(err.msg, "t.md:3:") && strstr(err.msg, "\"1,234.5\" is not a figure"), "%s",
              err.msg);
    o.table = 2;
    o.column = "FP32";
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) < 0);
    cr_expect(strstr(err.msg, "t.md:7:") && strstr(err.msg, "\"one\" names no GPU count"), "%s",
              err.msg);
    o.table = 3;
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) < 0);
    cr_expect(strstr(err.msg, "no table 3 (the file has 2)"), "%s", err.msg);
    o.table = 1;
    o.commit = "main; rm -rf /";
    cr_assert(mdimport_run(&o, &summary, &warnings, &err) < 0);
    cr_expect(strstr(err.msg, "--commit"), "%s", err.msg);
    struct stat st;
    cr_expect(stat(out, &st) < 0, "a failed import wrote its file");
    free(md);
    free(out);
    rm_rf(dir);
    free(dir);
}

/* ------------------------------------------- hardening, round three (#22) */

/* The file's bytes ("" when absent); the caller frees them. */
static char *bytes_of(const char *path)
{
    pr_buf b = PR_BUF_INIT;
    pr_err err;
    if (pr_fileio_is_file(path))
        cr_assert(pr_fileio_read_file(path, &b, &err) == 0, "%s", err.msg);
    return pr_buf_detach(&b);
}

/* Imports column V of the one table of md text into dir/published/p.json:
 * 0 or -1 (err), the warnings in *warnings (NULL when none; freed by the
 * caller). */
static int import_text(const char *dir, const char *text, const char *platform, char **warnings,
                       pr_err *err)
{
    put(dir, "t.md", text);
    char *md = pr_fileio_path_join(dir, "t.md"),
         *out = pr_fileio_path_join(dir, "published/p.json");
    pr_mdimport_opts o = opts(md, "t.md", NULL, "V", out);
    o.table = 1;
    o.platform = platform;
    char *summary = NULL;
    *warnings = NULL;
    int rc = mdimport_run(&o, &summary, warnings, err);
    free(summary);
    free(md);
    free(out);
    return rc;
}

/* Before: 9223372036854775809 was written as -9223372036854775808 (an
 * unchecked cast) and 9007199254740993 as ...992 with "printed" ...993,
 * both with exit 0, and gen loaded the latter. */
Test(mdimport, a_figure_that_cannot_be_kept_exactly_is_refused)
{
    char *dir = tmpdir();
    char *out = pr_fileio_path_join(dir, "published/p.json");
    static const struct {
        const char *cell, *why;
    } bad[] = {
        {"9223372036854775809", "beyond the largest whole number a file keeps"},
        {"9223372036854775807", "would be read back as 9223372036854775808"},
        {"9007199254740993", "would be read back as 9007199254740992"},
        {"1234567.123456789", "would be read back as 1234567.123456790"},
        {"1.000000000000000001", "would be read back as 1.000000000000000000"},
    };
    pr_err err;
    char *warnings = NULL;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *md = pr_xasprintf("|GPUs|V|\n|-|-|\n|1|100|\n|8|%s|\n", bad[i].cell);
        cr_expect(import_text(dir, md, "unstated", &warnings, &err) < 0, "%s imported",
                  bad[i].cell);
        cr_expect(strstr(err.msg, "t.md:4:") && strstr(err.msg, "cannot be kept exactly") &&
                      strstr(err.msg, bad[i].cell) && strstr(err.msg, bad[i].why),
                  "%s: %s", bad[i].cell, err.msg);
        cr_expect(!pr_fileio_is_file(out), "%s: a file was written", bad[i].cell);
        free(md);
    }
    /* What a double holds exactly is kept, as a whole number or as printed. */
    cr_assert(import_text(dir,
                          "|GPUs|V|\n|-|-|\n|1|9007199254740992|\n|8|1152921504606846976|\n"
                          "|16|12345678901234.5|\n|32|0.10|\n",
                          "unstated", &warnings, &err) == 0,
              "%s", err.msg);
    char *rows = rows_of(out);
    cr_expect_str_eq(rows, "1:9007199254740992 8:1152921504606846976 16:12345678901234.5 32:0.10");
    free(rows);
    char *text = bytes_of(out);
    cr_expect(strstr(text, "\"throughput\": 1152921504606846976,"), "%s", text);
    free(text);
    cr_expect(!loads(dir), "%s", loads(dir));
    free(out);
    rm_rf(dir);
    free(dir);
}

/* Before: gen took "printed" as the row's figure when strtod of it equalled
 * the number: "9007199254740993" beside 9007199254740992 loaded, and so did
 * "1.0000000000000001" beside 1 (the text says a figure the number does not
 * print as).  A whole number a double cannot hold was read rounded. */
Test(mdimport, validate_refuses_printed_text_that_is_not_the_stored_number)
{
    static const struct {
        const char *row, *field, *msg;
    } bad[] = {
        {"\"throughput\": 9007199254740992, \"printed\": \"9007199254740993\"", "rows[0].printed",
         "\"9007199254740993\" is not the row's throughput (9007199254740992)"},
        {"\"throughput\": 1.0, \"printed\": \"1.0000000000000001\"", "rows[0].printed",
         "is not the row's throughput"},
        {"\"throughput\": 2946.3, \"printed\": \"2946.31\"", "rows[0].printed",
         "is not the row's throughput"},
        {"\"throughput\": 428, \"printed\": \".428e3\"", "rows[0].printed", "not the printed form"},
        {"\"throughput\": 9007199254740993", "rows[0].throughput",
         "9007199254740993 is not kept exactly as a number (it is read as 9007199254740992)"},
        {"\"throughput\": 9007199254740993, \"printed\": \"9007199254740993\"",
         "rows[0].throughput", "is not kept exactly"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *dir = tmpdir();
        char *json =
            pr_xasprintf("{\"perfrepro\": 1, \"source\": {\"title\": \"x\"}, "
                         "\"platform\": \"unstated\", \"tables\": [{\"model\": \"M\", "
                         "\"framework\": \"F\", \"precision\": \"fp32\", \"batch_size\": 1, "
                         "\"unit\": \"u\", \"rows\": [{\"nodes\": 1, \"gpus\": 1, %s}]}]}\n",
                         bad[i].row);
        put(dir, "published/p.json", json);
        const char *e = loads(dir);
        cr_expect(e && strstr(e, "p.json:1:") && strstr(e, bad[i].field) && strstr(e, bad[i].msg),
                  "%s: %s", bad[i].row, e ? e : "loaded");
        free(json);
        rm_rf(dir);
        free(dir);
    }
    /* The printed forms import-table writes still load. */
    char *dir = tmpdir();
    put(dir, "published/p.json",
        "{\"perfrepro\": 1, \"source\": {\"title\": \"x\"}, \"platform\": \"unstated\", "
        "\"tables\": [{\"model\": \"M\", \"framework\": \"F\", \"precision\": \"fp32\", "
        "\"batch_size\": 1, \"unit\": \"u\", \"rows\": ["
        "{\"nodes\": 1, \"gpus\": 1, \"throughput\": 2946.3, \"printed\": \"2946.30\"},"
        "{\"nodes\": 1, \"gpus\": 2, \"throughput\": 428, \"printed\": \"428\"},"
        "{\"nodes\": 1, \"gpus\": 4, \"throughput\": 0.1, \"printed\": \"0.1\"},"
        "{\"nodes\": 1, \"gpus\": 8, \"throughput\": 9007199254740992, \"printed\": "
        "\"9007199254740992\"}]}]}\n");
    cr_expect(!loads(dir), "%s", loads(dir));
    rm_rf(dir);
    free(dir);
}

/* Before: a table with two rows for one configuration was imported (a
 * 500,000-row table of 8s: 4.6 s, 1.1 GB, a 63 MB file) and gen refused
 * the file afterwards. */
Test(mdimport, a_second_row_of_a_configuration_is_refused_naming_both_lines)
{
    char *dir = tmpdir();
    char *out = pr_fileio_path_join(dir, "published/p.json");
    pr_err err;
    char *warnings = NULL;
    cr_expect(import_text(dir, "|GPUs|V|\n|-|-|\n|1|100|\n|8|700|\n|8|8|\n|8|8|\n", "unstated",
                          &warnings, &err) < 0);
    cr_expect(strstr(err.msg, "t.md:5: a second row for 1 node(s), 8 GPU(s) (the first is ") &&
                  strstr(err.msg, "t.md:4)"),
              "%s", err.msg);
    /* The same configuration written two ways. */
    cr_expect(import_text(dir, "|GPUs|V|\n|-|-|\n|4机32卡|100|\n|8|700|\n|32|700|\n", "unstated",
                          &warnings, &err) < 0);
    cr_expect(strstr(err.msg, "t.md:5: a second row for 4 node(s), 32 GPU(s)") &&
                  strstr(err.msg, "t.md:3)"),
              "%s", err.msg);
    /* An empty cell is no row: no repeat. */
    cr_expect(import_text(dir, "|GPUs|V|\n|-|-|\n|8|-|\n|8|700|\n", "unstated", &warnings, &err) ==
                  0,
              "%s", err.msg);
    free(warnings);
    remove(out);
    /* Past PR_MDIMPORT_MAX_ROWS rows (each its own GPU count) it stops there. */
    pr_buf md = PR_BUF_INIT;
    pr_buf_puts(&md, "|GPUs|V|\n|-|-|\n");
    for (int i = 1; i <= PR_MDIMPORT_MAX_ROWS + 5; i++)
        pr_buf_printf(&md, "|%d|%d|\n", 8 * i, i);
    cr_expect(import_text(dir, pr_buf_cstr(&md), "unstated", &warnings, &err) < 0);
    char *want = pr_xasprintf("t.md:%d: table 1 has more than %d rows", PR_MDIMPORT_MAX_ROWS + 3,
                              PR_MDIMPORT_MAX_ROWS);
    cr_expect(strstr(err.msg, want), "%s", err.msg);
    cr_expect(!pr_fileio_is_file(out));
    free(want);
    pr_buf_free(&md);
    free(out);
    rm_rf(dir);
    free(dir);
}

/* Before: a re-import replaced the table whatever the result (a duplicate
 * row, an unknown platform, a table another file already has), so a good
 * file became one the build refuses.  Now the new content is checked as the
 * build loads it before it replaces the file. */
Test(mdimport, a_reimport_never_replaces_a_good_file_with_a_bad_one)
{
    char *dir = tmpdir();
    put(dir, "platforms/V100-x8.json",
        "{\"perfrepro\": 1, \"title\": {\"zh\": \"V100 × 8\", \"en\": \"V100 x 8\"}, \"device\": "
        "{\"kind\": \"gpu\", "
        "\"model\": \"Tesla V100-SXM2-32GB\", \"memory_gb\": 32, \"per_node\": 8}}\n");
    char *out = pr_fileio_path_join(dir, "published/p.json"),
         *other = pr_fileio_path_join(dir, "published/q.json");
    pr_err err;
    char *warnings = NULL;
    cr_assert(import_text(dir, "|GPUs|V|\n|-|-|\n|1|100|\n|8|700|\n", "V100-x8", &warnings, &err) ==
                  0,
              "%s", err.msg);
    cr_assert(!loads(dir), "%s", loads(dir));
    char *good = bytes_of(out);
    /* a second row of a configuration */
    cr_expect(import_text(dir, "|GPUs|V|\n|-|-|\n|1|100|\n|1|110|\n", "V100-x8", &warnings, &err) <
              0);
    cr_expect(strstr(err.msg, "a second row"), "%s", err.msg);
    /* a platform the data folder does not have */
    cr_expect(import_text(dir, "|GPUs|V|\n|-|-|\n|1|100|\n", "A100-x8", &warnings, &err) < 0);
    cr_expect(strstr(err.msg, "p.json not written, the build would refuse the new content: ") &&
                  strstr(err.msg, "platform") && strstr(err.msg, "unknown platform \"A100-x8\""),
              "%s", err.msg);
    char *now = bytes_of(out);
    cr_expect_str_eq(now, good, "the good file was replaced");
    free(now);
    /* the table another file of the folder already has */
    put(dir, "t.md", "|GPUs|V|\n|-|-|\n|1|100|\n");
    char *md = pr_fileio_path_join(dir, "t.md");
    pr_mdimport_opts o = opts(md, "t.md", NULL, "V", other);
    o.table = 1;
    o.platform = "V100-x8";
    char *summary = NULL;
    cr_expect(mdimport_run(&o, &summary, &warnings, &err) < 0);
    cr_expect(strstr(err.msg, "q.json not written") &&
                  strstr(err.msg, "duplicate published table") &&
                  strstr(err.msg, "p.json, table 0"),
              "%s", err.msg);
    cr_expect(!pr_fileio_is_file(other));
    cr_expect(!loads(dir), "%s", loads(dir));
    free(md);
    free(good);
    free(out);
    free(other);
    rm_rf(dir);
    free(dir);
}

/* 1 when a rendered page has raw HTML (a tag, not text) mentioning what. */
static int page_has_html(const char *page, const char *what)
{
    pr_cmarkx_doc d;
    cmarkx_parse(&d, page, strlen(page), CMARK_OPT_DEFAULT);
    cmark_iter *it = cmark_iter_new(d.root);
    cmark_event_type ev;
    int found = 0;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(n);
        const char *lit = cmark_node_get_literal(n);
        if (ev == CMARK_EVENT_ENTER &&
            (t == CMARK_NODE_HTML_INLINE || t == CMARK_NODE_HTML_BLOCK) && lit &&
            strcasestr(lit, what))
            found = 1;
        if (ev == CMARK_EVENT_ENTER && t == CMARK_NODE_IMAGE)
            found |= strcasestr(cmark_node_get_url(n), "x.png") != NULL;
    }
    cmark_iter_free(it);
    cmarkx_free(&d);
    return found;
}

/* Before: "100 <img ...>" and "100 ![a](x.png)" gave the table no note and
 * "<script>alert(1)</script>" kept only "alert(1)", without a word.  Now the
 * note keeps the text GitHub shows (an image's alt text), a warning names
 * the line and what was left out, and the note is plain text that the
 * reports escape. */
Test(mdimport, html_and_images_in_cells_are_named_and_the_note_stays_text)
{
    char *dir = tmpdir();
    char *out = pr_fileio_path_join(dir, "published/p.json");
    pr_err err;
    char *warnings = NULL;
    cr_assert(import_text(dir,
                          "|GPUs|V|\n|-|-|\n"
                          "|1|100 <img src=x onerror=alert(1)>|\n"
                          "|2|200 ![alt a](x.png)|\n"
                          "|4|400 <script>alert(1)</script>|\n"
                          "|8|![800](x.png)|\n"
                          "|<b>16</b>|1600 \\<img src=y onerror=alert(2)\\>|\n"
                          "|32|<img src=z.png>|\n",
                          "unstated", &warnings, &err) == 0,
              "%s", err.msg);
    cr_assert(warnings);
    static const char *const want[] = {
        "t.md:3: left out of the row's cells: raw HTML <img> (read as \"1\", \"100\")",
        "t.md:4: left out of the row's cells: an image (x.png) (read as \"2\", \"200 alt a\")",
        "t.md:5: left out of the row's cells: raw HTML <script>; raw HTML </script> (read as "
        "\"4\", \"400 alert(1)\")",
        "t.md:6: left out of the row's cells: an image (x.png) (read as \"8\", \"800\")",
        "t.md:7: left out of the row's cells: raw HTML <b>; raw HTML </b>",
        "t.md:8: left out of the row's cells: raw HTML <img> (read as \"32\", \"\")",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect(strstr(warnings, want[i]), "no \"%s\" in:\n%s", want[i], warnings);
    cr_expect(!strstr(warnings, "t.md:2:"), "%s", warnings);
    free(warnings);
    char *rows = rows_of(out);
    cr_expect_str_eq(rows, "1:100 2:200 4:400 8:800 16:1600");
    free(rows);
    json_error_t je;
    json_t *j = json_load_file(out, 0, &je);
    cr_assert(j, "%s", je.text);
    json_t *note = json_object_get(json_array_get(json_object_get(j, "tables"), 0), "note");
    cr_expect_str_eq(json_string_value(json_object_get(note, "en")),
                     "Notes printed in the cells: 2 GPUs: \"alt a\"; 4 GPUs: \"alert(1)\"; "
                     "16 GPUs: \"<img src=y onerror=alert(2)>\".");
    json_decref(j);
    /* The reports show the note's text, never as markup. */
    json_t *pages = gt_render(dir, "reports", 0);
    const char *path;
    json_t *v;
    int shown = 0;
    json_object_foreach(pages, path, v)
    {
        const char *page = json_string_value(v);
        cr_expect(!page_has_html(page, "img") && !page_has_html(page, "script"),
                  "%s: markup from a cell:\n%s", path, page);
        shown |= strstr(page, "alert(1)") != NULL && strstr(page, "alt a") != NULL;
    }
    cr_expect(shown, "no page shows the note");
    json_decref(pages);
    free(out);
    rm_rf(dir);
    free(dir);
}
