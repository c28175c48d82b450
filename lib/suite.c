#include "suite.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jdoc.h"
#include "record.h"
#include "suite_int.h"

const char *const pr_suite_placeholders[] = {
    "model", "model_name", "framework", "batch_size", "precision", "gpus", "nodes", "gpus_per_node",
    "run_mode", "repeat", "max_iter", "seq_len", "case", "gpu_list", "precision_upper", "dtype",
    "global_batch_size", "node_batch_size",
    /* Filled by the runner and launchers. */
    "log_dir", "log_file", "workdir", "master_addr", "master_port", "node_rank", "world_size",
    "local_rank", "hostfile", NULL};

static const char *const suite_keys[] = {"perfrepro",       "model",
                                         "model_title",     "framework",
                                         "framework_title", "framework_version",
                                         "model_name",      "mission_name",
                                         "direction_id",    "unit",
                                         "description",     "source",
                                         "image",           "steps",
                                         "environment",     "command",
                                         "shell",           "env",
                                         "timeout_s",       "log_limit_mib",
                                         "max_iter",        "seq_len",
                                         "matrix",          "rule",
                                         "datasets",        "framework_version_command",
                                         "launcher",        "case_name",
                                         "gap_threshold",   "ranks",
                                         "container",       "kind",
                                         "compare",         "platform",
                                         "summary",         NULL};
static const char *const kinds[] = {"training", "hardware", NULL};
static const char *const summaries[] = {"median", "olympic", NULL};
static const char *const compare_keys[] = {"of", "to", "framework", "label", "target", NULL};
static const char *const matrix_keys[] = {"nodes",   "gpus_per_node", "batch_size", "precision",
                                          "repeats", "include",       "exclude",    NULL};
static const char *const point_keys[] = {"nodes", "gpus_per_node", "batch_size", "precision", NULL};
static const char *const source_keys[] = {"repo", "path", "commit", NULL};
static const char *const environment_keys[] = {"os",      "gpu",   "cpu",  "memory",    "driver",
                                               "cuda",    "cudnn", "nccl", "framework", "image",
                                               "network", "nodes", NULL};
static const char *const dataset_keys[] = {"path", "md5", "name", NULL};
static const char *const launchers[] = {"local", "mpirun", "slurm", NULL};
const char *const pr_suite_ranks[] = {"per_gpu", "per_node", NULL};
const char *const pr_suite_containers[] = {"none", "docker", "apptainer", "pyxis", NULL};

/* Extensions a web server or browser treats as active content: a log or
 * folder named so would be served as a page (stored XSS), not as text. */
static const char *const active_extensions[] = {
    "html", "htm", "xhtml", "xht", "shtml", "svg",   "svgz", "xml", "xsl",  "xslt", "js",
    "mjs",  "css", "swf",   "pdf", "mht",   "mhtml", "php",  "cgi", "wasm", NULL};

int pr_suite_name_has_active_extension(const char *s)
{
    const char *dot = strrchr(s, '.');
    if (!dot)
        return 0;
    for (const char *const *e = active_extensions; *e; e++)
        if (strcasecmp(dot + 1, *e) == 0)
            return 1;
    return 0;
}

int pr_suite_name_is_safe(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 128 || s[0] == '.' || s[0] == '-' || pr_suite_name_has_active_extension(s))
        return 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-' || c == '+'))
            return 0;
    }
    return 1;
}

const char *pr_suite_name_unsafe_why(const char *s, char *buf, size_t len)
{
    size_t n = strlen(s);
    if (pr_suite_name_is_safe(s))
        return NULL;
    if (n == 0)
        return "it is empty";
    if (n > 128)
        return "it is longer than 128 bytes";
    if (s[0] == '.')
        return "it starts with '.' (a hidden file, or \".\" and \"..\")";
    if (s[0] == '-')
        return "it starts with '-' (a command would read it as an option)";
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-' || c == '+')) {
            if (c < 0x20 || c >= 0x7f)
                snprintf(buf, len, "byte 0x%02x is not one of [A-Za-z0-9._+-]", c);
            else
                snprintf(buf, len, "'%c' is not one of [A-Za-z0-9._+-]", c);
            return buf;
        }
    }
    if (pr_suite_name_has_active_extension(s)) {
        snprintf(buf, len,
                 "it ends in \"%s\", an extension a browser runs or renders as a "
                 "page (active content)",
                 strrchr(s, '.'));
        return buf;
    }
    return "it is not a safe name";
}

