/* perfrepro-gen: records, published figures and templates in; reports out.
 *
 *   perfrepro-gen build [--data DIR] [--templates DIR] [--out DIR]
 *   perfrepro-gen validate [--data DIR]
 *   perfrepro-gen site|check|import-table|import-env|export ...
 *   perfrepro-gen help COMMAND, perfrepro-gen COMMAND --help
 *
 * Exit status: 0 success, 1 invalid input or a failed write, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "check.h"
#include "data.h"
#include "envimport.h"
#include "audit.h"
#include "export.h"
#include "fileio.h"
#include "outfile.h"
#include "history.h"
#include "jdoc.h"
#include "mdimport.h"
#include "page_compare.h"
#include "page_history.h"
#include "record.h"
#include "report.h"
#include "rmodel.h"
#include "site.h"

#define PR_VERSION "0.1.0"

/* One entry per command: its synopsis (the lines after "usage: "), and what
 * it does.  `perfrepro-gen COMMAND --help` and `perfrepro-gen help COMMAND`
 * print one entry; `perfrepro-gen --help` prints them all. */
typedef struct gen_command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *synopsis;
    const char *text;
} gen_command;

static int cmd_build(int argc, char **argv);
static int cmd_site(int argc, char **argv);
static int cmd_check(int argc, char **argv);
static int cmd_import_table(int argc, char **argv);
static int cmd_import_env(int argc, char **argv);
static int cmd_compare(int argc, char **argv);
static int cmd_export(int argc, char **argv);
static int cmd_history(int argc, char **argv);

