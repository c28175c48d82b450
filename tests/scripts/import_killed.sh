#!/bin/sh
# perfrepro-measure import killed, run twice at once, and run again
# (issue 31 items 6 and 16; docs/import.md, "Files and folders"):
#   - SIGKILL at 20 random instants of an import that replaces two run sets
#     and a published file: the data folder is always exactly the old one or
#     exactly the new one (checksums of every file), gen validates it, and
#     the next import completes and leaves nothing beside it;
#   - a second import waits for the lock of the first (held here by
#     flock(1)), and two imports at once leave one whole generation;
#   - re-importing identical inputs leaves every file as it was (inode and
#     mtime), so that make reports has nothing to redo.
# Self-contained (no ../shared).
. tests/scripts/lib/preamble.sh
need_bins GEN MEASURE
command -v flock >/dev/null || { echo "import_killed: no flock(1): skipped"; exit 77; }
. "$ROOT/tests/data/import_kill.sh"
cd "$tmp"
mkdir -p data srcA/logs srcB/logs
cp -R "$ROOT/data/platforms" data/
for v in A:10 B:20; do
  src=src${v%%:*} base=${v#*:}
  for g in 1 2 4 8; do
    awk -v b="$base" -v g="$g" 'BEGIN { for (i = 0; i < 400; i++) printf "step %d, ips: %d%d.0 samples/sec\n", i, b * g, i % 10 }' >"$src/logs/g$g.log"
  done
  echo "licence $v" >"$src/LICENSE"
done
RULE='{"keyword": "ips:", "scope": "global"}'
line() { printf '%s\t%s\tM\tF\tV100-SXM2-32GB-x8\tfp32\t1\t%s\t8\t-\tsamples/s\t%s\t%s\tlogs/g%s.log\n' "$1" "$2" "$3" "$RULE" "$4" "$3"; }
{ printf 'source\to/r\t0123456789abcdef0123456789abcdef01234567\npublished\tREADME.md\tThe page\n'
  line r1 c1 1 104.5; line r1 c2 2 204.5; line r2 c4 4 404.5; line r2 c8 8 804.5; } >m.tsv
imp() { "$MEASURE" import m.tsv --from "$1" --data data --gen "$GEN" >/dev/null 2>err; rc=$?; }
sums() { (cd "$1" && find . -type f -exec sha256sum {} + | sort); }
imp srcA
[ "$rc" -le 1 ] || { echo "import_killed: the first import failed: $(cat err)"; exit 1; }
cp -a data dataA
sums dataA >sumsA
start=$(date +%s%N)
imp srcB
took=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$rc" -le 1 ] || { echo "import_killed: the second import failed: $(cat err)"; exit 1; }
sums data >sumsB
cmp -s sumsA sumsB && { echo "import_killed: the two sources give the same data"; exit 1; }
reset() { rm -rf data && cp -a dataA data; }

# ---- killed at random instants of the import (0 to 1.2 times its duration)
kill_loop import_killed 0.2 "$MEASURE" import m.tsv --from srcB --data data --gen "$GEN"
imp srcB
[ "$rc" -le 1 ] || fail "the import after the kills: $(cat err)"
sums data >now
cmp -s now sumsB || fail "the import after the kills differs: $(diff sumsB now | head -5)"
left=$(ls -a | grep '^\.data\.\(staging\|old\)\.' || true)
[ -z "$left" ] || fail "left beside data after the import: $left"

# ---- one import at a time
reset
rm -f held
flock .data.import.lock sh -c ': >held; sleep 4' &
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
  "$MEASURE" import m.tsv --from srcB --data data --gen "$GEN" >/dev/null 2>errB &
  pb=$!
  "$MEASURE" import m.tsv --from srcA --data data --gen "$GEN" >/dev/null 2>errA &
  pa=$!
  wait "$pb"; rb=$?
  wait "$pa"; ra=$?
  [ "$ra" -le 1 ] && [ "$rb" -le 1 ] || fail "concurrent imports $i: exit $ra and $rb: $(cat errA errB)"
  sums data >now
  cmp -s now sumsA || cmp -s now sumsB || fail "concurrent imports $i interleaved: $(diff sumsB now | head -6)"
done

# ---- identical inputs: every file left as it was
reset
(cd data && find . -type f -printf '%P %i %T@\n' | sort) >before
imp srcA
[ "$rc" -le 1 ] || fail "the re-import failed: $(cat err)"
(cd data && find . -type f -printf '%P %i %T@\n' | sort) >after
cmp -s before after || fail "re-importing identical inputs touched files: $(diff before after | head -6)"

finish "import_killed: ok"
