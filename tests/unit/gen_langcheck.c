/* One language per page: the check a build runs on every page it renders
 * (gen/6-output/langcheck.c) rejects English prose on a Chinese page and Chinese on
 * an English one, naming the page and the line; code, links, comments and
 * the names the data declares pass.  Data strings may come in both
 * languages (lib/bitext.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "6-output/langcheck.h"
#include "bitext.h"
#include "buf.h"
#include "jdoc.h"

/* The check's message for md as page "P.md" in code, NULL when it passes. */
static const char *check(const char *code, const char *md, langcheck_names *ns)
{
    static pr_err err;
    langcheck_names none = LC_NAMES_INIT;
    return langcheck_check_page("P.md", code, md, strlen(md), ns ? ns : &none, &err) < 0 ? err.msg
                                                                                         : NULL;
}

Test(langcheck, english_sentence_on_zh_page_named_with_its_line)
{
    const char *msg =
        check("zh", "# 标题\n\n说明：一段中文。\n- 互连：NVLink within a node\n", NULL);
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
    cr_assert_null(
        check("zh",
              "# ResNet50 v1.5 测试报告\n\n| 1机8卡 | FP32 BS=256 | 2,791.98 images/s |\n"
              "机器：Tesla V100-SXM2-16GB，每节点 8 卡，批大小 per GPU\n",
              NULL));
    cr_assert_null(
        check("en", "# ResNet50 v1.5 report\n\n| 1×8 GPUs | 2,791.98 images/s |\n", NULL));
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
    const char *en =
        "Run `中文 命令` and [the log](日志/中文.txt).\n```\n中文代码\n```\n<!-- 注释 -->\n";
    cr_assert_null(check("en", en, NULL));
}

Test(langcheck, identifiers_and_units_end_a_run)
{
    /* dotted, numbered, slashed and underscored tokens are code or units */
    cr_assert_null(
        check("zh", "吞吐 images/s per GPU at 2 x memory_clock torch.matmul bus\n", NULL));
    /* but four plain words in a row are a sentence, punctuation or not */
    cr_assert(check("zh", "说明：(this revision does not print it)\n", NULL));
    cr_assert(check("zh", "说明：one, two; three four\n", NULL));
}

Test(langcheck, names_from_data_pass)
{
    langcheck_names ns = LC_NAMES_INIT;
    langcheck_names_add(&ns, "PyTorch (CPU, synthetic data)", 0);
    langcheck_names_add(&ns, "四、测试结果 / A100上训练吞吐率", 1);
    langcheck_names_add(&ns, "GPU 显存带宽", 0);
    langcheck_names_add(&ns, "中文", 1);
    cr_assert_null(check("zh", "| [PyTorch (CPU, synthetic data)](x) | 无数据 |\n", &ns));
    cr_assert_null(
        check("en", "Source: [四、测试结果 / A100上训练吞吐率](u) | [中文](README.md)\n", &ns));
    /* a name that may not hold Chinese on an English page is no excuse there */
    const char *msg = check("en", "# GPU 显存带宽\n", &ns);
    cr_assert(msg && strstr(msg, "P.md:1:"), "%s", msg ? msg : "(passed)");
    /* and a name does not hide the prose around it */
    cr_assert(check("zh", "PyTorch (CPU, synthetic data) runs on every single core\n", &ns));
    langcheck_names_free(&ns);
}

/* An env.json value without a letter ("1": OMP_NUM_THREADS) is no name: cut
 * out of a line it split a short quotation ("level O1") into English words
 * that failed a Chinese page. */
Test(langcheck, a_printed_value_without_letters_is_no_name)
{
    langcheck_names ns = LC_NAMES_INIT;
    const char *line = "日志为 apex：amp 日志“Selected optimization level O1”，fp16 日志为 O2。\n";
    const char *before = check("zh", line, &ns);
    pr_dataset d;
    memset(&d, 0, sizeof d);
    pr_run run;
    memset(&run, 0, sizeof run);
    run.env = json_pack("{s:{s:{s:s,s:s}}}", "runtime", "settings", "OMP_NUM_THREADS", "1",
                        "OPENBLAS_NUM_THREADS", "2.0");
    d.runs = &run;
    d.nruns = 1;
    langcheck_names_from_data(&ns, &d);
    const char *after = check("zh", line, &ns);
    json_decref(run.env);
    cr_expect((before == NULL) == (after == NULL), "without the names: %s; with them: %s",
              before ? before : "passes", after ? after : "passes");
    langcheck_names_free(&ns);
}

