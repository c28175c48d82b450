/* import_pub: the published side of an import (docs/import.md): the typed
 * figures as data/published/import-MANIFEST.json, and the figures a line
 * takes from a table cell ("@ID"). */
#include "import_pub.h"

#include "import_typed.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"

/* o's string at key, "" when none. */
static const char *str_or_empty(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* c's typed figure as the published file's "throughput": an integer when
 * printed without a decimal point, else a real; checked in full (all of it
 * a number, finite, in range), as gen checks what it loads. */
int import_pub_figure_json(const import_manifest_t *m, const import_manifest_case *c, json_t **out,
                           pr_err *err)
{
    const char *f = c->figure;
    char *end = NULL;
    errno = 0;
    if (!strchr(f, '.')) {
        long long v = strtoll(f, &end, 10);
        if (end != f && !*end && errno != ERANGE && v <= (1LL << 53)) {
            *out = json_integer(v);
            return 0;
        }
    } else {
        double v = strtod(f, &end);
        if (end != f && !*end && errno != ERANGE && isfinite(v)) {
            *out = json_real(v);
            return 0;
        }
    }
    return pr_err_set(err, m->file, c->line, 0, "figure",
                      "\"%s\": not a number in range (an integer up to 2^53, or a decimal)", f);
}

/* The line of the source's file path (under from) that prints the figure
 * printed as a number of its own ("19.428", not inside "119.4281"), so that
 * the table links to where its figure stands; 0 when the file is absent or
 * does not print it (the link then names the file alone). */
static int printed_line(const char *from, const char *path, const char *printed)
{
    char *full = pr_xasprintf("%s/%s", from, path);
    pr_buf b = PR_BUF_INIT;
    pr_err ignored;
    int line = 0;
    size_t n = strlen(printed);
    if (pr_fileio_read_file_max(full, (size_t)4 << 20, &b, &ignored) == 0 && b.data) {
        const char *t = pr_buf_cstr(&b);
        for (const char *p = strstr(t, printed); p && !line; p = strstr(p + 1, printed)) {
            char before = p > t ? p[-1] : ' ', after = p[n];
            int next_digit = after == '.' && p[n + 1] >= '0' && p[n + 1] <= '9';
            if ((before >= '0' && before <= '9') || before == '.' ||
                (after >= '0' && after <= '9') || next_digit)
                continue;
            line = 1;
            for (const char *q = t; q < p; q++)
                line += *q == '\n';
        }
    }
    pr_buf_free(&b);
    free(full);
    return line;
}

/* The typed figures, as a published file of the page the manifest's
 * "published" line names: one table per model, framework, precision, batch
 * size, unit and platform, in manifest order. */
int import_pub_write_typed_published(const import_manifest_t *m, const import_run_opts *o,
                                     const char *out_root, pr_err *err)
{
    json_t *file = json_object(), *tables = json_array();
    size_t *table_pub = NULL; /* the published line of each table */
    int rc = -1;
    char *text = NULL, *path = NULL;
    json_object_set_new(file, "perfrepro", json_integer(1));
    json_object_set_new(file, "label", json_string(m->repo));
    /* The file-level title names the manifest (import_typed.h): gen never
     * shows it, every table having its own source. */
    char *marker = import_typed_marker(m, o->data);
    json_object_set_new(file, "source", json_pack("{s:s,s:s}", "title", marker, "repo", m->repo));
    free(marker);
    for (size_t i = 0; i < m->ncases; i++) {
        const import_manifest_case *c = &m->cases[i];
        if (!c->figure || c->figure_table)
            continue;
        json_t *t = NULL, *row;
        size_t k, kt = 0;
        const import_manifest_published *pub = &m->pubs[c->pub];
        json_array_foreach(tables, k, row)
        {
            if (!strcmp(str_or_empty(row, "model"), c->model) &&
                !strcmp(str_or_empty(row, "framework"), c->framework) &&
                !strcmp(str_or_empty(row, "precision"), c->precision) &&
                !strcmp(str_or_empty(row, "unit"), c->unit) &&
                !strcmp(str_or_empty(row, "platform"), c->platform) &&
                json_integer_value(json_object_get(row, "batch_size")) == c->batch_size) {
                t = row;
                kt = k;
            }
        }
        if (t && table_pub[kt] != c->pub) {
            /* gen keeps one table per configuration and source label: the
             * figures of one table are printed on one page. */
            pr_err_set(err, m->file, c->line, 0, "figure",
                       "%s: %s %s %s BS=%d %s on %s has figures on two published pages (%s, "
                       "and %s above this line): one table of figures is printed on one page",
                       c->figure, c->model, c->framework, c->precision, c->batch_size, c->unit,
                       c->platform, m->pubs[table_pub[kt]].path, pub->path);
            goto out;
        }
        if (!t) {
            /* Linked to the line that prints the table's first figure. */
            int line = printed_line(o->from, pub->path, c->figure);
            char *url = line ? pr_xasprintf("https://github.com/%s/blob/%s/%s#L%d", m->repo,
                                            m->commit, pub->path, line)
                             : pr_xasprintf("https://github.com/%s/blob/%s/%s", m->repo, m->commit,
                                            pub->path);
            t = json_pack("{s:s,s:s,s:s,s:i,s:s,s:s,s:{s:s,s:s,s:s,s:s,s:s},s:[]}", "model",
                          c->model, "framework", c->framework, "precision", c->precision,
                          "batch_size", c->batch_size, "unit", c->unit, "platform", c->platform,
                          "source", "title", pub->title, "repo", m->repo, "path", pub->path,
                          "commit", m->commit, "url", url, "rows");
            if (line)
                json_object_set_new(json_object_get(t, "source"), "line", json_integer(line));
            free(url);
            table_pub = pr_xrealloc(table_pub, (json_array_size(tables) + 1) * sizeof *table_pub);
            table_pub[json_array_size(tables)] = c->pub;
            json_array_append_new(tables, t);
        }
        int nodes;
        if (import_run_case_nodes(m, c, o, &nodes, err) < 0)
            goto out;
        if (!c->nlogs)
            printf("  %-40s %dx%d GPUs  bs %-5d %-5s  published only: figure %s, no log\n",
                   c->case_name, nodes, c->gpus, c->batch_size, c->precision, c->figure);
        /* One figure per configuration: gen refuses a table with two rows of
         * one GPU count (two run sets of one configuration). */
        json_array_foreach(json_object_get(t, "rows"), k,
                           row) if (json_integer_value(json_object_get(row, "gpus")) == c->gpus &&
                                    json_integer_value(json_object_get(row, "nodes")) == nodes)
        {
            pr_err_set(err, m->file, c->line, 0, "figure",
                       "%s: a second typed figure for %s %s %s BS=%d %s, %dx%d GPUs on %s "
                       "(first: \"%s\"): one configuration is printed once; give \"-\" "
                       "on all lines of it but one",
                       c->figure, c->model, c->framework, c->precision, c->batch_size, c->unit,
                       nodes, c->gpus, c->platform,
                       json_string_value(json_object_get(row, "printed")));
            goto out;
        }
        json_t *thr = NULL;
        if (import_pub_figure_json(m, c, &thr, err) < 0)
            goto out;
        json_array_append_new(json_object_get(t, "rows"),
                              json_pack("{s:i,s:i,s:i,s:o,s:s}", "nodes", nodes, "gpus", c->gpus,
                                        "gpus_per_node", c->gpus / nodes, "throughput", thr,
                                        "printed", c->figure));
    }
    json_object_set_new(file, "tables", tables);
    tables = NULL;
    text = json_dumps(file, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
    const char *base = strrchr(m->file, '/') ? strrchr(m->file, '/') + 1 : m->file;
    size_t blen = strcspn(base, ".");
    printf("typed figures -> %s/published/import-%.*s.json\n", o->data, (int)blen, base);
    path = pr_xasprintf("%s/published/import-%.*s.json", out_root, (int)blen, base);
    pr_buf b;
    pr_buf_init(&b);
    pr_buf_puts(&b, text);
    pr_buf_putc(&b, '\n');
    rc = pr_fileio_write_if_changed(path, b.data, b.len, err);
    pr_buf_free(&b);
out:
    free(table_pub);
    json_decref(tables);
    json_decref(file);
    free(text);
    free(path);
    return rc;
}

/* A table's key as a string, "" when none (the file's when the table has none). */
static const char *table_str(const json_t *file, const json_t *t, const char *key)
{
    const char *v = json_string_value(json_object_get(t, key));
    if (!v)
        v = json_string_value(json_object_get(file, key));
    return v ? v : "";
}

/* The id of the precision class mode belongs to in classes (the data
 * folder's precision-classes.json, NULL when it has none): mode itself when
 * no class names it (each mode its own class, as gen reads it). */
static const char *class_of(const json_t *classes, const char *mode)
{
    size_t i, j;
    json_t *k, *m;
    json_array_foreach(json_object_get(classes, "classes"), i, k)
        json_array_foreach(json_object_get(k, "modes"), j,
                           m) if (json_is_string(m) && !strcmp(json_string_value(m), mode) &&
                                  json_is_string(json_object_get(
                                      k, "id"))) return json_string_value(json_object_get(k, "id"));
    return mode;
}

/* Sets c->figure to what the table file pubdir/ID.json (written by the
 * manifest's table lines) prints for c: its table of c's model, framework,
 * batch size, unit and platform in c's precision; else the only such table
 * of another mode of c's precision class (a column labelled AMP whose logs
 * ran FP16: data/precision-classes.json); else the only such table of any
 * other mode.  Two candidates, or none with a row of c's nodes and GPUs,
 * is an error naming the tables that differ from c in precision alone. */
int import_pub_cell_figure(const import_manifest_t *m, import_manifest_case *c, const char *pubdir,
                           const import_run_opts *o, pr_err *err)
{
    char *path = pr_xasprintf("%s/%s.json", pubdir, c->figure_table);
    char *classes_path = pr_xasprintf("%s/precision-classes.json", o->data);
    json_error_t je;
    json_t *file = json_load_file(path, 0, &je);
    json_t *classes = json_load_file(classes_path, 0, &je);
    const json_t *exact = NULL, *other = NULL, *kin = NULL;
    size_t i, nother = 0, nkin = 0;
    json_t *t, *row;
    pr_buf cands = PR_BUF_INIT;
    int nodes, rc = -1;
    if (import_run_case_nodes(m, c, o, &nodes, err) < 0)
        goto out;
    if (!file) {
        pr_err_set(err, m->file, c->line, 0, "figure",
                   "@%s: no data/published/%s.json (no table line writes it?)", c->figure_table,
                   c->figure_table);
        goto out;
    }
    const char *own_class = class_of(classes, c->precision);
    json_array_foreach(json_object_get(file, "tables"), i, t)
    {
        if (strcmp(table_str(file, t, "model"), c->model) ||
            strcmp(table_str(file, t, "framework"), c->framework) ||
            strcmp(table_str(file, t, "unit"), c->unit) ||
            strcmp(table_str(file, t, "platform"), c->platform) ||
            json_integer_value(json_object_get(t, "batch_size")) != c->batch_size)
            continue;
        const char *prec = table_str(file, t, "precision");
        if (!strcmp(prec, c->precision)) {
            exact = t;
            continue;
        }
        other = t;
        nother++;
        const char *k = class_of(classes, prec);
        int same = !strcmp(k, own_class);
        if (same) {
            kin = t;
            nkin++;
        }
        pr_buf_printf(&cands, "%s table %zu (%s, class %s%s)", nother > 1 ? "," : "", i + 1, prec,
                      k, same ? ", the log's class" : "");
    }
    const json_t *table = exact ? exact : nkin == 1 ? kin : !nkin && nother == 1 ? other : NULL;
    if (!table && nother) {
        pr_err_set(err, m->file, c->line, 0, "figure",
                   "@%s: no %s table for %s %s BS=%d %s on %s in data/published/%s.json, and "
                   "%zu of another mode %s:%s; type the figure, or import the column as %s",
                   c->figure_table, c->precision, c->model, c->framework, c->batch_size, c->unit,
                   c->platform, c->figure_table, nkin ? nkin : nother,
                   nkin ? "of its precision class qualify" : "qualify", pr_buf_cstr(&cands),
                   c->precision);
        goto out;
    }
    json_array_foreach(json_object_get(table, "rows"), i, row)
    {
        const char *printed = json_string_value(json_object_get(row, "printed"));
        if (json_integer_value(json_object_get(row, "gpus")) == c->gpus &&
            json_integer_value(json_object_get(row, "nodes")) == nodes && printed) {
            c->figure = pr_xstrdup(printed);
            rc = 0;
            goto out;
        }
    }
    pr_err_set(
        err, m->file, c->line, 0, "figure",
        "@%s: no figure for %s %s %s BS=%d %s, %dx%d GPUs on %s in data/published/%s.json%s%s%s",
        c->figure_table, c->model, c->framework, c->precision, c->batch_size, c->unit, nodes,
        c->gpus, c->platform, c->figure_table,
        table && table != exact ? " (its table of another mode:" : "",
        table && table != exact ? pr_buf_cstr(&cands) : "", table && table != exact ? ")" : "");
out:
    pr_buf_free(&cands);
    json_decref(classes);
    json_decref(file);
    free(classes_path);
    free(path);
    return rc;
}
