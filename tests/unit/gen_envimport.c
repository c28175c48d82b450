/* perfrepro-gen import-env and the loader of its files (srcenv): a README's
 * environment sections read with cmark-gfm, every item kept as printed with
 * its line; small READMEs made here, and a real one (../shared/perf,
 * PaddlePaddle/Perf, or $PERF; skipped when absent). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "1-load/data.h"
#include "1-load/srcenv.h"
#include "import/envimport.h"
#include "jdoc.h"
#include "record.h"
#include "testutil.h"

#define COMMIT "e7a07c4d39e04de5e24652daaf02d204f0209acb"

/* $PERF, else $PERFREPRO_SHARED/perf (../shared/perf by default), as the
 * other tests find the shared data. */
static const char *perf_dir(void)
{
    static char dir[4096];
    const char *p = getenv("PERF"), *s = getenv("PERFREPRO_SHARED");
    if (p && *p)
        return p;
    snprintf(dir, sizeof dir, "%s/perf", s && *s ? s : "../shared");
    return dir;
}

static pr_envimport_opts opts(const char *md, const char *out)
{
    pr_envimport_opts o;
    memset(&o, 0, sizeof o);
    o.markdown = md;
    o.repo = "PaddlePaddle/Perf";
    o.commit = COMMIT;
    o.path = "A/README.md";
    o.out = out;
    return o;
}

/* Imports dir/rel into dir/environments/e.json and loads it: the file (the
 * caller frees it with srcenv_file_free). */
static srcenv_file *import(const char *dir, const char *rel, const pr_envimport_opts *extra,
                           char **summary)
{
    char *md = pr_fileio_path_join(dir, rel),
         *out = pr_fileio_path_join(dir, "environments/e.json");
    pr_envimport_opts o = extra ? *extra : opts(NULL, NULL);
    o.markdown = md;
    o.out = out;
    if (!o.repo) {
        pr_envimport_opts d = opts(md, out);
        o.repo = d.repo;
        o.commit = d.commit;
        o.path = d.path;
    }
    pr_err err;
    char *s = NULL;
    cr_assert(envimport_run(&o, &s, &err) == 0, "%s", err.msg);
    if (summary)
        *summary = s;
    else
        free(s);
    srcenv_file *f = NULL;
    cr_assert(srcenv_file_load(out, &f, &err) == 0, "gen refuses what import-env wrote: %s",
              err.msg);
    free(md);
    free(out);
    return f;
}

/* "line key=value" of each item of group g, joined with " | "; the caller
 * frees it. */
static char *items_of(const srcenv_group *g)
{
    pr_buf b = PR_BUF_INIT;
    for (size_t i = 0; i < srcenv_group_nitems(g); i++) {
        const srcenv_item *it = srcenv_group_item(g, i);
        pr_buf_printf(&b, "%s%d %s:%s=%s", i ? " | " : "", srcenv_item_line(it),
                      srcenv_item_key(it) ? srcenv_item_key(it) : "-", srcenv_item_kind(it),
                      srcenv_item_value(it));
    }
    return pr_buf_detach(&b);
}

