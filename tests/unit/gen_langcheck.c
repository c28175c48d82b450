/* One language per page: the check a build runs on every page it renders
 * (gen/langcheck.c) rejects English prose on a Chinese page and Chinese on
 * an English one, naming the page and the line; code, links, comments and
 * the names the data declares pass.  Data strings may come in both
 * languages (lib/bitext.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "bitext.h"
#include "jdoc.h"
#include "langcheck.h"

/* The check's message for md as page "P.md" in code, NULL when it passes. */
static const char *check(const char *code, const char *md, const lc_names *ns)
{
    static pr_err err;
    lc_names none = {NULL, 0};
    return lc_check_page("P.md", code, md, strlen(md), ns ? ns : &none, &err) < 0 ? err.msg
                                                                                    : NULL;
}

Test(langcheck, english_sentence_on_zh_page_named_with_its_line)
{
    const char *msg = check("zh", "# 标题\n\n说明：一段中文。\n- 互连：NVLink within a node\n", NULL);
    cr_assert(msg);
    cr_assert(strstr(msg, "P.md:4:"), "%s", msg);
    cr_assert(strstr(msg, "«NVLink within a node»"), "%s", msg);
}

Test(langcheck, chinese_on_en_page_named_with_its_line)
{
    const char *msg = check("en", "# Title\n\nFine English.\nSource: 四、测试结果 here\n", NULL);
    cr_assert(msg);
    cr_assert(strstr(msg, "P.md:4:"), "%s", msg);
    cr_assert(strstr(msg, "四、测试结果"), "%s", msg);
}

Test(langcheck, later_lines_listed)
{
    const char *msg = check("en", "a 中\nb\nc 文\nd 字\n", NULL);
    cr_assert(msg && strstr(msg, "P.md:1:") && strstr(msg, "also on line(s) 3, 4"), "%s", msg);
}

Test(langcheck, clean_pages_pass)
{
    cr_assert_null(check("zh", "# ResNet50 v1.5 测试报告\n\n| 1机8卡 | FP32 BS=256 | 2,791.98 images/s |\n"
                               "机器：Tesla V100-SXM2-16GB，每节点 8 卡，批大小 per GPU\n",
                         NULL));
    cr_assert_null(check("en", "# ResNet50 v1.5 report\n\n| 1×8 GPUs | 2,791.98 images/s |\n", NULL));
}

Test(langcheck, code_links_comments_and_tags_are_not_prose)
{
    const char *zh = "命令：`python train.py --and a long english line here`\n"
                     "```sh\n"
                     "this whole block is english and code\n"
                     "```\n"
                     "见 [日志](https://example.com/some/long path/with words in it) 与 "
                     "<https://example.com/a/b> <!-- a comment with many english words -->\n"
                     "<a id=\"an anchor with english words\"></a>结束\n";
    cr_assert_null(check("zh", zh, NULL));
    const char *en = "Run `中文 命令` and [the log](日志/中文.txt).\n```\n中文代码\n```\n<!-- 注释 -->\n";
    cr_assert_null(check("en", en, NULL));
}

Test(langcheck, identifiers_and_units_end_a_run)
{
    /* dotted, numbered, slashed and underscored tokens are code or units */
    cr_assert_null(check("zh", "吞吐 images/s per GPU at 2 x memory_clock torch.matmul bus\n", NULL));
    /* but four plain words in a row are a sentence, punctuation or not */
    cr_assert(check("zh", "说明：(this revision does not print it)\n", NULL));
    cr_assert(check("zh", "说明：one, two; three four\n", NULL));
}

Test(langcheck, names_from_data_pass)
{
    lc_names ns = {NULL, 0};
    lc_names_add(&ns, "PyTorch (CPU, synthetic data)", 0);
    lc_names_add(&ns, "四、测试结果 / A100上训练吞吐率", 1);
    lc_names_add(&ns, "GPU 显存带宽", 0);
    lc_names_add(&ns, "中文", 1);
    cr_assert_null(check("zh", "| [PyTorch (CPU, synthetic data)](x) | 无数据 |\n", &ns));
    cr_assert_null(check("en", "Source: [四、测试结果 / A100上训练吞吐率](u) | [中文](README.md)\n", &ns));
    /* a name that may not hold Chinese on an English page is no excuse there */
    const char *msg = check("en", "# GPU 显存带宽\n", &ns);
    cr_assert(msg && strstr(msg, "P.md:1:"), "%s", msg ? msg : "(passed)");
    /* and a name does not hide the prose around it */
    cr_assert(check("zh", "PyTorch (CPU, synthetic data) runs on every single core\n", &ns));
    lc_names_free(&ns);
}

Test(langcheck, markdown_escapes_undone_before_names)
{
    lc_names ns = {NULL, 0};
    lc_names_add(&ns, "PyTorch (bench/torch_peers.py) and all of its friends", 0);
    cr_assert_null(check("zh", "# PyTorch (bench/torch\\_peers.py) and all of its friends 测试\n", &ns));
    lc_names_free(&ns);
}

/* ------------------------------------------------------------ bitext */

static const char *load_text(const char *json, pr_bitext *t)
{
    static pr_err err;
    pr_jdoc *doc = NULL;
    cr_assert_eq(pr_jdoc_parse("t.json", json, strlen(json), &doc, &err), 0, "%s", err.msg);
    pr_jcur root = pr_jdoc_root(doc);
    int rc = pr_jbitext(&root, "d", 0, t, &err);
    pr_jdoc_free(doc);
    return rc < 0 ? err.msg : NULL;
}

Test(bitext, plain_or_both_languages)
{
    pr_bitext t;
    cr_assert_null(load_text("{\"d\": \"NVLink\"}", &t));
    cr_assert_str_eq(pr_bitext_in(&t, "zh"), "NVLink");
    cr_assert_str_eq(pr_bitext_in(&t, "en"), "NVLink");
    pr_bitext_free(&t);
    cr_assert_null(load_text("{\"d\": {\"zh\": \"节点内 NVLink\", \"en\": \"NVLink within a node\"}}", &t));
    cr_assert_str_eq(pr_bitext_in(&t, "zh"), "节点内 NVLink");
    cr_assert_str_eq(pr_bitext_in(&t, "en"), "NVLink within a node");
    pr_bitext_free(&t);
    cr_assert_null(load_text("{}", &t));
    cr_assert_null(pr_bitext_in(&t, "zh"));
}

Test(bitext, malformed_named_with_its_field)
{
    pr_bitext t;
    const char *msg = load_text("{\"d\": {\"zh\": \"中\"}}", &t);
    cr_assert(msg && strstr(msg, "t.json:1:") && strstr(msg, "\"en\""), "%s", msg);
    pr_bitext_free(&t);
    msg = load_text("{\"d\": {\"zh\": \"中\", \"en\": \"e\", \"fr\": \"f\"}}", &t);
    cr_assert(msg && strstr(msg, "fr"), "%s", msg);
    pr_bitext_free(&t);
    msg = load_text("{\"d\": {\"zh\": \"\", \"en\": \"e\"}}", &t);
    cr_assert(msg && strstr(msg, "d.zh") && strstr(msg, "empty"), "%s", msg);
    pr_bitext_free(&t);
    msg = load_text("{\"d\": 3}", &t);
    cr_assert(msg && strstr(msg, "expected a string or"), "%s", msg);
    pr_bitext_free(&t);
}
