/* cmd_import_table: `perfrepro-gen import-table`, one pipe table of a
 * Markdown file into a published-figures file (mdimport.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_cmd.h"
#include "import/mdimport.h"
#include "jdoc.h"
#include "record.h"

static int run(int argc, char **argv);

const pr_cli_command cmd_import_table_command = {
    "import-table", run,
    "perfrepro-gen import-table --markdown FILE (--table N | --after TEXT)\n"
    "          --column NAME --model ID --framework ID --precision P\n"
    "          --batch-size N --unit UNIT --platform ID --repo OWNER/NAME\n"
    "          --commit HEX --path PATH --out PUBLISHED.json [--label L]\n"
    "          [--model-title T] [--framework-title T] [--batch-label L]\n"
    "          [--variant V] [--note TEXT] [--gpus-per-node N]\n"
    "          [--nodes-column NAME] [--gpus-column NAME]\n",
    "import-table  read one pipe table of a Markdown file (cmark-gfm) and add it to\n"
    "          a published-figures file: the GPU count from each row's first cell\n"
    "          (\"8\", \"8卡\", \"4机32卡\", \"GPU=8,BS=96\": a batch size printed there\n"
    "          must be --batch-size), the figure from column NAME (its header text,\n"
    "          links' text) exactly as printed, the source as\n"
    "          https://github.com/OWNER/NAME/blob/HEX/PATH#LLINE (docs/data-model.md).\n"
    "          Tables inside list items count; --after TEXT picks the first table\n"
    "          whose heading or preceding paragraph contains TEXT.  An empty cell,\n"
    "          dashes (\"-\", \"——\") or N/A is no figure; TODO and OOM are states; a\n"
    "          note after a figure (\"33082.12 (O2)\", \"1438.518(O2)\") goes to the\n"
    "          table's note.  --note adds a note; --gpus-per-node (default 8) splits\n"
    "          GPU counts into nodes; --gpus-column NAME reads the (total) GPU count\n"
    "          from that column instead of the first cell, --nodes-column NAME the\n"
    "          node count.  A FILE named *.csv (or *.tsv) is one table (RFC 4180, the first\n"
    "          record its header; --table and --after are not needed), its lines\n"
    "          named as in the CSV file.  A re-import of the same table replaces it.\n"
    "          A figure a number cannot keep exactly, a second row of one\n"
    "          configuration, or a file the build would refuse is an error, and\n"
    "          OUT is left as it was; raw HTML and images in a cell are read as\n"
    "          GitHub shows them (an image by its alt text), with a warning.\n"
    "          Missing required options are all named in one message.\n",
    NULL};

/* The value of a whole-number option: *v, or 2 (a usage error, printed). */
static int positive(const char *name, const char *s, int *v)
{
    if (!s)
        return 0;
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (errno || *end || end == s || n <= 0 || n > (1L << 24)) {
        fprintf(stderr, "perfrepro-gen: import-table: %s: \"%s\" is not a positive whole number\n",
                name, s);
        return 2;
    }
    *v = (int)n;
    return 0;
}

static int run(int argc, char **argv)
{
    pr_mdimport_opts o;
    memset(&o, 0, sizeof o);
    o.gpus_per_node = 8;
    /* The required ones are checked by mdimport_run, all named at once. */
    const char *table = NULL, *batch_size = NULL, *gpus_per_node = NULL;
    const pr_cli_option opts[] = {
        {"--markdown", .value = &o.markdown},
        {"--table", .value = &table},
        {"--after", .value = &o.heading},
        {"--column", .value = &o.column},
        {"--model", .value = &o.model},
        {"--model-title", .value = &o.model_title},
        {"--framework", .value = &o.framework},
        {"--framework-title", .value = &o.framework_title},
        {"--precision", .value = &o.precision},
        {"--batch-size", .value = &batch_size},
        {"--batch-label", .value = &o.batch_label},
        {"--variant", .value = &o.variant},
        {"--note", .value = &o.note},
        {"--platform", .value = &o.platform},
        {"--unit", .value = &o.unit},
        {"--label", .value = &o.label},
        {"--repo", .value = &o.repo},
        {"--commit", .value = &o.commit},
        {"--path", .value = &o.path},
        {"--out", .value = &o.out},
        {"--gpus-per-node", .value = &gpus_per_node},
        {"--nodes-column", .value = &o.nodes_column},
        {"--gpus-column", .value = &o.gpus_column},
    };
    int parsed = pr_cli_parse(GEN_PROG, &cmd_import_table_command, opts, sizeof opts / sizeof *opts,
                              argc, argv);
    if (parsed != CLI_OK)
        return pr_cli_status(parsed);
    if (positive("--table", table, &o.table) ||
        positive("--batch-size", batch_size, &o.batch_size) ||
        positive("--gpus-per-node", gpus_per_node, &o.gpus_per_node))
        return 2;
    int known = 0;
    for (const char *const *p = pr_precisions; o.precision && *p; p++)
        known |= !strcmp(*p, o.precision);
    if (o.precision && !known) {
        fprintf(stderr,
                "perfrepro-gen: import-table: --precision: unknown \"%s\" (fp32, tf32, fp16, amp, "
                "bf16, fp8)\n",
                o.precision);
        return 2;
    }
    pr_jdoc_json_init();
    pr_err err;
    char *summary = NULL, *warnings = NULL;
    if (mdimport_run(&o, &summary, &warnings, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: import-table: %s\n", err.msg);
        return 1;
    }
    if (warnings) {
        /* one "FILE:LINE: ..." per line */
        for (char *line = strtok(warnings, "\n"); line; line = strtok(NULL, "\n"))
            fprintf(stderr, "perfrepro-gen: import-table: warning: %s\n", line);
    }
    printf("%s\n", summary);
    free(summary);
    free(warnings);
    return 0;
}
