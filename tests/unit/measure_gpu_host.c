/* Unit tests of perfrepro-gpu's host half (measure/gpu/gpuhost*.c), which needs
 * no GPU: argument parsing, the size sweep and GEMM shapes, nccl-tests'
 * counts and bus-bandwidth factors, the theoretical memory bandwidth, the
 * read check's closed form, version and time formatting, the tables (golden
 * strings; the collective table against nccl-tests' own layout), that the
 * tables parse back with the rules the Hardware suites use and with the
 * perfrepro-gpu profile, and the readers
 * of env lines and PERFREPRO_FAILURE lines. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "2-parse/parse.h"
#include "2-parse/rule.h"
#include "fileio.h"
#include "gpu/gpuhost.h"
#include "suite.h"

/* ---- helpers ---- */

static int parse(pr_gpu_args *a, char *err, const char *const *words)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)"perfrepro-gpu";
    for (; *words; words++)
        argv[argc++] = (char *)*words;
    argv[argc] = NULL;
    return gpuhost_parse_args(argc, argv, a, err, 512);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void parse_ok(pr_gpu_args *a, const char *const *words)
{
    char err[512];
    int rc = parse(a, err, words);
    cr_assert_eq(rc, 0, "unexpected error: %s", err);
}

/* Parsing fails with a message containing want. */
static void parse_bad(const char *want, const char *const *words)
{
    pr_gpu_args a;
    char err[512];
    cr_assert_eq(parse(&a, err, words), -1, "accepted, expected an error about %s", want);
    cr_assert(strstr(err, want) != NULL, "message \"%s\" lacks \"%s\"", err, want);
}

/* What fn prints into a FILE, as a malloc'd string. */
typedef struct capture {
    char *text;
    size_t len;
    FILE *f;
} capture;

static void cap_open(capture *c)
{
    c->text = NULL;
    c->len = 0;
    c->f = open_memstream(&c->text, &c->len);
    cr_assert_not_null(c->f);
}

static char *cap_close(capture *c)
{
    fclose(c->f);
    return c->text;
}

