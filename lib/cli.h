/* cli: the command line of perfrepro-gen and perfrepro-measure.
 *
 * A program is a table of subcommands; pr_cli_dispatch runs
 *   PROG COMMAND [options], PROG help COMMAND, PROG --help, PROG --version
 * and pr_cli_parse reads one command's "--opt VALUE" options from a table of
 * rows (getopt_long underneath: "--opt=VALUE" and unambiguous prefixes are
 * taken too; pr_cli_parse_args also operands), with the same wording and exit
 * status in both programs:
 *   PROG: COMMAND: unknown option "--x"      PROG: COMMAND: --data needs a value
 *   PROG: COMMAND: unexpected argument "x"   PROG: COMMAND: --format is required
 * each followed by the command's usage on standard error (exit status 2).
 * This module prints: it is the part of main() that every command shares.
 *
 * Memory: nothing is allocated that outlives a call; option values point
 * into argv.
 */
#ifndef PR_CLI_H
#define PR_CLI_H

#include <stddef.h>
#include <stdio.h>

/* One subcommand.  fn gets the arguments from the command's name on
 * (argv[0] is the name) and returns the exit status: 0 success, 1 invalid
 * input or a failed write, 2 usage.  `PROG help NAME` runs fn with
 * {NAME, "--help"}. */
typedef struct pr_cli_command {
    const char *name;
    int (*fn)(int argc, char **argv);
    /* The lines after "usage: " ("PROG NAME [--opt X]\n", continuation lines
     * indented by 10), or NULL where usage (below) prints it, or where fn
     * prints its own and reads its options without pr_cli_parse. */
    const char *synopsis;
    /* What it does: the paragraph printed under the synopsis (synopsis
     * set), or one line listed by PROG --help (synopsis NULL). */
    const char *text;
    /* Prints the command's usage where the synopsis does not (NULL: the
     * synopsis and text above are its usage). */
    void (*usage)(FILE *f);
} pr_cli_command;

/* How PROG --help lists the commands. */
typedef enum pr_cli_listing {
    CLI_LIST_SYNOPSES, /* every synopsis, then every text (perfrepro-gen) */
    CLI_LIST_SUMMARIES /* "PROG COMMAND [options]", then "commands:" NAME TEXT */
} pr_cli_listing;

typedef struct pr_cli_program {
    const char *name;    /* "perfrepro-gen" */
    const char *version; /* printed by --version */
    pr_cli_listing listing;
    const pr_cli_command *const *commands;
    size_t ncommands;
} pr_cli_program;

/* Runs the command argv[1] names (see above).  Returns the exit status. */
int pr_cli_dispatch(const pr_cli_program *p, int argc, char **argv);

/* Writes the program's usage (PROG --help) to f. */
void pr_cli_usage(const pr_cli_program *p, FILE *f);

/* Writes one command's usage: c->usage's, else "usage: " SYNOPSIS, a blank
 * line, TEXT. */
void pr_cli_command_usage(const pr_cli_command *c, FILE *f);

/* One option of a command: its name and where it goes; one of value, flag
 * or list is set.  A row reads {"--data", .value = &data}. */
typedef struct pr_cli_option {
    const char *name;   /* "--data" */
    char letter;        /* its one-letter form ('o' for -o), or 0 */
    const char **value; /* "--data DIR": DIR; the last one given wins */
    int *flag;          /* "--bom": set to 1 */
    /* "--section T" repeated: appended to list (room for argc entries),
     * *count is how many */
    const char **list;
    size_t *count;
    int required; /* leaving it out is a usage error */
} pr_cli_option;

/* What pr_cli_parse found. */
enum {
    CLI_OK,   /* every option read: go on */
    CLI_HELP, /* --help or -h: the usage is on standard output (exit 0) */
    CLI_USAGE /* a message and the usage are on standard error (exit 2) */
};

/* Reads argv[1..argc) of command c of program prog against the nopts rows
 * of opts (argv[0] is the command's name).  Every argument must be an
 * option of the table or its value; --help and -h print the usage.
 * Returns CLI_OK, CLI_HELP or CLI_USAGE. */
int pr_cli_parse(const char *prog, const pr_cli_command *c, const pr_cli_option *opts, size_t nopts,
                 int argc, char **argv);

/* pr_cli_parse for a command that takes operands (a suite, a manifest): they
 * may come before, between or after the options; argv is permuted so that
 * on CLI_OK they are argv[*first..argc), in the order given ("--" ends
 * the options). */
int pr_cli_parse_args(const char *prog, const pr_cli_command *c, const pr_cli_option *opts,
                      size_t nopts, int argc, char **argv, int *first);

/* pr_cli_parse's result as an exit status when it is not CLI_OK: 0 or 2. */
int pr_cli_status(int parsed);

/* Prints "PROG: COMMAND: MESSAGE" and the command's usage on standard
 * error; returns 2, the exit status of a usage error. */
int pr_cli_usage_error(const char *prog, const pr_cli_command *c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
