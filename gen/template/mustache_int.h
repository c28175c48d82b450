/* mustache_int: what the template parser (mustache_parse.c) hands the
 * renderer (mustache.c): the node tree of one template.  Private to the
 * mustache module. */
#ifndef PR_MUSTACHE_INT_H
#define PR_MUSTACHE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

/* How a block (parameter) tag is indented where it is expanded. */
enum bmode {
    B_INLINE, /* not standalone: no indentation of its own */
    B_PAIR,   /* opening and closing tag alone on one line: the line's indentation */
    B_OPEN    /* opening tag standalone: the content's intrinsic indentation */
};

enum nkind { N_ROOT, N_TEXT, N_VAR, N_SECTION, N_INVERTED, N_PARTIAL, N_PARENT, N_BLOCK };

struct node {
    enum nkind kind;
    bool bol;        /* text: starts a source line */
    bool escape;     /* var: {{x}} rather than {{{x}}} */
    bool dynamic;    /* partial/parent: name is looked up in the data */
    bool standalone; /* partial/parent: standalone, indented by ind */
    bool open_sa;    /* argument block: see struct tok */
    enum bmode bmode;
    int line, col;
    const char *tname; /* template name for errors (owned by the render call) */
    const char *text;  /* text: points into the template source */
    size_t len;
    /* Names.  A path (var, section, inverted, dynamic partial/parent) is
     * stored as its parts separated by NULs, nseg parts (0: "."); a plain
     * name (static partial/parent, block) is one NUL-terminated string. */
    char *name;
    int nseg;
    const char *ind, *ded; /* point into the template source */
    size_t ind_len, ded_len;
    struct node **kids;
    size_t nkids, capkids;
};

/* Frees n, its names and its subtree. */
void mustache_node_free(struct node *n);

/* Parses [src, src+len) into *root (the caller frees it with mustache_node_free).
 * tname names the template in errors.  Returns 0, or -1 with err set as
 * "NAME:LINE:COL: what". */
int mustache_parse(const char *src, size_t len, const char *tname, struct node **root, pr_err *err);

#endif
