#include "env_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/runset.h"
#include "3-tables/mdtable.h"
#include "3-tables/provenance.h"
#include "3-tables/view.h"
#include "base/md.h"
#include "fileio.h"
#include "fw_order.h"
#include "jdoc.h"
#include "logfacts_view.h"
#include "record.h"

/* ---------------------------------------------------------------- items */

/* Appends {label, value} (value escaped) unless value is empty; 1 when
 * appended. */
static int env_item(json_t *list, const lang *l, const char *key, const char *value)
{
    if (!value || !*value)
        return 0;
    pr_buf b = PR_BUF_INIT;
    md_text(&b, value);
    json_array_append_new(
        list, json_pack("{s:s,s:s}", "label", lang_str(l, key), "value", pr_buf_cstr(&b)));
    pr_buf_free(&b);
    return 1;
}

/* What env.json's runtime says the jobs loaded (measure/1-facts/cpurt.h): a line
 * per kind of library, the threads, and the libraries' settings. */
static void runtime_items(json_t *items, const lang *l, const json_t *rt, int *software)
{
    static const char *const kinds[] = {"blas", "lapack", "openmp", "onednn", NULL};
    pr_buf b = PR_BUF_INIT, unset = PR_BUF_INIT;
    for (const char *const *k = kinds; *k; k++) {
        json_t *lib;
        size_t i;
        json_array_foreach(json_object_get(rt, "libraries"), i, lib)
        {
            if (strcmp(pr_jdoc_json_str(lib, "kind"), *k) != 0)
                continue;
            if (b.len)
                pr_buf_puts(&b, ", ");
            pr_buf_puts(&b, pr_jdoc_json_str(lib, "file"));
        }
        char key[32];
        snprintf(key, sizeof key, "env_rt_%s", *k);
        *software |= env_item(items, l, key, pr_buf_cstr(&b));
        pr_buf_clear(&b);
    }
    json_t *threads = json_object_get(rt, "threads_max");
    if (json_is_integer(threads)) {
        pr_buf_printf(&b, "%lld", (long long)json_integer_value(threads));
        env_item(items, l, "env_rt_threads", pr_buf_cstr(&b));
        pr_buf_clear(&b);
    }
    const char *name;
    json_t *v;
    json_object_foreach(json_object_get(rt, "settings"), name, v)
    {
        pr_buf *to = json_is_string(v) ? &b : &unset;
        if (to->len)
            pr_buf_puts(to, ", ");
        pr_buf_puts(to, name);
        if (json_is_string(v))
            pr_buf_printf(to, "=%s", json_string_value(v));
    }
    if (unset.len) {
        if (b.len)
            pr_buf_puts(&b, "; ");
        pr_buf_puts(&b, lang_str(l, "env_rt_unset"));
        pr_buf_put(&b, unset.data, unset.len);
    }
    env_item(items, l, "env_rt_settings", pr_buf_cstr(&b));
    pr_buf_free(&b);
    pr_buf_free(&unset);
}

