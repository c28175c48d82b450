#include "view.h"

#include <math.h>
#include <stdlib.h>

#include "2-model/sanity.h"
#include "base/md.h"
#include "unitdir.h"

void view_str(json_t *o, const char *k, const char *v)
{
    if (v)
        json_object_set_new(o, k, json_string(v));
}

void view_md(json_t *o, const char *k, pr_buf *b)
{
    char *s = pr_buf_detach(b);
    json_object_set_new(o, k, json_string(s));
    free(s);
}

void view_unit(json_t *o, const lang *l, const char *k, const char *unit)
{
    pr_unitdir_dir d = pr_unitdir_of(unit);
    pr_buf b = PR_BUF_INIT;
    md_text(&b, unit ? unit : "");
    if (d != PR_DIR_HIGHER && unit && *unit) {
        pr_buf_puts(&b, ", ");
        md_text(&b, lang_str(l, d == PR_DIR_LOWER ? "dir_lower" : "dir_unknown"));
    }
    if (d == PR_DIR_LOWER)
        json_object_set_new(o, "lower", json_true());
    view_md(o, k, &b);
}

void view_text(json_t *o, const char *k, const char *v)
{
    if (!v)
        return;
    pr_buf b = PR_BUF_INIT;
    md_text(&b, v);
    view_md(o, k, &b);
}

void view_page(json_t *view, const lang *l)
{
    view_str(view, "toc", LANG_TOC_MARK);
    view_str(view, "readme", l->readme);
    view_str(view, "other_readme", l->other_readme);
}

char *view_stats_link(const rmodel_world *w, const char *page_rel)
{
    /* The repository's docs sit beside its data folder; a data folder
     * elsewhere (tests, a user's own) has none, and the note then names the
     * file without a link. */
    char *link = NULL;
    if (w->stats_doc) {
        char *rel = rmodel_link_to(w, page_rel, w->stats_doc);
        pr_buf b = PR_BUF_INIT;
        md_link_path(&b, rel);
        link = pr_buf_detach(&b);
        free(rel);
    }
    return link;
}

static void add_note(json_t *notes, const lang *l, const char *key, json_t *view, pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    lang_fmt(l, key, view, &b, err);
    json_array_append_new(notes, json_pack("{s:s}", "text", pr_buf_cstr(&b)));
    pr_buf_free(&b);
}

void view_notes_set(json_t *view, const lang *l, const view_notes *nt, const rmodel_fw *f,
                    pr_err *err)
{
    json_t *list = json_array();
    json_t *v = json_object();
    json_object_set_new(v, "threshold",
                        json_real(100.0 * (f && f->suite ? f->suite->gap_threshold : 0.05)));
    /* A hardware suite's figures are measured values with no speedup. */
    add_note(list, l, f && f->suite && f->suite->hardware ? "note_rounding_hw" : "note_rounding", v,
             err);
    if (nt->no_baseline)
        add_note(list, l, "note_no_baseline", v, err);
    if (f && f->dir == PR_DIR_LOWER)
        add_note(list, l, "note_time_speedup", v, err);
    if (nt->batch_differs)
        add_note(list, l, "note_batch_differs", v, err);
    if (nt->published)
        add_note(list, l, "note_published", v, err);
    if (nt->gap)
        add_note(list, l, "note_gap", v, err);
    if (nt->speedup_flag) {
        add_note(list, l, "note_speedup_flag", v, err);
        add_note(list, l, "note_speedup_interval", v, err);
    }
    if (nt->stats) {
        if (nt->stats_link)
            json_object_set_new(v, "link", json_string(nt->stats_link));
        add_note(list, l, nt->stats_link ? "note_stats" : "note_stats_plain", v, err);
    }
    if (nt->insufficient)
        add_note(list, l, "note_insufficient", v, err);
    if (nt->olympic)
        add_note(list, l, "note_olympic", v, err);
    if (nt->sanity) {
        /* The efficiency rule in words with the tolerance its flag allows. */
        json_object_set_new(v, "eff_tol", json_integer((json_int_t)lround(100.0 * SN_EFF_TOL)));
        add_note(list, l, "note_sanity", v, err);
    }
    if (nt->failed)
        add_note(list, l, "note_failed", v, err);
    json_decref(v);
    json_object_set_new(view, "notes", list);
}
