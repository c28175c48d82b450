/* gen: A/B comparisons (comparisons.c, abmodel.c, page_compare.c) on a
 * small hand-made data folder: two run sets with a hand-computed ratio,
 * interval and verdict, a refused comparison of two platforms, a declared
 * comparison rendered and one with a bad field; a statistic added as one
 * row of compare_stats[] shows in the page, the JSON and the CSV. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/comparisons.h"
#include "1-load/data.h"
#include "2-model/abmodel.h"
#include "5-views/compare_stats.h"
#include "5-views/page_compare.h"
#include "gentest.h"
#include "record.h"
#include "testutil.h"

static const char *SUITE =
    "{\n"
    " \"perfrepro\": 1,\n"
    " \"model\": \"Toy\",\n"
    " \"framework\": \"Fw\",\n"
    " \"model_name\": \"clas_Toy\",\n"
    " \"mission_name\": \"图像分类\",\n"
    " \"direction_id\": 0,\n"
    " \"unit\": \"images/s\",\n"
    " \"command\": [\"true\", \"{batch_size}\"],\n"
    " \"matrix\": {\"nodes\": [1], \"gpus_per_node\": [1], \"batch_size\": [64],\n"
    "            \"precision\": [\"fp32\"]},\n"
    " \"rule\": {\"keyword\": \"ips:\", \"scope\": \"per_card\"}\n"
    "}\n";

static const char *PLATFORM =
    "{\"perfrepro\": 1, \"title\": {\"zh\": \"Toy GPU × 8\", \"en\": \"Toy GPU x 8\"},\n"
    " \"device\": {\"kind\": \"gpu\", \"model\": \"Toy GPU\", \"per_node\": 8}}\n";

/* Run folder run: one record per value, all of Toy/Fw fp32 bs64 on 1 GPU
 * of platform plat, the values given as the runs. */
static void put_run(const char *d, const char *run, const char *plat, const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        pr_record r;
        pr_record_init(&r);
        r.case_name = pr_xasprintf("clas_Toy_sp_bs64_fp32_1_r%zu", i + 1);
        r.log_file = pr_xasprintf("logs/train_log/%s", r.case_name);
        r.model_name = pr_xstrdup("clas_Toy");
        r.mission_name = pr_xstrdup("图像分类");
        strcpy(r.run_mode, "sp");
        r.gpu_num = 1;
        r.gpus_per_node = 1;
        r.unit = pr_xstrdup("images/s");
        r.model = pr_xstrdup("Toy");
        r.framework = pr_xstrdup("Fw");
        r.precision = pr_xstrdup("fp32");
        r.batch_size = 64;
        r.repeat = (int)i + 1;
        r.origin = pr_xstrdup("measured");
        r.started_at = pr_xstrdup("2026-11-20T10:00:00Z");
        r.platform = pr_xstrdup(plat);
        r.framework_version = pr_xasprintf("1.%c", run[2]); /* r_a: 1.a, r_b: 1.b */
        r.final_result = v[i];
        char *s = pr_record_dumps(&r);
        char *idx = pr_xasprintf("runs/%s/logs/index/%s_speed", run, r.case_name);
        char *log = pr_xasprintf("runs/%s/%s", run, r.log_file);
        put(d, idx, s);
        put(d, log, "ips: 100\n");
        free(s);
        free(idx);
        free(log);
        pr_record_clear(&r);
    }
}

/* A: 100, 102, 104; B: 110, 112, 115 (platform toy); C: 110, 112, 115 on
 * platform toy2. */
static char *ab_data(void)
{
    char *d = tmpdir();
    put(d, "suites/toy.json", SUITE);
    put(d, "platforms/toy.json", PLATFORM);
    put(d, "platforms/toy2.json",
        "{\"perfrepro\": 1, \"title\": {\"zh\": \"Toy2 GPU × 8\", \"en\": \"Toy2 GPU x 8\"},\n"
        " \"device\": {\"kind\": \"gpu\", \"model\": \"Toy2 GPU\", \"per_node\": 8}}\n");
    double a[] = {100, 102, 104}, b[] = {110, 112, 115};
    put_run(d, "r_a", "toy", a, 3);
    put_run(d, "r_b", "toy", b, 3);
    put_run(d, "r_c", "toy2", b, 3);
    return d;
}