static char *write_tmp(const char *text)
{
    char *path = strdup("/tmp/pr-gpu-host-XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    size_t n = strlen(text);
    cr_assert_eq(write(fd, text, n), (ssize_t)n);
    close(fd);
    return path;
}

/* Parses text with the rule's JSON; returns the value (the case must not fail). */
static double parse_back(const char *rule_json, const char *text)
{
    pr_rule *rule = NULL;
    pr_err err;
    cr_assert_eq(rule_parse("<test>", rule_json, strlen(rule_json), &rule, &err), 0, "%s", err.msg);
    char *path = write_tmp(text);
    const char *logs[] = {path};
    pr_parse_args args = {0, 0, 0, NULL};
    pr_parse_result res;
    parse_result_init(&res);
    cr_assert_eq(parse_logs(rule, logs, 1, &args, &res, &err), 0, "%s", err.msg);
    cr_assert_not(res.failed, "the case failed: %s: %s", res.fail_reason,
                  res.fail_detail ? res.fail_detail : "");
    double v = res.value;
    parse_result_clear(&res);
    rule_free(rule);
    unlink(path);
    free(path);
    return v;
}

/* ---- arguments ---- */

Test(gpu_args, nccl_tests_command_line)
{
    pr_gpu_args a;
    parse_ok(&a, ARGS("all_reduce", "-b", "8", "-e", "128M", "-f", "2", "-g", "8"));
    cr_assert_eq(a.kind, PR_GPU_COLL);
    cr_assert_eq(a.coll, PR_GPU_ALL_REDUCE);
    cr_assert_eq(a.min_bytes, 8);
    cr_assert_eq(a.max_bytes, (size_t)128 << 20);
    cr_assert_eq(a.step_factor, 2);
    cr_assert_eq(a.ngpus, 8);
    cr_assert_eq(a.iters, 20);
    cr_assert_eq(a.warmup, 5);
    cr_assert_eq(a.check, 1);
    cr_assert_eq(a.dtype, PR_GPU_FLOAT);
    cr_assert_eq(a.redop, PR_GPU_SUM);
    cr_assert_eq(a.root, 0);
}

Test(gpu_args, forms_and_aliases)
{
    pr_gpu_args a;
    /* options before the workload, glued values, long options, _perf names */
    parse_ok(&a, ARGS("-b1K", "--maxbytes=1G", "--iters", "7", "-w0", "all_gather_perf", "-c", "0",
                      "-d", "bf16", "-o", "max"));
    cr_assert_eq(a.coll, PR_GPU_ALL_GATHER);
    cr_assert_eq(a.min_bytes, 1024);
    cr_assert_eq(a.max_bytes, (size_t)1 << 30);
    cr_assert_eq(a.iters, 7);
    cr_assert_eq(a.warmup, 0);
    cr_assert_eq(a.check, 0);
    cr_assert_eq(a.dtype, PR_GPU_BFLOAT16);
    cr_assert_eq(a.redop, PR_GPU_MAX);
    parse_ok(&a, ARGS("broadcast", "-r", "3", "-d", "float32", "-b", "0.5K", "-e", "0.5K"));
    cr_assert_eq(a.root, 3);
    cr_assert_eq(a.dtype, PR_GPU_FLOAT);
    cr_assert_eq(a.min_bytes, 512);
    parse_ok(&a, ARGS("reduce_scatter", "-d", "float16", "-f", "1", "-i", "100", "-b", "100", "-e",
                      "1000"));
    cr_assert_eq(a.dtype, PR_GPU_HALF);
    cr_assert_eq(a.step_factor, 1);
    cr_assert_eq(a.step_bytes, 100);
}

Test(gpu_args, workload_defaults)
{
    pr_gpu_args a;
    parse_ok(&a, ARGS("bw"));
    cr_assert_eq(a.kind, PR_GPU_BW);
    cr_assert_eq(a.min_bytes, (size_t)1 << 20);
    cr_assert_eq(a.max_bytes, (size_t)1 << 30);
    cr_assert_eq(a.kernels, (1u << PR_GPU_NBWK) - 1);
    parse_ok(&a, ARGS("bw", "-o", "copy,memcpy"));
    cr_assert_eq(a.kernels, (1u << PR_GPU_COPY) | (1u << PR_GPU_MEMCPY));
    parse_ok(&a, ARGS("gemm"));
    cr_assert_eq(a.kind, PR_GPU_GEMM);
    cr_assert_eq(a.min_bytes, 1024);
    cr_assert_eq(a.max_bytes, 16384);
    cr_assert_eq(a.precs, (1u << PR_GPU_NPREC) - 1);
    parse_ok(&a, ARGS("gemm", "-d", "fp8,bf16", "-o", "transformer"));
    cr_assert_eq(a.precs, (1u << PR_GPU_FP8) | (1u << PR_GPU_BF16));
    cr_assert(a.transformer && !a.square);
    /* the suites' {precision}: amp computes in fp16 */
    parse_ok(&a, ARGS("gemm", "-d", "amp"));
    cr_assert_eq(a.precs, 1u << PR_GPU_FP16);
    parse_ok(&a, ARGS("gemm", "-s", "8192x4096x4096,1Kx2Kx16"));
    cr_assert_eq(a.nshapes, 2);
    cr_assert_eq(a.shapes[0].m, 8192);
    cr_assert_eq(a.shapes[0].n, 4096);
    cr_assert_eq(a.shapes[1].m, 1024);
    cr_assert_eq(a.shapes[1].n, 2048);
    cr_assert_eq(a.shapes[1].k, 16);
    parse_ok(&a, ARGS("env"));
    cr_assert_eq(a.kind, PR_GPU_ENV);
    parse_ok(&a, ARGS("--help"));
    cr_assert(a.help);
    parse_ok(&a, ARGS("-V"));
    cr_assert(a.version);
}

Test(gpu_args, rejects)
{
    parse_bad("no workload", ARGS("-b", "8"));
    parse_bad("unknown workload \"all_reduc\"", ARGS("all_reduc"));
    parse_bad("one workload per run", ARGS("bw", "gemm"));
    parse_bad("unknown option \"-x\"", ARGS("bw", "-x", "1"));
    parse_bad("unknown option \"--minbyte=8\"", ARGS("bw", "--minbyte=8"));
    parse_bad("needs a value", ARGS("all_reduce", "-b"));
    /* sizes */
    parse_bad("invalid size \"12Q\"", ARGS("all_reduce", "-b", "12Q"));
    parse_bad("invalid size \"-5\"", ARGS("all_reduce", "-b", "-5"));
    parse_bad("invalid size \"1.5\"", ARGS("all_reduce", "-b", "1.5"));
    parse_bad("invalid size \"\"", ARGS("all_reduce", "-e", ""));
    parse_bad("invalid size \"2000000G\"", ARGS("all_reduce", "-e", "2000000G"));
    parse_bad("invalid size \"nan\"", ARGS("all_reduce", "-e", "nan"));
    parse_bad("invalid size \"8 \"", ARGS("all_reduce", "-e", "8 "));
    parse_bad("'minbytes' and 'maxbytes': 1073741824 > 8",
              ARGS("all_reduce", "-b", "1G", "-e", "8"));
    parse_bad("-b 0 with -f 2", ARGS("all_reduce", "-b", "0"));
    parse_bad("give -i > 0", ARGS("all_reduce", "-f", "1", "-i", "0"));
    parse_bad("more than 4096 sizes",
              ARGS("all_reduce", "-b", "1", "-e", "1M", "-f", "1", "-i", "1"));
    parse_bad("invalid factor \"0\"", ARGS("all_reduce", "-f", "0"));
    /* counts */
    parse_bad("invalid iteration count \"0\"", ARGS("all_reduce", "-n", "0"));
    parse_bad("invalid warm-up count \"-1\"", ARGS("all_reduce", "-w", "-1"));
    parse_bad("expected 0 or 1", ARGS("all_reduce", "-c", "2"));
    parse_bad("invalid GPU count \"0\"", ARGS("all_reduce", "-g", "0"));
    parse_bad("invalid GPU count \"8x\"", ARGS("all_reduce", "-g", "8x"));
    /* ops and types */
    parse_bad("unknown reduction \"mean\"", ARGS("all_reduce", "-o", "mean"));
    parse_bad("unknown type \"fp8\"", ARGS("all_reduce", "-d", "fp8"));
    parse_bad("bw: -o", ARGS("bw", "-o", "copy,scan"));
    parse_bad("bw: takes no -d", ARGS("bw", "-d", "float"));
    parse_bad("gemm: -d", ARGS("gemm", "-d", "fp32,int8"));
    parse_bad("unknown shape set", ARGS("gemm", "-o", "cube"));
    parse_bad("gemm: -s", ARGS("gemm", "-s", "8192x4096"));
    parse_bad("gemm: -s", ARGS("gemm", "-s", "0x1x1"));
    parse_bad("only used by gemm", ARGS("bw", "-s", "1x1x1"));
    parse_bad("-g must be 1", ARGS("gemm", "-g", "2"));
    parse_bad("only used by the collectives", ARGS("bw", "-r", "1"));
    parse_bad("env: takes no options", ARGS("env", "-b", "8"));
    parse_bad("matrix dimensions", ARGS("gemm", "-e", "2M"));
}

Test(gpu_args, parse_size)
{
    size_t z;
    cr_assert_eq(gpuhost_parse_size("8", &z), 0);
    cr_assert_eq(z, 8);
    cr_assert_eq(gpuhost_parse_size("128M", &z), 0);
    cr_assert_eq(z, (size_t)128 << 20);
    cr_assert_eq(gpuhost_parse_size("8g", &z), 0);
    cr_assert_eq(z, (size_t)8 << 30);
    cr_assert_eq(gpuhost_parse_size("0", &z), 0);
    cr_assert_eq(z, 0);
    cr_assert_eq(gpuhost_parse_size("1024K", &z), 0);
    cr_assert_eq(z, (size_t)1 << 20);
    cr_assert_eq(gpuhost_parse_size("1MB", &z), -1);
    cr_assert_eq(gpuhost_parse_size(" 8", &z), -1);
    cr_assert_eq(gpuhost_parse_size("+8", &z), -1);
    cr_assert_eq(gpuhost_parse_size("inf", &z), -1);
    cr_assert_eq(gpuhost_parse_size("1e400", &z), -1);
    cr_assert_eq(gpuhost_parse_size(NULL, &z), -1);
}

/* ---- sweep and shapes ---- */

Test(gpu_sweep, factor_and_step)
{
    pr_gpu_args a;
    size_t s[PR_GPU_MAX_POINTS];
    parse_ok(&a, ARGS("all_reduce", "-b", "8", "-e", "128M", "-f", "2"));
    size_t n = gpuhost_sweep(&a, s, PR_GPU_MAX_POINTS);
    cr_assert_eq(n, 25);
    cr_assert_eq(s[0], 8);
    cr_assert_eq(s[1], 16);
    cr_assert_eq(s[24], (size_t)128 << 20);
    /* an end that the factor does not reach exactly */
    parse_ok(&a, ARGS("all_reduce", "-b", "3", "-e", "100", "-f", "4"));
    n = gpuhost_sweep(&a, s, PR_GPU_MAX_POINTS);
    cr_assert_eq(n, 3);
    cr_assert_eq(s[2], 48);
    parse_ok(&a, ARGS("all_reduce", "-b", "100", "-e", "1000", "-f", "1", "-i", "100"));
    n = gpuhost_sweep(&a, s, PR_GPU_MAX_POINTS);
    cr_assert_eq(n, 10);
    cr_assert_eq(s[9], 1000);
    parse_ok(&a, ARGS("all_reduce", "-b", "1G", "-e", "1G"));
    cr_assert_eq(gpuhost_sweep(&a, s, PR_GPU_MAX_POINTS), 1);
    /* the count comes back even without room */
    parse_ok(&a, ARGS("bw"));
    cr_assert_eq(gpuhost_sweep(&a, NULL, 0), 11);
    /* no overflow at the top of the range */
    parse_ok(&a, ARGS("all_reduce", "-b", "512G", "-e", "1048576G", "-f", "1024"));
    cr_assert_eq(gpuhost_sweep(&a, s, PR_GPU_MAX_POINTS), 2);
}

Test(gpu_sweep, gemm_shapes)
{
    pr_gpu_args a;
    pr_gpu_shape s[64];
    parse_ok(&a, ARGS("gemm"));
    size_t n = gpuhost_gemm_shapes(&a, s, 64);
    cr_assert_eq(n, 9); /* 1024..16384 square, then 4 transformer shapes */
    cr_assert_eq(s[0].m, 1024);
    cr_assert_eq(s[4].k, 16384);
    cr_assert_eq(s[5].m, 8192);
    cr_assert_eq(s[5].n, 4096);
    cr_assert_eq(s[6].n, 12288);
    cr_assert_eq(s[8].k, 16384);
    parse_ok(&a, ARGS("gemm", "-o", "square", "-b", "2K", "-e", "8K"));
    cr_assert_eq(gpuhost_gemm_shapes(&a, s, 64), 3);
    cr_assert_eq(s[2].n, 8192);
    parse_ok(&a, ARGS("gemm", "-o", "transformer"));
    cr_assert_eq(gpuhost_gemm_shapes(&a, s, 64), 4);
    parse_ok(&a, ARGS("gemm", "-s", "7x5x3"));
    cr_assert_eq(gpuhost_gemm_shapes(&a, s, 64), 1);
    cr_assert_eq(s[0].k, 3);
}

/* ---- formulas ---- */

Test(gpu_formulas, busbw_factors)
{
    for (int n = 1; n <= 64; n++) {
        double d = n;
        cr_assert_float_eq(gpuhost_busbw_factor(PR_GPU_ALL_REDUCE, n), 2 * (d - 1) / d, 1e-12);
        cr_assert_float_eq(gpuhost_busbw_factor(PR_GPU_ALL_GATHER, n), (d - 1) / d, 1e-12);
        cr_assert_float_eq(gpuhost_busbw_factor(PR_GPU_REDUCE_SCATTER, n), (d - 1) / d, 1e-12);
        cr_assert_float_eq(gpuhost_busbw_factor(PR_GPU_ALLTOALL, n), (d - 1) / d, 1e-12);
        cr_assert_float_eq(gpuhost_busbw_factor(PR_GPU_BROADCAST, n), 1.0, 1e-12);
        cr_assert_float_eq(gpuhost_busbw_factor(PR_GPU_REDUCE, n), 1.0, 1e-12);
        cr_assert_float_eq(gpuhost_busbw_factor(PR_GPU_SENDRECV, n), 1.0, 1e-12);
    }
    cr_assert_float_eq(gpuhost_busbw_factor(PR_GPU_ALL_REDUCE, 8), 1.75, 1e-12);
    cr_assert_float_eq(gpuhost_busbw_factor(PR_GPU_ALL_GATHER, 8), 0.875, 1e-12);
}

Test(gpu_formulas, counts_like_nccl_tests)
{
    pr_gpu_counts c;
    /* all_reduce: the size is what every rank sends and receives */
    gpuhost_coll_counts(PR_GPU_ALL_REDUCE, 8, 4, 16, &c);
    cr_assert_eq(c.paramcount, 2);
    cr_assert_eq(c.size_bytes, 8);
    /* all_gather: the size column is the gathered total; count per rank */
    gpuhost_coll_counts(PR_GPU_ALL_GATHER, (size_t)8 << 20, 4, 8, &c);
    cr_assert_eq(c.sendcount, 262144);
    cr_assert_eq(c.recvcount, 2097152);
    cr_assert_eq(c.paramcount, 262144);
    cr_assert_eq(c.send_inplace_offset, 262144);
    cr_assert_eq(c.recv_inplace_offset, 0);
    cr_assert_eq(c.size_bytes, (size_t)8 << 20);
    cr_assert_float_eq(gpuhost_coll_algbytes(PR_GPU_ALL_GATHER, c.paramcount, 4, 8), 8388608.0, 0);
    /* reduce_scatter: the size column is the input total */
    gpuhost_coll_counts(PR_GPU_REDUCE_SCATTER, 1000, 4, 8, &c);
    cr_assert_eq(c.sendcount, 248); /* 250 elements, 31 per rank */
    cr_assert_eq(c.recvcount, 31);
    cr_assert_eq(c.paramcount, 31);
    cr_assert_eq(c.recv_inplace_offset, 31);
    cr_assert_eq(c.size_bytes, 992);
    cr_assert_float_eq(gpuhost_coll_algbytes(PR_GPU_REDUCE_SCATTER, 31, 4, 8), 992.0, 0);
    /* alltoall: count per peer */
    gpuhost_coll_counts(PR_GPU_ALLTOALL, 1 << 20, 2, 8, &c);
    cr_assert_eq(c.paramcount, 65536);
    cr_assert_eq(c.sendcount, 524288);
    cr_assert_eq(c.size_bytes, (size_t)1 << 20);
    cr_assert_float_eq(gpuhost_coll_algbytes(PR_GPU_ALLTOALL, 65536, 2, 8), 1048576.0, 0);
    /* rooted and point-to-point: the whole buffer */
    for (int k = PR_GPU_BROADCAST; k <= PR_GPU_SENDRECV; k++) {
        if (k == PR_GPU_ALLTOALL)
            continue;
        gpuhost_coll_counts((pr_gpu_coll)k, 4096, 8, 4, &c);
        cr_assert_eq(c.paramcount, 512);
        cr_assert_eq(c.size_bytes, 4096);
        cr_assert_float_eq(gpuhost_coll_algbytes((pr_gpu_coll)k, 512, 8, 4), 4096.0, 0);
    }
    /* too small to split: zero elements */
    gpuhost_coll_counts(PR_GPU_ALL_GATHER, 8, 4, 8, &c);
    cr_assert_eq(c.paramcount, 0);
    cr_assert_eq(c.size_bytes, 0);
    cr_assert(gpuhost_coll_in_place(PR_GPU_ALL_REDUCE));
    cr_assert_not(gpuhost_coll_in_place(PR_GPU_ALLTOALL));
    cr_assert_not(gpuhost_coll_in_place(PR_GPU_SENDRECV));
    cr_assert(gpuhost_coll_has_root(PR_GPU_REDUCE));
    cr_assert_not(gpuhost_coll_has_root(PR_GPU_ALL_REDUCE));
    cr_assert(gpuhost_coll_has_redop(PR_GPU_REDUCE_SCATTER));
    cr_assert_not(gpuhost_coll_has_redop(PR_GPU_ALL_GATHER));
}

/* The fixture's 16-rank all_reduce row: 8 GiB in 47535 us. */
Test(gpu_formulas, fixture_bandwidth)
{
    pr_gpu_counts c;
    gpuhost_coll_counts(PR_GPU_ALL_REDUCE, 8589934592ULL, 4, 16, &c);
    cr_assert_eq(c.paramcount, 2147483648ULL);
    double sec = 47535e-6;
    double algbw = gpuhost_coll_algbytes(PR_GPU_ALL_REDUCE, c.paramcount, 4, 16) / sec / 1e9;
    cr_assert_float_eq(algbw, 180.71, 0.005);
    cr_assert_float_eq(algbw * gpuhost_busbw_factor(PR_GPU_ALL_REDUCE, 16), 338.82, 0.01);
}

Test(gpu_formulas, theoretical_peak)
{
    /* V100 SXM2: 877 MHz, 4096 bits -> 898 GB/s */
    cr_assert_float_eq(gpuhost_peak_gbs(877000, 4096), 898.048, 1e-9);
    /* A100 40 GB: 1215 MHz, 5120 bits -> 1555 GB/s */
    cr_assert_float_eq(gpuhost_peak_gbs(1215000, 5120), 1555.2, 1e-9);
    /* H100 SXM5 80 GB: 2619 MHz, 5120 bits -> 3352 GB/s (sold as 3.35 TB/s) */
    cr_assert_float_eq(gpuhost_peak_gbs(2619000, 5120), 3352.32, 1e-9);
    cr_assert_float_eq(gpuhost_peak_gbs(0, 5120), 0.0, 0);
    cr_assert_float_eq(gpuhost_peak_gbs(2619000, -1), 0.0, 0);
}

Test(gpu_formulas, xor_closed_form)
{
    const uint32_t seeds[] = {0, 1, 0x9e3779b9u, 0xffffffffu};
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
        uint32_t x = 0;
        for (uint64_t n = 0; n < 5000; n++) {
            cr_assert_eq(gpuhost_xor_pattern(n, seeds[s]), x, "n %llu seed %u",
                         (unsigned long long)n, seeds[s]);
            x ^= (uint32_t)n ^ seeds[s];
        }
    }
    /* a whole period of 2^32 words XORs to 0; the index wraps after it */
    cr_assert_eq(gpuhost_xor_pattern((uint64_t)1 << 32, 77), 0);
    cr_assert_eq(gpuhost_xor_pattern(((uint64_t)1 << 32) + 3, 5), gpuhost_xor_pattern(3, 5));
}

