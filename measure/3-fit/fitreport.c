/* fitreport: the report of `parse --fit` (fit_int.h): the rules that
 * reproduce every figure, those that do only by truncation, and when none
 * does, those that reproduce most and the closest; as text, or as one JSON
 * object (--json, docs/data-model.md "Fit reports").  Every rule listed is
 * built again from its JSON first, so that what is printed is what --rule
 * will do. */
#include "fit_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const reduce_names[] = {"mean", "median", "last", "trimmed_mean",
                                           "max",  "min",    "best"};

/* x with d decimals, rounded as pr_stats_printed_match rounds (for the
 * report). */
static void fmt_round(char *buf, size_t size, double x, int d)
{
    snprintf(buf, size, "%.*f", d, x);
}

/* The candidate as the object one passes to --rule: the user's rule with
 * the searched keys set where they are not the default (a new reference). */
static json_t *cand_json(const fit *f, const json_t *base_json, const cand *c)
{
    json_t *j = json_deep_copy(base_json);
    json_object_del(j, "skip");
    json_object_del(j, "reduce");
    json_object_del(j, "trim");
    if (f->base->profile == PR_PROFILE_DLLOGGER)
        json_object_del(j, "step");
    if (c->round_searched)
        json_object_del(j, "round");
    if (c->k.skip)
        json_object_set_new(j, "skip", json_integer(c->k.skip));
    if (c->k.reduce != PR_REDUCE_MEAN)
        json_object_set_new(j, "reduce", json_string(reduce_names[c->k.reduce]));
    if (c->trim > 0) {
        const pr_fitcalc_trim *t = &pr_fit_trims[c->trim];
        json_object_set_new(j, "trim",
                            json_pack("{s:o,s:I}", "fraction",
                                      t->fraction == 0 ? json_integer(0) : json_real(t->fraction),
                                      "min", (json_int_t)t->min));
    }
    if (f->base->profile == PR_PROFILE_DLLOGGER && c->k.step != PR_STEP_ITERATION)
        json_object_set_new(j, "step", json_string(pr_fit_step_names[c->k.step]));
    if (c->round_searched && c->k.round >= 0)
        json_object_set_new(j, "round", json_integer(c->k.round));
    return j;
}

/* Checks that the printed rule holds the candidate's keys, so that what is
 * listed is what --rule will do. */
static int check_printed(const json_t *j, const cand *c, int dllogger, pr_err *err)
{
    pr_rule *r = NULL;
    if (rule_from_json((json_t *)j, "<--fit>", &r, err) < 0)
        return pr_err_prefix(err, "a rule built by --fit is not valid");
    pr_reduce_keys k;
    parse_reduce_keys_of(r, &k);
    rule_free(r);
    int trimmed = c->k.reduce == PR_REDUCE_TRIMMED_MEAN;
    if (k.skip != c->k.skip || k.reduce != c->k.reduce || k.round != c->k.round ||
        k.min_records != c->k.min_records || (dllogger && k.step != c->k.step) ||
        (trimmed && (k.trim_fraction != c->k.trim_fraction || k.trim_min != c->k.trim_min)))
        return pr_err_set(err, NULL, 0, 0, "--fit",
                          "a rule built by --fit does not hold the "
                          "keys that were tried");
    return 0;
}

/* One listed candidate: its rule, and each case's value against its figure. */
static int put_cand(const fit *f, const json_t *base_json, const cand *c, size_t no, pr_buf *out,
                    pr_err *err)
{
    json_t *j = cand_json(f, base_json, c);
    int rc = check_printed(j, c, f->base->profile == PR_PROFILE_DLLOGGER, err);
    if (rc == 0) {
        char *t = json_dumps(j, JSON_REAL_PRECISION(15));
        pr_buf_printf(out, "  %zu. %s\n", no, t);
        free(t);
    }
    json_decref(j);
    if (rc < 0)
        return -1;
    for (size_t g = 0; g < f->nc; g++) {
        const fcase *fc = &f->cs[g];
        double v = f->vals[c->at + g];
        int d = fc->decimals;
        if (f->nc > 1)
            pr_buf_printf(out, "     [%zu] ", g + 1);
        else
            pr_buf_puts(out, "     ");
        char r[512];
        switch (f->match[c->at + g]) {
        case MATCH_FAIL:
            pr_buf_printf(out, "no value (%s)\n", f->reason[c->at + g]);
            continue;
        case MATCH_ROUND:
            pr_buf_printf(out, "%.*f -> %s\n", d + 3, v, fc->canon);
            continue;
        case MATCH_TRUNC:
            fmt_round(r, sizeof r, v, d);
            pr_buf_printf(out, "%.*f -> %s only by truncation (it rounds to %s)\n", d + 3, v,
                          fc->canon, r);
            continue;
        default:
            pr_buf_printf(out, "%.*f misses %s (%+.*f, %+.4f%%)\n", d + 3, v, fc->canon, d + 3,
                          v - fc->figure, 100.0 * fit_rel_diff(fc, v));
        }
    }
    if (c->same_to > c->k.skip)
        pr_buf_printf(out, "     (the same value%s with skip %lld to %lld)\n", f->nc > 1 ? "s" : "",
                      c->k.skip, c->same_to);
    return 0;
}

