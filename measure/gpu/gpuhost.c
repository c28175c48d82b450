#include "gpuhost.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ---- */

static const char *const coll_names[PR_GPU_NCOLL] = {
    "all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "alltoall", "sendrecv"};
static const char *const dtype_names[PR_GPU_NDTYPE] = {
    "int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double", "bfloat16"};
static const size_t dtype_sizes[PR_GPU_NDTYPE] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2};
static const char *const redop_names[PR_GPU_NREDOP] = {"sum", "prod", "max", "min", "avg"};
static const char *const prec_names[PR_GPU_NPREC] = {"fp32", "tf32", "fp16", "bf16", "fp8"};
static const char *const bwk_names[PR_GPU_NBWK] = {"copy", "read", "write", "memcpy"};

const char *gpuhost_coll_name(pr_gpu_coll c)
{
    return coll_names[c];
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
    return redop_names[op];
}
const char *gpuhost_prec_name(pr_gpu_prec p)
{
    return prec_names[p];
}
const char *gpuhost_bwk_name(pr_gpu_bwk k)
{
    return bwk_names[k];
}

static int index_of(const char *s, const char *const *names, int n)
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
    int i = index_of(s, dtype_names, PR_GPU_NDTYPE);
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
    int i = index_of(s, prec_names, PR_GPU_NPREC);
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

static int parse_int(const char *s, long min, long max, int *out)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max)
        return -1;
    *out = (int)v;
    return 0;
}

/* ---- arguments ---- */

typedef struct opt {
    char letter;
    const char *name;
} opt;

static const opt opts[] = {
    {'b', "minbytes"}, {'e', "maxbytes"},     {'i', "stepbytes"}, {'f', "stepfactor"},
    {'n', "iters"},    {'w', "warmup_iters"}, {'c', "check"},     {'g', "ngpus"},
    {'r', "root"},     {'d', "datatype"},     {'o', "op"},        {'s', "shapes"},
};

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int set_workload(pr_gpu_args *a, const char *w)
{
    char name[64];
    size_t n = strlen(w);
    if (n >= sizeof name)
        return -1;
    memcpy(name, w, n + 1);
    /* nccl-tests' binary names work too: all_reduce_perf. */
    if (n > 5 && strcmp(name + n - 5, "_perf") == 0)
        name[n - 5] = '\0';
    a->workload = w;
    if (strcmp(name, "env") == 0) {
        a->kind = PR_GPU_ENV;
    } else if (strcmp(name, "bw") == 0) {
        a->kind = PR_GPU_BW;
        a->min_bytes = (size_t)1 << 20;
        a->max_bytes = (size_t)1 << 30;
    } else if (strcmp(name, "gemm") == 0) {
        a->kind = PR_GPU_GEMM;
        a->min_bytes = 1024;
        a->max_bytes = 16384;
    } else {
        int c = index_of(name, coll_names, PR_GPU_NCOLL);
        if (c < 0)
            return -1;
        a->kind = PR_GPU_COLL;
        a->coll = (pr_gpu_coll)c;
        a->min_bytes = 8;
        a->max_bytes = (size_t)128 << 20;
    }
    return 0;
}

/* A comma-separated list of names into a bit set. */
static int name_bits(const char *s, int (*lookup)(const char *), int nall, unsigned *bits)
{
    unsigned b = 0;
    char buf[256];
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (strcmp(t, "all") == 0) {
            b |= (1u << nall) - 1;
            continue;
        }
        int i = lookup(t);
        if (i < 0)
            return -1;
        b |= 1u << i;
    }
    if (!b)
        return -1;
    *bits = b;
    return 0;
}

static int bwk_from_name(const char *s)
{
    return index_of(s, bwk_names, PR_GPU_NBWK);
}

static int parse_shapes(const char *s, pr_gpu_args *a)
{
    char buf[2048];
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    a->nshapes = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        size_t d[3];
        char *p = t;
        for (int i = 0; i < 3; i++) {
            char *x = strchr(p, 'x');
            if ((i < 2) != (x != NULL))
                return -1;
            if (x)
                *x = '\0';
            if (gpuhost_parse_size(p, &d[i]) < 0 || d[i] == 0 || d[i] > ((size_t)1 << 20))
                return -1;
            p = x ? x + 1 : p;
        }
        if (a->nshapes == PR_GPU_MAX_SHAPES)
            return -1;
        a->shapes[a->nshapes++] = (pr_gpu_shape){d[0], d[1], d[2]};
    }
    return a->nshapes ? 0 : -1;
}

