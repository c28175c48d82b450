/* gen_cmd: the commands of perfrepro-gen, one cmd_NAME.c each, listed by
 * main.c.  Each is a pr_cli_command (lib/cli.h): its name, its function (argv[0]
 * is the command's name; returns the exit status: 0 success, 1 invalid input
 * or a failed write, 2 usage), its synopsis and what it does.
 *
 * Memory: the commands are static constants.
 */
#ifndef GEN_CMD_H
#define GEN_CMD_H

#include "cli.h"

/* The program's name, as messages start. */
#define GEN_PROG "perfrepro-gen"

extern const pr_cli_command cmd_build_command;        /* cmd_build.c */
extern const pr_cli_command cmd_validate_command;     /* cmd_validate.c */
extern const pr_cli_command cmd_site_command;         /* cmd_site.c */
extern const pr_cli_command cmd_check_command;        /* cmd_check.c */
extern const pr_cli_command cmd_import_table_command; /* cmd_import_table.c */
extern const pr_cli_command cmd_import_env_command;   /* cmd_import_env.c */
extern const pr_cli_command cmd_compare_command;      /* cmd_compare.c */
extern const pr_cli_command cmd_export_command;       /* cmd_export.c */
extern const pr_cli_command cmd_history_command;      /* cmd_history.c */

#endif
