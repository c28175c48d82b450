#include "pages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "md.h"
#include "mdtable.h"
#include "page_hw.h"
#include "steps.h"
#include "view.h"

/* ---------------------------------------------------------------- tables */

/* Decimals a published number was printed with (at least 1, at most 4). */
static int printed_decimals(double v)
{
    for (int d = 1; d < 4; d++) {
        double s = pow(10.0, d);
        if (fabs(round(v * s) - v * s) < 1e-6)
            return d;
    }
    return 4;
}

/* 1 when a published speedup disagrees with the one its own throughput
 * figures give, at the precision the source printed it with. */
static int speedup_disagrees(double published, double computed)
{
    int d = printed_decimals(published);
    return fabs(pr_md_round(computed, d) - published) > 0.5 * pow(10.0, -d) + 1e-9;
}

static int any_pub_tt(const pr_pub_table *t)
{
    for (size_t i = 0; t && i < t->nrows; i++)
        if (!isnan(t->rows[i].time_to_train_s))
            return 1;
    return 0;
}

static int any_pub_acc(const pr_pub_table *t)
{
    for (size_t i = 0; t && i < t->nrows; i++)
        if (!isnan(t->rows[i].accuracy))
            return 1;
    return 0;
}

/* The reproduction table of one configuration: perfrepro's own figures,
 * compared with the primary published table. */
