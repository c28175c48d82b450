/* perfrepro-gpu: the harness.  Parses the arguments (gpuhost_args.c), finds the
 * GPUs, sets up MPI when started by mpirun/srun, and for every cell of the
 * workload's table runs warm-up, the timed loop (CUDA events, the slowest GPU
 * and process counts) and the data check, then prints the table.
 *
 * Without a usable GPU it prints "PERFREPRO_FAILURE: no_gpu: ..." on stderr
 * and exits 3, so perfrepro-measure records the case as failed for that
 * reason instead of as a crash.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef PR_WITH_MPI
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

#include "gpu.h"

void gpu_report(const char *file, int line, const char *lib, const char *call,
                   const char *msg)
{
    fprintf(stderr, "perfrepro-gpu: %s:%d: %s error: %s: %s\n", file, line, lib, call, msg);
}

int gpu_no_gpu(const char *fmt, ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    fflush(stdout);
    fprintf(stderr, PR_GPU_FAILURE_PREFIX "no_gpu: %s\n", detail);
    return PR_GPU_EXIT_NO_GPU;
}

/* ---- MPI ---- */

#ifdef PR_WITH_MPI
static int mpi_on; /* MPI_Init was called */
#endif

/* The process count a launcher announces, 0 when none does. */
static int launcher_size(const char **var)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE",
                                       "SLURM_NTASKS", "MV2_COMM_WORLD_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            *var = vars[i];
            return atoi(v);
        }
    }
    return 0;
}

double gpu_mpi_max(double x)
{
#ifdef PR_WITH_MPI
    if (mpi_on)
        MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
#endif
    return x;
}

long long gpu_mpi_sum(long long x)
{
#ifdef PR_WITH_MPI
    if (mpi_on)
        MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
#endif
    return x;
}

int gpu_mpi_min_int(int x)
{
#ifdef PR_WITH_MPI
    if (mpi_on)
        MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
#endif
    return x;
}

void gpu_mpi_bcast(void *buf, size_t n)
{
#ifdef PR_WITH_MPI
    if (mpi_on)
        MPI_Bcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
#else
    (void)buf;
    (void)n;
#endif
}

/* Starts MPI when a launcher started several processes; sets the process
 * count, this process's index and its index on this host. */
static int mpi_start(int *argc, char ***argv, pr_gpu_ctx *c, int *local, const char *prog)
{
    const char *var = NULL;
    int n = launcher_size(&var);
    c->nprocs = 1;
    c->proc = 0;
    *local = 0;
    if (n <= 1)
        return 0;
#ifdef PR_WITH_MPI
    MPI_Comm node;
    (void)prog;
    MPI_Init(argc, argv);
    mpi_on = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &c->nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &c->proc);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, c->proc, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, local);
    MPI_Comm_free(&node);
    return 0;
#else
    (void)argc;
    (void)argv;
    fprintf(stderr,
            "%s: started as one of %d processes (%s) but built without MPI: build where "
            "mpicc exists, or run one process over all GPUs (-g N)\n",
            prog, n, var);
    return -1;
#endif
}

static void mpi_stop(void)
{
#ifdef PR_WITH_MPI
    if (mpi_on)
        MPI_Finalize();
    mpi_on = 0;
#endif
}

/* Collects each process's device lines on process 0, in rank order. */
static void print_devices(const char *lines)
{
#ifdef PR_WITH_MPI
    if (mpi_on) {
        enum { MAX = 8192 };
        char mine[MAX];
        int n = 0, me = 0;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
        snprintf(mine, sizeof mine, "%s", lines);
        char *all = me == 0 ? (char *)malloc((size_t)n * MAX) : NULL;
        MPI_Gather(mine, MAX, MPI_CHAR, all, MAX, MPI_CHAR, 0, MPI_COMM_WORLD);
        if (all) {
            for (int i = 0; i < n; i++)
                fputs(all + (size_t)i * MAX, stdout);
            free(all);
        }
        return;
    }
#endif
    fputs(lines, stdout);
}

