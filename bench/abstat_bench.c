/* abstat_bench N: pr_abstat_compare of N runs against N runs (issue 31 #18),
 * timed alone; prints its seconds, the process's peak memory (as
 * getrusage counts it: a parent's peak is kept across exec, so
 * bench/scale.py measures it with GNU time) and the result to the last
 * digit, so that two builds (bench/scale.py compiles
 * this file against HEAD's lib/ and the base's) can be set side by side.
 * The runs are deterministic: A around 1000, B about 3 % above, ±2 %. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "abstat.h"

/* The same program against a commit from before the module prefixes
 * (issue 32: pr_ab_* became pr_abstat_*): bench/scale.py defines
 * BENCH_OLD_NAMES for a base commit whose lib/abstat.h has the old ones. */
#ifdef BENCH_OLD_NAMES
#define pr_abstat_result pr_ab_result
#define pr_abstat_compare pr_ab_compare
#define pr_abstat_verdict_key pr_ab_verdict_key
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
    if (n < 1) {
        fprintf(stderr, "usage: abstat_bench N (runs a side, >= 1)\n");
        return 2;
    }
    double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    if (!a || !b) {
        fprintf(stderr, "abstat_bench: out of memory for %ld runs\n", n);
        return 1;
    }
    for (long i = 0; i < n; i++) {
        a[i] = 1000 * (0.98 + 0.04 * (double)((i * 7919) % 10007) / 10007.0);
        b[i] = 1030 * (0.98 + 0.04 * (double)((i * 104729 + 17) % 10009) / 10009.0);
    }
    pr_abstat_result r;
    double t0 = now();
    int rc = pr_abstat_compare(a, (size_t)n, b, (size_t)n, PR_AB_DELTA_DEFAULT, &r);
    double t1 = now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    if (rc != 0) {
        fprintf(stderr, "abstat_bench: pr_abstat_compare failed (memory)\n");
        return 1;
    }
    printf("n=%ld seconds=%.6f peak_rss_mb=%.1f ratio=%.17g lo=%.17g hi=%.17g k=%zu "
           "coverage=%.17g verdict=%s\n",
           n, t1 - t0, (double)ru.ru_maxrss / 1024.0, r.ratio, r.lo, r.hi, r.k, r.coverage,
           pr_abstat_verdict_key(r.verdict));
    free(a);
    free(b);
    return 0;
}
