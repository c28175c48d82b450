/* logfacts_int.h: what the files of logfacts share (logfacts.c: the
 * collector, dates, versions and commands; logfacts_args.c: the argument
 * dumps); nothing else includes it.  logfacts.h has the public API. */
#ifndef PR_LOGFACTS_INT_H
#define PR_LOGFACTS_INT_H

#include <stddef.h>

#include "buf.h"
#include "logfacts.h"

/* Argument dump formats, in pr_recfacts_formats' order. */
enum {
    LF_DLLOGGER,
    LF_ARGPARSE,
    LF_MMCV,
    LF_PADDLE,
    LF_PADDLE_LAUNCH,
    LF_PPCLS,
    LF_PADDLESEG,
    LF_PPRINT,
    LF_TF_FLAGS,
    LF_NFORMATS
};

/* Nesting kept for an mmcv dump's dicts and a config print's sections;
 * deeper dumps end there. */
enum { LF_DEPTH = 64 };
/* Lines one multi-line dump may take before it is ended. */
enum { LF_DUMP_LINES = 8192 };

/* One fact kept. */
typedef struct logfacts_item {
    char *key, *value;       /* owned */
    unsigned long long line; /* the file's \n-counted line */
    unsigned file;           /* which log of the case (parts) */
    int cut;                 /* the value was longer than the limit */
    int fmt;                 /* arg.* items: the dump's format; -1 otherwise */
} logfacts_item;

/* The multi-line dump being read (at most one at a time). */
typedef struct logfacts_dump {
    int fmt;                  /* LF_*; -1 when none is open */
    unsigned long long lines; /* lines it took so far */
    pr_buf path;              /* mmcv: the named dicts; configs: the sections */
    int depth;                /* open frames (mmcv) or sections (configs) */
    size_t plen[LF_DEPTH];    /* path's length before each frame */
    int named[LF_DEPTH];      /* mmcv: the frame is a dict( with a name */
    int indent[LF_DEPTH];     /* configs: each section's indent */
    int unnamed;              /* mmcv: open frames without a name */
    int list_indent;          /* paddleseg: inside a "- " list item at this indent; -1 */
    int skip_depth;           /* pprint: brackets left open by a value over lines */
} logfacts_dump;

struct pr_logfacts {
    logfacts_item *items;
    size_t n, cap;
    unsigned long long dropped, dropped_line; /* facts over the limit, the first's line */
    unsigned dropped_file;
    unsigned file;               /* the file being read */
    unsigned long long head_end; /* lines from here on: dates only */
    unsigned seen;               /* LF_SEEN_* bits: facts found once and for all */
    unsigned formats;            /* bit per LF_*: its first dump was read */
    int smi_rows;                /* nvidia-smi: lines left to find its GPU row in */
    char first[48], last[48];    /* time.first, time.last (ISO) */
    unsigned long long first_line, last_line;
    unsigned first_file, last_file;
    logfacts_dump d;
    pr_buf scratch;
};

/* A line as the readers see it: the text after the mpirun tag. */
typedef struct logfacts_line_ref {
    const char *s;
    size_t n;
    unsigned long long line;
} logfacts_line_ref;

/* Keeps a fact: key (klen bytes), the value s[0..n) trimmed, cut to the
 * limit, with invalid UTF-8 and control characters replaced and (arg.*,
 * command) addresses blanked; fmt: the dump's format for arg.* items, -1
 * otherwise.  A key that is too long or holds other than [A-Za-z0-9_.+-]
 * after "arg." is left out; past the item limit the fact is counted as
 * dropped. */
void logfacts_add(pr_logfacts *f, const char *key, size_t klen, const char *s, size_t n,
                  unsigned long long line, int fmt);
/* Keeps arg.<prefix.>name = value (prefix may be empty). */
void logfacts_add_arg(pr_logfacts *f, int fmt, const char *prefix, size_t plen, const char *name,
                      size_t nlen, const char *s, size_t n, unsigned long long line);
/* The args.format item of a dump of fmt starting at line; marks fmt read. */
void logfacts_begin_dump(pr_logfacts *f, int fmt, unsigned long long line);

/* Argument dumps: one line (logfacts_args.c). */
void logfacts_args_line(pr_logfacts *f, const logfacts_line_ref *ln);
/* Frees what an open dump holds. */
void logfacts_dump_free(logfacts_dump *d);

/* Python literal scanning (argparse, mmcv, pprint): from s[i], the end of
 * the value that starts there: the first ',' or closing bracket outside
 * quotes and brackets, or n.  *open: brackets left open at n (0 when the
 * value ended on the line). */
size_t logfacts_py_value(const char *s, size_t n, size_t i, int *open);

#endif