/* ---- timing one cell ---- */

typedef struct timers {
    cudaEvent_t start[PR_GPU_MAX_DEV], stop[PR_GPU_MAX_DEV];
} timers;

static int sync_all(pr_gpu_ctx *c)
{
    int rc = 0;
    for (int i = 0; i < c->ndev; i++) {
        PR_CUDA(cudaSetDevice(c->dev[i]));
        PR_CUDA(cudaStreamSynchronize(c->stream[i]));
    }
out:
    return rc;
}

/* Runs one cell; a cell that cannot run here (on any process) stays
 * !ran and prints N/A. */
static int measure(pr_gpu_ctx *c, const pr_gpu_workload *w, timers *tm, const pr_gpu_point *p,
                   int v, pr_gpu_cell *cell)
{
    int rc = 0, sup, it;
    float ms = 0, worst = 0;
    double sec, amount;
    long long wrong = 0;
    const pr_gpu_args *a = c->args;
    memset(cell, 0, sizeof *cell);
    cell->wrong = -1;
    sup = w->supported(c, p, v);
    if (sup < 0)
        rc = -1;
    /* Every process must take the same path or the collectives hang. */
    sup = gpu_mpi_min_int(sup);
    if (sup <= 0)
        goto out;

    PR_TRY(w->init(c, p, v));
    for (it = 0; it < a->warmup; it++)
        PR_TRY(w->run(c, p, v));
    PR_TRY(sync_all(c));
    for (int i = 0; i < c->ndev; i++) {
        PR_CUDA(cudaSetDevice(c->dev[i]));
        PR_CUDA(cudaEventRecord(tm->start[i], c->stream[i]));
    }
    for (it = 0; it < a->iters; it++)
        PR_TRY(w->run(c, p, v));
    for (int i = 0; i < c->ndev; i++) {
        PR_CUDA(cudaSetDevice(c->dev[i]));
        PR_CUDA(cudaEventRecord(tm->stop[i], c->stream[i]));
    }
    /* An operation is done when its slowest GPU is. */
    for (int i = 0; i < c->ndev; i++) {
        PR_CUDA(cudaSetDevice(c->dev[i]));
        PR_CUDA(cudaEventSynchronize(tm->stop[i]));
        PR_CUDA(cudaEventElapsedTime(&ms, tm->start[i], tm->stop[i]));
        if (ms > worst)
            worst = ms;
    }
    sec = gpu_mpi_max((double)worst / 1e3 / a->iters);

    if (a->check) {
        c->seed++;
        PR_TRY(w->init(c, p, v));
        PR_TRY(w->run(c, p, v));
        PR_TRY(sync_all(c));
        PR_TRY(w->check(c, p, v, &wrong));
        cell->wrong = gpu_mpi_sum(wrong);
    }
    amount = w->amount(c, p, v);
    cell->ran = 1;
    cell->time_us = sec * 1e6;
    switch (a->kind) {
    case PR_GPU_COLL:
        cell->rate = sec > 0 ? amount / sec / 1e9 : 0;
        cell->rate2 = cell->rate * gpuhost_busbw_factor(a->coll, c->nranks);
        break;
    case PR_GPU_BW:
        cell->rate = sec > 0 ? amount / sec / 1e9 : 0;
        cell->rate2 = c->peak_gbs > 0 ? cell->rate / c->peak_gbs * 100.0 : -1;
        break;
    default:
        cell->rate = sec > 0 ? amount / sec / 1e12 : 0;
        cell->rate2 = -1;
        break;
    }
out:
    return rc;
}

/* ---- devices ---- */

