/* gemm: cuBLASLt matrix multiplication, C(MxN) = A(MxK) B(KxN), one variant
 * per precision:
 *
 *   fp32  fp32 in, fp32 compute, fp32 out      (CUBLAS_COMPUTE_32F)
 *   tf32  fp32 in, tf32 tensor cores, fp32 out (CUBLAS_COMPUTE_32F_FAST_TF32)
 *   fp16  fp16 in, fp32 accumulate, fp16 out   (what torch.matmul does)
 *   bf16  bf16 in, fp32 accumulate, bf16 out
 *   fp8   e4m3 in with unit scales, fp32 accumulate, bf16 out (sm_89 and later)
 *
 * Every precision uses the TN layout (A stored K x M and transposed), the one
 * cuBLASLt requires for fp8, and the first algorithm cublasLtMatmulAlgoGetHeuristic
 * offers with a 64 MiB workspace.  A cell without an algorithm prints N/A.
 *
 * The data check: inputs are drawn from {-2, -1, -0.5, 0, 0.5, 1, 2}, which
 * every input type holds exactly, so every partial sum is a multiple of 0.25
 * below 2^22 and fp32 accumulation is exact; up to 65536 output elements,
 * spread pseudo-randomly over C, are compared with a double-precision dot
 * product within the output type's rounding.
 */
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <stdlib.h>

#include "gpu.h"

#define WORKSPACE_BYTES ((size_t)64 << 20)
#define SAMPLES 65536u

typedef struct gemm_state {
    cublasLtHandle_t lt;
    void *a, *b, *c, *ws;
    size_t a_cap, b_cap, c_cap; /* bytes */
    float *scales;              /* fp8: A and B scale factors, both 1 */
    unsigned long long *wrong;
    /* the current cell's descriptors (see gpu.h: cells come one at a time) */
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatmulAlgo_t algo;
} gemm_state;

/* The element size of C per precision. */
static size_t out_size(int v) { return v == PR_GPU_FP32 || v == PR_GPU_TF32 ? 4 : 2; }

static __device__ inline float value(unsigned seed, size_t i)
{
    const float tab[7] = {-2.0f, -1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 2.0f};
    unsigned h = gpu_hash((unsigned)i ^ gpu_hash((unsigned)(i >> 32) ^ seed));
    return tab[h % 7];
}

static __device__ inline void store(float *p, float v) { *p = v; }
static __device__ inline void store(__half *p, float v) { *p = __float2half(v); }
static __device__ inline void store(__nv_bfloat16 *p, float v) { *p = __float2bfloat16(v); }
static __device__ inline void store(__nv_fp8_e4m3 *p, float v) { *p = __nv_fp8_e4m3(v); }
static __device__ inline double load(const float *p) { return *p; }
static __device__ inline double load(const __half *p) { return __half2float(*p); }
static __device__ inline double load(const __nv_bfloat16 *p) { return __bfloat162float(*p); }

template <typename T>
static __global__ void k_fill(T *p, size_t n, unsigned seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
        store(p + i, value(seed, i));
}

/* Sampled check: element s of the sample is (row, column) from a hash; its
 * reference is the dot product of A's column (K values) and B's column,
 * from the same formula the fill used. */
template <typename T>
static __global__ void k_check(const T *c, size_t m, size_t n, size_t k, unsigned seed_a,
                               unsigned seed_b, unsigned samples, double rel,
                               unsigned long long *wrong)
{
    unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long bad = 0;
    if (s < samples) {
        size_t row = (m * n <= samples) ? s % m : gpu_hash(s * 2u + 1u) % m;
        size_t col = (m * n <= samples) ? s / m : gpu_hash(s * 2u + 2u) % n;
        double ref = 0;
        for (size_t x = 0; x < k; x++)
            ref += (double)value(seed_a, x + row * k) * (double)value(seed_b, x + col * k);
        double got = load(c + row + col * m);
        double tol = rel * fabs(ref) + 1e-3;
        bad = !(fabs(got - ref) <= tol);
    }
    for (int o = 16; o > 0; o >>= 1)
        bad += __shfl_xor_sync(0xffffffffu, bad, o);
    if ((threadIdx.x & 31) == 0 && bad)
        atomicAdd(wrong, bad);
}

static void drop_cell(gemm_state *s)
{
    if (s->op)
        cublasLtMatmulDescDestroy(s->op);
    if (s->la)
        cublasLtMatrixLayoutDestroy(s->la);
    if (s->lb)
        cublasLtMatrixLayoutDestroy(s->lb);
    if (s->lc)
        cublasLtMatrixLayoutDestroy(s->lc);
    s->op = NULL;
    s->la = s->lb = s->lc = NULL;
}

