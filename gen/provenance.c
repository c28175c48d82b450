#include "provenance.h"

#include <string.h>

#include "jdoc.h"
#include "md.h"
#include "mdtable.h"

int pv_is_cpu(const pr_platform *p) { return p && strcmp(p->kind, "cpu") == 0; }

const char *pv_platform_title(const lang *l, const pr_platform *p)
{
    if (!p)
        return lang_str(l, "platform_unknown");
    return strcmp(l->code, "zh") == 0 ? p->title_zh : p->title_en;
}

const char *pv_col_count(const lang *l, const pr_platform *p)
{
    return lang_str(l, pv_is_cpu(p) ? "col_procs" : "col_gpus");
}

void pv_count_label(const lang *l, const pr_platform *p, int nodes, int gpus, pr_buf *out,
                    pr_err *err)
{
    if (!pv_is_cpu(p)) {
        lang_gpus_label(l, nodes, gpus, out, err);
        return;
    }
    json_t *v = json_pack("{s:i,s:i,s:b}", "nodes", nodes, "gpus", gpus, "one", gpus == 1);
    lang_fmt(l, "procs_label", v, out, err);
    json_decref(v);
}

size_t pv_counts(const rm_cfg *c)
{
    size_t n = 0;
    /* Cells are in GPU order: a new count starts where the previous differs. */
    for (size_t i = 0; i < c->ncells; i++)
        if (i == 0 || c->cells[i].gpus != c->cells[i - 1].gpus)
            n++;
    return n;
}

void pv_record_source(const pr_record *r, pr_buf *out)
{
    const char *repo = pr_json_str(r->source, "repo"), *commit = pr_json_str(r->source, "commit");
    const char *path = pr_json_str(r->source, "path"), *url = pr_json_str(r->source, "url");
    if (!repo)
        return;
    /* A short commit reads as well and still names one revision. */
    pr_buf loc = PR_BUF_INIT, code = PR_BUF_INIT;
    pr_buf_printf(&loc, "%s@%.8s:%s", repo, commit ? commit : "", path ? path : "");
    pr_md_code_span(&code, pr_buf_cstr(&loc));
    if (url)
        mdt_link_url(out, pr_buf_cstr(&code), url);
    else
        pr_buf_puts(out, pr_buf_cstr(&code));
    pr_buf_free(&loc);
    pr_buf_free(&code);
}

/* One other source of a cell: "label（variant）value†". */
static void other_pub(const lang *l, const pr_pub_table *t, const pr_pub_row *row, pr_buf *out,
                      pr_err *err)
{
    pr_buf value = PR_BUF_INIT;
    if (row->has_value) {
        mdt_pub_value(&value, row);
        pr_buf_puts(&value, lang_str(l, "published_mark"));
    } else {
        pr_md_text(&value, row->state);
    }
    json_t *v = json_pack("{s:s,s:s}", "label", t->label, "value", pr_buf_cstr(&value));
    if (t->variant.en)
        json_object_set_new(v, "variant", json_string(pr_bitext_in(&t->variant, l->code)));
    lang_fmt(l, "other_source", v, out, err);
    json_decref(v);
    pr_buf_free(&value);
}

void pv_cell_others(const lang *l, const rm_cfg *c, const rm_cell *rc, pr_buf *out, pr_err *err)
{
    if (!rc->nalts && !rc->n_other_origin)
        return;
    pr_buf list = PR_BUF_INIT, cell = PR_BUF_INIT;
    for (size_t i = 0; i < rc->nalts; i++) {
        if (i)
            pr_buf_puts(&list, lang_str(l, "list_sep"));
        other_pub(l, rc->alt_tabs[i], rc->alt_rows[i], &list, err);
    }
    if (rc->n_other_origin) {
        if (rc->nalts)
            pr_buf_puts(&list, lang_str(l, "list_sep"));
        json_t *v = json_pack("{s:I}", "n", (json_int_t)rc->n_other_origin);
        lang_fmt(l, "other_origin_left", v, &list, err);
        json_decref(v);
    }
    pv_count_label(l, c->platform, rc->nodes, rc->gpus, &cell, err);
    json_t *v = json_pack("{s:s,s:s}", "cell", pr_buf_cstr(&cell), "list", pr_buf_cstr(&list));
    lang_fmt(l, "others_cell", v, out, err);
    json_decref(v);
    pr_buf_free(&list);
    pr_buf_free(&cell);
}
