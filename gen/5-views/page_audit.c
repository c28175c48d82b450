/* page_audit: OUT/AUDIT.md, the audit of published figures against their
 * logs (audit.h), one row per figure; the wording is the template's. */
#include "pages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "2-model/sanity.h"
#include "3-tables/compare.h"
#include "3-tables/mdtable.h"
#include "3-tables/provenance.h"
#include "3-tables/view.h"
#include "base/md.h"
#include "jdoc.h"

/* The titles the published tables give a model and a framework (the ids
 * when none does). */
static void titles_of(const pr_dataset *d, const char *model, const char *fw, const char **mt,
                      const char **ft)
{
    *mt = model;
    *ft = fw;
    for (size_t i = 0; i < d->npubs; i++) {
        const pr_pub_table *t = &d->pubs[i];
        if (strcmp(t->model, model) != 0)
            continue;
        if (t->model_title && *mt == model)
            *mt = t->model_title;
        if (t->framework_title && *ft == fw && strcmp(t->framework, fw) == 0)
            *ft = t->framework_title;
    }
}

/* "FP32 BS=256" */
static void config_text(const char *precision, int bs, const char *batch_label, pr_buf *out)
{
    pr_buf b = PR_BUF_INIT;
    mdtable_mode_name(precision, &b);
    if (batch_label)
        pr_buf_printf(&b, " BS=%s", batch_label);
    else if (bs > 0)
        pr_buf_printf(&b, " BS=%d", bs);
    md_cell(out, pr_buf_cstr(&b));
    pr_buf_free(&b);
}

/* The published figure as printed, linked to the line of its source, "†". */
static void printed_cell(const pr_pub_table *t, const pr_pub_row *row, pr_buf *out)
{
    pr_buf text = PR_BUF_INIT;
    if (row->printed)
        md_cell(&text, row->printed);
    else
        md_number(&text, row->value, 2);
    pr_buf_puts(&text, "†");
    if (t->source_url)
        mdtable_link_url(out, pr_buf_cstr(&text), t->source_url);
    else
        pr_buf_puts(out, pr_buf_cstr(&text));
    pr_buf_free(&text);
}

/* The rule as compact JSON: the keys that say which records count and how
 * (malloc'd: the caller frees it). */
