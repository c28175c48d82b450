/* rectrace: checking a record's step_trace (rectrace.h). */
#include "rectrace.h"

#include <string.h>

const char *const pr_rectrace_scales[] = {"per_card",         "seconds_per_step", "ms_per_step",
                                          "steps_per_second", "as_read",          NULL};

/* Array arr of exactly m elements, each an integer >= 1 (lines) or a
 * number >= 0 or null (values). */
static int check_items(const pr_jdoc_jcur *arr, size_t m, int lines, pr_err *err)
{
    if (json_array_size(arr->v) != m)
        return pr_jdoc_jfail(arr, err, "%zu elements, expected %zu (one per point, as \"status\")",
                             json_array_size(arr->v), m);
    for (size_t i = 0; i < m; i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(arr, i);
        if (lines) {
            if (!json_is_integer(it.v) || json_integer_value(it.v) < 1)
                return pr_jdoc_jfail(&it, err, "expected a line number (an integer >= 1)");
        } else if (!json_is_null(it.v) &&
                   (!json_is_number(it.v) || !(json_number_value(it.v) >= 0))) {
            return pr_jdoc_jfail(&it, err, "expected a number >= 0 or null (no value)");
        }
    }
    return 0;
}

static int check_run(const pr_jdoc_jcur *rc, pr_err *err)
{
    static const char *const keys[] = {"records", "bin", "value",  "lines",
                                       "values",  "max", "status", NULL};
    if (pr_jdoc_jobject(rc, keys, err) < 0)
        return -1;
    long long records, bin;
    const char *status;
    if (pr_jdoc_jint(rc, "records", 1, 0, 1LL << 50, &records, err) < 0 ||
        pr_jdoc_jint(rc, "bin", 1, 1, 1LL << 50, &bin, err) < 0 ||
        pr_jdoc_jstr(rc, "status", 1, &status, err) < 0)
        return -1;
    pr_jdoc_jcur vc = pr_jdoc_jchild(rc, "value");
    if (!vc.v)
        return pr_jdoc_jfail(rc, err, "\"value\" is missing (the run's value, or null)");
    if (!json_is_null(vc.v) && (!json_is_number(vc.v) || !(json_number_value(vc.v) >= 0)))
        return pr_jdoc_jfail(&vc, err, "expected a number >= 0 or null (the run failed)");
    pr_jdoc_jcur sc = pr_jdoc_jchild(rc, "status");
    size_t m = strlen(status);
    size_t want = (size_t)((records + bin - 1) / bin);
    if (m != want)
        return pr_jdoc_jfail(&sc, err, "%zu points, expected %zu (%lld records, %lld per point)", m,
                             want, records, bin);
    if (m > PR_RECTRACE_CAP)
        return pr_jdoc_jfail(&sc, err, "%zu points: at most %d (records past it are binned)", m,
                             PR_RECTRACE_CAP);
    if (bin > 1 && (size_t)((records + bin - 2) / (bin - 1)) <= PR_RECTRACE_CAP)
        return pr_jdoc_jfail(rc, err,
                             "\"bin\": %lld, but %lld records fit in %d points with fewer "
                             "per point",
                             bin, records, PR_RECTRACE_CAP);
    size_t bad = strspn(status, PR_RECTRACE_CODES);
    if (bad < m)
        return pr_jdoc_jfail(&sc, err, "unknown status '%c' at point %zu (expected one of %s)",
                             status[bad], bad + 1, PR_RECTRACE_CODES);
    pr_jdoc_jcur lc, valc, mc;
    if (pr_jdoc_jarr(rc, "lines", 1, 0, &lc, err) < 0 || check_items(&lc, m, 1, err) < 0 ||
        pr_jdoc_jarr(rc, "values", 1, 0, &valc, err) < 0 || check_items(&valc, m, 0, err) < 0)
        return -1;
    int has_max = pr_jdoc_jarr(rc, "max", 0, 0, &mc, err);
    if (has_max < 0)
        return -1;
    if (has_max != (bin > 1))
        return pr_jdoc_jfail(has_max ? &mc : rc, err,
                             "\"max\" goes with binned points (\"bin\" > 1) "
                             "and only with them");
    if (has_max) {
        if (check_items(&mc, m, 0, err) < 0)
            return -1;
        for (size_t i = 0; i < m; i++) {
            json_t *lo = json_array_get(valc.v, i), *hi = json_array_get(mc.v, i);
            if (json_is_null(lo) != json_is_null(hi) ||
                (!json_is_null(lo) && json_number_value(hi) < json_number_value(lo))) {
                pr_jdoc_jcur it = pr_jdoc_jitem(&mc, i);
                return pr_jdoc_jfail(&it, err,
                                     "below the bin's min in \"values\", or null where it "
                                     "is not");
            }
        }
    }
    return 0;
}

int pr_rectrace_check(const pr_jdoc_jcur *c, pr_err *err)
{
    static const char *const keys[] = {"version", "scale", "factor", "runs", "omitted", NULL};
    if (pr_jdoc_jobject(c, keys, err) < 0)
        return -1;
    long long version;
    if (pr_jdoc_jint(c, "version", 1, 1, 1, &version, err) < 0)
        return -1;
    const char *omitted;
    int om = pr_jdoc_jstr(c, "omitted", 0, &omitted, err);
    if (om < 0)
        return -1;
    pr_jdoc_jcur runs;
    int has_runs = pr_jdoc_jarr(c, "runs", !om, 1, &runs, err);
    if (has_runs < 0)
        return -1;
    if (om) {
        if (has_runs)
            return pr_jdoc_jfail(&runs, err, "a trace that was \"omitted\" has no runs");
        return 0;
    }
    const char *scale;
    double factor;
    if (pr_jdoc_jenum(c, "scale", 1, pr_rectrace_scales, &scale, err) < 0 ||
        pr_jdoc_jnum(c, "factor", 1, 0, &factor, err) < 0)
        return -1;
    if (!(factor > 0)) {
        pr_jdoc_jcur fc = pr_jdoc_jchild(c, "factor");
        return pr_jdoc_jfail(&fc, err, "expected a number > 0");
    }
    for (size_t i = 0; i < json_array_size(runs.v); i++) {
        pr_jdoc_jcur rc = pr_jdoc_jitem(&runs, i);
        if (check_run(&rc, err) < 0)
            return -1;
    }
    return 0;
}
