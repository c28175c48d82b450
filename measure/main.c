/* perfrepro-measure: runs benchmark jobs and turns their logs into records.
 * main() only dispatches (lib/cli.h); each subcommand lives in cmd_<name>.c
 * and prints its own usage. */
#include "cli.h"
#include "cmd/cmd.h"

#ifndef PR_VERSION
#define PR_VERSION "0.1.0"
#endif

/* run and parse print their own usage and read their options themselves;
 * import reads them with pr_cli_parse_args (its row is in cmd_import.c). */
static const pr_cli_command run_command = {
    "run", cmd_run, NULL, "run a suite's cases and write one record per case", NULL};
static const pr_cli_command parse_command = {
    "parse", cmd_parse, NULL, "apply a parse rule to existing logs and print the record", NULL};

static const pr_cli_command *const commands[] = {&run_command, &parse_command, &cmd_import_command};

static const pr_cli_program program = {"perfrepro-measure", PR_VERSION, CLI_LIST_SUMMARIES,
                                       commands, sizeof commands / sizeof commands[0]};

int main(int argc, char **argv)
{
    return pr_cli_dispatch(&program, argc, argv);
}
