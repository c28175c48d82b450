/* fitfile: RUN/fit/<case>.json, what `perfrepro-measure parse --fit FIGURE
 * --json` wrote for an imported case (perfrepro-measure import): the
 * figure as its report printed it, the rules that reproduce it, those that
 * do only by truncation and, when none does, the closest.  The audit shows
 * them beside the rule the record was parsed with. */
#include "fitfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jdoc.h"
#include "rulecfg.h"
#include "stats.h"

static const char *const fit_keys[] = {"perfrepro_fit", "searched", "figures", "reproduced",
                                       "truncated",     "closest",  NULL};
static const char *const figure_keys[] = {"figure", "logs", NULL};
static const char *const cand_keys[] = {"rule", "values", "matches", NULL};
/* pr_printed_match's order, then a rule that gave no value */
static const char *const match_names[] = {"rounded", "truncated", "differs", "no value", NULL};
enum { NO_VALUE = 3 };

/* The lists, and the matches each may hold: reproduced, rounded; truncated,
 * truncated; closest (no rule reproduces the figure), differs or
 * truncated. */
enum { LIST_REPRODUCED, LIST_TRUNCATED, LIST_CLOSEST };

/* The figure --fit searched for: as printed (digits, a decimal point, any
 * length), above 0, as --fit takes it. */
static int check_figure(const pr_jdoc_jcur *fig, const char **figure, pr_err *err)
{
    pr_jdoc_jcur f = pr_jdoc_jchild(fig, "figure");
    if (pr_jdoc_jstr(fig, "figure", 1, figure, err) < 0)
        return -1;
    int d = pr_stats_printed_decimals(*figure);
    if (d < 0)
        return pr_jdoc_jfail(&f, err,
                             "\"%s\" is not a figure as printed (digits and a decimal "
                             "point: 428, 19.428)",
                             *figure);
    char *end = NULL;
    errno = 0;
    double x = strtod(*figure, &end);
    if (end == *figure || *end || errno == ERANGE || !(x > 0))
        return pr_jdoc_jfail(&f, err,
                             "\"%s\" cannot be a result: a figure to reproduce is a number "
                             "above 0",
                             *figure);
    return 0;
}

/* One list of candidates: [{rule: {...}, values: [number|null], matches: [name]}],
 * each rule checked as every rule is (lib/rulecfg.c: keys, types, ranges;
 * the pattern of "match" as text), each value null or a finite number >= 0
 * (what a record's FINAL_RESULT may be), each match what the value is to
 * the figure and what the list holds. */
