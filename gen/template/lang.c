#include "lang.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/md.h"
#include "fileio.h"
#include "jdoc.h"

static const char *const page_names[] = {"index", "model",   "framework", "bench",
                                         "audit", "compare", "history",   "regressions"};

/* Every key gen looks up in templates/<lang>/strings.json; a missing key is
 * an error when the language loads, not a blank in a report. */
static const char *const string_keys[] = {
    "state_todo", "state_oom", "state_failed", "state_none", "no_baseline", "col_nodes",
    "date_runs", "date_pubs", "date_sep", /* a page's data date, by kind */
    /* like with like (likewise.c) */
    "rw_estimator", "rw_estimator_summary", "lw_heading", "lw_colon", "lw_index_estimators",
    "lw_est_rows", "lw_fact", "lw_none", "lw_published", "lw_also_published", "lw_ranking",
    "lw_no_ranking", "lw_plain_ranking", "lw_plain_differ", "lw_c_precision", "lw_c_memory_format",
    "lw_c_loader", "lw_c_loss_scale", "lw_c_estimator", "lw_v_pure_fp16", "lw_v_amp_level",
    "lw_v_no_dali", "lw_v_scale_from", "lw_v_static_scale", "lw_v_dynamic_scale", "col_gpus",
    "col_throughput", "col_busbw", "col_measured", "bench_range_loop", "col_range", "col_runs",
    "col_speedup", "col_efficiency", "col_time", "dir_lower", "dir_unknown", "note_batch_differs",
    "chart_y_time", "chart_compare_time_title", "chart_scaling_time_title", "col_tt", "col_acc",
    "col_published", "col_gap", "col_log", "col_pub_speedup", "col_computed_speedup",
    "col_framework", "col_model", "col_headline", "col_date", "col_config", "log_link",
    "config_name", "config_short", "platform_unknown", "imported_mark", "origin_legend",
    "published_mark", "gap_flag", "speedup_flag", "note_no_baseline", "note_published",
    "note_rounding", "note_gap", "note_speedup_flag", "note_runs", "note_failed", "env_gpu",
    "env_cpu", "env_memory", "env_os", "env_kernel", "env_driver", "env_cuda", "env_cudnn",
    "env_nccl", "env_framework", "env_image", "env_compiler", "env_network", "env_nodes",
    "env_captured", "env_rt_blas", "env_rt_lapack", "env_rt_openmp", "env_rt_onednn",
    "env_rt_threads", "env_rt_settings", "env_rt_unset", "env_none", "steps_none", "logs_none",
    "gpus_label", "headline", "variant", "rule_line", "failed_reason", "chart_scaling_title",
    "chart_compare_title", "chart_lines_title", "chart_x_gpus", "chart_y_throughput",
    "chart_measured", "chart_imported", "chart_published", "chart_png", "sweep_title_bytes",
    "sweep_title_shape", "col_size", "col_shape", "sweep_col", "sweep_ratio_auto",
    "sweep_ratio_at_size", "sweep_ratio_lowest", "sweep_ratio_none", "sweep_target_met",
    "sweep_target_missed", "sweep_peak", "sweep_note", "sweep_note_sizes", "chart_sweep_title",
    "chart_x_size", "chart_x_shape", "chart_y_unit", "chart_peak", "state_na",
    "chart_compare_gpu_title", "chart_y_per_gpu", "chart_per_gpu_value",
    /* the framework page (page_framework.c, env_view.c, provenance.c) */
    "col_procs", "col_threads", "procs_label", "platform_none_title", "platform_planned_title",
    "platform_none_note", "platform_desc", "env_src_run", "env_src_imported", "env_src_suite",
    "env_src_pub", "env_src_pub_no_lines", "env_src_other", "env_src_none", "env_none_run",
    "env_no_software", "env_no_sources", "others_cell", "other_origin_left",
    "imported_source_unknown", "log_source", "precedence_rule", "note_rounding_cpu",
    "note_rounding_hw",
    /* the cross-framework pages (compare.c, page_model.c, page_index.c) */
    "class_config_name", "col_mode", "src_heading", "src_column", "src_measured", "src_imported",
    "src_published", "src_pub_table", "src_none", "list_sep", "value_sep", "alt_heading",
    "alt_precedence", "alt_column", "unknown_platform_note", "no_known_platform", "chart_fw_series",
    "index_value",
    /* statistics and sanity flags (page_framework.c, page_model.c, view.c, sanity.c) */
    "col_interval", "col_olympic", "gap_insufficient", "note_stats", "note_stats_plain",
    "note_insufficient", "note_olympic", "note_speedup_interval", "sanity_flag", "note_sanity",
    "sanity_superlinear", "sanity_falls", "sanity_jump", "sanity_identical",
    "sanity_identical_logs", "sanity_other_base", "sanity_other_runset", "sanity_other_rule",
    "sanity_other_rule_runset", "state_other_rule", "env_src_runset", "env_src_pub_runsets",
    "env_src_logs", "logfact_container", "logfact_build", "logfact_driver_cuda", "logfact_command",
    "logfact_args", "env_other", "env_code", "env_python", "env_topology", "env_text",
    "fp32_on_tf32", "pub_paired_mode", "pub_other_runset", "sanity_few_records", "sanity_unsteady",
    "sanity_unsteady_run", "col_runs_records", "records_summary", "sanity_other_runset_same",
    "speedup_base_smallest", "platform_source", "state_other_runset", "rs_what_dates",
    "rs_what_rule", "rs_what_env", "rs_what_runtime", "src_measured_here", "src_imported_from",
    /* charts: flagged figures, scaling efficiency (chartspec*.c) */
    "chart_flagged", "chart_efficiency_title", "chart_y_efficiency", "chart_efficiency_ideal",
    /* the headline, index and model page (page_index.c, page_model.c, page_audit.c) */
    "head_index_intro", "head_index_declared", "head_index_chosen", "head_index_planned",
    "head_index_no_figure", "head_planned_cases", "head_planned_item", "head_planned_intro",
    "head_audit_import", "head_audit_import_unknown", "head_audit_import_line",
    "head_audit_runset_rule", "head_printed_under", "head_differs_intro", "head_printed_other",
    /* the step traces of the framework page (steptrace.c) */
    "trace_alt", "trace_none", "trace_omitted", "trace_one",
    /* the framework page's layout (fw_pubtab.c, page_framework.c) */
    "fwp_source_cell", "fwp_who", "fwp_printed_speedup", "fwp_col_source", "fwp_col_revision",
    "fwp_pub_legend", "fwp_over_time", "fwp_planned", "fwp_planned_item", "fwp_insufficient",
    "fwp_runset_sep", "fwp_revision_other", "fwp_source_line", "fwp_env_shared", "fwp_env_item",
    /* the summary a framework page opens with (fw_summary.c) */
    "fwp_note_again", "fws_headline", "fws_col_config", "fws_col_gpus", "fws_col_procs",
    "fws_scaling", "fws_audit", "fws_caveats", "mlperf_head", "mlperf_cols", "fws_col_median",
    "mlperf_runs", "fwp_rule_words", "fwp_rules_json", "fwp_rw_mean", "fwp_rw_median",
    "fwp_rw_last", "fwp_rw_trimmed_mean", "fwp_rw_best", "fwp_rw_max", "fwp_rw_min",
    "fwp_rw_throughput", "fwp_rw_seconds_per_step", "fwp_rw_ms_per_step", "fwp_rw_steps_per_second",
    "fwp_rw_raw", "fwp_rw_per_card", "fwp_rw_global",
    /* a figure's link to its audit row (compare.c) */
    "al_title_reproduced", "al_title_truncated", "al_title_differs", "al_title_no_value",
    "al_title_no_log", "al_title_partial_logs", "al_title_reproduced_under", "al_legend",
    /* A/B comparisons (page_compare.c, page_index.c) */
    "ab_v_faster", "ab_v_slower", "ab_v_changed_small", "ab_v_equivalent", "ab_v_inconclusive",
    "ab_v_insufficient", "ab_needed", "ab_title_default", "ab_refused", "ab_what_command",
    "ab_what_fwver", "ab_what_source", "ab_chart_title", "ab_chart_x", "ab_chart_band",
    "ab_chart_point", "ab_chart_alt", "ab_v_not_judged", "ab_not_judged", "ab_gate_unsteady",
    "ab_gate_run_cv", "ab_gate_run_regime", "ab_gate_implausible", "ab_gate_range", "ab_gate_all",
    "ab_col_median", "ab_col_figure", "ab_lower_note", "ab_chart_x_speed", "note_time_speedup",
    /* the compare table's headings (compare_stats.c) */
    "ab_col_a_runs", "ab_col_b_runs", "ab_col_ratio", "ab_col_interval", "ab_col_coverage",
    "ab_col_verdict", "ab_col_needed",
    /* the figures' CSV on the index (report.c, export.h) */
    "exp_figures_csv",
    /* the history pages and the feed (page_history.c) */
    "hist_col_date", "hist_col_figure", "hist_col_interval", "hist_col_runs", "hist_col_limits",
    "hist_col_state", "hist_col_change", "hist_col_source", "hist_state_ok", "hist_state_suspect",
    "hist_state_outlier", "hist_state_regression", "hist_state_improvement", "hist_interval",
    "hist_limits", "hist_change_found", "hist_change_pinned", "hist_change_vetoed", "hist_log",
    "hist_revision", "hist_series_reproduced", "hist_series_published", "hist_band",
    "hist_band_none", "hist_chart_y", "hist_chart_y_time", "hist_chart_points_rep",
    "hist_chart_points_pub", "hist_chart_change", "hist_chart_band", "hist_chart_flag",
    "hist_chart_alt", "hist_feed_title", "hist_feed_summary", "hist_feed_subtitle",
    "hist_state_unjudged", "hist_state_wide", "hist_step_seen", "hist_band_wide",
    "hist_testable_cp", "hist_testable_band", "hist_not_testable", "hist_seen_note", NULL};

