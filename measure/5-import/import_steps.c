/* import_steps: runset.json and suite.json written by the import (import_steps.h). */
#include "import_steps.h"
#include <ctype.h>
#include <stdint.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "buf.h"
#include "fileio.h"
#include "suite.h"

/* The search for a template visits at most this many choices of
 * placeholders per string: a word of a command has a handful of numbers. */
#define STEPS_MAX_TRIES 20000
#define STEPS_MAX_OCC 24

/* A place in the first string where a variable's value is printed. */
typedef struct occ {
    size_t pos, len;
    size_t var;
} occ;

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}
static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* 1 when v at s+pos stands alone: a number not inside a longer number, a
 * word not inside a longer word ("1" in "gpu1" is one, in "16" it is not). */
static int stands_alone(const char *s, size_t pos, const char *v, size_t len)
{
    char before = pos ? s[pos - 1] : '\0', after = s[pos + len];
    if (is_digit(v[0]) && is_digit(before))
        return 0;
    if (is_alpha(v[0]) && is_alpha(before))
        return 0;
    if (is_digit(v[len - 1]) && is_digit(after))
        return 0;
    return !(is_alpha(v[len - 1]) && is_alpha(after));
}

static void put_literal(pr_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '{' || s[i] == '}')
            pr_buf_putc(b, s[i]); /* {{ and }} are literal braces */
        pr_buf_putc(b, s[i]);
    }
}

/* 1 when the choice (chosen[0..k), occurrences in s0, in order) expands to
 * each string with its own values. */
static int choice_fits(const char *const *strings, size_t n, const char *const *const *values,
                       const occ *o, const size_t *chosen, size_t k)
{
    pr_buf b = PR_BUF_INIT;
    int fits = 1;
    for (size_t i = 0; i < n && fits; i++) {
        pr_buf_clear(&b);
        size_t at = 0;
        for (size_t j = 0; j < k; j++) {
            const occ *c = &o[chosen[j]];
            pr_buf_put(&b, strings[0] + at, c->pos - at);
            pr_buf_puts(&b, values[i][c->var]);
            at = c->pos + c->len;
        }
        pr_buf_puts(&b, strings[0] + at);
        fits = strcmp(pr_buf_cstr(&b), strings[i]) == 0;
    }
    pr_buf_free(&b);
    return fits;
}

/* Next combination of k out of m in lexicographic order, non-overlapping;
 * 0 when there is none. */
static int next_choice(const occ *o, size_t m, size_t *chosen, size_t k)
{
    for (;;) {
        size_t j = k;
        while (j > 0 && chosen[j - 1] == m - (k - j) - 1)
            j--;
        if (j == 0)
            return 0;
        chosen[j - 1]++;
        for (size_t t = j; t < k; t++)
            chosen[t] = chosen[t - 1] + 1;
        int overlap = 0;
        for (size_t t = 1; t < k && !overlap; t++)
            overlap = o[chosen[t]].pos < o[chosen[t - 1]].pos + o[chosen[t - 1]].len;
        if (!overlap)
            return 1;
    }
}

char *import_steps_template(const char *const *strings, size_t n, const char *const *names,
                            const char *const *const *values, size_t nvars)
{
    const char *s0 = strings[0];
    occ o[STEPS_MAX_OCC];
    size_t m = 0, chosen[STEPS_MAX_OCC];
    long tries = 0;
    char *result = NULL;
    pr_buf b = PR_BUF_INIT;
    /* Where each variable's value is printed in the first string, in
     * order of place, then of the variables' order (the preferred name of
     * a value two variables share comes first). */
    for (size_t pos = 0; s0[pos]; pos++)
        for (size_t v = 0; v < nvars; v++) {
            const char *val = values[0][v];
            size_t len = strlen(val);
            if (len && strncmp(s0 + pos, val, len) == 0 && stands_alone(s0, pos, val, len)) {
                if (m == STEPS_MAX_OCC)
                    goto out;
                o[m].pos = pos;
                o[m].len = len;
                o[m++].var = v;
            }
        }
    /* Fewest placeholders first: a part every string shares stays as
     * printed ("--epochs 1" is not "--epochs {nodes}"). */
    for (size_t k = 0; k <= m && !result; k++) {
        for (size_t j = 0; j < k; j++)
            chosen[j] = j;
        int valid = 1;
        for (size_t t = 1; t < k && valid; t++)
            valid = o[chosen[t]].pos >= o[chosen[t - 1]].pos + o[chosen[t - 1]].len;
        if (!valid && !next_choice(o, m, chosen, k))
            continue;
        do {
            if (++tries > STEPS_MAX_TRIES)
                goto out;
            if (choice_fits(strings, n, values, o, chosen, k)) {
                size_t at = 0;
                for (size_t j = 0; j < k; j++) {
                    const occ *c = &o[chosen[j]];
                    put_literal(&b, s0 + at, c->pos - at);
                    pr_buf_printf(&b, "{%s}", names[c->var]);
                    at = c->pos + c->len;
                }
                put_literal(&b, s0 + at, strlen(s0 + at));
                result = pr_buf_detach(&b);
                break;
            }
        } while (k && next_choice(o, m, chosen, k));
    }
out:
    pr_buf_free(&b);
    return result;
}