static int check_list(const pr_jdoc_jcur *root, const char *key, int kind, const char *figure,
                      pr_err *err)
{
    pr_jdoc_jcur list;
    if (pr_jdoc_jarr(root, key, 1, 0, &list, err) < 0)
        return -1;
    for (size_t i = 0; i < json_array_size(list.v); i++) {
        pr_jdoc_jcur c = pr_jdoc_jitem(&list, i), rule, vals, matches;
        if (pr_jdoc_jobject(&c, cand_keys, err) < 0 ||
            pr_jdoc_jobj(&c, "rule", 1, &rule, err) < 0 ||
            pr_jdoc_jarr(&c, "values", 1, 1, &vals, err) < 0 ||
            pr_jdoc_jarr(&c, "matches", 1, 1, &matches, err) < 0)
            return -1;
        pr_rulecfg_def def;
        memset(&def, 0, sizeof def);
        int rc = pr_rulecfg_check(&rule, 0, NULL, NULL, &def, err);
        pr_rulecfg_clear(&def);
        if (rc < 0)
            return -1;
        if (json_array_size(vals.v) != 1 || json_array_size(matches.v) != 1)
            return pr_jdoc_jfail(&c, err, "expected one value and one match (one figure per file)");
        json_t *v = json_array_get(vals.v, 0);
        pr_jdoc_jcur vc = pr_jdoc_jitem(&vals, 0), mc = pr_jdoc_jitem(&matches, 0);
        if (!json_is_number(v) && !json_is_null(v))
            return pr_jdoc_jfail(&vc, err, "expected a number or null");
        if (json_is_number(v) && !(json_number_value(v) >= 0))
            return pr_jdoc_jfail(&vc, err,
                                 "%g: a value is a finite number >= 0 (as a record's "
                                 "FINAL_RESULT)",
                                 json_number_value(v));
        const char *m = json_string_value(json_array_get(matches.v, 0));
        int mi = -1;
        for (int k = 0; m && match_names[k]; k++)
            if (strcmp(m, match_names[k]) == 0)
                mi = k;
        if (mi < 0)
            return pr_jdoc_jfail(&mc, err, "expected one of rounded, truncated, differs, no value");
        int is =
            json_is_null(v) ? NO_VALUE : (int)pr_stats_printed_match(json_number_value(v), figure);
        if (mi != is && json_is_null(v))
            return pr_jdoc_jfail(&mc, err,
                                 "\"%s\" for a rule that gave no value (null): \"no value\"", m);
        if (mi != is)
            return pr_jdoc_jfail(&mc, err,
                                 "\"%s\" does not say what %.17g is to the figure %s: \"%s\"", m,
                                 json_number_value(v), figure, match_names[is]);
        int fits = kind == LIST_REPRODUCED ? mi == PR_PRINTED_ROUNDED
                   : kind == LIST_TRUNCATED
                       ? mi == PR_PRINTED_TRUNCATED
                       : mi == PR_PRINTED_DIFFERS || mi == PR_PRINTED_TRUNCATED;
        if (!fits)
            return pr_jdoc_jfail(
                &mc, err, "\"%s\" in \"%s\" (which holds %s)", m, key,
                kind == LIST_REPRODUCED  ? "rules that reproduce the figure: rounded"
                : kind == LIST_TRUNCATED ? "rules that reproduce it only by "
                                           "truncation: truncated"
                                         : "the closest rules: differs or truncated");
    }
    return 0;
}

int fitfile_load(const char *path, json_t **out, pr_err *err)
{
    pr_jdoc *doc = NULL;
    int rc = -1;
    *out = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_jdoc_jcur root = pr_jdoc_root(doc), figs;
    long long v;
    const char *figure;
    if (pr_jdoc_jobject(&root, fit_keys, err) < 0 || pr_record_text_check(&root, err) < 0 ||
        pr_jdoc_jint(&root, "perfrepro_fit", 1, 1, 1, &v, err) < 0 ||
        pr_jdoc_jint(&root, "searched", 1, 0, 1LL << 40, &v, err) < 0 ||
        pr_jdoc_jarr(&root, "figures", 1, 1, &figs, err) < 0)
        goto out;
    if (json_array_size(figs.v) != 1) {
        pr_jdoc_jfail(&figs, err, "expected one figure (the case's)");
        goto out;
    }
    pr_jdoc_jcur fig = pr_jdoc_jitem(&figs, 0), logs;
    if (pr_jdoc_jobject(&fig, figure_keys, err) < 0 || check_figure(&fig, &figure, err) < 0 ||
        pr_jdoc_jarr(&fig, "logs", 1, 1, &logs, err) < 0)
        goto out;
    for (size_t i = 0; i < json_array_size(logs.v); i++) {
        const char *s = json_string_value(json_array_get(logs.v, i));
        if (!s || !*s) {
            pr_jdoc_jcur lc = pr_jdoc_jitem(&logs, i);
            pr_jdoc_jfail(&lc, err, "expected a log's path");
            goto out;
        }
    }
    if (check_list(&root, "reproduced", LIST_REPRODUCED, figure, err) < 0 ||
        check_list(&root, "truncated", LIST_TRUNCATED, figure, err) < 0 ||
        check_list(&root, "closest", LIST_CLOSEST, figure, err) < 0)
        goto out;
    pr_jdoc_jcur cl = pr_jdoc_jchild(&root, "closest");
    if (json_array_size(cl.v) && json_array_size(json_object_get(root.v, "reproduced"))) {
        pr_jdoc_jfail(&cl, err,
                      "the closest rules are listed only when none reproduces the figure");
        goto out;
    }
    *out = json_incref(root.v);
    rc = 0;
out:
    pr_jdoc_free(doc);
    return rc;
}

const char *fitfile_figure(const json_t *fit)
{
    return json_string_value(
        json_object_get(json_array_get(json_object_get(fit, "figures"), 0), "figure"));
}
