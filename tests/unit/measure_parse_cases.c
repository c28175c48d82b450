/* measure_parse_cases: the driver of tests/parse/ files (*.test), the parser cases
 * written as data (rule, logs, arguments, what is expected), as jq's
 * tests/ files (*.test) and cmark's spec tests.  The format is documented at the top
 * of tests/parse/README.md; a failing check names the .test file, the line
 * of its expectation and the block's title.
 *
 * The folder is tests/parse (run from the repository root, as every unit
 * test is); PERFREPRO_PARSE_TESTS names another one.
 *
 * Memory: a block's texts are owned by its parse_case and freed by
 * case_clear; the log files written for a block are removed after it. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "2-parse/parse.h"
#include "2-parse/rule.h"
#include "buf.h"

#define MAX_LOGS 8
#define MAX_EXPECT 64
#define MAX_NAMED 16

/* The logs a file names ("--- log NAME"), for "--- log @NAME" after. */
typedef struct named_log {
    char *name;
    pr_buf text;
} named_log;

typedef struct expect_line {
    int line;
    char *text; /* "KEY ARGUMENT", owned */
} expect_line;

typedef struct parse_case {
    const char *file;
    int line; /* of the "===" line */
    char *title;
    pr_buf rule;
    pr_buf args;
    pr_buf logs[MAX_LOGS];
    size_t nlogs;
    int same_logs; /* "--- same logs": the previous block's */
    expect_line expect[MAX_EXPECT];
    size_t nexpect;
} parse_case;

/* Which section the lines being read belong to. */
typedef enum { SEC_NONE, SEC_RULE, SEC_ARGS, SEC_LOG, SEC_EXPECT } section;

static const char *cases_dir(void)
{
    const char *s = getenv("PERFREPRO_PARSE_TESTS");
    return s && *s ? s : "tests/parse";
}

static void case_clear(parse_case *c)
{
    free(c->title);
    pr_buf_free(&c->rule);
    pr_buf_free(&c->args);
    for (size_t i = 0; i < MAX_LOGS; i++)
        pr_buf_free(&c->logs[i]);
    for (size_t i = 0; i < c->nexpect; i++)
        free(c->expect[i].text);
    memset(c, 0, sizeof *c);
}

static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Appends one log line to out, escapes decoded: \e ESC, \a BEL, \r, \t,
 * \0, \\ and \xHH; a trailing \c drops the line's newline. */
static void put_log_line(pr_buf *out, const char *s, const char *file, int line)
{
    for (; *s; s++) {
        if (*s != '\\') {
            pr_buf_putc(out, *s);
            continue;
        }
        s++;
        switch (*s) {
        case 'e':
            pr_buf_putc(out, 0x1b);
            break;
        case 'a':
            pr_buf_putc(out, 0x07);
            break;
        case 'r':
            pr_buf_putc(out, '\r');
            break;
        case 't':
            pr_buf_putc(out, '\t');
            break;
        case '0':
            pr_buf_put(out, "", 1);
            break;
        case '\\':
            pr_buf_putc(out, '\\');
            break;
        case 'c':
            cr_assert_eq(s[1], '\0', "%s:%d: \\c ends a line", file, line);
            return;
        case 'x': {
            int hi = hexval(s[1]), lo = hi < 0 ? -1 : hexval(s[2]);
            cr_assert(lo >= 0, "%s:%d: \\x needs two hex digits", file, line);
            pr_buf_putc(out, hi * 16 + lo);
            s += 2;
            break;
        }
        default:
            cr_assert_fail("%s:%d: unknown escape \\%c", file, line, *s);
        }
    }
    pr_buf_putc(out, '\n');
}

/* Blank lines that close a log section belong to the file's layout. */
static void trim_blank_tail(pr_buf *b)
{
    while (b->len >= 2 && b->data[b->len - 1] == '\n' && b->data[b->len - 2] == '\n')
        pr_buf_truncate(b, b->len - 1);
    if (b->len == 1 && b->data[0] == '\n')
        pr_buf_truncate(b, 0);
}

