/* import_typed: the file of a manifest's typed figures,
 * data/published/import-NAME.json ("published" line, docs/import.md), and
 * which manifest wrote it: two manifests with one base name would write the
 * same file. */
#ifndef PR_IMPORT_TYPED_H
#define PR_IMPORT_TYPED_H

#include "err.h"
#include "import_manifest.h"

/* DATA/published/import-NAME.json (a new string, freed by the caller). */
char *import_typed_path(const import_manifest_t *m, const char *data);

/* The manifest as the file records it (its file-level source title): its
 * path in the repository (the folder above data, absolute), or, for a
 * manifest outside it, its file name and a digest of its path, so that no
 * path of the importing machine is kept.  Caller frees. */
char *import_typed_marker(const import_manifest_t *m, const char *data);

/* 0 when m has no "published" line, or its file is absent or holds this
 * manifest's figures, or replace (--replace) is set; else -1 with err saying
 * whose they are.  Called before anything is written, in a dry run too. */
int import_typed_check(const import_manifest_t *m, const char *data, int replace, pr_err *err);

#endif
