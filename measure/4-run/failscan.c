/* failscan: what a failed job's log says about its failure (out-of-memory
 * messages, "PERFREPRO_FAILURE: reason: detail" statements), and log text
 * made safe for records (runner.h, runner_int.h). */
#include "runner_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "1-facts/logscan.h"
#include "fileio.h"
#include "gpu/gpuhost.h"

/* ======================================================================
 * Log text for records
 * ====================================================================== */

/* Appends text[0..len) to out as valid UTF-8 without control characters:
 * ANSI escape sequences are dropped, other control bytes and invalid UTF-8
 * become '?'.  Log excerpts go into JSON strings, which must be UTF-8. */
void runner_clean_text(pr_buf *out, const char *text, size_t len)
{
    const unsigned char *p = (const unsigned char *)text, *end = p + len;
    while (p < end) {
        unsigned char c = *p;
        if (c == 0x1b) {
            /* ESC [ params letter (CSI), or ESC + one byte. */
            p++;
            if (p < end && *p == '[') {
                p++;
                while (p < end && !(*p >= 0x40 && *p <= 0x7e))
                    p++;
            }
            if (p < end)
                p++;
            continue;
        }
        if (c == '\t') {
            pr_buf_putc(out, ' ');
            p++;
            continue;
        }
        if (c < 0x20 || c == 0x7f) {
            pr_buf_putc(out, '?');
            p++;
            continue;
        }
        if (c < 0x80) {
            pr_buf_putc(out, (char)c);
            p++;
            continue;
        }
        /* A UTF-8 sequence: its length from the lead byte, then continuation
         * bytes; overlong forms and surrogates are rejected. */
        size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
        int ok = n > 0 && c < 0xf5 && (size_t)(end - p) >= n;
        for (size_t i = 1; ok && i < n; i++)
            ok = (p[i] & 0xc0) == 0x80;
        if (ok && n == 3)
            ok = !(c == 0xe0 && p[1] < 0xa0) && !(c == 0xed && p[1] >= 0xa0);
        if (ok && n == 4)
            ok = !(c == 0xf0 && p[1] < 0x90) && !(c == 0xf4 && p[1] >= 0x90);
        if (!ok) {
            pr_buf_putc(out, '?');
            p++;
            continue;
        }
        pr_buf_put(out, p, n);
        p += n;
    }
}

/* A JSON string of s made safe (see put_clean_text); a new reference. */
json_t *runner_clean_json(const char *s)
{
    pr_buf b = PR_BUF_INIT;
    runner_clean_text(&b, s, strlen(s));
    json_t *j = json_string(pr_buf_cstr(&b));
    pr_buf_free(&b);
    return j;
}

/* ======================================================================
 * Out-of-memory messages
 * ====================================================================== */

/* What frameworks and runtimes print when memory runs out.  ci: matched
 * case-insensitively (the pattern is written lowercase); word: must not
 * touch a letter, digit or '_' on either side ("OOM" but not "ZOOM"). */
static const struct {
    const char *s;
    int ci, word;
} oom_pats[] = {
    {"out of memory", 1, 0}, /* CUDA out of memory; CUDA error: out of memory;
                                           Paddle "Out of memory error"; kernel OOM killer */
    {"out_of_memory", 1, 0}, /* CUDA_ERROR_OUT_OF_MEMORY, cuBLAS/cuDNN statuses */
    {"cudaerrormemoryallocation", 1, 0},
    {"resourceexhaustederror", 1, 0}, /* TensorFlow */
    {"resource_exhausted", 1, 0},     /* XLA / JAX status */
    {"std::bad_alloc", 0, 0},         /* C++ allocation failure */
    {"MemoryError", 0, 0},            /* Python */
    {"cannot allocate memory", 1, 0}, /* ENOMEM: fork, mmap */
    {"oom-kill", 1, 0},               /* cgroup / kernel */
    {"oom_kill", 1, 0},
    {"OOM", 0, 1}, /* TF "OOM when allocating tensor" */
};

