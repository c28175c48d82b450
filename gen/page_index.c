#include "pages.h"

#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "md.h"
#include "mdtable.h"
#include "view.h"

/* Index: every model and framework with its headline figure.  A model's
 * rows compare only when they show one configuration: each framework's
 * headline is its figure at the configuration the model declares
 * (data/models/ID.json: platform, precision class, batch size, GPUs), with
 * the mark of its origin, or says it has none there; a line above the
 * table names each model's configuration. */

/* Framework f's headline cell in configuration mc (NULL: the model
 * declares none) at gpus: its figure, marked, and the unit; "no figure at
 * this configuration" when it has none. */
static void headline(const rm_world *w, const lang *l, const rm_fw *f, const pr_model_decl *decl,
                     const rm_mcfg *mc, pr_buf *out, pr_err *err)
{
    if (!decl) {
        pr_buf_puts(out, lang_str(l, "state_none"));
        return;
    }
    const rm_cell *rc = cmp_headline_cell(mc, f, decl->gpus);
    if (!rc) {
        pr_buf_puts(out, lang_str(l, "index_no_figure"));
        return;
    }
    pr_buf val = PR_BUF_INIT;
    mdt_summary_cell(w, l, rc, "", NULL, &val);
    /* The declaration names GPUs only: say the nodes when they are several. */
    if (rc->nodes > 1) {
        pr_buf_puts(&val, " (");
        lang_gpus_label(l, rc->nodes, rc->gpus, &val, err);
        pr_buf_putc(&val, ')');
    }
    if (rc->origin == RM_MEASURED || rc->origin == RM_PUBLISHED) {
        json_t *v = json_pack("{s:s,s:s}", "value", pr_buf_cstr(&val), "unit", f->unit);
        lang_fmt(l, "index_value", v, out, err);
        json_decref(v);
    } else {
        pr_buf_puts(out, pr_buf_cstr(&val));
    }
    pr_buf_free(&val);
}

/* The line naming model m's headline configuration, or saying it has
 * none. */
static void decl_line(const lang *l, const rm_model *m, const pr_model_decl *decl, pr_buf *out,
                      pr_err *err)
{
    pr_buf link = PR_BUF_INIT, config = PR_BUF_INIT;
    mdt_page_link(&link, m->title, m->id, l);
    json_t *v = json_pack("{s:s}", "model", pr_buf_cstr(&link));
    if (decl) {
        rm_cfg c = {.platform = decl->platform, .klass = decl->precision_class,
                    .bs = decl->batch_size};
        cmp_config_name(l, &c, 1, &config, err);
        json_object_set_new(v, "config", json_string(pr_buf_cstr(&config)));
        json_object_set_new(v, "gpus", json_integer(decl->gpus));
    }
    lang_fmt(l, decl ? "index_decl" : "index_no_decl", v, out, err);
    json_decref(v);
    pr_buf_free(&link);
    pr_buf_free(&config);
}

json_t *page_index_view(const rm_world *w, const lang *l, pr_err *err)
{
    json_t *view = json_object();
    vw_page(view, l);
    json_t *rows = json_array(), *decls = json_array();
    vw_notes nt = {0};
    for (size_t i = 0; i < w->nmodels; i++) {
        const rm_model *m = w->models[i];
        const pr_model_decl *decl;
        const rm_mcfg *mc = cmp_headline_cfg(w, m, &decl);
        pr_buf line = PR_BUF_INIT;
        decl_line(l, m, decl, &line, err);
        json_array_append_new(decls, json_pack("{s:s}", "text", pr_buf_cstr(&line)));
        pr_buf_free(&line);
        for (size_t j = 0; j < m->nfws; j++) {
            const rm_fw *f = m->fws[j];
            pr_buf mlink = PR_BUF_INIT, flink = PR_BUF_INIT, hl = PR_BUF_INIT;
            /* Cell and inline escaping are the same (pr_md_cell == pr_md_text). */
            mdt_page_link(&mlink, m->title, m->id, l);
            char *fdir = pr_xasprintf("%s/%s", m->id, f->framework);
            mdt_page_link(&flink, f->framework_title, fdir, l);
            free(fdir);
            headline(w, l, f, decl, mc, &hl, err);
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
    json_object_set_new(view, "decls", decls);
    vw_str(view, "decl_intro", lang_str(l, "index_decl_intro"));
    vw_str(view, "origin_legend", lang_str(l, "origin_legend"));
    json_t *models = json_array();
    for (size_t i = 0; i < w->nmodels; i++) {
        pr_buf link = PR_BUF_INIT;
        mdt_page_link(&link, w->models[i]->title, w->models[i]->id, l);
        json_array_append_new(models, json_pack("{s:s}", "link", pr_buf_cstr(&link)));
        pr_buf_free(&link);
    }
    json_object_set_new(view, "models", models);
    /* The origin legend explains the marks; no separate † note. */
    vw_notes_set(view, l, &nt, NULL, err);
    return view;
}
