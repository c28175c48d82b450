/* gen: the history of a hand-made data folder: a reproduced series of
 * three run sets (an experiment run set beside them is no point), a
 * published series over revisions, a pin and a veto from
 * DATA/history.json, strict errors for a bad one, and the pages, the
 * REGRESSIONS list and the Atom feed rendered from it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "2-model/history.h"
#include "4-charts/chart_history.h"
#include "base/md.h"
#include "fileio.h"
#include "gentest.h"
#include "record.h"
#include "testutil.h"

static const char *PLATFORM =
    "{\"perfrepro\": 1, \"title\": {\"zh\": \"Toy GPU × 8\", \"en\": \"Toy GPU x 8\"},\n"
    " \"device\": {\"kind\": \"gpu\", \"model\": \"Toy GPU\", \"per_node\": 8}}\n";

/* One record of run folder run: case Toy/Fw fp32 bs64 on 1 GPU, repeat
 * repeat, started on date (YYYY-MM-DD). */
static void put_record(const char *d, const char *run, const char *date, int repeat, double v)
{
    pr_record r;
    pr_record_init(&r);
    r.case_name = pr_xasprintf("clas_Toy_sp_bs64_fp32_1_r%d", repeat);
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
    r.repeat = repeat;
    r.origin = pr_xstrdup("measured");
    r.platform = pr_xstrdup("toy");
    r.started_at = pr_xasprintf("%sT10:00:00Z", date);
    r.final_result = v;
    char *s = pr_record_dumps(&r);
    char *idx = pr_xasprintf("runs/%s/logs/index/%s_speed", run, r.case_name);
    char *log = pr_xasprintf("runs/%s/%s", run, r.log_file);
    put(d, idx, s);
    put(d, log, "ips: 100\n");
    free(idx);
    free(log);
    free(s);
    pr_record_clear(&r);
}

/* One revision of the published table: fp32 bs64 on toy, 1 GPU. */
static void pub_table(pr_buf *b, const char *commit, const char *date, double v, int last)
{
    pr_buf_printf(b,
                  "  {\"model\": \"Toy\", \"framework\": \"Fw\", \"precision\": \"fp32\",\n"
                  "   \"batch_size\": 64, \"unit\": \"images/s\", \"platform\": \"toy\",\n"
                  "   \"variant\": {\"zh\": \"修订版 %s\", \"en\": \"revision %s\"},\n"
                  "   \"source\": {\"commit\": \"%s\", \"path\": \"README.md\", \"date\": \"%s\",\n"
                  "     \"url\": \"https://github.com/vendor/toy/blob/%s/README.md\"},\n"
                  "   \"rows\": [{\"nodes\": 1, \"gpus\": 1, \"throughput\": %g}]}%s\n",
                  date, date, commit, date, commit, v, last ? "" : ",");
}

/* The data folder: run sets r1..r3 (2026-01-05, -02-05, -03-05) and the
 * experiment x1 (2026-04-05) of one cell; published revisions of the same
 * cell at six dates with a step between the third and the fourth. */
static char *history_data(void)
{
    char *d = tmpdir();
    put(d, "platforms/toy.json", PLATFORM);
    static const char *const runs[] = {"r1", "r2", "r3", "x1"};
    static const char *const dates[] = {"2026-01-05", "2026-02-05", "2026-03-05", "2026-04-05"};
    static const double base[] = {100, 110, 90, 500};
    for (int i = 0; i < 4; i++)
        for (int k = 1; k <= 3; k++)
            put_record(d, runs[i], dates[i], k, base[i] + k);
    put(d, "runs/x1/runset.json",
        "{\"perfrepro\": 1, \"experiment\": true,\n \"title\": {\"zh\": \"实验\", \"en\": "
        "\"experiment\"}}\n");
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, "{\"perfrepro\": 1, \"label\": \"Vendor\",\n"
                    " \"source\": {\"title\": \"Vendor README\", \"repo\": \"vendor/toy\"},\n"
                    " \"tables\": [\n");
    static const char *const commits[] = {"1111111", "2222222", "3333333",
                                          "4444444", "5555555", "6666666"};
    static const char *const pdates[] = {"2025-01-01", "2025-02-01", "2025-03-01",
                                         "2025-04-01", "2025-05-01", "2025-06-01"};
    static const double pv[] = {100, 101, 100, 200, 201, 199};
    for (int i = 0; i < 6; i++)
        pub_table(&b, commits[i], pdates[i], pv[i], i == 5);
    pr_buf_puts(&b, " ]\n}\n");
    put(d, "published/vendor.json", pr_buf_cstr(&b));
    pr_buf_free(&b);
    return d;
}