static const gen_command commands[] = {
    {"build", cmd_build,
     "perfrepro-gen build [--data DIR] [--templates DIR] [--out DIR] [--no-charts]\n"
     "          [--budget-mb MB]\n",
     "build     load and validate DIR (default data), write the reports tree to OUT\n"
     "          (default reports): README.md (Chinese) and README.en.md (English)\n"
     "          per page, from the templates in TEMPLATES (default templates);\n"
     "          prints the files and bytes written; with --budget-mb a generation\n"
     "          over MB megabytes (10^6 bytes) fails and OUT stays as it was\n"},
    {"validate", cmd_build, "perfrepro-gen validate [--data DIR]\n",
     "validate  load and validate the data only (also each fit report against the\n"
     "          figure its table prints, as build checks it); print a summary\n"},
    {"site", cmd_site,
     "perfrepro-gen site [--reports DIR] [--out DIR] [--root DIR] [--templates DIR]\n",
     "site      render REPORTS (default reports) as a static HTML site in OUT\n"
     "          (default build/site): README.md -> index.html, README.en.md ->\n"
     "          index.en.html; linked charts, logs and suites copied in (a log\n"
     "          whose name is not .txt/.log/.json/.csv/.png gets .txt appended);\n"
     "          nothing that resolves outside ROOT is read\n"},
    {"check", cmd_check, "perfrepro-gen check [--reports DIR] [--root DIR]\n",
     "check     check every Markdown file of REPORTS (default reports): links to\n"
     "          missing files or anchors, empty targets, TODO/XXX/TBD outside\n"
     "          tables, images without alt text, absolute paths or paths above\n"
     "          ROOT (default: the parent of REPORTS); lists FILE:LINE: problem\n"},
    {"import-table", cmd_import_table,
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
     "          Missing required options are all named in one message.\n"},
    {"import-env", cmd_import_env,
     "perfrepro-gen import-env --markdown FILE --repo OWNER/NAME --commit HEX\n"
     "          --path PATH --out ENVIRONMENT.json [--section TITLE]...\n",
     "import-env  read the environment sections of a Markdown file (cmark-gfm) into\n"
     "          an environment file (docs/data-model.md, \"Source environments\"):\n"
     "          under each heading titled TITLE (with or without its number:\n"
     "          \"二、环境介绍\") down to the next heading of its level, and under\n"
     "          each list item whose text is TITLE, a list item with a nested list\n"
     "          is a group (\"单机V100（单卡、8卡）\"), the other items form their\n"
     "          heading's group; each item keeps its key and value as printed (a\n"
     "          link's text and URL), a kind (系统 -> os, GPU -> gpu, ...; unknown\n"
     "          keys: other) and its line; a code block is an item of kind\n"
     "          topology (nvidia-smi topo) or text.  --section may be repeated;\n"
     "          default: 环境介绍, 物理机环境, 机器环境, 硬件环境, Docker 镜像,\n"
     "          软件环境, Environment.  OUT is rewritten only when its bytes change.\n"},
    {"compare", cmd_compare,
     "perfrepro-gen compare [--data DIR] (--a SEL --b SEL | --declared NAME)\n"
     "          [--delta D] [--format md|json|csv] [--lang zh|en] [--fail-on regression]\n"
     "          [--out FILE] [--templates DIR]\n",
     "compare   set run set B against run set A cell by cell (model, framework,\n"
     "          platform, precision, batch size, nodes, GPUs) on log throughput: the\n"
     "          Hodges-Lehmann ratio B/A, the exact Mann-Whitney (Moses) interval with\n"
     "          its coverage, and a verdict (faster, slower, changed below D,\n"
     "          equivalent within D, inconclusive with the runs needed, insufficient\n"
     "          data below 2 runs a side); D (default 0.05) is the smallest change\n"
     "          that matters.  SEL: a run folder name or a glob over them (several run\n"
     "          sets pool their runs per cell), env:KEY=VALUE (run sets whose records\n"
     "          state it: framework_version or a log fact key such as\n"
     "          container.release), or published:LABEL@DATE (a published source's\n"
     "          revision, each figure a 1-run sample).  --declared NAME compares as\n"
     "          DIR/comparisons/NAME.json does.  md is the page (--lang, default zh;\n"
     "          with --out FILE.md its chart is written beside it as FILE.svg and\n"
     "          FILE.png), json one object, csv one row per cell.  Output goes to\n"
     "          FILE (default: standard output).  A and B sharing no platform is an\n"
     "          error.  --fail-on regression: exit status 1 when a cell is slower\n"
     "          (after the output is written), for CI.\n"},
    {"export", cmd_export,
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
     "          atomically (default: standard output).  Byte-identical per input.\n"},
    {"history", cmd_history,
     "perfrepro-gen history [--data DIR] [--format md|json|csv] [--lang zh|en]\n"
     "          [--templates DIR] [--out FILE]\n",
     "history   every series over time (docs/report-format.md, docs/statistics.md):\n"
     "          a reproduced series is one cell over its run sets (experiments left\n"
     "          out), a published one a source's figure over its revisions; change\n"
     "          points, each point's state (ok, suspect, outlier, regression,\n"
     "          improvement) and limits, with the pins and vetoes of\n"
     "          DIR/history.json.  md (default; in --lang, default zh), json or csv\n"
     "          to OUT (default: standard output)\n"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const gen_command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

/* Writes SYNOPSIS, its continuation lines indented under the first. */
static void put_synopsis(const char *lead, const char *synopsis, FILE *f)
{
    fputs(lead, f);
    for (const char *p = synopsis; *p; p++) {
        fputc(*p, f);
        if (*p == '\n' && p[1])
            fputs("       ", f);
    }
}

/* The usage of every command. */
static void usage(FILE *f)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        put_synopsis(i ? "       " : "usage: ", commands[i].synopsis, f);
    fputs("       perfrepro-gen help COMMAND\n"
          "       perfrepro-gen --version\n"
          "\n",
          f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fputs(commands[i].text, f);
    fputs("\n`perfrepro-gen COMMAND --help` describes a command.\n", f);
}

/* The usage of one command: `perfrepro-gen NAME --help` and
 * `perfrepro-gen help NAME` print the same text. */
static void command_usage(const char *name, FILE *f)
{
    const gen_command *c = find_command(name);
    put_synopsis("usage: ", c->synopsis, f);
    fputc('\n', f);
    fputs(c->text, f);
}

static int is_help(const char *a)
{
    return !strcmp(a, "--help") || !strcmp(a, "-h");
}

/* perfrepro-gen site [--reports DIR] [--out DIR] [--root DIR] [--templates DIR] */
static int cmd_site(int argc, char **argv)
{
    pr_site_opts o = {"reports", "build/site", NULL, "templates"};
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i])) {
            command_usage("site", stdout);
            return 0;
        }
        const char **dst = !strcmp(argv[i], "--reports")     ? &o.reports
                           : !strcmp(argv[i], "--out")       ? &o.out
                           : !strcmp(argv[i], "--root")      ? &o.root
                           : !strcmp(argv[i], "--templates") ? &o.templates
                                                             : NULL;
        if (!dst || i + 1 >= argc) {
            fprintf(stderr, "perfrepro-gen: site: unexpected argument '%s'\n", argv[i]);
            command_usage("site", stderr);
            return 2;
        }
        *dst = argv[++i];
    }
    pr_site_stats st;
    pr_err err;
    if (pr_site_build(&o, &st, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
        return 1;
    }
    printf("%s: %zu pages, %zu files copied; %zu written, %zu removed\n", o.out, st.pages,
           st.files, st.written, st.removed);
    if (st.unresolved)
        fprintf(stderr,
                "perfrepro-gen: %zu relative links left as they are (perfrepro-gen check)\n",
                st.unresolved);
    return 0;
}

