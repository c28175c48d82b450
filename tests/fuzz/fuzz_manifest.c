/* fuzz_manifest: the manifest `perfrepro-measure import` reads
 * (measure/5-import/import_manifest.c, docs/import.md), outside input a user types.
 *
 * The input is written to a file and read with import_manifest_read.  It must
 * return 0 with a manifest whose every case has its line, names and counts
 * (gpus and batch size above 0, nodes 0 or dividing nothing wrong: at least
 * 0), and at least one log; or -1 with a message that names the file.  Never
 * crash, leak or hang.  What a manifest may not say (issue 31) is refused:
 * an input with a NUL byte or invalid UTF-8 is never read; every name that
 * becomes a path is a safe name; no table/env line gives an option the
 * import sets itself.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "5-import/import_manifest.h"
#include "err.h"
#include "suite.h"

static void die(const char *what)
{
    fprintf(stderr, "fuzz_manifest: %s\n", what);
    abort();
}

/* 1 when data is UTF-8 with no NUL: what a manifest the loader accepts is
 * (a second, plain decoder, so that the loader's is checked). */
static int utf8_text(const uint8_t *d, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint32_t c = d[i], cp, k, need;
        if (c == 0)
            return 0;
        if (c < 0x80) {
            i++;
            continue;
        }
        if ((c & 0xe0) == 0xc0)
            need = 1, cp = c & 0x1f;
        else if ((c & 0xf0) == 0xe0)
            need = 2, cp = c & 0x0f;
        else if ((c & 0xf8) == 0xf0)
            need = 3, cp = c & 0x07;
        else
            return 0;
        for (k = 1; k <= need; k++) {
            if (i + k >= n || (d[i + k] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (d[i + k] & 0x3f);
        }
        if ((need == 1 && cp < 0x80) || (need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) ||
            cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += need + 1;
    }
    return 1;
}

static const char *const own_opts[] = {"--out", "--markdown", "--repo", "--commit", "--path"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/fuzz_manifest.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        die("mkstemp");
    if (size && write(fd, data, size) != (ssize_t)size)
        die("write");
    close(fd);
    import_manifest_t m;
    memset(&m, 0, sizeof m);
    pr_err err = {{0}};
    int rc = import_manifest_read(path, &m, &err);
    if (rc == 0) {
        if (!utf8_text(data, size))
            die("a NUL byte or invalid UTF-8 accepted");
        for (size_t i = 0; i < m.nreadmes; i++) {
            const import_manifest_readme *r = &m.readmes[i];
            if (!pr_suite_name_is_safe(r->id))
                die("a table/env ID that is no safe name");
            for (size_t k = 0; k < r->nopts; k += 2)
                for (size_t o = 0; o < sizeof own_opts / sizeof *own_opts; o++)
                    if (!strcmp(r->opts[k], own_opts[o]))
                        die("a table/env line gives an option the import sets");
        }
        for (size_t i = 0; i < m.ncases; i++) {
            const import_manifest_case *c = &m.cases[i];
            const char *names[] = {c->run, c->case_name, c->model, c->framework, c->platform};
            for (size_t k = 0; k < sizeof names / sizeof *names; k++)
                if (names[k] && !pr_suite_name_is_safe(names[k]))
                    die("a name that becomes a path is no safe name");
            if (c->line <= 0 || !c->run || !c->case_name || !c->model || !c->framework ||
                !c->platform || !c->precision || !c->unit || !c->rule)
                die("a case without its line or a name");
            if (c->gpus <= 0 || c->batch_size <= 0 || c->nodes < 0 || !c->nlogs)
                die("a case without its counts or a log");
            for (size_t k = 0; k < c->nlogs; k++)
                if (!c->logs[k] || !c->logs[k][0])
                    die("an empty log path");
        }
    } else if (rc != -1 || !err.msg[0] || !strstr(err.msg, path)) {
        die(err.msg[0] ? err.msg : "an error without a message");
    }
    import_manifest_free(&m);
    unlink(path);
    return 0;
}
