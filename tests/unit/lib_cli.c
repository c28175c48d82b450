/* lib/cli: the subcommand table and the option rows both programs use. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define ARGV(...) ((char *[]){__VA_ARGS__, NULL})
#define ARGC(...) ((int)(sizeof((char *[]){__VA_ARGS__}) / sizeof(char *)))
#define NOPTS(a) (sizeof(a) / sizeof(a)[0])

/* What a call writes to one stream (stdout or stderr), read back. */
typedef struct capture {
    FILE *tmp;
    int saved, fd;
} capture;

static capture capture_begin(FILE *stream)
{
    capture c = {tmpfile(), -1, fileno(stream)};
    cr_assert(c.tmp);
    fflush(stream);
    c.saved = dup(c.fd);
    dup2(fileno(c.tmp), c.fd);
    return c;
}

/* The text written since capture_begin (freed by the caller). */
static char *capture_end(capture *c, FILE *stream)
{
    fflush(stream);
    dup2(c->saved, c->fd);
    close(c->saved);
    long n = ftell(c->tmp);
    cr_assert(n >= 0);
    char *text = calloc((size_t)n + 1, 1);
    rewind(c->tmp);
    cr_assert(fread(text, 1, (size_t)n, c->tmp) == (size_t)n);
    fclose(c->tmp);
    return text;
}