/* perfrepro-gen check [--reports DIR] [--root DIR] */
static int cmd_check(int argc, char **argv)
{
    pr_check_opts o = {"reports", NULL};
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i])) {
            command_usage("check", stdout);
            return 0;
        }
        const char **dst = !strcmp(argv[i], "--reports") ? &o.reports
                           : !strcmp(argv[i], "--root")  ? &o.root
                                                         : NULL;
        if (!dst || i + 1 >= argc) {
            fprintf(stderr, "perfrepro-gen: check: unexpected argument '%s'\n", argv[i]);
            command_usage("check", stderr);
            return 2;
        }
        *dst = argv[++i];
    }
    pr_check_result r = PR_CHECK_RESULT_INIT;
    pr_err err;
    int rc = 0;
    if (pr_check_reports(&o, &r, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
        rc = 1;
    } else if (r.nproblems) {
        for (size_t i = 0; i < r.nproblems; i++) {
            pr_buf line = PR_BUF_INIT;
            pr_check_format(&r.problems[i], &line);
            puts(pr_buf_cstr(&line));
            pr_buf_free(&line);
        }
        fprintf(stderr, "perfrepro-gen: check: %zu problems in %zu pages\n", r.nproblems,
                r.npages);
        rc = 1;
    } else {
        printf("%s: %zu pages, %zu links: ok\n", o.reports, r.npages, r.nlinks);
    }
    pr_check_result_free(&r);
    return rc;
}

