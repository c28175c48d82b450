/* gen: the framework page says where every figure came from and on which
 * machine.  A page without runs is a summary of published figures; each
 * platform has its own section and tables; a cell's other sources are
 * listed beside the chosen one; each source's environment is its own; a
 * CPU machine is worded as processes, never GPUs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "cmd/report.h"
#include "gentest.h"
#include "testutil.h"

/* ---------------------------------------------------------------- helpers */

static json_t *render(const char *data_dir)
{
    char *out = pr_fileio_path_join(data_dir, "out");
    json_t *pages = gt_render(data_dir, out, 0);
    free(out);
    return pages;
}

/* The text of md from the first `from` on (at or after `after`) to the next
 * `to` (or the end); the caller frees it. */
static char *between(const char *md, const char *after, const char *from, const char *to)
{
    const char *a = after ? strstr(md, after) : md;
    cr_assert(a, "no \"%s\" in:\n%s", after, md);
    const char *s = strstr(a, from);
    cr_assert(s, "no \"%s\" in:\n%s", from, md);
    const char *e = to ? strstr(s + strlen(from), to) : NULL;
    return pr_xstrndup(s, e ? (size_t)(e - s) : strlen(s));
}

static size_t count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void platform(const char *d, const char *id, const char *title, const char *kind)
{
    char *rel = pr_xasprintf("platforms/%s.json", id);
    /* "A机" is machine A: each page names it in its own language, and the
     * device by its model ("A device"). */
    char *name = pr_xstrdup(title);
    char *ji = strstr(name, "机");
    if (ji)
        *ji = '\0';
    char *text = pr_xasprintf("{\"perfrepro\": 1, \"title\": {\"zh\": \"%s\", \"en\": \"%s%s\"},\n"
                              " \"device\": {\"kind\": \"%s\", \"model\": \"%s device\","
                              " \"per_node\": 8}}\n",
                              title, ji ? "Machine " : "", name, kind, name);
    free(name);
    put(d, rel, text);
    free(rel);
    free(text);
}

/* A record of framework fw (model M, fp32) at batch size bs on `gpus`
 * devices of one node, in run `run`, on platform plat (NULL: the run's). */
static void record(const char *d, const char *run, const char *fw, int bs, int gpus, int repeat,
                   double v, const char *origin, const char *plat, int with_env)
{
    char *case_name =
        pr_xasprintf("clas_M_%s_bs%d_fp32_%d_r%d", gpus > 1 ? "mp" : "sp", bs, gpus, repeat);
    json_t *r = json_pack(
        "{s:s,s:s,s:s,s:i,s:s,s:i,s:i,s:f,s:i,s:s,s:i,s:s,s:s,s:s,s:s,s:i,"
        "s:i,s:i,s:i,s:s,s:s}",
        "log_file", "", "model_name", "clas_M", "mission_name", "x", "direction_id", 0, "run_mode",
        gpus > 1 ? "mp" : "sp", "index", 1, "gpu_num", gpus, "FINAL_RESULT", v, "JOB_FAIL_FLAG", 0,
        "UNIT", "images/s", "perfrepro", 1, "model", "M", "framework", fw, "case", case_name,
        "precision", "fp32", "batch_size", bs, "nodes", 1, "gpus_per_node", gpus, "repeat", repeat,
        "origin", origin, "started_at", "2026-11-20T10:00:00Z");
    char *log = pr_xasprintf("logs/train_log/%s", case_name);
    json_object_set_new(r, "log_file", json_string(log));
    if (plat)
        json_object_set_new(r, "platform", json_string(plat));
    if (with_env)
        json_object_set_new(r, "env", json_string("env.json"));
    if (strcmp(origin, "parsed") == 0)
        json_object_set_new(r, "source",
                            json_pack("{s:s,s:s,s:s,s:s}", "repo", "Someone/logs", "commit",
                                      "0123456789abcdef", "path", "rn50/log.txt", "url",
                                      "https://example.com/someone/log.txt"));
    char *text = json_dumps(r, JSON_INDENT(1));
    char *rel = pr_xasprintf("runs/%s/logs/index/%s_speed", run, case_name);
    char *log_rel = pr_xasprintf("runs/%s/%s", run, log);
    put(d, rel, text);
    put(d, log_rel, "ips: 1\n");
    free(case_name);
    free(log);
    free(text);
    free(rel);
    free(log_rel);
    json_decref(r);
}

