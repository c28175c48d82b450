/* fuzz_parse: a log under every built-in profile, through the same path
 * `perfrepro-measure parse` takes (logscan over a file, parse rule, record).
 *
 * Header (6 bytes), then the log:
 *   d[0]  profile: d[0] % K, K one past the highest fuzz seed (13 today);
 *         0 none (keyword or match by d[1]), 11 custom: the rule is the
 *         d[5] bytes after the header (fuzzed JSON), the log what follows;
 *         any other value the profile whose fuzz_seed it is in
 *         lib/rulecfg.c's table (1..10 the first ten, 12 perfrepro-gpu:
 *         seeds are never renumbered, so older corpus files keep their
 *         meaning; a new profile takes the next one)
 *   d[1]  bits 0-1 reduce, bit 2 scope (global / per_card), bit 3 two logs
 *         (the log is cut in two: two runs, or two parts), bits 4-5 step
 *         (dllogger) or files (others), bits 6-7 rank (default, "all", 1,
 *         3)
 *   d[2]  bits 0-2 skip, bits 3-4 min_records - 1, bits 5-6 log2 gpus,
 *         bit 7 round 2
 *   d[3]  bits 0-1 padding mode (see pad()), bits 2-3 batch size (0, 8,
 *         128, 256), bit 4 the profile's other source (perfrepro-gpu: a
 *         unit in the rule), bits 5-6 placement / column / dllogger keyword
 *         / perfrepro-gpu variant (default, copy, fp16, read), bit 7 give no
 *         arguments at all
 *   d[4]  padding offset: with padding, the log starts this many bytes
 *         before the scanner's 64 KiB read boundary
 *   d[5]  custom rule length; with the other profiles bit 0 makes the
 *         reducer max (d[1]'s bits 0-1 hold only four)
 *
 * Invariants checked: a case that does not fail has a finite value >= 0; the
 * facts the log states (res.log_facts, measure/logfacts) pass the record's
 * check (lib/recfacts); the record `parse` would print loads back through
 * pr_record_from_json; the
 * normalised rule builds the same rule again; reading once and reducing in
 * memory (parse_scan, parse_reduce: --explain and --fit) gives what
 * parse_logs gives, and --explain and --fit run on every input.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "1-facts/logscan.h"
#include "2-parse/explain.h"
#include "2-parse/parse.h"
#include "2-parse/rule.h"
#include "3-fit/fit.h"
#include "buf.h"
#include "err.h"
#include "jdoc.h"
#include "recfacts.h"
#include "record.h"

static int fds[2] = {-1, -1};
static char paths[2][64];

static void die(const char *what)
{
    fprintf(stderr, "fuzz_parse: %s\n", what);
    abort();
}

static const char *put_log(int i, const char *pad, size_t padn, const uint8_t *d, size_t n)
{
    if (fds[i] < 0) {
        fds[i] = memfd_create("fuzz_log", MFD_CLOEXEC);
        if (fds[i] < 0)
            die("memfd_create");
        snprintf(paths[i], sizeof paths[i], "/proc/self/fd/%d", fds[i]);
    }
    if (ftruncate(fds[i], 0) != 0 || (padn && pwrite(fds[i], pad, padn, 0) != (ssize_t)padn) ||
        (n && pwrite(fds[i], d, n, (off_t)padn) != (ssize_t)n))
        die("writing the memfd");
    return paths[i];
}

/* Text put before the fuzzed log so that its bytes straddle the scanner's
 * read boundary: mode 1 a filler line ending in \n, 2 a filler without a
 * line end (the fuzzed text continues an overlong line or not), 3 a filler
 * line ending in \r (a \n may follow it across the boundary). */
static size_t pad(int mode, int off, char **out)
{
    static char *buf;
    if (!buf) {
        buf = pr_xmalloc(PR_LOGSCAN_BUF + 2);
        memset(buf, 'x', PR_LOGSCAN_BUF + 2);
    }
    if (mode == 0)
        return 0;
    size_t n = PR_LOGSCAN_BUF - (size_t)off;
    memset(buf, 'x', n);
    if (mode == 1)
        buf[n - 1] = '\n';
    else if (mode == 3)
        buf[n - 1] = '\r';
    *out = buf;
    return n;
}

/* Header byte 0 picks a profile by its fuzz seed (lib/rulecfg.c's table);
 * PROFILE_CUSTOM is the fuzzer's own: the rule comes from the data. */
enum { PROFILE_CUSTOM = 11 };

/* K of the header's d[0] % K: one past the highest seed. */
static int profile_knobs(void)
{
    int k = PROFILE_CUSTOM + 1;
    for (int p = 1; p < PR_PROFILE_COUNT; p++)
        if (pr_rulecfg_profile_fuzz_seed((pr_rulecfg_profile)p) >= k)
            k = pr_rulecfg_profile_fuzz_seed((pr_rulecfg_profile)p) + 1;
    return k;
}

