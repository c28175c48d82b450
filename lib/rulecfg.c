/* rulecfg: the one checker of parse rules (rulecfg.h).  Moved from
 * measure/2-parse/rule.c, which keeps the compiled pattern, so that gen checks the
 * rules of fit reports as measure checks --rule and suites. */
#include "rulecfg.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* ---- profiles: how each known log format is read ---- */

/* One known log format.  Adding a format that a rule alone cannot read is
 * one row here (and its enum name in rulecfg.h): the checker, the normal
 * form, `fit`'s probe and the parse fuzzer all walk this table. */
typedef struct profile_def {
    const char *name; /* as written in "profile" */
    const char *keyword, *match, *line_filter;
    pr_rulecfg_value_kind value;
    const char *unit;
    pr_rulecfg_source source;     /* default */
    pr_rulecfg_source alt_source; /* the other allowed one (== source when none) */
    pr_rulecfg_files files;
    const char *batch_keyword;
    const char *table;
    int probe;     /* fit tries it on logs with no rule: it needs no key of the user's */
    int fuzz_seed; /* fuzz_parse's header byte 0 (mod 13) that picks it; 0: not fuzzed */
} profile_def;

/* Indexed by pr_rulecfg_profile, so rows need not follow the enum's order.  The
 * fuzz seeds are fixed once given: the committed corpus depends on them
 * (11 is the fuzzer's custom rule, so perfrepro-gpu came after it). */
static const profile_def profiles[PR_PROFILE_COUNT] = {
    [PR_PROFILE_NONE] = {.value = PR_VALUE_THROUGHPUT,
                         .source = PR_SOURCE_RECORDS,
                         .alt_source = PR_SOURCE_RECORDS,
                         .files = PR_FILES_RUNS},
    [PR_PROFILE_PADDLE_IPS] = {.name = "paddle-ips",
                               .keyword = "ips:",
                               .value = PR_VALUE_THROUGHPUT,
                               .unit = "samples/s",
                               .source = PR_SOURCE_RECORDS,
                               .alt_source = PR_SOURCE_RECORDS,
                               .files = PR_FILES_RUNS,
                               .probe = 1,
                               .fuzz_seed = 1},
    /* Not probed: it needs the metric's key (fit's message names it). */
    [PR_PROFILE_DLLOGGER] = {.name = "dllogger",
                             .value = PR_VALUE_THROUGHPUT,
                             .source = PR_SOURCE_RECORDS,
                             .alt_source = PR_SOURCE_RECORDS,
                             .files = PR_FILES_RUNS,
                             .fuzz_seed = 2},
    [PR_PROFILE_KERAS_TIMEHISTORY] = {.name = "keras-timehistory",
                                      .match = "([0-9][0-9.eE+-]*) examples/second",
                                      .line_filter = "TimeHistory:",
                                      .value = PR_VALUE_THROUGHPUT,
                                      .source = PR_SOURCE_RECORDS,
                                      .alt_source = PR_SOURCE_RECORDS,
                                      .files = PR_FILES_RUNS,
                                      .probe = 1,
                                      .fuzz_seed = 3},
    [PR_PROFILE_MMSEG] = {.name = "mmseg",
                          .keyword = "time:",
                          .line_filter = "Iter [",
                          .value = PR_VALUE_SECONDS_PER_STEP,
                          .source = PR_SOURCE_RECORDS,
                          .alt_source = PR_SOURCE_RECORDS,
                          .files = PR_FILES_RUNS,
                          .probe = 1,
                          .fuzz_seed = 4},
    [PR_PROFILE_FAIRSEQ] = {.name = "fairseq",
                            .match = "(?:^|[\\s,{|])\"?wps\"?(?:=|\":\\s*\"?)([0-9][0-9.eE+-]*)",
                            .value = PR_VALUE_THROUGHPUT,
                            .unit = "tokens/s",
                            .source = PR_SOURCE_RECORDS,
                            .alt_source = PR_SOURCE_RECORDS,
                            .files = PR_FILES_RUNS,
                            .probe = 1,
                            .fuzz_seed = 5},
    [PR_PROFILE_MEGATRON] = {.name = "megatron",
                             .keyword = "elapsed time per iteration (ms):",
                             .value = PR_VALUE_MS_PER_STEP,
                             .unit = "tokens/s",
                             .source = PR_SOURCE_RECORDS,
                             .alt_source = PR_SOURCE_RECORDS,
                             .files = PR_FILES_RUNS,
                             .batch_keyword = "global batch size:",
                             .probe = 1,
                             .fuzz_seed = 6},
    [PR_PROFILE_PYTORCH_EXAMPLES] = {.name = "pytorch-examples",
                                     .keyword = "Time",
                                     .line_filter = "Epoch: [",
                                     .value = PR_VALUE_SECONDS_PER_STEP,
                                     .source = PR_SOURCE_RECORDS,
                                     .alt_source = PR_SOURCE_RECORDS,
                                     .files = PR_FILES_RUNS,
                                     .probe = 1,
                                     .fuzz_seed = 7},
    [PR_PROFILE_NCCL_TESTS] = {.name = "nccl-tests",
                               .value = PR_VALUE_RAW,
                               .unit = "GB/s",
                               .source = PR_SOURCE_AVG_BUSBW,
                               .alt_source = PR_SOURCE_ROWS,
                               .files = PR_FILES_RUNS,
                               .probe = 1,
                               .fuzz_seed = 8},
    [PR_PROFILE_MLLOG] = {.name = "mllog",
                          .value = PR_VALUE_RAW,
                          .unit = "min",
                          .source = PR_SOURCE_TIME_TO_TRAIN,
                          .alt_source = PR_SOURCE_TIME_TO_TRAIN,
                          .files = PR_FILES_PARTS,
                          .probe = 1,
                          .fuzz_seed = 9},
    [PR_PROFILE_MXNET_SUMMARY] = {.name = "mxnet-summary",
                                  .value = PR_VALUE_THROUGHPUT,
                                  .source = PR_SOURCE_SUMMARY_TABLE,
                                  .alt_source = PR_SOURCE_SUMMARY_TABLE,
                                  .files = PR_FILES_RUNS,
                                  .table = "train.ips",
                                  .probe = 1,
                                  .fuzz_seed = 10},
    /* No unit: the table's rate column names it (GB/s or TFLOP/s).  Not
     * probed: fit reads perfrepro-gpu logs through their own rules. */
    [PR_PROFILE_PERFREPRO_GPU] = {.name = "perfrepro-gpu",
                                  .value = PR_VALUE_RAW,
                                  .source = PR_SOURCE_ROWS,
                                  .alt_source = PR_SOURCE_ROWS,
                                  .files = PR_FILES_RUNS,
                                  .fuzz_seed = 12},
};