Test(envimport, nested_groups_flat_lists_links_colons_and_code)
{
    char *dir = tmpdir();
    put(dir, "README.md",
        "# Report\n"                                     /* 1 */
        "\n"                                             /* 2 */
        "## 目录\n"                                      /* 3 */
        "- [一、环境介绍](#一环境介绍)\n"                /* 4: a contents entry */
        "\n"                                             /* 5 */
        "## 一、环境介绍\n"                              /* 6 */
        "### 1.物理机环境\n"                             /* 7 */
        "\n"                                             /* 8 */
        "我们使用了与Paddle测试完全相同的物理机环境：\n" /* 9 */
        "\n"                                             /* 10 */
        "- 单机V100（单卡、8卡）\n"                      /* 11 */
        "  - 系统：CentOS release 7.5 (Final)\n"         /* 12 */
        "  - Driver Version: 525.60.11 \n"               /* 13 */
        "  - 散热：风冷\n"                               /* 14: unknown key */
        "- 多机（32卡）\n"                               /* 15 */
        "  - GPU：Tesla V100-SXM2-32GB * 8\n"            /* 16 */
        "\n"                                             /* 17 */
        "### 2.Docker 镜像\n"                            /* 18 */
        "\n"                                             /* 19 */
        "- Docker: nvcr.io/nvidia/pytorch:21.03-py3\n"   /* 20 */
        "- PyTorch：2.0.1\n"                             /* 21 */
        "- **cuDnn 版本:** `8.0.1`\n"                    /* 22 */
        "- 模型代码：[DeepLearningExamples](https://github.com/NVIDIA/DeepLearningExamples)\n"
        "- https://example.com/no-key\n"         /* 24 */
        "- MxNet 版本：1.9.0\n"                  /* 25 */
        "\n"                                     /* 26 */
        "```\n"                                  /* 27 */
        "nvidia-smi topo -m\n"                   /* 28 */
        "        GPU0    GPU1\n"                 /* 29 */
        "```\n"                                  /* 30 */
        "\n"                                     /* 31 */
        "    a note in an indented block\n"      /* 32 */
        "\n"                                     /* 33 */
        "## 二、环境搭建\n"                      /* 34 */
        "- 系统：not an environment section\n"); /* 35 */
    char *summary = NULL;
    srcenv_file *f = import(dir, "README.md", NULL, &summary);
    cr_expect(strstr(summary, "3 group(s), 12 item(s) from \"一、环境介绍\" (line 6)"), "%s",
              summary);
    free(summary);
    cr_assert_eq(srcenv_file_ngroups(f), 3);
    const srcenv_group *g = srcenv_file_group(f, 0);
    cr_expect_str_eq(srcenv_group_title(g), "单机V100（单卡、8卡）");
    cr_expect_str_eq(srcenv_group_section(g), "1.物理机环境");
    cr_expect_eq(srcenv_group_line(g), 11);
    char *s = items_of(g);
    cr_expect_str_eq(s,
                     "12 系统:os=CentOS release 7.5 (Final) | 13 Driver Version:driver=525.60.11 | "
                     "14 散热:other=风冷");
    free(s);
    g = srcenv_file_group(f, 1);
    cr_expect_str_eq(srcenv_group_title(g), "多机（32卡）");
    s = items_of(g);
    cr_expect_str_eq(s, "16 GPU:gpu=Tesla V100-SXM2-32GB * 8");
    free(s);
    /* A flat list: the heading's group; then its code blocks. */
    g = srcenv_file_group(f, 2);
    cr_expect_str_eq(srcenv_group_title(g), "2.Docker 镜像");
    cr_expect_eq(srcenv_group_line(g), 18);
    s = items_of(g);
    cr_expect_str_eq(
        s, "20 Docker:image=nvcr.io/nvidia/pytorch:21.03-py3 | 21 PyTorch:framework=2.0.1 | "
           "22 cuDnn 版本:cudnn=8.0.1 | 23 模型代码:code=DeepLearningExamples | "
           "24 -:other=https://example.com/no-key | 25 MxNet 版本:framework=1.9.0 | "
           "27 -:topology=nvidia-smi topo -m\n        GPU0    GPU1 | "
           "32 -:text=a note in an indented block");
    free(s);
    const srcenv_item *it = srcenv_group_item(g, 1);
    cr_expect_str_eq(srcenv_item_framework(it), "PyTorch");
    cr_expect_str_eq(srcenv_item_framework(srcenv_group_item(g, 5)), "MXNet");
    cr_expect_null(srcenv_item_framework(srcenv_group_item(g, 0)));
    it = srcenv_group_item(g, 3);
    cr_expect_str_eq(srcenv_item_url(it), "https://github.com/NVIDIA/DeepLearningExamples");
    char *link = srcenv_item_link(f, it);
    cr_expect_str_eq(link, "https://github.com/PaddlePaddle/Perf/blob/" COMMIT "/A/README.md#L23");
    free(link);
    it = srcenv_group_item(g, 6);
    cr_expect_eq(srcenv_item_end_line(it), 30);
    link = srcenv_item_link(f, it);
    cr_expect(strstr(link, "/A/README.md#L27-L30"), "%s", link);
    free(link);
    srcenv_file_free(f);
    rm_rf(dir);
    free(dir);
}

