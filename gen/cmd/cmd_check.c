/* cmd_check: `perfrepro-gen check`, the links and pages of the reports
 * (check.h). */
#include <stdio.h>

#include "6-output/check.h"
#include "buf.h"
#include "gen_cmd.h"

static int run(int argc, char **argv);

const pr_cli_command cmd_check_command = {
    "check", run, "perfrepro-gen check [--reports DIR] [--root DIR]\n",
    "check     check every Markdown file of REPORTS (default reports): links to\n"
    "          missing files or anchors, empty targets, TODO/XXX/TBD outside\n"
    "          tables, images without alt text, absolute paths or paths above\n"
    "          ROOT (default: the parent of REPORTS); lists FILE:LINE: problem\n",
    NULL};

static int run(int argc, char **argv)
{
    pr_check_opts o = {"reports", NULL};
    const pr_cli_option opts[] = {
        {"--reports", .value = &o.reports},
        {"--root", .value = &o.root},
    };
    int parsed =
        pr_cli_parse(GEN_PROG, &cmd_check_command, opts, sizeof opts / sizeof *opts, argc, argv);
    if (parsed != CLI_OK)
        return pr_cli_status(parsed);
    pr_check_result r = PR_CHECK_RESULT_INIT;
    pr_err err;
    int rc = 0;
    if (check_reports(&o, &r, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
        rc = 1;
    } else if (r.nproblems) {
        for (size_t i = 0; i < r.nproblems; i++) {
            pr_buf line = PR_BUF_INIT;
            check_format(&r.problems[i], &line);
            puts(pr_buf_cstr(&line));
            pr_buf_free(&line);
        }
        fprintf(stderr, "perfrepro-gen: check: %zu problems in %zu pages\n", r.nproblems, r.npages);
        rc = 1;
    } else {
        printf("%s: %zu pages, %zu links: ok\n", o.reports, r.npages, r.nlinks);
    }
    check_result_free(&r);
    return rc;
}
