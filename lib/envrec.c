#include "envrec.h"

#include <math.h>
#include <string.h>

static const char *const top_keys[] = {"perfrepro", "captured_at", "host", "gpu",
                                       "framework", "runtime",     "note", NULL};
static const char *const host_keys[] = {"cpu_model", "cpu_count", "memory_gb", "arch",
                                        "os",        "kernel",    "compiler",  NULL};
static const char *const framework_keys[] = {"name", "version", NULL};
/* perfrepro-gpu env's first keys (docs/gpu.md), and the two it adds. */
static const char *const gpu_keys[] = {"name", "count",       "driver",   "cuda", "cudnn",
                                       "nccl", "cuda_driver", "cublaslt", NULL};

/* obj.key absent, null or a string. */
static int opt_str(const pr_jdoc_jcur *obj, const char *key, pr_err *err)
{
    pr_jdoc_jcur c = pr_jdoc_jchild(obj, key);
    if (!c.v || json_is_null(c.v) || json_is_string(c.v))
        return 0;
    return pr_jdoc_jfail(&c, err, "expected a string or null");
}

/* obj.key absent, null or a whole count from 1 (a CPU or GPU count). */
static int opt_count(const pr_jdoc_jcur *obj, const char *key, pr_err *err)
{
    pr_jdoc_jcur c = pr_jdoc_jchild(obj, key);
    if (!c.v || json_is_null(c.v))
        return 0;
    if (!json_is_integer(c.v))
        return pr_jdoc_jfail(&c, err, "expected an integer from 1, or null");
    long long v = json_integer_value(c.v);
    if (v < 1 || v > (1 << 24))
        return pr_jdoc_jfail(&c, err, "%lld is out of range [1, %d]", v, 1 << 24);
    return 0;
}

/* obj.key absent, null or a finite number above 0. */
static int opt_positive(const pr_jdoc_jcur *obj, const char *key, pr_err *err)
{
    pr_jdoc_jcur c = pr_jdoc_jchild(obj, key);
    if (!c.v || json_is_null(c.v))
        return 0;
    if (!json_is_number(c.v) || !isfinite(json_number_value(c.v)))
        return pr_jdoc_jfail(&c, err, "expected a number, or null");
    if (!(json_number_value(c.v) > 0))
        return pr_jdoc_jfail(&c, err, "%g: expected a number above 0", json_number_value(c.v));
    return 0;
}

/* "YYYY-MM-DDTHH:MM:SSZ", as envinfo_fmt_utc writes it. */
static int is_utc_stamp(const char *s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
    if (strlen(s) != sizeof shape - 1)
        return 0;
    for (size_t i = 0; shape[i]; i++)
        if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
            return 0;
#define AT(i) ((s[i] - '0') * 10 + (s[(i) + 1] - '0'))
    int mon = AT(5), day = AT(8), hour = AT(11), min = AT(14), sec = AT(17);
#undef AT
    return mon >= 1 && mon <= 12 && day >= 1 && day <= 31 && hour <= 23 && min <= 59 && sec <= 60;
}

/* obj.key: absent, null, or an object with only allowed keys. */
static int opt_object(const pr_jdoc_jcur *obj, const char *key, const char *const *allowed,
                      pr_jdoc_jcur *out, pr_err *err)
{
    *out = pr_jdoc_jchild(obj, key);
    if (!out->v || json_is_null(out->v))
        return 0;
    if (!json_is_object(out->v))
        return pr_jdoc_jfail(out, err, "expected an object or null");
    if (pr_jdoc_jobject(out, allowed, err) < 0)
        return -1;
    return 1;
}

/* "runtime" (measure/1-facts/cpurt.h): the libraries the jobs' processes loaded,
 * their most threads, and the settings those libraries read. */