static int describe_devices(pr_gpu_ctx *c)
{
    int rc = 0, v = 0;
    size_t len = 0;
    char lines[8192];
    cudaDeviceProp prop;
    lines[0] = '\0';
    c->mem_bytes = (size_t)-1;
    for (int i = 0; i < c->ndev; i++) {
        PR_CUDA(cudaGetDeviceProperties(&prop, c->dev[i]));
        if (prop.totalGlobalMem < c->mem_bytes)
            c->mem_bytes = prop.totalGlobalMem;
        if (i == 0) {
            c->samples_count = prop.multiProcessorCount;
            c->cc_major = prop.major;
            c->cc_minor = prop.minor;
            c->l2_bytes = (size_t)prop.l2CacheSize;
            /* cudaDeviceProp lost memoryClockRate in CUDA 13: ask the
             * attribute; 0 when the device does not say. */
            if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, c->dev[0]) == cudaSuccess)
                c->mem_clock_khz = v;
            if (cudaDeviceGetAttribute(&v, cudaDevAttrGlobalMemoryBusWidth, c->dev[0]) ==
                cudaSuccess)
                c->bus_bits = v;
            (void)cudaGetLastError();
            c->peak_gbs = gpuhost_peak_gbs(c->mem_clock_khz, c->bus_bits);
        }
        if (len < sizeof lines) {
            FILE *f = fmemopen(lines + len, sizeof lines - len, "w");
            if (f) {
                gpuhost_device_line(f, c->rank0 + i, (int)getpid(), c->dev[i], prop.pciDomainID,
                                   prop.pciBusID, prop.pciDeviceID, prop.name);
                fflush(f);
                len += (size_t)ftell(f);
                fclose(f);
            }
        }
    }
    print_devices(lines);
out:
    return rc;
}

/* Lowers the largest size when two buffers of it would not fit, keeping
 * 1 GiB for the libraries (nccl-tests does the same). */
static void fit_memory(pr_gpu_ctx *c, pr_gpu_args *a)
{
    size_t reserve = (size_t)1 << 30, cap;
    if (a->kind != PR_GPU_COLL && a->kind != PR_GPU_BW)
        return;
    if (c->mem_bytes <= reserve)
        return;
    cap = (c->mem_bytes - reserve) / 2;
    if (a->max_bytes > cap) {
        a->max_bytes = cap;
        if (c->proc == 0)
            printf("#\n# Reducing maxBytes to %zu due to memory limitation\n", cap);
    }
    if (a->min_bytes > a->max_bytes)
        a->min_bytes = a->max_bytes;
}

/* ---- one table ---- */

static const pr_gpu_workload *workload_for(const pr_gpu_args *a)
{
    switch (a->kind) {
    case PR_GPU_BW:
        return &pr_gpu_bw_workload;
    case PR_GPU_GEMM:
        return &pr_gpu_gemm_workload;
    case PR_GPU_COLL:
#ifndef PR_NO_NCCL
        return &pr_gpu_coll_workload;
#else
        return NULL;
#endif
    default:
        return NULL;
    }
}