static char *rule_text(const json_t *rule)
{
    static const char *const keys[] = {"profile", "keyword", "scope", "value", "step",
                                       "skip",    "reduce",  "trim",  "round", NULL};
    json_t *o = json_object();
    for (size_t i = 0; keys[i]; i++) {
        json_t *v = json_object_get(rule, keys[i]);
        if (!v || (strcmp(keys[i], "trim") == 0 &&
                   !(pr_jdoc_json_str(rule, "reduce") &&
                     strcmp(pr_jdoc_json_str(rule, "reduce"), "trimmed_mean") == 0)))
            continue;
        if (strcmp(keys[i], "round") == 0 && json_integer_value(v) < 0)
            continue;
        json_object_set(o, keys[i], v);
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
    json_decref(o);
    return text;
}

/* The rule as a code span in a table cell. */
static void rule_cell(const json_t *rule, pr_buf *out)
{
    char *text = rule_text(rule);
    md_code_cell(out, text);
    free(text);
}

/* The common cells of a figure: framework, platform, configuration, GPUs. */
static void case_cells(const lang *l, const pr_pub_table *t, const pr_pub_row *row, json_t *rv,
                       pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    md_cell(&b, t->framework_title ? t->framework_title : t->framework);
    view_md(rv, "framework", &b);
    md_cell(&b, provenance_platform_title(l, t->platform));
    view_md(rv, "platform", &b);
    config_text(t->precision, t->batch_size, t->batch_label, &b);
    view_md(rv, "config", &b);
    platform_count_label(l, t->platform, row->nodes, row->gpus, &b, err);
    view_md(rv, "gpus", &b);
    printed_cell(t, row, &b);
    view_md(rv, "printed", &b);
    pr_buf_free(&b);
}

/* What the record's log gives, linked to it (‡: an imported log). */
static void parsed_cells(const rmodel_world *w, const pr_run *run, const pr_record *r, int decimals,
                         json_t *rv)
{
    pr_buf text = PR_BUF_INIT, b = PR_BUF_INIT;
    if (r->failed)
        md_cell(&text, r->fail_reason ? r->fail_reason : "failed");
    else
        md_number(&text, r->final_result, decimals + 3 > 6 ? 6 : decimals + 3);
    pr_buf_puts(&text, "‡");
    mdtable_log_link(w, "", run, r, pr_buf_cstr(&text), &b);
    view_md(rv, "parsed", &b);
    provenance_record_source(r, &b);
    view_md(rv, "log_source", &b);
    if (r->rule)
        rule_cell(r->rule, &b);
    view_md(rv, "rule", &b);
    pr_buf_free(&text);
    pr_buf_free(&b);
}

/* The rule the fit report offers instead: the first that reproduces the
 * figure, else the closest (with its difference). */
static void fit_cells(const json_t *fit, const pr_pub_row *row, json_t *rv)
{
    const json_t *list = json_object_get(fit, "reproduced");
    const char *kind = "alt_reproduces";
    if (!json_array_size(list)) {
        list = json_object_get(fit, "truncated");
        kind = "alt_truncates";
    }
    if (!json_array_size(list)) {
        list = json_object_get(fit, "closest");
        kind = "alt_closest";
    }
    const json_t *c = json_array_get(list, 0);
    if (!c)
        return;
    json_t *v = json_array_get(json_object_get(c, "values"), 0);
    pr_buf b = PR_BUF_INIT;
    rule_cell(json_object_get(c, "rule"), &b);
    view_md(rv, "alt_rule", &b);
    int d = data_pub_decimals(row);
    md_number(&b, json_number_value(v), d + 3 > 6 ? 6 : d + 3);
    view_md(rv, "alt_value", &b);
    compare_signed_pct(&b, 100.0 * (json_number_value(v) - row->value) / row->value);
    view_md(rv, "alt_diff", &b);
    json_object_set_new(rv, kind, json_true());
    pr_buf_free(&b);
}

static void verdict_fields(const audit_item *it, json_t *rv)
{
    static const char *const names[AU_NVERDICTS] = {
        "v_reproduced", "v_truncated", "v_differs", "v_no_value", "v_no_log", "v_partial_logs"};
    json_object_set_new(rv, names[it->verdict], json_true());
    if (it->verdict == AU_PARTIAL_LOGS) {
        json_object_set_new(rv, "logs_published", json_integer(it->logs_published));
        json_object_set_new(rv, "logs_needed", json_integer(it->logs_needed));
    }
    pr_buf b = PR_BUF_INIT;
    if (it->own == AU_TRUNCATED || it->own == AU_DIFFERS) {
        md_number(&b, it->rec->final_result, data_pub_decimals(it->row));
        view_md(rv, "rounded", &b);
        compare_signed_pct(&b, it->diff_pct);
        view_md(rv, "diff", &b);
    }
    if (it->under) {
        /* Reproduced under another rule than the run set's: named, with
         * what it gives; the run set's own value stays the figure. */
        rule_cell(it->under, &b);
        view_md(rv, "under", &b);
        int d = data_pub_decimals(it->row);
        md_number(&b, it->under_value, d + 3 > 6 ? 6 : d + 3);
        view_md(rv, "under_value", &b);
    }
    pr_buf_free(&b);
}

static json_t *item_row(const rmodel_world *w, const lang *l, const audit_item *it, pr_err *err)
{
    json_t *rv = json_object();
    case_cells(l, it->table, it->row, rv, err);
    if (it->rec) {
        parsed_cells(w, it->run, it->rec, data_pub_decimals(it->row), rv);
        if (it->verdict != AU_REPRODUCED && it->fit)
            fit_cells(it->fit, it->row, rv);
    }
    verdict_fields(it, rv);
    if (it->rec && it->other_mode) {
        /* What the figure is printed under and what its log ran: the
         * modes, and the batch sizes when they differ. */
        pr_buf b = PR_BUF_INIT;
        config_text(it->rec->precision, it->other_bs ? it->rec->batch_size : 0, NULL, &b);
        view_md(rv, "log_mode", &b);
        config_text(it->table->precision, it->other_bs ? it->table->batch_size : 0, NULL, &b);
        view_md(rv, "table_mode", &b);
        pr_buf_free(&b);
    }
    return rv;
}

static json_t *count(const audit_model *m, audit_verdict v)
{
    json_int_t n = 0;
    for (size_t i = 0; i < m->nitems; i++)
        n += m->items[i].verdict == v;
    return json_integer(n);
}

/* The sanity flags (sanity.h) of the audited sources' published tables, as
 * a Markdown list: each item names the table, then what is odd. */
static void sanity_list(const lang *l, const pr_dataset *d, const audit_model *m, pr_buf *out,
                        pr_err *err)
{
    sanity_notes sn;
    sanity_notes_init(&sn, 0);
    const pr_pub_table **tabs = pr_xcalloc(d->npubs + 1, sizeof *tabs);
    for (size_t i = 0; i < d->npubs; i++)
        tabs[i] = &d->pubs[i];
    pr_buf who = PR_BUF_INIT;
    for (size_t i = 0; i < d->npubs; i++) {
        const pr_pub_table *t = &d->pubs[i];
        if (!audit_audited(m, t->source_repo))
            continue;
        pr_buf_clear(&who);
        md_text(&who, t->model_title ? t->model_title : t->model);
        pr_buf_puts(&who, " · ");
        md_text(&who, t->framework_title ? t->framework_title : t->framework);
        pr_buf_puts(&who, " · ");
        config_text(t->precision, t->batch_size, t->batch_label, &who);
        pr_buf_puts(&who, " · ");
        md_text(&who, provenance_platform_title(l, t->platform));
        pr_buf_puts(&who, " (");
        md_text(&who, t->label);
        pr_buf_puts(&who, ")");
        sn.who = pr_buf_cstr(&who);
        sanity_point *pts = pr_xcalloc(t->nrows + 1, sizeof *pts);
        size_t n = sanity_pub_points(t, pts);
        sanity_check_series(l, t->platform, pts, n, NULL, &sn, err);
        free(pts);
        const pr_pub_table *twin = sanity_identical_in(t, tabs, d->npubs);
        if (twin)
            sanity_identical_note(l, twin, NULL, &sn, err);
    }
    /* Figures whose logs are byte-identical (audit.h): evidence reused. */
    pr_buf first = PR_BUF_INIT, second = PR_BUF_INIT, logs = PR_BUF_INIT;
    sn.who = NULL;
    for (size_t i = 0; i < m->ntwins; i++) {
        const audit_item *pair[2] = {&m->items[m->twins[i].a], &m->items[m->twins[i].b]};
        pr_buf *named[2] = {&first, &second};
        pr_buf_clear(&logs);
        for (int k = 0; k < 2; k++) {
            const pr_pub_table *t = pair[k]->table;
            pr_buf_clear(named[k]);
            pr_buf_puts(named[k], "[");
            md_text(named[k], t->model_title ? t->model_title : t->model);
            pr_buf_puts(named[k], " · ");
            md_text(named[k], t->framework_title ? t->framework_title : t->framework);
            pr_buf_puts(named[k], " · ");
            config_text(t->precision, t->batch_size, t->batch_label, named[k]);
            pr_buf_puts(named[k], " · ");
            platform_count_label(l, t->platform, pair[k]->row->nodes, pair[k]->row->gpus, named[k],
                                 err);
            pr_buf_printf(named[k], "](#%s)", pair[k]->anchor ? pair[k]->anchor : "");
            if (k)
                pr_buf_puts(&logs, ", ");
            provenance_record_source(pair[k]->rec, &logs);
        }
        sanity_identical_logs_note(l, pr_buf_cstr(&first), pr_buf_cstr(&second), pr_buf_cstr(&logs),
                                   &sn, err);
    }
    pr_buf_free(&first);
    pr_buf_free(&second);
    pr_buf_free(&logs);
    pr_buf_puts(out, pr_buf_cstr(&sn.notes));
    pr_buf_free(&who);
    free(tabs);
    sanity_notes_free(&sn);
}

/* The run sets behind the logged items of m whose model and platform make
 * key ("model\nplatform"), in first-seen order: the first item of each
 * into firsts (room for m->nitems); returns how many. */
static size_t key_run_sets(const audit_model *m, const char *key, const audit_item **firsts)
{
    size_t n = 0;
    for (size_t i = 0; i < m->nitems; i++) {
        const audit_item *it = &m->items[i];
        if (!it->run || it->verdict == AU_NO_LOG)
            continue;
        char *k = pr_xasprintf("%s\n%s", it->table->model,
                               it->table->platform ? it->table->platform->id : "");
        int mine = strcmp(k, key) == 0;
        free(k);
        size_t j = 0;
        while (j < n && firsts[j]->run != it->run)
            j++;
        if (mine && j == n)
            firsts[n++] = it;
    }
    return n;
}

/* The line saying what imported the logs of the run sets behind items
 * of m whose model and platform make key ("model\nplatform"): each
 * importer with its run sets, as their folders name it
 * (audit_run_importer), and the run sets whose folders name none. */
static void importers_line(const lang *l, const audit_model *m, const char *key, pr_buf *out,
                           pr_err *err)
{
    const audit_item **firsts = pr_xcalloc(m->nitems + 1, sizeof *firsts);
    size_t n = key_run_sets(m, key, firsts);
    const pr_run **runs = pr_xcalloc(n + 1, sizeof *runs);
    char **who = pr_xcalloc(n + 1, sizeof *who);
    for (size_t i = 0; i < n; i++) {
        runs[i] = firsts[i]->run;
        who[i] = audit_run_importer(runs[i]);
    }
    free(firsts);
    /* One clause per importer (in first-seen order), then the unnamed. */
    pr_buf clauses = PR_BUF_INIT, sets = PR_BUF_INIT;
    for (int unnamed = 0; unnamed < 2; unnamed++)
        for (size_t i = 0; i < n; i++) {
            if (unnamed ? who[i] != NULL : who[i] == NULL)
                continue;
            int seen = 0;
            for (size_t j = 0; j < i && !seen; j++)
                seen = unnamed ? who[j] == NULL : who[j] && strcmp(who[j], who[i]) == 0;
            if (seen)
                continue;
            pr_buf_clear(&sets);
            for (size_t j = i; j < n; j++) {
                if (unnamed ? who[j] != NULL : !who[j] || strcmp(who[j], who[i]) != 0)
                    continue;
                if (sets.len)
                    pr_buf_puts(&sets, lang_str(l, "value_sep"));
                md_code_span(&sets, runs[j]->name);
            }
            json_t *v = json_pack("{s:s}", "sets", pr_buf_cstr(&sets));
            if (!unnamed) {
                pr_buf code = PR_BUF_INIT;
                md_code_span(&code, who[i]);
                json_object_set_new(v, "importer", json_string(pr_buf_cstr(&code)));
                pr_buf_free(&code);
            }
            if (clauses.len)
                pr_buf_puts(&clauses, lang_str(l, "list_sep"));
            lang_fmt(l, unnamed ? "head_audit_import_unknown" : "head_audit_import", v, &clauses,
                     err);
            json_decref(v);
        }
    if (clauses.len) {
        json_t *v = json_pack("{s:s}", "clauses", pr_buf_cstr(&clauses));
        lang_fmt(l, "head_audit_import_line", v, out, err);
        json_decref(v);
    }
    for (size_t i = 0; i < n; i++)
        free(who[i]);
    free(who);
    free(runs);
    pr_buf_free(&clauses);
    pr_buf_free(&sets);
}

/* Per run set behind the items of m whose model and platform make key
 * ("model\nplatform"), in first-seen order, a list item: how many of its
 * published figures its rule reproduces, and how many a rule of the fit
 * search reproduces instead. */
static void runset_rules(const lang *l, const audit_model *m, const char *key, pr_buf *out,
                         pr_err *err)
{
    const audit_item **firsts = pr_xcalloc(m->nitems + 1, sizeof *firsts);
    size_t n = key_run_sets(m, key, firsts);
    for (size_t i = 0; i < n; i++) {
        const pr_run *run = firsts[i]->run;
        const json_t *rule_json =
            firsts[i]->rec->rule; /* one rule per run set: its first record's */
        size_t own, under, all;
        audit_run_counts(m, run, &own, &under, &all);
        pr_buf set = PR_BUF_INIT, rule = PR_BUF_INIT;
        md_code_span(&set, run->name);
        if (rule_json) { /* a list item, not a table cell: a plain code span */
            char *text = rule_text(rule_json);
            md_code_span(&rule, text);
            free(text);
        }
        json_t *v =
            json_pack("{s:s,s:s,s:I,s:I,s:I}", "set", pr_buf_cstr(&set), "rule", pr_buf_cstr(&rule),
                      "own", (json_int_t)own, "n", (json_int_t)all, "under", (json_int_t)under);
        pr_buf_free(&rule);
        if (!under)
            json_object_del(v, "under");
        pr_buf_puts(out, "- ");
        lang_fmt(l, "head_audit_runset_rule", v, out, err);
        pr_buf_putc(out, '\n');
        json_decref(v);
        pr_buf_free(&set);
    }
    free(firsts);
}

/* The row's id (audit.h) as an empty HTML anchor before the row's first
 * cell: a table row can hold no heading, and the model and framework
 * pages link each figure here.  GitHub keeps the id (prefixing it
 * "user-content-", which its fragment handling adds back); the site and
 * the checker know this one form (cmarkx.h). */
static void row_anchor(const audit_item *it, json_t *rv)
{
    if (!it->anchor)
        return;
    pr_buf b = PR_BUF_INIT;
    pr_buf_printf(&b, "<a id=\"%s\"></a>", it->anchor);
    view_md(rv, "anchor", &b);
    pr_buf_free(&b);
}

json_t *page_audit_view(const rmodel_world *w, const lang *l, const audit_model *m, pr_err *err)
{
    json_t *view = json_object();
    view_page(view, l);
    json_t *repos = json_array(), *models = json_array(), *nolog = json_array();
    json_t *orphans = json_array(), *restated = json_array();
    for (size_t i = 0; i < m->nrepos; i++) {
        pr_buf b = PR_BUF_INIT;
        md_code_span(&b, m->repos[i]);
        json_array_append_new(repos, json_pack("{s:s}", "repo", pr_buf_cstr(&b)));
        pr_buf_free(&b);
    }
    /* figures with a log, grouped by model in data order */
    for (size_t i = 0; i < m->nitems; i++) {
        const audit_item *it = &m->items[i];
        if (it->verdict == AU_NO_LOG) {
            json_t *rv = json_object();
            case_cells(l, it->table, it->row, rv, err);
            view_text(rv, "model",
                      it->table->model_title ? it->table->model_title : it->table->model);
            row_anchor(it, rv);
            json_array_append_new(nolog, rv);
            continue;
        }
        /* one section per model and platform, in data order */
        char *key = pr_xasprintf("%s\n%s", it->table->model,
                                 it->table->platform ? it->table->platform->id : "");
        json_t *group = NULL;
        for (size_t g = 0; g < json_array_size(models) && !group; g++)
            if (strcmp(pr_jdoc_json_str(json_array_get(models, g), "id"), key) == 0)
                group = json_array_get(models, g);
        if (!group) {
            group = json_object();
            view_str(group, "id", key);
            pr_buf title = PR_BUF_INIT;
            pr_buf_printf(&title, "%s · %s",
                          it->table->model_title ? it->table->model_title : it->table->model,
                          provenance_platform_title(l, it->table->platform));
            view_text(group, "title", pr_buf_cstr(&title));
            pr_buf_free(&title);
            json_object_set_new(group, "rows", json_array());
            pr_buf imp = PR_BUF_INIT;
            importers_line(l, m, key, &imp, err);
            if (imp.len)
                view_md(group, "importers", &imp);
            runset_rules(l, m, key, &imp, err);
            while (imp.len && imp.data[imp.len - 1] == '\n')
                pr_buf_truncate(&imp, imp.len - 1);
            if (imp.len)
                view_md(group, "runset_rules", &imp);
            pr_buf_free(&imp);
            json_array_append_new(models, group);
        }
        free(key);
        json_t *rv = item_row(w, l, it, err);
        row_anchor(it, rv);
        json_array_append_new(json_object_get(group, "rows"), rv);
    }
    for (size_t i = 0; i < m->norphans; i++) {
        const pr_record *r = m->orphans[i].rec;
        json_t *rv = json_object();
        pr_buf b = PR_BUF_INIT;
        const pr_platform *p = data_record_platform(w->d, m->orphans[i].run, r);
        const char *mt, *ft;
        titles_of(w->d, r->model, r->framework, &mt, &ft);
        view_text(rv, "model", mt);
        md_cell(&b, ft);
        view_md(rv, "framework", &b);
        md_cell(&b, provenance_platform_title(l, p));
        view_md(rv, "platform", &b);
        config_text(r->precision, r->batch_size, NULL, &b);
        view_md(rv, "config", &b);
        platform_count_label(l, p, r->nodes, r->gpu_num, &b, err);
        view_md(rv, "gpus", &b);
        pr_buf_free(&b);
        parsed_cells(w, m->orphans[i].run, r, 2, rv);
        json_array_append_new(orphans, rv);
    }
    size_t agree = 0;
    for (size_t i = 0; i < m->nrestated; i++) {
        const audit_item *it = &m->restated[i];
        int same = it->primary_row && it->row->printed && it->primary_row->printed &&
                   strcmp(it->row->printed, it->primary_row->printed) == 0;
        if (same) { /* its verdict against the log is the primary's, above */
            agree++;
            continue;
        }
        json_t *rv = item_row(w, l, it, err);
        pr_buf b = PR_BUF_INIT;
        if (it->primary_row) {
            printed_cell(it->primary, it->primary_row, &b);
            view_md(rv, "primary", &b);
        }
        json_object_set_new(rv, "same", json_boolean(same));
        pr_buf_free(&b);
        json_array_append_new(restated, rv);
    }
    /* Each figure its log does not give, under a heading of its own: the
     * anchor a model page's cell links to (compare.h). */
    json_t *differs = json_array();
    for (size_t i = 0; i < m->nitems; i++) {
        const audit_item *it = &m->items[i];
        if (it->verdict != AU_DIFFERS)
            continue;
        json_t *rv = item_row(w, l, it, err);
        pr_buf h = PR_BUF_INIT;
        compare_audit_heading(l, it, &h, NULL, err);
        view_md(rv, "heading", &h);
        pr_buf_free(&h);
        json_array_append_new(differs, rv);
    }
    json_object_set_new(view, "has_differs", json_boolean(json_array_size(differs) > 0));
    view_str(view, "differs_intro", lang_str(l, "head_differs_intro"));
    json_object_set_new(view, "differs", differs);
    pr_buf sanity = PR_BUF_INIT;
    sanity_list(l, w->d, m, &sanity, err);
    while (sanity.len && sanity.data[sanity.len - 1] == '\n')
        pr_buf_truncate(&sanity, sanity.len - 1);
    if (sanity.len)
        view_md(view, "sanity", &sanity);
    pr_buf_free(&sanity);
    json_object_set_new(view, "repos", repos);
    json_object_set_new(view, "models", models);
    json_object_set_new(view, "nolog", nolog);
    json_object_set_new(view, "orphans", orphans);
    json_object_set_new(view, "restated", restated);
    json_object_set_new(view, "n_figures", json_integer((json_int_t)m->nitems));
    json_object_set_new(view, "n_reproduced", count(m, AU_REPRODUCED));
    json_int_t n_under = 0;
    for (size_t i = 0; i < m->nitems; i++)
        n_under += m->items[i].under != NULL;
    if (n_under) /* said only where some are */
        json_object_set_new(view, "n_under", json_integer(n_under));
    json_object_set_new(view, "n_truncated", count(m, AU_TRUNCATED));
    json_object_set_new(view, "n_differs", count(m, AU_DIFFERS));
    json_object_set_new(view, "n_no_value", count(m, AU_NO_VALUE));
    json_object_set_new(view, "n_no_log", count(m, AU_NO_LOG));
    json_t *n_partial = count(m, AU_PARTIAL_LOGS);
    if (json_integer_value(n_partial)) /* said only where some are */
        json_object_set_new(view, "n_partial_logs", n_partial);
    else
        json_decref(n_partial);
    json_object_set_new(view, "n_orphans", json_integer((json_int_t)m->norphans));
    json_object_set_new(view, "n_restated", json_integer((json_int_t)m->nrestated));
    json_object_set_new(view, "n_restated_agree", json_integer((json_int_t)agree));
    json_object_set_new(view, "has_restated", json_boolean(m->nrestated > 0));
    json_object_set_new(view, "has_nolog", json_boolean(json_array_size(nolog) > 0));
    json_object_set_new(view, "has_orphans", json_boolean(json_array_size(orphans) > 0));
    return view;
}
