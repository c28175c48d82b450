/* gen: statistics of few runs (lib/stats.c), checks that allow for the
 * rounding of printed figures, and the sanity flags (gen/2-model/sanity.c), each
 * on the example the issue names (docs/statistics.md). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "3-tables/mdtable.h"
#include "cmd/report.h"
#include "gentest.h"
#include "stats.h"
#include "testutil.h"

static json_t *render(const char *data_dir, const char *out_dir)
{
    return gt_render(data_dir, out_dir, 0);
}

/* The whole line of md that starts with prefix (static storage). */
static const char *line_of(const char *md, const char *prefix)
{
    static char buf[4096];
    const char *at = strstr(md, prefix);
    if (!at)
        return NULL;
    size_t n = strcspn(at, "\n");
    snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), at);
    return buf;
}

/* The table cell of md that starts with prefix ("| 7248† "), to its "|". */
static const char *cell_of(const char *md, const char *prefix)
{
    static char buf[1024];
    const char *at = strstr(md, prefix);
    if (!at)
        return NULL;
    at += 2;
    size_t n = strcspn(at, "|\n");
    snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), at);
    return buf;
}

/* ---------------------------------------------------------------- lib/stats */

Test(stats, median_interval_levels)
{
    double cov;
    cr_expect_eq(pr_stats_median_ci(1, &cov), 0);
    cr_expect_eq(pr_stats_median_ci(3, &cov), 1);
    cr_expect(fabs(cov - 0.75) < 1e-12);
    cr_expect_eq(pr_stats_median_ci(5, &cov), 1);
    cr_expect(fabs(cov - 0.9375) < 1e-12, "5 runs: min-max covers 93.75%%, got %g", cov);
    cr_expect_eq(pr_stats_median_ci(6, &cov), 1);
    cr_expect(fabs(cov - 0.96875) < 1e-12);
    cr_expect_eq(pr_stats_median_ci(8, &cov), 1, "8 runs: k=2 covers only 92.97%%");
    cr_expect_eq(pr_stats_median_ci(9, &cov), 2);
    cr_expect(fabs(cov - (1 - 2 * 10.0 / 512)) < 1e-12);
    cr_expect_eq(pr_stats_median_ci(10, &cov), 2);
    cr_expect(fabs(cov - (1 - 2 * 11.0 / 1024)) < 1e-12);
}

Test(stats, olympic_mean_drops_best_and_worst)
{
    double v[] = {1, 2, 3, 4, 100};
    cr_expect(fabs(pr_stats_olympic_sorted(v, 5) - 3) < 1e-12);
    cr_expect(isnan(pr_stats_olympic_sorted(v, 4)));
}

Test(stats, printed_decimals)
{
    cr_expect_eq(pr_stats_printed_decimals("19.428"), 3);
    cr_expect_eq(pr_stats_printed_decimals("428"), 0);
    cr_expect_eq(pr_stats_printed_decimals("4.073"), 3);
    cr_expect_eq(pr_stats_printed_decimals("1,2"), -1);
    cr_expect_eq(pr_stats_shortest_decimals(7.3), 1);
    cr_expect_eq(pr_stats_shortest_decimals(938), 0);
    cr_expect_eq(pr_stats_shortest_decimals(19.428), 3);
}

Test(stats, speedups_within_their_inputs_rounding)
{
    /* The four: printed speedup, its decimals, the inputs as printed. */
    cr_expect(pr_stats_ratio_consistent(7.72, 2, 7248, 0, 938, 0));
    cr_expect(pr_stats_ratio_consistent(6.93, 2, 8322, 0, 1200, 0));
    cr_expect(pr_stats_ratio_consistent(6.44, 2, 7608, 0, 1180, 0));
    cr_expect(pr_stats_ratio_consistent(6.98, 2, 58.2, 1, 8.33, 2));
    /* Real disagreements stay: 7365 / 945 is 7.789-7.798, 103.2 / 8.33 12.376-12.402,
     * 10633.22 / 1036.31 (DLPerf Paddle) 10.26. */
    cr_expect(!pr_stats_ratio_consistent(7.78, 2, 7365, 0, 945, 0));
    cr_expect(!pr_stats_ratio_consistent(12.36, 2, 103.2, 1, 8.33, 2));
}

