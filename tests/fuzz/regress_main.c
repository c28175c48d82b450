/* regress_main: replays files through a fuzz harness without libFuzzer.
 *
 *   fuzz_X_regress FILE|DIR...
 *
 * Calls LLVMFuzzerTestOneInput once per file (directories: every regular
 * file in them, sorted).  A harness that finds a broken invariant aborts, so
 * the exit status tells: 0 when every input went through.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(buf);
        return -1;
    }
    /* libFuzzer hands over a copy of exactly n bytes: so does this. */
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(copy, n);
    free(copy);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int count = 0, rc = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            perror(argv[i]);
            rc = 1;
            continue;
        }
        if (!S_ISDIR(sb.st_mode)) {
            rc |= run_file(argv[i]) < 0;
            count++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d) {
            perror(argv[i]);
            rc = 1;
            continue;
        }
        char **names = NULL;
        size_t n = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            names = realloc(names, (n + 1) * sizeof *names);
            names[n++] = strdup(e->d_name);
        }
        closedir(d);
        if (n)
            qsort(names, n, sizeof *names, cmp);
        for (size_t j = 0; j < n; j++) {
            char *p = malloc(strlen(argv[i]) + strlen(names[j]) + 2);
            sprintf(p, "%s/%s", argv[i], names[j]);
            if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
                rc |= run_file(p) < 0;
                count++;
            }
            free(p);
            free(names[j]);
        }
        free(names);
    }
    printf("%d input%s replayed\n", count, count == 1 ? "" : "s");
    return rc;
}