static int repro_table(const rm_world *w, const lang *l, const rm_fw *f, const rm_cfg *c,
                       const char *page_rel, vw_notes *nt, pr_buf *out, pr_err *err)
{
    const pr_pub_table *pub = c->pub;
    int has_tt = c->has_tt, has_acc = c->has_acc;
    const char *heads[13];
    size_t nh = 0;
    pr_buf thr = PR_BUF_INIT, pubh = PR_BUF_INIT;
    pr_buf_printf(&thr, "%s (%s)", lang_str(l, "col_throughput"), f->unit);
    pr_buf_printf(&pubh, "%s (%s)", lang_str(l, "col_published"), pub ? pub->label : "—");
    heads[nh++] = lang_str(l, "col_nodes");
    heads[nh++] = lang_str(l, "col_gpus");
    heads[nh++] = pr_buf_cstr(&thr);
    heads[nh++] = lang_str(l, "col_range");
    heads[nh++] = lang_str(l, "col_runs");
    heads[nh++] = lang_str(l, "col_speedup");
    heads[nh++] = lang_str(l, "col_efficiency");
    if (has_tt)
        heads[nh++] = lang_str(l, "col_tt");
    if (has_acc)
        heads[nh++] = lang_str(l, "col_acc");
    if (pub) {
        heads[nh++] = pr_buf_cstr(&pubh);
        heads[nh++] = lang_str(l, "col_gap");
    }
    heads[nh++] = lang_str(l, "col_log");
    mdt_head(out, heads, nh, 2);

    const rm_cell *base = rm_cell_of(c, 1, 1);
    pr_buf cells[13];
    for (size_t i = 0; i < 13; i++)
        pr_buf_init(&cells[i]);
    for (size_t i = 0; i < c->ncells; i++) {
        const rm_cell *rc = &c->cells[i];
        mdt_cells_clear(cells, 13);
        size_t k = 0;
        pr_buf_printf(&cells[k++], "%d", rc->nodes);
        pr_buf_printf(&cells[k++], "%d", rc->gpus);
        pr_buf *val = &cells[k++], *range = &cells[k++], *runs = &cells[k++];
        pr_buf *sp = &cells[k++], *eff = &cells[k++];
        if (rc->n_ok) {
            mdt_value(val, rc->median);
            mdt_value(range, rc->min);
            pr_buf_puts(range, " – ");
            mdt_value(range, rc->max);
            pr_buf_printf(runs, "%zu", rc->n_ok);
            if (rc->n_total > rc->n_ok) {
                pr_buf_printf(runs, " (+%zu %s)", rc->n_total - rc->n_ok,
                              lang_str(l, "state_failed"));
                nt->failed = 1;
            }
            if (base->n_ok) {
                double s = rc->median / base->median;
                pr_md_number(sp, s, PR_DECIMALS_SPEEDUP);
                pr_md_number(eff, 100.0 * s / rc->gpus, PR_DECIMALS_PERCENT);
                pr_buf_puts(eff, "%");
            } else {
                pr_buf_printf(sp, "%s¹", lang_str(l, "no_baseline"));
                pr_buf_puts(eff, lang_str(l, "state_none"));
                nt->no_baseline = 1;
            }
        } else {
            const char *state = rc->fail_rec ? mdt_fail_word(l, rc->fail_rec)
                                : lang_str(l, rc->planned ? "state_todo" : "state_none");
            pr_buf_puts(val, state);
            pr_buf_puts(range, lang_str(l, "state_none"));
            pr_buf_printf(runs, "%zu", rc->n_total);
            pr_buf_puts(sp, lang_str(l, "state_none"));
            pr_buf_puts(eff, lang_str(l, "state_none"));
            if (rc->fail_rec)
                nt->failed = 1;
        }
        if (has_tt)
            mdt_optional(&cells[k++], l, rc->tt, PR_DECIMALS_VALUE);
        if (has_acc)
            mdt_optional(&cells[k++], l, rc->acc, PR_DECIMALS_VALUE);
        if (pub) {
            const pr_pub_row *pr = rc->pub;
            pr_buf *pc = &cells[k++], *gap = &cells[k++];
            if (pr && pr->has_value)
                mdt_value(pc, pr->value);
            else
                pr_buf_puts(pc, pr ? pr->state : lang_str(l, "state_none"));
            if (pr && pr->has_value && rc->n_ok) {
                double g = (rc->median - pr->value) / pr->value;
                if (g >= 0)
                    pr_buf_putc(gap, '+');
                pr_md_number(gap, 100.0 * g, PR_DECIMALS_PERCENT);
                pr_buf_puts(gap, "%");
                if (fabs(g) > (f->suite ? f->suite->gap_threshold : 0.05)) {
                    pr_buf_printf(gap, " %s", lang_str(l, "gap_flag"));
                    nt->gap = 1;
                }
            } else {
                pr_buf_puts(gap, lang_str(l, "state_none"));
            }
        }
        pr_buf *lg = &cells[k++];
        const pr_record *lr = rc->n_ok ? rc->link_rec : rc->fail_rec;
        const pr_run *lrun = rc->n_ok ? rc->link_run : rc->fail_run;
        if (lr)
            mdt_log_link(w, page_rel, lrun, lr, lang_str(l, "col_log"), lg);
        else
            pr_buf_puts(lg, lang_str(l, "state_none"));
        mdt_row(out, cells, k);
    }
    mdt_cells_free(cells, 13);
    pr_buf_free(&thr);
    pr_buf_free(&pubh);
    (void)err;
    return 0;
}

static void source_line(const lang *l, const pr_pub_table *t, pr_buf *out, pr_err *err)
{
    json_t *v = json_object();
    pr_buf title = PR_BUF_INIT, where = PR_BUF_INIT;
    pr_md_text(&title, t->source_title ? t->source_title : t->label);
    if (t->source_url) {
        mdt_link_url(&where, pr_buf_cstr(&title), t->source_url);
    } else {
        pr_buf_puts(&where, pr_buf_cstr(&title));
    }
    if (!t->source_repo && t->source_path) {
        pr_buf_puts(&where, " (");
        pr_md_code_span(&where, t->source_path);
        pr_buf_puts(&where, ")");
    }
    if (t->source_repo) {
        pr_buf loc = PR_BUF_INIT;
        pr_buf_printf(&loc, "%s%s%s%s%s", t->source_repo, t->source_commit ? "@" : "",
                      t->source_commit ? t->source_commit : "", t->source_path ? ":" : "",
                      t->source_path ? t->source_path : "");
        if (t->source_line)
            pr_buf_printf(&loc, "#L%d", t->source_line);
        pr_buf_puts(&where, " (");
        pr_md_code_span(&where, pr_buf_cstr(&loc));
        pr_buf_puts(&where, ")");
        pr_buf_free(&loc);
    }
    json_object_set_new(v, "source", json_string(pr_buf_cstr(&where)));
    json_object_set_new(v, "label", json_string(t->label));
    if (t->date)
        json_object_set_new(v, "date", json_string(t->date));
    lang_fmt(l, "pub_source", v, out, err);
    json_decref(v);
    pr_buf_free(&title);
    pr_buf_free(&where);
}

