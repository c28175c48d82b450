/* csvtable: a delimited file (CSV, RFC 4180; TSV) read as the one GFM pipe
 * table it converts to, so that import-table (mdimport.c) reads it with the
 * Markdown table reader, rows named by their lines in the delimited file. */
#ifndef PR_CSVTABLE_H
#define PR_CSVTABLE_H

#include <stddef.h>

#include "buf.h"

/* Where the Markdown's lines come from: its line k is the delimited file's
 * line map[k - 1]. */
typedef struct csvtable_lines {
    int *map; /* malloc'd; the caller frees it */
    size_t n, cap;
} csvtable_lines;

/* The field separator of path: ',' for ".csv", '\t' for ".tsv" (any case);
 * 0 for any other file (Markdown). */
char csvtable_separator(const char *path);

/* The delimited text p (len bytes; fields separated by sep, "quoted" where
 * they hold sep, a quote ("") or a line break; a UTF-8 byte order mark
 * left out) appended to md as one pipe table: the first record its header,
 * every ASCII punctuation of a cell backslash-escaped so that cmark reads
 * the cell's text as written, a line break or tab in a field read as a
 * blank, empty records left out; lm gets each Markdown line's line.
 * Returns -1 once md would pass max_bytes (escapes and " | " make it up to
 * three times the input: cmark's memory stays bounded), else 0. */
int csvtable_to_markdown(const char *p, size_t len, char sep, size_t max_bytes, pr_buf *md,
                         csvtable_lines *lm);

/* The delimited file's line of Markdown line `line` (itself when lm has
 * no map). */
int csvtable_line(const csvtable_lines *lm, int line);

#endif
