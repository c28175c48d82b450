/* parse_lines: reading a run's logs line by line (docs/parse-rules.md):
 * rank filtering, keyword and match, DLLogger text and JSON and their step
 * kinds, each line handed to the whole-table readers (parse_tables.c) by
 * the rule's source; and counting what the lines give (parse_count_record), for
 * parse_scan's list too. */
#include "parse_int.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "numbers.h"

/* Above this many used records the case-wide median in stats is left out,
 * so that the mean and last reducers run in bounded memory (4 MiB). */
#define KEEP_FOR_STATS ((size_t)1 << 19)

static void push(double **v, size_t *n, size_t *cap, double x)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 256;
        *v = pr_xrealloc(*v, *cap * sizeof **v);
    }
    (*v)[(*n)++] = x;
}

/* Grows *v (of *cap elements of size) to hold n + 1, by half again: the
 * slack of a list that may be most of the memory stays a third of it. */
static void grow(void **v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return;
    *cap = *cap ? *cap + *cap / 2 : 256;
    *v = pr_xrealloc(*v, *cap * size);
}

/* The aux of a record with batch b (see scantab), 0 when past 32 bits. */
static unsigned batch_aux(scantab *t, double b)
{
    if (!t->nbatches || memcmp(&t->batches[t->nbatches - 1], &b, sizeof b) != 0) {
        if (t->nbatches >= UINT_MAX - 1)
            return 0;
        grow((void **)&t->batches, &t->capbatches, t->nbatches, sizeof *t->batches);
        t->batches[t->nbatches++] = b;
    }
    return (unsigned)t->nbatches;
}

/* The aux of a not-clean value val (see scantab), 0 when past 32 bits. */
static unsigned text_aux(scantab *t, const char *val, size_t max)
{
    if (t->ntext >= UINT_MAX - 1)
        return 0;
    grow((void **)&t->text_at, &t->captext, t->ntext, sizeof *t->text_at);
    t->text_at[t->ntext++] = t->text.len;
    pr_buf_put(&t->text, val, strnlen(val, max));
    pr_buf_putc(&t->text, '\0');
    return (unsigned)t->ntext;
}

/* Appends what was read on the current line to the scan's list.  A line
 * number or table index past 32 bits marks the scan (tab->too_far), which
 * parse_scan then refuses. */
static void list_add(run *r, int kind, double x, int batch_read, double b, const char *val)
{
    reclist *l = r->list;
    scantab *t = l->tab;
    grow((void **)&l->v, &l->cap, l->n, sizeof *l->v);
    pr_scan_rec *e = &l->v[l->n++];
    memset(e, 0, sizeof *e);
    if (r->lineno > UINT_MAX && !t->too_far)
        t->too_far = r->lineno;
    e->lineno = (unsigned)r->lineno;
    e->value = x;
    e->rank = r->probe_rank;
    e->part = (unsigned short)r->part;
    e->kind = (unsigned char)kind;
    e->step = (unsigned char)r->cur_step;
    int tabled = (kind == PR_SCAN_NUMBER && batch_read) || val;
    if (kind == PR_SCAN_NUMBER && batch_read)
        e->aux = batch_aux(t, b);
    else if (val) /* what parse_ignore_value keeps of it, so that a replay keeps the same */
        e->aux = text_aux(t, val, sizeof r->bad_text - 1);
    if (tabled && !e->aux && !t->too_far)
        t->too_far = r->lineno ? r->lineno : 1;
}

/* A number that parse_add_record found counted: ignored, skipped or used
 * (pr_rec_status).  batch_read: the record's line may give the global batch
 * (b, NAN when it does not). */
