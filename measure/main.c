/* perfrepro-measure: runs benchmark jobs and turns their logs into records.
 * main() only dispatches; each subcommand lives in cmd_<name>.c. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

#ifndef PR_VERSION
#define PR_VERSION "0.1.0"
#endif

typedef struct subcommand {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} subcommand;

static const subcommand commands[] = {
    {"run", pr_cmd_run, "run a suite's cases and write one record per case"},
    {"parse", pr_cmd_parse, "apply a parse rule to existing logs and print the record"},
    {"import", pr_cmd_import, "bring someone else's logs in from one manifest"},
};

static void usage(FILE *f)
{
    fputs("usage: perfrepro-measure COMMAND [options]\n"
          "       perfrepro-measure help COMMAND\n"
          "       perfrepro-measure --version\n"
          "\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fputs("\n`perfrepro-measure COMMAND --help` describes a command.\n", f);
}

static const subcommand *find(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || (!strcmp(cmd, "help") && argc == 2)) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("perfrepro-measure %s\n", PR_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "help")) {
        const subcommand *c = find(argv[2]);
        if (!c) {
            fprintf(stderr, "perfrepro-measure: unknown command \"%s\"\n", argv[2]);
            return 2;
        }
        static char help_opt[] = "--help";
        char *help_argv[] = {argv[2], help_opt, NULL};
        return c->fn(2, help_argv);
    }
    const subcommand *c = find(cmd);
    if (!c) {
        fprintf(stderr, "perfrepro-measure: unknown command \"%s\"\n", cmd);
        usage(stderr);
        return 2;
    }
    return c->fn(argc - 1, argv + 1);
}
