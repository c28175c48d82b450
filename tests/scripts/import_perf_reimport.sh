#!/bin/sh
# Re-importing the shipped PaddlePaddle/Perf logs with scripts/import-perf-logs.sh
# (perfrepro-measure import per manifest scripts/perf-logs/SHIPPED lists;
# a user's own manifest beside them is not run, its run sets left as they
# are) reproduces the
# shipped data byte for byte: data/runs/perf-*, and the README tables and
# environments deeplabv3plus.tsv names, and leaves every file's inode and
# mtime as they were.  Runs in a copy; skips (77) without the snapshot in
# ../shared/perf.
. tests/scripts/lib/preamble.sh
set -e
[ -f ../shared/perf/MANIFEST ] || { echo "import_perf_reimport: no ../shared/perf: skipped"; exit 77; }
mkdir -p "$tmp/scripts"
cp -R data "$tmp/"
cp -R scripts/perf-logs scripts/import-perf-logs.sh "$tmp/scripts/"
PERF=$(cd ../shared/perf && pwd)
stamps() { (cd "$1" && find . -type f -printf '%P %i %T@\n' | sort); }
stamps "$tmp/data" >"$tmp/before"
(cd "$tmp" && MEASURE=$MEASURE sh scripts/import-perf-logs.sh "$PERF") >"$tmp/out" 2>&1 ||
  die "the import failed: $(tail -5 "$tmp/out")"
d=$(diff -r data "$tmp/data" | head -20) || true
[ -z "$d" ] || die "the re-import differs from the shipped data: $d"
# Identical inputs leave every file as it was (docs/import.md: twice is once),
# so that make reports has nothing to redo.
stamps "$tmp/data" >"$tmp/after"
d=$(diff "$tmp/before" "$tmp/after" | head -10) || true
[ -z "$d" ] || die "the re-import touched files whose bytes did not change: $d"
echo "import_perf_reimport: ok"