static pr_dataset *load(const char *dir)
{
    pr_dataset *d = NULL;
    pr_err err;
    cr_assert(data_load(dir, &d, &err) == 0, "%s", err.msg);
    return d;
}

static abmodel_cmp *compare(const pr_dataset *d, const char *a, const char *b, comparisons_sel *sa,
                            comparisons_sel *sb)
{
    pr_err err;
    cr_assert(comparisons_sel_parse(a, sa, &err) == 0, "%s", err.msg);
    cr_assert(comparisons_sel_parse(b, sb, &err) == 0, "%s", err.msg);
    abmodel_cmp *c = NULL;
    cr_assert(abmodel_build(d, sa, sb, 0.05, 0, &c, &err) == 0, "%s", err.msg);
    return c;
}

Test(ab_compare, hand_computed_three_against_three)
{
    char *dir = ab_data();
    pr_dataset *d = load(dir);
    comparisons_sel sa, sb;
    abmodel_cmp *c = compare(d, "r_a", "r_*b", &sa, &sb);
    cr_assert_eq(c->refused, 0);
    cr_assert_eq(c->ncells, 1);
    cr_assert_eq(c->nonly, 0);
    const abmodel_cell *x = &c->cells[0];
    cr_assert_eq(x->a.n, 3);
    cr_assert_eq(x->b.n, 3);
    cr_assert_float_eq(x->a.median, 102, 1e-12);
    cr_assert_float_eq(x->b.median, 112, 1e-12);
    /* the nine ratios b/a sorted: 110/104 ... 115/100; their median is
     * 110/100 (the 5th); 3 vs 3: k = 1, min – max, coverage 1 - 2/20 */
    cr_assert_float_eq(x->r.ratio, 1.1, 1e-12);
    cr_assert_float_eq(x->r.lo, 110.0 / 104.0, 1e-12);
    cr_assert_float_eq(x->r.hi, 115.0 / 100.0, 1e-12);
    cr_assert_eq(x->r.k, 1);
    cr_assert_float_eq(x->r.coverage, 0.9, 1e-12);
    cr_assert_eq(x->r.verdict, PR_AB_FASTER);
    cr_assert_eq(c->counts[PR_AB_FASTER], 1);
    cr_assert_float_eq(c->expected_false, 0.1, 1e-12);
    /* the log linked is the run closest to the median: r2 of each side */
    cr_assert_str_eq(x->a.rec->case_name, "clas_Toy_sp_bs64_fp32_1_r2");
    cr_assert_str_eq(x->b.run->name, "r_b");
    /* the framework versions differ, and say so */
    char *diffs = json_dumps(c->diffs, JSON_COMPACT);
    cr_assert(strstr(diffs, "\"what\":\"framework_version\",\"a\":\"1.a\",\"b\":\"1.b\""), "%s",
              diffs);
    free(diffs);
    /* env:KEY=VALUE selects the run set whose records state it */
    comparisons_sel se;
    pr_err err;
    cr_assert(comparisons_sel_parse("env:framework_version=1.b", &se, &err) == 0);
    cr_assert_eq(comparisons_sel_count(&se, d), 1);
    cr_assert(comparisons_sel_run(&se, &d->runs[1]) && !comparisons_sel_run(&se, &d->runs[0]));
    comparisons_sel_free(&se);
    /* B against A: the mirror image */
    comparisons_sel sc, sd;
    abmodel_cmp *m = compare(d, "r_b", "r_a", &sc, &sd);
    cr_assert_float_eq(m->cells[0].r.ratio, 1 / 1.1, 1e-12);
    cr_assert_eq(m->cells[0].r.verdict, PR_AB_SLOWER);
    /* the CSV row */
    pr_buf csv = PR_BUF_INIT;
    page_compare_csv(c, &csv);
    cr_assert(
        strstr(pr_buf_cstr(&csv),
               "\nToy,Fw,toy,fp32,64,1,1,3,102,3,112,1.1,1.05769230769,1.15,1,0.9,faster,,1,\n"),
        "%s", pr_buf_cstr(&csv));
    pr_buf_free(&csv);
    abmodel_free(c);
    abmodel_free(m);
    comparisons_sel_free(&sa);
    comparisons_sel_free(&sb);
    comparisons_sel_free(&sc);
    comparisons_sel_free(&sd);
    data_free(d);
    rm_rf(dir);
    free(dir);
}

