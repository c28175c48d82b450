/* measure/import_manifest: what a manifest line may say (docs/import.md,
 * "What a manifest may not say"; issue 31).  Each test reads a small
 * manifest with import_manifest_read and checks that a hostile or careless line
 * is refused at load (so that a dry run refuses exactly what the import
 * refuses), naming FILE:LINE and the field or option:
 *   - a table/env line's options: only those of import-table/import-env
 *     the import does not set itself (--out, --markdown, ... refused);
 *   - every name that becomes a path component holds to the case-name rule
 *     (run ".", a 250-byte run name, a table ID "..");
 *   - a NUL byte or invalid UTF-8 is refused naming its line;
 *   - duplicate cases are found with a hash set, in line order (the first
 *     error first), and a 10^5-line manifest is read at once;
 *   - the shipped manifests still read. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "5-import/import_manifest.h"
#include "buf.h"
#include "err.h"
#include "testutil.h"

#define SRC "source\tOwner/Name\te7a07c4d39e04de5e24652daaf02d204f0209acb\n"
/* A valid log line, fields joined by tabs. */
#define CASE(run, cs)                                                                              \
    run "\t" cs "\tHRNetW18\tPaddle\tV100-SXM2-32GB-x8\tfp32\t-\t1\t8\t-\tsamples/"                \
        "s\trule1\t19.428\tlogs/a\n"

/* Reads len bytes of text as the manifest NAME in a fresh folder; returns
 * import_manifest_read's result, its message in msg (msglen bytes). */
static int read_text_as(const char *name, const char *text, size_t len, char *msg, size_t msglen)
{
    char *dir = tmpdir();
    char *path = pr_fileio_path_join(dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    cr_assert(fwrite(text, 1, len, f) == len);
    fclose(f);
    import_manifest_t m;
    pr_err err = {{0}};
    int rc = import_manifest_read(path, &m, &err);
    snprintf(msg, msglen, "%s", rc < 0 ? err.msg : "");
    import_manifest_free(&m);
    free(path);
    rm_rf(dir);
    free(dir);
    return rc;
}

static int read_text(const char *text, char *msg, size_t msglen)
{
    return read_text_as("m.tsv", text, strlen(text), msg, msglen);
}

/* The manifest is refused with a message holding each of the words. */
static void refused(const char *text, const char *w1, const char *w2)
{
    char msg[1024];
    int rc = read_text(text, msg, sizeof msg);
    cr_assert_eq(rc, -1, "accepted: %s", text);
    cr_assert(strstr(msg, w1), "\"%s\" not in: %s", w1, msg);
    cr_assert(!w2 || strstr(msg, w2), "\"%s\" not in: %s", w2, msg);
}

Test(import_manifest, a_plain_manifest_reads)
{
    char msg[1024];
    cr_assert_eq(read_text(SRC CASE("r1", "c1") CASE("r1", "c2") CASE("r2", "c1"), msg, sizeof msg),
                 0, "%s", msg);
}

/* Item 1: an option the import sets itself re-points the sub-command's
 * output or input (import-env/import-table take the last one). */
Test(import_manifest, readme_options_the_import_sets_are_refused)
{
    static const char *const own[] = {"--out", "--markdown", "--repo", "--commit", "--path"};
    for (size_t i = 0; i < sizeof own / sizeof *own; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 SRC CASE("r1", "c1") "env\te1\tR/README.md\t--section\t环境介绍\t%s\tVICTIM\n",
                 own[i]);
        refused(text, "m.tsv:3:", own[i]);
        snprintf(text, sizeof text,
                 SRC CASE("r1", "c1") "table\tt1\tR/README.md\t--column\tFP32\t%s\tVICTIM\n",
                 own[i]);
        refused(text, "m.tsv:3:", own[i]);
    }
}

Test(import_manifest, readme_options_not_of_the_command_are_refused)
{
    /* import-env takes --section alone; --help would print usage and exit 0. */
    refused(SRC CASE("r1", "c1") "env\te1\tR/README.md\t--column\tFP32\n", "m.tsv:3:", "--column");
    refused(SRC CASE("r1", "c1") "table\tt1\tR/README.md\t--help\tx\n", "m.tsv:3:", "--help");
    refused(SRC CASE("r1", "c1") "table\tt1\tR/README.md\t--out=VICTIM\tx\n",
            "m.tsv:3:", "--out=VICTIM");
}

