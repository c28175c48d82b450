/* published: reading and checking published-figures files (data/published/),
 * each table with its source, platform and rows.  Part of data loading
 * (data.h): data_load calls data_load_published for every file. */
#include "data.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "jdoc.h"
#include "record.h"
#include "stats.h"
#include "suite.h"

static const char *const pub_keys[] = {"perfrepro", "label",  "source", "environment",
                                       "platform",  "tables", NULL};
static const char *const source_keys[] = {"title",  "url",  "repo", "path",
                                          "commit", "line", "date", NULL};
static const char *const table_keys[] = {
    "model",     "model_title", "framework",   "framework_title",
    "precision", "batch_size",  "batch_label", "unit",
    "variant",   "note",        "primary",     "platform",
    "source",    "rows",        "environment", "environment_lines",
    NULL};
static const char *const row_keys[] = {"nodes",    "gpus",  "gpus_per_node", "throughput",
                                       "printed",  "state", "speedup",       "time_to_train_s",
                                       "accuracy", NULL};
static const char *const pub_states[] = {"TODO", "OOM", "failed", NULL};

static char *opt_dup(const pr_jdoc_jcur *c, const char *key, const char *fallback, pr_err *err,
                     int *rc)
{
    const char *s = NULL;
    int r = pr_jdoc_jstr(c, key, 0, &s, err);
    if (r < 0)
        *rc = -1;
    return pr_xstrdup(r == 1 ? s : fallback);
}

int data_pub_decimals(const pr_pub_row *row)
{
    int d = row->printed ? pr_stats_printed_decimals(row->printed) : -1;
    return d >= 0 ? d : pr_stats_shortest_decimals(row->value);
}

void data_pub_table_free(pr_pub_table *t)
{
    char *strs[] = {t->file,        t->label,       t->source_title,  t->source_url,
                    t->source_repo, t->source_path, t->source_commit, t->date,
                    t->model,       t->model_title, t->framework,     t->framework_title,
                    t->batch_label, t->unit};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
        free(strs[i]);
    pr_bitext_free(&t->variant);
    pr_bitext_free(&t->note);
    json_decref(t->environment);
    json_decref(t->environment_lines);
    for (size_t i = 0; t->rows && i < t->nrows; i++)
        free(t->rows[i].printed);
    free(t->rows);
}

/* Reads a source object into t, inheriting the file-level source for keys
 * the table does not set. */
static int read_source(const pr_jdoc_jcur *src, pr_pub_table *t, pr_err *err)
{
    const char *s;
    long long line;
    int rc;
    if (pr_jdoc_jobject(src, source_keys, err) < 0)
        return -1;
    struct {
        const char *key;
        char **dst;
    } f[] = {{"title", &t->source_title}, {"url", &t->source_url},       {"repo", &t->source_repo},
             {"path", &t->source_path},   {"commit", &t->source_commit}, {"date", &t->date}};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
        if ((rc = pr_jdoc_jstr(src, f[i].key, 0, &s, err)) < 0)
            return -1;
        if (rc) {
            free(*f[i].dst);
            *f[i].dst = pr_xstrdup(s);
        }
    }
    if (t->source_commit && pr_jdoc_jchild(src, "commit").v &&
        !pr_record_is_commit_id(t->source_commit)) {
        pr_jdoc_jcur cm = pr_jdoc_jchild(src, "commit");
        return pr_jdoc_jfail(&cm, err, "\"%.80s\" is not a commit id (7 to 40 hex digits)",
                             t->source_commit);
    }
    if ((rc = pr_jdoc_jint(src, "line", 0, 1, 1 << 30, &line, err)) < 0)
        return -1;
    if (rc)
        t->source_line = (int)line;
    if (t->source_url) {
        pr_jdoc_jcur u = pr_jdoc_jchild(src, "url");
        if (u.v && strncmp(t->source_url, "https://", 8) != 0 &&
            strncmp(t->source_url, "http://", 7) != 0)
            return pr_jdoc_jfail(&u, err, "expected an http(s):// URL");
    }
    return 0;
}

/* A stated environment: each value a string as the source printed it, or
 * {"zh", "en"} where the words are perfrepro's ("× 8 per node"), each in
 * its page's language. */