Test(gpu_formulas, versions)
{
    char s[32];
    gpuhost_fmt_cuda_version(13000, s, sizeof s);
    cr_assert_str_eq(s, "13.0");
    gpuhost_fmt_cuda_version(12040, s, sizeof s);
    cr_assert_str_eq(s, "12.4");
    gpuhost_fmt_cuda_version(11020, s, sizeof s);
    cr_assert_str_eq(s, "11.2");
    gpuhost_fmt_nccl_version(22809, s, sizeof s);
    cr_assert_str_eq(s, "2.28.9");
    gpuhost_fmt_nccl_version(21805, s, sizeof s);
    cr_assert_str_eq(s, "2.18.5");
    gpuhost_fmt_nccl_version(2708, s, sizeof s);
    cr_assert_str_eq(s, "2.7.8");
    gpuhost_fmt_cudnn_version(90100, s, sizeof s);
    cr_assert_str_eq(s, "9.1.0");
    gpuhost_fmt_cudnn_version(91900, s, sizeof s);
    cr_assert_str_eq(s, "9.19.0");
    gpuhost_fmt_cudnn_version(8100, s, sizeof s);
    cr_assert_str_eq(s, "8.1.0");
    gpuhost_fmt_cudnn_version(7605, s, sizeof s);
    cr_assert_str_eq(s, "7.6.5");
    gpuhost_fmt_cublas_version(130100, s, sizeof s);
    cr_assert_str_eq(s, "13.1.0");
    gpuhost_fmt_cublas_version(120402, s, sizeof s);
    cr_assert_str_eq(s, "12.4.2");
    gpuhost_fmt_cublas_version(11401, s, sizeof s);
    cr_assert_str_eq(s, "11.4.1");
}

