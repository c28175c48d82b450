/* data_bench: benchmark files of perfrepro itself (DATA/bench/NAME.json), read and checked. */
#include "data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jdoc.h"
#include "data_int.h"

static const char *const bench_keys[] = {
    "perfrepro", "benchmark", "title_zh", "title_en", "date",
    "commit",    "machine",   "command",  "unit",     "higher_is_better",
    "results",   "ratio",     "target",   "notes",    NULL};

static const char *const bench_result_keys[] = {"tool",  "median",   "min",         "max",
                                                "runs",  "timed_as", "peak_rss_mb", "peak_rss_runs",
                                                "pages", "records",  NULL};

/* Frees what b owns (not b). */
void data_free_bench(pr_bench *b)
{
    char *strs[] = {b->file,          b->name, b->title_zh, b->title_en,          b->date,
                    b->command,       b->unit, b->commit,   b->machine.cpu_model, b->machine.os,
                    b->machine.kernel};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
        free(strs[i]);
    pr_bitext_free(&b->notes);
    pr_bitext_free(&b->ratio_text);
    pr_bitext_free(&b->target_text);
    for (size_t i = 0; i < b->nresults; i++)
        pr_bitext_free(&b->results[i].tool);
    free(b->results);
}

/* A copy of string field key of c (the caller frees it), NULL when absent;
 * *rc set to -1 on an error. */
static char *dup_field(const pr_jdoc_jcur *c, const char *key, int required, int *rc, pr_err *err)
{
    const char *s = NULL;
    int r = pr_jdoc_jstr(c, key, required, &s, err);
    if (r < 0)
        *rc = -1;
    return r == 1 ? pr_xstrdup(s) : NULL;
}

/* A full commit id, as git rev-parse HEAD prints it: 40 hexadecimal digits
 * (64 in a SHA-256 repository), lower case. */
static int full_commit_id(const char *s)
{
    size_t n = strspn(s, "0123456789abcdef");
    return s[n] == '\0' && (n == 40 || n == 64);
}

/* "commit": {"id", "dirty"} into b->commit (owned by b), b->dirty; 0 and
 * b->commit NULL when the file names none. */
static int read_bench_commit(const pr_jdoc_jcur *root, pr_bench *b, pr_err *err)
{
    static const char *const keys[] = {"id", "dirty", NULL};
    pr_jdoc_jcur c;
    const char *id;
    int has = pr_jdoc_jobj(root, "commit", 0, &c, err);
    if (has <= 0)
        return has;
    if (pr_jdoc_jobject(&c, keys, err) < 0 || pr_jdoc_jstr(&c, "id", 1, &id, err) < 0 ||
        pr_jdoc_jbool(&c, "dirty", 1, &b->dirty, err) < 0)
        return -1;
    if (!full_commit_id(id)) {
        pr_jdoc_jcur at = pr_jdoc_jchild(&c, "id");
        return pr_jdoc_jfail(&at, err,
                             "\"%s\" is not a full commit id (git rev-parse HEAD: 40 lower-case "
                             "hexadecimal digits)",
                             id);
    }
    b->commit = pr_xstrdup(id);
    return 0;
}

/* "machine" into b->machine (strings owned by b).  A file that names its
 * commit was written by make bench as it is now, which also names the CPU
 * model, the CPUs and the memory: they are then required. */
