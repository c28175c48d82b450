/* The bench page (gen/5-views/page_bench.c) and its files (data/bench/NAME.json,
 * gen/1-load/data_bench.c): every benchmark names the machine and the commit it ran at,
 * the page says so when they are not one for the whole page and when a
 * file names no commit, run counts are the data's, and a ratio divides two
 * results of one file only (issue #22). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "gentest.h"
#include "testutil.h"

#define COMMIT_A "0123456789abcdef0123456789abcdef01234567"
#define COMMIT_B "fedcba9876543210fedcba9876543210fedcba98"

/* A benchmark file as make bench writes it now: benchmark name, one
 * machine (cpu), at commit (NULL: a file from before make bench recorded
 * it, which also lacks the memory and the peak memory's runs).  A new object
 * the caller frees. */
static json_t *bench(const char *name, const char *cpu, const char *commit)
{
    json_t *b = json_pack(
        "{s:i, s:s, s:s, s:s, s:s, s:{s:s, s:i, s:s, s:s}, s:s, s:s, s:b,"
        " s:[{s:s, s:f, s:f, s:f, s:i, s:f}, {s:s, s:f, s:f, s:f, s:i}]}",
        "perfrepro", 1, "benchmark", name, "title_zh", "基准", "title_en", "Bench", "date",
        "2026-12-01", "machine", "cpu_model", cpu, "cpu_count", 16, "os", "Debian GNU/Linux 12",
        "kernel", "6.1.0", "command", "perfrepro-gen build", "unit", "ms", "higher_is_better", 0,
        "results", "tool", "perfrepro", "median", 40.0, "min", 39.0, "max", 44.0, "runs", 7,
        "peak_rss_mb", 60.2, "tool", "peer", "median", 100.0, "min", 90.0, "max", 120.0, "runs", 7);
    if (commit) {
        json_object_set_new(json_object_get(b, "machine"), "memory_mb", json_integer(15990));
        json_object_set_new(b, "commit", json_pack("{s:s, s:b}", "id", commit, "dirty", 0));
        json_t *r0 = json_array_get(json_object_get(b, "results"), 0);
        json_object_set_new(r0, "peak_rss_runs", json_integer(3));
    }
    return b;
}

/* Writes b (consumed) as data folder d's bench/NAME.json. */
static void put_bench(const char *d, const char *name, json_t *b)
{
    char *text = json_dumps(b, JSON_INDENT(1));
    char *rel = pr_xasprintf("bench/%s.json", name);
    put(d, rel, text);
    free(rel);
    free(text);
    json_decref(b);
}

/* The bench page of d in lang ("README.md" or "README.en.md"), a copy the
 * caller frees. */
static char *page(const char *d, const char *readme)
{
    json_t *pages = gt_render(d, "out", 0);
    char *path = pr_xasprintf("perfrepro-bench/%s", readme);
    char *text = pr_xstrdup(gt_page(pages, path));
    free(path);
    json_decref(pages);
    return text;
}

/* The message of loading d, which must fail (a copy the caller frees). */
static char *load_error(const char *d)
{
    pr_dataset *ds = NULL;
    pr_err err;
    cr_assert_eq(data_load(d, &ds, &err), -1, "loading %s should fail", d);
    return pr_xstrdup(err.msg);
}

static void expect_all(const char *text, const char *const *needles)
{
    for (const char *const *n = needles; *n; n++)
        cr_expect(strstr(text, *n), "lacks \"%s\" in:\n%s", *n, text);
}

