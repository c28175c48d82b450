#include "pages.h"

#include <stdlib.h>
#include <string.h>

#include "mdtable.h"
#include "view.h"

/* The headline of a framework (rm_fw's head_*): its figure at the largest
 * GPU count, published ones marked; TODO when it has none. */
static void headline(const lang *l, const rm_fw *f, pr_buf *out, pr_err *err)
{
    if (!f->head_cfg) {
        pr_buf_puts(out, lang_str(l, "state_todo"));
        return;
    }
    pr_buf name = PR_BUF_INIT, val = PR_BUF_INIT;
    lang_config_name(l, f->head_cfg, &name, err);
    mdt_value(&val, f->head_value);
    if (!f->head_measured)
        pr_buf_puts(&val, lang_str(l, "published_mark"));
    json_t *hv = json_pack("{s:i,s:i,s:s,s:s,s:s}", "nodes", f->head_cell->nodes, "gpus",
                           f->head_cell->gpus, "config", pr_buf_cstr(&name), "value",
                           pr_buf_cstr(&val), "unit", f->unit);
    lang_fmt(l, "headline", hv, out, err);
    json_decref(hv);
    pr_buf_free(&name);
    pr_buf_free(&val);
}

json_t *page_index_view(const rm_world *w, const lang *l, pr_err *err)
{
    json_t *view = json_object();
    vw_page(view, l);
    json_t *rows = json_array();
    vw_notes nt = {0};
    for (size_t i = 0; i < w->nmodels; i++) {
        const rm_model *m = w->models[i];
        for (size_t j = 0; j < m->nfws; j++) {
            const rm_fw *f = m->fws[j];
            pr_buf mlink = PR_BUF_INIT, flink = PR_BUF_INIT;
            /* Cell and inline escaping are the same (pr_md_cell == pr_md_text). */
            mdt_page_link(&mlink, m->title, m->id, l);
            char *fdir = pr_xasprintf("%s/%s", m->id, f->framework);
            mdt_page_link(&flink, f->framework_title, fdir, l);
            free(fdir);
            pr_buf hl = PR_BUF_INIT;
            headline(l, f, &hl, err);
            if (strstr(pr_buf_cstr(&hl), lang_str(l, "published_mark")))
                nt.published = 1;
            const char *date = f->date[0] ? f->date : lang_str(l, "state_none");
            json_array_append_new(rows, json_pack("{s:s,s:s,s:s,s:s}", "model", pr_buf_cstr(&mlink),
                                                  "framework", pr_buf_cstr(&flink), "headline",
                                                  pr_buf_cstr(&hl), "date", date));
            pr_buf_free(&mlink);
            pr_buf_free(&flink);
            pr_buf_free(&hl);
        }
    }
    json_object_set_new(view, "rows", rows);
    json_t *models = json_array();
    for (size_t i = 0; i < w->nmodels; i++) {
        pr_buf link = PR_BUF_INIT;
        mdt_page_link(&link, w->models[i]->title, w->models[i]->id, l);
        json_array_append_new(models, json_pack("{s:s}", "link", pr_buf_cstr(&link)));
        pr_buf_free(&link);
    }
    json_object_set_new(view, "models", models);
    vw_notes_set(view, l, &nt, NULL, err);
    return view;
}