/* What a run's env.json says; *software set when it names any software. */
static json_t *run_items(const lang *l, const pr_run *run, int *software)
{
    json_t *items = json_array();
    json_t *host = json_object_get(run->env, "host");
    json_t *gpu = json_object_get(run->env, "gpu");
    json_t *fwk = json_object_get(run->env, "framework");
    pr_buf b = PR_BUF_INIT;
    if (json_is_object(gpu)) {
        pr_buf_puts(&b, pr_jdoc_json_str(gpu, "name") ? pr_jdoc_json_str(gpu, "name") : "?");
        if (json_is_integer(json_object_get(gpu, "count")))
            pr_buf_printf(&b, " × %lld",
                          (long long)json_integer_value(json_object_get(gpu, "count")));
        env_item(items, l, "env_gpu", pr_buf_cstr(&b));
        pr_buf_clear(&b);
        *software |= env_item(items, l, "env_driver", pr_jdoc_json_str(gpu, "driver"));
        *software |= env_item(items, l, "env_cuda", pr_jdoc_json_str(gpu, "cuda"));
        *software |= env_item(items, l, "env_cudnn", pr_jdoc_json_str(gpu, "cudnn"));
        *software |= env_item(items, l, "env_nccl", pr_jdoc_json_str(gpu, "nccl"));
    }
    if (json_is_object(host)) {
        if (pr_jdoc_json_str(host, "cpu_model")) {
            pr_buf_puts(&b, pr_jdoc_json_str(host, "cpu_model"));
            if (json_is_integer(json_object_get(host, "cpu_count")))
                pr_buf_printf(&b, " × %lld",
                              (long long)json_integer_value(json_object_get(host, "cpu_count")));
            env_item(items, l, "env_cpu", pr_buf_cstr(&b));
            pr_buf_clear(&b);
        }
        json_t *mem = json_object_get(host, "memory_gb");
        if (json_is_number(mem)) {
            pr_buf_printf(&b, "%.1f GB", json_number_value(mem));
            env_item(items, l, "env_memory", pr_buf_cstr(&b));
            pr_buf_clear(&b);
        }
        *software |= env_item(items, l, "env_os", pr_jdoc_json_str(host, "os"));
        *software |= env_item(items, l, "env_kernel", pr_jdoc_json_str(host, "kernel"));
        *software |= env_item(items, l, "env_compiler", pr_jdoc_json_str(host, "compiler"));
    }
    if (json_is_object(fwk) && pr_jdoc_json_str(fwk, "version")) {
        pr_buf_printf(&b, "%s %s",
                      pr_jdoc_json_str(fwk, "name") ? pr_jdoc_json_str(fwk, "name") : "",
                      pr_jdoc_json_str(fwk, "version"));
        *software |= env_item(items, l, "env_framework", pr_buf_cstr(&b));
        pr_buf_clear(&b);
    }
    if (json_is_object(json_object_get(run->env, "runtime")))
        runtime_items(items, l, json_object_get(run->env, "runtime"), software);
    env_item(items, l, "env_captured", pr_jdoc_json_str(run->env, "captured_at"));
    pr_buf_free(&b);
    return items;
}

/* ---------------------------------------------------------------- run sets */

/* The label of a source environment item's kind (srcenv.h): env_KIND in
 * l, every documented kind having one. */
static const char *kind_label(const lang *l, const char *kind)
{
    char key[40];
    snprintf(key, sizeof key, "env_%s", srcenv_kind_known(kind) ? kind : "other");
    return lang_str(l, key);
}

/* A value as its source printed it: text, or a code span where the page's
 * language is not the value's (Chinese printed on an English page). */
static void printed_value(const lang *l, const char *v, pr_buf *out)
{
    int ascii = 1;
    for (const unsigned char *p = (const unsigned char *)v; *p && ascii; p++)
        ascii = *p < 0x80;
    if (!ascii && strcmp(l->code, "zh") != 0)
        md_code_span(out, v);
    else
        md_text(out, v);
}

/* The items of run's declared environment groups, each as printed and
 * linked to its line in the source; *software set when any is. */