static int check_environment(pr_jdoc_jcur *env, pr_err *err)
{
    const char *k;
    json_t *val;
    json_object_foreach(env->v, k, val)
    {
        int bitext = json_is_object(val) && json_object_size(val) == 2 &&
                     json_is_string(json_object_get(val, "zh")) &&
                     json_is_string(json_object_get(val, "en"));
        if (!json_is_string(val) && !bitext) {
            pr_jdoc_jcur it = pr_jdoc_jchild(env, k);
            return pr_jdoc_jfail(&it, err, "expected a string or {\"zh\": ..., \"en\": ...}");
        }
    }
    return 0;
}

/* The table's "environment_lines" (optional): for an item of its
 * environment, the line of the source that states it (a README's "... in
 * the pytorch-21.03 NGC container"), so that the page links the item to
 * it.  Each key one of the environment's, each line an integer from 1. */
static int environment_lines(const pr_jdoc_jcur *c, pr_pub_table *t, pr_err *err)
{
    pr_jdoc_jcur lines;
    int has = pr_jdoc_jobj(c, "environment_lines", 0, &lines, err);
    if (has <= 0)
        return has;
    const char *k;
    json_t *val;
    json_object_foreach(lines.v, k, val)
    {
        pr_jdoc_jcur it = pr_jdoc_jchild(&lines, k);
        if (!json_is_integer(val) || json_integer_value(val) < 1 ||
            json_integer_value(val) > INT_MAX)
            return pr_jdoc_jfail(&it, err, "expected a line number (an integer from 1)");
        if (!json_object_get(t->environment, k))
            return pr_jdoc_jfail(&it, err, "\"%s\" is no item of the table's \"environment\"", k);
    }
    t->environment_lines = json_incref(lines.v);
    return 0;
}

/* A row's "printed" must be the printed form of its throughput v: digits
 * with at most one "." (pr_stats_printed_decimals), whose nearest double is
 * v, and v printed at its decimals gives it back (pr_stats_printed_match):
 * the text and the number say the same figure.  Returns 1, or -1 with err
 * set at the "printed" field of row c. */
static int check_printed(const pr_jdoc_jcur *c, const char *printed, int has_value, double v,
                         pr_err *err)
{
    pr_jdoc_jcur pc = pr_jdoc_jchild(c, "printed");
    if (!has_value || pr_stats_printed_decimals(printed) < 0)
        return pr_jdoc_jfail(&pc, err, "\"%s\" is not the printed form of the row's throughput",
                             printed);
    char *end;
    errno = 0;
    double pv = strtod(printed, &end);
    if (errno || *end || pv != v || pr_stats_printed_match(v, printed) != PR_PRINTED_ROUNDED)
        return pr_jdoc_jfail(
            &pc, err,
            "\"%s\" is not the row's throughput (%.17g): the printed text must read "
            "as the stored number and the number print as the text",
            printed, v);
    return 1;
}