static int run_table(pr_gpu_ctx *c, pr_gpu_args *a, const pr_gpu_workload *w, int *errors)
{
    int rc = 0, set_up = 0, nvar = 0, vars[8];
    size_t npts = 0, i;
    int print = c->proc == 0;
    pr_gpu_point *pts = NULL;
    pr_gpu_cell cells[8];
    pr_gpu_tally tally;
    timers tm;
    memset(&tm, 0, sizeof tm);
    gpuhost_tally_init(&tally);

    if (a->kind == PR_GPU_GEMM) {
        pr_gpu_shape shapes[PR_GPU_MAX_POINTS];
        npts = gpuhost_gemm_shapes(a, shapes, PR_GPU_MAX_POINTS);
        pts = (pr_gpu_point *)calloc(npts ? npts : 1, sizeof *pts);
        for (i = 0; pts && i < npts; i++)
            pts[i].shape = shapes[i];
    } else {
        size_t sizes[PR_GPU_MAX_POINTS];
        npts = gpuhost_sweep(a, sizes, PR_GPU_MAX_POINTS);
        pts = (pr_gpu_point *)calloc(npts ? npts : 1, sizeof *pts);
        for (i = 0; pts && i < npts; i++)
            pts[i].bytes = sizes[i];
    }
    if (!pts) {
        fprintf(stderr, "perfrepro-gpu: out of host memory\n");
        rc = -1;
        goto out;
    }
    switch (a->kind) {
    case PR_GPU_COLL:
        vars[nvar++] = 0; /* out-of-place */
        vars[nvar++] = 1; /* in-place */
        break;
    case PR_GPU_BW:
        for (int k = 0; k < PR_GPU_NBWK; k++)
            if (a->kernels & (1u << k))
                vars[nvar++] = k;
        break;
    default:
        for (int k = 0; k < PR_GPU_NPREC; k++)
            if (a->precs & (1u << k))
                vars[nvar++] = k;
        break;
    }

    for (int d = 0; d < c->ndev; d++) {
        PR_CUDA(cudaSetDevice(c->dev[d]));
        PR_CUDA(cudaEventCreate(&tm.start[d]));
        PR_CUDA(cudaEventCreate(&tm.stop[d]));
    }
    /* teardown copes with a setup that failed half-way. */
    set_up = 1;
    PR_TRY(w->setup(c, pts, npts));

    if (print) {
        switch (a->kind) {
        case PR_GPU_COLL:
            gpuhost_coll_header(stdout);
            break;
        case PR_GPU_BW:
            gpuhost_bw_header(stdout, a->kernels, c->peak_gbs, c->mem_clock_khz, c->bus_bits,
                             c->l2_bytes);
            break;
        default:
            gpuhost_gemm_header(stdout, a->precs);
            break;
        }
        fflush(stdout);
    }
    for (i = 0; i < npts; i++) {
        pr_gpu_cell row[8]; /* by variant: PR_GPU_NPREC, PR_GPU_NBWK <= 8 */
        memset(row, 0, sizeof row);
        for (int k = 0; k < nvar; k++) {
            PR_TRY(measure(c, w, &tm, &pts[i], vars[k], &cells[k]));
            row[vars[k]] = cells[k];
        }
        if (!print)
            continue;
        if (a->kind == PR_GPU_COLL) {
            size_t ts = gpuhost_dtype_size(a->dtype);
            pr_gpu_counts n;
            gpuhost_coll_counts(a->coll, pts[i].bytes, ts, c->nranks, &n);
            gpuhost_coll_row(stdout, &tally, n.size_bytes, n.paramcount,
                            gpuhost_dtype_name(a->dtype),
                            gpuhost_coll_has_redop(a->coll) ? gpuhost_redop_name(a->redop) : "none",
                            gpuhost_coll_has_root(a->coll) ? a->root : -1, &cells[0], &cells[1]);
        } else if (a->kind == PR_GPU_BW) {
            gpuhost_bw_row(stdout, &tally, a->kernels, pts[i].bytes, row);
        } else {
            gpuhost_gemm_row(stdout, &tally, a->precs, &pts[i].shape, row);
        }
        fflush(stdout);
    }
    if (print) {
        if (a->kind == PR_GPU_COLL)
            gpuhost_coll_footer(stdout, &tally);
        else if (a->kind == PR_GPU_BW)
            gpuhost_bw_footer(stdout, &tally, a->kernels);
        else
            gpuhost_gemm_footer(stdout, &tally, a->precs);
    }
    *errors = tally.errors;
out:
    if (set_up)
        w->teardown(c);
    for (int d = 0; d < c->ndev; d++) {
        if (tm.start[d])
            cudaEventDestroy(tm.start[d]);
        if (tm.stop[d])
            cudaEventDestroy(tm.stop[d]);
    }
    free(pts);
    return rc;
}

/* ---- main ---- */