static int gemm_setup(pr_gpu_ctx *c, const pr_gpu_point *pts, size_t npts)
{
    int rc = 0;
    size_t need = WORKSPACE_BYTES, free_b = 0, total_b = 0;
    const float ones[2] = {1.0f, 1.0f};
    gemm_state *s = (gemm_state *)calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "perfrepro-gpu: out of host memory\n");
        return -1;
    }
    c->priv = s;
    /* Room for the largest shape in the widest type (4 bytes). */
    for (size_t i = 0; i < npts; i++) {
        const pr_gpu_shape *p = &pts[i].shape;
        if (p->k * p->m * 4 > s->a_cap)
            s->a_cap = p->k * p->m * 4;
        if (p->k * p->n * 4 > s->b_cap)
            s->b_cap = p->k * p->n * 4;
        if (p->m * p->n * 4 > s->c_cap)
            s->c_cap = p->m * p->n * 4;
    }
    need += s->a_cap + s->b_cap + s->c_cap;
    PR_CUDA(cudaSetDevice(c->dev[0]));
    PR_CUDA(cudaMemGetInfo(&free_b, &total_b));
    if (need + ((size_t)256 << 20) > free_b) {
        fprintf(stderr,
                "perfrepro-gpu: gemm: the largest shapes need %.1f GiB of GPU memory and %.1f "
                "GiB are free: lower -e or choose shapes with -s\n",
                need / 1073741824.0, free_b / 1073741824.0);
        rc = -1;
        goto out;
    }
    PR_CUBLAS(cublasLtCreate(&s->lt));
    PR_CUDA(cudaMalloc(&s->a, s->a_cap));
    PR_CUDA(cudaMalloc(&s->b, s->b_cap));
    PR_CUDA(cudaMalloc(&s->c, s->c_cap));
    PR_CUDA(cudaMalloc(&s->ws, WORKSPACE_BYTES));
    PR_CUDA(cudaMalloc((void **)&s->scales, sizeof ones));
    PR_CUDA(cudaMemcpy(s->scales, ones, sizeof ones, cudaMemcpyHostToDevice));
    PR_CUDA(cudaMalloc((void **)&s->wrong, sizeof *s->wrong));
out:
    return rc;
}

