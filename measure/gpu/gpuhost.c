/* gpuhost: names, sizes and formulas of the GPU workloads, and reading their output back. */
#include "gpuhost.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuhost_int.h"

/* ---- names ---- */

const char *const gpuhost_coll_names[PR_GPU_NCOLL] = {
    "all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "alltoall", "sendrecv"};

static const char *const dtype_names[PR_GPU_NDTYPE] = {
    "int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double", "bfloat16"};

static const size_t dtype_sizes[PR_GPU_NDTYPE] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2};

const char *const gpuhost_redop_names[PR_GPU_NREDOP] = {"sum", "prod", "max", "min", "avg"};

const char *const gpuhost_prec_names[PR_GPU_NPREC] = {"fp32", "tf32", "fp16", "bf16", "fp8"};

const char *const gpuhost_bwk_names[PR_GPU_NBWK] = {"copy", "read", "write", "memcpy"};

const char *gpuhost_coll_name(pr_gpu_coll c)
{
    return gpuhost_coll_names[c];
}

const char *gpuhost_dtype_name(pr_gpu_dtype t)
{
    return dtype_names[t];
}

size_t gpuhost_dtype_size(pr_gpu_dtype t)
{
    return dtype_sizes[t];
}

const char *gpuhost_redop_name(pr_gpu_redop op)
{
    return gpuhost_redop_names[op];
}

const char *gpuhost_prec_name(pr_gpu_prec p)
{
    return gpuhost_prec_names[p];
}

const char *gpuhost_bwk_name(pr_gpu_bwk k)
{
    return gpuhost_bwk_names[k];
}

int gpuhost_index_of(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

int gpuhost_dtype_from_name(const char *s)
{
    /* The aliases: the suite placeholders {dtype} (float32, float16,
     * bfloat16) and {precision} (fp32, fp16, bf16), and nccl-tests' old
     * names (char, int). */
    static const struct {
        const char *name;
        pr_gpu_dtype t;
    } alias[] = {
        {"char", PR_GPU_INT8},    {"int", PR_GPU_INT32},      {"fp16", PR_GPU_HALF},
        {"float16", PR_GPU_HALF}, {"fp32", PR_GPU_FLOAT},     {"float32", PR_GPU_FLOAT},
        {"fp64", PR_GPU_DOUBLE},  {"float64", PR_GPU_DOUBLE}, {"bf16", PR_GPU_BFLOAT16},
    };
    int i = gpuhost_index_of(s, dtype_names, PR_GPU_NDTYPE);
    if (i >= 0)
        return i;
    for (size_t k = 0; k < sizeof alias / sizeof *alias; k++)
        if (strcmp(s, alias[k].name) == 0)
            return (int)alias[k].t;
    return -1;
}

int gpuhost_prec_from_name(const char *s)
{
    static const struct {
        const char *name;
        pr_gpu_prec p;
    } alias[] = {
        {"float32", PR_GPU_FP32}, {"float", PR_GPU_FP32}, {"float16", PR_GPU_FP16},
        {"half", PR_GPU_FP16},    {"amp", PR_GPU_FP16},   {"bfloat16", PR_GPU_BF16},
        {"float8", PR_GPU_FP8},   {"e4m3", PR_GPU_FP8},
    };
    int i = gpuhost_index_of(s, gpuhost_prec_names, PR_GPU_NPREC);
    if (i >= 0)
        return i;
    for (size_t k = 0; k < sizeof alias / sizeof *alias; k++)
        if (strcmp(s, alias[k].name) == 0)
            return (int)alias[k].p;
    return -1;
}

/* ---- numbers ---- */

#define SIZE_LIMIT ((size_t)1 << 50)

int gpuhost_parse_size(const char *s, size_t *out)
{
    if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v) || v < 0)
        return -1;
    double unit = 1;
    switch (*end) {
    case 'k':
    case 'K':
        unit = 1024.0;
        end++;
        break;
    case 'm':
    case 'M':
        unit = 1024.0 * 1024;
        end++;
        break;
    case 'g':
    case 'G':
        unit = 1024.0 * 1024 * 1024;
        end++;
        break;
    default:
        break;
    }
    if (*end)
        return -1;
    v *= unit;
    /* A fraction of a byte is a typing mistake, not something to round. */
    if (v > (double)SIZE_LIMIT || v != floor(v))
        return -1;
    *out = (size_t)v;
    return 0;
}

/* ---- formulas ---- */

