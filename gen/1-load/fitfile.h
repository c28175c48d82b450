/* fitfile: a case's fit report (RUN/fit/<case>.json), written by
 * `perfrepro-measure parse --fit FIGURE --json` when a log is imported
 * (docs/data-model.md, "Fit reports"). */
#ifndef PR_FITFILE_H
#define PR_FITFILE_H

#include <jansson.h>

#include "err.h"
#include "record.h"

/* Loads and checks path: one figure, lists "reproduced", "truncated" and
 * "closest" of {rule, values: [one number or null], matches: [one name]}.
 * *out is a new reference the caller owns, or NULL with err set. */
int fitfile_load(const char *path, json_t **out, pr_err *err);

/* The figure as printed that the fit searched for (borrowed from fit). */
const char *fitfile_figure(const json_t *fit);

#endif