int parse_count_record(run *r, double x, int batch_read, double b)
{
    const pr_rulecfg_cfg *c = r->c;
    /* A step time of 0 or a negative rate is a broken record, not data. */
    if ((c->value != PR_VALUE_RAW && x < 0) ||
        ((c->value == PR_VALUE_SECONDS_PER_STEP || c->value == PR_VALUE_MS_PER_STEP) && x <= 0)) {
        r->ignored++;
        return PR_REC_IGNORED;
    }
    r->seen++;
    if (r->seen <= (unsigned long long)c->skip) {
        r->skipped++;
        return PR_REC_SKIPPED;
    }
    if (batch_read) {
        if (!isnan(b)) {
            if (r->gbs_state == 0) {
                r->gbs = b;
                r->gbs_state = 1;
            } else if (b != r->gbs) {
                r->gbs_state = 2;
            }
        } else {
            r->gbs_missing++;
        }
    }
    r->used++;
    r->sum += x;
    r->last = x;
    if (r->used == 1 || x > r->max)
        r->max = x;
    if (r->used == 1 || x < r->min)
        r->min = x;
    if (c->reduce == PR_REDUCE_MEDIAN || c->reduce == PR_REDUCE_TRIMMED_MEAN)
        push(&r->v, &r->nv, &r->capv, x);
    /* A run that did not converge is a record (the slowest) but has no
     * time: the case's min, max, mean and median describe the others. */
    if (isinf(x)) {
        r->nonconv_used++;
        return PR_REC_USED;
    }
    kase *k = r->k;
    if (k->used == 0 || x < k->min)
        k->min = x;
    if (k->used == 0 || x > k->max)
        k->max = x;
    k->used++;
    k->sum += x;
    if (!k->all_dropped) {
        if (k->nall < KEEP_FOR_STATS) {
            push(&k->all, &k->nall, &k->capall, x);
        } else {
            free(k->all);
            k->all = NULL;
            k->nall = k->capall = 0;
            k->all_dropped = 1;
        }
    }
    return PR_REC_USED;
}

/* One number found: counts it, skips it or keeps it.  line is the record's
 * line when a global batch may be read from it (NULL otherwise). */
void parse_add_record(run *r, double x, const char *line, size_t len)
{
    const pr_rulecfg_cfg *c = r->c;
    int batch_read = line && c->batch_keyword;
    double b = NAN;
    if (batch_read && (numbers_after(line, len, c->batch_keyword, r->bk_len, c->thousands, &b,
                                     NULL) != PR_NUM_FOUND ||
                       !(b > 0)))
        b = NAN;
    if (r->list) {
        list_add(r, PR_SCAN_NUMBER, x, batch_read, b, NULL);
        if (r->probe_rank >= 0)
            return; /* another rank's line: listed, not counted */
    }
    parse_count_record(r, x, batch_read, b);
}

/* A value that is not a clean number ("ips: None", "1,234.5", "12 345"):
 * counted, and the first one kept for the failure detail; with val NULL, a
 * value ignored without a text to quote (an N/A cell, a run that did not
 * converge). */
void parse_ignore_value(run *r, const char *val)
{
    if (r->list) {
        list_add(r, val ? PR_SCAN_NOT_CLEAN : PR_SCAN_IGNORED, NAN, 0, NAN, val);
        if (r->probe_rank >= 0)
            return;
    }
    r->ignored++;
    if (r->bad_line || !val)
        return;
    r->bad_line = r->lineno;
    size_t n = 0;
    for (; n < sizeof r->bad_text - 1 && val[n]; n++) {
        unsigned char ch = (unsigned char)val[n];
        r->bad_text[n] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
    }
    while (n && r->bad_text[n - 1] == ' ')
        n--;
    r->bad_text[n] = '\0';
}

/* The value keyword or match finds in text: PR_NUM_NONE, PR_NUM_FOUND with
 * *x set, or PR_NUM_BAD with *val at the text that is no number (NULL when
 * the pattern could not be run). */
static int line_value(run *r, const char *text, size_t len, double *x, const char **val)
{
    const pr_rulecfg_cfg *c = r->c;
    *val = NULL;
    if (c->keyword)
        return numbers_after(text, len, c->keyword, r->kw_len, c->thousands, x, val);
    const char *cap;
    size_t cap_len;
    int edges = 0;
    int m = rule_regex(r->rule, text, len, &cap, &cap_len, &edges);
    if (m < 0)
        return PR_NUM_BAD;
    if (m == 0)
        return PR_NUM_NONE;
    *val = cap;
    return numbers_capture(text, cap, cap_len, edges, c->thousands, x) ? PR_NUM_FOUND : PR_NUM_BAD;
}

