/* The index's headline comes from the data: the declared configuration
 * when it has figures, else the documented rule (docs/data-model.md#headline):
 * reproductions over published figures, never a configuration without
 * figures; each figure with its flag, footnote and run set's date; models
 * with no figure listed apart as planned.  And the flag pass: one decision
 * (rmodel_cell.flagged) that the model page and the index mark alike. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "2-model/rmodel.h"
#include "3-tables/compare.h"
#include "cmd/report.h"
#include "gentest.h"
#include "testutil.h"

static const char v100[] =
    "{\"perfrepro\": 1, \"title\": {\"zh\": \"V100 × 8\", \"en\": \"V100 x 8\"},\n"
    " \"device\": {\"kind\": \"gpu\", \"model\": \"Tesla V100-SXM2-32GB\", \"memory_gb\": 32,\n"
    "            \"per_node\": 8}, \"match\": [\"V100-SXM2-32GB\"]}\n";
static const char a100[] =
    "{\"perfrepro\": 1, \"title\": {\"zh\": \"A100 × 8\", \"en\": \"A100 x 8\"},\n"
    " \"device\": {\"kind\": \"gpu\", \"model\": \"NVIDIA A100-SXM4-40GB\"}}\n";
static const char classes[] =
    "{\"perfrepro\": 1, \"classes\": [\n"
    " {\"id\": \"fp32\", \"title\": {\"zh\": \"FP32\", \"en\": \"FP32\"}, \"modes\": [\"fp32\"]},\n"
    " {\"id\": \"tf32\", \"title\": {\"zh\": \"TF32\", \"en\": \"TF32\"}, \"modes\": [\"tf32\"]},\n"
    " {\"id\": \"mixed\", \"title\": {\"zh\": \"混合精度\", \"en\": \"Mixed precision\"},\n"
    "  \"modes\": [\"amp\", \"fp16\", \"bf16\"]},\n"
    " {\"id\": \"fp8\", \"title\": {\"zh\": \"FP8\", \"en\": \"FP8\"}, \"modes\": [\"fp8\"]}]}\n";

/* H: published FP32 figures on the A100 (FwB's 8-GPU figure is 125 %
 *   efficient: flagged; its "old" variant's 520, an alternative the model
 *   page lists below the table, 130 %), a TODO-only FP32 table on the V100 (the one H
 *   declares), and reproduced mixed-precision figures on the V100 (records).
 * Q: published figures only, on the A100, its 8-GPU figure flagged.
 * P: TODO only: planned. */
static const char published[] =
    "{\"perfrepro\": 1, \"label\": \"Src\",\n"
    " \"source\": {\"title\": \"Src README\", \"url\": \"https://example.com/src\", \"date\": "
    "\"2020-09\"},\n"
    " \"platform\": \"A100-x8\", \"tables\": [\n"
    "  {\"model\": \"H\", \"framework\": \"FwA\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"throughput\": 60}, {\"nodes\": 1, \"gpus\": 8, "
    "\"throughput\": 420}]},\n"
    "  {\"model\": \"H\", \"framework\": \"FwB\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"throughput\": 50}, {\"nodes\": 1, \"gpus\": 8, "
    "\"throughput\": 500}]},\n"
    "  {\"model\": \"H\", \"framework\": \"FwB\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"variant\": \"old\", \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"throughput\": 50}, {\"nodes\": 1, \"gpus\": 8, "
    "\"throughput\": 520}]},\n"
    "  {\"model\": \"H\", \"framework\": \"FwA\", \"precision\": \"fp32\", \"batch_size\": 32,\n"
    "   \"unit\": \"images/s\", \"platform\": \"V100-x8\", \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"state\": \"TODO\"}, {\"nodes\": 1, \"gpus\": 8, \"state\": "
    "\"TODO\"}]},\n"
    "  {\"model\": \"Q\", \"framework\": \"FwA\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"rows\": [\n"
    "    {\"nodes\": 1, \"gpus\": 1, \"throughput\": 10}, {\"nodes\": 1, \"gpus\": 8, "
    "\"throughput\": 99}]},\n"
    "  {\"model\": \"P\", \"framework\": \"FwP\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
    "   \"unit\": \"images/s\", \"rows\": [{\"nodes\": 1, \"gpus\": 8, \"state\": \"TODO\"}]}\n"
    " ]}\n";

/* A measured record of H on the V100, in run folder run (one run set),
 * started on date. */
