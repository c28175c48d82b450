/* suite_steps: the structured parts of a suite that become commands a
 * reader pastes: the command's per-precision words and the steps.  They are
 * data, not shell code: gen quotes every word (gen/5-views/steps.c), so a report's
 * block runs what the suite says and nothing else, and measure runs the
 * same words without a shell.
 */
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "suite_int.h"

static const char *const step_keys[] = {"setup", "single_node", "multi_node", "vars", NULL};
static const char *const var_langs[] = {"zh", "en", NULL};

/* The variables every report may use in steps without declaring them: gen
 * explains them itself (the perfrepro checkout, node 0's address and port). */
const char *const pr_suite_step_builtin_vars[] = {"PERFREPRO", "MASTER_ADDR", "MASTER_PORT", NULL};

int pr_suite_check_by_precision(const pr_jdoc_jcur *c, pr_err *err)
{
    const char *k;
    json_t *v;
    if (json_object_size(c->v) == 0)
        return pr_jdoc_jfail(c, err,
                             "an empty object: give the words of a precision, e.g. "
                             "{\"fp16\": [\"--fp16\"]}");
    json_object_foreach(c->v, k, v)
    {
        pr_jdoc_jcur it = pr_jdoc_jchild(c, k);
        if (!pr_record_str_in(k, pr_precisions))
            return pr_jdoc_jfail(&it, err,
                                 "\"%s\" is not a precision (fp32, tf32, fp16, amp, bf16 "
                                 "or fp8)",
                                 k);
        if (!json_is_array(v))
            return pr_jdoc_jfail(&it, err,
                                 "expected an array of strings: the words this precision "
                                 "adds");
        for (size_t i = 0; i < json_array_size(v); i++) {
            pr_jdoc_jcur w = pr_jdoc_jitem(&it, i);
            if (!json_is_string(w.v))
                return pr_jdoc_jfail(&w, err, "expected a string");
            if (pr_suite_check_template(&w, err) < 0)
                return -1;
        }
    }
    return 0;
}

int pr_suite_read_command(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err)
{
    pr_jdoc_jcur a;
    if (pr_jdoc_jarr(root, "command", 1, 1, &a, err) < 0)
        return -1;
    for (size_t i = 0; i < json_array_size(a.v); i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&a, i);
        if (!json_is_string(it.v) && !json_is_object(it.v))
            return pr_jdoc_jfail(&it, err,
                                 "expected a string, or an object of the words a "
                                 "precision adds ({\"fp16\": [\"--fp16\"]})");
    }
    if (!json_is_string(json_array_get(a.v, 0))) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&a, 0);
        return pr_jdoc_jfail(&it, err, "the program must be a string");
    }
    s->command = json_incref(a.v);
    return 0;
}

/* Caller: json_decref. */
json_t *pr_suite_case_command(const pr_suite *s, const pr_suite_case *c)
{
    json_t *out = json_array();
    for (size_t i = 0; i < json_array_size(s->command); i++) {
        json_t *e = json_array_get(s->command, i);
        if (json_is_string(e)) {
            json_array_append(out, e);
            continue;
        }
        json_t *words = json_object_get(e, c->precision);
        for (size_t j = 0; j < json_array_size(words); j++)
            json_array_append(out, json_array_get(words, j));
    }
    return out;
}

/* 1 when name can be a shell variable a reader sets: [A-Z][A-Z0-9_]*, at
 * most 64 bytes (capitals: no clash with a shell's own lower-case ones). */
static int var_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 64 || !(name[0] >= 'A' && name[0] <= 'Z'))
        return 0;
    return strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

/* Names a reader is never asked to set (docs/data-model.md, "Suite"): the
 * page checks ': "${NAME:?}"' and then passes "$NAME", so a name the shell
 * sets itself (PATH, PWD, UID) always passes the check, and a name the
 * shell, the loader, the C library or Python reads (IFS, PS4, BASH_ENV,
 * LD_PRELOAD) changes what every command after it does.  A name ending in
 * '*' is a prefix. */
