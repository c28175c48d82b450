/* suite: what to run for one model x one framework, and the cases its
 * matrix expands to.  Shared by measure (which runs the cases) and gen
 * (which shows planned-but-missing cases as TODO and the steps to run them).
 * docs/data-model.md documents the file.
 */
#ifndef PR_SUITE_H
#define PR_SUITE_H

#include <jansson.h>
#include <stddef.h>

#include "bitext.h"
#include "buf.h"
#include "err.h"

typedef struct pr_suite_case {
    int nodes;
    int gpus_per_node;
    int gpus;              /* nodes * gpus_per_node */
    int batch_size;        /* per GPU */
    const char *precision; /* points into pr_precisions */
    int repeat;            /* 1-based */
    char *name;            /* from the suite's case_name template */
} pr_suite_case;

/* A value a template placeholder may take: {name} -> value. */
typedef struct pr_suite_var {
    const char *name;
    const char *value;
} pr_suite_var;

/* A ratio the report states between two columns of the tables that
 * perfrepro-gpu-style records carry (metrics.table / metrics.series): "of"
 * in this suite's framework divided by "to" in framework (NULL: the same
 * one).  "*" in both matches every column by name. */
typedef struct pr_suite_compare {
    char *of, *to, *framework; /* framework may be NULL */
    char *label;               /* may be NULL: the report builds one */
    double target;             /* the ratio wanted, NAN when none */
    int line, col;             /* where the entry is, for gen's errors */
} pr_suite_compare;

typedef struct pr_suite {
    char *path; /* the file it came from */
    char *model, *model_title;
    char *framework, *framework_title, *framework_version;
    char *model_name, *mission_name, *unit;
    pr_bitext description; /* shown at the top of the report; NULLs when absent */
    int direction_id;
    char *source_repo, *source_path; /* may be NULL */
    char *source_commit;             /* NULL without a source, or with "commit": null (the seed
                            * names none: the report says it clones the default branch) */
    char *image;                     /* container image, may be NULL */
    char *platform;  /* the data/platforms/ id its cases are planned on, may be NULL */
    char *launcher;  /* "local", "mpirun" or "slurm" */
    char *ranks;     /* multi-node launchers: "per_gpu" (a process per GPU, the
                            * default) or "per_node" (one per node: torchrun & co.) */
    char *container; /* "none" (default), "docker", "apptainer" or "pyxis" */
    char *case_name; /* template */
    int shell;       /* 1: command is one string run by /bin/sh -c */
    double timeout_s;
    long long log_limit;        /* bytes a case's log may reach ("log_limit_mib" x 2^20;
                            * default PR_SUITE_LOG_LIMIT) */
    int max_iter, seq_len;      /* 0 when unset */
    double gap_threshold;       /* fraction, default 0.05 */
    json_t *command;            /* array of template strings and per-precision objects
                            * ({"fp16": ["--fp16"]}): pr_suite_case_command */
    json_t *env;                /* object of template strings, or NULL */
    json_t *steps;              /* object, or NULL: setup/single_node/multi_node arrays of argv
                            * arrays whose words may hold {NAME} of vars (NAME -> what to
                            * set it to: a string or {"zh", "en"}) or of
                            * pr_suite_step_builtin_vars */
    json_t *environment;        /* object of strings (what the run used), or NULL */
    json_t *rule;               /* the parse rule, validated by measure */
    json_t *datasets;           /* array of {path, md5}, or NULL */
    json_t *version_command;    /* array of strings, or NULL */
    int hardware;               /* "kind": "hardware": limits of the machine, not training */
    int olympic;                /* "summary": "olympic": reports show the olympic mean too */
    pr_suite_compare *compares; /* "compare" entries, in file order */
    size_t ncompares;
    pr_suite_case *cases;
    size_t ncases;
} pr_suite;

/* The default log limit (1 GiB) and the range of "log_limit_mib" (and of
 * measure run's --log-limit): 0.01 MiB to 1 TiB. */
#define PR_SUITE_LOG_LIMIT (1LL << 30)
#define PR_SUITE_LOG_LIMIT_MIN_MIB 0.01
#define PR_SUITE_LOG_LIMIT_MAX_MIB 1048576.0

/* The most cases one suite may expand to (matrix points x repeats, and
 * include entries): a bigger matrix is an error, not hours of expansion. */
#define PR_SUITE_MAX_CASES 10000

/* Loads and validates path strictly; *out is the caller's (pr_suite_free). */
int pr_suite_load(const char *path, pr_suite **out, pr_err *err);
void pr_suite_free(pr_suite *s);

/* The variables of case c ({batch_size}, {precision}, {gpus}, {precision_upper},
 * {dtype}, {global_batch_size}, {node_batch_size}, ...) as a
 * malloc'd array of n entries whose strings live in *storage; the caller
 * frees the array and storage with free() and pr_buf_free(). */
pr_suite_var *pr_suite_case_vars(const pr_suite *s, const pr_suite_case *c, pr_buf *storage,
                                 size_t *n);
/* The command template of case c: s->command with each per-precision
 * object replaced by the words it gives c's precision (none when it does
 * not name it).  A new reference: the caller json_decrefs it. */
json_t *pr_suite_case_command(const pr_suite *s, const pr_suite_case *c);
/* The variables steps may use undeclared (NULL-terminated): PERFREPRO (the
 * perfrepro checkout), MASTER_ADDR and MASTER_PORT (node 0's). */
extern const char *const pr_suite_step_builtin_vars[];
/* Expands {name} placeholders in tmpl from vars (and then extra); "{{" and
 * "}}" stand for literal braces.  An unknown name is an error. */
int pr_suite_template_expand(const char *tmpl, const pr_suite_var *vars, size_t nvars,
                             const pr_suite_var *extra, size_t nextra, pr_buf *out, pr_err *err);
/* The values "ranks" and "container" may take (NULL-terminated). */
extern const char *const pr_suite_ranks[];
extern const char *const pr_suite_containers[];
/* The placeholder names a command may use (NULL-terminated). */
extern const char *const pr_suite_placeholders[];
/* 1 when s is a safe file/folder name: [A-Za-z0-9._+-], not starting with
 * '.' or '-', at most 128 bytes, not ending in an extension served as active
 * content (pr_suite_name_has_active_extension). */
int pr_suite_name_is_safe(const char *s);
/* NULL when pr_suite_name_is_safe(s), else which rule s breaks, for messages
 * ("it ends in \".html\", ..."): a constant or buf (len bytes). */
const char *pr_suite_name_unsafe_why(const char *s, char *buf, size_t len);
/* 1 when s ends in ".html", ".svg", ".js" or another extension a browser
 * runs or renders as a page (case-insensitive). */
int pr_suite_name_has_active_extension(const char *s);

#endif
