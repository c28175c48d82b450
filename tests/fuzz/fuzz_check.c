/* fuzz_check: the report checker on Markdown pages.
 *
 * The input is PAGE \0 OTHER: PAGE is written to ROOT/reports/M/F/README.md
 * and OTHER (when given) to ROOT/reports/M/README.md, beside fixed files the
 * pages may link to (ROOT/data/runs/r/logs/train_log/c, ROOT/reports/README.md
 * with a few headings, a chart image).  check_reports then checks the
 * folder.  It must return 0 with problems that each name a page, a message
 * and a known kind, or -1 with a message; never crash or hang.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "6-output/check.h"
#include "buf.h"
#include "err.h"
#include "fileio.h"

static char *root;

static void die(const char *what)
{
    fprintf(stderr, "fuzz_check: %s\n", what);
    abort();
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
    if (root)
        nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void put(const char *rel, const void *d, size_t n)
{
    char *p = pr_fileio_path_join(root, rel);
    pr_err e;
    if (pr_fileio_write_if_changed(p, d, n, &e) < 0) /* no fsync: speed */
        die(e.msg);
    free(p);
}

static void setup(void)
{
    char t[] = "/tmp/fuzz_check.XXXXXX";
    if (!mkdtemp(t))
        die("mkdtemp");
    root = pr_xstrdup(t);
    atexit(cleanup);
    static const char index[] = "# Reports\n\n## ResNet50\n\n## ResNet50\n\n### 吞吐 (images/s)\n";
    put("reports/README.md", index, sizeof index - 1);
    put("reports/M/F/chart.svg", "<svg/>", 6);
    put("data/runs/r/logs/train_log/c", "ips: 1\n", 7);
    put("reports/.hidden/README.md", "[x](nowhere)\n", 13);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!root)
        setup();
    const uint8_t *z = memchr(data, '\0', size);
    size_t n1 = z ? (size_t)(z - data) : size;
    put("reports/M/F/README.md", data, n1);
    char *other = pr_fileio_path_join(root, "reports/M/README.md");
    if (z)
        put("reports/M/README.md", z + 1, size - n1 - 1);
    else
        unlink(other);
    free(other);

    char *reports = pr_fileio_path_join(root, "reports");
    pr_check_opts o = {reports, root};
    pr_check_result r = PR_CHECK_RESULT_INIT;
    pr_err e;
    e.msg[0] = '\0';
    if (check_reports(&o, &r, &e) < 0) {
        if (!e.msg[0])
            die("an error without a message");
    } else {
        for (size_t i = 0; i < r.nproblems; i++) {
            const pr_check_problem *p = &r.problems[i];
            if (!p->file || !p->msg || (unsigned)p->kind >= PR_CHECK_NKINDS)
                die("a malformed problem");
            pr_buf b = PR_BUF_INIT;
            check_format(p, &b);
            pr_buf_free(&b);
        }
        if (r.npages != 2 + (z != NULL))
            die("a page was not checked");
    }
    check_result_free(&r);
    free(reports);
    return 0;
}