/* The words of a command a log echoes: a Python argv list
 * (['python', '-u', 'main.py']) or a shell line split at blanks, quotes
 * ('…', "…") taken off.  A new array of new strings (*n of them). */
static char **split_command(const char *s, size_t *n)
{
    char **w = NULL;
    size_t cnt = 0;
    pr_buf cur = PR_BUF_INIT;
    int list = s[0] == '[';
    const char *p = s + list;
    while (*p) {
        while (*p == ' ' || *p == '\t' || (list && (*p == ',' || *p == ']')))
            p++;
        if (!*p)
            break;
        pr_buf_clear(&cur);
        int any = 0;
        while (*p && *p != ' ' && *p != '\t' && !(list && (*p == ',' || *p == ']'))) {
            if (*p == '\'' || *p == '"') {
                char q = *p++;
                while (*p && *p != q)
                    pr_buf_putc(&cur, *p++);
                if (*p)
                    p++;
            } else {
                pr_buf_putc(&cur, *p++);
            }
            any = 1;
        }
        if (any) {
            w = pr_xrealloc(w, (cnt + 1) * sizeof *w);
            w[cnt++] = pr_xstrdup(pr_buf_cstr(&cur));
        }
    }
    pr_buf_free(&cur);
    *n = cnt;
    return w;
}

static void free_words(char **w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(w[i]);
    free(w);
}

/* The variables a case's words may print, in the order a value shared by
 * two of them is named (the case's GPUs before its nodes). */
static const char *const case_var_names[] = {"gpus",
                                             "batch_size",
                                             "precision",
                                             "nodes",
                                             "gpus_per_node",
                                             "global_batch_size",
                                             "node_batch_size",
                                             "precision_upper",
                                             "gpu_list",
                                             "run_mode",
                                             "dtype"};
#define NVARS (sizeof case_var_names / sizeof case_var_names[0])

typedef struct step_case {
    const import_manifest_case *c;
    json_t *rec; /* its record, as parse wrote it */
    long long nodes, gpn;
    char *vals[NVARS];
    const char *command; /* the first command its log echoes, or NULL */
    long long command_line;
} step_case;

static void case_values(step_case *s)
{
    long long gpus = s->c->gpus, bs = s->c->batch_size;
    char up[16];
    size_t i = 0;
    for (; s->c->precision[i] && i + 1 < sizeof up; i++)
        up[i] = (char)toupper((unsigned char)s->c->precision[i]);
    up[i] = '\0';
    pr_buf list = PR_BUF_INIT;
    for (long long g = 0; g < s->gpn; g++)
        pr_buf_printf(&list, "%s%lld", g ? "," : "", g);
    s->vals[0] = pr_xasprintf("%lld", gpus);
    s->vals[1] = pr_xasprintf("%lld", bs);
    s->vals[2] = pr_xstrdup(s->c->precision);
    s->vals[3] = pr_xasprintf("%lld", s->nodes);
    s->vals[4] = pr_xasprintf("%lld", s->gpn);
    s->vals[5] = pr_xasprintf("%lld", bs * gpus);
    s->vals[6] = pr_xasprintf("%lld", bs * s->gpn);
    s->vals[7] = pr_xstrdup(up);
    s->vals[8] = pr_buf_detach(&list);
    /* As lib/suite_template.c's pr_suite_case_vars words them. */
    const char *p = s->c->precision;
    s->vals[9] = pr_xstrdup(gpus > 1 ? "mp" : "sp");
    s->vals[10] = pr_xstrdup(!strcmp(p, "fp16") || !strcmp(p, "amp") ? "float16"
                             : !strcmp(p, "bf16")                    ? "bfloat16"
                             : !strcmp(p, "fp8")                     ? "float8"
                                                                     : "float32");
}

