/* steady: the steady window of a run and its stability (steady.h). */
#include "steady.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "stats.h"
#include "trend.h"

static const char *const verdict_keys[] = {"unknown", "steady", "unsteady", "too_short"};
static const char *const reasons[] = {"", "regime_change", "cv", "too_few_steps", NULL};
static const char *const steady_keys[] = {"verdict",      "reason", "steps", "first",
                                          "last",         "n",      "cv",    "regime_step",
                                          "regime_ratio", "run",    NULL};
/* The statuses of the records a rule read for its figure (rectrace.h):
 * I, C, S and R are lines the figure never rested on. */
#define SERIES_CODES "KWLHMPNUX"

const char *pr_steady_verdict_key(pr_steady_verdict v)
{
    return (unsigned)v < sizeof verdict_keys / sizeof *verdict_keys ? verdict_keys[v] : NULL;
}

static double median_of(const double *x, size_t n)
{
    double *v = pr_xcalloc(n + 1, sizeof *v);
    memcpy(v, x, n * sizeof *v);
    double m = pr_stats_median(v, n);
    free(v);
    return m;
}

/* How many trailing steps of x (n) are teardown: each, from the last, far
 * from the median of the series' second half (the steps before it) by
 * Iglewicz and Hoaglin's modified z-score 0.6745·|x − median| / MAD and
 * by more than PR_STEADY_TEARDOWN_REL of the median. */
static size_t teardown(const double *x, size_t n)
{
    size_t limit = n / PR_STEADY_TEARDOWN_PER ? n / PR_STEADY_TEARDOWN_PER : 1, cut = 0;
    while (cut < limit) {
        size_t m = n - cut, from = n / 2;
        if (m < 1 || m - 1 < from + PR_STEADY_MIN_SEGMENT)
            break;
        const double *ref = x + from;
        size_t nref = m - 1 - from;
        double med = median_of(ref, nref);
        double *dev = pr_xcalloc(nref + 1, sizeof *dev);
        for (size_t i = 0; i < nref; i++)
            dev[i] = fabs(ref[i] - med);
        double mad = pr_stats_median(dev, nref);
        free(dev);
        double d = fabs(x[m - 1] - med);
        int far = mad > 0 ? 0.6745 * d / mad > PR_STEADY_TEARDOWN_Z : d > 0;
        if (!far || !(d > PR_STEADY_TEARDOWN_REL * fabs(med)))
            break;
        cut++;
    }
    return cut;
}

/* MSER's cut of x (n steps, n >= 2): in batches of b steps (5 from
 * PR_STEADY_MSER5_FROM steps, else 1; a last partial batch is left out of
 * the search), the d in [0, nb/2] minimising Σ_{i>=d}(y_i − ȳ_d)² /
 * (nb − d)² over the batch means y; the earliest on ties.  Returns d·b;
 * *ended 0 when d is nb/2 > 0, the last cut searched. */
static size_t mser(const double *x, size_t n, int *ended)
{
    size_t b = n >= PR_STEADY_MSER5_FROM ? 5 : 1, nb = n / b;
    double *y = pr_xcalloc(nb + 1, sizeof *y), mean = 0;
    for (size_t i = 0; i < nb; i++) {
        for (size_t j = 0; j < b; j++)
            y[i] += x[i * b + j];
        y[i] /= (double)b;
        mean += y[i];
    }
    mean /= (double)nb;
    /* suffix sums of the centred means: the sums of squares stay exact
     * enough for thousands of steps of thousands of images/s */
    double s = 0, q = 0, best = INFINITY;
    size_t best_d = 0, dmax = nb / 2;
    double *z = pr_xcalloc(nb + 1, sizeof *z);
    for (size_t i = nb; i-- > 0;) {
        double c = y[i] - mean;
        s += c;
        q += c * c;
        double k = (double)(nb - i), sse = q - s * s / k;
        z[i] = (sse > 0 ? sse : 0) / (k * k);
    }
    for (size_t d = 0; d <= dmax; d++)
        if (z[d] < best) {
            best = z[d];
            best_d = d;
        }
    *ended = !(dmax > 0 && best_d == dmax);
    free(z);
    free(y);
    return best_d * b;
}

static double cv_of(const double *x, size_t n)
{
    if (n < 2)
        return NAN;
    double mean = pr_stats_mean(x, n), ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - mean) * (x[i] - mean);
    return mean > 0 ? sqrt(ss / (double)(n - 1)) / mean : NAN;
}

/* The two-segment test on x (n): the split with the largest Welch |t|
 * (sums kept as prefixes, so O(n)), then Welch's p there.  Returns the
 * split (the second segment's first index) when p < PR_STEADY_REGIME_P
 * and the means differ by PR_STEADY_REGIME_EFFECT, else 0. */