static int dup_str(const pr_jdoc_jcur *c, const char *key, int required, char **out, pr_err *err)
{
    const char *s = NULL;
    int rc = pr_jdoc_jstr(c, key, required, &s, err);
    if (rc == 1)
        *out = pr_xstrdup(s);
    return rc;
}

/* An array of strings (each checked), or absent. */
static int str_array(const pr_jdoc_jcur *c, const char *key, int required, size_t min, json_t **out,
                     pr_err *err)
{
    pr_jdoc_jcur a;
    int rc = pr_jdoc_jarr(c, key, required, min, &a, err);
    if (rc <= 0)
        return rc;
    for (size_t i = 0; i < json_array_size(a.v); i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&a, i);
        if (!json_is_string(it.v))
            return pr_jdoc_jfail(&it, err, "expected a string");
    }
    *out = json_incref(a.v);
    return 1;
}

/* An object whose values are strings; keys limited to allowed when given. */
static int str_object(const pr_jdoc_jcur *c, const char *key, const char *const *allowed,
                      json_t **out, pr_err *err)
{
    pr_jdoc_jcur o;
    int rc = pr_jdoc_jobj(c, key, 0, &o, err);
    if (rc <= 0)
        return rc;
    if (allowed && pr_jdoc_jobject(&o, allowed, err) < 0)
        return -1;
    const char *k;
    json_t *v;
    json_object_foreach(o.v, k, v)
    {
        if (!json_is_string(v)) {
            pr_jdoc_jcur it = pr_jdoc_jchild(&o, k);
            return pr_jdoc_jfail(&it, err, "expected a string");
        }
    }
    *out = json_incref(o.v);
    return 1;
}

/* Reads an array of positive ints into a malloc'd array. */
static int int_list(const pr_jdoc_jcur *m, const char *key, int max, int **out, size_t *n,
                    pr_err *err)
{
    pr_jdoc_jcur a;
    if (pr_jdoc_jarr(m, key, 1, 1, &a, err) < 0)
        return -1;
    *n = json_array_size(a.v);
    *out = pr_xmalloc(*n * sizeof **out);
    for (size_t i = 0; i < *n; i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&a, i);
        if (!json_is_integer(it.v) || json_integer_value(it.v) < 1 ||
            json_integer_value(it.v) > max)
            return pr_jdoc_jfail(&it, err, "expected an integer from 1 to %d", max);
        for (size_t j = 0; j < i; j++)
            if ((*out)[j] == (int)json_integer_value(it.v))
                return pr_jdoc_jfail(&it, err, "duplicate value %d", (*out)[j]);
        (*out)[i] = (int)json_integer_value(it.v);
    }
    return 0;
}

/* A partial matrix point (include/exclude entry). -1 / NULL: not given. */
typedef struct point {
    int nodes, gpus_per_node, batch_size;
    const char *precision;
} point;

static int read_point(const pr_jdoc_jcur *c, int need_all, point *p, pr_err *err)
{
    long long v;
    p->nodes = p->gpus_per_node = p->batch_size = -1;
    p->precision = NULL;
    if (pr_jdoc_jobject(c, point_keys, err) < 0)
        return -1;
    if (json_object_size(c->v) == 0)
        return pr_jdoc_jfail(c, err, "an empty entry would match every case");
    int rc;
    if ((rc = pr_jdoc_jint(c, "nodes", need_all, 1, 65536, &v, err)) < 0)
        return -1;
    if (rc)
        p->nodes = (int)v;
    if ((rc = pr_jdoc_jint(c, "gpus_per_node", need_all, 1, 1024, &v, err)) < 0)
        return -1;
    if (rc)
        p->gpus_per_node = (int)v;
    if ((rc = pr_jdoc_jint(c, "batch_size", need_all, 1, 1 << 24, &v, err)) < 0)
        return -1;
    if (rc)
        p->batch_size = (int)v;
    if (pr_jdoc_jenum(c, "precision", need_all, pr_precisions, &p->precision, err) < 0)
        return -1;
    return 0;
}

static int point_matches(const point *p, int nodes, int gpn, int bs, const char *prec)
{
    return (p->nodes < 0 || p->nodes == nodes) &&
           (p->gpus_per_node < 0 || p->gpus_per_node == gpn) &&
           (p->batch_size < 0 || p->batch_size == bs) &&
           (!p->precision || strcmp(p->precision, prec) == 0);
}

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

