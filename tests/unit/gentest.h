/* Helpers the gen tests share: render a data folder to pages in memory.
 * Static inline so that a test file using only some of them compiles
 * warning-free. */
#ifndef PR_GENTEST_H
#define PR_GENTEST_H

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "cmd/report.h"
#include "buf.h"

/* The key under which the machine pages (PLATFORM-*.md, fw_split.h) of
 * the framework page path wait for it: "\x01" + path. */
static inline char *gt_pending_key(const char *dir, size_t dir_len, int en)
{
    return pr_xasprintf("\x01%.*sREADME%s.md", (int)dir_len, dir, en ? ".en" : "");
}

/* Collects rendered pages into one JSON object path -> text.  A framework
 * page's text is followed by its machine pages' (rendered before it, in
 * its language), so that a test reads the framework's pages as one; each
 * machine page is also there by its own path. */
static inline int gt_collect(void *ctx, const char *path, const char *data, size_t len, pr_err *err)
{
    (void)err;
    /* Unchecked: charts are binary, not UTF-8. */
    json_object_set_new(ctx, path, json_stringn_nocheck(data, len));
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    int en = bl > 6 && strcmp(base + bl - 6, ".en.md") == 0;
    char *key = gt_pending_key(path, (size_t)(base - path), en);
    json_t *pending = json_object_get(ctx, key);
    if (strncmp(base, "PLATFORM-", 9) == 0) {
        char *joined =
            pr_xasprintf("%s%.*s", pending ? json_string_value(pending) : "", (int)len, data);
        json_object_set_new(ctx, key, json_string_nocheck(joined));
        free(joined);
    } else if (strncmp(base, "README.", 7) == 0 && pending) {
        char *joined = pr_xasprintf("%.*s%s", (int)len, data, json_string_value(pending));
        json_object_set_new(ctx, path, json_string_nocheck(joined));
        json_object_del(ctx, key);
    }
    free(key);
    return 0;
}

/* Every page of data_dir rendered with templates/ as if into out_dir (links
 * are relative to it; nothing is written), charts drawn when charts is 1:
 * a new object path -> text the caller frees (json_decref). */
static inline json_t *gt_render(const char *data_dir, const char *out_dir, int charts)
{
    pr_dataset *d = NULL;
    pr_err err;
    cr_assert(data_load(data_dir, &d, &err) == 0, "%s", err.msg);
    json_t *pages = json_object();
    pr_report_opts o = {"templates", out_dir, charts, 0, NULL, 0};
    cr_assert(report_render(d, &o, gt_collect, pages, &err) == 0, "%s", err.msg);
    data_free(d);
    return pages;
}

/* The text of page path (borrowed from pages); fails the test when absent. */
static inline const char *gt_page(json_t *pages, const char *path)
{
    const char *s = json_string_value(json_object_get(pages, path));
    cr_assert(s, "no page %s", path);
    return s;
}

#endif