/* ---------------------------------------------------------------- pages */

Test(figures, ngc_readme_speedups_not_flagged_within_rounding)
{
    json_t *pages = render("data", "reports");
    const char *md = gt_page(pages, "ResNet50/NGC-PyTorch/README.en.md");
    /* A published table's cell: "FIG† · ×SPEEDUP · EFF% (printed ×S)". */
    const char *const ok[] = {"| 7248† ", "| 8322† ", "| 7608† "};
    for (size_t i = 0; i < 3; i++) {
        const char *cell = cell_of(md, ok[i]);
        cr_assert(cell, "cell %s not found", ok[i]);
        cr_expect(!strstr(cell, "⚠"), "within the inputs' rounding, flagged: %s", cell);
    }
    const char *cell = cell_of(md, "| 7365† ");
    cr_assert(cell);
    cr_expect(strstr(cell, "×7.78 ⚠️"), "7365 / 945 is never 7.78: %s", cell);
    json_decref(pages);
}

Test(figures, sanity_flags_of_the_dlperf_paddle_fp16_table)
{
    json_t *pages = render("data", "reports");
    const char *md = gt_page(pages, "ResNet50/Paddle/README.en.md");
    /* FP16 BS=196: 101.4 % efficient at 4 GPUs, less throughput at 16 than at 8. */
    const char *cell = cell_of(md, "| 3598† ");
    cr_assert(cell, "%s", md);
    cr_expect(strstr(cell, "❗"), "%s", cell);
    cell = cell_of(md, "| 6018.46† ");
    cr_assert(cell);
    cr_expect(strstr(cell, "❗"), "%s", cell);
    cr_expect(strstr(md, "scaling efficiency 101.4% is above 100 %"));
    cr_expect(strstr(md, "throughput 6018.46 is below the 6862.17 of 1 node × 8 GPUs"));
    cr_expect(strstr(md, "- ❗ Figures that cannot be right"), "the note explains the mark");
    /* The Chinese page says the same. */
    cr_expect(strstr(gt_page(pages, "ResNet50/Paddle/README.md"), "扩展效率 101.4% 超过 100%"));
    json_decref(pages);
}

Test(figures, sanity_flags_of_the_seed_tables)
{
    json_t *pages = render("tests/data/seeds", "reports");
    /* Paddle FP32 BS=128: 46.0 % efficient at 8 GPUs, 91.2 % at 16. */
    const char *md = gt_page(pages, "ResNet50/Paddle/README.en.md");
    const char *cell = cell_of(md, "| 5161.04† ");
    cr_assert(cell, "%s", md);
    cr_expect(strstr(cell, "❗"), "%s", cell);
    cr_expect(strstr(md, "(efficiency 46.0% → 91.2%)"), "%s", md);
    /* OneFlow BS=128 and BS=160: identical rows. */
    md = gt_page(pages, "ResNet50/OneFlow/README.en.md");
    cr_expect(strstr(md, "equals those of FP32 BS=160 in the same source"), "%s", md);
    cr_expect(strstr(md, "equals those of FP32 BS=128 in the same source"));
    /* BS=32 and BS=64 are all TODO: not "identical figures". */
    cr_expect(!strstr(md, "equals those of FP32 BS=32") &&
              !strstr(md, "equals those of FP32 BS=64"));
    json_decref(pages);
}

/* A data dir: a suite (optionally with "summary": "olympic"), a published
 * table on platform "toy" (1 GPU 100, 8 GPUs pub8) and runs: vals1 at 1 GPU,
 * vals8 at 8 GPUs. */