static json_t *runset_items(const lang *l, const pr_run *run, int *software)
{
    static const char *const hardware[] = {"gpu", "cpu", "memory", "network", "topology", NULL};
    json_t *items = json_array();
    pr_buf v = PR_BUF_INIT, at = PR_BUF_INIT;
    for (size_t g = 0; g < runset_env_count(run); g++) {
        const srcenv_file *f = runset_env_file(run, g);
        const srcenv_group *grp = runset_env_group(run, g);
        /* A data file's values (an MLPerf system description's JSON) are
         * literals, quoted as such in either language; a README's are
         * prose. */
        const char *fp = srcenv_file_path(f);
        size_t fl = strlen(fp);
        int literal = fl > 5 && strcmp(fp + fl - 5, ".json") == 0;
        for (size_t i = 0; i < srcenv_group_nitems(grp); i++) {
            const srcenv_item *it = srcenv_group_item(grp, i);
            const char *kind = srcenv_item_kind(it);
            char *link = srcenv_item_link(f, it);
            pr_buf_clear(&v);
            pr_buf_clear(&at);
            if (srcenv_item_end_line(it) > srcenv_item_line(it))
                pr_buf_printf(&at, "L%d–L%d", srcenv_item_line(it), srcenv_item_end_line(it));
            else
                pr_buf_printf(&at, "L%d", srcenv_item_line(it));
            if (strcmp(kind, "topology") == 0 || strcmp(kind, "text") == 0) {
                mdtable_link_url(&v, pr_buf_cstr(&at), link);
            } else if (literal) {
                if (strcmp(kind, "other") == 0 && srcenv_item_key(it)) {
                    md_code_span(&v, srcenv_item_key(it));
                    pr_buf_puts(&v, ": ");
                }
                md_code_span(&v, srcenv_item_value(it));
                pr_buf_puts(&v, " (");
                mdtable_link_url(&v, pr_buf_cstr(&at), link);
                pr_buf_puts(&v, ")");
            } else {
                if (strcmp(kind, "other") == 0 && srcenv_item_key(it)) {
                    printed_value(l, srcenv_item_key(it), &v);
                    pr_buf_puts(&v, ": ");
                }
                printed_value(l, srcenv_item_value(it), &v);
                pr_buf_puts(&v, " (");
                mdtable_link_url(&v, pr_buf_cstr(&at), link);
                pr_buf_puts(&v, ")");
            }
            json_array_append_new(items, json_pack("{s:s,s:s}", "label", kind_label(l, kind),
                                                   "value", pr_buf_cstr(&v)));
            *software |= !pr_record_str_in(kind, hardware) && strcmp(kind, "other") != 0;
            free(link);
        }
    }
    pr_buf_free(&v);
    pr_buf_free(&at);
    return items;
}

/* The keys of a stated environment (a suite's or a published file's), and
 * whether each is software. */
static const struct {
    const char *key, *label;
    int software;
} stated_keys[] = {
    {"gpu", "env_gpu", 0},     {"cpu", "env_cpu", 0},         {"memory", "env_memory", 0},
    {"os", "env_os", 1},       {"driver", "env_driver", 1},   {"cuda", "env_cuda", 1},
    {"cudnn", "env_cudnn", 1}, {"nccl", "env_nccl", 1},       {"framework", "env_framework", 1},
    {"image", "env_image", 1}, {"network", "env_network", 0}, {"nodes", "env_nodes", 0}};

/* env[key] in l's language: a string, or a {"zh", "en"} object's. */
static const char *stated_value(const lang *l, const json_t *env, const char *key)
{
    json_t *v = json_object_get(env, key);
    if (json_is_object(v))
        v = json_object_get(v, l->code);
    return json_string_value(v);
}

static json_t *stated_items(const lang *l, const json_t *env, int *software)
{
    json_t *items = json_array();
    for (size_t i = 0; env && i < sizeof stated_keys / sizeof *stated_keys; i++)
        if (env_item(items, l, stated_keys[i].label, stated_value(l, env, stated_keys[i].key)))
            *software |= stated_keys[i].software;
    return items;
}

/* What published table t states, each item linked to the line of its
 * source that states it where the data gives one (t's
 * "environment_lines"); *lined set when one is. */
static json_t *pub_items(const lang *l, const pr_pub_table *t, int *software, int *lined)
{
    json_t *items = json_array();
    pr_buf v = PR_BUF_INIT, at = PR_BUF_INIT, url = PR_BUF_INIT;
    for (size_t i = 0; i < sizeof stated_keys / sizeof *stated_keys; i++) {
        const char *value = stated_value(l, t->environment, stated_keys[i].key);
        if (!env_item(items, l, stated_keys[i].label, value))
            continue;
        *software |= stated_keys[i].software;
        json_int_t line =
            json_integer_value(json_object_get(t->environment_lines, stated_keys[i].key));
        if (line < 1 || !t->source_url)
            continue;
        json_t *item = json_array_get(items, json_array_size(items) - 1);
        pr_buf_clear(&v);
        pr_buf_clear(&at);
        pr_buf_clear(&url);
        pr_buf_puts(&v, json_string_value(json_object_get(item, "value")));
        pr_buf_printf(&at, "L%" JSON_INTEGER_FORMAT, line);
        pr_buf_put(&url, t->source_url, strcspn(t->source_url, "#"));
        pr_buf_printf(&url, "#L%" JSON_INTEGER_FORMAT, line);
        pr_buf_puts(&v, " (");
        mdtable_link_url(&v, pr_buf_cstr(&at), pr_buf_cstr(&url));
        pr_buf_puts(&v, ")");
        json_object_set_new(item, "value", json_string(pr_buf_cstr(&v)));
        *lined = 1;
    }
    pr_buf_free(&v);
    pr_buf_free(&at);
    pr_buf_free(&url);
    return items;
}

