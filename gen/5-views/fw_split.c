/* fw_split: the platform pages of a framework page (fw_split.h). */
#include "fw_split.h"
#include <stdlib.h>
#include <string.h>
#include "buf.h"
#include "pages.h"

/* The platform page's file for platform id in l's language:
 * PLATFORM-<slug>.md, PLATFORM-<slug>.en.md.  Caller frees. */
static char *page_file(const char *id, const char *code)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, FW_SPLIT_STEM "-");
    /* [a-z0-9-] only: data never names files freely, and a dot would read
     * as a language. */
    for (const char *c = id; *c; c++) {
        char ch = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;
        pr_buf_putc(&b, (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ? ch : '-');
    }
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

/* The platform page of pv (one of view's "platforms"). */
static json_t *platform_page(json_t *view, json_t *pv, const char *id, const lang *l,
                             const char *other_file)
{
    json_t *d = json_deep_copy(view);
    static const char *const main_only[] = {"has_short",   "short_head",    "short_table",
                                            "short_lines", "mlperf_scores", "history_link",
                                            "sweep",       "suite_path",    "platform_pages"};
    for (size_t i = 0; i < sizeof main_only / sizeof *main_only; i++)
        json_object_del(d, main_only[i]);
    json_object_set_new(d, "detail", json_true());
    json_object_set(d, "platform_title", json_object_get(pv, "title"));
    json_object_set_new(d, "readme_link", json_string(l->readme));
    json_object_set_new(d, "other_readme", json_string(other_file));
    json_object_set_new(d, "platforms", json_pack("[o]", json_deep_copy(pv)));
    json_t *env = entries_on(view, "env_platforms", id, NULL);
    json_object_set_new(d, "has_env", json_boolean(json_array_size(env) > 0));
    json_object_set_new(d, "env_platforms", env);
    json_t *steps = entries_on(view, "runset_steps", id, NULL);
    int has_steps = json_array_size(steps) > 0;
    json_object_set_new(d, "has_runset_steps", json_boolean(has_steps));
    json_object_set_new(d, "runset_steps", steps);
    json_object_set_new(d, "has_steps", json_boolean(has_steps));
    json_t *logs = entries_on(view, "logs", id, NULL);
    int has_logs = json_array_size(logs) > 0;
    json_object_set_new(d, "has_logs", json_boolean(has_logs));
    json_object_set_new(d, "has_logs_section", json_boolean(has_logs));
    json_object_set_new(d, "logs", logs);
    page_framework_numbers(d, l, 0, has_steps, has_logs);
    return d;
}

json_t *fw_split_pages(json_t *view, const lang *l)
{
    json_t *pages = json_array(), *links = json_array(), *paged = json_object(), *pv;
    size_t i;
    const char *other = strcmp(l->code, "zh") == 0 ? "en" : "zh";
    json_array_foreach(json_object_get(view, "platforms"), i, pv)
    {
        const char *id = item_platform(pv);
        /* A machine of planned cases only stays: a line of its own. */
        int figures = json_object_get(pv, "summary_table") || json_object_get(pv, "pub_table") ||
                      json_array_size(json_object_get(pv, "configs")) > 0;
        if (!id || !figures || json_object_get(paged, id))
            continue;
        char *file = page_file(id, l->code), *other_file = page_file(id, other);
        json_array_append_new(pages, json_pack("{s:s,s:o}", "path", file, "view",
                                               platform_page(view, pv, id, l, other_file)));
        json_array_append_new(
            links, json_pack("{s:O,s:s}", "title", json_object_get(pv, "title"), "link", file));
        json_object_set_new(pv, "detail_link", json_string(file));
        json_object_set_new(pv, "link_text", json_string(file));
        json_object_set_new(pv, "has_detail", json_true());
        json_object_set_new(paged, id, json_true());
        free(file);
        free(other_file);
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
        json_object_set_new(view, "platform_pages", links);
    else
        json_decref(links);
    json_decref(paged);
    return pages;
}
