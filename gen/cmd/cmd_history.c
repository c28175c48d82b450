/* cmd_history: `perfrepro-gen history`, every series over time (history.h,
 * page_history.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "2-model/history.h"
#include "2-model/rmodel.h"
#include "5-views/page_history.h"
#include "gen_cmd.h"
#include "jdoc.h"
#include "outfile.h"
#include "template/lang.h"

static int run(int argc, char **argv);

const pr_cli_command cmd_history_command = {
    "history", run,
    "perfrepro-gen history [--data DIR] [--format md|json|csv] [--lang zh|en]\n"
    "          [--templates DIR] [--out FILE]\n",
    "history   every series over time (docs/report-format.md, docs/statistics.md):\n"
    "          a reproduced series is one cell over its run sets (experiments left\n"
    "          out), a published one a source's figure over its revisions; change\n"
    "          points, each point's state (ok, suspect, outlier, regression,\n"
    "          improvement) and limits, with the pins and vetoes of\n"
    "          DIR/history.json.  md (default; in --lang, default zh), json or csv\n"
    "          to OUT (default: standard output)\n",
    NULL};

static int run(int argc, char **argv)
{
    const char *data = "data", *format = "md", *code = "zh", *templates = "templates", *out = NULL;
    const pr_cli_option opts[] = {
        {"--data", .value = &data}, {"--format", .value = &format},
        {"--lang", .value = &code}, {"--templates", .value = &templates},
        {"--out", .value = &out},
    };
    int parsed =
        pr_cli_parse(GEN_PROG, &cmd_history_command, opts, sizeof opts / sizeof *opts, argc, argv);
    if (parsed != CLI_OK)
        return pr_cli_status(parsed);
    int md = !strcmp(format, "md"), zh = !strcmp(code, "zh");
    if ((!md && strcmp(format, "json") && strcmp(format, "csv")) || (!zh && strcmp(code, "en"))) {
        fprintf(stderr, "perfrepro-gen: history: --format md|json|csv, --lang zh|en\n");
        return 2;
    }
    pr_err err;
    pr_dataset *d = NULL;
    history_set *s = NULL;
    rmodel_world *w = NULL;
    lang l = {zh ? "zh" : "en",
              zh ? "README.md" : "README.en.md",
              zh ? "README.en.md" : "README.md",
              NULL,
              NULL,
              NULL,
              NULL,
              {NULL}};
    pr_buf b = PR_BUF_INIT;
    int rc = 1;
    if (data_load(data, &d, &err) < 0 || history_build(d, &s, &err) < 0)
        goto out;
    if (md) {
        w = rmodel_build(d, ".");
        json_t *v = NULL;
        if (lang_load(&l, templates, &err) < 0 ||
            !(v = page_history_view(w, &l, s, NULL, NULL, "", NULL, &err)) ||
            lang_render(&l, "history", v, &b, &err) < 0) {
            json_decref(v);
            goto out;
        }
        json_decref(v);
    } else if (!strcmp(format, "json")) {
        json_t *j = history_to_json(s);
        char *t = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
        pr_buf_puts(&b, t);
        pr_buf_putc(&b, '\n');
        free(t);
        json_decref(j);
    } else {
        history_to_csv(s, &b);
    }
    if (out ? pr_outfile_write_out(out, pr_buf_cstr(&b), b.len, &err) < 0
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
    rmodel_free(w);
    history_free(s);
    data_free(d);
    return rc;
}