/* What the suite states (its environment, framework version and image). */
static json_t *suite_items(const lang *l, const rmodel_fw *f, int *software)
{
    const pr_suite *s = f->suite;
    json_t *items = stated_items(l, s->environment, software);
    if (s->framework_version && !pr_jdoc_json_str(s->environment, "framework")) {
        pr_buf v = PR_BUF_INIT;
        pr_buf_printf(&v, "%s %s", f->framework_title, s->framework_version);
        *software |= env_item(items, l, "env_framework", pr_buf_cstr(&v));
        pr_buf_free(&v);
    }
    if (s->image && !pr_jdoc_json_str(s->environment, "image"))
        *software |= env_item(items, l, "env_image", s->image);
    return items;
}

/* ---------------------------------------------------------------- sources */

/* Appends item (Markdown) to a list joined with the language's separator. */
static void list_add(const lang *l, pr_buf *list, const char *item)
{
    if (list->len)
        pr_buf_puts(list, lang_str(l, "list_sep"));
    pr_buf_puts(list, item);
}

static void add_source(json_t *sources, const char *head, json_t *items)
{
    json_array_append_new(sources, json_pack("{s:s,s:o}", "head", head, "items", items));
}

/* Items that every run set's README states alike on one platform (the same
 * label, value and line) are said once, after the run sets, naming them:
 * sources[] with "runset" set lose them to one new source. */
static void share_items(const lang *l, json_t *sources, pr_err *err)
{
    json_t *sets = json_array();
    size_t last = 0, i;
    json_t *src;
    json_array_foreach(sources, i, src) if (json_object_get(src, "runset"))
    {
        json_array_append(sets, src);
        last = i;
    }
    if (json_array_size(sets) < 2) {
        json_decref(sets);
        return;
    }
    json_t *common = json_array(), *item;
    size_t k;
    json_array_foreach(json_object_get(json_array_get(sets, 0), "items"), k, item)
    {
        int everywhere = 1;
        for (size_t j = 1; j < json_array_size(sets) && everywhere; j++) {
            json_t *other = json_object_get(json_array_get(sets, j), "items"), *o;
            size_t m;
            int found = 0;
            json_array_foreach(other, m, o) found |= json_equal(o, item);
            everywhere = found;
        }
        if (everywhere)
            json_array_append(common, item);
    }
    if (json_array_size(common)) {
        pr_buf titles = PR_BUF_INIT, head = PR_BUF_INIT;
        json_array_foreach(sets, i, src)
        {
            json_t *items = json_object_get(src, "items"), *kept = json_array(), *o;
            size_t m;
            json_array_foreach(items, m, o)
            {
                int shared = 0;
                json_t *c;
                size_t n;
                json_array_foreach(common, n, c) shared |= json_equal(c, o);
                if (!shared)
                    json_array_append(kept, o);
            }
            json_object_set_new(src, "items", kept);
            if (titles.len)
                pr_buf_puts(&titles, lang_str(l, "fwp_runset_sep"));
            /* Data text, escaped as the template's {{title}} escapes it:
             * the sentence pastes the list unescaped ({{{titles}}}). */
            pr_buf_puts(&titles, "“");
            md_text(&titles, json_string_value(json_object_get(src, "runset")));
            pr_buf_puts(&titles, "”");
        }
        json_t *v = json_pack("{s:s}", "titles", pr_buf_cstr(&titles));
        lang_fmt(l, "fwp_env_shared", v, &head, err);
        json_decref(v);
        json_array_insert_new(sources, last + 1,
                              json_pack("{s:s,s:o}", "head", pr_buf_cstr(&head), "items", common));
        pr_buf_free(&titles);
        pr_buf_free(&head);
    } else {
        json_decref(common);
    }
    json_decref(sets);
}