static int apply(pr_gpu_args *a, char letter, const char *v, const char *given, char *err,
                 size_t errlen)
{
    size_t z;
    int i;
    switch (letter) {
    case 'b':
    case 'e':
    case 'i':
        if (gpuhost_parse_size(v, &z) < 0)
            return fail(err, errlen,
                        "%s: invalid size \"%s\" (a whole number of bytes, with an optional K, "
                        "M or G)",
                        given, v);
        if (letter == 'b')
            a->min_bytes = z;
        else if (letter == 'e')
            a->max_bytes = z;
        else
            a->step_bytes = z;
        return 0;
    case 'f':
        if (parse_int(v, 1, 1 << 20, &i) < 0)
            return fail(err, errlen, "%s: invalid factor \"%s\" (an integer >= 1)", given, v);
        a->step_factor = (size_t)i;
        return 0;
    case 'n':
        if (parse_int(v, 1, 1000000000, &a->iters) < 0)
            return fail(err, errlen, "%s: invalid iteration count \"%s\" (>= 1)", given, v);
        return 0;
    case 'w':
        if (parse_int(v, 0, 1000000000, &a->warmup) < 0)
            return fail(err, errlen, "%s: invalid warm-up count \"%s\" (>= 0)", given, v);
        return 0;
    case 'c':
        if (parse_int(v, 0, 1, &a->check) < 0)
            return fail(err, errlen, "%s: \"%s\": expected 0 or 1", given, v);
        return 0;
    case 'g':
        if (parse_int(v, 1, 1024, &a->ngpus) < 0)
            return fail(err, errlen, "%s: invalid GPU count \"%s\" (1 to 1024)", given, v);
        return 0;
    case 'r':
        if (parse_int(v, 0, 1 << 20, &a->root) < 0)
            return fail(err, errlen, "%s: invalid root \"%s\" (a rank >= 0)", given, v);
        return 0;
    default:
        return 0;
    }
}

/* -d, -o and -s depend on the workload: applied once it is known. */
static int apply_late(pr_gpu_args *a, const char *d, const char *o, const char *s, char *err,
                      size_t errlen)
{
    const char *w = a->workload;
    if (s && a->kind != PR_GPU_GEMM)
        return fail(err, errlen, "%s: -s (GEMM shapes) is only used by gemm", w);
    switch (a->kind) {
    case PR_GPU_ENV:
        if (d || o)
            return fail(err, errlen, "env: takes no -d or -o");
        return 0;
    case PR_GPU_COLL:
        if (d) {
            int t = gpuhost_dtype_from_name(d);
            if (t < 0)
                return fail(err, errlen,
                            "%s: -d: unknown type \"%s\" (int8, uint8, int32, uint32, int64, "
                            "uint64, half, float, double, bfloat16)",
                            w, d);
            a->dtype = (pr_gpu_dtype)t;
        }
        if (o) {
            int op = index_of(o, redop_names, PR_GPU_NREDOP);
            if (op < 0)
                return fail(err, errlen,
                            "%s: -o: unknown reduction \"%s\" (sum, prod, max, "
                            "min, avg)",
                            w, o);
            a->redop = (pr_gpu_redop)op;
        }
        return 0;
    case PR_GPU_BW:
        if (d)
            return fail(err, errlen, "bw: takes no -d (it moves bytes)");
        if (o && name_bits(o, bwk_from_name, PR_GPU_NBWK, &a->kernels) < 0)
            return fail(err, errlen,
                        "bw: -o: \"%s\": expected a comma-separated list of copy, read, "
                        "write, memcpy, or all",
                        o);
        return 0;
    case PR_GPU_GEMM:
        if (d && name_bits(d, gpuhost_prec_from_name, PR_GPU_NPREC, &a->precs) < 0)
            return fail(err, errlen,
                        "gemm: -d: \"%s\": expected a comma-separated list of fp32, tf32, "
                        "fp16, bf16, fp8, or all",
                        d);
        if (o) {
            if (strcmp(o, "square") == 0) {
                a->square = 1;
                a->transformer = 0;
            } else if (strcmp(o, "transformer") == 0) {
                a->square = 0;
                a->transformer = 1;
            } else if (strcmp(o, "all") == 0) {
                a->square = a->transformer = 1;
            } else {
                return fail(err, errlen,
                            "gemm: -o: unknown shape set \"%s\" (square, transformer, all)", o);
            }
        }
        if (s && parse_shapes(s, a) < 0)
            return fail(err, errlen,
                        "gemm: -s: \"%s\": expected MxNxK[,MxNxK...] with dimensions 1 to "
                        "1048576 (at most %d shapes)",
                        s, PR_GPU_MAX_SHAPES);
        return 0;
    }
    return 0;
}

