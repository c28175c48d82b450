#include "sanity.h"

#include "steady.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/md.h"
#include "stats.h"
#include "unitdir.h"

void sanity_notes_init(sanity_notes *n, int lettered)
{
    pr_buf_init(&n->notes);
    n->next = 0;
    n->lettered = lettered;
    n->who = NULL;
}

void sanity_notes_free(sanity_notes *n)
{
    pr_buf_free(&n->notes);
}

static int point_qsort(const void *a, const void *b)
{
    const sanity_point *x = a, *y = b;
    return x->gpus != y->gpus ? x->gpus - y->gpus : x->nodes - y->nodes;
}

size_t sanity_pub_points(const pr_pub_table *t, sanity_point *pts)
{
    for (size_t i = 0; i < t->nrows; i++) {
        const pr_pub_row *r = &t->rows[i];
        pts[i] = (sanity_point){r->nodes,
                                r->gpus,
                                r->has_value,
                                r->value,
                                data_pub_decimals(r),
                                NULL,
                                pr_unitdir_lower(t->unit)};
    }
    pr_qsort(pts, t->nrows, sizeof *pts, point_qsort);
    return t->nrows;
}

/* Writes one flag: its mark (" ❗a") and its footnote ("- ❗a " + text of
 * key rendered with v, borrowed). */
static void flag(const lang *l, const char *key, json_t *v, pr_buf *mark, sanity_notes *nt,
                 pr_err *err)
{
    char letter[16] = "";
    if (nt->lettered) {
        int k = nt->next++;
        if (k < 26)
            snprintf(letter, sizeof letter, "%c", 'a' + k);
        else
            snprintf(letter, sizeof letter, "%d", k + 1);
    }
    const char *sign = lang_str(l, "sanity_flag");
    if (mark)
        pr_buf_printf(mark, " %s%s", sign, letter);
    pr_buf_printf(&nt->notes, "- %s%s ", sign, letter);
    if (nt->who)
        pr_buf_printf(&nt->notes, "%s: ", nt->who);
    lang_fmt(l, key, v, &nt->notes, err);
    pr_buf_putc(&nt->notes, '\n');
}

/* The view of a flag at point p: its count label (Markdown), value. */
static json_t *point_view(const lang *l, const pr_platform *plat, const sanity_point *p,
                          const char *prefix, json_t *v, pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    char key[32];
    platform_count_label(l, plat, p->nodes, p->gpus, &b, err);
    snprintf(key, sizeof key, "%scount", prefix);
    json_object_set_new(v, key, json_string(pr_buf_cstr(&b)));
    pr_buf_clear(&b);
    md_number(&b, p->value, p->decimals);
    snprintf(key, sizeof key, "%svalue", prefix);
    json_object_set_new(v, key, json_string(pr_buf_cstr(&b)));
    pr_buf_free(&b);
    return v;
}

static void set_pct(json_t *v, const char *key, double x, int decimals)
{
    pr_buf b = PR_BUF_INIT;
    md_number(&b, x, decimals);
    json_object_set_new(v, key, json_string(pr_buf_cstr(&b)));
    pr_buf_free(&b);
}

/* What the rules find at point i of pts[0..n): the rules that flag it
 * (SN_*) and the points it was set against.  The one place the series
 * rules decide; sanity_point_flags and sanity_check_series read it. */
typedef struct {
    unsigned flags;
    const sanity_point *base, *prev;
} scan;

/* 1 when a and b may be compared: of one run set, or of sets not known. */
static int same_set(const sanity_point *a, const sanity_point *b)
{
    return !a->set || !b->set || a->set == b->set;
}