size_t gpuhost_sweep(const pr_gpu_args *a, size_t *out, size_t cap)
{
    size_t n = 0;
    size_t s = a->min_bytes;
    while (s <= a->max_bytes) {
        if (out && n < cap) /* out NULL: count only */
            out[n] = s;
        n++;
        /* Stop counting once past any useful limit. */
        if (n > PR_GPU_MAX_POINTS)
            break;
        size_t next;
        if (a->step_factor > 1) {
            if (s > a->max_bytes / a->step_factor)
                break;
            next = s * a->step_factor;
        } else {
            if (a->step_bytes == 0 || s > a->max_bytes - a->step_bytes)
                break;
            next = s + a->step_bytes;
        }
        s = next;
    }
    return n;
}

/* Transformer layers at 8192 tokens and hidden size 4096: the attention
 * projection, the fused QKV projection, and the MLP's up and down GEMMs
 * (M = tokens, N = outputs, K = inputs). */
static const pr_gpu_shape transformer_shapes[] = {
    {8192, 4096, 4096}, {8192, 12288, 4096}, {8192, 16384, 4096}, {8192, 4096, 16384}};

size_t gpuhost_gemm_shapes(const pr_gpu_args *a, pr_gpu_shape *out, size_t cap)
{
    size_t n = 0;
    if (a->nshapes) {
        for (size_t i = 0; i < a->nshapes; i++, n++)
            if (n < cap)
                out[n] = a->shapes[i];
        return n;
    }
    if (a->square) {
        size_t dims[PR_GPU_MAX_POINTS];
        size_t nd = gpuhost_sweep(a, dims, PR_GPU_MAX_POINTS);
        if (nd > PR_GPU_MAX_POINTS)
            nd = PR_GPU_MAX_POINTS;
        for (size_t i = 0; i < nd; i++, n++)
            if (n < cap)
                out[n] = (pr_gpu_shape){dims[i], dims[i], dims[i]};
    }
    if (a->transformer)
        for (size_t i = 0; i < sizeof transformer_shapes / sizeof *transformer_shapes; i++, n++)
            if (n < cap)
                out[n] = transformer_shapes[i];
    return n;
}

void gpuhost_coll_counts(pr_gpu_coll c, size_t bytes, size_t type_size, int nranks,
                         pr_gpu_counts *o)
{
    size_t count = bytes / type_size, n = nranks > 0 ? (size_t)nranks : 1;
    memset(o, 0, sizeof *o);
    switch (c) {
    case PR_GPU_ALL_GATHER:
        o->sendcount = count / n;
        o->recvcount = (count / n) * n;
        o->send_inplace_offset = count / n;
        o->paramcount = o->sendcount;
        break;
    case PR_GPU_REDUCE_SCATTER:
        o->sendcount = (count / n) * n;
        o->recvcount = count / n;
        o->recv_inplace_offset = count / n;
        o->paramcount = o->recvcount;
        break;
    case PR_GPU_ALLTOALL:
        o->sendcount = o->recvcount = (count / n) * n;
        o->paramcount = count / n;
        break;
    default: /* all_reduce, broadcast, reduce, sendrecv */
        o->sendcount = o->recvcount = o->paramcount = count;
        break;
    }
    size_t m = o->sendcount > o->recvcount ? o->sendcount : o->recvcount;
    o->size_bytes = m * type_size;
}

double gpuhost_busbw_factor(pr_gpu_coll c, int nranks)
{
    double n = nranks;
    switch (c) {
    case PR_GPU_ALL_REDUCE:
        return 2.0 * (n - 1) / n;
    case PR_GPU_ALL_GATHER:
    case PR_GPU_REDUCE_SCATTER:
    case PR_GPU_ALLTOALL:
        return (n - 1) / n;
    default:
        return 1.0;
    }
}

double gpuhost_coll_algbytes(pr_gpu_coll c, size_t paramcount, size_t type_size, int nranks)
{
    double b = (double)paramcount * (double)type_size;
    if (c == PR_GPU_ALL_GATHER || c == PR_GPU_REDUCE_SCATTER || c == PR_GPU_ALLTOALL)
        b *= nranks;
    return b;
}

int gpuhost_coll_has_redop(pr_gpu_coll c)
{
    return c == PR_GPU_ALL_REDUCE || c == PR_GPU_REDUCE_SCATTER || c == PR_GPU_REDUCE;
}

int gpuhost_coll_has_root(pr_gpu_coll c)
{
    return c == PR_GPU_BROADCAST || c == PR_GPU_REDUCE;
}

int gpuhost_coll_in_place(pr_gpu_coll c)
{
    return c != PR_GPU_ALLTOALL && c != PR_GPU_SENDRECV;
}

double gpuhost_peak_gbs(int mem_clock_khz, int bus_bits)
{
    if (mem_clock_khz <= 0 || bus_bits <= 0)
        return 0;
    return 2.0 * mem_clock_khz * 1e3 * bus_bits / 8.0 / 1e9;
}

