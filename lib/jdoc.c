#include "jdoc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

struct pr_jdoc {
    char *name;
    char *text;
    size_t len;
    json_t *root;
};

static void *json_xmalloc(size_t n)
{
    return pr_xmalloc(n);
}

void pr_jdoc_json_init(void)
{
    static int done;
    if (!done) {
        json_set_alloc_funcs(json_xmalloc, free);
        done = 1;
    }
}

/* pr_jdoc_parse on text the document then owns (a malloc'd string of
 * len bytes and a NUL), freed here on error. */
static int parse_owned(const char *name, char *text, size_t len, pr_jdoc **out, pr_err *err)
{
    pr_jdoc_json_init();
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    int rc = 0;
    if (!root)
        rc = pr_err_set(err, name, je.line, je.column, NULL, "invalid JSON: %s", je.text);
    else if (!json_is_object(root) && !json_is_array(root))
        rc = pr_err_set(err, name, 1, 1, NULL, "expected a JSON object or array at the top");
    if (rc < 0) {
        json_decref(root);
        free(text);
        return rc;
    }
    pr_jdoc *d = pr_xcalloc(1, sizeof *d);
    d->name = pr_xstrdup(name);
    d->text = text;
    d->len = len;
    d->root = root;
    *out = d;
    return 0;
}

int pr_jdoc_parse(const char *name, const char *text, size_t len, pr_jdoc **out, pr_err *err)
{
    return parse_owned(name, pr_xstrndup(text, len), len, out, err);
}

int pr_jdoc_load(const char *path, pr_jdoc **out, pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    if (pr_fileio_read_file(path, &b, err) < 0) {
        pr_buf_free(&b);
        return -1;
    }
    size_t len = b.len;
    /* The text read is the document's: no second copy. */
    return parse_owned(path, pr_buf_detach(&b), len, out, err);
}

void pr_jdoc_free(pr_jdoc *d)
{
    if (!d)
        return;
    json_decref(d->root);
    free(d->name);
    free(d->text);
    free(d);
}

const char *pr_jdoc_name(const pr_jdoc *d)
{
    return d->name;
}

const char *pr_jdoc_json_str(const json_t *o, const char *key)
{
    json_t *v = o ? json_object_get(o, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

int pr_jdoc_json_has_zero_real(const json_t *v)
{
    const char *key;
    size_t i;
    json_t *x;
    if (json_is_real(v))
        return json_real_value(v) == 0;
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, key, x) if (pr_jdoc_json_has_zero_real(x)) return 1;
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, x) if (pr_jdoc_json_has_zero_real(x)) return 1;
    }
    return 0;
}

pr_jdoc_jcur pr_jdoc_root(const pr_jdoc *d)
{
    pr_jdoc_jcur c = {d, NULL, NULL, 0, d->root};
    return c;
}

pr_jdoc_jcur pr_jdoc_jchild(const pr_jdoc_jcur *c, const char *key)
{
    pr_jdoc_jcur k = {c->doc, c, key, 0, json_is_object(c->v) ? json_object_get(c->v, key) : NULL};
    return k;
}

pr_jdoc_jcur pr_jdoc_jitem(const pr_jdoc_jcur *c, size_t i)
{
    pr_jdoc_jcur k = {c->doc, c, NULL, i, json_is_array(c->v) ? json_array_get(c->v, i) : NULL};
    return k;
}

void pr_jdoc_jpath(const pr_jdoc_jcur *c, pr_buf *out)
{
    if (!c->parent)
        return;
    pr_jdoc_jpath(c->parent, out);
    if (c->key) {
        if (out->len)
            pr_buf_putc(out, '.');
        pr_buf_puts(out, c->key);
    } else {
        pr_buf_printf(out, "[%zu]", c->index);
    }
}

/* ---- locating a path in the text ---- */

typedef struct scan {
    const char *p, *end;
} scan;

static void skip_ws(scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

/* Skips a string starting at '"'; returns 0 or -1. */
static int skip_string(scan *s)
{
    if (s->p >= s->end || *s->p != '"')
        return -1;
    for (s->p++; s->p < s->end; s->p++) {
        if (*s->p == '\\')
            s->p++;
        else if (*s->p == '"') {
            s->p++;
            return 0;
        }
    }
    return -1;
}

static int skip_value(scan *s, int depth)
{
    skip_ws(s);
    if (s->p >= s->end || depth > 4096)
        return -1;
    char c = *s->p;
    if (c == '"')
        return skip_string(s);
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        s->p++;
        skip_ws(s);
        if (s->p < s->end && *s->p == close) {
            s->p++;
            return 0;
        }
        for (;;) {
            if (c == '{') {
                skip_ws(s);
                if (skip_string(s) < 0)
                    return -1;
                skip_ws(s);
                if (s->p >= s->end || *s->p != ':')
                    return -1;
                s->p++;
            }
            if (skip_value(s, depth + 1) < 0)
                return -1;
            skip_ws(s);
            if (s->p >= s->end)
                return -1;
            if (*s->p == ',') {
                s->p++;
                continue;
            }
            if (*s->p == close) {
                s->p++;
                return 0;
            }
            return -1;
        }
    }
    while (s->p < s->end && !strchr(",]} \t\r\n", *s->p))
        s->p++;
    return 0;
}

