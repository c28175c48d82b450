/* perfrepro-gen: records, published figures and templates in; reports out.
 *
 *   perfrepro-gen build [--data DIR] [--templates DIR] [--out DIR]
 *   perfrepro-gen validate [--data DIR]
 *
 * Exit status: 0 success, 1 invalid input or a failed write, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "jdoc.h"
#include "report.h"

#define PR_VERSION "0.1.0"

static void usage(FILE *f)
{
    fputs("usage: perfrepro-gen build [--data DIR] [--templates DIR] [--out DIR] [--no-charts]\n"
          "       perfrepro-gen validate [--data DIR]\n"
          "       perfrepro-gen --version\n"
          "\n"
          "build     load and validate DIR (default data), write the reports tree to OUT\n"
          "          (default reports): README.md (Chinese) and README.en.md (English)\n"
          "          per page, from the templates in TEMPLATES (default templates)\n"
          "validate  load and validate the data only; print a summary\n",
          f);
}

int main(int argc, char **argv)
{
    const char *data = "data", *templates = "templates", *out = "reports";
    int charts = 1;
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("perfrepro-gen %s\n", PR_VERSION);
        return 0;
    }
    if (strcmp(cmd, "build") && strcmp(cmd, "validate")) {
        fprintf(stderr, "perfrepro-gen: unknown command '%s'\n", cmd);
        usage(stderr);
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        const char **dst = !strcmp(argv[i], "--data")        ? &data
                           : !strcmp(argv[i], "--templates") ? &templates
                           : !strcmp(argv[i], "--out")       ? &out
                                                             : NULL;
        if (dst && i + 1 < argc) {
            *dst = argv[++i];
        } else if (!strcmp(argv[i], "--no-charts")) {
            charts = 0;
        } else {
            fprintf(stderr, "perfrepro-gen: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    pr_json_init();
    pr_err err;
    pr_dataset *d = NULL;
    if (pr_data_load(data, &d, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
        return 1;
    }
    int rc = 0;
    if (!strcmp(cmd, "validate")) {
        size_t nrec = 0;
        for (size_t i = 0; i < d->nruns; i++)
            nrec += d->runs[i].nrecords;
        printf("%s: %zu suites, %zu published tables, %zu runs, %zu records: valid\n", data,
               d->nsuites, d->npubs, d->nruns, nrec);
    } else {
        pr_report_opts o = {templates, out, charts};
        if (pr_report_build(d, &o, &err) < 0) {
            fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
            rc = 1;
        }
    }
    pr_data_free(d);
    return rc;
}
