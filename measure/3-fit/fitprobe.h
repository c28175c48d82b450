/* fitprobe: the rules `parse --fit` can start from when none is given.
 *
 * --fit searches the keys that say which records count (skip, reduce, trim,
 * step, round); how the logs are read (profile, and for rates the scope) is
 * the rule's.  Without --rule, each known profile that needs no key of its
 * own is tried on every case's logs: the profiles that read a number from
 * every run are the candidates.  One that reads per-step values or raw
 * figures is a whole rule ({"profile": "mmseg"}); one that reads rates
 * needs a scope, which is never guessed (a per-card figure that happens to
 * match a global one would hide the trap): the user picks it.
 */
#ifndef PR_FITPROBE_H
#define PR_FITPROBE_H

#include <stddef.h>

#include "buf.h"
#include "fit.h"

typedef struct pr_fitprobe_hit {
    const char *profile;        /* static */
    int needs_scope;            /* reads rates: per_card or global is the user's */
    unsigned long long records; /* numbers read, over every case and run */
} pr_fitprobe_hit;

/* Tries each probed profile on cases[0..ncases); fills hits[0..*nhits)
 * (at most max) with those that read a number from every run, in the
 * order of docs/parse-rules.md's profile table.  The caller has checked
 * the logs can be read; a profile that cannot take a case (an option it
 * needs is missing) is not a candidate.  Returns 0. */
int fitprobe(const pr_fit_case *cases, size_t ncases, pr_fitprobe_hit *hits, size_t max,
             size_t *nhits);

/* The rule a hit starts from, as --rule takes it, appended to out:
 * {"profile": "P"} or {"profile": "P", "scope": "SCOPE"}. */
void fitprobe_rule(const pr_fitprobe_hit *h, const char *scope, pr_buf *out);

#endif
