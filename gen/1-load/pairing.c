#include "pairing.h"

#include <string.h>

#include "jdoc.h"

int pairing_pub_row_log(const pr_record *r, const pr_platform *rp, const pr_pub_table *t,
                        const pr_pub_row *row, int any_bs)
{
    const char *repo = pr_jdoc_json_str(r->source, "repo");
    return repo && t->source_repo && strcmp(repo, t->source_repo) == 0 && t->platform &&
           rp == t->platform && !t->batch_label && (any_bs || r->batch_size == t->batch_size) &&
           strcmp(r->model, t->model) == 0 && strcmp(r->framework, t->framework) == 0 &&
           r->gpu_num == row->gpus && r->nodes == row->nodes;
}

/* 1 when an imported record of t's source is the case of its row in
 * precision mode `mode`. */
static int has_log(const pr_dataset *d, const pr_pub_table *t, const pr_pub_row *row,
                   const char *mode)
{
    for (size_t i = 0; i < d->nruns; i++)
        for (size_t j = 0; j < d->runs[i].nrecords; j++) {
            const pr_record *r = &d->runs[i].records[j];
            if (strcmp(r->precision, mode) == 0 &&
                pairing_pub_row_log(r, data_record_platform(d, &d->runs[i], r), t, row, 0))
                return 1;
        }
    return 0;
}

static size_t covered(const pr_dataset *d, const pr_pub_table *t, const char *mode)
{
    size_t n = 0;
    for (size_t k = 0; k < t->nrows; k++)
        n += has_log(d, t, &t->rows[k], mode);
    return n;
}

static void pair_one(const pr_dataset *d, pr_pub_table *t)
{
    t->paired_precision = NULL;
    const pr_prec_class *k = decl_class_of(&d->decls, t->precision);
    if (!k || !t->source_repo || !t->platform || t->batch_label)
        return;
    size_t best = covered(d, t, t->precision);
    for (size_t m = 0; k->modes[m]; m++) {
        if (strcmp(k->modes[m], t->precision) == 0)
            continue;
        size_t n = covered(d, t, k->modes[m]);
        if (n > best) {
            best = n;
            t->paired_precision = k->modes[m];
        }
    }
}

void pairing_tables(pr_dataset *d)
{
    /* Restated tables (a report's comparison table) appear on no page:
     * the audit pairs their rows one by one, so that a comparison table
     * that itself stacks two levels in a column shows it. */
    for (size_t i = 0; i < d->npubs; i++)
        pair_one(d, &d->pubs[i]);
}

const char *pairing_pub_mode(const pr_pub_table *t)
{
    return t->paired_precision ? t->paired_precision : t->precision;
}
