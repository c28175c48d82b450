/* page_framework: OUT/<Model>/<Framework>/README.md.
 *
 * A reproduction report where the framework has runs (measured here or
 * imported from published logs), else a summary of published figures (or a
 * test plan).  The results have one section per platform (fw_order.c: the
 * model's main platform first, CPU machines last), each with its summary
 * table where it has runs, its planned cases as one sentence, its speedup
 * chart, a reproduction table per configuration with runs, one table of the
 * newest revision of each published source and one of the older revisions
 * (fw_pubtab.c): figures of different machines never share a table.  Every
 * figure carries its origin (plain: measured here; ‡ imported; †
 * published), the markers explained once.  The environment section is
 * env_view.c's, the steps steps.c's, the rules in words rule_words.c's; the
 * layout is docs/report-format.md.
 */
#include "pages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/runset.h"
#include "2-model/sanity.h"
#include "3-tables/compare.h"
#include "3-tables/config_words.h"
#include "3-tables/fw_pubtab.h"
#include "3-tables/fw_tables.h"
#include "3-tables/mdtable.h"
#include "3-tables/provenance.h"
#include "3-tables/rule_words.h"
#include "3-tables/view.h"
#include "4-charts/steptrace.h"
#include "base/md.h"
#include "env_view.h"
#include "fw_order.h"
#include "fw_summary.h"
#include "mlperf_view.h"
#include "page_hw.h"
#include "stats.h"
#include "steps.h"

/* ---------------------------------------------------------------- sections */

/* The parse rules behind f's figures, each in words with the number of
 * cases it measured (the suite's rule when no record names one), into
 * "rules"; their JSON (shortest form, no float noise) into "rules_json",
 * for a collapsed block. */
static void rule_notes(json_t *view, const lang *l, const rmodel_fw *f, pr_err *err)
{
    json_t *rules = json_array();
    json_t *seen = json_object();
    rule_words_last last = {NULL, NULL};
    for (size_t i = 0; i < f->nrecs; i++) {
        const pr_record *r = f->recs[i];
        if (!r->rule)
            continue;
        const char *text = rule_words_shortest_of(&last, r->rule);
        json_t *count = json_object_get(seen, text);
        json_object_set_new(seen, text, json_integer(count ? json_integer_value(count) + 1 : 1));
    }
    rule_words_last_free(&last);
    if (!json_object_size(seen) && f->suite && f->suite->rule) {
        char *text = rule_words_json_shortest(f->suite->rule);
        json_object_set_new(seen, text, json_integer(0));
        free(text);
    }
    const char *text;
    json_t *count;
    /* Sorted keys keep the order deterministic. */
    const char **keys = pr_xcalloc(json_object_size(seen) + 1, sizeof *keys);
    size_t n = 0;
    json_object_foreach(seen, text, count) keys[n++] = text;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
            const char *t = keys[j];
            keys[j] = keys[j - 1];
            keys[j - 1] = t;
        }
    pr_buf all = PR_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        pr_buf words = PR_BUF_INIT, b = PR_BUF_INIT;
        json_t *rule = json_loads(keys[i], 0, NULL);
        rule_words(l, rule, &words, err);
        json_decref(rule);
        json_int_t cases = json_integer_value(json_object_get(seen, keys[i]));
        json_t *v = json_pack("{s:s,s:I,s:b,s:b}", "rule", pr_buf_cstr(&words), "cases", cases,
                              "measured", cases > 0, "one", cases == 1);
        lang_fmt(l, "rule_line", v, &b, err);
        json_array_append_new(rules, json_pack("{s:s}", "text", pr_buf_cstr(&b)));
        json_decref(v);
        if (all.len)
            pr_buf_puts(&all, lang_str(l, "list_sep"));
        md_code_span(&all, keys[i]);
        pr_buf_free(&words);
        pr_buf_free(&b);
    }
    if (all.len) {
        json_object_set_new(view, "rules_json", json_string(pr_buf_cstr(&all)));
        view_str(view, "rules_json_title", lang_str(l, "fwp_rules_json"));
    }
    pr_buf_free(&all);
    free(keys);
    json_decref(seen);
    json_object_set_new(view, "rules", rules);
}

