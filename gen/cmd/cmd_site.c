/* cmd_site: `perfrepro-gen site`, the reports as a static HTML site (site.h). */
#include <stdio.h>

#include "6-output/site.h"
#include "gen_cmd.h"

static int run(int argc, char **argv);

const pr_cli_command cmd_site_command = {
    "site", run, "perfrepro-gen site [--reports DIR] [--out DIR] [--root DIR] [--templates DIR]\n",
    "site      render REPORTS (default reports) as a static HTML site in OUT\n"
    "          (default build/site): README.md -> index.html, README.en.md ->\n"
    "          index.en.html; linked charts, logs and suites copied in (a log\n"
    "          whose name is not .txt/.log/.json/.csv/.png gets .txt appended);\n"
    "          nothing that resolves outside ROOT is read\n",
    NULL};

static int run(int argc, char **argv)
{
    pr_site_opts o = {"reports", "build/site", NULL, "templates"};
    const pr_cli_option opts[] = {
        {"--reports", .value = &o.reports},
        {"--out", .value = &o.out},
        {"--root", .value = &o.root},
        {"--templates", .value = &o.templates},
    };
    int parsed =
        pr_cli_parse(GEN_PROG, &cmd_site_command, opts, sizeof opts / sizeof *opts, argc, argv);
    if (parsed != CLI_OK)
        return pr_cli_status(parsed);
    pr_site_stats st;
    pr_err err;
    if (site_build(&o, &st, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
        return 1;
    }
    printf("%s: %zu pages, %zu files copied; %zu written, %zu removed\n", o.out, st.pages, st.files,
           st.written, st.removed);
    if (st.unresolved)
        fprintf(stderr,
                "perfrepro-gen: %zu relative links left as they are (perfrepro-gen check)\n",
                st.unresolved);
    return 0;
}
