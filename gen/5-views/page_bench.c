#include "pages.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "3-tables/view.h"
#include "base/md.h"

static void bench_number(pr_buf *out, double v)
{
    /* Benchmarks span µs to GB/s: 3 significant decimals below 10, else 1. */
    md_number(out, v, v < 10 ? 3 : 1);
}

/* What tells b's machine from another's: every field it records, as one
 * string the caller frees. */
static char *machine_key(const pr_bench *b)
{
    const pr_bench_machine *m = &b->machine;
    return pr_xasprintf("%s\n%lld\n%lld\n%s\n%s", m->cpu_model ? m->cpu_model : "", m->cpu_count,
                        m->memory_mb, m->os ? m->os : "", m->kernel ? m->kernel : "");
}

/* Sets in view what the page says when its benchmarks are not of one
 * machine and one commit: "machines" and "commits" (how many different,
 * when more than one), "unrecorded" (how many name no commit, of "total"),
 * and "mixed" when any of these is said. */
static void provenance_view(json_t *view, const pr_dataset *d)
{
    size_t machines = 0, commits = 0, unrecorded = 0;
    char **keys = pr_xcalloc(d->nbenches ? d->nbenches : 1, sizeof *keys);
    for (size_t i = 0; i < d->nbenches; i++) {
        const pr_bench *b = &d->benches[i];
        keys[i] = machine_key(b);
        size_t j = 0;
        while (j < i && strcmp(keys[j], keys[i]) != 0)
            j++;
        machines += j == i;
        if (!b->commit) {
            unrecorded++;
            continue;
        }
        j = 0;
        while (j < i && !(d->benches[j].commit && strcmp(d->benches[j].commit, b->commit) == 0 &&
                          d->benches[j].dirty == b->dirty))
            j++;
        commits += j == i;
    }
    for (size_t i = 0; i < d->nbenches; i++)
        free(keys[i]);
    free(keys);
    if (machines > 1)
        json_object_set_new(view, "machines", json_integer((json_int_t)machines));
    if (commits > 1)
        json_object_set_new(view, "commits", json_integer((json_int_t)commits));
    if (unrecorded) {
        json_object_set_new(view, "unrecorded", json_integer((json_int_t)unrecorded));
        json_object_set_new(view, "total", json_integer((json_int_t)d->nbenches));
    }
    if (machines > 1 || commits > 1 || unrecorded)
        json_object_set_new(view, "mixed", json_true());
}

/* The machine and the commit of b, into bv. */
static void machine_view(json_t *bv, const pr_bench *b)
{
    const pr_bench_machine *m = &b->machine;
    view_text(bv, "cpu", m->cpu_model);
    if (m->cpu_count)
        json_object_set_new(bv, "cpus", json_integer((json_int_t)m->cpu_count));
    if (m->memory_mb) {
        pr_buf mem = PR_BUF_INIT;
        pr_buf_printf(&mem, "%.1f GiB", (double)m->memory_mb / 1024.0);
        view_md(bv, "memory", &mem);
    }
    view_text(bv, "os", m->os);
    view_text(bv, "kernel", m->kernel);
    if (b->commit) {
        /* twelve digits name it in this repository; the file keeps all */
        pr_buf id = PR_BUF_INIT;
        char *shorter = pr_xstrndup(b->commit, 12);
        md_code_span(&id, shorter);
        free(shorter);
        view_md(bv, "commit", &id);
        if (b->dirty)
            json_object_set_new(bv, "dirty", json_true());
    }
}

/* perfrepro's own performance page, from data/bench (make bench): each
 * benchmark with the machine and the commit it ran at, and a line at the
 * top when they are not one for the whole page.  A new view the caller
 * frees (json_decref). */
json_t *page_bench_view(const rmodel_world *w, const lang *l)
{
    json_t *view = json_object();
    view_page(view, l);
    provenance_view(view, w->d);
    json_t *list = json_array();
    int zh = strcmp(l->code, "zh") == 0;
    for (size_t i = 0; i < w->d->nbenches; i++) {
        const pr_bench *b = &w->d->benches[i];
        json_t *bv = json_object();
        view_text(bv, "title", zh ? b->title_zh : b->title_en);
        view_text(bv, "unit", b->unit);
        view_text(bv, "date", b->date);
        machine_view(bv, b);
        view_text(bv, "notes", pr_bitext_in(&b->notes, l->code));
        pr_buf code = PR_BUF_INIT;
        md_code_span(&code, b->command);
        view_md(bv, "command", &code);
        json_t *rows = json_array();
        for (size_t j = 0; j < b->nresults; j++) {
            const pr_bench_result *r = &b->results[j];
            pr_buf med = PR_BUF_INIT, range = PR_BUF_INIT, rss = PR_BUF_INIT, tool = PR_BUF_INIT;
            md_cell(&tool, pr_bitext_in(&r->tool, l->code));
            bench_number(&med, r->median);
            if (!isnan(r->min) && !isnan(r->max)) {
                bench_number(&range, r->min);
                pr_buf_puts(&range, " – ");
                bench_number(&range, r->max);
            } else if (r->timed_as_loop) {
                /* Not "—": the range was not lost, it was never measured. */
                json_t *v = json_pack("{s:i}", "runs", r->runs);
                pr_err ignored; /* the string was checked when the language loaded */
                lang_fmt(l, "bench_range_loop", v, &range, &ignored);
                json_decref(v);
            } else {
                pr_buf_puts(&range, lang_str(l, "state_none"));
            }
            if (!isnan(r->peak_rss_mb))
                pr_buf_printf(&rss, "%.1f MB", r->peak_rss_mb);
            else
                pr_buf_puts(&rss, lang_str(l, "state_none"));
            json_t *row = json_pack("{s:s,s:s,s:s,s:i,s:s}", "tool", pr_buf_cstr(&tool), "median",
                                    pr_buf_cstr(&med), "range", pr_buf_cstr(&range), "runs",
                                    r->runs, "rss", pr_buf_cstr(&rss));
            if (r->peak_rss_runs)
                json_object_set_new(row, "rss_runs", json_integer(r->peak_rss_runs));
            json_array_append_new(rows, row);
            pr_buf_free(&med);
            pr_buf_free(&range);
            pr_buf_free(&rss);
            pr_buf_free(&tool);
        }
        json_object_set_new(bv, "rows", rows);
        if (b->ratio_of) {
            /* Computed from the two figures the page shows, never stored; the
             * label is the data's, else "of ÷ to" from the tools' names. */
            pr_buf r = PR_BUF_INIT, what = PR_BUF_INIT;
            md_number(&r, b->ratio_of->median / b->ratio_to->median, 2);
            if (b->ratio_text.en)
                pr_buf_puts(&what, pr_bitext_in(&b->ratio_text, l->code));
            else
                pr_buf_printf(&what, "%s ÷ %s", pr_bitext_in(&b->ratio_of->tool, l->code),
                              pr_bitext_in(&b->ratio_to->tool, l->code));
            view_text(bv, "ratio_text", pr_buf_cstr(&what));
            view_md(bv, "ratio", &r);
            pr_buf_free(&what);
        }
        if (b->target_text.en) {
            view_text(bv, "target_text", pr_bitext_in(&b->target_text, l->code));
            json_object_set_new(bv, "met", json_boolean(b->target_met));
            json_object_set_new(bv, "has_target", json_true());
        }
        json_array_append_new(list, bv);
    }
    json_object_set_new(view, "benches", list);
    return view;
}