/* A published file: one table of framework fw (fp32, BS 64) on plat. */
static void published(const char *d, const char *file, const char *label, const char *fw,
                      const char *plat, const char *variant, const char *env_json, const char *rows)
{
    char *rel = pr_xasprintf("published/%s.json", file);
    char *text = pr_xasprintf(
        "{\"perfrepro\": 1, \"label\": \"%s\", \"source\": {\"title\": \"%s README\","
        " \"url\": \"https://example.com/%s\"},%s \"platform\": \"%s\", \"tables\": [\n"
        " {\"model\": \"M\", \"framework\": \"%s\", \"precision\": \"fp32\", \"batch_size\": 64,"
        "  \"unit\": \"images/s\"%s%s%s, \"rows\": [%s]}]}\n",
        label, label, file, env_json ? env_json : "", plat, fw, variant ? ", \"variant\": \"" : "",
        variant ? variant : "", variant ? "\"" : "", rows);
    put(d, rel, text);
    free(rel);
    free(text);
}

static const char ENV_JSON[] =
    "{\"perfrepro\": 1, \"captured_at\": \"2026-11-20T09:59:00Z\",\n"
    " \"host\": {\"cpu_model\": \"Example CPU\", \"cpu_count\": 64, \"memory_gb\": 512.0,"
    " \"os\": \"RunOS 12\", \"kernel\": \"6.1.0\", \"compiler\": \"12.2.0\"},\n"
    " \"gpu\": {\"name\": \"A device\", \"count\": 8, \"driver\": \"550.54\", \"cuda\": \"12.4\","
    " \"nccl\": \"2.21.5\"},\n"
    " \"framework\": {\"name\": \"RunFw\", \"version\": \"2.1.0\"}}\n";

/* ---------------------------------------------------------------- titles */