/* Lists the candidates idx[0..n), at most limit (0: all). */
static int put_list(const fit *f, const json_t *base_json, const size_t *idx, size_t n,
                    size_t limit, pr_buf *out, pr_err *err)
{
    size_t shown = limit && n > limit ? limit : n;
    for (size_t i = 0; i < shown; i++)
        if (put_cand(f, base_json, &f->cands[idx[i]], i + 1, out, err) < 0)
            return -1;
    if (shown < n)
        pr_buf_printf(out, "  ... and %zu more (--limit 0 lists them all)\n", n - shown);
    return 0;
}

typedef struct by_diff {
    double worst;
    size_t i;
} by_diff;

static int cmp_diff(const void *pa, const void *pb)
{
    const by_diff *a = pa, *b = pb;
    if (a->worst != b->worst)
        return a->worst < b->worst ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* The figures, for headings: "393.561", "both figures", "all 3 figures". */
static void put_figures(const fit *f, pr_buf *out)
{
    if (f->nc == 1)
        pr_buf_puts(out, f->cs[0].canon);
    else if (f->nc == 2)
        pr_buf_puts(out, "both figures");
    else
        pr_buf_printf(out, "all %zu figures", f->nc);
}

/* Up to limit candidates idx[0..n) as a JSON array (a new reference): each
 * {"rule", "values": [per case, null when none], "matches": [...]}. */
static json_t *cand_list_json(const fit *f, const json_t *base_json, const size_t *idx, size_t n,
                              size_t limit, pr_err *err)
{
    static const char *const match_names[] = {"rounded", "truncated", "differs", "no value"};
    json_t *arr = json_array();
    size_t shown = limit && n > limit ? limit : n;
    for (size_t i = 0; i < shown; i++) {
        const cand *c = &f->cands[idx[i]];
        json_t *rule = cand_json(f, base_json, c);
        if (check_printed(rule, c, f->base->profile == PR_PROFILE_DLLOGGER, err) < 0) {
            json_decref(rule);
            json_decref(arr);
            return NULL;
        }
        json_t *vals = json_array(), *matches = json_array();
        for (size_t g = 0; g < f->nc; g++) {
            double v = f->vals[c->at + g];
            int m = f->match[c->at + g];
            json_array_append_new(vals, isnan(v) ? json_null() : json_real(v));
            json_array_append_new(matches, json_string(match_names[m == MATCH_ROUND   ? 0
                                                                   : m == MATCH_TRUNC ? 1
                                                                   : m == MATCH_FAIL  ? 3
                                                                                      : 2]));
        }
        /* json_pack "o" steals rule, vals and matches */
        json_array_append_new(
            arr, json_pack("{s:o,s:o,s:o}", "rule", rule, "values", vals, "matches", matches));
    }
    return arr;
}

/* The report as one JSON object (--json): the figures, the rules that
 * reproduce them all, those that do only by truncation, and (when none
 * reproduces them all) the closest.  Appended to out. */
int fit_report_json(fit *f, const json_t *base_json, const pr_fit_opts *o, pr_buf *out, int *fits,
                    pr_err *err)
{
    size_t *idx = pr_xcalloc(f->ncand + 1, sizeof *idx);
    by_diff *bd = pr_xcalloc(f->ncand + 1, sizeof *bd);
    json_t *doc = json_object(), *figs = json_array(), *list;
    int rc = -1;
    for (size_t g = 0; g < f->nc; g++) {
        json_t *logs = json_array();
        for (size_t i = 0; i < f->cs[g].in->nlogs; i++)
            json_array_append_new(logs, json_string(f->cs[g].in->logs[i]));
        json_array_append_new(figs,
                              json_pack("{s:s,s:o}", "figure", f->cs[g].in->figure, "logs", logs));
    }
    json_object_set_new(doc, "perfrepro_fit", json_integer(1));
    json_object_set_new(doc, "searched", json_integer((json_int_t)f->tried));
    json_object_set_new(doc, "figures", figs);
    size_t n = 0;
    for (size_t i = 0; i < f->ncand; i++)
        if ((size_t)f->cands[i].nround == f->nc)
            idx[n++] = i;
    *fits = n > 0;
    if (!(list = cand_list_json(f, base_json, idx, n, o->limit, err)))
        goto out;
    json_object_set_new(doc, "reproduced", list);
    n = 0;
    for (size_t i = 0; i < f->ncand; i++)
        if (f->cands[i].ntrunc && (size_t)(f->cands[i].nround + f->cands[i].ntrunc) == f->nc)
            idx[n++] = i;
    if (!(list = cand_list_json(f, base_json, idx, n, o->limit, err)))
        goto out;
    json_object_set_new(doc, "truncated", list);
    n = 0;
    for (size_t i = 0; !*fits && i < f->ncand; i++)
        if (f->cands[i].nfail == 0)
            bd[n++] = (by_diff){f->cands[i].worst, i};
    pr_qsort(bd, n, sizeof *bd, cmp_diff);
    for (size_t i = 0; i < n; i++)
        idx[i] = bd[i].i;
    if (!(list = cand_list_json(f, base_json, idx, n, o->limit, err)))
        goto out;
    json_object_set_new(doc, "closest", list);
    char *text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    pr_buf_puts(out, text);
    pr_buf_puts(out, "\n");
    free(text);
    rc = 0;
out:
    json_decref(doc);
    free(idx);
    free(bd);
    return rc;
}

/* The report, from the candidates sorted simplest first. */
int fit_report_text(fit *f, const json_t *base_json, const pr_fit_opts *o, pr_buf *out, int *fits,
                    pr_err *err)
{
    size_t *idx = pr_xcalloc(f->ncand + 1, sizeof *idx);
    by_diff *bd = NULL;
    size_t n = 0;
    int rc = -1;
    for (size_t i = 0; i < f->ncand; i++)
        if ((size_t)f->cands[i].nround == f->nc)
            idx[n++] = i;
    *fits = n > 0;
    if (n) {
        pr_buf_printf(out, "%zu rule%s reproduce%s ", n, n == 1 ? "" : "s", n == 1 ? "s" : "");
        put_figures(f, out);
        pr_buf_puts(out, " (simplest first):\n");
        if (put_list(f, base_json, idx, n, o->limit, out, err) < 0)
            goto out;
    } else {
        pr_buf_puts(out, "no rule reproduces ");
        put_figures(f, out);
        pr_buf_puts(out, "\n");
    }
    /* only by truncation: every figure by rounding or truncating, one at least truncated */
    n = 0;
    for (size_t i = 0; i < f->ncand; i++)
        if (f->cands[i].ntrunc && (size_t)(f->cands[i].nround + f->cands[i].ntrunc) == f->nc)
            idx[n++] = i;
    if (n) {
        pr_buf_printf(out, "%zu rule%s reproduce%s ", n, n == 1 ? "" : "s", n == 1 ? "s" : "");
        put_figures(f, out);
        pr_buf_puts(out, " only by truncation (the figure was cut, not rounded):\n");
        if (put_list(f, base_json, idx, n, o->limit, out, err) < 0)
            goto out;
    }
    if (*fits) {
        rc = 0;
        goto out;
    }
    /* the rules that reproduce most figures, when there are several */
    for (size_t want = f->nc - 1; f->nc > 1 && want >= 1; want--) {
        n = 0;
        for (size_t i = 0; i < f->ncand; i++)
            if ((size_t)f->cands[i].nround == want)
                idx[n++] = i;
        if (!n)
            continue;
        pr_buf_printf(out, "%zu rule%s reproduce%s %zu of the %zu figures (simplest first):\n", n,
                      n == 1 ? "" : "s", n == 1 ? "s" : "", want, f->nc);
        if (put_list(f, base_json, idx, n, o->limit, out, err) < 0)
            goto out;
        break;
    }
    /* the closest: the smallest largest relative difference over the cases */
    bd = pr_xcalloc(f->ncand + 1, sizeof *bd);
    n = 0;
    for (size_t i = 0; i < f->ncand; i++)
        if (f->cands[i].nfail == 0)
            bd[n++] = (by_diff){f->cands[i].worst, i};
    pr_qsort(bd, n, sizeof *bd, cmp_diff);
    for (size_t i = 0; i < n; i++)
        idx[i] = bd[i].i;
    if (n) {
        pr_buf_puts(out, "the closest rules (by the largest relative difference):\n");
        if (put_list(f, base_json, idx, n, o->limit, out, err) < 0)
            goto out;
    } else {
        pr_buf_puts(out, "no rule gives a value for every log\n");
    }
    rc = 0;
out:
    free(idx);
    free(bd);
    return rc;
}