Test(gpu_formulas, times_like_nccl_tests)
{
    char s[32];
    gpuhost_fmt_time(135.8, s);
    cr_assert_str_eq(s, "  135.8");
    gpuhost_fmt_time(12646.4, s);
    cr_assert_str_eq(s, "  12646");
    gpuhost_fmt_time(5.125, s);
    cr_assert_str_eq(s, "   5.12");
    gpuhost_fmt_time(99.999, s);
    cr_assert_str_eq(s, " 100.00");
    gpuhost_fmt_time(1234567.0, s);
    cr_assert_str_eq(s, "1234567");
}

Test(gpu_formulas, names)
{
    cr_assert_eq(gpuhost_dtype_from_name("float"), PR_GPU_FLOAT);
    cr_assert_eq(gpuhost_dtype_from_name("half"), PR_GPU_HALF);
    cr_assert_eq(gpuhost_dtype_from_name("bfloat16"), PR_GPU_BFLOAT16);
    cr_assert_eq(gpuhost_dtype_from_name("int"), PR_GPU_INT32);
    cr_assert_eq(gpuhost_dtype_from_name("float8"), -1);
    for (int t = 0; t < PR_GPU_NDTYPE; t++)
        cr_assert_eq(gpuhost_dtype_from_name(gpuhost_dtype_name((pr_gpu_dtype)t)), t);
    for (int p = 0; p < PR_GPU_NPREC; p++)
        cr_assert_eq(gpuhost_prec_from_name(gpuhost_prec_name((pr_gpu_prec)p)), p);
    cr_assert_eq(gpuhost_prec_from_name("bfloat16"), PR_GPU_BF16);
    cr_assert_eq(gpuhost_prec_from_name("float8"), PR_GPU_FP8);
    cr_assert_eq(gpuhost_prec_from_name("int8"), -1);
    cr_assert_eq(gpuhost_dtype_size(PR_GPU_BFLOAT16), 2);
    cr_assert_eq(gpuhost_dtype_size(PR_GPU_UINT64), 8);
    cr_assert_str_eq(gpuhost_coll_name(PR_GPU_REDUCE_SCATTER), "reduce_scatter");
    cr_assert_str_eq(gpuhost_redop_name(PR_GPU_AVG), "avg");
    cr_assert_str_eq(gpuhost_bwk_name(PR_GPU_MEMCPY), "memcpy");
}

/* ---- tables ---- */

/* nccl-tests' header and rows (the 2.17-era layout with root and #wrong),
 * copied from a published 16-GPU H100 run. */