static const char *MARKS =
    "{\"perfrepro\": 1,\n"
    " \"pins\": [{\"model\": \"Toy\", \"framework\": \"Fw\", \"platform\": \"toy\",\n"
    "   \"precision\": \"fp32\", \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
    "   \"date\": \"2026-02-05\", \"note\": {\"zh\": \"换了驱动\", \"en\": \"new driver\"}}],\n"
    " \"vetoes\": [{\"model\": \"Toy\", \"framework\": \"Fw\", \"platform\": \"toy\",\n"
    "   \"precision\": \"fp32\", \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
    "   \"source\": \"Vendor\", \"date\": \"2025-04-01\",\n"
    "   \"note\": {\"zh\": \"换了测量方法\", \"en\": \"another method\"}}]}\n";

static history_set *build(const char *d, pr_dataset **out)
{
    pr_err err;
    cr_assert(data_load(d, out, &err) == 0, "%s", err.msg);
    history_set *s = NULL;
    cr_assert(history_build(*out, &s, &err) == 0, "%s", err.msg);
    return s;
}

static const history_series *find(const history_set *s, history_kind kind)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].kind == kind)
            return &s->v[i];
    cr_assert_fail("no %s series", kind == HS_PUBLISHED ? "published" : "reproduced");
    return NULL;
}

Test(history, reproduced_series_of_three_run_sets_without_the_experiment)
{
    char *d = history_data();
    pr_dataset *ds;
    history_set *s = build(d, &ds);
    cr_assert_eq(s->n, 2, "one reproduced and one published series, got %zu", s->n);
    const history_series *x = find(s, HS_REPRODUCED);
    cr_assert_eq(x->n, 3, "the experiment run set is no point");
    static const char *const dates[] = {"2026-01-05", "2026-02-05", "2026-03-05"};
    static const double med[] = {102, 112, 92};
    for (size_t i = 0; i < 3; i++) {
        const history_point *p = &x->pts[i];
        cr_expect_str_eq(p->date, dates[i]);
        cr_expect_float_eq(p->value, med[i], 1e-9);
        cr_expect_eq(p->runs, 3);
        /* 3 runs: min – max, coverage 1 - 2 * 0.5^3 = 75 % */
        cr_expect_float_eq(p->lo, med[i] - 1, 1e-9);
        cr_expect_float_eq(p->hi, med[i] + 1, 1e-9);
        cr_expect_float_eq(p->coverage, 0.75, 1e-12);
        cr_expect_str_neq(p->run->name, "x1");
        cr_expect(p->link_rec != NULL);
        cr_expect_eq(p->state, PR_TREND_OK, "fewer than 4 points: no limit");
        cr_expect(isnan(p->lim_lo));
    }
    cr_expect_eq(x->ncps, 0);
    cr_expect(isnan(x->band_lo), "a segment of 3 points has no prediction band");
    history_free(s);
    data_free(ds);
    rm_rf(d);
    free(d);
}

Test(history, published_series_over_revisions_finds_its_step)
{
    char *d = history_data();
    pr_dataset *ds;
    history_set *s = build(d, &ds);
    const history_series *x = find(s, HS_PUBLISHED);
    cr_assert_eq(x->n, 6);
    cr_expect_str_eq(x->label, "Vendor");
    cr_expect_str_eq(x->repo, "vendor/toy");
    cr_expect_str_eq(x->pts[0].date, "2025-01-01");
    cr_expect_str_eq(x->pts[5].date, "2025-06-01");
    cr_expect_eq(x->pts[3].runs, 1);
    cr_expect(isnan(x->pts[3].lo), "one figure has no interval");
    cr_expect_str_eq(x->pts[3].pub->source_commit, "4444444");
    cr_expect_eq(x->ncps, 1);
    cr_expect(x->pts[3].change, "the step 100 -> 200 is a change point");
    for (size_t i = 0; i < 6; i++)
        cr_expect(i == 3 || !x->pts[i].change);
    history_free(s);
    data_free(ds);
    rm_rf(d);
    free(d);
}