static void put_record(const char *dir, const char *run, const char *fw, const char *precision,
                       int gpus, double value, const char *date)
{
    char *name = pr_xasprintf("%s_%s_%d", fw, precision, gpus);
    char *rec = pr_xasprintf(
        "{\"log_file\": \"logs/train_log/%s\", \"model_name\": \"m\", \"mission_name\": \"x\",\n"
        " \"direction_id\": 0, \"run_mode\": \"%s\", \"index\": 1, \"gpu_num\": %d,\n"
        " \"FINAL_RESULT\": %g, \"JOB_FAIL_FLAG\": 0, \"UNIT\": \"images/s\", \"perfrepro\": 1,\n"
        " \"model\": \"H\", \"framework\": \"%s\", \"case\": \"%s\", \"precision\": \"%s\",\n"
        " \"batch_size\": 64, \"nodes\": 1, \"gpus_per_node\": %d, \"repeat\": 1,\n"
        " \"origin\": \"measured\", \"logs\": [], \"command\": [], \"platform\": \"V100-x8\",\n"
        " \"started_at\": \"%sT10:00:00Z\"}\n",
        name, gpus > 1 ? "mp" : "sp", gpus, value, fw, name, precision, gpus, date);
    char *rel = pr_xasprintf("runs/%s/logs/index/%s_speed", run, name);
    char *log = pr_xasprintf("runs/%s/logs/train_log/%s", run, name);
    put(dir, rel, rec);
    put(dir, log, "ips: 1\n");
    free(log);
    free(rel);
    free(rec);
    free(name);
}

