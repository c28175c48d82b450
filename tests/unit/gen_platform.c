/* Platforms: every published table names the machine of its figures (or says
 * its source does not), platforms are described once in data/platforms/, and
 * a measured run finds its platform from its environment record. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "1-load/platform.h"
#include "testutil.h"

static const char v100[] =
    "{\"perfrepro\": 1, \"title\": {\"zh\": \"V100 × 8\", \"en\": \"V100 x 8\"},\n"
    " \"device\": {\"kind\": \"gpu\", \"model\": \"Tesla V100-SXM2-16GB\", \"memory_gb\": 16,\n"
    "            \"per_node\": 8},\n"
    " \"interconnect\": \"NVLink\", \"match\": [\"V100-SXM2-16GB\"]}\n";

/* A published file whose table carries `platform_json` (e.g. "\"platform\":
 * \"X\", " or ""). */
static char *published(const char *file_platform, const char *table_platform)
{
    return pr_xasprintf("{\"perfrepro\": 1, \"label\": \"L\", \"source\": {\"title\": \"t\"},%s\n"
                        " \"tables\": [{\"model\": \"M\", \"framework\": \"F\", %s\n"
                        "   \"precision\": \"fp32\", \"batch_size\": 8, \"unit\": \"images/s\",\n"
                        "   \"rows\": [{\"nodes\": 1, \"gpus\": 1, \"throughput\": 100}]}]}\n",
                        file_platform, table_platform);
}

/* Loads dir: the error message, or NULL when it loaded (then *out is set
 * when out is not NULL; the caller frees it). */
static const char *load(const char *dir, pr_dataset **out)
{
    static pr_err err;
    pr_dataset *d = NULL;
    if (data_load(dir, &d, &err) < 0)
        return err.msg;
    if (out)
        *out = d;
    else
        data_free(d);
    return NULL;
}

Test(platform, a_published_table_without_a_platform_is_an_error)
{
    char *dir = tmpdir();
    char *pub = published("", "");
    put(dir, "published/p.json", pub);
    const char *e = load(dir, NULL);
    cr_assert(e, "a table without a platform loaded");
    cr_expect(strstr(e, "published/p.json:2:"), "no file and line: %s", e);
    cr_expect(strstr(e, "tables[0]") && strstr(e, "platform") && strstr(e, "unstated"),
              "the error does not say what to add: %s", e);
    free(pub);
    rm_rf(dir);
    free(dir);
}

Test(platform, an_unknown_platform_names_the_known_ones)
{
    char *dir = tmpdir();
    put(dir, "platforms/V100-x8.json", v100);
    char *pub = published("", "\"platform\": \"V100-16\",");
    put(dir, "published/p.json", pub);
    const char *e = load(dir, NULL);
    cr_assert(e, "an unknown platform loaded");
    cr_expect(strstr(e, "tables[0].platform") && strstr(e, "V100-16") && strstr(e, "V100-x8"), "%s",
              e);
    free(pub);
    rm_rf(dir);
    free(dir);
}

Test(platform, file_level_table_level_and_unstated)
{
    char *dir = tmpdir();
    put(dir, "platforms/V100-x8.json", v100);
    char *a = published(" \"platform\": \"V100-x8\",", "");
    char *b =
        published(" \"platform\": \"V100-x8\",", "\"platform\": \"unstated\", \"variant\": \"b\",");
    put(dir, "published/a.json", a);
    put(dir, "published/b.json", b);
    pr_dataset *d = NULL;
    const char *e = load(dir, &d);
    cr_assert(!e, "%s", e);
    cr_assert_eq(d->npubs, 2);
    cr_assert_eq(d->platforms.n, 1);
    const pr_platform *p = &d->platforms.v[0];
    cr_expect_str_eq(p->id, "V100-x8");
    cr_expect_str_eq(p->device, "Tesla V100-SXM2-16GB");
    cr_expect_eq(p->per_node, 8);
    cr_expect(fabs(p->memory_gb - 16) < 1e-9);
    cr_expect_eq(d->pubs[0].platform, p, "the file's platform is the table's");
    cr_expect_null(d->pubs[1].platform, "\"unstated\" is no platform");
    data_free(d);
    free(a);
    free(b);
    rm_rf(dir);
    free(dir);
}