static int noop(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static const pr_cli_command tool = {"tool", noop, "prog tool [--data DIR] [--bom]\n",
                                    "tool      does nothing\n", NULL};

/* pr_cli_parse of argv against the table below; its stderr in *err. */
typedef struct parsed {
    const char *data, *format;
    int bom;
    const char *sections[8];
    size_t nsections;
} parsed;

static int parse(parsed *p, int required_format, int argc, char **argv, char **err)
{
    memset(p, 0, sizeof *p);
    p->data = "data";
    const pr_cli_option opts[] = {
        {"--data", .value = &p->data},
        {"--format", .value = &p->format, .required = required_format},
        {"--bom", .flag = &p->bom},
        {"--section", .list = p->sections, .count = &p->nsections},
    };
    capture c = capture_begin(stderr);
    int rc = pr_cli_parse("prog", &tool, opts, NOPTS(opts), argc, argv);
    *err = capture_end(&c, stderr);
    return rc;
}

Test(cli, options_values_flags_and_lists)
{
    parsed p;
    char *err;
    int rc = parse(&p, 0,
                   ARGC("tool", "--data", "d1", "--section", "A", "--bom", "--section", "B",
                        "--data=d2", "--format", "-x"),
                   ARGV("tool", "--data", "d1", "--section", "A", "--bom", "--section", "B",
                        "--data=d2", "--format", "-x"),
                   &err);
    cr_assert_eq(rc, CLI_OK, "%s", err);
    cr_expect_str_eq(p.data, "d2", "the last one wins, --opt=VALUE taken");
    cr_expect_str_eq(p.format, "-x", "a value may start with a dash");
    cr_expect_eq(p.bom, 1);
    cr_assert_eq(p.nsections, 2);
    cr_expect_str_eq(p.sections[0], "A");
    cr_expect_str_eq(p.sections[1], "B");
    cr_expect_str_eq(err, "");
    free(err);
    /* defaults stay when nothing is given; a second parse starts afresh */
    rc = parse(&p, 0, ARGC("tool"), ARGV("tool"), &err);
    cr_expect_eq(rc, CLI_OK);
    cr_expect_str_eq(p.data, "data");
    cr_expect_eq(p.bom, 0);
    cr_expect_eq(p.nsections, 0);
    free(err);
}

/* The first line of err is want, and the command's usage follows. */
static void expect_usage_error(char *err, const char *want)
{
    cr_expect(!strncmp(err, want, strlen(want)) && err[strlen(want)] == '\n',
              "want \"%s\", got \"%s\"", want, err);
    cr_expect(strstr(err, "\nusage: prog tool [--data DIR] [--bom]\n"), "no usage: %s", err);
    free(err);
}

Test(cli, usage_errors_in_one_wording)
{
    parsed p;
    char *err;
    cr_expect_eq(parse(&p, 0, ARGC("tool", "--nope"), ARGV("tool", "--nope"), &err), CLI_USAGE);
    expect_usage_error(err, "prog: tool: unknown option \"--nope\"");
    cr_expect_eq(parse(&p, 0, ARGC("tool", "-x"), ARGV("tool", "-x"), &err), CLI_USAGE);
    expect_usage_error(err, "prog: tool: unknown option \"-x\"");
    cr_expect_eq(parse(&p, 0, ARGC("tool", "--bom=1"), ARGV("tool", "--bom=1"), &err), CLI_USAGE);
    expect_usage_error(err, "prog: tool: unknown option \"--bom=1\"");
    cr_expect_eq(parse(&p, 0, ARGC("tool", "--data"), ARGV("tool", "--data"), &err), CLI_USAGE);
    expect_usage_error(err, "prog: tool: --data needs a value");
    cr_expect_eq(parse(&p, 0, ARGC("tool", "--bom", "x"), ARGV("tool", "--bom", "x"), &err),
                 CLI_USAGE);
    expect_usage_error(err, "prog: tool: unexpected argument \"x\"");
    cr_expect_eq(parse(&p, 1, ARGC("tool", "--bom"), ARGV("tool", "--bom"), &err), CLI_USAGE);
    expect_usage_error(err, "prog: tool: --format is required");
    cr_expect_eq(pr_cli_status(CLI_USAGE), 2);
}

Test(cli, help_prints_the_usage_on_stdout)
{
    parsed p;
    char *err;
    const char *usage = "usage: prog tool [--data DIR] [--bom]\n\ntool      does nothing\n";
    for (int i = 0; i < 2; i++) {
        capture out = capture_begin(stdout);
        int rc = i ? parse(&p, 1, ARGC("tool", "-h"), ARGV("tool", "-h"), &err)
                   : parse(&p, 1, ARGC("tool", "--data", "x", "--help"),
                           ARGV("tool", "--data", "x", "--help"), &err);
        char *text = capture_end(&out, stdout);
        cr_expect_eq(rc, CLI_HELP);
        cr_expect_eq(pr_cli_status(rc), 0);
        cr_expect_str_eq(text, usage, "a required option is not required with --help");
        cr_expect_str_eq(err, "");
        free(text);
        free(err);
    }
}

/* What the command ran by pr_cli_dispatch saw. */
static int seen_argc;
static char seen_argv[4][16];

static int record(int argc, char **argv)
{
    seen_argc = argc;
    for (int i = 0; i < argc && i < 4; i++)
        snprintf(seen_argv[i], sizeof seen_argv[i], "%s", argv[i]);
    return 7;
}

static const pr_cli_command one = {"one", record, NULL, "the first", NULL};
static const pr_cli_command two = {"two", record, NULL, "the second", NULL};
static const pr_cli_command *const commands[] = {&one, &two};
static const pr_cli_program program = {"prog", "1.2", CLI_LIST_SUMMARIES, commands, 2};

/* pr_cli_dispatch's status; its stdout and stderr in *out and *err. */
static int dispatch(int argc, char **argv, char **out, char **err)
{
    seen_argc = 0;
    capture o = capture_begin(stdout), e = capture_begin(stderr);
    int rc = pr_cli_dispatch(&program, argc, argv);
    *err = capture_end(&e, stderr);
    *out = capture_end(&o, stdout);
    return rc;
}

Test(cli, dispatch_by_name)
{
    char *out, *err;
    cr_expect_eq(
        dispatch(ARGC("prog", "two", "--x", "y"), ARGV("prog", "two", "--x", "y"), &out, &err), 7,
        "the command's status");
    cr_expect_eq(seen_argc, 3);
    cr_expect_str_eq(seen_argv[0], "two", "argv[0] is the command's name");
    cr_expect_str_eq(seen_argv[2], "y");
    free(out);
    free(err);
    cr_expect_eq(dispatch(ARGC("prog", "help", "one"), ARGV("prog", "help", "one"), &out, &err), 7);
    cr_expect(seen_argc == 2 && !strcmp(seen_argv[0], "one") && !strcmp(seen_argv[1], "--help"),
              "help NAME is NAME --help");
    free(out);
    free(err);
}

Test(cli, dispatch_usage_version_and_unknown_commands)
{
    char *out, *err;
    cr_expect_eq(dispatch(ARGC("prog", "--help"), ARGV("prog", "--help"), &out, &err), 0);
    cr_expect_str_eq(out, "usage: prog COMMAND [options]\n"
                          "       prog help COMMAND\n"
                          "       prog --version\n"
                          "\n"
                          "commands:\n"
                          "  one      the first\n"
                          "  two      the second\n"
                          "\n"
                          "`prog COMMAND --help` describes a command.\n");
    free(out);
    free(err);
    cr_expect_eq(dispatch(ARGC("prog", "--version"), ARGV("prog", "--version"), &out, &err), 0);
    cr_expect_str_eq(out, "prog 1.2\n");
    free(out);
    free(err);
    cr_expect_eq(dispatch(1, ARGV("prog"), &out, &err), 2, "no command");
    cr_expect(!strncmp(err, "usage: prog", 11) && !*out);
    free(out);
    free(err);
    char **argvs[] = {ARGV("prog", "three"), ARGV("prog", "help", "three")};
    for (int i = 0; i < 2; i++) {
        cr_expect_eq(dispatch(2 + i, argvs[i], &out, &err), 2);
        cr_expect(!strncmp(err, "prog: unknown command \"three\"\nusage: prog", 41), "%s", err);
        cr_expect_eq(seen_argc, 0, "nothing run");
        free(out);
        free(err);
    }
}

/* A command with operands (perfrepro-measure import MANIFEST): anywhere
 * among the options, in order; one-letter forms; "--" ends the options. */
static void tool_usage(FILE *f)
{
    fputs("usage: its own\n", f);
}

static const pr_cli_command ops = {"ops", noop, NULL, "takes operands", tool_usage};

static int parse_args(int argc, char **argv, const char **out, int *dry, int *first, char **err)
{
    *out = NULL;
    *dry = 0;
    const pr_cli_option opts[] = {
        {"--out", 'o', .value = out},
        {"--dry-run", 'n', .flag = dry},
    };
    capture c = capture_begin(stderr);
    int rc = pr_cli_parse_args("prog", &ops, opts, NOPTS(opts), argc, argv, first);
    *err = capture_end(&c, stderr);
    return rc;
}

Test(cli, operands_among_options)
{
    const char *out;
    int dry, first;
    char *err;
    char **argv = ARGV("ops", "m1", "-o", "d", "m2", "-n", "--", "--m3");
    cr_assert_eq(parse_args(8, argv, &out, &dry, &first, &err), CLI_OK, "%s", err);
    cr_expect_str_eq(out, "d");
    cr_expect_eq(dry, 1);
    cr_assert_eq(8 - first, 3, "three operands");
    cr_expect_str_eq(argv[first], "m1");
    cr_expect_str_eq(argv[first + 1], "m2");
    cr_expect_str_eq(argv[first + 2], "--m3");
    free(err);
    cr_expect_eq(parse_args(2, ARGV("ops", "-o"), &out, &dry, &first, &err), CLI_USAGE);
    cr_expect_str_eq(err, "prog: ops: -o needs a value\nusage: its own\n",
                     "the command's own usage");
    free(err);
    cr_expect_eq(parse_args(2, ARGV("ops", "-q"), &out, &dry, &first, &err), CLI_USAGE);
    cr_expect_str_eq(err, "prog: ops: unknown option \"-q\"\nusage: its own\n");
    free(err);
}