static int read_row(const pr_jdoc_jcur *c, pr_pub_row *r, pr_err *err)
{
    long long v;
    int rc;
    memset(r, 0, sizeof *r);
    r->time_to_train_s = NAN;
    r->accuracy = NAN;
    if (pr_jdoc_jobject(c, row_keys, err) < 0 || pr_jdoc_jint(c, "nodes", 1, 1, 65536, &v, err) < 0)
        return -1;
    r->nodes = (int)v;
    if (pr_jdoc_jint(c, "gpus", 1, 1, 1 << 20, &v, err) < 0)
        return -1;
    r->gpus = (int)v;
    if ((rc = pr_jdoc_jint(c, "gpus_per_node", 0, 1, 1024, &v, err)) < 0)
        return -1;
    if (rc) {
        r->gpus_per_node = (int)v;
        if (r->gpus_per_node * r->nodes != r->gpus) {
            pr_jdoc_jcur g = pr_jdoc_jchild(c, "gpus");
            return pr_jdoc_jfail(&g, err, "%d is not nodes (%d) x gpus_per_node (%d)", r->gpus,
                                 r->nodes, r->gpus_per_node);
        }
    } else if (r->gpus % r->nodes != 0) {
        pr_jdoc_jcur g = pr_jdoc_jchild(c, "gpus");
        return pr_jdoc_jfail(&g, err, "%d GPUs do not divide over %d nodes", r->gpus, r->nodes);
    } else {
        r->gpus_per_node = r->gpus / r->nodes;
    }
    if ((rc = pr_jdoc_jnum(c, "throughput", 0, 0, &r->value, err)) < 0)
        return -1;
    r->has_value = rc;
    if (rc && r->value <= 0) {
        pr_jdoc_jcur t = pr_jdoc_jchild(c, "throughput");
        return pr_jdoc_jfail(&t, err, "a throughput must be > 0 (a failed case is a state, not 0)");
    }
    /* A whole number in the file is what gen reads only when a double holds
     * it exactly (9007199254740993 would be read as ...992). */
    pr_jdoc_jcur tc = pr_jdoc_jchild(c, "throughput");
    if (rc && json_is_integer(tc.v) &&
        !(r->value < 0x1p63 && (json_int_t)r->value == json_integer_value(tc.v)))
        return pr_jdoc_jfail(&tc, err,
                             "%" JSON_INTEGER_FORMAT " is not kept exactly as a number (it "
                             "is read as %.17g)",
                             json_integer_value(tc.v), r->value);
    /* The figure as its source printed it (perfrepro-gen import-table keeps
     * it): it must be the same number, so the text cannot drift from it. */
    const char *printed;
    if ((rc = pr_jdoc_jstr(c, "printed", 0, &printed, err)) < 0)
        return -1;
    if (rc && (rc = check_printed(c, printed, r->has_value, r->value, err)) < 0)
        return -1;
    if (rc)
        r->printed = pr_xstrdup(printed);
    if ((rc = pr_jdoc_jenum(c, "state", 0, pub_states, &r->state, err)) < 0)
        return -1;
    if (rc == r->has_value)
        return pr_jdoc_jfail(c, err, "a row needs exactly one of \"throughput\" or \"state\"");
    if ((rc = pr_jdoc_jnum(c, "speedup", 0, 0, &r->speedup, err)) < 0)
        return -1;
    r->has_speedup = rc;
    if (pr_jdoc_jnum(c, "time_to_train_s", 0, 0, &r->time_to_train_s, err) < 0 ||
        pr_jdoc_jnum(c, "accuracy", 0, 0, &r->accuracy, err) < 0)
        return -1;
    if (!isnan(r->accuracy) && r->accuracy > 100) {
        pr_jdoc_jcur a = pr_jdoc_jchild(c, "accuracy");
        return pr_jdoc_jfail(&a, err, "accuracy is a percentage (0 to 100)");
    }
    return 0;
}

