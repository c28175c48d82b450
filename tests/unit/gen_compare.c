/* The cross-framework pages compare only like with like: the model page
 * has one section per platform and one table per precision class and batch
 * size (an amp and an fp16 table meet, each column naming its mode), names
 * where each column's figures come from and lists every figure a cell had
 * but does not show; its charts name only frameworks they draw; the index
 * shows every framework at its model's headline configuration (declared, or
 * chosen by the rule: tests/unit/gen_headline.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "cmd/report.h"
#include "gentest.h"
#include "testutil.h"

/* ---------------------------------------------------------------- helpers */

static json_t *render(const char *data_dir, int charts)
{
    return gt_render(data_dir, "/tmp/perfrepro-compare-out", charts);
}

/* The text of text from the line starting with heading to the next heading
 * of the same or a higher level (or the end); the caller frees it. */
static char *section(const char *text, const char *heading)
{
    const char *at = strstr(text, heading);
    cr_assert(at, "no heading \"%s\" in:\n%s", heading, text);
    size_t level = strspn(heading, "#");
    const char *end = at + strlen(heading);
    for (;;) {
        end = strchr(end, '\n');
        if (!end) {
            end = at + strlen(at);
            break;
        }
        end++;
        size_t h = strspn(end, "#");
        if (h && h <= level && end[h] == ' ')
            break;
    }
    return pr_xstrndup(at, (size_t)(end - at));
}

/* The line of text starting with prefix; the caller frees it. */
static char *line_of(const char *text, const char *prefix)
{
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, prefix, strlen(prefix)) == 0) {
            const char *e = strchr(p, '\n');
            return pr_xstrndup(p, e ? (size_t)(e - p) : strlen(p));
        }
    cr_assert_fail("no line starting \"%s\" in:\n%s", prefix, text);
    return NULL;
}

static const char v100[] =
    "{\"perfrepro\": 1, \"title\": {\"zh\": \"V100 × 8\", \"en\": \"V100 x 8\"},\n"
    " \"device\": {\"kind\": \"gpu\", \"model\": \"Tesla V100-SXM2-16GB\", \"memory_gb\": 16,\n"
    "            \"per_node\": 8}, \"match\": [\"V100-SXM2-16GB\"]}\n";
static const char a100[] =
    "{\"perfrepro\": 1, \"title\": {\"zh\": \"A100 × 8\", \"en\": \"A100 x 8\"},\n"
    " \"device\": {\"kind\": \"gpu\", \"model\": \"NVIDIA A100-SXM4-40GB\"}}\n";
static const char classes[] =
    "{\"perfrepro\": 1, \"classes\": [\n"
    " {\"id\": \"fp32\", \"title\": {\"zh\": \"FP32\", \"en\": \"FP32\"}, \"modes\": [\"fp32\"]},\n"
    " {\"id\": \"tf32\", \"title\": {\"zh\": \"TF32\", \"en\": \"TF32\"}, \"modes\": [\"tf32\"]},\n"
    " {\"id\": \"mixed\", \"title\": {\"zh\": \"混合精度（AMP / FP16）\",\n"
    "  \"en\": \"Mixed precision (AMP / FP16)\"}, \"modes\": [\"amp\", \"fp16\", \"bf16\"]},\n"
    " {\"id\": \"fp8\", \"title\": {\"zh\": \"FP8\", \"en\": \"FP8\"}, \"modes\": [\"fp8\"]}]}\n";

/* Published figures of model M (and N, which declares no headline):
 *   FwA amp bs64 on the V100 twice (variants dynamic, static: the second an
 *     alternative of the first), fp32 on the V100 and on the A100;
 *   FwB fp16 bs64 on the V100 (no 8-GPU row: its 8-GPU figure is measured);
 *   FwC fp32 of a machine its source does not state;
 *   FwD fp32 on the V100, planned only (TODO). */