/* Each source's items as sub-items of its line ("\n  - label: value"):
 * one line each, so that no line runs to thousands of characters (issue
 * 34), each value still linked. */
static void inline_items(const lang *l, json_t *sources, pr_err *err)
{
    size_t i, k;
    json_t *src, *item;
    json_array_foreach(sources, i, src)
    {
        pr_buf line = PR_BUF_INIT;
        json_array_foreach(json_object_get(src, "items"), k, item)
        {
            pr_buf_puts(&line, "\n  - ");
            lang_fmt(l, "fwp_env_item", item, &line, err);
        }
        if (line.len)
            json_object_set_new(src, "inline", json_string(pr_buf_cstr(&line)));
        pr_buf_free(&line);
    }
}

/* The distinct repositories (at their commits) of run's imported logs
 * among f's records on p: each log is linked where its figure is shown. */
static void imported_sources(const lang *l, const rmodel_fw *f, const pr_run *run,
                             const pr_platform *p, pr_buf *out)
{
    json_t *seen = json_object();
    for (size_t i = 0; i < f->nrecs; i++) {
        if (f->runs[i] != run || f->rec_plats[i] != p || strcmp(f->recs[i]->origin, "parsed"))
            continue;
        const json_t *src = f->recs[i]->source;
        const char *repo = json_string_value(json_object_get(src, "repo"));
        const char *commit = json_string_value(json_object_get(src, "commit"));
        const char *url = json_string_value(json_object_get(src, "url"));
        if (!repo || !commit)
            continue;
        pr_buf key = PR_BUF_INIT, s = PR_BUF_INIT;
        pr_buf_printf(&key, "%s@%.8s", repo, commit);
        if (!json_object_get(seen, pr_buf_cstr(&key))) {
            json_object_set_new(seen, pr_buf_cstr(&key), json_true());
            pr_buf code = PR_BUF_INIT;
            md_code_span(&code, pr_buf_cstr(&key));
            if (url && strncmp(url, "https://github.com/", 19) == 0) {
                char *tree = pr_xasprintf("https://github.com/%s/tree/%s", repo, commit);
                mdtable_link_url(&s, pr_buf_cstr(&code), tree);
                free(tree);
            } else {
                pr_buf_puts(&s, pr_buf_cstr(&code));
            }
            list_add(l, out, pr_buf_cstr(&s));
            pr_buf_free(&code);
        }
        pr_buf_free(&key);
        pr_buf_free(&s);
    }
    json_decref(seen);
}

/* The runs behind f's figures on p: each run's env.json; the suite's
 * environment for measured records of runs without one; the rest named in
 * *none. */
