/* mustache: template engine (see mustache.h): rendering and the public
 * calls.  mustache_parse.c parses a template into a node tree
 * (mustache_int.h).
 *
 * Rendering walks the tree with a context stack (struct ctx), a stack of
 * parent-tag argument frames (struct frame), and the indentation state: I is
 * prepended to every template line written (standalone partials, parents and
 * blocks), D is removed from the start of the template lines of a block's
 * content (block reindentation).  Indentation is written lazily, before the
 * first byte of each output line that comes from template text.
 */
#include "mustache.h"

#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "mustache_int.h"

/* ------------------------------------------------------------------ */
/* Rendering                                                           */

struct ctx {
    json_t *v; /* borrowed */
    const struct ctx *up;
};

/* The arguments (block tags) of one parent tag being expanded. */
struct frame {
    const struct node *parent;
    const struct frame *prev;
    const char *D; /* the dedent in force at the parent tag */
    size_t Dlen;
};

struct env {
    const struct ctx *ctx;
    const struct frame *args;
    const char *I, *D;
    size_t Ilen, Dlen;
};

struct pentry {
    char *name;
    pr_buf src;
    struct node *root; /* NULL: no such partial */
    struct pentry *next;
};

struct rstate {
    const pr_mustache_opts *opts;
    pr_buf *out;
    pr_err *err;
    bool pending; /* at the start of an output line: indentation not yet written */
    int depth;    /* render_list recursion */
    int pdepth;   /* partials and parents being expanded */
    struct pentry *cache;
    pr_buf tmp;
    size_t out0;              /* out->len when the call started */
    unsigned long long steps; /* nodes rendered (PR_MUSTACHE_MAX_STEPS) */
};