/* A published table as its source printed it, with the speedup its own
 * throughput figures give beside the printed one. */
static int pub_table(const lang *l, const rm_fw *f, const pr_pub_table *t, vw_notes *nt,
                     pr_buf *out, pr_err *err)
{
    int has_tt = any_pub_tt(t), has_acc = any_pub_acc(t), has_ps = 0;
    for (size_t i = 0; i < t->nrows; i++)
        has_ps |= t->rows[i].has_speedup;
    const char *heads[9];
    size_t nh = 0;
    pr_buf thr = PR_BUF_INIT;
    pr_buf_printf(&thr, "%s (%s)", lang_str(l, "col_throughput"), t->unit);
    heads[nh++] = lang_str(l, "col_nodes");
    heads[nh++] = lang_str(l, "col_gpus");
    heads[nh++] = pr_buf_cstr(&thr);
    heads[nh++] = lang_str(l, "col_computed_speedup");
    heads[nh++] = lang_str(l, "col_efficiency");
    if (has_ps)
        heads[nh++] = lang_str(l, "col_pub_speedup");
    if (has_tt)
        heads[nh++] = lang_str(l, "col_tt");
    if (has_acc)
        heads[nh++] = lang_str(l, "col_acc");
    mdt_head(out, heads, nh, 2);
    const pr_pub_row *base = rm_pub_row(t, 1, 1);
    if (base && !base->has_value)
        base = NULL;
    pr_buf cells[9];
    for (size_t i = 0; i < 9; i++)
        pr_buf_init(&cells[i]);
    /* Rows in GPU order, whatever order the source used. */
    rm_row *rows = NULL;
    size_t nrows = 0;
    for (size_t i = 0; i < t->nrows; i++)
        rm_row_add(&rows, &nrows, t->rows[i].nodes, t->rows[i].gpus);
    qsort(rows, nrows, sizeof *rows, rm_row_qsort);
    for (size_t i = 0; i < nrows; i++) {
        const pr_pub_row *r = rm_pub_row(t, rows[i].nodes, rows[i].gpus);
        mdt_cells_clear(cells, 9);
        size_t k = 0;
        pr_buf_printf(&cells[k++], "%d", r->nodes);
        pr_buf_printf(&cells[k++], "%d", r->gpus);
        pr_buf *val = &cells[k++], *sp = &cells[k++], *eff = &cells[k++];
        double computed = NAN;
        if (r->has_value) {
            mdt_value(val, r->value);
            if (base) {
                computed = r->value / base->value;
                pr_md_number(sp, computed, PR_DECIMALS_SPEEDUP);
                pr_md_number(eff, 100.0 * computed / r->gpus, PR_DECIMALS_PERCENT);
                pr_buf_puts(eff, "%");
            } else {
                pr_buf_printf(sp, "%s¹", lang_str(l, "no_baseline"));
                pr_buf_puts(eff, lang_str(l, "state_none"));
                nt->no_baseline = 1;
            }
        } else {
            pr_buf_puts(val, r->state);
            pr_buf_puts(sp, lang_str(l, "state_none"));
            pr_buf_puts(eff, lang_str(l, "state_none"));
        }
        if (has_ps) {
            pr_buf *ps = &cells[k++];
            if (r->has_speedup) {
                /* Printed as the source printed it. */
                pr_md_number(ps, r->speedup, printed_decimals(r->speedup));
                if (!isnan(computed) && speedup_disagrees(r->speedup, computed)) {
                    pr_buf_printf(ps, " %s", lang_str(l, "speedup_flag"));
                    nt->speedup_flag = 1;
                }
            } else {
                pr_buf_puts(ps, lang_str(l, "state_none"));
            }
        }
        if (has_tt)
            mdt_optional(&cells[k++], l, r->time_to_train_s, PR_DECIMALS_VALUE);
        if (has_acc)
            mdt_optional(&cells[k++], l, r->accuracy, PR_DECIMALS_VALUE);
        mdt_row(out, cells, k);
    }
    free(rows);
    mdt_cells_free(cells, 9);
    pr_buf_free(&thr);
    (void)f;
    (void)err;
    return 0;
}