static void run_sources(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                        const pr_platform *p, const char *page_rel, json_t *sources, pr_buf *none,
                        int *software, pr_err *err)
{
    pr_buf suite_runs = PR_BUF_INIT;
    for (size_t i = 0; i < f->nrecs; i++) {
        const pr_run *run = f->runs[i];
        int seen = f->rec_plats[i] != p; /* not on p counts as seen */
        for (size_t j = 0; j < i && !seen; j++)
            seen = f->runs[j] == run && f->rec_plats[j] == p;
        if (seen)
            continue;
        int measured = 0, imported = 0;
        /* The run's records this page shows on p, in data order. */
        const pr_record **recs = pr_xcalloc(f->nrecs - i, sizeof *recs);
        size_t nrecs = 0;
        for (size_t j = i; j < f->nrecs; j++)
            if (f->runs[j] == run && f->rec_plats[j] == p) {
                recs[nrecs++] = f->recs[j];
                if (strcmp(f->recs[j]->origin, "parsed") == 0)
                    imported = 1;
                else
                    measured = 1;
            }
        pr_buf name = PR_BUF_INIT, from = PR_BUF_INIT, head = PR_BUF_INIT;
        md_code_span(&name, run->name);
        if (imported)
            imported_sources(l, f, run, p, &from);
        json_t *v = json_pack("{s:s}", "run", pr_buf_cstr(&name));
        if (from.len)
            json_object_set_new(v, "sources", json_string(pr_buf_cstr(&from)));
        if (runset_env_count(run)) {
            /* The run set's machine and software as its source states them. */
            const srcenv_file *src = runset_env_file(run, 0);
            pr_buf readme = PR_BUF_INIT, path = PR_BUF_INIT;
            md_code_span(&path, srcenv_file_path(src));
            mdtable_link_url(&readme, pr_buf_cstr(&path), srcenv_file_url(src));
            json_object_set_new(v, "readme", json_string(pr_buf_cstr(&readme)));
            json_object_set_new(v, "title", json_string(runset_title(run, l->code)));
            pr_buf dates = PR_BUF_INIT;
            if (runset_dates(run, &dates))
                json_object_set_new(v, "dates", json_string(pr_buf_cstr(&dates)));
            pr_buf_free(&dates);
            lang_fmt(l, "env_src_runset", v, &head, err);
            add_source(sources, pr_buf_cstr(&head), runset_items(l, run, software));
            json_object_set_new(json_array_get(sources, json_array_size(sources) - 1), "runset",
                                json_string(runset_title(run, l->code)));
            pr_buf_free(&readme);
            pr_buf_free(&path);
        } else if (run->env) {
            char *env_path = pr_fileio_path_join(run->dir, "env.json");
            char *rel = rmodel_link_to(w, page_rel, env_path);
            pr_buf file = PR_BUF_INIT;
            mdtable_link(&file, "env.json", rel);
            json_object_set_new(v, "file", json_string(pr_buf_cstr(&file)));
            lang_fmt(l, measured ? "env_src_run" : "env_src_imported", v, &head, err);
            add_source(sources, pr_buf_cstr(&head), run_items(l, run, software));
            pr_buf_free(&file);
            free(rel);
            free(env_path);
        } else {
            /* The suite describes what perfrepro ran, never imported logs. */
            if (measured && f->suite)
                list_add(l, &suite_runs, pr_buf_cstr(&name));
            if (imported || !f->suite) {
                lang_fmt(l, "env_none_run", v, &head, err);
                list_add(l, none, pr_buf_cstr(&head));
            }
        }
        /* What its logs state of themselves, beside what its source says. */
        json_t *facts = logfacts_view_items(w, l, run, recs, nrecs, page_rel, software);
        free(recs);
        if (json_array_size(facts)) {
            pr_buf_clear(&head);
            json_t *fv = json_pack("{s:s,s:s}", "title", runset_title(run, l->code), "run",
                                   pr_buf_cstr(&name));
            lang_fmt(l, "env_src_logs", fv, &head, err);
            add_source(sources, pr_buf_cstr(&head), facts);
            json_decref(fv);
        } else {
            json_decref(facts);
        }
        json_decref(v);
        pr_buf_free(&name);
        pr_buf_free(&from);
        pr_buf_free(&head);
    }
    if (suite_runs.len) {
        json_t *items = suite_items(l, f, software);
        pr_buf path = PR_BUF_INIT, head = PR_BUF_INIT;
        md_code_span(&path, f->suite->path);
        json_t *v = json_pack("{s:s,s:s,s:s}", "suite", pr_buf_cstr(&path), "runs",
                              pr_buf_cstr(&suite_runs), "run", pr_buf_cstr(&suite_runs));
        if (json_array_size(items)) {
            lang_fmt(l, "env_src_suite", v, &head, err);
            add_source(sources, pr_buf_cstr(&head), items);
        } else {
            json_decref(items);
            lang_fmt(l, "env_none_run", v, &head, err);
            list_add(l, none, pr_buf_cstr(&head));
        }
        json_decref(v);
        pr_buf_free(&path);
        pr_buf_free(&head);
    }
    pr_buf_free(&suite_runs);
}

/* t's URL up to its fragment (tables of one file differ in their #L line). */
static size_t url_stem(const pr_pub_table *t)
{
    return t->source_url ? strcspn(t->source_url, "#") : 0;
}

/* 1 when two tables state the same environment (or none): tables of one
 * file share the file's, a README revision's tables each have their own. */
static int same_env(const json_t *a, const json_t *b)
{
    return a == b || (a && b && json_equal((json_t *)a, (json_t *)b));
}

/* The link to the source of the tables like t (same label and environment)
 * on p: their URL when they share one (up to the fragment), else their
 * repository's page, else the label alone. */
