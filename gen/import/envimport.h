/* envimport: a source's stated environment read from its README, not typed.
 *
 * `perfrepro-gen import-env` parses a Markdown file as GitHub does
 * (cmark-gfm, cmarkx.h) and reads its environment sections: the content
 * under each heading whose text, without a leading number ("二、", "1."), is
 * one of the section titles (and under each list item whose text is one),
 * down to the next heading of the same or a higher level.  In a section:
 *
 *   - a top-level list item with a nested list is a group (its text the
 *     title: "单机V100（单卡、8卡）"), every item below it one item;
 *   - the other list items of a heading form the heading's group;
 *   - a code block is an item of kind "topology" (`nvidia-smi topo -m`
 *     output) or "text", with its line range.
 *
 * Each item keeps its key as printed (the text before the first "：" or
 * ":"), a kind from the documented table (srcenv.h, srcenv_kind_of_key: an
 * unknown key is "other", never dropped), its value as printed (a link's
 * text, its URL in "url") and its 1-based line in the README.  The file is
 * written atomically, and only when its bytes change: a second run with
 * the same input changes nothing.  docs/data-model.md, "Source
 * environments".
 */
#ifndef PR_ENVIMPORT_H
#define PR_ENVIMPORT_H

#include <stddef.h>

#include "err.h"

/* The section titles read when none is given (NULL-terminated): 环境介绍,
 * 物理机环境, 机器环境, 硬件环境, Docker 镜像, 软件环境, Environment. */
extern const char *const pr_envimport_default_sections[];

typedef struct pr_envimport_opts {
    const char *markdown;        /* the Markdown file read */
    const char *const *sections; /* titles, nsections of them; NULL: the defaults */
    size_t nsections;
    const char *repo, *commit, *path; /* where the Markdown file is published */
    const char *out;                  /* the environment file written */
} pr_envimport_opts;

/* Runs the import.  On success o->out holds the environment (unchanged when
 * it already held these bytes) and *summary (malloc'd, the caller frees it)
 * says what was read.  Errors name the file and line; a README without any
 * of the sections names the titles searched. */
int envimport_run(const pr_envimport_opts *o, char **summary, pr_err *err);

#endif