static int check_templates(const pr_jdoc_jcur *arr_or_obj, pr_err *err)
{
    if (json_is_array(arr_or_obj->v)) {
        for (size_t i = 0; i < json_array_size(arr_or_obj->v); i++) {
            pr_jdoc_jcur it = pr_jdoc_jitem(arr_or_obj, i);
            if (json_is_object(it.v) ? pr_suite_check_by_precision(&it, err) < 0
                                     : pr_suite_check_template(&it, err) < 0)
                return -1;
        }
    } else if (json_is_object(arr_or_obj->v)) {
        const char *k;
        json_t *val;
        json_object_foreach(arr_or_obj->v, k, val)
        {
            pr_jdoc_jcur it = pr_jdoc_jchild(arr_or_obj, k);
            if (pr_suite_check_template(&it, err) < 0)
                return -1;
        }
    }
    return 0;
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
static int check_shell_placeholders(const pr_jdoc_jcur *c, pr_err *err)
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

static int add_case(pr_suite *s, size_t *cap, int nodes, int gpn, int bs, const char *prec,
                    int repeat, const pr_jdoc_jcur *where, pr_err *err)
{
    for (size_t i = 0; i < s->ncases; i++) {
        pr_suite_case *o = &s->cases[i];
        if (o->nodes == nodes && o->gpus_per_node == gpn && o->batch_size == bs &&
            strcmp(o->precision, prec) == 0 && o->repeat == repeat)
            return pr_jdoc_jfail(where, err,
                                 "duplicate case (nodes %d, gpus_per_node %d, batch_size "
                                 "%d, precision %s)",
                                 nodes, gpn, bs, prec);
    }
    if (s->ncases >= PR_SUITE_MAX_CASES)
        return pr_jdoc_jfail(where, err, "more than %d cases (matrix and include)",
                             PR_SUITE_MAX_CASES);
    if (s->ncases == *cap)
        s->cases = pr_xrealloc(s->cases, (*cap = *cap ? *cap * 2 : 16) * sizeof *s->cases);
    pr_suite_case *c = &s->cases[s->ncases++];
    memset(c, 0, sizeof *c);
    c->nodes = nodes;
    c->gpus_per_node = gpn;
    c->gpus = nodes * gpn;
    c->batch_size = bs;
    for (const char *const *p = pr_precisions; *p; p++)
        if (strcmp(*p, prec) == 0)
            c->precision = *p;
    c->repeat = repeat;
    /* Name it. */
    pr_buf st = PR_BUF_INIT, name = PR_BUF_INIT;
    size_t nv;
    pr_suite_var *vars = pr_suite_case_vars(s, c, &st, &nv);
    int rc = pr_suite_template_expand(s->case_name, vars, nv, NULL, 0, &name, err);
    if (rc == 0 && repeat > 1)
        pr_buf_printf(&name, "_r%d", repeat);
    free(vars);
    pr_buf_free(&st);
    if (rc < 0) {
        pr_buf_free(&name);
        return pr_jdoc_jfail(where, err, "case_name: %s", err->msg);
    }
    char why[160];
    const char *bad = pr_suite_name_unsafe_why(pr_buf_cstr(&name), why, sizeof why);
    if (bad) {
        /* The name is a file name (the log, the record) and a page's anchor. */
        pr_jdoc_jfail(where, err,
                      "case name \"%s\" (from case_name \"%s\") is not a safe file "
                      "name: %s",
                      pr_buf_cstr(&name), s->case_name, bad);
        pr_buf_free(&name);
        return -1;
    }
    c->name = pr_buf_detach(&name);
    for (size_t i = 0; i + 1 < s->ncases; i++)
        if (strcmp(s->cases[i].name, c->name) == 0)
            return pr_jdoc_jfail(where, err, "two cases are both named \"%s\" (case_name template)",
                                 c->name);
    return 0;
}

static int read_matrix(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err)
{
    int rc = -1;
    int *nodes = NULL, *gpn = NULL, *bs = NULL;
    size_t nn, ng, nb, cap = 0;
    point *excl = NULL;
    size_t nexcl = 0;
    pr_jdoc_jcur m, prec, inc, exc;
    long long repeats = 1;
    if (pr_jdoc_jobj(root, "matrix", 1, &m, err) < 0 || pr_jdoc_jobject(&m, matrix_keys, err) < 0 ||
        int_list(&m, "nodes", 65536, &nodes, &nn, err) < 0 ||
        int_list(&m, "gpus_per_node", 1024, &gpn, &ng, err) < 0 ||
        int_list(&m, "batch_size", 1 << 24, &bs, &nb, err) < 0 ||
        pr_jdoc_jarr(&m, "precision", 1, 1, &prec, err) < 0 ||
        pr_jdoc_jint(&m, "repeats", 0, 1, 1000, &repeats, err) < 0)
        goto out;
    for (size_t i = 0; i < json_array_size(prec.v); i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&prec, i);
        if (!json_is_string(it.v) || !pr_record_str_in(json_string_value(it.v), pr_precisions)) {
            pr_jdoc_jfail(&it, err,
                          "unknown precision (expected fp32, tf32, fp16, amp, bf16 or fp8)");
            goto out;
        }
    }
    /* Hardening (fuzz_data): a 300-byte suite with forty values per list and
     * 1000 repeats expanded to 384 million cases, each checked against all
     * the others: perfrepro-gen validate never finished.  The matrix is
     * bounded before it is expanded (exclusions are not counted: the loops
     * below visit every point). */
    unsigned long long points = (unsigned long long)nn * ng * nb * json_array_size(prec.v);
    if (points > PR_SUITE_MAX_CASES || points * (unsigned long long)repeats > PR_SUITE_MAX_CASES) {
        pr_jdoc_jfail(&m, err, "the matrix has %llu points x %lld repeats: more than %d cases",
                      points, repeats, PR_SUITE_MAX_CASES);
        goto out;
    }
    int has_exc = pr_jdoc_jarr(&m, "exclude", 0, 0, &exc, err);
    if (has_exc < 0)
        goto out;
    if (has_exc) {
        nexcl = json_array_size(exc.v);
        excl = pr_xcalloc(nexcl, sizeof *excl);
        for (size_t i = 0; i < nexcl; i++) {
            pr_jdoc_jcur it = pr_jdoc_jitem(&exc, i);
            if (read_point(&it, 0, &excl[i], err) < 0)
                goto out;
        }
    }
    for (size_t a = 0; a < nn; a++)
        for (size_t b = 0; b < ng; b++)
            for (size_t p = 0; p < json_array_size(prec.v); p++)
                for (size_t c = 0; c < nb; c++) {
                    const char *pv = json_string_value(json_array_get(prec.v, p));
                    int skip = 0;
                    for (size_t e = 0; e < nexcl && !skip; e++)
                        skip = point_matches(&excl[e], nodes[a], gpn[b], bs[c], pv);
                    for (int r = 1; !skip && r <= repeats; r++)
                        if (add_case(s, &cap, nodes[a], gpn[b], bs[c], pv, r, &m, err) < 0)
                            goto out;
                }
    int has_inc = pr_jdoc_jarr(&m, "include", 0, 0, &inc, err);
    if (has_inc < 0)
        goto out;
    for (size_t i = 0; has_inc && i < json_array_size(inc.v); i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&inc, i);
        point p;
        if (read_point(&it, 1, &p, err) < 0)
            goto out;
        for (int r = 1; r <= repeats; r++)
            if (add_case(s, &cap, p.nodes, p.gpus_per_node, p.batch_size, p.precision, r, &it,
                         err) < 0)
                goto out;
    }
    if (s->ncases == 0) {
        pr_jdoc_jfail(&m, err, "the matrix expands to no case (everything excluded)");
        goto out;
    }
    rc = 0;
