/* gpu.h: what perfrepro-gpu's harness (gpu_main.cu) and its workloads
 * (bw.cu, gemm.cu, nccl.cu, env.cu) share.  CUDA C++; host-only logic is in
 * measure/gpu/gpuhost.h.
 *
 * Like nccl-tests, a workload is a table of callbacks and the harness owns
 * everything else: arguments, warm-up, timing with CUDA events, statistics,
 * the data check and the output.  For each cell of the table (one point: a
 * size or a GEMM shape; one variant: in-place or not, a bandwidth kernel, a
 * precision) the harness calls, in this order:
 *
 *   supported -> init -> run x warmup -> run x iters (timed) -> init -> run -> check
 *
 * so a workload may keep per-cell state (descriptors, counts) between calls.
 * Every callback returns 0 on success and -1 after reporting the error.
 */
#ifndef PR_GPU_H
#define PR_GPU_H

#include <cuda_runtime.h>

#include "gpuhost.h"

#define PR_GPU_MAX_DEV 64

/* Prints "perfrepro-gpu: FILE:LINE: LIB error: CALL: MESSAGE" on stderr. */
void gpu_report(const char *file, int line, const char *lib, const char *call, const char *msg);
/* Prints the PERFREPRO_FAILURE no_gpu line and returns PR_GPU_EXIT_NO_GPU. */
int gpu_no_gpu(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The one check per library.  A function using them declares `int rc = 0;`
 * first, every other variable before the first check (a goto may not cross
 * an initialisation in C++), and ends with `out:` cleanup and `return rc;`. */
#define PR_CUDA(call)                                                                              \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            gpu_report(__FILE__, __LINE__, "CUDA", #call, cudaGetErrorString(e_));                 \
            rc = -1;                                                                               \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

#define PR_NCCL(call)                                                                              \
    do {                                                                                           \
        ncclResult_t e_ = (call);                                                                  \
        if (e_ != ncclSuccess) {                                                                   \
            const char *l_ = ncclGetLastError(NULL);                                               \
            gpu_report(__FILE__, __LINE__, "NCCL", #call, ncclGetErrorString(e_));                 \
            if (l_ && *l_)                                                                         \
                fprintf(stderr, "perfrepro-gpu: NCCL: %s\n", l_);                                  \
            rc = -1;                                                                               \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

#define PR_CUBLAS(call)                                                                            \
    do {                                                                                           \
        cublasStatus_t e_ = (call);                                                                \
        if (e_ != CUBLAS_STATUS_SUCCESS) {                                                         \
            gpu_report(__FILE__, __LINE__, "cuBLASLt", #call, cublasLtGetStatusString(e_));        \
            rc = -1;                                                                               \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

/* A failed callback: stop without printing again. */
#define PR_TRY(call)                                                                               \
    do {                                                                                           \
        if ((call) < 0) {                                                                          \
            rc = -1;                                                                               \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

typedef struct pr_gpu_ctx {
    const pr_gpu_args *args;
    int ndev;                /* GPUs this process drives */
    int dev[PR_GPU_MAX_DEV]; /* their CUDA ordinals */
    cudaStream_t stream[PR_GPU_MAX_DEV];
    int nranks;       /* collectives: ranks over all processes */
    int rank0;        /* the rank of dev[0] */
    int nprocs, proc; /* MPI processes; 1 and 0 without MPI */
    /* dev[0]'s properties */
    int samples_count, cc_major, cc_minor;
    int mem_clock_khz, bus_bits;
    double peak_gbs; /* 0: unknown */
    size_t l2_bytes;
    size_t mem_bytes; /* the smallest memory of the GPUs driven */
    unsigned seed;    /* changes before every check's init */
    void *priv;       /* the workload's own state */
} pr_gpu_ctx;

/* One row of a table. */
typedef struct pr_gpu_point {
    size_t bytes;       /* bandwidth and collectives */
    pr_gpu_shape shape; /* GEMM */
} pr_gpu_point;

typedef struct pr_gpu_workload {
    const char *name;
    /* Once: handles and buffers big enough for every point. */
    int (*setup)(pr_gpu_ctx *c, const pr_gpu_point *pts, size_t npts);
    /* 1: the cell can run; 0: it prints N/A (fp8 below sm_89, no cuBLASLt
     * algorithm, in-place alltoall); -1: error. */
    int (*supported)(pr_gpu_ctx *c, const pr_gpu_point *p, int v);
    /* Fills the inputs the check expects (from c->seed) and clears outputs. */
    int (*init)(pr_gpu_ctx *c, const pr_gpu_point *p, int v);
    /* Enqueues one operation on c->stream[]: the timed operation. */
    int (*run)(pr_gpu_ctx *c, const pr_gpu_point *p, int v);
    /* After init and one run, with the streams idle: elements that are wrong
     * on this process's GPUs. */
    int (*check)(pr_gpu_ctx *c, const pr_gpu_point *p, int v, long long *wrong);
    /* What one operation moves or computes: algbw bytes (collectives), bytes
     * read + written (bandwidth), floating-point operations (GEMM). */
    double (*amount)(const pr_gpu_ctx *c, const pr_gpu_point *p, int v);
    void (*teardown)(pr_gpu_ctx *c);
} pr_gpu_workload;

extern const pr_gpu_workload pr_gpu_bw_workload;
extern const pr_gpu_workload pr_gpu_gemm_workload;
#ifndef PR_NO_NCCL
extern const pr_gpu_workload pr_gpu_coll_workload;
#endif

/* `perfrepro-gpu env`: prints the environment; returns the exit status. */
int gpu_env_main(const pr_gpu_args *a);
/* `perfrepro-gpu --version`: one line, no GPU needed. */
void gpu_version_line(FILE *f);

/* Across MPI processes (identity without MPI). */
double gpu_mpi_max(double x);
long long gpu_mpi_sum(long long x);
int gpu_mpi_min_int(int x);
void gpu_mpi_bcast(void *buf, size_t n);

/* A grid for n items on the current device: 256 threads, at most 32 blocks
 * per SM (grid-stride loops do the rest). */
static inline unsigned gpu_blocks(size_t n, int samples_count)
{
    size_t b = (n + 255) / 256, cap = (size_t)(samples_count > 0 ? samples_count : 1) * 32;
    if (b > cap)
        b = cap;
    return b ? (unsigned)b : 1;
}

/* A 32-bit mix (murmur3's finaliser): pseudo-random test data from an index. */
static __host__ __device__ inline unsigned gpu_hash(unsigned x)
{
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    x ^= x >> 16;
    return x;
}

#endif