static int rerr(struct rstate *st, const struct node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int rerr(struct rstate *st, const struct node *n, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return pr_err_set(st->err, n->tname, n->line, n->col, NULL, "%s", msg);
}

/* Resolves the name of n on the context stack c.  Returns a borrowed
 * reference, or NULL when the name misses. */
static json_t *lookup(const struct ctx *c, const struct node *n)
{
    if (n->nseg == 0)
        return c ? c->v : NULL;
    const char *seg = n->name;
    json_t *v = NULL;
    for (; c; c = c->up)
        if (json_is_object(c->v) && (v = json_object_get(c->v, seg)) != NULL)
            break;
    for (int i = 1; v && i < n->nseg; i++) {
        seg += strlen(seg) + 1;
        v = json_is_object(v) ? json_object_get(v, seg) : NULL;
    }
    return v;
}

/* Falsey as in the spec's `!!data`: missing, null, false, 0, "", []. */
static bool truthy(const json_t *v)
{
    if (!v)
        return false;
    switch (json_typeof(v)) {
    case JSON_NULL:
    case JSON_FALSE:
        return false;
    case JSON_ARRAY:
        return json_array_size(v) > 0;
    case JSON_STRING:
        return json_string_length(v) > 0;
    case JSON_INTEGER:
        return json_integer_value(v) != 0;
    case JSON_REAL:
        return json_real_value(v) != 0.0;
    default:
        return true;
    }
}

/* The shortest "%.Ng" that reads back as d, with a '.' decimal point
 * whatever LC_NUMERIC says. */
static void put_real(pr_buf *b, double d)
{
    char tmp[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    for (char *c = tmp; *c; c++)
        if (*c == ',')
            *c = '.';
    pr_buf_puts(b, tmp);
}

/* Appends the text of v (borrowed; NULL appends nothing) to b. */
static void stringify(pr_buf *b, json_t *v)
{
    if (!v)
        return;
    switch (json_typeof(v)) {
    case JSON_STRING:
        pr_buf_put(b, json_string_value(v), json_string_length(v));
        break;
    case JSON_INTEGER:
        pr_buf_printf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        break;
    case JSON_REAL:
        put_real(b, json_real_value(v));
        break;
    case JSON_TRUE:
        pr_buf_puts(b, "true");
        break;
    case JSON_FALSE:
        pr_buf_puts(b, "false");
        break;
    case JSON_NULL:
        break;
    case JSON_OBJECT:
    case JSON_ARRAY: {
        size_t n = json_dumpb(v, NULL, 0, JSON_COMPACT);
        pr_buf_grow(b, n);
        b->len += json_dumpb(v, b->data + b->len, n, JSON_COMPACT);
        b->data[b->len] = '\0';
        break;
    }
    }
}

/* Appends [s, s+n) to out with & " < > escaped. */
static void html_escape(pr_buf *out, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rep;
        switch (s[i]) {
        case '&':
            rep = "&amp;";
            break;
        case '"':
            rep = "&quot;";
            break;
        case '<':
            rep = "&lt;";
            break;
        case '>':
            rep = "&gt;";
            break;
        default:
            continue;
        }
        pr_buf_put(out, s + run, i - run);
        pr_buf_puts(out, rep);
        run = i + 1;
    }
    pr_buf_put(out, s + run, n - run);
}

/* Writes the indentation if the output is at the start of a line. */
static void put_indent(struct rstate *st, const struct env *e)
{
    if (st->pending) {
        pr_buf_put(st->out, e->I, e->Ilen);
        st->pending = false;
    }
}

/* Returns a malloc'd I + (P less its common prefix with D). */
static char *join_indent(const struct env *e, const char *P, size_t Plen, size_t *len)
{
    size_t k = 0;
    while (k < Plen && k < e->Dlen && P[k] == e->D[k])
        k++;
    char *s = pr_xmalloc(e->Ilen + (Plen - k) + 1);
    memcpy(s, e->I, e->Ilen);
    memcpy(s + e->Ilen, P + k, Plen - k);
    *len = e->Ilen + (Plen - k);
    s[*len] = '\0';
    return s;
}

static int render_list(struct rstate *st, const struct node *at, const struct node *kids,
                       const struct env *e);

/* Finds (loading and parsing it the first time) partial name.  *root is
 * NULL when there is none. */
static int get_partial(struct rstate *st, const struct node *at, const char *name,
                       const struct node **root)
{
    for (struct pentry *pe = st->cache; pe; pe = pe->next) {
        if (strcmp(pe->name, name) == 0) {
            *root = pe->root;
            return 0;
        }
    }
    struct pentry *pe = pr_xcalloc(1, sizeof *pe);
    pe->name = pr_xstrdup(name);
    int rc = 0;
    if (st->opts->load_partial)
        rc = st->opts->load_partial(st->opts->partial_ctx, name, &pe->src, st->err);
    if (rc < 0) {
        pr_err_prefix(st->err, "%s:%d:%d", at->tname, at->line, at->col);
    } else if (rc > 0 && mustache_parse(pr_buf_cstr(&pe->src), pe->src.len, pe->name, &pe->root,
                                        st->err) < 0) {
        pr_err_prefix(st->err, "%s:%d:%d: in partial '%s'", at->tname, at->line, at->col, name);
        rc = -1;
    }
    if (rc < 0) {
        pr_buf_free(&pe->src);
        free(pe->name);
        free(pe);
        return -1;
    }
    pe->next = st->cache;
    st->cache = pe;
    *root = pe->root;
    return 0;
}

/* Expands a partial or parent tag. */
static int render_include(struct rstate *st, const struct node *n, const struct env *e)
{
    const char *name = n->name;
    char *owned = NULL;
    if (n->dynamic) {
        json_t *v = lookup(e->ctx, n);
        if (!json_is_string(v) && !json_is_number(v))
            return 0;
        pr_buf_clear(&st->tmp);
        stringify(&st->tmp, v);
        if (st->tmp.len == 0 || memchr(st->tmp.data, '\0', st->tmp.len))
            return 0;
        owned = pr_xstrndup(st->tmp.data, st->tmp.len);
        name = owned;
    }
    const struct node *root;
    int rc = get_partial(st, n, name, &root);
    if (rc == 0 && root) {
        if (st->pdepth >= PR_MUSTACHE_MAX_PARTIAL_DEPTH) {
            rc = rerr(st, n, "partials nested more than %d deep at '%s' (does it include itself?)",
                      PR_MUSTACHE_MAX_PARTIAL_DEPTH, name);
        } else {
            struct env sub = *e;
            struct frame f = {n, e->args, e->D, e->Dlen};
            char *I = NULL;
            if (n->standalone)
                sub.I = I = join_indent(e, n->ind, n->ind_len, &sub.Ilen);
            sub.D = "";
            sub.Dlen = 0;
            if (n->kind == N_PARENT)
                sub.args = &f;
            st->pdepth++;
            rc = render_list(st, n, root, &sub);
            st->pdepth--;
            free(I);
        }
    }
    free(owned);
    return rc;
}

/* Finds the argument for block name: the outermost parent tag's wins. */
static const struct node *find_arg(const struct frame *f, const char *name,
                                   const struct frame **where)
{
    const struct node *found = NULL;
    for (; f; f = f->prev) {
        for (size_t i = 0; i < f->parent->nkids; i++) {
            const struct node *k = f->parent->kids[i];
            if (strcmp(k->name, name) == 0) {
                found = k;
                *where = f;
                break;
            }
        }
    }
    return found;
}

/* Expands a block tag: the argument given for it by an enclosing parent
 * tag, else its own content. */
static int render_block(struct rstate *st, const struct node *n, const struct env *e)
{
    const struct frame *where = NULL;
    const struct node *arg = find_arg(e->args, n->name, &where);
    struct env sub = *e;
    char *I = NULL;
    if (n->bmode != B_INLINE)
        sub.I = I = join_indent(e, n->ind, n->ind_len, &sub.Ilen);
    const struct node *body = n;
    if (arg) {
        /* The argument's content, with the arguments in force where it was
         * written and its own reindentation. */
        body = arg;
        sub.args = where->prev;
        sub.D = arg->open_sa ? arg->ded : where->D;
        sub.Dlen = arg->open_sa ? arg->ded_len : where->Dlen;
    } else if (n->bmode == B_OPEN) {
        sub.D = n->ded;
        sub.Dlen = n->ded_len;
    }
    int rc = render_list(st, n, body, &sub);
    free(I);
    return rc;
}

/* Renders one node into st->out. */
static int render_node(struct rstate *st, const struct node *n, const struct env *e)
{
    switch (n->kind) {
    case N_TEXT: {
        /* Line by line: each source line start drops the dedent D; each
         * output line gets the indentation I before its first byte. */
        const char *s = n->text, *end = n->text + n->len;
        bool bol = n->bol;
        while (s < end) {
            if (bol)
                for (size_t k = 0; k < e->Dlen && s < end && *s == e->D[k]; k++)
                    s++;
            const char *nl = memchr(s, '\n', (size_t)(end - s));
            const char *le = nl ? nl + 1 : end;
            if (le > s) {
                put_indent(st, e);
                pr_buf_put(st->out, s, (size_t)(le - s));
                st->pending = nl != NULL;
            }
            s = le;
            bol = true;
        }
        return 0;
    }
    case N_VAR: {
        pr_buf_clear(&st->tmp);
        stringify(&st->tmp, lookup(e->ctx, n));
        if (st->tmp.len == 0)
            return 0;
        put_indent(st, e);
        if (!n->escape)
            pr_buf_put(st->out, st->tmp.data, st->tmp.len);
        else if (st->opts->escape)
            st->opts->escape(st->opts->escape_ctx, st->out, st->tmp.data, st->tmp.len);
        else
            html_escape(st->out, st->tmp.data, st->tmp.len);
        return 0;
    }
    case N_SECTION: {
        json_t *v = lookup(e->ctx, n);
        if (!truthy(v))
            return 0;
        struct env sub = *e;
        struct ctx c = {v, e->ctx};
        sub.ctx = &c;
        if (!json_is_array(v))
            return render_list(st, n, n, &sub);
        size_t i;
        json_t *item;
        json_array_foreach(v, i, item)
        {
            c.v = item;
            if (render_list(st, n, n, &sub) < 0)
                return -1;
        }
        return 0;
    }
    case N_INVERTED:
        if (truthy(lookup(e->ctx, n)))
            return 0;
        return render_list(st, n, n, e);
    case N_PARTIAL:
    case N_PARENT:
        return render_include(st, n, e);
    case N_BLOCK:
        return render_block(st, n, e);
    case N_ROOT:
        break;
    }
    return 0;
}

/* Renders the children of kids; at locates errors. */
static int render_list(struct rstate *st, const struct node *at, const struct node *kids,
                       const struct env *e)
{
    if (st->depth >= PR_MUSTACHE_MAX_RENDER_DEPTH)
        return rerr(st, at, "template nesting deeper than %d while rendering",
                    PR_MUSTACHE_MAX_RENDER_DEPTH);
    st->depth++;
    int rc = 0;
    /* Bounded work and output, whatever the nesting multiplies: each list
     * and each node rendered is a step. */
    if (++st->steps > PR_MUSTACHE_MAX_STEPS)
        rc = rerr(st, at,
                  "rendering takes more than %llu steps (sections nested over long "
                  "lists, or partials included many times?)",
                  PR_MUSTACHE_MAX_STEPS);
    for (size_t i = 0; i < kids->nkids && rc == 0; i++) {
        if (++st->steps > PR_MUSTACHE_MAX_STEPS)
            rc = rerr(st, kids->kids[i],
                      "rendering takes more than %llu steps (sections "
                      "nested over long lists, or partials included many times?)",
                      PR_MUSTACHE_MAX_STEPS);
        else if (st->out->len - st->out0 > PR_MUSTACHE_MAX_OUTPUT)
            rc =
                rerr(st, kids->kids[i], "output larger than %zu MiB", PR_MUSTACHE_MAX_OUTPUT >> 20);
        else
            rc = render_node(st, kids->kids[i], e);
    }
    st->depth--;
    return rc;
}

struct pr_mustache_tmpl {
    pr_buf src; /* nodes point into it */
    char *name;
    struct node *root;
    /* Partials parsed by earlier renders.  Pages render on several threads
     * (report.c): a published list is never changed, a render that parsed
     * more publishes its longer list only if no other did meanwhile. */
    struct pentry *_Atomic cache;
};

/* Frees the entries of list up to (not including) stop. */
static void free_pentries(struct pentry *list, const struct pentry *stop)
{
    while (list != stop) {
        struct pentry *pe = list;
        list = pe->next;
        mustache_node_free(pe->root);
        pr_buf_free(&pe->src);
        free(pe->name);
        free(pe);
    }
}

int mustache_compile(const char *tmpl, size_t len, const char *name, pr_mustache_tmpl **out,
                     pr_err *err)
{
    pr_mustache_tmpl *t = pr_xcalloc(1, sizeof *t);
    pr_buf_put(&t->src, tmpl ? tmpl : "", tmpl ? len : 0);
    t->name = pr_xstrdup(name ? name : "template");
    if (mustache_parse(pr_buf_cstr(&t->src), t->src.len, t->name, &t->root, err) < 0) {
        mustache_tmpl_free(t);
        return -1;
    }
    *out = t;
    return 0;
}

void mustache_tmpl_free(pr_mustache_tmpl *t)
{
    if (!t)
        return;
    free_pentries(atomic_load(&t->cache), NULL);
    mustache_node_free(t->root);
    pr_buf_free(&t->src);
    free(t->name);
    free(t);
}

int mustache_render_tmpl(pr_mustache_tmpl *t, json_t *data, const pr_mustache_opts *opts,
                         pr_buf *out, pr_err *err)
{
    static const pr_mustache_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    struct rstate st = {0};
    st.opts = opts;
    st.out = out;
    st.err = err;
    st.pending = true;
    struct pentry *known = atomic_load(&t->cache);
    st.cache = known;
    pr_buf_init(&st.tmp);
    struct ctx c = {data, NULL};
    struct env e = {&c, NULL, "", "", 0, 0};
    size_t out0 = out->len;
    st.out0 = out0;
    int rc = render_list(&st, t->root, t->root, &e);
    if (rc < 0)
        pr_buf_truncate(out, out0);
    /* New entries are prepended to known: publish them, or drop them when
     * another render published first (it parsed the same files). */
    struct pentry *expected = known;
    if (st.cache != known && !atomic_compare_exchange_strong(&t->cache, &expected, st.cache))
        free_pentries(st.cache, known);
    pr_buf_free(&st.tmp);
    return rc;
}

int mustache_render(const char *tmpl, size_t len, json_t *data, const pr_mustache_opts *opts,
                    pr_buf *out, pr_err *err)
{
    static const pr_mustache_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    if (!tmpl) {
        tmpl = "";
        len = 0;
    }
    const char *tname = opts->name ? opts->name : "template";
    struct node *root = NULL;
    if (mustache_parse(tmpl, len, tname, &root, err) < 0)
        return -1;
    struct rstate st = {0};
    st.opts = opts;
    st.out = out;
    st.err = err;
    st.pending = true;
    pr_buf_init(&st.tmp);
    struct ctx c = {data, NULL};
    struct env e = {&c, NULL, "", "", 0, 0};
    size_t out0 = out->len;
    st.out0 = out0;
    int rc = render_list(&st, root, root, &e);
    if (rc < 0)
        pr_buf_truncate(out, out0);
    free_pentries(st.cache, NULL);
    pr_buf_free(&st.tmp);
    mustache_node_free(root);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Loaders                                                             */

/* A printable copy of a name for messages (at most 200 bytes). */
static char *printable(const char *s)
{
    size_t n = strlen(s);
    if (n > 200)
        n = 200;
    char *c = pr_xstrndup(s, n);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)c[i] < 0x20 || c[i] == 0x7f)
            c[i] = '?';
    return c;
}

