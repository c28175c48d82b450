/* vec: the one way an array grows (beside pr_buf for bytes).
 *
 * An array is three things the caller keeps: a pointer, a count and a
 * capacity (T *items; size_t n, cap).  PR_VEC_PUSH makes room for one more
 * and returns a pointer to the new last slot (n counted up, the slot
 * zeroed); PR_VEC_RESERVE makes room for need items in all.  The capacity
 * doubles from 8, so pushing n items costs O(n); a size that would not fit
 * in size_t aborts as running out of memory does (buf.h: callers never
 * check).
 *
 *     pr_run **runs = NULL; size_t nruns = 0, cap = 0;
 *     *PR_VEC_PUSH(runs, nruns, cap) = r;
 *     ...
 *     free(runs);
 *
 * Memory: the array is the caller's, freed with free().
 */
#ifndef PR_VEC_H
#define PR_VEC_H

#include <stddef.h>

/* items (cap of size bytes each) grown so that it holds need; returns the
 * array (moved, perhaps) and sets *cap.  Aborts when need * size
 * overflows. */
void *pr_vec_reserve(void *items, size_t *cap, size_t need, size_t size);

#define PR_VEC_RESERVE(items, cap, need)                                                           \
    ((items) = pr_vec_reserve((items), &(cap), (need), sizeof *(items)))
#define PR_VEC_PUSH(items, n, cap)                                                                 \
    ((void)PR_VEC_RESERVE(items, cap, (n) + 1), pr_vec_zero(&(items)[(n)], sizeof *(items)),       \
     &(items)[(n)++])

/* Slot p of size bytes zeroed; returns p (PR_VEC_PUSH's helper). */
void *pr_vec_zero(void *p, size_t size);

#endif
