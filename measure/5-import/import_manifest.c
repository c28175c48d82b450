/* import_manifest: reading and checking the import manifest (docs/import.md). */
#include "import_manifest.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"
#include "record.h"
#include "suite.h"

static const char *const case_fields[] = {"run",       "case",  "model",  "framework",  "platform",
                                          "precision", "nodes", "gpus",   "batch_size", "seq_len",
                                          "unit",      "rule",  "figure", "log"};
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

/* A figure as printed: digits, at most one point, digits ("19.428", "176"),
 * above 0 (a throughput of 0 is no figure: the import refuses it). */
static int figure_ok(const char *s)
{
    int digits = 0, points = 0, nonzero = 0;
    for (const char *p = s; *p; p++) {
        if (*p >= '0' && *p <= '9') {
            digits++;
            nonzero |= *p != '0';
        } else if (*p == '.' && points++ == 0 && p != s && p[1])
            continue;
        else
            return 0;
    }
    return digits > 0 && nonzero;
}

/* A name that becomes a path component (a folder or file under --data, a
 * file beside the manifest) holds to the case-name rule (suite.h
 * pr_suite_name_is_safe): no ".", "..", "/", leading '-', nor more than 128 bytes. */
static int name_ok(const char *file, int line, const char *field, const char *s, pr_err *err)
{
    char why[160];
    const char *bad = pr_suite_name_unsafe_why(s, why, sizeof why);
    if (!bad)
        return 0;
    return pr_err_set(err, file, line, 0, field,
                      "\"%.80s%s\" is not a safe name ([A-Za-z0-9._+-], it becomes a file or "
                      "folder name): %s",
                      s, strlen(s) > 80 ? "..." : "", bad);
}

/* The bytes of one line: valid UTF-8 (no overlong form, surrogate or code
 * point past U+10FFFF), no NUL and no control character but the tab.  A NUL
 * ended the manifest silently; a terminal escape would reach messages. */
static int line_bytes_ok(const char *file, int line, const unsigned char *s, size_t len,
                         pr_err *err)
{
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (c == 0)
            return pr_err_set(err, file, line, 0, NULL,
                              "a NUL byte (byte %zu of the line): a manifest is text", i + 1);
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                return pr_err_set(err, file, line, 0, NULL,
                                  "control character 0x%02x (byte %zu of the line): only the tab "
                                  "separates fields",
                                  c, i + 1);
            i++;
            continue;
        }
        size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
        unsigned cp = c & (n == 4 ? 0x07 : n == 3 ? 0x0f : 0x1f);
        int ok = c >= 0xc2 && c <= 0xf4 && i + n <= len;
        for (size_t k = 1; ok && k < n; k++) {
            ok = (s[i + k] & 0xc0) == 0x80;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        static const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
        if (!ok || cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return pr_err_set(err, file, line, 0, NULL,
                              "invalid UTF-8 at byte %zu of the line: a manifest is UTF-8 text",
                              i + 1);
        i += n;
    }
    return 0;
}

/* The rule field: after an optional "fit:", inline JSON (an object) or the
 * name of rules/NAME.json beside the manifest. */
static int rule_ok(const char *file, int line, const char *s, pr_err *err)
{
    const char *r = strncmp(s, "fit:", 4) ? s : s + 4;
    if (r[0] != '{')
        return name_ok(file, line, "rule", r, err);
    json_error_t je;
    json_t *j = json_loads(r, JSON_REJECT_DUPLICATES, &je);
    int parsed = j != NULL, ok = json_is_object(j);
    json_decref(j);
    if (!ok)
        return pr_err_set(err, file, line, 0, "rule", "inline JSON: %s",
                          parsed ? "not an object" : je.text);
    return 0;
}

/* A path inside the source: relative, no "..", no glob or control
 * characters, not starting with '-' (the logs are arguments of parse, after
 * its options: "--out" would be read as one). */
