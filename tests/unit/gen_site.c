/* gen: the static HTML site (perfrepro-gen site): heading ids equal to
 * GitHub's anchors, safe rendering, link rewriting and copying, atomic and
 * incremental writes, and the repository's reports as a self-contained
 * site. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "6-output/check.h"
#include "6-output/site.h"
#include "base/cmarkx.h"
#include "fileio.h"
#include "testutil.h"

static char *slurp(const char *dir, const char *rel)
{
    char *path = pr_fileio_path_join(dir, rel);
    pr_buf b = PR_BUF_INIT;
    pr_err err;
    cr_assert(pr_fileio_read_file(path, &b, &err) == 0, "%s", err.msg);
    free(path);
    return pr_buf_detach(&b);
}

static int exists(const char *dir, const char *rel)
{
    char *path = pr_fileio_path_join(dir, rel);
    int r = pr_fileio_is_file(path);
    free(path);
    return r;
}

static char *render(const char *md, const char *lang)
{
    pr_buf out = PR_BUF_INIT;
    site_render_page(md, strlen(md), lang, "style.css", &out);
    return pr_buf_detach(&out);
}

#define expect_has(hay, needle)                                                                    \
    cr_expect(strstr((hay), (needle)) != NULL, "missing %s in:\n%s", (needle), (hay))
#define expect_lacks(hay, needle)                                                                  \
    cr_expect(strstr((hay), (needle)) == NULL, "unexpected %s in:\n%s", (needle), (hay))

/* ------------------------------------------------------------ one page */

Test(site, heading_ids_are_github_anchors)
{
    char *h = render("# 标题 One\n\n## FP32 BS=max\\_144\n\n## Repeat\n\n## Repeat\n\n"
                     "### `code` *em* [link](x.md)\n\n## 一、模型与框架\n\n"
                     "- ## In a list\n\n> ## Quoted\n",
                     "zh-CN");
    expect_has(h, "<h1 id=\"标题-one\">标题 One</h1>");
    expect_has(h, "<h2 id=\"fp32-bsmax_144\">FP32 BS=max_144</h2>");
    expect_has(h, "<h2 id=\"repeat\">Repeat</h2>");
    expect_has(h, "<h2 id=\"repeat-1\">Repeat</h2>");
    expect_has(h, "<h3 id=\"code-em-link\"><code>code</code> <em>em</em> "
                  "<a href=\"x.md\">link</a></h3>");
    expect_has(h, "<h2 id=\"一模型与框架\">一、模型与框架</h2>");
    expect_has(h, "<li>\n<h2 id=\"in-a-list\">In a list</h2>");
    expect_has(h, "<blockquote>\n<h2 id=\"quoted\">Quoted</h2>");
    free(h);
}

Test(site, page_template)
{
    char *h = render("<!-- generated -->\n# Report & \\<co\\>\n\ntext\n", "en");
    cr_expect(strncmp(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">",
                      60) == 0,
              "%s", h);
    expect_has(h, "<title>Report &amp; &lt;co&gt;</title>");
    expect_has(h, "<link rel=\"stylesheet\" href=\"style.css\">");
    expect_has(h, "<p>text</p>");
    cr_expect(strcmp(h + strlen(h) - 8, "</html>\n") == 0);
    free(h);
    h = render("no heading\n", "zh-CN");
    expect_has(h, "<html lang=\"zh-CN\">");
    expect_has(h, "<title>perfrepro</title>");
    free(h);
}

Test(site, raw_html_is_never_passed_through)
{
    char *h = render("# T <b>x</b>\n\n<script>alert(1)</script>\n\n"
                     "para <img src=x onerror=alert(1)> and <iframe src=y></iframe>\n\n"
                     "[js](javascript:alert(1)) ![i](data:text/html;base64,PHNjcmlwdD4=)\n\n"
                     "| a | <style>b</style> |\n| --- | --- |\n| <script>c</script> | d |\n",
                     "en");
    expect_lacks(h, "<script");
    expect_lacks(h, "<style");
    expect_lacks(h, "<iframe");
    expect_lacks(h, "onerror");
    expect_lacks(h, "<b>");
    expect_lacks(h, "javascript:");
    expect_lacks(h, "data:text/html");
    expect_has(h, "<h1 id=\"t-x\">T <!-- raw HTML omitted -->x<!-- raw HTML omitted --></h1>");
    free(h);
}