Test(history, a_pin_and_a_veto)
{
    char *d = history_data();
    put(d, "history.json", MARKS);
    pr_dataset *ds;
    history_set *s = build(d, &ds);
    const history_series *r = find(s, HS_REPRODUCED), *p = find(s, HS_PUBLISHED);
    cr_expect(r->pts[1].change, "the pinned step is a change point");
    cr_expect_eq(r->ncps, 1);
    cr_assert(r->pts[1].mark);
    cr_expect_eq(r->pts[1].mark->veto, 0);
    cr_expect_str_eq(pr_bitext_in(&r->pts[1].mark->note, "en"), "new driver");
    cr_expect_float_eq(r->pts[1].pvalue, 0, 0);
    cr_expect(!p->pts[3].change, "the vetoed step is no change point");
    cr_assert(p->pts[3].mark);
    cr_expect_eq(p->pts[3].mark->veto, 1);
    /* JSON and CSV carry them */
    json_t *j = history_to_json(s);
    char *t = json_dumps(j, JSON_COMPACT);
    cr_expect(strstr(t, "\"pinned\":true"), "%s", t);
    cr_expect(strstr(t, "\"vetoed\":true"));
    cr_expect(strstr(t, "\"change_points\":[\"2026-02-05\"]"));
    free(t);
    json_decref(j);
    pr_buf csv = PR_BUF_INIT;
    history_to_csv(s, &csv);
    size_t lines = 0;
    for (const char *c = pr_buf_cstr(&csv); *c; c++)
        lines += *c == '\n';
    cr_expect_eq(lines, 1 + 3 + 6, "a head and one row per point");
    cr_expect(strstr(pr_buf_cstr(&csv), ",pinned,"));
    cr_expect(strstr(pr_buf_cstr(&csv), ",vetoed,"));
    pr_buf_free(&csv);
    history_free(s);
    data_free(ds);
    rm_rf(d);
    free(d);
}

/* history.json text whose load fails with a message holding every needle. */
static void expect_bad(const char *text, const char *const *needles)
{
    char *d = history_data();
    put(d, "history.json", text);
    pr_dataset *ds = NULL;
    pr_err err;
    int rc = data_load(d, &ds, &err);
    history_set *s = NULL;
    if (rc == 0) {
        rc = history_build(ds, &s, &err);
        history_free(s);
        data_free(ds);
    }
    cr_assert_eq(rc, -1, "%s should fail", text);
    for (const char *const *n = needles; *n; n++)
        cr_expect(strstr(err.msg, *n), "message \"%s\" lacks \"%s\"", err.msg, *n);
    rm_rf(d);
    free(d);
}