static size_t regime(const double *x, size_t n, double *ratio)
{
    size_t k = PR_STEADY_MIN_SEGMENT, best = 0;
    if (n < 2 * k)
        return 0;
    double mean = pr_stats_mean(x, n), tot = 0, totq = 0, best_t = -1;
    for (size_t i = 0; i < n; i++)
        tot += x[i] - mean, totq += (x[i] - mean) * (x[i] - mean);
    double s = 0, q = 0;
    for (size_t i = 0; i + k < n; i++) {
        double c = x[i] - mean;
        s += c, q += c * c;
        size_t m = i + 1, r = n - m;
        if (m < k || r < k)
            continue;
        double m1 = s / m, m2 = (tot - s) / r;
        double v1 = (q - s * s / m) / (m - 1),
               v2 = ((totq - q) - (tot - s) * (tot - s) / r) / (r - 1);
        double se = sqrt((v1 > 0 ? v1 : 0) / m + (v2 > 0 ? v2 : 0) / r);
        double t = se > 0 ? fabs(m1 - m2) / se : m1 != m2 ? INFINITY : 0;
        if (t > best_t) {
            best_t = t;
            best = m;
        }
    }
    double t, df, p;
    if (!best || pr_trend_welch(x, best, x + best, n - best, &t, &df, &p) < 0)
        return 0;
    double a = pr_stats_mean(x, best), b = pr_stats_mean(x + best, n - best);
    double hi = fmax(a, b), lo = fmin(a, b);
    if (!(p < PR_STEADY_REGIME_P) || !(lo > 0 ? hi / lo - 1 >= PR_STEADY_REGIME_EFFECT : hi > 0))
        return 0;
    *ratio = a > 0 ? b / a : INFINITY;
    return best;
}

void pr_steady_series(const double *x, size_t n, pr_steady *out)
{
    memset(out, 0, sizeof *out);
    out->steps = n;
    out->cv = out->regime_ratio = NAN;
    out->warmup_ended = 1;
    out->reason = "";
    if (n == 0) {
        out->verdict = PR_STEADY_UNKNOWN;
        return;
    }
    if (n < PR_STEADY_MIN_STEPS) {
        out->verdict = PR_STEADY_TOO_SHORT;
        out->reason = "too_few_steps";
        out->first = 1;
        out->last = out->n = n;
        out->cv = cv_of(x, n);
        return;
    }
    size_t m = n - teardown(x, n);
    size_t d = mser(x, m, &out->warmup_ended);
    /* a warm-up that does not end in the first half: judge the whole run,
     * whose regimes then show (a run as flat as its rounding also puts
     * MSER's minimum there: the whole run is then as steady) */
    if (!out->warmup_ended)
        d = 0;
    out->first = d + 1;
    out->last = m;
    out->n = m - d;
    out->cv = cv_of(x + d, m - d);
    double ratio = NAN;
    size_t at = regime(x + d, m - d, &ratio);
    if (at) {
        out->regime_at = d + at + 1;
        out->regime_ratio = ratio;
    }
    out->verdict = PR_STEADY_UNSTEADY;
    if (out->regime_at)
        out->reason = "regime_change";
    else if (!(out->cv <= PR_STEADY_CV_MAX))
        out->reason = "cv";
    else
        out->verdict = PR_STEADY_STEADY;
}

/* ------------------------------------------------------------ records */

/* Rank of a verdict when a record's runs are summarised: the first
 * unsteady run, else the first too short, else the largest CV. */
static int worse(const pr_steady *a, const pr_steady *b)
{
    static const int rank[] = {0, 1, 3, 2};
    if (rank[a->verdict] != rank[b->verdict])
        return rank[a->verdict] > rank[b->verdict];
    return a->verdict == PR_STEADY_STEADY && a->cv > b->cv;
}

static json_t *rounded(double v)
{
    return json_real(pr_stats_round(v, 4));
}

