/* import_steps: the run set's environment and steps, written by the import
 * itself (docs/import.md, "What it writes").
 *
 * Where the manifest's folder has no hand-written runsets/RUN.json, the
 * import writes RUN/runset.json: the run folder's name as its title and, as
 * its environment, the groups of the README sections the manifest's `env`
 * lines imported that describe this run set (software groups, and the one
 * machine group whose GPU is the platform's).  Where it has no
 * suites/RUN.json, it writes RUN/suite.json from the logs: the command
 * the logs echo, with the values that differ between the cases as
 * placeholders ({batch_size}, {gpus}, ...), the cases' matrix and a
 * case-name template that names every case as the manifest does.  A run set
 * whose logs echo no command, or whose commands or names follow no one
 * template, gets no suite.json, and the plan says why.
 */
#ifndef PR_IMPORT_STEPS_H
#define PR_IMPORT_STEPS_H

#include "err.h"
#include "import_manifest.h"

/* Writes run_dir/runset.json and run_dir/suite.json where they do not exist
 * yet (a hand file was copied there first: it wins).  run_dir holds the
 * run set's records (logs/index/CASE_speed); out_root is the staging data
 * folder (environments/ID.json of the env lines).  Prints a plan line per
 * file.  Returns 0, or -1 with err set. */
int import_steps_write(const import_manifest_t *m, const char *run, const char *run_dir,
                       const char *out_root, pr_err *err);

/* The template that expands to each of the n strings given each its own
 * variables (names[k] = values[i][k], k < nvars), written with {NAME} for a
 * variable and {{ }} for a literal brace; a part equal in all n strings
 * stays literal.  Variables are tried in the order given.  A new string the
 * caller frees, or NULL when no template fits within the search's bound. */
char *import_steps_template(const char *const *strings, size_t n, const char *const *names,
                            const char *const *const *values, size_t nvars);

#endif
