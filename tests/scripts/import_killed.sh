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
import_cmd() { "$MEASURE" import m.tsv --from "$1" --data data --gen "$GEN"; }
import_kill_setup import_killed 1

kill_loop import_killed 0.2 "$MEASURE" import m.tsv --from srcB --data data --gen "$GEN"
import_kill_after import_killed 1 4

finish "import_killed: ok"