Test(bench, one_machine_one_commit_named_and_no_warning)
{
    char *d = tmpdir();
    put_bench(d, "a", bench("a", "AMD EPYC 9554", COMMIT_A));
    put_bench(d, "b", bench("b", "AMD EPYC 9554", COMMIT_A));
    char *en = page(d, "README.en.md");
    const char *want[] = {
        "- Machine: AMD EPYC 9554, 16 logical CPUs, 15.6 GiB of memory, Debian GNU/Linux 12, "
        "kernel 6.1.0; date: 2026-12-01\n",
        "- Commit: `0123456789ab`\n",
        /* the runs the data says, for the time and for the peak memory */
        "| perfrepro | 40.0 | 39.0 – 44.0 | 7 | 60.2 MB (max of 3 runs) |",
        "| peer | 100.0 | 90.0 – 120.0 | 7 | — |", NULL};
    expect_all(en, want);
    cr_expect_null(strstr(en, "> **Note"), "%s", en);
    char *zh = page(d, "README.md");
    const char *want_zh[] = {"- 机器：AMD EPYC 9554，16 个逻辑 CPU，内存 15.6 GiB，",
                             "- 提交：`0123456789ab`\n", "60.2 MB（3 次运行中的最大值）", NULL};
    expect_all(zh, want_zh);
    cr_expect_null(strstr(zh, "> **注意"), "%s", zh);
    free(en);
    free(zh);
    rm_rf(d);
    free(d);
}

Test(bench, two_machines_and_a_file_without_commit_said)
{
    char *d = tmpdir();
    put_bench(d, "a", bench("a", "AMD EPYC 9554", COMMIT_A));
    put_bench(d, "b", bench("b", "Intel(R) Xeon(R) Processor", NULL));
    char *en = page(d, "README.en.md");
    const char *want[] = {
        "> **Note: the benchmarks on this page were not all measured on one machine at one "
        "commit; figures of different sections do not compare.**\n",
        "> - Machines: 2 different ones",
        "> - Not re-measured at a named commit (their files record none): 1 of the 2 benchmarks",
        "- Commit: `0123456789ab`\n",
        "- Commit: not re-measured at a named commit (this file records none)\n",
        /* the old file: no memory, no runs for its peak memory */
        "- Machine: Intel(R) Xeon(R) Processor, 16 logical CPUs, Debian GNU/Linux 12,",
        "| 7 | 60.2 MB |", NULL};
    expect_all(en, want);
    cr_expect_null(strstr(en, "> - Commits:"), "one commit named: %s", en);
    char *zh = page(d, "README.md");
    const char *want_zh[] = {
        "> **注意：本页的基准并非都在同一台机器、同一个提交上测得", "> - 测量机器：2 台不同的机器",
        "> - 未在指定的提交上重新测量（其文件没有记录提交）：2 项基准中的 1 项",
        "- 提交：未在指定的提交上重新测量（本文件没有记录提交）\n", NULL};
    expect_all(zh, want_zh);
    free(en);
    free(zh);
    rm_rf(d);
    free(d);
}

Test(bench, two_commits_and_a_dirty_tree_said)
{
    char *d = tmpdir();
    put_bench(d, "a", bench("a", "AMD EPYC 9554", COMMIT_A));
    json_t *b = bench("b", "AMD EPYC 9554", COMMIT_A);
    json_object_set_new(json_object_get(b, "commit"), "dirty", json_true());
    put_bench(d, "b", b);
    put_bench(d, "c", bench("c", "AMD EPYC 9554", COMMIT_B));
    char *en = page(d, "README.en.md");
    const char *want[] = {"> **Note:", "> - Commits: 3 different ones",
                          "- Commit: `0123456789ab` (the working tree had uncommitted changes)\n",
                          "- Commit: `fedcba987654`\n", NULL};
    expect_all(en, want);
    cr_expect_null(strstr(en, "> - Machines:"), "one machine: %s", en);
    cr_expect_null(strstr(en, "> - Not re-measured"), "%s", en);
    free(en);
    rm_rf(d);
    free(d);
}

/* A ratio names two results of its own file: one run, one machine, one
 * commit.  A result of another file is refused, not divided. */
