/* cmd_build: `perfrepro-gen build`, the data through the pipeline into the
 * reports tree (report.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "1-load/data.h"
#include "base/workers.h"
#include "gen_cmd.h"
#include "jdoc.h"
#include "report.h"

static int run(int argc, char **argv);

const pr_cli_command cmd_build_command = {
    "build", run,
    "perfrepro-gen build [--data DIR] [--templates DIR] [--out DIR] [--no-charts]\n"
    "          [--budget-mb MB] [--jobs N]\n",
    "build     load and validate DIR (default data), write the reports tree to OUT\n"
    "          (default reports): README.md (Chinese) and README.en.md (English)\n"
    "          per page, from the templates in TEMPLATES (default templates);\n"
    "          prints the files and bytes written; with --budget-mb a generation\n"
    "          over MB megabytes (10^6 bytes) fails and OUT stays as it was;\n"
    "          --jobs N builds the pages on N threads (default: one per\n"
    "          processor, at most 8; 1 for debugging): the same bytes with any N\n",
    NULL};

/* --budget-mb: a positive decimal number of megabytes (10^6 bytes) into
 * *bytes (0: no budget); 2 (printed) when it is not one. */
static int budget_of(const char *budget, unsigned long long *bytes)
{
    *bytes = 0;
    if (!budget)
        return 0;
    char *end = NULL;
    errno = 0;
    double mb = strtod(budget, &end);
    if (end == budget || *end || errno || !(mb > 0) || mb > 1e12) {
        fprintf(stderr,
                "perfrepro-gen: build: --budget-mb '%s': not a positive number of "
                "megabytes\n",
                budget);
        return 2;
    }
    *bytes = (unsigned long long)(mb * 1e6);
    return 0;
}

/* --jobs: a whole number of threads from 1 to WK_MAX_THREADS into *jobs
 * (0: one per processor); 2 (printed) when it is not one. */
static int jobs_of(const char *arg, size_t *jobs)
{
    *jobs = 0;
    if (!arg)
        return 0;
    char *end = NULL;
    errno = 0;
    long n = strtol(arg, &end, 10);
    if (end == arg || *end || errno || n < 1 || n > WK_MAX_THREADS) {
        fprintf(stderr,
                "perfrepro-gen: build: --jobs '%s': not a whole number of threads from 1 to "
                "%d\n",
                arg, WK_MAX_THREADS);
        return 2;
    }
    *jobs = (size_t)n;
    return 0;
}

static int run(int argc, char **argv)
{
    const char *data = "data", *templates = "templates", *out = "reports", *budget = NULL,
               *jobs_arg = NULL;
    int no_charts = 0;
    const pr_cli_option opts[] = {
        {"--data", .value = &data},        {"--templates", .value = &templates},
        {"--out", .value = &out},          {"--no-charts", .flag = &no_charts},
        {"--budget-mb", .value = &budget}, {"--jobs", .value = &jobs_arg},
    };
    int parsed =
        pr_cli_parse(GEN_PROG, &cmd_build_command, opts, sizeof opts / sizeof *opts, argc, argv);
    if (parsed != CLI_OK)
        return pr_cli_status(parsed);
    unsigned long long budget_bytes;
    size_t jobs;
    if (budget_of(budget, &budget_bytes) || jobs_of(jobs_arg, &jobs))
        return 2;
    pr_jdoc_json_init();
    pr_err err;
    pr_dataset *d = NULL;
    if (data_load(data, &d, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
        return 1;
    }
    int rc = 0;
    pr_report_stats st = {0, 0, 0};
    pr_report_opts o = {templates, out, !no_charts, budget_bytes, &st, jobs};
    if (report_build(d, &o, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
        rc = 1;
    } else {
        printf("%s: %zu files, %.2f MB (%llu bytes), %zu new or rewritten", out, st.files,
               st.bytes / 1e6, st.bytes, st.rewritten);
        if (budget_bytes)
            printf("; budget %.2f MB", budget_bytes / 1e6);
        printf("\n");
    }
    data_free(d);
    return rc;
}
