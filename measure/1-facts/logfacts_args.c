/* logfacts_args: the argument dumps a log prints, as arg.<name> items after
 * an args.format item (docs/parse-rules.md, "What a log states about its
 * run").  The first dump of each format counts; a later one (another
 * rank's, a script printing its arguments again) is left out.  DLLogger
 * PARAMETER lines are no dump printed at once but metadata logged as it
 * comes: each key counts at its first line.
 *
 *   dllogger       DLL <date> - PARAMETER key : value  key : value ...
 *                  DLLL {"step": "PARAMETER", "data": {...}}
 *   argparse       Namespace(a=1, b='x', c=[1, 2]) anywhere in a line
 *   mmcv           "... - Config:" then the Python config: top-level
 *                  "name = value" lines and "name=value" inside dict(...)s,
 *                  dotted (arg.data.samples_per_gpu); list contents left out
 *   paddle         "----  Configuration Arguments  ----" then "name: value"
 *   paddle-launch  "LAUNCH INFO <date> ----  Configuration  ----" then
 *                  "LAUNCH INFO <date> name: value"
 *   ppcls          "[<date>] ppcls INFO: Global : " ..., sections by indent
 *   paddleseg      "----Config Information----" then YAML, lists left out
 *   pprint         {'name': value,\n 'name': value,\n ...} (one per line)
 *   tf-flags       "INFO:tensorflow:***** Configuaration *****" then
 *                  "INFO:tensorflow:  name: value"
 * Multi-line dumps end where their shape ends; at most one is read at a
 * time, and none runs past LF_DUMP_LINES lines or LF_DEPTH levels. */
#include "logfacts_int.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "recfacts.h"

static int is_blank(int c)
{
    return c == ' ' || c == '\t';
}
static int is_ident(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int starts(const char *s, size_t n, const char *p)
{
    size_t k = strlen(p);
    return n >= k && memcmp(s, p, k) == 0;
}

static size_t rtrim(const char *s, size_t n)
{
    while (n && is_blank((unsigned char)s[n - 1]))
        n--;
    return n;
}

/* The end of a Python identifier starting at s[i] (i when there is none). */
static size_t ident(const char *s, size_t n, size_t i)
{
    size_t j = i;
    if (j < n && !(s[j] >= '0' && s[j] <= '9'))
        while (j < n && is_ident((unsigned char)s[j]))
            j++;
    return j;
}

size_t logfacts_py_value(const char *s, size_t n, size_t i, int *open)
{
    int depth = 0;
    char q = 0;
    for (; i < n; i++) {
        char c = s[i];
        if (q) {
            if (c == '\\')
                i++;
            else if (c == q)
                q = 0;
            continue;
        }
        if (c == '\'' || c == '"') {
            q = c;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0)
                break;
            depth--;
        } else if (c == ',' && depth == 0) {
            break;
        }
    }
    *open = depth;
    return i < n ? i : n;
}

/* s[0..n), blanks trimmed, is dashes, blanks, title, blanks, dashes (three
 * dashes or more on each side; no blanks needed). */
static int dashed_title(const char *s, size_t n, const char *title)
{
    size_t i = 0, k = strlen(title);
    while (i < n && is_blank((unsigned char)s[i]))
        i++;
    n = rtrim(s, n);
    size_t d = i;
    while (i < n && s[i] == '-')
        i++;
    if (i - d < 3)
        return 0;
    while (i < n && is_blank((unsigned char)s[i]))
        i++;
    if (n - i < k || memcmp(s + i, title, k) != 0)
        return 0;
    i += k;
    while (i < n && is_blank((unsigned char)s[i]))
        i++;
    d = i;
    while (i < n && s[i] == '-')
        i++;
    return i == n && i - d >= 3;
}

/* s[0..n), blanks trimmed, is three dashes or more and nothing else. */
static int all_dashes(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && is_blank((unsigned char)s[i]))
        i++;
    n = rtrim(s, n);
    size_t d = i;
    while (i < n && s[i] == '-')
        i++;
    return i == n && i - d >= 3;
}