Test(history, bad_history_json_names_file_line_and_field)
{
    expect_bad("{\"perfrepro\": 1,\n \"pins\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
               "  \"platform\": \"toy\", \"precision\": \"fp32\",\n"
               "  \"batch_size\": \"64\", \"nodes\": 1, \"gpus\": 1,\n"
               "  \"date\": \"2026-02-05\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}]}\n",
               (const char *const[]){"history.json:4:", "batch_size", NULL});
    expect_bad("{\"perfrepro\": 1, \"pin\": []}\n",
               (const char *const[]){"history.json:1:", "pin", NULL});
    expect_bad("{\"perfrepro\": 1,\n \"pins\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
               "  \"platform\": \"toy\", \"precision\": \"fp32\",\n"
               "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
               "  \"date\": \"2026-02-30\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}]}\n",
               (const char *const[]){"history.json:5:", "date", "2026-02-30", NULL});
    expect_bad("{\"perfrepro\": 1,\n \"pins\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
               "  \"platform\": \"nope\", \"precision\": \"fp32\",\n"
               "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
               "  \"date\": \"2026-02-05\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}]}\n",
               (const char *const[]){"history.json:3:", "platform", "nope", NULL});
    /* a pin of no point: named by its place in the file */
    expect_bad("{\"perfrepro\": 1,\n \"pins\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
               "  \"platform\": \"toy\", \"precision\": \"fp32\",\n"
               "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
               "  \"date\": \"2026-02-06\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}]}\n",
               (const char *const[]){"history.json:5:", "pins[0].date", "no point", NULL});
    /* the first point starts no step */
    expect_bad("{\"perfrepro\": 1,\n \"vetoes\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
               "  \"platform\": \"toy\", \"precision\": \"fp32\",\n"
               "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
               "  \"date\": \"2026-01-05\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}]}\n",
               (const char *const[]){"history.json:5:", "vetoes[0].date", NULL});
    /* one step both pinned and vetoed */
    expect_bad("{\"perfrepro\": 1,\n \"pins\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
               "  \"platform\": \"toy\", \"precision\": \"fp32\",\n"
               "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
               "  \"date\": \"2026-02-05\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}],\n"
               " \"vetoes\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
               "  \"platform\": \"toy\", \"precision\": \"fp32\",\n"
               "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
               "  \"date\": \"2026-02-05\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}]}\n",
               (const char *const[]){"history.json:6:", "vetoes[0]", "same step", NULL});
}

/* Issue 31 item 20: the first error in the file is the one reported,
 * whichever list comes first ("vetoes" before "pins" here), and a step
 * named twice is found by the set of steps, naming both places. */
Test(history, first_error_in_file_order)
{
    static const char *const bad_vetoes_first =
        "{\"perfrepro\": 1,\n \"vetoes\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
        "  \"platform\": \"toy\", \"precision\": \"fp32\",\n"
        "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
        "  \"date\": \"2026-13-05\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}],\n"
        " \"pins\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
        "  \"platform\": \"nope\", \"precision\": \"fp32\",\n"
        "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
        "  \"date\": \"2026-02-05\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}]}\n";
    expect_bad(bad_vetoes_first,
               (const char *const[]){"history.json:5:", "vetoes[0].date", "2026-13-05", NULL});
    static const char *const twice =
        "{\"perfrepro\": 1,\n \"vetoes\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
        "  \"platform\": \"toy\", \"precision\": \"fp32\",\n"
        "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
        "  \"date\": \"2026-02-05\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}],\n"
        " \"pins\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
        "  \"platform\": \"toy\", \"precision\": \"fp32\",\n"
        "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
        "  \"date\": \"2026-02-05\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}]}\n";
    expect_bad(twice, (const char *const[]){"history.json:6:", "pins[0]", "same step as",
                                            "history.json:5:", "vetoes[0].date", NULL});
    /* a step of no point, after one that is fine: named by its own place */
    static const char *const second_of_no_point =
        "{\"perfrepro\": 1,\n \"pins\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
        "  \"platform\": \"toy\", \"precision\": \"fp32\",\n"
        "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
        "  \"date\": \"2026-02-05\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}},\n"
        "  {\"model\": \"Toy\", \"framework\": \"Fw\",\n"
        "  \"platform\": \"toy\", \"precision\": \"fp32\", \"source\": \"Vendor\",\n"
        "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
        "  \"date\": \"2025-04-02\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}]}\n";
    expect_bad(second_of_no_point,
               (const char *const[]){"history.json:9:", "pins[1].date", "no point", NULL});
}

