/* nccl: the collectives, as nccl-tests runs them.  Two variants per size:
 * out-of-place (0) and in-place (1; alltoall and sendrecv have none: N/A).
 * Element counts, in-place offsets and bandwidths follow nccl-tests
 * (gpuhost.c: gpuhost_coll_counts, gpuhost_coll_algbytes, gpuhost_busbw_factor).
 *
 * Test data: element j of rank q's input is 1 + (hash(q, j, seed) >> 30),
 * a small integer every type holds exactly, so sums stay exact (until int8
 * wraps, which the expected value does too).  For prod only one rank holds a
 * value other than 1 per element, so products stay small.  The check
 * recomputes each output element from that formula on the GPU.
 */
#ifndef PR_NO_NCCL

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <nccl.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

typedef struct coll_state {
    ncclComm_t comm[PR_GPU_MAX_DEV];
    void *send[PR_GPU_MAX_DEV], *recv[PR_GPU_MAX_DEV];
    unsigned long long *wrong[PR_GPU_MAX_DEV];
    pr_gpu_counts n; /* the current cell's counts */
} coll_state;

static ncclDataType_t nccl_type(pr_gpu_dtype t)
{
    static const ncclDataType_t map[PR_GPU_NDTYPE] = {
        ncclInt8, ncclUint8, ncclInt32, ncclUint32, ncclInt64, ncclUint64,
        ncclFloat16, ncclFloat32, ncclFloat64, ncclBfloat16};
    return map[t];
}

static ncclRedOp_t nccl_op(pr_gpu_redop op)
{
    static const ncclRedOp_t map[PR_GPU_NREDOP] = {ncclSum, ncclProd, ncclMax, ncclMin, ncclAvg};
    return map[op];
}

/* ---- the test data ---- */

static __device__ inline double in_val(int q, size_t j, unsigned seed, int op, int n)
{
    if (op == PR_GPU_PROD)
        return q == (int)(j % (size_t)n) ? 1.0 + (double)(j % 3) : 1.0;
    unsigned who = gpu_hash((unsigned)q * 0x9e3779b9u ^ seed);
    unsigned h = gpu_hash((unsigned)j ^ gpu_hash((unsigned)(j >> 32) ^ who));
    return 1.0 + (double)(h >> 30);
}

static __device__ inline double red_val(size_t j, unsigned seed, int op, int n)
{
    double acc = in_val(0, j, seed, op, n);
    for (int q = 1; q < n; q++) {
        double v = in_val(q, j, seed, op, n);
        switch (op) {
        case PR_GPU_PROD: acc *= v; break;
        case PR_GPU_MAX: acc = v > acc ? v : acc; break;
        case PR_GPU_MIN: acc = v < acc ? v : acc; break;
        default: acc += v; break;
        }
    }
    return op == PR_GPU_AVG ? acc / n : acc;
}

/* What output element j of rank r holds after the collective. */
static __device__ inline double expected(int coll, int r, int n, int root, size_t cnt, size_t j,
                                         unsigned seed, int op)
{
    switch (coll) {
    case PR_GPU_BROADCAST: return in_val(root, j, seed, op, n);
    case PR_GPU_ALL_GATHER: return in_val((int)(j / cnt), j % cnt, seed, op, n);
    case PR_GPU_REDUCE_SCATTER: return red_val((size_t)r * cnt + j, seed, op, n);
    case PR_GPU_ALLTOALL: return in_val((int)(j / cnt), (size_t)r * cnt + j % cnt, seed, op, n);
    case PR_GPU_SENDRECV: return in_val((r - 1 + n) % n, j, seed, op, n);
    default: return red_val(j, seed, op, n); /* all_reduce, reduce */
    }
}

template <typename T> struct num {
    static __device__ T to(double v) { return (T)(long long)v; }
    /* Integers are exact; an average may round either way. */
    static __device__ bool ok(T got, double want, int op, int n)
    {
        (void)n;
        long long e = (long long)floor(want);
        return got == (T)e || (op == PR_GPU_AVG && got == (T)(e + 1));
    }
};
template <> struct num<unsigned long long> {
    static __device__ unsigned long long to(double v) { return (unsigned long long)v; }
    static __device__ bool ok(unsigned long long got, double want, int op, int n)
    {
        (void)n;
        unsigned long long e = (unsigned long long)floor(want);
        return got == e || (op == PR_GPU_AVG && got == e + 1);
    }
};

