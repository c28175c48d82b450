/* fuzz_mlperf: what `perfrepro-measure import --mlperf` reads from an MLPerf
 * submission (measure/5-import/import_mlperf*.c, docs/import.md "MLPerf
 * Training"), files strangers publish.
 *
 * The first byte picks the reader, the rest is the file:
 *   0  a result file (result_N.txt, :::MLLOG lines): import_mlperf_result_read
 *   1  a system description (systems/SYSTEM.json): import_mlperf_sys_platform
 *   2  scaling.json: import_mlperf_scaling_read
 * Invariants: an error always names the file; a result read has a finite
 * time to train >= 0, its run_start and run_stop lines, a status success or
 * aborted (converged when success), a finite throughput; a platform has
 * nodes >= 1 and devices per node >= 1 whose product (the records' GPU
 * count) fits an int; a scaling factor is finite and above 0.  Never crash,
 * leak or hang.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "5-import/import_mlperf.h"
#include "5-import/import_mlperf_sys.h"
#include "err.h"

static void die(const char *what)
{
    fprintf(stderr, "fuzz_mlperf: %s\n", what);
    abort();
}

static int check_result(const char *path, pr_err *err)
{
    import_mlperf_result r;
    if (import_mlperf_result_read(path, &r, err) < 0)
        return -1;
    if (!isfinite(r.minutes) || r.minutes < 0)
        die("a time to train that is not finite and >= 0");
    if (r.start_line <= 0 || r.stop_line <= 0)
        die("a result without its run_start or run_stop line");
    if (strcmp(r.status, "success") && strcmp(r.status, "aborted"))
        die("a status other than success or aborted");
    if (r.converged != !strcmp(r.status, "success"))
        die("converged disagrees with the status");
    if (!isfinite(r.throughput) || (r.throughputs == 0 && r.throughput != 0))
        die("a throughput that is not finite");
    if (r.start_ms < 0 || r.global_batch < 0)
        die("a negative start time or global batch");
    return 0;
}

static int check_platform(const char *path, pr_err *err)
{
    json_t *p = import_mlperf_sys_platform(path, "Acme/systems/fuzz.json", err);
    if (!p)
        return -1;
    json_int_t nodes = json_integer_value(json_object_get(json_object_get(p, "system"), "nodes"));
    json_int_t per_node =
        json_integer_value(json_object_get(json_object_get(p, "device"), "per_node"));
    if (nodes < 1 || per_node < 1)
        die("a platform without nodes or devices per node");
    if (per_node > INT_MAX / nodes)
        die("a platform whose devices (nodes x per node) do not fit an int");
    const char *model = json_string_value(json_object_get(json_object_get(p, "device"), "model"));
    if (!model || !*model)
        die("a platform whose device has no model");
    json_decref(p);
    return 0;
}

static int check_scaling(const char *path, pr_err *err)
{
    double factor = 0;
    if (import_mlperf_scaling_read(path, &factor, err) < 0)
        return -1;
    if (!isfinite(factor) || !(factor > 0))
        die("a scaling factor that is not finite and above 0");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char path[] = "/tmp/fuzz_mlperf.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        die("mkstemp");
    if (size > 1 && write(fd, data + 1, size - 1) != (ssize_t)(size - 1))
        die("write");
    close(fd);
    pr_err err = {{0}};
    int rc = data[0] % 3 == 0   ? check_result(path, &err)
             : data[0] % 3 == 1 ? check_platform(path, &err)
                                : check_scaling(path, &err);
    if (rc < 0 && !strstr(err.msg, path))
        die(err.msg[0] ? err.msg : "an error without a message");
    unlink(path);
    return 0;
}