Test(langcheck, markdown_escapes_undone_before_names)
{
    langcheck_names ns = LC_NAMES_INIT;
    langcheck_names_add(&ns, "PyTorch (bench/torch_peers.py) and all of its friends", 0);
    cr_assert_null(
        check("zh", "# PyTorch (bench/torch\\_peers.py) and all of its friends 测试\n", &ns));
    langcheck_names_free(&ns);
}

/* Names that overlap or nest: the longest goes out first, wherever it
 * starts, so that a name holding another goes out whole; of two names of
 * one length the one added first; a name's own occurrences go left to
 * right, none overlapping the one before. */
Test(langcheck, longest_name_wins_overlaps_and_nesting)
{
    langcheck_names ns = LC_NAMES_INIT;
    /* overlapping: the longer name starts later and still goes first */
    langcheck_names_add(&ns, "alpha beta gamma", 0);
    langcheck_names_add(&ns, "gamma delta epsilon zeta", 0);
    const char *msg =
        check("zh", "说明 alpha beta gamma delta epsilon zeta eta theta iota kappa\n", &ns);
    cr_assert(msg && strstr(msg, "«eta theta iota kappa»"), "%s", msg ? msg : "(passed)");
    langcheck_names_free(&ns);

    /* nested: the short name first would leave "四、…结果" on the page */
    langcheck_names_add(&ns, "测试", 1);
    langcheck_names_add(&ns, "四、测试结果", 1);
    cr_assert_null(check("en", "Source: 四、测试结果 and 测试\n", &ns));
    langcheck_names_free(&ns);

    /* one length: the first added wins, whichever way round */
    langcheck_names_add(&ns, "ab cd ef", 0);
    langcheck_names_add(&ns, "ef gh ij", 0);
    msg = check("zh", "说明 ab cd ef gh ij kl mn op qr\n", &ns);
    cr_assert(msg && strstr(msg, "«gh ij kl mn op qr»"), "%s", msg ? msg : "(passed)");
    langcheck_names_free(&ns);
    langcheck_names_add(&ns, "ef gh ij", 0);
    langcheck_names_add(&ns, "ab cd ef", 0);
    msg = check("zh", "说明 ab cd ef gh ij kl mn op qr\n", &ns);
    cr_assert(msg && strstr(msg, "«kl mn op qr»"), "%s", msg ? msg : "(passed)");
    langcheck_names_free(&ns);

    /* a name's occurrences: "la la" twice from the left, the fifth "la" stays */
    langcheck_names_add(&ns, "la la", 0);
    msg = check("zh", "说明 la la la la la one two three\n", &ns);
    cr_assert(msg && strstr(msg, "«la one two three»"), "%s", msg ? msg : "(passed)");
    langcheck_names_free(&ns);
}

/* The names' search as it was (strstr for each name on each line, longest
 * first): the reference the new one must agree with byte for byte. */
static void remove_names_reference(char *text, char **names, const int *cjk_ok, size_t n, int zh)
{
    for (size_t i = 0; i < n; i++) {
        if (!zh && !cjk_ok[i])
            continue;
        size_t len = strlen(names[i]);
        for (char *p = strstr(text, names[i]); p; p = strstr(p + len, names[i]))
            memset(p, '\x01', len);
    }
}

/* Random names and lines over a small alphabet (so that names overlap,
 * nest, repeat and hold the byte that stands for what is left out): the
 * check leaves out exactly what the quadratic search left out. */
