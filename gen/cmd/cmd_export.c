/* cmd_export: `perfrepro-gen export`, every figure the reports show as
 * data (export.h). */
#include <stdio.h>

#include "1-load/data.h"
#include "2-model/audit.h"
#include "2-model/rmodel.h"
#include "6-output/export.h"
#include "gen_cmd.h"
#include "jdoc.h"
#include "outfile.h"

static int run(int argc, char **argv);

const pr_cli_command cmd_export_command = {
    "export", run,
    "perfrepro-gen export [--data DIR] --format csv|jsonl|bencher|otava [--bom]\n"
    "          [--out FILE]\n",
    "export    write every figure the reports show as data, one row per figure:\n"
    "          each reproduced cell (median, interval, runs, speedup, efficiency,\n"
    "          the published figure, gap and verdict, flags, log, rule; a failed\n"
    "          cell with its reason) and each published table's rows as printed\n"
    "          (docs/report-format.md, \"Figures as data\").  csv: RFC 4180 with a\n"
    "          header; jsonl: one JSON object a line; bencher: Bencher Metric\n"
    "          Format JSON of the reproduced figures; otava: Apache Otava's CSV\n"
    "          (time, attributes, throughput).  --bom (csv, otava) starts with a\n"
    "          UTF-8 byte order mark for spreadsheets; --out writes FILE\n"
    "          atomically (default: standard output).  Byte-identical per input.\n",
    NULL};

static int run(int argc, char **argv)
{
    const char *data = "data", *format = NULL, *out = NULL;
    int bom = 0;
    export_format fmt = EX_CSV;
    const pr_cli_option opts[] = {
        {"--data", .value = &data},
        {"--format", .value = &format, .required = 1},
        {"--bom", .flag = &bom},
        {"--out", .value = &out},
    };
    int parsed =
        pr_cli_parse(GEN_PROG, &cmd_export_command, opts, sizeof opts / sizeof *opts, argc, argv);
    if (parsed != CLI_OK)
        return pr_cli_status(parsed);
    if (export_format_of(format, &fmt) < 0)
        return pr_cli_usage_error(GEN_PROG, &cmd_export_command,
                                  "--format: not csv, jsonl, bencher or otava");
    if (bom && fmt != EX_CSV && fmt != EX_OTAVA)
        return pr_cli_usage_error(GEN_PROG, &cmd_export_command, "--bom is for csv and otava only");
    pr_jdoc_json_init();
    pr_err err;
    pr_dataset *d = NULL;
    if (data_load(data, &d, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
        return 1;
    }
    /* The audit pairs each imported figure with its own source's. */
    audit_model *audit = NULL;
    rmodel_world *w = NULL;
    pr_outfile_out o;
    int rc = audit_build(d, &audit, &err);
    if (rc == 0) {
        w = rmodel_build(d, ".");
        if (audit->nrepos)
            w->audit = audit;
        rc = pr_outfile_open(&o, out, &err);
    }
    if (rc == 0) {
        rc = export_write(w, fmt, bom, &o, &err);
        if (pr_outfile_close(&o, rc == 0, rc == 0 ? &err : NULL) < 0)
            rc = -1;
    }
    if (rc < 0)
        fprintf(stderr, "perfrepro-gen: export: %s\n", err.msg);
    rmodel_free(w);
    audit_free(audit);
    data_free(d);
    return rc < 0 ? 1 : 0;
}