/* The pages' folded blocks (issue 34): "<details><summary>TEXT</summary>"
 * and "</details>" are kept, TEXT unescaped from Markdown and escaped as
 * HTML; any other form (an attribute, markup in the summary) stays
 * dropped. */
Test(site, details_blocks_and_nothing_else)
{
    char *h = render("# T\n\n<details><summary>Run set “a\\_b” & c</summary>\n\n- item\n\n"
                     "</details>\n\n<details open><summary>x</summary>\n\n"
                     "<details><summary><script>y</script></summary>\n\n",
                     "en");
    expect_has(h, "<details><summary>Run set “a_b” &amp; c</summary>");
    expect_has(h, "<li>item</li>");
    expect_has(h, "</details>");
    expect_lacks(h, "<details open");
    expect_lacks(h, "<script");
    free(h);
}

/* The audit's rows carry <a id="fig-..."></a> (a table row holds no
 * heading): that one form becomes the anchor; any other form of the tag,
 * or one with more attributes, stays dropped. */
Test(site, explicit_anchors_and_nothing_else)
{
    char *h = render("# T\n\n| a | b |\n| --- | --- |\n| <a id=\"fig-r-1x8\"></a>FwR | 1 |\n\n"
                     "<a id=\"x\" onclick=\"alert(1)\"></a> <a id=\"Up\"></a> <a name=\"n\"></a> "
                     "<a id=\"o\">open</a>\n\n## H <a id=\"in-h\"></a>\n",
                     "en");
    expect_has(h, "<td><a id=\"fig-r-1x8\"></a>FwR</td>");
    expect_has(h, "<h2 id=\"h-\">H <!-- raw HTML omitted --><!-- raw HTML omitted --></h2>");
    expect_lacks(h, "in-h");
    expect_lacks(h, "onclick");
    expect_lacks(h, "id=\"x\"");
    expect_lacks(h, "id=\"Up\"");
    expect_lacks(h, "name=\"n\"");
    expect_lacks(h, "id=\"o\"");
    free(h);
    /* A page with a \x01 of its own (the site's marker) keeps no anchor. */
    h = render("| a |\n| --- |\n| <a id=\"r\"></a>x \x01"
               "0\x01 |\n",
               "en");
    expect_lacks(h, "<a id");
    free(h);
}

Test(site, tables_and_extensions)
{
    char *h = render("| GPU | a |\n| --- | ---: |\n| 1机1卡 | 311.51† |\n| 2 | TODO \\| x |\n\n"
                     "~~old~~ and www.example.com\n",
                     "zh-CN");
    expect_has(h, "<table>\n<thead>\n<tr>\n<th>GPU</th>\n<th style=\"text-align: right\">a</th>");
    expect_has(h, "<td style=\"text-align: right\">311.51†</td>");
    expect_has(h, "<td style=\"text-align: right\">TODO | x</td>");
    expect_has(h, "<del>old</del>");
    expect_has(h, "<a href=\"http://www.example.com\">www.example.com</a>");
    free(h);
}

Test(site, same_input_same_bytes)
{
    const char *md = "# A\n\n## B\n\n## B\n\n| x |\n| - |\n| 1 |\n";
    char *a = render(md, "en"), *b = render(md, "en");
    cr_expect_str_eq(a, b);
    free(a);
    free(b);
}

/* ------------------------------------------------------------ the build */

static char *make_repo(void)
{
    char *root = tmpdir();
    put(root, "templates/site/style.css", "body { color: #000; }\n");
    put(root, "data/runs/r1/logs/train_log/case 1", "step 1 <script>x</script>\n");
    put(root, "data/suites/M/F.json", "{}\n");
    put(root, "reports/.perfrepro-reports", "marker of the reports\n");
    put(root, "reports/README.md",
        "# 索引\n\n[English](README.en.md) | 中文\n\n"
        "- [M](M/README.md) and [folder](M/) and [F results](M/F/README.md#results)\n"
        "- [English models](README.en.md#models) [self](#索引)\n"
        "- [web](https://example.com/a.md) [missing](missing.md) [up](../../x.md)\n");
    put(root, "reports/README.en.md", "# Index\n\n## Models\n\n[中文](README.md)\n");
    put(root, "reports/M/README.md", "# M\n\n[F](F/README.md)\n");
    put(root, "reports/M/F/README.md",
        "# F\n\n## Results\n\n![chart](chart.svg)\n\n"
        "[log](<../../../data/runs/r1/logs/train_log/case 1>) "
        "[suite](../../../data/suites/M/F.json#L2) [top](../../README.md#索引) "
        "[png](chart.png)\n");
    put(root, "reports/M/F/chart.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n");
    put(root, "reports/M/F/chart.png", "not really a png\n");
    put(root, "reports/M/F/unlinked.svg", "<svg/>\n");
    return root;
}