static void pub_link(const rmodel_fw *f, const pr_pub_table *t, const pr_platform *p, pr_buf *out)
{
    int one_url = t->source_url != NULL;
    for (size_t i = 0; i < f->npubs && one_url; i++) {
        const pr_pub_table *o = f->pubs[i];
        if (o->platform == p && strcmp(o->label, t->label) == 0 &&
            same_env(o->environment, t->environment))
            one_url = o->source_url && url_stem(o) == url_stem(t) &&
                      strncmp(o->source_url, t->source_url, url_stem(t)) == 0;
    }
    pr_buf label = PR_BUF_INIT, url = PR_BUF_INIT;
    md_text(&label, t->label);
    if (one_url)
        pr_buf_put(&url, t->source_url, url_stem(t));
    else if (t->source_repo)
        pr_buf_printf(&url, "https://github.com/%s", t->source_repo);
    if (url.len)
        mdtable_link_url(out, pr_buf_cstr(&label), pr_buf_cstr(&url));
    else
        pr_buf_puts(out, pr_buf_cstr(&label));
    pr_buf_free(&label);
    pr_buf_free(&url);
}

/* 1 when framework string fw (a stated environment's) names table t's
 * framework. */
static int names_fw(const char *fw, const pr_pub_table *t)
{
    return (t->framework_title && strcasestr(fw, t->framework_title)) ||
           strcasestr(fw, t->framework);
}

/* 1 unless t's stated environment is another framework's: a file whose
 * tables cover five frameworks may state the one machine a seed report ran
 * PyTorch on, which says nothing of the OneFlow figures beside it. */
static int env_is_own(const rmodel_world *w, const pr_pub_table *t)
{
    const char *fw = pr_jdoc_json_str(t->environment, "framework");
    if (!fw || names_fw(fw, t))
        return 1;
    for (size_t i = 0; i < w->d->npubs; i++) {
        const pr_pub_table *o = &w->d->pubs[i];
        if (strcmp(o->file, t->file) == 0 && strcmp(o->framework, t->framework) != 0 &&
            names_fw(fw, o))
            return 0;
    }
    return 1;
}

/* The published sources of f's figures on p: one entry per file's
 * environment (tables of one file share it), the rest named in *none. */
/* 1 when a run set of f's figures on p takes its environment from the
 * README published table t was read from. */
static int readme_of_runsets(const rmodel_fw *f, const pr_platform *p, const pr_pub_table *t)
{
    for (size_t i = 0; t->source_repo && t->source_path && i < f->nrecs; i++) {
        if (f->rec_plats[i] != p)
            continue;
        for (size_t g = 0; g < runset_env_count(f->runs[i]); g++) {
            const srcenv_file *e = runset_env_file(f->runs[i], g);
            if (strcmp(srcenv_file_repo(e), t->source_repo) == 0 &&
                strcmp(srcenv_file_path(e), t->source_path) == 0)
                return 1;
        }
    }
    return 0;
}

static void pub_sources(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                        const pr_platform *p, json_t *sources, pr_buf *none, int *software,
                        pr_err *err)
{
    for (size_t i = 0; i < f->npubs; i++) {
        const pr_pub_table *t = f->pubs[i];
        if (t->platform != p)
            continue;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = f->pubs[j]->platform == p && strcmp(f->pubs[j]->label, t->label) == 0 &&
                   same_env(f->pubs[j]->environment, t->environment);
        if (seen)
            continue;
        pr_buf link = PR_BUF_INIT, head = PR_BUF_INIT;
        pub_link(f, t, p, &link);
        json_t *v = json_pack("{s:s}", "source", pr_buf_cstr(&link));
        if (json_object_size(t->environment) && env_is_own(w, t)) {
            int lined = 0;
            json_t *items = pub_items(l, t, software, &lined);
            lang_fmt(l, "env_src_pub", v, &head, err);
            /* Where the data gives no line, the page says so (issue 34). */
            if (!lined)
                lang_fmt(l, "env_src_pub_no_lines", v, &head, err);
            add_source(sources, pr_buf_cstr(&head), items);
        } else if (json_object_size(t->environment)) {
            json_object_set_new(v, "framework",
                                json_string(pr_jdoc_json_str(t->environment, "framework")));
            lang_fmt(l, "env_src_other", v, &head, err);
            list_add(l, none, pr_buf_cstr(&head));
        } else if (readme_of_runsets(f, p, t)) {
            /* Its README's environment is the one the run sets above show. */
            lang_fmt(l, "env_src_pub_runsets", v, &head, err);
            add_source(sources, pr_buf_cstr(&head), json_array());
        } else {
            list_add(l, none, pr_buf_cstr(&link));
        }
        json_decref(v);
        pr_buf_free(&link);
        pr_buf_free(&head);
    }
}

