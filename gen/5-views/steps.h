/* steps: how to reproduce a framework's figures, from its suite: the
 * source checkout, the suite's own set-up and run steps, the exact command
 * of the 1-GPU, n-GPU and multi-node cases, the Slurm and measure command
 * lines.  Every value from the data is one shell word (md_shell_word):
 * pasted, a block runs what the suite says and nothing else.
 */
#ifndef PR_STEPS_H
#define PR_STEPS_H

#include <jansson.h>

#include "1-load/data.h"

/* Sets the step blocks of suite s in view (a framework page's): source_block,
 * source_repo, source_commit, setup_block, single_block, multi_block,
 * cmd_1gpu, cmd_ngpu and ngpu, cmd_multinode, slurm_block, measure_block;
 * each only where s gives what it needs.  every_case: the commands of every
 * case (a run set's suite: every precision behind its figures), else of
 * the first case of each node and GPU count (a plan's). */
void steps_view(const pr_suite *s, int every_case, json_t *view);

#endif