/* Writes the block's logs into dir; paths[i] are malloc'd. */
static void write_logs(const parse_case *c, const char *dir, char **paths)
{
    for (size_t i = 0; i < c->nlogs; i++) {
        paths[i] = pr_xasprintf("%s/run%zu.log", dir, i + 1);
        FILE *f = fopen(paths[i], "wb");
        cr_assert_not_null(f, "%s: %s", paths[i], strerror(errno));
        /* an empty log has no buffer: fwrite's argument must not be NULL */
        if (c->logs[i].len)
            cr_assert_eq(fwrite(c->logs[i].data, 1, c->logs[i].len, f), c->logs[i].len);
        cr_assert_eq(fclose(f), 0);
    }
}

/* "gpus 8 batch 32 seq 128 unit X"; the unit points into unit_buf. */
static pr_parse_args read_args(const parse_case *c, char *unit_buf, size_t unit_size)
{
    pr_parse_args a = {0, 0, 0, NULL};
    const char *s = c->args.data ? c->args.data : "";
    char key[16], val[64];
    int n;
    while (sscanf(s, " %15s %63s%n", key, val, &n) == 2) {
        if (strcmp(key, "unit") == 0) {
            snprintf(unit_buf, unit_size, "%s", val);
            a.unit = unit_buf;
        } else if (strcmp(key, "gpus") == 0)
            a.gpus = atoi(val);
        else if (strcmp(key, "batch") == 0)
            a.batch_size = atoi(val);
        else if (strcmp(key, "seq") == 0)
            a.seq_len = atoi(val);
        else
            cr_assert_fail("%s:%d: %s: unknown argument %s", c->file, c->line, c->title, key);
        s += n;
    }
    return a;
}

/* The value at a dotted path of the result ("metrics.table.rows",
 * "stats.ignored"); NULL when absent. */
static json_t *result_at(const pr_parse_result *res, const char *path)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    char *save = NULL, *part = strtok_r(buf, ".", &save);
    json_t *v = NULL;
    if (part && strcmp(part, "metrics") == 0)
        v = res->metrics;
    else if (part && strcmp(part, "stats") == 0)
        v = res->stats;
    while (v && (part = strtok_r(NULL, ".", &save)))
        v = json_object_get(v, part);
    return v;
}

static int near(double got, double want, double tol)
{
    return fabs(got - want) <= tol;
}