static int read_bench_machine(const pr_jdoc_jcur *root, pr_bench *b, pr_err *err)
{
    static const char *const keys[] = {"cpu_model", "cpu_count", "memory_mb", "os", "kernel", NULL};
    static const char *const needed[] = {"cpu_model", "cpu_count", "memory_mb", NULL};
    pr_jdoc_jcur m;
    int rc = 0;
    if (pr_jdoc_jobj(root, "machine", 1, &m, err) < 0 || pr_jdoc_jobject(&m, keys, err) < 0)
        return -1;
    for (const char *const *k = needed; b->commit && *k; k++) {
        pr_jdoc_jcur at = pr_jdoc_jchild(&m, *k);
        if (!at.v)
            return pr_jdoc_jfail(&at, err,
                                 "missing: a benchmark that names its commit names its machine "
                                 "(cpu_model, cpu_count, memory_mb), as make bench writes it");
    }
    b->machine.cpu_model = dup_field(&m, "cpu_model", 0, &rc, err);
    if (rc == 0)
        b->machine.os = dup_field(&m, "os", 0, &rc, err);
    if (rc == 0)
        b->machine.kernel = dup_field(&m, "kernel", 0, &rc, err);
    if (rc < 0 || pr_jdoc_jint(&m, "cpu_count", 0, 1, 1 << 20, &b->machine.cpu_count, err) < 0 ||
        pr_jdoc_jint(&m, "memory_mb", 0, 1, 1LL << 40, &b->machine.memory_mb, err) < 0)
        return -1;
    if (b->machine.cpu_model && !*b->machine.cpu_model) {
        pr_jdoc_jcur at = pr_jdoc_jchild(&m, "cpu_model");
        return pr_jdoc_jfail(&at, err, "empty: the CPU model as /proc/cpuinfo names it");
    }
    return 0;
}

/* One result (at it) into r (its tool then owned by the bench: data_free_bench). */
static int read_bench_result(const pr_jdoc_jcur *it, pr_bench_result *r, pr_err *err)
{
    static const char *const timings[] = {"each", "loop", NULL};
    const char *timed = "each";
    long long v;
    double tmp;
    r->min = r->max = r->peak_rss_mb = NAN;
    if (pr_jdoc_jobject(it, bench_result_keys, err) < 0)
        return -1;
    if (pr_bitext_jbitext(it, "tool", 1, &r->tool, err) < 0 ||
        pr_jdoc_jnum(it, "median", 1, 0, &r->median, err) < 0 ||
        pr_jdoc_jnum(it, "min", 0, 0, &r->min, err) < 0 ||
        pr_jdoc_jnum(it, "max", 0, 0, &r->max, err) < 0 ||
        pr_jdoc_jint(it, "runs", 1, 1, 1 << 20, &v, err) < 0)
        return -1;
    r->runs = (int)v;
    if (pr_jdoc_jnum(it, "peak_rss_mb", 0, 0, &r->peak_rss_mb, err) < 0)
        return -1;
    int has = pr_jdoc_jint(it, "peak_rss_runs", 0, 1, 1 << 20, &v, err);
    if (has < 0)
        return -1;
    r->peak_rss_runs = has ? (int)v : 0;
    pr_jdoc_jcur at = pr_jdoc_jchild(it, "peak_rss_runs");
    if (has && isnan(r->peak_rss_mb))
        return pr_jdoc_jfail(&at, err, "no \"peak_rss_mb\" to be the largest of these runs");
    if (pr_jdoc_jenum(it, "timed_as", 0, timings, &timed, err) < 0)
        return -1;
    r->timed_as_loop = strcmp(timed, "loop") == 0;
    if (r->timed_as_loop && (!isnan(r->min) || !isnan(r->max)))
        return pr_jdoc_jfail(it, err, "runs timed as one loop have no min or max of their own");
    if (pr_jdoc_jnum(it, "pages", 0, 0, &tmp, err) < 0 ||
        pr_jdoc_jnum(it, "records", 0, 0, &tmp, err) < 0)
        return -1;
    return 0;
}

/* "ratio": the two results it names (borrowed from b->results), its label
 * into b->ratio_text. */