/* "name: value" / "name:" (sep ":"), or "name : value" / "name :" (sep
 * " :"), after an indent of blanks: sets the indent, name and value (value
 * trimmed on the right; empty for a section).  The name holds no blank. */
static int indent_kv(const char *s, size_t n, const char *sep, int *indent, const char **name,
                     size_t *nlen, const char **val, size_t *vlen)
{
    size_t i = 0, k = strlen(sep);
    while (i < n && s[i] == ' ')
        i++;
    n = rtrim(s, n);
    size_t b = i;
    while (i < n && !is_blank((unsigned char)s[i]) && s[i] != ':')
        i++;
    if (i == b || n - i < k || memcmp(s + i, sep, k) != 0)
        return 0;
    size_t e = i;
    i += k;
    if (i < n && !is_blank((unsigned char)s[i]))
        return 0; /* "a:b" is no key and value */
    while (i < n && is_blank((unsigned char)s[i]))
        i++;
    *indent = (int)b;
    *name = s + b;
    *nlen = e - b;
    *val = s + i;
    *vlen = n - i;
    return 1;
}

/* ---- the dump being read ---- */

void logfacts_dump_free(logfacts_dump *d)
{
    pr_buf_free(&d->path);
    d->fmt = -1;
    d->lines = 0;
    d->depth = 0;
    d->unnamed = 0;
    d->list_indent = -1;
    d->skip_depth = 0;
}

static void dump_open(pr_logfacts *f, int fmt, unsigned long long line)
{
    logfacts_dump_free(&f->d);
    f->d.fmt = fmt;
    logfacts_begin_dump(f, fmt, line);
}

/* A frame or section: named (its name joins the path) or not. */
static int push(logfacts_dump *d, const char *name, size_t nlen, int named, int indent)
{
    if (d->depth >= LF_DEPTH)
        return -1;
    d->plen[d->depth] = d->path.len;
    d->named[d->depth] = named;
    d->indent[d->depth] = indent;
    if (named) {
        if (d->path.len)
            pr_buf_putc(&d->path, '.');
        pr_buf_put(&d->path, name, nlen);
    } else {
        d->unnamed++;
    }
    d->depth++;
    return 0;
}

static void pop(logfacts_dump *d)
{
    if (d->depth == 0)
        return;
    d->depth--;
    pr_buf_truncate(&d->path, d->plen[d->depth]);
    if (!d->named[d->depth])
        d->unnamed--;
}

/* An item of the open dump, under its path. */
static void dump_item(pr_logfacts *f, const char *name, size_t nlen, const char *v, size_t vlen,
                      unsigned long long line)
{
    logfacts_add_arg(f, f->d.fmt, f->d.path.data, f->d.path.len, name, nlen, v, vlen, line);
}

/* ---- single-line dumps: DLLogger, argparse ---- */

/* The DLLogger dump has key already. */
static int dll_has(const pr_logfacts *f, const char *key, size_t klen)
{
    for (size_t i = 0; i < f->n; i++) {
        const logfacts_item *it = &f->items[i];
        if (it->fmt == LF_DLLOGGER && strlen(it->key) == klen + 4 &&
            memcmp(it->key + 4, key, klen) == 0)
            return 1;
    }
    return 0;
}

static void dll_item(pr_logfacts *f, const char *key, size_t klen, const char *v, size_t vlen,
                     unsigned long long line)
{
    if (!(f->formats & (1u << LF_DLLOGGER)))
        logfacts_begin_dump(f, LF_DLLOGGER, line);
    if (!dll_has(f, key, klen))
        logfacts_add_arg(f, LF_DLLOGGER, NULL, 0, key, klen, v, vlen, line);
}

/* The start of the key whose " : " is at sep: the word before it, not
 * before lo. */
static size_t key_start(const char *s, size_t lo, size_t sep)
{
    size_t k = sep;
    while (k > lo && !is_blank((unsigned char)s[k - 1]))
        k--;
    return k;
}

