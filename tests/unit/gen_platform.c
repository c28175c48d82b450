/* Platforms: every published table names the machine of its figures (or says
 * its source does not), platforms are described once in data/platforms/, and
 * a measured run finds its platform from its environment record. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "data.h"
#include "platform.h"

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
    if (pr_data_load(dir, &d, &err) < 0)
        return err.msg;
    if (out)
        *out = d;
    else
        pr_data_free(d);
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
    cr_expect(strstr(e, "tables[0].platform") && strstr(e, "V100-16") && strstr(e, "V100-x8"),
              "%s", e);
    free(pub);
    rm_rf(dir);
    free(dir);
}

Test(platform, file_level_table_level_and_unstated)
{
    char *dir = tmpdir();
    put(dir, "platforms/V100-x8.json", v100);
    char *a = published(" \"platform\": \"V100-x8\",", "");
    char *b = published(" \"platform\": \"V100-x8\",", "\"platform\": \"unstated\", \"variant\": \"b\",");
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
    pr_data_free(d);
    free(a);
    free(b);
    rm_rf(dir);
    free(dir);
}

Test(platform, bad_platform_files)
{
    static const struct { const char *name, *text, *want; } cases[] = {
        {"platforms/unstated.json", v100, "cannot be a platform id"},
        {"platforms/p.json", "{\"perfrepro\": 1, \"title\": {\"zh\": \"a\", \"en\": \"b\"},"
                             " \"device\": {\"kind\": \"tpu\", \"model\": \"x\"}}\n", "device.kind"},
        {"platforms/p.json", "{\"perfrepro\": 1, \"title\": {\"zh\": \"a\"},"
                             " \"device\": {\"kind\": \"gpu\", \"model\": \"x\"}}\n", "title.en"},
        {"platforms/p.json", "{\"perfrepro\": 1, \"title\": {\"zh\": \"a\", \"en\": \"b\"},"
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
    pr_data_free(d);
    rm_rf(dir);
    free(dir);
}
