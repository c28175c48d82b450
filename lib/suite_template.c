/* suite_template: command templates: placeholders, a case's values, expansion, shell checks. */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

#include "jdoc.h"
#include "suite_int.h"

const char *const pr_suite_placeholders[] = {
    "model", "model_name", "framework", "batch_size", "precision", "gpus", "nodes", "gpus_per_node",
    "run_mode", "repeat", "max_iter", "seq_len", "case", "gpu_list", "precision_upper", "dtype",
    "global_batch_size", "node_batch_size",
    /* Filled by the runner and launchers. */
    "log_dir", "log_file", "workdir", "master_addr", "master_port", "node_rank", "world_size",
    "local_rank", "hostfile", NULL};

pr_suite_var *pr_suite_case_vars(const pr_suite *s, const pr_suite_case *c, pr_buf *st, size_t *n)
{
    /* Offsets into st, turned into pointers once st stops growing. */
    enum { NV = 18 };
    static const char *const names[NV] = {"model",      "model_name",        "framework",
                                          "batch_size", "precision",         "gpus",
                                          "nodes",      "gpus_per_node",     "run_mode",
                                          "repeat",     "max_iter",          "seq_len",
                                          "case",       "gpu_list",          "precision_upper",
                                          "dtype",      "global_batch_size", "node_batch_size"};
    size_t off[NV];
    pr_buf_clear(st);
#define PUT(i, ...) (off[i] = st->len, pr_buf_printf(st, __VA_ARGS__), pr_buf_putc(st, '\0'))
    PUT(0, "%s", s->model);
    PUT(1, "%s", s->model_name);
    PUT(2, "%s", s->framework);
    PUT(3, "%d", c->batch_size);
    PUT(4, "%s", c->precision);
    PUT(5, "%d", c->gpus);
    PUT(6, "%d", c->nodes);
    PUT(7, "%d", c->gpus_per_node);
    PUT(8, "%s", c->gpus > 1 ? "mp" : "sp");
    PUT(9, "%d", c->repeat);
    PUT(10, "%d", s->max_iter);
    PUT(11, "%d", s->seq_len);
    PUT(12, "%s", c->name ? c->name : "");
    off[13] = st->len;
    for (int g = 0; g < c->gpus_per_node; g++)
        pr_buf_printf(st, "%s%d", g ? "," : "", g);
    pr_buf_putc(st, '\0');
    off[14] = st->len;
    for (const char *p = c->precision; *p; p++)
        pr_buf_putc(st, *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
    pr_buf_putc(st, '\0');
    /* The framework dtype names: fp16 and amp compute in float16. */
    const char *dtype = !strcmp(c->precision, "fp16") || !strcmp(c->precision, "amp") ? "float16"
                        : !strcmp(c->precision, "bf16")                               ? "bfloat16"
                        : !strcmp(c->precision, "fp8")                                ? "float8"
                                                                                      : "float32";
    PUT(15, "%s", dtype);
    PUT(16, "%lld", (long long)c->batch_size * c->gpus);
    /* What one node processes per step: the --batch-size of scripts that
     * divide it among the node's GPUs (pytorch/examples imagenet). */
    PUT(17, "%lld", (long long)c->batch_size * c->gpus_per_node);
#undef PUT
    pr_suite_var *v = pr_xmalloc(NV * sizeof *v);
    for (int i = 0; i < NV; i++) {
        v[i].name = names[i];
        v[i].value = st->data + off[i];
    }
    *n = NV;
    return v;
}

int pr_suite_template_expand(const char *t, const pr_suite_var *vars, size_t nvars,
                             const pr_suite_var *extra, size_t nextra, pr_buf *out, pr_err *err)
{
    while (*t) {
        if ((t[0] == '{' && t[1] == '{') || (t[0] == '}' && t[1] == '}')) {
            pr_buf_putc(out, t[0]);
            t += 2;
            continue;
        }
        if (*t == '}')
            return pr_err_set(err, NULL, 0, 0, NULL, "unmatched '}' in \"%s\"", t);
        if (*t != '{') {
            pr_buf_putc(out, *t++);
            continue;
        }
        const char *end = strchr(t, '}');
        if (!end)
            return pr_err_set(err, NULL, 0, 0, NULL, "unclosed '{' in \"%s\"", t);
        size_t len = (size_t)(end - t - 1);
        const char *val = NULL;
        for (size_t i = 0; i < nvars && !val; i++)
            if (strlen(vars[i].name) == len && memcmp(vars[i].name, t + 1, len) == 0)
                val = vars[i].value;
        for (size_t i = 0; i < nextra && !val; i++)
            if (strlen(extra[i].name) == len && memcmp(extra[i].name, t + 1, len) == 0)
                val = extra[i].value;
        if (!val)
            return pr_err_set(err, NULL, 0, 0, NULL, "unknown placeholder {%.*s}", (int)len, t + 1);
        pr_buf_puts(out, val);
        t = end + 1;
    }
    return 0;
}

/* Checks every placeholder of the template at c against the known names, by
 * expanding it with dummy values. */
int pr_suite_check_template(const pr_jdoc_jcur *c, pr_err *err)
{
    size_t n = 0;
    while (pr_suite_placeholders[n])
        n++;
    pr_suite_var *v = pr_xmalloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        v[i].name = pr_suite_placeholders[i];
        v[i].value = "x";
    }
    pr_buf b = PR_BUF_INIT;
    pr_err e;
    int rc = pr_suite_template_expand(json_string_value(c->v), v, n, NULL, 0, &b, &e);
    if (rc < 0)
        pr_jdoc_jfail(c, err, "%s", e.msg);
    pr_buf_free(&b);
    free(v);
    return rc;
}