static int runtime_check(const pr_jdoc_jcur *rt, pr_err *err)
{
    static const char *const keys[] = {"libraries", "threads_max", "settings", NULL};
    static const char *const lib_keys[] = {"kind", "file", NULL};
    static const char *const kinds[] = {"blas", "lapack", "openmp", "onednn", NULL};
    pr_jdoc_jcur libs, settings;
    const char *v;
    if (pr_jdoc_jobject(rt, keys, err) < 0 || pr_jdoc_jarr(rt, "libraries", 1, 0, &libs, err) < 0 ||
        opt_count(rt, "threads_max", err) < 0 ||
        pr_jdoc_jobj(rt, "settings", 1, &settings, err) < 0)
        return -1;
    for (size_t i = 0; i < json_array_size(libs.v); i++) {
        pr_jdoc_jcur lib = pr_jdoc_jitem(&libs, i);
        if (!json_is_object(lib.v))
            return pr_jdoc_jfail(&lib, err, "expected an object {kind, file}");
        if (pr_jdoc_jobject(&lib, lib_keys, err) < 0 ||
            pr_jdoc_jenum(&lib, "kind", 1, kinds, &v, err) < 0 ||
            pr_jdoc_jstr(&lib, "file", 1, &v, err) < 0)
            return -1;
    }
    const char *name;
    json_t *val;
    json_object_foreach(settings.v, name, val)
    {
        (void)val;
        if (opt_str(&settings, name, err) < 0)
            return -1;
    }
    return 0;
}

int pr_envrec_check(const pr_jdoc_jcur *root, pr_err *err)
{
    long long v;
    const char *when = NULL;
    pr_jdoc_jcur c;
    int rc;
    if (!json_is_object(root->v))
        return pr_jdoc_jfail(root, err, "expected an object (an environment record)");
    if (pr_jdoc_jobject(root, top_keys, err) < 0 ||
        pr_jdoc_jint(root, "perfrepro", 1, 1, 1, &v, err) < 0 ||
        pr_jdoc_jstr(root, "captured_at", 1, &when, err) < 0)
        return -1;
    if (!is_utc_stamp(when)) {
        c = pr_jdoc_jchild(root, "captured_at");
        return pr_jdoc_jfail(&c, err, "expected a UTC time as YYYY-MM-DDTHH:MM:SSZ");
    }
    const char *note;
    if (pr_jdoc_jstr(root, "note", 0, &note, err) < 0)
        return -1;
    if ((rc = opt_object(root, "host", host_keys, &c, err)) < 0)
        return -1;
    if (rc && (opt_str(&c, "cpu_model", err) < 0 || opt_count(&c, "cpu_count", err) < 0 ||
               opt_positive(&c, "memory_gb", err) < 0 || opt_str(&c, "arch", err) < 0 ||
               opt_str(&c, "os", err) < 0 || opt_str(&c, "kernel", err) < 0 ||
               opt_str(&c, "compiler", err) < 0))
        return -1;
    if ((rc = opt_object(root, "framework", framework_keys, &c, err)) < 0)
        return -1;
    if (rc && (opt_str(&c, "name", err) < 0 || opt_str(&c, "version", err) < 0))
        return -1;
    if ((rc = opt_object(root, "gpu", gpu_keys, &c, err)) < 0)
        return -1;
    for (const char *const *k = gpu_keys; rc && *k; k++)
        if ((strcmp(*k, "count") == 0 ? opt_count(&c, *k, err) : opt_str(&c, *k, err)) < 0)
            return -1;
    c = pr_jdoc_jchild(root, "runtime");
    if (c.v && !json_is_null(c.v)) {
        if (!json_is_object(c.v))
            return pr_jdoc_jfail(&c, err, "expected an object or null");
        if (runtime_check(&c, err) < 0)
            return -1;
    }
    return 0;
}

int pr_envrec_load(const char *path, json_t **out, pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    int rc = pr_envrec_check(&root, err);
    if (rc == 0)
        *out = json_incref(root.v);
    pr_jdoc_free(doc);
    return rc;
}
