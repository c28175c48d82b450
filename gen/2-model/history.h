/* history: the dated series of the data, each judged for lasting changes
 * (lib/trend.h; docs/statistics.md#history).
 *
 *   reproduced series  one cell (samples.h: model × framework × platform ×
 *                      precision × batch size × nodes × GPUs) over its run
 *                      sets that are not experiments (runset.h): a point
 *                      is one run set, dated by its last date, with its
 *                      median, the order-statistic interval of the median
 *                      (pr_stats_median_ci) and its runs;
 *   published series   one source (a table's label and repository) × cell
 *                      over its revisions: a point is one revision's
 *                      figure (one run), dated by the table's source date.
 *
 * Reproduced and published series are never merged.  Only series of two
 * points or more are history.  Each series gets its change points
 * (pr_trend_change_points on log values, defaults, with the pins and
 * vetoes of DATA/history.json), each point its state (pr_trend_judge) and
 * limits, and the current segment its prediction band for the next point.
 *
 * Memory: history_build returns a set history_free frees; it borrows from the
 * dataset, which must outlive it.
 */
#ifndef PR_HISTORY_H
#define PR_HISTORY_H

#include <jansson.h>
#include <stddef.h>

#include "1-load/data.h"
#include "buf.h"
#include "samples.h"
#include "trend.h"

typedef enum { HS_REPRODUCED, HS_PUBLISHED } history_kind;

/* How a point was (or the next point would be) judged by a band: no
 * limits (fewer than PR_TREND_MIN_SEGMENT points before it), limits wider
 * than the series' own range (lowest to highest point: not informative, so
 * "ok" is not said), or limits that can tell. */
typedef enum { HS_BAND_NONE, HS_BAND_WIDE, HS_BAND_OK } history_band;

typedef struct history_point {
    char date[11];
    double value;            /* the median, or the published figure */
    double lo, hi, coverage; /* the median's interval; NAN when none (published, or 1 run) */
    size_t runs;
    const pr_run *run;         /* reproduced: the run set */
    const pr_record *link_rec; /* reproduced: the record closest to the median */
    const pr_pub_table *pub;   /* published: the revision's table ... */
    const pr_pub_row *row;     /* ... and row */
    pr_trend_state state;
    double lim_lo, lim_hi;         /* the limits it was judged by (throughput); NAN: none */
    int change;                    /* a change point: a new segment starts here */
    double pvalue;                 /* the change point's p-value (0 when pinned) */
    const history_decl_mark *mark; /* the pin or veto of this step, or NULL */
    history_band judged;           /* the limits it was judged by */
    double step;   /* the step from the point before: exp(Δ log) − 1; NAN first */
    double spread; /* the usual spread it is weighed against (log;
                                 * pr_trend_step_spreads); NAN */
    int step_seen; /* a step beyond PR_TREND_STEP_FACTOR usual spreads that
                                 * no test judged (no change point, mark or informative
                                 * limits): listed as seen, unjudged */
} history_point;

typedef struct history_series {
    history_kind kind;
    samples_key key;
    const char *label, *repo; /* published: the source; NULL for reproduced */
    const char *unit;         /* e.g. images/s; may be NULL */
    char *id;                 /* stable id: "ResNet50/NGC-PyTorch/V100-SXM2-16GB-x8/fp32/bs112/1x8"
                                 * + "/published/LABEL" (tag: URIs, JSON) */
    char *slug;               /* [a-z0-9-] of the id without model and framework: unique on
                                 * the framework's history page (anchors, chart names) */
    char *tag;                /* "history/MODEL/FRAMEWORK/SLUG" in [a-z0-9/-]: the feed's
                                 * entry ids */
    history_point *pts;
    size_t n;
    size_t ncps;
    double band_lo, band_hi;   /* the current segment's prediction interval for the next
                                 * point (throughput); NAN when the segment is too short */
    history_band band;         /* that band: none, not informative or informative */
    double range_lo, range_hi; /* the series' own range: its lowest and highest point */
    int cp_testable;           /* n >= 2 * PR_TREND_MIN_SPLIT: change points can be found */
    int testable;              /* cp_testable, or an informative band */
    size_t nseen;              /* points with step_seen */
} history_series;

typedef struct history_set {
    history_series *v;
    size_t n;
    size_t ntestable; /* series with testable set */
} history_set;

/* Points a series needs for change points (both sides of a split) and
 * before a point for a band: the counts the pages name. */
#define HS_CP_POINTS (2 * PR_TREND_MIN_SPLIT)
#define HS_BAND_POINTS PR_TREND_MIN_SEGMENT
/* "none", "not_informative", "informative" (JSON, CSV). */
const char *history_band_key(history_band b);

/* The history of d (borrowed), sorted by cell (samples_key_cmp), reproduced
 * first, then by source.  0, or -1 with err set (a pin or veto naming no
 * step of a series: the error names its place in DATA/history.json). */
int history_build(const pr_dataset *d, history_set **out, pr_err *err);
void history_free(history_set *s);

/* Whether point p is reported (a state other than ok, a change point, or a
 * step seen and unjudged). */
int history_point_notable(const history_point *p);
/* The newest date of any point ("" when none; borrowed). */
const char *history_newest_date(const history_set *s);

/* Every series with its points, states and change points, as a new JSON
 * object the caller frees: {"perfrepro": 1, "series": [...]}. */
json_t *history_to_json(const history_set *s);
/* The same as CSV, one row per point, appended to out. */
void history_to_csv(const history_set *s, pr_buf *out);

#endif