Test(history, pages_regressions_and_feed)
{
    char *d = history_data();
    put(d, "history.json", MARKS);
    char *out = tmpdir();
    json_t *pages = gt_render(d, out, 1);
    const char *h = gt_page(pages, "Toy/Fw/HISTORY.md");
    const char *he = gt_page(pages, "Toy/Fw/HISTORY.en.md");
    cr_expect(strstr(he, "| 2026-02-05 | 112.00 | 111.00 – 113.00 (75 %) | 3 |"), "%s", he);
    cr_expect(strstr(he, "pinned in the data: new driver"));
    cr_expect(strstr(he, "change point vetoed: another method"));
    cr_expect(
        strstr(he, "[revision 4444444](https://github.com/vendor/toy/blob/4444444/README.md)"));
    cr_expect(!strstr(he, "runs/x1/"), "the experiment run set is not on the page");
    cr_expect(strstr(h, "换了驱动"));
    cr_expect(strstr(he, "![") && strstr(he, ".en.svg)"), "the chart with its alt text");
    cr_expect_null(json_object_get(pages, "Toy/Fw/history-toy-fp32-bs64-1x1.en.png"),
                   "a PNG copy of the SVG chart");
    cr_expect(!strstr(he, ".png)"), "the page links a PNG copy");
    gt_page(pages, "Toy/Fw/history-toy-fp32-bs64-1x1-vendor.svg");
    cr_expect(strstr(gt_page(pages, "Toy/Fw/README.en.md"), "(HISTORY.en.md)"));
    cr_expect(strstr(gt_page(pages, "README.en.md"), "(REGRESSIONS.en.md)"));
    const char *reg = gt_page(pages, "REGRESSIONS.en.md");
    cr_expect(strstr(reg, "| 2026-02-05 | [Toy · Fw ·"), "%s", reg);
    cr_expect(strstr(reg, "(Toy/Fw/HISTORY.en.md#toy-fp32-bs64-1x1)"));
    const char *feed = gt_page(pages, "regressions.atom");
    cr_expect(strstr(feed, "<updated>2026-03-05T00:00:00Z</updated>"), "%s", feed);
    cr_expect(
        strstr(feed, "<id>tag:perfrepro,2026:history/toy/fw/toy-fp32-bs64-1x1/2026-02-05</id>"));
    json_decref(pages);
    rm_rf(out);
    free(out);
    rm_rf(d);
    free(d);
}

Test(history, no_notable_point_is_said_plainly)
{
    char *d = history_data();
    /* the published step vetoed, the run sets' steps left alone: nothing
     * notable */
    put(d, "history.json",
        "{\"perfrepro\": 1,\n \"vetoes\": [{\"model\": \"Toy\", \"framework\": \"Fw\",\n"
        "  \"platform\": \"toy\", \"precision\": \"fp32\", \"source\": \"Vendor\",\n"
        "  \"batch_size\": 64, \"nodes\": 1, \"gpus\": 1,\n"
        "  \"date\": \"2025-04-01\", \"note\": {\"zh\": \"甲\", \"en\": \"a\"}}]}\n");
    char *out = tmpdir();
    json_t *pages = gt_render(d, out, 0);
    const char *reg = gt_page(pages, "REGRESSIONS.en.md");
    const char *feed = gt_page(pages, "regressions.en.atom");
    cr_expect(strstr(reg, "None: no regression, improvement, suspect point, outlier, change "
                          "point or unjudged step in the 2 series."),
              "%s", reg);
    cr_expect(strstr(reg, "**1 of the 2 history series are testable**"), "%s", reg);
    cr_expect(strstr(feed, "<subtitle>1 of 2 series testable"), "%s", feed);
    cr_expect(!strstr(reg, "| Date |"), "no empty table");
    cr_expect(!strstr(feed, "<entry>"), "%s", feed);
    cr_expect(strstr(feed, "<updated>2026-03-05T00:00:00Z</updated>"));
    json_decref(pages);
    rm_rf(out);
    free(out);
    rm_rf(d);
    free(d);
}

