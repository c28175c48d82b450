/* mustache_parse_int: what the two files of the template parser share:
 * mustache_parse.c (tokens, matching, the node tree) and
 * mustache_standalone.c (the standalone-line rules).  Private to them; the
 * renderer reads mustache_int.h. */
#ifndef PR_MUSTACHE_PARSE_INT_H
#define PR_MUSTACHE_PARSE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "mustache_int.h"

enum tkind {
    K_TEXT,
    K_VAR,      /* {{x}} */
    K_RAW,      /* {{{x}}} {{&x}} */
    K_SECTION,  /* {{#x}} */
    K_INVERTED, /* {{^x}} */
    K_CLOSE,    /* {{/x}} */
    K_PARTIAL,  /* {{>x}} */
    K_PARENT,   /* {{<x}} */
    K_BLOCK,    /* {{$x}} */
    K_COMMENT,  /* {{!x}} */
    K_DELIM     /* {{=a b=}} */
};

struct tok {
    enum tkind kind;
    size_t start, end;   /* extent in the source (tags include delimiters) */
    size_t nstart, nlen; /* trimmed tag content (after '*' when dynamic) */
    int line, col;
    bool dynamic; /* {{>*x}} {{<*x}} */
    bool ignored; /* inside a parent tag but not in one of its blocks */
    bool removed; /* text dropped by a standalone tag */
    bool standalone;
    bool open_sa; /* argument block whose opening tag ends its line */
    enum bmode bmode;
    long match;          /* the matching opening/closing tag */
    long container;      /* the enclosing section/parent/block tag, or -1 */
    size_t ind, ind_len; /* indentation (source span) */
    size_t ded, ded_len; /* block: indentation removed from content lines */
};

/* The parse of one template: its source and its flat token list. */
struct parser {
    const char *src;
    size_t len;
    const char *tname;
    pr_err *err;
    struct tok *t;
    size_t n, cap;
    size_t lc_pos; /* line/column tracking: position reached so far */
    int lc_line, lc_col;
};

/* Pass 3: marks the tags that stand alone on their line and the text they
 * take away (blanks and newline), with the inheritance rules for parent and
 * block tags (mustache_standalone.c).  Needs match's pairs and containers. */
void mustache_standalone_pass(struct parser *p);

#endif
