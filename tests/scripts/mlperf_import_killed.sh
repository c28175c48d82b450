#!/bin/sh
# perfrepro-measure import --mlperf killed, run twice at once, and run again
# (issue 33; docs/import.md, "Files and folders"), as import_killed.sh for
# the manifest import:
#   - SIGKILL at 20 random instants of an import that rewrites two run
#     folders and two platforms: the data folder is always exactly the old
#     one or exactly the new one (checksums of every file), gen validates
#     it, and the next import completes and leaves nothing beside it;
#   - a second import waits for the lock of the first (held here by
#     flock(1)), and two imports at once leave one whole generation;
#   - re-importing identical inputs leaves every file as it was (inode and
#     mtime), so that make reports has nothing to redo.
# Self-contained (a synthetic submission; no ../shared).
. tests/scripts/lib/preamble.sh
need_bins GEN MEASURE
command -v flock >/dev/null || { echo "mlperf_import_killed: no flock(1): skipped"; exit 77; }
cd "$tmp"
. "$ROOT/tests/data/mlperf/submission.sh"
. "$ROOT/tests/data/import_kill.sh"
mkdir -p data/platforms srcA srcB
mlperf_submission srcA/Acme 600000
mlperf_submission srcB/Acme 700000
import_cmd() { "$MEASURE" import --mlperf "$1/Acme" --repo acme/results --commit "$MLPERF_COMMIT" --data data --gen "$GEN"; }
import_kill_setup mlperf_import_killed 0

kill_loop mlperf_import_killed 0.1 "$MEASURE" import --mlperf srcB/Acme --repo acme/results --commit "$MLPERF_COMMIT" --data data --gen "$GEN"
import_kill_after mlperf_import_killed 0 3

finish "mlperf_import_killed: ok"