Test(import_manifest, readme_options_of_the_command_are_kept)
{
    char msg[1024];
    const char *text = SRC CASE(
        "r1",
        "c1") "table\t30-perf\tD/README.md\t--after\t训练吞吐率(samples/"
              "sec)\t--column\tFP32(BS=4)\t--model\t"
              "DeepLabV3plus\t--framework\tPaddle\t--precision\tfp32\t--batch-size\t4\t--"
              "unit\tsamples/s"
              "\t--platform\tV100-SXM2-32GB-x8\t--label\tPaddlePaddle/"
              "Perf\t--model-title\tDeepLabV3+"
              "\t--framework-title\tPaddle\t--table\t2\t--gpus-per-node\t8\t--note\tn\t--variant\tv"
              "\t--batch-label\tBS=4\n"
              "env\tperf-env\tD/README.md\t--section\t环境介绍\n";
    cr_assert_eq(read_text(text, msg, sizeof msg), 0, "%s", msg);
}

/* Items 3 and 15: names that become path components hold to the case-name
 * rule ([A-Za-z0-9._+-], not starting with '.' or '-', at most 128 bytes). */
Test(import_manifest, names_that_become_paths_hold_to_the_case_name_rule)
{
    refused(SRC CASE(".", "c1"), "m.tsv:2:", "run");
    refused(SRC CASE("..", "c1"), "m.tsv:2:", "run");
    refused(SRC CASE("r1", "."), "m.tsv:2:", "case");
    refused(SRC CASE("r1", "-rf"), "m.tsv:2:", "case");
    refused(SRC CASE("r1", "page.html"), "m.tsv:2:", "case");
    char text[2048], run[251];
    memset(run, 'r', 250);
    run[250] = '\0';
    snprintf(text, sizeof text, SRC "%s\tc1\tM\tF\tP\tfp32\t-\t1\t8\t-\tu\trule1\t1\tlogs/a\n",
             run);
    refused(text, "m.tsv:2:", "128 bytes");
    refused(SRC "r1\tc1\tM/x\tF\tP\tfp32\t-\t1\t8\t-\tu\trule1\t1\tlogs/a\n", "m.tsv:2:", "model");
    refused(SRC "r1\tc1\tM\t..\tP\tfp32\t-\t1\t8\t-\tu\trule1\t1\tlogs/a\n",
            "m.tsv:2:", "framework");
    refused(SRC "r1\tc1\tM\tF\t../P\tfp32\t-\t1\t8\t-\tu\trule1\t1\tlogs/a\n",
            "m.tsv:2:", "platform");
    refused(SRC "r1\tc1\tM\tF\tP\tfp32\t-\t1\t8\t-\tu\t..\t1\tlogs/a\n", "m.tsv:2:", "rule");
    refused(SRC "r1\tc1\tM\tF\tP\tfp32\t-\t1\t8\t-\tu\tfit:.x\t1\tlogs/a\n", "m.tsv:2:", "rule");
    refused(SRC "r1\tc1\tM\tF\tP\tfp32\t-\t1\t8\t-\tu\t{\"profile\":\t1\tlogs/a\n",
            "m.tsv:2:", "rule");
    refused(SRC "r1\tc1\tM\tF\tP\tfp32\t-\t1\t8\t-\tu\trule1\t@..\tlogs/a\n", "m.tsv:2:", "figure");
    /* A log is an argument of parse after its options: "--out" would be one. */
    refused(SRC "r1\tc1\tM\tF\tP\tfp32\t-\t1\t8\t-\tu\trule1\t1\tlogs/a\t--out\tx\n",
            "m.tsv:2:", "log");
    refused(SRC CASE("r1", "c1") "table\t.\tR/README.md\t--column\tx\n", "m.tsv:3:", "table");
    refused(SRC CASE("r1", "c1") "env\t.hidden\tR/README.md\n", "m.tsv:3:", "env");
}

Test(import_manifest, a_zero_figure_is_refused)
{
    refused(SRC "r1\tc1\tM\tF\tP\tfp32\t-\t1\t8\t-\tu\trule1\t0\tlogs/a\n", "m.tsv:2:", "figure");
    refused(SRC "r1\tc1\tM\tF\tP\tfp32\t-\t1\t8\t-\tu\trule1\t0.000\tlogs/a\n",
            "m.tsv:2:", "figure");
}

Test(import_manifest, the_source_line_names_a_repository_and_a_commit)
{
    refused("source\tO/N\tnot-a-commit\n" CASE("r1", "c1"), "m.tsv:1:", "source");
    refused("source\t../x\te7a07c4\n" CASE("r1", "c1"), "m.tsv:1:", "source");
    refused("source\tO/N](javascript:x)\te7a07c4\n" CASE("r1", "c1"), "m.tsv:1:", "source");
}