/* perfrepro-gen import-table ... (usage above) */
static int cmd_import_table(int argc, char **argv)
{
    pr_mdimport_opts o;
    memset(&o, 0, sizeof o);
    o.gpus_per_node = 8;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (is_help(a)) {
            command_usage("import-table", stdout);
            return 0;
        }
        const char **dst = !strcmp(a, "--markdown")          ? &o.markdown
                           : !strcmp(a, "--after")           ? &o.heading
                           : !strcmp(a, "--column")          ? &o.column
                           : !strcmp(a, "--model")           ? &o.model
                           : !strcmp(a, "--model-title")     ? &o.model_title
                           : !strcmp(a, "--framework")       ? &o.framework
                           : !strcmp(a, "--framework-title") ? &o.framework_title
                           : !strcmp(a, "--precision")       ? &o.precision
                           : !strcmp(a, "--batch-label")     ? &o.batch_label
                           : !strcmp(a, "--variant")         ? &o.variant
                           : !strcmp(a, "--note")            ? &o.note
                           : !strcmp(a, "--platform")        ? &o.platform
                           : !strcmp(a, "--unit")            ? &o.unit
                           : !strcmp(a, "--label")           ? &o.label
                           : !strcmp(a, "--repo")            ? &o.repo
                           : !strcmp(a, "--commit")          ? &o.commit
                           : !strcmp(a, "--path")            ? &o.path
                           : !strcmp(a, "--out")             ? &o.out
                           : !strcmp(a, "--nodes-column")    ? &o.nodes_column
                           : !strcmp(a, "--gpus-column")     ? &o.gpus_column
                                                             : NULL;
        int *num = !strcmp(a, "--table")           ? &o.table
                   : !strcmp(a, "--batch-size")    ? &o.batch_size
                   : !strcmp(a, "--gpus-per-node") ? &o.gpus_per_node
                                                   : NULL;
        if ((!dst && !num) || i + 1 >= argc) {
            fprintf(stderr, "perfrepro-gen: import-table: unexpected argument '%s'\n", a);
            command_usage("import-table", stderr);
            return 2;
        }
        if (dst) {
            *dst = argv[++i];
            continue;
        }
        char *end;
        errno = 0;
        long v = strtol(argv[++i], &end, 10);
        if (errno || *end || end == argv[i] || v <= 0 || v > (1L << 24)) {
            fprintf(stderr, "perfrepro-gen: import-table: %s: \"%s\" is not a positive whole number\n", a,
                    argv[i]);
            return 2;
        }
        *num = (int)v;
    }
    int known = 0;
    for (const char *const *p = pr_precisions; o.precision && *p; p++)
        known |= !strcmp(*p, o.precision);
    if (o.precision && !known) {
        fprintf(stderr, "perfrepro-gen: import-table: --precision: unknown \"%s\" (fp32, tf32, fp16, amp, bf16, fp8)\n",
                o.precision);
        return 2;
    }
    pr_json_init();
    pr_err err;
    char *summary = NULL, *warnings = NULL;
    if (pr_mdimport(&o, &summary, &warnings, &err) < 0) {
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

/* perfrepro-gen import-env ... (usage above) */
static int cmd_import_env(int argc, char **argv)
{
    pr_envimport_opts o;
    memset(&o, 0, sizeof o);
    /* The titles point into argv; the array is freed here. */
    const char **sections = pr_xcalloc((size_t)argc, sizeof *sections);
    size_t nsections = 0;
    int rc = 2;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (is_help(a)) {
            command_usage("import-env", stdout);
            rc = 0;
            goto out;
        }
        const char **dst = !strcmp(a, "--markdown") ? &o.markdown
                           : !strcmp(a, "--repo")   ? &o.repo
                           : !strcmp(a, "--commit") ? &o.commit
                           : !strcmp(a, "--path")   ? &o.path
                           : !strcmp(a, "--out")    ? &o.out
                           : !strcmp(a, "--section") ? &sections[nsections]
                                                     : NULL;
        if (!dst || i + 1 >= argc) {
            fprintf(stderr, "perfrepro-gen: import-env: unexpected argument '%s'\n", a);
            command_usage("import-env", stderr);
            goto out;
        }
        *dst = argv[++i];
        if (dst == &sections[nsections])
            nsections++;
    }
    if (nsections) {
        o.sections = sections;
        o.nsections = nsections;
    }
    pr_json_init();
    pr_err err;
    char *summary = NULL;
    if (pr_envimport(&o, &summary, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: import-env: %s\n", err.msg);
        rc = 1;
        goto out;
    }
    printf("%s\n", summary);
    free(summary);
    rc = 0;
out:
    free(sections);
    return rc;
}

/* perfrepro-gen compare ... (usage above) */
static int cmd_compare(int argc, char **argv)
{
    pc_cli o = {NULL, NULL, NULL, 0, "md", "zh", "templates", NULL, NULL, NULL};
    const char *data = "data", *delta = NULL, *fail_on = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (is_help(a)) {
            command_usage("compare", stdout);
            return 0;
        }
        const char **dst = !strcmp(a, "--data")        ? &data
                           : !strcmp(a, "--a")         ? &o.a
                           : !strcmp(a, "--b")         ? &o.b
                           : !strcmp(a, "--declared")  ? &o.declared
                           : !strcmp(a, "--delta")     ? &delta
                           : !strcmp(a, "--format")    ? &o.format
                           : !strcmp(a, "--lang")      ? &o.lang
                           : !strcmp(a, "--out")       ? &o.out
                           : !strcmp(a, "--templates") ? &o.templates
                           : !strcmp(a, "--fail-on")   ? &fail_on
                                                       : NULL;
        if (!dst || i + 1 >= argc) {
            fprintf(stderr, "perfrepro-gen: compare: unexpected argument '%s'\n", a);
            command_usage("compare", stderr);
            return 2;
        }
        *dst = argv[++i];
    }
    char *end = NULL;
    errno = 0;
    if (delta)
        o.delta = strtod(delta, &end);
    const char *bad = !o.declared == !(o.a && o.b) || (o.declared && (o.a || o.b))
                          ? "give --a and --b, or --declared"
                      : delta && (errno || end == delta || *end || !(o.delta > 0 && o.delta < 1))
                          ? "--delta: a fraction in (0, 1), e.g. 0.05"
                      : strcmp(o.format, "md") && strcmp(o.format, "json") && strcmp(o.format, "csv")
                          ? "--format: md, json or csv"
                      : strcmp(o.lang, "zh") && strcmp(o.lang, "en") ? "--lang: zh or en"
                      : fail_on && strcmp(fail_on, "regression") ? "--fail-on: regression"
                                                                 : NULL;
    if (bad) {
        fprintf(stderr, "perfrepro-gen: compare: %s\n", bad);
        command_usage("compare", stderr);
        return 2;
    }
    /* FILE.md: its chart beside it, FILE.svg and FILE.png */
    size_t n = o.out ? strlen(o.out) : 0;
    char *stem = n > 3 && !strcmp(o.out + n - 3, ".md") ? pr_xstrndup(o.out, n - 3) : NULL;
    char *svg_path = stem ? pr_xasprintf("%s.svg", stem) : NULL;
    char *png_path = stem ? pr_xasprintf("%s.png", stem) : NULL;
    char *svg_rel = svg_path ? pr_xstrdup(strrchr(svg_path, '/') ? strrchr(svg_path, '/') + 1 : svg_path) : NULL;
    char *png_rel = png_path ? pr_xstrdup(strrchr(png_path, '/') ? strrchr(png_path, '/') + 1 : png_path) : NULL;
    if (!strcmp(o.format, "md")) {
        o.chart_svg = svg_rel;
        o.chart_png = png_rel;
    }
    pr_json_init();
    pr_err err;
    pr_dataset *d = NULL;
    pr_buf text = PR_BUF_INIT, svg = PR_BUF_INIT, png = PR_BUF_INIT;
    size_t slower = 0;
    int rc = 1;
    if (pr_data_load(data, &d, &err) < 0 ||
        page_compare_cli(d, &o, &text, &svg, &png, &slower, &err) < 0 ||
        (o.out && !pr_file_equals(o.out, text.data ? text.data : "", text.len) &&
         pr_write_out(o.out, text.data ? text.data : "", text.len, &err) < 0) ||
        (svg.len && pr_write_if_changed(svg_path, svg.data, svg.len, &err) < 0) ||
        (png.len && pr_write_if_changed(png_path, png.data, png.len, &err) < 0)) {
        fprintf(stderr, "perfrepro-gen: compare: %s\n", err.msg);
    } else {
        int werr = !o.out && (fwrite(pr_buf_cstr(&text), 1, text.len, stdout) != text.len ||
                              fflush(stdout) != 0);
        if (werr)
            fprintf(stderr, "perfrepro-gen: compare: <stdout>: write failed\n");
        rc = werr || (fail_on && slower) ? 1 : 0;
        if (!werr && rc)
            fprintf(stderr, "perfrepro-gen: compare: %zu cells slower (--fail-on regression)\n",
                    slower);
    }
    pr_buf_free(&text);
    pr_buf_free(&svg);
    pr_buf_free(&png);
    pr_data_free(d);
    free(stem);
    free(svg_path);
    free(png_path);
    free(svg_rel);
    free(png_rel);
    return rc;
}