static int read_bench_ratio(const pr_jdoc_jcur *root, pr_bench *b, pr_err *err)
{
    /* The ratio names its two results, and the page divides their medians:
     * a stored quotient (1.36 for 109.2 ÷ 80.0) drifted from the figures it
     * was made of.  A result is named by its tool (its English text when it
     * has two), and only a result of this file: the figures of two files
     * come from two runs, perhaps two machines or commits. */
    static const char *const keys[] = {"of", "to", "text", NULL};
    const char *of, *to;
    pr_jdoc_jcur c;
    int has = pr_jdoc_jobj(root, "ratio", 0, &c, err);
    if (has <= 0)
        return has;
    if (pr_jdoc_jobject(&c, keys, err) < 0 || pr_jdoc_jstr(&c, "of", 1, &of, err) < 0 ||
        pr_jdoc_jstr(&c, "to", 1, &to, err) < 0 ||
        pr_bitext_jbitext(&c, "text", 0, &b->ratio_text, err) < 0)
        return -1;
    for (size_t i = 0; i < b->nresults; i++) {
        const char *tool = pr_bitext_in(&b->results[i].tool, "en");
        if (strcmp(tool, of) == 0 && !b->ratio_of)
            b->ratio_of = &b->results[i];
        if (strcmp(tool, to) == 0 && !b->ratio_to)
            b->ratio_to = &b->results[i];
    }
    pr_jdoc_jcur bad = pr_jdoc_jchild(&c, !b->ratio_of ? "of" : "to");
    if (!b->ratio_of || !b->ratio_to)
        return pr_jdoc_jfail(
            &bad, err,
            "\"%s\" names no result of this benchmark (a result's \"tool\"): a ratio "
            "divides two results of one file, measured in one run, never figures "
            "of two files",
            !b->ratio_of ? of : to);
    if (b->ratio_of == b->ratio_to)
        return pr_jdoc_jfail(&c, err, "\"of\" and \"to\" name the same result");
    return 0;
}

/* The benchmark file at root into b (zeroed; what it fills in is b's, freed
 * with data_free_bench also on an error). */
static int read_bench(const pr_jdoc_jcur *root, pr_bench *b, pr_err *err)
{
    long long v;
    int rc = 0;
    pr_jdoc_jcur res, c;
    if (pr_jdoc_jobject(root, bench_keys, err) < 0 || pr_record_text_check(root, err) < 0 ||
        pr_jdoc_jint(root, "perfrepro", 1, 1, 1, &v, err) < 0)
        return -1;
    b->name = dup_field(root, "benchmark", 1, &rc, err);
    if (rc == 0)
        b->title_zh = dup_field(root, "title_zh", 1, &rc, err);
    if (rc == 0)
        b->title_en = dup_field(root, "title_en", 1, &rc, err);
    if (rc == 0)
        b->date = dup_field(root, "date", 1, &rc, err);
    if (rc == 0)
        b->command = dup_field(root, "command", 1, &rc, err);
    if (rc == 0)
        b->unit = dup_field(root, "unit", 1, &rc, err);
    if (rc == 0 && pr_bitext_jbitext(root, "notes", 0, &b->notes, err) < 0)
        rc = -1;
    if (rc < 0 || pr_jdoc_jbool(root, "higher_is_better", 1, &b->higher_is_better, err) < 0 ||
        read_bench_commit(root, b, err) < 0 || read_bench_machine(root, b, err) < 0 ||
        pr_jdoc_jarr(root, "results", 1, 1, &res, err) < 0)
        return -1;
    b->nresults = json_array_size(res.v);
    b->results = pr_xcalloc(b->nresults, sizeof *b->results);
    for (size_t i = 0; i < b->nresults; i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&res, i);
        if (read_bench_result(&it, &b->results[i], err) < 0)
            return -1;
    }
    if (read_bench_ratio(root, b, err) < 0)
        return -1;
    int has = pr_jdoc_jobj(root, "target", 0, &c, err);
    if (has < 0)
        return -1;
    if (has) {
        static const char *const keys[] = {"text", "met", NULL};
        if (pr_jdoc_jobject(&c, keys, err) < 0 ||
            pr_jdoc_jbool(&c, "met", 1, &b->target_met, err) < 0)
            return -1;
        if (pr_bitext_jbitext(&c, "text", 1, &b->target_text, err) < 0)
            return -1;
    }
    return 0;
}

int data_load_bench(pr_dataset *d, const char *path, pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_bench b;
    memset(&b, 0, sizeof b);
    b.file = pr_xstrdup(path);
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    int rc = read_bench(&root, &b, err);
    pr_jdoc_free(doc);
    if (rc < 0) {
        data_free_bench(&b);
        return -1;
    }
    d->benches = pr_xrealloc(d->benches, (d->nbenches + 1) * sizeof *d->benches);
    d->benches[d->nbenches++] = b;
    return 0;
}