static const char nccl_header[] = "#\n"
                                  "#                                                              "
                                  "out-of-place                       in-place          \n"
                                  "#       size         count      type   redop    root     time   "
                                  "algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                                  "#        (B)    (elements)                               (us)  "
                                  "(GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n";
static const char nccl_row_small[] =
    "           8             2     float     sum      -1    135.8    0.00    0.00      0    123.5 "
    "   0.00    0.00      0\n";
static const char nccl_row_large[] =
    "  8589934592    2147483648     float     sum      -1    47535  180.71  338.82      0    47743 "
    " 179.92  337.35      0\n";

static pr_gpu_cell cell(double us, double rate, double rate2, long long wrong)
{
    pr_gpu_cell c = {1, us, rate, rate2, wrong};
    return c;
}

Test(gpu_tables, collective_matches_nccl_tests)
{
    capture c;
    pr_gpu_tally t;
    gpuhost_tally_init(&t);
    cap_open(&c);
    gpuhost_coll_header(c.f);
    pr_gpu_cell o = cell(135.8, 0, 0, 0), i = cell(123.5, 0, 0, 0);
    gpuhost_coll_row(c.f, &t, 8, 2, "float", "sum", -1, &o, &i);
    o = cell(47535, 180.71, 338.82, 0);
    i = cell(47743, 179.92, 337.35, 0);
    gpuhost_coll_row(c.f, &t, 8589934592ULL, 2147483648ULL, "float", "sum", -1, &o, &i);
    gpuhost_coll_footer(c.f, &t);
    char *got = cap_close(&c);
    char want[4096];
    snprintf(want, sizeof want, "%s%s%s%s", nccl_header, nccl_row_small, nccl_row_large,
             "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 169.043 \n#\n");
    cr_assert_str_eq(got, want);
    free(got);
}

Test(gpu_tables, collective_na_and_errors)
{
    capture c;
    pr_gpu_tally t;
    gpuhost_tally_init(&t);
    cap_open(&c);
    pr_gpu_cell o = cell(5.5, 1.5, 1.25, 3), unchecked = cell(9000, 2, 1, -1), na = {0};
    gpuhost_coll_row(c.f, &t, 4096, 128, "bfloat16", "none", 2, &o, &na);
    gpuhost_coll_row(c.f, &t, 1048576, 32768, "bfloat16", "none", 2, &unchecked, NULL);
    gpuhost_coll_footer(c.f, &t);
    char *got = cap_close(&c);
    cr_assert_str_eq(got, "        4096           128  bfloat16    none       2     5.50    1.50   "
                          " 1.25      3      N/A     N/A     N/A    N/A\n"
                          "     1048576         32768  bfloat16    none       2   9000.0    2.00   "
                          " 1.00    N/A      N/A     N/A     N/A    N/A\n"
                          "# Out of bounds values : 1 FAILED\n"
                          "# Avg bus bandwidth    : 1.125 \n"
                          "#\n");
    cr_assert_eq(t.bw_count, 2);
    free(got);
}

Test(gpu_tables, preamble)
{
    pr_gpu_args a;
    capture c;
    parse_ok(&a, ARGS("all_gather", "-b", "1M", "-e", "1G", "-n", "50", "-w", "10"));
    cap_open(&c);
    gpuhost_preamble(c.f, &a, 2, 4);
    gpuhost_device_line(c.f, 5, 2994448, 1, 0, 0x1b, 0, "NVIDIA H100 80GB HBM3");
    char *got = cap_close(&c);
    cr_assert_str_eq(
        got, "# perfrepro-gpu all_gather: nProcs 2 nGpus 4 minBytes 1048576 maxBytes "
             "1073741824 step: 2(factor) warmup iters: 10 iters: 50 validation: 1\n"
             "#\n# Using devices\n"
             "#  Rank  5 Group  0 Pid 2994448 device  1 [0000:1b:00] NVIDIA H100 80GB HBM3\n");
    free(got);
    parse_ok(&a, ARGS("gemm", "-o", "transformer", "-c", "0"));
    cap_open(&c);
    gpuhost_preamble(c.f, &a, 1, 1);
    got = cap_close(&c);
    cr_assert_str_eq(got, "# perfrepro-gpu gemm: nGpus 1 shapes 4 warmup iters: 5 iters: 20 "
                          "validation: 0\n#\n# Using devices\n");
    free(got);
}

static char *bw_table(void)
{
    capture c;
    pr_gpu_tally t;
    unsigned k = (1u << PR_GPU_COPY) | (1u << PR_GPU_READ) | (1u << PR_GPU_MEMCPY);
    gpuhost_tally_init(&t);
    cap_open(&c);
    gpuhost_bw_header(c.f, k, 3352.32, 2619000, 5120, (size_t)50 << 20);
    pr_gpu_cell r1[PR_GPU_NBWK] = {
        cell(5.2, 403.3, 12.03, 0), cell(3.1, 338.2, 10.09, 0), {0}, {0}};
    gpuhost_bw_row(c.f, &t, k, 1048576, r1);
    pr_gpu_cell r2[PR_GPU_NBWK] = {cell(722.5, 2972.1, 88.66, 0),
                                   cell(355.1, 3023.7, 90.2, 0),
                                   {0},
                                   cell(745.0, 2882.4, 85.98, 0)};
    gpuhost_bw_row(c.f, &t, k, 1073741824, r2);
    gpuhost_bw_footer(c.f, &t, k);
    return cap_close(&c);
}

Test(gpu_tables, bandwidth)
{
    char *got = bw_table();
    cr_assert_str_eq(
        got, "#\n"
             "# Theoretical peak : 3352.32 GB/s (2 x 2619 MHz memory clock x 5120-bit bus / 8)\n"
             "# L2 cache 50.0 MiB: rows whose buffers fit in it measure the cache, not the memory\n"
             "# GB/s counts bytes read plus bytes written (copy and memcpy move 2 x size)\n"
             "#\n"
             "#                           copy                               read                  "
             "            memcpy\n"
             "#       size     time      GB/s   %peak  #wrong     time      GB/s   %peak  #wrong   "
             "  time      GB/s   %peak  #wrong\n"
             "#        (B)     (us)    (GB/s)     (%)             (us)    (GB/s)     (%)           "
             "  (us)    (GB/s)     (%)\n"
             "     1048576     5.20    403.30    12.0       0     3.10    338.20    10.1       0   "
             "   N/A       N/A     N/A     N/A\n"
             "  1073741824    722.5   2972.10    88.7       0    355.1   3023.70    90.2       0   "
             " 745.0   2882.40    86.0       0\n"
             "# Bandwidth copy : 2972.10 GB/s (88.7% of peak) at 1073741824 B\n"
             "# Bandwidth read : 3023.70 GB/s (90.2% of peak) at 1073741824 B\n"
             "# Bandwidth memcpy : 2882.40 GB/s (86.0% of peak) at 1073741824 B\n"
             "# Out of bounds values : 0 OK\n"
             "#\n");
    free(got);
}

