#!/bin/sh
# Re-importing the shipped PaddlePaddle/Perf logs with scripts/import-perf-logs.sh
# (perfrepro-measure import per manifest scripts/perf-logs/SHIPPED lists;
# a user's own manifest beside them is not run, its run sets left as they
# are) reproduces the
# shipped data byte for byte: data/runs/perf-*, and the README tables and
# environments deeplabv3plus.tsv names, and leaves every file's inode and
# mtime as they were.  Runs in a copy; skips (77) without the snapshot in
# ../shared/perf.
set -eu
MEASURE="${MEASURE:-bin/perfrepro-measure}"
ROOT=$(pwd)
fail() { echo "import_perf_reimport: $*" >&2; exit 1; }
[ -f ../shared/perf/MANIFEST ] || { echo "import_perf_reimport: no ../shared/perf: skipped"; exit 77; }
case $MEASURE in /*) ;; *) MEASURE=$ROOT/$MEASURE ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/scripts"
cp -R data "$T/"
cp -R scripts/perf-logs scripts/import-perf-logs.sh "$T/scripts/"
PERF=$(cd ../shared/perf && pwd)
stamps() { (cd "$1" && find . -type f -printf '%P %i %T@\n' | sort); }
stamps "$T/data" >"$T/before"
(cd "$T" && MEASURE=$MEASURE sh scripts/import-perf-logs.sh "$PERF") >"$T/out" 2>&1 ||
  fail "the import failed: $(tail -5 "$T/out")"
d=$(diff -r data "$T/data" | head -20) || true
[ -z "$d" ] || fail "the re-import differs from the shipped data: $d"
# Identical inputs leave every file as it was (docs/import.md: twice is once),
# so that make reports has nothing to redo.
stamps "$T/data" >"$T/after"
d=$(diff "$T/before" "$T/after" | head -10) || true
[ -z "$d" ] || fail "the re-import touched files whose bytes did not change: $d"
echo "import_perf_reimport: ok"
