/* gpuhost: the host half of perfrepro-gpu (the CUDA workloads in measure/gpu/).
 *
 * Everything that needs no GPU lives here, in plain C11 on libc alone, so the
 * unit tests run on every machine and perfrepro-gpu links nothing but CUDA,
 * cuBLASLt and NCCL: argument parsing, the size sweep, nccl-tests' element
 * counts and bus-bandwidth factors, the theoretical memory bandwidth, version
 * numbers as text, the tables perfrepro-gpu prints (nccl-tests' own layout for
 * the collectives, the same style for bandwidth and GEMM), the closed form the
 * read-bandwidth check uses, and readers of perfrepro-gpu's `key: value`
 * environment lines and of its PERFREPRO_FAILURE line.
 *
 * docs/gpu.md documents the program and its output.
 */
#ifndef PR_GPUHOST_H
#define PR_GPUHOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit statuses of perfrepro-gpu. */
enum {
    PR_GPU_EXIT_OK = 0,
    PR_GPU_EXIT_FAILED = 1, /* a CUDA, cuBLASLt or NCCL error, or wrong data */
    PR_GPU_EXIT_USAGE = 2,
    PR_GPU_EXIT_NO_GPU = 3, /* no usable GPU (or fewer than asked for) */
};

/* The line a job prints on stderr so that perfrepro-measure records why it
 * failed: "PERFREPRO_FAILURE: <reason>: <detail>". */
#define PR_GPU_FAILURE_PREFIX "PERFREPRO_FAILURE: "

typedef enum { PR_GPU_ENV, PR_GPU_BW, PR_GPU_GEMM, PR_GPU_COLL } pr_gpu_kind;

/* The collectives, named as nccl-tests' binaries without "_perf". */
typedef enum {
    PR_GPU_ALL_REDUCE,
    PR_GPU_ALL_GATHER,
    PR_GPU_REDUCE_SCATTER,
    PR_GPU_BROADCAST,
    PR_GPU_REDUCE,
    PR_GPU_ALLTOALL,
    PR_GPU_SENDRECV,
    PR_GPU_NCOLL
} pr_gpu_coll;

/* NCCL element types, in nccl-tests' order and with its names. */
typedef enum {
    PR_GPU_INT8,
    PR_GPU_UINT8,
    PR_GPU_INT32,
    PR_GPU_UINT32,
    PR_GPU_INT64,
    PR_GPU_UINT64,
    PR_GPU_HALF,
    PR_GPU_FLOAT,
    PR_GPU_DOUBLE,
    PR_GPU_BFLOAT16,
    PR_GPU_NDTYPE
} pr_gpu_dtype;

typedef enum {
    PR_GPU_SUM,
    PR_GPU_PROD,
    PR_GPU_MAX,
    PR_GPU_MIN,
    PR_GPU_AVG,
    PR_GPU_NREDOP
} pr_gpu_redop;

/* GEMM precisions (inputs / compute): fp32/fp32, fp32/tf32, fp16/fp32,
 * bf16/fp32, e4m3/fp32 with a bf16 output. */
typedef enum {
    PR_GPU_FP32,
    PR_GPU_TF32,
    PR_GPU_FP16,
    PR_GPU_BF16,
    PR_GPU_FP8,
    PR_GPU_NPREC
} pr_gpu_prec;

/* Memory-bandwidth kernels. */
typedef enum { PR_GPU_COPY, PR_GPU_READ, PR_GPU_WRITE, PR_GPU_MEMCPY, PR_GPU_NBWK } pr_gpu_bwk;

typedef struct pr_gpu_shape {
    size_t m, n, k;
} pr_gpu_shape;

#define PR_GPU_MAX_SHAPES 64
#define PR_GPU_MAX_POINTS 4096

typedef struct pr_gpu_args {
    const char *workload; /* as given */
    pr_gpu_kind kind;
    pr_gpu_coll coll; /* PR_GPU_COLL only */
    /* Sizes in bytes; for GEMM the smallest and largest square dimension. */
    size_t min_bytes, max_bytes, step_bytes;
    size_t step_factor; /* > 1: multiply; otherwise add step_bytes */
    int iters, warmup, check;
    int ngpus; /* 0: every visible GPU (one per process under MPI) */
    int root;
    pr_gpu_dtype dtype;
    pr_gpu_redop redop;
    unsigned precs;                         /* GEMM: bit 1u << pr_gpu_prec */
    unsigned kernels;                       /* bandwidth: bit 1u << pr_gpu_bwk */
    int square, transformer;                /* GEMM shape sets */
    pr_gpu_shape shapes[PR_GPU_MAX_SHAPES]; /* GEMM -s list (replaces the sets) */
    size_t nshapes;
    int help;    /* -h, --help */
    int version; /* -V, --version */
} pr_gpu_args;