/* The template of one string per case (strings[i] of case i). */
static char *case_template(step_case *sc, size_t n, const char *const *strings)
{
    const char *const **values = pr_xcalloc(n, sizeof *values);
    for (size_t i = 0; i < n; i++)
        values[i] = (const char *const *)sc[i].vals;
    char *t = import_steps_template(strings, n, case_var_names, values, NVARS);
    free(values);
    return t;
}

/* A word that is one per precision ("--use_amp True" in the amp cases,
 * "False" in the fp32 ones) as the suite's precision object
 * ({"amp": ["True"], "fp32": ["False"]}, precisions in case order, each
 * word a literal); NULL when two cases of one precision differ. */
static json_t *precision_words(const step_case *sc, size_t n, const char *const *strings)
{
    json_t *obj = json_object();
    for (size_t i = 0; i < n && obj; i++) {
        json_t *have = json_object_get(obj, sc[i].c->precision);
        pr_buf lit = PR_BUF_INIT;
        put_literal(&lit, strings[i], strlen(strings[i]));
        if (!have) {
            json_object_set_new(obj, sc[i].c->precision, json_pack("[s]", pr_buf_cstr(&lit)));
        } else if (strcmp(json_string_value(json_array_get(have, 0)), pr_buf_cstr(&lit)) != 0) {
            json_decref(obj);
            obj = NULL;
        }
        pr_buf_free(&lit);
    }
    return obj;
}

/* The block of words some precisions add, at slot_at: the precision
 * object {"fp16": ["--fp16"]} (each precision's words once). */
static json_t *slot_object(const step_case *sc, size_t n, char ***words, size_t slot_at,
                           const size_t *nslot)
{
    json_t *obj = json_object();
    for (size_t i = 0; i < n; i++) {
        if (!nslot[i] || json_object_get(obj, sc[i].c->precision))
            continue;
        json_t *list = json_array();
        for (size_t k = 0; k < nslot[i]; k++) {
            pr_buf lit = PR_BUF_INIT;
            put_literal(&lit, words[i][slot_at + k], strlen(words[i][slot_at + k]));
            json_array_append_new(list, json_string(pr_buf_cstr(&lit)));
            pr_buf_free(&lit);
        }
        json_object_set_new(obj, sc[i].c->precision, list);
    }
    return obj;
}

/* Where commands of different lengths differ by a block of words that
 * depends on the precision alone: the cases of one precision have as many
 * words, and the words before *slot_at and the last *tail words are the
 * ones every case has there (compared between cases of one configuration
 * but their precision, else the first cases); nslot[i] is case i's block
 * length, and the cases of one precision have one block.  -1 when the
 * commands differ otherwise. */
static int precision_slot(const step_case *sc, size_t n, char ***words, const size_t *nwords,
                          size_t *slot_at, size_t *tail, size_t *nslot)
{
    size_t pre = SIZE_MAX, post = SIZE_MAX;
    for (size_t i = 1; i < n; i++) {
        if (strcmp(sc[i].c->precision, sc[0].c->precision) == 0) {
            if (nwords[i] != nwords[0])
                return -1;
            continue;
        }
        /* Its counterpart: a case of the first precision in i's configuration. */
        size_t j = 0;
        for (size_t k = 0; k < n; k++)
            if (!strcmp(sc[k].c->precision, sc[0].c->precision) && sc[k].nodes == sc[i].nodes &&
                sc[k].gpn == sc[i].gpn && sc[k].c->batch_size == sc[i].c->batch_size)
                j = k;
        size_t lo = nwords[i] < nwords[j] ? nwords[i] : nwords[j], p = 0, q = 0;
        while (p < lo && !strcmp(words[i][p], words[j][p]))
            p++;
        while (q < lo - p && !strcmp(words[i][nwords[i] - 1 - q], words[j][nwords[j] - 1 - q]))
            q++;
        pre = p < pre ? p : pre;
        post = q < post ? q : post;
    }
    if (pre == SIZE_MAX)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (nwords[i] < pre + post)
            return -1;
        nslot[i] = nwords[i] - pre - post;
        for (size_t k = 0; k < i; k++) /* one block per precision */
            if (!strcmp(sc[k].c->precision, sc[i].c->precision)) {
                if (nslot[k] != nslot[i])
                    return -1;
                for (size_t w = 0; w < nslot[i]; w++)
                    if (strcmp(words[k][pre + w], words[i][pre + w]))
                        return -1;
            }
    }
    *slot_at = pre;
    *tail = post;
    return 0;
}