static int check_sizes(const pr_gpu_args *a, char *err, size_t errlen)
{
    const char *w = a->workload;
    if (a->kind == PR_GPU_ENV)
        return 0;
    if (a->kind == PR_GPU_GEMM && a->nshapes)
        return 0;
    if (a->min_bytes > a->max_bytes)
        return fail(err, errlen, "%s: invalid sizes for 'minbytes' and 'maxbytes': %zu > %zu", w,
                    a->min_bytes, a->max_bytes);
    if (a->step_factor > 1 && a->min_bytes == 0)
        return fail(err, errlen, "%s: -b 0 with -f %zu never grows: give -b > 0", w,
                    a->step_factor);
    if (a->step_factor <= 1 && a->step_bytes == 0 && a->min_bytes != a->max_bytes)
        return fail(err, errlen, "%s: -f 1 steps by -i bytes: give -i > 0", w);
    if (a->kind == PR_GPU_GEMM && (a->min_bytes == 0 || a->max_bytes > ((size_t)1 << 20)))
        return fail(err, errlen, "gemm: -b and -e are matrix dimensions from 1 to 1048576");
    size_t n = gpuhost_sweep(a, NULL, 0);
    if (n > PR_GPU_MAX_POINTS)
        return fail(err, errlen, "%s: the sweep has more than %d sizes: raise -f or -i", w,
                    PR_GPU_MAX_POINTS);
    return 0;
}

int gpuhost_parse_args(int argc, char *const argv[], pr_gpu_args *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    a->step_factor = 2;
    a->step_bytes = (size_t)1 << 20;
    a->iters = 20;
    a->warmup = 5;
    a->check = 1;
    a->dtype = PR_GPU_FLOAT;
    a->redop = PR_GPU_SUM;
    a->precs = (1u << PR_GPU_NPREC) - 1;
    a->kernels = (1u << PR_GPU_NBWK) - 1;
    a->square = a->transformer = 1;
    if (errlen)
        err[0] = '\0';

    /* Options are kept as given until the workload (which sets defaults
     * and decides what -d and -o mean) is known. */
    const char *given[128] = {0}, *value[128] = {0};
    const char *d = NULL, *o = NULL, *s = NULL;
    for (int k = 1; k < argc; k++) {
        const char *arg = argv[k];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            a->help = 1;
            continue;
        }
        if (strcmp(arg, "-V") == 0 || strcmp(arg, "--version") == 0) {
            a->version = 1;
            continue;
        }
        if (arg[0] != '-' || arg[1] == '\0') {
            if (a->workload)
                return fail(err, errlen, "unexpected argument \"%s\" (one workload per run)", arg);
            if (set_workload(a, arg) < 0)
                return fail(err, errlen,
                            "unknown workload \"%s\" (env, bw, gemm, all_reduce, all_gather, "
                            "reduce_scatter, broadcast, reduce, alltoall, sendrecv)",
                            arg);
            continue;
        }
        const opt *found = NULL;
        const char *v = NULL;
        if (arg[1] == '-') {
            const char *eq = strchr(arg + 2, '=');
            size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
            for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
                if (strlen(opts[i].name) == len && strncmp(arg + 2, opts[i].name, len) == 0)
                    found = &opts[i];
            if (found && eq)
                v = eq + 1;
        } else {
            for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
                if (arg[1] == opts[i].letter)
                    found = &opts[i];
            if (found && arg[2])
                v = arg + 2;
        }
        if (!found)
            return fail(err, errlen, "unknown option \"%s\" (see --help)", arg);
        if (!v) {
            if (k + 1 >= argc)
                return fail(err, errlen, "option \"%s\" needs a value", arg);
            v = argv[++k];
        }
        int slot = found->letter;
        given[slot] = arg;
        value[slot] = v;
    }
    if (!a->workload) {
        if (a->help || a->version)
            return 0;
        return fail(err, errlen, "no workload given (see --help)");
    }
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
        int slot = opts[i].letter;
        if (!given[slot])
            continue;
        if (a->kind == PR_GPU_ENV)
            return fail(err, errlen, "env: takes no options (%s)", given[slot]);
        switch (slot) {
        case 'd':
            d = value[slot];
            break;
        case 'o':
            o = value[slot];
            break;
        case 's':
            s = value[slot];
            break;
        default:
            if (apply(a, (char)slot, value[slot], given[slot], err, errlen) < 0)
                return -1;
        }
    }
    if (a->kind != PR_GPU_COLL && given['g'] && a->ngpus != 1)
        return fail(err, errlen,
                    "%s: measures one GPU (the first visible; choose it with "
                    "CUDA_VISIBLE_DEVICES): -g must be 1",
                    a->workload);
    if (a->kind != PR_GPU_COLL && given['r'])
        return fail(err, errlen, "%s: -r (root) is only used by the collectives", a->workload);
    if (apply_late(a, d, o, s, err, errlen) < 0)
        return -1;
    return check_sizes(a, err, errlen);
}