/* ---- names ---- */

const char *gpuhost_coll_name(pr_gpu_coll c);
const char *gpuhost_dtype_name(pr_gpu_dtype t);
size_t gpuhost_dtype_size(pr_gpu_dtype t);
const char *gpuhost_redop_name(pr_gpu_redop op);
const char *gpuhost_prec_name(pr_gpu_prec p);
const char *gpuhost_bwk_name(pr_gpu_bwk k);
/* The dtype for a name: nccl-tests' names and the usual aliases (fp32,
 * float32, fp16, float16, bf16, fp64, float64, int, char); -1 when unknown. */
int gpuhost_dtype_from_name(const char *s);
/* The precision for a name: fp32, tf32, fp16, bf16, fp8 and aliases
 * (float32, float16, half, bfloat16, float8, e4m3; amp computes in fp16). */
int gpuhost_prec_from_name(const char *s);

/* ---- arguments ---- */

/* Parses argv[1..argc) ("WORKLOAD [options]", options also before the
 * workload).  Returns 0 and fills *a, or -1 with the reason in err (one
 * line, no trailing newline).  a->help is set for -h/--help and a->version
 * for -V/--version (the workload may then be missing). */
int gpuhost_parse_args(int argc, char *const argv[], pr_gpu_args *a, char *err, size_t errlen);
void gpuhost_usage(FILE *f, const char *prog);

/* A size as nccl-tests reads it: a number with an optional K, M or G
 * (powers of 1024), e.g. "8", "128M", "0.5K".  The result must be a whole
 * number of bytes up to 2^50.  Returns 0 or -1. */
int gpuhost_parse_size(const char *s, size_t *out);

/* The sizes from min_bytes to max_bytes (nccl-tests' loop: times
 * step_factor, else plus step_bytes) into out[0..cap); returns how many
 * there are (more than cap when they do not all fit). */
size_t gpuhost_sweep(const pr_gpu_args *a, size_t *out, size_t cap);
/* The GEMM shapes the arguments select into out[0..cap); returns the count
 * (more than cap when they do not all fit). */
size_t gpuhost_gemm_shapes(const pr_gpu_args *a, pr_gpu_shape *out, size_t cap);

/* ---- formulas ---- */

/* nccl-tests' element counts for a size in bytes: what each rank sends and
 * receives, the count passed to NCCL, the in-place offsets (elements, times
 * the rank) and the "size" column (the larger of send and receive bytes). */
typedef struct pr_gpu_counts {
    size_t sendcount, recvcount, paramcount;
    size_t send_inplace_offset, recv_inplace_offset;
    size_t size_bytes;
} pr_gpu_counts;
void gpuhost_coll_counts(pr_gpu_coll c, size_t bytes, size_t type_size, int nranks,
                         pr_gpu_counts *out);
/* busbw / algbw: 2(n-1)/n all_reduce; (n-1)/n all_gather, reduce_scatter,
 * alltoall; 1 broadcast, reduce, sendrecv. */
double gpuhost_busbw_factor(pr_gpu_coll c, int nranks);
/* The bytes algbw counts for one operation of paramcount elements (count x
 * type size, times nranks for all_gather, reduce_scatter and alltoall). */
double gpuhost_coll_algbytes(pr_gpu_coll c, size_t paramcount, size_t type_size, int nranks);
int gpuhost_coll_has_redop(pr_gpu_coll c);
int gpuhost_coll_has_root(pr_gpu_coll c);
/* alltoall and sendrecv have no in-place form: that cell prints N/A. */
int gpuhost_coll_in_place(pr_gpu_coll c);

/* Theoretical memory bandwidth in GB/s (1e9 bytes/s) from the memory clock
 * in kHz and the bus width in bits: 2 (double data rate) x clock x width / 8.
 * 0 when either is unknown (<= 0). */
double gpuhost_peak_gbs(int mem_clock_khz, int bus_bits);

/* XOR of the 32-bit words (i ^ seed) for i in [0, n): the read kernel's
 * expected result, in closed form. */
uint32_t gpuhost_xor_pattern(uint64_t n, uint32_t seed);

/* Version codes as text: CUDA 13000 -> "13.0"; NCCL 22809 -> "2.28.9" (and
 * the old 2708 -> "2.7.8"); cuDNN 90100 -> "9.1.0" (and 8100 -> "8.1.0");
 * cuBLASLt 130002 -> "13.0.2".  Write at most n bytes. */
void gpuhost_fmt_cuda_version(int v, char *out, size_t n);
void gpuhost_fmt_nccl_version(int v, char *out, size_t n);
void gpuhost_fmt_cudnn_version(size_t v, char *out, size_t n);
void gpuhost_fmt_cublas_version(size_t v, char *out, size_t n);

