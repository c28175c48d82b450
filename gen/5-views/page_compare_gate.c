/* page_compare_gate: what a comparison page, its JSON and its CSV say of
 * a cell the gate stopped (page_compare_gate.h). */
#include "page_compare_gate.h"

#include <string.h>

#include "3-tables/view.h"
#include "base/md.h"
#include "stats.h"

/* "r2", or "RUNSET r2" where side s pools several run sets. */
static void run_name(const abmodel_side *s, const abmodel_unsteady *u, pr_buf *out)
{
    if (s->nruns > 1)
        pr_buf_printf(out, "%s ", u->run->name);
    pr_buf_printf(out, "r%d", u->rec->repeat);
}

/* Why side's (A or B) unsteady runs of h are unsteady, one clause. */
static void unsteady_clause(const lang *l, const abmodel_side *s, const abmodel_half *h,
                            const char *side, pr_buf *out, pr_err *err)
{
    pr_buf names = PR_BUF_INIT, details = PR_BUF_INIT, num = PR_BUF_INIT;
    for (size_t i = 0; i < h->nunsteady; i++) {
        const abmodel_unsteady *u = &h->unsteady[i];
        const json_t *st = u->rec->steady;
        if (i) {
            pr_buf_puts(&names, ", ");
            pr_buf_puts(&details, lang_str(l, "list_sep"));
        }
        run_name(s, u, &names);
        pr_buf_clear(&num);
        run_name(s, u, &num);
        json_t *v = json_pack("{s:s}", "run", pr_buf_cstr(&num));
        json_t *step = json_object_get(st, "regime_step");
        pr_buf_clear(&num);
        md_number(&num, json_number_value(json_object_get(st, "cv")) * 100, PR_DECIMALS_PERCENT);
        json_object_set_new(v, "cv", json_string(pr_buf_cstr(&num)));
        if (step)
            json_object_set_new(v, "step", json_integer(json_integer_value(step)));
        lang_fmt(l, step ? "ab_gate_run_regime" : "ab_gate_run_cv", v, &details, err);
        json_decref(v);
    }
    json_t *v = json_pack("{s:s,s:s,s:s,s:b}", "runs", pr_buf_cstr(&names), "side", side, "details",
                          pr_buf_cstr(&details), "many", h->nunsteady > 1);
    lang_fmt(l, "ab_gate_unsteady", v, out, err);
    json_decref(v);
    pr_buf_free(&names);
    pr_buf_free(&details);
    pr_buf_free(&num);
}

/* The gate's words for cell x of c: "not judged: runs r2, r3 of B
 * unsteady (r2: CV 26.7 %; r3: regime change at step 7)". */
void page_compare_gate_words(const lang *l, const abmodel_cmp *c, const abmodel_cell *x,
                             pr_buf *out, pr_err *err)
{
    pr_buf why = PR_BUF_INIT;
    if (x->gate & ABM_GATE_RANGE) {
        json_t *none = json_object();
        lang_fmt(l, "ab_gate_range", none, &why, err);
        json_decref(none);
    }
    for (int side = 0; side < 2; side++) {
        const abmodel_half *h = side ? &x->b : &x->a;
        if (!(x->gate & ABM_GATE_UNSTEADY) || !h->nunsteady)
            continue;
        if (why.len)
            pr_buf_puts(&why, lang_str(l, "list_sep"));
        unsteady_clause(l, side ? &c->b : &c->a, h, side ? "B" : "A", &why, err);
    }
    if (x->gate & ABM_GATE_IMPLAUSIBLE) {
        pr_buf r = PR_BUF_INIT, m = PR_BUF_INIT;
        md_number(&r, x->r.ratio, PC_RATIO_DECIMALS);
        md_number(&m, c->max_effect, pr_stats_shortest_decimals(c->max_effect));
        json_t *v = json_pack("{s:s,s:s}", "ratio", pr_buf_cstr(&r), "max", pr_buf_cstr(&m));
        if (why.len)
            pr_buf_puts(&why, lang_str(l, "list_sep"));
        lang_fmt(l, "ab_gate_implausible", v, &why, err);
        json_decref(v);
        pr_buf_free(&r);
        pr_buf_free(&m);
    }
    json_t *v = json_pack("{s:s}", "why", pr_buf_cstr(&why));
    lang_fmt(l, "ab_not_judged", v, out, err);
    json_decref(v);
    pr_buf_free(&why);
}

/* The gate's bits as keys, ";"-joined, in this order: "" when judged. */
void page_compare_gate_keys(unsigned gate, pr_buf *out)
{
    static const struct {
        unsigned bit;
        const char *key;
    } keys[] = {{ABM_GATE_UNSTEADY, "unsteady"},
                {ABM_GATE_IMPLAUSIBLE, "implausible"},
                {ABM_GATE_RANGE, "out_of_range"}};
    const char *sep = "";
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        if (gate & keys[k].bit) {
            pr_buf_printf(out, "%s%s", sep, keys[k].key);
            sep = ";";
        }
}

/* null when judged, else {"why": [keys], "unsteady": [{side, run_set,
 * case, repeat, steady}], "max_effect"}. */
json_t *page_compare_gate_json(const abmodel_cmp *c, const abmodel_cell *x)
{
    if (!x->gate)
        return json_null();
    pr_buf k = PR_BUF_INIT;
    page_compare_gate_keys(x->gate, &k);
    json_t *o = json_object(), *why = json_array(), *runs = json_array();
    for (char *p = strtok(k.data, ";"); p; p = strtok(NULL, ";"))
        json_array_append_new(why, json_string(p));
    pr_buf_free(&k);
    for (int side = 0; side < 2; side++) {
        const abmodel_half *h = side ? &x->b : &x->a;
        for (size_t i = 0; i < h->nunsteady; i++) {
            const pr_record *r = h->unsteady[i].rec;
            json_array_append_new(runs, json_pack("{s:s,s:s,s:s,s:i,s:O}", "side", side ? "b" : "a",
                                                  "run_set", h->unsteady[i].run->name, "case",
                                                  r->case_name, "repeat", r->repeat, "steady",
                                                  r->steady));
        }
    }
    json_object_set_new(o, "why", why);
    json_object_set_new(o, "unsteady", runs);
    json_object_set_new(o, "max_effect",
                        c->max_effect > 0 ? json_real(c->max_effect) : json_null());
    return o;
}