Test(gpu_tables, bandwidth_unknown_peak)
{
    capture c;
    pr_gpu_tally t;
    unsigned k = 1u << PR_GPU_WRITE;
    gpuhost_tally_init(&t);
    cap_open(&c);
    gpuhost_bw_header(c.f, k, 0, 0, 0, 0);
    pr_gpu_cell r[PR_GPU_NBWK] = {{0}, {0}, cell(100, 10, -1, 2), {0}};
    gpuhost_bw_row(c.f, &t, k, 1000, r);
    gpuhost_bw_footer(c.f, &t, k | (1u << PR_GPU_COPY));
    char *got = cap_close(&c);
    cr_assert_str_eq(
        got, "#\n"
             "# Theoretical peak : unknown (the device reports no memory clock or bus width)\n"
             "# GB/s counts bytes read plus bytes written (copy and memcpy move 2 x size)\n"
             "#\n"
             "#                          write\n"
             "#       size     time      GB/s   %peak  #wrong\n"
             "#        (B)     (us)    (GB/s)     (%)\n"
             "        1000    100.0     10.00     N/A       2\n"
             "# Bandwidth copy : N/A (did not run)\n"
             "# Bandwidth write : 10.00 GB/s at 1000 B\n"
             "# Out of bounds values : 1 FAILED\n"
             "#\n");
    free(got);
}

static char *gemm_table(unsigned precs)
{
    capture c;
    pr_gpu_tally t;
    gpuhost_tally_init(&t);
    cap_open(&c);
    gpuhost_gemm_header(c.f, precs);
    pr_gpu_shape s1 = {4096, 4096, 4096}, s2 = {8192, 12288, 4096};
    pr_gpu_cell r1[PR_GPU_NPREC] = {
        cell(2900, 47.39, -1, 0), {0}, cell(190.5, 721.4, -1, 0), {0}, {0}};
    gpuhost_gemm_row(c.f, &t, precs, &s1, r1);
    pr_gpu_cell r2[PR_GPU_NPREC] = {
        cell(17300, 47.67, -1, 0), {0}, cell(1110, 743.0, -1, 0), {0}, {0}};
    gpuhost_gemm_row(c.f, &t, precs, &s2, r2);
    gpuhost_gemm_footer(c.f, &t, precs);
    return cap_close(&c);
}

Test(gpu_tables, gemm)
{
    char *got = gemm_table((1u << PR_GPU_FP32) | (1u << PR_GPU_FP16) | (1u << PR_GPU_FP8));
    cr_assert_str_eq(
        got, "#\n"
             "# C(MxN) = A(MxK) B(KxN), A transposed (TN); TFLOP/s = 2MNK / time; #wrong counts "
             "mismatches among up to 65536 sampled elements\n"
             "#\n"
             "#                                     fp32                        fp16               "
             "          fp8\n"
             "#      M        N        K     time    TFLOP/s  #wrong     time    TFLOP/s  #wrong   "
             "  time    TFLOP/s  #wrong\n"
             "#                              (us)  (TFLOP/s)             (us)  (TFLOP/s)           "
             "  (us)  (TFLOP/s)\n"
             "    4096     4096     4096   2900.0      47.39       0    190.5     721.40       0   "
             "   N/A        N/A     N/A\n"
             "    8192    12288     4096    17300      47.67       0   1110.0     743.00       0   "
             "   N/A        N/A     N/A\n"
             "# Best fp32 TFLOP/s : 47.67 at M=8192 N=12288 K=4096\n"
             "# Best fp16 TFLOP/s : 743.00 at M=8192 N=12288 K=4096\n"
             "# Best fp8 TFLOP/s : N/A (not supported here)\n"
             "# Out of bounds values : 0 OK\n"
             "#\n");
    free(got);
}

/* ---- the tables parse back with perfrepro's rules ---- */

static char *coll_table(double *avg, double *last_out)
{
    capture c;
    pr_gpu_tally t;
    pr_gpu_args a;
    parse_ok(&a, ARGS("all_reduce", "-b", "1K", "-e", "1M", "-f", "4", "-g", "8"));
    gpuhost_tally_init(&t);
    cap_open(&c);
    gpuhost_preamble(c.f, &a, 1, 8);
    gpuhost_coll_header(c.f);
    size_t sizes[16];
    size_t n = gpuhost_sweep(&a, sizes, 16);
    for (size_t i = 0; i < n; i++) {
        pr_gpu_counts k;
        gpuhost_coll_counts(a.coll, sizes[i], 4, 8, &k);
        double us = 20.0 + (double)sizes[i] / 100000.0;
        double alg = gpuhost_coll_algbytes(a.coll, k.paramcount, 4, 8) / (us * 1e-6) / 1e9;
        pr_gpu_cell o = cell(us, alg, alg * gpuhost_busbw_factor(a.coll, 8), 0);
        pr_gpu_cell in =
            cell(us * 1.01, alg / 1.01, alg / 1.01 * gpuhost_busbw_factor(a.coll, 8), 0);
        gpuhost_coll_row(c.f, &t, k.size_bytes, k.paramcount, "float", "sum", -1, &o, &in);
        *last_out = o.rate2;
    }
    gpuhost_coll_footer(c.f, &t);
    *avg = t.bw_sum / (double)t.bw_count;
    return cap_close(&c);
}

Test(gpu_parse_back, nccl_tests_profile)
{
    double avg, last_out;
    char *text = coll_table(&avg, &last_out);
    char want[64];
    /* the footer's %g is what the rule reads */
    snprintf(want, sizeof want, "%g", avg);
    double v = parse_back("{\"profile\": \"nccl-tests\"}", text);
    cr_assert_float_eq(v, atof(want), 1e-9, "avg busbw %g, parsed %g", avg, v);
    /* the Hardware suite's rule: out-of-place busbw at the largest size */
    v = parse_back("{\"profile\": \"nccl-tests\", \"source\": \"rows\", \"column\": \"busbw\", "
                   "\"placement\": \"out_of_place\", \"reduce\": \"last\", \"min_records\": 1}",
                   text);
    cr_assert_float_eq(v, last_out, 0.005);
    /* with an mpirun prefix on every line, as in published logs */
    size_t len = strlen(text);
    char *tagged = malloc(len * 2 + 64);
    char *q = tagged;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        q += sprintf(q, "[1,0]<stdout>:%.*s\n", (int)(e - p), p);
        p = e + 1;
    }
    v = parse_back("{\"profile\": \"nccl-tests\"}", tagged);
    cr_assert_float_eq(v, atof(want), 1e-9);
    free(tagged);
    free(text);
}

