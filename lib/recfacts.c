#include "recfacts.h"

#include <stdint.h>
#include <string.h>

const char *const pr_recfacts_formats[] = {"dllogger",      "argparse", "mmcv",      "paddle",
                                           "paddle-launch", "ppcls",    "paddleseg", "pprint",
                                           "tf-flags",      NULL};

/* The keys besides "arg.<name>", in the order the docs list them. */
static const char *const fact_keys[] = {
    "args.format",     "command",           "container.release", "container.build",
    "framework.name",  "framework.version", "gpu.name",          "gpu.driver",
    "gpu.driver_cuda", "cuda.version",      "cudnn.version",     "nccl.version",
    "time.first",      "time.last",         "facts.truncated",   NULL};

static const char *const item_keys[] = {"key", "value", "line", "file", "cut", NULL};

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_alnum_(int c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

int pr_recfacts_name_char(int c)
{
    return is_alnum_(c) || c == '.' || c == '+' || c == '-';
}

/* One dotted-quad part at s[i..n): 1 to 3 digits, at most 255.  Returns the
 * digits' count, or 0. */
static size_t quad_part(const char *s, size_t i, size_t n)
{
    size_t k = 0;
    unsigned v = 0;
    while (i + k < n && k < 4 && is_digit((unsigned char)s[i + k]))
        v = v * 10 + (unsigned)(s[i + k++] - '0');
    return k >= 1 && k <= 3 && v <= 255 ? k : 0;
}

long pr_recfacts_find_ipv4(const char *s, size_t n, size_t *len)
{
    for (size_t i = 0; i < n; i++) {
        if (!is_digit((unsigned char)s[i]) ||
            (i > 0 && (is_alnum_((unsigned char)s[i - 1]) || s[i - 1] == '.')))
            continue;
        size_t j = i;
        int parts = 0;
        for (;;) {
            size_t k = quad_part(s, j, n);
            if (!k)
                break;
            j += k;
            if (++parts == 4 || j >= n || s[j] != '.')
                break;
            j++;
        }
        if (parts != 4)
            continue;
        /* standing alone: no more digits, letters or dotted parts */
        if (j < n && (is_alnum_((unsigned char)s[j]) ||
                      (s[j] == '.' && j + 1 < n && is_alnum_((unsigned char)s[j + 1]))))
            continue;
        if (j + 1 < n && s[j] == ':' && is_digit((unsigned char)s[j + 1])) {
            j++;
            while (j < n && is_digit((unsigned char)s[j]))
                j++;
        }
        *len = j - i;
        return (long)i;
    }
    return -1;
}

/* n digits at s; returns s past them, or NULL. */
static const char *digits(const char *s, int n)
{
    for (int i = 0; i < n; i++)
        if (!is_digit((unsigned char)s[i]))
            return NULL;
    return s + n;
}

int pr_recfacts_is_time(const char *s)
{
    /* YYYY-MM-DDThh:mm:ss */
    static const char shape[] = "0000-00-00T00:00:00";
    for (size_t i = 0; shape[i]; i++)
        if (shape[i] == '0' ? !is_digit((unsigned char)s[i]) : s[i] != shape[i])
            return 0;
    s += sizeof shape - 1;
    if (*s == '.') {
        int k = 0;
        while (is_digit((unsigned char)s[1 + k]))
            k++;
        if (k < 1 || k > 9)
            return 0;
        s += 1 + k;
    }
    if (*s == 'Z')
        return s[1] == '\0';
    if (*s == '+' || *s == '-') {
        const char *p = digits(s + 1, 2);
        if (!p)
            return 0;
        if (*p == ':')
            p++;
        p = digits(p, 2);
        return p && *p == '\0';
    }
    return *s == '\0';
}

/* "arg.<name>" or one of fact_keys. */
static int key_known(const char *k)
{
    size_t n = strlen(k);
    if (n > PR_RECFACTS_KEY_MAX)
        return 0;
    if (strncmp(k, "arg.", 4) == 0 && n > 4) {
        for (size_t i = 4; i < n; i++)
            if (!pr_recfacts_name_char((unsigned char)k[i]))
                return 0;
        return 1;
    }
    for (const char *const *f = fact_keys; *f; f++)
        if (strcmp(*f, k) == 0)
            return 1;
    return 0;
}

/* Checks an item's value against its key (*truncated: a facts.truncated
 * item was seen before); -1 with err set. */
static int value_check(const pr_jdoc_jcur *it, const char *key, int *truncated, pr_err *err)
{
    pr_jdoc_jcur vc = pr_jdoc_jchild(it, "value");
    const char *v = json_string_value(vc.v);
    size_t n = json_string_length(vc.v);
    int max = strcmp(key, "command") == 0 ? PR_RECFACTS_COMMAND_MAX : PR_RECFACTS_VALUE_MAX;
    if (n > (size_t)max)
        return pr_jdoc_jfail(&vc, err,
                             "%zu bytes: at most %d (a longer value is cut and marked "
                             "\"cut\": true)",
                             n, max);
    for (size_t j = 0; j < n; j++)
        if ((unsigned char)v[j] < 0x20 || v[j] == 0x7f)
            return pr_jdoc_jfail(&vc, err, "a control character at byte %zu", j);
    if (strcmp(key, "args.format") == 0) {
        for (const char *const *f = pr_recfacts_formats; *f; f++)
            if (strcmp(*f, v) == 0)
                return 0;
        return pr_jdoc_jfail(&vc, err,
                             "unknown argument dump format \"%s\" (expected one of: "
                             "dllogger, argparse, mmcv, paddle, paddle-launch, ppcls, "
                             "paddleseg, pprint, tf-flags)",
                             v);
    }
    if (strncmp(key, "time.", 5) == 0 && !pr_recfacts_is_time(v))
        return pr_jdoc_jfail(&vc, err,
                             "\"%s\" is not a date and time as YYYY-MM-DDThh:mm:ss[.f]"
                             "[zone]",
                             v);
    if (strcmp(key, "facts.truncated") == 0) {
        if (*truncated)
            return pr_jdoc_jfail(it, err, "a second \"facts.truncated\"");
        *truncated = 1;
        if (!n || n > 18 || strspn(v, "0123456789") != n || v[0] == '0')
            return pr_jdoc_jfail(&vc, err, "expected the number of facts left out (digits)");
    }
    size_t alen;
    if ((strncmp(key, "arg.", 4) == 0 || strcmp(key, "command") == 0) &&
        pr_recfacts_find_ipv4(v, n, &alen) >= 0)
        return pr_jdoc_jfail(&vc, err,
                             "holds a machine address: records carry none (measure writes "
                             "\"%s\" in its place)",
                             PR_RECFACTS_ADDRESS);
    return 0;
}

int pr_recfacts_check(const pr_jdoc_jcur *c, pr_err *err)
{
    if (!json_is_array(c->v))
        return pr_jdoc_jfail(c, err, "expected an array of {\"key\", \"value\", \"line\"} objects");
    size_t count = json_array_size(c->v);
    if (count > PR_RECFACTS_MAX)
        return pr_jdoc_jfail(c, err, "%zu items: at most %d", count, PR_RECFACTS_MAX);
    long long prev_file = 0, prev_line = 0;
    int truncated = 0;
    for (size_t i = 0; i < count; i++) {
        pr_jdoc_jcur it = pr_jdoc_jitem(c, i);
        const char *key, *value;
        long long line, file = 0;
        int cut = 0, rc;
        if (pr_jdoc_jobject(&it, item_keys, err) < 0 ||
            pr_jdoc_jstr(&it, "key", 1, &key, err) < 0 ||
            pr_jdoc_jstr(&it, "value", 1, &value, err) < 0 ||
            pr_jdoc_jint(&it, "line", 1, 1, INT64_C(1) << 53, &line, err) < 0 ||
            pr_jdoc_jint(&it, "file", 0, 1, 65535, &file, err) < 0 ||
            (rc = pr_jdoc_jbool(&it, "cut", 0, &cut, err)) < 0)
            return -1;
        if (rc == 1 && !cut) {
            pr_jdoc_jcur cc = pr_jdoc_jchild(&it, "cut");
            return pr_jdoc_jfail(&cc, err, "only true (a value that was not cut has no \"cut\")");
        }
        if (!key_known(key)) {
            pr_jdoc_jcur kc = pr_jdoc_jchild(&it, "key");
            return pr_jdoc_jfail(&kc, err,
                                 "unknown key \"%s\" (expected arg.<name>, the name of "
                                 "[A-Za-z0-9_.+-] and at most %d bytes with \"arg.\", or "
                                 "one of: args.format, command, container.release, "
                                 "container.build, framework.name, framework.version, "
                                 "gpu.name, gpu.driver, gpu.driver_cuda, cuda.version, "
                                 "cudnn.version, nccl.version, time.first, time.last, "
                                 "facts.truncated)",
                                 key, PR_RECFACTS_KEY_MAX);
        }
        if (file < prev_file || (file == prev_file && line < prev_line)) {
            pr_jdoc_jcur lc = pr_jdoc_jchild(&it, file == prev_file ? "line" : "file");
            return pr_jdoc_jfail(&lc, err,
                                 "not in log order: file %lld line %lld after file %lld "
                                 "line %lld",
                                 file, line, prev_file, prev_line);
        }
        prev_file = file;
        prev_line = line;
        if (value_check(&it, key, &truncated, err) < 0)
            return -1;
    }
    return 0;
}

const char *pr_recfacts_value(const json_t *facts, const char *key, int *line)
{
    size_t i;
    json_t *it;
    json_array_foreach(facts, i, it)
    {
        const char *k = json_string_value(json_object_get(it, "key"));
        if (k && strcmp(k, key) == 0) {
            if (line)
                *line = (int)json_integer_value(json_object_get(it, "line"));
            return json_string_value(json_object_get(it, "value"));
        }
    }
    return NULL;
}