/* ---------------------------------------------------------------- the page */

/* The suite's file and the steps to reproduce (its description, in the
 * page's language, is set by the caller). */
static void suite_view(const rmodel_world *w, const pr_suite *s, const char *page_rel, json_t *view)
{
    view_text(view, "framework_version", s->framework_version);
    view_text(view, "mission_name", s->mission_name);
    char *suite_rel = rmodel_link_to(w, page_rel, s->path);
    pr_buf b = PR_BUF_INIT;
    /* The template writes the target as it is: encoded here, so that a
     * suite file named "F).json" or "a#b.json" still links to itself. */
    md_link_path(&b, suite_rel);
    json_object_set_new(view, "suite_link", json_string(pr_buf_cstr(&b)));
    pr_buf_clear(&b);
    md_code_span(&b, s->path);
    view_md(view, "suite_path", &b);
    free(suite_rel);
    steps_view(s, 0, view);
    if (s->image)
        view_text(view, "image", s->image);
}

/* What a run set's steps show (a copy the caller decrefs): its view less
 * what names the run set itself (title, folder, suite file, and the
 * perfrepro commands, which name that file). */
static json_t *shown_steps(const json_t *sv)
{
    json_t *c = json_deep_copy(sv);
    static const char *const own[] = {"title", "run",           "suite_link",
                                      "runs",  "measure_block", "perfrepro_cases_block"};
    for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        json_object_del(c, own[i]);
    size_t i;
    json_t *gc;
    json_array_foreach(json_object_get(c, "gpu_cases"), i, gc)
        json_object_del(gc, "perfrepro_block");
    return c;
}

/* The steps of each run set of f's figures that keeps the suite its runs
 * ran (RUN/suite.json): "runset_steps", and "has_runset_steps". */
static void runset_steps(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                         const char *page_rel, json_t *view)
{
    json_t *list = json_array();
    pr_buf b = PR_BUF_INIT;
    for (size_t i = 0; i < f->nrecs; i++) {
        const pr_run *run = f->runs[i];
        int seen = !run->suite;
        for (size_t j = 0; j < i && !seen; j++)
            seen = f->runs[j] == run;
        if (seen)
            continue;
        json_t *sv = json_object();
        view_text(sv, "title", runset_title(run, l->code));
        md_code_span(&b, run->name);
        view_md(sv, "run", &b);
        char *rel = rmodel_link_to(w, page_rel, run->suite->path);
        md_link_path(&b, rel);
        json_object_set_new(sv, "suite_link", json_string(pr_buf_cstr(&b)));
        pr_buf_clear(&b);
        free(rel);
        md_code_span(&b, "suite.json");
        view_md(sv, "suite_path", &b);
        view_text(sv, "description", pr_bitext_in(&run->suite->description, l->code));
        steps_view(run->suite, 1, sv);
        /* Run sets whose suites give the same steps (same description,
         * code, set-up and commands) are shown once, naming each. */
        json_t *one =
            json_pack("{s:O,s:O,s:O}", "title", json_object_get(sv, "title"), "run",
                      json_object_get(sv, "run"), "suite_link", json_object_get(sv, "suite_link"));
        json_object_set_new(one, "suite_path",
                            json_string(json_string_value(json_object_get(sv, "suite_path"))));
        /* Its folded block's summary names when and where it ran. */
        pr_buf when = PR_BUF_INIT;
        const pr_platform *machine = run->platform;
        for (size_t k = i; k < f->nrecs && !machine; k++) /* its records' machine */
            machine = f->runs[k] == run ? f->rec_plats[k] : NULL;
        if (runset_dates(run, &when) && machine)
            pr_buf_puts(&when, lang_str(l, "list_sep"));
        if (machine) {
            pr_buf_puts(&when, provenance_platform_title(l, machine));
            json_object_set_new(one, "platform_id", json_string(machine->id));
        }
        if (when.len) {
            pr_buf_clear(&b);
            md_text(&b, pr_buf_cstr(&when));
            json_object_set_new(one, "when", json_string(pr_buf_cstr(&b)));
            pr_buf_clear(&b); /* else the next run set's folder name follows it */
        }
        pr_buf_free(&when);
        json_t *steps = shown_steps(sv);
        json_t *same = NULL;
        for (size_t k = 0; k < json_array_size(list) && !same; k++) {
            json_t *prev = shown_steps(json_array_get(list, k));
            if (json_equal(prev, steps))
                same = json_array_get(list, k);
            json_decref(prev);
        }
        json_decref(steps);
        if (same) {
            json_t *runs = json_object_get(same, "runs");
            json_object_set_new(json_array_get(runs, json_array_size(runs) - 1), "sep",
                                json_string(lang_str(l, "fwp_runset_sep")));
            json_array_append_new(runs, one);
            json_object_set_new(same, "several", json_true());
            json_decref(sv);
            continue;
        }
        json_object_del(sv, "title");
        json_object_del(sv, "run");
        json_object_del(sv, "suite_link");
        json_object_set_new(sv, "runs", json_pack("[o]", one));
        json_array_append_new(list, sv);
    }
    json_object_set_new(view, "has_runset_steps", json_boolean(json_array_size(list) > 0));
    json_object_set_new(view, "runset_steps", list);
    pr_buf_free(&b);
}