static int read_table(pr_dataset *d, const pr_jdoc_jcur *file_root, const pr_jdoc_jcur *c,
                      int index, pr_pub_table *t, pr_err *err)
{
    int rc = 0;
    long long v;
    pr_jdoc_jcur src, rows;
    t->index = index;
    t->source_line = 0;
    if (pr_jdoc_jobject(c, table_keys, err) < 0)
        return -1;
    t->label = opt_dup(file_root, "label", "published", err, &rc);
    if (pr_jdoc_jobj(file_root, "source", 1, &src, err) < 0 || read_source(&src, t, err) < 0)
        return -1;
    int has = pr_jdoc_jobj(c, "source", 0, &src, err);
    if (has < 0 || (has && read_source(&src, t, err) < 0))
        return -1;
    const char *s;
    if (pr_jdoc_jstr(c, "model", 1, &s, err) < 0)
        return -1;
    t->model = pr_xstrdup(s);
    if (!pr_suite_name_is_safe(s)) {
        pr_jdoc_jcur m = pr_jdoc_jchild(c, "model");
        return pr_jdoc_jfail(&m, err, "\"%s\" is not a safe folder name ([A-Za-z0-9._+-])", s);
    }
    if (pr_jdoc_jstr(c, "framework", 1, &s, err) < 0)
        return -1;
    t->framework = pr_xstrdup(s);
    if (!pr_suite_name_is_safe(s)) {
        pr_jdoc_jcur m = pr_jdoc_jchild(c, "framework");
        return pr_jdoc_jfail(&m, err, "\"%s\" is not a safe folder name ([A-Za-z0-9._+-])", s);
    }
    t->model_title = opt_dup(c, "model_title", t->model, err, &rc);
    t->framework_title = opt_dup(c, "framework_title", t->framework, err, &rc);
    if (rc < 0 || pr_jdoc_jenum(c, "precision", 1, pr_precisions, &t->precision, err) < 0 ||
        pr_jdoc_jint(c, "batch_size", 1, 1, 1 << 24, &v, err) < 0)
        return -1;
    t->batch_size = (int)v;
    /* Hardening: a batch_label, variant or note that is not a string was
     * silently dropped (the -1 was taken for "absent"); it is an error. */
    if ((rc = pr_jdoc_jstr(c, "batch_label", 0, &s, err)) < 0)
        return -1;
    if (rc == 1)
        t->batch_label = pr_xstrdup(s);
    if (pr_jdoc_jstr(c, "unit", 1, &s, err) < 0)
        return -1;
    t->unit = pr_xstrdup(s);
    if (pr_bitext_jbitext(c, "variant", 0, &t->variant, err) < 0 ||
        pr_bitext_jbitext(c, "note", 0, &t->note, err) < 0)
        return -1;
    if (pr_jdoc_jbool(c, "primary", 0, &t->primary, err) < 0)
        return -1;
    /* The table's platform, else the file's: one of them must say it. */
    int unstated = 0;
    if ((has = platform_ref(&d->platforms, c, "platform", &t->platform, &unstated, err)) < 0 ||
        (!has && (has = platform_ref(&d->platforms, file_root, "platform", &t->platform, &unstated,
                                     err)) < 0))
        return -1;
    if (!has)
        return pr_jdoc_jfail(c, err,
                             "no \"platform\": name the machine of these figures (a file of "
                             "data/platforms/, here or at the file's top), or \"%s\" when the "
                             "source does not state it",
                             PR_PLATFORM_UNSTATED);
    /* The table's own environment (a source stating one per table: a
     * README revision's container and system), else the file's. */
    pr_jdoc_jcur env;
    if ((has = pr_jdoc_jobj(c, "environment", 0, &env, err)) < 0 ||
        (has && check_environment(&env, err) < 0) ||
        (!has && (has = pr_jdoc_jobj(file_root, "environment", 0, &env, err)) < 0))
        return -1;
    if (has)
        t->environment = json_incref(env.v);
    if (environment_lines(c, t, err) < 0)
        return -1;
    if (pr_jdoc_jarr(c, "rows", 1, 1, &rows, err) < 0)
        return -1;
    t->nrows = json_array_size(rows.v);
    t->rows = pr_xcalloc(t->nrows, sizeof *t->rows);
    for (size_t i = 0; i < t->nrows; i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&rows, i);
        if (read_row(&it, &t->rows[i], err) < 0)
            return -1;
        for (size_t j = 0; j < i; j++)
            if (t->rows[j].nodes == t->rows[i].nodes && t->rows[j].gpus == t->rows[i].gpus)
                return pr_jdoc_jfail(&it, err, "duplicate row for %d node(s), %d GPU(s)",
                                     t->rows[i].nodes, t->rows[i].gpus);
    }
    /* The same table twice (same source label, config, variant and platform). */
    for (size_t i = 0; i < d->npubs; i++) {
        pr_pub_table *o = &d->pubs[i];
        if (strcmp(o->model, t->model) == 0 && strcmp(o->framework, t->framework) == 0 &&
            strcmp(o->precision, t->precision) == 0 && o->batch_size == t->batch_size &&
            strcmp(o->label, t->label) == 0 && o->platform == t->platform &&
            strcmp(o->variant.en ? o->variant.en : "", t->variant.en ? t->variant.en : "") == 0 &&
            strcmp(o->batch_label ? o->batch_label : "", t->batch_label ? t->batch_label : "") == 0)
            return pr_jdoc_jfail(c, err, "duplicate published table (also %s, table %d)", o->file,
                                 o->index);
    }
    return 0;
}

