/* cmd_import: `perfrepro-measure import MANIFEST --from DIR`, someone else's
 * logs in with one command (docs/import.md).  It lives in measure because
 * parsing logs and searching rules is measure's; the README parts (tables,
 * environments) are read with cmark-gfm, which only gen links, so they are
 * run as `perfrepro-gen import-table` / `import-env` subprocesses.  Each
 * parse is a `perfrepro-measure parse` subprocess run inside the source
 * folder, so that the paths a record and a fit report keep are the
 * source's own (never the folder the user typed). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "5-import/import_manifest.h"
#include "5-import/import_mlperf.h"
#include "5-import/import_run.h"
#include "buf.h"
#include "cli.h"
#include "cmd.h"
#include "err.h"

static void usage(FILE *f)
{
    fputs("usage: perfrepro-measure import MANIFEST --from DIR [--data DIR] [--dry-run]\n"
          "                                [--repo OWNER/NAME --commit SHA] [--gen PATH]\n"
          "                                [--replace]\n"
          "       perfrepro-measure import --mlperf SUBMITTER_DIR --repo OWNER/NAME --commit SHA\n"
          "                                [--data DIR] [--dry-run] [--gen PATH] [--replace]\n"
          "\n"
          "Brings someone else's logs in with one manifest (docs/import.md): parses each\n"
          "log with its run set's rule (given, or found with parse --fit over all the run\n"
          "set's printed figures at once), files records and logs into DATA/runs/RUN/,\n"
          "writes the fit reports (RUN/fit/CASE.json), copies the source's LICENSE and\n"
          "writes SOURCE.md beside the logs, and imports the README tables and\n"
          "environments the manifest names (with perfrepro-gen import-table/import-env).\n"
          "Nodes not given are GPUs over the platform's devices per node\n"
          "(DATA/platforms/ID.json).  A second run with the same inputs changes nothing.\n"
          "Everything is written into a copy of DATA beside it, checked with perfrepro-gen\n"
          "validate and swapped in whole: a failed or killed import leaves DATA as it was.\n"
          "One import at a time writes DATA (a second waits for the lock .DATA.import.lock).\n"
          "\n"
          "With --mlperf, reads an MLPerf Training submission instead (SUBMITTER/results/\n"
          "SYSTEM/BENCHMARK/result_N.txt, scaling.json, systems/SYSTEM.json): each run's\n"
          "time to train (run_start to run_stop, minutes), and per system and benchmark\n"
          "the score as MLPerf's rules compute it (olympic mean, a run that did not\n"
          "converge counted as the slowest, times scaling.json's factor); --dry-run\n"
          "prints the scores to 17 significant digits; else each system becomes a\n"
          "platform DATA/platforms/mlperf-SUBMITTER-SYSTEM.json and each system and\n"
          "benchmark a run folder DATA/runs/mlperf-SUBMITTER-SYSTEM-BENCHMARK/ (the\n"
          "result files, one record per run, SOURCE.md, LICENSE), staged, validated and\n"
          "swapped in as a manifest import's are (--replace for folders it did not make).\n"
          "\n"
          "options:\n"
          "      --mlperf DIR      an MLPerf Training submission (a SUBMITTER folder)\n"
          "      --from DIR        the local folder holding the source's files (a checkout\n"
          "                        of the repository at the commit); log paths are in it\n"
          "      --repo OWNER/NAME, --commit SHA\n"
          "                        the repository and commit (else the manifest's\n"
          "                        \"source\" line)\n"
          "      --data DIR        the data folder written (default data)\n"
          "  -n, --dry-run         print the plan (run sets, the rule chosen, what each\n"
          "                        figure gives under it) and write nothing\n"
          "      --gen PATH        perfrepro-gen (default: beside this program)\n"
          "      --replace         replace run folders this manifest did not make (a run\n"
          "                        folder is replaced only when its SOURCE.md names the\n"
          "                        manifest; a measure run folder, another manifest's)\n"
          "  -h, --help            this text\n"
          "\n"
          "exit status: 0 imported (or planned); 1 imported, but some figure is not\n"
          "reproduced by its run set's rule; 2 usage, manifest or import error.\n",
          f);
}

/* The folder of path (a new string, freed by the caller). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? pr_xstrndup(path, (size_t)(slash - path)) : pr_xstrdup(".");
}

/* perfrepro-gen beside this program (a new string), NULL with err when
 * this program cannot be found. */
static char *gen_beside_self(pr_err *err)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        pr_err_set(err, NULL, 0, 0, NULL, "cannot find this program (/proc/self/exe)");
        return NULL;
    }
    self[n] = '\0';
    char *d = dir_of(self);
    char *gen = pr_xasprintf("%s/perfrepro-gen", d);
    free(d);
    return gen;
}