static int word_char(unsigned char c)
{
    return isalnum(c) || c == '_';
}

/* s[0..len) and its lowercase copy low. */
static int oom_match(const char *s, const char *low, size_t len)
{
    for (size_t k = 0; k < sizeof oom_pats / sizeof *oom_pats; k++) {
        const char *hay = oom_pats[k].ci ? low : s;
        size_t pl = strlen(oom_pats[k].s);
        const char *p = hay, *m;
        while ((m = memmem(p, len - (size_t)(p - hay), oom_pats[k].s, pl)) != NULL) {
            size_t off = (size_t)(m - hay);
            if (!oom_pats[k].word ||
                ((off == 0 || !word_char((unsigned char)hay[off - 1])) &&
                 (off + pl == len || !word_char((unsigned char)hay[off + pl]))))
                return 1;
            p = m + 1;
        }
    }
    return 0;
}

int runner_oom_match(const char *line, size_t len)
{
    char *low = pr_xmalloc(len + 1);
    for (size_t i = 0; i < len; i++)
        low[i] = (char)tolower((unsigned char)line[i]);
    int r = oom_match(line, low, len);
    free(low);
    return r;
}

static int verdict_line(const pr_logline *l, void *ctx, pr_err *err)
{
    (void)err;
    runner_verdict *v = ctx;
    char reason[32];
    const char *detail;
    if (gpuhost_failure_parse(l->text, reason, sizeof reason, &detail) &&
        pr_record_str_in(reason, pr_fail_reasons)) {
        memcpy(v->reason, reason, sizeof reason);
        pr_buf_clear(&v->detail);
        size_t n = strlen(detail);
        runner_clean_text(&v->detail, detail, n < 300 ? n : 300);
        v->stated = 1;
    }
    for (size_t i = 0; i < l->len; i++)
        v->low[i] = (char)tolower((unsigned char)l->text[i]);
    if (oom_match(l->text, v->low, l->len)) {
        pr_buf_clear(&v->oom);
        runner_clean_text(&v->oom, l->text, l->len < 200 ? l->len : 200);
        v->has_oom = 1;
    }
    return 0;
}

/* Reads the log at path once into v (which the caller frees with
 * runner_verdict_free, also after -1). */
static int read_verdict(const char *path, runner_verdict *v, pr_err *err)
{
    memset(v, 0, sizeof *v);
    v->low = pr_xmalloc(PR_LOGSCAN_BUF + 1);
    pr_logscan_stats st;
    memset(&st, 0, sizeof st);
    return logscan_path(path, verdict_line, v, &st, err);
}

void runner_verdict_free(runner_verdict *v)
{
    free(v->low);
    pr_buf_free(&v->oom);
    pr_buf_free(&v->detail);
}

/* Reads every log of a job in turn (the case's log, then each task's) into
 * one verdict: the last statement or out-of-memory line over them wins. */
int runner_read_verdicts(const char *out_dir, const char *log_path, const pr_launch_result *lr,
                         runner_verdict *v, pr_err *err)
{
    if (read_verdict(log_path, v, err) < 0)
        return -1;
    pr_logscan_stats st;
    memset(&st, 0, sizeof st);
    for (char **l = lr->logs; l && *l; l++) {
        char *path = pr_fileio_path_join(out_dir, *l);
        if (strcmp(path, log_path) != 0 && pr_fileio_is_file(path))
            logscan_path(path, verdict_line, v, &st, err);
        free(path);
    }
    return 0;
}

int runner_log_find_oom(const char *path, pr_buf *line, pr_err *err)
{
    runner_verdict v;
    int rc = read_verdict(path, &v, err);
    if (rc == 0 && v.has_oom) {
        pr_buf_clear(line);
        pr_buf_put(line, v.oom.data, v.oom.len);
    }
    runner_verdict_free(&v);
    return rc < 0 ? -1 : v.has_oom;
}
