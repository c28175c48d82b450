/* lib/vec: an array grows by doubling, keeps what it held, zeroes each
 * pushed slot, and a size past size_t aborts instead of wrapping. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>

#include "vec.h"

typedef struct point {
    int x, y;
} point;

Test(vec, push_keeps_items_and_zeroes_slots)
{
    point *pts = NULL;
    size_t n = 0, cap = 0;
    for (int i = 0; i < 1000; i++) {
        point *p = PR_VEC_PUSH(pts, n, cap);
        cr_assert_eq(p->x, 0);
        cr_assert_eq(p->y, 0);
        p->x = i;
        p->y = -i;
    }
    cr_assert_eq(n, 1000);
    cr_assert_geq(cap, 1000);
    cr_assert_lt(cap, 2048); /* doubling from 8: 1024 */
    for (int i = 0; i < 1000; i++)
        cr_assert(pts[i].x == i && pts[i].y == -i);
    free(pts);
}

Test(vec, reserve_grows_once_to_what_is_asked)
{
    int *v = NULL;
    size_t cap = 0;
    PR_VEC_RESERVE(v, cap, 3);
    cr_assert_eq(cap, 8);
    int *before = v;
    PR_VEC_RESERVE(v, cap, 8); /* room enough: nothing moves */
    cr_assert_eq(v, before);
    PR_VEC_RESERVE(v, cap, 100);
    cr_assert_eq(cap, 128);
    free(v);
}

/* 2^62 items of 8 bytes do not fit in size_t: abort, never a short
 * array the next push writes past. */
Test(vec, overflow_aborts, .signal = SIGABRT)
{
    point *pts = NULL;
    size_t cap = 0;
    PR_VEC_RESERVE(pts, cap, SIZE_MAX / 4);
    free(pts);
}
