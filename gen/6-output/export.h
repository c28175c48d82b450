/* export: every figure the reports show, as tidy data.
 *
 *   perfrepro-gen export [--data DIR] --format csv|jsonl|bencher|otava [--bom] [--out FILE]
 *
 * One row per figure, read from the report model (rmodel.h) the pages are
 * rendered from, so that the rows are exactly the figures they show:
 *
 *   - every cell of a framework configuration that has runs (a reproduction
 *     table's row): its median, interval, runs, speedup and efficiency, the
 *     figure its own source published (the audit's pairing of the imported
 *     log behind it: never another machine's) with where it is printed, the
 *     gap and its verdict, the audit's verdict, every flag the model holds
 *     for it, the log behind the median; a cell whose runs all failed is a row with
 *     state "failed" and the reason, without a figure;
 *   - every row of every published table a framework page shows (the
 *     newest revision of each source and the older ones), as printed.
 *
 * Order: models by id, frameworks and platforms as the pages order them,
 * configurations by precision then batch size, rows by GPUs then nodes;
 * each framework's reproduced rows, then its published ones.  The columns
 * (the rows of fw_columns marked exported, fw_columns.h) and the formats are described in docs/report-format.md
 * ("Figures as data").  Numbers are written in the shortest form that reads
 * back as the stored double (md.h, md_num_shortest), so the output is
 * byte-identical across builds and runs.
 *
 * Memory: export_rows returns a new reference; export_render appends to the
 * caller's buffer; export_write streams, holding one row at a time.
 */
#ifndef PR_EXPORT_H
#define PR_EXPORT_H

#include <jansson.h>
#include <stddef.h>

#include "2-model/rmodel.h"
#include "3-tables/fw_columns.h"
#include "buf.h"
#include "err.h"
#include "outfile.h"

typedef enum { EX_CSV, EX_JSONL, EX_BENCHER, EX_OTAVA } export_format;

/* The format named name ("csv", "jsonl", "bencher", "otava") into *fmt;
 * -1 when none has that name. */
int export_format_of(const char *name, export_format *fmt);

/* The rows of w's figures: an array (a new reference, the caller's) of
 * objects with one key per column in column order; a value is a string, an
 * integer, a real or null (nothing to say). */
json_t *export_rows(const rmodel_world *w);
/* The same with the columns t[0, n) (fw_columns.h; a test's longer
 * table). */
json_t *export_rows_of(const fw_columns_column *t, size_t n, const rmodel_world *w);

/* Each row of w in turn to fn (a new reference for the call only: fn
 * takes its own to keep it); rows are made one at a time, so the walk
 * holds one row besides the model.  The first fn that returns non-zero
 * stops the walk, and that value is returned. */
int export_each_row(const rmodel_world *w, int (*fn)(void *ctx, json_t *row), void *ctx);

/* The rows of w in format fmt written to o as they are made (export_each_row),
 * in 64 KiB writes: memory is one row and the model (Otava keeps each
 * figure's line to sort them by date).  Returns 0, or -1 with err set (a
 * write failed, or a BOM asked of a JSON format). */
int export_write(const rmodel_world *w, export_format fmt, int bom, pr_outfile_out *o, pr_err *err);

/* The rows (export_rows's array, borrowed) in format fmt, appended to out;
 * bom (csv and otava only) starts them with a UTF-8 byte order mark.
 * Returns 0, or -1 with err set (a BOM asked of a JSON format). */
int export_render(const json_t *rows, export_format fmt, int bom, pr_buf *out, pr_err *err);

/* One CSV record (RFC 4180: fields escaped by md_csv_field, ended by CRLF) of row's
 * values in column order. */
void export_csv_record(const json_t *row, pr_buf *out);

#endif
