/* import_manifest: the manifest `perfrepro-measure import` reads
 * (docs/import.md): one tab-separated line per log, and directive lines
 * naming the source and the README parts to import. */
#ifndef PR_IMPORT_MANIFEST_H
#define PR_IMPORT_MANIFEST_H
#include <stddef.h>

#include "err.h"

typedef struct im_case {
    int line;
    char *run, *case_name, *model, *framework, *platform, *precision, *seq_len, *unit;
    char *rule;   /* as written: NAME, inline JSON, or either after "fit:" */
    char *figure; /* as printed (or, after im_import resolved figure_table, the cell's); NULL: none */
    char *figure_table; /* "@ID": the figure is the cell of data/published/ID.json for this line */
    int nodes;    /* 0: not given ("-"), from the platform */
    int gpus, batch_size;
    char **logs;
    size_t nlogs;
} im_case;

/* A README part: "table ID PATH OPTION VALUE..." or "env ID PATH [--section T]...". */
typedef struct im_readme {
    int line;
    int is_env;
    char *id, *path;
    char **opts;
    size_t nopts;
} im_readme;

typedef struct im_mission {
    char *model, *name, *direction;
} im_mission;

typedef struct im_manifest {
    char *file; /* as given */
    char *repo, *commit;
    char *published_path, *published_title; /* "published PATH TITLE": typed figures' page */
    im_case *cases;
    size_t ncases;
    im_readme *readmes;
    size_t nreadmes;
    im_mission *missions;
    size_t nmissions;
} im_manifest;

/* Reads and checks file into *m (freed by im_manifest_free); errors name
 * FILE:LINE and the field. */
int im_manifest_read(const char *file, im_manifest *m, pr_err *err);
void im_manifest_free(im_manifest *m);

#endif