const pr_cli_command cmd_import_command = {"import", cmd_import, NULL,
                                           "bring someone else's logs in from one manifest", usage};

int cmd_import(int argc, char **argv)
{
    import_run_opts o = {0};
    const char *data = "data", *from = NULL, *repo = NULL, *commit = NULL;
    const char *gen = NULL, *mlperf = NULL;
    const pr_cli_option opts[] = {
        {"--from", .value = &from},
        {"--data", .value = &data},
        {"--repo", .value = &repo},
        {"--commit", .value = &commit},
        {"--gen", .value = &gen},
        {"--mlperf", .value = &mlperf},
        {"--dry-run", 'n', .flag = &o.dry_run},
        {"--replace", .flag = &o.replace},
    };
    int first;
    int parsed = pr_cli_parse_args("perfrepro-measure", &cmd_import_command, opts,
                                   sizeof opts / sizeof *opts, argc, argv, &first);
    if (parsed != CLI_OK)
        return pr_cli_status(parsed);
    const char *manifest = first < argc ? argv[first] : NULL;
    if (argc - first > 1) {
        fprintf(stderr, "perfrepro-measure import: one manifest per run (\"%s\" too)\n",
                argv[first + 1]);
        return 2;
    }
    if (mlperf) {
        pr_err merr = {{0}};
        if (manifest || from) {
            fprintf(stderr, "perfrepro-measure import: --mlperf reads a submission; no "
                            "manifest or --from with it\n");
            return 2;
        }
        char *gen_mlperf = gen ? pr_xstrdup(gen) : gen_beside_self(&merr);
        import_mlperf_opts mo = {mlperf, data, repo, commit, gen_mlperf, o.dry_run, o.replace};
        int mrc = gen_mlperf && import_mlperf(&mo, stdout, &merr) == 0 ? 0 : 2;
        if (mrc)
            fprintf(stderr, "perfrepro-measure import: %s\n", merr.msg);
        free(gen_mlperf);
        return mrc;
    }
    if (!manifest || !from) {
        fprintf(stderr, "perfrepro-measure import: missing %s%s%s\n", manifest ? "" : "MANIFEST",
                !manifest && !from ? " and " : "", from ? "" : "--from DIR");
        usage(stderr);
        return 2;
    }
    import_manifest_t m;
    pr_err err = {{0}};
    int rc = 2;
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    char *gen_path = NULL, *mdir = NULL;
    if (import_manifest_read(manifest, &m, &err) < 0) {
        fprintf(stderr, "perfrepro-measure import: %s\n", err.msg);
        import_manifest_free(&m);
        return 2;
    }
    if (n <= 0) {
        fprintf(stderr, "perfrepro-measure import: cannot find this program (/proc/self/exe)\n");
        goto out;
    }
    self[n] = '\0';
    if (repo || commit) {
        if (!repo || !commit) {
            fprintf(stderr, "perfrepro-measure import: --repo and --commit go together\n");
            goto out;
        }
        if (import_manifest_source_check(NULL, 0, repo, commit, &err) < 0) {
            fprintf(stderr, "perfrepro-measure import: --repo/--commit: %s\n", err.msg);
            goto out;
        }
        free(m.repo);
        free(m.commit);
        m.repo = pr_xstrdup(repo);
        m.commit = pr_xstrdup(commit);
    }
    if (!m.repo) {
        fprintf(stderr,
                "perfrepro-measure import: %s: no source: add a line "
                "\"source<TAB>OWNER/NAME<TAB>COMMIT\" or give --repo and --commit\n",
                manifest);
        goto out;
    }
    if (gen)
        gen_path = pr_xstrdup(gen);
    else {
        char *d = dir_of(self);
        gen_path = pr_xasprintf("%s/perfrepro-gen", d);
        free(d);
    }
    mdir = dir_of(manifest);
    /* Absolute: the parses run inside the source folder and file into it. */
    char data_abs[PATH_MAX];
    if (!realpath(data, data_abs)) {
        fprintf(stderr, "perfrepro-measure import: --data %s: %s\n", data, strerror(errno));
        goto out;
    }
    o.self = self;
    o.gen = gen_path;
    o.manifest_dir = mdir;
    o.data = data_abs;
    o.from = from;
    rc = import_run(&m, &o, &err);
    if (rc < 0) {
        fprintf(stderr, "perfrepro-measure import: %s\n", err.msg);
        rc = 2;
    }
out:
    free(gen_path);
    free(mdir);
    import_manifest_free(&m);
    return rc;
}
