/* fuzz_manifest: the manifest `perfrepro-measure import` reads
 * (measure/import_manifest.c, docs/import.md), outside input a user types.
 *
 * The input is written to a file and read with im_manifest_read.  It must
 * return 0 with a manifest whose every case has its line, names and counts
 * (gpus and batch size above 0, nodes 0 or dividing nothing wrong: at least
 * 0), and at least one log; or -1 with a message that names the file.  Never
 * crash, leak or hang.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "import_manifest.h"

static void die(const char *what)
{
    fprintf(stderr, "fuzz_manifest: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/fuzz_manifest.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        die("mkstemp");
    if (size && write(fd, data, size) != (ssize_t)size)
        die("write");
    close(fd);
    im_manifest m;
    memset(&m, 0, sizeof m);
    pr_err err = {{0}};
    int rc = im_manifest_read(path, &m, &err);
    if (rc == 0) {
        for (size_t i = 0; i < m.ncases; i++) {
            const im_case *c = &m.cases[i];
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
    im_manifest_free(&m);
    unlink(path);
    return 0;
}