Test(ab_compare, different_platforms_refused)
{
    char *dir = ab_data();
    pr_dataset *d = load(dir);
    comparisons_sel sa, sb;
    abmodel_cmp *c = compare(d, "r_a", "r_c", &sa, &sb);
    cr_assert_eq(c->refused, 1);
    cr_assert_eq(c->ncells, 0);
    cr_assert_eq(c->nonly, 2);
    abmodel_free(c);
    /* the command line's path: an error naming both platforms */
    page_compare_opts o = {"r_a", "r_c", NULL, 0, "csv", "zh", "templates", NULL, NULL, NULL};
    pr_buf text = PR_BUF_INIT;
    size_t slower = 0;
    pr_err err;
    cr_assert_eq(page_compare_cli(d, &o, &text, NULL, NULL, &slower, &err), -1);
    cr_assert(strstr(err.msg, "share no platform") && strstr(err.msg, "toy2"), "%s", err.msg);
    cr_assert_eq(text.len, 0);
    /* a selector that selects nothing */
    o.b = "r_zz*";
    cr_assert_eq(page_compare_cli(d, &o, &text, NULL, NULL, &slower, &err), -1);
    cr_assert(strstr(err.msg, "selects no run set"), "%s", err.msg);
    pr_buf_free(&text);
    comparisons_sel_free(&sa);
    comparisons_sel_free(&sb);
    data_free(d);
    rm_rf(dir);
    free(dir);
}

Test(ab_compare, selectors)
{
    comparisons_sel s;
    pr_err err;
    cr_assert(comparisons_sel_parse("published:NVIDIA DeepLearningExamples@2021-04-20", &s, &err) ==
              0);
    cr_assert_eq(s.kind, CD_SEL_PUBLISHED);
    cr_assert_str_eq(s.key, "NVIDIA DeepLearningExamples");
    cr_assert_str_eq(s.value, "2021-04-20");
    comparisons_sel_free(&s);
    cr_assert(comparisons_sel_parse("env:container.release=21.03", &s, &err) == 0);
    cr_assert_eq(s.kind, CD_SEL_ENV);
    cr_assert_str_eq(s.key, "container.release");
    cr_assert_str_eq(s.value, "21.03");
    comparisons_sel_free(&s);
    cr_assert(comparisons_sel_parse("env:nokey", &s, &err) == -1);
    cr_assert(comparisons_sel_parse("published:x", &s, &err) == -1);
    cr_assert(comparisons_sel_parse("runs/x", &s, &err) == -1);
    cr_assert(comparisons_sel_parse("", &s, &err) == -1);
}

Test(ab_compare, declared_rendered_and_linked)
{
    char *dir = ab_data();
    put(dir, "comparisons/toy-ab.json",
        "{\"perfrepro\": 1,\n"
        " \"title\": {\"zh\": \"玩具 A/B\", \"en\": \"Toy A/B\"},\n"
        " \"a\": {\"label\": {\"zh\": \"旧\", \"en\": \"old\"}, \"select\": \"r_a\"},\n"
        " \"b\": \"r_b\", \"delta\": 0.05}\n");
    json_t *pages = gt_render(dir, "/tmp/perfrepro-ab-out", 0);
    const char *zh = gt_page(pages, "compare/toy-ab/README.md");
    const char *en = gt_page(pages, "compare/toy-ab/README.en.md");
    cr_assert(strstr(zh, "# 玩具 A/B"), "%s", zh);
    cr_assert(strstr(en, "| Toy · Fw · fp32 · bs 64 · 1×1 |"), "%s", en);
    cr_assert(strstr(en, "| 1.100 | 1.058 – 1.150 | 90.0 % | faster |"), "%s", en);
    cr_assert(strstr(en, "- faster: 1"), "%s", en);
    cr_assert(strstr(en, "at most 0.10"), "%s", en);
    /* the median's log, relative to the page */
    cr_assert(strstr(en, "[102.00](../../"), "%s", en);
    cr_assert(strstr(gt_page(pages, "README.md"), "(compare/toy-ab/README.md)"));
    cr_assert(strstr(gt_page(pages, "README.en.md"), "[Toy A/B](compare/toy-ab/README.en.md)"));
    json_decref(pages);
    rm_rf(dir);
    free(dir);
}

