/* import_manifest: the manifest `perfrepro-measure import` reads
 * (docs/import.md): one tab-separated line per log, and directive lines
 * naming the source and the README parts to import. */
#ifndef PR_IMPORT_MANIFEST_H
#define PR_IMPORT_MANIFEST_H
#include <stddef.h>

#include "err.h"

typedef struct import_manifest_case {
    int line;
    char *run, *case_name, *model, *framework, *platform, *precision, *seq_len, *unit;
    char *rule; /* as written: NAME, inline JSON, or either after "fit:" */
    char *
        figure; /* as printed (or, after import_run resolved figure_table, the cell's); NULL: none */
    char *figure_table; /* "@ID": the figure is the cell of data/published/ID.json for this line */
    int nodes;          /* 0: not given ("-"), from the platform */
    int gpus, batch_size;
    int first_of_run; /* 1 on the first line of its run set (manifest order) */
    size_t pub;       /* the "published" line its typed figure is printed on: the last one above
                     it, else the first (an index of import_manifest_t.pubs) */
    char **logs;
    size_t nlogs;
} import_manifest_case;

/* A README part: "table ID PATH OPTION VALUE..." or "env ID PATH [--section T]...". */
typedef struct import_manifest_readme {
    int line;
    int is_env;
    char *id, *path;
    char **opts;
    size_t nopts;
} import_manifest_readme;

/* A machine described in a README: "platform ID PATH --group TITLE" (the
 * group of PATH's environment sections, as import-env reads them, whose GPU
 * line makes data/platforms/ID.json: import_platform.c). */
typedef struct import_manifest_platform {
    int line;
    char *id, *path, *group;
} import_manifest_platform;

typedef struct import_manifest_mission {
    char *model, *name, *direction;
} import_manifest_mission;

typedef struct import_manifest_published {
    int line;
    char *path, *title;
} import_manifest_published;

typedef struct import_manifest_t {
    char *file; /* as given */
    char *repo, *commit;
    char *published_path, *published_title; /* the first "published PATH TITLE" line */
    import_manifest_published *pubs; /* every "published" line, in manifest order: a typed figure is
                           linked to the page of the last one above its line */
    size_t npubs;
    import_manifest_case *cases;
    size_t ncases;
    import_manifest_readme *readmes;
    size_t nreadmes;
    import_manifest_mission *missions;
    size_t nmissions;
    import_manifest_platform *platforms;
    size_t nplatforms;
} import_manifest_t;

/* Reads and checks file into *m (freed by import_manifest_free); errors name
 * FILE:LINE and the field, the first in line order.  Everything a line may
 * not say is refused here, so that a dry run refuses what the import
 * refuses (docs/import.md, "What a manifest may not say"): bytes that are
 * not UTF-8 text, names that are no safe file names, options of table/env
 * lines the import sets itself, duplicate cases. */
int import_manifest_read(const char *file, import_manifest_t *m, pr_err *err);
void import_manifest_free(import_manifest_t *m);

/* 0 when repo is OWNER/NAME of safe names and commit a commit id, else -1
 * with err naming file:line (either may be NULL/0: the command line). */
int import_manifest_source_check(const char *file, int line, const char *repo, const char *commit,
                                 pr_err *err);

/* "import-NAME", NAME the manifest's base name up to its first '.': the ID
 * of the typed figures' file data/published/import-NAME.json.  Caller frees. */
char *import_manifest_typed_published_id(const char *manifest);

#endif