/* Floating point: within (n + 1) roundings of the type (an average is a sum
 * of pre-scaled values; bf16 sums past 256 round). */
static __device__ inline bool near(double got, double want, double eps, int n)
{
    return fabs(got - want) <= eps * (n + 1) * fabs(want);
}
template <> struct num<float> {
    static __device__ float to(double v) { return (float)v; }
    static __device__ bool ok(float got, double want, int op, int n)
    {
        (void)op;
        return near(got, want, 1.0 / 8388608, n);
    }
};
template <> struct num<double> {
    static __device__ double to(double v) { return v; }
    static __device__ bool ok(double got, double want, int op, int n)
    {
        (void)op;
        return near(got, want, 1.0 / 4503599627370496.0, n);
    }
};
template <> struct num<__half> {
    static __device__ __half to(double v) { return __float2half((float)v); }
    static __device__ bool ok(__half got, double want, int op, int n)
    {
        (void)op;
        return near(__half2float(got), want, 1.0 / 1024, n);
    }
};
template <> struct num<__nv_bfloat16> {
    static __device__ __nv_bfloat16 to(double v) { return __float2bfloat16((float)v); }
    static __device__ bool ok(__nv_bfloat16 got, double want, int op, int n)
    {
        (void)op;
        return near(__bfloat162float(got), want, 1.0 / 128, n);
    }
};

template <typename T>
static __global__ void k_init(T *p, size_t count, int q, unsigned seed, int op, int n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < count; j += stride)
        p[j] = num<T>::to(in_val(q, j, seed, op, n));
}

template <typename T>
static __global__ void k_check(const T *p, size_t count, int coll, int r, int n, int root,
                               size_t cnt, unsigned seed, int op, unsigned long long *wrong)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long bad = 0;
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < count; j += stride)
        bad += !num<T>::ok(p[j], expected(coll, r, n, root, cnt, j, seed, op), op, n);
    for (int o = 16; o > 0; o >>= 1)
        bad += __shfl_xor_sync(0xffffffffu, bad, o);
    if ((threadIdx.x & 31) == 0 && bad)
        atomicAdd(wrong, bad);
}

/* Calls F<T> for the element type of the run. */
#define PR_BY_TYPE(t, F, ...)                                                             \
    do {                                                                                  \
        switch (t) {                                                                      \
        case PR_GPU_INT8: F<signed char>(__VA_ARGS__); break;                             \
        case PR_GPU_UINT8: F<unsigned char>(__VA_ARGS__); break;                          \
        case PR_GPU_INT32: F<int>(__VA_ARGS__); break;                                    \
        case PR_GPU_UINT32: F<unsigned>(__VA_ARGS__); break;                              \
        case PR_GPU_INT64: F<long long>(__VA_ARGS__); break;                              \
        case PR_GPU_UINT64: F<unsigned long long>(__VA_ARGS__); break;                    \
        case PR_GPU_HALF: F<__half>(__VA_ARGS__); break;                                  \
        case PR_GPU_FLOAT: F<float>(__VA_ARGS__); break;                                  \
        case PR_GPU_DOUBLE: F<double>(__VA_ARGS__); break;                                \
        default: F<__nv_bfloat16>(__VA_ARGS__); break;                                    \
        }                                                                                 \
    } while (0)

template <typename T>
static void launch_init(void *p, size_t count, int q, unsigned seed, int op, int n, int sms,
                        cudaStream_t st)
{
    k_init<T><<<gpu_blocks(count, sms), 256, 0, st>>>((T *)p, count, q, seed, op, n);
}

template <typename T>
static void launch_check(const void *p, size_t count, int coll, int r, int n, int root, size_t cnt,
                         unsigned seed, int op, unsigned long long *wrong, int sms, cudaStream_t st)
{
    k_check<T><<<gpu_blocks(count, sms), 256, 0, st>>>((const T *)p, count, coll, r, n, root,
                                                          cnt, seed, op, wrong);
}

/* ---- callbacks ---- */