/* Issue 30 item 7: a sub-heading printed as a flat list item, its items
 * beside it (Bert/OtherReports/PyTorch's " - 单机A100（单卡、8卡）" indented
 * one space), is a group's title, never an item of the heading's group. */
Test(envimport, a_flat_sub_heading_is_a_group_not_an_item)
{
    char *dir = tmpdir();
    put(dir, "README.md",
        "## 一、环境介绍\n"                      /* 1 */
        "### 1.物理机环境\n"                     /* 2 */
        "\n"                                     /* 3 */
        "- 单机V100（单卡、8卡）\n"              /* 4 */
        "  - 系统：CentOS release 7.5 (Final)\n" /* 5 */
        "\n"                                     /* 6 */
        " - 单机A100（单卡、8卡）\n"             /* 7: flat */
        "  - 系统：CentOS release 7.5 (Final)\n" /* 8 */
        "  - GPU：NVIDIA A100-SXM4-40GB * 8\n"   /* 9 */
        "\n"                                     /* 10 */
        "- 多机（32卡）\n"                       /* 11 */
        "  - GPU：Tesla V100-SXM2-32GB * 8\n"    /* 12 */
        "- 散热方式\n"                           /* 13: no key, none after */
        "- https://example.com/no-key\n"         /* 14: a link, no heading */
        "- GPU：A\n");                           /* 15 */
    srcenv_file *f = import(dir, "README.md", NULL, NULL);
    cr_assert_eq(srcenv_file_ngroups(f), 4);
    const char *want[][2] = {
        {"单机V100（单卡、8卡）", "5 系统:os=CentOS release 7.5 (Final)"},
        {"单机A100（单卡、8卡）",
         "8 系统:os=CentOS release 7.5 (Final) | 9 GPU:gpu=NVIDIA A100-SXM4-40GB * 8"},
        {"多机（32卡）", "12 GPU:gpu=Tesla V100-SXM2-32GB * 8"},
        {"1.物理机环境",
         "13 -:other=散热方式 | 14 -:other=https://example.com/no-key | 15 GPU:gpu=A"},
    };
    for (size_t i = 0; i < 4; i++) {
        const srcenv_group *g = srcenv_file_group(f, i);
        char *s = items_of(g);
        cr_expect_str_eq(srcenv_group_title(g), want[i][0]);
        cr_expect_str_eq(s, want[i][1], "group %zu: %s", i, s);
        cr_expect(!strstr(s, "单机A100"), "a heading as an item: %s", s);
        free(s);
    }
    srcenv_file_free(f);
    rm_rf(dir);
    free(dir);
}

Test(envimport, a_reimport_changes_nothing)
{
    char *dir = tmpdir();
    put(dir, "README.md", "## Environment\n\n- OS: Debian 12\n- Python: 3.11\n");
    char *summary = NULL;
    srcenv_file *f = import(dir, "README.md", NULL, &summary);
    srcenv_file_free(f);
    free(summary);
    char *out = pr_fileio_path_join(dir, "environments/e.json");
    pr_buf first = PR_BUF_INIT, second = PR_BUF_INIT;
    pr_err err;
    cr_assert(pr_fileio_read_file(out, &first, &err) == 0);
    struct stat a, b;
    cr_assert(stat(out, &a) == 0);
    f = import(dir, "README.md", NULL, &summary);
    srcenv_file_free(f);
    cr_expect(strstr(summary, "(unchanged)"), "%s", summary);
    free(summary);
    cr_assert(pr_fileio_read_file(out, &second, &err) == 0);
    cr_assert(stat(out, &b) == 0);
    cr_expect_eq(first.len, second.len);
    cr_expect(memcmp(first.data, second.data, first.len) == 0);
    cr_expect(a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec,
              "an unchanged import rewrote its file");
    cr_expect(strstr(first.data, "\"kind\": \"python\""), "%s", first.data);
    pr_buf_free(&first);
    pr_buf_free(&second);
    free(out);
    rm_rf(dir);
    free(dir);
}

