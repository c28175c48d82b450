/* sanity: figures that cannot be right, flagged wherever a table shows
 * them (framework page, model page, audit) with a footnote saying what is
 * odd.  The rules (docs/statistics.md#sanity-flags):
 *
 *   - scaling efficiency above 100 % beyond the figures' rounding and
 *     SN_EFF_TOL (data-parallel training does not scale better than
 *     linearly);
 *   - throughput per device rising by more than SN_JUMP_TOL from one device
 *     count to the next (46.0 % efficient at 8 GPUs, 91.2 % at 16);
 *   - throughput falling as devices are added, beyond rounding;
 *   - two configurations of one source whose figures are identical (a copy
 *     error in the source);
 *   - a speedup whose 1-device baseline comes from another source, or
 *     from another run set of the same source (runset.h);
 *   - a figure read from fewer than SN_FEW_RECORDS records of its log;
 *   - a figure of a run that is not in a steady state (lib/steady.h: its
 *     CV above 10 % or a regime change inside it);
 *   - two figures read from byte-identical logs (the audit only: audit.h).
 *
 * Every comparison allows for the rounding of the printed inputs: a value
 * lies anywhere in the interval its printed decimals allow.
 *
 * Memory: everything appends to the caller's buffers; nothing is kept.
 */
#ifndef PR_SANITY_H
#define PR_SANITY_H

#include <stddef.h>

#include "1-load/data.h"
#include "buf.h"
#include "err.h"
#include "template/lang.h"

#define SN_EFF_TOL 0.01
#define SN_JUMP_TOL 0.25
/* Below this many records (steps) a figure read from a log rests on too
 * little of it to be a steady-state figure (docs/statistics.md). */
#define SN_FEW_RECORDS 10

/* One figure of a series: a row of a table, in device-count order. */
typedef struct sanity_point {
    int nodes, gpus;
    int has; /* 0: a state (TODO, OOM), no figure */
    double value;
    int decimals;    /* as printed (lib/stats.h) */
    const void *set; /* the run set the figure is of (a pr_run), NULL when not known: the
                      * series rules set a figure against one of its own run set only (no
                      * efficiency or fall across clusters or dates) */
    int lower;       /* 1: the figure is a time (its unit is better lower, lib/unitdir.h):
                   * the rules below speak of throughput (efficiency, falls, jumps per
                   * GPU) and do not judge it */
} sanity_point;

/* The footnotes of one table.  Each flag gets the next letter (a, b, …);
 * its mark goes into the flagged row's cell and its text into notes as a
 * list item.  No letters when !lettered (a list of its own: the audit). */
typedef struct sanity_notes {
    pr_buf notes;
    int next, lettered;
    const char *who; /* Markdown written before each footnote's text ("PyTorch: "); may be
                      * NULL.  Borrowed. */
} sanity_notes;

void sanity_notes_init(sanity_notes *n, int lettered);
void sanity_notes_free(sanity_notes *n);

/* The points of published table t in device-count order, into pts (room
 * for t->nrows); returns how many. */
size_t sanity_pub_points(const pr_pub_table *t, sanity_point *pts);

/* The series rules, one bit each. */
enum { SN_SUPERLINEAR = 1, SN_FALLS = 2, SN_JUMP = 4 };

/* Which series rules flag point i of pts[0..n) (device-count order): the
 * efficiency, per-device and falling rules; 0 when none.  Needs no
 * language: the report model's flag pass (flags.h) decides with it, and
 * the notes below say the same in words. */
unsigned sanity_point_flags(const sanity_point *pts, size_t n, size_t i);

/* The footnotes of point i's flags (sanity_point_flags) on machine p (words for
 * a CPU's processes); its marks into mark (may be NULL).  Returns how many
 * flags. */
size_t sanity_point_notes(const lang *l, const pr_platform *p, const sanity_point *pts, size_t n,
                          size_t i, pr_buf *mark, sanity_notes *nt, pr_err *err);

/* Checks series pts[0..n) (device-count order) on machine p: every
 * point's notes (sanity_point_notes).  Marks go into marks[i] (may be NULL),
 * footnotes into nt.  Returns the flags. */
size_t sanity_check_series(const lang *l, const pr_platform *p, const sanity_point *pts, size_t n,
                           pr_buf *marks, sanity_notes *nt, pr_err *err);

/* 1 when a and b, two configurations of one framework, platform and
 * source, print the same figures at the same rows (two figures at least). */
int sanity_identical(const pr_pub_table *a, const pr_pub_table *b);
/* The first table of tabs[0..n) identical to t (t itself skipped); NULL
 * when none. */
const pr_pub_table *sanity_identical_in(const pr_pub_table *t, const pr_pub_table *const *tabs,
                                        size_t n);
/* The footnote of t being identical to other; mark (may be NULL) gets the
 * mark. */
void sanity_identical_note(const lang *l, const pr_pub_table *other, pr_buf *mark, sanity_notes *nt,
                           pr_err *err);

/* The note of two figures read from byte-identical logs (Markdown: first,
 * second, and the logs' sources). */
void sanity_identical_logs_note(const lang *l, const char *first, const char *second,
                                const char *logs, sanity_notes *nt, pr_err *err);

/* The footnote of a speedup at nodes × gpus whose baseline comes from
 * source base_src and the figure from src (Markdown both). */
void sanity_other_base_note(const lang *l, const pr_platform *p, int nodes, int gpus,
                            const char *src, const char *base_src, pr_buf *mark, sanity_notes *nt,
                            pr_err *err);
/* Flags a figure at nodes × gpus read from only records records (steps)
 * of its log. */
void sanity_few_records_note(const lang *l, const pr_platform *p, int nodes, int gpus,
                             long long records, pr_buf *mark, sanity_notes *nt, pr_err *err);

/* Flags a figure at nodes × gpus whose runs include unsteady ones: recs
 * (n) are the cell's records, the unsteady ones (steady.h) named with
 * their window, CV and regime change. */
void sanity_unsteady_note(const lang *l, const pr_platform *p, int nodes, int gpus,
                          const pr_record *const *recs, size_t n, pr_buf *mark, sanity_notes *nt,
                          pr_err *err);
/* How many of recs (n) are successful and unsteady. */
size_t sanity_unsteady_count(const pr_record *const *recs, size_t n);

/* Flags a speedup whose 1-GPU baseline comes from another run set of the
 * same source (runset.h): set and base_set are the run sets' titles, diffs
 * what differs between them (runset_diff's array). */
void sanity_other_runset_note(const lang *l, const pr_platform *p, int nodes, int gpus,
                              const char *set, const char *base_set, const json_t *diffs,
                              pr_buf *mark, sanity_notes *nt, pr_err *err);
/* The same with other_rule set: the figure and its baseline were read with
 * two parse rules (diffs names them), so no speedup or efficiency is shown
 * across them; set and base_set equal when one run set holds both. */
void sanity_diff_note(const lang *l, const pr_platform *p, int nodes, int gpus, const char *set,
                      const char *base_set, const json_t *diffs, int other_rule, pr_buf *mark,
                      sanity_notes *nt, pr_err *err);

#endif