static int source_path_ok(const char *s)
{
    if (!*s || *s == '/' || *s == '-' || strstr(s, "..") || strpbrk(s, "*?[\\"))
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

/* The fields that name a path component, in field order. */
static const int name_fields[] = {0, 1, 2, 3, 4}; /* run case model framework platform */

static int read_case(const char *file, int line, char **f, size_t n, import_manifest_case *c,
                     pr_err *err)
{
    memset(c, 0, sizeof *c);
    if (n < NCASE_FIELDS)
        return pr_err_set(err, file, line, 0, case_fields[n],
                          "missing: a log line has %d or more tab-separated fields (%s ... log), "
                          "this one %zu",
                          NCASE_FIELDS, "run case model framework", n);
    for (size_t i = 0; i < n; i++)
        if (!*f[i])
            return pr_err_set(err, file, line, 0, case_fields[i < NCASE_FIELDS ? i : 13],
                              "empty (write \"-\" for none where the field allows it)");
    c->line = line;
    /* A figure with no log: run, rule and log "-", carried as a published
     * figure only (no record, no run set). */
    int pub_only = !strcmp(f[0], "-");
    if (pub_only != (n == NCASE_FIELDS && !strcmp(f[13], "-")))
        return pr_err_set(err, file, line, 0, pub_only ? "log" : "run",
                          "a figure with no log has \"-\" as its run and as its one log");
    if (pub_only && (strcmp(f[11], "-") || f[12][0] == '@' || !strcmp(f[12], "-")))
        return pr_err_set(err, file, line, 0, strcmp(f[11], "-") ? "rule" : "figure",
                          "a figure with no log has rule \"-\" and its figure typed as printed");
    for (size_t i = pub_only; i < sizeof name_fields / sizeof *name_fields; i++)
        if (name_ok(file, line, case_fields[name_fields[i]], f[name_fields[i]], err) < 0)
            return -1;
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
    if (!pub_only && rule_ok(file, line, f[11], err) < 0)
        return -1;
    int cell = f[12][0] == '@';
    if (cell ? !pr_suite_name_is_safe(f[12] + 1) : strcmp(f[12], "-") && !figure_ok(f[12]))
        return pr_err_set(err, file, line, 0, "figure",
                          "\"%.80s\": the figure as printed, above 0 (\"19.428\", \"176\"), @ID "
                          "(the cell of the table a \"table\" line imports into "
                          "data/published/ID.json; ID a safe name), or \"-\"",
                          f[12]);
    for (size_t i = 13; !pub_only && i < n; i++)
        if (!source_path_ok(f[i]))
            return pr_err_set(err, file, line, 0, "log",
                              "\"%s\": a path inside the source folder (relative, no \"..\", "
                              "no glob characters, not starting with '-')",
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
    c->nlogs = pub_only ? 0 : n - 13;
    c->logs = pr_xcalloc(c->nlogs, sizeof *c->logs);
    for (size_t i = 0; i < c->nlogs; i++)
        c->logs[i] = pr_xstrdup(f[13 + i]);
    return 0;
}

/* What a table or env line may pass to perfrepro-gen import-table /
 * import-env: one row per option.  The options the import sets itself
 * (import_run.c import_readme) are refused: the sub-commands take the last
 * of an option given twice, so a line's --out would write any file and its
 * --markdown read any file.  Every option takes a value, so a line's
 * options are the even positions (a value such as "--out" is only text). */
enum { RO_OWN = 0, RO_TABLE = 1, RO_ENV = 2 };
static const struct readme_opt {
    const char *name;
    unsigned kinds; /* RO_TABLE | RO_ENV: the commands that take it; RO_OWN: the import's */
} readme_opts[] = {
    {"--after", RO_TABLE},
    {"--table", RO_TABLE},
    {"--column", RO_TABLE},
    {"--model", RO_TABLE},
    {"--model-title", RO_TABLE},
    {"--framework", RO_TABLE},
    {"--framework-title", RO_TABLE},
    {"--precision", RO_TABLE},
    {"--batch-size", RO_TABLE},
    {"--batch-label", RO_TABLE},
    {"--variant", RO_TABLE},
    {"--note", RO_TABLE},
    {"--platform", RO_TABLE},
    {"--unit", RO_TABLE},
    {"--label", RO_TABLE},
    {"--gpus-per-node", RO_TABLE},
    {"--nodes-column", RO_TABLE},
    {"--gpus-column", RO_TABLE},
    {"--section", RO_ENV},
    {"--markdown", RO_OWN},
    {"--repo", RO_OWN},
    {"--commit", RO_OWN},
    {"--path", RO_OWN},
    {"--out", RO_OWN},
};

static int readme_opt_ok(const char *file, int line, const char *kind, unsigned k, const char *opt,
                         pr_err *err)
{
    const size_t n = sizeof readme_opts / sizeof *readme_opts;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(readme_opts[i].name, opt))
            continue;
        if (readme_opts[i].kinds & k)
            return 0;
        if (readme_opts[i].kinds == RO_OWN)
            return pr_err_set(err, file, line, 0, kind,
                              "option %s is the import's own (it sets --markdown, --repo, "
                              "--commit, --path and --out itself): a line may not give it",
                              opt);
        break;
    }
    pr_buf names = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++)
        if (readme_opts[i].kinds & k)
            pr_buf_printf(&names, "%s%s", names.len ? ", " : "", readme_opts[i].name);
    pr_err_set(err, file, line, 0, kind, "\"%.80s\" is not an option a %s line may give (%s)", opt,
               kind, pr_buf_cstr(&names));
    pr_buf_free(&names);
    return -1;
}