/* Reads the tables of the parsed published-figures file doc (named path)
 * into d->pubs; doc stays the caller's. */
static int load_doc(pr_dataset *d, const char *path, const pr_jdoc *doc, pr_err *err)
{
    int rc = -1;
    pr_jdoc_jcur root = pr_jdoc_root(doc), tables;
    long long v;
    if (pr_jdoc_jobject(&root, pub_keys, err) < 0 || pr_record_text_check(&root, err) < 0 ||
        pr_jdoc_jint(&root, "perfrepro", 1, 1, 1, &v, err) < 0 ||
        pr_jdoc_jarr(&root, "tables", 1, 1, &tables, err) < 0)
        goto out;
    pr_jdoc_jcur env;
    int has = pr_jdoc_jobj(&root, "environment", 0, &env, err);
    if (has < 0)
        goto out;
    if (has && check_environment(&env, err) < 0)
        goto out;
    for (size_t i = 0; i < json_array_size(tables.v); i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&tables, i);
        pr_pub_table t;
        memset(&t, 0, sizeof t);
        t.file = pr_xstrdup(path);
        if (read_table(d, &root, &it, (int)i, &t, err) < 0) {
            data_pub_table_free(&t);
            goto out;
        }
        d->pubs = pr_xrealloc(d->pubs, (d->npubs + 1) * sizeof *d->pubs);
        d->pubs[d->npubs++] = t;
    }
    rc = 0;
out:
    return rc;
}

int data_load_published(pr_dataset *d, const char *path, pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    int rc = load_doc(d, path, doc, err);
    pr_jdoc_free(doc);
    return rc;
}

/* 1 when name is a ".json" file name (what the build loads from a folder). */
static int is_json_name(const char *name)
{
    size_t l = strlen(name);
    return l > 5 && strcmp(name + l - 5, ".json") == 0;
}

/* Loads the platforms of DATA/platforms/ *.json into d (none when the folder
 * is absent). */
static int load_platforms(pr_dataset *d, const char *data, pr_err *err)
{
    char *dir = pr_fileio_path_join(data, "platforms");
    char **names = NULL;
    int rc = -1;
    if (pr_fileio_is_dir(dir) && pr_fileio_list_dir(dir, &names, NULL, err) < 0)
        goto out;
    for (char **p = names; p && *p; p++) {
        char *path = pr_fileio_path_join(dir, *p);
        int r = is_json_name(*p) && pr_fileio_is_file(path)
                    ? platform_add_file(&d->platforms, path, err)
                    : 0;
        free(path);
        if (r < 0)
            goto out;
    }
    rc = 0;
out:
    pr_fileio_strv_free(names);
    free(dir);
    return rc;
}

int data_check_published(const char *path, const char *text, size_t len, pr_err *err)
{
    pr_dataset *d = pr_xcalloc(1, sizeof *d);
    char *dir = pr_fileio_path_dirname(path), *data = pr_fileio_path_dirname(dir);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *folder = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    char **names = NULL;
    pr_jdoc *doc = NULL;
    int rc = -1;
    d->dir = pr_xstrdup(data);
    if (load_platforms(d, data, err) < 0)
        goto out;
    /* The build loads every file of published/ (and of restated/) into one
     * list, where a table two files hold is an error: the others first. */
    if ((strcmp(folder, "published") == 0 || strcmp(folder, "restated") == 0) &&
        pr_fileio_is_dir(dir) && pr_fileio_list_dir(dir, &names, NULL, err) < 0)
        goto out;
    for (char **p = names; p && *p; p++) {
        if (!is_json_name(*p) || strcmp(*p, base) == 0)
            continue;
        char *other = pr_fileio_path_join(dir, *p);
        int r = pr_fileio_is_file(other) ? data_load_published(d, other, err) : 0;
        free(other);
        if (r < 0)
            goto out;
    }
    if (pr_jdoc_parse(path, text, len, &doc, err) < 0 || load_doc(d, path, doc, err) < 0)
        goto out;
    rc = 0;
out:
    pr_jdoc_free(doc);
    pr_fileio_strv_free(names);
    free(dir);
    free(data);
    data_free(d);
    return rc;
}