/* The log list's entry of record rec (cell of c, named config_name, run
 * run). */
static void log_item(const rmodel_world *w, const lang *l, const chartspec_queue *oc,
                     const rmodel_cfg *c, const char *config_name, const pr_run *run,
                     const pr_record *rec, const char *page_rel, json_t *logs, pr_err *err)
{
    pr_buf text = PR_BUF_INIT, item = PR_BUF_INIT;
    json_t *lv = json_pack("{s:i,s:i,s:s,s:i,s:s,s:b,s:b,s:b}", "nodes", rec->nodes, "gpus",
                           rec->gpu_num, "config", config_name, "repeat", rec->repeat, "case",
                           rec->case_name, "cpu", platform_is_cpu(c->platform), "one_node",
                           rec->nodes == 1, "one_gpu", rec->gpu_num == 1);
    /* A CPU system's devices are its threads ("4 nodes, 64 threads"). */
    json_object_set_new(lv, "thread",
                        json_boolean(!strcmp(platform_device_word(c->platform), "thread")));
    if (rec->failed) {
        pr_buf why = PR_BUF_INIT;
        json_object_set_new(lv, "reason", json_string(rec->fail_reason));
        lang_fmt(l, "failed_reason", lv, &why, err);
        json_object_set_new(lv, "failed", json_string(pr_buf_cstr(&why)));
        pr_buf_free(&why);
    }
    lang_fmt(l, "log_link", lv, &text, err);
    json_t *entry = json_object();
    if (c->platform) /* the platform page it goes to (fw_split.h) */
        json_object_set_new(entry, "platform_id", json_string(c->platform->id));
    mdtable_log_link(w, page_rel, run, rec, pr_buf_cstr(&text), &item);
    /* An imported log names where it was published, after its link (links
     * do not nest). */
    if (strcmp(rec->origin, "parsed") == 0) {
        pr_buf src = PR_BUF_INIT;
        provenance_record_source(rec, &src);
        json_t *sv =
            json_pack("{s:s}", "source",
                      src.len ? pr_buf_cstr(&src) : lang_str(l, "imported_source_unknown"));
        pr_buf_putc(&item, ' ');
        lang_fmt(l, "log_source", sv, &item, err);
        json_decref(sv);
        pr_buf_free(&src);
    }
    /* The records the figure came from, drawn (steptrace.h). */
    steptrace_trace_md(w, l, oc, run, rec, page_rel, &item, err);
    json_object_set_new(entry, "link", json_string(pr_buf_cstr(&item)));
    json_array_append_new(logs, entry);
    json_decref(lv);
    pr_buf_free(&text);
    pr_buf_free(&item);
}