Test(history, chart_is_deterministic_and_refuses_undrawable_labels)
{
    const char *dates[] = {"2025-01-01", "2025-02-01", "2025-03-01", "2025-04-01", "2025-05-01"};
    double v[] = {100, 101, 99, 150, 152}, lo[] = {98, NAN, 97, 149, 150},
           hi[] = {102, NAN, 101, 151, 153};
    int change[] = {0, 0, 0, 1, 0}, flagged[] = {0, 0, 0, 0, 1};
    chart_history_spec c = {"吞吐的历史",
                            "吞吐（images/s）",
                            "中位数",
                            "变点",
                            "预测区间",
                            "判定非正常",
                            5,
                            dates,
                            v,
                            lo,
                            hi,
                            change,
                            flagged,
                            140,
                            160,
                            3};
    pr_buf a = PR_BUF_INIT, b = PR_BUF_INIT, s = PR_BUF_INIT;
    pr_err err;
    cr_assert(chart_history_render_png(&c, 720, 360, &a, &err) == 0, "%s", err.msg);
    cr_assert(chart_history_render_png(&c, 720, 360, &b, &err) == 0, "%s", err.msg);
    cr_expect(a.len > 1000 && a.len == b.len && !memcmp(a.data, b.data, a.len));
    cr_expect(!memcmp(a.data, "\x89PNG", 4));
    cr_assert(chart_history_render_svg(&c, 720, 360, &s, &err) == 0, "%s", err.msg);
    cr_expect(strstr(pr_buf_cstr(&s), "<svg"));
    c.title = "\xF4\x8F\xBF\xBD"; /* U+10FFFD, private use: no font draws it */
    pr_buf bad = PR_BUF_INIT;
    cr_expect(chart_history_render_png(&c, 720, 360, &bad, &err) == -1);
    cr_expect(strstr(err.msg, "no installed font"), "%s", err.msg);
    cr_expect(chart_history_render_png(&c, 50, 50, &bad, &err) == -1, "a bad size");
    pr_buf_free(&a);
    pr_buf_free(&b);
    pr_buf_free(&s);
    pr_buf_free(&bad);
}

/* 1 when s holds a character XML 1.0 forbids (C0 but tab, LF, CR; U+FFFE,
 * U+FFFF; a surrogate) or a byte that is not UTF-8. */
static int has_xml_forbidden(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
            return 1;
        if (p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF))
            return 1;
        if (p[0] == 0xED && p[1] >= 0xA0)
            return 1;
        if (*p == 0xFF || *p == 0xC0 || *p == 0xC1)
            return 1;
    }
    return 0;
}

/* Issue 31 item 13: a label with U+FFFE, U+FFFF and C0 controls made the
 * Atom feed ill-formed; what XML 1.0 forbids is dropped, the rest kept. */
Test(history, feed_drops_what_xml_forbids)
{
    pr_buf x = PR_BUF_INIT;
    md_xml(&x, "a\xEF\xBF\xBE"
               "b\xEF\xBF\xBF"
               "c\x01\x1B"
               "d\t\r\n"
               "e\xED\xA0\x80"
               "f\xFF\xC0\xAF"
               "g\xEF\xBF\xBD\xF0\x9F\x98\x80 &<>\"");
    cr_expect_str_eq(pr_buf_cstr(&x),
                     "abcd\t\r\nefg\xEF\xBF\xBD\xF0\x9F\x98\x80 &amp;&lt;&gt;&quot;");
    pr_buf_free(&x);

    char *d = history_data();
    pr_buf f = PR_BUF_INIT;
    pr_err err;
    char *path = pr_xasprintf("%s/published/vendor.json", d);
    cr_assert(pr_fileio_read_file(path, &f, &err) == 0, "%s", err.msg);
    char *at = strstr(f.data, "\"label\": \"Vendor\"");
    cr_assert(at);
    pr_buf g = PR_BUF_INIT;
    pr_buf_put(&g, f.data, (size_t)(at - f.data));
    pr_buf_puts(&g, "\"label\": \"Vendor \\ufffe\\uffff\\u0001\\u001b <&> end\"");
    pr_buf_puts(&g, at + strlen("\"label\": \"Vendor\""));
    put(d, "published/vendor.json", pr_buf_cstr(&g));
    char *out = tmpdir();
    json_t *pages = gt_render(d, out, 0);
    for (int en = 0; en < 2; en++) {
        const char *feed = gt_page(pages, en ? "regressions.en.atom" : "regressions.atom");
        cr_expect(strstr(feed, "<entry>"), "the step makes an entry: %s", feed);
        cr_expect(strstr(feed, "Vendor  &lt;&amp;&gt; end"), "%s", feed);
        cr_expect(!has_xml_forbidden(feed), "%s", feed);
    }
    json_decref(pages);
    rm_rf(out);
    free(out);
    free(path);
    pr_buf_free(&f);
    pr_buf_free(&g);
    rm_rf(d);
    free(d);
}