/* suite.json from the run set's records; *why says why none when it
 * returns NULL.  A new reference the caller owns. */
static json_t *suite_from_logs(step_case *sc, size_t n, pr_buf *why)
{
    json_t *suite = NULL, *command = NULL;
    const char **strings = pr_xcalloc(n, sizeof *strings);
    char ***words = pr_xcalloc(n, sizeof *words);
    size_t *nwords = pr_xcalloc(n, sizeof *nwords);
    char *name_t = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!sc[i].rec) {
            pr_buf_printf(why, "case %s has no record", sc[i].c->case_name);
            goto out;
        }
        if (!sc[i].command) {
            pr_buf_printf(why, "the log of %s (%s) echoes no command", sc[i].c->case_name,
                          sc[i].c->logs[0]);
            goto out;
        }
        for (size_t j = 0; j < i; j++)
            if (sc[j].nodes == sc[i].nodes && sc[j].gpn == sc[i].gpn &&
                sc[j].c->batch_size == sc[i].c->batch_size &&
                strcmp(sc[j].c->precision, sc[i].c->precision) == 0) {
                pr_buf_printf(why, "%s and %s are one point of a matrix", sc[j].c->case_name,
                              sc[i].c->case_name);
                goto out;
            }
        words[i] = split_command(sc[i].command, &nwords[i]);
        if (nwords[i] == 0) {
            pr_buf_printf(why, "the command of %s has no words", sc[i].c->case_name);
            goto out;
        }
        strings[i] = sc[i].c->case_name;
    }
    /* Commands of as many words align word by word; else the words one
     * precision adds (--fp16) are a block of their own (slot_at, of
     * nslot[i] words in case i), the words before and after it align. */
    size_t slot_at = 0, *nslot = pr_xcalloc(n, sizeof *nslot), tail = nwords[0];
    int slotted = 0;
    for (size_t i = 1; i < n && !slotted; i++)
        slotted = nwords[i] != nwords[0];
    if (slotted && precision_slot(sc, n, words, nwords, &slot_at, &tail, nslot) < 0) {
        pr_buf_printf(why, "the commands of the cases have different words, not only where one "
                           "precision adds some");
        free(nslot);
        goto out;
    }
    if (!(name_t = case_template(sc, n, strings))) {
        pr_buf_puts(why, "the case names follow no one template");
        goto out;
    }
    command = json_array();
    size_t ncommon = slotted ? slot_at + tail : nwords[0];
    for (size_t w = 0; w < ncommon; w++) {
        if (slotted && w == slot_at) {
            json_array_append_new(command, slot_object(sc, n, words, slot_at, nslot));
        }
        for (size_t i = 0; i < n; i++)
            strings[i] = words[i][w < slot_at || !slotted ? w : w + nslot[i]];
        char *t = case_template(sc, n, strings);
        json_t *by_precision = t ? NULL : precision_words(sc, n, strings);
        if (!t && !by_precision) {
            pr_buf_printf(why,
                          "word %zu of the command (\"%s\") differs between the cases in "
                          "a way no placeholder or precision says",
                          w + 1, words[0][w]);
            goto out;
        }
        json_array_append_new(command, t ? json_string(t) : by_precision);
        free(t);
    }
    if (slotted && slot_at == ncommon) /* the words a precision adds come last */
        json_array_append_new(command, slot_object(sc, n, words, slot_at, nslot));
    free(nslot);
    const import_manifest_case *c0 = sc[0].c;
    json_t *mx = json_pack("{s:[I],s:[I],s:[i],s:[s]}", "nodes", sc[0].nodes, "gpus_per_node",
                           sc[0].gpn, "batch_size", c0->batch_size, "precision", c0->precision);
    if (n > 1) {
        json_t *inc = json_array();
        for (size_t i = 1; i < n; i++)
            json_array_append_new(inc,
                                  json_pack("{s:I,s:I,s:i,s:s}", "nodes", sc[i].nodes,
                                            "gpus_per_node", sc[i].gpn, "batch_size",
                                            sc[i].c->batch_size, "precision", sc[i].c->precision));
        json_object_set_new(mx, "include", inc);
    }
    char *en = pr_xasprintf("Written by perfrepro-measure import from the logs: the command each "
                            "log echoes (%s:%lld for %s), with what differs between the %zu "
                            "case(s) as placeholders. The logs do not say which repository and "
                            "commit the command runs in; the arguments they dump are in each "
                            "record's log facts.",
                            c0->logs[0], sc[0].command_line, c0->case_name, n);
    char *zh =
        pr_xasprintf("由 perfrepro-measure import 据日志写出：各日志回显的命令（%s 为 "
                     "%s:%lld），各例之间不同之处写作占位符（共 %zu 例）。日志未说明命令在哪个"
                     "仓库与提交中运行；日志打印的参数见各记录的日志事实。",
                     c0->case_name, c0->logs[0], sc[0].command_line, n);
    json_t *rec = sc[0].rec;
    /* No "source": the repository the logs come from is seldom the code
     * their command runs (Perf's logs run PaddleSeg), and a page must not
     * clone the wrong one. */
    suite = json_pack("{s:i,s:s,s:s,s:O,s:O,s:O,s:s,s:{s:s,s:s},s:s,s:o,s:o,s:s,s:O}", "perfrepro",
                      1, "model", c0->model, "framework", c0->framework, "model_name",
                      json_object_get(rec, "model_name"), "mission_name",
                      json_object_get(rec, "mission_name"), "direction_id",
                      json_object_get(rec, "direction_id"), "unit", c0->unit, "description", "zh",
                      zh, "en", en, "platform", c0->platform, "command", command, "matrix", mx,
                      "case_name", name_t, "rule", json_object_get(rec, "rule"));
    command = NULL; /* the suite holds it (or json_pack freed it) */
    free(en);
    free(zh);
    if (!suite)
        pr_buf_puts(why, "its record lacks model_name, mission_name, direction_id or rule");
