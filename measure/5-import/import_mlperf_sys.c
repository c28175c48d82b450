/* import_mlperf_sys: MLPerf system descriptions made into platforms (see
 * the header). */
#include "import_mlperf_sys.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "fileio.h"
#include "import_fs.h"
#include "import_mlperf.h"
#include "import_mlperf_env.h"

char *import_mlperf_sys_id(const char *submitter, const char *system)
{
    return pr_xasprintf("mlperf-%s-%s", submitter, system);
}

/* The string of key in d, "" when absent or not a string (MLPerf leaves
 * fields it does not state empty). */
static const char *text_of(json_t *d, const char *key)
{
    const char *s = json_string_value(json_object_get(d, key));
    return s ? s : "";
}

/* A count MLPerf writes as a string ("8") or a number into *out: 1 when
 * stated, 0 when empty or absent, -1 (err names path and key) when not a
 * whole number from 0 to 1000000. */
static int count_of(json_t *d, const char *key, const char *path, long *out, pr_err *err)
{
    json_t *v = json_object_get(d, key);
    if (!v || (json_is_string(v) && !*json_string_value(v)))
        return 0;
    if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= 1000000) {
        *out = (long)json_integer_value(v);
        return 1;
    }
    const char *s = json_string_value(v);
    char *end = NULL;
    errno = 0;
    long n = s && s[0] >= '0' && s[0] <= '9' ? strtol(s, &end, 10) : -1;
    if (!end || *end || errno || n < 0 || n > 1000000)
        return pr_err_set(err, path, 0, 0, key, "\"%s\" is not a whole number (0 to 1000000)",
                          s ? s : "(not a string)");
    *out = n;
    return 1;
}

/* The accelerator memory ("80 GB", "81559 MiB") in GB as the platforms
 * state it (GiB, as "A100-SXM4-40GB" is 40): 1 when stated, 0 when not
 * (or in a unit not read). */
static int memory_gb_of(const char *s, double *gb)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !(v > 0) || !isfinite(v))
        return 0;
    while (*end == ' ')
        end++;
    if (!strcmp(end, "GB") || !strcmp(end, "GiB"))
        *gb = v;
    else if (!strcmp(end, "MiB") || !strcmp(end, "MB"))
        *gb = v / 1024;
    else
        return 0;
    return 1;
}

/* The software a description lists (an object of versions, or a list of
 * strings), copied as strings; NULL when none. */
static json_t *software_of(json_t *d)
{
    json_t *s = json_object_get(d, "other_software_stack"), *out = NULL;
    if (json_is_object(s)) {
        const char *k;
        json_t *v;
        json_object_foreach(s, k, v)
        {
            if (json_is_string(v) && *json_string_value(v)) {
                if (!out)
                    out = json_object();
                json_object_set_new(out, k, json_string(json_string_value(v)));
            }
        }
    } else if (json_is_array(s)) {
        for (size_t i = 0; i < json_array_size(s); i++) {
            json_t *v = json_array_get(s, i);
            if (json_is_string(v) && *json_string_value(v)) {
                if (!out)
                    out = json_array();
                json_array_append_new(out, json_string(json_string_value(v)));
            }
        }
    } else if (json_is_string(s) && *json_string_value(s)) {
        out = json_string(json_string_value(s));
    }
    return out;
}

static void set_text(json_t *o, const char *key, const char *s)
{
    if (s && *s)
        json_object_set_new(o, key, json_string(s));
}