Test(provenance, a_page_of_published_figures_only_is_a_summary)
{
    char *d = tmpdir();
    platform(d, "a", "A机", "gpu");
    published(d, "p", "Vendor", "F", "a", NULL, NULL,
              "{\"nodes\": 1, \"gpus\": 1, \"throughput\": 100},"
              "{\"nodes\": 1, \"gpus\": 8, \"throughput\": 700}");
    json_t *pages = render(d);
    const char *zh = gt_page(pages, "M/F/README.md"), *en = gt_page(pages, "M/F/README.en.md");
    cr_expect(strstr(zh, "\n# F M 公布数据汇总\n"), "%s", zh);
    cr_expect(strstr(en, "\n# F M: published figures\n"), "%s", en);
    cr_expect(!strstr(zh, "复现"), "reproduction wording without runs:\n%s", zh);
    cr_expect(!strstr(en, "reproduc"), "reproduction wording without runs:\n%s", en);
    /* No suite, no logs: environment, figures, notes. */
    cr_expect(strstr(zh, "## 二、公布数据\n") && strstr(zh, "## 三、说明\n"), "%s", zh);
    cr_expect(!strstr(zh, "测试步骤") && !strstr(zh, "日志数据"), "%s", zh);
    cr_expect(strstr(zh, "100†"), "%s", zh);
    /* A run makes it a reproduction report. */
    record(d, "r1", "F", 64, 1, 1, 98.0, "measured", "a", 0);
    json_decref(pages);
    pages = render(d);
    zh = gt_page(pages, "M/F/README.md");
    cr_expect(strstr(zh, "\n# F M 性能复现报告\n"), "%s", zh);
    cr_expect(strstr(zh, "## 四、测试结果\n"), "%s", zh);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

/* ---------------------------------------------------------------- platforms */

Test(provenance, one_case_on_two_platforms_is_two_sections)
{
    char *d = tmpdir();
    platform(d, "a", "A机", "gpu");
    platform(d, "b", "B机", "gpu");
    record(d, "r1", "F", 64, 1, 1, 100.0, "measured", "a", 0);
    record(d, "r1", "F", 64, 8, 1, 700.0, "measured", "a", 0);
    record(d, "r2", "F", 64, 1, 1, 55.0, "measured", "b", 0);
    record(d, "r2", "F", 64, 8, 1, 333.0, "measured", "b", 0);
    published(d, "p", "Vendor", "F", "a", NULL, NULL,
              "{\"nodes\": 1, \"gpus\": 1, \"throughput\": 110},"
              "{\"nodes\": 1, \"gpus\": 8, \"throughput\": 800}");
    json_t *pages = render(d);
    const char *zh = gt_page(pages, "M/F/README.md");
    /* Each machine's section in full on its own page, linked from the
     * framework page (fw_split.h). */
    cr_expect(strstr(zh, "](PLATFORM-a.md)") && strstr(zh, "](PLATFORM-b.md)"), "%s", zh);
    /* The summary: one table per machine, under its name, no row naming
     * one (issue 34: figures of different machines are never compared). */
    char *sum = between(zh, NULL, "**概要**", "\n## 目录");
    cr_expect(strstr(sum, "\n**A机**\n\n| 配置 |") && strstr(sum, "\n**B机**\n\n| 配置 |"), "%s",
              sum);
    cr_expect_eq(count(sum, "\n| 配置 |"), 2, "%s", sum);
    cr_expect(!strstr(sum, "· A机 |") && !strstr(sum, "· B机 |"), "%s", sum);
    cr_expect(strstr(sum, "| FP32 BS=64 | 700.00 | 8 |") &&
                  strstr(sum, "| FP32 BS=64 | 333.00 | 8 |"),
              "%s", sum);
    free(sum);
    char *a = between(gt_page(pages, "M/F/PLATFORM-a.md"), NULL, "\n### A机\n", "\n## ");
    char *b = between(gt_page(pages, "M/F/PLATFORM-b.md"), NULL, "\n### B机\n", "\n## ");
    /* One summary table per platform, each with its own figures only. */
    cr_expect_eq(count(a, "\n| GPU 数 |"), 1, "%s", a);
    cr_expect_eq(count(b, "\n| GPU 数 |"), 1, "%s", b);
    cr_expect(strstr(a, "100.00") && strstr(a, "700.00") && strstr(a, "110†"), "%s", a);
    cr_expect(!strstr(a, "55.00") && !strstr(a, "333.00"), "B's figures under A:\n%s", a);
    cr_expect(strstr(b, "55.00") && strstr(b, "333.00"), "%s", b);
    cr_expect(!strstr(b, "100.00") && !strstr(b, "700.00") && !strstr(b, "110.00"),
              "A's figures under B:\n%s", b);
    /* The gap compares A's runs with A's published figure (one run: shown,
     * not judged); B has none. */
    cr_expect(strstr(a, "| 110† | -9.1% |") && strstr(a, "- （数据不足）："), "%s", a);
    cr_expect(!strstr(b, "差距") && !strstr(b, "公布值"), "B compared with A:\n%s", b);
    /* The headings of the configurations keep naming the platform. */
    cr_expect(strstr(a, "#### FP32 BS=64 · A机\n") && strstr(b, "#### FP32 BS=64 · B机\n"));
    /* A machine's page opens with its results (issue 34: the first table
     * within 80 lines); no environment or steps of its own (the steps
     * page's, fw_split.h). */
    const char *pa = gt_page(pages, "M/F/PLATFORM-a.md");
    const char *first = strstr(pa, "\n## ");
    cr_expect(first && strncmp(first, "\n## 目录\n", strlen("\n## 目录\n")) == 0, "%s", pa);
    first = first ? strstr(first + 1, "\n## ") : NULL;
    cr_expect(first && strncmp(first, "\n## 一、测试结果\n", strlen("\n## 一、测试结果\n")) == 0,
              "%s", pa);
    cr_expect(!strstr(pa, "环境介绍") && !strstr(pa, "测试步骤"), "%s", pa);
    free(a);
    free(b);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

/* Two platforms whose ids make one page name (the name keeps a-z, 0-9 and
 * -): refused, naming both, never one page written over the other. */
Test(provenance, two_platforms_of_one_page_name_are_refused)
{
    char *d = tmpdir();
    platform(d, "gpu-a", "A机", "gpu");
    platform(d, "gpu_a", "B机", "gpu");
    record(d, "r1", "F", 64, 1, 1, 100.0, "measured", "gpu-a", 0);
    record(d, "r2", "F", 64, 1, 1, 55.0, "measured", "gpu_a", 0);
    pr_dataset *ds = NULL;
    pr_err err = {0};
    cr_assert(data_load(d, &ds, &err) == 0, "%s", err.msg);
    json_t *pages = json_object();
    char *out = pr_fileio_path_join(d, "out");
    pr_report_opts o = {"templates", out, 0, 0, NULL, 0};
    cr_expect(report_render(ds, &o, gt_collect, pages, &err) < 0, "two platforms on one page");
    cr_expect(strstr(err.msg, "\"gpu-a\"") && strstr(err.msg, "\"gpu_a\"") &&
                  strstr(err.msg, "PLATFORM-gpu-a.md"),
              "%s", err.msg);
    free(out);
    data_free(ds);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

Test(provenance, figures_of_no_stated_machine_are_compared_with_nothing)
{
    char *d = tmpdir();
    record(d, "r1", "F", 64, 1, 1, 100.0, "measured", NULL, 0);
    published(d, "p", "Vendor", "F", "unstated", NULL, NULL,
              "{\"nodes\": 1, \"gpus\": 1, \"throughput\": 110}");
    json_t *pages = render(d);
    const char *en = gt_page(pages, "M/F/README.en.md");
    char *s = between(en, "## 4. Results", "\n### Figures whose machine is not stated\n", "\n## 5");
    cr_expect(strstr(s, "compared with nothing"), "%s", s);
    cr_expect(!strstr(s, "| Gap |"), "a gap between two unstated machines:\n%s", s);
    free(s);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

/* ---------------------------------------------------------------- several sources */

Test(provenance, a_cell_of_three_sources_shows_the_chosen_one_and_the_others)
{
    char *d = tmpdir();
    platform(d, "a", "A机", "gpu");
    record(d, "r1", "F", 64, 1, 1, 100.0, "measured", "a", 0);
    published(d, "1-first", "First", "F", "a", NULL, NULL,
              "{\"nodes\": 1, \"gpus\": 1, \"throughput\": 110},"
              "{\"nodes\": 1, \"gpus\": 8, \"throughput\": 800}");
    published(d, "2-second", "Second", "F", "a", "v2", NULL,
              "{\"nodes\": 1, \"gpus\": 1, \"throughput\": 120},"
              "{\"nodes\": 1, \"gpus\": 8, \"throughput\": 900}");
    json_t *pages = render(d);
    const char *zh = gt_page(pages, "M/F/README.md"), *en = gt_page(pages, "M/F/README.en.md");
    char *sum = between(zh, "## 四、测试结果", "\n| GPU 数 |", "\n\n");
    /* The measured figure, then the first published table by precedence. */
    cr_expect(strstr(sum, "| 1机1卡 | [100.00]("), "%s", sum);
    cr_expect(strstr(sum, "| 1机8卡 | 800† |"), "%s", sum);
    cr_expect(strstr(zh, "| 1 | 1 | 100.00 |") && strstr(zh, "| 110† | -9.1% |"), "%s", zh);
    /* Not judged (one run): said once, under the table. */
    cr_expect_eq(count(zh, "（数据不足）"), 1, "%s", zh);
    /* Every source a row of the published table, the chosen one marked, the
     * others with their variant and figures. */
    cr_expect(strstr(zh, "（优先来源） | 110† | 800† · ×7.27 · 90.9% |"), "%s", zh);
    cr_expect(strstr(zh, "（v2） | 120† | 900† · ×7.50 · 93.8% |"), "%s", zh);
    cr_expect(strstr(en, " (v2) | 120† | 900† · ×7.50 · 93.8% |"), "%s", en);
    cr_expect(!strstr(zh, "同一格的其他来源"), "%s", zh);
    /* The rule and the markers, once each on a page. */
    const char *pa = gt_page(pages, "M/F/PLATFORM-a.md");
    cr_expect_eq(count(pa, "同一格有多个来源时"), 1);
    cr_expect_eq(count(pa, "数字的来源："), 1);
    free(sum);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

Test(provenance, an_imported_figure_is_marked_and_names_its_source)
{
    char *d = tmpdir();
    platform(d, "a", "A机", "gpu");
    record(d, "r1", "F", 64, 1, 1, 100.0, "parsed", "a", 0);
    json_t *pages = render(d);
    const char *zh = gt_page(pages, "M/F/README.md");
    cr_expect(strstr(zh, "| 1机1卡 | [100.00‡]("), "%s", zh);
    cr_expect(strstr(zh, "| 1 | 1 | 100.00‡ |"), "%s", zh);
    cr_expect(
        strstr(zh, "[`Someone/logs@01234567:rn50/log.txt`](https://example.com/someone/log.txt)"),
        "%s", zh);
    cr_expect(strstr(zh, "\n# F M 性能复现报告\n"), "%s", zh);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

/* ---------------------------------------------------------------- environment */

Test(provenance, each_source_shows_its_own_environment)
{
    char *d = tmpdir();
    platform(d, "a", "A机", "gpu");
    put(d, "suites/f.json",
        "{\"perfrepro\": 1, \"model\": \"M\", \"framework\": \"F\", \"model_name\": \"clas_M\",\n"
        " \"mission_name\": \"x\", \"direction_id\": 0, \"unit\": \"images/s\", \"platform\": "
        "\"a\",\n"
        " \"environment\": {\"cuda\": \"SUITE-CUDA\"}, \"command\": [\"true\"],\n"
        " \"matrix\": {\"nodes\": [1], \"gpus_per_node\": [1], \"batch_size\": [64],\n"
        "            \"precision\": [\"fp32\"]},\n"
        " \"rule\": {\"keyword\": \"ips:\"}}\n");
    /* r1 has its env.json; r2 has none, so the suite speaks for it. */
    record(d, "r1", "F", 64, 1, 1, 100.0, "measured", "a", 1);
    put(d, "runs/r1/env.json", ENV_JSON);
    record(d, "r2", "F", 64, 1, 2, 101.0, "measured", "a", 0);
    /* A file stating F's software, with a table of G beside F's. */
    put(d, "published/p.json",
        "{\"perfrepro\": 1, \"label\": \"Vendor\", \"source\": {\"title\": \"t\"},\n"
        " \"environment\": {\"framework\": \"F 9.9\", \"cuda\": \"11.0\"}, \"platform\": \"a\",\n"
        " \"tables\": [\n"
        "  {\"model\": \"M\", \"framework\": \"F\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
        "   \"unit\": \"images/s\", \"rows\": [{\"nodes\": 1, \"gpus\": 1, \"throughput\": "
        "110}]},\n"
        "  {\"model\": \"M\", \"framework\": \"G\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
        "   \"unit\": \"images/s\", \"rows\": [{\"nodes\": 1, \"gpus\": 1, \"throughput\": "
        "90}]}]}\n");
    json_t *pages = render(d);
    /* The machine's environment is on its steps page (fw_split.h). */
    const char *zh = gt_page(pages, "M/F/PLATFORM-a-steps.md");
    char *env = between(zh, NULL, "## 一、环境介绍", "\n## 二");
    char *run = between(env, NULL, "运行 `r1`", "\n- ");
    char *suite = between(env, NULL, "测试套件", "\n- ");
    char *pub = between(env, NULL, "Vendor 随公布数据", "\n- ");
    cr_expect(strstr(run, "CUDA：12.4") && strstr(run, "RunFw 2.1.0"), "%s", env);
    cr_expect(!strstr(run, "11.0") && !strstr(run, "SUITE-CUDA") && !strstr(run, "F 9.9"),
              "another source's software under r1:\n%s", env);
    cr_expect(strstr(suite, "`r2`") && strstr(suite, "SUITE-CUDA"), "%s", env);
    cr_expect(!strstr(suite, "`r1`") && !strstr(suite, "12.4") && !strstr(suite, "11.0"), "%s",
              env);
    cr_expect(strstr(pub, "CUDA：11.0") && strstr(pub, "F 9.9"), "%s", env);
    cr_expect(!strstr(pub, "12.4") && !strstr(pub, "SUITE-CUDA"), "%s", env);
    cr_expect_eq(count(env, "SUITE-CUDA"), 1, "%s", env);
    /* G never ran on F's machine: F's software is not G's. */
    const char *g = gt_page(pages, "M/G/README.md");
    char *genv = between(g, NULL, "## 一、环境介绍", "\n## 二");
    cr_expect(!strstr(genv, "CUDA：") && !strstr(genv, "11.0"), "F's software on G's page:\n%s",
              genv);
    cr_expect(strstr(genv, "A机"), "%s", genv);
    free(env);
    free(run);
    free(suite);
    free(pub);
    free(genv);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

/* A published table's environment items link the line of the source that
 * states each, where the data gives it ("environment_lines"); a source
 * without lines says so (issue 34); a line of no item is refused. */
Test(provenance, published_environment_items_link_their_lines)
{
    char *d = tmpdir();
    platform(d, "a", "A机", "gpu");
    record(d, "r1", "F", 64, 1, 1, 100.0, "measured", "a", 0);
    static const char *const fmt =
        "{\"perfrepro\": 1, \"label\": \"%s\", \"source\": {\"title\": \"t\", \"url\": "
        "\"https://example.com/%s.md#L3\"},\n"
        " \"platform\": \"a\", \"tables\": [\n"
        "  {\"model\": \"M\", \"framework\": \"F\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
        "   \"environment\": {\"gpu\": \"DGX-9\", \"image\": \"c-1\"}%s,\n"
        "   \"unit\": \"images/s\", \"rows\": [{\"nodes\": 1, \"gpus\": 1, \"throughput\": "
        "110}]}]}\n";
    char *lined = pr_xasprintf(fmt, "Lined", "lined", ", \"environment_lines\": {\"image\": 7}");
    char *bare = pr_xasprintf(fmt, "Bare", "bare", "");
    put(d, "published/lined.json", lined);
    put(d, "published/bare.json", bare);
    json_t *pages = render(d);
    const char *zh = gt_page(pages, "M/F/PLATFORM-a-steps.md");
    char *env = between(zh, NULL, "## 一、环境介绍", "\n## 二");
    char *l = between(env, NULL, "[Lined]", "\n- ");
    char *b = between(env, NULL, "[Bare]", "\n- ");
    cr_expect(strstr(l, "镜像：c-1 ([L7](https://example.com/lined.md#L7))"), "%s", env);
    cr_expect(strstr(l, "DGX-9") && !strstr(l, "DGX-9 ("), "%s", env);
    cr_expect(!strstr(l, "参考数据未记录"), "%s", env);
    cr_expect(strstr(b, "参考数据未记录") && strstr(b, "镜像：c-1") && !strstr(b, "[L"), "%s", env);
    free(env);
    free(l);
    free(b);
    json_decref(pages);
    /* A line of an item the table does not state: refused, named. */
    char *wrong = pr_xasprintf(fmt, "Lined", "lined", ", \"environment_lines\": {\"cuda\": 7}");
    put(d, "published/lined.json", wrong);
    pr_dataset *ds = NULL;
    pr_err err;
    cr_expect(data_load(d, &ds, &err) < 0, "a line of no item was accepted");
    cr_expect(strstr(err.msg, "\"cuda\" is no item"), "%s", err.msg);
    free(lined);
    free(bare);
    free(wrong);
    rm_rf(d);
    free(d);
}

/* ---------------------------------------------------------------- CPU */

Test(provenance, a_cpu_machine_is_worded_as_processes)
{
    char *d = tmpdir();
    platform(d, "c", "C机", "cpu");
    /* BS 64 at 1 and 4 processes; BS 32 at one process count only. */
    record(d, "r1", "F", 64, 1, 1, 10.0, "measured", "c", 0);
    record(d, "r1", "F", 64, 4, 1, 36.0, "measured", "c", 0);
    record(d, "r1", "F", 32, 1, 1, 5.0, "measured", "c", 0);
    json_t *pages = render(d);
    const char *zh = gt_page(pages, "M/F/README.md"), *en = gt_page(pages, "M/F/README.en.md");
    cr_expect(!strstr(zh, "GPU") && !strstr(zh, "卡"), "GPU wording on a CPU page:\n%s", zh);
    cr_expect(!strstr(en, "GPU"), "GPU wording on a CPU page:\n%s", en);
    cr_expect(strstr(zh, "| 1机4进程 |") && strstr(zh, "| 进程数 |"), "%s", zh);
    cr_expect(strstr(en, "| 1 node × 4 processes |"), "%s", en);
    char *bs32 = between(zh, "## 四、测试结果", "#### FP32 BS=32", "\n####");
    char *bs64 = between(zh, "## 四、测试结果", "#### FP32 BS=64", "\n## 五");
    cr_expect(!strstr(bs32, "加速比") && !strstr(bs32, "扩展效率"),
              "one process count has nothing to scale:\n%s", bs32);
    cr_expect(strstr(bs64, "| 加速比 | 扩展效率 |") && strstr(bs64, "| 3.60 | 90.0% |"), "%s",
              bs64);
    free(bs32);
    free(bs64);
    json_decref(pages);
    rm_rf(d);
    free(d);
}