/* A time in microseconds the way nccl-tests prints it (%7.0f from 10 ms,
 * %7.1f from 100 us, %7.2f below). */
void gpuhost_fmt_time(double us, char out[32]);

/* ---- tables ---- */

/* One measured cell: a time, a rate, a second figure (busbw for
 * collectives, % of peak for bandwidth), and the wrong elements (-1: not
 * checked).  A cell that did not run prints N/A. */
typedef struct pr_gpu_cell {
    int ran;
    double time_us;
    double rate;  /* algbw GB/s, GB/s, TFLOP/s */
    double rate2; /* busbw GB/s, % of peak (< 0: unknown) */
    long long wrong;
} pr_gpu_cell;

/* What a footer sums up; the row printers fill it. */
typedef struct pr_gpu_tally {
    double bw_sum; /* collectives: busbw summed over every cell that ran */
    long bw_count;
    int errors;                /* cells with wrong elements (nccl-tests' "Out of bounds values") */
    double best[PR_GPU_NPREC]; /* GEMM: best TFLOP/s per precision (0: none ran) */
    pr_gpu_shape best_at[PR_GPU_NPREC];
    double last[PR_GPU_NBWK];     /* bandwidth: GB/s of the last (largest) size that ran */
    double last_pct[PR_GPU_NBWK]; /* its % of peak, < 0 when unknown */
    size_t last_size[PR_GPU_NBWK];
} pr_gpu_tally;

void gpuhost_tally_init(pr_gpu_tally *t);

/* The preamble every table starts with (nccl-tests' first line).  nranks
 * and ngpus describe the collectives; devices are printed by the caller
 * with gpuhost_device_line. */
void gpuhost_preamble(FILE *f, const pr_gpu_args *a, int nprocs, int ngpus);
void gpuhost_device_line(FILE *f, int rank, int pid, int dev, int pci_domain, int pci_bus,
                         int pci_device, const char *name);

/* nccl-tests' table: header, one row per size (out-of-place, in-place),
 * footer ("# Out of bounds values", "# Avg bus bandwidth"). */
void gpuhost_coll_header(FILE *f);
void gpuhost_coll_row(FILE *f, pr_gpu_tally *t, size_t size, size_t count, const char *type,
                      const char *redop, int root, const pr_gpu_cell *out_of_place,
                      const pr_gpu_cell *in_place);
void gpuhost_coll_footer(FILE *f, const pr_gpu_tally *t);

/* Bandwidth: one column group per kernel in `kernels` (bits), rows by size;
 * the header states the theoretical peak (peak_gbs 0: unknown) and the L2
 * size (0: unknown), the footer each kernel's rate at the largest size
 * ("# Bandwidth copy : X GB/s ..."). */
void gpuhost_bw_header(FILE *f, unsigned kernels, double peak_gbs, int mem_clock_khz, int bus_bits,
                       size_t l2_bytes);
void gpuhost_bw_row(FILE *f, pr_gpu_tally *t, unsigned kernels, size_t size,
                    const pr_gpu_cell cells[PR_GPU_NBWK]);
void gpuhost_bw_footer(FILE *f, const pr_gpu_tally *t, unsigned kernels);

/* GEMM: one column group per precision in `precs` (bits), rows by shape;
 * the footer gives each precision's best TFLOP/s and where
 * ("# Best fp16 TFLOP/s : X at M=.. N=.. K=.."). */
void gpuhost_gemm_header(FILE *f, unsigned precs);
void gpuhost_gemm_row(FILE *f, pr_gpu_tally *t, unsigned precs, const pr_gpu_shape *s,
                      const pr_gpu_cell cells[PR_GPU_NPREC]);
void gpuhost_gemm_footer(FILE *f, const pr_gpu_tally *t, unsigned precs);

/* ---- reading perfrepro-gpu's own output ---- */

/* The value of `key: value` in text (`perfrepro-gpu env` output): copies
 * it to out (trimmed) and returns 1; returns 0 when the key is absent or
 * its value is "not found", "not built" or "unknown". */
int gpuhost_env_value(const char *text, const char *key, char *out, size_t outlen);

/* A "PERFREPRO_FAILURE: reason: detail" line (leading blanks and an mpirun
 * "[1,0]<stderr>:" prefix allowed): returns 1 with the reason copied to
 * reason (letters, digits, '_') and *detail pointing at the detail in line;
 * 0 when the line is not one. */
int gpuhost_failure_parse(const char *line, char *reason, size_t reasonlen, const char **detail);

#ifdef __cplusplus
}
#endif

#endif