static int coll_setup(pr_gpu_ctx *c, const pr_gpu_point *pts, size_t npts)
{
    int rc = 0;
    size_t cap = 64;
    ncclUniqueId id;
    coll_state *s = (coll_state *)calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "perfrepro-gpu: out of host memory\n");
        return -1;
    }
    c->priv = s;
    for (size_t i = 0; i < npts; i++)
        if (pts[i].bytes > cap)
            cap = pts[i].bytes;
    for (int i = 0; i < c->ndev; i++) {
        PR_CUDA(cudaSetDevice(c->dev[i]));
        PR_CUDA(cudaMalloc(&s->send[i], cap));
        PR_CUDA(cudaMalloc(&s->recv[i], cap));
        PR_CUDA(cudaMalloc((void **)&s->wrong[i], sizeof *s->wrong[i]));
    }
    if (c->nprocs == 1) {
        PR_NCCL(ncclCommInitAll(s->comm, c->ndev, c->dev));
    } else {
        /* One rank per GPU across processes: process 0's id reaches the
         * others through MPI. */
        memset(&id, 0, sizeof id);
        if (c->proc == 0)
            PR_NCCL(ncclGetUniqueId(&id));
        gpu_mpi_bcast(&id, sizeof id);
        PR_NCCL(ncclGroupStart());
        for (int i = 0; i < c->ndev; i++) {
            PR_CUDA(cudaSetDevice(c->dev[i]));
            PR_NCCL(ncclCommInitRank(&s->comm[i], c->nranks, id, c->rank0 + i));
        }
        PR_NCCL(ncclGroupEnd());
    }
out:
    return rc;
}

static int coll_supported(pr_gpu_ctx *c, const pr_gpu_point *p, int v)
{
    coll_state *s = (coll_state *)c->priv;
    const pr_gpu_args *a = c->args;
    gpuhost_coll_counts(a->coll, p->bytes, gpuhost_dtype_size(a->dtype), c->nranks, &s->n);
    if (s->n.paramcount == 0)
        return 0;
    return v == 0 || gpuhost_coll_in_place(a->coll);
}

/* The buffers rank r's collective reads and writes. */
static void buffers(const pr_gpu_ctx *c, const coll_state *s, int i, int v, char **sb, char **rb)
{
    size_t ts = gpuhost_dtype_size(c->args->dtype);
    int r = c->rank0 + i;
    *rb = (char *)s->recv[i];
    *sb = v ? *rb : (char *)s->send[i];
    if (v) {
        *sb += s->n.send_inplace_offset * ts * (size_t)r;
        *rb += s->n.recv_inplace_offset * ts * (size_t)r;
    }
}

static int coll_init(pr_gpu_ctx *c, const pr_gpu_point *p, int v)
{
    int rc = 0;
    coll_state *s = (coll_state *)c->priv;
    const pr_gpu_args *a = c->args;
    size_t ts = gpuhost_dtype_size(a->dtype);
    char *sb, *rb;
    (void)p;
    for (int i = 0; i < c->ndev; i++) {
        buffers(c, s, i, v, &sb, &rb);
        PR_CUDA(cudaSetDevice(c->dev[i]));
        /* Cleared first: a collective that writes nothing cannot pass
         * (every expected value is at least 1). */
        PR_CUDA(cudaMemsetAsync(s->recv[i], 0, (v ? s->n.sendcount > s->n.recvcount
                                                        ? s->n.sendcount
                                                        : s->n.recvcount
                                                  : s->n.recvcount) * ts,
                                c->stream[i]));
        PR_BY_TYPE(a->dtype, launch_init, sb, s->n.sendcount, c->rank0 + i, c->seed, a->redop,
                   c->nranks, c->samples_count, c->stream[i]);
        PR_CUDA(cudaGetLastError());
    }
out:
    return rc;
}