/* Item 4 (second half): the typed figures' file is named after the
 * manifest: a name that is no safe file name, or a table line writing the
 * same file, is refused. */
Test(import_manifest, the_typed_figures_file_name_is_safe_and_its_own)
{
    char msg[1024];
    const char *pub = SRC "published\tR/README.md\tTitle\n" CASE("r1", "c1");
    cr_assert_eq(read_text_as("x y.tsv", pub, strlen(pub), msg, sizeof msg), -1);
    cr_assert(strstr(msg, "published"), "%s", msg);
    const char *both = SRC "published\tR/README.md\tTitle\n" CASE(
        "r1", "c1") "table\timport-m\tR/README.md\t--column\tx\n";
    cr_assert_eq(read_text_as("m.tsv", both, strlen(both), msg, sizeof msg), -1);
    cr_assert(strstr(msg, "m.tsv:4:") && strstr(msg, "import-m"), "%s", msg);
}

/* Item 5: a NUL byte ended the manifest silently (the lines after it were
 * lost, and a re-import deleted their cases). */
Test(import_manifest, a_nul_byte_is_refused_naming_its_line)
{
    char msg[1024];
    const char text[] = SRC CASE("r1", "c1") CASE("r1", "c2") "r1\tc3\0" CASE("r1", "c4");
    cr_assert_eq(read_text_as("m.tsv", text, sizeof text - 1, msg, sizeof msg), -1,
                 "a NUL byte accepted");
    cr_assert(strstr(msg, "m.tsv:4:") && strstr(msg, "NUL"), "%s", msg);
}

Test(import_manifest, invalid_utf8_is_refused_naming_its_line)
{
    refused(SRC CASE("r1", "c1") "mission\tHRNetW18\t\xe5\x9b\tx\n", "m.tsv:3:", "UTF-8");
    refused(SRC CASE("r1", "c1") "# a comment \xff\n", "m.tsv:3:", "UTF-8");
    /* overlong '/' and a UTF-16 surrogate */
    refused(SRC "r1\tc1\tM\tF\tP\tfp32\t-\t1\t8\t-\tu\trule1\t1\tlogs\xc0\xaf"
                "a\n",
            "m.tsv:2:", "UTF-8");
    refused(SRC CASE("r1", "c1") "mission\tM\t\xed\xa0\x80\tx\n", "m.tsv:3:", "UTF-8");
    refused(SRC CASE("r1", "c1") "mission\tM\tan \x1b[31m escape\tx\n", "m.tsv:3:", "control");
}

/* Item 20: the first error in line order comes first, duplicates included. */
Test(import_manifest, the_first_error_in_line_order_is_reported)
{
    refused(SRC CASE("r1", "c1")
                CASE("r1", "c1") "r1\tc3\tM\tF\tP\tfp99\t-\t1\t8\t-\tu\trule1\t1\tlogs/a\n",
            "m.tsv:3:", "line 2");
}

/* Item 20: 10^5 lines with a duplicate at the end are refused naming that
 * line (the quadratic check took 195 s; no timing is asserted beyond the
 * generous timeout). */
Test(import_manifest, a_duplicate_after_100000_lines_is_found, .timeout = 120)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, SRC);
    for (int i = 0; i < 100000; i++)
        pr_buf_printf(&b, "run%d\tc%d\tM\tF\tP\tfp32\t-\t1\t8\t-\tu\trule1\t1\tlogs/a\n", i % 97,
                      i);
    pr_buf_puts(&b, "run5\tc5\tM\tF\tP\tfp32\t-\t1\t8\t-\tu\trule1\t1\tlogs/a\n");
    char msg[1024];
    cr_assert_eq(read_text_as("m.tsv", b.data, b.len, msg, sizeof msg), -1);
    cr_assert(strstr(msg, "m.tsv:100002:") && strstr(msg, "line 7"), "%s", msg);
    pr_buf_free(&b);
}

/* The shipped manifests hold to every rule above. */
Test(import_manifest, the_shipped_manifests_read)
{
    static const char *const files[] = {
        "scripts/perf-logs/bert.tsv", "scripts/perf-logs/deeplabv3plus.tsv",
        "scripts/perf-logs/resnet50.tsv", "scripts/perf-logs/transformer.tsv",
        "docs/examples/hrnetw18.tsv"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        import_manifest_t m;
        pr_err err = {{0}};
        cr_assert_eq(import_manifest_read(files[i], &m, &err), 0, "%s", err.msg);
        import_manifest_free(&m);
    }
}