/* "OWNER/NAME" of two safe names, and a commit id (7 to 40 hex digits):
 * both go into SOURCE.md's Markdown and the published files' links. */
int import_manifest_source_check(const char *file, int line, const char *repo, const char *commit,
                                 pr_err *err)
{
    const char *slash = strchr(repo, '/');
    char *owner = pr_xstrndup(repo, slash ? (size_t)(slash - repo) : strlen(repo));
    int ok = slash && pr_suite_name_is_safe(owner) && pr_suite_name_is_safe(slash + 1);
    free(owner);
    if (!ok)
        return pr_err_set(err, file, line, 0, "source",
                          "repository \"%.80s\": OWNER/NAME, each [A-Za-z0-9._+-]", repo);
    if (!pr_record_is_commit_id(commit))
        return pr_err_set(err, file, line, 0, "source",
                          "commit \"%.80s\": a commit id (7 to 40 hex digits)", commit);
    return 0;
}

char *import_manifest_typed_published_id(const char *manifest)
{
    const char *base = strrchr(manifest, '/') ? strrchr(manifest, '/') + 1 : manifest;
    return pr_xasprintf("import-%.*s", (int)strcspn(base, "."), base);
}

/* A table line writing the typed figures' file would be overwritten by them. */
static int typed_file_clash(const char *file, int line, const char *id, pr_err *err)
{
    return pr_err_set(err, file, line, 0, "table",
                      "ID \"%s\": the manifest's \"published\" line writes the typed figures "
                      "to data/published/%s.json (named after the manifest): give the table "
                      "another ID",
                      id, id);
}

