#include "fitprobe.h"

#include <stdio.h>
#include <string.h>

#include "2-parse/parse.h"
#include "2-parse/rule.h"

/* The number records of every run of s, or 0 when a run has none. */
static unsigned long long count_numbers(const pr_scan *s)
{
    unsigned long long total = 0;
    size_t runs = parse_scan_runs(s);
    for (size_t r = 0; r < runs; r++) {
        size_t n;
        const pr_scan_rec *recs = parse_scan_records(s, r, &n);
        unsigned long long k = 0;
        for (size_t i = 0; i < n; i++)
            k += recs[i].kind == PR_SCAN_NUMBER;
        if (k == 0)
            return 0;
        total += k;
    }
    return runs ? total : 0;
}

/* Builds profile p's rule: without a scope when the profile takes none
 * (per-step values, raw figures), else with one (rates need it; which one
 * does not change what is read). */
static pr_rule *probe_rule(const char *p, int *needs_scope)
{
    char text[128];
    pr_rule *rule = NULL;
    pr_err err;
    snprintf(text, sizeof text, "{\"profile\": \"%s\"}", p);
    if (rule_parse("<probe>", text, strlen(text), &rule, &err) == 0) {
        *needs_scope = 0;
        return rule;
    }
    snprintf(text, sizeof text, "{\"profile\": \"%s\", \"scope\": \"global\"}", p);
    if (rule_parse("<probe>", text, strlen(text), &rule, &err) == 0) {
        *needs_scope = 1;
        return rule;
    }
    return NULL;
}

int fitprobe(const pr_fit_case *cases, size_t ncases, pr_fitprobe_hit *hits, size_t max,
             size_t *nhits)
{
    *nhits = 0;
    /* the profiles that read a log with no key but their own, in the
     * table's order (the order of the hits fit prints) */
    for (int p = 0; p < PR_PROFILE_COUNT && *nhits < max; p++) {
        if (!pr_rulecfg_profile_probed((pr_rulecfg_profile)p))
            continue;
        const char *name = pr_rulecfg_profile_name((pr_rulecfg_profile)p);
        int needs_scope = 0;
        pr_rule *rule = probe_rule(name, &needs_scope);
        if (!rule)
            continue;
        unsigned long long total = 0;
        int reads_all = ncases > 0;
        for (size_t c = 0; c < ncases && reads_all; c++) {
            pr_scan *s = NULL;
            pr_err serr;
            /* options a profile needs (--batch-size for per-step values)
             * missing, or a log it cannot take: not a candidate */
            if (parse_check_args(rule, &cases[c].args, &serr) < 0 ||
                parse_scan(rule, cases[c].logs, cases[c].nlogs, &cases[c].args, &s, &serr) < 0) {
                reads_all = 0;
                break;
            }
            unsigned long long k = count_numbers(s);
            parse_scan_free(s);
            reads_all = k > 0;
            total += k;
        }
        rule_free(rule);
        if (reads_all)
            hits[(*nhits)++] = (pr_fitprobe_hit){name, needs_scope, total};
    }
    return 0;
}

void fitprobe_rule(const pr_fitprobe_hit *h, const char *scope, pr_buf *out)
{
    if (h->needs_scope)
        pr_buf_printf(out, "{\"profile\": \"%s\", \"scope\": \"%s\"}", h->profile, scope);
    else
        pr_buf_printf(out, "{\"profile\": \"%s\"}", h->profile);
}
