/* fuzz_data: the data files perfrepro reads but did not write.
 *
 * The first byte selects what the rest is fed as:
 *   0  a suite            (pr_suite_load through a memfd; every case's command
 *                          and env expanded as the runner does; its rule built)
 *   1  a result record    (pr_jdoc_parse + pr_record_from_json; a record that
 *                          loads must dump and load back to the same bytes)
 *   2  a published file   (data_load_published through a memfd)
 *   3  a parse rule       (rule_parse; a rule that loads must normalise to
 *                          an object that builds the same rule again)
 *   4  a run folder       (data_load on a data dir whose one record is the
 *                          input, with a log beside it: load_run's checks)
 *   5  an env.json        (data_load on a data dir whose run has it)
 *   6  a benchmark result (data_load on a data dir with DATA/bench/b.json)
 *   7  a comparison       (data_load on a data dir with DATA/comparisons/c.json:
 *                          its selectors matched against runs r0 and r1)
 *   8  a history.json     (data_load on a data dir with DATA/history.json)
 * Any other value is taken modulo 9.  Loaders must return 0 or -1 with a
 * message; they must never crash, leak or hang.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "1-load/data.h"
#include "2-parse/rule.h"
#include "buf.h"
#include "err.h"
#include "fileio.h"
#include "jdoc.h"
#include "record.h"
#include "suite.h"

static int memfd = -1;
static char memfd_path[64];
static char *tmpdir; /* a data dir for modes 4 and 5 */

static void die(const char *what)
{
    fprintf(stderr, "fuzz_data: %s\n", what);
    abort();
}

/* The input as a file loaders that take a path can read. */
static const char *as_file(const uint8_t *d, size_t n)
{
    if (memfd < 0) {
        memfd = memfd_create("fuzz_data", MFD_CLOEXEC);
        if (memfd < 0)
            die("memfd_create");
        snprintf(memfd_path, sizeof memfd_path, "/proc/self/fd/%d", memfd);
    }
    if (ftruncate(memfd, 0) != 0 || (n && pwrite(memfd, d, n, 0) != (ssize_t)n))
        die("writing the memfd");
    return memfd_path;
}

static void write_file(const char *path, const void *d, size_t n)
{
    pr_err e;
    if (pr_fileio_write_if_changed(path, d, n, &e) < 0) /* no fsync: speed */
        die(e.msg);
}

static void check_msg(const pr_err *e)
{
    /* An error always says something. */
    if (!memchr(e->msg, '\0', sizeof e->msg) || e->msg[0] == '\0')
        die("an error without a message");
}

static void fuzz_suite(const uint8_t *d, size_t n)
{
    pr_suite *s = NULL;
    pr_err e;
    e.msg[0] = 0;
    if (pr_suite_load(as_file(d, n), &s, &e) < 0) {
        check_msg(&e);
        return;
    }
    /* What the runner does with each case: expand the command and env. */
    static const pr_suite_var extra[] = {
        {"log_dir", "L"},     {"log_file", "F"},    {"workdir", "W"},
        {"master_addr", "A"}, {"master_port", "1"}, {"node_rank", "0"},
        {"world_size", "1"},  {"local_rank", "0"},  {"hostfile", "H"}};
    pr_buf st = PR_BUF_INIT, out = PR_BUF_INIT;
    for (size_t i = 0; i < s->ncases && i < 64; i++) {
        size_t nv;
        pr_suite_var *v = pr_suite_case_vars(s, &s->cases[i], &st, &nv);
        for (size_t j = 0; j < json_array_size(s->command); j++) {
            pr_buf_clear(&out);
            /* The loader checked every placeholder: expanding cannot fail. */
            if (pr_suite_template_expand(json_string_value(json_array_get(s->command, j)), v, nv,
                                         extra, sizeof extra / sizeof *extra, &out, &e) < 0)
                die("a loaded suite's command does not expand");
        }
        const char *k;
        json_t *val;
        json_object_foreach(s->env, k, val)
        {
            pr_buf_clear(&out);
            if (pr_suite_template_expand(json_string_value(val), v, nv, extra,
                                         sizeof extra / sizeof *extra, &out, &e) < 0)
                die("a loaded suite's env does not expand");
        }
        if (!pr_suite_name_is_safe(s->cases[i].name))
            die("a loaded suite has an unsafe case name");
        free(v);
    }
    pr_buf_free(&st);
    pr_buf_free(&out);
    pr_rule *r = NULL;
    if (rule_from_json(s->rule, s->path, &r, &e) == 0)
        rule_free(r);
    pr_suite_free(s);
}

static void fuzz_record(const uint8_t *d, size_t n)
{
    pr_jdoc *doc = NULL;
    pr_err e;
    if (pr_jdoc_parse("record", (const char *)d, n, &doc, &e) < 0) {
        check_msg(&e);
        return;
    }
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    pr_record r;
    pr_record_init(&r);
    if (pr_record_from_json(&root, &r, &e) == 0) {
        /* The one writer and the one validator agree: what loads dumps to
         * text that loads again, to the same bytes. */
        if (pr_record_check(&r, &e) < 0)
            die("a loaded record fails pr_record_check");
        char *s1 = pr_record_dumps(&r);
        pr_jdoc *doc2 = NULL;
        if (pr_jdoc_parse("dumped", s1, strlen(s1), &doc2, &e) < 0)
            die("a dumped record is not JSON");
        pr_jdoc_jcur root2 = pr_jdoc_root(doc2);
        pr_record r2;
        pr_record_init(&r2);
        if (pr_record_from_json(&root2, &r2, &e) < 0) {
            fprintf(stderr, "%s\n%s\n", e.msg, s1);
            die("a dumped record does not load");
        }
        char *s2 = pr_record_dumps(&r2);
        if (strcmp(s1, s2) != 0)
            die("a record does not round-trip");
        free(s1);
        free(s2);
        pr_record_clear(&r2);
        pr_jdoc_free(doc2);
    } else {
        check_msg(&e);
    }
    pr_record_clear(&r);
    pr_jdoc_free(doc);
}

