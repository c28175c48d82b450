/* cli: subcommand dispatch and option tables (cli.h). */
#include "cli.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

static const pr_cli_command *find_command(const pr_cli_program *p, const char *name)
{
    for (size_t i = 0; i < p->ncommands; i++)
        if (!strcmp(p->commands[i]->name, name))
            return p->commands[i];
    return NULL;
}

/* Writes LEAD and SYNOPSIS, its continuation lines indented under the first
 * line's text ("usage: " is 7 wide). */
static void put_synopsis(const char *lead, const char *synopsis, FILE *f)
{
    fputs(lead, f);
    for (const char *p = synopsis; *p; p++) {
        fputc(*p, f);
        if (*p == '\n' && p[1])
            fputs("       ", f);
    }
}

void pr_cli_usage(const pr_cli_program *p, FILE *f)
{
    const char *prog = p->name;
    if (p->listing == CLI_LIST_SYNOPSES) {
        for (size_t i = 0; i < p->ncommands; i++)
            put_synopsis(i ? "       " : "usage: ", p->commands[i]->synopsis, f);
        fprintf(f, "       %s help COMMAND\n       %s --version\n\n", prog, prog);
        for (size_t i = 0; i < p->ncommands; i++)
            fputs(p->commands[i]->text, f);
        fputc('\n', f);
    } else {
        fprintf(f,
                "usage: %s COMMAND [options]\n       %s help COMMAND\n       %s --version\n\n"
                "commands:\n",
                prog, prog, prog);
        for (size_t i = 0; i < p->ncommands; i++)
            fprintf(f, "  %-8s %s\n", p->commands[i]->name, p->commands[i]->text);
        fputc('\n', f);
    }
    fprintf(f, "`%s COMMAND --help` describes a command.\n", prog);
}

void pr_cli_command_usage(const pr_cli_command *c, FILE *f)
{
    if (c->usage) {
        c->usage(f);
        return;
    }
    put_synopsis("usage: ", c->synopsis, f);
    fputc('\n', f);
    fputs(c->text, f);
}

static int is_help(const char *a)
{
    return !strcmp(a, "--help") || !strcmp(a, "-h");
}

int pr_cli_dispatch(const pr_cli_program *p, int argc, char **argv)
{
    if (argc < 2) {
        pr_cli_usage(p, stderr);
        return 2;
    }
    const char *name = argv[1];
    if (is_help(name) || (!strcmp(name, "help") && argc == 2)) {
        pr_cli_usage(p, stdout);
        return 0;
    }
    if (!strcmp(name, "--version")) {
        printf("%s %s\n", p->name, p->version);
        return 0;
    }
    int help = !strcmp(name, "help");
    if (help)
        name = argv[2];
    const pr_cli_command *c = find_command(p, name);
    if (!c) {
        fprintf(stderr, "%s: unknown command \"%s\"\n", p->name, name);
        pr_cli_usage(p, stderr);
        return 2;
    }
    if (help) {
        /* `help NAME` is `NAME --help`: one text, printed by the command */
        static char help_opt[] = "--help";
        char *help_argv[] = {argv[2], help_opt, NULL};
        return c->fn(2, help_argv);
    }
    return c->fn(argc - 1, argv + 1);
}

int pr_cli_usage_error(const char *prog, const pr_cli_command *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: %s: ", prog, c->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    pr_cli_command_usage(c, stderr);
    return 2;
}

int pr_cli_status(int parsed)
{
    return parsed == CLI_HELP ? 0 : 2;
}

/* Stores the value or flag of row o. */
static void take(const pr_cli_option *o, char *arg)
{
    if (o->flag)
        *o->flag = 1;
    else if (o->list)
        o->list[(*o->count)++] = arg;
    else
        *o->value = arg;
}

/* getopt_long's table for opts: row i is returned as LONG_BASE + i, help
 * as LONG_BASE + nopts (above every short option's letter, so that optopt
 * tells them apart); freed by the caller. */
#define LONG_BASE 256
static struct option *long_options(const pr_cli_option *opts, size_t nopts)
{
    struct option *lo = pr_xcalloc(nopts + 2, sizeof *lo);
    for (size_t i = 0; i < nopts; i++) {
        lo[i].name = opts[i].name + 2; /* past "--" */
        lo[i].has_arg = opts[i].flag ? no_argument : required_argument;
        lo[i].val = LONG_BASE + (int)i;
    }
    lo[nopts].name = "help";
    lo[nopts].val = LONG_BASE + (int)nopts;
    return lo;
}

/* getopt's short options: ':' first (a missing value is ':', not '?'),
 * after '+' when operands stop the options; h, and each row's letter
 * (followed by ':' when it takes a value).  Freed by the caller. */
static char *short_options(const pr_cli_option *opts, size_t nopts, int operands)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, operands ? ":h" : "+:h");
    for (size_t i = 0; i < nopts; i++)
        if (opts[i].letter) {
            pr_buf_putc(&b, opts[i].letter);
            if (!opts[i].flag)
                pr_buf_putc(&b, ':');
        }
    return pr_buf_detach(&b);
}

/* The row whose letter is ch, as LONG_BASE + its index; ch when none. */
static int row_of_letter(const pr_cli_option *opts, size_t nopts, int ch)
{
    for (size_t i = 0; i < nopts; i++)
        if (opts[i].letter && opts[i].letter == ch)
            return LONG_BASE + (int)i;
    return ch;
}

int pr_cli_parse(const char *prog, const pr_cli_command *c, const pr_cli_option *opts, size_t nopts,
                 int argc, char **argv)
{
    return pr_cli_parse_args(prog, c, opts, nopts, argc, argv, NULL);
}

int pr_cli_parse_args(const char *prog, const pr_cli_command *c, const pr_cli_option *opts,
                      size_t nopts, int argc, char **argv, int *first)
{
    struct option *lo = long_options(opts, nopts);
    char *shorts = short_options(opts, nopts, first != NULL);
    int *seen = pr_xcalloc(nopts + 1, sizeof *seen); /* row i given */
    int rc = CLI_OK, ch;
    /* optind 0: GNU getopt starts afresh (an earlier parse left it set) */
    optind = 0;
    opterr = 0;
    while (rc == CLI_OK && (ch = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        ch = row_of_letter(opts, nopts, ch);
        if (ch == 'h' || ch == LONG_BASE + (int)nopts) {
            pr_cli_command_usage(c, stdout);
            rc = CLI_HELP;
        } else if (ch == ':') {
            pr_cli_usage_error(prog, c, "%s needs a value", argv[optind - 1]);
            rc = CLI_USAGE;
        } else if (ch == '?') {
            if (optopt > 0 && optopt < LONG_BASE)
                pr_cli_usage_error(prog, c, "unknown option \"-%c\"", optopt);
            else
                pr_cli_usage_error(prog, c, "unknown option \"%s\"", argv[optind - 1]);
            rc = CLI_USAGE;
        } else {
            seen[ch - LONG_BASE] = 1;
            take(&opts[ch - LONG_BASE], optarg);
        }
    }
    if (first)
        *first = optind;
    else if (rc == CLI_OK && optind < argc) {
        pr_cli_usage_error(prog, c, "unexpected argument \"%s\"", argv[optind]);
        rc = CLI_USAGE;
    }
    for (size_t i = 0; rc == CLI_OK && i < nopts; i++)
        if (opts[i].required && !seen[i]) {
            pr_cli_usage_error(prog, c, "%s is required", opts[i].name);
            rc = CLI_USAGE;
        }
    free(lo);
    free(shorts);
    free(seen);
    return rc;
}