static int read_directive(const char *file, int line, char **f, size_t n, import_manifest_t *m,
                          pr_err *err)
{
    const char *d = f[0];
    if (!strcmp(d, "source")) {
        if (n != 3)
            return pr_err_set(err, file, line, 0, "source",
                              "write \"source<TAB>OWNER/NAME<TAB>COMMIT\"");
        if (m->repo)
            return pr_err_set(err, file, line, 0, "source", "a second source line");
        if (import_manifest_source_check(file, line, f[1], f[2], err) < 0)
            return -1;
        m->repo = pr_xstrdup(f[1]);
        m->commit = pr_xstrdup(f[2]);
        return 0;
    }
    if (!strcmp(d, "published")) {
        if (n != 3 || !source_path_ok(f[1]))
            return pr_err_set(err, file, line, 0, "published",
                              "write \"published<TAB>PATH-IN-SOURCE<TAB>TITLE\"");
        char *id = import_manifest_typed_published_id(file);
        int rc = pr_suite_name_is_safe(id)
                     ? 0
                     : pr_err_set(err, file, line, 0, "published",
                                  "the typed figures go to "
                                  "data/published/%.80s.json, named after "
                                  "the manifest, and that is no safe file "
                                  "name ([A-Za-z0-9._+-]): rename the manifest",
                                  id);
        for (size_t i = 0; rc == 0 && i < m->nreadmes; i++)
            if (!m->readmes[i].is_env && !strcmp(m->readmes[i].id, id))
                rc = typed_file_clash(file, m->readmes[i].line, id, err);
        free(id);
        if (rc < 0)
            return -1;
        for (size_t i = 0; i < m->npubs; i++)
            if (!strcmp(m->pubs[i].path, f[1]))
                return pr_err_set(err, file, line, 0, "published",
                                  "%s is already a published line above", f[1]);
        /* Several pages: each typed figure links to the last one above it. */
        m->pubs = pr_xrealloc(m->pubs, (m->npubs + 1) * sizeof *m->pubs);
        m->pubs[m->npubs].line = line;
        m->pubs[m->npubs].path = pr_xstrdup(f[1]);
        m->pubs[m->npubs++].title = pr_xstrdup(f[2]);
        if (!m->published_path) {
            m->published_path = pr_xstrdup(f[1]);
            m->published_title = pr_xstrdup(f[2]);
        }
        return 0;
    }
    if (!strcmp(d, "mission")) {
        if (n != 4)
            return pr_err_set(err, file, line, 0, "mission",
                              "write \"mission<TAB>MODEL<TAB>NAME<TAB>DIRECTION-ID\"");
        m->missions = pr_xrealloc(m->missions, (m->nmissions + 1) * sizeof *m->missions);
        m->missions[m->nmissions++] =
            (import_manifest_mission){pr_xstrdup(f[1]), pr_xstrdup(f[2]), pr_xstrdup(f[3])};
        return 0;
    }
    if (!strcmp(d, "platform")) {
        if (n != 5 || !source_path_ok(f[2]) || strcmp(f[3], "--group") || !*f[4])
            return pr_err_set(err, file, line, 0, "platform",
                              "write \"platform<TAB>ID<TAB>README-PATH<TAB>--group<TAB>TITLE\" "
                              "(TITLE: the README's environment group that describes the "
                              "machine, as import-env names it)");
        if (name_ok(file, line, d, f[1], err) < 0) /* data/platforms/ID.json */
            return -1;
        for (size_t i = 0; i < m->nplatforms; i++)
            if (!strcmp(m->platforms[i].id, f[1]))
                return pr_err_set(err, file, line, 0, "platform",
                                  "%s is already line %d's platform", f[1], m->platforms[i].line);
        m->platforms = pr_xrealloc(m->platforms, (m->nplatforms + 1) * sizeof *m->platforms);
        m->platforms[m->nplatforms++] =
            (import_manifest_platform){line, pr_xstrdup(f[1]), pr_xstrdup(f[2]), pr_xstrdup(f[4])};
        return 0;
    }
    int is_env = !strcmp(d, "env");
    if (n < 3 || !source_path_ok(f[2]) || (n - 3) % 2)
        return pr_err_set(err, file, line, 0, d,
                          "write \"%s<TAB>ID<TAB>README-PATH\" then option and value pairs", d);
    /* The ID names data/published/ID.json or data/environments/ID.json. */
    if (name_ok(file, line, d, f[1], err) < 0)
        return -1;
    for (size_t i = 3; i < n; i += 2)
        if (readme_opt_ok(file, line, d, is_env ? RO_ENV : RO_TABLE, f[i], err) < 0)
            return -1;
    if (!is_env && m->published_path) {
        char *id = import_manifest_typed_published_id(file);
        int clash = !strcmp(id, f[1]);
        free(id);
        if (clash)
            return typed_file_clash(file, line, f[1], err);
    }
    import_manifest_readme r = {line, is_env, pr_xstrdup(f[1]), pr_xstrdup(f[2]), NULL, n - 3};
    r.opts = pr_xcalloc(r.nopts + 1, sizeof *r.opts);
    for (size_t i = 0; i < r.nopts; i++)
        r.opts[i] = pr_xstrdup(f[3 + i]);
    m->readmes = pr_xrealloc(m->readmes, (m->nreadmes + 1) * sizeof *m->readmes);
    m->readmes[m->nreadmes++] = r;
    return 0;
}