out:
    json_decref(command);
    for (size_t i = 0; i < n; i++)
        free_words(words[i], nwords[i]);
    free(words);
    free(nwords);
    free(strings);
    free(name_t);
    return suite;
}

/* The value of "--NAME" among a README line's options, or NULL. */
static const char *readme_opt(const import_manifest_readme *r, const char *name)
{
    for (size_t i = 0; i + 1 < r->nopts; i++)
        if (strcmp(r->opts[i], name) == 0)
            return r->opts[i + 1];
    return NULL;
}

/* 1 when the env line r describes run sets of framework: a README whose
 * tables (the manifest's `table` lines of the same path) are of another
 * framework describes that framework's runs only. */
static int env_applies(const import_manifest_t *m, const import_manifest_readme *r,
                       const char *framework)
{
    int tables = 0;
    for (size_t i = 0; i < m->nreadmes; i++) {
        const import_manifest_readme *t = &m->readmes[i];
        if (t->is_env || strcmp(t->path, r->path) != 0)
            continue;
        const char *fw = readme_opt(t, "--framework");
        tables++;
        if (fw && strcmp(fw, framework) == 0)
            return 1;
    }
    return tables == 0;
}

/* The GPU an item names, when the group describes a machine; NULL for a
 * group of software. */
static const char *group_gpu(json_t *group)
{
    json_t *item;
    size_t i;
    json_array_foreach(json_object_get(group, "items"), i, item)
    {
        const char *kind = json_string_value(json_object_get(item, "kind"));
        if (kind && strcmp(kind, "gpu") == 0)
            return json_string_value(json_object_get(item, "value"));
    }
    return NULL;
}