/* A data folder of one published series: vendor revisions at the given
 * values, monthly from 2025-01-01. */
static char *published_only(const double *v, int n)
{
    char *d = tmpdir();
    put(d, "platforms/toy.json", PLATFORM);
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, "{\"perfrepro\": 1, \"label\": \"Vendor\",\n"
                    " \"source\": {\"title\": \"Vendor README\", \"repo\": \"vendor/toy\"},\n"
                    " \"tables\": [\n");
    for (int i = 0; i < n; i++) {
        char commit[16], date[16];
        snprintf(commit, sizeof commit, "%07d", 1111111 * (i % 9 + 1) + i / 9);
        snprintf(date, sizeof date, "%04d-%02d-01", 2025 + i / 12, i % 12 + 1);
        pub_table(&b, commit, date, v[i], i == n - 1);
    }
    pr_buf_puts(&b, " ]\n}\n");
    put(d, "published/vendor.json", pr_buf_cstr(&b));
    pr_buf_free(&b);
    return d;
}

/* Issue 30 finding 4: five revisions (change points need 6) with a +37 %
 * step between the third and the fourth, as NVIDIA's README revisions
 * 816 -> 1115.  The series says it is not testable; no point reads "ok"
 * (three have no band, the last one a band wider than the series' range:
 * "not judged"); the current band is "not informative"; the step is seen,
 * unjudged, on the history page, REGRESSIONS, the feed, JSON and CSV; and
 * REGRESSIONS and the feed lead with 0 of 1 series testable. */
Test(history, a_short_series_says_what_it_cannot_test)
{
    static const double v[] = {100, 101, 100, 137, 139};
    char *d = published_only(v, 5);
    pr_dataset *ds;
    history_set *s = build(d, &ds);
    cr_assert_eq(s->n, 1);
    const history_series *x = &s->v[0];
    cr_expect(!x->cp_testable && !x->testable);
    cr_expect_eq(s->ntestable, 0);
    cr_expect_eq(x->band, HS_BAND_WIDE, "a band from 4 points this wide tells nothing");
    cr_expect(x->band_hi / x->band_lo > 139.0 / 100, "wider than the range: %g – %g", x->band_lo,
              x->band_hi);
    for (int i = 0; i < 4; i++)
        cr_expect_eq(x->pts[i].judged, HS_BAND_NONE, "point %d", i);
    cr_expect_eq(x->pts[4].judged, HS_BAND_WIDE);
    for (int i = 0; i < 5; i++)
        cr_expect_eq(x->pts[i].step_seen, i == 3, "point %d: only the +37 %% step is seen", i);
    cr_expect_float_eq(x->pts[3].step, 0.37, 1e-12);
    cr_expect_eq(x->nseen, 1);
    json_t *j = history_to_json(s);
    char *t = json_dumps(j, JSON_COMPACT);
    cr_expect(strstr(t, "\"testable_series\":0"), "%s", t);
    cr_expect(strstr(t, "\"testable\":false"));
    cr_expect(strstr(t, "\"band\":\"not_informative\""));
    cr_expect(strstr(t, "\"judged\":\"none\""));
    cr_expect(strstr(t, "\"judged\":\"not_informative\""));
    cr_expect(strstr(t, "\"step_seen\":true"));
    free(t);
    json_decref(j);
    pr_buf csv = PR_BUF_INIT;
    history_to_csv(s, &csv);
    cr_expect(
        strstr(pr_buf_cstr(&csv), ",judged,step,step_seen,change_point,mark,series_testable,"),
        "%s", pr_buf_cstr(&csv));
    cr_expect(strstr(pr_buf_cstr(&csv), ",none,0.37,yes,no,,no,"), "%s", pr_buf_cstr(&csv));
    pr_buf_free(&csv);
    history_free(s);
    data_free(ds);

    char *out = tmpdir();
    json_t *pages = gt_render(d, out, 0);
    const char *he = gt_page(pages, "Toy/Fw/HISTORY.en.md"),
               *h = gt_page(pages, "Toy/Fw/HISTORY.md");
    cr_expect(strstr(he, "Not testable: 5 points (change points need 6, bands 4); its band is "
                         "wider than the series' own range."),
              "%s", he);
    cr_expect(
        strstr(he, "is wider than the series' own range (100.00 – 139.00): not informative."));
    cr_expect(!strstr(he, "| ok |"), "no \"ok\" without a band that can tell: %s", he);
    cr_expect(strstr(he, "| not judged (no band: fewer than 4 points before it); step +37.0 %: "
                         "seen, unjudged |"),
              "%s", he);
    cr_expect(strstr(he, "| not judged (its band is wider than the series' range) |"));
    cr_expect(strstr(h, "不可检验：5 个点") && strstr(h, "阶跃 +37.0 %：已见，未判定"), "%s", h);
    cr_expect(!strstr(h, "| 正常 |"));
    const char *reg = gt_page(pages, "REGRESSIONS.en.md");
    cr_expect(strstr(reg, "**0 of the 1 history series are testable**"), "%s", reg);
    cr_expect(strstr(reg, "| 2025-04-01 | [Toy · Fw ·") &&
                  strstr(reg, "step +37.0 %: seen, unjudged"),
              "%s", reg);
    const char *feed = gt_page(pages, "regressions.en.atom");
    cr_expect(strstr(feed, "<subtitle>0 of 1 series testable"), "%s", feed);
    cr_expect(strstr(feed, "<title>step +37.0 %: seen, unjudged: Toy · Fw ·"), "%s", feed);
    json_decref(pages);
    rm_rf(out);
    free(out);
    rm_rf(d);
    free(d);
}