/* Framework page: GPU counts down, configurations across. */
static void summary_table(const rm_world *w, const lang *l, const rm_fw *f, const char *page_rel,
                          vw_notes *nt, pr_buf *out, pr_err *err)
{
    const rm_row *rows = f->rows;
    size_t nrows = f->nrows;
    size_t nh = f->ncfgs + 1;
    char **names = pr_xcalloc(nh, sizeof *names);
    const char **heads = pr_xcalloc(nh, sizeof *heads);
    heads[0] = lang_str(l, "col_gpus");
    /* Plain names: mdt_head escapes them once (a Markdown name came out
     * "R&amp;amp;D"). */
    for (size_t i = 0; i < f->ncfgs; i++)
        heads[i + 1] = names[i + 1] = lang_config_plain(l, &f->cfgs[i], err);
    mdt_head(out, heads, nh, 1);
    pr_buf *cells = pr_xcalloc(nh, sizeof *cells);
    for (size_t r = 0; r < nrows; r++) {
        mdt_cells_clear(cells, nh);
        lang_gpus_label(l, rows[r].nodes, rows[r].gpus, &cells[0], err);
        for (size_t i = 0; i < f->ncfgs; i++)
            mdt_summary_cell(w, l, rm_cell_of(&f->cfgs[i], rows[r].nodes, rows[r].gpus), page_rel,
                             nt, &cells[i + 1]);
        mdt_row(out, cells, nh);
    }
    mdt_cells_free(cells, nh);
    free(cells);
    for (size_t i = 0; i < nh; i++)
        free(names[i]);
    free(names);
    free(heads);
}

/* ---------------------------------------------------------------- sections */

static void env_item(json_t *list, const lang *l, const char *key, const char *value)
{
    if (!value || !*value)
        return;
    pr_buf b = PR_BUF_INIT;
    pr_md_text(&b, value);
    json_array_append_new(list, json_pack("{s:s,s:s}", "label", lang_str(l, key), "value",
                                          pr_buf_cstr(&b)));
    pr_buf_free(&b);
}

