/* cmd_import_env: `perfrepro-gen import-env`, the environment sections of a
 * Markdown file into an environment file (envimport.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "gen_cmd.h"
#include "import/envimport.h"
#include "jdoc.h"

static int run(int argc, char **argv);

const pr_cli_command cmd_import_env_command = {
    "import-env", run,
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
    "          软件环境, Environment.  OUT is rewritten only when its bytes change.\n",
    NULL};

static int run(int argc, char **argv)
{
    pr_envimport_opts o;
    memset(&o, 0, sizeof o);
    /* The titles point into argv; the array is freed here. */
    const char **sections = pr_xcalloc((size_t)argc, sizeof *sections);
    size_t nsections = 0;
    char *summary = NULL;
    /* The required ones are checked by envimport_run, all named at once. */
    const pr_cli_option opts[] = {
        {"--markdown", .value = &o.markdown}, {"--repo", .value = &o.repo},
        {"--commit", .value = &o.commit},     {"--path", .value = &o.path},
        {"--out", .value = &o.out},           {"--section", .list = sections, .count = &nsections},
    };
    int rc = pr_cli_parse(GEN_PROG, &cmd_import_env_command, opts, sizeof opts / sizeof *opts, argc,
                          argv);
    if (rc != CLI_OK) {
        rc = pr_cli_status(rc);
        goto out;
    }
    if (nsections) {
        o.sections = sections;
        o.nsections = nsections;
    }
    pr_jdoc_json_init();
    pr_err err;
    if (envimport_run(&o, &summary, &err) < 0) {
        fprintf(stderr, "perfrepro-gen: import-env: %s\n", err.msg);
        rc = 1;
        goto out;
    }
    printf("%s\n", summary);
    rc = 0;
out:
    free(summary);
    free(sections);
    return rc;
}