static const struct reserved_var {
    const char *name;
    const char *why;
} reserved_vars[] = {
#define SH "a variable bash sets or reads itself"
    /* The Bourne shell's, then bash's (bash(1), "Shell Variables"), and
     * what a login sets that bash and readline read. */
    {"CDPATH", SH},
    {"HOME", SH},
    {"IFS", SH},
    {"MAIL", SH},
    {"MAILPATH", SH},
    {"OPTARG", SH},
    {"OPTIND", SH},
    {"PATH", SH},
    {"PS1", SH},
    {"PS2", SH},
    {"BASH", SH},
    {"BASH_*", SH},
    {"BASHOPTS", SH},
    {"BASHPID", SH},
    {"CHILD_MAX", SH},
    {"COLUMNS", SH},
    {"COMP_*", SH},
    {"COMPREPLY", SH},
    {"COPROC", SH},
    {"DIRSTACK", SH},
    {"EMACS", SH},
    {"ENV", SH},
    {"EPOCHREALTIME", SH},
    {"EPOCHSECONDS", SH},
    {"EUID", SH},
    {"EXECIGNORE", SH},
    {"FCEDIT", SH},
    {"FIGNORE", SH},
    {"FUNCNAME", SH},
    {"FUNCNEST", SH},
    {"GLOBIGNORE", SH},
    {"GLOBSORT", SH},
    {"GROUPS", SH},
    {"HISTCMD", SH},
    {"HISTCONTROL", SH},
    {"HISTFILE", SH},
    {"HISTFILESIZE", SH},
    {"HISTIGNORE", SH},
    {"HISTSIZE", SH},
    {"HISTTIMEFORMAT", SH},
    {"HOSTFILE", SH},
    {"HOSTNAME", SH},
    {"HOSTTYPE", SH},
    {"IGNOREEOF", SH},
    {"INPUTRC", SH},
    {"INSIDE_EMACS", SH},
    {"LINENO", SH},
    {"LINES", SH},
    {"MACHTYPE", SH},
    {"MAILCHECK", SH},
    {"OLDPWD", SH},
    {"OPTERR", SH},
    {"OSTYPE", SH},
    {"PIPESTATUS", SH},
    {"POSIXLY_CORRECT", SH},
    {"PPID", SH},
    {"PROMPT_COMMAND", SH},
    {"PROMPT_DIRTRIM", SH},
    {"PS0", SH},
    {"PS3", SH},
    {"PS4", SH},
    {"PWD", SH},
    {"RANDOM", SH},
    {"READLINE_*", SH},
    {"REPLY", SH},
    {"SECONDS", SH},
    {"SHELL", SH},
    {"SHELLOPTS", SH},
    {"SHLVL", SH},
    {"SRANDOM", SH},
    {"TEXTDOMAIN", SH},
    {"TEXTDOMAINDIR", SH},
    {"TIMEFORMAT", SH},
    {"TMOUT", SH},
    {"TMPDIR", SH},
    {"UID", SH},
    {"USER", SH},
    {"LOGNAME", SH},
    {"TERM", SH},
#undef SH
    {"LANG", "a locale variable (LANG, LANGUAGE, every LC_*)"},
    {"LANGUAGE", "a locale variable (LANG, LANGUAGE, every LC_*)"},
    {"LC_*", "a locale variable (LANG, LANGUAGE, every LC_*)"},
    {"LD_*", "read by the dynamic loader (as every LD_* variable)"},
#define LIBC "read by the C library (one of the variables glibc ignores in setuid programs)"
    {"GCONV_PATH", LIBC},
    {"GETCONF_DIR", LIBC},
    {"GLIBC_TUNABLES", LIBC},
    {"HOSTALIASES", LIBC},
    {"LOCALDOMAIN", LIBC},
    {"LOCPATH", LIBC},
    {"NIS_PATH", LIBC},
    {"NLSPATH", LIBC},
    {"RESOLV_HOST_CONF", LIBC},
    {"RES_OPTIONS", LIBC},
    {"TZ", LIBC},
    {"TZDIR", LIBC},
#undef LIBC
    {"MALLOC_*", "read by the C library's allocator (as every MALLOC_* variable)"},
    {"PYTHON*", "read by Python (as every PYTHON* variable), which most steps run"},
    {NULL, NULL},
};

/* Why name may not be a reader's variable, or NULL when it may. */
static const char *reserved_why(const char *name)
{
    for (const struct reserved_var *r = reserved_vars; r->name; r++) {
        size_t n = strlen(r->name);
        if (r->name[n - 1] == '*' ? strncmp(name, r->name, n - 1) == 0 : strcmp(name, r->name) == 0)
            return r->why;
    }
    return NULL;
}

/* steps.vars: NAME -> what to set it to, a string or {"zh", "en"}. */
static int read_vars(const pr_jdoc_jcur *steps, pr_err *err)
{
    pr_jdoc_jcur o;
    int rc = pr_jdoc_jobj(steps, "vars", 0, &o, err);
    if (rc <= 0)
        return rc;
    const char *k;
    json_t *v;
    json_object_foreach(o.v, k, v)
    {
        pr_jdoc_jcur it = pr_jdoc_jchild(&o, k);
        if (!var_name_ok(k))
            return pr_jdoc_jfail(&it, err,
                                 "\"%s\" is not a variable name ([A-Z][A-Z0-9_]*, at most "
                                 "64 bytes)",
                                 k);
        if (pr_record_str_in(k, pr_suite_step_builtin_vars))
            return pr_jdoc_jfail(&it, err,
                                 "%s is set by every report's own steps: use {%s} "
                                 "without declaring it",
                                 k, k);
        const char *why = reserved_why(k);
        if (why)
            return pr_jdoc_jfail(&it, err,
                                 "%s is %s: a reader told to set it changes how every "
                                 "command of the block runs, and the page's check "
                                 "': \"${%s:?}\"' passes whenever the shell or the "
                                 "environment has it already; choose another name",
                                 k, why, k);
        if (json_is_string(v))
            continue;
        if (!json_is_object(v))
            return pr_jdoc_jfail(&it, err, "expected a string, or {\"zh\": ..., \"en\": ...}");
        if (pr_jdoc_jobject(&it, var_langs, err) < 0)
            return -1;
        for (const char *const *l = var_langs; *l; l++) {
            const char *tmp;
            if (pr_jdoc_jstr(&it, *l, 1, &tmp, err) < 0)
                return -1;
        }
    }
    return 0;
}