/* Where a placeholder of a "shell": true command stands.  Its value is
 * inserted as one single-quoted shell word, which the shell reads as one
 * word only in plain text: inside double quotes the quotes are literal and
 * "$(...)" in the value runs; after a backslash or '$' the opening quote
 * changes meaning; in backquotes, a comment or a here-document the value is
 * read again as shell text.  Single quotes are refused too: the value would
 * close them. */
enum sh_state { SH_PLAIN, SH_SQUOTE, SH_DQUOTE, SH_BQUOTE, SH_COMMENT, SH_HEREDOC };

static const char *const sh_state_names[] = {NULL,
                                             "inside single quotes",
                                             "inside double quotes",
                                             "inside backquotes (`...`)",
                                             "inside a comment",
                                             "inside a here-document"};

/* 1 when c ends a shell word (blank or operator character). */
static int sh_word_end(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || strchr(";&|()<>", c) != NULL;
}

/* Refuses a placeholder of the shell command at c that the shell would not
 * read as one word (see sh_state_names).  pr_suite_check_template has checked the
 * template's syntax. */
int pr_suite_check_shell_placeholders(const pr_jdoc_jcur *c, pr_err *err)
{
    const char *t = json_string_value(c->v);
    enum sh_state st = SH_PLAIN;
    int escaped = 0, word_start = 1, dollar = 0, rc = 0;
    int heredoc = 0, strip_tabs = 0; /* a here-document's body starts at the next line */
    pr_buf delim = PR_BUF_INIT, line = PR_BUF_INIT;
    const char *why = NULL;
    size_t i = 0;
    while (t[i] && !why) {
        if (t[i] == '{' && t[i + 1] != '{') {
            why = st != SH_PLAIN ? sh_state_names[st]
                  : escaped      ? "right after a backslash"
                  : dollar       ? "right after '$'"
                                 : NULL;
            if (!why) {
                i += strcspn(t + i, "}") + 1;
                word_start = dollar = 0;
            }
            continue;
        }
        char ch = t[i];
        /* "{{" and "}}" are one literal brace. */
        i += (ch == '{' || ch == '}') && t[i + 1] == ch ? 2 : 1;
        int was_escaped = escaped;
        escaped = dollar = 0;
        switch (st) {
        case SH_PLAIN:
            if (was_escaped) {
                word_start = 0;
            } else if (ch == '<' && t[i] == '<' && t[i + 1] == '<') {
                i += 2; /* "<<<": a here-string is one word */
                word_start = 1;
            } else if (ch == '<' && t[i] == '<') {
                /* "<<" or "<<-", then the delimiter word, quotes removed. */
                i++;
                strip_tabs = t[i] == '-';
                i += (size_t)strip_tabs;
                i += strspn(t + i, " \t");
                pr_buf_clear(&delim);
                while (t[i] && !sh_word_end(t[i])) {
                    char d = t[i];
                    if (d == '{' && t[i + 1] != '{') {
                        why = "in a here-document's delimiter";
                        break;
                    }
                    i += (d == '{' || d == '}') && t[i + 1] == d ? 2 : 1;
                    if (!strchr("'\"\\", d))
                        pr_buf_putc(&delim, d);
                }
                heredoc = 1;
                word_start = 1;
            } else if (ch == '\n' && heredoc) {
                st = SH_HEREDOC;
                pr_buf_clear(&line);
            } else {
                escaped = ch == '\\';
                dollar = ch == '$';
                st = ch == '\''                ? SH_SQUOTE
                     : ch == '"'               ? SH_DQUOTE
                     : ch == '`'               ? SH_BQUOTE
                     : ch == '#' && word_start ? SH_COMMENT
                                               : SH_PLAIN;
                word_start = st == SH_PLAIN && sh_word_end(ch);
            }
            break;
        case SH_SQUOTE:
            if (ch == '\'')
                st = SH_PLAIN;
            break;
        case SH_DQUOTE:
        case SH_BQUOTE:
            if (!was_escaped && ch == (st == SH_DQUOTE ? '"' : '`'))
                st = SH_PLAIN;
            else
                escaped = !was_escaped && ch == '\\';
            break;
        case SH_COMMENT:
            if (ch == '\n') {
                st = heredoc ? SH_HEREDOC : SH_PLAIN;
                word_start = 1;
                pr_buf_clear(&line);
            }
            break;
        case SH_HEREDOC:
            if (ch != '\n') {
                if (!(strip_tabs && ch == '\t' && line.len == 0))
                    pr_buf_putc(&line, ch);
                break;
            }
            if (strcmp(pr_buf_cstr(&line), pr_buf_cstr(&delim)) == 0) {
                st = SH_PLAIN;
                heredoc = 0;
                word_start = 1;
            }
            pr_buf_clear(&line);
            break;
        }
    }
    if (why) {
        /* t[i] is the placeholder's '{'. */
        int len = (int)strcspn(t + i + 1, "}");
        const char *name = t + i + 1;
        rc = pr_jdoc_jfail(c, err,
                           "the placeholder {%.*s} is %s: with \"shell\": true each value is "
                           "inserted as one shell word, already quoted, so write the placeholder "
                           "outside quotes and comments (--name={%.*s}, not --name=\"{%.*s}\")",
                           len, name, why, len, name, len, name);
    }
    pr_buf_free(&delim);
    pr_buf_free(&line);
    return rc;
}
