/* gpuhost_table: the tables perfrepro-gpu prints (nccl-tests' layout) and their tallies. */
#include "gpuhost.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuhost_int.h"

void gpuhost_tally_init(pr_gpu_tally *t)
{
    memset(t, 0, sizeof *t);
    for (int k = 0; k < PR_GPU_NBWK; k++)
        t->last_pct[k] = -1;
}

static void fmt_wrong(long long wrong, char out[32])
{
    if (wrong < 0)
        snprintf(out, 32, "N/A");
    else
        snprintf(out, 32, "%g", (double)wrong);
}

/* A table line built in pieces, written without its trailing blanks (the
 * unit lines of nccl-tests' own table keep them: that one is copied
 * exactly). */
typedef struct line {
    char buf[1024];
    size_t len;
} line;

static void append(line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void append(line *l, const char *fmt, ...)
{
    if (l->len >= sizeof l->buf)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->buf + l->len, sizeof l->buf - l->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        l->len += (size_t)n;
}

static void put_trimmed(FILE *f, char *s)
{
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        s[--n] = '\0';
    fprintf(f, "%s\n", s);
}

/* A title line: prefix, then each title centred over a group width wide. */
static void titles(FILE *f, const char *prefix, const char *const *names, unsigned bits, int n,
                   int width)
{
    line l = {"", 0};
    append(&l, "%s", prefix);
    for (int i = 0; i < n; i++) {
        if (!(bits & (1u << i)))
            continue;
        int tl = (int)strlen(names[i]);
        int left = (width - tl + 1) / 2, right = width - tl - left;
        append(&l, "%*s%s%*s", left, "", names[i], right < 0 ? 0 : right, "");
    }
    put_trimmed(f, l.buf);
}

void gpuhost_preamble(FILE *f, const pr_gpu_args *a, int nprocs, int ngpus)
{
    fprintf(f, "# perfrepro-gpu %s: ", a->workload);
    if (a->kind == PR_GPU_COLL)
        fprintf(f, "nProcs %d nGpus %d ", nprocs, ngpus);
    else
        fprintf(f, "nGpus 1 ");
    if (a->kind == PR_GPU_GEMM) {
        pr_gpu_shape tmp[1];
        fprintf(f, "shapes %zu ", gpuhost_gemm_shapes(a, tmp, 0));
    } else {
        fprintf(f, "minBytes %zu maxBytes %zu ", a->min_bytes, a->max_bytes);
        if (a->step_factor > 1)
            fprintf(f, "step: %zu(factor) ", a->step_factor);
        else
            fprintf(f, "step: %zu(bytes) ", a->step_bytes);
    }
    fprintf(f, "warmup iters: %d iters: %d validation: %d\n", a->warmup, a->iters, a->check);
    fprintf(f, "#\n# Using devices\n");
}

void gpuhost_device_line(FILE *f, int rank, int pid, int dev, int pci_domain, int pci_bus,
                         int pci_device, const char *name)
{
    /* nccl-tests' line without the host name: logs get published. */
    fprintf(f, "#  Rank %2d Group  0 Pid %6d device %2d [%04x:%02x:%02x] %s\n", rank, pid, dev,
            pci_domain, pci_bus, pci_device, name);
}

void gpuhost_coll_header(FILE *f)
{
    fprintf(f, "#\n");
    /* nccl-tests' header, byte for byte (trailing blanks included). */
    fprintf(f,
            "# %10s  %12s  %8s  %6s  %6s           out-of-place                       "
            "in-place          \n",
            "", "", "", "", "");
    fprintf(f, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s\n", "size",
            "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw",
            "busbw", "#wrong");
    fprintf(f, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s\n", "(B)",
            "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)",
            "");
}

static void coll_cell(FILE *f, pr_gpu_tally *t, const pr_gpu_cell *c)
{
    if (!c || !c->ran) {
        fprintf(f, "  %7s  %6s  %6s  %5s", "N/A", "N/A", "N/A", "N/A");
        return;
    }
    char tm[32], wr[32];
    gpuhost_fmt_time(c->time_us, tm);
    fmt_wrong(c->wrong, wr);
    fprintf(f, "  %7s  %6.2f  %6.2f  %5s", tm, c->rate, c->rate2, wr);
    t->bw_sum += c->rate2;
    t->bw_count++;
    if (c->wrong > 0)
        t->errors++;
}

void gpuhost_coll_row(FILE *f, pr_gpu_tally *t, size_t size, size_t count, const char *type,
                      const char *redop, int root, const pr_gpu_cell *out_of_place,
                      const pr_gpu_cell *in_place)
{
    fprintf(f, "%12zu  %12zu  %8s  %6s  %6d", size, count, type, redop, root);
    coll_cell(f, t, out_of_place);
    coll_cell(f, t, in_place);
    fprintf(f, "\n");
}

static void bounds_line(FILE *f, const pr_gpu_tally *t)
{
    fprintf(f, "# Out of bounds values : %d %s\n", t->errors, t->errors ? "FAILED" : "OK");
}

void gpuhost_coll_footer(FILE *f, const pr_gpu_tally *t)
{
    bounds_line(f, t);
    /* nccl-tests' exact line, trailing blank included. */
    fprintf(f, "# Avg bus bandwidth    : %g \n",
            t->bw_count ? t->bw_sum / (double)t->bw_count : 0.0);
    fprintf(f, "#\n");
}

/* Bandwidth: time, GB/s, % of peak, #wrong: 2+7 + 2+8 + 2+6 + 2+6. */
#define BW_GROUP 35

void gpuhost_bw_header(FILE *f, unsigned kernels, double peak_gbs, int mem_clock_khz, int bus_bits,
                       size_t l2_bytes)
{
    fprintf(f, "#\n");
    if (peak_gbs > 0)
        fprintf(f, "# Theoretical peak : %.2f GB/s (2 x %d MHz memory clock x %d-bit bus / 8)\n",
                peak_gbs, mem_clock_khz / 1000, bus_bits);
    else
        fprintf(f, "# Theoretical peak : unknown (the device reports no memory clock or bus "
                   "width)\n");
    if (l2_bytes)
        fprintf(f,
                "# L2 cache %.1f MiB: rows whose buffers fit in it measure the cache, not "
                "the memory\n",
                (double)l2_bytes / (1024.0 * 1024.0));
    fprintf(f, "# GB/s counts bytes read plus bytes written (copy and memcpy move 2 x size)\n");
    fprintf(f, "#\n");
    titles(f, "#           ", gpuhost_bwk_names, kernels, PR_GPU_NBWK, BW_GROUP);
    line l = {"", 0};
    append(&l, "# %10s", "size");
    for (int k = 0; k < PR_GPU_NBWK; k++)
        if (kernels & (1u << k))
            append(&l, "  %7s  %8s  %6s  %6s", "time", "GB/s", "%peak", "#wrong");
    put_trimmed(f, l.buf);
    l.len = 0;
    append(&l, "# %10s", "(B)");
    for (int k = 0; k < PR_GPU_NBWK; k++)
        if (kernels & (1u << k))
            append(&l, "  %7s  %8s  %6s  %6s", "(us)", "(GB/s)", "(%)", "");
    put_trimmed(f, l.buf);
}

void gpuhost_bw_row(FILE *f, pr_gpu_tally *t, unsigned kernels, size_t size,
                    const pr_gpu_cell cells[PR_GPU_NBWK])
{
    fprintf(f, "%12zu", size);
    for (int k = 0; k < PR_GPU_NBWK; k++) {
        if (!(kernels & (1u << k)))
            continue;
        const pr_gpu_cell *c = &cells[k];
        if (!c->ran) {
            fprintf(f, "  %7s  %8s  %6s  %6s", "N/A", "N/A", "N/A", "N/A");
            continue;
        }
        char tm[32], wr[32], pct[32];
        gpuhost_fmt_time(c->time_us, tm);
        fmt_wrong(c->wrong, wr);
        if (c->rate2 < 0)
            snprintf(pct, sizeof pct, "N/A");
        else
            snprintf(pct, sizeof pct, "%.1f", c->rate2);
        fprintf(f, "  %7s  %8.2f  %6s  %6s", tm, c->rate, pct, wr);
        t->last[k] = c->rate;
        t->last_pct[k] = c->rate2;
        t->last_size[k] = size;
        if (c->wrong > 0)
            t->errors++;
    }
    fprintf(f, "\n");
}

void gpuhost_bw_footer(FILE *f, const pr_gpu_tally *t, unsigned kernels)
{
    for (int k = 0; k < PR_GPU_NBWK; k++) {
        if (!(kernels & (1u << k)))
            continue;
        if (!t->last_size[k]) {
            fprintf(f, "# Bandwidth %s : N/A (did not run)\n", gpuhost_bwk_names[k]);
            continue;
        }
        fprintf(f, "# Bandwidth %s : %.2f GB/s", gpuhost_bwk_names[k], t->last[k]);
        if (t->last_pct[k] >= 0)
            fprintf(f, " (%.1f%% of peak)", t->last_pct[k]);
        fprintf(f, " at %zu B\n", t->last_size[k]);
    }
    bounds_line(f, t);
    fprintf(f, "#\n");
}

/* GEMM: time, TFLOP/s, #wrong: 2+7 + 2+9 + 2+6. */
#define GEMM_GROUP 28

void gpuhost_gemm_header(FILE *f, unsigned precs)
{
    fprintf(f, "#\n");
    fprintf(f, "# C(MxN) = A(MxK) B(KxN), A transposed (TN); TFLOP/s = 2MNK / time; #wrong "
               "counts mismatches among up to 65536 sampled elements\n");
    fprintf(f, "#\n");
    titles(f, "#                         ", gpuhost_prec_names, precs, PR_GPU_NPREC, GEMM_GROUP);
    line l = {"", 0};
    append(&l, "#%7s %8s %8s", "M", "N", "K");
    for (int p = 0; p < PR_GPU_NPREC; p++)
        if (precs & (1u << p))
            append(&l, "  %7s  %9s  %6s", "time", "TFLOP/s", "#wrong");
    put_trimmed(f, l.buf);
    l.len = 0;
    append(&l, "#%7s %8s %8s", "", "", "");
    for (int p = 0; p < PR_GPU_NPREC; p++)
        if (precs & (1u << p))
            append(&l, "  %7s  %9s  %6s", "(us)", "(TFLOP/s)", "");
    put_trimmed(f, l.buf);
}

void gpuhost_gemm_row(FILE *f, pr_gpu_tally *t, unsigned precs, const pr_gpu_shape *s,
                      const pr_gpu_cell cells[PR_GPU_NPREC])
{
    fprintf(f, "%8zu %8zu %8zu", s->m, s->n, s->k);
    for (int p = 0; p < PR_GPU_NPREC; p++) {
        if (!(precs & (1u << p)))
            continue;
        const pr_gpu_cell *c = &cells[p];
        if (!c->ran) {
            fprintf(f, "  %7s  %9s  %6s", "N/A", "N/A", "N/A");
            continue;
        }
        char tm[32], wr[32];
        gpuhost_fmt_time(c->time_us, tm);
        fmt_wrong(c->wrong, wr);
        fprintf(f, "  %7s  %9.2f  %6s", tm, c->rate, wr);
        if (c->rate > t->best[p]) {
            t->best[p] = c->rate;
            t->best_at[p] = *s;
        }
        if (c->wrong > 0)
            t->errors++;
    }
    fprintf(f, "\n");
}

void gpuhost_gemm_footer(FILE *f, const pr_gpu_tally *t, unsigned precs)
{
    for (int p = 0; p < PR_GPU_NPREC; p++) {
        if (!(precs & (1u << p)))
            continue;
        if (t->best[p] <= 0) {
            fprintf(f, "# Best %s TFLOP/s : N/A (not supported here)\n", gpuhost_prec_names[p]);
            continue;
        }
        const pr_gpu_shape *s = &t->best_at[p];
        fprintf(f, "# Best %s TFLOP/s : %.2f at M=%zu N=%zu K=%zu\n", gpuhost_prec_names[p],
                t->best[p], s->m, s->n, s->k);
    }
    bounds_line(f, t);
    fprintf(f, "#\n");
}