/* The page's data date, stated as what it is: the span of the run sets'
 * dates, then the span of the published sources' dates; "—" when neither
 * states one.  Sets view's "date" (Markdown). */
static void data_date(json_t *view, const lang *l, const rmodel_fw *f, pr_err *err)
{
    pr_buf out = {0};
    const struct {
        const char *key, *first, *last;
    } kinds[] = {
        {"date_runs", f->run_first, f->run_last},
        {"date_pubs", f->pub_first, f->pub_last},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        if (!kinds[i].first[0])
            continue;
        pr_buf span = {0};
        if (strcmp(kinds[i].first, kinds[i].last) == 0)
            pr_buf_puts(&span, kinds[i].first);
        else
            pr_buf_printf(&span, "%s – %s", kinds[i].first, kinds[i].last);
        json_t *sv = json_pack("{s:s}", "span", pr_buf_cstr(&span));
        if (out.len)
            pr_buf_puts(&out, lang_str(l, "date_sep"));
        lang_fmt(l, kinds[i].key, sv, &out, err);
        json_decref(sv);
        pr_buf_free(&span);
    }
    if (!out.len)
        pr_buf_puts(&out, lang_str(l, "state_none"));
    view_str(view, "date", pr_buf_cstr(&out));
    pr_buf_free(&out);
}

/* Every log, in table order: by configuration, row, then repeat. */
static json_t *logs_list(const rmodel_world *w, const lang *l, const chartspec_queue *oc,
                         const rmodel_fw *f, const char *page_rel, pr_err *err)
{
    json_t *logs = json_array();
    for (size_t i = 0; i < f->ncfgs; i++) {
        const rmodel_cfg *c = &f->cfgs[i];
        /* Its name once, not once a log: 10^5 logs (issue 31 #17). */
        pr_buf name = PR_BUF_INIT;
        config_words_name(l, c, &name, err);
        for (size_t r = 0; r < c->ncells; r++) {
            const rmodel_cell *cell = &c->cells[r];
            /* By repeat, stable (data order within one): repeats need not
             * start at 1, a cell's imported logs may follow its runs. */
            size_t *ord = pr_xcalloc(cell->nrecs + 1, sizeof *ord);
            for (size_t j = 0; j < cell->nrecs; j++) {
                size_t k = j;
                for (; k > 0 && cell->recs[ord[k - 1]]->repeat > cell->recs[j]->repeat; k--)
                    ord[k] = ord[k - 1];
                ord[k] = j;
            }
            for (size_t j = 0; j < cell->nrecs; j++)
                log_item(w, l, oc, c, pr_buf_cstr(&name), cell->runs[ord[j]], cell->recs[ord[j]],
                         page_rel, logs, err);
            free(ord);
        }
        pr_buf_free(&name);
    }
    return logs;
}

/* ---------------------------------------------------------------- configurations */

/* Drops b's trailing newlines: the template puts the blank line after a
 * block itself. */
static void md_trim_nl(pr_buf *b)
{
    size_t n = b->len;
    while (n > 0 && pr_buf_cstr(b)[n - 1] == '\n')
        n--;
    pr_buf_truncate(b, n);
}

/* A chart's Markdown (chartspec.c's: the SVG, a blank line, the PNG's
 * link) as one line, the PNG's link beside the picture: a chart costs the
 * page one line, not three. */
static void chart_md(pr_buf *b)
{
    static const char gap[] = ".svg)\n\n[";
    pr_buf out = PR_BUF_INIT;
    const char *s = pr_buf_cstr(b), *at;
    while ((at = strstr(s, gap))) {
        pr_buf_put(&out, s, (size_t)(at - s) + 5);
        pr_buf_puts(&out, " [");
        s = at + sizeof gap - 1;
    }
    pr_buf_puts(&out, s);
    pr_buf_clear(b);
    pr_buf_puts(b, pr_buf_cstr(&out));
    pr_buf_free(&out);
    md_trim_nl(b);
}