Test(ab_compare, declared_bad_field_named)
{
    char *dir = ab_data();
    put(dir, "comparisons/bad.json",
        "{\"perfrepro\": 1,\n"
        " \"title\": {\"zh\": \"坏\", \"en\": \"bad\"},\n"
        " \"a\": {\"label\": {\"zh\": \"旧\", \"en\": \"old\"}, \"selct\": \"r_a\"},\n"
        " \"b\": \"r_b\"}\n");
    pr_dataset *d = NULL;
    pr_err err;
    cr_assert_eq(data_load(dir, &d, &err), -1);
    cr_assert(strstr(err.msg, "comparisons/bad.json:3:") && strstr(err.msg, "a.selct"), "%s",
              err.msg);
    put(dir, "comparisons/bad.json",
        "{\"perfrepro\": 1,\n"
        " \"title\": {\"zh\": \"坏\", \"en\": \"bad\"},\n"
        " \"a\": \"r_a\",\n"
        " \"b\": \"r_nothing\"}\n");
    cr_assert_eq(data_load(dir, &d, &err), -1);
    cr_assert(strstr(err.msg, "comparisons/bad.json:4:") && strstr(err.msg, "selects no run set"),
              "%s", err.msg);
    put(dir, "comparisons/bad.json",
        "{\"perfrepro\": 1,\n"
        " \"title\": {\"zh\": \"坏\", \"en\": \"bad\"},\n"
        " \"a\": \"r_a\", \"b\": \"r_b\",\n"
        " \"delta\": 5}\n");
    cr_assert_eq(data_load(dir, &d, &err), -1);
    cr_assert(strstr(err.msg, "comparisons/bad.json:4:") && strstr(err.msg, "delta"), "%s",
              err.msg);
    rm_rf(dir);
    free(dir);
}

/* Gives run's record of repeat r a "steady" object: unsteady, a regime
 * change at step 7. */
static void mark_unsteady(const char *dir, const char *run, int r)
{
    char *path =
        pr_xasprintf("%s/runs/%s/logs/index/clas_Toy_sp_bs64_fp32_1_r%d_speed", dir, run, r);
    json_t *o = json_load_file(path, 0, NULL);
    cr_assert(o, "%s", path);
    json_object_set_new(o, "steady",
                        json_pack("{s:s,s:s,s:i,s:i,s:i,s:i,s:f,s:i,s:f}", "verdict", "unsteady",
                                  "reason", "regime_change", "steps", 12, "first", 1, "last", 12,
                                  "n", 12, "cv", 0.62, "regime_step", 7, "regime_ratio", 7.9));
    cr_assert(json_dump_file(o, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER) == 0);
    json_decref(o);
    free(path);
}

