/* suite_matrix: the matrix of a suite expanded into its cases (excluded points, limits). */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

#include "jdoc.h"
#include "record.h"
#include "suite_int.h"

static const char *const matrix_keys[] = {"nodes",   "gpus_per_node", "batch_size", "precision",
                                          "repeats", "include",       "exclude",    NULL};

static const char *const point_keys[] = {"nodes", "gpus_per_node", "batch_size", "precision", NULL};

/* Reads an array of positive ints into a malloc'd array. */
static int int_list(const pr_jdoc_jcur *m, const char *key, int max, int **out, size_t *n,
                    pr_err *err)
{
    pr_jdoc_jcur a;
    if (pr_jdoc_jarr(m, key, 1, 1, &a, err) < 0)
        return -1;
    *n = json_array_size(a.v);
    *out = pr_xmalloc(*n * sizeof **out);
    for (size_t i = 0; i < *n; i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&a, i);
        if (!json_is_integer(it.v) || json_integer_value(it.v) < 1 ||
            json_integer_value(it.v) > max)
            return pr_jdoc_jfail(&it, err, "expected an integer from 1 to %d", max);
        for (size_t j = 0; j < i; j++)
            if ((*out)[j] == (int)json_integer_value(it.v))
                return pr_jdoc_jfail(&it, err, "duplicate value %d", (*out)[j]);
        (*out)[i] = (int)json_integer_value(it.v);
    }
    return 0;
}

/* A partial matrix point (include/exclude entry). -1 / NULL: not given. */
typedef struct point {
    int nodes, gpus_per_node, batch_size;
    const char *precision;
} point;

static int read_point(const pr_jdoc_jcur *c, int need_all, point *p, pr_err *err)
{
    long long v;
    p->nodes = p->gpus_per_node = p->batch_size = -1;
    p->precision = NULL;
    if (pr_jdoc_jobject(c, point_keys, err) < 0)
        return -1;
    if (json_object_size(c->v) == 0)
        return pr_jdoc_jfail(c, err, "an empty entry would match every case");
    int rc;
    if ((rc = pr_jdoc_jint(c, "nodes", need_all, 1, 65536, &v, err)) < 0)
        return -1;
    if (rc)
        p->nodes = (int)v;
    if ((rc = pr_jdoc_jint(c, "gpus_per_node", need_all, 1, 1024, &v, err)) < 0)
        return -1;
    if (rc)
        p->gpus_per_node = (int)v;
    if ((rc = pr_jdoc_jint(c, "batch_size", need_all, 1, 1 << 24, &v, err)) < 0)
        return -1;
    if (rc)
        p->batch_size = (int)v;
    if (pr_jdoc_jenum(c, "precision", need_all, pr_precisions, &p->precision, err) < 0)
        return -1;
    return 0;
}

static int point_matches(const point *p, int nodes, int gpn, int bs, const char *prec)
{
    return (p->nodes < 0 || p->nodes == nodes) &&
           (p->gpus_per_node < 0 || p->gpus_per_node == gpn) &&
           (p->batch_size < 0 || p->batch_size == bs) &&
           (!p->precision || strcmp(p->precision, prec) == 0);
}

static int add_case(pr_suite *s, size_t *cap, int nodes, int gpn, int bs, const char *prec,
                    int repeat, const pr_jdoc_jcur *where, pr_err *err)
{
    for (size_t i = 0; i < s->ncases; i++) {
        pr_suite_case *o = &s->cases[i];
        if (o->nodes == nodes && o->gpus_per_node == gpn && o->batch_size == bs &&
            strcmp(o->precision, prec) == 0 && o->repeat == repeat)
            return pr_jdoc_jfail(where, err,
                                 "duplicate case (nodes %d, gpus_per_node %d, batch_size "
                                 "%d, precision %s)",
                                 nodes, gpn, bs, prec);
    }
    if (s->ncases >= PR_SUITE_MAX_CASES)
        return pr_jdoc_jfail(where, err, "more than %d cases (matrix and include)",
                             PR_SUITE_MAX_CASES);
    if (s->ncases == *cap)
        s->cases = pr_xrealloc(s->cases, (*cap = *cap ? *cap * 2 : 16) * sizeof *s->cases);
    pr_suite_case *c = &s->cases[s->ncases++];
    memset(c, 0, sizeof *c);
    c->nodes = nodes;
    c->gpus_per_node = gpn;
    c->gpus = nodes * gpn;
    c->batch_size = bs;
    for (const char *const *p = pr_precisions; *p; p++)
        if (strcmp(*p, prec) == 0)
            c->precision = *p;
    c->repeat = repeat;
    /* Name it. */
    pr_buf st = PR_BUF_INIT, name = PR_BUF_INIT;
    size_t nv;
    pr_suite_var *vars = pr_suite_case_vars(s, c, &st, &nv);
    int rc = pr_suite_template_expand(s->case_name, vars, nv, NULL, 0, &name, err);
    if (rc == 0 && repeat > 1)
        pr_buf_printf(&name, "_r%d", repeat);
    free(vars);
    pr_buf_free(&st);
    if (rc < 0) {
        pr_buf_free(&name);
        return pr_jdoc_jfail(where, err, "case_name: %s", err->msg);
    }
    char why[160];
    const char *bad = pr_suite_name_unsafe_why(pr_buf_cstr(&name), why, sizeof why);
    if (bad) {
        /* The name is a file name (the log, the record) and a page's anchor. */
        pr_jdoc_jfail(where, err,
                      "case name \"%s\" (from case_name \"%s\") is not a safe file "
                      "name: %s",
                      pr_buf_cstr(&name), s->case_name, bad);
        pr_buf_free(&name);
        return -1;
    }
    c->name = pr_buf_detach(&name);
    for (size_t i = 0; i + 1 < s->ncases; i++)
        if (strcmp(s->cases[i].name, c->name) == 0)
            return pr_jdoc_jfail(where, err, "two cases are both named \"%s\" (case_name template)",
                                 c->name);
    return 0;
}

