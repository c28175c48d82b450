/* fitfile: RUN/fit/<case>.json, what `perfrepro-measure parse --fit FIGURE
 * --json` wrote for an imported case (scripts/import-perf-logs.sh): the
 * figure as its report printed it, the rules that reproduce it, those that
 * do only by truncation and, when none does, the closest.  The audit shows
 * them beside the rule the record was parsed with. */
#include "fitfile.h"

#include <string.h>

#include "jdoc.h"

static const char *const fit_keys[] = {"perfrepro_fit", "searched", "figures", "reproduced",
                                       "truncated", "closest", NULL};
static const char *const figure_keys[] = {"figure", "logs", NULL};
static const char *const cand_keys[] = {"rule", "values", "matches", NULL};
static const char *const match_names[] = {"rounded", "truncated", "differs", "no value", NULL};

/* One list of candidates: [{rule: {...}, values: [number|null], matches: [name]}]. */
static int check_list(const pr_jcur *root, const char *key, pr_err *err)
{
    pr_jcur list;
    if (pr_jarr(root, key, 1, 0, &list, err) < 0)
        return -1;
    for (size_t i = 0; i < json_array_size(list.v); i++) {
        pr_jcur c = pr_jitem(&list, i), rule, vals, matches;
        if (pr_jobject(&c, cand_keys, err) < 0 || pr_jobj(&c, "rule", 1, &rule, err) < 0 ||
            pr_jarr(&c, "values", 1, 1, &vals, err) < 0 ||
            pr_jarr(&c, "matches", 1, 1, &matches, err) < 0)
            return -1;
        if (json_array_size(vals.v) != 1 || json_array_size(matches.v) != 1)
            return pr_jfail(&c, err, "expected one value and one match (one figure per file)");
        json_t *v = json_array_get(vals.v, 0);
        if (!json_is_number(v) && !json_is_null(v)) {
            pr_jcur vc = pr_jitem(&vals, 0);
            return pr_jfail(&vc, err, "expected a number or null");
        }
        const char *m = json_string_value(json_array_get(matches.v, 0));
        if (!m || !pr_str_in(m, match_names)) {
            pr_jcur mc = pr_jitem(&matches, 0);
            return pr_jfail(&mc, err, "expected one of rounded, truncated, differs, no value");
        }
    }
    return 0;
}

int pr_fitfile_load(const char *path, json_t **out, pr_err *err)
{
    pr_jdoc *doc = NULL;
    int rc = -1;
    *out = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_jcur root = pr_jdoc_root(doc), figs;
    long long v;
    const char *figure;
    if (pr_jobject(&root, fit_keys, err) < 0 || pr_text_check(&root, err) < 0 ||
        pr_jint(&root, "perfrepro_fit", 1, 1, 1, &v, err) < 0 ||
        pr_jint(&root, "searched", 1, 0, 1LL << 40, &v, err) < 0 ||
        pr_jarr(&root, "figures", 1, 1, &figs, err) < 0)
        goto out;
    if (json_array_size(figs.v) != 1) {
        pr_jfail(&figs, err, "expected one figure (the case's)");
        goto out;
    }
    pr_jcur fig = pr_jitem(&figs, 0), logs;
    if (pr_jobject(&fig, figure_keys, err) < 0 || pr_jstr(&fig, "figure", 1, &figure, err) < 0 ||
        pr_jarr(&fig, "logs", 1, 1, &logs, err) < 0)
        goto out;
    if (check_list(&root, "reproduced", err) < 0 || check_list(&root, "truncated", err) < 0 ||
        check_list(&root, "closest", err) < 0)
        goto out;
    *out = json_incref(root.v);
    rc = 0;
out:
    pr_jdoc_free(doc);
    return rc;
}

const char *pr_fitfile_figure(const json_t *fit)
{
    return json_string_value(json_object_get(json_array_get(json_object_get(fit, "figures"), 0),
                                             "figure"));
}