/* keyword or match on text; counts what it finds. */
static void extract(run *r, const char *text, size_t len, const char *line, size_t line_len)
{
    double x;
    const char *val;
    int kv = line_value(r, text, len, &x, &val);
    if (kv == PR_NUM_BAD)
        parse_ignore_value(r, val);
    else if (kv == PR_NUM_FOUND)
        parse_add_record(r, x, line, line_len);
}

/* A DLLogger step's kind (pr_rulecfg_step) by its number groups: two or more an
 * iteration, one an epoch, none a summary; a step labelled "Iteration" (TF
 * BERT prints "Iteration: N" alone) is an iteration whatever its count. */
static pr_rulecfg_step step_kind(int components, int labelled_iteration)
{
    if (labelled_iteration || components >= 2)
        return PR_STEP_ITERATION;
    return components == 1 ? PR_STEP_EPOCH : PR_STEP_SUMMARY;
}

/* Whether the rule takes a line of this kind; when not, a line that holds
 * the metric is counted for the failure detail. */
static int step_wanted(run *r, pr_rulecfg_step got, int has_metric)
{
    if (r->c->step == PR_STEP_ANY || r->c->step == got)
        return 1;
    if (has_metric)
        r->other_step[got]++;
    return 0;
}

/* "DLLL {json}": the step is an array ([epoch, iteration], [epoch], []), an
 * iteration count or "PARAMETER"; the metric is data[keyword]. */
static void dllogger_json(run *r, char *text, size_t len)
{
    const pr_rulecfg_cfg *c = r->c;
    json_t *o = json_loadb(text + 5, len - 5, 0, NULL);
    if (!json_is_object(o)) {
        if (c->keyword && strstr(text, c->keyword))
            parse_ignore_value(r, NULL);
        json_decref(o);
        return;
    }
    json_t *step = json_object_get(o, "step");
    /* A bare integer is an iteration count (TF BERT's "Iteration: N" on
     * stdout); an array tells its kind by its length. */
    pr_rulecfg_step kind = json_is_integer(step)
                               ? PR_STEP_ITERATION
                               : step_kind(json_is_array(step) ? (int)json_array_size(step) : 0, 0);
    if (!json_is_string(step))
        r->cur_step = (int)kind;
    int has_metric = 0;
    if (!json_is_string(step) && c->step != PR_STEP_ANY && c->step != kind) {
        double x;
        const char *val;
        has_metric = c->keyword
                         ? json_is_number(json_object_get(json_object_get(o, "data"), c->keyword))
                         : line_value(r, text, len, &x, &val) == PR_NUM_FOUND;
    }
    if (!json_is_string(step) && step_wanted(r, kind, has_metric)) {
        if (c->keyword) {
            json_t *val = json_object_get(json_object_get(o, "data"), c->keyword);
            if (json_is_number(val))
                parse_add_record(r, json_number_value(val), NULL, 0);
            else if (val)
                parse_ignore_value(r, NULL);
        } else {
            extract(r, text, len, NULL, 0);
        }
    }
    json_decref(o);
}

/* "DLL <date> <time> - <step> key : value unit key : value ...".  The step
 * is what comes before the first key: "Epoch: 0 Iteration: 2", "(0, 200)",
 * "Iteration: 2", "Epoch: 0", "Summary:", "", "PARAMETER" (step_kind). */
static void dllogger_text(run *r, char *text, size_t len)
{
    char *body = memmem(text + 4, len - 4, " - ", 3);
    if (!body)
        return;
    body += 3;
    size_t blen = len - (size_t)(body - text);
    if (strncmp(body, "PARAMETER", 9) == 0)
        return;
    const char *colon = strstr(body, " : ");
    if (!colon)
        return;
    const char *key = colon;
    while (key > body && key[-1] == ' ')
        key--;
    while (key > body && !isspace((unsigned char)key[-1]))
        key--;
    int groups = 0, labelled = 0;
    for (const char *p = body; p < key; p++)
        if (isdigit((unsigned char)*p) && (p == body || !isdigit((unsigned char)p[-1])))
            groups++;
    for (const char *p = body; (p = numbers_find(p, (size_t)(key - p), "Iteration", 9)); p += 9)
        if ((p == body || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[9]))
            labelled = 1;
    pr_rulecfg_step kind = step_kind(groups, labelled);
    r->cur_step = (int)kind;
    int has_metric = 0;
    if (r->c->step != PR_STEP_ANY && r->c->step != kind) {
        double x;
        const char *val;
        has_metric = line_value(r, body, blen, &x, &val) == PR_NUM_FOUND;
    }
    if (!step_wanted(r, kind, has_metric))
        return;
    extract(r, body, blen, body, blen);
}

