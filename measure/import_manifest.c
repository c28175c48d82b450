/* import_manifest: reading and checking the import manifest (docs/import.md). */
#include "import_manifest.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"

static const char *const case_fields[] = {"run",       "case",      "model", "framework",
                                          "platform",  "precision", "nodes", "gpus",
                                          "batch_size", "seq_len",  "unit",  "rule",
                                          "figure",    "log"};
#define NCASE_FIELDS 14

/* Splits line on tabs in place; the pointers go into *out (caller frees the array). */
static size_t split_tabs(char *line, char ***out)
{
    size_t n = 1;
    for (char *p = line; *p; p++)
        n += *p == '\t';
    char **f = pr_xcalloc(n, sizeof *f);
    size_t i = 0;
    f[i++] = line;
    for (char *p = line; *p; p++)
        if (*p == '\t') {
            *p = '\0';
            f[i++] = p + 1;
        }
    *out = f;
    return n;
}

static int positive(const char *file, int line, const char *field, const char *s, int *v,
                    pr_err *err)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (!*s || *end || errno || x < 1 || x > 1000000)
        return pr_err_set(err, file, line, 0, field, "\"%s\" is not a whole number >= 1", s);
    *v = (int)x;
    return 0;
}

/* A figure as printed: digits, at most one point, digits ("19.428", "176"). */
static int figure_ok(const char *s)
{
    int digits = 0, points = 0;
    for (const char *p = s; *p; p++) {
        if (*p >= '0' && *p <= '9')
            digits++;
        else if (*p == '.' && points++ == 0 && p != s && p[1])
            continue;
        else
            return 0;
    }
    return digits > 0;
}

/* A path inside the source: relative, no "..", no glob or control characters. */
static int source_path_ok(const char *s)
{
    if (!*s || *s == '/' || strstr(s, "..") || strpbrk(s, "*?[\\"))
        return 0;
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20)
            return 0;
    return 1;
}

static int precision_ok(const char *s)
{
    static const char *const modes[] = {"fp32", "tf32", "fp16", "amp", "bf16", "fp8"};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (!strcmp(s, modes[i]))
            return 1;
    return 0;
}

static int read_case(const char *file, int line, char **f, size_t n, im_case *c, pr_err *err)
{
    if (n < NCASE_FIELDS)
        return pr_err_set(err, file, line, 0, case_fields[n],
                          "missing: a log line has %d or more tab-separated fields (%s ... log), "
                          "this one %zu",
                          NCASE_FIELDS, "run case model framework", n);
    for (size_t i = 0; i < n; i++)
        if (!*f[i])
            return pr_err_set(err, file, line, 0, case_fields[i < NCASE_FIELDS ? i : 13],
                              "empty (write \"-\" for none where the field allows it)");
    memset(c, 0, sizeof *c);
    c->line = line;
    if (!precision_ok(f[5]))
        return pr_err_set(err, file, line, 0, "precision",
                          "\"%s\": one of fp32, tf32, fp16, amp, bf16, fp8 (docs/data-model.md, "
                          "\"Precision modes of imported logs\")",
                          f[5]);
    if (strcmp(f[6], "-") && positive(file, line, "nodes", f[6], &c->nodes, err) < 0)
        return -1;
    if (positive(file, line, "gpus", f[7], &c->gpus, err) < 0 ||
        positive(file, line, "batch_size", f[8], &c->batch_size, err) < 0)
        return -1;
    if (c->nodes && c->gpus % c->nodes)
        return pr_err_set(err, file, line, 0, "nodes", "%d GPUs do not split over %d nodes",
                          c->gpus, c->nodes);
    int sl;
    if (strcmp(f[9], "-") && positive(file, line, "seq_len", f[9], &sl, err) < 0)
        return -1;
    int cell = f[12][0] == '@';
    if (cell ? !source_path_ok(f[12] + 1) || strchr(f[12], '/') : strcmp(f[12], "-") && !figure_ok(f[12]))
        return pr_err_set(err, file, line, 0, "figure",
                          "\"%s\": the figure as printed (\"19.428\", \"176\"), @ID (the cell "
                          "of the table a \"table\" line imports into data/published/ID.json), "
                          "or \"-\"",
                          f[12]);
    for (size_t i = 13; i < n; i++)
        if (!source_path_ok(f[i]))
            return pr_err_set(err, file, line, 0, "log",
                              "\"%s\": a path inside the source folder (relative, no \"..\", "
                              "no glob characters)",
                              f[i]);
    for (size_t i = 0; i < 2; i++)
        if (!source_path_ok(f[i]) || strchr(f[i], '/'))
            return pr_err_set(err, file, line, 0, case_fields[i], "\"%s\": a plain file name",
                              f[i]);
    c->run = pr_xstrdup(f[0]);
    c->case_name = pr_xstrdup(f[1]);
    c->model = pr_xstrdup(f[2]);
    c->framework = pr_xstrdup(f[3]);
    c->platform = pr_xstrdup(f[4]);
    c->precision = pr_xstrdup(f[5]);
    c->seq_len = strcmp(f[9], "-") ? pr_xstrdup(f[9]) : NULL;
    c->unit = pr_xstrdup(f[10]);
    c->rule = pr_xstrdup(f[11]);
    c->figure = strcmp(f[12], "-") && !cell ? pr_xstrdup(f[12]) : NULL;
    c->figure_table = cell ? pr_xstrdup(f[12] + 1) : NULL;
    c->nlogs = n - 13;
    c->logs = pr_xcalloc(c->nlogs, sizeof *c->logs);
    for (size_t i = 0; i < c->nlogs; i++)
        c->logs[i] = pr_xstrdup(f[13 + i]);
    return 0;
}