uint32_t gpuhost_xor_pattern(uint64_t n, uint32_t seed)
{
    /* XOR of 0..x: x, 1, x+1, 0 by x mod 4.  The index is taken mod 2^32
     * and every whole period of 2^32 words XORs to 0. */
    uint32_t r = (uint32_t)n, x = 0;
    if (r) {
        uint32_t last = r - 1;
        switch (last & 3) {
        case 0:
            x = last;
            break;
        case 1:
            x = 1;
            break;
        case 2:
            x = last + 1;
            break;
        default:
            x = 0;
            break;
        }
    }
    return (n & 1) ? x ^ seed : x;
}

void gpuhost_fmt_cuda_version(int v, char *out, size_t n)
{
    snprintf(out, n, "%d.%d", v / 1000, (v % 1000) / 10);
}

void gpuhost_fmt_nccl_version(int v, char *out, size_t n)
{
    /* NCCL_VERSION(X,Y,Z): X*1000+Y*100+Z up to 2.8, X*10000+Y*100+Z after. */
    if (v >= 10000)
        snprintf(out, n, "%d.%d.%d", v / 10000, (v % 10000) / 100, v % 100);
    else
        snprintf(out, n, "%d.%d.%d", v / 1000, (v % 1000) / 100, v % 100);
}

void gpuhost_fmt_cudnn_version(size_t v, char *out, size_t n)
{
    /* cuDNN 9: major*10000 + minor*100 + patch; before: major*1000 + ... */
    if (v >= 90000)
        snprintf(out, n, "%zu.%zu.%zu", v / 10000, (v % 10000) / 100, v % 100);
    else
        snprintf(out, n, "%zu.%zu.%zu", v / 1000, (v % 1000) / 100, v % 100);
}

void gpuhost_fmt_cublas_version(size_t v, char *out, size_t n)
{
    /* cuBLAS 12+: major*10000 + minor*100 + patch; 11: major*1000 + ... */
    if (v >= 100000)
        snprintf(out, n, "%zu.%zu.%zu", v / 10000, (v % 10000) / 100, v % 100);
    else
        snprintf(out, n, "%zu.%zu.%zu", v / 1000, (v % 1000) / 100, v % 100);
}

void gpuhost_fmt_time(double us, char out[32])
{
    if (us >= 10000.0)
        snprintf(out, 32, "%7.0f", us);
    else if (us >= 100.0)
        snprintf(out, 32, "%7.1f", us);
    else
        snprintf(out, 32, "%7.2f", us);
}

/* ---- reading the output back ---- */

int gpuhost_env_value(const char *text, const char *key, char *out, size_t outlen)
{
    size_t kl = strlen(key);
    const char *p = text;
    while (p && *p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        if (len > kl && strncmp(p, key, kl) == 0 && p[kl] == ':') {
            const char *v = p + kl + 1, *e = p + len;
            while (v < e && (*v == ' ' || *v == '\t'))
                v++;
            while (e > v && isspace((unsigned char)e[-1]))
                e--;
            size_t vl = (size_t)(e - v);
            if (vl == 0 || (vl == 9 && strncmp(v, "not found", 9) == 0) ||
                (vl == 9 && strncmp(v, "not built", 9) == 0) ||
                (vl == 7 && strncmp(v, "unknown", 7) == 0))
                return 0;
            if (outlen) {
                if (vl >= outlen)
                    vl = outlen - 1;
                memcpy(out, v, vl);
                out[vl] = '\0';
            }
            return 1;
        }
        p = eol ? eol + 1 : NULL;
    }
    return 0;
}

int gpuhost_failure_parse(const char *line, char *reason, size_t reasonlen, const char **detail)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    /* mpirun --tag-output: "[1,0]<stderr>:" */
    if (*p == '[') {
        const char *q = strchr(p, ']');
        if (q && q[1] == '<') {
            const char *r = strchr(q, '>');
            if (r && r[1] == ':')
                p = r + 2;
        }
    }
    while (*p == ' ' || *p == '\t')
        p++;
    size_t pl = strlen(PR_GPU_FAILURE_PREFIX);
    if (strncmp(p, PR_GPU_FAILURE_PREFIX, pl) != 0)
        return 0;
    p += pl;
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_')
        n++;
    if (n == 0 || p[n] != ':' || n >= reasonlen)
        return 0;
    memcpy(reason, p, n);
    reason[n] = '\0';
    p += n + 1;
    while (*p == ' ' || *p == '\t')
        p++;
    *detail = p;
    return 1;
}