/* The view of configuration c: its reproduction table, where imported
 * figures come from, the other sources of its cells, its chart and its
 * published tables.  *several set when a cell has other sources.  Returns 0,
 * or -1 with err set (a chart failed). */
static int config_view(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                       const rmodel_cfg *c, const char *page_rel, chartspec_queue *oc,
                       view_notes *nt, int *several, json_t *cv, pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    int rc = -1;
    config_words_name(l, c, &b, err);
    view_md(cv, "name", &b);
    /* FP32 on a TF32 device: kept as the sources label it, with what that
     * label may hide. */
    if (c->platform && c->platform->tf32 && strcmp(c->precision, "fp32") == 0)
        view_str(cv, "fp32_note", lang_str(l, "fp32_on_tf32"));
    int runs = 0;
    for (size_t i = 0; i < c->ncells; i++)
        runs |= c->cells[i].nrecs > 0;
    if (c->has_repro && runs) {
        fw_tables_repro_table(w, l, f, c, page_rel, nt, &b, err);
        md_trim_nl(&b);
        view_md(cv, "repro_table", &b);
    }
    /* Where each imported log comes from is said once, in the log list;
     * the other sources of a cell are in the published tables below. */
    for (size_t i = 0; i < c->ncells; i++)
        *several |= c->cells[i].nalts > 0;
    /* The chart's axis says GPUs: none for a CPU machine. */
    if (oc->charts && !platform_is_cpu(c->platform)) {
        if (chartspec_fw_scaling(l, f, c, page_rel, oc, &b, err) < 0)
            goto out;
        chart_md(&b);
        if (b.len)
            view_md(cv, "chart", &b);
    }
    rc = 0;
out:
    pr_buf_free(&b);
    return rc;
}

/* The cases of f->cfgs[first, end) the suite plans and nothing has run
 * nor published yet, as one sentence ("Planned: FP32 BS=128 (1×1, 1×8)");
 * nothing when none.  They are no cells of the tables. */
static void planned_list(const lang *l, const rmodel_fw *f, size_t first, size_t end, pr_buf *out,
                         pr_err *err)
{
    pr_buf list = PR_BUF_INIT, counts = PR_BUF_INIT;
    for (size_t i = first; i < end; i++) {
        const rmodel_cfg *c = &f->cfgs[i];
        pr_buf_clear(&counts);
        for (size_t r = 0; r < c->ncells; r++) {
            if (c->cells[r].origin != RM_PLANNED)
                continue;
            if (counts.len)
                pr_buf_puts(&counts, lang_str(l, "fwp_runset_sep"));
            platform_count_label(l, c->platform, c->cells[r].nodes, c->cells[r].gpus, &counts, err);
        }
        if (!counts.len)
            continue;
        char *name = config_words_short(l, c, 1, err);
        pr_buf md = PR_BUF_INIT;
        md_text(&md, name);
        json_t *v =
            json_pack("{s:s,s:s}", "config", pr_buf_cstr(&md), "counts", pr_buf_cstr(&counts));
        if (list.len)
            pr_buf_puts(&list, lang_str(l, "list_sep"));
        lang_fmt(l, "fwp_planned_item", v, &list, err);
        json_decref(v);
        pr_buf_free(&md);
        free(name);
    }
    if (list.len) {
        json_t *v = json_pack("{s:s}", "list", pr_buf_cstr(&list));
        lang_fmt(l, "fwp_planned", v, out, err);
        json_decref(v);
    }
    pr_buf_free(&list);
    pr_buf_free(&counts);
}

/* The results of one platform, f->cfgs[first, end): its summary table,
 * speedup chart and configurations.  Returns 0, or -1 with err set. */