static const char *jstr(json_t *o, const char *k)
{
    json_t *v = o ? json_object_get(o, k) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The environment, from the newest run's environment record, else what the
 * suite states, else what the primary published source states. */
static json_t *environment_items(const lang *l, const rm_fw *f, const char **from)
{
    json_t *items = json_array();
    const pr_run *run = NULL;
    for (size_t i = 0; i < f->nrecs; i++)
        if (f->runs[i]->env && (!run || strcmp(f->runs[i]->name, run->name) > 0))
            run = f->runs[i];
    if (run) {
        json_t *host = json_object_get(run->env, "host");
        json_t *gpu = json_object_get(run->env, "gpu");
        json_t *fwk = json_object_get(run->env, "framework");
        char buf[64];
        if (json_is_object(gpu)) {
            pr_buf g = PR_BUF_INIT;
            pr_buf_puts(&g, jstr(gpu, "name") ? jstr(gpu, "name") : "?");
            if (json_is_integer(json_object_get(gpu, "count")))
                pr_buf_printf(&g, " × %lld", (long long)json_integer_value(json_object_get(gpu, "count")));
            env_item(items, l, "env_gpu", pr_buf_cstr(&g));
            pr_buf_free(&g);
            env_item(items, l, "env_driver", jstr(gpu, "driver"));
            env_item(items, l, "env_cuda", jstr(gpu, "cuda"));
            env_item(items, l, "env_cudnn", jstr(gpu, "cudnn"));
            env_item(items, l, "env_nccl", jstr(gpu, "nccl"));
        }
        if (json_is_object(host)) {
            pr_buf c = PR_BUF_INIT;
            if (jstr(host, "cpu_model")) {
                pr_buf_puts(&c, jstr(host, "cpu_model"));
                if (json_is_integer(json_object_get(host, "cpu_count")))
                    pr_buf_printf(&c, " × %lld",
                                  (long long)json_integer_value(json_object_get(host, "cpu_count")));
                env_item(items, l, "env_cpu", pr_buf_cstr(&c));
            }
            pr_buf_free(&c);
            json_t *mem = json_object_get(host, "memory_gb");
            if (json_is_number(mem)) {
                snprintf(buf, sizeof buf, "%.1f GB", json_number_value(mem));
                env_item(items, l, "env_memory", buf);
            }
            env_item(items, l, "env_os", jstr(host, "os"));
            env_item(items, l, "env_kernel", jstr(host, "kernel"));
            env_item(items, l, "env_compiler", jstr(host, "compiler"));
        }
        if (json_is_object(fwk) && jstr(fwk, "version")) {
            pr_buf v = PR_BUF_INIT;
            pr_buf_printf(&v, "%s %s", jstr(fwk, "name") ? jstr(fwk, "name") : "",
                          jstr(fwk, "version"));
            env_item(items, l, "env_framework", pr_buf_cstr(&v));
            pr_buf_free(&v);
        }
        env_item(items, l, "env_captured", jstr(run->env, "captured_at"));
        *from = run->name;
        return items;
    }
    json_t *env = f->suite ? f->suite->environment : NULL;
    for (size_t i = 0; !env && i < f->npubs; i++)
        env = f->pubs[i]->environment;
    static const char *const keys[][2] = {
        {"gpu", "env_gpu"}, {"cpu", "env_cpu"}, {"memory", "env_memory"}, {"os", "env_os"},
        {"driver", "env_driver"}, {"cuda", "env_cuda"}, {"cudnn", "env_cudnn"},
        {"nccl", "env_nccl"}, {"framework", "env_framework"}, {"image", "env_image"},
        {"network", "env_network"}, {"nodes", "env_nodes"}};
    for (size_t i = 0; env && i < sizeof keys / sizeof *keys; i++)
        env_item(items, l, keys[i][1], jstr(env, keys[i][0]));
    if (f->suite && f->suite->framework_version && !jstr(env, "framework")) {
        pr_buf v = PR_BUF_INIT;
        pr_buf_printf(&v, "%s %s", f->framework_title, f->suite->framework_version);
        env_item(items, l, "env_framework", pr_buf_cstr(&v));
        pr_buf_free(&v);
    }
    if (f->suite && f->suite->image && !jstr(env, "image"))
        env_item(items, l, "env_image", f->suite->image);
    *from = NULL;
    return items;
}

/* The parse rules behind f's figures, each with the number of cases it
 * measured (the suite's rule when no record names one), into "rules". */
static void rule_notes(json_t *view, const lang *l, const rm_fw *f, pr_err *err)
{
    json_t *rules = json_array();
    json_t *seen = json_object();
    for (size_t i = 0; i < f->nrecs; i++) {
        const pr_record *r = f->recs[i];
        if (!r->rule)
            continue;
        char *text = json_dumps(r->rule, JSON_COMPACT | JSON_SORT_KEYS);
        json_t *count = json_object_get(seen, text);
        json_object_set_new(seen, text, json_integer(count ? json_integer_value(count) + 1 : 1));
        free(text);
    }
    if (!json_object_size(seen) && f->suite && f->suite->rule) {
        char *text = json_dumps(f->suite->rule, JSON_COMPACT | JSON_SORT_KEYS);
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
    for (size_t i = 0; i < n; i++) {
        pr_buf code = PR_BUF_INIT, b = PR_BUF_INIT;
        pr_md_code_span(&code, keys[i]);
        json_int_t cases = json_integer_value(json_object_get(seen, keys[i]));
        json_t *v = json_pack("{s:s,s:I,s:b}", "rule", pr_buf_cstr(&code), "cases", cases,
                              "measured", cases > 0);
        lang_fmt(l, "rule_line", v, &b, err);
        json_array_append_new(rules, json_pack("{s:s}", "text", pr_buf_cstr(&b)));
        json_decref(v);
        pr_buf_free(&code);
        pr_buf_free(&b);
    }
    free(keys);
    json_decref(seen);
    json_object_set_new(view, "rules", rules);
}

/* ---------------------------------------------------------------- the page */

/* The suite's description, its file and the steps to reproduce. */
static void suite_view(const rm_world *w, const pr_suite *s, const char *page_rel, json_t *view)
{
    vw_text(view, "description", s->description);
    vw_text(view, "framework_version", s->framework_version);
    vw_text(view, "mission_name", s->mission_name);
    char *suite_rel = rm_link_to(w, page_rel, s->path);
    pr_buf b = PR_BUF_INIT;
    /* The template writes the target as it is: encoded here, so that a
     * suite file named "F).json" or "a#b.json" still links to itself. */
    pr_md_link_path(&b, suite_rel);
    json_object_set_new(view, "suite_link", json_string(pr_buf_cstr(&b)));
    pr_buf_clear(&b);
    pr_md_code_span(&b, s->path);
    vw_md(view, "suite_path", &b);
    free(suite_rel);
    steps_view(s, view);
    if (s->image)
        vw_text(view, "image", s->image);
}

/* Every log, in table order: by configuration, row, then repeat. */
static json_t *logs_list(const rm_world *w, const lang *l, const rm_fw *f, const char *page_rel,
                         pr_err *err)
{
    json_t *logs = json_array();
    for (size_t i = 0; i < f->ncfgs; i++) {
        const rm_cfg *c = &f->cfgs[i];
        for (size_t r = 0; r < c->ncells; r++) {
            const rm_cell *cell = &c->cells[r];
            for (int rep = 1; rep <= 1000; rep++) {
                int found = 0;
                for (size_t j = 0; j < cell->nrecs; j++) {
                    const pr_record *rec = cell->recs[j];
                    if (rec->repeat != rep)
                        continue;
                    found = 1;
                    pr_buf name = PR_BUF_INIT, text = PR_BUF_INIT;
                    lang_config_name(l, c, &name, err);
                    json_t *lv = json_pack("{s:i,s:i,s:s,s:i,s:s}", "nodes", rec->nodes, "gpus",
                                           rec->gpu_num, "config", pr_buf_cstr(&name), "repeat",
                                           rec->repeat, "case", rec->case_name);
                    if (rec->failed) {
                        pr_buf why = PR_BUF_INIT;
                        json_object_set_new(lv, "reason", json_string(rec->fail_reason));
                        lang_fmt(l, "failed_reason", lv, &why, err);
                        json_object_set_new(lv, "failed", json_string(pr_buf_cstr(&why)));
                        pr_buf_free(&why);
                    }
                    lang_fmt(l, "log_link", lv, &text, err);
                    pr_buf item = PR_BUF_INIT;
                    mdt_log_link(w, page_rel, cell->runs[j], rec, pr_buf_cstr(&text), &item);
                    json_array_append_new(logs, json_pack("{s:s}", "link", pr_buf_cstr(&item)));
                    json_decref(lv);
                    pr_buf_free(&name);
                    pr_buf_free(&text);
                    pr_buf_free(&item);
                }
                if (!found)
                    break;
            }
        }
    }
    return logs;
}

json_t *page_framework_view(const rm_world *w, const lang *l, const rm_fw *f, cs_queue *oc,
                            pr_err *err)
{
    json_t *view = json_object();
    char *page_rel = pr_xasprintf("%s/%s", f->model, f->framework);
    vw_notes nt = {0};
    pr_buf b = PR_BUF_INIT;
    int ok = 0;
    vw_text(view, "model_title", f->model_title);
    vw_text(view, "framework_title", f->framework_title);
    vw_page(view, l);
    vw_text(view, "unit", f->unit);
    const pr_suite *s = f->suite;
    if (s)
        suite_view(w, s, page_rel, view);
    const char *env_from = NULL;
    json_t *env = environment_items(l, f, &env_from);
    json_object_set_new(view, "has_env", json_boolean(json_array_size(env) > 0));
    json_object_set_new(view, "environment", env);
    vw_text(view, "env_run", env_from);

    summary_table(w, l, f, page_rel, &nt, &b, err);
    vw_md(view, "summary_table", &b);
    json_object_set_new(view, "hardware", json_boolean(s && s->hardware));
    if (hw_view(w, l, f, page_rel, oc, view, err) < 0)
        goto out;

    json_t *configs = json_array();
    for (size_t i = 0; i < f->ncfgs; i++) {
        const rm_cfg *c = &f->cfgs[i];
        json_t *cv = json_object();
        lang_config_name(l, c, &b, err);
        vw_md(cv, "name", &b);
        if (c->has_repro) {
            repro_table(w, l, f, c, page_rel, &nt, &b, err);
            vw_md(cv, "repro_table", &b);
        }
        if (oc->charts) {
            if (cs_fw_scaling(l, f, c, page_rel, oc, &b, err) < 0) {
                json_decref(cv);
                json_decref(configs);
                goto out;
            }
            if (b.len)
                vw_md(cv, "chart", &b);
        }
        json_t *pubs = json_array();
        for (size_t j = 0; j < f->npubs; j++) {
            const pr_pub_table *t = f->pubs[j];
            if (strcmp(t->precision, c->precision) || t->batch_size != c->bs)
                continue;
            json_t *pv = json_object();
            vw_text(pv, "label", t->label);
            vw_text(pv, "variant", t->variant);
            vw_text(pv, "note", t->note);
            source_line(l, t, &b, err);
            vw_md(pv, "source", &b);
            pub_table(l, f, t, &nt, &b, err);
            vw_md(pv, "table", &b);
            json_array_append_new(pubs, pv);
        }
        json_object_set_new(cv, "published", pubs);
        json_array_append_new(configs, cv);
    }
    json_object_set_new(view, "configs", configs);
    if (oc->charts) {
        if (cs_fw_speedup(l, f, page_rel, oc, &b, err) < 0)
            goto out;
        if (b.len)
            vw_md(view, "speedup_chart", &b);
    }

    json_t *logs = logs_list(w, l, f, page_rel, err);
    json_object_set_new(view, "has_logs", json_boolean(json_array_size(logs) > 0));
    json_object_set_new(view, "imported", json_boolean(!s && json_array_size(logs) > 0));
    json_object_set_new(view, "logs", logs);
    rule_notes(view, l, f, err);
    vw_notes_set(view, l, &nt, f, err);
    vw_text(view, "date", f->date[0] ? f->date : lang_str(l, "state_none"));
    ok = 1;
out:
    pr_buf_free(&b);
    free(page_rel);
    if (!ok) {
        json_decref(view);
        view = NULL;
    }
    return view;
}