static scan scan_point(const sanity_point *pts, size_t n, size_t i)
{
    scan s = {0, NULL, NULL};
    const sanity_point *q = &pts[i];
    for (size_t j = 0; j < n && !s.base; j++)
        if (pts[j].has && pts[j].gpus == 1 && pts[j].nodes == 1 && same_set(&pts[j], q))
            s.base = &pts[j];
    /* A time is no throughput: "less with more devices" is what it should
     * do, and its counts usually differ in global batch (fw_tables.h). */
    if (!q->has || q->lower)
        return s;
    double qlo, qhi, blo, bhi;
    pr_stats_printed_interval(q->value, q->decimals, &qlo, &qhi);
    /* Against the 1-device figure: the least efficiency the rounding
     * allows is still above 100 % + tolerance. */
    if (s.base && q->gpus > 1) {
        pr_stats_printed_interval(s.base->value, s.base->decimals, &blo, &bhi);
        if (bhi > 0 && qlo / (bhi * q->gpus) > 1 + SN_EFF_TOL)
            s.flags |= SN_SUPERLINEAR;
    }
    /* Against the previous device count (the last row with fewer). */
    for (size_t j = 0; j < i; j++)
        if (pts[j].has && pts[j].gpus < q->gpus && same_set(&pts[j], q))
            s.prev = &pts[j];
    if (!s.prev)
        return s;
    double plo, phi;
    pr_stats_printed_interval(s.prev->value, s.prev->decimals, &plo, &phi);
    if (qhi < plo)
        s.flags |= SN_FALLS;
    else if (!(s.flags & SN_SUPERLINEAR) && s.prev != s.base && phi > 0 &&
             (qlo / q->gpus) / (phi / s.prev->gpus) > 1 + SN_JUMP_TOL)
        s.flags |= SN_JUMP;
    return s;
}

unsigned sanity_point_flags(const sanity_point *pts, size_t n, size_t i)
{
    return scan_point(pts, n, i).flags;
}

size_t sanity_check_series(const lang *l, const pr_platform *p, const sanity_point *pts, size_t n,
                           pr_buf *marks, sanity_notes *nt, pr_err *err)
{
    size_t flags = 0;
    for (size_t i = 0; i < n; i++)
        flags += sanity_point_notes(l, p, pts, n, i, marks ? &marks[i] : NULL, nt, err);
    return flags;
}

size_t sanity_point_notes(const lang *l, const pr_platform *p, const sanity_point *pts, size_t n,
                          size_t i, pr_buf *mark, sanity_notes *nt, pr_err *err)
{
    scan s = scan_point(pts, n, i);
    const sanity_point *q = &pts[i], *base = s.base, *prev = s.prev;
    size_t flags = 0;
    if (s.flags & SN_SUPERLINEAR) {
        json_t *v = point_view(l, p, q, "", json_object(), err);
        set_pct(v, "eff", 100.0 * q->value / base->value / q->gpus, 1);
        set_pct(v, "tol", 100.0 * SN_EFF_TOL, 0);
        flag(l, "sanity_superlinear", v, mark, nt, err);
        json_decref(v);
        flags++;
    }
    if (s.flags & SN_FALLS) {
        json_t *v = point_view(l, p, q, "", json_object(), err);
        point_view(l, p, prev, "ref_", v, err);
        flag(l, "sanity_falls", v, mark, nt, err);
        json_decref(v);
        flags++;
    }
    if (s.flags & SN_JUMP) {
        json_t *v = point_view(l, p, q, "", json_object(), err);
        point_view(l, p, prev, "ref_", v, err);
        set_pct(v, "ratio", (q->value / q->gpus) / (prev->value / prev->gpus), 2);
        set_pct(v, "tol", 100.0 * SN_JUMP_TOL, 0);
        if (base) {
            set_pct(v, "eff", 100.0 * q->value / base->value / q->gpus, 1);
            set_pct(v, "ref_eff", 100.0 * prev->value / base->value / prev->gpus, 1);
        }
        flag(l, "sanity_jump", v, mark, nt, err);
        json_decref(v);
        flags++;
    }
    return flags;
}

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int sanity_identical(const pr_pub_table *a, const pr_pub_table *b)
{
    if (a == b || a->nrows != b->nrows || a->platform != b->platform ||
        strcmp(a->model, b->model) != 0 || strcmp(a->framework, b->framework) != 0 ||
        !same_text(a->label, b->label) || !same_text(a->variant.en, b->variant.en) ||
        (strcmp(a->precision, b->precision) == 0 && a->batch_size == b->batch_size &&
         same_text(a->batch_label, b->batch_label)))
        return 0;
    size_t figures = 0;
    for (size_t i = 0; i < a->nrows; i++) {
        const pr_pub_row *x = &a->rows[i], *y = NULL;
        for (size_t j = 0; j < b->nrows && !y; j++)
            if (b->rows[j].nodes == x->nodes && b->rows[j].gpus == x->gpus)
                y = &b->rows[j];
        if (!y || x->has_value != y->has_value)
            return 0;
        if (!x->has_value)
            continue;
        /* The same printed text where both say it, else the same number. */
        if (x->printed && y->printed ? strcmp(x->printed, y->printed) != 0 : x->value != y->value)
            return 0;
        figures++;
    }
    return figures >= 2;
}

