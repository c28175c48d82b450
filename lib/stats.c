#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