Test(bench, ratio_across_two_files_refused)
{
    char *d = tmpdir();
    json_t *a = bench("a", "AMD EPYC 9554", COMMIT_A);
    json_object_set_new(a, "ratio", json_pack("{s:s, s:s}", "of", "hugo", "to", "perfrepro"));
    put_bench(d, "a", a);
    json_t *b = bench("b", "AMD EPYC 9554", COMMIT_A);
    json_t *r1 = json_array_get(json_object_get(b, "results"), 1);
    json_object_set_new(r1, "tool", json_string("hugo"));
    put_bench(d, "b", b);
    char *msg = load_error(d);
    const char *want[] = {"bench/a.json:", "ratio.of", "\"hugo\" names no result of this benchmark",
                          "never figures of two files", NULL};
    expect_all(msg, want);
    free(msg);
    rm_rf(d);
    free(d);
}

/* Each bad file: its message names the file, line, column and field. */
static void expect_bad(json_t *b, const char *const *needles)
{
    char *d = tmpdir();
    put_bench(d, "a", b);
    char *msg = load_error(d);
    cr_expect(strncmp(msg, d, strlen(d)) == 0 && strstr(msg, "bench/a.json:"), "%s", msg);
    expect_all(msg, needles);
    free(msg);
    rm_rf(d);
    free(d);
}

Test(bench, provenance_fields_checked)
{
    json_t *b = bench("a", "AMD EPYC 9554", "0123abc");
    const char *n1[] = {"commit.id", "not a full commit id", NULL};
    expect_bad(b, n1);

    b = bench("a", "AMD EPYC 9554", COMMIT_A);
    json_object_del(json_object_get(b, "commit"), "dirty");
    const char *n2[] = {"commit.dirty", "missing", NULL};
    expect_bad(b, n2);

    /* a file that names its commit names its machine in full */
    b = bench("a", "AMD EPYC 9554", COMMIT_A);
    json_object_del(json_object_get(b, "machine"), "memory_mb");
    const char *n3[] = {"machine.memory_mb", "names its commit names its machine", NULL};
    expect_bad(b, n3);

    b = bench("a", "AMD EPYC 9554", COMMIT_A);
    json_object_set_new(json_object_get(b, "machine"), "cores", json_integer(8));
    const char *n4[] = {"machine.cores", NULL};
    expect_bad(b, n4);

    /* the runs a peak memory is the largest of: at least one, and of a
     * peak memory */
    b = bench("a", "AMD EPYC 9554", COMMIT_A);
    json_object_set_new(json_array_get(json_object_get(b, "results"), 0), "peak_rss_runs",
                        json_integer(0));
    const char *n5[] = {"results[0].peak_rss_runs", NULL};
    expect_bad(b, n5);

    b = bench("a", "AMD EPYC 9554", COMMIT_A);
    json_object_set_new(json_array_get(json_object_get(b, "results"), 1), "peak_rss_runs",
                        json_integer(3));
    const char *n6[] = {"results[1].peak_rss_runs", "no \"peak_rss_mb\"", NULL};
    expect_bad(b, n6);

    b = bench("a", "AMD EPYC 9554", COMMIT_A);
    json_object_set_new(json_object_get(b, "machine"), "memory_mb", json_integer(0));
    const char *n7[] = {"machine.memory_mb", NULL};
    expect_bad(b, n7);
}

/* A file from before make bench recorded its commit still loads. */
Test(bench, old_files_load)
{
    char *d = tmpdir();
    put_bench(d, "a", bench("a", "AMD EPYC", NULL));
    pr_dataset *ds = NULL;
    pr_err err;
    cr_assert_eq(data_load(d, &ds, &err), 0, "%s", err.msg);
    cr_expect_null(ds->benches[0].commit);
    cr_expect_eq(ds->benches[0].machine.memory_mb, 0);
    cr_expect_eq(ds->benches[0].results[0].runs, 7);
    data_free(ds);
    rm_rf(d);
    free(d);
}
