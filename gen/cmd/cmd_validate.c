/* cmd_validate: `perfrepro-gen validate`, the data loaded and checked as
 * build checks it, nothing written. */
#include <stdio.h>

#include "1-load/data.h"
#include "2-model/audit.h"
#include "gen_cmd.h"
#include "jdoc.h"

static int run(int argc, char **argv);

const pr_cli_command cmd_validate_command = {
    "validate", run, "perfrepro-gen validate [--data DIR]\n",
    "validate  load and validate the data only (also each fit report against the\n"
    "          figure its table prints, as build checks it); print a summary\n",
    NULL};

static int run(int argc, char **argv)
{
    const char *data = "data";
    const pr_cli_option opts[] = {
        {"--data", .value = &data},
    };
    int parsed =
        pr_cli_parse(GEN_PROG, &cmd_validate_command, opts, sizeof opts / sizeof *opts, argc, argv);
    if (parsed != CLI_OK)
        return pr_cli_status(parsed);
    pr_jdoc_json_init();
    pr_err err;
    pr_dataset *d = NULL;
    audit_model *audit = NULL;
    int rc = 1;
    /* The checks build makes of the data beyond loading it: each fit report
     * against the figure its table prints (audit.h). */
    if (data_load(data, &d, &err) < 0 || audit_build(d, &audit, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
        goto out;
    }
    size_t nrec = 0;
    for (size_t i = 0; i < d->nruns; i++)
        nrec += d->runs[i].nrecords;
    printf("%s: %zu suites, %zu published tables, %zu runs, %zu records: valid\n", data, d->nsuites,
           d->npubs, d->nruns, nrec);
    rc = 0;
out:
    audit_free(audit);
    data_free(d);
    return rc;
}