/* perfrepro-gen export ... (usage above) */
static int cmd_export(int argc, char **argv)
{
    const char *data = "data", *format = NULL, *out = NULL;
    int bom = 0;
    ex_format fmt = EX_CSV;
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i])) {
            command_usage("export", stdout);
            return 0;
        }
        const char **dst = !strcmp(argv[i], "--data")     ? &data
                           : !strcmp(argv[i], "--format") ? &format
                           : !strcmp(argv[i], "--out")    ? &out
                                                          : NULL;
        if (dst && i + 1 < argc) {
            *dst = argv[++i];
        } else if (!strcmp(argv[i], "--bom")) {
            bom = 1;
        } else {
            fprintf(stderr, "perfrepro-gen: export: unexpected argument '%s'\n", argv[i]);
            command_usage("export", stderr);
            return 2;
        }
    }
    const char *bad = !format                              ? "--format is required"
                      : ex_format_of(format, &fmt) < 0     ? "--format: not csv, jsonl, bencher or otava"
                      : bom && fmt != EX_CSV && fmt != EX_OTAVA ? "--bom is for csv and otava only"
                                                           : NULL;
    if (bad) {
        fprintf(stderr, "perfrepro-gen: export: %s\n", bad);
        command_usage("export", stderr);
        return 2;
    }
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