Test(platform, bad_platform_files)
{
    static const struct {
        const char *name, *text, *want;
    } cases[] = {
        {"platforms/unstated.json", v100, "cannot be a platform id"},
        {"platforms/p.json",
         "{\"perfrepro\": 1, \"title\": {\"zh\": \"a\", \"en\": \"b\"},"
         " \"device\": {\"kind\": \"tpu\", \"model\": \"x\"}}\n",
         "device.kind"},
        {"platforms/p.json",
         "{\"perfrepro\": 1, \"title\": {\"zh\": \"a\"},"
         " \"device\": {\"kind\": \"gpu\", \"model\": \"x\"}}\n",
         "title.en"},
        {"platforms/p.json",
         "{\"perfrepro\": 1, \"title\": {\"zh\": \"a\", \"en\": \"b\"},"
         " \"device\": {\"kind\": \"gpu\", \"model\": \"x\", \"memroy_gb\": 1}}\n",
         "memory_gb"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *dir = tmpdir();
        put(dir, cases[i].name, cases[i].text);
        const char *e = load(dir, NULL);
        cr_expect(e && strstr(e, cases[i].want), "case %zu: %s", i, e ? e : "(loaded)");
        rm_rf(dir);
        free(dir);
    }
    /* Two platforms for one device: a run could not tell which is its. */
    char *dir = tmpdir();
    put(dir, "platforms/a.json", v100);
    put(dir, "platforms/b.json", v100);
    const char *e = load(dir, NULL);
    cr_expect(e && strstr(e, "already names platform a"), "%s", e ? e : "(loaded)");
    rm_rf(dir);
    free(dir);
}

Test(platform, a_run_finds_its_platform_from_its_environment)
{
    char *dir = tmpdir();
    put(dir, "platforms/V100-x8.json", v100);
    put(dir, "runs/r1/env.json",
        "{\"perfrepro\": 1, \"captured_at\": \"2026-11-20T09:59:00Z\", \"host\": null,\n"
        " \"framework\": null, \"gpu\": {\"name\": \"v100-sxm2-16gb\", \"count\": 8}}\n");
    put(dir, "runs/r2/env.json",
        "{\"perfrepro\": 1, \"captured_at\": \"2026-11-20T09:59:00Z\", \"host\": null,\n"
        " \"framework\": null, \"gpu\": {\"name\": \"NVIDIA H100 80GB HBM3\", \"count\": 1}}\n");
    pr_dataset *d = NULL;
    const char *e = load(dir, &d);
    cr_assert(!e, "%s", e);
    cr_assert_eq(d->nruns, 2);
    cr_expect_eq(d->runs[0].platform, &d->platforms.v[0], "matched by a match name, any case");
    cr_expect_null(d->runs[1].platform, "a device no platform names");
    data_free(d);
    rm_rf(dir);
    free(dir);
}

/* Precision classes and headline configurations (gen/1-load/decl.c). */
static const char classes[] =
    "{\"perfrepro\": 1, \"classes\": [\n"
    " {\"id\": \"fp32\", \"title\": {\"zh\": \"FP32\", \"en\": \"FP32\"}, \"modes\": [\"fp32\"]},\n"
    " {\"id\": \"tf32\", \"title\": {\"zh\": \"TF32\", \"en\": \"TF32\"}, \"modes\": [\"tf32\"]},\n"
    " {\"id\": \"fp8\", \"title\": {\"zh\": \"FP8\", \"en\": \"FP8\"}, \"modes\": [\"fp8\"]},\n"
    " {\"id\": \"mixed\", \"title\": {\"zh\": \"混合\", \"en\": \"Mixed\"},\n"
    "  \"modes\": [\"amp\", \"fp16\", \"bf16\"]}]}\n";

Test(decl, precision_classes_group_modes)
{
    char *dir = tmpdir();
    put(dir, "precision-classes.json", classes);
    pr_dataset *d = NULL;
    const char *e = load(dir, &d);
    cr_assert(!e, "%s", e);
    const pr_prec_class *amp = decl_class_of(&d->decls, "amp");
    cr_assert(amp);
    cr_expect_str_eq(amp->id, "mixed");
    cr_expect_eq(decl_class_of(&d->decls, "fp16"), amp, "amp and fp16 meet in one class");
    cr_expect_neq(decl_class_of(&d->decls, "fp32"), amp);
    data_free(d);
    rm_rf(dir);
    free(dir);
    /* Without the file each mode is its own class. */
    dir = tmpdir();
    put(dir, "published/.keep.json.txt", "");
    e = load(dir, &d);
    cr_assert(!e, "%s", e);
    cr_expect_neq(decl_class_of(&d->decls, "fp16"), decl_class_of(&d->decls, "amp"));
    data_free(d);
    rm_rf(dir);
    free(dir);
}

Test(decl, bad_classes_and_headlines)
{
    static const struct {
        const char *name, *text, *want;
    } cases[] = {
        {"precision-classes.json",
         "{\"perfrepro\": 1, \"classes\": [{\"id\": \"a\", \"title\": {\"zh\": \"a\", \"en\": "
         "\"a\"},"
         " \"modes\": [\"fp32\", \"tf32\", \"fp16\", \"amp\", \"bf16\", \"fp8\"]},"
         " {\"id\": \"b\", \"title\": {\"zh\": \"b\", \"en\": \"b\"}, \"modes\": [\"amp\"]}]}\n",
         "\"amp\" is in class \"a\" already"},
        {"precision-classes.json",
         "{\"perfrepro\": 1, \"classes\": [{\"id\": \"a\", \"title\": {\"zh\": \"a\", \"en\": "
         "\"a\"},"
         " \"modes\": [\"fp32\"]}]}\n",
         "\"tf32\" is in no class"},
        {"models/M.json",
         "{\"perfrepro\": 1, \"headline\": {\"platform\": \"V100-x8\", \"precision_class\": "
         "\"half\","
         " \"batch_size\": 8, \"gpus\": 8}}\n",
         "headline.precision_class: unknown class \"half\""},
        {"models/M.json",
         "{\"perfrepro\": 1, \"headline\": {\"platform\": \"unstated\", \"precision_class\": "
         "\"fp32\","
         " \"batch_size\": 8, \"gpus\": 8}}\n",
         "not \"unstated\""},
        {"models/Other.json",
         "{\"perfrepro\": 1, \"headline\": {\"platform\": \"V100-x8\", \"precision_class\": "
         "\"fp32\","
         " \"batch_size\": 8, \"gpus\": 8}}\n",
         "no suite, record or published table is of model \"Other\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *dir = tmpdir();
        put(dir, "platforms/V100-x8.json", v100);
        char *pub = published(" \"platform\": \"V100-x8\",", "");
        put(dir, "published/p.json", pub);
        free(pub);
        put(dir, cases[i].name, cases[i].text);
        const char *e = load(dir, NULL);
        cr_expect(e && strstr(e, cases[i].want), "case %zu: %s", i, e ? e : "(loaded)");
        rm_rf(dir);
        free(dir);
    }
}

/* A record of case M/F fp32 bs8 1x1 in run `run`, naming `platform` when
 * not NULL, with its log. */
static void put_record(const char *dir, const char *run, const char *platform)
{
    char *rel = pr_xasprintf("runs/%s/logs/index/c_speed", run);
    char *plat = platform ? pr_xasprintf(", \"platform\": \"%s\"", platform) : pr_xstrdup("");
    char *rec = pr_xasprintf(
        "{\"log_file\": \"logs/train_log/c\", \"model_name\": \"m\", \"mission_name\": \"x\",\n"
        " \"direction_id\": 0, \"run_mode\": \"sp\", \"index\": 1, \"gpu_num\": 1,\n"
        " \"FINAL_RESULT\": 100.5, \"JOB_FAIL_FLAG\": 0, \"UNIT\": \"images/s\", \"perfrepro\": "
        "1,\n"
        " \"model\": \"M\", \"framework\": \"F\", \"case\": \"c\", \"precision\": \"fp32\",\n"
        " \"batch_size\": 8, \"nodes\": 1, \"gpus_per_node\": 1, \"repeat\": 1,\n"
        " \"origin\": \"parsed\", \"logs\": [], \"command\": []%s}\n",
        plat);
    put(dir, rel, rec);
    char *log = pr_xasprintf("runs/%s/logs/train_log/c", run);
    put(dir, log, "ips: 100.5\n");
    free(log);
    free(rec);
    free(plat);
    free(rel);
}

static const char a100[] =
    "{\"perfrepro\": 1, \"title\": {\"zh\": \"A100 × 8\", \"en\": \"A100 x 8\"},\n"
    " \"device\": {\"kind\": \"gpu\", \"model\": \"NVIDIA A100-SXM4-40GB\"}}\n";

Test(platform, one_case_on_two_platforms_is_two_cases)
{
    char *dir = tmpdir();
    put(dir, "platforms/V100-x8.json", v100);
    put(dir, "platforms/A100-x8.json", a100);
    put_record(dir, "v100", "V100-x8");
    put_record(dir, "a100", "A100-x8");
    pr_dataset *d = NULL;
    const char *e = load(dir, &d);
    cr_assert(!e, "an A100 and a V100 import of one case: %s", e);
    cr_assert_eq(d->nruns, 2);
    const pr_platform *p0 = data_record_platform(d, &d->runs[0], &d->runs[0].records[0]);
    const pr_platform *p1 = data_record_platform(d, &d->runs[1], &d->runs[1].records[0]);
    cr_expect(p0 && p1 && p0 != p1);
    data_free(d);
    /* The same platform in two run folders is the case in two run sets. */
    put_record(dir, "a100", "V100-x8");
    e = load(dir, NULL);
    cr_expect(!e, "one case in two run sets: %s", e);
    /* A platform no file describes. */
    put_record(dir, "a100", "H100-x8");
    e = load(dir, NULL);
    cr_expect(e && strstr(e, "platform") && strstr(e, "H100-x8"), "%s", e ? e : "(loaded)");
    rm_rf(dir);
    free(dir);
}

/* Issue 33: a platform is a system.  Two systems of one GPU (a 4-GPU and
 * an 8-GPU H100 box, or two clusters) coexist, each named by its id; a
 * plain device platform of the same GPU still is the one a run's
 * environment finds; a CPU system counts threads. */
static char *system_platform(const char *kind, const char *model, int per_node, int nodes,
                             const char *host)
{
    return pr_xasprintf("{\"perfrepro\": 1, \"title\": {\"zh\": \"S\", \"en\": \"S\"},\n"
                        " \"device\": {\"kind\": \"%s\", \"model\": \"%s\", \"per_node\": %d},\n"
                        " \"system\": {\"nodes\": %d, \"host\": %s,\n"
                        "            \"description\": \"Acme/systems/s.json\"}}\n",
                        kind, model, per_node, nodes, host);
}

Test(platform, systems_of_one_device_coexist)
{
    char *dir = tmpdir();
    const char *host = "{\"processor\": \"Xeon\", \"sockets\": 2, \"cores\": 56}";
    char *box4 = system_platform("gpu", "NVIDIA H100-SXM5-80GB", 4, 1, host);
    char *box8 = system_platform("gpu", "NVIDIA H100-SXM5-80GB", 8, 1, host);
    char *cluster = system_platform("gpu", "NVIDIA H100-SXM5-80GB", 8, 316, host);
    put(dir, "platforms/box4.json", box4);
    put(dir, "platforms/box8.json", box8);
    put(dir, "platforms/eos316.json", cluster);
    put(dir, "platforms/H100-x8.json",
        "{\"perfrepro\": 1, \"title\": {\"zh\": \"H\", \"en\": \"H\"},\n"
        " \"device\": {\"kind\": \"gpu\", \"model\": \"NVIDIA H100-SXM5-80GB\", \"per_node\": "
        "8}}\n");
    pr_dataset *d = NULL;
    const char *e = load(dir, &d);
    cr_assert_null(e, "%s", e);
    const pr_platforms *ps = &d->platforms;
    const pr_platform *p = platform_find(ps, "eos316");
    cr_assert(p);
    cr_expect_eq(p->nodes, 316);
    cr_expect_eq(p->host_sockets, 2);
    cr_expect_str_eq(p->host_cpu, "Xeon");
    cr_expect_eq(platform_find(ps, "box4")->per_node, 4);
    const pr_platform *env = platform_for_device(ps, "NVIDIA H100-SXM5-80GB");
    cr_expect(env && !strcmp(env->id, "H100-x8"), "%s", env ? env->id : "(none)");
    cr_expect_str_eq(platform_device_word(p), "gpu");
    data_free(d);
    /* a bad system key is named */
    put(dir, "platforms/eos316.json",
        "{\"perfrepro\": 1, \"title\": {\"zh\": \"S\", \"en\": \"S\"},\n"
        " \"device\": {\"kind\": \"gpu\", \"model\": \"G\"}, \"system\": {\"nodes\": 0}}\n");
    e = load(dir, NULL);
    cr_expect(e && strstr(e, "eos316.json") && strstr(e, "nodes"), "%s", e ? e : "(loaded)");
    free(box4);
    free(box8);
    free(cluster);
    rm_rf(dir);
    free(dir);
}

Test(platform, a_cpu_system_reads_nodes_times_threads)
{
    char *dir = tmpdir();
    char *cpu = system_platform("cpu", "AMD EPYC 7302", 16, 4,
                                "{\"processor\": \"AMD EPYC 7302\", \"sockets\": 1, "
                                "\"cores\": 8, \"threads\": 16}");
    put(dir, "platforms/cpu4.json", cpu);
    pr_dataset *d = NULL;
    const char *e = load(dir, &d);
    cr_assert_null(e, "%s", e);
    const pr_platform *p = platform_find(&d->platforms, "cpu4");
    cr_assert(p);
    cr_expect_eq(p->per_node, 16);
    cr_expect_eq(p->nodes, 4);
    cr_expect_eq(p->host_threads, 16);
    cr_expect_str_eq(platform_device_word(p), "thread"); /* "4 nodes × 16 threads" */
    data_free(d);
    free(cpu);
    rm_rf(dir);
    free(dir);
}
