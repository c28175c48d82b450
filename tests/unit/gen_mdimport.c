/* perfrepro-gen import-table: published figures read from real READMEs
 * (../shared/perf, PaddlePaddle/Perf; skipped when absent) and from small
 * tables made here, kept exactly as printed, loadable by gen. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"
#include "data.h"
#include "jdoc.h"
#include "mdimport.h"

#define PERF "../shared/perf"
#define COMMIT "e7a07c4d39e04de5e24652daaf02d204f0209acb"

static int have_perf(void)
{
    struct stat st;
    return stat(PERF "/README.md", &st) == 0;
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
    json_array_foreach(rows, i, r) {
        json_t *p = json_object_get(r, "printed");
        pr_buf_printf(&b, "%s%lld:%s", i ? " " : "", (long long)json_integer_value(json_object_get(r, "gpus")),
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
    if (pr_data_load(dir, &d, &err) < 0)
        return err.msg;
    pr_data_free(d);
    return NULL;
}

Test(mdimport, a_real_readme_keeps_every_figure_as_printed)
{
    if (!have_perf())
        cr_skip_test("no " PERF);
    char *dir = tmpdir();
    char *out = pr_path_join(dir, "published/perf.json");
    pr_mdimport_opts o = opts(PERF "/ResNet50V1.5/README.md", "ResNet50V1.5/README.md",
                              "V100上训练吞吐率", "FP32(BS=256)", out);
    char *summary = NULL;
    pr_err err;
    cr_assert(pr_mdimport(&o, &summary, &err) == 0, "%s", err.msg);
    cr_expect(strstr(summary, "README.md:201: table 2"), "%s", summary);
    char *rows = rows_of(out);
    cr_expect_str_eq(rows, "1:393.561 8:3019.361 32:10984.436");
    free(rows);
    /* The top README: "GPU=8,BS=256" rows, linked column heads, a "-" cell. */
    pr_mdimport_opts top = opts(PERF "/README.md", "README.md", "FP32测试", "NGC MXNet", out);
    top.framework = "NGC-MXNet";
    free(summary);
    cr_assert(pr_mdimport(&top, &summary, &err) == 0, "%s", err.msg);
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
    char *md = pr_path_join(dir, "t.md"), *out = pr_path_join(dir, "published/p.json");
    pr_mdimport_opts o = opts(md, "t.md", "On V100", "FP32(BS=256)", out);
    char *summary = NULL;
    pr_err err;
    cr_assert(pr_mdimport(&o, &summary, &err) == 0, "%s", err.msg);
    free(summary);
    char *rows = rows_of(out);
    cr_expect_str_eq(rows, "1:428 8:2946.30 32:19.428");
    free(rows);
    /* 428 stays a whole number in the file, 2946.30 keeps its zero as printed. */
    pr_buf text = PR_BUF_INIT;
    cr_assert(pr_read_file(out, &text, &err) == 0);
    cr_expect(strstr(text.data, "\"throughput\": 428,"), "%s", text.data);
    cr_expect(strstr(text.data, "\"printed\": \"2946.30\""), "%s", text.data);
    pr_buf_free(&text);
    /* FP16: a note printed in a cell goes to the table's note; an empty
     * cell is no row; OOM is a state. */
    o.column = "FP16(BS=256)";
    o.precision = "fp16";
    cr_assert(pr_mdimport(&o, &summary, &err) == 0, "%s", err.msg);
    cr_expect(strstr(summary, "1 empty cell(s) left out"), "%s", summary);
    free(summary);
    json_error_t je;
    json_t *j = json_load_file(out, 0, &je);
    json_t *tables = json_object_get(j, "tables");
    cr_assert_eq(json_array_size(tables), 2);
    json_t *t = json_array_get(tables, 1);
    /* gen words that note itself, so in both languages */
    json_t *note = json_object_get(t, "note");
    cr_expect(strstr(json_string_value(json_object_get(note, "en")), "1 GPU(s): \"(O2)\""));
    cr_expect(strstr(json_string_value(json_object_get(note, "zh")), "1 卡：“(O2)”"));
    json_t *rs = json_object_get(t, "rows");
    cr_assert_eq(json_array_size(rs), 2);
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(rs, 1), "state")), "OOM");
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(rs, 1), "nodes")), 4);
    json_decref(j);
    /* The same import again replaces its table. */
    cr_assert(pr_mdimport(&o, &summary, &err) == 0, "%s", err.msg);
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
    char *md = pr_path_join(dir, "t.md"), *out = pr_path_join(dir, "published/p.json");
    /* A linked column head; notes in parentheses with no blank go to the note. */
    pr_mdimport_opts o = opts(md, "t.md", "V100-AMP测试", "PaddlePaddle", out);
    o.precision = "amp";
    char *summary = NULL;
    pr_err err;
    cr_assert(pr_mdimport(&o, &summary, &err) == 0, "%s", err.msg);
    free(summary);
    char *rows = rows_of(out);
    cr_expect_str_eq(rows, "1:1438.518 8:10936.815 32:39972.131");
    free(rows);
    json_error_t je;
    json_t *j = json_load_file(out, 0, &je);
    json_t *t = json_array_get(json_object_get(j, "tables"), 0);
    cr_expect(strstr(json_string_value(json_object_get(json_object_get(t, "note"), "en")),
                     "8 GPU(s): \"(O2)\""));
    json_decref(j);
    /* "——" is no figure. */
    o.column = "NGC MXNet";
    o.framework = "NGC-MXNet";
    cr_assert(pr_mdimport(&o, &summary, &err) == 0, "%s", err.msg);
    cr_expect(strstr(summary, "2 row(s), 1 empty cell(s) left out"), "%s", summary);
    free(summary);
    cr_expect(!loads(dir), "%s", loads(dir));
    /* A batch size printed in the row must be --batch-size. */
    o.batch_size = 128;
    cr_assert(pr_mdimport(&o, &summary, &err) < 0);
    cr_expect(strstr(err.msg, "t.md:7:") && strstr(err.msg, "--batch-size") &&
                  strstr(err.msg, "\"GPU=1,BS=256\" prints batch size 256, not 128"),
              "%s", err.msg);
    o.heading = "A100-AMP测试";
    o.batch_size = 96;
    cr_assert(pr_mdimport(&o, &summary, &err) < 0);
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
        cr_skip_test("no " PERF);
    char *dir = tmpdir();
    char *out = pr_path_join(dir, "published/perf.json");
    pr_mdimport_opts o = opts(PERF "/Bert/README.md", "Bert/README.md", "V100-FP32测试", "NGC PyTorch",
                              out);
    o.model = "BERT-Base";
    o.framework = "NGC-PyTorch";
    o.batch_size = 96;
    o.unit = "sequences/s";
    char *summary = NULL;
    pr_err err;
    cr_assert(pr_mdimport(&o, &summary, &err) == 0, "%s", err.msg);
    cr_expect(strstr(summary, "README.md:296: table 3"), "%s", summary);
    free(summary);
    char *rows = rows_of(out);
    cr_expect_str_eq(rows, "1:158.6111 8:1232.11 32:3496.94");
    free(rows);
    /* Its A100 rows print BS=96 where the NGC README's own table says 128. */
    o.heading = "A100-FP32测试";
    o.batch_size = 128;
    cr_assert(pr_mdimport(&o, &summary, &err) < 0);
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
    char *md = pr_path_join(dir, "t.md"), *out = pr_path_join(dir, "p.json");
    pr_mdimport_opts o = opts(md, "t.md", NULL, "FP16(BS=256)", out);
    o.table = 1;
    char *summary = NULL;
    pr_err err;
    cr_assert(pr_mdimport(&o, &summary, &err) < 0);
    cr_expect(strstr(err.msg, "t.md:1:") && strstr(err.msg, "no column \"FP16(BS=256)\"") &&
                  strstr(err.msg, "\"卡数\", \"FP32(BS=256)\""),
              "%s", err.msg);
    o.column = "FP32(BS=256)";
    cr_assert(pr_mdimport(&o, &summary, &err) < 0);
    cr_expect(strstr(err.msg, "t.md:3:") && strstr(err.msg, "\"1,234.5\" is not a figure"), "%s",
              err.msg);
    o.table = 2;
    o.column = "FP32";
    cr_assert(pr_mdimport(&o, &summary, &err) < 0);
    cr_expect(strstr(err.msg, "t.md:7:") && strstr(err.msg, "\"one\" names no GPU count"), "%s",
              err.msg);
    o.table = 3;
    cr_assert(pr_mdimport(&o, &summary, &err) < 0);
    cr_expect(strstr(err.msg, "no table 3 (the file has 2)"), "%s", err.msg);
    o.table = 1;
    o.commit = "main; rm -rf /";
    cr_assert(pr_mdimport(&o, &summary, &err) < 0);
    cr_expect(strstr(err.msg, "--commit"), "%s", err.msg);
    struct stat st;
    cr_expect(stat(out, &st) < 0, "a failed import wrote its file");
    free(md);
    free(out);
    rm_rf(dir);
    free(dir);
}
