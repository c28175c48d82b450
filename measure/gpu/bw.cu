/* bw: device memory bandwidth.  Four variants over one pair of buffers:
 *
 *   copy    a kernel reading src and writing dst (bytes moved: 2 x size)
 *   read    a kernel reading src, XOR-reducing it to one word (size)
 *   write   a kernel writing dst (size)
 *   memcpy  cudaMemcpyAsync device to device, the runtime's own (2 x size)
 *
 * The buffers hold 32-bit words; word i of the pattern is i ^ seed, so a
 * misplaced word is caught and the XOR of all words has a closed form
 * (gpuhost_xor_pattern).  Sizes must be multiples of 4 bytes (else N/A).
 */
#include <stdlib.h>

#include "gpu.h"

typedef struct bw_state {
    unsigned *src, *dst;
    unsigned *xor_out;             /* the read kernel's result */
    unsigned long long *wrong;     /* the check kernel's count */
    size_t cap;                    /* bytes in src and dst */
    unsigned grid[3];              /* copy, read, write: one full wave */
} bw_state;

/* Grid-stride loops, four independent 16-byte accesses in flight per thread
 * (one at a time leaves HBM idle between requests). */
static __global__ void k_copy(const uint4 *__restrict__ src, uint4 *__restrict__ dst, size_t n4,
                              size_t n)
{
    /* The last n % 4 words, one per thread. */
    const unsigned *s32 = (const unsigned *)src;
    unsigned *d32 = (unsigned *)dst;
    size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x, i = tid;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        uint4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
        dst[i] = a;
        dst[i + stride] = b;
        dst[i + 2 * stride] = c;
        dst[i + 3 * stride] = d;
    }
    for (; i < n4; i += stride)
        dst[i] = src[i];
    if (n4 * 4 + tid < n)
        d32[n4 * 4 + tid] = s32[n4 * 4 + tid];
}

static __device__ inline unsigned fold(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }

static __global__ void k_read(const uint4 *__restrict__ src, size_t n4, size_t n, unsigned *out)
{
    const unsigned *s32 = (const unsigned *)src;
    size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x, i = tid;
    unsigned acc = 0;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        uint4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
        acc ^= fold(a) ^ fold(b) ^ fold(c) ^ fold(d);
    }
    for (; i < n4; i += stride)
        acc ^= fold(src[i]);
    if (n4 * 4 + tid < n)
        acc ^= s32[n4 * 4 + tid];
    /* One atomic per warp: the result is exact, the traffic negligible. */
    for (int o = 16; o > 0; o >>= 1)
        acc ^= __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0 && acc)
        atomicXor(out, acc);
}

static __device__ inline unsigned word(size_t i, unsigned seed) { return (unsigned)i ^ seed; }

static __global__ void k_write(uint4 *__restrict__ dst, size_t n4, size_t n, unsigned seed)
{
    unsigned *d32 = (unsigned *)dst;
    size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = tid; i < n4; i += stride) {
        size_t w = i * 4;
        dst[i] = make_uint4(word(w, seed), word(w + 1, seed), word(w + 2, seed), word(w + 3, seed));
    }
    if (n4 * 4 + tid < n)
        d32[n4 * 4 + tid] = word(n4 * 4 + tid, seed);
}

static __global__ void k_fill(unsigned *p, size_t n, unsigned seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = word(i, seed);
}

static __global__ void k_count(const unsigned *p, size_t n, unsigned seed,
                               unsigned long long *wrong)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long bad = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
        bad += p[i] != word(i, seed);
    for (int o = 16; o > 0; o >>= 1)
        bad += __shfl_xor_sync(0xffffffffu, bad, o);
    if ((threadIdx.x & 31) == 0 && bad)
        atomicAdd(wrong, bad);
}

static int bw_setup(pr_gpu_ctx *c, const pr_gpu_point *pts, size_t npts)
{
    int rc = 0, occ[3] = {0, 0, 0};
    size_t cap = 16;
    bw_state *s = (bw_state *)calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "perfrepro-gpu: out of host memory\n");
        return -1;
    }
    c->priv = s;
    for (size_t i = 0; i < npts; i++)
        if (pts[i].bytes > cap)
            cap = pts[i].bytes;
    cap = (cap + 15) & ~(size_t)15;
    s->cap = cap;
    PR_CUDA(cudaSetDevice(c->dev[0]));
    PR_CUDA(cudaMalloc((void **)&s->src, cap));
    PR_CUDA(cudaMalloc((void **)&s->dst, cap));
    PR_CUDA(cudaMalloc((void **)&s->xor_out, sizeof *s->xor_out));
    PR_CUDA(cudaMalloc((void **)&s->wrong, sizeof *s->wrong));
    /* Exactly as many blocks as fit on the GPU at once: with grid-stride
     * loops every thread has the same work, so a partial second wave would
     * leave the memory idle while it ran. */
    PR_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ[0], k_copy, 256, 0));
    PR_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ[1], k_read, 256, 0));
    PR_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ[2], k_write, 256, 0));
    for (int k = 0; k < 3; k++)
        s->grid[k] = (unsigned)((occ[k] > 0 ? occ[k] : 1) * (c->samples_count > 0 ? c->samples_count : 1));