out:
    free(nodes);
    free(gpn);
    free(bs);
    free(excl);
    return rc;
}

/* "kind" and "compare": how gen presents a hardware suite's tables. */
static int read_compare(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err)
{
    const char *kind = "training";
    pr_jdoc_jcur arr;
    if (pr_jdoc_jenum(root, "kind", 0, kinds, &kind, err) < 0)
        return -1;
    s->hardware = strcmp(kind, "hardware") == 0;
    /* "summary": "olympic" asks the reports for the olympic mean too
     * (docs/statistics.md); the median stays the figure. */
    const char *summary = "median";
    if (pr_jdoc_jenum(root, "summary", 0, summaries, &summary, err) < 0)
        return -1;
    s->olympic = strcmp(summary, "olympic") == 0;
    int rc = pr_jdoc_jarr(root, "compare", 0, 1, &arr, err);
    if (rc <= 0)
        return rc;
    size_t n = json_array_size(arr.v);
    s->compares = pr_xcalloc(n, sizeof *s->compares);
    for (size_t i = 0; i < n; i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&arr, i);
        pr_suite_compare *k = &s->compares[s->ncompares++];
        const char *of = NULL, *to = NULL, *fw = NULL, *label = NULL;
        k->target = NAN;
        if (pr_jdoc_jobject(&it, compare_keys, err) < 0 ||
            pr_jdoc_jstr(&it, "of", 1, &of, err) < 0 || pr_jdoc_jstr(&it, "to", 1, &to, err) < 0 ||
            pr_jdoc_jstr(&it, "framework", 0, &fw, err) < 0 ||
            pr_jdoc_jstr(&it, "label", 0, &label, err) < 0 ||
            pr_jdoc_jnum(&it, "target", 0, 0, &k->target, err) < 0)
            return -1;
        if ((strcmp(of, "*") == 0) != (strcmp(to, "*") == 0)) {
            pr_jdoc_jcur c = pr_jdoc_jchild(&it, "to");
            return pr_jdoc_jfail(&c, err,
                                 "\"*\" (every column by name) must be in both \"of\" and "
                                 "\"to\"");
        }
        if (!fw && strcmp(of, to) == 0) {
            pr_jdoc_jcur c = pr_jdoc_jchild(&it, "to");
            return pr_jdoc_jfail(&c, err,
                                 "a column compared with itself: name another column or a "
                                 "\"framework\"");
        }
        char why[160];
        const char *bad = fw ? pr_suite_name_unsafe_why(fw, why, sizeof why) : NULL;
        if (bad) {
            pr_jdoc_jcur c = pr_jdoc_jchild(&it, "framework");
            return pr_jdoc_jfail(&c, err, "\"%s\" is not a safe folder name: %s", fw, bad);
        }
        k->of = pr_xstrdup(of);
        k->to = pr_xstrdup(to);
        k->framework = fw ? pr_xstrdup(fw) : NULL;
        k->label = label ? pr_xstrdup(label) : NULL;
        pr_jdoc_jpos(&it, &k->line, &k->col);
    }
    return 0;
}