json_t *pr_steady_of_trace(const json_t *trace)
{
    json_t *runs = json_object_get(trace, "runs");
    size_t nruns = json_array_size(runs), best_run = 0;
    pr_steady best, s;
    memset(&best, 0, sizeof best);
    size_t best_first = 0, best_last = 0, best_regime = 0, best_steps = 0;
    for (size_t r = 0; r < nruns; r++) {
        json_t *run = json_array_get(runs, r);
        json_t *vals = json_object_get(run, "values");
        const char *status = json_string_value(json_object_get(run, "status"));
        json_int_t bin = json_integer_value(json_object_get(run, "bin"));
        json_int_t records = json_integer_value(json_object_get(run, "records"));
        if (json_is_null(json_object_get(run, "value")) || !status || bin < 1)
            continue;
        size_t np = json_array_size(vals), n = 0;
        double *x = pr_xcalloc(np + 1, sizeof *x);
        size_t *at = pr_xcalloc(np + 1, sizeof *at);
        for (size_t i = 0; i < np && status[i]; i++) {
            json_t *v = json_array_get(vals, i);
            if (!json_is_number(v) || !strchr(SERIES_CODES, status[i]))
                continue;
            x[n] = json_number_value(v);
            at[n++] = i;
        }
        pr_steady_series(x, n, &s);
        if (s.verdict != PR_STEADY_UNKNOWN && (!best.verdict || worse(&s, &best))) {
            best = s;
            best_run = r + 1;
            best_first = (size_t)at[s.first - 1] * (size_t)bin + 1;
            size_t last = (at[s.last - 1] + 1) * (size_t)bin;
            best_last = last < (size_t)records ? last : (size_t)records;
            best_regime = s.regime_at ? at[s.regime_at - 1] * (size_t)bin + 1 : 0;
            best_steps = (size_t)records;
        }
        free(x);
        free(at);
    }
    if (!best.verdict)
        return NULL;
    json_t *o = json_object();
    json_object_set_new(o, "verdict", json_string(pr_steady_verdict_key(best.verdict)));
    json_object_set_new(o, "reason", json_string(best.reason));
    json_object_set_new(o, "steps", json_integer((json_int_t)best_steps));
    json_object_set_new(o, "first", json_integer((json_int_t)best_first));
    json_object_set_new(o, "last", json_integer((json_int_t)best_last));
    json_object_set_new(o, "n", json_integer((json_int_t)best.n));
    json_object_set_new(o, "cv", isfinite(best.cv) ? rounded(best.cv) : json_null());
    if (best_regime) {
        json_object_set_new(o, "regime_step", json_integer((json_int_t)best_regime));
        json_object_set_new(o, "regime_ratio", rounded(best.regime_ratio));
    }
    if (nruns > 1)
        json_object_set_new(o, "run", json_integer((json_int_t)best_run));
    return o;
}

int pr_steady_check(const pr_jdoc_jcur *c, pr_err *err)
{
    static const char *const verdicts[] = {"steady", "unsteady", "too_short", NULL};
    const char *verdict, *reason;
    long long steps, first, last, n, step, run;
    double cv = 0, ratio;
    if (pr_jdoc_jobject(c, steady_keys, err) < 0 ||
        pr_jdoc_jenum(c, "verdict", 1, verdicts, &verdict, err) < 0 ||
        pr_jdoc_jenum(c, "reason", 1, reasons, &reason, err) < 0 ||
        pr_jdoc_jint(c, "steps", 1, 1, 1LL << 50, &steps, err) < 0 ||
        pr_jdoc_jint(c, "first", 1, 1, steps, &first, err) < 0 ||
        pr_jdoc_jint(c, "last", 1, first, steps, &last, err) < 0 ||
        pr_jdoc_jint(c, "n", 1, 1, last - first + 1, &n, err) < 0)
        return -1;
    pr_jdoc_jcur cc = pr_jdoc_jchild(c, "cv");
    if (!cc.v)
        return pr_jdoc_jfail(c, err, "missing required key \"cv\"");
    if (!json_is_null(cc.v) && pr_jdoc_jnum(c, "cv", 1, 0, &cv, err) < 0)
        return -1;
    int has_step = pr_jdoc_jint(c, "regime_step", 0, first + 1, last, &step, err);
    int has_ratio = pr_jdoc_jnum(c, "regime_ratio", 0, 0, &ratio, err);
    if (has_step < 0 || has_ratio < 0 || pr_jdoc_jint(c, "run", 0, 1, 1LL << 30, &run, err) < 0)
        return -1;
    if (has_step != has_ratio)
        return pr_jdoc_jfail(c, err, "\"regime_step\" and \"regime_ratio\" go together");
    int steady = strcmp(verdict, "steady") == 0;
    int short_ = strcmp(verdict, "too_short") == 0;
    if (steady != !*reason || short_ != (strcmp(reason, "too_few_steps") == 0) ||
        (has_step != 0) != (strcmp(reason, "regime_change") == 0)) {
        pr_jdoc_jcur rc = pr_jdoc_jchild(c, "reason");
        return pr_jdoc_jfail(&rc, err, "\"%s\" does not go with verdict \"%s\"%s", reason, verdict,
                             has_step ? " and a regime_step" : "");
    }
    return 0;
}

pr_steady_verdict pr_steady_verdict_of(const json_t *steady)
{
    const char *v = json_string_value(json_object_get(steady, "verdict"));
    for (size_t i = 1; v && i < sizeof verdict_keys / sizeof *verdict_keys; i++)
        if (strcmp(v, verdict_keys[i]) == 0)
            return (pr_steady_verdict)i;
    return PR_STEADY_UNKNOWN;
}
