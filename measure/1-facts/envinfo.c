#include "envinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"

void envinfo_fmt_utc(time_t t, char out[32])
{
    struct tm tm;
    if (!gmtime_r(&t, &tm) || strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        strcpy(out, "1970-01-01T00:00:00Z");
}

/* Returns a malloc'd copy of [b, e) without leading and trailing blanks. */
static char *trimmed(const char *b, const char *e)
{
    while (b < e && (*b == ' ' || *b == '\t'))
        b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    return pr_xstrndup(b, (size_t)(e - b));
}

char *envinfo_os_pretty_name(const char *text)
{
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, "PRETTY_NAME=", 12) != 0)
            continue;
        const char *v = l + 12;
        const char *eol = strchr(v, '\n');
        if (!eol)
            eol = v + strlen(v);
        pr_buf b = PR_BUF_INIT;
        /* os-release values follow shell quoting rules; only what that file
         * uses in practice is undone: one pair of quotes and \-escapes. */
        char q = (*v == '"' || *v == '\'') ? *v++ : 0;
        for (; v < eol && *v != q; v++) {
            if (q == '"' && *v == '\\' && v + 1 < eol)
                v++;
            pr_buf_putc(&b, *v);
        }
        char *out = trimmed(pr_buf_cstr(&b), pr_buf_cstr(&b) + b.len);
        pr_buf_free(&b);
        if (!*out) {
            free(out);
            return NULL;
        }
        return out;
    }
    return NULL;
}

char *envinfo_cpu_model(const char *text)
{
    /* x86 says "model name"; some ARM kernels "Model" or "Hardware". */
    static const char *const keys[] = {"model name", "Model", "Hardware", NULL};
    for (const char *const *k = keys; *k; k++) {
        size_t kl = strlen(*k);
        for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
            if (strncmp(l, *k, kl) != 0)
                continue;
            const char *p = l + kl;
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p != ':')
                continue;
            const char *eol = strchr(p, '\n');
            char *v = trimmed(p + 1, eol ? eol : p + strlen(p));
            if (*v)
                return v;
            free(v);
        }
    }
    return NULL;
}

/* Reads a whole small system file into out; 0 on success. */
static int slurp(const char *path, pr_buf *out)
{
    pr_err ignored;
    return pr_fileio_read_file(path, out, &ignored);
}

static void set_str_or_null(json_t *o, const char *k, const char *v)
{
    json_object_set_new(o, k, v ? json_string(v) : json_null());
}

static json_t *host_info(void)
{
    json_t *h = json_object();
    pr_buf text = PR_BUF_INIT;
    char *model = NULL, *os = NULL;
    if (slurp("/proc/cpuinfo", &text) == 0)
        model = envinfo_cpu_model(pr_buf_cstr(&text));
    set_str_or_null(h, "cpu_model", model);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    json_object_set_new(h, "cpu_count", ncpu > 0 ? json_integer(ncpu) : json_null());
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psize > 0) {
        /* One decimal: enough to tell machines apart, stable across boots. */
        double gb = (double)pages * (double)psize / (1024.0 * 1024.0 * 1024.0);
        json_object_set_new(h, "memory_gb", json_real(round(gb * 10) / 10));
    } else {
        json_object_set_new(h, "memory_gb", json_null());
    }
    struct utsname u;
    int have_uname = uname(&u) == 0;
    set_str_or_null(h, "arch", have_uname ? u.machine : NULL);
    pr_buf_clear(&text);
    if (slurp("/etc/os-release", &text) == 0 ||
        (pr_buf_clear(&text), slurp("/usr/lib/os-release", &text) == 0))
        os = envinfo_os_pretty_name(pr_buf_cstr(&text));
    set_str_or_null(h, "os", os);
    set_str_or_null(h, "kernel", have_uname ? u.release : NULL);
#if defined(__clang__)
    set_str_or_null(h, "compiler", __VERSION__);
#elif defined(__GNUC__)
    set_str_or_null(h, "compiler", "gcc " __VERSION__);
#else
    set_str_or_null(h, "compiler", NULL);
#endif
    free(model);
    free(os);
    pr_buf_free(&text);
    return h;
}

json_t *envinfo_capture(const char *framework, const char *framework_version, time_t now)
{
    char when[32];
    envinfo_fmt_utc(now, when);
    json_t *o = json_object();
    json_object_set_new(o, "perfrepro", json_integer(1));
    json_object_set_new(o, "captured_at", json_string(when));
    json_object_set_new(o, "host", host_info());
    json_t *fw = json_object();
    set_str_or_null(fw, "name", framework);
    set_str_or_null(fw, "version", framework_version);
    json_object_set_new(o, "framework", fw);
    json_object_set_new(o, "gpu", json_null());
    return o;
}

int envinfo_write(const char *path, const json_t *env, pr_err *err)
{
    char *s = json_dumps(env, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, s);
    pr_buf_putc(&b, '\n');
    free(s);
    int rc = pr_fileio_write_atomic(path, b.data, b.len, err);
    pr_buf_free(&b);
    return rc;
}
