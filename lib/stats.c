#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void pr_stats_sort(double *v, size_t n)
{
    if (n > 1)
        pr_qsort(v, n, sizeof *v, cmp_double);
}

double pr_stats_mean(const double *v, size_t n)
{
    if (n == 0)
        return 0;
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s / (double)n;
}

double pr_stats_median(double *v, size_t n)
{
    if (n == 0)
        return 0;
    pr_stats_sort(v, n);
    if (n % 2)
        return v[n / 2];
    return (v[n / 2 - 1] + v[n / 2]) / 2;
}

double pr_stats_min(const double *v, size_t n)
{
    double m = n ? v[0] : 0;
    for (size_t i = 1; i < n; i++)
        if (v[i] < m)
            m = v[i];
    return m;
}

double pr_stats_max(const double *v, size_t n)
{
    double m = n ? v[0] : 0;
    for (size_t i = 1; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

size_t pr_stats_trim_count(size_t n, double fraction, size_t min_drop)
{
    /* Truncation, as the published scripts' int(fraction * n). */
    double f = floor(fraction * (double)n);
    size_t d = f > 0 ? (size_t)f : 0;
    return d > min_drop ? d : min_drop;
}

int pr_stats_trimmed_mean(double *v, size_t n, double fraction, size_t min_drop, double *out,
                          size_t *dropped_out, pr_err *err)
{
    size_t d = pr_stats_trim_count(n, fraction, min_drop);
    if (dropped_out)
        *dropped_out = 2 * d < n ? 2 * d : n;
    if (2 * d >= n)
        return pr_err_set(err, NULL, 0, 0, NULL,
                          "trimming %zu from each end of %zu value%s leaves nothing", d, n,
                          n == 1 ? "" : "s");
    pr_stats_sort(v, n);
    *out = pr_stats_mean(v + d, n - 2 * d);
    return 0;
}

double pr_stats_round(double x, int decimals)
{
    /* Beyond 2^53 a double has no fractional digits left to round. */
    if (!isfinite(x) || decimals < 0 || decimals > 17 || fabs(x) >= 9007199254740992.0)
        return x;
    /* printf rounds the exact binary value (ties to even), as Python does. */
    char buf[64];
    snprintf(buf, sizeof buf, "%.*f", decimals, x);
    return strtod(buf, NULL);
}

/* P(Binomial(n, 1/2) <= k), exactly enough for n <= 1000 (the binomial
 * coefficients as doubles; runs are few). */
static double binom_half_cdf(size_t n, size_t k)
{
    double c = 1, sum = 0;
    for (size_t i = 0; i <= k && i <= n; i++) {
        sum += c;
        c = c * (double)(n - i) / (double)(i + 1);
    }
    return sum * pow(0.5, (double)n);
}

size_t pr_stats_median_ci(size_t n, double *coverage)
{
    *coverage = 0;
    if (n < 2)
        return 0;
    size_t best = 1;
    /* Coverage falls as k grows: the last k still at 95 % is the narrowest
     * interval that keeps the level. */
    for (size_t k = 2; k <= n / 2; k++) {
        if (1 - 2 * binom_half_cdf(n, k - 1) < 0.95)
            break;
        best = k;
    }
    *coverage = 1 - 2 * binom_half_cdf(n, best - 1);
    return best;
}

double pr_stats_olympic_sorted(const double *v, size_t n)
{
    if (n < PR_STATS_MIN_RUNS_OLYMPIC)
        return NAN;
    return pr_stats_mean(v + 1, n - 2);
}

enum { PRINTED_MAX_DIGITS = 400 };

int pr_stats_printed_decimals(const char *printed)
{
    /* Any length a source prints (an MLPerf score to 17 digits), bounded
     * only so that pr_stats_printed_match's buffer holds it. */
    size_t whole = strspn(printed, "0123456789");
    if (whole == 0 || whole > PRINTED_MAX_DIGITS)
        return -1;
    if (printed[whole] == '\0')
        return 0;
    if (printed[whole] != '.')
        return -1;
    size_t frac = strspn(printed + whole + 1, "0123456789");
    if (frac == 0 || frac > PRINTED_MAX_DIGITS || printed[whole + 1 + frac] != '\0')
        return -1;
    return (int)frac;
}

pr_printed_match pr_stats_printed_match(double v, const char *printed)
{
    int d = pr_stats_printed_decimals(printed);
    if (d < 0 || !isfinite(v))
        return PR_PRINTED_DIFFERS;
    while (printed[0] == '0' && printed[1] >= '0' && printed[1] <= '9')
        printed++; /* "007.50" prints as "7.50" */
    char buf[2 * PRINTED_MAX_DIGITS + 80];
    snprintf(buf, sizeof buf, "%.*f", d, v);
    if (strcmp(buf, printed) == 0)
        return PR_PRINTED_ROUNDED;
    /* 60 more decimals are exact for any value a log gives: then cut */
    snprintf(buf, sizeof buf, "%.*f", d + 60, v);
    char *dot = strchr(buf, '.');
    if (dot)
        dot[d ? d + 1 : 0] = '\0';
    return strcmp(buf, printed) == 0 ? PR_PRINTED_TRUNCATED : PR_PRINTED_DIFFERS;
}

int pr_stats_shortest_decimals(double v)
{
    if (!isfinite(v))
        return 0;
    char buf[400];
    for (int d = 0; d < 17; d++) {
        snprintf(buf, sizeof buf, "%.*f", d, v);
        if (strtod(buf, NULL) == v)
            return d;
    }
    return 17;
}

void pr_stats_printed_interval(double v, int d, double *lo, double *hi)
{
    double h = 0.5 * pow(10.0, -(double)d);
    /* A relative hair on each side: the decimal bounds are not exact
     * binary values, and a tie must count as inside. */
    double eps = 1e-12 * fabs(v);
    *lo = v - h - eps;
    *hi = v + h + eps;
}

int pr_stats_ratio_consistent(double s, int ds, double num, int dn, double den, int dd)
{
    double slo, shi, nlo, nhi, dlo, dhi;
    pr_stats_printed_interval(s, ds, &slo, &shi);
    pr_stats_printed_interval(num, dn, &nlo, &nhi);
    pr_stats_printed_interval(den, dd, &dlo, &dhi);
    if (dlo <= 0) /* a denominator that may be 0 allows any ratio */
        return 1;
    if (nlo < 0)
        nlo = 0;
    return !(nhi / dlo < slo || nlo / dhi > shi);
}
