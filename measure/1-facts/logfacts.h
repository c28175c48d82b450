/* logfacts: what a log states about its own run, read while the log is
 * parsed (docs/parse-rules.md, "What a log states about its run").
 *
 * The parse's line reader (parse_lines.c) hands each line of the rule's
 * rank to a collector; the collector keeps, each with its line:
 *   - the first argument dump of each format (DLLogger PARAMETER lines,
 *     argparse Namespace(...), an mmcv Config: dump, Paddle's Configuration
 *     blocks, PaddleClas and PaddleSeg config prints, a pprint'ed dict,
 *     TensorFlow BERT's flag list) as arg.<name> items after an args.format
 *     item;
 *   - the container banner, framework, GPU, driver, CUDA, cuDNN and NCCL
 *     versions the log prints, and the first command line it echoes;
 *   - the first and the last date and time of the log.
 * The record's "log_facts" is the result (lib/recfacts.h has its limits and
 * its check).
 *
 * Cost: every fact is looked for in the first PR_LOGFACTS_HEAD bytes of a
 * file only, and dates (time.last) and the command (which some scripts
 * echo when they end) also in its last PR_LOGFACTS_TAIL bytes; the lines
 * between are not handed over at all (logfacts_file says where they
 * are), so a multi-GB log costs what its first and last MiB cost.
 */
#ifndef PR_LOGFACTS_H
#define PR_LOGFACTS_H

#include <jansson.h>

#include "logscan.h"

#define PR_LOGFACTS_HEAD (1ull << 20)
#define PR_LOGFACTS_TAIL (1ull << 20)

typedef struct pr_logfacts pr_logfacts;

/* A new collector; free with logfacts_free. */
pr_logfacts *logfacts_new(void);
void logfacts_free(pr_logfacts *f);

/* Starts the file-th file (0-based; several only when the logs are the
 * parts of one log) of size bytes.  Sets *head_end and *tail_start: only
 * lines whose offset is below head_end or at least tail_start are to be
 * handed to logfacts_line_add. */
void logfacts_file(pr_logfacts *f, unsigned file, unsigned long long size,
                   unsigned long long *head_end, unsigned long long *tail_start);

/* One line of the current file, in order; the line is only read. */
void logfacts_line_add(pr_logfacts *f, const pr_logline *l);

/* The facts as a record's log_facts: a new array the caller owns, in log
 * order, or NULL when the log stated nothing.  Call once, at the end. */
json_t *logfacts_json(pr_logfacts *f);

#endif
