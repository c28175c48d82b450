/* cmd: the subcommands of perfrepro-measure.  Each takes the arguments after
 * its name (argv[0] is the subcommand's name) and returns the exit status. */
#ifndef PR_CMD_H
#define PR_CMD_H

#include "cli.h"

/* `perfrepro-measure parse`: applies a rule to existing logs (cmd_parse.c). */
int cmd_parse(int argc, char **argv);
/* `perfrepro-measure run`: runs a suite's cases (cmd_run.c). */
int cmd_run(int argc, char **argv);

/* `perfrepro-measure import`: logs in from a manifest (cmd_import.c). */
int cmd_import(int argc, char **argv);
/* Its row of the command table, whose usage its option errors print. */
extern const pr_cli_command cmd_import_command;

#endif