/* The data above; H declares (declare) its TODO-only V100 FP32 BS=32. */
static char *headline_data(int declare)
{
    char *d = tmpdir();
    put(d, "platforms/V100-x8.json", v100);
    put(d, "platforms/A100-x8.json", a100);
    put(d, "precision-classes.json", classes);
    if (declare)
        put(d, "models/H.json",
            "{\"perfrepro\": 1, \"headline\": {\"platform\": \"V100-x8\", \"precision_class\": "
            "\"fp32\", \"batch_size\": 32, \"gpus\": 8}}\n");
    put(d, "published/src.json", published);
    put_record(d, "ra", "FwA", "amp", 1, 100, "2024-03-05");
    put_record(d, "ra", "FwA", "amp", 8, 760, "2024-03-06");
    put_record(d, "rb", "FwB", "fp16", 8, 640, "2024-04-01");
    return d;
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

static const rmodel_model *model_of(const rmodel_world *w, const char *id)
{
    for (size_t i = 0; i < w->nmodels; i++)
        if (strcmp(w->models[i]->id, id) == 0)
            return w->models[i];
    cr_assert_fail("no model %s", id);
    return NULL;
}

Test(headline_rule, reproductions_over_published_and_never_an_empty_declaration)
{
    for (int declare = 0; declare < 2; declare++) {
        char *d = headline_data(declare);
        pr_dataset *ds = NULL;
        pr_err err;
        cr_assert(data_load(d, &ds, &err) == 0, "%s", err.msg);
        rmodel_world *w = rmodel_build(ds, "/tmp/perfrepro-headline-out");
        compare_headline h;
        compare_headline_of(w, model_of(w, "H"), &h);
        cr_assert(h.mc, "H has figures: a headline");
        /* The V100's reproduced mixed-precision figures, not the A100's
         * published FP32 ones, nor the declared TODO-only table. */
        cr_expect_str_eq(h.mc->cfg.platform->id, "V100-x8");
        cr_expect_str_eq(h.mc->cfg.klass->id, "mixed");
        cr_expect_eq(h.gpus, 8);
        cr_expect_null(h.decl, "the declared configuration has no figures: the rule chose");
        cr_expect_eq(h.declared != NULL, declare);
        compare_headline_of(w, model_of(w, "Q"), &h);
        cr_expect(h.mc && strcmp(h.mc->cfg.platform->id, "A100-x8") == 0 && h.gpus == 8);
        compare_headline_of(w, model_of(w, "P"), &h);
        cr_expect_null(h.mc, "P has no figure: no headline");
        rmodel_free(w);
        data_free(ds);
        rm_rf(d);
        free(d);
    }
}

Test(headline_rule, a_declared_configuration_with_figures_is_kept)
{
    char *d = headline_data(0);
    put(d, "models/H.json",
        "{\"perfrepro\": 1, \"headline\": {\"platform\": \"A100-x8\", \"precision_class\": "
        "\"fp32\", \"batch_size\": 64, \"gpus\": 8}}\n");
    pr_dataset *ds = NULL;
    pr_err err;
    cr_assert(data_load(d, &ds, &err) == 0, "%s", err.msg);
    rmodel_world *w = rmodel_build(ds, "/tmp/perfrepro-headline-out");
    const pr_model_decl *decl = NULL;
    const rmodel_mcfg *mc = compare_headline_cfg(w, model_of(w, "H"), &decl);
    cr_assert(mc && decl);
    cr_expect_str_eq(mc->cfg.platform->id, "A100-x8");
    rmodel_free(w);
    data_free(ds);
    rm_rf(d);
    free(d);
}

Test(flag_pass, flags_the_figure_each_cell_stands_for)
{
    char *d = headline_data(0);
    pr_dataset *ds = NULL;
    pr_err err;
    cr_assert(data_load(d, &ds, &err) == 0, "%s", err.msg);
    rmodel_world *w = rmodel_build(ds, "/tmp/perfrepro-headline-out");
    const rmodel_fw *b = rmodel_find_fw(w, "H", "FwB"), *a = rmodel_find_fw(w, "H", "FwA");
    cr_assert(a && b);
    size_t flagged = 0;
    for (size_t i = 0; i < b->ncfgs; i++)
        for (size_t r = 0; r < b->cfgs[i].ncells; r++) {
            const rmodel_cell *rc = &b->cfgs[i].cells[r];
            int superlinear = rc->origin == RM_PUBLISHED && rc->gpus == 8;
            cr_expect_eq(rc->flagged, superlinear, "FwB %d GPUs", rc->gpus);
            flagged += rc->flagged;
        }
    cr_expect_eq(flagged, 1);
    for (size_t i = 0; i < a->ncfgs; i++)
        for (size_t r = 0; r < a->cfgs[i].ncells; r++)
            cr_expect_eq(a->cfgs[i].cells[r].flagged, 0);
    rmodel_free(w);
    data_free(ds);
    rm_rf(d);
    free(d);
}

Test(index_page, headline_with_flags_dates_platform_and_planned_apart)
{
    char *d = headline_data(1);
    json_t *pages = gt_render(d, "/tmp/perfrepro-headline-out", 0);
    const char *p = gt_page(pages, "README.md");
    char *h = line_of(p, "- [H](H/README.md)：");
    cr_expect(strstr(h, "混合精度 BS=64 · V100 × 8，1机8卡（按规则选出；`data/models/H.json` "
                        "声明的配置没有数字）"),
              "%s", h);
    char *fa = line_of(p, "| [H](H/README.md) | [FwA](H/FwA/README.md) |");
    cr_expect(strstr(fa, "760.00") && strstr(fa, "| 2024-03-05 – 2024-03-06 |"), "%s", fa);
    cr_expect(!strstr(fa, "TODO") && !strstr(fa, "❗"), "%s", fa);
    char *fb = line_of(p, "| [H](H/README.md) | [FwB](H/FwB/README.md) |");
    cr_expect(strstr(fb, "640.00") && strstr(fb, "| 2024-04-01 |"), "%s", fb);
    /* Q's published 8-GPU figure is flagged: its mark and footnote, and
     * its source's date. */
    char *q = line_of(p, "| [Q](Q/README.md) | [FwA](Q/FwA/README.md) |");
    cr_expect(strstr(q, "99† images/s ❗a |") && strstr(q, "| 2020-09 |"), "%s", q);
    char *note = line_of(p, "- ❗a Q · FwA: ");
    cr_expect(strstr(note, "123.8%"), "%s", note);
    /* P has no figure: planned, with its framework, and no row. */
    cr_expect(strstr(p, "### 计划中（尚无数字）"), "%s", p);
    char *pl = line_of(p, "- [P](P/README.md)：[FwP](P/FwP/README.md)");
    cr_expect(!strstr(p, "| [P](P/README.md) |"), "%s", p);
    const char *en = gt_page(pages, "README.en.md");
    char *hen = line_of(en, "- [H](H/README.en.md): ");
    cr_expect(strstr(hen, "Mixed precision BS=64 · V100 x 8, 1 node × 8 GPUs (chosen by the rule"),
              "%s", hen);
    free(hen);
    free(pl);
    free(note);
    free(q);
    free(fb);
    free(fa);
    free(h);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

Test(model_page, flags_as_the_flag_pass_decides_and_planned_tables_as_a_list)
{
    char *d = headline_data(1);
    json_t *pages = gt_render(d, "/tmp/perfrepro-headline-out", 0);
    const char *p = gt_page(pages, "H/README.md");
    /* FwB's 500 is flagged in the A100 table, FwA's 420 is not. */
    char *row = line_of(p, "| 1 | 8 | 420† | 500† ❗a |");
    cr_expect(strstr(p, "- ❗a FwB: "), "%s", p);
    /* The alternative keeps its flag below the table, lettered on. */
    cr_expect(strstr(p, "1机8卡 520† ❗b"), "%s", p);
    cr_expect(strstr(p, "- ❗b FwB: 1机8卡：扩展效率 130.0%"), "%s", p);
    /* The V100 (the headline's) first; its TODO-only table is a planned
     * list, not a table of TODO. */
    const char *v = strstr(p, "### V100 × 8"), *a = strstr(p, "### A100 × 8");
    cr_expect(v && a && v < a, "%s", p);
    cr_expect(!strstr(p, "| TODO |"), "%s", p);
    char *planned = line_of(p, "- FP32 BS=32——[FwA](FwA/README.md)：1机1卡，1机8卡");
    free(planned);
    free(row);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

/* Model R, from a source whose logs are imported (org/logs): FwR's log
 * gives its printed 300; FwS's gives 190 where the source printed 200.
 * FwR's run folder names its importer in SOURCE.md, FwS's has none. */
static char *audit_data(void)
{
    char *d = tmpdir();
    put(d, "platforms/V100-x8.json", v100);
    put(d, "precision-classes.json", classes);
    put(d, "published/org.json",
        "{\"perfrepro\": 1, \"label\": \"Org\",\n"
        " \"source\": {\"title\": \"Org README\", \"repo\": \"org/logs\", \"url\": "
        "\"https://example.com/org\"},\n"
        " \"platform\": \"V100-x8\", \"tables\": [\n"
        "  {\"model\": \"R\", \"framework\": \"FwR\", \"precision\": \"fp32\", \"batch_size\": "
        "64,\n"
        "   \"unit\": \"images/s\", \"rows\": [{\"nodes\": 1, \"gpus\": 8, \"throughput\": "
        "300}]},\n"
        "  {\"model\": \"R\", \"framework\": \"FwS\", \"precision\": \"fp32\", \"batch_size\": "
        "64,\n"
        "   \"unit\": \"images/s\", \"rows\": [{\"nodes\": 1, \"gpus\": 8, \"throughput\": "
        "200}]}]}\n");
    static const char *const fws[] = {"FwR", "FwS"};
    static const double vals[] = {300, 190};
    for (int i = 0; i < 2; i++) {
        char *rec = pr_xasprintf(
            "{\"log_file\": \"logs/train_log/%s\", \"model_name\": \"m\", \"mission_name\": "
            "\"x\",\n"
            " \"direction_id\": 0, \"run_mode\": \"mp\", \"index\": 1, \"gpu_num\": 8,\n"
            " \"FINAL_RESULT\": %g, \"JOB_FAIL_FLAG\": 0, \"UNIT\": \"images/s\", \"perfrepro\": "
            "1,\n"
            " \"model\": \"R\", \"framework\": \"%s\", \"case\": \"%s\", \"precision\": \"fp32\",\n"
            " \"batch_size\": 64, \"nodes\": 1, \"gpus_per_node\": 8, \"repeat\": 1,\n"
            " \"origin\": \"parsed\", \"logs\": [], \"command\": [], \"platform\": \"V100-x8\",\n"
            " \"source\": {\"repo\": \"org/logs\", \"commit\": \"abcdef1\", \"path\": \"l/%s\",\n"
            "            \"url\": \"https://example.com/org/l\"}}\n",
            fws[i], vals[i], fws[i], fws[i], fws[i]);
        char *rel = pr_xasprintf("runs/run-%s/logs/index/%s_speed", fws[i], fws[i]);
        char *log = pr_xasprintf("runs/run-%s/logs/train_log/%s", fws[i], fws[i]);
        put(d, rel, rec);
        put(d, log, "ips: 1\n");
        free(log);
        free(rel);
        free(rec);
    }
    put(d, "runs/run-FwR/SOURCE.md",
        "# run-FwR\n\nLogs of org/logs, parsed by\n`scripts/import-org.sh` (`perfrepro-measure "
        "parse`).\n");
    return d;
}

Test(audit_page, names_each_run_sets_importer_or_says_none_does)
{
    char *d = audit_data();
    json_t *pages = gt_render(d, "/tmp/perfrepro-headline-out", 0);
    const char *a = gt_page(pages, "AUDIT.md");
    cr_expect(strstr(a, "由 `scripts/import-org.sh` "
                        "导入：`run-FwR`；运行组的文件没有写明由什么导入：`run-FwS`"),
              "%s", a);
    cr_expect(!strstr(a, "import-perf-logs"), "%s", a);
    const char *en = gt_page(pages, "AUDIT.en.md");
    cr_expect(strstr(en,
                     "imported by `scripts/import-org.sh`: `run-FwR`; whose files do not say what "
                     "imported them: `run-FwS`"),
              "%s", en);
    /* FwS's figure has its own heading; the model page's cell links to it
     * with both figures. */
    cr_expect(strstr(a, "#### ❌ R · FwS · FP32 BS=64 · 1机8卡 · V100 × 8\n"), "%s", a);
    const char *m = gt_page(pages, "R/README.md");
    cr_expect(strstr(m, "‡](") &&
                  strstr(m, "（Org 印为 200†，差 "
                            "-5.00%，[见审计](../AUDIT.md#-r--fws--fp32-bs64--1机8卡--v100--8)）"),
              "%s", m);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

/* Every audited figure has an anchor on the audit page, and the model and
 * framework pages link each figure's verdict to it (issue 24): FwR's
 * reproduced 300, FwS's 190 against a printed 200. */
Test(audit_page, every_figure_is_anchored_and_its_pages_link_its_verdict)
{
    char *d = audit_data();
    json_t *pages = gt_render(d, "/tmp/perfrepro-headline-out", 0);
    const char *a = gt_page(pages, "AUDIT.md"), *ae = gt_page(pages, "AUDIT.en.md");
    cr_expect(strstr(a, "| <a id=\"fig-r-fwr-v100-x8-fp32-bs64-1x8\"></a>FwR | FP32 BS=64 |"), "%s",
              a);
    cr_expect(strstr(a, "| <a id=\"fig-r-fws-v100-x8-fp32-bs64-1x8\"></a>FwS | FP32 BS=64 |"), "%s",
              a);
    cr_expect(strstr(ae, "| <a id=\"fig-r-fwr-v100-x8-fp32-bs64-1x8\"></a>FwR |"), "%s", ae);
    static const char *const ok = " [✅](%sAUDIT%s.md#fig-r-fwr-v100-x8-fp32-bs64-1x8 \"%s\")";
    static const char *const bad = " [❌](%sAUDIT%s.md#fig-r-fws-v100-x8-fp32-bs64-1x8 \"%s\")";
    struct {
        const char *page, *up, *lang, *ok_title, *bad_title;
        int n_ok, n_bad;
    } want[] = {
        /* The model page: FwR's cell; FwS's cell says more (its ❌
         * heading), the other figures' list links both printed figures. */
        {"R/README.md", "../", "", "审计：复现", "审计：与日志不符", 2, 1},
        {"R/README.en.md", "../", ".en", "audit: reproduced", "audit: differs from its log", 2, 1},
        /* A machine's page of a framework (fw_split.h): the summary's ‡, the
         * reproduction table's † and the published table's †. */
        {"R/FwR/PLATFORM-v100-x8.md", "../../", "", "审计：复现", NULL, 3, 0},
        {"R/FwS/PLATFORM-v100-x8.en.md", "../../", ".en", NULL, "audit: differs from its log", 0,
         3},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const char *p = gt_page(pages, want[i].page);
        for (int k = 0; k < 2; k++) {
            const char *title = k ? want[i].bad_title : want[i].ok_title;
            int n = 0, expected = k ? want[i].n_bad : want[i].n_ok;
            char *link = pr_xasprintf(k ? bad : ok, want[i].up, want[i].lang, title ? title : "");
            for (const char *s = p; (s = strstr(s, link)) != NULL; s++)
                n++;
            cr_expect_eq(n, expected, "%s: %d links %s, expected %d:\n%s", want[i].page, n, link,
                         expected, p);
            free(link);
        }
    }
    /* The legend says what the marks are, linking the audit. */
    cr_expect(strstr(gt_page(pages, "R/FwR/README.md"),
                     "数字后的 ✅ / ✂️ / ❌ / ∅ 是[审计](../../AUDIT.md)"));
    cr_expect(strstr(gt_page(pages, "R/README.en.md"), "is the [audit](../AUDIT.en.md)'s verdict"));
    json_decref(pages);
    rm_rf(d);
    free(d);
}
