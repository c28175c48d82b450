/* jdoc: strict loading of JSON data files, with errors that name the file,
 * line, column and field.
 *
 * Jansson parses the text (duplicate keys rejected, depth limited); when a
 * loaded value breaks a rule, a small scanner walks the kept text along the
 * value's path to find its line and column.
 *
 * A pr_jdoc_jcur is a cursor on one value: the document, its parent cursor and the
 * key or index that leads to it.  Cursors live on the caller's stack and
 * borrow everything; they must not outlive the pr_jdoc.
 */
#ifndef PR_JDOC_H
#define PR_JDOC_H

#include <jansson.h>
#include <stddef.h>

#include "buf.h"
#include "err.h"

typedef struct pr_jdoc pr_jdoc;

typedef struct pr_jdoc_jcur {
    const pr_jdoc *doc;
    const struct pr_jdoc_jcur *parent;
    const char *key; /* set when the parent is an object */
    size_t index;    /* used when the parent is an array */
    json_t *v;       /* borrowed */
} pr_jdoc_jcur;

/* Makes Jansson allocate through pr_xmalloc (abort on OOM).  Idempotent. */
void pr_jdoc_json_init(void);

/* Reads and parses path.  On success *out owns the document (free with
 * pr_jdoc_free).  The root must be an object or an array. */
int pr_jdoc_load(const char *path, pr_jdoc **out, pr_err *err);
/* Parses text (copied); name is used in messages. */
int pr_jdoc_parse(const char *name, const char *text, size_t len, pr_jdoc **out, pr_err *err);
void pr_jdoc_free(pr_jdoc *doc);
const char *pr_jdoc_name(const pr_jdoc *doc);
/* The string value of key in object o (borrowed); NULL when o is NULL or
 * the key is absent or not a string.  For objects already checked. */
const char *pr_jdoc_json_str(const json_t *o, const char *key);
/* 1 when v holds a real 0 somewhere: 0.0 and -0.0 are json_equal, but
 * print apart (a cache keyed by json_equal must not serve one for the
 * other). */
int pr_jdoc_json_has_zero_real(const json_t *v);

/* A cursor on the root value. */
pr_jdoc_jcur pr_jdoc_root(const pr_jdoc *doc);

/* A cursor on the value of key in object c (v NULL when absent). */
pr_jdoc_jcur pr_jdoc_jchild(const pr_jdoc_jcur *c, const char *key);
/* A cursor on element i of array c. */
pr_jdoc_jcur pr_jdoc_jitem(const pr_jdoc_jcur *c, size_t i);
/* Appends the field path ("matrix.precision[2]") to out. */
void pr_jdoc_jpath(const pr_jdoc_jcur *c, pr_buf *out);
/* Line and column (1-based, column in characters) of c's value in the text;
 * 0 when unknown. */
void pr_jdoc_jpos(const pr_jdoc_jcur *c, int *line, int *col);

/* Sets err to "FILE:LINE:COL: PATH: message" for value c.  Returns -1. */
int pr_jdoc_jfail(const pr_jdoc_jcur *c, pr_err *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Checks that c is an object whose keys are all in allowed (NULL-terminated);
 * an unknown key is an error at that key, with the nearest allowed key
 * suggested ("did you mean ...?"). */
int pr_jdoc_jobject(const pr_jdoc_jcur *c, const char *const *allowed, pr_err *err);

/* Typed field access on object obj.  Each returns 1 when the key is present
 * and valid, 0 when absent (an error instead when required), -1 on a type or
 * range error.  Strings are borrowed from the document. */
int pr_jdoc_jstr(const pr_jdoc_jcur *obj, const char *key, int required, const char **out,
                 pr_err *err);
int pr_jdoc_jint(const pr_jdoc_jcur *obj, const char *key, int required, long long min,
                 long long max, long long *out, pr_err *err);
/* A finite number >= min (integers accepted). */
int pr_jdoc_jnum(const pr_jdoc_jcur *obj, const char *key, int required, double min, double *out,
                 pr_err *err);
int pr_jdoc_jbool(const pr_jdoc_jcur *obj, const char *key, int required, int *out, pr_err *err);
/* An array (out set to its cursor); min_len elements at least. */
int pr_jdoc_jarr(const pr_jdoc_jcur *obj, const char *key, int required, size_t min_len,
                 pr_jdoc_jcur *out, pr_err *err);
/* An object (out set to its cursor); its keys are not checked. */
int pr_jdoc_jobj(const pr_jdoc_jcur *obj, const char *key, int required, pr_jdoc_jcur *out,
                 pr_err *err);
/* A string that must be one of choices (NULL-terminated). */
int pr_jdoc_jenum(const pr_jdoc_jcur *obj, const char *key, int required,
                  const char *const *choices, const char **out, pr_err *err);

#endif
