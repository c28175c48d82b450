/* fw_split: the platform pages of a framework page (fw_split.h). */
#include "fw_split.h"
#include <stdlib.h>
#include <string.h>
#include "buf.h"
#include "3-tables/view.h"
#include "pages.h"

/* The platform page's file for platform id in l's language:
 * PLATFORM-<slug><suffix>.md, PLATFORM-<slug><suffix>.en.md (suffix "" for
 * the machine's page, FW_SPLIT_STEPS for its steps).  Caller frees. */
static char *page_file(const char *id, const char *suffix, const char *code)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, FW_SPLIT_STEM "-");
    /* [a-z0-9-] only: data never names files freely, and a dot would read
     * as a language. */
    for (const char *c = id; *c; c++) {
        char ch = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;
        pr_buf_putc(&b, (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ? ch : '-');
    }
    pr_buf_puts(&b, suffix);
    pr_buf_puts(&b, strcmp(code, "zh") == 0 ? ".md" : ".en.md");
    return pr_buf_detach(&b);
}

static const char *item_platform(json_t *item)
{
    return json_string_value(json_object_get(item, "platform_id"));
}

/* A run set's steps go where any of its runs ran. */
static int steps_on(json_t *block, const char *id)
{
    size_t i;
    json_t *run;
    json_array_foreach(json_object_get(block, "runs"), i, run)
    {
        const char *p = item_platform(run);
        if (p && strcmp(p, id) == 0)
            return 1;
    }
    return 0;
}

/* The entries of view's array key on platform id (id NULL: on none of
 * the pages in paged), as a new array. */
static json_t *entries_on(json_t *view, const char *key, const char *id, json_t *paged)
{
    json_t *out = json_array(), *e;
    size_t i;
    int steps = strcmp(key, "runset_steps") == 0;
    json_array_foreach(json_object_get(view, key), i, e)
    {
        int on;
        if (id)
            on = steps ? steps_on(e, id) : item_platform(e) && !strcmp(item_platform(e), id);
        else {
            on = 1;
            const char *pid;
            json_t *unused;
            json_object_foreach(paged, pid, unused)
            {
                if (steps ? steps_on(e, pid) : item_platform(e) && !strcmp(item_platform(e), pid))
                    on = 0;
            }
        }
        if (on)
            json_array_append(out, e);
    }
    return out;
}

/* The machine's page of pv (one of view's "platforms"): its results, logs
 * and notes; its environment and its run sets' steps are on its steps page
 * (steps_file, NULL when it has neither; runsets: it has steps). */
static json_t *platform_page(json_t *view, json_t *pv, const char *id, const lang *l,
                             const char *other_file, const char *steps_file, int runsets)
{
    /* Shallow: the pages only set and delete keys of their own top level. */
    json_t *d = json_copy(view);
    static const char *const main_only[] = {"has_short",     "short_head",    "short_table",
                                            "short_lines",   "mlperf_scores", "history_link",
                                            "sweep",         "suite_path",    "platform_pages",
                                            "runset_steps",  "has_steps",     "has_runset_steps",
                                            "env_platforms", "has_env"};
    for (size_t i = 0; i < sizeof main_only / sizeof *main_only; i++)
        json_object_del(d, main_only[i]);
    json_object_set_new(d, "detail", json_true());
    json_object_set(d, "platform_title", json_object_get(pv, "title"));
    json_object_set_new(d, "readme_link", json_string(l->readme));
    json_object_set_new(d, "other_readme", json_string(other_file));
    if (steps_file) {
        json_object_set_new(d, "steps_page_link", json_string(steps_file));
        json_object_set_new(d, "steps_page_runsets", json_boolean(runsets));
    }
    json_object_set_new(d, "platforms", json_pack("[o]", json_copy(pv)));
    json_t *logs = entries_on(view, "logs", id, NULL);
    int has_logs = json_array_size(logs) > 0;
    json_object_set_new(d, "has_logs", json_boolean(has_logs));
    json_object_set_new(d, "has_logs_section", json_boolean(has_logs));
    json_object_set_new(d, "logs", logs);
    page_framework_numbers(d, l, PF_RESULTS | PF_NOTES | (has_logs ? PF_LOGS : 0));
    return d;
}

/* The steps page of pv: the machine's environment (env, stolen) and the
 * steps of the run sets that ran on it (steps, stolen), with what the
 * layout and the title need of view. */
