/* srcenv: source environments, DATA/environments/ID.json.
 *
 * What a published source states about the machine and software its figures
 * were obtained on, read from its README by `perfrepro-gen import-env`
 * (envimport.h) and kept as printed: groups (one per machine, e.g.
 * "单机V100（单卡、8卡）", or one per heading for a flat list), each a list of
 * items {key as printed, kind, value as printed, url of a link, line in the
 * README}.  docs/data-model.md, "Source environments", has the format and the
 * table of kinds.
 *
 *   {"perfrepro": 1,
 *    "source": {"repo": "OWNER/NAME", "commit": HEX, "path": "A/README.md",
 *               "url": "https://github.com/OWNER/NAME/blob/HEX/A/README.md"},
 *    "groups": [{"title", "section", "line",
 *                "items": [{"key", "kind", "framework", "value", "url",
 *                           "line", "end_line"}]}]}
 *
 * Loading is strict like every data file: FILE:LINE:COL: field.path:
 * message, unknown keys with a "did you mean", strings at most PR_TEXT_MAX.
 * Nothing is picked or corrected: two items that contradict each other are
 * both kept.
 *
 * Memory: a srcenv_file owns everything reachable from it; strings, groups and
 * items are borrowed from it and live until srcenv_file_free.  A srcenv_set owns its
 * files.
 */
#ifndef PR_SRCENV_H
#define PR_SRCENV_H

#include <stddef.h>

#include "err.h"

typedef struct srcenv_file srcenv_file;   /* one environment file */
typedef struct srcenv_group srcenv_group; /* one machine or heading of it */
typedef struct srcenv_item srcenv_item;   /* one stated item */
typedef struct srcenv_set srcenv_set;     /* every file of DATA/environments */

/* ---- kinds ---- */

/* 1 when kind is one of the documented kinds (os, gpu, cpu, memory, driver,
 * cuda, cudnn, nccl, framework, image, network, code, python, kernel,
 * compiler, topology, text, other). */
int srcenv_kind_known(const char *kind);
/* The kind of an item printed with key (as printed: "系统", "Driver
 * Version", "cuDnn 版本"): a trailing "版本" or "Version" is left out and
 * Latin letters compare without case; "other" when the table has no such
 * key.  *framework (when not NULL) gets the framework the key names
 * ("PyTorch", "Paddle", "TensorFlow", "MXNet", ...; static), or NULL. */
const char *srcenv_kind_of_key(const char *key, const char **framework);
/* 1 when name is a framework name srcenv_kind_of_key can give. */
int srcenv_framework_known(const char *name);

/* ---- one file ---- */

/* Loads and checks path.  *out is the caller's (srcenv_file_free). */
int srcenv_file_load(const char *path, srcenv_file **out, pr_err *err);
/* The same for text[0..len) (copied); name is used in messages. */
int srcenv_file_parse(const char *name, const char *text, size_t len, srcenv_file **out,
                      pr_err *err);
void srcenv_file_free(srcenv_file *f);

/* The file it was loaded from (or the name given to srcenv_file_parse). */
const char *srcenv_file_name(const srcenv_file *f);
/* The source: repository OWNER/NAME, commit, path of the README in it, and
 * its URL at that commit (https://github.com/OWNER/NAME/blob/HEX/PATH). */
const char *srcenv_file_repo(const srcenv_file *f);
const char *srcenv_file_commit(const srcenv_file *f);
const char *srcenv_file_path(const srcenv_file *f);
const char *srcenv_file_url(const srcenv_file *f);

size_t srcenv_file_ngroups(const srcenv_file *f);
const srcenv_group *srcenv_file_group(const srcenv_file *f, size_t i);

/* The group's title as printed (a list item's text, or a heading's), the
 * heading it lies under as printed (NULL when none) and its line. */
const char *srcenv_group_title(const srcenv_group *g);
const char *srcenv_group_section(const srcenv_group *g);
int srcenv_group_line(const srcenv_group *g);
size_t srcenv_group_nitems(const srcenv_group *g);
const srcenv_item *srcenv_group_item(const srcenv_group *g, size_t i);

/* The key as printed (before the first colon), NULL when the item prints
 * none (a code block, an item without a colon). */
const char *srcenv_item_key(const srcenv_item *it);
/* The kind (see srcenv_kind_known). */
const char *srcenv_item_kind(const srcenv_item *it);
/* For kind "framework": the framework the key names, or NULL. */
const char *srcenv_item_framework(const srcenv_item *it);
/* The value as printed (a link's text; a code block's text). */
const char *srcenv_item_value(const srcenv_item *it);
/* The URL of the value's link, or NULL. */
const char *srcenv_item_url(const srcenv_item *it);
/* The item's first and last line in the README (the same for a list item;
 * a code block's fences for "topology" and "text"). */
int srcenv_item_line(const srcenv_item *it);
int srcenv_item_end_line(const srcenv_item *it);
/* The item's address in its source: the file's URL with "#L<line>", or
 * "#L<line>-L<end_line>" for several lines.  Malloc'd; the caller frees
 * it. */
char *srcenv_item_link(const srcenv_file *f, const srcenv_item *it);

/* ---- every file of a data folder ---- */

srcenv_set *srcenv_set_new(void);
void srcenv_set_free(srcenv_set *s);
/* Loads path into s.  A second file for the same repository and path is an
 * error naming the first. */
int srcenv_set_add_file(srcenv_set *s, const char *path, pr_err *err);
size_t srcenv_set_count(const srcenv_set *s);
const srcenv_file *srcenv_set_at(const srcenv_set *s, size_t i);
/* The file of the README at path in repo, or NULL. */
const srcenv_file *srcenv_set_find(const srcenv_set *s, const char *repo, const char *path);

#endif