/* The other side: eight quiet revisions are testable (change points), and
 * their last points, judged by a band narrower than the range, read ok;
 * with nothing notable and nothing testable REGRESSIONS says it is no
 * all-clear, and with a testable series it does not. */
Test(history, a_long_quiet_series_is_testable_and_ok)
{
    static const double v[] = {100, 103, 99, 101, 102, 98, 100, 101, 99, 102, 100, 101};
    char *d = published_only(v, 12);
    pr_dataset *ds;
    history_set *s = build(d, &ds);
    const history_series *x = &s->v[0];
    cr_expect(x->cp_testable && x->testable);
    cr_expect_eq(s->ntestable, 1);
    cr_expect_eq(x->nseen, 0);
    cr_expect_eq(x->band, HS_BAND_WIDE,
                 "a 99 %% band of 12 points is still wider than their range: %g – %g", x->band_lo,
                 x->band_hi);
    history_free(s);
    data_free(ds);
    char *out = tmpdir();
    json_t *pages = gt_render(d, out, 0);
    const char *he = gt_page(pages, "Toy/Fw/HISTORY.en.md");
    cr_expect(strstr(he, "Testable: 12 points, enough for change points (6)"), "%s", he);
    const char *reg = gt_page(pages, "REGRESSIONS.en.md");
    cr_expect(strstr(reg, "in the 1 series.") && !strstr(reg, "no all-clear"), "%s", reg);
    json_decref(pages);
    rm_rf(out);
    free(out);
    rm_rf(d);
    free(d);

    static const double two[] = {100, 300};
    d = published_only(two, 2);
    out = tmpdir();
    pages = gt_render(d, out, 0);
    reg = gt_page(pages, "REGRESSIONS.en.md");
    cr_expect(strstr(reg, "in the 1 series; none of them can be tested yet, so this is no "
                          "all-clear."),
              "%s", reg);
    cr_expect(strstr(gt_page(pages, "Toy/Fw/HISTORY.en.md"), "Not testable: 2 points"));
    json_decref(pages);
    rm_rf(out);
    free(out);
    rm_rf(d);
    free(d);
}
