/* Like with like (issue 30, item 2): under a cross-framework table, each
 * column's estimator in words and the configuration facts its logs state
 * (precision mode and AMP level, memory format, data loader, loss scaling),
 * each linked to its line; a ranking only where every fact and the
 * estimator agree, otherwise the facts that differ and no ranking. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gentest.h"
#include "testutil.h"

static const char v100[] =
    "{\"perfrepro\": 1, \"title\": {\"zh\": \"V100 × 8\", \"en\": \"V100 x 8\"},\n"
    " \"device\": {\"kind\": \"gpu\", \"model\": \"Tesla V100-SXM2-32GB\", \"memory_gb\": 32,\n"
    "            \"per_node\": 8}, \"match\": [\"V100-SXM2-32GB\"]}\n";
static const char classes[] =
    "{\"perfrepro\": 1, \"classes\": [\n"
    " {\"id\": \"fp32\", \"title\": {\"zh\": \"FP32\", \"en\": \"FP32\"}, \"modes\": [\"fp32\"]},\n"
    " {\"id\": \"tf32\", \"title\": {\"zh\": \"TF32\", \"en\": \"TF32\"}, \"modes\": [\"tf32\"]},\n"
    " {\"id\": \"mixed\", \"title\": {\"zh\": \"混合精度\", \"en\": \"Mixed precision\"},\n"
    "  \"modes\": [\"amp\", \"fp16\", \"bf16\"]},\n"
    " {\"id\": \"fp8\", \"title\": {\"zh\": \"FP8\", \"en\": \"FP8\"}, \"modes\": [\"fp8\"]}]}\n";

/* A parsed AMP record of model M by fw on 8 GPUs: value, its rule's skip
 * and reducer, and its log's memory format and loss scale (facts at lines
 * 3 and 4). */
static void put_record_loader(const char *dir, const char *fw, double value, int skip,
                              const char *reduce, const char *layout, const char *scale,
                              const char *loader)
{
    char *name = pr_xasprintf("%s_amp_8", fw);
    char *rec = pr_xasprintf(
        "{\"log_file\": \"logs/train_log/%s\", \"model_name\": \"m\", \"mission_name\": \"x\",\n"
        " \"direction_id\": 0, \"run_mode\": \"mp\", \"index\": 1, \"gpu_num\": 8,\n"
        " \"FINAL_RESULT\": %g, \"JOB_FAIL_FLAG\": 0, \"UNIT\": \"images/s\", \"perfrepro\": 1,\n"
        " \"model\": \"M\", \"framework\": \"%s\", \"case\": \"%s\", \"precision\": \"amp\",\n"
        " \"batch_size\": 256, \"nodes\": 1, \"gpus_per_node\": 8, \"repeat\": 1,\n"
        " \"origin\": \"measured\", \"logs\": [], \"command\": [], \"platform\": \"V100-x8\",\n"
        " \"started_at\": \"2024-03-05T10:00:00Z\",\n"
        " \"rule\": {\"keyword\": \"ips:\", \"skip\": %d, \"reduce\": \"%s\"},\n"
        " \"log_facts\": [{\"key\": \"args.format\", \"value\": \"argparse\", \"line\": 1},\n"
        "  {\"key\": \"arg.amp\", \"value\": \"True\", \"line\": 2},\n"
        "  {\"key\": \"arg.memory_format\", \"value\": \"%s\", \"line\": 3},\n"
        "  {\"key\": \"arg.static_loss_scale\", \"value\": \"%s\", \"line\": 4},\n"
        "  {\"key\": \"arg.data_backend\", \"value\": \"%s\", \"line\": 5}]}\n",
        name, value, fw, name, skip, reduce, layout, scale, loader);
    char *rel = pr_xasprintf("runs/%s/logs/index/%s_speed", fw, name);
    char *log = pr_xasprintf("runs/%s/logs/train_log/%s", fw, name);
    put(dir, rel, rec);
    put(dir, log, "args\n--amp\n--memory-format\n--static-loss-scale\n--data-backend\nips: 1\n");
    free(log);
    free(rel);
    free(rec);
    free(name);
}

static void put_record(const char *dir, const char *fw, double value, int skip, const char *reduce,
                       const char *layout, const char *scale)
{
    put_record_loader(dir, fw, value, skip, reduce, layout, scale, "dali-cpu");
}

