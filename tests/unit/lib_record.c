/* lib/record: a successful figure is finite and > 0 (failure is a state,
 * never a value), and the "steady" object is kept, checked and written. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "jdoc.h"
#include "record.h"

/* A record with FINAL_RESULT value (text) and extra keys (text, may be "")
 * loaded into r: the return of pr_record_from_json. */
static int load(const char *value, const char *extra, pr_record *r, pr_err *err)
{
    char text[2048];
    snprintf(text, sizeof text,
             "{\"log_file\": \"logs/train_log/c\", \"model_name\": \"m\", \"mission_name\": \"x\","
             " \"direction_id\": 0, \"run_mode\": \"sp\", \"index\": 1, \"gpu_num\": 1,"
             " \"FINAL_RESULT\": %s, \"JOB_FAIL_FLAG\": 0, \"UNIT\": \"images/s\","
             " \"perfrepro\": 1, \"model\": \"M\", \"framework\": \"F\", \"case\": \"c\","
             " \"precision\": \"fp32\", \"batch_size\": 8, \"nodes\": 1, \"gpus_per_node\": 1,"
             " \"repeat\": 1, \"origin\": \"measured\"%s}",
             value, extra);
    pr_jdoc *doc = NULL;
    int rc = pr_jdoc_parse("r.json", text, strlen(text), &doc, err);
    pr_record_init(r);
    if (rc == 0) {
        pr_jdoc_jcur root = pr_jdoc_root(doc);
        rc = pr_record_from_json(&root, r, err);
    }
    pr_jdoc_free(doc);
    return rc;
}

Test(record, zero_throughput_is_not_a_success)
{
    pr_record r;
    pr_err err;
    cr_assert_eq(load("0", "", &r, &err), -1);
    cr_expect(strstr(err.msg, "FINAL_RESULT") && strstr(err.msg, "> 0"), "%s", err.msg);
    pr_record_clear(&r);
    cr_assert_eq(load("0.0", "", &r, &err), -1);
    pr_record_clear(&r);
    cr_assert_eq(load("1e-300", "", &r, &err), 0, "%s", err.msg);
    /* the writer refuses it too */
    r.final_result = 0;
    cr_expect_eq(pr_record_check(&r, &err), -1);
    pr_record_clear(&r);
    /* a run of a multi-run record */
    cr_assert_eq(load("5", ", \"stats\": {\"per_run\": [5, 0, 7]}", &r, &err), -1);
    cr_expect(strstr(err.msg, "per_run"), "%s", err.msg);
    pr_record_clear(&r);
}

Test(record, steady_is_kept_and_checked)
{
    pr_record r;
    pr_err err;
    const char *st = ", \"steady\": {\"verdict\": \"unsteady\", \"reason\": \"regime_change\","
                     " \"steps\": 12, \"first\": 1, \"last\": 12, \"n\": 12, \"cv\": 0.8134,"
                     " \"regime_step\": 7, \"regime_ratio\": 7.9821}";
    cr_assert_eq(load("8.1", st, &r, &err), 0, "%s", err.msg);
    cr_assert(r.steady);
    char *text = pr_record_dumps(&r);
    cr_expect(strstr(text, "\"regime_step\": 7"), "%s", text);
    free(text);
    cr_expect_eq(pr_record_check(&r, &err), 0, "%s", err.msg);
    /* a bad object is named as loading names it */
    json_object_set_new(r.steady, "first", json_integer(13));
    cr_expect_eq(pr_record_check(&r, &err), -1);
    cr_expect(strstr(err.msg, "steady.first"), "%s", err.msg);
    pr_record_clear(&r);
    cr_assert_eq(load("8.1", ", \"steady\": {\"verdict\": \"calm\"}", &r, &err), -1);
    cr_expect(strstr(err.msg, "steady.verdict"), "%s", err.msg);
    pr_record_clear(&r);
}

/* Issue 33: a record keeps a double whole. An MLPerf time to train (ms over
 * 60000) needs 17 significant digits; 10 lost it ("differs by 3e-8 %").
 * Figures that 10 digits hold keep their bytes, also beside a 17-digit one. */
Test(record, full_precision_round_trips)
{
    pr_record r;
    pr_err err;
    cr_assert_eq(load("8.1", "", &r, &err), 0, "%s", err.msg);
    double exact = 1234567.0 / 60000.0; /* 20.576116666666667 */
    r.final_result = exact;
    char *text = pr_record_dumps(&r);
    pr_record_clear(&r);
    const char *at = strstr(text, "\"FINAL_RESULT\": ");
    cr_assert(at, "%s", text);
    double back = strtod(at + strlen("\"FINAL_RESULT\": "), NULL);
    cr_expect_eq(back, exact, "%.17g read back as %.17g", exact, back);
    free(text);
    /* one figure in full does not print its neighbours at 17 digits */
    cr_assert_eq(load("8.1", ", \"duration_s\": 0.1", &r, &err), 0, "%s", err.msg);
    r.final_result = exact;
    text = pr_record_dumps(&r);
    pr_record_clear(&r);
    cr_expect(strstr(text, "\"duration_s\": 0.1,") || strstr(text, "\"duration_s\": 0.1\n"), "%s",
              text);
    cr_expect(strstr(text, "\"FINAL_RESULT\": 20.576116666666667,"), "%s", text);
    free(text);
    cr_assert_eq(load("19.428", ", \"duration_s\": 0.1", &r, &err), 0, "%s", err.msg);
    text = pr_record_dumps(&r);
    cr_expect(strstr(text, "\"FINAL_RESULT\": 19.428,"), "%s", text);
    cr_expect(strstr(text, "\"duration_s\": 0.1"), "%s", text);
    free(text);
    pr_record_clear(&r);
}

/* metrics.global_batch_size is what a time's speedup compares (gen's
 * fw_tables_global_batch): a bad one is refused when the record loads,
 * never silently replaced by batch x GPUs. */
Test(record, global_batch_size_is_checked)
{
    pr_record r;
    pr_err err;
    cr_assert_eq(load("5", ", \"metrics\": {\"global_batch_size\": 3200}", &r, &err), 0, "%s",
                 err.msg);
    pr_record_clear(&r);
    static const char *const bad[] = {"0", "-8", "12.5", "\"3200\""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char extra[128];
        snprintf(extra, sizeof extra, ", \"metrics\": {\"global_batch_size\": %s}", bad[i]);
        cr_expect_eq(load("5", extra, &r, &err), -1, "%s accepted", bad[i]);
        cr_expect(strstr(err.msg, "global_batch_size") != NULL, "%s: %s", bad[i], err.msg);
        pr_record_clear(&r);
    }
}
