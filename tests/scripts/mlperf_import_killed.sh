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
imp() { "$MEASURE" import --mlperf "$1/Acme" --repo acme/results --commit "$MLPERF_COMMIT" --data data --gen "$GEN" >/dev/null 2>err; rc=$?; }
sums() { (cd "$1" && find . -type f -exec sha256sum {} + | sort); }
imp srcA
[ "$rc" -eq 0 ] || { echo "mlperf_import_killed: the first import failed: $(cat err)"; exit 1; }
cp -a data dataA
sums dataA >sumsA
start=$(date +%s%N)
imp srcB
took=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$rc" -eq 0 ] || { echo "mlperf_import_killed: the second import failed: $(cat err)"; exit 1; }
sums data >sumsB
cmp -s sumsA sumsB && { echo "mlperf_import_killed: the two sources give the same data"; exit 1; }
reset() { rm -rf data && cp -a dataA data; }

# ---- killed at random instants of the import (0 to 1.2 times its duration)
kill_loop mlperf_import_killed 0.1 "$MEASURE" import --mlperf srcB/Acme --repo acme/results --commit "$MLPERF_COMMIT" --data data --gen "$GEN"
imp srcB
[ "$rc" -eq 0 ] || fail "the import after the kills: $(cat err)"
sums data >now
cmp -s now sumsB || fail "the import after the kills differs: $(diff sumsB now | head -5)"
left=$(ls -a | grep '^\.data\.\(staging\|old\)\.' || true)
[ -z "$left" ] || fail "left beside data after the import: $left"

# ---- one import at a time
reset
rm -f held
flock .data.import.lock sh -c ': >held; sleep 3' &
holder=$!
for i in $(seq 1 100); do [ -e held ] && break; sleep 0.1; done
start=$(date +%s%N)
imp srcB
waited=$(( ($(date +%s%N) - start) / 1000000 ))
wait "$holder"
[ "$waited" -ge 1000 ] || fail "the import did not wait for the lock held by another (done in $waited ms)"
grep -q 'another import is writing' err || fail "the waiting import does not say why: $(cat err)"
for i in 1 2 3; do
  reset
  "$MEASURE" import --mlperf srcB/Acme --repo acme/results --commit "$MLPERF_COMMIT" --data data --gen "$GEN" >/dev/null 2>errB &
  pb=$!
  "$MEASURE" import --mlperf srcA/Acme --repo acme/results --commit "$MLPERF_COMMIT" --data data --gen "$GEN" >/dev/null 2>errA &
  pa=$!
  wait "$pb"; rb=$?
  wait "$pa"; ra=$?
  [ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] || fail "concurrent imports $i: exit $ra and $rb: $(cat errA errB)"
  sums data >now
  cmp -s now sumsA || cmp -s now sumsB || fail "concurrent imports $i interleaved: $(diff sumsB now | head -6)"
done

# ---- identical inputs: every file left as it was
reset
(cd data && find . -type f -printf '%P %i %T@\n' | sort) >before
imp srcA
[ "$rc" -eq 0 ] || fail "the re-import failed: $(cat err)"
(cd data && find . -type f -printf '%P %i %T@\n' | sort) >after
cmp -s before after || fail "re-importing identical inputs touched files: $(diff before after | head -6)"

finish "mlperf_import_killed: ok"