Test(gpu_parse_back, bandwidth_and_gemm_keywords)
{
    char *text = bw_table();
    double v = parse_back("{\"keyword\": \"# Bandwidth copy\", \"value\": \"raw\", \"unit\": "
                          "\"GB/s\", \"min_records\": 1}",
                          text);
    cr_assert_float_eq(v, 2972.10, 1e-9);
    v = parse_back("{\"keyword\": \"# Bandwidth memcpy\", \"value\": \"raw\", \"unit\": "
                   "\"GB/s\", \"min_records\": 1}",
                   text);
    cr_assert_float_eq(v, 2882.40, 1e-9);
    free(text);
    text = gemm_table(1u << PR_GPU_FP16);
    v = parse_back("{\"keyword\": \"TFLOP/s :\", \"value\": \"raw\", \"unit\": \"TFLOP/s\", "
                   "\"min_records\": 1}",
                   text);
    cr_assert_float_eq(v, 743.0, 1e-9);
    free(text);
}

/* Parses text with the rule; returns the result (the case must not fail). */
static void parse_back_res(const char *rule_json, const char *text, pr_parse_result *res)
{
    pr_rule *rule = NULL;
    pr_err err;
    cr_assert_eq(rule_parse("<test>", rule_json, strlen(rule_json), &rule, &err), 0, "%s", err.msg);
    char *path = write_tmp(text);
    const char *logs[] = {path};
    pr_parse_args args = {0, 0, 0, NULL};
    parse_result_init(res);
    cr_assert_eq(parse_logs(rule, logs, 1, &args, res, &err), 0, "%s", err.msg);
    cr_assert_not(res->failed, "%s: the case failed: %s: %s", rule_json, res->fail_reason,
                  res->fail_detail ? res->fail_detail : "");
    rule_free(rule);
    unlink(path);
    free(path);
}

/* The perfrepro-gpu profile reads every row the printers write, every
 * kernel and precision by its name, and metrics.table holds each cell. */
Test(gpu_parse_back, perfrepro_gpu_profile)
{
    enum { NSIZES = 5, NSHAPES = 4 };
    unsigned kernels = (1u << PR_GPU_NBWK) - 1;
    capture c;
    pr_gpu_tally t;
    gpuhost_tally_init(&t);
    cap_open(&c);
    gpuhost_bw_header(c.f, kernels, 3352.32, 2619000, 5120, (size_t)50 << 20);
    double bw[NSIZES][PR_GPU_NBWK];
    for (int i = 0; i < NSIZES; i++) {
        size_t size = (size_t)1 << (20 + 2 * i);
        pr_gpu_cell cells[PR_GPU_NBWK];
        for (int k = 0; k < PR_GPU_NBWK; k++) {
            bw[i][k] = 100.0 * (i + 1) + 10.0 * k + 0.25;
            cells[k] = cell(10.0 + i, bw[i][k], bw[i][k] / 33.5232, 0);
        }
        if (i == 0) { /* write did not run at the smallest size */
            cells[PR_GPU_WRITE].ran = 0;
            bw[i][PR_GPU_WRITE] = NAN;
        }
        gpuhost_bw_row(c.f, &t, kernels, size, cells);
    }
    gpuhost_bw_footer(c.f, &t, kernels);
    char *text = cap_close(&c);
    for (int k = 0; k < PR_GPU_NBWK; k++) {
        char rule[160];
        snprintf(rule, sizeof rule,
                 "{\"profile\": \"perfrepro-gpu\", \"variant\": \"%s\", \"reduce\": \"last\"}",
                 gpuhost_bwk_name((pr_gpu_bwk)k));
        pr_parse_result res;
        parse_back_res(rule, text, &res);
        cr_expect_float_eq(res.value, bw[NSIZES - 1][k], 1e-9, "%s", rule);
        cr_expect_str_eq(res.unit, "GB/s");
        json_t *tab = json_object_get(res.metrics, "table");
        json_t *rows = json_object_get(tab, "rows");
        cr_assert_eq(json_array_size(rows), NSIZES);
        cr_expect_float_eq(json_real_value(json_object_get(tab, "peak")), 3352.32, 1e-9);
        for (int i = 0; i < NSIZES; i++) {
            json_t *row = json_array_get(rows, (size_t)i);
            cr_expect_eq(json_integer_value(json_array_get(row, 0)), (json_int_t)1 << (20 + 2 * i));
            for (int j = 0; j < PR_GPU_NBWK; j++) {
                json_t *v = json_array_get(row, (size_t)j + 1);
                if (isnan(bw[i][j]))
                    cr_expect(json_is_null(v));
                else
                    cr_expect_float_eq(json_real_value(v), bw[i][j], 1e-9);
            }
        }
        parse_result_clear(&res);
    }
    free(text);

    unsigned precs = (1u << PR_GPU_NPREC) - 1;
    gpuhost_tally_init(&t);
    cap_open(&c);
    gpuhost_gemm_header(c.f, precs);
    pr_gpu_shape shapes[NSHAPES] = {
        {1024, 1024, 1024}, {8192, 4096, 4096}, {8192, 12288, 4096}, {8192, 4096, 16384}};
    double best[PR_GPU_NPREC] = {0};
    for (int i = 0; i < NSHAPES; i++) {
        pr_gpu_cell cells[PR_GPU_NPREC];
        for (int p = 0; p < PR_GPU_NPREC; p++) {
            double tf = 10.0 * (p + 1) + (i == 2 ? 5.5 : i); /* the third shape is best */
            cells[p] = cell(100.0, tf, -1, 0);
            if (tf > best[p])
                best[p] = tf;
        }
        gpuhost_gemm_row(c.f, &t, precs, &shapes[i], cells);
    }
    gpuhost_gemm_footer(c.f, &t, precs);
    text = cap_close(&c);
    for (int p = 0; p < PR_GPU_NPREC; p++) {
        char rule[160];
        snprintf(rule, sizeof rule,
                 "{\"profile\": \"perfrepro-gpu\", \"variant\": \"%s\", \"reduce\": \"max\"}",
                 gpuhost_prec_name((pr_gpu_prec)p));
        pr_parse_result res;
        parse_back_res(rule, text, &res);
        /* the footer's best, read from the rows */
        cr_expect_float_eq(res.value, best[p], 1e-9, "%s", rule);
        cr_expect_float_eq(res.value, t.best[p], 1e-9);
        cr_expect_str_eq(res.unit, "TFLOP/s");
        json_t *tab = json_object_get(res.metrics, "table");
        cr_expect_str_eq(json_string_value(json_object_get(tab, "x")), "shape");
        cr_expect_str_eq(
            json_string_value(json_array_get(json_object_get(tab, "columns"), (size_t)p)),
            gpuhost_prec_name((pr_gpu_prec)p));
        json_t *row = json_array_get(json_object_get(tab, "rows"), 2);
        cr_expect_str_eq(json_string_value(json_array_get(row, 0)), "8192x12288x4096");
        parse_result_clear(&res);
    }
    free(text);

    /* the golden tables: the default variant is the first group */
    text = bw_table();
    cr_expect_float_eq(parse_back("{\"profile\": \"perfrepro-gpu\", \"reduce\": \"last\"}", text),
                       2972.10, 1e-9);
    free(text);
    text = gemm_table((1u << PR_GPU_FP32) | (1u << PR_GPU_FP16) | (1u << PR_GPU_FP8));
    cr_expect_float_eq(parse_back("{\"profile\": \"perfrepro-gpu\", \"variant\": \"fp16\", "
                                  "\"reduce\": \"max\"}",
                                  text),
                       743.0, 1e-9);
    free(text);
}

