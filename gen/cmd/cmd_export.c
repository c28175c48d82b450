/* cmd_export: `perfrepro-gen export`, every figure the reports show as
 * data (export.h). */
#include <stdio.h>

#include "audit.h"
#include "data.h"
#include "export.h"
#include "gen_cmd.h"
#include "jdoc.h"
#include "outfile.h"
#include "rmodel.h"

static int run(int argc, char **argv);

const cli_command cmd_export_command = {
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
    "          atomically (default: standard output).  Byte-identical per input.\n", NULL};

static int run(int argc, char **argv)
{
    const char *data = "data", *format = NULL, *out = NULL;
    int bom = 0;
    ex_format fmt = EX_CSV;
    const cli_option opts[] = {
        {"--data", .value = &data},
        {"--format", .value = &format, .required = 1},
        {"--bom", .flag = &bom},
        {"--out", .value = &out},
    };
    int parsed = cli_parse(GEN_PROG, &cmd_export_command, opts, sizeof opts / sizeof *opts, argc,
                           argv);
    if (parsed != CLI_OK)
        return cli_status(parsed);
    if (ex_format_of(format, &fmt) < 0)
        return cli_usage_error(GEN_PROG, &cmd_export_command,
                               "--format: not csv, jsonl, bencher or otava");
    if (bom && fmt != EX_CSV && fmt != EX_OTAVA)
        return cli_usage_error(GEN_PROG, &cmd_export_command, "--bom is for csv and otava only");
    pr_json_init();
    pr_err err;
    pr_dataset *d = NULL;
    if (pr_data_load(data, &d, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
        return 1;
    }
    /* The audit pairs each imported figure with its own source's. */
    au_model *audit = NULL;
    rm_world *w = NULL;
    pr_out o;
    int rc = au_build(d, &audit, &err);
    if (rc == 0) {
        w = rm_build(d, ".");
        if (audit->nrepos)
            w->audit = audit;
        rc = pr_out_open(&o, out, &err);
    }
    if (rc == 0) {
        rc = ex_write(w, fmt, bom, &o, &err);
        if (pr_out_close(&o, rc == 0, rc == 0 ? &err : NULL) < 0)
            rc = -1;
    }
    if (rc < 0)
        fprintf(stderr, "perfrepro-gen: export: %s\n", err.msg);
    rm_free(w);
    au_free(audit);
    pr_data_free(d);
    return rc < 0 ? 1 : 0;
}