/* The profile whose fuzz seed is d[0] % K; PR_PROFILE_NONE for 0 and for
 * the custom rule. */
static pr_rulecfg_profile profile_of(uint8_t h0)
{
    int seed = h0 % profile_knobs();
    for (int p = 1; seed && p < PR_PROFILE_COUNT; p++)
        if (pr_rulecfg_profile_fuzz_seed((pr_rulecfg_profile)p) == seed)
            return (pr_rulecfg_profile)p;
    return PR_PROFILE_NONE;
}
static const char *const gpu_variants[] = {NULL, "copy", "fp16", "read"};
static const char *const reduces[] = {"mean", "median", "last", "trimmed_mean"};
static const char *const steps[] = {"iteration", "epoch", "summary", "any"};
static const char *const dll_keys[] = {"train.total_ips", "total_ips",
                                       "training_sequences_per_second", "train.ips"};

/* The rule the header describes; knobs a profile refuses are dropped one
 * by one until it builds. */
static pr_rule *make_rule(const uint8_t *h)
{
    pr_rulecfg_profile prof = profile_of(h[0]);
    int reduce = h[1] & 3, per_card = (h[1] >> 2) & 1, step = (h[1] >> 4) & 3;
    int rank = (h[1] >> 6) & 3;
    int skip = h[2] & 7, minr = 1 + ((h[2] >> 3) & 3), round = h[2] >> 7;
    int alt = (h[3] >> 4) & 1, sel = (h[3] >> 5) & 3;
    pr_err e;
    for (int attempt = 0; attempt < 4; attempt++) {
        pr_buf b = PR_BUF_INIT;
        pr_buf_puts(&b, "{");
        if (prof != PR_PROFILE_NONE)
            pr_buf_printf(&b, "\"profile\": \"%s\", ", pr_rulecfg_profile_name(prof));
        else if (sel & 1)
            pr_buf_puts(&b, "\"match\": \"ips: ([0-9.eE+-]+)\", ");
        else
            pr_buf_puts(&b, "\"keyword\": \"ips:\", ");
        if (prof == PR_PROFILE_DLLOGGER)
            pr_buf_printf(&b, "\"keyword\": \"%s\", \"step\": \"%s\", ", dll_keys[sel],
                          steps[step]);
        if (prof == PR_PROFILE_NCCL_TESTS && alt) {
            static const char *const cols[] = {"busbw", "algbw", "time", "busbw"};
            static const char *const pls[] = {"both", "out_of_place", "in_place", "both"};
            pr_buf_printf(&b, "\"source\": \"rows\", \"column\": \"%s\", \"placement\": \"%s\", ",
                          cols[sel], pls[step]);
        }
        if (prof == PR_PROFILE_PERFREPRO_GPU && gpu_variants[sel])
            pr_buf_printf(&b, "\"variant\": \"%s\", ", gpu_variants[sel]);
        if (attempt < 3)
            pr_buf_printf(&b, "\"scope\": \"%s\", ",
                          per_card && attempt < 1 ? "per_card" : "global");
        if (attempt < 2) {
            pr_buf_printf(&b, "\"reduce\": \"%s\", \"skip\": %d, \"min_records\": %d, ",
                          h[5] & 1 ? "max" : reduces[reduce], skip, minr);
            if (round)
                pr_buf_puts(&b, "\"round\": 2, ");
            if (rank == 1)
                pr_buf_puts(&b, "\"rank\": \"all\", ");
            else if (rank >= 2)
                pr_buf_printf(&b, "\"rank\": %d, ", rank == 2 ? 1 : 3);
            if (prof != PR_PROFILE_DLLOGGER && step && attempt < 1)
                pr_buf_printf(&b, "\"files\": \"%s\", ", step & 1 ? "parts" : "runs");
        }
        if (prof == PR_PROFILE_NONE || prof == PR_PROFILE_NCCL_TESTS || prof == PR_PROFILE_MLLOG ||
            (prof == PR_PROFILE_PERFREPRO_GPU && alt))
            pr_buf_puts(&b, "\"unit\": \"u\", ");
        if (b.len > 1)
            pr_buf_truncate(&b, b.len - 2); /* the last ", " */
        pr_buf_puts(&b, "}");
        pr_rule *r = NULL;
        int rc = rule_parse("<fuzz>", b.data, b.len, &r, &e);
        if (rc < 0 && getenv("FUZZ_VERBOSE"))
            fprintf(stderr, "rule refused: %s: %s\n", b.data, e.msg);
        pr_buf_free(&b);
        if (rc == 0)
            return r;
    }
    return NULL;
}

