/* mdimport: published figures read from a Markdown table, not typed.
 *
 * `perfrepro-gen import-table` parses a Markdown file as GitHub does
 * (cmark-gfm's table extension), picks one pipe table (by its number, or the
 * first after a heading or paragraph containing a text), reads the GPU count from each row's first cell
 * ("8", "GPU=8,BS=96", "1机8卡", "4机32卡"; a batch size printed there must
 * be the one given) and the figure from the column named, and writes it into
 * a published-figures file (docs/data-model.md) as a table: each figure as a number and as the exact text printed ("printed":
 * "2946.30"), the source repository, commit, path and line of the table.
 * The node and GPU counts may have columns of their own (--nodes-column,
 * --gpus-column), and a file named *.csv is read as one table (RFC 4180,
 * its first record the header, lines named as in the CSV file).
 */
#ifndef PR_MDIMPORT_H
#define PR_MDIMPORT_H

#include "err.h"

typedef struct pr_mdimport_opts {
    const char *markdown; /* the Markdown file read */
    int table;            /* 1-based number of the table in the file; 0: by heading */
    const char *heading;  /* the first table after a heading containing this text */
    const char *column;   /* the value column, by its header text (links' text) */
    const char *model, *model_title, *framework, *framework_title;
    const char *precision; /* fp32, tf32, fp16, amp, bf16, fp8 */
    int batch_size;
    const char *batch_label, *variant, *note;
    const char *platform; /* a data/platforms/ id, or "unstated" */
    const char *unit;
    const char *label;                /* the file's short source name */
    const char *repo, *commit, *path; /* where the Markdown file is published */
    int gpus_per_node;                /* to split a GPU count into nodes (default 8) */
    const char *nodes_column;         /* the node count's own column, by its header text, or NULL */
    const char *gpus_column; /* the (total) GPU count's own column, or NULL: the first cell */
    const char *out;         /* the published file to create or add the table to */
} pr_mdimport_opts;

/* At most this many rows in the table read (empty ones too): a table of
 * published figures has a row per GPU count, and the import stops at the
 * first row past it, as at the first second row of a configuration. */
#define PR_MDIMPORT_MAX_ROWS 1000
/* The largest Markdown file import-table reads: cmark-gfm builds the whole
 * document before a row is read, about 180 bytes of memory per input byte
 * (a 3 MB table took 549 MB), so 4 MiB bounds it near 750 MB.  The largest
 * README of the shipped sources is 23 KB. */
#define PR_MDIMPORT_MAX_BYTES ((size_t)4 << 20)

/* Runs the import: on success the table is in o->out (replacing a table of
 * the same model, framework, precision, batch size, variant and platform),
 * written atomically once the new content passed the build's checks of a
 * published file (data_check_published), *summary (malloc'd, the caller
 * frees it) says what was read, and *warnings (malloc'd, or NULL when none)
 * has a line "FILE:LINE: ..." per row whose cells had something GitHub shows
 * no text for (raw HTML, an image's picture): the row is read from their
 * text (an image's alt text).  A figure is kept exactly as printed or
 * refused.  Errors name the file, line and column or field; on error
 * o->out is left as it was. */
int mdimport_run(const pr_mdimport_opts *o, char **summary, char **warnings, pr_err *err);

#endif
