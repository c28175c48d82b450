/* import_dup: byte-identical logs among an import's cases (import_dup.h). */
#include "import_dup.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "err.h"
#include "fileio.h"

/* One log of one case, with its size (-1: not a readable regular file). */
typedef struct dup_log {
    const import_manifest_case *c;
    const char *path; /* as the manifest names it */
    char *full;       /* under --from */
    off_t size;
} dup_log;

size_t import_dup_identical_logs(const import_manifest_t *m, const char *from, pr_buf *out)
{
    size_t n = 0, pairs = 0;
    for (size_t i = 0; i < m->ncases; i++)
        n += m->cases[i].nlogs;
    dup_log *logs = pr_xcalloc(n + 1, sizeof *logs);
    n = 0;
    for (size_t i = 0; i < m->ncases; i++)
        for (size_t j = 0; j < m->cases[i].nlogs; j++) {
            dup_log *d = &logs[n++];
            struct stat st;
            d->c = &m->cases[i];
            d->path = m->cases[i].logs[j];
            d->full = pr_xasprintf("%s/%s", from, d->path);
            d->size = stat(d->full, &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : -1;
        }
    /* Sizes first: bytes are read only where two sizes agree. */
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            const dup_log *a = &logs[i], *b = &logs[j];
            if (a->size < 0 || a->size != b->size ||
                (strcmp(a->path, b->path) && !pr_fileio_same_bytes(a->full, b->full)))
                continue;
            pairs++;
            pr_buf_printf(out,
                          "  warning: identical logs: %s:%d (%s, case %s) and %s:%d (%s, case "
                          "%s) read byte-identical files (%s, %s): one run is the evidence of "
                          "both\n",
                          m->file, a->c->line, a->c->run, a->c->case_name, m->file, b->c->line,
                          b->c->run, b->c->case_name, a->path, b->path);
        }
    for (size_t i = 0; i < n; i++)
        free(logs[i].full);
    free(logs);
    return pairs;
}