Test(ab_compare, unsteady_runs_are_not_judged)
{
    char *dir = ab_data();
    mark_unsteady(dir, "r_b", 2);
    mark_unsteady(dir, "r_b", 3);
    pr_dataset *d = load(dir);
    comparisons_sel sa, sb;
    abmodel_cmp *c = compare(d, "r_a", "r_b", &sa, &sb);
    cr_assert_eq(c->ncells, 1);
    const abmodel_cell *x = &c->cells[0];
    cr_expect_eq(x->gate, ABM_GATE_UNSTEADY);
    cr_expect_eq(x->b.nunsteady, 2);
    cr_expect_eq(c->counts[PR_AB_FASTER], 0, "faster from unsteady runs");
    cr_expect_eq(c->not_judged, 1);
    cr_expect_not(abmodel_judged(c));
    /* the ratio is still shown, the verdict says why */
    cr_expect_float_eq(x->r.ratio, 1.1, 1e-12);
    pr_buf csv = PR_BUF_INIT;
    page_compare_csv(c, &csv);
    cr_expect(strstr(pr_buf_cstr(&csv), ",not_judged,,1,unsteady\n"), "%s", pr_buf_cstr(&csv));
    pr_buf_free(&csv);
    json_t *j = page_compare_json(c, NULL);
    char *js = json_dumps(j, JSON_COMPACT);
    cr_expect(strstr(js, "\"verdict\":\"not_judged\",\"gate\":{\"why\":[\"unsteady\"]"), "%s", js);
    free(js);
    json_decref(j);
    abmodel_free(c);
    comparisons_sel_free(&sa);
    comparisons_sel_free(&sb);
    data_free(d);
    /* declared: the page names the runs and why; the index leaves it out */
    put(dir, "comparisons/toy-ab.json",
        "{\"perfrepro\": 1, \"title\": {\"zh\": \"玩具\", \"en\": \"Toy A/B\"},\n"
        " \"a\": \"r_a\", \"b\": \"r_b\"}\n");
    json_t *pages = gt_render(dir, "/tmp/perfrepro-ab-gate-out", 0);
    const char *en = gt_page(pages, "compare/toy-ab/README.en.md");
    cr_expect(strstr(en, "not judged: runs r2, r3 of B unsteady (r2: regime change at step 7, "
                         "CV 62.0 %; r3: regime change at step 7, CV 62.0 %)"),
              "%s", en);
    cr_expect(strstr(en, "No cell is judged"), "%s", en);
    cr_expect_not(strstr(gt_page(pages, "README.en.md"), "compare/toy-ab/"));
    json_decref(pages);
    rm_rf(dir);
    free(dir);
}

Test(ab_compare, ratio_beyond_declared_max_effect_is_implausible)
{
    char *dir = ab_data();
    pr_dataset *d = load(dir);
    comparisons_sel sa, sb;
    pr_err err;
    cr_assert(comparisons_sel_parse("r_a", &sa, &err) == 0);
    cr_assert(comparisons_sel_parse("r_b", &sb, &err) == 0);
    abmodel_cmp *c = NULL;
    cr_assert(abmodel_build(d, &sa, &sb, 0.05, 1.05, &c, &err) == 0, "%s", err.msg);
    cr_expect_eq(c->cells[0].gate, ABM_GATE_IMPLAUSIBLE);
    cr_expect_eq(c->counts[PR_AB_FASTER], 0);
    abmodel_free(c);
    /* within it: judged */
    cr_assert(abmodel_build(d, &sa, &sb, 0.05, 2, &c, &err) == 0, "%s", err.msg);
    cr_expect_eq(c->cells[0].gate, 0);
    cr_expect_eq(c->counts[PR_AB_FASTER], 1);
    abmodel_free(c);
    cr_expect_eq(abmodel_build(d, &sa, &sb, 0.05, 0.5, &c, &err), -1);
    comparisons_sel_free(&sa);
    comparisons_sel_free(&sb);
    data_free(d);
    put(dir, "comparisons/bad.json",
        "{\"perfrepro\": 1, \"title\": {\"zh\": \"坏\", \"en\": \"bad\"},\n"
        " \"a\": \"r_a\", \"b\": \"r_b\",\n \"max_effect\": 1}\n");
    cr_assert_eq(data_load(dir, &d, &err), -1);
    cr_expect(strstr(err.msg, "bad.json:3:") && strstr(err.msg, "max_effect"), "%s", err.msg);
    rm_rf(dir);
    free(dir);
}