static void check_rule_roundtrip(const pr_rule *r)
{
    json_t *j = rule_to_json(r);
    pr_rule *r2 = NULL;
    pr_err e;
    if (rule_from_json(j, "normalised", &r2, &e) < 0) {
        fprintf(stderr, "%s\n", e.msg);
        die("a normalised rule does not build");
    }
    json_t *j2 = rule_to_json(r2);
    if (!json_equal(j, j2))
        die("a normalised rule does not round-trip");
    json_decref(j);
    json_decref(j2);
    rule_free(r2);
}

/* One scanning path: the logs read once and reduced in memory under the
 * rule's own keys give pr_parse_logs's outcome (res), stats and metrics
 * included; --explain agrees on whether there is a value; --fit runs. */
/* explain_run's writer: appends to the pr_buf arg. */
static int append_text(const char *text, size_t len, void *arg, pr_err *err)
{
    (void)err;
    pr_buf_put(arg, text, len);
    return 0;
}

static void check_scan(const pr_rule *rule, const char *const *logs, size_t nlogs,
                       const pr_parse_args *args, const pr_parse_result *res)
{
    pr_err e;
    pr_scan *scan = NULL;
    if (parse_scan(rule, logs, nlogs, args, &scan, &e) < 0) {
        fprintf(stderr, "%s\n", e.msg);
        die("pr_parse_scan refused what pr_parse_logs read");
    }
    pr_reduce_keys k;
    parse_reduce_keys_of(rule, &k);
    pr_parse_result b;
    parse_result_init(&b);
    parse_reduce(scan, &k, 0, &b, NULL, NULL);
    char *sa = json_dumps(res->stats, JSON_SORT_KEYS), *sb = json_dumps(b.stats, JSON_SORT_KEYS);
    int same = res->failed == b.failed && !strcmp(sa, sb) &&
               (res->failed ? !strcmp(res->fail_reason, b.fail_reason) &&
                                  !strcmp(res->fail_detail ? res->fail_detail : "",
                                          b.fail_detail ? b.fail_detail : "")
                            : memcmp(&res->value, &b.value, sizeof b.value) == 0) &&
               ((!res->metrics && !b.metrics) || json_equal(res->metrics, b.metrics));
    if (!same) {
        fprintf(stderr, "parse: %s %.17g %s\n%s\nscan: %s %.17g %s\n%s\n",
                res->failed ? res->fail_reason : "ok", res->value,
                res->fail_detail ? res->fail_detail : "", sa, b.failed ? b.fail_reason : "ok",
                b.value, b.fail_detail ? b.fail_detail : "", sb);
        die("reading once and reducing in memory differs from pr_parse_logs");
    }
    free(sa);
    free(sb);
    parse_result_clear(&b);
    parse_scan_free(scan);

    pr_buf out = PR_BUF_INIT;
    int has_value = -1;
    if (explain_run(rule, logs, nlogs, args, append_text, &out, &has_value, &e) < 0 ||
        has_value != !res->failed)
        die("--explain failed, or disagrees on whether the case has a value");
    pr_buf_free(&out);

    /* --fit: the search (fitcalc) reports what reducing every rule with
     * parse_reduce reports, byte for byte */
    json_t *base = rule_to_json(rule);
    pr_fit_case fc = {"1", logs, nlogs, *args};
    pr_buf ref = PR_BUF_INIT;
    for (int reference = 0; reference < 2; reference++) {
        pr_fit_opts fo = {.limit = 0, .max_skip = 3, .json = 1, .reference = reference};
        int fits = -1;
        if (fit_run(rule, base, &fc, 1, &fo, reference ? &ref : &out, &fits, &e) < 0) {
            fprintf(stderr, "%s\n", e.msg);
            die("--fit failed on logs pr_parse_logs read");
        }
    }
    if (strcmp(pr_buf_cstr(&out), pr_buf_cstr(&ref)) != 0) {
        fprintf(stderr, "search:\n%s\nreference:\n%s\n", pr_buf_cstr(&out), pr_buf_cstr(&ref));
        die("--fit's search differs from reducing every rule with pr_parse_reduce");
    }
    json_decref(base);
    pr_buf_free(&out);
    pr_buf_free(&ref);
}

/* What the log states: NULL, or a non-empty array the record's check takes
 * (every value within its limit, valid UTF-8, no address, in log order). */
