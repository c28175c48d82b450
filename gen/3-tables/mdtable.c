#include "mdtable.h"

#include <math.h>
#include <string.h>

#include "base/md.h"
#include "stats.h"

void mdtable_row(pr_buf *out, pr_buf *cells, size_t n)
{
    pr_buf_puts(out, "|");
    for (size_t i = 0; i < n; i++) {
        pr_buf_putc(out, ' ');
        pr_buf_puts(out, pr_buf_cstr(&cells[i]));
        pr_buf_puts(out, " |");
    }
    pr_buf_putc(out, '\n');
}

void mdtable_head(pr_buf *out, const char *const *heads, size_t n, int numeric_from)
{
    pr_buf_puts(out, "|");
    for (size_t i = 0; i < n; i++) {
        pr_buf_putc(out, ' ');
        md_cell(out, heads[i]);
        pr_buf_puts(out, " |");
    }
    pr_buf_puts(out, "\n|");
    for (size_t i = 0; i < n; i++)
        pr_buf_puts(out, (int)i >= numeric_from ? " ---: |" : " --- |");
    pr_buf_putc(out, '\n');
}

void mdtable_cells_clear(pr_buf *cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pr_buf_clear(&cells[i]);
}

void mdtable_cells_free(pr_buf *cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pr_buf_free(&cells[i]);
}

void mdtable_link(pr_buf *out, const char *text_md, const char *target)
{
    pr_buf_putc(out, '[');
    pr_buf_puts(out, text_md);
    pr_buf_puts(out, "](");
    md_link_path(out, target);
    pr_buf_putc(out, ')');
}

void mdtable_link_url(pr_buf *out, const char *text_md, const char *url)
{
    pr_buf_putc(out, '[');
    pr_buf_puts(out, text_md);
    pr_buf_puts(out, "](");
    md_link_target(out, url);
    pr_buf_putc(out, ')');
}

void mdtable_page_link(pr_buf *out, const char *title, const char *dir, const lang *l)
{
    pr_buf t = PR_BUF_INIT, target = PR_BUF_INIT;
    md_text(&t, title);
    pr_buf_printf(&target, "%s/%s", dir, l->readme);
    mdtable_link(out, pr_buf_cstr(&t), pr_buf_cstr(&target));
    pr_buf_free(&t);
    pr_buf_free(&target);
}

void mdtable_log_link(const rmodel_world *w, const char *page_rel, const pr_run *run,
                      const pr_record *r, const char *text_md, pr_buf *out)
{
    mdtable_log_line_link(w, page_rel, run, r, 0, text_md, out);
}

void mdtable_log_line_link(const rmodel_world *w, const char *page_rel, const pr_run *run,
                           const pr_record *r, int line, const char *text_md, pr_buf *out)
{
    if (!r->log_file[0]) {
        pr_buf_puts(out, text_md);
        return;
    }
    /* The log's path from the output root, computed once per record; a page
     * d folders deep prefixes d "../" (which md_link_path keeps as it is). */
    pr_buf_putc(out, '[');
    pr_buf_puts(out, text_md);
    pr_buf_puts(out, "](");
    for (const char *p = page_rel; *p; p++)
        if (p == page_rel || p[-1] == '/')
            pr_buf_puts(out, "../");
    md_link_path(out, rmodel_log_path(w, run, r));
    /* The line's anchor as GitHub's file view names it. */
    if (line > 0)
        pr_buf_printf(out, "#L%d", line);
    pr_buf_putc(out, ')');
}

const char *mdtable_fail_word(const lang *l, const pr_record *r)
{
    return strcmp(r->fail_reason, "oom") == 0 ? lang_str(l, "state_oom")
                                              : lang_str(l, "state_failed");
}

void mdtable_value(pr_buf *out, double v)
{
    md_number(out, v, PR_DECIMALS_VALUE);
}

void mdtable_optional(pr_buf *out, const lang *l, double v, int decimals)
{
    if (isnan(v))
        pr_buf_puts(out, lang_str(l, "state_none"));
    else
        md_number(out, v, decimals);
}

void mdtable_pub_value(pr_buf *out, const pr_pub_row *row)
{
    /* Without its printed text, the number's shortest form is the closest
     * to what was printed: 428 stays 428, 4.073 stays 4.073. */
    int d = data_pub_decimals(row);
    if (row->printed)
        md_cell(out, row->printed);
    else
        md_number(out, row->value, d > 6 ? 6 : d);
}

void mdtable_summary_cell(const rmodel_world *w, const lang *l, const rmodel_cell *rc,
                          const char *page_rel, view_notes *nt, pr_buf *out)
{
    pr_buf v = PR_BUF_INIT;
    /* An imported figure's mark goes inside the link: the figure and its
     * origin are one. */
    const char *mark = rc->imported ? lang_str(l, "imported_mark") : "";
    switch (rc->origin) {
    case RM_MEASURED:
        mdtable_value(&v, rc->median);
        pr_buf_puts(&v, mark);
        mdtable_log_link(w, page_rel, rc->link_run, rc->link_rec, pr_buf_cstr(&v), out);
        break;
    case RM_FAILED:
        pr_buf_puts(&v, mdtable_fail_word(l, rc->fail_rec));
        pr_buf_puts(&v, mark);
        mdtable_log_link(w, page_rel, rc->fail_run, rc->fail_rec, pr_buf_cstr(&v), out);
        if (nt)
            nt->failed = 1;
        break;
    case RM_PUBLISHED:
        mdtable_pub_value(out, rc->pub);
        pr_buf_puts(out, lang_str(l, "published_mark"));
        if (nt)
            nt->published = 1;
        break;
    case RM_PUB_STATE:
        md_text(out, rc->pub->state);
        break;
    case RM_PLANNED:
        pr_buf_puts(out, lang_str(l, "state_todo"));
        break;
    case RM_NONE:
        pr_buf_puts(out, lang_str(l, "state_none"));
        break;
    }
    pr_buf_free(&v);
}

void mdtable_mode_name(const char *precision, pr_buf *out)
{
    for (const char *p = precision; *p; p++)
        pr_buf_putc(out, (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p));
}