/* Checks each word of step argv at a: its placeholders are declared
 * variables only ({NAME}; "{{" and "}}" literal braces). */
static int check_words(const pr_jdoc_jcur *a, const pr_suite_var *vars, size_t nvars, pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; i < json_array_size(a->v) && rc == 0; i++) {
        pr_jdoc_jcur w = pr_jdoc_jitem(a, i);
        pr_err e;
        if (!json_is_string(w.v)) {
            rc = pr_jdoc_jfail(&w, err, "expected a string (one word)");
            break;
        }
        const char *t = json_string_value(w.v);
        /* "<path to data>": a placeholder for the reader to edit is a
         * command that does not run as written; a variable does. */
        int edit = 0;
        for (const char *lt = strchr(t, '<'); lt && !edit; lt = strchr(lt + 1, '<')) {
            size_t span = strcspn(lt + 1, "<>");
            edit = ((lt[1] >= 'a' && lt[1] <= 'z') || (lt[1] >= 'A' && lt[1] <= 'Z')) &&
                   lt[1 + span] == '>';
        }
        if (edit) {
            rc = pr_jdoc_jfail(&w, err,
                               "\"%s\" looks like a placeholder to edit: declare a "
                               "variable in steps.vars and write {NAME}",
                               t);
            break;
        }
        pr_buf_clear(&b);
        if (pr_suite_template_expand(t, vars, nvars, NULL, 0, &b, &e) < 0)
            rc = pr_jdoc_jfail(&w, err, "%s (steps use declared steps.vars and %s, %s, %s)", e.msg,
                               pr_suite_step_builtin_vars[0], pr_suite_step_builtin_vars[1],
                               pr_suite_step_builtin_vars[2]);
    }
    pr_buf_free(&b);
    return rc;
}

/* One list of steps: each an argv (a non-empty array of words). */
static int read_step_list(const pr_jdoc_jcur *steps, const char *key, const pr_suite_var *vars,
                          size_t nvars, pr_err *err)
{
    pr_jdoc_jcur a;
    int rc = pr_jdoc_jarr(steps, key, 0, 0, &a, err);
    if (rc <= 0)
        return rc;
    for (size_t i = 0; i < json_array_size(a.v); i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&a, i);
        if (!json_is_array(it.v) || json_array_size(it.v) == 0)
            return pr_jdoc_jfail(&it, err,
                                 "expected a command as an array of words, e.g. "
                                 "[\"pip\", \"install\", \"mmcv-full\"]: the report "
                                 "quotes each word");
        if (check_words(&it, vars, nvars, err) < 0)
            return -1;
        const char *w0 = json_string_value(json_array_get(it.v, 0));
        const char *w1 = json_string_value(json_array_get(it.v, 1));
        if (w0[0] == '\0') {
            pr_jdoc_jcur w = pr_jdoc_jitem(&it, 0);
            return pr_jdoc_jfail(&w, err, "an empty program name");
        }
        if (strcmp(w0, "git") == 0 && w1 && strcmp(w1, "clone") == 0)
            return pr_jdoc_jfail(&it, err,
                                 "the report clones \"source\" itself, once, at its "
                                 "commit: a clone in the steps would be a second one");
    }
    return 0;
}

int pr_suite_read_steps(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err)
{
    int rc = -1;
    pr_jdoc_jcur c;
    pr_suite_var *vars = NULL;
    int has = pr_jdoc_jobj(root, "steps", 0, &c, err);
    if (has <= 0)
        return has;
    if (pr_jdoc_jobject(&c, step_keys, err) < 0 || read_vars(&c, err) < 0)
        goto out;
    json_t *decl = json_object_get(c.v, "vars");
    size_t nvars = 0, cap = json_object_size(decl) + 3;
    vars = pr_xmalloc(cap * sizeof *vars);
    for (const char *const *b = pr_suite_step_builtin_vars; *b; b++)
        vars[nvars++] = (pr_suite_var){*b, "x"};
    const char *k;
    json_t *v;
    json_object_foreach(decl, k, v) vars[nvars++] = (pr_suite_var){k, "x"};
    for (const char *const *key = step_keys; *key; key++)
        if (strcmp(*key, "vars") != 0 && read_step_list(&c, *key, vars, nvars, err) < 0)
            goto out;
    s->steps = json_incref(c.v);
    rc = 0;
out:
    free(vars);
    return rc;
}