/* A case seen: the first line of its run set (import_manifest_case.first_of_run), and
 * a duplicate (run, case) refused naming both lines.  seen maps "RUN/CASE"
 * to its line, runs holds the run names: Jansson objects are hash tables,
 * so a 10^5-line manifest is checked in linear time (a pairwise check took
 * 195 s before its first error).  Both names are safe names: no '/'. */
static int case_seen(const char *file, import_manifest_case *c, json_t *seen, json_t *runs,
                     pr_err *err)
{
    char *key = pr_xasprintf("%s/%s", c->run, c->case_name);
    json_t *before = json_object_get(seen, key);
    int rc = 0;
    if (before)
        rc = pr_err_set(err, file, c->line, 0, "case", "\"%s\" is already line %d's case in run %s",
                        c->case_name, (int)json_integer_value(before), c->run);
    else
        json_object_set_new(seen, key, json_integer(c->line));
    free(key);
    c->first_of_run = !json_object_get(runs, c->run);
    if (c->first_of_run)
        json_object_set_new(runs, c->run, json_true());
    return rc;
}

int import_manifest_read(const char *file, import_manifest_t *m, pr_err *err)
{
    pr_buf text;
    pr_buf_init(&text);
    memset(m, 0, sizeof *m);
    m->file = pr_xstrdup(file);
    json_t *seen = json_object(), *runs = json_object();
    size_t cap = 0;
    int rc = -1, line = 0;
    if (pr_fileio_read_file(file, &text, err) < 0)
        goto out;
    /* Lines by length, not by NUL: a NUL byte is refused naming its line
     * (it used to end the manifest there, silently). */
    char *p = text.data ? text.data : "", *end = p + text.len;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        line++;
        p[len] = '\0';
        if (len && p[len - 1] == '\r')
            p[--len] = '\0';
        if (line_bytes_ok(file, line, (const unsigned char *)p, len, err) < 0)
            goto out;
        if (len && *p != '#') {
            char **f;
            size_t n = split_tabs(p, &f);
            int r;
            if (!strcmp(f[0], "source") || !strcmp(f[0], "table") || !strcmp(f[0], "env") ||
                !strcmp(f[0], "mission") || !strcmp(f[0], "published") || !strcmp(f[0], "platform"))
                r = read_directive(file, line, f, n, m, err);
            else {
                if (m->ncases == cap) {
                    cap = cap ? 2 * cap : 64;
                    m->cases = pr_xrealloc(m->cases, cap * sizeof *m->cases);
                }
                r = read_case(file, line, f, n, &m->cases[m->ncases], err);
                if (r == 0)
                    m->cases[m->ncases++].pub = m->npubs ? m->npubs - 1 : 0;
                if (r == 0)
                    r = case_seen(file, &m->cases[m->ncases - 1], seen, runs, err);
            }
            free(f);
            if (r < 0)
                goto out;
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    if (!m->ncases) {
        pr_err_set(err, file, 0, 0, NULL, "no log lines");
        goto out;
    }
    for (size_t i = 0; i < m->ncases; i++)
        if (!m->cases[i].nlogs && !m->npubs) {
            pr_err_set(err, file, m->cases[i].line, 0, "figure",
                       "a figure with no log is carried on its published page: give a "
                       "\"published\" line");
            goto out;
        }
    rc = 0;
out:
    json_decref(seen);
    json_decref(runs);
    pr_buf_free(&text);
    return rc;
}

static void case_free(import_manifest_case *c)
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

void import_manifest_free(import_manifest_t *m)
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
    for (size_t i = 0; i < m->nplatforms; i++) {
        free(m->platforms[i].id);
        free(m->platforms[i].path);
        free(m->platforms[i].group);
    }
    free(m->platforms);
    free(m->file);
    free(m->repo);
    free(m->commit);
    free(m->published_path);
    free(m->published_title);
    for (size_t i = 0; i < m->npubs; i++) {
        free(m->pubs[i].path);
        free(m->pubs[i].title);
    }
    free(m->pubs);
    memset(m, 0, sizeof *m);
}