static bool has_dotdot(const char *s)
{
    for (const char *p = s; (p = strstr(p, "..")) != NULL; p += 2)
        if ((p == s || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
            return true;
    return false;
}

int mustache_dir_loader(void *ctx, const char *name, pr_buf *out, pr_err *err)
{
    const pr_mustache_dir *d = ctx;
    if (!pr_fileio_path_is_safe_relative(name)) {
        char *pn = printable(name ? name : "");
        if (name && (name[0] == '/' || has_dotdot(name)))
            pr_err_set(err, NULL, 0, 0, NULL, "partial name '%s' escapes the template directory",
                       pn);
        else
            pr_err_set(err, NULL, 0, 0, NULL,
                       "invalid partial name '%s': not a plain relative path", pn);
        free(pn);
        return -1;
    }
    char *rel = pr_xasprintf("%s%s", name, d && d->suffix ? d->suffix : "");
    char *path = pr_fileio_path_join(d ? d->dir : NULL, rel);
    int rc = 1;
    if (!pr_fileio_is_file(path))
        rc = pr_err_set(err, NULL, 0, 0, NULL, "no partial '%s' (looked for %s)", name, path);
    else if (pr_fileio_read_file(path, out, err) < 0)
        rc = -1;
    free(path);
    free(rel);
    return rc;
}

int mustache_json_loader(void *ctx, const char *name, pr_buf *out, pr_err *err)
{
    (void)err;
    json_t *v = json_object_get((json_t *)ctx, name);
    if (!json_is_string(v))
        return 0;
    pr_buf_put(out, json_string_value(v), json_string_length(v));
    return 1;
}
