#include "pages.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "1-load/runset.h"
#include "2-model/flags.h"
#include "3-tables/compare.h"
#include "3-tables/likewise.h"
#include "3-tables/mdtable.h"
#include "3-tables/view.h"
#include "base/md.h"
#include "fileio.h"

/* Index: every model with its headline (compare.h: the declared
 * configuration when it has figures, else the one the documented rule
 * picks), one row per framework with its figure there, the figure's ❗ and
 * footnote, and the date of the run set (or published source) it comes
 * from; a line above the table names each model's configuration, platform
 * and GPUs.  Models with no figure yet are listed apart, as planned, with
 * their frameworks. */

/* The link from the index to the headline rule's documentation (beside the
 * data folder); NULL when there is none (a data folder elsewhere). */
static char *rule_link(const rmodel_world *w)
{
    char *path = pr_fileio_path_join(w->d->dir, "../docs/data-model.md");
    char *link = NULL;
    if (access(path, R_OK) == 0) {
        char *rel = rmodel_link_to(w, "", path);
        pr_buf b = PR_BUF_INIT;
        md_link_path(&b, rel);
        pr_buf_puts(&b, "#headline");
        link = pr_buf_detach(&b);
        free(rel);
    }
    free(path);
    return link;
}

/* The date of the figure rc stands for: its run set's dates (runset.h), or
 * the published source's date; "—" when neither says. */
static void figure_date(const lang *l, const rmodel_cfg *c, const rmodel_cell *rc, pr_buf *out)
{
    if (rc->origin == RM_MEASURED && rc->link_run && runset_dates(rc->link_run, out))
        return;
    if (rc->origin == RM_PUBLISHED && c->pub && c->pub->date) {
        md_text(out, c->pub->date);
        return;
    }
    pr_buf_puts(out, lang_str(l, "state_none"));
}

/* The configuration of framework f in headline h's model configuration;
 * NULL when it has none there. */
static const rmodel_cfg *headline_fcfg(const compare_headline *h, const rmodel_fw *f)
{
    for (size_t i = 0; h->mc && i < h->mc->ncols; i++)
        if (h->mc->fws[i] == f)
            return h->mc->fcfgs[i];
    return NULL;
}

/* Framework f's cell at headline h when it shows a figure; NULL else. */
static const rmodel_cell *headline_figure(const compare_headline *h, const rmodel_fw *f)
{
    const rmodel_cell *rc = compare_headline_cell(h->mc, f, h->gpus);
    return rc && headline_fcfg(h, f) && (rc->origin == RM_MEASURED || rc->origin == RM_PUBLISHED)
               ? rc
               : NULL;
}

/* Framework f's headline figure in h (headline_figure: not NULL), marked,
 * with the unit and its flags' marks (their footnotes into sn), and its
 * date. */
static void headline(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                     const compare_headline *h, sanity_notes *sn, pr_buf *out, pr_buf *date,
                     pr_err *err)
{
    const rmodel_cell *rc = headline_figure(h, f);
    const rmodel_cfg *c = headline_fcfg(h, f);
    pr_buf val = PR_BUF_INIT;
    mdtable_summary_cell(w, l, rc, "", NULL, &val);
    if (rc->origin == RM_MEASURED || rc->origin == RM_PUBLISHED) {
        json_t *v = json_pack("{s:s,s:s}", "value", pr_buf_cstr(&val), "unit", f->unit);
        lang_fmt(l, "index_value", v, out, err);
        json_decref(v);
    } else {
        pr_buf_puts(out, pr_buf_cstr(&val));
    }
    if (rc->flagged) {
        pr_buf *marks = pr_xcalloc(c->ncells + 1, sizeof *marks);
        flags_cfg_notes(l, f, c, rc, marks, sn, err);
        pr_buf_puts(out, pr_buf_cstr(&marks[rc - c->cells]));
        for (size_t i = 0; i < c->ncells; i++)
            pr_buf_free(&marks[i]);
        free(marks);
    }
    pr_buf_free(&val);
    figure_date(l, c, rc, date);
}

/* The line naming model m's headline: configuration with its platform, the
 * GPUs, and whether the model declares it or the rule chose it. */