static int build(const char *root, const char *out, pr_site_stats *st, pr_err *err)
{
    char *reports = pr_fileio_path_join(root, "reports");
    char *templates = pr_fileio_path_join(root, "templates");
    pr_site_opts o = {reports, out, NULL, templates};
    int rc = site_build(&o, st, err);
    free(reports);
    free(templates);
    return rc;
}

Test(site, build_mirrors_rewrites_and_copies)
{
    char *root = make_repo();
    char *out = pr_fileio_path_join(root, "build/site");
    pr_site_stats st;
    pr_err err;
    cr_assert(build(root, out, &st, &err) == 0, "%s", err.msg);
    cr_expect_eq(st.pages, 4);
    cr_expect_eq(st.files, 4); /* chart.svg, chart.png, the log, the suite */
    cr_expect_eq(st.written, 4 + 4 + 2);
    cr_expect_eq(st.unresolved, 2); /* missing.md, ../../x.md */
    const char *files[] = {"index.html",
                           "index.en.html",
                           "M/index.html",
                           "M/F/index.html",
                           "style.css",
                           ".perfrepro-site",
                           "M/F/chart.svg",
                           "M/F/chart.png",
                           "files/data/suites/M/F.json",
                           "files/data/runs/r1/logs/train_log/case 1.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        cr_expect(exists(out, files[i]), "no %s", files[i]);
    cr_expect(!exists(out, "M/F/unlinked.svg"));
    cr_expect(!exists(out, "README.md"));
    cr_expect(!exists(out, ".perfrepro-reports"));

    char *top = slurp(out, "index.html");
    expect_has(top, "<html lang=\"zh-CN\">");
    expect_has(top, "<title>索引</title>");
    expect_has(top, "<a href=\"index.en.html\">English</a>");
    expect_has(top, "<a href=\"M/index.html\">M</a> and <a href=\"M/index.html\">folder</a>");
    expect_has(top, "<a href=\"M/F/index.html#results\">F results</a>");
    expect_has(top, "<a href=\"index.en.html#models\">");
    expect_has(top, "<a href=\"#%E7%B4%A2%E5%BC%95\">self</a>");
    expect_has(top, "<a href=\"https://example.com/a.md\">web</a>");
    expect_has(top, "<a href=\"missing.md\">missing</a>");
    expect_has(top, "<link rel=\"stylesheet\" href=\"style.css\">");
    expect_has(top, "<h1 id=\"索引\">索引</h1>");
    char *en = slurp(out, "index.en.html");
    expect_has(en, "<html lang=\"en\">");
    expect_has(en, "<a href=\"index.html\">中文</a>");
    expect_has(en, "<a href=\"index.en.html\">perfrepro</a>");
    char *f = slurp(out, "M/F/index.html");
    expect_has(f, "<img src=\"chart.svg\" alt=\"chart\" />");
    /* a log without an inert extension is published as .txt */
    expect_has(f, "href=\"../../files/data/runs/r1/logs/train_log/case%201.txt\"");
    expect_has(f, "href=\"../../files/data/suites/M/F.json#L2\"");
    expect_has(f, "href=\"../../index.html#%E7%B4%A2%E5%BC%95\"");
    expect_has(f, "href=\"chart.png\"");
    expect_has(f, "<link rel=\"stylesheet\" href=\"../../style.css\">");
    expect_has(f, "<a href=\"../../index.html\">perfrepro</a>");
    /* the copied log is the same bytes, not rendered */
    char *log = slurp(out, "files/data/runs/r1/logs/train_log/case 1.txt");
    cr_expect_str_eq(log, "step 1 <script>x</script>\n");
    free(log);
    free(f);
    free(en);
    free(top);
    rm_rf(root);
    free(out);
    free(root);
}

Test(site, rebuild_writes_nothing_and_prunes_stale_files)
{
    char *root = make_repo();
    char *out = pr_fileio_path_join(root, "site");
    pr_site_stats st;
    pr_err err;
    cr_assert(build(root, out, &st, &err) == 0, "%s", err.msg);
    char *first = slurp(out, "M/F/index.html");
    struct stat before, after;
    char *page = pr_fileio_path_join(out, "M/F/index.html");
    cr_assert(stat(page, &before) == 0);
    sleep(1);
    cr_assert(build(root, out, &st, &err) == 0, "%s", err.msg);
    cr_expect_eq(st.written, 0);
    cr_expect_eq(st.removed, 0);
    cr_assert(stat(page, &after) == 0);
    cr_expect_eq(before.st_mtime, after.st_mtime, "an unchanged page was rewritten");
    char *second = slurp(out, "M/F/index.html");
    cr_expect_str_eq(first, second);

    /* A page and a link disappear: their outputs go, the rest stays. */
    char *gone = pr_fileio_path_join(root, "reports/M/README.md");
    cr_assert(unlink(gone) == 0);
    put(root, "reports/M/F/README.md", "# F\n\n## Results\n\n![chart](chart.svg)\n");
    cr_assert(build(root, out, &st, &err) == 0, "%s", err.msg);
    cr_expect_eq(st.written, 2); /* M/F/index.html, and index.html whose links to M/ broke */
    cr_expect_eq(st.unresolved, 4);
    cr_expect_eq(st.removed, 4); /* M/index.html, chart.png, the log, the suite */
    cr_expect(!exists(out, "M/index.html"));
    cr_expect(!exists(out, "files/data/suites/M/F.json"));
    char *files = pr_fileio_path_join(out, "files");
    cr_expect(!pr_fileio_is_dir(files), "emptied folders are removed");
    cr_expect(exists(out, "M/F/chart.svg"));
    cr_expect(exists(out, "index.html"));
    free(files);
    free(gone);
    free(page);
    free(first);
    free(second);
    rm_rf(root);
    free(out);
    free(root);
}

Test(site, refuses_a_foreign_out_folder)
{
    char *root = make_repo();
    put(root, "elsewhere/precious.txt", "keep me\n");
    char *out = pr_fileio_path_join(root, "elsewhere");
    pr_site_stats st;
    pr_err err;
    cr_expect_eq(build(root, out, &st, &err), -1);
    expect_has(err.msg, "refusing");
    cr_expect(exists(out, "precious.txt"));
    cr_expect(!exists(out, "index.html"));
    /* a missing stylesheet or reports folder is an error too */
    char *reports = pr_fileio_path_join(root, "reports");
    char *fresh = pr_fileio_path_join(root, "fresh");
    pr_site_opts o = {reports, fresh, NULL, "/nonexistent/templates"};
    cr_expect_eq(site_build(&o, &st, &err), -1);
    pr_site_opts o2 = {"/nonexistent/reports", fresh, NULL, NULL};
    cr_expect_eq(site_build(&o2, &st, &err), -1);
    free(fresh);
    free(reports);
    rm_rf(root);
    free(out);
    free(root);
}

Test(site, out_inside_the_reports_is_not_crawled)
{
    char *root = make_repo();
    char *out = pr_fileio_path_join(root, "reports/site");
    pr_site_stats st;
    pr_err err;
    cr_assert(build(root, out, &st, &err) == 0, "%s", err.msg);
    cr_expect_eq(st.pages, 4);
    put(out, "README.md", "# not a report\n"); /* would be a page if crawled */
    cr_assert(build(root, out, &st, &err) == 0, "%s", err.msg);
    cr_expect_eq(st.pages, 4);
    cr_expect_eq(st.written, 0);
    cr_expect_eq(st.removed, 1); /* the stray README.md is not the site's */
    rm_rf(root);
    free(out);
    free(root);
}

/* ------------------------------------------------ hostile trees */

/* A repository BASE/repo whose one page links to the log
 * data/runs/r1/logs/train_log/x (the caller makes it: a file, a link, a
 * FIFO, ...), the site's OUT, and outside it BASE/secret/logs/train_log/x. */
static char *make_linking_repo(char **base, char **out)
{
    *base = tmpdir();
    char *root = pr_fileio_path_join(*base, "repo");
    put(*base, "secret/logs/train_log/x", "secret\n");
    put(root, "templates/site/style.css", "body {}\n");
    put(root, "reports/README.md", "# F\n\n[log](../data/runs/r1/logs/train_log/x)\n");
    char *dir = pr_fileio_path_join(root, "data/runs/r1/logs/train_log");
    pr_err err;
    cr_assert(pr_fileio_mkdirs(dir, &err) == 0, "%s", err.msg);
    free(dir);
    *out = pr_fileio_path_join(root, "site");
    return root;
}

/* Nothing under OUT/files, whatever the build said. */
static void expect_nothing_published(const char *out)
{
    char *files = pr_fileio_path_join(out, "files");
    char *cmd = pr_xasprintf("test -z \"$(find '%s' -type f 2>/dev/null)\"", files);
    cr_expect(system(cmd) == 0, "something was published under %s", files);
    free(cmd);
    free(files);
}

/* Hardening: `ln -sf /etc/shadow data/runs/r1/logs/train_log/<case>` put a
 * copy of /etc/shadow in the site; /proc/self/environ published the
 * environment of whoever ran make site.  Links to outside the root (the log,
 * its folder, the run folder) are refused with an error. */
Test(site, refuses_links_that_resolve_outside_the_root)
{
    static const char *const cases[][2] = {
        {"data/runs/r1/logs/train_log/x", "/etc/passwd"},
        {"data/runs/r1/logs/train_log/x", "/proc/self/environ"},
        {"data/runs/r1/logs/train_log/x", "secret/logs/train_log/x"},
        {"data/runs/r1/logs/train_log", "secret/logs/train_log"}, /* the log folder */
        {"data/runs/r1", "secret"},                               /* the run folder */
        {"data", "secret/.."},                                    /* the data folder */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *base, *out;
        char *root = make_linking_repo(&base, &out);
        char *link = pr_fileio_path_join(root, cases[i][0]);
        char *target = cases[i][1][0] == '/' ? pr_xstrdup(cases[i][1])
                                             : pr_fileio_path_join(base, cases[i][1]);
        if (i == 5) { /* data -> BASE, where runs/r1/... is the secret */
            put(base, "runs/r1/logs/train_log/x", "secret\n");
            free(target);
            target = pr_xstrdup(base);
        }
        rm_rf(link);
        cr_assert(symlink(target, link) == 0);
        char *reports = pr_fileio_path_join(root, "reports");
        char *templates = pr_fileio_path_join(root, "templates");
        pr_site_opts o = {reports, out, NULL, templates};
        pr_site_stats st;
        pr_err err;
        cr_expect_eq(site_build(&o, &st, &err), -1, "%s -> %s was published", cases[i][0],
                     cases[i][1]);
        expect_has(err.msg, "resolves outside");
        expect_nothing_published(out);
        free(templates);
        free(reports);
        free(target);
        free(link);
        rm_rf(base);
        free(base);
        free(root);
        free(out);
    }
}

/* A link inside the root is fine; a FIFO or a device is refused (it would
 * block the copy or never end). */
Test(site, links_inside_are_followed_and_special_files_refused)
{
    char *base, *out;
    char *root = make_linking_repo(&base, &out);
    put(root, "data/runs/r1/logs/train_log/real.log", "step 1\n");
    char *link = pr_fileio_path_join(root, "data/runs/r1/logs/train_log/x");
    cr_assert(symlink("real.log", link) == 0);
    char *reports = pr_fileio_path_join(root, "reports");
    char *templates = pr_fileio_path_join(root, "templates");
    pr_site_opts o = {reports, out, NULL, templates};
    pr_site_stats st;
    pr_err err;
    cr_assert(site_build(&o, &st, &err) == 0, "%s", err.msg);
    cr_expect(exists(out, "files/data/runs/r1/logs/train_log/x.txt"));
    cr_assert(unlink(link) == 0);
    cr_assert(mkfifo(link, 0644) == 0);
    cr_expect_eq(site_build(&o, &st, &err), -1);
    expect_has(err.msg, "FIFO");
    cr_assert(unlink(link) == 0);
    cr_assert(symlink("/dev/zero", link) == 0);
    cr_expect_eq(site_build(&o, &st, &err), -1);
    /* a page that is a link to outside is not rendered either */
    cr_assert(unlink(link) == 0);
    put(root, "data/runs/r1/logs/train_log/x", "ok\n");
    char *page = pr_fileio_path_join(root, "reports/M/README.md");
    char *mdir = pr_fileio_path_dirname(page);
    cr_assert(pr_fileio_mkdirs(mdir, &err) == 0);
    cr_assert(symlink("/etc/passwd", page) == 0);
    cr_expect_eq(site_build(&o, &st, &err), -1);
    expect_has(err.msg, "resolves outside");
    cr_expect(!exists(out, "M/index.html"));
    free(mdir);
    free(page);
    free(templates);
    free(reports);
    free(link);
    rm_rf(base);
    free(base);
    free(root);
    free(out);
}

/* Hardening: a log named x.html became an HTML page of the site (stored
 * XSS).  Copied files get inert names; the links follow. */
Test(site, copied_files_get_inert_names)
{
    char *root = tmpdir();
    put(root, "templates/site/style.css", "body {}\n");
    put(root, "data/l/x.html", "<script>alert(1)</script>\n");
    put(root, "data/l/y.svg", "<svg onload=\"alert(1)\"/>\n");
    put(root, "data/l/z.log", "log\n");
    put(root, "data/l/s.json", "{}\n");
    put(root, "data/l/t.JS", "x\n");
    put(root, "reports/chart.svg", "<svg/>\n");
    put(root, "reports/notes.md", "# notes\n");
    put(root, "reports/page.xhtml", "<x/>\n");
    put(root, "reports/README.md",
        "# I\n\n[a](../data/l/x.html) [b](../data/l/y.svg) [c](../data/l/z.log) "
        "[d](../data/l/s.json) [e](../data/l/t.JS) ![chart](chart.svg) [n](notes.md) "
        "[p](page.xhtml)\n");
    char *out = pr_fileio_path_join(root, "site");
    pr_site_stats st;
    pr_err err;
    cr_assert(build(root, out, &st, &err) == 0, "%s", err.msg);
    const char *inert[] = {"files/data/l/x.html.txt",
                           "files/data/l/y.svg.txt",
                           "files/data/l/z.log",
                           "files/data/l/s.json",
                           "files/data/l/t.JS.txt",
                           "chart.svg",
                           "notes.md.txt",
                           "page.xhtml.txt"};
    for (size_t i = 0; i < sizeof inert / sizeof inert[0]; i++)
        cr_expect(exists(out, inert[i]), "no %s", inert[i]);
    const char *active[] = {"files/data/l/x.html", "files/data/l/y.svg", "files/data/l/t.JS",
                            "notes.md", "page.xhtml"};
    for (size_t i = 0; i < sizeof active / sizeof active[0]; i++)
        cr_expect(!exists(out, active[i]), "%s published under an active name", active[i]);
    char *top = slurp(out, "index.html");
    expect_has(top, "href=\"files/data/l/x.html.txt\"");
    expect_has(top, "href=\"files/data/l/y.svg.txt\"");
    expect_has(top, "href=\"files/data/l/z.log\"");
    expect_has(top, "src=\"chart.svg\"");
    expect_has(top, "href=\"page.xhtml.txt\"");
    free(top);
    /* x and x.txt would both be x.txt: refused rather than one lost */
    put(root, "data/l/w", "1\n");
    put(root, "data/l/w.txt", "2\n");
    put(root, "reports/README.md", "# I\n\n[a](../data/l/w) [b](../data/l/w.txt)\n");
    cr_expect_eq(build(root, out, &st, &err), -1);
    expect_has(err.msg, "both be published");
    rm_rf(root);
    free(out);
    free(root);
}

/* An empty reports tree: no pages, no copies (qsort was given NULL). */
Test(site, empty_tree)
{
    char *root = tmpdir();
    put(root, "templates/site/style.css", "body {}\n");
    char *reports = pr_fileio_path_join(root, "reports");
    pr_err err;
    cr_assert(pr_fileio_mkdirs(reports, &err) == 0);
    char *out = pr_fileio_path_join(root, "site");
    pr_site_stats st;
    cr_assert(build(root, out, &st, &err) == 0, "%s", err.msg);
    cr_expect_eq(st.pages, 0);
    cr_expect_eq(st.files, 0);
    free(out);
    free(reports);
    rm_rf(root);
    free(root);
}

/* Every table of a page gets a CSV beside it (<stem>.table-N.csv, its
 * cells as GitHub shows their text, RFC 4180) and a link right after it. */
Test(site, a_csv_beside_every_table)
{
    char *root = tmpdir();
    put(root, "templates/site/style.css", "body {}\n");
    put(root, "reports/README.en.md",
        "# T\n\n| GPUs | a, b | **c** |\n|---|---|---|\n| 1 | 2\\|3 | say \"hi\" ![中文](x.png) "
        "|\n\n"
        "text\n\n| x |\n|---|\n| `y` |\n");
    char *out = pr_fileio_path_join(root, "site");
    pr_site_stats st;
    pr_err err;
    cr_assert(build(root, out, &st, &err) == 0, "%s", err.msg);
    char *t1 = slurp(out, "index.en.table-1.csv"), *t2 = slurp(out, "index.en.table-2.csv");
    cr_expect_str_eq(t1, "GPUs,\"a, b\",c\r\n1,2|3,\"say \"\"hi\"\" 中文\"\r\n");
    cr_expect_str_eq(t2, "x\r\ny\r\n");
    cr_expect(!exists(out, "index.en.table-3.csv"));
    char *html = slurp(out, "index.en.html");
    expect_has(html, "</table>\n<p><a href=\"index.en.table-1.csv\">CSV</a></p>");
    expect_has(html, "</table>\n<p><a href=\"index.en.table-2.csv\">CSV</a></p>");
    /* the same bytes again: nothing rewritten */
    cr_assert(build(root, out, &st, &err) == 0, "%s", err.msg);
    cr_expect_eq(st.written, 0);
    free(html);
    free(t1);
    free(t2);
    free(out);
    rm_rf(root);
    free(root);
}

/* ------------------------------------------------ the repository's site */

/* Appends the values of every attr="..." in html (with &amp; decoded). */
static void attr_values(const char *html, const char *attr, char ***v, size_t *n)
{
    char *pat = pr_xasprintf(" %s=\"", attr);
    for (const char *p = strstr(html, pat); p; p = strstr(p, pat)) {
        p += strlen(pat);
        const char *e = strchr(p, '"');
        cr_assert(e);
        pr_buf b = PR_BUF_INIT;
        for (const char *q = p; q < e; q++) {
            if (strncmp(q, "&amp;", 5) == 0) {
                pr_buf_putc(&b, '&');
                q += 4;
            } else {
                pr_buf_putc(&b, *q);
            }
        }
        *v = pr_xrealloc(*v, (*n + 1) * sizeof **v);
        (*v)[(*n)++] = pr_buf_detach(&b);
        p = e;
    }
    free(pat);
}

static int has_id(const char *html, const char *id)
{
    char *pat = pr_xasprintf(" id=\"%s\"", id);
    int r = strstr(html, pat) != NULL;
    free(pat);
    return r;
}

static void check_html_tree(const char *out, const char *rel, size_t *pages, size_t *links)
{
    char *dir = *rel ? pr_fileio_path_join(out, rel) : pr_xstrdup(out);
    char **names;
    pr_err err;
    cr_assert(pr_fileio_list_dir(dir, &names, NULL, &err) == 0, "%s", err.msg);
    for (char **nm = names; *nm; nm++) {
        char *r = *rel ? pr_fileio_path_join(rel, *nm) : pr_xstrdup(*nm);
        char *fs = pr_fileio_path_join(out, r);
        size_t l = strlen(*nm);
        if (pr_fileio_is_dir(fs)) {
            check_html_tree(out, r, pages, links);
        } else if (l > 5 && strcmp(*nm + l - 5, ".html") == 0) {
            (*pages)++;
            char *html = slurp(out, r);
            char **v = NULL;
            size_t n = 0;
            attr_values(html, "href", &v, &n);
            attr_values(html, "src", &v, &n);
            char *page_dir = pr_fileio_path_dirname(r);
            for (size_t i = 0; i < n; i++) {
                const char *u = v[i];
                if (cmarkx_has_scheme(u, NULL))
                    continue;
                (*links)++;
                const char *hash = strchr(u, '#');
                size_t plen = hash ? (size_t)(hash - u) : strlen(u);
                pr_buf path = PR_BUF_INIT, frag = PR_BUF_INIT;
                cmarkx_percent_decode(&path, u, plen);
                if (hash)
                    cmarkx_percent_decode(&frag, hash + 1, strlen(hash + 1));
                char *target =
                    plen ? cmarkx_resolve(strcmp(page_dir, ".") ? page_dir : "", pr_buf_cstr(&path))
                         : pr_xstrdup(r);
                cr_expect(target, "%s: %s climbs out of the site", r, u);
                if (target) {
                    cr_expect(exists(out, target), "%s: %s -> %s is not in the site", r, u, target);
                    size_t tl = strlen(target);
                    if (hash && frag.len && tl > 5 && strcmp(target + tl - 5, ".html") == 0 &&
                        exists(out, target)) {
                        char *other = slurp(out, target);
                        cr_expect(has_id(other, pr_buf_cstr(&frag)), "%s: %s: no id \"%s\" in %s",
                                  r, u, pr_buf_cstr(&frag), target);
                        free(other);
                    }
                }
                free(target);
                pr_buf_free(&path);
                pr_buf_free(&frag);
            }
            for (size_t i = 0; i < n; i++)
                free(v[i]);
            free(v);
            free(page_dir);
            free(html);
        }
        free(fs);
        free(r);
    }
    pr_fileio_strv_free(names);
    free(dir);
}

/* The repository's reports become a site where every local link and image
 * lands on a file of the site, and every #fragment on an id. */
Test(site, repository_reports_are_self_contained)
{
    if (!pr_fileio_is_dir("reports") || !pr_fileio_is_file("templates/site/style.css"))
        cr_skip_test("no reports/ or templates/site/ here (run from the repository root)");
    char *tmp = tmpdir();
    char *out = pr_fileio_path_join(tmp, "site");
    pr_site_opts o = {"reports", out, NULL, "templates"};
    pr_site_stats st;
    pr_err err;
    cr_assert(site_build(&o, &st, &err) == 0, "%s", err.msg);
    cr_expect_gt(st.pages, 0);
    cr_expect_eq(st.unresolved, 0);
    size_t pages = 0, links = 0;
    check_html_tree(out, "", &pages, &links);
    cr_expect_eq(pages, st.pages);
    cr_expect_gt(links, pages);
    rm_rf(tmp);
    free(out);
    free(tmp);
}

/* ------------------------------------------------------------ page names */

Test(site, page_names_readme_and_audit)
{
    static const struct {
        const char *name, *lang, *html;
    } ok[] = {{"README.md", "zh-CN", "index.html"},
              {"README.en.md", "en", "index.en.html"},
              {"AUDIT.md", "zh-CN", "audit.html"},
              {"AUDIT.en.md", "en", "audit.en.html"},
              {"PLATFORM-v100-sxm2-32gb-x8.md", "zh-CN", "platform-v100-sxm2-32gb-x8.html"},
              {"PLATFORM-a100-x8.en.md", "en", "platform-a100-x8.en.html"}};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        char *lang = NULL, *html = NULL;
        cr_assert(cmarkx_readme_name(ok[i].name, &lang, &html), "%s", ok[i].name);
        cr_expect_str_eq(lang, ok[i].lang);
        cr_expect_str_eq(html, ok[i].html);
        free(lang);
        free(html);
    }
    static const char *const not_pages[] = {
        "README",       "README.txt",    "README..md",  "READMEX.md",    "AUDIT",
        "AUDITS.md",    "audit.md",      "NOTES.md",    "README.e n.md", "PLATFORM.md",
        "PLATFORM-.md", "PLATFORM-A.md", "PLATFORMX.md"};
    for (size_t i = 0; i < sizeof not_pages / sizeof *not_pages; i++)
        cr_expect(!cmarkx_readme_name(not_pages[i], NULL, NULL), "%s", not_pages[i]);
}