const pr_pub_table *sanity_identical_in(const pr_pub_table *t, const pr_pub_table *const *tabs,
                                        size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tabs[i] != t && sanity_identical(t, tabs[i]))
            return tabs[i];
    return NULL;
}

void sanity_identical_note(const lang *l, const pr_pub_table *other, pr_buf *mark, sanity_notes *nt,
                           pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    for (const char *p = other->precision; *p; p++)
        pr_buf_putc(&b, (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p));
    if (other->batch_label)
        pr_buf_printf(&b, " BS=%s", other->batch_label);
    else if (other->batch_size > 0)
        pr_buf_printf(&b, " BS=%d", other->batch_size);
    json_t *v = json_pack("{s:s,s:s}", "other", pr_buf_cstr(&b), "label", other->label);
    flag(l, "sanity_identical", v, mark, nt, err);
    json_decref(v);
    pr_buf_free(&b);
}

void sanity_identical_logs_note(const lang *l, const char *first, const char *second,
                                const char *logs, sanity_notes *nt, pr_err *err)
{
    json_t *v = json_pack("{s:s,s:s,s:s}", "first", first, "second", second, "logs", logs);
    flag(l, "sanity_identical_logs", v, NULL, nt, err);
    json_decref(v);
}

void sanity_other_base_note(const lang *l, const pr_platform *p, int nodes, int gpus,
                            const char *src, const char *base_src, pr_buf *mark, sanity_notes *nt,
                            pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    platform_count_label(l, p, nodes, gpus, &b, err);
    json_t *v =
        json_pack("{s:s,s:s,s:s}", "count", pr_buf_cstr(&b), "src", src, "base_src", base_src);
    flag(l, "sanity_other_base", v, mark, nt, err);
    json_decref(v);
    pr_buf_free(&b);
}

void sanity_other_runset_note(const lang *l, const pr_platform *p, int nodes, int gpus,
                              const char *set, const char *base_set, const json_t *diffs,
                              pr_buf *mark, sanity_notes *nt, pr_err *err)
{
    sanity_diff_note(l, p, nodes, gpus, set, base_set, diffs, 0, mark, nt, err);
}

