#include "compare.h"

#include <string.h>

#include "md.h"
#include "mdtable.h"

const char *cmp_platform_title(const lang *l, const pr_platform *p)
{
    if (!p)
        return lang_str(l, "platform_unknown");
    return strcmp(l->code, "zh") == 0 ? p->title_zh : p->title_en;
}

/* The view class_config_name reads; a new reference the caller owns. */
static json_t *config_view(const lang *l, const rm_cfg *c, int with_platform)
{
    const char *title = strcmp(l->code, "zh") == 0 ? c->klass->title_zh : c->klass->title_en;
    json_t *v = json_object();
    json_object_set_new(v, "class", json_string(title));
    /* "混合精度（AMP / FP16）BS=64": no space after a full-width bracket. */
    size_t n = strlen(title);
    json_object_set_new(v, "tight", json_boolean(n >= 3 && strcmp(title + n - 3, "）") == 0));
    if (c->batch_label)
        json_object_set_new(v, "batch", json_string(c->batch_label));
    else if (c->bs > 0 && !c->hardware)
        json_object_set_new(v, "batch", json_integer(c->bs));
    if (with_platform)
        json_object_set_new(v, "platform", json_string(cmp_platform_title(l, c->platform)));
    return v;
}

void cmp_config_name(const lang *l, const rm_cfg *c, int with_platform, pr_buf *out, pr_err *err)
{
    json_t *v = config_view(l, c, with_platform);
    lang_fmt(l, "class_config_name", v, out, err);
    json_decref(v);
}

char *cmp_config_plain(const lang *l, const rm_cfg *c, int with_platform, pr_err *err)
{
    json_t *v = config_view(l, c, with_platform);
    char *s = lang_fmt_plain(l, "class_config_name", v, err);
    json_decref(v);
    return s;
}

int cmp_col_mode(const rm_mcfg *mc, size_t col, pr_buf *out)
{
    const pr_prec_class *k = mc->cfg.klass;
    if (!k->modes[0] || !k->modes[1])
        return 0;
    mdt_mode_name(mc->fcfgs[col]->precision, out);
    return 1;
}

void cmp_pub_source(const lang *l, const pr_pub_table *t, pr_buf *out, pr_err *err)
{
    pr_buf label = PR_BUF_INIT, src = PR_BUF_INIT;
    pr_md_text(&label, t->label);
    if (t->source_url)
        mdt_link_url(&src, pr_buf_cstr(&label), t->source_url);
    else
        pr_buf_puts(&src, pr_buf_cstr(&label));
    json_t *v = json_object();
    json_object_set_new(v, "source", json_string(pr_buf_cstr(&src)));
    if (t->variant.en)
        json_object_set_new(v, "variant", json_string(pr_bitext_in(&t->variant, l->code)));
    lang_fmt(l, "src_pub_table", v, out, err);
    json_decref(v);
    pr_buf_free(&label);
    pr_buf_free(&src);
}

const rm_mcfg *cmp_headline_cfg(const rm_world *w, const rm_model *m,
                                const pr_model_decl **decl)
{
    const pr_model_decl *d = pr_decl_model(&w->d->decls, m->id);
    if (decl)
        *decl = d;
    for (size_t i = 0; d && i < m->ncfgs; i++) {
        const rm_cfg *c = &m->cfgs[i].cfg;
        if (c->platform == d->platform && c->klass == d->precision_class &&
            c->bs == d->batch_size)
            return &m->cfgs[i];
    }
    return NULL;
}

const rm_cell *cmp_headline_cell(const rm_mcfg *mc, const rm_fw *f, int gpus)
{
    const rm_cell *best = NULL;
    for (size_t i = 0; mc && i < mc->ncols; i++) {
        if (mc->fws[i] != f)
            continue;
        const rm_cfg *c = mc->fcfgs[i];
        for (size_t r = 0; r < c->ncells; r++) {
            const rm_cell *rc = &c->cells[r];
            if (rc->gpus == gpus && rc->origin != RM_NONE && (!best || rc->nodes < best->nodes))
                best = rc;
        }
    }
    return best;
}
