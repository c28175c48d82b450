/* unitdir: which way a unit is better.  A throughput (samples/s, tokens/s,
 * GB/s) is better higher; a time (time to train in min, step time in
 * s/step, latency in ms) is better lower.  Direction is a property of the
 * unit, looked up in one table (unitdir.c); every page that ranks, divides
 * or compares figures asks here instead of assuming "higher".  A unit not in
 * the table is PR_DIR_UNKNOWN: callers say so and treat it as higher is
 * better (what every page did before), never silently. */
#ifndef PR_UNITDIR_H
#define PR_UNITDIR_H

typedef enum {
    PR_DIR_UNKNOWN, /* not in the table: shown as higher is better, and said */
    PR_DIR_HIGHER,  /* a rate: more is faster */
    PR_DIR_LOWER,   /* a time: less is faster */
} pr_unitdir_dir;

/* The direction of unit (NULL or "" is unknown).  The match is exact. */
pr_unitdir_dir pr_unitdir_of(const char *unit);
/* 1 when unit is lower-is-better. */
int pr_unitdir_lower(const char *unit);
/* "higher", "lower" or "unknown": the word export and JSON carry. */
const char *pr_unitdir_word(pr_unitdir_dir d);
/* 1 when a is better than b in direction d (unknown counts as higher). */
int pr_unitdir_better(pr_unitdir_dir d, double a, double b);
/* How many times faster figure x is than figure base in direction d: x/base
 * for a rate, base/x for a time.  NAN when either is not positive. */
double pr_unitdir_speedup(pr_unitdir_dir d, double x, double base);

#endif