/* "DLL <date> <time> - PARAMETER k : v  k : v": each value runs to the
 * word before the next " : ".  A value that is a Namespace(...) repr
 * (["Namespace(...)"], NVIDIA's BERT) is left to the argparse reader. */
static void dll_text(pr_logfacts *f, const logfacts_line_ref *ln)
{
    const char *s = ln->s;
    size_t n = rtrim(s, ln->n);
    if (n < 5)
        return;
    const char *dash = memmem(s + 4, n - 4, " - ", 3);
    if (!dash || !starts(dash + 3, n - (size_t)(dash + 3 - s), "PARAMETER "))
        return;
    size_t i = (size_t)(dash - s) + 13;
    const char *sep = memmem(s + i, n - i, " : ", 3);
    if (!sep)
        return;
    size_t ks = key_start(s, i, (size_t)(sep - s));
    while (sep) {
        size_t ke = (size_t)(sep - s), vs = ke + 3;
        const char *next = vs < n ? memmem(s + vs, n - vs, " : ", 3) : NULL;
        size_t nks = next ? key_start(s, vs, (size_t)(next - s)) : n;
        if (next && nks == vs)
            break; /* "k :  : v": no key before the next separator */
        if (ke > ks && !starts(s + vs, nks - vs, "[\"Namespace("))
            dll_item(f, s + ks, ke - ks, s + vs, nks - vs, ln->line);
        ks = nks;
        sep = next;
    }
}

/* "DLLL {..., "step": "PARAMETER", "data": {...}}": strings as they are,
 * other values as compact JSON. */
static void dll_json(pr_logfacts *f, const logfacts_line_ref *ln)
{
    json_t *o = json_loadb(ln->s + 5, ln->n - 5, 0, NULL);
    const char *step = json_string_value(json_object_get(o, "step"));
    json_t *data = json_object_get(o, "data");
    if (step && strcmp(step, "PARAMETER") == 0 && json_is_object(data)) {
        const char *k;
        json_t *v;
        json_object_foreach(data, k, v)
        {
            if (json_is_string(v)) {
                dll_item(f, k, strlen(k), json_string_value(v), json_string_length(v), ln->line);
            } else {
                char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
                if (t)
                    dll_item(f, k, strlen(k), t, strlen(t), ln->line);
                free(t);
            }
        }
    }
    json_decref(o);
}

/* "Namespace(name=value, ...)": the items are read whole before any is
 * kept, so that a Namespace( not closed on its line (a line cut short, a
 * message quoting one) is no dump. */
static void argparse_line(pr_logfacts *f, const logfacts_line_ref *ln)
{
    const char *s = ln->s, *p = s + 9, *e = s + ln->n;
    size_t n = ln->n;
    /* each '(' (memchr is cheaper than memmem on every line of the head) */
    while (p < e && (p = memchr(p, '(', (size_t)(e - p))) && memcmp(p - 9, "Namespace", 9) != 0)
        p++;
    if (!p || p >= e)
        return;
    p -= 9;
    if (p > s && is_ident((unsigned char)p[-1]))
        return;
    size_t i = (size_t)(p - s) + 10, cap = 0, count = 0;
    size_t *sp = NULL; /* per item: name start, name end, value start, value end */
    int closed = 0;
    while (!closed) {
        while (i < n && is_blank((unsigned char)s[i]))
            i++;
        if (i < n && s[i] == ')' && count == 0) {
            closed = 1;
            break;
        }
        size_t e = ident(s, n, i);
        if (e == i || e >= n || s[e] != '=')
            goto out;
        int open;
        size_t ve = logfacts_py_value(s, n, e + 1, &open);
        if (ve >= n)
            goto out; /* not closed on its line */
        if (count == cap) {
            cap = cap ? 2 * cap : 32;
            sp = pr_xrealloc(sp, cap * 4 * sizeof *sp);
        }
        sp[4 * count] = i;
        sp[4 * count + 1] = e;
        sp[4 * count + 2] = e + 1;
        sp[4 * count + 3] = ve;
        count++;
        if (s[ve] == ')')
            closed = 1;
        else if (s[ve] == ',')
            i = ve + 1;
        else
            goto out;
    }
    logfacts_begin_dump(f, LF_ARGPARSE, ln->line);
    for (size_t k = 0; k < count; k++)
        logfacts_add_arg(f, LF_ARGPARSE, NULL, 0, s + sp[4 * k], sp[4 * k + 1] - sp[4 * k],
                         s + sp[4 * k + 2], sp[4 * k + 3] - sp[4 * k + 2], ln->line);
out:
    free(sp);
}