static const char *const value_names[] = {
    "throughput", "seconds_per_step", "ms_per_step", "steps_per_second", "raw", NULL};
static const char *const scope_names[] = {"none", "per_card", "global", NULL};
static const char *const reduce_names[] = {"mean", "median", "last", "trimmed_mean",
                                           "max",  "min",    "best", NULL};
static const char *const source_names[] = {"records",       "avg_busbw",     "rows",
                                           "time_to_train", "summary_table", NULL};
static const char *const column_names[] = {"busbw", "algbw", "time", NULL};
static const char *const placement_names[] = {"both", "out_of_place", "in_place", NULL};
static const char *const step_names[] = {"iteration", "epoch", "summary", "any", NULL};
static const char *const files_names[] = {"runs", "parts", "workers", NULL};
static const char *const combine_names[] = {"sum", "mean", "min", NULL};
static const char *const nonconv_names[] = {"ignore", "worst", NULL};
/* Digit-group separators a rule may declare ("." would be the decimal point). */
static const char *const thousands_names[] = {",", " ", "'", "_", NULL};

static const char *const rule_keys[] = {
    "profile",       "keyword",     "match",     "line_filter",   "rank",
    "value",         "scope",       "source",    "skip",          "reduce",
    "trim",          "min_records", "round",     "unit",          "column",
    "placement",     "step",        "table",     "files",         "combine",
    "batch_keyword", "variant",     "thousands", "non_converged", NULL};
static const char *const trim_keys[] = {"fraction", "min", NULL};

const char *pr_rulecfg_profile_name(pr_rulecfg_profile p)
{
    return p == PR_PROFILE_NONE ? "none" : profiles[p].name;
}

int pr_rulecfg_profile_probed(pr_rulecfg_profile p)
{
    return profiles[p].probe;
}

int pr_rulecfg_profile_fuzz_seed(pr_rulecfg_profile p)
{
    return profiles[p].fuzz_seed;
}