/* Decodes the JSON string at s->p (simple escapes; \u kept verbatim) and
 * compares it with key. */
static int string_equals(const char *p, const char *end, const char *key)
{
    p++;
    while (p < end && *p != '"') {
        char c = *p;
        if (c == '\\' && p + 1 < end) {
            p++;
            switch (*p) {
            case 'n':
                c = '\n';
                break;
            case 't':
                c = '\t';
                break;
            case 'r':
                c = '\r';
                break;
            case 'b':
                c = '\b';
                break;
            case 'f':
                c = '\f';
                break;
            case 'u':
                return 0; /* rare in keys: treat as no match */
            default:
                c = *p;
            }
        }
        if (*key != c)
            return 0;
        key++;
        p++;
    }
    return *key == '\0';
}

/* Moves s to the start of c's value; returns 0 or -1. */
static int locate(const pr_jdoc_jcur *c, scan *s)
{
    if (!c->parent) {
        skip_ws(s);
        return 0;
    }
    if (locate(c->parent, s) < 0)
        return -1;
    skip_ws(s);
    if (s->p >= s->end)
        return -1;
    if (c->key) {
        if (*s->p != '{')
            return -1;
        s->p++;
        for (;;) {
            skip_ws(s);
            if (s->p >= s->end || *s->p == '}')
                return -1;
            const char *kstart = s->p;
            if (skip_string(s) < 0)
                return -1;
            int match = string_equals(kstart, s->p, c->key);
            skip_ws(s);
            if (s->p >= s->end || *s->p != ':')
                return -1;
            s->p++;
            skip_ws(s);
            if (match)
                return 0;
            if (skip_value(s, 0) < 0)
                return -1;
            skip_ws(s);
            if (s->p < s->end && *s->p == ',')
                s->p++;
        }
    }
    if (*s->p != '[')
        return -1;
    s->p++;
    for (size_t i = 0;; i++) {
        skip_ws(s);
        if (s->p >= s->end || *s->p == ']')
            return -1;
        if (i == c->index)
            return 0;
        if (skip_value(s, 0) < 0)
            return -1;
        skip_ws(s);
        if (s->p < s->end && *s->p == ',')
            s->p++;
    }
}

static void offset_to_pos(const char *text, const char *at, int *line, int *col)
{
    int l = 1, k = 1;
    for (const char *p = text; p < at; p++) {
        if (*p == '\n') {
            l++;
            k = 1;
        } else if (((unsigned char)*p & 0xC0) != 0x80) {
            k++;
        }
    }
    *line = l;
    *col = k;
}

void pr_jdoc_jpos(const pr_jdoc_jcur *c, int *line, int *col)
{
    *line = *col = 0;
    /* An absent value: point at its parent (the object that lacks it). */
    while (c->parent && !c->v)
        c = c->parent;
    scan s = {c->doc->text, c->doc->text + c->doc->len};
    if (locate(c, &s) == 0)
        offset_to_pos(c->doc->text, s.p, line, col);
}

int pr_jdoc_jfail(const pr_jdoc_jcur *c, pr_err *err, const char *fmt, ...)
{
    int line, col;
    pr_jdoc_jpos(c, &line, &col);
    pr_buf path = PR_BUF_INIT, msg = PR_BUF_INIT;
    pr_jdoc_jpath(c, &path);
    va_list ap;
    va_start(ap, fmt);
    pr_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    pr_err_set(err, c->doc->name, line, col, path.len ? pr_buf_cstr(&path) : NULL, "%s",
               pr_buf_cstr(&msg));
    pr_buf_free(&path);
    pr_buf_free(&msg);
    return -1;
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    size_t row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t prev = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cur = row[j];
            size_t sub = prev + (a[i - 1] != b[j - 1]);
            size_t del = row[j] + 1, ins = row[j - 1] + 1;
            row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            prev = cur;
        }
    }
    return row[lb];
}

int pr_jdoc_jobject(const pr_jdoc_jcur *c, const char *const *allowed, pr_err *err)
{
    if (!json_is_object(c->v))
        return pr_jdoc_jfail(c, err, "expected an object");
    const char *key;
    json_t *val;
    json_object_foreach(c->v, key, val)
    {
        int ok = 0;
        /* The first byte first: a record's 30 keys against a list of 40
         * were most of loading's strcmp calls. */
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = (*a)[0] == key[0] && strcmp(*a, key) == 0;
        if (!ok) {
            /* Only a key that is wrong pays for the suggestion. */
            const char *best = NULL;
            size_t best_d = 3;
            for (const char *const *a = allowed; *a; a++) {
                size_t d = edit_distance(*a, key);
                if (d < best_d) {
                    best_d = d;
                    best = *a;
                }
            }
            pr_jdoc_jcur k = pr_jdoc_jchild(c, key);
            if (best)
                return pr_jdoc_jfail(&k, err, "unknown key \"%s\" (did you mean \"%s\"?)", key,
                                     best);
            return pr_jdoc_jfail(&k, err, "unknown key \"%s\"", key);
        }
    }
    return 0;
}