int pr_suite_read_matrix(pr_suite *s, const pr_jdoc_jcur *root, pr_err *err)
{
    int rc = -1;
    int *nodes = NULL, *gpn = NULL, *bs = NULL;
    size_t nn, ng, nb, cap = 0;
    point *excl = NULL;
    size_t nexcl = 0;
    pr_jdoc_jcur m, prec, inc, exc;
    long long repeats = 1;
    if (pr_jdoc_jobj(root, "matrix", 1, &m, err) < 0 || pr_jdoc_jobject(&m, matrix_keys, err) < 0 ||
        int_list(&m, "nodes", 65536, &nodes, &nn, err) < 0 ||
        int_list(&m, "gpus_per_node", 1024, &gpn, &ng, err) < 0 ||
        int_list(&m, "batch_size", 1 << 24, &bs, &nb, err) < 0 ||
        pr_jdoc_jarr(&m, "precision", 1, 1, &prec, err) < 0 ||
        pr_jdoc_jint(&m, "repeats", 0, 1, 1000, &repeats, err) < 0)
        goto out;
    for (size_t i = 0; i < json_array_size(prec.v); i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&prec, i);
        if (!json_is_string(it.v) || !pr_record_str_in(json_string_value(it.v), pr_precisions)) {
            pr_jdoc_jfail(&it, err,
                          "unknown precision (expected fp32, tf32, fp16, amp, bf16 or fp8)");
            goto out;
        }
    }
    /* Hardening (fuzz_data): a 300-byte suite with forty values per list and
     * 1000 repeats expanded to 384 million cases, each checked against all
     * the others: perfrepro-gen validate never finished.  The matrix is
     * bounded before it is expanded (exclusions are not counted: the loops
     * below visit every point). */
    unsigned long long points = (unsigned long long)nn * ng * nb * json_array_size(prec.v);
    if (points > PR_SUITE_MAX_CASES || points * (unsigned long long)repeats > PR_SUITE_MAX_CASES) {
        pr_jdoc_jfail(&m, err, "the matrix has %llu points x %lld repeats: more than %d cases",
                      points, repeats, PR_SUITE_MAX_CASES);
        goto out;
    }
    int has_exc = pr_jdoc_jarr(&m, "exclude", 0, 0, &exc, err);
    if (has_exc < 0)
        goto out;
    if (has_exc) {
        nexcl = json_array_size(exc.v);
        excl = pr_xcalloc(nexcl, sizeof *excl);
        for (size_t i = 0; i < nexcl; i++) {
            pr_jdoc_jcur it = pr_jdoc_jitem(&exc, i);
            if (read_point(&it, 0, &excl[i], err) < 0)
                goto out;
        }
    }
    for (size_t a = 0; a < nn; a++)
        for (size_t b = 0; b < ng; b++)
            for (size_t p = 0; p < json_array_size(prec.v); p++)
                for (size_t c = 0; c < nb; c++) {
                    const char *pv = json_string_value(json_array_get(prec.v, p));
                    int skip = 0;
                    for (size_t e = 0; e < nexcl && !skip; e++)
                        skip = point_matches(&excl[e], nodes[a], gpn[b], bs[c], pv);
                    for (int r = 1; !skip && r <= repeats; r++)
                        if (add_case(s, &cap, nodes[a], gpn[b], bs[c], pv, r, &m, err) < 0)
                            goto out;
                }
    int has_inc = pr_jdoc_jarr(&m, "include", 0, 0, &inc, err);
    if (has_inc < 0)
        goto out;
    for (size_t i = 0; has_inc && i < json_array_size(inc.v); i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(&inc, i);
        point p;
        if (read_point(&it, 1, &p, err) < 0)
            goto out;
        for (int r = 1; r <= repeats; r++)
            if (add_case(s, &cap, p.nodes, p.gpus_per_node, p.batch_size, p.precision, r, &it,
                         err) < 0)
                goto out;
    }
    if (s->ncases == 0) {
        pr_jdoc_jfail(&m, err, "the matrix expands to no case (everything excluded)");
        goto out;
    }
    rc = 0;
out:
    free(nodes);
    free(gpn);
    free(bs);
    free(excl);
    return rc;
}