/* ---- mmcv: the Python config after "Config:" ---- */

/* In a named dict (or at the top): "name = value" or "name=value" items;
 * in any other bracket (a list, a call), nothing is read until it closes.
 * mmcv prints the config indented 4 blanks per open bracket: a line whose
 * first item is indented otherwise (output lost or run into the line by
 * another process) ends the dump, so that no item lands in the wrong dict.
 * Returns 0 when the line ends the dump without belonging to it. */
static int mmcv_line(pr_logfacts *f, const logfacts_line_ref *ln)
{
    logfacts_dump *d = &f->d;
    const char *s = ln->s;
    size_t n = rtrim(s, ln->n), i = 0;
    int deep = 0; /* past LF_DEPTH levels: the dump ends */
    while (i < n && s[i] == ' ')
        i++;
    if (i < n && s[i] == '#')
        return 1; /* a comment */
    if (d->depth == 0 || d->named[d->depth - 1]) {
        size_t e = ident(s, n, i);
        if (e > i && i != 4 * (size_t)d->depth) {
            logfacts_dump_free(d);
            return 1;
        }
    }
    if (d->depth == 0) {
        if (n == 0) {
            logfacts_dump_free(d);
            return 1; /* the blank line after the config */
        }
        size_t e = ident(s, n, 0), j = e;
        while (j < n && is_blank((unsigned char)s[j]))
            j++;
        if (e == 0 || j >= n || s[j] != '=') {
            logfacts_dump_free(d);
            return 0;
        }
    }
    while (i < n) {
        while (i < n && is_blank((unsigned char)s[i]))
            i++;
        if (i >= n)
            break;
        char c = s[i];
        if (d->depth > 0 && !d->named[d->depth - 1]) {
            /* inside a list or call: only its brackets count */
            int open;
            size_t e = logfacts_py_value(s, n, i, &open);
            if (e >= n) {
                for (int k = 0; k < open && !deep; k++)
                    deep = push(d, NULL, 0, 0, 0) < 0;
                break;
            }
            for (int k = 0; k < open && !deep; k++)
                deep = push(d, NULL, 0, 0, 0) < 0;
            if (deep)
                goto out;
            if (s[e] == ',') {
                i = e + 1;
                continue;
            }
            pop(d); /* the closing bracket */
            i = e + 1;
            continue;
        }
        if (c == ')' || c == ']' || c == '}') {
            pop(d);
            i++;
            continue;
        }
        if (c == ',') {
            i++;
            continue;
        }
        size_t e = ident(s, n, i), j = e;
        while (j < n && is_blank((unsigned char)s[j]))
            j++;
        if (e == i || j >= n || s[j] != '=' || (j + 1 < n && s[j + 1] == '='))
            break; /* no item: the rest of the line is not read */
        j++;
        while (j < n && is_blank((unsigned char)s[j]))
            j++;
        int open;
        size_t ve = logfacts_py_value(s, n, j, &open);
        if (open == 0) {
            dump_item(f, s + i, e - i, s + j, ve - j, ln->line);
            i = ve;
            continue;
        }
        if (starts(s + j, n - j, "dict(")) {
            if ((deep = push(d, s + i, e - i, 1, 0) < 0))
                goto out;
            i = j + 5;
            continue;
        }
        for (int k = 0; k < open && !deep; k++)
            deep = push(d, NULL, 0, 0, 0) < 0;
        break;
    }
out:
    if (deep || ++d->lines > LF_DUMP_LINES)
        logfacts_dump_free(d);
    return 1;
}

