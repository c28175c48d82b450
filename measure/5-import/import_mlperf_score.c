/* import_mlperf_score: the score rule of MLPerf Training (see the header). */
#include "import_mlperf_score.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* The runs per benchmark are MLPerf's own table: _ALL_RESULT_FILE_COUNTS
 * in mlcommons/logging, mlperf_logging/benchmark_meta.py (training: bert
 * 10, resnet 5, llama2_70b_lora 10); training_policies, "Benchmark
 * results": the fastest and the slowest are dropped from each.  The precision is
 * "unstated": MLPerf's result logs and system descriptions state none, and
 * a guess ("amp") would compare with figures that state theirs.  One row per
 * benchmark; only the benchmarks checked against shipped results so far (a
 * new one is a row, once its count is checked against the rules). */
static const import_mlperf_score_bench rules[] = {
    {"bert", 10, 1, "MLPerf-BERT-Large", "language model", 1, "unstated"},
    {"llama2_70b_lora", 10, 1, "MLPerf-Llama2-70B-LoRA", "LLM fine-tuning", 1, "unstated"},
    {"resnet", 5, 1, "MLPerf-ResNet50", "image classification", 0, "unstated"},
};
enum { NRULES = sizeof rules / sizeof rules[0] };

const import_mlperf_score_bench *import_mlperf_score_rule(const char *benchmark)
{
    for (size_t i = 0; i < NRULES; i++)
        if (!strcmp(rules[i].benchmark, benchmark))
            return &rules[i];
    return NULL;
}

/* The benchmarks of the table, comma-separated (a new string, freed by the
 * caller). */
static char *known_benchmarks(void)
{
    pr_buf b = PR_BUF_INIT;
    for (size_t i = 0; i < NRULES; i++) {
        if (i)
            pr_buf_puts(&b, ", ");
        pr_buf_puts(&b, rules[i].benchmark);
    }
    return pr_buf_detach(&b);
}

/* Sorts fastest first; a run that did not converge after every one that
 * did (it counts as the slowest). */
static int by_time(const void *a, const void *b)
{
    const import_mlperf_score_mlperf_run *x = a, *y = b;
    if (x->converged != y->converged)
        return x->converged ? -1 : 1;
    return (x->minutes > y->minutes) - (x->minutes < y->minutes);
}

int import_mlperf_score_compute(const char *where, const char *benchmark,
                                const import_mlperf_score_mlperf_run *runs, size_t n, double factor,
                                import_mlperf_score *out, pr_err *err)
{
    int rc = -1;
    import_mlperf_score_mlperf_run *sorted = NULL;
    const import_mlperf_score_bench *rule = import_mlperf_score_rule(benchmark);
    if (!rule) {
        char *known = known_benchmarks();
        pr_err_set(err, where, 0, 0, "benchmark",
                   "\"%s\" is no MLPerf Training benchmark with a score rule here (%s)", benchmark,
                   known);
        free(known);
        goto out;
    }
    if (n != rule->runs) {
        pr_err_set(err, where, 0, 0, "result_*.txt",
                   "%zu runs of %s; MLPerf's rule scores %zu (the olympic mean drops %zu from "
                   "each end)",
                   n, benchmark, rule->runs, rule->drop_each_end);
        goto out;
    }
    if (!(factor > 0) || !isfinite(factor)) {
        pr_err_set(err, where, 0, 0, "scaling_factor", "%g is no factor (above 0)", factor);
        goto out;
    }
    sorted = pr_xmalloc(n * sizeof *sorted);
    memcpy(sorted, runs, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_time);
    size_t failed = 0;
    for (size_t i = 0; i < n; i++)
        failed += !sorted[i].converged;
    if (failed > rule->drop_each_end) {
        pr_err_set(err, where, 0, 0, "status",
                   "%zu of %zu runs of %s did not converge; MLPerf's rule drops at most %zu "
                   "(as the slowest): no score",
                   failed, n, benchmark, rule->drop_each_end);
        goto out;
    }
    /* Summed fastest first, as the summarizer's sum() over the sorted list. */
    double sum = 0;
    size_t used = n - 2 * rule->drop_each_end;
    for (size_t i = rule->drop_each_end; i < n - rule->drop_each_end; i++)
        sum += sorted[i].minutes;
    out->unscaled = sum / (double)used;
    out->factor = factor;
    out->score = out->unscaled * factor;
    out->used = used;
    out->not_converged = failed;
    rc = 0;
out:
    free(sorted);
    return rc;
}
