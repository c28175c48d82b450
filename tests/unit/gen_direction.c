/* Direction is part of a unit (issue 33): a framework whose unit is a time
 * (MLPerf's "min") ranks its headline by the lowest figure, computes t1/tn,
 * refuses a speedup across global batches, and the pages say "lower is
 * better" and never draw a time per GPU; a throughput is unchanged. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "2-model/rmodel.h"
#include "3-tables/fw_pubtab.h"
#include "3-tables/fw_tables.h"
#include "gentest.h"
#include "testutil.h"

static const char toy[] =
    "{\"perfrepro\": 1, \"title\": {\"zh\": \"Toy × 8\", \"en\": \"Toy x 8\"},\n"
    " \"device\": {\"kind\": \"gpu\", \"model\": \"Toy GPU\", \"memory_gb\": 16, \"per_node\": "
    "8}}\n";
static const char classes[] =
    "{\"perfrepro\": 1, \"classes\": [\n"
    " {\"id\": \"fp32\", \"title\": {\"zh\": \"FP32\", \"en\": \"FP32\"}, \"modes\": [\"fp32\"]},\n"
    " {\"id\": \"tf32\", \"title\": {\"zh\": \"TF32\", \"en\": \"TF32\"}, \"modes\": [\"tf32\"]},\n"
    " {\"id\": \"mixed\", \"title\": {\"zh\": \"混合精度\", \"en\": \"Mixed precision\"},\n"
    "  \"modes\": [\"amp\", \"fp16\", \"bf16\"]},\n"
    " {\"id\": \"fp8\", \"title\": {\"zh\": \"FP8\", \"en\": \"FP8\"}, \"modes\": [\"fp8\"]}]}\n";

/* Model T, framework Fw in unit (two batch sizes, 1 and 8 GPUs). */
static char *data_in(const char *unit)
{
    char *d = tmpdir();
    put(d, "platforms/Toy-x8.json", toy);
    put(d, "precision-classes.json", classes);
    char *pub = pr_xasprintf(
        "{\"perfrepro\": 1, \"label\": \"Src\", \"platform\": \"Toy-x8\",\n"
        " \"source\": {\"title\": \"README\", \"url\": \"https://example.com/r\"}, \"tables\": [\n"
        "  {\"model\": \"T\", \"framework\": \"Fw\", \"precision\": \"fp32\", \"batch_size\": 64,\n"
        "   \"unit\": \"%s\", \"rows\": [{\"nodes\": 1, \"gpus\": 1, \"throughput\": 40},\n"
        "                            {\"nodes\": 1, \"gpus\": 8, \"throughput\": 5}]},\n"
        "  {\"model\": \"T\", \"framework\": \"Fw\", \"precision\": \"fp32\", \"batch_size\": 32,\n"
        "   \"unit\": \"%s\", \"rows\": [{\"nodes\": 1, \"gpus\": 1, \"throughput\": 50},\n"
        "                            {\"nodes\": 1, \"gpus\": 8, \"throughput\": 7}]},\n"
        "  {\"model\": \"T\", \"framework\": \"Fw2\", \"precision\": \"fp32\", \"batch_size\": "
        "64,\n"
        "   \"unit\": \"%s\", \"rows\": [{\"nodes\": 1, \"gpus\": 1, \"throughput\": 44},\n"
        "                            {\"nodes\": 1, \"gpus\": 8, \"throughput\": 6}]}]}\n",
        unit, unit, unit);
    put(d, "published/src.json", pub);
    free(pub);
    return d;
}

static const rmodel_fw *the_fw(const rmodel_world *w)
{
    const rmodel_fw *f = rmodel_find_fw(w, "T", "Fw");
    cr_assert(f, "no T/Fw");
    return f;
}

Test(direction, headline_is_the_lowest_time)
{
    const char *units[] = {"min", "samples/s"};
    double want[] = {5, 7};
    for (int k = 0; k < 2; k++) {
        char *d = data_in(units[k]);
        pr_dataset *ds = NULL;
        pr_err err;
        cr_assert(data_load(d, &ds, &err) == 0, "%s", err.msg);
        rmodel_world *w = rmodel_build(ds, "/tmp/perfrepro-direction-out");
        const rmodel_fw *f = the_fw(w);
        cr_expect_eq(f->dir, k == 0 ? PR_DIR_LOWER : PR_DIR_HIGHER);
        cr_expect_eq(f->head_value, want[k], "%s: headline %g", units[k], f->head_value);
        rmodel_free(w);
        data_free(ds);
        rm_rf(d);
        free(d);
    }
}