int lang_load(lang *l, const char *templates_dir, pr_err *err)
{
    l->dir = pr_fileio_path_join(templates_dir, l->code);
    char *path = pr_fileio_path_join(l->dir, "strings.json");
    pr_jdoc *doc = NULL;
    int rc = -1;
    if (pr_jdoc_load(path, &doc, err) < 0)
        goto out;
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    if (pr_jdoc_jobject(&root, string_keys, err) < 0)
        goto out;
    for (const char *const *k = string_keys; *k; k++) {
        const char *s;
        if (pr_jdoc_jstr(&root, *k, 1, &s, err) < 0)
            goto out;
    }
    l->strings = json_incref(root.v);
    size_t n = 0;
    while (string_keys[n])
        n++;
    l->compiled = pr_xcalloc(n, sizeof *l->compiled);
    l->index = json_object();
    for (size_t i = 0; i < n; i++) {
        json_object_set_new(l->index, string_keys[i], json_integer((json_int_t)i));
        const char *t = json_string_value(json_object_get(root.v, string_keys[i]));
        pr_jdoc_jcur at = pr_jdoc_jchild(&root, string_keys[i]);
        if (mustache_compile(t, strlen(t), string_keys[i], &l->compiled[i], err) < 0) {
            pr_err inner = *err;
            pr_jdoc_jfail(&at, err, "%s", inner.msg);
            goto out;
        }
    }
    rc = 0;
out:
    pr_jdoc_free(doc);
    free(path);
    return rc;
}