static int gemm_supported(pr_gpu_ctx *c, const pr_gpu_point *p, int v)
{
    int rc = 0, found = 0;
    gemm_state *s = (gemm_state *)c->priv;
    const pr_gpu_shape *sh = &p->shape;
    cublasComputeType_t compute =
        v == PR_GPU_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    cudaDataType_t ab = v == PR_GPU_FP16 ? CUDA_R_16F
                        : v == PR_GPU_BF16 ? CUDA_R_16BF
                        : v == PR_GPU_FP8  ? CUDA_R_8F_E4M3
                                           : CUDA_R_32F;
    cudaDataType_t cd = v == PR_GPU_FP16 ? CUDA_R_16F
                        : v == PR_GPU_BF16 || v == PR_GPU_FP8 ? CUDA_R_16BF
                                                              : CUDA_R_32F;
    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    size_t ws = WORKSPACE_BYTES;
    cublasLtMatmulPreference_t pref = NULL;
    cublasLtMatmulHeuristicResult_t res;
    cublasStatus_t st;
    const float *sa = NULL, *sb = NULL;

    drop_cell(s);
    /* fp8 tensor cores arrived with Ada (sm_89); cuBLASLt wants fp8
     * dimensions in multiples of 16. */
    if (v == PR_GPU_FP8 && (c->cc_major * 10 + c->cc_minor < 89 || sh->m % 16 || sh->n % 16 ||
                            sh->k % 16))
        goto out;
    PR_CUBLAS(cublasLtMatmulDescCreate(&s->op, compute, CUDA_R_32F));
    PR_CUBLAS(cublasLtMatmulDescSetAttribute(s->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    PR_CUBLAS(cublasLtMatmulDescSetAttribute(s->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    if (v == PR_GPU_FP8) {
        /* fp8 needs scale factors; 1 keeps the exact inputs exact. */
        sa = s->scales;
        sb = s->scales + 1;
        PR_CUBLAS(cublasLtMatmulDescSetAttribute(s->op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &sa,
                                                 sizeof sa));
        PR_CUBLAS(cublasLtMatmulDescSetAttribute(s->op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &sb,
                                                 sizeof sb));
    }
    PR_CUBLAS(cublasLtMatrixLayoutCreate(&s->la, ab, sh->k, sh->m, sh->k));
    PR_CUBLAS(cublasLtMatrixLayoutCreate(&s->lb, ab, sh->k, sh->n, sh->k));
    PR_CUBLAS(cublasLtMatrixLayoutCreate(&s->lc, cd, sh->m, sh->n, sh->m));
    PR_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
    PR_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                   &ws, sizeof ws));
    st = cublasLtMatmulAlgoGetHeuristic(s->lt, s->op, s->la, s->lb, s->lc, s->lc, pref, 1, &res,
                                        &found);
    /* No algorithm for this type on this GPU is a fact to print, not an error. */
    if (st == CUBLAS_STATUS_NOT_SUPPORTED || (st == CUBLAS_STATUS_SUCCESS && found == 0))
        goto out;
    PR_CUBLAS(st);
    s->algo = res.algo;
    rc = 1;
out:
    if (pref)
        cublasLtMatmulPreferenceDestroy(pref);
    return rc;
}

static int gemm_init(pr_gpu_ctx *c, const pr_gpu_point *p, int v)
{
    int rc = 0;
    gemm_state *s = (gemm_state *)c->priv;
    const pr_gpu_shape *sh = &p->shape;
    size_t na = sh->k * sh->m, nb = sh->k * sh->n;
    unsigned ga = gpu_blocks(na, c->samples_count), gb = gpu_blocks(nb, c->samples_count);
    unsigned sa = c->seed * 2u + 1u, sb = c->seed * 2u + 2u;
    cudaStream_t st = c->stream[0];
    switch (v) {
    case PR_GPU_FP16:
        k_fill<<<ga, 256, 0, st>>>((__half *)s->a, na, sa);
        k_fill<<<gb, 256, 0, st>>>((__half *)s->b, nb, sb);
        break;
    case PR_GPU_BF16:
        k_fill<<<ga, 256, 0, st>>>((__nv_bfloat16 *)s->a, na, sa);
        k_fill<<<gb, 256, 0, st>>>((__nv_bfloat16 *)s->b, nb, sb);
        break;
    case PR_GPU_FP8:
        k_fill<<<ga, 256, 0, st>>>((__nv_fp8_e4m3 *)s->a, na, sa);
        k_fill<<<gb, 256, 0, st>>>((__nv_fp8_e4m3 *)s->b, nb, sb);
        break;
    default:
        k_fill<<<ga, 256, 0, st>>>((float *)s->a, na, sa);
        k_fill<<<gb, 256, 0, st>>>((float *)s->b, nb, sb);
        break;
    }
    PR_CUDA(cudaGetLastError());
    PR_CUDA(cudaMemsetAsync(s->c, 0, sh->m * sh->n * out_size(v), st));
out:
    return rc;
}

static int gemm_run(pr_gpu_ctx *c, const pr_gpu_point *p, int v)
{
    int rc = 0;
    gemm_state *s = (gemm_state *)c->priv;
    const float alpha = 1.0f, beta = 0.0f;
    (void)p;
    (void)v;
    PR_CUBLAS(cublasLtMatmul(s->lt, s->op, &alpha, s->a, s->la, s->b, s->lb, &beta, s->c, s->lc,
                             s->c, s->lc, &s->algo, s->ws, WORKSPACE_BYTES, c->stream[0]));
out:
    return rc;
}

static int gemm_check(pr_gpu_ctx *c, const pr_gpu_point *p, int v, long long *wrong)
{
    int rc = 0;
    gemm_state *s = (gemm_state *)c->priv;
    const pr_gpu_shape *sh = &p->shape;
    unsigned sa = c->seed * 2u + 1u, sb = c->seed * 2u + 2u;
    unsigned samples = sh->m * sh->n < SAMPLES ? (unsigned)(sh->m * sh->n) : SAMPLES;
    unsigned blocks = (samples + 255) / 256;
    unsigned long long bad = 0;
    cudaStream_t st = c->stream[0];
    PR_CUDA(cudaMemsetAsync(s->wrong, 0, sizeof *s->wrong, st));
    /* The tolerance is the output type's rounding: exact fp32 sums rounded
     * once to 24, 11 or 8 significant bits. */
    if (v == PR_GPU_FP16)
        k_check<<<blocks, 256, 0, st>>>((const __half *)s->c, sh->m, sh->n, sh->k, sa, sb,
                                        samples, 1.0 / 2048, s->wrong);
    else if (v == PR_GPU_BF16 || v == PR_GPU_FP8)
        k_check<<<blocks, 256, 0, st>>>((const __nv_bfloat16 *)s->c, sh->m, sh->n, sh->k, sa, sb,
                                        samples, 1.0 / 256, s->wrong);
    else
        k_check<<<blocks, 256, 0, st>>>((const float *)s->c, sh->m, sh->n, sh->k, sa, sb, samples,
                                        1.0 / 16777216, s->wrong);
    PR_CUDA(cudaGetLastError());
    PR_CUDA(cudaMemcpyAsync(&bad, s->wrong, sizeof bad, cudaMemcpyDeviceToHost, st));
    PR_CUDA(cudaStreamSynchronize(st));
    *wrong = (long long)bad;
out:
    return rc;
}

static double gemm_amount(const pr_gpu_ctx *c, const pr_gpu_point *p, int v)
{
    (void)c;
    (void)v;
    return 2.0 * (double)p->shape.m * (double)p->shape.n * (double)p->shape.k;
}

static void gemm_teardown(pr_gpu_ctx *c)
{
    gemm_state *s = (gemm_state *)c->priv;
    if (!s)
        return;
    cudaSetDevice(c->dev[0]);
    drop_cell(s);
    if (s->lt)
        cublasLtDestroy(s->lt);
    cudaFree(s->a);
    cudaFree(s->b);
    cudaFree(s->c);
    cudaFree(s->ws);
    cudaFree(s->scales);
    cudaFree(s->wrong);
    free(s);
    c->priv = NULL;
}

const pr_gpu_workload pr_gpu_gemm_workload = {
    "gemm", gemm_setup, gemm_supported, gemm_init, gemm_run, gemm_check, gemm_amount,
    gemm_teardown,
};
