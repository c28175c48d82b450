#include "history_decl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"
#include "jdoc.h"
#include "record.h"

static const char *const root_keys[] = {"perfrepro", "pins", "vetoes", NULL};
static const char *const mark_keys[] = {"model",      "framework", "platform", "precision",
                                        "batch_size", "nodes",     "gpus",     "source",
                                        "date",       "note",      NULL};

/* 1 when s is a calendar date YYYY-MM-DD (leap years counted). */
static int valid_date(const char *s)
{
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return 0;
    int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1 || d > days[m - 1])
        return 0;
    return !(m == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400)));
}

/* Reads the mark at cursor it into m (zeroed by the caller). */
static int read_mark(const pr_jdoc_jcur *it, const pr_platforms *ps, history_decl_mark *m,
                     pr_err *err)
{
    const char *model, *fw, *plat, *prec, *source = NULL, *date;
    long long bs, nodes, gpus;
    if (pr_jdoc_jobject(it, mark_keys, err) < 0 || pr_jdoc_jstr(it, "model", 1, &model, err) < 0 ||
        pr_jdoc_jstr(it, "framework", 1, &fw, err) < 0 ||
        pr_jdoc_jstr(it, "platform", 1, &plat, err) < 0 ||
        pr_jdoc_jenum(it, "precision", 1, pr_precisions, &prec, err) < 0 ||
        pr_jdoc_jint(it, "batch_size", 1, 1, 1 << 24, &bs, err) < 0 ||
        pr_jdoc_jint(it, "nodes", 1, 1, 1 << 16, &nodes, err) < 0 ||
        pr_jdoc_jint(it, "gpus", 1, 1, 1 << 20, &gpus, err) < 0 ||
        pr_jdoc_jstr(it, "source", 0, &source, err) < 0 ||
        pr_jdoc_jstr(it, "date", 1, &date, err) < 0 ||
        pr_bitext_jbitext(it, "note", 1, &m->note, err) < 0)
        return -1;
    pr_jdoc_jcur at = pr_jdoc_jchild(it, "platform");
    if (!(m->platform = platform_find(ps, plat)))
        return pr_jdoc_jfail(&at, err, "unknown platform \"%s\" (no data/platforms/%s.json)", plat,
                             plat);
    at = pr_jdoc_jchild(it, "date");
    if (!valid_date(date))
        return pr_jdoc_jfail(&at, err, "\"%s\" is not a date YYYY-MM-DD", date);
    if (gpus < nodes) {
        pr_jdoc_jcur g = pr_jdoc_jchild(it, "gpus");
        return pr_jdoc_jfail(&g, err, "%lld GPUs on %lld nodes", gpus, nodes);
    }
    m->model = pr_xstrdup(model);
    m->framework = pr_xstrdup(fw);
    m->precision = pr_xstrdup(prec);
    m->source = source ? pr_xstrdup(source) : NULL;
    m->bs = (int)bs;
    m->nodes = (int)nodes;
    m->gpus = (int)gpus;
    snprintf(m->date, sizeof m->date, "%s", date);
    return 0;
}

/* The step m names, as one string: its series' keys and its date. */
static char *step_key(const history_decl_mark *m)
{
    return pr_xasprintf("%s\x1f%s\x1f%s\x1f%s\x1f%d\x1f%d\x1f%d\x1f%s\x1f%s", m->model,
                        m->framework, m->platform->id, m->precision, m->bs, m->nodes, m->gpus,
                        m->source ? m->source : "\x1e", m->date);
}