/* ---------------------------------------------------------------- platforms */

/* The machine as data/platforms/ describes it, one line. */
static void machine_line(const lang *l, const pr_platform *p, pr_buf *out, pr_err *err)
{
    json_t *v = json_pack("{s:s,s:b,s:b}", "device", p->device, "cpu", platform_is_cpu(p), "thread",
                          !strcmp(platform_device_word(p), "thread"));
    if (!isnan(p->memory_gb)) {
        char mem[32];
        snprintf(mem, sizeof mem, "%g", p->memory_gb);
        json_object_set_new(v, "memory", json_string(mem));
    }
    if (p->per_node)
        json_object_set_new(v, "per_node", json_integer(p->per_node));
    if (p->interconnect.en)
        json_object_set_new(v, "interconnect",
                            json_string(pr_bitext_in(&p->interconnect, l->code)));
    lang_fmt(l, "platform_desc", v, out, err);
    json_decref(v);
    /* A platform made by import from a README says where it was read. */
    if (p->source) {
        pr_buf target = PR_BUF_INIT;
        md_link_target(&target, p->source);
        pr_buf_printf(out, " ([%s](%s))", lang_str(l, "platform_source"), pr_buf_cstr(&target));
        pr_buf_free(&target);
    }
}

static json_t *platform_env(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                            const pr_platform *p, const char *page_rel, pr_err *err)
{
    json_t *pv = json_object(), *sources = json_array();
    pr_buf b = PR_BUF_INIT, none = PR_BUF_INIT;
    int software = 0;
    if (p) {
        view_text(pv, "title", provenance_platform_title(l, p));
        view_str(pv, "platform_id", p->id); /* its platform page (fw_split.h) */
        machine_line(l, p, &b, err);
        view_md(pv, "machine", &b);
    }
    run_sources(w, l, f, p, page_rel, sources, &none, &software, err);
    pub_sources(w, l, f, p, sources, &none, &software, err);
    /* Planned cases have no machine until they run: only figures are
     * compared. */
    int figures = json_array_size(sources) || none.len;
    if (!p) {
        view_text(pv, "title",
                  lang_str(l, figures ? "platform_none_title" : "platform_planned_title"));
        if (figures)
            view_str(pv, "env_note", lang_str(l, "platform_none_note"));
    }
    if (none.len) {
        json_t *v = json_pack("{s:s}", "sources", pr_buf_cstr(&none));
        lang_fmt(l, "env_src_none", v, &b, err);
        view_md(pv, "none", &b);
        json_decref(v);
    }
    if (!json_array_size(sources) && !none.len)
        view_str(pv, "no_software", lang_str(l, "env_no_sources"));
    else if (!software)
        view_str(pv, "no_software", lang_str(l, "env_no_software"));
    share_items(l, sources, err);
    inline_items(l, sources, err);
    json_object_set_new(pv, "sources", sources);
    pr_buf_free(&b);
    pr_buf_free(&none);
    return pv;
}

json_t *env_view(const rmodel_world *w, const lang *l, const rmodel_fw *f, const char *page_rel,
                 pr_err *err)
{
    json_t *list = json_array();
    /* In the results' order (fw_order.h): one entry per platform. */
    fw_order_run *runs = pr_xcalloc(f->ncfgs + 1, sizeof *runs);
    size_t n = fw_order_runs(w, f, runs);
    for (size_t i = 0; i < n; i++)
        json_array_append_new(
            list, platform_env(w, l, f, f->cfgs[runs[i].first].platform, page_rel, err));
    free(runs);
    return list;
}