static void headline_line(const lang *l, const rmodel_model *m, const compare_headline *h,
                          const char *rule, pr_buf *out, pr_err *err)
{
    pr_buf link = PR_BUF_INIT, config = PR_BUF_INIT, gpus = PR_BUF_INIT;
    mdtable_page_link(&link, m->title, m->id, l);
    compare_config_name(l, &h->mc->cfg, 1, &config, err);
    int nodes = 0;
    for (size_t r = 0; r < h->mc->nrows; r++)
        if (h->mc->rows[r].gpus == h->gpus && (!nodes || h->mc->rows[r].nodes < nodes))
            nodes = h->mc->rows[r].nodes;
    lang_gpus_label(l, nodes ? nodes : 1, h->gpus, &gpus, err);
    json_t *v = json_pack("{s:s,s:s,s:s}", "model", pr_buf_cstr(&link), "config",
                          pr_buf_cstr(&config), "gpus", pr_buf_cstr(&gpus));
    if (h->decl) {
        json_object_set_new(v, "file", json_sprintf("data/models/%s.json", m->id));
    } else {
        if (rule)
            json_object_set_new(v, "rule", json_string(rule));
        if (h->declared)
            json_object_set_new(v, "declared_empty", json_sprintf("data/models/%s.json", m->id));
    }
    lang_fmt(l, h->decl ? "head_index_declared" : "head_index_chosen", v, out, err);
    json_decref(v);
    pr_buf_free(&link);
    pr_buf_free(&config);
    pr_buf_free(&gpus);
}

/* The planned line of model m: its frameworks, linked. */
static void planned_line(const lang *l, const rmodel_model *m, pr_buf *out, pr_err *err)
{
    pr_buf link = PR_BUF_INIT, fws = PR_BUF_INIT;
    mdtable_page_link(&link, m->title, m->id, l);
    for (size_t j = 0; j < m->nfws; j++) {
        char *fdir = pr_xasprintf("%s/%s", m->id, m->fws[j]->framework);
        if (j)
            pr_buf_puts(&fws, lang_str(l, "value_sep"));
        mdtable_page_link(&fws, m->fws[j]->framework_title, fdir, l);
        free(fdir);
    }
    json_t *v =
        json_pack("{s:s,s:s}", "model", pr_buf_cstr(&link), "frameworks", pr_buf_cstr(&fws));
    lang_fmt(l, "head_index_planned", v, out, err);
    json_decref(v);
    pr_buf_free(&link);
    pr_buf_free(&fws);
}

/* 1 when some configuration of m, of any platform, shows a figure. */
static int model_has_figures(const rmodel_model *m)
{
    for (size_t i = 0; i < m->nfws; i++)
        for (size_t j = 0; j < m->fws[i]->ncfgs; j++)
            for (size_t r = 0; r < m->fws[i]->cfgs[j].ncells; r++) {
                rmodel_origin o = m->fws[i]->cfgs[j].cells[r].origin;
                if (o == RM_MEASURED || o == RM_PUBLISHED)
                    return 1;
            }
    return 0;
}