out:
    return rc;
}

static int bw_supported(pr_gpu_ctx *c, const pr_gpu_point *p, int v)
{
    (void)c;
    (void)v;
    return p->bytes >= 4 && p->bytes % 4 == 0;
}

static int bw_init(pr_gpu_ctx *c, const pr_gpu_point *p, int v)
{
    int rc = 0;
    bw_state *s = (bw_state *)c->priv;
    size_t n = p->bytes / 4;
    (void)v;
    k_fill<<<gpu_blocks(n, c->samples_count), 256, 0, c->stream[0]>>>(s->src, n, c->seed);
    PR_CUDA(cudaGetLastError());
    PR_CUDA(cudaMemsetAsync(s->dst, 0, p->bytes, c->stream[0]));
    PR_CUDA(cudaMemsetAsync(s->xor_out, 0, sizeof *s->xor_out, c->stream[0]));
out:
    return rc;
}

static int bw_run(pr_gpu_ctx *c, const pr_gpu_point *p, int v)
{
    int rc = 0;
    bw_state *s = (bw_state *)c->priv;
    size_t n = p->bytes / 4, n4 = n / 4;
    /* Small sizes need fewer blocks than a wave (at least one, for the tail). */
    size_t want = (n4 + 255) / 256 ? (n4 + 255) / 256 : 1;
    cudaStream_t st = c->stream[0];
    switch (v) {
    case PR_GPU_COPY:
        k_copy<<<want < s->grid[0] ? (unsigned)want : s->grid[0], 256, 0, st>>>(
            (const uint4 *)s->src, (uint4 *)s->dst, n4, n);
        break;
    case PR_GPU_READ:
        k_read<<<want < s->grid[1] ? (unsigned)want : s->grid[1], 256, 0, st>>>(
            (const uint4 *)s->src, n4, n, s->xor_out);
        break;
    case PR_GPU_WRITE:
        k_write<<<want < s->grid[2] ? (unsigned)want : s->grid[2], 256, 0, st>>>(
            (uint4 *)s->dst, n4, n, c->seed);
        break;
    default:
        PR_CUDA(cudaMemcpyAsync(s->dst, s->src, p->bytes, cudaMemcpyDeviceToDevice, st));
        break;
    }
    PR_CUDA(cudaGetLastError());
out:
    return rc;
}

static int bw_check(pr_gpu_ctx *c, const pr_gpu_point *p, int v, long long *wrong)
{
    int rc = 0;
    bw_state *s = (bw_state *)c->priv;
    size_t n = p->bytes / 4;
    unsigned got = 0;
    unsigned long long bad = 0;
    if (v == PR_GPU_READ) {
        PR_CUDA(cudaMemcpy(&got, s->xor_out, sizeof got, cudaMemcpyDeviceToHost));
        *wrong = got != gpuhost_xor_pattern(n, c->seed);
        goto out;
    }
    PR_CUDA(cudaMemsetAsync(s->wrong, 0, sizeof *s->wrong, c->stream[0]));
    k_count<<<gpu_blocks(n, c->samples_count), 256, 0, c->stream[0]>>>(s->dst, n, c->seed,
                                                                      s->wrong);
    PR_CUDA(cudaGetLastError());
    PR_CUDA(cudaMemcpyAsync(&bad, s->wrong, sizeof bad, cudaMemcpyDeviceToHost, c->stream[0]));
    PR_CUDA(cudaStreamSynchronize(c->stream[0]));
    *wrong = (long long)bad;
out:
    return rc;
}

static double bw_amount(const pr_gpu_ctx *c, const pr_gpu_point *p, int v)
{
    (void)c;
    double b = (double)(p->bytes / 4 * 4);
    return v == PR_GPU_COPY || v == PR_GPU_MEMCPY ? 2 * b : b;
}

static void bw_teardown(pr_gpu_ctx *c)
{
    bw_state *s = (bw_state *)c->priv;
    if (!s)
        return;
    cudaSetDevice(c->dev[0]);
    cudaFree(s->src);
    cudaFree(s->dst);
    cudaFree(s->xor_out);
    cudaFree(s->wrong);
    free(s);
    c->priv = NULL;
}

const pr_gpu_workload pr_gpu_bw_workload = {
    "bw", bw_setup, bw_supported, bw_init, bw_run, bw_check, bw_amount, bw_teardown,
};