static char *runs_data(int olympic, double pub8, const double *vals1, size_t n1,
                       const double *vals8, size_t n8)
{
    char *d = tmpdir();
    char *suite = pr_xasprintf(
        "{\"perfrepro\": 1, \"model\": \"Toy\", \"framework\": \"Fw\", \"model_name\": "
        "\"clas_Toy\",\n"
        " \"mission_name\": \"x\", \"direction_id\": 0, \"unit\": \"images/s\",%s\n"
        " \"command\": [\"true\"], \"matrix\": {\"nodes\": [1], \"gpus_per_node\": [1, 8],\n"
        " \"batch_size\": [64], \"precision\": [\"fp32\"]}, \"rule\": {\"keyword\": \"ips:\"}}\n",
        olympic ? " \"summary\": \"olympic\"," : "");
    put(d, "suites/toy.json", suite);
    free(suite);
    put(d, "platforms/toy.json",
        "{\"perfrepro\": 1, \"title\": {\"zh\": \"Toy\", \"en\": \"Toy\"},\n"
        " \"device\": {\"kind\": \"gpu\", \"model\": \"Toy GPU\", \"per_node\": 8}}\n");
    char *pub = pr_xasprintf(
        "{\"perfrepro\": 1, \"label\": \"Vendor\", \"source\": {\"title\": \"t\"}, \"platform\": "
        "\"toy\",\n"
        " \"tables\": [{\"model\": \"Toy\", \"framework\": \"Fw\", \"precision\": \"fp32\",\n"
        "  \"batch_size\": 64, \"unit\": \"images/s\", \"rows\": [\n"
        "  {\"nodes\": 1, \"gpus\": 1, \"throughput\": 100},\n"
        "  {\"nodes\": 1, \"gpus\": 8, \"throughput\": %g}]}]}\n",
        pub8);
    put(d, "published/p.json", pub);
    free(pub);
    for (int g = 1; g <= 8; g += 7) {
        const double *v = g == 1 ? vals1 : vals8;
        size_t n = g == 1 ? n1 : n8;
        for (size_t i = 0; i < n; i++) {
            char *name = pr_xasprintf("c_%d_r%zu", g, i + 1);
            char *rec = pr_xasprintf(
                "{\"log_file\": \"logs/train_log/%s\", \"model_name\": \"clas_Toy\",\n"
                " \"mission_name\": \"x\", \"direction_id\": 0, \"run_mode\": \"%s\", \"index\": "
                "1,\n"
                " \"gpu_num\": %d, \"FINAL_RESULT\": %.17g, \"JOB_FAIL_FLAG\": 0, \"UNIT\": "
                "\"images/s\",\n"
                " \"perfrepro\": 1, \"model\": \"Toy\", \"framework\": \"Fw\", \"case\": \"%s\",\n"
                " \"precision\": \"fp32\", \"batch_size\": 64, \"nodes\": 1, \"gpus_per_node\": "
                "%d,\n"
                " \"repeat\": %zu, \"origin\": \"measured\", \"platform\": \"toy\"}\n",
                name, g == 1 ? "sp" : "mp", g, v[i], name, g, i + 1);
            char *ip = pr_xasprintf("runs/r/logs/index/%s_speed", name);
            char *lp = pr_xasprintf("runs/r/logs/train_log/%s", name);
            put(d, ip, rec);
            put(d, lp, "ips: 1\n");
            free(name);
            free(rec);
            free(ip);
            free(lp);
        }
    }
    return d;
}

Test(figures, gap_flagged_only_outside_the_interval_and_tolerance)
{
    const double one[] = {98, 100, 102};
    /* Median 600 against 700: outside min – max 590 – 610 and 14 % away. */
    const double far[] = {590, 600, 610};
    char *d = runs_data(0, 700, one, 3, far, 3);
    json_t *pages = render(d, "out");
    const char *row = line_of(gt_page(pages, "Toy/Fw/README.en.md"), "| 1 | 8 | 600.00 |");
    cr_assert(row);
    cr_expect(strstr(row, "590.00 – 610.00 (75.0%)"), "%s", row);
    cr_expect(strstr(row, "-14.3% ⚠️"), "%s", row);
    json_decref(pages);
    rm_rf(d);
    free(d);
    /* The same gap with runs spread over 700: inside the interval, no flag. */
    const double wide[] = {560, 600, 720};
    d = runs_data(0, 700, one, 3, wide, 3);
    pages = render(d, "out");
    row = line_of(gt_page(pages, "Toy/Fw/README.en.md"), "| 1 | 8 | 600.00 |");
    cr_assert(row);
    cr_expect(strstr(row, "-14.3%") && !strstr(row, "⚠"), "%s", row);
    json_decref(pages);
    rm_rf(d);
    free(d);
    /* Two runs: shown, not judged. */
    d = runs_data(0, 700, one, 3, far, 2);
    pages = render(d, "out");
    const char *md = gt_page(pages, "Toy/Fw/README.en.md");
    row = line_of(md, "| 1 | 8 | 595.00 |");
    cr_assert(row, "%s", md);
    /* Said once under the table, not in the cell. */
    cr_expect(!strstr(row, "(insufficient data)") && !strstr(row, "⚠"), "%s", row);
    cr_expect(strstr(md, "- (insufficient data): in this table's rows of fewer than 3 runs"), "%s",
              md);
    cr_expect(strstr(md, "- Insufficient data: with fewer than 3 runs"));
    json_decref(pages);
    rm_rf(d);
    free(d);
}

