/* lib/suite: the variables a suite's steps ask the reader to set. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "jdoc.h"
#include "suite.h"
#include "testutil.h"

/* A suite whose steps declare the variable name and use it. */
static char *suite_with_var(const char *dir, const char *name)
{
    char *json = pr_xasprintf(
        "{\"perfrepro\": 1, \"model\": \"M\", \"framework\": \"F\", \"model_name\": \"m\",\n"
        " \"mission_name\": \"x\", \"direction_id\": 0, \"unit\": \"samples/s\",\n"
        " \"steps\": {\"vars\": {\"%s\": \"the folder\"},\n"
        "           \"setup\": [[\"ls\", \"{%s}\"]]},\n"
        " \"command\": [\"run.sh\"],\n"
        " \"matrix\": {\"nodes\": [1], \"gpus_per_node\": [1], \"batch_size\": [8],\n"
        "            \"precision\": [\"fp32\"]},\n"
        " \"rule\": {\"keyword\": \"ips:\", \"scope\": \"global\"}}\n",
        name, name);
    put(dir, "suite.json", json);
    free(json);
    return pr_fileio_path_join(dir, "suite.json");
}

/* Loads the suite declaring name: 0, or -1 with the message in err. */
static int load_var(const char *name, pr_err *err)
{
    char *d = tmpdir();
    char *p = suite_with_var(d, name);
    pr_suite *s = NULL;
    pr_jdoc_json_init();
    int rc = pr_suite_load(p, &s, err);
    pr_suite_free(s);
    rm_rf(d);
    free(p);
    free(d);
    return rc;
}

/* Hardening: "vars": {"PATH": ...} gave a page whose ': "${PATH:?}"' always
 * passed, and "LD_PRELOAD" told readers to set the loader's variable to a
 * folder.  Names the shell, the loader, the C library or Python use are
 * refused at load, with FILE:LINE:COL: steps.vars.NAME. */
Test(suite_vars, names_the_shell_or_the_loader_use_are_refused)
{
    static const char *const refused[] = {"PATH",
                                          "IFS",
                                          "PS4",
                                          "SHELLOPTS",
                                          "BASH_ENV",
                                          "LD_PRELOAD",
                                          "HOME",
                                          "PS1",
                                          "PS2",
                                          "PS3",
                                          "BASHOPTS",
                                          "ENV",
                                          "CDPATH",
                                          "GLOBIGNORE",
                                          "PWD",
                                          "OLDPWD",
                                          "SHELL",
                                          "UID",
                                          "EUID",
                                          "PPID",
                                          "RANDOM",
                                          "SECONDS",
                                          "LINENO",
                                          "HOSTNAME",
                                          "TERM",
                                          "LANG",
                                          "LC_ALL",
                                          "LC_NUMERIC",
                                          "TMPDIR",
                                          "BASH",
                                          "BASH_XTRACEFD",
                                          "BASH_VERSION",
                                          "PROMPT_COMMAND",
                                          "HISTFILE",
                                          "COMP_WORDS",
                                          "READLINE_LINE",
                                          "LD_LIBRARY_PATH",
                                          "LD_AUDIT",
                                          "LD_BIND_NOW",
                                          "GCONV_PATH",
                                          "GLIBC_TUNABLES",
                                          "TZ",
                                          "MALLOC_ARENA_MAX",
                                          "MALLOC_CHECK_",
                                          "PYTHONPATH",
                                          "PYTHONHOME",
                                          "PYTHONSTARTUP",
                                          NULL};
    for (const char *const *n = refused; *n; n++) {
        pr_err err;
        cr_expect_eq(load_var(*n, &err), -1, "%s was accepted", *n);
        /* FILE:3:COL: steps.vars.NAME: NAME is ... */
        char *field = pr_xasprintf(": steps.vars.%s: %s is ", *n, *n);
        const char *at = strstr(err.msg, "suite.json:3:");
        cr_expect(at && strspn(at + 13, "0123456789") > 0 &&
                      strncmp(at + 13 + strspn(at + 13, "0123456789"), field, strlen(field)) == 0,
                  "%s: %s", *n, err.msg);
        cr_expect(strstr(err.msg, "choose another name") != NULL, "%s: %s", *n, err.msg);
        free(field);
    }
    pr_err err;
    load_var("LD_PRELOAD", &err);
    cr_expect(strstr(err.msg, "dynamic loader") != NULL, "%s", err.msg);
    load_var("PATH", &err);
    cr_expect(strstr(err.msg, "bash sets or reads") != NULL, "%s", err.msg);
}

Test(suite_vars, other_names_load)
{
    /* Neighbours of refused names are the suite's own. */
    static const char *const fine[] = {
        "IMAGENET_DIR", "CORPUS_JSON", "PATHS",  "DATA_PATH", "BASHFUL", "LDFLAGS",  "LCOV_DIR",
        "HOMEDIR",      "PS5",         "PY_DIR", "MALLOC",    "TZONE",   "USERNAME", NULL};
    for (const char *const *n = fine; *n; n++) {
        pr_err err;
        cr_expect_eq(load_var(*n, &err), 0, "%s: %s", *n, err.msg);
    }
}