/* 1 when the title states the GPU count gpus as a count of its own
 * ("单机V100（单卡、8卡）" states 8, "多机（32卡）" 32, "4x8 GPUs" neither). */
static int title_states_gpus(const char *title, long gpus)
{
    char num[24];
    int n = snprintf(num, sizeof num, "%ld", gpus);
    static const char *const after[] = {"卡", " GPU", "GPU", NULL};
    for (const char *p = strstr(title, num); p; p = strstr(p + 1, num)) {
        if (p > title && is_digit(p[-1]))
            continue;
        for (const char *const *a = after; *a; a++)
            if (strncmp(p + n, *a, strlen(*a)) == 0)
                return 1;
    }
    return 0;
}

/* The environment groups of the run set (a new array), with a note in why
 * where a machine group could not be chosen.  Several machine groups of the
 * platform's device (a node and a cluster of one GPU) are told apart by the
 * run set's largest GPU count, where exactly one title states it. */
static json_t *runset_groups(const import_manifest_t *m, const import_manifest_case *c0,
                             long max_gpus, const char *out_root, pr_buf *why, pr_err *err)
{
    json_t *groups = json_array();
    /* The device of the platform: "V100-SXM2-32GB" of "V100-SXM2-32GB-x8". */
    char *device = pr_xstrdup(c0->platform);
    char *x = strrchr(device, '-');
    if (x && x[1] == 'x' && is_digit(x[2]))
        *x = '\0';
    for (size_t i = 0; i < m->nreadmes; i++) {
        const import_manifest_readme *r = &m->readmes[i];
        if (!r->is_env || !env_applies(m, r, c0->framework))
            continue;
        char *path = pr_xasprintf("%s/environments/%s.json", out_root, r->id);
        json_error_t je;
        json_t *env = json_load_file(path, 0, &je), *g, *machine = NULL, *stated = NULL;
        size_t k, machines = 0, nstated = 0, others = 0;
        if (!env) {
            pr_err_set(err, path, je.line, je.column, NULL, "%s", je.text);
            free(path);
            json_decref(groups);
            groups = NULL;
            break;
        }
        free(path);
        json_array_foreach(json_object_get(env, "groups"), k, g)
        {
            const char *gpu = group_gpu(g);
            const char *title = json_string_value(json_object_get(g, "title"));
            if (!title)
                continue;
            if (!gpu)
                json_array_append_new(groups,
                                      json_pack("{s:s,s:s}", "file", r->id, "group", title));
            else if (!strcasestr(gpu, device))
                others++;
            else {
                if (machines++ == 0)
                    machine = g;
                if (title_states_gpus(title, max_gpus) && nstated++ == 0)
                    stated = g;
            }
        }
        if (machines > 1 && nstated == 1) {
            machine = stated;
            machines = 1;
        }
        if (machines == 1)
            json_array_append_new(groups,
                                  json_pack("{s:s,s:s}", "file", r->id, "group",
                                            json_string_value(json_object_get(machine, "title"))));
        else if (machines == 0 && others)
            pr_buf_printf(why, "%sno machine group of %s names %s", why->len ? "; " : "", r->id,
                          device);
        else if (machines > 1)
            pr_buf_printf(why,
                          "%s%zu machine groups of %s name %s and not one title its "
                          "GPU count: give runsets/RUN.json",
                          why->len ? "; " : "", machines, r->id, device);
        json_decref(env);
    }
    free(device);
    return groups;
}

static int write_json(const char *path, json_t *j, pr_err *err)
{
    char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, text);
    pr_buf_putc(&b, '\n');
    int rc = pr_fileio_write_if_changed(path, b.data, b.len, err);
    pr_buf_free(&b);
    free(text);
    return rc;
}

/* The first command the record's log facts hold, and its line. */
static void record_command(step_case *s)
{
    json_t *it;
    size_t i;
    json_array_foreach(json_object_get(s->rec, "log_facts"), i, it)
    {
        const char *key = json_string_value(json_object_get(it, "key"));
        if (key && strcmp(key, "command") == 0) {
            s->command = json_string_value(json_object_get(it, "value"));
            s->command_line = json_integer_value(json_object_get(it, "line"));
            return;
        }
    }
}