/* ---- Paddle's Configuration blocks ---- */

/* The text after "LAUNCH INFO <date> <time> ", or NULL. */
static const char *launch_text(const char *s, size_t n, size_t *rn)
{
    if (!starts(s, n, "LAUNCH INFO "))
        return NULL;
    size_t i = 12;
    for (int w = 0; w < 2; w++) {
        while (i < n && !is_blank((unsigned char)s[i]))
            i++;
        if (i < n)
            i++;
    }
    *rn = n - i;
    return s + i;
}

/* "name: value" lines until a line of dashes. */
static int paddle_line(pr_logfacts *f, const logfacts_line_ref *ln)
{
    const char *s = ln->s;
    size_t n = ln->n;
    if (f->d.fmt == LF_PADDLE_LAUNCH && !(s = launch_text(ln->s, ln->n, &n))) {
        logfacts_dump_free(&f->d);
        return 0;
    }
    int indent;
    const char *name, *val;
    size_t nlen, vlen;
    if (all_dashes(s, n)) {
        logfacts_dump_free(&f->d);
        return 1;
    }
    if (!indent_kv(s, n, ":", &indent, &name, &nlen, &val, &vlen) || indent != 0) {
        logfacts_dump_free(&f->d);
        return 0;
    }
    dump_item(f, name, nlen, val, vlen, ln->line);
    if (++f->d.lines > LF_DUMP_LINES)
        logfacts_dump_free(&f->d);
    return 1;
}

/* ---- indented config prints: PaddleClas, PaddleSeg ---- */

/* One "name SEP value" line at indent k: sections nest by indent. */
static void section_kv(pr_logfacts *f, int k, const char *name, size_t nlen, const char *val,
                       size_t vlen, unsigned long long line)
{
    logfacts_dump *d = &f->d;
    while (d->depth > 0 && d->indent[d->depth - 1] >= k)
        pop(d);
    if (vlen == 0)
        (void)push(d, name, nlen, 1, k); /* too deep: its items land one level up */
    else
        dump_item(f, name, nlen, val, vlen, line);
}

/* PaddleClas: "[<date>] ppcls INFO: " then the text; 0 when it is no such
 * line. */
static size_t ppcls_prefix(const char *s, size_t n)
{
    if (!n || s[0] != '[')
        return 0;
    const char *p = memchr(s, ']', n < 40 ? n : 40);
    return p && (size_t)(s + n - p) >= 14 && memcmp(p, "] ppcls INFO: ", 14) == 0
               ? (size_t)(p - s) + 14
               : 0;
}

static int ppcls_line(pr_logfacts *f, const logfacts_line_ref *ln)
{
    size_t p = ppcls_prefix(ln->s, ln->n);
    int k;
    const char *name, *val;
    size_t nlen, vlen;
    if (!p) {
        logfacts_dump_free(&f->d);
        return 0;
    }
    if (all_dashes(ln->s + p, ln->n - p)) {
        while (f->d.depth)
            pop(&f->d);
    } else if (indent_kv(ln->s + p, ln->n - p, " :", &k, &name, &nlen, &val, &vlen)) {
        section_kv(f, k, name, nlen, val, vlen, ln->line);
    } else {
        logfacts_dump_free(&f->d);
        return 0;
    }
    if (++f->d.lines > LF_DUMP_LINES)
        logfacts_dump_free(&f->d);
    return 1;
}

/* PaddleSeg's YAML up to a line of dashes; list items ("- ...", and what
 * is indented under them) are left out. */