/* perfrepro-gen history ... (usage above) */
static int cmd_history(int argc, char **argv)
{
    const char *data = "data", *format = "md", *code = "zh", *templates = "templates",
               *out = NULL;
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i])) {
            command_usage("history", stdout);
            return 0;
        }
        const char **dst = !strcmp(argv[i], "--data")        ? &data
                           : !strcmp(argv[i], "--format")    ? &format
                           : !strcmp(argv[i], "--lang")      ? &code
                           : !strcmp(argv[i], "--templates") ? &templates
                           : !strcmp(argv[i], "--out")       ? &out
                                                             : NULL;
        if (!dst || i + 1 >= argc) {
            fprintf(stderr, "perfrepro-gen: history: unexpected argument '%s'\n", argv[i]);
            command_usage("history", stderr);
            return 2;
        }
        *dst = argv[++i];
    }
    int md = !strcmp(format, "md"), zh = !strcmp(code, "zh");
    if ((!md && strcmp(format, "json") && strcmp(format, "csv")) || (!zh && strcmp(code, "en"))) {
        fprintf(stderr, "perfrepro-gen: history: --format md|json|csv, --lang zh|en\n");
        return 2;
    }
    pr_err err;
    pr_dataset *d = NULL;
    hs_set *s = NULL;
    rm_world *w = NULL;
    lang l = {zh ? "zh" : "en", zh ? "README.md" : "README.en.md",
              zh ? "README.en.md" : "README.md", NULL, NULL, NULL, NULL, {NULL}};
    pr_buf b = PR_BUF_INIT;
    int rc = 1;
    if (pr_data_load(data, &d, &err) < 0 || hs_build(d, &s, &err) < 0)
        goto out;
    if (md) {
        w = rm_build(d, ".");
        json_t *v = NULL;
        if (lang_load(&l, templates, &err) < 0 ||
            !(v = page_history_view(w, &l, s, NULL, NULL, "", NULL, &err)) ||
            lang_render(&l, "history", v, &b, &err) < 0) {
            json_decref(v);
            goto out;
        }
        json_decref(v);
    } else if (!strcmp(format, "json")) {
        json_t *j = hs_to_json(s);
        char *t = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
        pr_buf_puts(&b, t);
        pr_buf_putc(&b, '\n');
        free(t);
        json_decref(j);
    } else {
        hs_to_csv(s, &b);
    }
    if (out ? pr_write_out(out, pr_buf_cstr(&b), b.len, &err) < 0
            : fwrite(pr_buf_cstr(&b), 1, b.len, stdout) != b.len) {
        if (!out)
            pr_err_set(&err, NULL, 0, 0, NULL, "history: writing standard output failed");
        goto out;
    }
    rc = 0;