Test(envimport, sections_given_and_list_item_sections)
{
    char *dir = tmpdir();
    put(dir, "README.md",
        "## 三、环境搭建\n"
        "- 拉取docker\n"
        "  ```bash\n"
        "  docker pull x\n"
        "  ```\n"
        "- 多机网络部署\n"
        "  ```bash\n"
        "  InfiniBand 100 Gb/sec\n"
        "  GPU0\tGPU1\n"
        "  ```\n"
        "## 硬件\n"
        "- CPU：Xeon\n");
    const char *titles[] = {"多机网络部署", "硬件"};
    pr_envimport_opts o = opts(NULL, NULL);
    o.sections = titles;
    o.nsections = 2;
    char *summary = NULL;
    srcenv_file *f = import(dir, "README.md", &o, &summary);
    cr_expect(strstr(summary, "\"多机网络部署\" (line 6), \"硬件\" (line 11)"), "%s", summary);
    free(summary);
    cr_assert_eq(srcenv_file_ngroups(f), 2);
    const srcenv_group *g = srcenv_file_group(f, 0);
    cr_expect_str_eq(srcenv_group_title(g), "多机网络部署");
    cr_expect_str_eq(srcenv_group_section(g), "三、环境搭建");
    cr_expect_eq(srcenv_group_line(g), 6);
    const srcenv_item *it = srcenv_group_item(g, 0);
    cr_expect_str_eq(srcenv_item_kind(it), "topology");
    cr_expect_eq(srcenv_item_line(it), 7);
    cr_expect_eq(srcenv_item_end_line(it), 10);
    char *s = items_of(srcenv_file_group(f, 1));
    cr_expect_str_eq(s, "12 CPU:cpu=Xeon");
    free(s);
    srcenv_file_free(f);
    rm_rf(dir);
    free(dir);
}

Test(envimport, clear_errors)
{
    char *dir = tmpdir();
    put(dir, "none.md", "# Title\n\n## 三、环境搭建\n\n- 系统：x\n");
    put(dir, "empty.md",
        "# Title\n\n## 二、环境介绍\n\nSee the other report.\n\n## 三、测试\n- GPU：x\n");
    char *md = pr_fileio_path_join(dir, "none.md"), *out = pr_fileio_path_join(dir, "e.json");
    pr_envimport_opts o = opts(md, out);
    char *summary = NULL;
    pr_err err;
    cr_assert(envimport_run(&o, &summary, &err) < 0);
    cr_expect(strstr(err.msg, "none.md:") && strstr(err.msg, "--section") &&
                  strstr(err.msg, "\"环境介绍\", \"物理机环境\", \"机器环境\", \"硬件环境\", "
                                  "\"Docker 镜像\", \"软件环境\", \"Environment\""),
              "%s", err.msg);
    free(md);
    md = pr_fileio_path_join(dir, "empty.md");
    o.markdown = md;
    cr_assert(envimport_run(&o, &summary, &err) < 0);
    cr_expect(strstr(err.msg, "empty.md:3:") &&
                  strstr(err.msg, "\"二、环境介绍\" (line 3) hold no list item"),
              "%s", err.msg);
    o.commit = "main; rm -rf /";
    cr_assert(envimport_run(&o, &summary, &err) < 0);
    cr_expect(strstr(err.msg, "--commit"), "%s", err.msg);
    o.commit = COMMIT;
    o.path = "../etc/passwd";
    cr_assert(envimport_run(&o, &summary, &err) < 0);
    cr_expect(strstr(err.msg, "--path"), "%s", err.msg);
    o.path = "A/README.md";
    o.repo = "Perf";
    cr_assert(envimport_run(&o, &summary, &err) < 0);
    cr_expect(strstr(err.msg, "--repo"), "%s", err.msg);
    struct stat st;
    cr_expect(stat(out, &st) < 0, "a failed import wrote its file");
    free(md);
    free(out);
    rm_rf(dir);
    free(dir);
}