static int paddleseg_line(pr_logfacts *f, const logfacts_line_ref *ln)
{
    logfacts_dump *d = &f->d;
    const char *s = ln->s;
    size_t n = rtrim(s, ln->n);
    int k = 0;
    const char *name, *val;
    size_t nlen, vlen;
    if (all_dashes(s, n)) {
        logfacts_dump_free(d);
        return 1;
    }
    while ((size_t)k < n && s[k] == ' ')
        k++;
    if (d->list_indent >= 0 && k > d->list_indent) {
        /* inside a list item (a list in it included) */
    } else if ((size_t)k < n && s[k] == '-' && ((size_t)k + 1 == n || s[k + 1] == ' ')) {
        d->list_indent = k;
    } else if ((size_t)k < n) {
        d->list_indent = -1;
        if (indent_kv(s, n, ":", &k, &name, &nlen, &val, &vlen))
            section_kv(f, k, name, nlen, val, vlen, ln->line);
    }
    if (++d->lines > LF_DUMP_LINES)
        logfacts_dump_free(d);
    return 1;
}

/* ---- pprint'ed dicts: one 'name': value per line ---- */

/* The net count of brackets s[0..n) opens (outside quotes). */
static int bracket_balance(const char *s, size_t n)
{
    int b = 0;
    char q = 0;
    for (size_t i = 0; i < n; i++) {
        if (q) {
            if (s[i] == '\\')
                i++;
            else if (s[i] == q)
                q = 0;
        } else if (s[i] == '\'' || s[i] == '"') {
            q = s[i];
        } else if (strchr("([{", s[i])) {
            b++;
        } else if (strchr(")]}", s[i])) {
            b--;
        }
    }
    return b;
}

/* The entry 'name': value at s[i]; returns 1 to go on, 0 when the dict
 * ended (or the line is no entry). */
static int pprint_entry(pr_logfacts *f, const char *s, size_t n, size_t i, unsigned long long line)
{
    if (i >= n || s[i] != '\'')
        return 0;
    const char *q = memchr(s + i + 1, '\'', n - i - 1);
    if (!q || (size_t)(q - s) + 3 > n || q[1] != ':' || q[2] != ' ')
        return 0;
    size_t v = (size_t)(q - s) + 3;
    int open;
    size_t ve = logfacts_py_value(s, n, v, &open);
    if (open > 0) {
        f->d.skip_depth = open; /* a value over several lines is left out */
        return 1;
    }
    if (ve >= n)
        return 0;
    dump_item(f, s + i + 1, (size_t)(q - s) - i - 1, s + v, ve - v, line);
    return s[ve] == ',';
}

static int pprint_line(pr_logfacts *f, const logfacts_line_ref *ln)
{
    logfacts_dump *d = &f->d;
    size_t n = rtrim(ln->s, ln->n);
    int go_on;
    if (d->skip_depth > 0) {
        d->skip_depth += bracket_balance(ln->s, n);
        go_on = d->skip_depth >= 0;
        if (d->skip_depth < 0)
            d->skip_depth = 0;
    } else if (n >= 2 && ln->s[0] == ' ' && ln->s[1] == '\'') {
        go_on = pprint_entry(f, ln->s, n, 1, ln->line);
    } else {
        logfacts_dump_free(d);
        return 0;
    }
    if (!go_on || ++d->lines > LF_DUMP_LINES)
        logfacts_dump_free(d);
    return 1;
}

/* ---- TensorFlow BERT's flags ---- */

static int tf_line(pr_logfacts *f, const logfacts_line_ref *ln)
{
    static const char pre[] = "INFO:tensorflow:";
    const char *s = ln->s;
    size_t n = ln->n, k = sizeof pre - 1;
    int indent;
    const char *name, *val;
    size_t nlen, vlen;
    /* the closing line of stars (another process's "***** Running training
     * *****" may come first) */
    size_t e = rtrim(s, n);
    if (e > k + 3 && starts(s, n, "INFO:tensorflow:***") && strspn(s + k, "*") == e - k) {
        logfacts_dump_free(&f->d);
        return 1;
    }
    /* other processes' lines and glog's copies run in between */
    if (starts(s, n, "INFO:tensorflow:  ") &&
        indent_kv(s + k, n - k, ":", &indent, &name, &nlen, &val, &vlen))
        dump_item(f, name, nlen, val, vlen, ln->line);
    if (++f->d.lines > LF_DUMP_LINES)
        logfacts_dump_free(&f->d);
    return 1;
}