int main(int argc, char **argv)
{
    int rc = 0, status = PR_GPU_EXIT_OK, count = 0, local = 0, errors = 0;
    const char *prog = "perfrepro-gpu";
    char err[512];
    pr_gpu_args a;
    pr_gpu_ctx c;
    const pr_gpu_workload *w;
    cudaError_t ce;
    memset(&c, 0, sizeof c);
    /* Line-buffered: a killed job still leaves every finished row in its log. */
    setvbuf(stdout, NULL, _IOLBF, 0);

    if (gpuhost_parse_args(argc, argv, &a, err, sizeof err) < 0) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return PR_GPU_EXIT_USAGE;
    }
    if (a.help) {
        gpuhost_usage(stdout, prog);
        return PR_GPU_EXIT_OK;
    }
    if (a.version) {
        gpu_version_line(stdout);
        return PR_GPU_EXIT_OK;
    }
    if (a.kind == PR_GPU_ENV)
        return gpu_env_main(&a);
    w = workload_for(&a);
    if (!w) {
        fprintf(stderr, "%s: %s: this build has no NCCL (nccl.h was not found at build time)\n",
                prog, a.workload);
        return PR_GPU_EXIT_USAGE;
    }
    c.args = &a;

    /* MPI first: a launcher's processes must all take part in what follows. */
    if (a.kind == PR_GPU_COLL && mpi_start(&argc, &argv, &c, &local, prog) < 0)
        return PR_GPU_EXIT_USAGE;

    ce = cudaGetDeviceCount(&count);
    if (ce != cudaSuccess) {
        status = gpu_no_gpu("%s", cudaGetErrorString(ce));
        goto done;
    }
    if (count <= 0) {
        status = gpu_no_gpu("cudaGetDeviceCount found no CUDA device");
        goto done;
    }
    if (a.kind == PR_GPU_COLL) {
        c.ndev = a.ngpus ? a.ngpus : (c.nprocs > 1 ? 1 : count);
        if (c.ndev > PR_GPU_MAX_DEV) {
            fprintf(stderr, "%s: at most %d GPUs per process\n", prog, PR_GPU_MAX_DEV);
            status = PR_GPU_EXIT_USAGE;
            goto done;
        }
        if ((local + 1) * c.ndev > count) {
            status = gpu_no_gpu("process %d needs GPUs %d to %d, but %d %s visible", c.proc,
                                   local * c.ndev, (local + 1) * c.ndev - 1, count,
                                   count == 1 ? "is" : "are");
            goto done;
        }
        for (int i = 0; i < c.ndev; i++)
            c.dev[i] = local * c.ndev + i;
        c.nranks = c.nprocs * c.ndev;
        c.rank0 = c.proc * c.ndev;
        if (gpuhost_coll_has_root(a.coll) && a.root >= c.nranks) {
            fprintf(stderr, "%s: -r %d: the root must be below the rank count %d\n", prog,
                    a.root, c.nranks);
            status = PR_GPU_EXIT_USAGE;
            goto done;
        }
    } else {
        c.ndev = 1;
        c.dev[0] = 0;
        c.nranks = 1;
    }
    for (int i = 0; i < c.ndev; i++) {
        PR_CUDA(cudaSetDevice(c.dev[i]));
        PR_CUDA(cudaStreamCreateWithFlags(&c.stream[i], cudaStreamNonBlocking));
    }
    c.seed = 1;

    if (c.proc == 0)
        gpuhost_preamble(stdout, &a, c.nprocs, c.ndev);
    PR_TRY(describe_devices(&c));
    fit_memory(&c, &a);
    PR_TRY(run_table(&c, &a, w, &errors));
    if (errors)
        status = PR_GPU_EXIT_FAILED;
out:
    if (rc < 0)
        status = PR_GPU_EXIT_FAILED;
    for (int i = 0; i < c.ndev; i++)
        if (c.stream[i]) {
            cudaSetDevice(c.dev[i]);
            cudaStreamDestroy(c.stream[i]);
        }
done:
    fflush(stdout);
    mpi_stop();
    return status;
}
