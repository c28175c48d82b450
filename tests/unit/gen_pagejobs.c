/* Pages built on several threads (gen/6-output/pagejobs.c): their files
 * reach the writer in job order whatever the number of threads, the first
 * failing job in that order is the one reported, and the shared pieces the
 * jobs read (a template's partials, the language check's automaton) give
 * the same on every thread.  No clock: outcomes only.  `make tsan` runs
 * these under ThreadSanitizer. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "6-output/langcheck.h"
#include "6-output/pagejobs.h"
#include "base/workers.h"
#include "buf.h"
#include "template/mustache.h"

enum { NITEMS = 100 };

/* What reached emit, one "PATH=LEN;" each, and the items done. */
typedef struct seen {
    pr_buf files;
    pr_buf done;
    int fail_at, fail_also; /* items whose job fails (-1: none) */
    int emit_fail_at;       /* the emit of this item's first file fails */
} seen;

static int record_emit(void *ctx, const char *path, const char *data, size_t len, pr_err *err)
{
    seen *s = ctx;
    int item = atoi(path);
    if (item == s->emit_fail_at && strstr(path, "/a"))
        return pr_err_set(err, path, 0, 0, NULL, "disk full");
    /* the bytes are the job's: item's number repeated */
    for (size_t i = 0; i < len; i++)
        cr_assert_eq(data[i], (char)('0' + item % 10), "%s byte %zu", path, i);
    pr_buf_printf(&s->files, "%s=%zu;", path, len);
    return 0;
}

/* pagejobs_fn: item i makes i % 3 + 1 files of lengths that differ by item;
 * a failing item makes its first file, then fails. */
static int job(void *ctx, size_t i, emit_fn emit, void *ectx, pr_err *err)
{
    seen *s = ctx;
    size_t nfiles = i % 3 + 1;
    for (size_t f = 0; f < nfiles; f++) {
        size_t len = (i * 7919 + f * 104729) % 5000;
        char *data = malloc(len + 1);
        memset(data, '0' + (int)(i % 10), len);
        char path[64];
        snprintf(path, sizeof path, "%zu/%c", i, "abc"[f]);
        int rc = emit(ectx, path, data, len, err);
        free(data);
        if (rc < 0)
            return rc;
        if ((int)i == s->fail_at || (int)i == s->fail_also)
            return pr_err_set(err, path, (int)i, 0, NULL, "page %zu does not render", i);
    }
    return 0;
}

static void done(void *ctx, size_t i)
{
    seen *s = ctx;
    pr_buf_printf(&s->done, "%zu,", i);
}

/* Runs the jobs on threads threads; returns pagejobs_run's result with
 * what was seen in *s and the message in msg. */
static int run(size_t threads, seen *s, char msg[1024])
{
    pr_err err = {{0}};
    int rc = pagejobs_run(threads, NITEMS, job, done, s, record_emit, s, &err);
    memcpy(msg, err.msg, sizeof err.msg);
    return rc;
}

static const size_t thread_counts[] = {1, 2, 3, 8, 0};

Test(pagejobs, files_in_job_order_on_any_number_of_threads)
{
    seen one = {PR_BUF_INIT, PR_BUF_INIT, -1, -1, -1};
    char msg[1024];
    cr_assert_eq(run(1, &one, msg), 0);
    cr_assert(strstr(pr_buf_cstr(&one.files), "0/a=0;1/a="), "%s", pr_buf_cstr(&one.files));
    for (size_t k = 1; k < sizeof thread_counts / sizeof *thread_counts; k++) {
        seen s = {PR_BUF_INIT, PR_BUF_INIT, -1, -1, -1};
        cr_assert_eq(run(thread_counts[k], &s, msg), 0);
        cr_assert_str_eq(pr_buf_cstr(&s.files), pr_buf_cstr(&one.files), "%zu threads",
                         thread_counts[k]);
        cr_assert_str_eq(pr_buf_cstr(&s.done), pr_buf_cstr(&one.done), "%zu threads",
                         thread_counts[k]);
        pr_buf_free(&s.files);
        pr_buf_free(&s.done);
    }
    pr_buf_free(&one.files);
    pr_buf_free(&one.done);
}

/* Items 97 and 41 fail: item 41 comes first in page order, also when a
 * thread reaches 97 first; its first file is passed on (as one after
 * another), nothing after it, and no item from 41 on is done. */