Test(envimport, hostile_input)
{
    char *dir = tmpdir();
    /* A line longer than a data file may hold: an error naming its line. */
    pr_buf md = PR_BUF_INIT;
    pr_buf_puts(&md, "## Environment\n\n- OS: x\n- GPU: ");
    for (int i = 0; i < PR_TEXT_MAX + 10; i++)
        pr_buf_putc(&md, 'A');
    pr_buf_puts(&md, "\n");
    put(dir, "huge.md", pr_buf_cstr(&md));
    char *path = pr_fileio_path_join(dir, "huge.md"), *out = pr_fileio_path_join(dir, "e.json");
    pr_envimport_opts o = opts(path, out);
    char *summary = NULL;
    pr_err err;
    cr_assert(envimport_run(&o, &summary, &err) < 0);
    cr_expect(strstr(err.msg, "huge.md:4:") && strstr(err.msg, "at most 16384"), "%s", err.msg);
    free(path);
    /* HTML: inline HTML is no text, an HTML block (a line that starts with a
     * tag or comment) no item: raw HTML is dropped, as the site's safe
     * rendering drops it. */
    put(dir, "html.md",
        "## Environment\n\n"
        "<div><script>alert(1)</script></div>\n\n"
        "- OS: <b>Debian</b> 12<img src=x onerror=alert(1)>\n"
        "- GPU: <!-- hidden -->V100\n"
        "- <!-- a block -->CPU: x\n");
    srcenv_file *f = import(dir, "html.md", NULL, NULL);
    char *s = items_of(srcenv_file_group(f, 0));
    cr_expect_str_eq(s, "5 OS:os=Debian 12 | 6 GPU:gpu=V100");
    free(s);
    srcenv_file_free(f);
    /* Deep nesting: 3000 nested lists on one line, and 500 by indentation;
     * every level is an item of the group, nothing recursive overflows. */
    pr_buf_clear(&md);
    pr_buf_puts(&md, "## Environment\n\n- machine\n  ");
    for (int i = 0; i < 3000; i++)
        pr_buf_puts(&md, "- ");
    pr_buf_puts(&md, "GPU: deep\n");
    put(dir, "deep.md", pr_buf_cstr(&md));
    f = import(dir, "deep.md", NULL, &summary);
    cr_expect(strstr(summary, "1 group(s), 1 item(s)"), "%s", summary);
    free(summary);
    const srcenv_item *it = srcenv_group_item(srcenv_file_group(f, 0), 0);
    cr_expect_str_eq(srcenv_item_value(it), "deep");
    srcenv_file_free(f);
    pr_buf_clear(&md);
    pr_buf_puts(&md, "## Environment\n\n");
    for (int i = 0; i < 500; i++) {
        for (int k = 0; k < i; k++)
            pr_buf_puts(&md, "  ");
        pr_buf_printf(&md, "- k%d: v\n", i);
    }
    put(dir, "indent.md", pr_buf_cstr(&md));
    f = import(dir, "indent.md", NULL, &summary);
    cr_expect(strstr(summary, "1 group(s), 499 item(s)"), "%s", summary);
    free(summary);
    cr_expect_str_eq(srcenv_group_title(srcenv_file_group(f, 0)), "k0: v");
    srcenv_file_free(f);
    pr_buf_free(&md);
    free(out);
    rm_rf(dir);
    free(dir);
}

/* Loads text as an environment file: NULL, or the error (static). */
static const char *load_text(const char *text)
{
    static pr_err err;
    srcenv_file *f = NULL;
    if (srcenv_file_parse("e.json", text, strlen(text), &f, &err) < 0)
        return err.msg;
    srcenv_file_free(f);
    return NULL;
}