/* source.repo, .path and .commit become `git clone`, `cd` and `git
 * checkout` lines of the report (shell-quoted there): a commit is a commit
 * id or null (stated: the seed names none; an absent one would leave the
 * reader unsure whether the clone matches the figures), and neither repo nor path may start with '-' (an option to git or cd,
 * whatever the quoting) or hold control characters. */
static int check_source(const pr_jdoc_jcur *c, const pr_suite *s, pr_err *err)
{
    const char *keys[] = {"repo", "path"};
    const char *vals[] = {s->source_repo, s->source_path};
    for (int i = 0; i < 2; i++) {
        if (!vals[i])
            continue;
        pr_jdoc_jcur f = pr_jdoc_jchild(c, keys[i]);
        if (vals[i][0] == '-' || vals[i][0] == '\0')
            return pr_jdoc_jfail(&f, err, "must not be empty or start with '-'");
        for (const char *p = vals[i]; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                return pr_jdoc_jfail(&f, err, "control character (\\x%02x) in the value",
                                     (unsigned)(unsigned char)*p);
    }
    if (!json_object_get(c->v, "commit"))
        return pr_jdoc_jfail(c, err,
                             "no \"commit\": give the commit the figures came from, or "
                             "null when the seed names none (the report then says that it clones "
                             "the default branch)");
    if (s->source_commit && !pr_record_is_commit_id(s->source_commit)) {
        pr_jdoc_jcur f = pr_jdoc_jchild(c, "commit");
        return pr_jdoc_jfail(&f, err, "\"%.80s\" is not a commit id (7 to 40 hex digits)",
                             s->source_commit);
    }
    return 0;
}

static int read_suite(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err)
{
    long long v;
    pr_jdoc_jcur c;
    if (pr_jdoc_jobject(root, suite_keys, err) < 0 || pr_record_text_check(root, err) < 0 ||
        pr_jdoc_jint(root, "perfrepro", 1, 1, 1, &v, err) < 0 ||
        dup_str(root, "model", 1, &s->model, err) < 0)
        return -1;
    char why[160];
    const char *bad = pr_suite_name_unsafe_why(s->model, why, sizeof why);
    c = pr_jdoc_jchild(root, "model");
    if (bad)
        return pr_jdoc_jfail(&c, err, "\"%s\" is not a safe folder name: %s", s->model, bad);
    if (dup_str(root, "framework", 1, &s->framework, err) < 0)
        return -1;
    c = pr_jdoc_jchild(root, "framework");
    if ((bad = pr_suite_name_unsafe_why(s->framework, why, sizeof why)))
        return pr_jdoc_jfail(&c, err, "\"%s\" is not a safe folder name: %s", s->framework, bad);
    if (dup_str(root, "model_title", 0, &s->model_title, err) < 0 ||
        dup_str(root, "framework_title", 0, &s->framework_title, err) < 0 ||
        dup_str(root, "framework_version", 0, &s->framework_version, err) < 0 ||
        dup_str(root, "model_name", 1, &s->model_name, err) < 0 ||
        dup_str(root, "mission_name", 1, &s->mission_name, err) < 0 ||
        pr_jdoc_jint(root, "direction_id", 1, 0, 2, &v, err) < 0)
        return -1;
    s->direction_id = (int)v;
    if (dup_str(root, "unit", 1, &s->unit, err) < 0 ||
        pr_bitext_jbitext(root, "description", 0, &s->description, err) < 0 ||
        dup_str(root, "image", 0, &s->image, err) < 0 ||
        dup_str(root, "platform", 0, &s->platform, err) < 0)
        return -1;
    if (s->platform && !pr_suite_name_is_safe(s->platform)) {
        pr_jdoc_jcur pc = pr_jdoc_jchild(root, "platform");
        return pr_jdoc_jfail(&pc, err, "\"%s\" is not a platform id ([A-Za-z0-9._+-])",
                             s->platform);
    }
    if (!s->model_title)
        s->model_title = pr_xstrdup(s->model);
    if (!s->framework_title)
        s->framework_title = pr_xstrdup(s->framework);
    int rc = pr_jdoc_jobj(root, "source", 0, &c, err);
    if (rc < 0)
        return -1;
    if (rc && (pr_jdoc_jobject(&c, source_keys, err) < 0 ||
               dup_str(&c, "repo", 1, &s->source_repo, err) < 0 ||
               dup_str(&c, "path", 0, &s->source_path, err) < 0 ||
               /* null: the seed names no commit (the report says so). */
               (!json_is_null(json_object_get(c.v, "commit")) &&
                dup_str(&c, "commit", 0, &s->source_commit, err) < 0) ||
               check_source(&c, s, err) < 0))
        return -1;
    if (pr_suite_read_steps(s, root, err) < 0 ||
        str_object(root, "environment", environment_keys, &s->environment, err) < 0 ||
        pr_suite_read_command(s, root, err) < 0)
        return -1;
    c = pr_jdoc_jchild(root, "command");
    if (check_templates(&c, err) < 0 || pr_jdoc_jbool(root, "shell", 0, &s->shell, err) < 0)
        return -1;
    if (s->shell &&
        (json_array_size(s->command) != 1 || !json_is_string(json_array_get(s->command, 0))))
        return pr_jdoc_jfail(&c, err, "with \"shell\": true the command is one string");
    if (s->shell) {
        pr_jdoc_jcur cmd = pr_jdoc_jitem(&c, 0);
        if (check_shell_placeholders(&cmd, err) < 0)
            return -1;
    }
    if (str_object(root, "env", NULL, &s->env, err) < 0)
        return -1;
    c = pr_jdoc_jchild(root, "env");
    if (c.v && check_templates(&c, err) < 0)
        return -1;
    s->timeout_s = 3600;
    double mib = -1;
    if (pr_jdoc_jnum(root, "log_limit_mib", 0, PR_SUITE_LOG_LIMIT_MIN_MIB, &mib, err) < 0)
        return -1;
    if (mib > PR_SUITE_LOG_LIMIT_MAX_MIB) {
        c = pr_jdoc_jchild(root, "log_limit_mib");
        return pr_jdoc_jfail(&c, err, "%g MiB: at most %g (1 TiB)", mib,
                             PR_SUITE_LOG_LIMIT_MAX_MIB);
    }
    s->log_limit = mib > 0 ? (long long)(mib * 1048576.0) : PR_SUITE_LOG_LIMIT;
    if (pr_jdoc_jnum(root, "timeout_s", 0, 1, &s->timeout_s, err) < 0 ||
        /* Hardening: up to INT_MAX, the int it is stored in (1 << 40 was
         * accepted and wrapped to 0 in {max_iter}). */
        pr_jdoc_jint(root, "max_iter", 0, 1, INT_MAX, &v, err) < 0)
        return -1;
    s->max_iter = json_is_integer(json_object_get(root->v, "max_iter")) ? (int)v : 0;
    if (pr_jdoc_jint(root, "seq_len", 0, 1, 1 << 24, &v, err) < 0)
        return -1;
    s->seq_len = json_is_integer(json_object_get(root->v, "seq_len")) ? (int)v : 0;
    const char *l = "local";
    if (pr_jdoc_jenum(root, "launcher", 0, launchers, &l, err) < 0)
        return -1;
    s->launcher = pr_xstrdup(l);
    const char *rk = "per_gpu", *ct = "none";
    if (pr_jdoc_jenum(root, "ranks", 0, pr_suite_ranks, &rk, err) < 0 ||
        pr_jdoc_jenum(root, "container", 0, pr_suite_containers, &ct, err) < 0)
        return -1;
    s->ranks = pr_xstrdup(rk);
    s->container = pr_xstrdup(ct);
    if (strcmp(ct, "none") != 0 && !s->image) {
        c = pr_jdoc_jchild(root, "container");
        return pr_jdoc_jfail(&c, err, "a container needs the suite's \"image\"");
    }
    s->gap_threshold = 0.05;
    if (pr_jdoc_jnum(root, "gap_threshold", 0, 0, &s->gap_threshold, err) < 0)
        return -1;
    if (dup_str(root, "case_name", 0, &s->case_name, err) < 0)
        return -1;
    if (!s->case_name)
        s->case_name = pr_xstrdup("{model_name}_{run_mode}_bs{batch_size}_{precision}_{gpus}");
    if (pr_jdoc_jobj(root, "rule", 1, &c, err) < 0)
        return -1;
    s->rule = json_incref(c.v);
    rc = pr_jdoc_jarr(root, "datasets", 0, 0, &c, err);
    if (rc < 0)
        return -1;
    for (size_t i = 0; rc && i < json_array_size(c.v); i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&c, i);
        const char *tmp;
        if (pr_jdoc_jobject(&it, dataset_keys, err) < 0 ||
            pr_jdoc_jstr(&it, "path", 1, &tmp, err) < 0 ||
            pr_jdoc_jstr(&it, "md5", 1, &tmp, err) < 0)
            return -1;
        size_t n = strlen(tmp);
        if (n != 32 || strspn(tmp, "0123456789abcdef") != 32) {
            pr_jdoc_jcur md = pr_jdoc_jchild(&it, "md5");
            return pr_jdoc_jfail(&md, err, "expected 32 lowercase hex digits");
        }
    }
    if (rc)
        s->datasets = json_incref(c.v);
    if (str_array(root, "framework_version_command", 0, 1, &s->version_command, err) < 0 ||
        read_compare(s, root, err) < 0)
        return -1;
    return read_matrix(s, root, err);
}

