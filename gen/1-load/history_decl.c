#include "history_decl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"
#include "jdoc.h"
#include "record.h"

static const char *const root_keys[] = {"perfrepro", "pins", "vetoes", NULL};
static const char *const mark_keys[] = {"model", "framework", "platform", "precision",
                                        "batch_size", "nodes", "gpus", "source",
                                        "date", "note", NULL};

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
static int read_mark(const pr_jcur *it, const pr_platforms *ps, hd_mark *m, pr_err *err)
{
    const char *model, *fw, *plat, *prec, *source = NULL, *date;
    long long bs, nodes, gpus;
    if (pr_jobject(it, mark_keys, err) < 0 || pr_jstr(it, "model", 1, &model, err) < 0 ||
        pr_jstr(it, "framework", 1, &fw, err) < 0 || pr_jstr(it, "platform", 1, &plat, err) < 0 ||
        pr_jenum(it, "precision", 1, pr_precisions, &prec, err) < 0 ||
        pr_jint(it, "batch_size", 1, 1, 1 << 24, &bs, err) < 0 ||
        pr_jint(it, "nodes", 1, 1, 1 << 16, &nodes, err) < 0 ||
        pr_jint(it, "gpus", 1, 1, 1 << 20, &gpus, err) < 0 ||
        pr_jstr(it, "source", 0, &source, err) < 0 || pr_jstr(it, "date", 1, &date, err) < 0 ||
        pr_jbitext(it, "note", 1, &m->note, err) < 0)
        return -1;
    pr_jcur at = pr_jchild(it, "platform");
    if (!(m->platform = pr_platform_find(ps, plat)))
        return pr_jfail(&at, err, "unknown platform \"%s\" (no data/platforms/%s.json)", plat,
                        plat);
    at = pr_jchild(it, "date");
    if (!valid_date(date))
        return pr_jfail(&at, err, "\"%s\" is not a date YYYY-MM-DD", date);
    if (gpus < nodes) {
        pr_jcur g = pr_jchild(it, "gpus");
        return pr_jfail(&g, err, "%lld GPUs on %lld nodes", gpus, nodes);
    }
    m->model = pr_xstrdup(model);
    m->framework = pr_xstrdup(fw);
    m->precision = pr_xstrdup(prec);
    m->source = source ? pr_xstrdup(source) : NULL;
    m->bs = (int)bs;
    m->nodes = (int)nodes;
    m->gpus = (int)gpus;
    snprintf(m->date, sizeof m->date, "%s", date);
    /* where the build's errors about the mark point: its date */
    int line, col;
    pr_jpos(&at, &line, &col);
    pr_buf w = PR_BUF_INIT, path = PR_BUF_INIT;
    pr_jpath(&at, &path);
    const char *pp = pr_buf_cstr(&path);
    pr_buf_printf(&w, "%s:%d:%d: %s", pr_jdoc_name(it->doc), line, col, pp + (*pp == '.'));
    pr_buf_free(&path);
    m->where = pr_buf_detach(&w);
    return 0;
}

/* 1 when a and b name the same step of the same series. */
static int same_step(const hd_mark *a, const hd_mark *b)
{
    return !strcmp(a->model, b->model) && !strcmp(a->framework, b->framework) &&
           a->platform == b->platform && !strcmp(a->precision, b->precision) &&
           a->bs == b->bs && a->nodes == b->nodes && a->gpus == b->gpus &&
           !strcmp(a->source ? a->source : "", b->source ? b->source : "") &&
           !strcmp(a->date, b->date);
}

int hd_load(hd_decls *h, const pr_platforms *ps, const char *path, pr_err *err)
{
    memset(h, 0, sizeof *h);
    if (!path)
        return 0;
    pr_jdoc *doc = NULL;
    int rc = -1;
    long long v;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_jcur root = pr_jdoc_root(doc);
    if (pr_jobject(&root, root_keys, err) < 0 || pr_text_check(&root, err) < 0 ||
        pr_jint(&root, "perfrepro", 1, 1, 1, &v, err) < 0)
        goto out;
    static const char *const lists[] = {"pins", "vetoes"};
    for (int k = 0; k < 2; k++) {
        pr_jcur list;
        int has = pr_jarr(&root, lists[k], 0, 0, &list, err);
        if (has < 0)
            goto out;
        size_t n = has ? json_array_size(list.v) : 0;
        h->marks = pr_xrealloc(h->marks, (h->nmarks + n + 1) * sizeof *h->marks);
        for (size_t i = 0; i < n; i++) {
            pr_jcur it = pr_jitem(&list, i);
            hd_mark *m = &h->marks[h->nmarks];
            memset(m, 0, sizeof *m);
            m->veto = k;
            h->nmarks++;
            if (read_mark(&it, ps, m, err) < 0)
                goto out;
            for (size_t j = 0; j + 1 < h->nmarks; j++)
                if (same_step(&h->marks[j], m)) {
                    pr_jfail(&it, err, "the same step as %s", h->marks[j].where);
                    /* (both name the step by its date) */
                    goto out;
                }
        }
    }
    rc = 0;
out:
    if (rc < 0)
        hd_free(h);
    pr_jdoc_free(doc);
    return rc;
}

void hd_free(hd_decls *h)
{
    for (size_t i = 0; i < h->nmarks; i++) {
        hd_mark *m = &h->marks[i];
        free(m->model);
        free(m->framework);
        free(m->precision);
        free(m->source);
        free(m->where);
        pr_bitext_free(&m->note);
    }
    free(h->marks);
    memset(h, 0, sizeof *h);
}