#define SRC                                                                                        \
    "\"source\": {\"repo\": \"o/r\", \"commit\": \"abcdef1\", \"path\": \"R.md\", "                \
    "\"url\": \"https://github.com/o/r/blob/abcdef1/R.md\"}"

Test(srcenv, the_loader_is_strict)
{
    const char *ok =
        "{\"perfrepro\": 1, " SRC ", \"groups\": [{\"title\": \"t\", \"line\": 2, "
        "\"items\": [{\"key\": \"GPU\", \"kind\": \"gpu\", \"value\": \"V100\", \"line\": 3}]}]}";
    cr_expect_null(load_text(ok), "%s", load_text(ok));
    const char *e = load_text(
        "{\"perfrepro\": 1, " SRC ", \"groups\": [{\"title\": \"t\", \"line\": 2,\n"
        " \"items\": [{\"kye\": \"GPU\", \"kind\": \"gpu\", \"value\": \"V100\", \"line\": 3}]}]}");
    cr_expect(
        e &&
            strstr(
                e,
                "e.json:2:20: groups[0].items[0].kye: unknown key \"kye\" (did you mean \"key\"?)"),
        "%s", e);
    e = load_text("{\"perfrepro\": 1, " SRC ", \"groups\": [{\"title\": \"t\", \"line\": 2, "
                  "\"items\": [{\"kind\": \"gpus\", \"value\": \"V100\", \"line\": 3}]}]}");
    cr_expect(e && strstr(e, "groups[0].items[0].kind: unknown value \"gpus\""), "%s", e);
    e = load_text("{\"perfrepro\": 1, " SRC ", \"groups\": [{\"title\": \"t\", \"line\": 2, "
                  "\"items\": [{\"kind\": \"gpu\", \"framework\": \"PyTorch\", \"value\": \"x\", "
                  "\"line\": 3}]}]}");
    cr_expect(e && strstr(e, "framework: only an item of kind \"framework\""), "%s", e);
    e = load_text("{\"perfrepro\": 1, " SRC ", \"groups\": [{\"title\": \"t\", \"line\": 5, "
                  "\"items\": [{\"kind\": \"gpu\", \"value\": \"x\", \"line\": 3}]}]}");
    cr_expect(e && strstr(e, "line: 3 is before its group's line 5"), "%s", e);
    e = load_text("{\"perfrepro\": 1, " SRC ", \"groups\": []}");
    cr_expect(e && strstr(e, "groups: expected at least 1 element"), "%s", e);
    e = load_text("{\"perfrepro\": 1, \"source\": {\"repo\": \"o/r\", \"commit\": \"abcdef1\", "
                  "\"path\": \"R.md\", \"url\": \"https://example.com/R.md\"}, \"groups\": []}");
    cr_expect(e &&
                  strstr(e, "source.url: \"https://example.com/R.md\" is not the README's address"),
              "%s", e);
    /* A string longer than PR_TEXT_MAX. */
    pr_buf big = PR_BUF_INIT;
    pr_buf_puts(&big, "{\"perfrepro\": 1, " SRC ", \"groups\": [{\"title\": \"t\", \"line\": 2, "
                      "\"items\": [{\"kind\": \"text\", \"value\": \"");
    for (int i = 0; i < PR_TEXT_MAX + 1; i++)
        pr_buf_putc(&big, 'x');
    pr_buf_puts(&big, "\", \"line\": 3}]}]}");
    e = load_text(pr_buf_cstr(&big));
    cr_expect(e && strstr(e, "groups[0].items[0].value: 16385 bytes of text: at most 16384"), "%s",
              e);
    pr_buf_free(&big);
    cr_expect_str_eq(srcenv_kind_of_key("cuDnn 版本", NULL), "cudnn");
    cr_expect_str_eq(srcenv_kind_of_key(" Driver Version ", NULL), "driver");
    cr_expect_str_eq(srcenv_kind_of_key("镜像版本", NULL), "image");
    cr_expect_str_eq(srcenv_kind_of_key("散热", NULL), "other");
}