/* Shared prologue of the typed getters. */
static int field(const pr_jdoc_jcur *obj, const char *key, int required, pr_jdoc_jcur *out,
                 pr_err *err)
{
    *out = pr_jdoc_jchild(obj, key);
    if (!out->v) {
        if (required)
            return pr_jdoc_jfail(out, err, "missing required key \"%s\"", key);
        return 0;
    }
    return 1;
}

int pr_jdoc_jstr(const pr_jdoc_jcur *obj, const char *key, int required, const char **out,
                 pr_err *err)
{
    pr_jdoc_jcur c;
    int rc = field(obj, key, required, &c, err);
    if (rc <= 0)
        return rc;
    if (!json_is_string(c.v))
        return pr_jdoc_jfail(&c, err, "expected a string");
    *out = json_string_value(c.v);
    return 1;
}

int pr_jdoc_jint(const pr_jdoc_jcur *obj, const char *key, int required, long long min,
                 long long max, long long *out, pr_err *err)
{
    pr_jdoc_jcur c;
    int rc = field(obj, key, required, &c, err);
    if (rc <= 0)
        return rc;
    if (!json_is_integer(c.v))
        return pr_jdoc_jfail(&c, err, "expected an integer");
    long long v = json_integer_value(c.v);
    if (v < min || v > max)
        return pr_jdoc_jfail(&c, err, "%lld is out of range [%lld, %lld]", v, min, max);
    *out = v;
    return 1;
}

int pr_jdoc_jnum(const pr_jdoc_jcur *obj, const char *key, int required, double min, double *out,
                 pr_err *err)
{
    pr_jdoc_jcur c;
    int rc = field(obj, key, required, &c, err);
    if (rc <= 0)
        return rc;
    if (!json_is_number(c.v))
        return pr_jdoc_jfail(&c, err, "expected a number");
    double v = json_number_value(c.v);
    if (!isfinite(v))
        return pr_jdoc_jfail(&c, err, "expected a finite number");
    if (v < min)
        return pr_jdoc_jfail(&c, err, "%g is below the minimum %g", v, min);
    *out = v;
    return 1;
}

int pr_jdoc_jbool(const pr_jdoc_jcur *obj, const char *key, int required, int *out, pr_err *err)
{
    pr_jdoc_jcur c;
    int rc = field(obj, key, required, &c, err);
    if (rc <= 0)
        return rc;
    if (!json_is_boolean(c.v))
        return pr_jdoc_jfail(&c, err, "expected true or false");
    *out = json_is_true(c.v);
    return 1;
}

int pr_jdoc_jarr(const pr_jdoc_jcur *obj, const char *key, int required, size_t min_len,
                 pr_jdoc_jcur *out, pr_err *err)
{
    int rc = field(obj, key, required, out, err);
    if (rc <= 0)
        return rc;
    if (!json_is_array(out->v))
        return pr_jdoc_jfail(out, err, "expected an array");
    if (json_array_size(out->v) < min_len)
        return pr_jdoc_jfail(out, err, "expected at least %zu element%s", min_len,
                             min_len == 1 ? "" : "s");
    return 1;
}

int pr_jdoc_jobj(const pr_jdoc_jcur *obj, const char *key, int required, pr_jdoc_jcur *out,
                 pr_err *err)
{
    int rc = field(obj, key, required, out, err);
    if (rc <= 0)
        return rc;
    if (!json_is_object(out->v))
        return pr_jdoc_jfail(out, err, "expected an object");
    return 1;
}

int pr_jdoc_jenum(const pr_jdoc_jcur *obj, const char *key, int required,
                  const char *const *choices, const char **out, pr_err *err)
{
    const char *s = NULL;
    int rc = pr_jdoc_jstr(obj, key, required, &s, err);
    if (rc <= 0)
        return rc;
    for (const char *const *c = choices; *c; c++)
        if (strcmp(*c, s) == 0) {
            *out = *c;
            return 1;
        }
    pr_buf list = PR_BUF_INIT;
    for (const char *const *c = choices; *c; c++)
        pr_buf_printf(&list, "%s%s", c == choices ? "" : ", ", *c);
    pr_jdoc_jcur c = pr_jdoc_jchild(obj, key);
    pr_jdoc_jfail(&c, err, "unknown value \"%s\" (expected one of: %s)", s, pr_buf_cstr(&list));
    pr_buf_free(&list);
    return -1;
}
