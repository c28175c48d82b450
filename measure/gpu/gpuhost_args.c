/* gpuhost_args: perfrepro-gpu's command line: options, workloads, checks, usage. */
#include "gpuhost.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuhost_int.h"

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
        int c = gpuhost_index_of(name, gpuhost_coll_names, PR_GPU_NCOLL);
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
    return gpuhost_index_of(s, gpuhost_bwk_names, PR_GPU_NBWK);
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
            int op = gpuhost_index_of(o, gpuhost_redop_names, PR_GPU_NREDOP);
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