Test(direction, speedup_t1_over_tn_and_only_at_one_global_batch)
{
    rmodel_fw f;
    memset(&f, 0, sizeof f);
    f.dir = PR_DIR_LOWER;
    double eff;
    /* 40 min at 1 GPU, 5 at 8: ×8, 100 %. */
    cr_expect_float_eq(fw_tables_pub_speedup(PR_DIR_LOWER, 5, 40, 1, 8, &eff), 8.0, 1e-12);
    cr_expect_float_eq(eff, 100.0, 1e-9);
    cr_expect_float_eq(fw_tables_pub_speedup(PR_DIR_HIGHER, 800, 100, 1, 8, &eff), 8.0, 1e-12);
    /* Against 8 GPUs (no 1-GPU run): 1000 -> 1900 at 16 is x1.90, 95 %. */
    cr_expect_float_eq(fw_tables_pub_speedup(PR_DIR_HIGHER, 1900, 1000, 8, 16, &eff), 1.9, 1e-12);
    cr_expect_float_eq(eff, 95.0, 1e-9);
    /* A time: only at one global batch, and a batch not known blocks. */
    cr_expect(!fw_tables_batch_blocks(&f, 512, 512));
    cr_expect(fw_tables_batch_blocks(&f, 512, 64));
    cr_expect(fw_tables_batch_blocks(&f, -1, 64));
    /* A rate per sample: any batch. */
    f.dir = PR_DIR_HIGHER;
    cr_expect(!fw_tables_batch_blocks(&f, 512, 64));
    f.dir = PR_DIR_UNKNOWN;
    cr_expect(!fw_tables_batch_blocks(&f, 512, 64));
}

Test(direction, published_time_rows_show_both_figures_not_a_speedup)
{
    char *d = data_in("min");
    json_t *pages = gt_render(d, "/tmp/perfrepro-direction-out", 1);
    const char *en = gt_page(pages, "T/Fw/README.en.md");
    const char *zh = gt_page(pages, "T/Fw/README.md");
    cr_expect(strstr(en, "40 → 5²"), "both figures:\n%s", en);
    /* The summary's headline: the lowest time at 8 GPUs (BS=64's 5), in
     * the machine's own table. */
    cr_expect(strstr(en, "**Toy x 8**\n\n| Configuration | min, lower is better | GPUs |\n") &&
                  strstr(en, "| FP32 BS=64 | 5† | 8 |"),
              "summary headline:\n%s", en);
    cr_expect(!strstr(en, "×0.13"), "a speedup below 1 for a faster time");
    cr_expect(strstr(en, "No speedup or efficiency for a time whose global batch differs"));
    cr_expect(strstr(zh, "全局批大小与基线不同"));
    cr_expect(strstr(en, "Times (lower is better): speedup = the 1-node 1-GPU time ÷ this time"));
    cr_expect(strstr(zh, "加速比 = 1 机 1 卡时间 ÷ 本行时间"));
    /* Charts of the model page: totals, axes saying lower is better. */
    const char *model = gt_page(pages, "T/README.en.md");
    cr_expect(!strstr(model, "Throughput per GPU"), "a time per GPU:\n%s", model);
    cr_expect(strstr(model, "Y axis: Time (min, lower is better)"),
              "no axis says lower is better:\n%s", model);
    cr_expect(strstr(model, "Training time (min, lower is better) of each framework"),
              "the unit without its direction");
    json_decref(pages);
    rm_rf(d);
    free(d);
}

Test(direction, unknown_unit_is_said)
{
    char *d = data_in("furlongs/fortnight");
    json_t *pages = gt_render(d, "/tmp/perfrepro-direction-out", 0);
    const char *en = gt_page(pages, "T/Fw/README.en.md");
    cr_expect(strstr(en, "direction unknown"), "the page does not say:\n%s", en);
    json_decref(pages);
    rm_rf(d);
    free(d);
}
