/* config_words: a configuration of the report model in a language's words
 * ("FP32 BS=64 · V100"): the config_name and config_short strings of
 * templates/<code>/strings.json rendered with its precision, batch and
 * platform.
 *
 * Memory: the char * results are malloc'd and the caller frees them; the
 * pr_buf variant appends to the caller's buffer. */
#ifndef PR_CONFIG_WORDS_H
#define PR_CONFIG_WORDS_H

#include "2-model/rmodel.h"
#include "buf.h"
#include "err.h"
#include "template/lang.h"

/* A configuration's name ("FP32 BS=64"): as Markdown, appended to out; as
 * plain text (charts, table heads), a string the caller frees. */
void config_words_name(const lang *l, const rmodel_cfg *c, pr_buf *out, pr_err *err);
/* The name without its platform, "(published)" added when !measured: a
 * chart legend's (the title names the platform); the caller frees it. */
char *config_words_short(const lang *l, const rmodel_cfg *c, int measured, pr_err *err);
char *config_words_plain(const lang *l, const rmodel_cfg *c, pr_err *err);

#endif