/* ---- starting and continuing dumps ---- */

static int seen(const pr_logfacts *f, int fmt)
{
    return (f->formats >> fmt) & 1;
}

/* Opens a multi-line dump at this line when it starts one.  The first
 * line of a pprint'ed dict holds its first entry. */
static void start_dump(pr_logfacts *f, const logfacts_line_ref *ln)
{
    const char *s = ln->s, *t;
    size_t n = rtrim(s, ln->n), tn, p;
    int k;
    const char *name, *val;
    size_t nlen, vlen;
    if (n == 0)
        return;
    if (s[n - 1] == ':' && !seen(f, LF_MMCV) &&
        ((n == 7 && memcmp(s, "Config:", 7) == 0) ||
         (n >= 9 && memcmp(s + n - 9, "- Config:", 9) == 0))) {
        dump_open(f, LF_MMCV, ln->line);
        return;
    }
    switch (s[0]) {
    case '-':
        if (!seen(f, LF_PADDLE) && dashed_title(s, n, "Configuration Arguments"))
            dump_open(f, LF_PADDLE, ln->line);
        else if (!seen(f, LF_PADDLESEG) && dashed_title(s, n, "Config Information"))
            dump_open(f, LF_PADDLESEG, ln->line);
        return;
    case 'L':
        if (!seen(f, LF_PADDLE_LAUNCH) && (t = launch_text(s, n, &tn)) &&
            dashed_title(t, tn, "Configuration"))
            dump_open(f, LF_PADDLE_LAUNCH, ln->line);
        return;
    case '[':
        if (!seen(f, LF_PPCLS) && (p = ppcls_prefix(s, n)) &&
            indent_kv(s + p, n - p, " :", &k, &name, &nlen, &val, &vlen) && k == 0) {
            dump_open(f, LF_PPCLS, ln->line);
            section_kv(f, k, name, nlen, val, vlen, ln->line);
        }
        return;
    case '{':
        if (!seen(f, LF_PPRINT) && n >= 3 && s[1] == '\'' && s[n - 1] == ',') {
            dump_open(f, LF_PPRINT, ln->line);
            if (!pprint_entry(f, s, n, 1, ln->line))
                logfacts_dump_free(&f->d);
        }
        return;
    case 'I':
        if (!seen(f, LF_TF_FLAGS) && starts(s, n, "INFO:tensorflow:***") &&
            memmem(s, n, "Configu", 7))
            dump_open(f, LF_TF_FLAGS, ln->line);
        return;
    }
}

/* The open dump's next line: 1 when it took the line. */
static int continue_dump(pr_logfacts *f, const logfacts_line_ref *ln)
{
    switch (f->d.fmt) {
    case LF_MMCV:
        return mmcv_line(f, ln);
    case LF_PADDLE:
    case LF_PADDLE_LAUNCH:
        return paddle_line(f, ln);
    case LF_PPCLS:
        return ppcls_line(f, ln);
    case LF_PADDLESEG:
        return paddleseg_line(f, ln);
    case LF_PPRINT:
        return pprint_line(f, ln);
    case LF_TF_FLAGS:
        return tf_line(f, ln);
    }
    logfacts_dump_free(&f->d);
    return 0;
}

void logfacts_args_line(pr_logfacts *f, const logfacts_line_ref *ln)
{
    if (f->d.fmt >= 0 && continue_dump(f, ln))
        return;
    if (ln->n > 4 && ln->s[0] == 'D' && ln->s[1] == 'L' && ln->s[2] == 'L') {
        if (ln->s[3] == ' ')
            dll_text(f, ln);
        else if (ln->s[3] == 'L' && ln->s[4] == ' ' && memmem(ln->s, ln->n, "PARAMETER", 9))
            dll_json(f, ln);
    }
    if (!seen(f, LF_ARGPARSE))
        argparse_line(f, ln);
    if (f->d.fmt < 0)
        start_dump(f, ln);
}