/* Checks one expectation line against the parse's outcome. */
static void check_expect(const parse_case *c, const expect_line *e, int rc, const pr_err *err,
                         const pr_parse_result *res)
{
    char key[32] = "";
    int off = 0;
    sscanf(e->text, "%31s %n", key, &off);
    const char *arg = e->text + off;
    const char *where = c->file;
    int line = e->line;
    if (strcmp(key, "error") == 0) {
        cr_expect(rc == -1 && strstr(err->msg, arg), "%s:%d: %s: want an error with \"%s\", got %s",
                  where, line, c->title, arg, rc == -1 ? err->msg : "none");
        return;
    }
    if (rc != 0) {
        cr_expect_fail("%s:%d: %s: parse refused: %s", where, line, c->title, err->msg);
        return;
    }
    const char *detail = res->fail_detail ? res->fail_detail : "";
    if (strcmp(key, "value") == 0) {
        double want = 0, tol = 1e-9;
        cr_assert(sscanf(arg, "%lf ~ %lf", &want, &tol) >= 1, "%s:%d: value needs a number", where,
                  line);
        cr_expect(!res->failed && near(res->value, want, tol),
                  "%s:%d: %s: value want %.17g, got %s %.17g %s", where, line, c->title, want,
                  res->failed ? "failure" : "", res->value, res->failed ? res->fail_reason : "");
    } else if (strcmp(key, "failed") == 0) {
        cr_expect(res->failed, "%s:%d: %s: did not fail: %.17g", where, line, c->title, res->value);
    } else if (strcmp(key, "fail") == 0) {
        cr_expect(res->failed && strcmp(res->fail_reason, arg) == 0,
                  "%s:%d: %s: want failure %s, got %s", where, line, c->title, arg,
                  res->failed ? res->fail_reason : "no failure");
    } else if (strcmp(key, "detail") == 0) {
        cr_expect(strstr(detail, arg) != NULL, "%s:%d: %s: detail lacks \"%s\": %s", where, line,
                  c->title, arg, detail);
    } else if (strcmp(key, "unit") == 0) {
        cr_expect(res->unit && strcmp(res->unit, arg) == 0, "%s:%d: %s: unit want %s, got %s",
                  where, line, c->title, arg, res->unit ? res->unit : "(none)");
    } else if (strcmp(key, "metric") == 0) {
        cr_expect(json_is_number(json_object_get(res->metrics, arg)),
                  "%s:%d: %s: no number metrics.%s", where, line, c->title, arg);
    } else if (strcmp(key, "stat") == 0) {
        char name[64];
        double want;
        cr_assert(sscanf(arg, "%63s %lf", name, &want) == 2, "%s:%d: stat NAME NUMBER", where,
                  line);
        json_t *v = json_object_get(res->stats, name);
        cr_expect(json_is_number(v) && near(json_number_value(v), want, 1e-12),
                  "%s:%d: %s: stats.%s want %.17g, got %.17g", where, line, c->title, name, want,
                  json_is_number(v) ? json_number_value(v) : NAN);
    } else if (strcmp(key, "per_run") == 0) {
        size_t i;
        char want[32];
        cr_assert(sscanf(arg, "%zu %31s", &i, want) == 2, "%s:%d: per_run INDEX VALUE|null", where,
                  line);
        json_t *v = json_array_get(json_object_get(res->stats, "per_run"), i - 1);
        if (strcmp(want, "null") == 0)
            cr_expect(json_is_null(v), "%s:%d: %s: per_run %zu not null", where, line, c->title, i);
        else
            cr_expect(json_is_number(v) && near(json_number_value(v), strtod(want, NULL), 1e-9),
                      "%s:%d: %s: per_run %zu want %s", where, line, c->title, i, want);
    } else if (strcmp(key, "json") == 0) {
        char path[128];
        int len = 0;
        cr_assert(sscanf(arg, "%127s %n", path, &len) == 1 && len > 0,
                  "%s:%d: json PATH JSON|absent", where, line);
        json_t *got = result_at(res, path);
        char *g = got ? json_dumps(got, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        if (strcmp(arg + len, "absent") == 0) {
            cr_expect(got == NULL, "%s:%d: %s: %s is there: %s", where, line, c->title, path, g);
        } else {
            json_error_t je;
            json_t *want = json_loads(arg + len, JSON_DECODE_ANY, &je);
            cr_assert_not_null(want, "%s:%d: bad JSON: %s", where, line, je.text);
            cr_expect(got && json_equal(got, want), "%s:%d: %s: %s\n got  %s\n want %s", where,
                      line, c->title, path, g ? g : "(absent)", arg + len);
            json_decref(want);
        }
        free(g);
    } else if (strcmp(key, "length") == 0) {
        char path[128];
        size_t want;
        cr_assert(sscanf(arg, "%127s %zu", path, &want) == 2, "%s:%d: length PATH N", where, line);
        json_t *got = result_at(res, path);
        cr_expect(json_is_array(got) && json_array_size(got) == want,
                  "%s:%d: %s: %s has not %zu items", where, line, c->title, path, want);
    } else if (strcmp(key, "runs") == 0) {
        size_t want = strtoul(arg, NULL, 10);
        cr_expect_eq(json_array_size(json_object_get(res->stats, "per_run")), want,
                     "%s:%d: %s: per_run has not %zu runs", where, line, c->title, want);
    } else {
        cr_expect_fail("%s:%d: unknown expectation %s", where, line, key);
    }
}

/* Builds the rule; with "rule-error" expectations, checks its refusal
 * instead and returns NULL. */
static pr_rule *build_rule(const parse_case *c, int *rule_errors)
{
    pr_rule *rule = NULL;
    pr_err err;
    memset(&err, 0, sizeof err);
    const char *text = c->rule.data ? c->rule.data : "";
    int rc = rule_parse("<--rule>", text, strlen(text), &rule, &err);
    *rule_errors = 0;
    for (size_t i = 0; i < c->nexpect; i++) {
        const char *t = c->expect[i].text;
        if (strncmp(t, "rule-error ", 11) != 0)
            continue;
        (*rule_errors)++;
        cr_expect(rc == -1 && strstr(err.msg, t + 11) != NULL,
                  "%s:%d: %s: want a rule error with \"%s\", got %s", c->file, c->expect[i].line,
                  c->title, t + 11, rc == -1 ? err.msg : "the rule accepted");
    }
    if (*rule_errors) {
        rule_free(rule);
        return NULL;
    }
    cr_assert_eq(rc, 0, "%s:%d: %s: rule %s: %s", c->file, c->line, c->title, text, err.msg);
    return rule;
}

/* Runs one block: returns the number of expectations it checked. */
static size_t run_case(const parse_case *c)
{
    int rule_errors = 0;
    pr_rule *rule = build_rule(c, &rule_errors);
    if (!rule)
        return (size_t)rule_errors;
    cr_assert(c->nexpect > 0, "%s:%d: %s: expects nothing", c->file, c->line, c->title);
    char dir[] = "/tmp/perfrepro-parsecase-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char *paths[MAX_LOGS] = {0};
    write_logs(c, dir, paths);
    char unit[64];
    pr_parse_args args = read_args(c, unit, sizeof unit);
    pr_parse_result res;
    parse_result_init(&res);
    pr_err err;
    memset(&err, 0, sizeof err);
    int rc = parse_logs(rule, (const char *const *)paths, c->nlogs, &args, &res, &err);
    for (size_t i = 0; i < c->nexpect; i++)
        check_expect(c, &c->expect[i], rc, &err, &res);
    parse_result_clear(&res);
    rule_free(rule);
    for (size_t i = 0; i < c->nlogs; i++) {
        unlink(paths[i]);
        free(paths[i]);
    }
    rmdir(dir);
    return c->nexpect;
}

/* Hands the logs of a finished block to the next (for "--- same logs"). */
static void carry_logs(parse_case *from, parse_case *to)
{
    for (size_t i = 0; i < from->nlogs; i++) {
        to->logs[i] = from->logs[i];
        pr_buf_init(&from->logs[i]);
    }
    to->nlogs = from->nlogs;
}

/* Reads and runs every block of path; adds to *blocks and *checks. */
static void run_file(const char *path, size_t *blocks, size_t *checks)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s: %s", path, strerror(errno));
    parse_case cur, prev;
    memset(&cur, 0, sizeof cur);
    memset(&prev, 0, sizeof prev);
    section sec = SEC_NONE;
    named_log named[MAX_NAMED];
    size_t nnamed = 0;
    char *log_name = NULL; /* of the log section being read */
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int lineno = 0, open = 0;
    for (;;) {
        n = getline(&line, &cap, f);
        lineno++;
        if (n > 0 && line[n - 1] == '\n')
            line[--n] = '\0';
        int is_title = n >= 0 && strncmp(line, "=== ", 4) == 0;
        if (sec == SEC_LOG && (n < 0 || is_title || strncmp(line, "--- ", 4) == 0)) {
            pr_buf *done = &cur.logs[cur.nlogs - 1];
            trim_blank_tail(done);
            if (log_name) {
                cr_assert(nnamed < MAX_NAMED, "%s:%d: too many named logs", path, lineno);
                named[nnamed].name = pr_xstrdup(log_name);
                pr_buf_init(&named[nnamed].text);
                pr_buf_put(&named[nnamed].text, done->data ? done->data : "", done->len);
                nnamed++;
                free(log_name);
                log_name = NULL;
            }
        }
        if (n < 0 || is_title) {
            if (open) {
                if (cur.same_logs)
                    carry_logs(&prev, &cur);
                *checks += run_case(&cur);
                (*blocks)++;
                case_clear(&prev);
                prev = cur;
                memset(&cur, 0, sizeof cur);
            }
            if (n < 0)
                break;
            cur.file = path;
            cur.line = lineno;
            cur.title = pr_xstrdup(line + 4);
            open = 1;
            sec = SEC_NONE;
            continue;
        }
        if (strncmp(line, "--- ", 4) == 0) {
            cr_assert(open, "%s:%d: a section outside a block", path, lineno);
            const char *s = line + 4;
            if (strcmp(s, "rule") == 0)
                sec = SEC_RULE;
            else if (strcmp(s, "args") == 0)
                sec = SEC_ARGS;
            else if (strcmp(s, "expect") == 0)
                sec = SEC_EXPECT;
            else if (strcmp(s, "same logs") == 0)
                cur.same_logs = 1, sec = SEC_NONE;
            else if (strcmp(s, "log") == 0 || strncmp(s, "log ", 4) == 0) {
                cr_assert(cur.nlogs < MAX_LOGS, "%s:%d: too many logs", path, lineno);
                pr_buf *log = &cur.logs[cur.nlogs++];
                sec = SEC_LOG;
                if (s[3] == ' ' && s[4] == '@') {
                    /* "@a @b": the named logs one after the other, in one file */
                    char names[256], *save = NULL;
                    snprintf(names, sizeof names, "%s", s + 4);
                    for (char *w = strtok_r(names, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
                        size_t k = 0;
                        while (k < nnamed && strcmp(named[k].name, w + 1) != 0)
                            k++;
                        cr_assert(w[0] == '@' && k < nnamed, "%s:%d: no log named %s before", path,
                                  lineno, w);
                        pr_buf_put(log, named[k].text.data ? named[k].text.data : "",
                                   named[k].text.len);
                    }
                    sec = SEC_NONE;
                } else if (s[3] == ' ')
                    log_name = pr_xstrdup(s + 4);
            } else
                cr_assert_fail("%s:%d: unknown section \"%s\"", path, lineno, s);
            continue;
        }
        switch (sec) {
        case SEC_NONE:
            /* comments and blank lines between blocks and sections */
            cr_assert(n == 0 || line[0] == '#', "%s:%d: text outside a section", path, lineno);
            break;
        case SEC_RULE:
        case SEC_ARGS:
            pr_buf_puts(sec == SEC_RULE ? &cur.rule : &cur.args, line);
            pr_buf_putc(sec == SEC_RULE ? &cur.rule : &cur.args, '\n');
            break;
        case SEC_LOG:
            put_log_line(&cur.logs[cur.nlogs - 1], line, path, lineno);
            break;
        case SEC_EXPECT:
            if (n == 0 || line[0] == '#')
                break;
            cr_assert(cur.nexpect < MAX_EXPECT, "%s:%d: too many expectations", path, lineno);
            cur.expect[cur.nexpect++] = (expect_line){lineno, pr_xstrdup(line)};
            break;
        }
    }
    case_clear(&prev);
    for (size_t i = 0; i < nnamed; i++) {
        free(named[i].name);
        pr_buf_free(&named[i].text);
    }
    free(line);
    fclose(f);
}

static int is_test_file(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 5 && strcmp(d->d_name + n - 5, ".test") == 0;
}

Test(parse_cases, every_block_of_tests_parse)
{
    struct dirent **names = NULL;
    int n = scandir(cases_dir(), &names, is_test_file, alphasort);
    cr_assert(n > 0, "no .test files in %s", cases_dir());
    size_t blocks = 0, checks = 0;
    for (int i = 0; i < n; i++) {
        char *path = pr_xasprintf("%s/%s", cases_dir(), names[i]->d_name);
        run_file(path, &blocks, &checks);
        free(path);
        free(names[i]);
    }
    free(names);
    cr_log_info("%d files, %zu blocks, %zu expectations", n, blocks, checks);
}