json_t *import_mlperf_sys_platform(const char *path, const char *rel, pr_err *err)
{
    json_t *out = NULL, *d = NULL;
    json_error_t je;
    long nodes = 0, accel = 0, sockets = 0, cores = 0, vcpus = 0;
    d = json_load_file(path, 0, &je);
    if (!json_is_object(d)) {
        pr_err_set(err, path, je.line, je.column, NULL, "not a JSON object: %s", je.text);
        goto out;
    }
    int has_nodes = count_of(d, "number_of_nodes", path, &nodes, err);
    int has_accel = has_nodes < 0 ? -1 : count_of(d, "accelerators_per_node", path, &accel, err);
    int has_sockets =
        has_accel < 0 ? -1 : count_of(d, "host_processors_per_node", path, &sockets, err);
    int has_cores =
        has_sockets < 0 ? -1 : count_of(d, "host_processor_core_count", path, &cores, err);
    int has_vcpus =
        has_cores < 0 ? -1 : count_of(d, "host_processor_vcpu_count", path, &vcpus, err);
    if (has_vcpus < 0)
        goto out;
    if (!has_nodes || nodes < 1) {
        pr_err_set(err, path, 0, 0, "number_of_nodes", "missing or 0: a system has nodes");
        goto out;
    }
    const char *cpu = text_of(d, "host_processor_model_name");
    /* CPU only: the devices are the host's threads (vCPUs, else cores). */
    int cpu_only = !has_accel || accel == 0;
    long threads = sockets * (vcpus ? vcpus : cores);
    if (cpu_only && (!*cpu || threads < 1)) {
        pr_err_set(err, path, 0, 0, "accelerators_per_node",
                   "no accelerators, and no host processors with a core count: no devices");
        goto out;
    }
    /* The records count the devices in an int (nodes x per node): a
     * description past any machine (each count may reach 1000000) is
     * refused, not wrapped. */
    long per_node = cpu_only ? threads : accel;
    if (per_node > IMPORT_MLPERF_SYS_MAX_DEVICES / nodes) {
        pr_err_set(err, path, 0, 0,
                   cpu_only ? "host_processor_vcpu_count" : "accelerators_per_node",
                   "%ld nodes x %ld devices per node: over %ld devices, no system", nodes, per_node,
                   (long)IMPORT_MLPERF_SYS_MAX_DEVICES);
        goto out;
    }
    /* The title names the description too: one submitter's systems share
     * a name ("Eos" at 1, 8 and 316 nodes; one H200 box with three stacks). */
    const char *name = text_of(d, "system_name");
    const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
    size_t stem = strlen(base) > 5 ? strlen(base) - 5 : strlen(base);
    char *title_text = !*name ? pr_xstrndup(base, stem)
                       : strncmp(name, base, stem) || name[stem]
                           ? pr_xasprintf("%s (%.*s)", name, (int)stem, base)
                           : pr_xstrdup(name);
    out = json_object();
    json_object_set_new(out, "perfrepro", json_integer(1));
    json_t *title = json_object();
    json_object_set_new(title, "zh", json_string(title_text));
    json_object_set_new(title, "en", json_string(title_text));
    free(title_text);
    json_object_set_new(out, "title", title);
    json_t *dev = json_object();
    json_object_set_new(dev, "kind", json_string(cpu_only ? "cpu" : "gpu"));
    const char *model = cpu_only ? cpu : text_of(d, "accelerator_model_name");
    if (!*model) {
        json_decref(dev);
        json_decref(out);
        out = NULL;
        pr_err_set(err, path, 0, 0, "accelerator_model_name", "empty: the device is not named");
        goto out;
    }
    json_object_set_new(dev, "model", json_string(model));
    double gb;
    if (!cpu_only && memory_gb_of(text_of(d, "accelerator_memory_capacity"), &gb))
        json_object_set_new(dev, "memory_gb", json_real(gb));
    json_object_set_new(dev, "per_node", json_integer(per_node));
    json_object_set_new(out, "device", dev);
    set_text(out, "interconnect", text_of(d, "accelerator_interconnect"));
    json_t *sys = json_object();
    json_object_set_new(sys, "nodes", json_integer(nodes));
    json_t *host = json_object();
    set_text(host, "processor", cpu);
    if (has_sockets)
        json_object_set_new(host, "sockets", json_integer(sockets));
    if (has_cores)
        json_object_set_new(host, "cores", json_integer(cores));
    if (has_vcpus)
        json_object_set_new(host, "threads", json_integer(vcpus));
    set_text(host, "memory", text_of(d, "host_memory_capacity"));
    json_object_set_new(sys, "host", host);
    set_text(sys, "network", text_of(d, "host_networking"));
    set_text(sys, "framework", text_of(d, "framework"));
    json_t *sw = software_of(d);
    if (sw)
        json_object_set_new(sys, "software", sw);
    json_object_set_new(sys, "description", json_string(rel));
    json_object_set_new(out, "system", sys);
out:
    json_decref(d);
    return out;
}

