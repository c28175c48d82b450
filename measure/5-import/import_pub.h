/* import_pub: typed figures and table cells of an import (import_pub.c). */
#ifndef PR_IMPORT_PUB_H
#define PR_IMPORT_PUB_H

#include <jansson.h>

#include "err.h"
#include "import_manifest.h"
#include "import_run.h"

/* c's typed figure as a new JSON number in *out (the caller's), checked in
 * full; an error names the manifest line. */
int import_pub_figure_json(const import_manifest_t *m, const import_manifest_case *c, json_t **out,
                           pr_err *err);
/* Writes out_root/published/import-MANIFEST.json (printed as o->data's). */
int import_pub_write_typed_published(const import_manifest_t *m, const import_run_opts *o,
                                     const char *out_root, pr_err *err);
/* Sets c->figure from its table cell in pubdir/ID.json. */
int import_pub_cell_figure(const import_manifest_t *m, import_manifest_case *c, const char *pubdir,
                           const import_run_opts *o, pr_err *err);

#endif