Test(pagejobs, the_first_failing_job_in_order_is_reported)
{
    seen one = {PR_BUF_INIT, PR_BUF_INIT, 97, 41, -1};
    char msg1[1024], msg[1024];
    cr_assert_eq(run(1, &one, msg1), -1);
    cr_assert(strstr(msg1, "page 41 does not render"), "%s", msg1);
    cr_assert(strstr(msg1, "41/a"), "%s", msg1);
    const char *files = pr_buf_cstr(&one.files);
    cr_assert(strstr(files, "41/a="), "%s", files);
    cr_assert_null(strstr(files, "42/"), "%s", files);
    cr_assert_null(strstr(pr_buf_cstr(&one.done), ",41,"));
    cr_assert(strstr(pr_buf_cstr(&one.done), ",40,"));
    for (size_t k = 1; k < sizeof thread_counts / sizeof *thread_counts; k++) {
        seen s = {PR_BUF_INIT, PR_BUF_INIT, 97, 41, -1};
        cr_assert_eq(run(thread_counts[k], &s, msg), -1);
        cr_assert_str_eq(msg, msg1, "%zu threads", thread_counts[k]);
        cr_assert_str_eq(pr_buf_cstr(&s.files), files, "%zu threads", thread_counts[k]);
        cr_assert_str_eq(pr_buf_cstr(&s.done), pr_buf_cstr(&one.done), "%zu threads",
                         thread_counts[k]);
        pr_buf_free(&s.files);
        pr_buf_free(&s.done);
    }
    pr_buf_free(&one.files);
    pr_buf_free(&one.done);
}

Test(pagejobs, a_failing_emit_stops_in_order)
{
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++) {
        seen s = {PR_BUF_INIT, PR_BUF_INIT, -1, -1, 63};
        char msg[1024];
        cr_assert_eq(run(thread_counts[k], &s, msg), -1);
        cr_assert(strstr(msg, "63/a") && strstr(msg, "disk full"), "%s", msg);
        cr_assert(strstr(pr_buf_cstr(&s.files), "62/"));
        cr_assert_null(strstr(pr_buf_cstr(&s.files), "63/"));
        cr_assert_null(strstr(pr_buf_cstr(&s.done), ",63,"));
        pr_buf_free(&s.files);
        pr_buf_free(&s.done);
    }
}

/* ---------------------------------------------------------------- shared pieces */

/* A partial per name: "<NAME:{{x}}>" (a second level for "outer"). */
static int load_partial(void *ctx, const char *name, pr_buf *out, pr_err *err)
{
    (void)ctx;
    (void)err;
    if (!strcmp(name, "outer"))
        pr_buf_puts(out, "[{{>inner}}{{>*dyn}}]");
    else
        pr_buf_printf(out, "<%s:{{x}}>", name);
    return 1;
}

typedef struct render_job {
    pr_mustache_tmpl *t;
    langcheck_names *ns;
    char *out[64];
    int render_rc[64], check_rc[64];
} render_job;

/* workers_job_fn: renders the shared template (its partials parsed by the
 * first renders, on whichever thread) and checks the result (asserted on
 * the test's thread). */
static void render_one(void *ctx, size_t i)
{
    render_job *r = ctx;
    pr_buf b = PR_BUF_INIT;
    pr_err err;
    pr_mustache_opts o = {0};
    o.load_partial = load_partial;
    json_t *v = json_pack("{s:i,s:s}", "x", (int)i, "dyn", i % 2 ? "odd" : "even");
    r->render_rc[i] = mustache_render_tmpl(r->t, v, &o, &b, &err);
    r->check_rc[i] = langcheck_check_page("P.md", "en", pr_buf_cstr(&b), b.len, r->ns, &err);
    r->out[i] = pr_buf_detach(&b);
    json_decref(v);
}

Test(pagejobs, a_template_and_the_language_check_shared_by_threads)
{
    const char *src = "{{x}} {{>outer}} {{>*dyn}} Model 名字 {{x}}\n";
    langcheck_names ns = LC_NAMES_INIT;
    langcheck_names_add(&ns, "Model 名字", 1);
    langcheck_names_prepare(&ns);
    render_job r = {NULL, &ns, {NULL}, {0}, {0}};
    pr_err err;
    cr_assert_eq(mustache_compile(src, strlen(src), "t", &r.t, &err), 0);
    workers_run_on(8, 64, render_one, &r);
    for (size_t i = 0; i < 64; i++) {
        char want[256];
        const char *dyn = i % 2 ? "odd" : "even";
        snprintf(want, sizeof want, "%zu [<inner:%zu><%s:%zu>] <%s:%zu> Model 名字 %zu\n", i, i,
                 dyn, i, dyn, i, i);
        cr_assert_eq(r.render_rc[i], 0);
        cr_assert_str_eq(r.out[i], want);
        cr_assert_eq(r.check_rc[i], 0, "the name holds Chinese and may");
        free(r.out[i]);
    }
    cr_assert_gt(ns.work, 0);
    mustache_tmpl_free(r.t);
    langcheck_names_free(&ns);
}
