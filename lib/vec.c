/* vec: growing arrays (vec.h). */
#include "vec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* What cannot be allocated is out of memory: the message and abort() of
 * buf.c's policy. */
static void vec_overflow(size_t need, size_t size)
{
    fprintf(stderr, "perfrepro: out of memory (an array of %zu items of %zu bytes)\n", need, size);
    abort();
}

void *pr_vec_reserve(void *items, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return items;
    if (size && need > SIZE_MAX / size)
        vec_overflow(need, size);
    size_t grown = *cap ? *cap : 8;
    while (grown < need)
        grown = grown > SIZE_MAX / 2 ? need : 2 * grown;
    if (size && grown > SIZE_MAX / size)
        grown = need; /* doubling past the limit: exactly what is needed */
    items = pr_xrealloc(items, grown * size);
    *cap = grown;
    return items;
}

void *pr_vec_zero(void *p, size_t size)
{
    return memset(p, 0, size);
}
