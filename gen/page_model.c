#include "pages.h"

#include <stdlib.h>

#include "md.h"
#include "mdtable.h"
#include "view.h"

/* Model page: for configuration mc, one column per framework. */
static void cross_table(const rm_world *w, const lang *l, const rm_mcfg *mc, const char *page_rel,
                        vw_notes *nt, pr_buf *out)
{
    size_t ncols = mc->ncols;
    size_t nh = ncols + 2;
    const char **heads = pr_xcalloc(nh, sizeof *heads);
    heads[0] = lang_str(l, "col_nodes");
    heads[1] = lang_str(l, "col_gpus");
    for (size_t i = 0; i < ncols; i++)
        heads[i + 2] = mc->fws[i]->framework_title;
    /* Column heads link to each framework's report. */
    pr_buf_puts(out, "|");
    for (size_t i = 0; i < nh; i++) {
        pr_buf_putc(out, ' ');
        if (i < 2) {
            pr_md_cell(out, heads[i]);
        } else {
            pr_buf t = PR_BUF_INIT, target = PR_BUF_INIT;
            pr_md_cell(&t, heads[i]);
            pr_buf_printf(&target, "%s/%s", mc->fws[i - 2]->framework, l->readme);
            mdt_link(out, pr_buf_cstr(&t), pr_buf_cstr(&target));
            pr_buf_free(&t);
            pr_buf_free(&target);
        }
        pr_buf_puts(out, " |");
    }
    pr_buf_puts(out, "\n|");
    for (size_t i = 0; i < nh; i++)
        pr_buf_puts(out, " ---: |");
    pr_buf_putc(out, '\n');
    pr_buf *cells = pr_xcalloc(nh, sizeof *cells);
    for (size_t r = 0; r < mc->nrows; r++) {
        int nodes = mc->rows[r].nodes, gpus = mc->rows[r].gpus;
        mdt_cells_clear(cells, nh);
        pr_buf_printf(&cells[0], "%d", nodes);
        pr_buf_printf(&cells[1], "%d", gpus);
        for (size_t i = 0; i < ncols; i++)
            mdt_summary_cell(w, l, rm_cell_of(mc->fcfgs[i], nodes, gpus), page_rel, nt,
                             &cells[i + 2]);
        mdt_row(out, cells, nh);
    }
    mdt_cells_free(cells, nh);
    free(cells);
    free(heads);
}

json_t *page_model_view(const rm_world *w, const lang *l, const rm_model *m, cs_queue *oc,
                        pr_err *err)
{
    json_t *view = json_object();
    vw_notes nt = {0};
    pr_buf b = PR_BUF_INIT;
    int ok = 0;
    vw_text(view, "model_title", m->title);
    vw_page(view, l);
    /* Every configuration any framework has. */
    json_t *configs = json_array();
    const char *unit = m->nfws ? m->fws[0]->unit : "";
    for (size_t i = 0; i < m->ncfgs; i++) {
        const rm_mcfg *mc = &m->cfgs[i];
        json_t *cv = json_object();
        lang_config_name(l, &mc->cfg, &b, err);
        vw_md(cv, "name", &b);
        cross_table(w, l, mc, m->id, &nt, &b);
        vw_md(cv, "table", &b);
        json_array_append_new(configs, cv);
        if (oc->charts) {
            if (cs_model(l, m, mc, oc, &b, err) < 0) {
                json_decref(configs);
                goto out;
            }
            if (b.len)
                vw_md(cv, "chart", &b);
        }
    }
    json_object_set_new(view, "configs", configs);
    vw_text(view, "unit", unit);
    json_t *fws = json_array();
    for (size_t i = 0; i < m->nfws; i++) {
        mdt_page_link(&b, m->fws[i]->framework_title, m->fws[i]->framework, l);
        json_array_append_new(fws, json_pack("{s:s}", "link", pr_buf_cstr(&b)));
        pr_buf_clear(&b);
    }
    json_object_set_new(view, "frameworks", fws);
    int hardware = m->nfws > 0;
    for (size_t i = 0; i < m->nfws; i++)
        hardware &= m->fws[i]->suite && m->fws[i]->suite->hardware;
    json_object_set_new(view, "hardware", json_boolean(hardware));
    vw_notes_set(view, l, &nt, NULL, err);
    ok = 1;
out:
    pr_buf_free(&b);
    if (!ok) {
        json_decref(view);
        view = NULL;
    }
    return view;
}
