/* parse_scan: a case's logs scanned once and reduced many times under other keys. */
#include "parse_int.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- scanning once, reducing many times (explain.c, fit.c) ---- */

struct pr_scan {
    const pr_rule *rule;
    pr_rulecfg_cfg cfg; /* the rule's, reading every step and skipping nothing */
    pr_parse_args args;
    char **logs;
    size_t nlogs, runs;
    run *run;       /* each run's state after reading: tables, counts */
    reclist *lists; /* and its records */
    scantab tab;
    kase k;
};

void parse_scan_free(pr_scan *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->runs; i++) {
        parse_run_free(&s->run[i]);
        free(s->lists[i].v);
    }
    for (size_t i = 0; i < s->nlogs; i++)
        free(s->logs[i]);
    free(s->logs);
    free(s->run);
    free(s->lists);
    free((char *)s->args.unit);
    pr_buf_free(&s->tab.text);
    free(s->tab.text_at);
    free(s->tab.batches);
    free(s->k.all);
    free(s);
}

int parse_scan(const pr_rule *rule, const char *const *logs, size_t nlogs,
               const pr_parse_args *args, pr_scan **out, pr_err *err)
{
    if (parse_check_args(rule, args, err) < 0)
        return -1;
    if (nlogs == 0)
        return pr_err_set(err, NULL, 0, 0, NULL, "no log given");
    if (rule_get(rule)->files == PR_FILES_PARTS && nlogs > USHRT_MAX)
        return pr_err_set(err, NULL, 0, 0, NULL,
                          "%zu logs given as parts of one run: at most %u can be scanned", nlogs,
                          (unsigned)USHRT_MAX);
    pr_scan *s = pr_xcalloc(1, sizeof *s);
    s->rule = rule;
    s->cfg = *rule_get(rule);
    /* Every record is listed: the reduction decides which count. */
    s->cfg.skip = 0;
    s->cfg.reduce = PR_REDUCE_MEAN;
    s->cfg.min_records = 1;
    s->cfg.round = -1;
    if (s->cfg.profile == PR_PROFILE_DLLOGGER)
        s->cfg.step = PR_STEP_ANY;
    s->args = *args;
    s->args.unit = pr_xstrdup(args->unit);
    s->k.args = &s->args;
    s->nlogs = nlogs;
    s->logs = pr_xcalloc(nlogs, sizeof *s->logs);
    for (size_t i = 0; i < nlogs; i++)
        s->logs[i] = pr_xstrdup(logs[i]);
    s->runs = s->cfg.files == PR_FILES_PARTS ? 1 : nlogs;
    s->run = pr_xcalloc(s->runs, sizeof *s->run);
    s->lists = pr_xcalloc(s->runs, sizeof *s->lists);
    int rc = -1;
    for (size_t i = 0; i < s->runs; i++) {
        run *r = &s->run[i];
        parse_run_init(r, rule, &s->cfg, &s->k);
        reclist *l = &s->lists[i];
        l->tab = &s->tab;
        r->list = l;
        int parts = s->cfg.files == PR_FILES_PARTS;
        if (parse_read_run(r, logs + (parts ? 0 : i), parts ? nlogs : 1, err) < 0)
            goto out;
        r->list = NULL;
        if (s->tab.too_far) {
            pr_err_set(err, logs[parts ? 0 : i], 0, 0, NULL,
                       "line %llu: past %u lines or listed values, too many to scan",
                       s->tab.too_far, (unsigned)UINT_MAX - 1);
            goto out;
        }
        /* the growth's slack back before the search allocates its own */
        if (l->n && l->n < l->cap) {
            l->v = pr_xrealloc(l->v, l->n * sizeof *l->v);
            l->cap = l->n;
        }
    }
    *out = s;
    s = NULL;
    rc = 0;
out:
    parse_scan_free(s);
    return rc;
}

size_t parse_scan_runs(const pr_scan *s)
{
    return s->runs;
}

const pr_scan_rec *parse_scan_records(const pr_scan *s, size_t run_index, size_t *n)
{
    *n = s->lists[run_index].n;
    return s->lists[run_index].v;
}

const char *parse_scan_text(const pr_scan *s, const pr_scan_rec *rec)
{
    if (rec->kind != PR_SCAN_NOT_CLEAN || !rec->aux)
        return NULL;
    return s->tab.text.data + s->tab.text_at[rec->aux - 1];
}