json_t *page_index_view(const rmodel_world *w, const lang *l, pr_err *err)
{
    json_t *view = json_object();
    view_page(view, l);
    json_t *rows = json_array(), *decls = json_array(), *planned = json_array();
    json_t *unplaced = json_array();
    view_notes nt = {0};
    sanity_notes sn;
    sanity_notes_init(&sn, 1);
    char *rule = rule_link(w);
    pr_buf who = PR_BUF_INIT;
    for (size_t i = 0; i < w->nmodels; i++) {
        const rmodel_model *m = w->models[i];
        compare_headline h;
        compare_headline_of(w, m, &h);
        pr_buf line = PR_BUF_INIT;
        if (!h.mc) {
            /* No figure on a known machine: planned, or figures only the
             * framework pages show (their machine is not stated). */
            planned_line(l, m, &line, err);
            json_array_append_new(model_has_figures(m) ? unplaced : planned,
                                  json_pack("{s:s}", "text", pr_buf_cstr(&line)));
            pr_buf_free(&line);
            continue;
        }
        headline_line(l, m, &h, rule, &line, err);
        json_array_append_new(decls, json_pack("{s:s}", "text", pr_buf_cstr(&line)));
        pr_buf_free(&line);
        pr_buf none = PR_BUF_INIT;
        for (size_t j = 0; j < m->nfws; j++) {
            const rmodel_fw *f = m->fws[j];
            if (!headline_figure(&h, f)) {
                char *fdir = pr_xasprintf("%s/%s", m->id, f->framework);
                if (none.len)
                    pr_buf_puts(&none, lang_str(l, "value_sep"));
                mdtable_page_link(&none, f->framework_title, fdir, l);
                free(fdir);
                continue;
            }
            pr_buf mlink = PR_BUF_INIT, flink = PR_BUF_INIT, hl = PR_BUF_INIT, date = PR_BUF_INIT;
            /* Cell and inline escaping are the same (md_cell == md_text). */
            mdtable_page_link(&mlink, m->title, m->id, l);
            char *fdir = pr_xasprintf("%s/%s", m->id, f->framework);
            mdtable_page_link(&flink, f->framework_title, fdir, l);
            free(fdir);
            pr_buf_clear(&who);
            md_text(&who, m->title);
            pr_buf_puts(&who, " · ");
            md_text(&who, f->framework_title);
            sn.who = pr_buf_cstr(&who);
            headline(w, l, f, &h, &sn, &hl, &date, err);
            json_array_append_new(rows, json_pack("{s:s,s:s,s:s,s:s}", "model", pr_buf_cstr(&mlink),
                                                  "framework", pr_buf_cstr(&flink), "headline",
                                                  pr_buf_cstr(&hl), "date", pr_buf_cstr(&date)));
            pr_buf_free(&mlink);
            pr_buf_free(&flink);
            pr_buf_free(&hl);
            pr_buf_free(&date);
        }
        if (none.len) {
            /* Said once under the model's line, not as rows of dashes. */
            json_t *v = json_pack("{s:s}", "frameworks", pr_buf_cstr(&none));
            pr_buf_clear(&line);
            lang_fmt(l, "head_index_no_figure", v, &line, err);
            json_decref(v);
            json_object_set_new(json_array_get(decls, json_array_size(decls) - 1), "none",
                                json_string(pr_buf_cstr(&line)));
            pr_buf_free(&line);
        }
        pr_buf_free(&none);
        /* Like with like at the headline's row (likewise.h): a ranking
         * only where the figures' configurations and estimators agree. */
        rmodel_row hrow = {0, h.gpus};
        for (size_t r = 0; r < h.mc->nrows; r++)
            if (h.mc->rows[r].gpus == h.gpus && (!hrow.nodes || h.mc->rows[r].nodes < hrow.nodes))
                hrow.nodes = h.mc->rows[r].nodes;
        likewise_cmp *lw = likewise_build(h.mc, &hrow, 1);
        if (lw) {
            pr_buf_clear(&line);
            likewise_summary_md(l, lw, &line, err);
            json_object_set_new(json_array_get(decls, json_array_size(decls) - 1), "likewise",
                                json_string(pr_buf_cstr(&line)));
            likewise_free(lw);
        }
        pr_buf_free(&line);
    }
    sn.who = NULL;
    json_object_set_new(view, "rows", rows);
    json_object_set_new(view, "decls", decls);
    json_object_set_new(view, "has_planned", json_boolean(json_array_size(planned) > 0));
    json_object_set_new(view, "has_unplaced", json_boolean(json_array_size(unplaced) > 0));
    json_object_set_new(view, "planned", planned);
    json_object_set_new(view, "unplaced", unplaced);
    if (sn.notes.len) {
        while (sn.notes.len && sn.notes.data[sn.notes.len - 1] == '\n')
            pr_buf_truncate(&sn.notes, sn.notes.len - 1);
        view_md(view, "flags", &sn.notes);
        nt.sanity = 1;
    }
    pr_buf b = PR_BUF_INIT;
    json_t *iv = json_object();
    if (rule)
        json_object_set_new(iv, "rule", json_string(rule));
    lang_fmt(l, "head_index_intro", iv, &b, err);
    json_decref(iv);
    view_md(view, "decl_intro", &b);
    pr_buf_free(&b);
    view_str(view, "origin_legend", lang_str(l, "origin_legend"));
    json_t *models = json_array();
    for (size_t i = 0; i < w->nmodels; i++) {
        pr_buf link = PR_BUF_INIT;
        mdtable_page_link(&link, w->models[i]->title, w->models[i]->id, l);
        json_array_append_new(models, json_pack("{s:s}", "link", pr_buf_cstr(&link)));
        pr_buf_free(&link);
    }
    json_object_set_new(view, "models", models);
    /* The origin legend explains the marks; no separate † note. */
    view_notes_set(view, l, &nt, NULL, err);
    pr_buf_free(&who);
    sanity_notes_free(&sn);
    free(rule);
    return view;
}
