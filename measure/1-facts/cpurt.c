#include "cpurt.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* The libraries that decide a CPU result, by the start of their file name
 * (a row each: a new BLAS is one line). */
static const struct lib_kind {
    const char *kind;
    const char *stem;
} lib_kinds[] = {
    {"blas", "libopenblas"}, {"blas", "libblas.so"},  {"blas", "libcblas.so"},
    {"blas", "libblis"},     {"blas", "libatlas"},    {"blas", "libmkl_rt"},
    {"blas", "libmkl_core"}, {"lapack", "liblapack"}, {"openmp", "libgomp"},
    {"openmp", "libiomp5"},  {"openmp", "libomp.so"}, {"onednn", "libdnnl"},
    {"onednn", "libmkldnn"},
};

/* The environment variables those libraries read for threads, waiting and
 * placement, and LD_PRELOAD (a BLAS preloaded for one process). */
static const char *const setting_names[] = {
    "OMP_NUM_THREADS", "OMP_WAIT_POLICY",      "OMP_PROC_BIND",     "OMP_PLACES",
    "OMP_DYNAMIC",     "GOMP_SPINCOUNT",       "GOMP_CPU_AFFINITY", "KMP_BLOCKTIME",
    "KMP_AFFINITY",    "OPENBLAS_NUM_THREADS", "OPENBLAS_CORETYPE", "GOTO_NUM_THREADS",
    "MKL_NUM_THREADS", "MKL_THREADING_LAYER",  "DNNL_MAX_CPU_ISA",  "LD_PRELOAD",
};
#define NSETTINGS (sizeof setting_names / sizeof *setting_names)

struct pr_cpurt {
    char **files; /* "kind\tfile", unsorted, unique */
    size_t nfiles, cap;
    long threads_max;
    int seen; /* a process was looked at */
    int have_settings;
    char *settings[NSETTINGS]; /* NULL: not set */
};

pr_cpurt *cpurt_new(void)
{
    return pr_xcalloc(1, sizeof(pr_cpurt));
}

void cpurt_free(pr_cpurt *rt)
{
    if (!rt)
        return;
    for (size_t i = 0; i < rt->nfiles; i++)
        free(rt->files[i]);
    free(rt->files);
    for (size_t i = 0; i < NSETTINGS; i++)
        free(rt->settings[i]);
    free(rt);
}

static const char *kind_of(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof lib_kinds / sizeof *lib_kinds; i++)
        if (strncmp(base, lib_kinds[i].stem, strlen(lib_kinds[i].stem)) == 0)
            return lib_kinds[i].kind;
    return NULL;
}

static void add_file(pr_cpurt *rt, const char *kind, const char *path, size_t len)
{
    char *entry = pr_xasprintf("%s\t%.*s", kind, (int)len, path);
    for (size_t i = 0; i < rt->nfiles; i++)
        if (strcmp(rt->files[i], entry) == 0) {
            free(entry);
            return;
        }
    if (rt->nfiles == rt->cap) {
        rt->cap = rt->cap ? rt->cap * 2 : 8;
        rt->files = pr_xrealloc(rt->files, rt->cap * sizeof *rt->files);
    }
    rt->files[rt->nfiles++] = entry;
}

void cpurt_add_maps(pr_cpurt *rt, const char *maps)
{
    rt->seen = 1;
    for (const char *l = maps; l && *l;) {
        const char *eol = strchr(l, '\n');
        size_t n = eol ? (size_t)(eol - l) : strlen(l);
        /* "addr perms offset dev inode   path": the path is the sixth
         * field, absolute for a file. */
        const char *p = memchr(l, '/', n);
        if (p) {
            size_t plen = n - (size_t)(p - l);
            char *path = pr_xstrndup(p, plen);
            /* A deleted file reads "PATH (deleted)": kept as the kernel says. */
            const char *kind = kind_of(path);
            if (kind)
                add_file(rt, kind, path, plen);
            free(path);
        }
        l = eol ? eol + 1 : l + n;
    }
}