static int coll_run(pr_gpu_ctx *c, const pr_gpu_point *p, int v)
{
    int rc = 0, grouped = 0;
    coll_state *s = (coll_state *)c->priv;
    const pr_gpu_args *a = c->args;
    size_t cnt = s->n.paramcount, ts = gpuhost_dtype_size(a->dtype);
    ncclDataType_t t = nccl_type(a->dtype);
    ncclRedOp_t op = nccl_op(a->redop);
    int n = c->nranks;
    char *sb, *rb;
    (void)p;
    /* One process driving several GPUs must issue their calls as a group. */
    if (c->ndev > 1) {
        PR_NCCL(ncclGroupStart());
        grouped = 1;
    }
    for (int i = 0; i < c->ndev; i++) {
        int r = c->rank0 + i;
        ncclComm_t cm = s->comm[i];
        cudaStream_t st = c->stream[i];
        buffers(c, s, i, v, &sb, &rb);
        switch (a->coll) {
        case PR_GPU_ALL_REDUCE:
            PR_NCCL(ncclAllReduce(sb, rb, cnt, t, op, cm, st));
            break;
        case PR_GPU_ALL_GATHER:
            PR_NCCL(ncclAllGather(sb, rb, cnt, t, cm, st));
            break;
        case PR_GPU_REDUCE_SCATTER:
            PR_NCCL(ncclReduceScatter(sb, rb, cnt, t, op, cm, st));
            break;
        case PR_GPU_BROADCAST:
            PR_NCCL(ncclBroadcast(sb, rb, cnt, t, a->root, cm, st));
            break;
        case PR_GPU_REDUCE:
            PR_NCCL(ncclReduce(sb, rb, cnt, t, op, a->root, cm, st));
            break;
        case PR_GPU_ALLTOALL:
            /* NCCL has no alltoall: grouped point-to-point, as nccl-tests. */
            PR_NCCL(ncclGroupStart());
            for (int q = 0; q < n; q++) {
                PR_NCCL(ncclSend(sb + (size_t)q * cnt * ts, cnt, t, q, cm, st));
                PR_NCCL(ncclRecv(rb + (size_t)q * cnt * ts, cnt, t, q, cm, st));
            }
            PR_NCCL(ncclGroupEnd());
            break;
        default: /* sendrecv: a ring, each rank sends to the next */
            PR_NCCL(ncclGroupStart());
            PR_NCCL(ncclSend(sb, cnt, t, (r + 1) % n, cm, st));
            PR_NCCL(ncclRecv(rb, cnt, t, (r - 1 + n) % n, cm, st));
            PR_NCCL(ncclGroupEnd());
            break;
        }
    }
out:
    if (grouped) {
        ncclResult_t e = ncclGroupEnd();
        if (e != ncclSuccess && rc == 0) {
            gpu_report(__FILE__, __LINE__, "NCCL", "ncclGroupEnd()", ncclGetErrorString(e));
            rc = -1;
        }
    }
    return rc;
}

static int coll_check(pr_gpu_ctx *c, const pr_gpu_point *p, int v, long long *wrong)
{
    int rc = 0;
    coll_state *s = (coll_state *)c->priv;
    const pr_gpu_args *a = c->args;
    char *sb, *rb;
    unsigned long long bad = 0;
    long long total = 0;
    (void)p;
    for (int i = 0; i < c->ndev; i++) {
        int r = c->rank0 + i;
        /* reduce leaves the result on the root only. */
        if (a->coll == PR_GPU_REDUCE && r != a->root)
            continue;
        buffers(c, s, i, v, &sb, &rb);
        PR_CUDA(cudaSetDevice(c->dev[i]));
        PR_CUDA(cudaMemsetAsync(s->wrong[i], 0, sizeof *s->wrong[i], c->stream[i]));
        PR_BY_TYPE(a->dtype, launch_check, rb, s->n.recvcount, (int)a->coll, r, c->nranks,
                   a->root, s->n.paramcount, c->seed, (int)a->redop, s->wrong[i], c->samples_count,
                   c->stream[i]);
        PR_CUDA(cudaGetLastError());
        PR_CUDA(cudaMemcpyAsync(&bad, s->wrong[i], sizeof bad, cudaMemcpyDeviceToHost,
                                c->stream[i]));
        PR_CUDA(cudaStreamSynchronize(c->stream[i]));
        total += (long long)bad;
    }
    *wrong = total;
out:
    return rc;
}

static double coll_amount(const pr_gpu_ctx *c, const pr_gpu_point *p, int v)
{
    const pr_gpu_args *a = c->args;
    pr_gpu_counts n;
    (void)v;
    gpuhost_coll_counts(a->coll, p->bytes, gpuhost_dtype_size(a->dtype), c->nranks, &n);
    return gpuhost_coll_algbytes(a->coll, n.paramcount, gpuhost_dtype_size(a->dtype), c->nranks);
}

static void coll_teardown(pr_gpu_ctx *c)
{
    coll_state *s = (coll_state *)c->priv;
    if (!s)
        return;
    for (int i = 0; i < c->ndev; i++) {
        cudaSetDevice(c->dev[i]);
        if (s->comm[i])
            ncclCommDestroy(s->comm[i]);
        cudaFree(s->send[i]);
        cudaFree(s->recv[i]);
        cudaFree(s->wrong[i]);
    }
    free(s);
    c->priv = NULL;
}

const pr_gpu_workload pr_gpu_coll_workload = {
    "nccl", coll_setup, coll_supported, coll_init, coll_run, coll_check, coll_amount,
    coll_teardown,
};

#endif
