/* perfrepro-measure: runs benchmark jobs and turns their logs into records.
 * main() only dispatches (lib/cli.h); each subcommand lives in cmd_<name>.c
 * and prints its own usage. */
#include "cli.h"
#include "cmd/cmd.h"

#ifndef PR_VERSION
#define PR_VERSION "0.1.0"
#endif

/* Each command reads its options with pr_cli_parse_args: its row is in its
 * cmd_NAME.c. */

static const pr_cli_command *const commands[] = {&cmd_run_command, &cmd_parse_command,
                                                 &cmd_import_command};

static const pr_cli_program program = {"perfrepro-measure", PR_VERSION, CLI_LIST_SUMMARIES,
                                       commands, sizeof commands / sizeof commands[0]};

int main(int argc, char **argv)
{
    return pr_cli_dispatch(&program, argc, argv);
}