static const char published[] =
    "{\"perfrepro\": 1, \"label\": \"Src\",\n"
    " \"source\": {\"title\": \"Src README\", \"url\": \"https://example.com/src\"},\n"
    " \"platform\": \"V100-x8\", \"tables\": [\n"
    "  {\"model\": \"M\", \"framework\": \"FwA\", \"precision\": \"amp\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"variant\": \"dynamic\", \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"throughput\": 100}, {\"nodes\": 1, \"gpus\": 8, "
    "\"throughput\": 700}]},\n"
    "  {\"model\": \"M\", \"framework\": \"FwA\", \"precision\": \"amp\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"variant\": \"static\", \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"throughput\": 90}, {\"nodes\": 1, \"gpus\": 8, "
    "\"throughput\": 650}]},\n"
    "  {\"model\": \"M\", \"framework\": \"FwB\", \"precision\": \"fp16\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"throughput\": 80}, {\"nodes\": 1, \"gpus\": 4, "
    "\"throughput\": 300}]},\n"
    "  {\"model\": \"M\", \"framework\": \"FwA\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"throughput\": 50}, {\"nodes\": 1, \"gpus\": 4, "
    "\"throughput\": 190},\n"
    "    {\"nodes\": 1, \"gpus\": 8, \"throughput\": 350}]},\n"
    "  {\"model\": \"M\", \"framework\": \"FwA\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"platform\": \"A100-x8\", \"variant\": \"a100\",\n"
    "   \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"throughput\": 60}, {\"nodes\": 1, \"gpus\": 8, "
    "\"throughput\": 420}]},\n"
    "  {\"model\": \"M\", \"framework\": \"FwC\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"platform\": \"unstated\", \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"throughput\": 10}]},\n"
    "  {\"model\": \"M\", \"framework\": \"FwD\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"state\": \"TODO\"}, {\"nodes\": 1, \"gpus\": 8, \"state\": "
    "\"TODO\"}]},\n"
    "  {\"model\": \"N\", \"framework\": \"FwA\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"rows\": [{\"nodes\": 1, \"gpus\": 8, \"throughput\": 500}]}\n"
    " ]}\n";

/* A record of model M on the V100 (with its log): measured here, or
 * imported from someone's published logs when source_repo is set. */
static void put_record(const char *dir, const char *fw, const char *precision, int gpus,
                       double value, const char *source_repo)
{
    char *name = pr_xasprintf("%s_%s_%d", fw, precision, gpus);
    char *src =
        source_repo
            ? pr_xasprintf(", \"source\": {\"repo\": \"%s\", \"commit\": \"abcdef1\","
                           " \"path\": \"logs/x.log\", \"url\": \"https://example.com/logs\"}",
                           source_repo)
            : pr_xstrdup("");
    char *rec = pr_xasprintf(
        "{\"log_file\": \"logs/train_log/%s\", \"model_name\": \"m\", \"mission_name\": \"x\",\n"
        " \"direction_id\": 0, \"run_mode\": \"mp\", \"index\": 1, \"gpu_num\": %d,\n"
        " \"FINAL_RESULT\": %g, \"JOB_FAIL_FLAG\": 0, \"UNIT\": \"images/s\", \"perfrepro\": 1,\n"
        " \"model\": \"M\", \"framework\": \"%s\", \"case\": \"%s\", \"precision\": \"%s\",\n"
        " \"batch_size\": 64, \"nodes\": 1, \"gpus_per_node\": %d, \"repeat\": 1,\n"
        " \"origin\": \"%s\", \"logs\": [], \"command\": [], \"platform\": \"V100-x8\"%s}\n",
        name, gpus, value, fw, name, precision, gpus, source_repo ? "parsed" : "measured", src);
    char *rel = pr_xasprintf("runs/r1/logs/index/%s_speed", name);
    char *log = pr_xasprintf("runs/r1/logs/train_log/%s", name);
    put(dir, rel, rec);
    put(dir, log, "ips: 1\n");
    free(log);
    free(rel);
    free(rec);
    free(src);
    free(name);
}

/* The data above, FwB's 8-GPU figure measured here and an imported 4-GPU
 * figure of FwA; M declares its headline at mixed precision, BS=64, 8 GPUs
 * on the V100. */
static char *compare_data(void)
{
    char *d = tmpdir();
    put(d, "platforms/V100-x8.json", v100);
    put(d, "platforms/A100-x8.json", a100);
    put(d, "precision-classes.json", classes);
    put(d, "models/M.json",
        "{\"perfrepro\": 1, \"headline\": {\"platform\": \"V100-x8\", \"precision_class\": "
        "\"mixed\","
        " \"batch_size\": 64, \"gpus\": 8}}\n");
    put(d, "published/src.json", published);
    put_record(d, "FwB", "fp16", 8, 600, NULL);
    put_record(d, "FwA", "amp", 4, 380, "someone/logs");
    return d;
}

/* ---------------------------------------------------------------- model page */

