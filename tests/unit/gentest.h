/* Helpers the gen tests share: render a data folder to pages in memory.
 * Static inline so that a test file using only some of them compiles
 * warning-free. */
#ifndef PR_GENTEST_H
#define PR_GENTEST_H

#include <criterion/criterion.h>
#include <jansson.h>

#include "1-load/data.h"
#include "cmd/report.h"

/* Collects rendered pages into one JSON object path -> text. */
static inline int gt_collect(void *ctx, const char *path, const char *data, size_t len, pr_err *err)
{
    (void)err;
    /* Unchecked: charts are binary, not UTF-8. */
    json_object_set_new(ctx, path, json_stringn_nocheck(data, len));
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
    pr_report_opts o = {"templates", out_dir, charts, 0, NULL};
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
