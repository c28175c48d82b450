#include "logfacts_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "3-tables/mdtable.h"
#include "base/md.h"
#include "jdoc.h"
#include "recfacts.h"

/* The facts shown, in order: key, its label (strings.json), software. */
static const struct {
    const char *key, *label;
    int software;
} shown[] = {
    {"container.release", "logfact_container", 1},
    {"container.build", "logfact_build", 1},
    {"framework.version", "env_framework", 1},
    {"gpu.name", "env_gpu", 0},
    {"gpu.driver", "env_driver", 1},
    {"gpu.driver_cuda", "logfact_driver_cuda", 1},
    {"cuda.version", "env_cuda", 1},
    {"cudnn.version", "env_cudnn", 1},
    {"nccl.version", "env_nccl", 1},
};

/* The value of key in record r's facts, and its line; NULL when none. */
static const char *fact(const pr_record *r, const char *key, int *line)
{
    return pr_recfacts_value(r->log_facts, key, line);
}

/* framework.version with its name before it, as one value. */
static char *framework_fact(const pr_record *r, int *line)
{
    int nl = 0;
    const char *v = fact(r, "framework.version", line), *name = fact(r, "framework.name", &nl);
    if (!v)
        return NULL;
    return name ? pr_xasprintf("%s %s", name, v) : pr_xstrdup(v);
}

/* Appends {label, value} to items: each distinct value of key across run's
 * records, linked to the first line that printed it. */
static int add_distinct(const rmodel_world *w, const lang *l, const pr_run *run,
                        const pr_record *const *recs, size_t nrecs, const char *page_rel,
                        const char *key, const char *label, json_t *items)
{
    pr_buf v = PR_BUF_INIT, text = PR_BUF_INIT;
    json_t *seen = json_object();
    for (size_t i = 0; i < nrecs; i++) {
        const pr_record *r = recs[i];
        int line = 0;
        char *val = NULL;
        if (strcmp(key, "framework.version") == 0) {
            val = framework_fact(r, &line);
        } else {
            const char *f = fact(r, key, &line);
            val = f ? pr_xstrdup(f) : NULL;
        }
        if (val && !json_object_get(seen, val)) {
            json_object_set_new(seen, val, json_true());
            if (v.len)
                pr_buf_puts(&v, lang_str(l, "list_sep"));
            pr_buf_clear(&text);
            pr_buf_printf(&text, "L%d", line);
            md_text(&v, val);
            pr_buf_puts(&v, " (");
            md_code_span(&v, r->case_name);
            pr_buf_puts(&v, " ");
            mdtable_log_line_link(w, page_rel, run, r, line, pr_buf_cstr(&text), &v);
            pr_buf_puts(&v, ")");
        }
        free(val);
    }
    int any = v.len > 0;
    if (any)
        json_array_append_new(
            items, json_pack("{s:s,s:s}", "label", lang_str(l, label), "value", pr_buf_cstr(&v)));
    json_decref(seen);
    pr_buf_free(&v);
    pr_buf_free(&text);
    return any;
}

json_t *logfacts_view_items(const rmodel_world *w, const lang *l, const pr_run *run,
                            const pr_record *const *recs, size_t nrecs, const char *page_rel,
                            int *software)
{
    json_t *items = json_array();
    for (size_t k = 0; k < sizeof shown / sizeof *shown; k++)
        if (add_distinct(w, l, run, recs, nrecs, page_rel, shown[k].key, shown[k].label, items))
            *software |= shown[k].software;
    /* The command as the first log that prints one printed it, and where
     * every log's argument dump starts. */
    pr_buf v = PR_BUF_INIT, text = PR_BUF_INIT;
    for (size_t i = 0; i < nrecs; i++) {
        int line = 0;
        const char *cmd = fact(recs[i], "command", &line);
        if (!cmd)
            continue;
        md_code_span(&v, cmd);
        pr_buf_puts(&v, " (");
        md_code_span(&v, recs[i]->case_name);
        pr_buf_printf(&text, "L%d", line);
        pr_buf_puts(&v, " ");
        mdtable_log_line_link(w, page_rel, run, recs[i], line, pr_buf_cstr(&text), &v);
        pr_buf_puts(&v, ")");
        json_array_append_new(items, json_pack("{s:s,s:s}", "label", lang_str(l, "logfact_command"),
                                               "value", pr_buf_cstr(&v)));
        break;
    }
    pr_buf_clear(&v);
    for (size_t i = 0; i < nrecs; i++) {
        int line = 0;
        if (!fact(recs[i], "args.format", &line))
            continue;
        if (v.len)
            pr_buf_puts(&v, lang_str(l, "list_sep"));
        pr_buf_clear(&text);
        md_code_span(&text, recs[i]->case_name);
        pr_buf_printf(&text, " L%d", line);
        mdtable_log_line_link(w, page_rel, run, recs[i], line, pr_buf_cstr(&text), &v);
    }
    if (v.len)
        json_array_append_new(items, json_pack("{s:s,s:s}", "label", lang_str(l, "logfact_args"),
                                               "value", pr_buf_cstr(&v)));
    pr_buf_free(&v);
    pr_buf_free(&text);
    return items;
}