static int platform_view(const rmodel_world *w, const lang *l, const rmodel_fw *f, size_t first,
                         size_t end, const char *page_rel, chartspec_queue *oc, view_notes *nt,
                         int *several, json_t *pv, pr_err *err)
{
    const pr_platform *p = f->cfgs[first].platform;
    pr_buf b = PR_BUF_INIT;
    json_t *configs = json_array(), *pub_charts = json_array();
    const char *fp32_note = NULL;
    int rc = -1;
    /* Planned cases have no machine until they run: only figures are
     * compared. */
    int figures = 0;
    for (size_t i = first; i < end; i++)
        for (size_t r = 0; r < f->cfgs[i].ncells; r++)
            figures |= f->cfgs[i].cells[r].nrecs > 0 || f->cfgs[i].cells[r].pub ||
                       f->cfgs[i].cells[r].nalts > 0;
    view_text(pv, "title",
              p         ? provenance_platform_title(l, p)
              : figures ? lang_str(l, "platform_none_title")
                        : lang_str(l, "platform_planned_title"));
    if (!p && figures)
        view_str(pv, "platform_note", lang_str(l, "platform_none_note"));
    if (p)
        view_str(pv, "platform_id", p->id);
    /* Without runs every summary cell would be the primary published
     * figure, which the platform's published table gives already (its
     * first row per configuration): no summary then. */
    int runs = 0;
    for (size_t i = first; i < end; i++)
        for (size_t r = 0; r < f->cfgs[i].ncells; r++)
            runs |= f->cfgs[i].cells[r].nrecs > 0;
    if (runs || !f->npubs) {
        fw_tables_summary_table(w, l, f, first, end, page_rel, nt, &b, err);
        md_trim_nl(&b);
        if (b.len)
            view_md(pv, "summary_table", &b);
    }
    if (oc->charts && !platform_is_cpu(p)) {
        /* chartspec_fw_efficiency draws one chart per platform: given this one's. */
        rmodel_fw one = *f;
        one.cfgs = f->cfgs + first;
        one.ncfgs = end - first;
        if (chartspec_fw_efficiency(l, w->audit, &one, page_rel, oc, &b, err) < 0)
            goto out;
        chart_md(&b);
        if (b.len)
            view_md(pv, "speedup_chart", &b);
    }
    for (size_t i = first; i < end; i++) {
        json_t *cv = json_object();
        json_array_append_new(configs, cv);
        if (config_view(w, l, f, &f->cfgs[i], page_rel, oc, nt, several, cv, err) < 0)
            goto out;
        /* Only planned cases: the summary table lists them; a heading with
         * nothing under it is left out. */
        /* A configuration of published figures only is rows of the
         * platform's published table; its chart follows that table. */
        if (!json_object_get(cv, "repro_table")) {
            json_t *chart = json_object_get(cv, "chart");
            if (chart)
                json_array_append(pub_charts, chart);
            if (json_object_get(cv, "fp32_note"))
                fp32_note = lang_str(l, "fp32_on_tf32");
            json_array_remove(configs, json_array_size(configs) - 1);
        }
    }
    fw_pubtab_platform_table(w, l, f, first, end, page_rel, nt, &b, err);
    md_trim_nl(&b);
    if (b.len)
        view_md(pv, "pub_table", &b);
    json_object_set_new(pv, "pub_charts", pub_charts);
    pub_charts = NULL;
    if (fp32_note)
        view_str(pv, "fp32_note", fp32_note);
    fw_pubtab_over_time_table(w, l, f, first, end, page_rel, nt, &b, err);
    md_trim_nl(&b);
    if (b.len) {
        view_md(pv, "over_time", &b);
        view_str(pv, "over_time_head", lang_str(l, "fwp_over_time"));
    }
    planned_list(l, f, first, end, &b, err);
    if (b.len)
        view_md(pv, "planned", &b);
    rc = 0;
out:
    json_object_set_new(pv, "configs", configs);
    json_decref(pub_charts);
    pr_buf_free(&b);
    return rc;
}

/* A platform's footnotes printed once (issue 34): a ❗ footnote whose words
 * an earlier table of the platform already footnoted (the same cross-run-set
 * note under the summary, each configuration's and each published table)
 * keeps its marker and refers to that note instead of repeating it. */
