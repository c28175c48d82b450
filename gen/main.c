/* perfrepro-gen: records, published figures and templates in; reports out.
 *
 *   perfrepro-gen build [--data DIR] [--templates DIR] [--out DIR]
 *   perfrepro-gen validate [--data DIR]
 *   perfrepro-gen site|check|import-table|import-env|compare|export|history ...
 *   perfrepro-gen help COMMAND, perfrepro-gen COMMAND --help
 *
 * main() only dispatches (lib/cli.h); each command lives in
 * gen/cmd/cmd_NAME.c.  Exit status: 0 success, 1 invalid input or a failed
 * write, 2 usage.
 */
#include "cli.h"
#include "cmd/gen_cmd.h"

#define PR_VERSION "0.1.0"

/* A new command is one row here (and its cmd_NAME.c); the order is
 * perfrepro-gen --help's. */
static const pr_cli_command *const commands[] = {
    &cmd_build_command,   &cmd_validate_command,     &cmd_site_command,
    &cmd_check_command,   &cmd_import_table_command, &cmd_import_env_command,
    &cmd_compare_command, &cmd_export_command,       &cmd_history_command,
};

static const pr_cli_program program = {GEN_PROG, PR_VERSION, CLI_LIST_SYNOPSES, commands,
                                       sizeof commands / sizeof commands[0]};

int main(int argc, char **argv)
{
    return pr_cli_dispatch(&program, argc, argv);
}