/* A precision that did not run leaves no number: the case fails, never 0. */
Test(gpu_parse_back, unsupported_precision_fails)
{
    char *text = gemm_table(1u << PR_GPU_FP8);
    const char *rule_json = "{\"keyword\": \"TFLOP/s :\", \"value\": \"raw\", \"unit\": "
                            "\"TFLOP/s\", \"min_records\": 1}";
    pr_rule *rule = NULL;
    pr_err err;
    cr_assert_eq(rule_parse("<test>", rule_json, strlen(rule_json), &rule, &err), 0);
    char *path = write_tmp(text);
    const char *logs[] = {path};
    pr_parse_args args = {0, 0, 0, NULL};
    pr_parse_result res;
    parse_result_init(&res);
    cr_assert_eq(parse_logs(rule, logs, 1, &args, &res, &err), 0, "%s", err.msg);
    cr_assert(res.failed);
    parse_result_clear(&res);
    rule_free(rule);
    unlink(path);
    free(path);
    free(text);
}

/* The shipped suites load and their rules build (run from the repository root). */
Test(gpu_parse_back, hardware_suites_load)
{
    static const char *const suites[] = {"data/suites/Hardware/perfrepro-gpu-nccl.json",
                                         "data/suites/Hardware/perfrepro-gpu-bw.json",
                                         "data/suites/Hardware/perfrepro-gpu-gemm.json"};
    if (access(suites[0], R_OK) != 0)
        cr_skip_test("data/suites/Hardware not found (run from the repository root)");
    for (size_t i = 0; i < sizeof suites / sizeof *suites; i++) {
        pr_suite *s = NULL;
        pr_rule *r = NULL;
        pr_err err;
        cr_assert_eq(pr_suite_load(suites[i], &s, &err), 0, "%s", err.msg);
        cr_assert_eq(rule_from_json(s->rule, suites[i], &r, &err), 0, "%s", err.msg);
        cr_assert_str_eq(json_string_value(json_array_get(s->command, 0)),
                         "{workdir}/bin/perfrepro-gpu");
        rule_free(r);
        pr_suite_free(s);
    }
}

/* ---- reading perfrepro-gpu's output ---- */

Test(gpu_readers, env_values)
{
    const char *text = "# perfrepro-gpu env\n"
                       "name: NVIDIA H100 80GB HBM3\n"
                       "count: 8\n"
                       "driver: 570.124.06\n"
                       "cuda: 13.0\n"
                       "cudnn: not found\n"
                       "nccl:   2.28.9  \n"
                       "device.0.name: NVIDIA H100 80GB HBM3\n"
                       "device.0.memory_peak_gbs: unknown\n"
                       "#name: commented\n";
    char v[64];
    cr_assert_eq(gpuhost_env_value(text, "name", v, sizeof v), 1);
    cr_assert_str_eq(v, "NVIDIA H100 80GB HBM3");
    cr_assert_eq(gpuhost_env_value(text, "count", v, sizeof v), 1);
    cr_assert_str_eq(v, "8");
    cr_assert_eq(gpuhost_env_value(text, "nccl", v, sizeof v), 1);
    cr_assert_str_eq(v, "2.28.9");
    cr_assert_eq(gpuhost_env_value(text, "cuda", v, sizeof v), 1);
    cr_assert_str_eq(v, "13.0");
    cr_assert_eq(gpuhost_env_value(text, "cudnn", v, sizeof v), 0);
    cr_assert_eq(gpuhost_env_value(text, "device.0.memory_peak_gbs", v, sizeof v), 0);
    cr_assert_eq(gpuhost_env_value(text, "cuda_driver", v, sizeof v), 0);
    cr_assert_eq(gpuhost_env_value(text, "device", v, sizeof v), 0);
    /* truncated to the buffer */
    char small[8];
    cr_assert_eq(gpuhost_env_value(text, "name", small, sizeof small), 1);
    cr_assert_str_eq(small, "NVIDIA ");
}

Test(gpu_readers, failure_lines)
{
    char reason[32];
    const char *detail = NULL;
    cr_assert_eq(gpuhost_failure_parse("PERFREPRO_FAILURE: no_gpu: CUDA driver version is "
                                       "insufficient for CUDA runtime version",
                                       reason, sizeof reason, &detail),
                 1);
    cr_assert_str_eq(reason, "no_gpu");
    cr_assert_str_eq(detail, "CUDA driver version is insufficient for CUDA runtime version");
    cr_assert_eq(gpuhost_failure_parse("[1,3]<stderr>:PERFREPRO_FAILURE: no_gpu: process 3 "
                                       "needs GPUs 3 to 3",
                                       reason, sizeof reason, &detail),
                 1);
    cr_assert_str_eq(detail, "process 3 needs GPUs 3 to 3");
    cr_assert_eq(gpuhost_failure_parse("  PERFREPRO_FAILURE: oom:", reason, sizeof reason, &detail),
                 1);
    cr_assert_str_eq(reason, "oom");
    cr_assert_str_eq(detail, "");
    cr_assert_eq(
        gpuhost_failure_parse("PERFREPRO_FAILURE: no gpu: x", reason, sizeof reason, &detail), 0);
    cr_assert_eq(gpuhost_failure_parse("error: PERFREPRO_FAILURE: no_gpu: x", reason, sizeof reason,
                                       &detail),
                 0);
    cr_assert_eq(gpuhost_failure_parse("PERFREPRO_FAILURE: no_gpu", reason, sizeof reason, &detail),
                 0);
    cr_assert_eq(gpuhost_failure_parse("PERFREPRO_FAILURE: averyveryverylongreasonname: x", reason,
                                       8, &detail),
                 0);
}

Test(gpu_readers, usage_mentions_every_workload)
{
    capture c;
    cap_open(&c);
    gpuhost_usage(c.f, "perfrepro-gpu");
    char *got = cap_close(&c);
    static const char *const words[] = {"env",
                                        "bw",
                                        "gemm",
                                        "all_reduce",
                                        "all_gather",
                                        "reduce_scatter",
                                        "broadcast",
                                        "reduce",
                                        "alltoall",
                                        "sendrecv",
                                        "PERFREPRO_FAILURE: no_gpu"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        cr_assert(strstr(got, words[i]) != NULL, "usage lacks %s", words[i]);
    free(got);
}
