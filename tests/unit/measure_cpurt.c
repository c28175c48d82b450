/* cpurt: the libraries a job's /proc/PID/maps shows, sorted and unique, with
 * their kinds; threads; settings from the job's environment over measure's;
 * nothing said when no library of interest was seen. */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "1-facts/cpurt.h"

static const char maps[] =
    "55d0c0a00000-55d0c0a21000 r--p 00000000 08:01 1 /usr/bin/python3.11\n"
    "7f10a0000000-7f10a0100000 r-xp 00000000 08:01 2 "
    "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so\n"
    "7f10a0200000-7f10a0300000 r-xp 00000000 08:01 3 "
    "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3\n"
    "7f10a0300000-7f10a0301000 r--p 00100000 08:01 3 "
    "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3\n"
    "7f10a0400000-7f10a0500000 r-xp 00000000 08:01 4 /usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0\n"
    "7f10a0600000-7f10a0700000 r-xp 00000000 08:01 5 /usr/lib/x86_64-linux-gnu/libdnnl.so.2.6\n"
    "7f10a0800000-7f10a0900000 rw-p 00000000 00:00 0 [heap]\n"
    "7f10a0a00000-7f10a0b00000 r-xp 00000000 08:01 6 /usr/lib/x86_64-linux-gnu/libc.so.6\n";

Test(cpurt, libraries_threads_and_settings)
{
    pr_cpurt *rt = cpurt_new();
    cpurt_add_maps(rt, maps);
    cpurt_add_maps(rt, maps); /* a second process, or a second look: no duplicates */
    cpurt_add_threads(rt, 3);
    cpurt_add_threads(rt, 2);
    char *env[] = {"OMP_NUM_THREADS=1", NULL};
    char *base[] = {"OMP_NUM_THREADS=8", "OMP_WAIT_POLICY=active", "HOME=/root", NULL};
    cpurt_settings(rt, env, base);
    char *later[] = {"OMP_NUM_THREADS=2", NULL};
    cpurt_settings(rt, later, NULL); /* the first case's environment stays */
    json_t *j = cpurt_to_json(rt);
    cr_assert(j);
    char *text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    const char *want =
        "{\"libraries\":["
        "{\"kind\":\"blas\",\"file\":\"/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3\"},"
        "{\"kind\":\"blas\",\"file\":"
        "\"/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so\"},"
        "{\"kind\":\"onednn\",\"file\":\"/usr/lib/x86_64-linux-gnu/libdnnl.so.2.6\"},"
        "{\"kind\":\"openmp\",\"file\":\"/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0\"}],"
        "\"threads_max\":3,\"settings\":{\"OMP_NUM_THREADS\":\"1\",\"OMP_WAIT_POLICY\":\"active\"";
    cr_expect(strncmp(text, want, strlen(want)) == 0, "%s", text);
    cr_expect(strstr(text, "\"LD_PRELOAD\":null"), "%s", text);
    cr_expect(!strstr(text, "HOME"), "%s", text);
    free(text);
    json_decref(j);
    cpurt_free(rt);
}

Test(cpurt, nothing_seen_says_nothing)
{
    pr_cpurt *rt = cpurt_new();
    cr_expect(cpurt_to_json(rt) == NULL);
    /* A process seen without any library of interest (a container's
     * client, a launcher): still nothing, never "no BLAS". */
    cpurt_add_maps(rt, "7f10a0a00000-7f10a0b00000 r-xp 00000000 08:01 6 /usr/lib/libc.so.6\n");
    cpurt_add_threads(rt, 1);
    cr_expect(cpurt_to_json(rt) == NULL);
    cpurt_free(rt);
}

Test(cpurt, this_process_is_seen)
{
    /* The test binary's own group: libc only, but its thread count. */
    pr_cpurt *rt = cpurt_new();
    cpurt_sample(rt, getpgrp());
    cr_expect(cpurt_to_json(rt) == NULL);
    cpurt_free(rt);
}