Test(model_page, two_platforms_of_one_case_are_two_tables)
{
    char *d = compare_data();
    json_t *pages = render(d, 0);
    const char *p = gt_page(pages, "M/README.md");
    char *v = section(p, "### V100 × 8\n");
    char *a = section(p, "### A100 × 8\n");
    char *vt = section(v, "#### FP32 BS=64 · V100 × 8\n");
    char *at = section(a, "#### FP32 BS=64 · A100 × 8\n");
    cr_expect(strstr(vt, "| 1 | 8 | 350† |"), "V100 table:\n%s", vt);
    cr_expect(!strstr(vt, "420.00"), "an A100 figure in the V100 table:\n%s", vt);
    cr_expect(strstr(at, "| 1 | 8 | 420† |"), "A100 table:\n%s", at);
    cr_expect(!strstr(at, "350.00") && !strstr(at, "FwD"), "V100 figures in the A100 table:\n%s",
              at);
    /* The figure of no stated machine is on no table, and said so once. */
    cr_expect(!strstr(p, "| 10†"), "%s", p);
    char *note = line_of(p, "另有 1 个数字（[FwC](FwC/README.md)）");
    cr_expect(strstr(note, "不与任何数字比较"), "%s", note);
    free(note);
    free(vt);
    free(at);
    free(v);
    free(a);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

Test(model_page, amp_and_fp16_meet_in_one_class_table)
{
    char *d = compare_data();
    json_t *pages = render(d, 0);
    const char *p = gt_page(pages, "M/README.md");
    cr_expect(!strstr(p, "#### AMP") && !strstr(p, "#### FP16") && !strstr(p, "### AMP"),
              "a heading names one mode of a class of several:\n%s", p);
    char *t = section(p, "#### 混合精度（AMP / FP16）BS=64 · V100 × 8\n");
    char *head = line_of(t, "| 节点数 |");
    cr_expect_str_eq(
        head, "| 节点数 | GPU 数 | [FwA](FwA/README.md)（AMP） | [FwB](FwB/README.md)（FP16） |");
    /* 8 GPUs: FwA published, FwB measured here (linked to its log). */
    char *row = line_of(t, "| 1 | 8 |");
    cr_expect(strstr(row, "| 700† | [600.00](") && strstr(row, "FwB_fp16_8)"), "%s", row);
    /* 4 GPUs: FwA imported from someone's log (‡, inside the link as on the
     * framework page), FwB published. */
    char *row4 = line_of(t, "| 1 | 4 |");
    cr_expect(strstr(row4, "[380.00‡](") && strstr(row4, ") | 300† |"), "%s", row4);
    /* Where each column comes from. */
    char *sa = line_of(t, "- FwA（AMP）：");
    cr_expect(
        strstr(sa, "‡ 由 perfrepro 解析 [someone/logs](https://example.com/logs) 中公布的日志"),
        "%s", sa);
    cr_expect(strstr(sa, "† 公布数据，出自 [Src](https://example.com/src)（dynamic）"), "%s", sa);
    char *sb = line_of(t, "- FwB（FP16）：");
    cr_expect(strstr(sb, "本仓库用 perfrepro 测量") && strstr(sb, "[Src](https://example.com/src)"),
              "%s", sb);
    const char *en = gt_page(pages, "M/README.en.md");
    char *ten = section(en, "#### Mixed precision (AMP / FP16) BS=64 · V100 x 8\n");
    cr_expect(strstr(ten, "[FwA](FwA/README.en.md) (AMP) | [FwB](FwB/README.en.md) (FP16) |"), "%s",
              ten);
    free(ten);
    free(sa);
    free(sb);
    free(row);
    free(row4);
    free(head);
    free(t);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

Test(model_page, a_cell_with_alternatives_lists_them)
{
    char *d = compare_data();
    json_t *pages = render(d, 0);
    const char *p = gt_page(pages, "M/README.md");
    char *t = section(p, "#### 混合精度（AMP / FP16）BS=64 · V100 × 8\n");
    /* The table shows the first of two tables of one source (file order);
     * the other's figures are listed under it, cell by cell. */
    cr_expect(strstr(t, "| 1 | 1 | 100† | 80† |"), "%s", t);
    cr_expect(strstr(t, "同一单元格另有的数字（未采用）："), "%s", t);
    char *alt = line_of(t, "- FwA（AMP） · [Src](https://example.com/src)（static）：");
    cr_expect(strstr(alt, "：1机1卡 90†，1机8卡 650†"), "%s", alt);
    cr_expect(strstr(p, "表中按优先级只取一个"), "the precedence is not stated:\n%s", p);
    /* A table without alternatives has no such list. */
    char *vt = section(p, "#### FP32 BS=64 · V100 × 8\n");
    cr_expect(!strstr(vt, "同一单元格另有的数字"), "%s", vt);
    free(vt);
    free(alt);
    free(t);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

/* The alt text of a chart lists its series (the bar chart's every series):
 * a framework without a figure in a chart is not in its legend. */
Test(model_page, a_chart_legend_has_no_series_without_points)
{
    char *d = compare_data();
    json_t *pages = render(d, 1);
    const char *p = gt_page(pages, "M/README.md");
    char *vt = section(p, "#### FP32 BS=64 · V100 × 8\n");
    cr_expect(strstr(vt, "[FwD](FwD/README.md)") && strstr(vt, "TODO"), "%s", vt);
    char *bars = line_of(vt, "![柱状图：M · FP32 BS=64 · V100 × 8 各框架单卡吞吐");
    cr_expect(strstr(bars, "FwA（公布数据）：") && !strstr(bars, "FwD"), "%s", bars);
    cr_expect(strstr(vt, "(compare-v100-x8-fp32-bs64.svg)"), "%s", vt);
    /* The class table: published, imported and measured series apart,
     * each named with its framework's mode; files named by the class. */
    char *t = section(p, "#### 混合精度（AMP / FP16）BS=64 · V100 × 8\n");
    char *mb = line_of(t, "![柱状图：M · 混合精度（AMP / FP16）BS=64 · V100 × 8 各框架单卡吞吐");
    cr_expect(strstr(mb, "FwA AMP（公布数据）：") && strstr(mb, "FwA AMP（解析的他人日志）：") &&
                  strstr(mb, "FwB FP16（公布数据）：") && strstr(mb, "FwB FP16：") &&
                  strstr(mb, "(compare-v100-x8-mixed-bs64.svg)"),
              "%s", mb);
    cr_expect_null(json_object_get(pages, "M/compare-v100-x8-mixed-bs64.png"),
                   "a PNG copy of the SVG chart");
    free(mb);
    free(t);
    free(bars);
    free(vt);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

/* ---------------------------------------------------------------- index */

Test(index_page, every_framework_at_the_headline_configuration)
{
    char *d = compare_data();
    json_t *pages = render(d, 0);
    const char *p = gt_page(pages, "README.md");
    char *decl = line_of(p, "- [M](M/README.md)：");
    cr_expect_str_eq(decl, "- [M](M/README.md)：混合精度（AMP / FP16）BS=64 · V100 × 8，1机8卡"
                           "（`data/models/M.json` 中声明）");
    /* Frameworks with no figure there: named once, not rows of dashes. */
    char *absent = line_of(p, "  - 该配置下没有数字：");
    cr_expect_str_eq(absent,
                     "  - 该配置下没有数字：[FwC](M/FwC/README.md)，[FwD](M/FwD/README.md)");
    cr_expect(!strstr(p, "| [M](M/README.md) | [FwC]"), "%s", p);
    /* N declares none: the rule picks its one configuration with figures. */
    char *none = line_of(p, "- [N](N/README.md)：");
    cr_expect_str_eq(none, "- [N](N/README.md)：FP32 BS=64 · V100 × 8，1机8卡（按规则选出）");
    char *a = line_of(p, "| [M](M/README.md) | [FwA](M/FwA/README.md) |");
    cr_expect(strstr(a, "| 700† images/s |"), "%s", a);
    char *b = line_of(p, "| [M](M/README.md) | [FwB](M/FwB/README.md) |");
    cr_expect(strstr(b, "| [600.00](") && strstr(b, "FwB_fp16_8) images/s |"), "%s", b);
    char *n = line_of(p, "| [N](N/README.md) | [FwA](N/FwA/README.md) |");
    cr_expect(strstr(n, "| 500† images/s |"), "%s", n);
    const char *en = gt_page(pages, "README.en.md");
    char *c_en = line_of(en, "  - no figure at this configuration: ");
    cr_expect(strstr(c_en, "[FwC](M/FwC/README.en.md)"), "%s", c_en);
    free(c_en);
    free(decl);
    free(absent);
    free(none);
    free(a);
    free(b);
    free(n);
    json_decref(pages);
    rm_rf(d);
    free(d);
}