static void dedupe_table(const lang *l, json_t *obj, const char *key, json_t *seen)
{
    static const char mark[] = "- \xE2\x9D\x97"; /* "- ❗" */
    const char *md = json_string_value(json_object_get(obj, key));
    if (!md)
        return;
    pr_buf out = PR_BUF_INIT;
    int changed = 0;
    for (const char *line = md; *line;) {
        size_t n = strcspn(line, "\n");
        const char *sp = n > sizeof mark - 1 && strncmp(line, mark, sizeof mark - 1) == 0
                             ? memchr(line + sizeof mark - 1, ' ', n - (sizeof mark - 1))
                             : NULL;
        if (sp && n - (size_t)(sp + 1 - line) > 80) {
            char *text = pr_xstrndup(sp + 1, n - (size_t)(sp + 1 - line));
            if (json_object_get(seen, text)) {
                pr_buf_put(&out, line, (size_t)(sp + 1 - line));
                pr_buf_puts(&out, lang_str(l, "fwp_note_again"));
                changed = 1;
            } else {
                json_object_set_new(seen, text, json_true());
                pr_buf_put(&out, line, n);
            }
            free(text);
        } else {
            pr_buf_put(&out, line, n);
        }
        if (line[n] == '\n')
            pr_buf_putc(&out, '\n');
        line += n + (line[n] == '\n');
    }
    if (changed)
        json_object_set_new(obj, key, json_string(pr_buf_cstr(&out)));
    pr_buf_free(&out);
}

static void dedupe_notes(const lang *l, json_t *pv)
{
    json_t *seen = json_object(), *cv;
    size_t i;
    dedupe_table(l, pv, "summary_table", seen);
    json_array_foreach(json_object_get(pv, "configs"), i, cv)
        dedupe_table(l, cv, "repro_table", seen);
    dedupe_table(l, pv, "pub_table", seen);
    json_decref(seen);
}

/* ---------------------------------------------------------------- the page */

/* The page's section numbers, in page order, for the sections present. */
void page_framework_numbers(json_t *view, const lang *l, unsigned sections)
{
    static const char *const zh[] = {"一", "二", "三", "四", "五", "六"};
    static const char *const en[] = {"1", "2", "3", "4", "5", "6"};
    static const struct {
        unsigned flag;
        const char *key;
    } order[] = {{PF_ENV, "n_env"},         {PF_SETUP, "n_setup"}, {PF_STEPS, "n_steps"},
                 {PF_RESULTS, "n_results"}, {PF_LOGS, "n_logs"},   {PF_NOTES, "n_notes"}};
    const char *const *num = strcmp(l->code, "zh") == 0 ? zh : en;
    for (size_t i = 0, k = 0; i < sizeof order / sizeof *order; i++)
        if (sections & order[i].flag)
            view_str(view, order[i].key, num[k++]);
}

/* On a page whose figures are all of CPU machines the rounding note speaks
 * of processes, not GPUs (it is the first note). */
static void cpu_notes(json_t *view, const lang *l, const rmodel_fw *f, pr_err *err)
{
    for (size_t i = 0; i < f->ncfgs; i++)
        if (!platform_is_cpu(f->cfgs[i].platform))
            return;
    json_t *notes = json_object_get(view, "notes");
    if (!f->ncfgs || !json_array_size(notes))
        return;
    pr_buf b = PR_BUF_INIT;
    json_t *v = json_object();
    lang_fmt(l, "note_rounding_cpu", v, &b, err);
    json_array_set_new(notes, 0, json_pack("{s:s}", "text", pr_buf_cstr(&b)));
    json_decref(v);
    pr_buf_free(&b);
}