Test(srcenv, a_data_folder_loads_its_environments_once_per_source)
{
    char *dir = tmpdir();
    const char *file =
        "{\"perfrepro\": 1, " SRC ", \"groups\": [{\"title\": \"t\", \"line\": 2, "
        "\"items\": [{\"key\": \"GPU\", \"kind\": \"gpu\", \"value\": \"V100\", \"line\": 3}]}]}\n";
    put(dir, "environments/a.json", file);
    pr_dataset *d = NULL;
    pr_err err;
    cr_assert(data_load(dir, &d, &err) == 0, "%s", err.msg);
    cr_assert_eq(srcenv_set_count(d->envs), 1);
    const srcenv_file *f = srcenv_set_find(d->envs, "o/r", "R.md");
    cr_assert(f);
    cr_expect_str_eq(srcenv_item_value(srcenv_group_item(srcenv_file_group(f, 0), 0)), "V100");
    cr_expect_null(srcenv_set_find(d->envs, "o/r", "S.md"));
    data_free(d);
    put(dir, "environments/b.json", file);
    cr_assert(data_load(dir, &d, &err) < 0);
    cr_expect(strstr(err.msg, "b.json: source: a second environment file for o/r R.md") &&
                  strstr(err.msg, "a.json"),
              "%s", err.msg);
    rm_rf(dir);
    free(dir);
}

Test(envimport, a_real_readme_that_contradicts_itself_is_kept_as_printed)
{
    char *md = pr_fileio_path_join(perf_dir(), "ResNet50V1.5/OtherReports/PyTorch/README.md");
    struct stat st;
    if (stat(md, &st) != 0) {
        free(md);
        cr_skip_test("no %s", perf_dir());
    }
    char *dir = tmpdir(), *out = pr_fileio_path_join(dir, "e.json");
    pr_envimport_opts o = opts(md, out);
    o.path = "ResNet50V1.5/OtherReports/PyTorch/README.md";
    char *summary = NULL;
    pr_err err;
    cr_assert(envimport_run(&o, &summary, &err) == 0, "%s", err.msg);
    cr_expect(strstr(summary, "4 group(s), 20 item(s) from \"一、环境介绍\" (line 20)"), "%s",
              summary);
    free(summary);
    srcenv_file *f = NULL;
    cr_assert(srcenv_file_load(out, &f, &err) == 0, "%s", err.msg);
    cr_assert_eq(srcenv_file_ngroups(f), 4);
    const char *titles[] = {"单机V100（单卡、8卡）", "单机A100（单卡、8卡）", "多机（32卡）",
                            "2.Docker 镜像"};
    const int lines[] = {26, 33, 40, 47};
    for (size_t i = 0; i < 4; i++) {
        cr_expect_str_eq(srcenv_group_title(srcenv_file_group(f, i)), titles[i]);
        cr_expect_eq(srcenv_group_line(srcenv_file_group(f, i)), lines[i]);
    }
    char *s = items_of(srcenv_file_group(f, 3));
    cr_expect_str_eq(
        s, "51 Docker:image=nvcr.io/nvidia/pytorch:21.03-py3 | 52 PyTorch:framework=2.0.1 | "
           "53 模型代码:code=NVIDIA/DeepLearningExamples/PyTorch | 54 CUDA:cuda=11 | "
           "55 cuDNN:cudnn=8.0.1");
    free(s);
    s = items_of(srcenv_file_group(f, 0));
    cr_expect_str_eq(
        s, "27 系统:os=CentOS release 7.5 (Final) | 28 GPU:gpu=Tesla V100-SXM2-32GB * 8 | "
           "29 CPU:cpu=Intel(R) Xeon(R) Gold 6271C CPU @ 2.60GHz * 80 | "
           "30 Driver Version:driver=525.60.11 | 31 内存:memory=630 GB");
    free(s);
    srcenv_file_free(f);
    free(out);
    free(md);
    rm_rf(dir);
    free(dir);
}