const char *pr_rulecfg_value_name(pr_rulecfg_value_kind v)
{
    return value_names[v];
}

static int index_of(const char *s, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

/* ---- errors ---- */

struct pr_rulecfg_ctx {
    const pr_jdoc_jcur *root;
    int standalone; /* the rule is a document's root: paths get "rule." */
    int nopos;      /* the text was made from a value: positions mean nothing */
    pr_err *err;
    pr_rulecfg_match_fn match;
    void *arg;
};
typedef struct pr_rulecfg_ctx ctx;

static int vfail_at(const ctx *x, const pr_jdoc_jcur *k, const char *fmt, va_list ap)
{
    int line = 0, col = 0;
    if (!x->nopos)
        pr_jdoc_jpos(k, &line, &col);
    pr_buf path = PR_BUF_INIT, msg = PR_BUF_INIT;
    if (x->standalone)
        pr_buf_puts(&path, "rule");
    pr_buf inner = PR_BUF_INIT;
    pr_jdoc_jpath(k, &inner);
    if (inner.len) {
        if (path.len)
            pr_buf_putc(&path, '.');
        pr_buf_put(&path, inner.data, inner.len);
    }
    pr_buf_vprintf(&msg, fmt, ap);
    pr_err_set(x->err, pr_jdoc_name(k->doc), line, col, pr_buf_cstr(&path), "%s",
               pr_buf_cstr(&msg));
    pr_buf_free(&inner);
    pr_buf_free(&path);
    pr_buf_free(&msg);
    return -1;
}

static int fail_at(const ctx *x, const pr_jdoc_jcur *k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail_at(const ctx *x, const pr_jdoc_jcur *k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail_at(x, k, fmt, ap);
    va_end(ap);
    return -1;
}

int pr_rulecfg_fail(const pr_rulecfg_ctx *x, const pr_jdoc_jcur *k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail_at(x, k, fmt, ap);
    va_end(ap);
    return -1;
}

/* jdoc's getters write paths from the document root ("skip"); a standalone
 * rule's fields read "rule.skip".  The getters only fail on a child key, so
 * the message always has a field part to prefix. */
static int lib_failed(const ctx *x)
{
    if (!x->standalone && !x->nopos)
        return -1;
    const char *name = pr_jdoc_name(x->root->doc);
    char *m = x->err->msg;
    size_t n = strlen(name);
    if (strncmp(m, name, n) != 0)
        return -1;
    const char *p = m + n;
    for (int i = 0; i < 2 && p[0] == ':' && isdigit((unsigned char)p[1]); i++) {
        p++;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (p[0] != ':' || p[1] != ' ')
        return -1;
    pr_buf b = PR_BUF_INIT;
    pr_buf_put(&b, m, x->nopos ? n : (size_t)(p - m));
    pr_buf_puts(&b, ": ");
    if (x->standalone)
        pr_buf_puts(&b, "rule.");
    pr_buf_puts(&b, p + 2);
    snprintf(x->err->msg, sizeof x->err->msg, "%s", pr_buf_cstr(&b));
    pr_buf_free(&b);
    return -1;
}

/* An optional enum key: returns its index, def when absent, -1 on error. */
static int get_enum(const ctx *x, const char *key, const char *const *names, int def)
{
    const char *s = NULL;
    int rc = pr_jdoc_jenum(x->root, key, 0, names, &s, x->err);
    if (rc < 0)
        return lib_failed(x);
    return rc == 0 ? def : index_of(s, names);
}

static int get_str(const ctx *x, const char *key, const char **out)
{
    int rc = pr_jdoc_jstr(x->root, key, 0, out, x->err);
    return rc < 0 ? lib_failed(x) : rc;
}

static int get_int(const ctx *x, const pr_jdoc_jcur *obj, const char *key, long long min,
                   long long max, long long *out)
{
    int rc = pr_jdoc_jint(obj, key, 0, min, max, out, x->err);
    return rc < 0 ? lib_failed(x) : rc;
}

/* A key that only some settings use: present elsewhere is an error. */
static int only_with(const ctx *x, const char *key, int allowed, const char *what)
{
    pr_jdoc_jcur k = pr_jdoc_jchild(x->root, key);
    if (k.v && !allowed)
        return fail_at(x, &k, "only used %s", what);
    return 0;
}

static int check_text(const ctx *x, const char *key, const char *s, int allow_empty)
{
    pr_jdoc_jcur k = pr_jdoc_jchild(x->root, key);
    if (!allow_empty && !*s)
        return fail_at(x, &k, "must not be empty");
    if (strlen(s) > 1024)
        return fail_at(x, &k, "is longer than 1024 bytes");
    for (const char *p = s; *p; p++)
        if (*p == '\n' || *p == '\r')
            return fail_at(x, &k, "must be on one line (lines are matched one at a time)");
    return 0;
}

static int build(const ctx *x, pr_rulecfg_def *r)
{
    pr_rulecfg_cfg *c = &r->cfg;
    pr_err *err = x->err;
    const pr_jdoc_jcur *root = x->root;
    if (!json_is_object(root->v))
        return fail_at(x, root, "expected an object");
    if (pr_jdoc_jobject(root, rule_keys, err) < 0)
        return lib_failed(x);

    /* the names in table order, for the message that lists them */
    const char *profile_names[PR_PROFILE_COUNT];
    for (int i = 1; i < PR_PROFILE_COUNT; i++)
        profile_names[i - 1] = profiles[i].name;
    profile_names[PR_PROFILE_COUNT - 1] = NULL;
    int p = get_enum(x, "profile", profile_names, -1);
    if (p == -1 && pr_jdoc_jchild(root, "profile").v)
        return -1;
    c->profile = p < 0 ? PR_PROFILE_NONE : (pr_rulecfg_profile)(p + 1);
    const profile_def *d = &profiles[c->profile];
    const char *pname = d->name ? d->name : "(none)";

    /* source */
    int s = get_enum(x, "source", source_names, (int)d->source);
    if (s < 0)
        return -1;
    c->source = (pr_rulecfg_source)s;
    if (c->source != d->source && c->source != d->alt_source) {
        pr_jdoc_jcur k = pr_jdoc_jchild(root, "source");
        if (d->alt_source != d->source)
            return fail_at(x, &k, "profile %s reads source \"%s\" or \"%s\"", pname,
                           source_names[d->source], source_names[d->alt_source]);
        return fail_at(x, &k, "profile %s reads source \"%s\" only", pname,
                       source_names[d->source]);
    }
    int records = c->source == PR_SOURCE_RECORDS;

    /* keyword / match */
    const char *kw = NULL, *re = NULL;
    if (get_str(x, "keyword", &kw) < 0 || get_str(x, "match", &re) < 0)
        return -1;
    pr_jdoc_jcur kk = pr_jdoc_jchild(root, "keyword"), km = pr_jdoc_jchild(root, "match");
    if (kw && re)
        return fail_at(x, &km, "give either \"keyword\" or \"match\", not both");
    if (!records && (kw || re))
        return fail_at(x, kw ? &kk : &km, "not used by source \"%s\" (profile %s)",
                       source_names[c->source], pname);
    if (records) {
        if (!kw && !re) {
            kw = d->keyword;
            re = d->match;
        }
        if (!kw && !re)
            return fail_at(x, root,
                           "needs \"keyword\" (the value is the token after it) or \"match\" "
                           "(a regular expression with one capture group)%s",
                           c->profile == PR_PROFILE_DLLOGGER
                               ? ": profile dllogger needs the metric key, e.g. "
                                 "\"keyword\": \"train.total_ips\""
                               : "");
    }
    if (kw) {
        if (kk.v && check_text(x, "keyword", kw, 0) < 0)
            return -1;
        if (c->profile == PR_PROFILE_DLLOGGER && strpbrk(kw, " \t:"))
            return fail_at(x, &kk,
                           "profile dllogger takes the bare metric key (e.g. "
                           "\"train.total_ips\", without \" :\")");
        r->keyword = pr_xstrdup(kw);
    }
    if (re) {
        if (km.v && check_text(x, "match", re, 0) < 0)
            return -1;
        r->match = pr_xstrdup(re);
        if (x->match && x->match(x, km.v ? &km : root, r->match, x->arg) < 0)
            return -1;
    }
    c->keyword = r->keyword;
    c->match = r->match;

    /* line_filter */
    const char *lf = d->line_filter;
    int rc = get_str(x, "line_filter", &lf);
    if (rc < 0 || (rc == 1 && check_text(x, "line_filter", lf, 1) < 0))
        return -1;
    if (lf && *lf)
        r->line_filter = pr_xstrdup(lf);
    c->line_filter = r->line_filter;

    /* rank: an integer or "all" */
    c->rank = 0;
    pr_jdoc_jcur kr = pr_jdoc_jchild(root, "rank");
    if (kr.v) {
        if (json_is_string(kr.v)) {
            if (strcmp(json_string_value(kr.v), "all") != 0)
                return fail_at(x, &kr, "expected a rank number or \"all\"");
            c->rank = -1;
        } else {
            long long v;
            if (get_int(x, root, "rank", 0, INT_MAX, &v) < 0)
                return -1;
            c->rank = (int)v;
        }
    }

    /* value and scope */
    int v = get_enum(x, "value", value_names, (int)d->value);
    if (v < 0)
        return -1;
    c->value = (pr_rulecfg_value_kind)v;
    pr_jdoc_jcur kv = pr_jdoc_jchild(root, "value");
    if (!records && c->value != d->value)
        return fail_at(x, &kv, "source \"%s\" gives %s values", source_names[c->source],
                       value_names[d->value]);
    int sc = get_enum(x, "scope", scope_names, PR_SCOPE_NONE);
    if (sc < 0)
        return -1;
    pr_jdoc_jcur ks = pr_jdoc_jchild(root, "scope");
    if (ks.v && sc == PR_SCOPE_NONE)
        return fail_at(x, &ks, "unknown value \"none\" (expected one of: per_card, global)");
    if (c->value == PR_VALUE_THROUGHPUT) {
        if (sc == PR_SCOPE_NONE)
            return fail_at(x, ks.v ? &ks : root,
                           "\"scope\" is required for throughput values: \"per_card\" (the log "
                           "prints one card's rate; it is multiplied by the GPU count) or "
                           "\"global\" (the log prints the whole job's rate)");
        c->scope = (pr_rulecfg_scope)sc;
    } else {
        if (sc == PR_SCOPE_PER_CARD)
            return fail_at(x, &ks,
                           "\"per_card\" applies to throughput values only (per-step values "
                           "are converted with batch size x GPUs)");
        c->scope = PR_SCOPE_NONE;
    }

    /* which records count */
    long long n;
    c->skip = 0;
    if ((rc = get_int(x, root, "skip", 0, 1000000000000LL, &n)) < 0)
        return -1;
    if (rc)
        c->skip = n;
    int red = get_enum(x, "reduce", reduce_names, PR_REDUCE_MEAN);
    if (red < 0)
        return -1;
    c->reduce = (pr_rulecfg_reduce)red;
    if (c->reduce == PR_REDUCE_BEST && c->value == PR_VALUE_RAW) {
        pr_jdoc_jcur k = pr_jdoc_jchild(root, "reduce");
        return fail_at(x, &k,
                       "\"best\" is the fastest record, and raw values (a bandwidth, a time to "
                       "train) do not say which way is faster: use \"max\" or \"min\"");
    }
    c->trim_fraction = 0.05;
    c->trim_min = 5;
    pr_jdoc_jcur kt;
    rc = pr_jdoc_jobj(root, "trim", 0, &kt, err);
    if (rc < 0)
        return lib_failed(x);
    if (rc == 1) {
        if (c->reduce != PR_REDUCE_TRIMMED_MEAN)
            return fail_at(x, &kt, "only used with \"reduce\": \"trimmed_mean\"");
        if (pr_jdoc_jobject(&kt, trim_keys, err) < 0 ||
            pr_jdoc_jnum(&kt, "fraction", 0, 0, &c->trim_fraction, err) < 0)
            return lib_failed(x);
        if (c->trim_fraction >= 0.5) {
            pr_jdoc_jcur kf = pr_jdoc_jchild(&kt, "fraction");
            return fail_at(x, &kf, "must be below 0.5 (it is dropped from each end)");
        }
        if (get_int(x, &kt, "min", 0, 1000000000LL, &c->trim_min) < 0)
            return -1;
    }
    c->min_records = 1;
    if ((rc = get_int(x, root, "min_records", 1, 1000000000000LL, &n)) < 0)
        return -1;
    if (rc)
        c->min_records = n;
    c->round = -1;
    if ((rc = get_int(x, root, "round", 0, 12, &n)) < 0)
        return -1;
    if (rc)
        c->round = (int)n;

    /* format-specific keys; perfrepro-gpu's rows are not nccl-tests' */
    int is_rows = c->source == PR_SOURCE_ROWS && c->profile == PR_PROFILE_NCCL_TESTS;
    int is_gpu = c->profile == PR_PROFILE_PERFREPRO_GPU;
    if (only_with(x, "column", is_rows, "with \"source\": \"rows\" (profile nccl-tests)") < 0 ||
        only_with(x, "placement", is_rows, "with \"source\": \"rows\" (profile nccl-tests)") < 0 ||
        only_with(x, "step", c->profile == PR_PROFILE_DLLOGGER, "with profile dllogger") < 0 ||
        only_with(x, "table", c->source == PR_SOURCE_SUMMARY_TABLE, "with profile mxnet-summary") <
            0 ||
        only_with(x, "variant", is_gpu, "with profile perfrepro-gpu") < 0 ||
        only_with(x, "thousands", records,
                  "with numbers read from lines (\"keyword\" or \"match\")") < 0 ||
        only_with(x, "non_converged", c->source == PR_SOURCE_TIME_TO_TRAIN, "with profile mllog") <
            0)
        return -1;
    const char *th = NULL;
    if (get_str(x, "thousands", &th) < 0)
        return -1;
    if (th && index_of(th, thousands_names) < 0) {
        pr_jdoc_jcur k = pr_jdoc_jchild(root, "thousands");
        return fail_at(x, &k,
                       "expected one of \",\", \" \", \"'\", \"_\" (the separator between "
                       "groups of three digits; \".\" is the decimal point)");
    }
    c->thousands = th ? th[0] : 0;
    int nc = get_enum(x, "non_converged", nonconv_names, PR_NONCONV_IGNORE);
    if (nc < 0)
        return -1;
    c->non_converged = (pr_rulecfg_nonconv)nc;
    int col = get_enum(x, "column", column_names, PR_COLUMN_BUSBW);
    int pl = get_enum(x, "placement", placement_names, PR_PLACE_BOTH);
    int st = get_enum(x, "step", step_names, PR_STEP_ITERATION);
    int fl = get_enum(x, "files", files_names, (int)d->files);
    if (col < 0 || pl < 0 || st < 0 || fl < 0)
        return -1;
    c->column = (pr_rulecfg_column)col;
    c->placement = (pr_rulecfg_placement)pl;
    c->step = (pr_rulecfg_step)st;
    c->files = (pr_rulecfg_files)fl;
    if (only_with(x, "combine", c->files == PR_FILES_WORKERS, "with \"files\": \"workers\"") < 0)
        return -1;
    int cb = get_enum(x, "combine", combine_names, PR_COMBINE_SUM);
    if (cb < 0)
        return -1;
    c->combine = (pr_rulecfg_combine)cb;
    if (c->files == PR_FILES_WORKERS && c->scope == PR_SCOPE_PER_CARD) {
        /* --gpus counts the whole job's cards, not one worker's */
        pr_jdoc_jcur k = pr_jdoc_jchild(x->root, "files");
        return fail_at(x, &k,
                       "\"workers\" with \"scope\": \"per_card\": each worker's log "
                       "is read as that worker's own rate; give \"scope\": \"global\"");
    }

    const char *tb = d->table;
    if ((rc = get_str(x, "table", &tb)) < 0 || (rc == 1 && check_text(x, "table", tb, 0) < 0))
        return -1;
    if (tb)
        r->table = pr_xstrdup(tb);
    c->table = r->table;

    /* A name on the table's group line: one word, compared whole. */
    const char *va = NULL;
    if ((rc = get_str(x, "variant", &va)) < 0 || (rc == 1 && check_text(x, "variant", va, 0) < 0))
        return -1;
    if (va && strpbrk(va, " \t")) {
        pr_jdoc_jcur k = pr_jdoc_jchild(root, "variant");
        return fail_at(x, &k, "must be one word: a column group's name (copy, read, fp16, ...)");
    }
    if (va)
        r->variant = pr_xstrdup(va);
    c->variant = r->variant;

    int per_step = c->value == PR_VALUE_SECONDS_PER_STEP || c->value == PR_VALUE_MS_PER_STEP ||
                   c->value == PR_VALUE_STEPS_PER_SECOND;
    if (only_with(x, "batch_keyword", per_step,
                  "with per-step values (seconds_per_step, ms_per_step, steps_per_second)") < 0)
        return -1;
    const char *bk = per_step ? d->batch_keyword : NULL;
    if ((rc = get_str(x, "batch_keyword", &bk)) < 0 ||
        (rc == 1 && check_text(x, "batch_keyword", bk, 1) < 0))
        return -1;
    if (bk && *bk)
        r->batch_keyword = pr_xstrdup(bk);
    c->batch_keyword = r->batch_keyword;

    const char *u = d->unit;
    if (is_rows && c->column == PR_COLUMN_TIME)
        u = "us";
    if ((rc = get_str(x, "unit", &u)) < 0 || (rc == 1 && check_text(x, "unit", u, 0) < 0))
        return -1;
    if (u)
        r->unit = pr_xstrdup(u);
    c->unit = r->unit;
    return 0;
}

int pr_rulecfg_check(const pr_jdoc_jcur *c, int nopos, pr_rulecfg_match_fn match, void *arg,
                     pr_rulecfg_def *out, pr_err *err)
{
    ctx x = {c, c->parent == NULL, nopos, err, match, arg};
    return build(&x, out);
}

void pr_rulecfg_clear(pr_rulecfg_def *d)
{
    free(d->keyword);
    free(d->match);
    free(d->line_filter);
    free(d->unit);
    free(d->table);
    free(d->batch_keyword);
    free(d->variant);
    memset(d, 0, sizeof *d);
}

/* json_object_set_new steals the new value's reference. */
static void put_str(json_t *o, const char *k, const char *v)
{
    json_object_set_new(o, k, json_string(v));
}

json_t *pr_rulecfg_to_json(const pr_rulecfg_cfg *c)
{
    const profile_def *d = &profiles[c->profile];
    json_t *o = json_object();
    if (c->profile != PR_PROFILE_NONE)
        put_str(o, "profile", d->name);
    put_str(o, "source", source_names[c->source]);
    if (c->keyword)
        put_str(o, "keyword", c->keyword);
    if (c->match)
        put_str(o, "match", c->match);
    /* An empty filter is written when it switches a profile's one off. */
    if (c->line_filter || d->line_filter)
        put_str(o, "line_filter", c->line_filter ? c->line_filter : "");
    if (c->rank < 0)
        put_str(o, "rank", "all");
    else
        json_object_set_new(o, "rank", json_integer(c->rank));
    put_str(o, "value", value_names[c->value]);
    if (c->scope != PR_SCOPE_NONE)
        put_str(o, "scope", scope_names[c->scope]);
    if (c->profile == PR_PROFILE_DLLOGGER)
        put_str(o, "step", step_names[c->step]);
    if (c->source == PR_SOURCE_SUMMARY_TABLE)
        put_str(o, "table", c->table);
    if (c->source == PR_SOURCE_ROWS && c->profile == PR_PROFILE_NCCL_TESTS) {
        put_str(o, "column", column_names[c->column]);
        put_str(o, "placement", placement_names[c->placement]);
    }
    /* Absent means the table's first group, which only the log knows. */
    if (c->variant)
        put_str(o, "variant", c->variant);
    int per_step = c->value == PR_VALUE_SECONDS_PER_STEP || c->value == PR_VALUE_MS_PER_STEP ||
                   c->value == PR_VALUE_STEPS_PER_SECOND;
    if (c->batch_keyword || (per_step && d->batch_keyword))
        put_str(o, "batch_keyword", c->batch_keyword ? c->batch_keyword : "");
    json_object_set_new(o, "skip", json_integer(c->skip));
    put_str(o, "reduce", reduce_names[c->reduce]);
    if (c->reduce == PR_REDUCE_TRIMMED_MEAN) {
        json_t *t = json_object();
        json_object_set_new(t, "fraction", json_real(c->trim_fraction));
        json_object_set_new(t, "min", json_integer(c->trim_min));
        json_object_set_new(o, "trim", t);
    }
    json_object_set_new(o, "min_records", json_integer(c->min_records));
    if (c->round >= 0)
        json_object_set_new(o, "round", json_integer(c->round));
    if (c->unit)
        put_str(o, "unit", c->unit);
    put_str(o, "files", files_names[c->files]);
    if (c->files == PR_FILES_WORKERS)
        put_str(o, "combine", combine_names[c->combine]);
    if (c->thousands) {
        char t[2] = {c->thousands, '\0'};
        put_str(o, "thousands", t);
    }
    if (c->source == PR_SOURCE_TIME_TO_TRAIN)
        put_str(o, "non_converged", nonconv_names[c->non_converged]);
    return o;
}