json_t *page_framework_view(const rmodel_world *w, const lang *l, const rmodel_fw *f,
                            chartspec_queue *oc, pr_err *err)
{
    json_t *view = json_object();
    char *page_rel = pr_xasprintf("%s/%s", f->model, f->framework);
    view_notes nt = {0};
    int ok = 0, several = 0, cpu_only = f->ncfgs > 0;
    view_text(view, "model_title", f->model_title);
    view_text(view, "framework_title", f->framework_title);
    /* "MLPerf MLPerf-ResNet50" says the source twice: a model named after
     * its framework is titled by the model alone. */
    json_object_set_new(
        view, "framework_in_model",
        json_boolean(f->framework_title && f->model_title &&
                     !strncmp(f->model_title, f->framework_title, strlen(f->framework_title))));
    view_page(view, l);
    view_unit(view, l, "unit", f->unit);
    const pr_suite *s = f->suite;
    if (s) {
        suite_view(w, s, page_rel, view);
        view_text(view, "description", pr_bitext_in(&s->description, l->code));
    }
    /* A reproduction report only where something ran; else a summary of
     * published figures. */
    json_object_set_new(view, "reproduced", json_boolean(f->n_measured + f->n_imported > 0));
    json_object_set_new(view, "measured", json_boolean(f->n_measured > 0));
    json_object_set_new(view, "imported_logs", json_boolean(f->n_imported > 0));
    json_object_set_new(view, "has_pubs", json_boolean(f->npubs > 0));
    json_t *env = env_view(w, l, f, page_rel, err);
    json_object_set_new(view, "has_env", json_boolean(json_array_size(env) > 0));
    json_object_set_new(view, "env_platforms", env);
    json_object_set_new(view, "hardware", json_boolean(s && s->hardware));
    if (page_hw_view(w, l, f, page_rel, oc, view, err) < 0)
        goto out;

    json_t *plats = json_array();
    json_object_set_new(view, "platforms", plats);
    /* One section per platform, in fw_order.h's order. */
    fw_order_run *order = pr_xcalloc(f->ncfgs + 1, sizeof *order);
    size_t nplat = fw_order_runs(w, f, order);
    int failed = 0;
    for (size_t i = 0; i < nplat && !failed; i++) {
        cpu_only &= order[i].cpu;
        json_t *pv = json_object();
        json_array_append_new(plats, pv);
        failed = platform_view(w, l, f, order[i].first, order[i].end, page_rel, oc, &nt, &several,
                               pv, err) < 0;
        if (!failed)
            dedupe_notes(l, pv);
    }
    free(order);
    if (failed)
        goto out;
    json_object_set_new(view, "cpu_only", json_boolean(cpu_only));
    /* The markers explained once, where there is a figure to mark. */
    if (f->nrecs || f->npubs) {
        view_str(view, "origin_legend", lang_str(l, "origin_legend"));
        compare_audit_legend(l, w->audit, f->model, f->framework, page_rel, view, err); /* i24 */
    }
    if (several)
        view_str(view, "precedence", lang_str(l, "precedence_rule"));
    if (f->npubs)
        view_str(view, "pub_legend", lang_str(l, "fwp_pub_legend"));

    json_t *logs = logs_list(w, l, oc, f, page_rel, err);
    int has_logs = json_array_size(logs) > 0;
    json_object_set_new(view, "has_logs", json_boolean(has_logs));
    json_object_set_new(view, "logs", logs);
    runset_steps(w, l, f, page_rel, view);
    json_object_set_new(view, "has_steps", json_boolean(s || has_logs));
    json_object_set_new(view, "has_logs_section", json_boolean(s || has_logs));
    /* Set-up and steps only where there is a suite or a log to follow,
     * logs only where there are logs or a suite to make them. */
    page_framework_numbers(view, l,
                           PF_ENV | PF_RESULTS | PF_NOTES |
                               (s || has_logs ? PF_SETUP | PF_STEPS | PF_LOGS : 0));
    rule_notes(view, l, f, err);
    char *stats_link = view_stats_link(w, page_rel);
    nt.stats_link = stats_link;
    view_notes_set(view, l, &nt, f, err);
    free(stats_link);
    cpu_notes(view, l, f, err);
    data_date(view, l, f, err);
    fw_summary(w, l, f, view, err);
    mlperf_view_set(l, f, view, err);
    ok = 1;
out:
    free(page_rel);
    if (!ok) {
        json_decref(view);
        view = NULL;
    }
    return view;
}