int pr_suite_load(const char *path, pr_suite **out, pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_suite *s = pr_xcalloc(1, sizeof *s);
    s->path = pr_xstrdup(path);
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    int rc = read_suite(s, &root, err);
    pr_jdoc_free(doc);
    if (rc < 0) {
        pr_suite_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

void pr_suite_free(pr_suite *s)
{
    if (!s)
        return;
    char **strs[] = {&s->path,        &s->model,           &s->model_title,
                     &s->framework,   &s->framework_title, &s->framework_version,
                     &s->model_name,  &s->mission_name,    &s->unit,
                     &s->source_repo, &s->source_path,     &s->source_commit,
                     &s->image,       &s->platform,        &s->launcher,
                     &s->case_name,   &s->ranks,           &s->container};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
        free(*strs[i]);
    pr_bitext_free(&s->description);
    json_t *js[] = {s->command, s->env,      s->steps,          s->environment,
                    s->rule,    s->datasets, s->version_command};
    for (size_t i = 0; i < sizeof js / sizeof *js; i++)
        json_decref(js[i]);
    for (size_t i = 0; i < s->ncases; i++)
        free(s->cases[i].name);
    free(s->cases);
    for (size_t i = 0; i < s->ncompares; i++) {
        free(s->compares[i].of);
        free(s->compares[i].to);
        free(s->compares[i].framework);
        free(s->compares[i].label);
    }
    free(s->compares);
    free(s);
}