void sanity_diff_note(const lang *l, const pr_platform *p, int nodes, int gpus, const char *set,
                      const char *base_set, const json_t *diffs, int other_rule, pr_buf *mark,
                      sanity_notes *nt, pr_err *err)
{
    pr_buf b = PR_BUF_INIT, what = PR_BUF_INIT;
    platform_count_label(l, p, nodes, gpus, &b, err);
    size_t i;
    json_t *d;
    json_array_foreach(diffs, i, d)
    {
        char key[32];
        snprintf(key, sizeof key, "rs_what_%s", pr_jdoc_json_str(d, "what"));
        if (i)
            pr_buf_puts(&what, lang_str(l, "list_sep"));
        json_t *v =
            json_pack("{s:s,s:s}", "a", pr_jdoc_json_str(d, "a"), "b", pr_jdoc_json_str(d, "b"));
        if (pr_jdoc_json_str(d, "kind")) {
            char label[40];
            snprintf(label, sizeof label, "env_%s", pr_jdoc_json_str(d, "kind"));
            json_object_set_new(v, "label", json_string(lang_str(l, label)));
        }
        lang_fmt(l, key, v, &what, err);
        json_decref(v);
    }
    json_t *v = json_pack("{s:s,s:s,s:s,s:s}", "count", pr_buf_cstr(&b), "set", set, "base_set",
                          base_set, "diffs", pr_buf_cstr(&what));
    const char *key = other_rule && strcmp(set, base_set) == 0 ? "sanity_other_rule"
                      : other_rule                             ? "sanity_other_rule_runset"
                      : json_array_size(diffs)                 ? "sanity_other_runset"
                                                               : "sanity_other_runset_same";
    flag(l, key, v, mark, nt, err);
    json_decref(v);
    pr_buf_free(&b);
    pr_buf_free(&what);
}

void sanity_few_records_note(const lang *l, const pr_platform *p, int nodes, int gpus,
                             long long records, pr_buf *mark, sanity_notes *nt, pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    platform_count_label(l, p, nodes, gpus, &b, err);
    json_t *v = json_pack("{s:s,s:I,s:i}", "count", pr_buf_cstr(&b), "records", (json_int_t)records,
                          "min", SN_FEW_RECORDS);
    flag(l, "sanity_few_records", v, mark, nt, err);
    json_decref(v);
    pr_buf_free(&b);
}

size_t sanity_unsteady_count(const pr_record *const *recs, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += !recs[i]->failed && pr_steady_verdict_of(recs[i]->steady) == PR_STEADY_UNSTEADY;
    return k;
}

void sanity_unsteady_note(const lang *l, const pr_platform *p, int nodes, int gpus,
                          const pr_record *const *recs, size_t n, pr_buf *mark, sanity_notes *nt,
                          pr_err *err)
{
    pr_buf b = PR_BUF_INIT, details = PR_BUF_INIT, num = PR_BUF_INIT;
    platform_count_label(l, p, nodes, gpus, &b, err);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *st = recs[i]->steady;
        if (recs[i]->failed || pr_steady_verdict_of(st) != PR_STEADY_UNSTEADY)
            continue;
        if (k++)
            pr_buf_puts(&details, lang_str(l, "list_sep"));
        pr_buf_clear(&num);
        md_number(&num, json_number_value(json_object_get(st, "cv")) * 100, PR_DECIMALS_PERCENT);
        char run[24];
        snprintf(run, sizeof run, "r%d", recs[i]->repeat);
        /* Copies of the record's numbers, not references: a record is read
         * by the pages of two threads at once (its model page and its
         * framework page), and a reference count is written (make tsan). */
        json_t *v = json_pack("{s:s,s:s,s:o,s:o,s:o}", "run", run, "cv", pr_buf_cstr(&num), "first",
                              json_copy(json_object_get(st, "first")), "last",
                              json_copy(json_object_get(st, "last")), "steps",
                              json_copy(json_object_get(st, "steps")));
        json_t *step = json_object_get(st, "regime_step");
        if (step)
            json_object_set_new(v, "step", json_copy(step));
        lang_fmt(l, "sanity_unsteady_run", v, &details, err);
        json_decref(v);
    }
    json_t *v = json_pack("{s:s,s:s,s:b,s:I}", "count", pr_buf_cstr(&b), "details",
                          pr_buf_cstr(&details), "many", k > 1, "n", (json_int_t)k);
    flag(l, "sanity_unsteady", v, mark, nt, err);
    json_decref(v);
    pr_buf_free(&b);
    pr_buf_free(&details);
    pr_buf_free(&num);
}
