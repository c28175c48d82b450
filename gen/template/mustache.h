/* mustache: a spec-compliant mustache template engine over Jansson data.
 *
 * Implements the mustache specification (../shared/spec/mustache): comments,
 * set-delimiter tags, interpolation ({{x}}, {{{x}}}, {{&x}}), sections,
 * inverted sections, partials, and the optional modules ~inheritance
 * ({{<parent}}...{{$block}}...{{/block}}...{{/parent}}) and ~dynamic-names
 * ({{>*name}}, {{<*name}}).  Lambdas are not supported (JSON has none).
 *
 * Choices where the spec leaves room:
 *   - Truthiness follows the spec's own example (`!!data` in JavaScript):
 *     false, null, 0, 0.0, "", [] and a missing name are falsey; everything
 *     else (including {}) is truthy.
 *   - Numbers interpolate as integers without decimals and reals in their
 *     shortest round-trip form (1.21 -> "1.21"); true/false as "true" and
 *     "false"; null and misses as ""; objects and arrays as compact JSON.
 *   - Default escaping is the spec's set: & " < > (not ').  Put attribute
 *     values in double quotes.
 *   - Names must be well formed: "." or dot-separated non-empty parts
 *     without whitespace; anything else is a syntax error, not a miss.
 *   - Partials included from inside a parent template see the parent's block
 *     arguments (a partial is a parent without arguments, as the spec says).
 *   - Indentation: a standalone partial, parent or block indents every line
 *     of its template text, blank lines included (not lines that come from
 *     interpolated values); a partial included in the middle of a line
 *     continues its later lines at the current indentation.
 *
 * Limits (errors, never crashes): sections nested more than
 * PR_MUSTACHE_MAX_NESTING deep in one template; partials/parents nested more
 * than PR_MUSTACHE_MAX_PARTIAL_DEPTH deep (e.g. a partial that includes
 * itself); rendering recursion deeper than PR_MUSTACHE_MAX_RENDER_DEPTH;
 * more than PR_MUSTACHE_MAX_STEPS nodes rendered or PR_MUSTACHE_MAX_OUTPUT
 * bytes written by one call.
 */
#ifndef PR_MUSTACHE_H
#define PR_MUSTACHE_H

#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "err.h"

#define PR_MUSTACHE_MAX_NESTING 100
#define PR_MUSTACHE_MAX_PARTIAL_DEPTH 100
#define PR_MUSTACHE_MAX_RENDER_DEPTH 500
/* Hardening (fuzz_mustache): sections nested over lists and partials that
 * include others several times grow exponentially ("{{#a}}" nine deep over
 * ten items ran 10^9 steps; eight levels of eight partials wanted 14 GB), so
 * one render call stops with an error past these. */
#define PR_MUSTACHE_MAX_STEPS 20000000ULL         /* lists and nodes rendered */
#define PR_MUSTACHE_MAX_OUTPUT ((size_t)64 << 20) /* bytes appended */

typedef struct pr_mustache_opts {
    /* Name used in error messages (e.g. the template file path).  NULL:
     * "template". */
    const char *name;
    /* Loads partial/parent `name` into out (appending).  Returns 1 when
     * found, 0 when there is no such partial (it renders as the empty
     * string, as the spec says), -1 on error (with err filled).  NULL: no
     * partials (every partial renders as the empty string).  Each name is
     * loaded at most once per mustache_render call. */
    int (*load_partial)(void *ctx, const char *name, pr_buf *out, pr_err *err);
    void *partial_ctx;
    /* Escapes an interpolated {{value}}, appending to out.  Not used for
     * {{{value}}} and {{&value}}.  NULL: HTML escaping of & " < > as the
     * spec requires. */
    void (*escape)(void *ctx, pr_buf *out, const char *s, size_t len);
    void *escape_ctx;
} pr_mustache_opts;

/* Renders the template text [tmpl, tmpl+len) with data into out (appended).
 * data is borrowed (may be NULL: every name misses); opts may be NULL (all
 * defaults).  Nothing is kept after the call: the caller keeps owning tmpl,
 * data and out.  Returns 0, or -1 with err set as "NAME:LINE:COL: what" for
 * syntax errors (unclosed tag, unclosed or mismatched section, bad delimiter
 * or name), partials nested too deep, or a loader failure; errors inside a
 * partial are prefixed with the location of the tag that included it.  On
 * error out is left as it was before the call. */
int mustache_render(const char *tmpl, size_t len, json_t *data, const pr_mustache_opts *opts,
                    pr_buf *out, pr_err *err);

/* A loader for templates kept in a directory: partial `name` is the file
 * DIR/name + suffix (suffix NULL means none), e.g. dir "templates" and
 * suffix ".mustache".  Use with partial_ctx = a pr_mustache_dir* (borrowed;
 * it must outlive the render call). */
typedef struct pr_mustache_dir {
    const char *dir;
    const char *suffix;
} pr_mustache_dir;

/* Appends the file for name to out and returns 1.  Returns -1 with err set
 * when name is not a safe relative path ("partial name '../x' escapes the
 * template directory"), when the file does not exist ("no partial 'x'
 * (looked for DIR/x.mustache)": for real templates a missing partial is an
 * error), or when it cannot be read.  Never returns 0. */
int mustache_dir_loader(void *ctx, const char *name, pr_buf *out, pr_err *err);

/* A loader over a JSON object mapping names to template strings (the spec's
 * "partials"): ctx is a json_t* object, borrowed.  Appends the string and
 * returns 1; returns 0 when there is no such name (or its value is not a
 * string, or ctx is NULL).  Never fails. */
int mustache_json_loader(void *ctx, const char *name, pr_buf *out, pr_err *err);

/* A template parsed once and rendered many times.  It keeps its own copy of
 * the text, and the partials its renders load stay parsed for later renders
 * (so every render of one compiled template must use the same partial
 * loader).  Not for use by two threads at once. */
typedef struct pr_mustache_tmpl pr_mustache_tmpl;
/* Parses [tmpl, tmpl+len); *out is the caller's (mustache_tmpl_free).
 * name is used in error messages. */
int mustache_compile(const char *tmpl, size_t len, const char *name, pr_mustache_tmpl **out,
                     pr_err *err);
/* Renders t with data (borrowed), appending to out; opts->name is ignored
 * (the name given to mustache_compile is used). */
int mustache_render_tmpl(pr_mustache_tmpl *t, json_t *data, const pr_mustache_opts *opts,
                         pr_buf *out, pr_err *err);
void mustache_tmpl_free(pr_mustache_tmpl *t);

#endif