static char *data(const char *b_layout, int b_skip)
{
    char *d = tmpdir();
    put(d, "platforms/V100-x8.json", v100);
    put(d, "precision-classes.json", classes);
    put_record(d, "FwA", 5000, 9, "mean", "nchw", "256.0");
    put_record(d, "FwB", 6000, b_skip, "mean", b_layout, "256");
    return d;
}

Test(likewise, alike_columns_are_ranked)
{
    char *d = data("NCHW", 9);
    json_t *pages = gt_render(d, "/tmp/perfrepro-likewise-out", 0);
    const char *p = gt_page(pages, "M/README.en.md");
    cr_expect(strstr(p, "| Fact | FwA (AMP) | FwB (AMP) |\n"), "%s", p);
    cr_expect(strstr(p, "| estimator | the mean of records 10 to the end | "
                        "the mean of records 10 to the end |\n"),
              "%s", p);
    const char *mf = strstr(p, "| memory format | NCHW ([`FwA_amp_8` L3](");
    cr_expect(mf && strstr(mf, ")) | NCHW ([`FwB_amp_8` L3]("), "%s", p);
    cr_expect(strstr(p, "- Like with like: at 1 node × 8 GPUs, FwB (AMP) (6000.00) is ×1.20 FwA "
                        "(AMP) (5000.00).\n"),
              "%s", p);
    cr_expect(!strstr(p, "No ranking"), "%s", p);
    const char *z = gt_page(pages, "M/README.md");
    cr_expect(strstr(z, "| 估计方法 | 第 10 条记录至末尾的均值 | 第 10 条记录至末尾的均值 |\n"),
              "%s", z);
    cr_expect(
        strstr(z, "- 同条件：1机8卡 时，FwB（AMP）（6000.00）是 FwA（AMP）（5000.00）的 ×1.20。\n"),
        "%s", z);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

Test(likewise, a_differing_fact_or_estimator_stops_the_ranking)
{
    char *d = data("NHWC", 10);
    json_t *pages = gt_render(d, "/tmp/perfrepro-likewise-out", 0);
    const char *p = gt_page(pages, "M/README.en.md");
    cr_expect(strstr(p, "| estimator | the mean of records 10 to the end | the mean of records 11 "
                        "to the end |"),
              "%s", p);
    /* Each value linked to the line of its log that printed it. */
    const char *dif = strstr(p, "| memory format | NCHW ([`FwA_amp_8` L3](");
    cr_expect(dif &&
                  strstr(dif, "/runs/FwA/logs/train_log/FwA_amp_8#L3)) | NHWC ([`FwB_amp_8` L3]("),
              "%s", p);
    cr_expect(
        strstr(p,
               "- No ranking: the columns differ in, or do not state, memory format, estimator;"),
        "%s", p);
    cr_expect(!strstr(p, "Like with like: at"), "%s", p);
    const char *z = gt_page(pages, "M/README.md");
    cr_expect(strstr(z, "- 不排名：各列在内存格式，估计方法上不同或未说明"), "%s", z);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

/* A data loader as printed, near a log's longest value (167 three-byte
 * characters) with Markdown's characters: shown whole, as code (in any
 * language, the page's language check leaves it be). */
Test(likewise, a_hostile_fact_is_shown_whole_and_escaped)
{
    char *d = tmpdir();
    put(d, "platforms/V100-x8.json", v100);
    put(d, "precision-classes.json", classes);
    pr_buf loader = PR_BUF_INIT;
    pr_buf_puts(&loader, "*[x](y)|`");
    for (int i = 0; i < 167; i++)
        pr_buf_puts(&loader, "界");
    put_record_loader(d, "FwA", 5000, 9, "mean", "nchw", "256", pr_buf_cstr(&loader));
    put_record(d, "FwB", 6000, 9, "mean", "nchw", "256");
    json_t *pages = gt_render(d, "/tmp/perfrepro-likewise-out", 0);
    const char *p = gt_page(pages, "M/README.en.md");
    /* In a table cell: the '|' escaped, inside the code span too. */
    cr_expect(strstr(p, "| data loader | ``*[x](y)\\|`界界"), "%s", p);
    cr_expect(strstr(p, "界界界`` ([`FwA_amp_8` L5]("), "%s", p);
    cr_expect(strstr(p, "- No ranking: the columns differ in, or do not state, data loader;"), "%s",
              p);
    pr_buf_free(&loader);
    json_decref(pages);
    rm_rf(d);
    free(d);
}
