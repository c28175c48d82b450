/* cmd_compare: `perfrepro-gen compare`, run set B against run set A cell by
 * cell (page_compare.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "5-views/page_compare.h"
#include "fileio.h"
#include "gen_cmd.h"
#include "jdoc.h"
#include "outfile.h"

static int run(int argc, char **argv);

const pr_cli_command cmd_compare_command = {
    "compare", run,
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
    "          (after the output is written), for CI.\n",
    NULL};

/* What is wrong with the options as a whole (NULL: nothing); delta is
 * --delta's text, its value stored in o->delta. */
static const char *check_options(page_compare_opts *o, const char *delta, const char *fail_on)
{
    char *end = NULL;
    errno = 0;
    if (delta)
        o->delta = strtod(delta, &end);
    return !o->declared == !(o->a && o->b) || (o->declared && (o->a || o->b))
               ? "give --a and --b, or --declared"
           : delta && (errno || end == delta || *end || !(o->delta > 0 && o->delta < 1))
               ? "--delta: a fraction in (0, 1), e.g. 0.05"
           : strcmp(o->format, "md") && strcmp(o->format, "json") && strcmp(o->format, "csv")
               ? "--format: md, json or csv"
           : strcmp(o->lang, "zh") && strcmp(o->lang, "en") ? "--lang: zh or en"
           : fail_on && strcmp(fail_on, "regression")       ? "--fail-on: regression"
                                                            : NULL;
}

/* The last component of path (a new string; NULL for NULL). */
static char *base_name(const char *path)
{
    if (!path)
        return NULL;
    const char *slash = strrchr(path, '/');
    return pr_xstrdup(slash ? slash + 1 : path);
}

static int run(int argc, char **argv)
{
    page_compare_opts o = {NULL, NULL, NULL, 0, "md", "zh", "templates", NULL, NULL, NULL};
    const char *data = "data", *delta = NULL, *fail_on = NULL;
    const pr_cli_option opts[] = {
        {"--data", .value = &data},
        {"--a", .value = &o.a},
        {"--b", .value = &o.b},
        {"--declared", .value = &o.declared},
        {"--delta", .value = &delta},
        {"--format", .value = &o.format},
        {"--lang", .value = &o.lang},
        {"--out", .value = &o.out},
        {"--templates", .value = &o.templates},
        {"--fail-on", .value = &fail_on},
    };
    int parsed =
        pr_cli_parse(GEN_PROG, &cmd_compare_command, opts, sizeof opts / sizeof *opts, argc, argv);
    if (parsed != CLI_OK)
        return pr_cli_status(parsed);
    const char *bad = check_options(&o, delta, fail_on);
    if (bad)
        return pr_cli_usage_error(GEN_PROG, &cmd_compare_command, "%s", bad);
    /* FILE.md: its chart beside it, FILE.svg and FILE.png */
    size_t n = o.out ? strlen(o.out) : 0;
    char *stem = n > 3 && !strcmp(o.out + n - 3, ".md") ? pr_xstrndup(o.out, n - 3) : NULL;
    char *svg_path = stem ? pr_xasprintf("%s.svg", stem) : NULL;
    char *png_path = stem ? pr_xasprintf("%s.png", stem) : NULL;
    char *svg_rel = base_name(svg_path);
    char *png_rel = base_name(png_path);
    if (!strcmp(o.format, "md")) {
        o.chart_svg = svg_rel;
        o.chart_png = png_rel;
    }
    pr_jdoc_json_init();
    pr_err err;
    pr_dataset *d = NULL;
    pr_buf text = PR_BUF_INIT, svg = PR_BUF_INIT, png = PR_BUF_INIT;
    size_t slower = 0;
    int rc = 1;
    if (data_load(data, &d, &err) < 0 ||
        page_compare_cli(d, &o, &text, &svg, &png, &slower, &err) < 0 ||
        (o.out && !pr_fileio_equals(o.out, text.data ? text.data : "", text.len) &&
         pr_outfile_write_out(o.out, text.data ? text.data : "", text.len, &err) < 0) ||
        (svg.len && pr_fileio_write_if_changed(svg_path, svg.data, svg.len, &err) < 0) ||
        (png.len && pr_fileio_write_if_changed(png_path, png.data, png.len, &err) < 0)) {
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
    data_free(d);
    free(stem);
    free(svg_path);
    free(png_path);
    free(svg_rel);
    free(png_rel);
    return rc;
}