double parse_scan_batch(const pr_scan *s, const pr_scan_rec *rec, int *batch_read)
{
    *batch_read = rec->kind == PR_SCAN_NUMBER && rec->aux;
    return *batch_read ? s->tab.batches[rec->aux - 1] : NAN;
}

const char *parse_scan_log(const pr_scan *s, size_t run_index, unsigned part)
{
    return s->cfg.files == PR_FILES_PARTS ? s->logs[part] : s->logs[run_index];
}

void parse_reduce_keys_of(const pr_rule *rule, pr_reduce_keys *k)
{
    const pr_rulecfg_cfg *c = rule_get(rule);
    k->skip = c->skip;
    k->reduce = c->reduce;
    k->trim_fraction = c->trim_fraction;
    k->trim_min = c->trim_min;
    k->step = c->step;
    k->round = c->round;
    k->min_records = c->min_records;
}

/* Counts a run's listed records again under other keys, as reading them
 * did: the same parse_count_record and parse_ignore_value. */
static void replay(run *r, const pr_scan *s, const reclist *l, unsigned char *status)
{
    const pr_rulecfg_cfg *c = r->c;
    for (size_t i = 0; i < l->n; i++) {
        const pr_scan_rec *e = &l->v[i];
        int st;
        r->lineno = e->lineno;
        if (e->rank >= 0) {
            st = PR_REC_OTHER_RANK;
        } else if (e->step != PR_SCAN_NO_STEP && c->step != PR_STEP_ANY && c->step != e->step) {
            if (e->kind == PR_SCAN_NUMBER) /* a line with the metric: step_wanted */
                r->other_step[e->step]++;
            st = PR_REC_OTHER_STEP;
        } else if (e->kind == PR_SCAN_NUMBER) {
            int batch_read;
            double b = parse_scan_batch(s, e, &batch_read);
            st = parse_count_record(r, e->value, batch_read, b);
        } else {
            parse_ignore_value(r, parse_scan_text(s, e));
            st = e->kind == PR_SCAN_NOT_CLEAN ? PR_REC_NOT_CLEAN : PR_REC_IGNORED;
        }
        if (status)
            status[i] = (unsigned char)st;
    }
}

void parse_run_trace_clear(pr_run_trace *t)
{
    free(t->detail);
    memset(t, 0, sizeof *t);
}

int parse_reduce(const pr_scan *s, const pr_reduce_keys *keys, unsigned flags, pr_parse_result *res,
                 pr_run_trace *traces, unsigned char *const *status)
{
    pr_rulecfg_cfg c = *rule_get(s->rule);
    c.skip = keys->skip;
    c.reduce = keys->reduce;
    c.trim_fraction = keys->trim_fraction;
    c.trim_min = keys->trim_min;
    c.round = keys->round;
    c.min_records = keys->min_records;
    if (c.profile == PR_PROFILE_DLLOGGER)
        c.step = keys->step;
    parse_case_acc a;
    parse_case_open(&a, &c, &s->args, (const char *const *)s->logs, s->nlogs, res);
    if (flags & PR_REDUCE_LEAN)
        a.k.all_dropped = 1; /* no copy of every record for stats.median */
    for (size_t i = 0; i < s->runs; i++) {
        const run *sr = &s->run[i];
        run r;
        parse_run_init(&r, s->rule, &c, &a.k);
        /* what reading left that is not a record: tables, line counts */
        r.other_rank = sr->other_rank;
        r.scan = sr->scan;
        r.tables = sr->tables;
        r.nonconv = sr->nonconv;
        r.g = sr->g; /* borrowed: the table's rows stay the scan's */
        r.sx = sr->sx;
        r.sy = sr->sy;
        r.ns = sr->ns;
        if (traces) {
            parse_run_trace_clear(&traces[i]);
            r.trace = &traces[i];
        }
        replay(&r, s, &s->lists[i], status ? status[i] : NULL);
        if (r.trace) {
            r.trace->seen = r.seen;
            r.trace->skipped = r.skipped;
            r.trace->used = r.used;
            r.trace->ignored = r.ignored;
            r.trace->other_rank = r.other_rank;
            r.trace->other_step = r.other_step[0] + r.other_step[1] + r.other_step[2];
        }
        parse_case_add_run(&a, &r, i, 0, res);
        free(r.v);
    }
    parse_case_close(&a, res);
    return 0;
}