Test(langcheck, names_removed_as_the_quadratic_search_did)
{
    static const char *const pieces[] = {"a", "b", " ", "\x01", "中", "ab"};
    unsigned seed = 22;
    for (int round = 0; round < 3000; round++) {
        langcheck_names ns = LC_NAMES_INIT;
        char *names[12];
        int ok[12];
        size_t n = 0;
        int count = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 12;
        for (int i = 0; i < count; i++) {
            char name[32] = "";
            int len = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 5;
            for (int k = 0; k < len; k++)
                strcat(name, pieces[((seed = seed * 1103515245u + 12345u) >> 16) % 6]);
            int cjk = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 2;
            langcheck_names_add(&ns, name, cjk);
            /* the reference's list: longest first, one length in the order
             * added, a name added twice kept once (may hold Chinese if
             * either said so) */
            size_t j = 0;
            while (j < n && strcmp(names[j], name) != 0)
                j++;
            if (j < n) {
                ok[j] |= cjk;
                continue;
            }
            size_t at = 0;
            while (at < n && strlen(names[at]) >= strlen(name))
                at++;
            memmove(&names[at + 1], &names[at], (n - at) * sizeof *names);
            memmove(&ok[at + 1], &ok[at], (n - at) * sizeof *ok);
            names[at] = pr_xstrdup(name);
            ok[at] = cjk;
            n++;
        }
        char text[256] = "";
        int tlen = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 40;
        for (int k = 0; k < tlen; k++)
            strcat(text, pieces[((seed = seed * 1103515245u + 12345u) >> 16) % 6]);
        for (int zh = 0; zh < 2; zh++) {
            char want[256], got[256];
            strcpy(want, text);
            strcpy(got, text);
            remove_names_reference(want, names, ok, n, zh);
            langcheck_names_remove(&ns, got, zh);
            cr_assert_str_eq(got, want, "round %d, zh %d, text \"%s\"", round, zh, text);
        }
        for (size_t i = 0; i < n; i++)
            free(names[i]);
        langcheck_names_free(&ns);
    }
}

/* Issue #22: the check searched every name on every line (at 100,000
 * records strstr was 18.7 % of a build).  The search now reads each byte of
 * a line a bounded number of times whatever the number of names: counted
 * in ns.work (bytes read, failure links followed, occurrences weighed), no
 * clock involved. */
Test(langcheck, name_search_grows_with_the_text_not_names_times_lines)
{
    langcheck_names ns = LC_NAMES_INIT;
    char name[64];
    for (int i = 0; i < 2000; i++) {
        snprintf(name, sizeof name, "Model%04d（框架 %d）", i, i % 10);
        langcheck_names_add(&ns, name, 1); /* sources' titles: left out on both pages */
    }
    pr_err err;
    for (int zh = 0; zh < 2; zh++) {
        pr_buf page = PR_BUF_INIT;
        for (int i = 0; i < 1000; i++)
            pr_buf_printf(&page,
                          zh ? "| Model%04d（框架 %d） | 吞吐 %d images/s | 说明：见日志 |\n"
                             : "| Model%04d（框架 %d） | %d images/s | see the log |\n",
                          i * 7 % 2000, i * 7 % 2000 % 10, 100 + i);
        ns.work = 0;
        cr_assert_eq(
            langcheck_check_page("P.md", zh ? "zh" : "en", pr_buf_cstr(&page), page.len, &ns, &err),
            0, "%s", err.msg);
        /* the search per name and line read 2,000 × 1,000 lines */
        cr_assert_leq(ns.work, 3 * page.len, "zh %d: %zu steps for %zu bytes", zh, ns.work,
                      page.len);
        pr_buf_free(&page);
    }
    langcheck_names_free(&ns);
}

/* ------------------------------------------------------------ bitext */

static const char *load_text(const char *json, pr_bitext *t)
{
    static pr_err err;
    pr_jdoc *doc = NULL;
    cr_assert_eq(pr_jdoc_parse("t.json", json, strlen(json), &doc, &err), 0, "%s", err.msg);
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    int rc = pr_bitext_jbitext(&root, "d", 0, t, &err);
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
    cr_assert_null(
        load_text("{\"d\": {\"zh\": \"节点内 NVLink\", \"en\": \"NVLink within a node\"}}", &t));
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
