#include "provenance.h"

#include <string.h>

#include "base/md.h"
#include "jdoc.h"
#include "mdtable.h"

const char *provenance_platform_title(const lang *l, const pr_platform *p)
{
    if (!p)
        return lang_str(l, "platform_unknown");
    return strcmp(l->code, "zh") == 0 ? p->title_zh : p->title_en;
}

const char *provenance_col_count(const lang *l, const pr_platform *p)
{
    /* A described CPU system counts its threads ("4 nodes × 16 threads"). */
    if (platform_is_cpu(p) && !strcmp(platform_device_word(p), "thread"))
        return lang_str(l, "col_threads");
    return lang_str(l, platform_is_cpu(p) ? "col_procs" : "col_gpus");
}

size_t provenance_counts(const rmodel_cfg *c)
{
    size_t n = 0;
    /* Cells are in GPU order: a new count starts where the previous differs. */
    for (size_t i = 0; i < c->ncells; i++)
        if (i == 0 || c->cells[i].gpus != c->cells[i - 1].gpus)
            n++;
    return n;
}

void provenance_record_source(const pr_record *r, pr_buf *out)
{
    const char *repo = pr_jdoc_json_str(r->source, "repo"),
               *commit = pr_jdoc_json_str(r->source, "commit");
    const char *path = pr_jdoc_json_str(r->source, "path"),
               *url = pr_jdoc_json_str(r->source, "url");
    if (!repo)
        return;
    /* A short commit reads as well and still names one revision. */
    pr_buf loc = PR_BUF_INIT, code = PR_BUF_INIT;
    pr_buf_printf(&loc, "%s@%.8s:%s", repo, commit ? commit : "", path ? path : "");
    md_code_span(&code, pr_buf_cstr(&loc));
    if (url)
        mdtable_link_url(out, pr_buf_cstr(&code), url);
    else
        pr_buf_puts(out, pr_buf_cstr(&code));
    pr_buf_free(&loc);
    pr_buf_free(&code);
}