int import_steps_write(const import_manifest_t *m, const char *run, const char *run_dir,
                       const char *out_root, pr_err *err)
{
    int rc = -1;
    size_t n = 0;
    step_case *sc = NULL;
    json_t *groups = NULL, *suite = NULL;
    pr_buf why = PR_BUF_INIT;
    char *runset_path = pr_xasprintf("%s/runset.json", run_dir);
    char *suite_path = pr_xasprintf("%s/suite.json", run_dir);
    for (size_t i = 0; i < m->ncases; i++) {
        if (strcmp(m->cases[i].run, run) != 0)
            continue;
        sc = pr_xrealloc(sc, (n + 1) * sizeof *sc);
        step_case *s = &sc[n++];
        memset(s, 0, sizeof *s);
        s->c = &m->cases[i];
        char *rec = pr_xasprintf("%s/logs/index/%s_speed", run_dir, s->c->case_name);
        s->rec = json_load_file(rec, 0, NULL);
        free(rec);
        s->nodes = json_integer_value(json_object_get(s->rec, "nodes"));
        s->gpn = json_integer_value(json_object_get(s->rec, "gpus_per_node"));
        if (s->nodes <= 0 || s->gpn <= 0) {
            json_decref(s->rec);
            s->rec = NULL;
        }
        case_values(s);
        record_command(s);
    }
    if (n == 0) {
        rc = 0;
        goto out;
    }
    if (access(runset_path, F_OK) == 0) {
        printf("  runset.json: the manifest's runsets/%s.json\n", run);
    } else {
        long max_gpus = 0;
        for (size_t i = 0; i < n; i++)
            if (sc[i].c->gpus > max_gpus)
                max_gpus = sc[i].c->gpus;
        if (!(groups = runset_groups(m, sc[0].c, max_gpus, out_root, &why, err)))
            goto out;
        if (json_array_size(groups)) {
            json_t *rs =
                json_pack("{s:i,s:s,s:O}", "perfrepro", 1, "title", run, "environment", groups);
            int w = write_json(runset_path, rs, err);
            json_decref(rs);
            if (w < 0)
                goto out;
            printf("  runset.json: written, %zu environment group(s) of the env lines%s%s\n",
                   json_array_size(groups), why.len ? "; " : "", pr_buf_cstr(&why));
        } else {
            printf("  runset.json: none (no env line describes it%s%s)\n", why.len ? ": " : "",
                   pr_buf_cstr(&why));
        }
        pr_buf_clear(&why);
    }
    if (access(suite_path, F_OK) == 0) {
        printf("  suite.json: the manifest's suites/%s.json\n", run);
    } else if ((suite = suite_from_logs(sc, n, &why))) {
        if (write_json(suite_path, suite, err) < 0)
            goto out;
        /* What gen would refuse (a word past its limits, too many cases)
         * is left out, not the import stopped: the logs still come in. */
        pr_suite *loaded = NULL;
        pr_err why_not;
        memset(&why_not, 0, sizeof why_not);
        const char *missing = NULL;
        int loads = pr_suite_load(suite_path, &loaded, &why_not) == 0;
        /* Every record one of its cases, as gen checks (names expanded by
         * lib/suite_matrix.c, not by the template search). */
        for (size_t i = 0; loads && i < n && !missing; i++) {
            size_t k = 0;
            while (k < loaded->ncases && strcmp(loaded->cases[k].name, sc[i].c->case_name))
                k++;
            if (k == loaded->ncases)
                missing = sc[i].c->case_name;
        }
        if (!loads || missing) {
            unlink(suite_path);
            printf("  suite.json: none (what the logs give is no suite gen loads: %s)\n",
                   missing ? "a case its names miss" : why_not.msg);
        } else {
            printf("  suite.json: written from the command the logs echo\n");
        }
        pr_suite_free(loaded);
    } else {
        printf("  suite.json: none (%s): the page says \"no suite\"\n", pr_buf_cstr(&why));
    }
    rc = 0;
out:
    for (size_t i = 0; i < n; i++) {
        json_decref(sc[i].rec);
        for (size_t k = 0; k < NVARS; k++)
            free(sc[i].vals[k]);
    }
    free(sc);
    json_decref(groups);
    json_decref(suite);
    pr_buf_free(&why);
    free(runset_path);
    free(suite_path);
    return rc;
}