static void fuzz_published(const uint8_t *d, size_t n)
{
    pr_dataset *ds = pr_xcalloc(1, sizeof *ds);
    pr_err e;
    if (data_load_published(ds, as_file(d, n), &e) < 0)
        check_msg(&e);
    data_free(ds);
}

static void fuzz_rule(const uint8_t *d, size_t n)
{
    pr_rule *r = NULL;
    pr_err e;
    if (rule_parse("<rule>", (const char *)d, n, &r, &e) < 0) {
        check_msg(&e);
        return;
    }
    json_t *j = rule_to_json(r);
    pr_rule *r2 = NULL;
    if (rule_from_json(j, "normalised", &r2, &e) < 0) {
        fprintf(stderr, "%s\n", e.msg);
        die("a normalised rule does not build");
    }
    json_t *j2 = rule_to_json(r2);
    if (!json_equal(j, j2))
        die("a normalised rule does not round-trip");
    json_decref(j);
    json_decref(j2);
    rule_free(r);
    rule_free(r2);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb;
    (void)flag;
    (void)f;
    return remove(p);
}

static void cleanup(void)
{
    if (tmpdir)
        nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* what: 0 a record, 1 an env.json, 2 a benchmark file, 3 a comparison,
 * 4 a history.json. */
static void fuzz_dir(const uint8_t *d, size_t n, int what)
{
    if (!tmpdir) {
        char t[] = "/tmp/fuzz_data.XXXXXX";
        if (!mkdtemp(t))
            die("mkdtemp");
        tmpdir = pr_xstrdup(t);
        atexit(cleanup);
        /* The log a record may name, and a second run with a valid record
         * of another case (the duplicate-case check compares against it). */
        char *p = pr_xasprintf("%s/data/runs/r1/logs/train_log/c1", tmpdir);
        write_file(p, "ips: 1\n", 7);
        free(p);
        p = pr_xasprintf("%s/data/runs/r0/logs/train_log/c0", tmpdir);
        write_file(p, "ips: 1\n", 7);
        free(p);
        static const char rec[] =
            "{\"log_file\": \"logs/train_log/c0\", \"model_name\": \"m\", \"mission_name\": \"\",\n"
            " \"direction_id\": 0, \"run_mode\": \"sp\", \"index\": 1, \"gpu_num\": 1,\n"
            " \"FINAL_RESULT\": 1.5, \"JOB_FAIL_FLAG\": 0, \"UNIT\": \"samples/s\",\n"
            " \"perfrepro\": 1, \"model\": \"M\", \"framework\": \"F\", \"case\": \"c0\",\n"
            " \"precision\": \"fp32\", \"batch_size\": 8, \"nodes\": 1, \"gpus_per_node\": 1,\n"
            " \"repeat\": 1, \"origin\": \"parsed\"}\n";
        p = pr_xasprintf("%s/data/runs/r0/logs/index/c0_speed", tmpdir);
        write_file(p, rec, sizeof rec - 1);
        free(p);
    }
    char *files[5] = {pr_xasprintf("%s/data/runs/r1/logs/index/c1_speed", tmpdir),
                      pr_xasprintf("%s/data/runs/r1/env.json", tmpdir),
                      pr_xasprintf("%s/data/bench/b.json", tmpdir),
                      pr_xasprintf("%s/data/comparisons/c.json", tmpdir),
                      pr_xasprintf("%s/data/history.json", tmpdir)};
    for (int i = 0; i < 5; i++)
        if (i == what)
            write_file(files[i], d, n);
        else
            unlink(files[i]);
    char *dir = pr_xasprintf("%s/data", tmpdir);
    pr_dataset *ds = NULL;
    pr_err e;
    if (data_load(dir, &ds, &e) < 0)
        check_msg(&e);
    else
        data_free(ds);
    free(dir);
    for (int i = 0; i < 5; i++)
        free(files[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    pr_jdoc_json_init();
    const uint8_t *d = data + 1;
    size_t n = size - 1;
    switch (data[0] % 9) {
    case 0:
        fuzz_suite(d, n);
        break;
    case 1:
        fuzz_record(d, n);
        break;
    case 2:
        fuzz_published(d, n);
        break;
    case 3:
        fuzz_rule(d, n);
        break;
    case 4:
        fuzz_dir(d, n, 0);
        break;
    case 5:
        fuzz_dir(d, n, 1);
        break;
    case 6:
        fuzz_dir(d, n, 2);
        break;
    case 7:
        fuzz_dir(d, n, 3);
        break;
    case 8:
        fuzz_dir(d, n, 4);
        break;
    }
    return 0;
}
