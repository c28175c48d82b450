/* fake-gpu: a test double of bin/perfrepro-gpu for machines without a GPU.
 *
 * It takes perfrepro-gpu's arguments (gpuhost_args.c parses them) and prints
 * perfrepro-gpu's tables through the same printers, with figures from a
 * simple deterministic model of an H100-class GPU instead of measurements.
 * The Hardware suites, perfrepro-measure's parse rules and gen's hardware
 * reports are tested end to end with it; no figure it prints is a result.
 *
 *   FAKE_GPU_SCALE=0.97   multiplies every rate (a second implementation
 *                         measured "side by side")
 *   FAKE_GPU_COUNT=N      GPUs it pretends to have (default 8); a
 *                         collective asking for more exits 3 with no_gpu
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpuhost.h"

static double scale = 1.0;

/* Rate at a size: latency-bound below `half` bytes, flat above. */
static double saturating(double peak, double size, double half)
{
    return peak * size / (size + half) * scale;
}

static int fake_bw(const pr_gpu_args *a)
{
    static const double eff[PR_GPU_NBWK] = {0.89, 0.92, 0.90, 0.87};
    double peak = gpuhost_peak_gbs(2619000, 5120);
    size_t sizes[PR_GPU_MAX_POINTS];
    size_t n = gpuhost_sweep(a, sizes, PR_GPU_MAX_POINTS);
    pr_gpu_tally t;
    gpuhost_tally_init(&t);
    gpuhost_bw_header(stdout, a->kernels, peak, 2619000, 5120, (size_t)50 << 20);
    for (size_t i = 0; i < n && i < PR_GPU_MAX_POINTS; i++) {
        pr_gpu_cell row[PR_GPU_NBWK];
        memset(row, 0, sizeof row);
        for (int k = 0; k < PR_GPU_NBWK; k++) {
            double moved = (k == PR_GPU_COPY || k == PR_GPU_MEMCPY ? 2.0 : 1.0) * (double)sizes[i];
            double gbs = saturating(peak * eff[k], moved, 8.0 * (1 << 20));
            row[k] = (pr_gpu_cell){1, moved / gbs / 1e3, gbs, gbs / peak * 100.0, 0};
        }
        gpuhost_bw_row(stdout, &t, a->kernels, sizes[i], row);
    }
    gpuhost_bw_footer(stdout, &t, a->kernels);
    return 0;
}

static int fake_gemm(const pr_gpu_args *a)
{
    static const double peak[PR_GPU_NPREC] = {60.0, 420.0, 760.0, 760.0, 1450.0};
    pr_gpu_shape shapes[PR_GPU_MAX_POINTS];
    size_t n = gpuhost_gemm_shapes(a, shapes, PR_GPU_MAX_POINTS);
    pr_gpu_tally t;
    gpuhost_tally_init(&t);
    gpuhost_gemm_header(stdout, a->precs);
    for (size_t i = 0; i < n && i < PR_GPU_MAX_POINTS; i++) {
        pr_gpu_cell row[PR_GPU_NPREC];
        double flop = 2.0 * (double)shapes[i].m * (double)shapes[i].n * (double)shapes[i].k;
        memset(row, 0, sizeof row);
        for (int p = 0; p < PR_GPU_NPREC; p++) {
            double tf = saturating(peak[p], flop, 2e10);
            row[p] = (pr_gpu_cell){1, flop / tf / 1e6, tf, -1, 0};
        }
        gpuhost_gemm_row(stdout, &t, a->precs, &shapes[i], row);
    }
    gpuhost_gemm_footer(stdout, &t, a->precs);
    return 0;
}

static int fake_coll(const pr_gpu_args *a, int ngpus)
{
    size_t sizes[PR_GPU_MAX_POINTS];
    size_t n = gpuhost_sweep(a, sizes, PR_GPU_MAX_POINTS);
    size_t ts = gpuhost_dtype_size(a->dtype);
    double factor = gpuhost_busbw_factor(a->coll, ngpus);
    pr_gpu_tally t;
    gpuhost_tally_init(&t);
    gpuhost_coll_header(stdout);
    for (size_t i = 0; i < n && i < PR_GPU_MAX_POINTS; i++) {
        pr_gpu_counts c;
        gpuhost_coll_counts(a->coll, sizes[i], ts, ngpus, &c);
        pr_gpu_cell cell[2];
        memset(cell, 0, sizeof cell);
        if (c.paramcount > 0) {
            double bytes = gpuhost_coll_algbytes(a->coll, c.paramcount, ts, ngpus);
            double busbw = saturating(360.0, bytes, 4.0 * (1 << 20));
            double algbw = busbw / (factor > 0 ? factor : 1.0);
            for (int v = 0; v < 2; v++)
                if (v == 0 || gpuhost_coll_in_place(a->coll))
                    cell[v] = (pr_gpu_cell){1, bytes / algbw / 1e3, algbw, busbw, 0};
        }
        gpuhost_coll_row(stdout, &t, c.size_bytes, c.paramcount, gpuhost_dtype_name(a->dtype),
                         gpuhost_coll_has_redop(a->coll) ? gpuhost_redop_name(a->redop) : "none",
                         gpuhost_coll_has_root(a->coll) ? a->root : -1, &cell[0], &cell[1]);
    }
    gpuhost_coll_footer(stdout, &t);
    return 0;
}

int main(int argc, char **argv)
{
    pr_gpu_args a;
    char err[512];
    const char *s = getenv("FAKE_GPU_SCALE"), *cnt = getenv("FAKE_GPU_COUNT");
    int count = cnt && *cnt ? atoi(cnt) : 8;
    if (s && *s)
        scale = strtod(s, NULL);
    if (gpuhost_parse_args(argc, argv, &a, err, sizeof err) < 0) {
        fprintf(stderr, "fake-gpu: %s\n", err);
        return PR_GPU_EXIT_USAGE;
    }
    if (a.version) {
        printf("perfrepro-gpu (fake-gpu test double) CUDA 13.0 cuBLASLt 13.0.0 NCCL 2.28.3\n");
        return 0;
    }
    if (a.kind == PR_GPU_ENV) {
        printf("name: Fake GPU (perfrepro test double)\ncount: %d\ndriver: 580.00\ncuda: 13.0\n"
               "cudnn: not found\nnccl: 2.28.3\n",
               count);
        return 0;
    }
    int ngpus = a.kind == PR_GPU_COLL ? (a.ngpus ? a.ngpus : count) : 1;
    if (count <= 0 || ngpus > count) {
        fprintf(stderr,
                PR_GPU_FAILURE_PREFIX "no_gpu: process 0 needs %d GPUs, but %d %s visible\n", ngpus,
                count, count == 1 ? "is" : "are");
        return PR_GPU_EXIT_NO_GPU;
    }
    gpuhost_preamble(stdout, &a, 1, ngpus);
    for (int i = 0; i < ngpus; i++)
        gpuhost_device_line(stdout, i, 4242, i, 0, 0x18 + i, 0, "Fake GPU (perfrepro test double)");
    switch (a.kind) {
    case PR_GPU_BW:
        return fake_bw(&a);
    case PR_GPU_GEMM:
        return fake_gemm(&a);
    default:
        return fake_coll(&a, ngpus);
    }
}
