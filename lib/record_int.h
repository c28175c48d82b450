/* record_int: what the files of lib/record share (record.c the record and
 * its JSON, record_load.c reading it, record_check.c its checks).
 * Not for gen or measure: they use record.h.
 */
#ifndef PR_RECORD_INT_H
#define PR_RECORD_INT_H

#include <stddef.h>

#include "jdoc.h"
#include "record.h"

/* A figure is a rate that something ran at: a run that gave none failed,
 * and says so with JOB_FAIL_FLAG and a reason (failure is a state, never a
 * value).  A 0 here once counted as 5 runs in compare's CSV and 0 on its
 * page. */
#define PR_RECORD_FINAL_RESULT_WHY                                                                 \
    "a successful case's figure must be a finite number > 0 (a run that gave none failed: "        \
    "JOB_FAIL_FLAG 1 with a reason)"

/* The keys of "launch" and "ended_processes" (record_check.c). */
extern const char *const pr_record_launch_keys[];
extern const char *const pr_record_ended_keys[];

/* Checks the "launch" object; on a problem sets *field (the key, or NULL for
 * the object itself) and the message in why. */
int pr_record_launch_check(const json_t *l, const char **field, char *why, size_t whylen);
/* Checks the "ended_processes" object (record_check.c says what it holds);
 * on a problem sets *field (the key, or NULL for the object) and the
 * message in why. */
int pr_record_ended_check(const json_t *e, const char **field, char *why, size_t whylen);
/* pr_record_check; json_checked: log_facts and step_trace were checked
 * already, where they were read (pr_record_from_json). */
int pr_record_check_fields(const pr_record *r, int json_checked, pr_err *err);
/* metrics.global_batch_size, metrics.table and metrics.series. */
int pr_record_metrics_check(const pr_jdoc_jcur *m, pr_err *err);

#endif