static int read_directive(const char *file, int line, char **f, size_t n, im_manifest *m,
                          pr_err *err)
{
    const char *d = f[0];
    if (!strcmp(d, "source")) {
        if (n != 3 || !strchr(f[1], '/') || strlen(f[2]) < 7)
            return pr_err_set(err, file, line, 0, "source",
                              "write \"source<TAB>OWNER/NAME<TAB>COMMIT\"");
        if (m->repo)
            return pr_err_set(err, file, line, 0, "source", "a second source line");
        m->repo = pr_xstrdup(f[1]);
        m->commit = pr_xstrdup(f[2]);
        return 0;
    }
    if (!strcmp(d, "published")) {
        if (n != 3 || !source_path_ok(f[1]))
            return pr_err_set(err, file, line, 0, "published",
                              "write \"published<TAB>PATH-IN-SOURCE<TAB>TITLE\"");
        if (m->published_path)
            return pr_err_set(err, file, line, 0, "published", "a second published line");
        m->published_path = pr_xstrdup(f[1]);
        m->published_title = pr_xstrdup(f[2]);
        return 0;
    }
    if (!strcmp(d, "mission")) {
        if (n != 4)
            return pr_err_set(err, file, line, 0, "mission",
                              "write \"mission<TAB>MODEL<TAB>NAME<TAB>DIRECTION-ID\"");
        m->missions = pr_xrealloc(m->missions, (m->nmissions + 1) * sizeof *m->missions);
        m->missions[m->nmissions++] =
            (im_mission){pr_xstrdup(f[1]), pr_xstrdup(f[2]), pr_xstrdup(f[3])};
        return 0;
    }
    int is_env = !strcmp(d, "env");
    if (n < 3 || !source_path_ok(f[2]) || strchr(f[1], '/') || (n - 3) % 2)
        return pr_err_set(err, file, line, 0, d,
                          "write \"%s<TAB>ID<TAB>README-PATH\" then option and value pairs",
                          d);
    im_readme r = {line, is_env, pr_xstrdup(f[1]), pr_xstrdup(f[2]), NULL, n - 3};
    r.opts = pr_xcalloc(r.nopts + 1, sizeof *r.opts);
    for (size_t i = 0; i < r.nopts; i++)
        r.opts[i] = pr_xstrdup(f[3 + i]);
    m->readmes = pr_xrealloc(m->readmes, (m->nreadmes + 1) * sizeof *m->readmes);
    m->readmes[m->nreadmes++] = r;
    return 0;
}

int im_manifest_read(const char *file, im_manifest *m, pr_err *err)
{
    pr_buf text;
    pr_buf_init(&text);
    memset(m, 0, sizeof *m);
    m->file = pr_xstrdup(file);
    int rc = -1, line = 0;
    if (pr_read_file(file, &text, err) < 0)
        goto out;
    char *p = text.data ? text.data : "";
    while (*p) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        line++;
        size_t len = strlen(p);
        if (len && p[len - 1] == '\r')
            p[--len] = '\0';
        if (len && *p != '#') {
            char **f;
            size_t n = split_tabs(p, &f);
            int r;
            if (!strcmp(f[0], "source") || !strcmp(f[0], "table") || !strcmp(f[0], "env") ||
                !strcmp(f[0], "mission") || !strcmp(f[0], "published"))
                r = read_directive(file, line, f, n, m, err);
            else {
                m->cases = pr_xrealloc(m->cases, (m->ncases + 1) * sizeof *m->cases);
                r = read_case(file, line, f, n, &m->cases[m->ncases], err);
                if (r == 0)
                    m->ncases++;
            }
            free(f);
            if (r < 0)
                goto out;
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    for (size_t i = 0; i < m->ncases; i++)
        for (size_t j = 0; j < i; j++)
            if (!strcmp(m->cases[i].run, m->cases[j].run) &&
                !strcmp(m->cases[i].case_name, m->cases[j].case_name)) {
                pr_err_set(err, file, m->cases[i].line, 0, "case",
                           "\"%s\" is already line %d's case in run %s", m->cases[i].case_name,
                           m->cases[j].line, m->cases[i].run);
                goto out;
            }
    if (!m->ncases) {
        pr_err_set(err, file, 0, 0, NULL, "no log lines");
        goto out;
    }
    rc = 0;
out:
    pr_buf_free(&text);
    return rc;
}

static void case_free(im_case *c)
{
    free(c->run);
    free(c->case_name);
    free(c->model);
    free(c->framework);
    free(c->platform);
    free(c->precision);
    free(c->seq_len);
    free(c->unit);
    free(c->rule);
    free(c->figure);
    free(c->figure_table);
    for (size_t i = 0; i < c->nlogs; i++)
        free(c->logs[i]);
    free(c->logs);
}

void im_manifest_free(im_manifest *m)
{
    for (size_t i = 0; i < m->ncases; i++)
        case_free(&m->cases[i]);
    free(m->cases);
    for (size_t i = 0; i < m->nreadmes; i++) {
        free(m->readmes[i].id);
        free(m->readmes[i].path);
        for (size_t j = 0; j < m->readmes[i].nopts; j++)
            free(m->readmes[i].opts[j]);
        free(m->readmes[i].opts);
    }
    free(m->readmes);
    for (size_t i = 0; i < m->nmissions; i++) {
        free(m->missions[i].model);
        free(m->missions[i].name);
        free(m->missions[i].direction);
    }
    free(m->missions);
    free(m->file);
    free(m->repo);
    free(m->commit);
    free(m->published_path);
    free(m->published_title);
    memset(m, 0, sizeof *m);
}