Test(ab_compare, extreme_ratio_is_refused_not_faster)
{
    char *dir = ab_data();
    double tiny[] = {1e-300, 1e-300, 1e-300}, huge[] = {1e300, 1e300, 1e300};
    put_run(dir, "r_tiny", "toy", tiny, 3);
    put_run(dir, "r_huge", "toy", huge, 3);
    pr_dataset *d = load(dir);
    comparisons_sel sa, sb;
    abmodel_cmp *c = compare(d, "r_tiny", "r_huge", &sa, &sb);
    cr_assert_eq(c->ncells, 1);
    cr_expect_eq(c->cells[0].gate, ABM_GATE_RANGE);
    cr_expect_eq(c->counts[PR_AB_FASTER], 0);
    pr_buf csv = PR_BUF_INIT;
    page_compare_csv(c, &csv);
    cr_expect(strstr(pr_buf_cstr(&csv), ",not_judged,,1,out_of_range\n"), "%s", pr_buf_cstr(&csv));
    pr_buf_free(&csv);
    abmodel_free(c);
    comparisons_sel_free(&sa);
    comparisons_sel_free(&sb);
    data_free(d);
    rm_rf(dir);
    free(dir);
}

Test(ab_compare, one_run_set_on_both_sides_refused)
{
    char *dir = ab_data();
    pr_dataset *d = load(dir);
    page_compare_opts o = {"r_a", "r_*", NULL, 0, "csv", "zh", "templates", NULL, NULL, NULL};
    pr_buf text = PR_BUF_INIT;
    size_t slower = 0;
    pr_err err;
    cr_assert_eq(page_compare_cli(d, &o, &text, NULL, NULL, &slower, &err), -1);
    cr_expect(strstr(err.msg, "both select r_a"), "%s", err.msg);
    o.b = "r_a";
    cr_assert_eq(page_compare_cli(d, &o, &text, NULL, NULL, &slower, &err), -1);
    cr_expect(strstr(err.msg, "both select r_a"), "%s", err.msg);
    cr_expect_eq(text.len, 0);
    pr_buf_free(&text);
    data_free(d);
    put(dir, "comparisons/self.json",
        "{\"perfrepro\": 1, \"title\": {\"zh\": \"自己\", \"en\": \"self\"},\n"
        " \"a\": \"r_a\",\n \"b\": \"r_a\"}\n");
    cr_assert_eq(data_load(dir, &d, &err), -1);
    cr_expect(strstr(err.msg, "self.json:3:") && strstr(err.msg, "both select r_a"), "%s", err.msg);
    rm_rf(dir);
    free(dir);
}

Test(ab_compare, file_not_named_json_refused)
{
    char *dir = ab_data();
    put(dir, "comparisons/x.JSON",
        "{\"perfrepro\": 1, \"title\": {\"zh\": \"x\", \"en\": \"x\"},\n"
        " \"a\": \"r_a\", \"b\": \"r_b\"}\n");
    pr_dataset *d = NULL;
    pr_err err;
    cr_assert_eq(data_load(dir, &d, &err), -1);
    cr_expect(strstr(err.msg, "comparisons/x.JSON") && strstr(err.msg, "NAME.json"), "%s", err.msg);
    rm_rf(dir);
    free(dir);
}

/* The recipe "How to add a compare statistic" (gen/README.md), followed
 * once: a throwaway statistic, the square of the ratio, added as one row
 * after the table's own, shows in the page's heads and cells, as the JSON
 * cell's last key and as the CSV's last column. */
static void sq_head(const compare_stats_env *e, pr_buf *out)
{
    (void)e;
    pr_buf_puts(out, "Ratio²");
}
static void sq_page(const compare_stats_env *e, const abmodel_cell *x, pr_buf *out)
{
    (void)e;
    pr_buf_printf(out, "%.2f", x->r.ratio * x->r.ratio);
}
static json_t *sq_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    (void)c;
    return json_real(x->r.ratio * x->r.ratio);
}
static void sq_csv(const abmodel_cell *x, pr_buf *out)
{
    pr_buf_printf(out, ",%.2f", x->r.ratio * x->r.ratio);
}