Test(figures, olympic_mean_where_the_suite_asks)
{
    const double one[] = {90, 99, 100, 101, 130};
    const double eight[] = {700, 790, 800, 810, 900};
    char *d = runs_data(1, 800, one, 5, eight, 5);
    json_t *pages = render(d, "out");
    const char *md = gt_page(pages, "Toy/Fw/README.en.md");
    cr_expect(strstr(md, "| Olympic mean |"), "%s", md);
    const char *row = line_of(md, "| 1 | 1 | 100.00 |");
    cr_assert(row);
    /* 99, 100, 101 without 90 and 130; five runs: min – max covers 93.75 %. */
    cr_expect(strstr(row, "| 90.00 – 130.00 (93.8%) | 5 | 100.00 |"), "%s", row);
    cr_expect(strstr(md, "- Olympic mean (the suite asks for it)"));
    json_decref(pages);
    rm_rf(d);
    free(d);
    /* Without the key, no column. */
    d = runs_data(0, 800, one, 5, eight, 5);
    pages = render(d, "out");
    cr_expect(!strstr(gt_page(pages, "Toy/Fw/README.en.md"), "Olympic"));
    json_decref(pages);
    rm_rf(d);
    free(d);
}

Test(figures, sanity_flags_on_the_model_page_and_the_audit)
{
    json_t *pages = render("data", "reports");
    /* The model page marks the cross table's cells and names the column. */
    const char *md = gt_page(pages, "ResNet50/README.en.md");
    const char *row = line_of(md, "| 2 | 16 | 6018.46† ❗");
    cr_expect(row, "Paddle FP16 BS=196 at 16 GPUs unmarked on the model page");
    cr_expect(strstr(md, "PaddlePaddle (FP16): 2 nodes × 8 GPUs: throughput 6018.46 is below"),
              "%s", md);
    /* The audit lists the flags of the audited sources' tables. */
    const char *au = gt_page(pages, "AUDIT.en.md");
    const char *sec = strstr(au, "## 5. Figures that cannot be right");
    cr_assert(sec, "%s", au);
    cr_expect(strstr(sec, "FP32 BS=4") && strstr(sec, "scaling efficiency 178.7% is above 100 %"),
              "%s", sec);
    cr_expect(strstr(gt_page(pages, "AUDIT.md"), "## 五、不可能成立的数据"));
    json_decref(pages);
}

/* Published figures print as printed, or in the shortest form of their
 * number: never re-rounded to two decimals (19.428 is not 19.43, 428 not
 * 428.00, 4.073 not 4.07). */
Test(printed, published_figures_are_not_re_rounded)
{
    static const struct {
        double value;
        const char *printed, *want;
    } cases[] = {{19.428, NULL, "19.428"}, {428, NULL, "428"},         {4.073, NULL, "4.073"},
                 {428, "428.0", "428.0"},  {37458.4, NULL, "37458.4"}, {7.3, "7.30", "7.30"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pr_pub_row row;
        memset(&row, 0, sizeof row);
        row.has_value = 1;
        row.value = cases[i].value;
        row.printed = (char *)cases[i].printed;
        pr_buf out = PR_BUF_INIT;
        mdtable_pub_value(&out, &row);
        cr_expect_str_eq(pr_buf_cstr(&out), cases[i].want);
        pr_buf_free(&out);
    }
}
