/* import_pub: typed figures and table cells of an import (import_pub.c). */
#ifndef PR_IMPORT_PUB_H
#define PR_IMPORT_PUB_H

#include <jansson.h>

#include "err.h"
#include "import_manifest.h"
#include "import_run.h"

/* c's typed figure as a new JSON number in *out (the caller's), checked in
 * full; an error names the manifest line. */
int im_figure_json(const im_manifest *m, const im_case *c, json_t **out, pr_err *err);
/* Writes out_root/published/import-MANIFEST.json (printed as o->data's). */
int im_write_typed_published(const im_manifest *m, const im_opts *o, const char *out_root,
                             pr_err *err);
/* Sets c->figure from its table cell in pubdir/ID.json. */
int im_cell_figure(const im_manifest *m, im_case *c, const char *pubdir, const im_opts *o,
                   pr_err *err);

#endif