out:
    if (rc)
        fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
    pr_buf_free(&b);
    lang_free(&l);
    rm_free(w);
    hs_free(s);
    pr_data_free(d);
    return rc;
}

/* perfrepro-gen build|validate ... (usage above) */
static int cmd_build(int argc, char **argv)
{
    const char *data = "data", *templates = "templates", *out = "reports", *budget = NULL;
    int charts = 1;
    const char *cmd = argv[1];
    int build = !strcmp(cmd, "build");
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i])) {
            command_usage(cmd, stdout);
            return 0;
        }
        /* validate reads the data only */
        const char **dst = !strcmp(argv[i], "--data")                 ? &data
                           : build && !strcmp(argv[i], "--templates") ? &templates
                           : build && !strcmp(argv[i], "--out")       ? &out
                           : build && !strcmp(argv[i], "--budget-mb") ? &budget
                                                                      : NULL;
        if (dst && i + 1 < argc) {
            *dst = argv[++i];
        } else if (build && !strcmp(argv[i], "--no-charts")) {
            charts = 0;
        } else {
            fprintf(stderr, "perfrepro-gen: %s: unexpected argument '%s'\n", cmd, argv[i]);
            command_usage(cmd, stderr);
            return 2;
        }
    }
    /* --budget-mb: a positive decimal number of megabytes (10^6 bytes) */
    unsigned long long budget_bytes = 0;
    if (budget) {
        char *end = NULL;
        errno = 0;
        double mb = strtod(budget, &end);
        if (end == budget || *end || errno || !(mb > 0) || mb > 1e12) {
            fprintf(stderr, "perfrepro-gen: build: --budget-mb '%s': not a positive number of "
                            "megabytes\n", budget);
            return 2;
        }
        budget_bytes = (unsigned long long)(mb * 1e6);
    }
    pr_json_init();
    pr_err err;
    pr_dataset *d = NULL;
    if (pr_data_load(data, &d, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
        return 1;
    }
    int rc = 0;
    if (!build) {
        /* The checks build makes of the data beyond loading it: each fit
         * report against the figure its table prints (audit.h). */
        au_model *audit = NULL;
        if (au_build(d, &audit, &err) < 0) {
            fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
            pr_data_free(d);
            return 1;
        }
        au_free(audit);
        size_t nrec = 0;
        for (size_t i = 0; i < d->nruns; i++)
            nrec += d->runs[i].nrecords;
        printf("%s: %zu suites, %zu published tables, %zu runs, %zu records: valid\n", data,
               d->nsuites, d->npubs, d->nruns, nrec);
    } else {
        pr_report_stats st = {0, 0, 0};
        pr_report_opts o = {templates, out, charts, budget_bytes, &st};
        if (pr_report_build(d, &o, &err) < 0) {
            fprintf(stderr, "perfrepro-gen: %s\n", err.msg);
            rc = 1;
        } else {
            printf("%s: %zu files, %.2f MB (%llu bytes), %zu new or rewritten", out, st.files,
                   st.bytes / 1e6, st.bytes, st.rewritten);
            if (budget_bytes)
                printf("; budget %.2f MB", budget_bytes / 1e6);
            printf("\n");
        }
    }
    pr_data_free(d);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (is_help(cmd) || (!strcmp(cmd, "help") && argc == 2)) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("perfrepro-gen %s\n", PR_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "help")) {
        if (!find_command(argv[2])) {
            fprintf(stderr, "perfrepro-gen: unknown command '%s'\n", argv[2]);
            usage(stderr);
            return 2;
        }
        command_usage(argv[2], stdout);
        return 0;
    }
    const gen_command *c = find_command(cmd);
    if (!c) {
        fprintf(stderr, "perfrepro-gen: unknown command '%s'\n", cmd);
        usage(stderr);
        return 2;
    }
    return c->fn(argc, argv);
}
