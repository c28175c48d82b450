/* cmd: the subcommands of perfrepro-measure.  Each takes the arguments after
 * its name (argv[0] is the subcommand's name) and returns the exit status. */
#ifndef PR_CMD_H
#define PR_CMD_H

#include "cli.h"

/* `perfrepro-measure parse`: applies a rule to existing logs (cmd_parse.c),
 * and its row of the command table. */
int cmd_parse(int argc, char **argv);
extern const pr_cli_command cmd_parse_command;
/* `perfrepro-measure run`: runs a suite's cases (cmd_run.c), and its row of
 * the command table (its option errors print its usage). */
int cmd_run(int argc, char **argv);
extern const pr_cli_command cmd_run_command;

/* `perfrepro-measure import`: logs in from a manifest (cmd_import.c). */
int cmd_import(int argc, char **argv);
/* Its row of the command table, whose usage its option errors print. */
extern const pr_cli_command cmd_import_command;

#endif