Test(ab_compare, a_statistic_is_one_row)
{
    char *dir = ab_data();
    pr_dataset *d = load(dir);
    comparisons_sel sa, sb;
    abmodel_cmp *c = compare(d, "r_a", "r_b", &sa, &sb);
    size_t n = compare_stats_count + 1;
    compare_stats_stat *t = calloc(n, sizeof *t);
    memcpy(t, compare_stats, compare_stats_count * sizeof *t);
    t[n - 1] = (compare_stats_stat){.head = sq_head,
                                    .numeric = 1,
                                    .page = sq_page,
                                    .json_key = "ratio_sq",
                                    .json = sq_json,
                                    .csv_head = "ratio_sq",
                                    .csv = sq_csv,
                                    .csv_late = 3};
    lang l = {"en", "README.en.md", "README.md", NULL, NULL, NULL, NULL, {NULL}};
    pr_err err;
    cr_assert(lang_load(&l, "templates", &err) == 0, "%s", err.msg);
    rmodel_world *w = rmodel_build(d, dir);
    compare_stats_env e = {w, &l, c, "", &err};
    /* the page: a head and a cell more, in the row's place */
    json_t *heads = compare_stats_heads(t, n, &e);
    json_t *cells = compare_stats_cells(t, n, &e, &c->cells[0]);
    cr_assert_eq(json_array_size(heads), json_array_size(cells));
    json_t *last = json_array_get(heads, json_array_size(heads) - 1);
    cr_assert_str_eq(json_string_value(json_object_get(last, "head")), "Ratio²");
    cr_assert_str_eq(json_string_value(json_object_get(last, "align")), "---:");
    last = json_array_get(cells, json_array_size(cells) - 1);
    cr_assert_str_eq(json_string_value(json_object_get(last, "text")), "1.21");
    /* the built-in table's page: the nine columns of the page */
    json_t *own = compare_stats_heads(compare_stats, compare_stats_count, &e);
    cr_assert_eq(json_array_size(own) + 1, json_array_size(heads));
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(own, 0), "head")),
                     "A median");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(own, 8), "head")),
                     "Runs needed");
    /* JSON: the last key */
    json_t *o = json_object();
    compare_stats_json(t, n, c, &c->cells[0], o);
    const char *key = NULL, *k;
    json_t *v;
    json_object_foreach(o, k, v) key = k;
    cr_assert_str_eq(key, "ratio_sq");
    cr_assert_float_eq(json_real_value(json_object_get(o, "ratio_sq")), 1.21, 1e-12);
    /* CSV: the last column, after the ones the CSV has always had */
    pr_buf csv = PR_BUF_INIT;
    compare_stats_csv_head(t, n, &csv);
    cr_assert_str_eq(pr_buf_cstr(&csv), ",a_runs,a_median,b_runs,b_median,ratio,lo,hi,k,"
                                        "coverage,verdict,runs_needed,coverage_exact,gate,"
                                        "ratio_sq");
    pr_buf_clear(&csv);
    compare_stats_csv(t, n, &c->cells[0], &csv);
    cr_assert(strstr(pr_buf_cstr(&csv), ",1,,1.21") &&
                  strcmp(pr_buf_cstr(&csv) + csv.len - 5, ",1.21") == 0,
              "%s", pr_buf_cstr(&csv));
    pr_buf_free(&csv);
    json_decref(o);
    json_decref(own);
    json_decref(heads);
    json_decref(cells);
    rmodel_free(w);
    lang_free(&l);
    free(t);
    abmodel_free(c);
    comparisons_sel_free(&sa);
    comparisons_sel_free(&sb);
    data_free(d);
    rm_rf(dir);
    free(dir);
}

/* Every row of compare_stats[] is whole: a page cell has a heading, a JSON
 * value a key, CSV fields their header; and each writes somewhere. */
Test(ab_compare, every_statistic_row_is_whole)
{
    for (size_t i = 0; i < compare_stats_count; i++) {
        const compare_stats_stat *s = &compare_stats[i];
        cr_expect(s->page || s->json || s->csv, "row %zu writes nothing", i);
        cr_expect(!s->page == !(s->head || s->head_id), "row %zu: page cell and heading", i);
        cr_expect(!s->json == !s->json_key, "row %zu: JSON value and key", i);
        cr_expect(!s->csv == !s->csv_head, "row %zu: CSV fields and header", i);
    }
}
