/* env: what a result needs beside it (the GPUs, their clocks and memory,
 * driver, CUDA, NCCL, cuBLASLt and cuDNN versions, peer access), as
 * `key: value` lines that gpuhost_env_value (gpuhost.c) reads back.  The
 * top-level keys match the environment record's "gpu" object (name, count,
 * driver, cuda, cudnn, nccl); docs/gpu.md lists them all.
 *
 * cuDNN and the driver's version (NVML) are looked up with dlopen: neither
 * is needed to build or run, and "not found" is a fine answer.
 */
#include <cublasLt.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#ifndef PR_NO_NCCL
#include <nccl.h>
#endif

#include "gpu.h"

static void cudnn_version(char *out, size_t n)
{
    static const char *const libs[] = {"libcudnn.so.9", "libcudnn.so.8", "libcudnn.so"};
    snprintf(out, n, "not found");
    for (size_t i = 0; i < sizeof libs / sizeof *libs; i++) {
        void *h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
        if (!h)
            continue;
        size_t (*get)(void) = (size_t(*)(void))dlsym(h, "cudnnGetVersion");
        if (get)
            gpuhost_fmt_cudnn_version(get(), out, n);
        dlclose(h);
        if (get)
            return;
    }
}

/* The driver release ("570.124.06"), which only NVML knows; the CUDA
 * driver API gives the CUDA version it supports instead. */
static void driver_version(char *out, size_t n)
{
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    snprintf(out, n, "not found");
    if (!h)
        return;
    int (*init)(void) = (int (*)(void))dlsym(h, "nvmlInit_v2");
    int (*get)(char *, unsigned) =
        (int (*)(char *, unsigned))dlsym(h, "nvmlSystemGetDriverVersion");
    int (*shut)(void) = (int (*)(void))dlsym(h, "nvmlShutdown");
    if (init && get && shut && init() == 0) {
        char buf[96] = "";
        if (get(buf, sizeof buf) == 0 && buf[0])
            snprintf(out, n, "%s", buf);
        shut();
    }
    dlclose(h);
}

/* The library versions, which need no GPU. */
static void libraries(void)
{
    int v = 0;
    char s[64];
    driver_version(s, sizeof s);
    printf("driver: %s\n", s);
    if (cudaRuntimeGetVersion(&v) == cudaSuccess && v > 0) {
        gpuhost_fmt_cuda_version(v, s, sizeof s);
        printf("cuda: %s\n", s);
    } else {
        printf("cuda: not found\n");
    }
    v = 0;
    if (cudaDriverGetVersion(&v) == cudaSuccess && v > 0) {
        gpuhost_fmt_cuda_version(v, s, sizeof s);
        printf("cuda_driver: %s\n", s);
    } else {
        printf("cuda_driver: not found\n");
    }
#ifndef PR_NO_NCCL
    v = 0;
    if (ncclGetVersion(&v) == ncclSuccess && v > 0) {
        gpuhost_fmt_nccl_version(v, s, sizeof s);
        printf("nccl: %s\n", s);
    } else {
        printf("nccl: not found\n");
    }
#else
    printf("nccl: not built\n");
#endif
    gpuhost_fmt_cublas_version(cublasLtGetVersion(), s, sizeof s);
    printf("cublaslt: %s\n", s);
    cudnn_version(s, sizeof s);
    printf("cudnn: %s\n", s);
    (void)cudaGetLastError();
}

void gpu_version_line(FILE *f)
{
    int v = 0;
    char cuda[32] = "unknown", lt[32], nccl[32] = "none";
    if (cudaRuntimeGetVersion(&v) == cudaSuccess && v > 0)
        gpuhost_fmt_cuda_version(v, cuda, sizeof cuda);
    gpuhost_fmt_cublas_version(cublasLtGetVersion(), lt, sizeof lt);
#ifndef PR_NO_NCCL
    v = 0;
    if (ncclGetVersion(&v) == ncclSuccess && v > 0)
        gpuhost_fmt_nccl_version(v, nccl, sizeof nccl);
#endif
    fprintf(f, "perfrepro-gpu 1 (CUDA %s, cuBLASLt %s, NCCL %s)\n", cuda, lt, nccl);
}

static int attr(cudaDeviceAttr a, int dev)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return v;
}

int gpu_env_main(const pr_gpu_args *a)
{
    int rc = 0, count = 0, can = 0;
    cudaError_t ce;
    cudaDeviceProp prop, first;
    (void)a;
    printf("# perfrepro-gpu env\n");
    ce = cudaGetDeviceCount(&count);
    if (ce != cudaSuccess || count <= 0) {
        /* What the libraries say is still worth having in the log. */
        printf("count: 0\n");
        libraries();
        return gpu_no_gpu("%s", ce != cudaSuccess ? cudaGetErrorString(ce)
                                                     : "cudaGetDeviceCount found no CUDA device");
    }
    PR_CUDA(cudaGetDeviceProperties(&first, 0));
    printf("name: %s\n", first.name);
    printf("count: %d\n", count);
    libraries();
    for (int d = 0; d < count; d++) {
        int mem_khz, bus;
        PR_CUDA(cudaGetDeviceProperties(&prop, d));
        if (strcmp(prop.name, first.name) != 0)
            printf("# note: the GPUs differ (device %d: %s)\n", d, prop.name);
        mem_khz = attr(cudaDevAttrMemoryClockRate, d);
        bus = attr(cudaDevAttrGlobalMemoryBusWidth, d);
        printf("device.%d.name: %s\n", d, prop.name);
        printf("device.%d.pci: %04x:%02x:%02x.0\n", d, prop.pciDomainID, prop.pciBusID,
               prop.pciDeviceID);
        printf("device.%d.compute_capability: %d.%d\n", d, prop.major, prop.minor);
        printf("device.%d.memory_mib: %zu\n", d, prop.totalGlobalMem >> 20);
        printf("device.%d.sm_count: %d\n", d, prop.multiProcessorCount);
        printf("device.%d.sm_clock_mhz: %d\n", d, attr(cudaDevAttrClockRate, d) / 1000);
        printf("device.%d.memory_clock_mhz: %d\n", d, mem_khz / 1000);
        printf("device.%d.memory_bus_bits: %d\n", d, bus);
        if (gpuhost_peak_gbs(mem_khz, bus) > 0)
            printf("device.%d.memory_peak_gbs: %.2f\n", d, gpuhost_peak_gbs(mem_khz, bus));
        else
            printf("device.%d.memory_peak_gbs: unknown\n", d);
        printf("device.%d.l2_cache_mib: %.1f\n", d, prop.l2CacheSize / 1048576.0);
    }
    /* One line per GPU: Y where it can read and write the other's memory
     * directly (NVLink or PCIe peer to peer), N where not. */
    printf("# peer access: row can access column (cudaDeviceCanAccessPeer)\n");
    for (int d = 0; d < count; d++) {
        printf("peer_access.%d:", d);
        for (int e = 0; e < count; e++) {
            if (d == e) {
                printf(" -");
                continue;
            }
            PR_CUDA(cudaDeviceCanAccessPeer(&can, d, e));
            printf(" %s", can ? "Y" : "N");
        }
        printf("\n");
    }
out:
    fflush(stdout);
    return rc < 0 ? PR_GPU_EXIT_FAILED : PR_GPU_EXIT_OK;
}