void lang_free(lang *l)
{
    for (size_t i = 0; l->compiled && string_keys[i]; i++)
        mustache_tmpl_free(l->compiled[i]);
    free(l->compiled);
    json_decref(l->index);
    for (size_t i = 0; i < sizeof l->pages / sizeof *l->pages; i++)
        mustache_tmpl_free(l->pages[i]);
    free(l->dir);
    json_decref(l->strings);
}

const char *lang_str(const lang *l, const char *key)
{
    return json_string_value(json_object_get(l->strings, key));
}

static void md_escape_cb(void *ctx, pr_buf *out, const char *s, size_t len)
{
    (void)ctx;
    char *t = pr_xstrndup(s, len);
    md_text(out, t);
    free(t);
}

/* Renders a small parameterised string (a strings.json entry is itself a
 * mustache template) with view (borrowed), appending to out. */
static pr_mustache_tmpl *compiled_string(const lang *l, const char *key)
{
    json_t *i = json_object_get(l->index, key);
    if (!i)
        abort(); /* every key gen uses is in string_keys */
    return l->compiled[json_integer_value(i)];
}

int lang_fmt(const lang *l, const char *key, json_t *view, pr_buf *out, pr_err *err)
{
    pr_mustache_opts o = {0};
    o.escape = md_escape_cb;
    return mustache_render_tmpl(compiled_string(l, key), view, &o, out, err);
}