static int on_line(const pr_logline *l, void *vr, pr_err *err)
{
    (void)err;
    run *r = vr;
    const pr_rulecfg_cfg *c = r->c;
    r->lineno = l->lineno;
    r->cur_step = PR_SCAN_NO_STEP;
    r->probe_rank = -1;
    if (c->rank >= 0 && l->rank >= 0 && l->rank != c->rank) {
        r->other_rank++;
        /* parse_scan lists the records of other ranks' lines (not
         * counted); only line formats are read so, as tables keep state */
        if (!r->list || c->source != PR_SOURCE_RECORDS)
            return 0;
        r->probe_rank = l->rank;
    }
    if (l->offset - r->fx_head >= r->fx_gap && r->probe_rank < 0)
        logfacts_line_add(r->facts, l);
    switch (c->source) {
    case PR_SOURCE_RECORDS:
        if (c->line_filter && !numbers_find(l->text, l->len, c->line_filter, r->lf_len))
            return 0;
        if (c->profile == PR_PROFILE_DLLOGGER) {
            if (l->len >= 5 && memcmp(l->text, "DLLL ", 5) == 0)
                dllogger_json(r, l->text, l->len);
            else if (l->len >= 4 && memcmp(l->text, "DLL ", 4) == 0)
                dllogger_text(r, l->text, l->len);
            return 0;
        }
        extract(r, l->text, l->len, l->text, l->len);
        return 0;
    case PR_SOURCE_AVG_BUSBW: {
        double x;
        const char *val;
        int kv = numbers_after(l->text, l->len, "# Avg bus bandwidth", 19, 0, &x, &val);
        if (kv == PR_NUM_FOUND)
            parse_add_record(r, x, NULL, 0);
        else if (kv == PR_NUM_BAD)
            parse_ignore_value(r, val);
        return 0;
    }
    case PR_SOURCE_ROWS:
        if (c->profile == PR_PROFILE_PERFREPRO_GPU)
            parse_gpu_line(r, l->text, l->len);
        else
            parse_nccl_row(r, l->text, l->len);
        return 0;
    case PR_SOURCE_TIME_TO_TRAIN:
        parse_mllog_line(r, l->text, l->len);
        return 0;
    case PR_SOURCE_SUMMARY_TABLE:
        parse_mxnet_table(r, l->text);
        return 0;
    }
    return 0;
}

/* Reads logs[0..n) as one run (several only for "files": "parts").
 * Returns -1 with err set when a log cannot be read. */
int parse_read_run(run *r, const char *const *logs, size_t n, pr_err *err)
{
    for (size_t i = 0; i < n; i++) {
        r->part = (unsigned)i;
        if (r->facts) {
            /* the size says where the last PR_LOGFACTS_TAIL bytes start;
             * a file that cannot be stat'ed fails in logscan_path */
            struct stat st;
            unsigned long long size = stat(logs[i], &st) == 0 ? (unsigned long long)st.st_size : 0,
                               tail;
            logfacts_file(r->facts, (unsigned)i, size, &r->fx_head, &tail);
            r->fx_gap = tail - r->fx_head;
        }
        if (logscan_path(logs[i], on_line, r, &r->scan, err) < 0)
            return -1;
    }
    r->cur_step = PR_SCAN_NO_STEP;
    r->probe_rank = -1;
    if (r->c->source == PR_SOURCE_TIME_TO_TRAIN && r->have_start)
        parse_mllog_not_converged(r); /* the log ends inside a run */
    return 0;
}