static void check_facts(json_t *facts)
{
    if (!facts)
        return;
    if (!json_is_array(facts) || json_array_size(facts) == 0)
        die("log_facts is not a non-empty array");
    json_t *o = json_pack("{s:O}", "log_facts", facts);
    char *text = json_dumps(o, JSON_COMPACT);
    if (!text)
        die("log_facts does not serialise");
    pr_jdoc *doc = NULL;
    pr_err e;
    if (pr_jdoc_parse("facts", text, strlen(text), &doc, &e) < 0)
        die("log_facts is not JSON");
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    pr_jdoc_jcur fc = pr_jdoc_jchild(&root, "log_facts");
    if (pr_recfacts_check(&fc, &e) < 0) {
        fprintf(stderr, "%s\n%s\n", e.msg, text);
        die("log_facts fails the record's check");
    }
    pr_jdoc_free(doc);
    free(text);
    json_decref(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6)
        return 0;
    pr_jdoc_json_init();
    const uint8_t *h = data;
    const uint8_t *log = data + 6;
    size_t n = size - 6;
    pr_rule *rule = NULL;
    pr_err e;
    if (h[0] % profile_knobs() == PROFILE_CUSTOM) {
        size_t rl = h[5] < n ? h[5] : n;
        if (rule_parse("<fuzz rule>", (const char *)log, rl, &rule, &e) < 0)
            return 0;
        log += rl;
        n -= rl;
    } else {
        rule = make_rule(h);
        if (!rule)
            return 0;
    }
    check_rule_roundtrip(rule);

    char *padbuf = NULL;
    size_t padn = pad(h[3] & 3, h[4], &padbuf);
    const char *logs[2];
    size_t nlogs = 1;
    if ((h[1] >> 3) & 1) {
        size_t half = n / 2;
        logs[0] = put_log(0, padbuf, padn, log, half);
        logs[1] = put_log(1, NULL, 0, log + half, n - half);
        nlogs = 2;
    } else {
        logs[0] = put_log(0, padbuf, padn, log, n);
    }

    static const int batches[] = {0, 8, 128, 256};
    pr_parse_args args = {1 << ((h[2] >> 5) & 3), batches[(h[3] >> 2) & 3], 128, NULL};
    if (h[3] >> 7)
        memset(&args, 0, sizeof args);
    pr_parse_result res;
    parse_result_init(&res);
    if (parse_logs(rule, logs, nlogs, &args, &res, &e) < 0) {
        /* Only the arguments may be refused; the message names an option. */
        if (!e.msg[0])
            die("an argument error without a message");
        parse_result_clear(&res);
        rule_free(rule);
        return 0;
    }
    if (getenv("FUZZ_VERBOSE")) {
        json_t *rjs = rule_to_json(rule);
        char *rj = json_dumps(rjs, JSON_COMPACT);
        json_decref(rjs);
        fprintf(stderr, "rule %s -> %s %g %s\n", rj, res.failed ? res.fail_reason : "ok", res.value,
                res.fail_detail ? res.fail_detail : "");
        free(rj);
    }
    if (!res.failed && (!isfinite(res.value) || res.value < 0)) {
        fprintf(stderr, "value %g\n", res.value);
        die("a case that did not fail has a value that is not finite and >= 0");
    }
    if (res.failed && !pr_record_str_in(res.fail_reason, pr_fail_reasons))
        die("an unknown failure reason");
    check_facts(res.log_facts);
    check_scan(rule, logs, nlogs, &args, &res);

    /* What `perfrepro-measure parse` prints must load as a record. */
    pr_record rec;
    pr_record_init(&rec);
    rec.log_file = pr_xstrdup("logs/train_log/c");
    rec.case_name = pr_xstrdup("c");
    rec.model_name = pr_xstrdup("c");
    rec.mission_name = pr_xstrdup("");
    rec.model = pr_xstrdup("M");
    rec.framework = pr_xstrdup("F");
    rec.precision = pr_xstrdup("fp32");
    rec.gpu_num = args.gpus > 0 ? args.gpus : 1;
    rec.gpus_per_node = rec.gpu_num;
    strcpy(rec.run_mode, rec.gpu_num > 1 ? "mp" : "sp");
    rec.batch_size = args.batch_size;
    rec.seq_len = args.seq_len;
    rec.origin = pr_xstrdup("parsed");
    parse_to_record(rule, &res, &rec);
    char *text = pr_record_dumps(&rec);
    pr_jdoc *doc = NULL;
    if (pr_jdoc_parse("printed", text, strlen(text), &doc, &e) < 0) {
        fprintf(stderr, "%s\n%s", e.msg, text);
        die("the printed record is not JSON");
    }
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    pr_record back;
    pr_record_init(&back);
    if (pr_record_from_json(&root, &back, &e) < 0) {
        fprintf(stderr, "%s\n%s", e.msg, text);
        die("the printed record does not load");
    }
    pr_record_clear(&back);
    pr_jdoc_free(doc);
    free(text);
    pr_record_clear(&rec);
    parse_result_clear(&res);
    rule_free(rule);
    return 0;
}