static unsigned long long fnv1a(const char *s)
{
    unsigned long long h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* A set of step keys (open addressing, linear probing) whose slots hold the
 * index of the mark that named the step first: the duplicate check is one
 * probe per mark, not a scan of the marks before it (2·10^4 pins took 69 s). */
typedef struct {
    char **keys;
    size_t *mark;
    size_t cap;
} step_set;

/* Inserts key (taken) for mark i; returns the index of an earlier mark of the
 * same step (key then freed), or (size_t)-1. */
static size_t step_set_add(step_set *t, char *key, size_t i)
{
    size_t at = (size_t)(fnv1a(key) & (t->cap - 1));
    while (t->keys[at]) {
        if (!strcmp(t->keys[at], key)) {
            free(key);
            return t->mark[at];
        }
        at = (at + 1) & (t->cap - 1);
    }
    t->keys[at] = key;
    t->mark[at] = i;
    return (size_t)-1;
}

/* The lists of the root in the order the file gives them: first[0] is the
 * one whose text comes first. */
static void lists_in_file_order(const pr_jdoc_jcur *root, const char *const lists[2], int first[2])
{
    pr_jdoc_jcur a = pr_jdoc_jchild(root, lists[0]), b = pr_jdoc_jchild(root, lists[1]);
    int la = 0, ca = 0, lb = 0, cb = 0;
    if (a.v && b.v) {
        pr_jdoc_jpos(&a, &la, &ca);
        pr_jdoc_jpos(&b, &lb, &cb);
    }
    int swap = a.v && b.v && (lb < la || (lb == la && cb < ca));
    first[0] = swap;
    first[1] = !swap;
}

static const char *const lists[] = {"pins", "vetoes"};

int history_decl_load(history_decl_decls *h, const pr_platforms *ps, const char *path, pr_err *err)
{
    memset(h, 0, sizeof *h);
    if (!path)
        return 0;
    pr_jdoc *doc = NULL;
    int rc = -1;
    long long v;
    step_set seen = {0};
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    h->doc = doc;
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    if (pr_jdoc_jobject(&root, root_keys, err) < 0 || pr_record_text_check(&root, err) < 0 ||
        pr_jdoc_jint(&root, "perfrepro", 1, 1, 1, &v, err) < 0)
        goto out;
    /* The lists in file order, each in its order: the first error in the
     * file is the one reported. */
    int order[2];
    lists_in_file_order(&root, lists, order);
    size_t total = 0;
    for (int k = 0; k < 2; k++) {
        pr_jdoc_jcur list = pr_jdoc_jchild(&root, lists[k]);
        total += json_is_array(list.v) ? json_array_size(list.v) : 0;
    }
    for (seen.cap = 16; seen.cap < 2 * total; seen.cap *= 2)
        ;
    seen.keys = pr_xcalloc(seen.cap, sizeof *seen.keys);
    seen.mark = pr_xcalloc(seen.cap, sizeof *seen.mark);
    h->marks = pr_xcalloc(total + 1, sizeof *h->marks);
    for (int o = 0; o < 2; o++) {
        int k = order[o];
        pr_jdoc_jcur list;
        int has = pr_jdoc_jarr(&root, lists[k], 0, 0, &list, err);
        if (has < 0)
            goto out;
        size_t n = has ? json_array_size(list.v) : 0;
        for (size_t i = 0; i < n; i++) {
            pr_jdoc_jcur it = pr_jdoc_jitem(&list, i);
            history_decl_mark *m = &h->marks[h->nmarks];
            memset(m, 0, sizeof *m);
            m->veto = k;
            m->index = i;
            h->nmarks++;
            if (read_mark(&it, ps, m, err) < 0)
                goto out;
            size_t first = step_set_add(&seen, step_key(m), h->nmarks - 1);
            if (first != (size_t)-1) {
                /* (both name the step by its date) */
                char *w = history_decl_where(h, &h->marks[first]);
                pr_jdoc_jfail(&it, err, "the same step as %s", w);
                free(w);
                goto out;
            }
        }
    }
    rc = 0;
out:
    for (size_t i = 0; i < seen.cap; i++)
        free(seen.keys[i]);
    free(seen.keys);
    free(seen.mark);
    if (rc < 0)
        history_decl_free(h);
    return rc;
}

char *history_decl_where(const history_decl_decls *h, const history_decl_mark *m)
{
    pr_jdoc_jcur root = pr_jdoc_root(h->doc);
    pr_jdoc_jcur list = pr_jdoc_jchild(&root, lists[m->veto]);
    pr_jdoc_jcur it = pr_jdoc_jitem(&list, m->index);
    pr_jdoc_jcur at = pr_jdoc_jchild(&it, "date");
    int line, col;
    pr_jdoc_jpos(&at, &line, &col);
    pr_buf w = PR_BUF_INIT, path = PR_BUF_INIT;
    pr_jdoc_jpath(&at, &path);
    const char *pp = pr_buf_cstr(&path);
    pr_buf_printf(&w, "%s:%d:%d: %s", pr_jdoc_name(h->doc), line, col, pp + (*pp == '.'));
    pr_buf_free(&path);
    return pr_buf_detach(&w);
}

void history_decl_free(history_decl_decls *h)
{
    for (size_t i = 0; i < h->nmarks; i++) {
        history_decl_mark *m = &h->marks[i];
        free(m->model);
        free(m->framework);
        free(m->precision);
        free(m->source);
        pr_bitext_free(&m->note);
    }
    free(h->marks);
    pr_jdoc_free(h->doc);
    memset(h, 0, sizeof *h);
}