static json_t *steps_page(json_t *view, json_t *pv, json_t *env, json_t *steps, const lang *l,
                          const char *machine_file, const char *other_file)
{
    static const char *const kept[] = {"framework_title", "model_title", "framework_in_model",
                                       "hardware"};
    json_t *d = json_object();
    view_page(d, l);
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        if (json_object_get(view, kept[i]))
            json_object_set(d, kept[i], json_object_get(view, kept[i]));
    json_object_set_new(d, "detail", json_true());
    json_object_set_new(d, "steps_page", json_true());
    json_object_set(d, "platform_title", json_object_get(pv, "title"));
    json_object_set_new(d, "readme_link", json_string(l->readme));
    json_object_set_new(d, "machine_link", json_string(machine_file));
    json_object_set_new(d, "other_readme", json_string(other_file));
    json_object_set_new(d, "has_env", json_boolean(json_array_size(env) > 0));
    json_object_set_new(d, "env_platforms", env);
    int has_steps = json_array_size(steps) > 0;
    json_object_set_new(d, "has_runset_steps", json_boolean(has_steps));
    json_object_set_new(d, "runset_steps", steps);
    page_framework_numbers(d, l, PF_ENV | (has_steps ? PF_STEPS : 0));
    return d;
}

/* Adds file to the page names taken (names: file -> platform id); -1 and
 * err when another platform's page has the name already. */
static int take_name(json_t *names, const char *file, const char *id, pr_err *err)
{
    json_t *had = json_object_get(names, file);
    if (had)
        return pr_err_set(err, file, 0, 0, "id",
                          "platforms \"%s\" and \"%s\" of one framework page would both write "
                          "this machine page: rename one (the page name keeps a-z, 0-9 and -)",
                          json_string_value(had), id);
    json_object_set_new(names, file, json_string(id));
    return 0;
}

json_t *fw_split_pages(json_t *view, const lang *l, pr_err *err)
{
    json_t *pages = json_array(), *links = json_array(), *paged = json_object(),
           *names = json_object(), *pv;
    size_t i;
    int ok = 0;
    const char *other = strcmp(l->code, "zh") == 0 ? "en" : "zh";
    json_array_foreach(json_object_get(view, "platforms"), i, pv)
    {
        const char *id = item_platform(pv);
        /* A machine of planned cases only stays: a line of its own. */
        int figures = json_object_get(pv, "summary_table") || json_object_get(pv, "pub_table") ||
                      json_array_size(json_object_get(pv, "configs")) > 0;
        if (!id || !figures || json_object_get(paged, id))
            continue;
        json_t *env = entries_on(view, "env_platforms", id, NULL),
               *steps = entries_on(view, "runset_steps", id, NULL);
        /* The steps page: where the machine has an environment or steps. */
        int has_env = json_array_size(env) > 0, has_runsets = json_array_size(steps) > 0;
        int has_steps_page = has_env || has_runsets;
        char *file = page_file(id, "", l->code), *other_file = page_file(id, "", other);
        char *steps_file = page_file(id, FW_SPLIT_STEPS, l->code),
             *other_steps = page_file(id, FW_SPLIT_STEPS, other);
        int taken = take_name(names, file, id, err) == 0 &&
                    (!has_steps_page || take_name(names, steps_file, id, err) == 0);
        if (taken) {
            json_array_append_new(
                pages, json_pack("{s:s,s:o}", "path", file, "view",
                                 platform_page(view, pv, id, l, other_file,
                                               has_steps_page ? steps_file : NULL, has_runsets)));
            if (has_steps_page)
                json_array_append_new(
                    pages, json_pack("{s:s,s:o}", "path", steps_file, "view",
                                     steps_page(view, pv, json_incref(env), json_incref(steps), l,
                                                file, other_steps)));
            json_t *link =
                json_pack("{s:O,s:s}", "title", json_object_get(pv, "title"), "link", file);
            if (has_env)
                json_object_set_new(link, "env_link", json_string(steps_file));
            if (has_runsets)
                json_object_set_new(link, "steps_link", json_string(steps_file));
            json_array_append_new(links, link);
            json_object_set_new(pv, "detail_link", json_string(file));
            json_object_set_new(pv, "link_text", json_string(file));
            json_object_set_new(pv, "has_detail", json_true());
            if (has_steps_page) {
                json_object_set_new(pv, "steps_page_link", json_string(steps_file));
                json_object_set_new(pv, "steps_page_runsets", json_boolean(has_runsets));
            }
            json_object_set_new(paged, id, json_true());
        }
        json_decref(env);
        json_decref(steps);
        free(file);
        free(other_file);
        free(steps_file);
        free(other_steps);
        if (!taken)
            goto out;
    }
    /* The framework page keeps what no platform page shows. */
    static const char *const lists[] = {"env_platforms", "runset_steps", "logs"};
    for (size_t k = 0; k < sizeof lists / sizeof *lists; k++)
        json_object_set_new(view, lists[k], entries_on(view, lists[k], NULL, paged));
    /* "has_runset_steps" stays: the framework page still says that the
     * figures' own steps come before the plan, and links them. */
    json_object_set_new(view, "has_logs",
                        json_boolean(json_array_size(json_object_get(view, "logs")) > 0));
    if (json_array_size(links))
        json_object_set(view, "platform_pages", links);
    ok = 1;
out:
    json_decref(links);
    json_decref(paged);
    json_decref(names);
    if (!ok) {
        json_decref(pages);
        pages = NULL;
    }
    return pages;
}