void cpurt_add_threads(pr_cpurt *rt, long threads)
{
    rt->seen = 1;
    if (threads > rt->threads_max)
        rt->threads_max = threads;
}

/* The whole file at path (small /proc files), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return NULL;
    pr_buf b = PR_BUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        pr_buf_put(&b, chunk, n);
    fclose(f);
    return pr_buf_detach(&b);
}

/* The process group of /proc/PID/stat's text: the fifth field, after the
 * command name in parentheses (which may hold blanks and parentheses). */
static long stat_pgrp(const char *stat)
{
    const char *p = stat ? strrchr(stat, ')') : NULL;
    char state;
    long ppid, pgrp;
    if (!p || sscanf(p + 1, " %c %ld %ld", &state, &ppid, &pgrp) != 3)
        return -1;
    return pgrp;
}

void cpurt_sample(pr_cpurt *rt, pid_t pgid)
{
    DIR *d = opendir("/proc");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        errno = 0;
        long pid = strtol(e->d_name, &end, 10);
        if (errno || *end || end == e->d_name || pid <= 0)
            continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        char *stat = slurp(path);
        long pg = stat_pgrp(stat);
        free(stat);
        if (pg != (long)pgid)
            continue;
        snprintf(path, sizeof path, "/proc/%ld/maps", pid);
        char *maps = slurp(path);
        snprintf(path, sizeof path, "/proc/%ld/status", pid);
        char *status = slurp(path);
        if (maps)
            cpurt_add_maps(rt, maps);
        const char *t = status ? strstr(status, "\nThreads:") : NULL;
        if (t)
            cpurt_add_threads(rt, strtol(t + 9, NULL, 10));
        free(maps);
        free(status);
    }
    closedir(d);
}

/* NAME's value in a "NAME=value" list, or NULL. */
static const char *lookup(char *const *list, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; list && list[i]; i++)
        if (strncmp(list[i], name, n) == 0 && list[i][n] == '=')
            return list[i] + n + 1;
    return NULL;
}

void cpurt_settings(pr_cpurt *rt, char *const *env, char *const *base)
{
    if (rt->have_settings)
        return;
    rt->have_settings = 1;
    for (size_t i = 0; i < NSETTINGS; i++) {
        const char *v = lookup(env, setting_names[i]);
        if (!v)
            v = lookup(base, setting_names[i]);
        rt->settings[i] = v ? pr_xstrdup(v) : NULL;
    }
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

json_t *cpurt_to_json(const pr_cpurt *rt)
{
    /* No library seen says nothing (a job in a container, or on other
     * nodes, is out of sight): no runtime rather than an empty one. */
    if (!rt->seen || !rt->nfiles)
        return NULL;
    char **sorted = pr_xmalloc((rt->nfiles + 1) * sizeof *sorted);
    memcpy(sorted, rt->files, rt->nfiles * sizeof *sorted);
    qsort(sorted, rt->nfiles, sizeof *sorted, by_text);
    json_t *libs = json_array();
    for (size_t i = 0; i < rt->nfiles; i++) {
        const char *tab = strchr(sorted[i], '\t');
        json_array_append_new(libs, json_pack("{s:s%,s:s}", "kind", sorted[i],
                                              (size_t)(tab - sorted[i]), "file", tab + 1));
    }
    free(sorted);
    json_t *settings = json_object();
    for (size_t i = 0; rt->have_settings && i < NSETTINGS; i++)
        json_object_set_new(settings, setting_names[i],
                            rt->settings[i] ? json_string(rt->settings[i]) : json_null());
    return json_pack("{s:o,s:o,s:o}", "libraries", libs, "threads_max",
                     rt->threads_max > 0 ? json_integer(rt->threads_max) : json_null(), "settings",
                     settings);
}
