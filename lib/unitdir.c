/* unitdir: the table of units and which way each is better (unitdir.h). */
#include "unitdir.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* One row per unit.  Add a unit here and every page ranks it the right way
 * round. */
static const struct {
    const char *unit;
    pr_unitdir_dir dir;
} unit_table[] = {
    /* rates */
    {"samples/s", PR_DIR_HIGHER},
    {"sequences/s", PR_DIR_HIGHER},
    {"images/s", PR_DIR_HIGHER},
    {"imgs/s", PR_DIR_HIGHER},
    {"tokens/s", PR_DIR_HIGHER},
    {"words/s", PR_DIR_HIGHER},
    {"steps/s", PR_DIR_HIGHER},
    {"it/s", PR_DIR_HIGHER},
    {"ips", PR_DIR_HIGHER},
    {"GB/s", PR_DIR_HIGHER},
    {"TFLOP/s", PR_DIR_HIGHER},
    {"TFLOPS", PR_DIR_HIGHER},
    /* times: time to train, step time, latency */
    {"min", PR_DIR_LOWER},
    {"h", PR_DIR_LOWER},
    {"s", PR_DIR_LOWER},
    {"ms", PR_DIR_LOWER},
    {"us", PR_DIR_LOWER},
    {"µs", PR_DIR_LOWER}, /* nccl-tests' time column */
    {"s/step", PR_DIR_LOWER},
    {"ms/step", PR_DIR_LOWER},
    {"s/epoch", PR_DIR_LOWER},
    {"min/epoch", PR_DIR_LOWER},
    {"s/batch", PR_DIR_LOWER},
    {"ms/batch", PR_DIR_LOWER},
    {"ms/sample", PR_DIR_LOWER},
};

pr_unitdir_dir pr_unitdir_of(const char *unit)
{
    if (!unit)
        return PR_DIR_UNKNOWN;
    for (size_t i = 0; i < sizeof unit_table / sizeof unit_table[0]; i++)
        if (strcmp(unit_table[i].unit, unit) == 0)
            return unit_table[i].dir;
    return PR_DIR_UNKNOWN;
}

int pr_unitdir_lower(const char *unit)
{
    return pr_unitdir_of(unit) == PR_DIR_LOWER;
}

const char *pr_unitdir_word(pr_unitdir_dir d)
{
    return d == PR_DIR_LOWER ? "lower" : d == PR_DIR_HIGHER ? "higher" : "unknown";
}

int pr_unitdir_better(pr_unitdir_dir d, double a, double b)
{
    return d == PR_DIR_LOWER ? a < b : a > b;
}

double pr_unitdir_speedup(pr_unitdir_dir d, double x, double base)
{
    if (!(x > 0) || !(base > 0))
        return NAN;
    return d == PR_DIR_LOWER ? base / x : x / base;
}