void gpuhost_usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s WORKLOAD [options]\n"
            "\n"
            "Measures one GPU quantity and prints it as a text table (nccl-tests' layout).\n"
            "\n"
            "workloads:\n"
            "  env              GPUs, clocks, driver, CUDA, NCCL, cuBLASLt, cuDNN versions,\n"
            "                   peer access (key: value lines)\n"
            "  bw               device memory bandwidth: copy, read, write kernels and\n"
            "                   cudaMemcpy device to device, against the theoretical peak\n"
            "  gemm             cuBLASLt GEMM TFLOP/s: fp32, tf32, fp16, bf16, fp8 (e4m3)\n"
            "  all_reduce, all_gather, reduce_scatter, broadcast, reduce, alltoall, sendrecv\n"
            "                   NCCL collectives over every visible GPU (or one GPU per\n"
            "                   process under mpirun/srun when built with MPI)\n"
            "\n"
            "options (nccl-tests' letters):\n"
            "  -b, --minbytes N      smallest size (K, M, G suffixes; gemm: matrix dimension)\n"
            "  -e, --maxbytes N      largest size\n"
            "  -f, --stepfactor N    multiply the size by N (default 2)\n"
            "  -i, --stepbytes N     with -f 1: add N bytes (default 1M)\n"
            "  -n, --iters N         timed iterations per size (default 20)\n"
            "  -w, --warmup_iters N  untimed iterations first (default 5)\n"
            "  -c, --check 0|1       check the data after timing (default 1)\n"
            "  -g, --ngpus N         collectives: GPUs per process (default: all visible)\n"
            "  -r, --root N          broadcast, reduce: the root rank (default 0)\n"
            "  -d, --datatype T      collectives: int8 uint8 int32 uint32 int64 uint64 half\n"
            "                        float double bfloat16 (default float)\n"
            "                        gemm: fp32,tf32,fp16,bf16,fp8 or all (default all)\n"
            "  -o, --op OP           collectives: sum prod max min avg (default sum)\n"
            "                        bw: copy,read,write,memcpy or all (default all)\n"
            "                        gemm: square, transformer or all (default all)\n"
            "  -s, --shapes LIST     gemm: MxNxK[,MxNxK...] instead of the shape sets\n"
            "  -V, --version         the CUDA, cuBLASLt and NCCL versions, on one line\n"
            "  -h, --help            this text\n"
            "\n"
            "defaults: collectives -b 8 -e 128M; bw -b 1M -e 1G; gemm -b 1024 -e 16384\n"
            "exit status: 0 ok; 1 CUDA/NCCL/cuBLASLt error or wrong data; 2 usage;\n"
            "3 no GPU (stderr: \"" PR_GPU_FAILURE_PREFIX "no_gpu: ...\")\n",
            prog);
}

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

/* ---- formulas ---- */

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

/* ---- tables ---- */

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
    titles(f, "#           ", bwk_names, kernels, PR_GPU_NBWK, BW_GROUP);
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
            fprintf(f, "# Bandwidth %s : N/A (did not run)\n", bwk_names[k]);
            continue;
        }
        fprintf(f, "# Bandwidth %s : %.2f GB/s", bwk_names[k], t->last[k]);
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
    titles(f, "#                         ", prec_names, precs, PR_GPU_NPREC, GEMM_GROUP);
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
            fprintf(f, "# Best %s TFLOP/s : N/A (not supported here)\n", prec_names[p]);
            continue;
        }
        const pr_gpu_shape *s = &t->best_at[p];
        fprintf(f, "# Best %s TFLOP/s : %.2f at M=%zu N=%zu K=%zu\n", prec_names[p], t->best[p],
                s->m, s->n, s->k);
    }
    bounds_line(f, t);
    fprintf(f, "#\n");
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