static void plain_escape_cb(void *ctx, pr_buf *out, const char *s, size_t len)
{
    (void)ctx;
    pr_buf_put(out, s, len);
}

/* Like lang_fmt, for text that is not Markdown (chart labels): nothing
 * escaped.  Returns a malloc'd string the caller frees. */
char *lang_fmt_plain(const lang *l, const char *key, json_t *view, pr_err *err)
{
    pr_buf out = PR_BUF_INIT;
    pr_mustache_opts o = {0};
    o.escape = plain_escape_cb;
    mustache_render_tmpl(compiled_string(l, key), view, &o, &out, err);
    return pr_buf_detach(&out);
}

json_t *lang_count_view(int nodes, int gpus)
{
    /* "316×2528 GPUs" read as a product: English names nodes and GPUs per
     * node ("316 nodes × 8 GPUs"); "one": "1 GPU", not "1 GPUs" (issue 23). */
    int per_node = nodes > 0 ? gpus / nodes : gpus;
    return json_pack("{s:i,s:i,s:i,s:b,s:b}", "nodes", nodes, "gpus", gpus, "per_node", per_node,
                     "one_node", nodes == 1, "one", per_node == 1);
}

void lang_gpus_label(const lang *l, int nodes, int gpus, pr_buf *out, pr_err *err)
{
    json_t *v = lang_count_view(nodes, gpus);
    lang_fmt(l, "gpus_label", v, out, err);
    json_decref(v);
}

/* Guards the page templates parsed on first use: pages render on several
 * threads (report.c). */
static pthread_mutex_t pages_lock = PTHREAD_MUTEX_INITIALIZER;

int lang_render(lang *l, const char *page, json_t *view, pr_buf *out, pr_err *err)
{
    size_t which = 0;
    while (strcmp(page_names[which], page) != 0)
        which++;
    char *name = pr_xasprintf("%s.mustache", page);
    char *path = pr_fileio_path_join(l->dir, name);
    pr_buf tmpl = PR_BUF_INIT, md = PR_BUF_INIT, toc = PR_BUF_INIT;
    int rc = -1;
    pthread_mutex_lock(&pages_lock);
    int ready = l->pages[which] ||
                (pr_fileio_read_file(path, &tmpl, err) == 0 &&
                 mustache_compile(pr_buf_cstr(&tmpl), tmpl.len, path, &l->pages[which], err) == 0);
    pthread_mutex_unlock(&pages_lock);
    if (!ready)
        goto out;
    pr_mustache_dir dir = {l->dir, ".mustache"};
    pr_mustache_opts o = {0};
    o.load_partial = mustache_dir_loader;
    o.partial_ctx = &dir;
    o.escape = md_escape_cb;
    if (mustache_render_tmpl(l->pages[which], view, &o, &md, err) < 0)
        goto out;
    const char *mark = strstr(pr_buf_cstr(&md), LANG_TOC_MARK);
    if (mark) {
        /* The contents list the headings after it, not the title or itself. */
        md_toc(&toc, mark + strlen(LANG_TOC_MARK), 2, 3);
        size_t at = (size_t)(mark - md.data);
        pr_buf_put(out, md.data, at);
        pr_buf_puts(out, pr_buf_cstr(&toc));
        pr_buf_puts(out, mark + strlen(LANG_TOC_MARK));
    } else {
        pr_buf_put(out, md.data, md.len);
    }
    rc = 0;
out:
    free(name);
    free(path);
    pr_buf_free(&tmpl);
    pr_buf_free(&md);
    pr_buf_free(&toc);
    return rc;
}