/* 0 when the platform file path may be written for the description rel:
 * it does not exist, an MLPerf import of rel made it (its system.description
 * is rel), or replace is set. */
static int check_platform_owner(const char *path, const char *rel, int replace, pr_err *err)
{
    struct stat st;
    if (replace || (lstat(path, &st) < 0 && errno == ENOENT))
        return 0;
    json_error_t je;
    json_t *p = json_load_file(path, 0, &je);
    const char *desc =
        json_string_value(json_object_get(json_object_get(p, "system"), "description"));
    int rc = 0;
    if (!desc || strcmp(desc, rel))
        rc = pr_err_set(err, path, 0, 0, "system.description",
                        "exists and was not made by import --mlperf of %s (it says %s): give "
                        "--replace to replace it",
                        rel, desc ? desc : "nothing");
    json_decref(p);
    return rc;
}

int import_mlperf_sys_write(const char *submission, const char *data, const char *repo,
                            const char *commit, int replace, int write, pr_err *err)
{
    int rc = -1;
    char *sysdir = pr_xasprintf("%s/systems", submission);
    const char *slash = strrchr(submission, '/');
    const char *submitter = slash && slash[1] ? slash + 1 : submission;
    struct dirent **names = NULL;
    int n = scandir(sysdir, &names, NULL, alphasort);
    if (n < 0) {
        pr_err_errno(err, sysdir, "cannot list");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        const char *f = names[i]->d_name;
        size_t len = strlen(f);
        if (f[0] == '.' || len <= 5 || strcmp(f + len - 5, ".json"))
            continue;
        char *system = pr_xstrndup(f, len - 5);
        char *path = pr_xasprintf("%s/%s", sysdir, f);
        char *rel = pr_xasprintf("%s/systems/%s", submitter, f);
        char *results = pr_xasprintf("%s/results/%s", submission, system);
        char *id = import_mlperf_sys_id(submitter, system);
        char *out = pr_xasprintf("%s/platforms/%s.json", data, id);
        struct stat st;
        int r = 0;
        if (stat(results, &st) == 0) { /* a system without results is no one's platform */
            /* a source inside the submission, a platform this import made */
            json_t *p = import_fs_check_file(submission, path, IMPORT_MLPERF_TEXT_LIMIT,
                                             "system description", NULL, err) < 0 ||
                                (!write && data && check_platform_owner(out, rel, replace, err) < 0)
                            ? NULL
                            : import_mlperf_sys_platform(path, rel, err);
            char *text =
                p ? json_dumps(p, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))
                  : NULL;
            pr_buf b = PR_BUF_INIT;
            if (text) {
                pr_buf_puts(&b, text);
                pr_buf_putc(&b, '\n');
            }
            r = !text ? -1 : write ? pr_fileio_write_if_changed(out, b.data, b.len, err) : 0;
            if (r >= 0 && write)
                r = import_mlperf_env_write(path, rel, system, repo, commit, id, data, err);
            pr_buf_free(&b);
            free(text);
            json_decref(p);
        }
        free(system);
        free(path);
        free(rel);
        free(results);
        free(id);
        free(out);
        if (r < 0)
            goto out;
    }
    rc = 0;
out:
    for (int i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    free(sysdir);
    return rc;
}
