#!/bin/sh
# The unit tests that read the shared data (../shared, or $PERFREPRO_SHARED)
# count as skipped, each with its reason, when it is absent: run with an
# empty shared folder, every binary reports as many tests (tested + skipped)
# as with the real one, and every test missing from "tested" is a [SKIP]
# line naming the folder.  (They once vanished from the counts: measure_parse
# 76/76 became 51/51 with "0 skipped".)
# Skipped (77) without ../shared or the unit binaries (make test builds them).
. tests/scripts/lib/preamble.sh
BUILD="${BUILD:-build}"
SHARED="${PERFREPRO_SHARED:-../shared}"
[ -d "$SHARED/fixtures" ] && [ -d "$SHARED/perf" ] || { echo "no $SHARED/fixtures or $SHARED/perf"; exit 77; }
mkdir "$tmp/empty"
ran=0
# "TESTED SKIPPED" of a binary's run, the log in $tmp/log
counts() {
  "$1" --jobs=2 --verbose >"$tmp/log" 2>&1
  t=$(sed -n 's/.*Synthesis: Tested: \([0-9]*\).*/\1/p' "$tmp/log" | tail -n 1)
  echo "${t:-x} $(grep -c '^\[SKIP\]' "$tmp/log")"
}
# Every binary whose source finds the shared data.
for src in $(grep -l 'PERFREPRO_SHARED' tests/unit/*.c); do
  name=$(basename "$src" .c)
  bin="$BUILD/tests/$name"
  [ -x "$bin" ] || { echo "$bin not built: skipped"; continue; }
  ran=$((ran + 1))
  set -- $(PERFREPRO_SHARED="$SHARED" counts "$bin")
  with_t=$1 with_s=$2
  set -- $(PERFREPRO_SHARED="$tmp/empty" counts "$bin")
  without_t=$1 without_s=$2
  [ "$with_t" != x ] && [ "$without_t" != x ] || { fail "$name: no synthesis"; cat "$tmp/log"; continue; }
  [ $((with_t + with_s)) -eq $((without_t + without_s)) ] ||
    fail "$name: $with_t tested + $with_s skipped with $SHARED, $without_t + $without_s without"
  [ "$without_s" -gt "$with_s" ] || fail "$name: nothing skipped without the shared data"
  # each skip names the missing folder
  n=$(grep '^\[SKIP\]' "$tmp/log" | grep -c "$tmp/empty/")
  [ "$n" -eq "$without_s" ] || { fail "$name: $((without_s - n)) skip(s) without the folder as reason"; grep '^\[SKIP\]' "$tmp/log"; }
  echo "$name: $with_t tested + $with_s skipped with, $without_t + $without_s without"
done
[ "$ran" -gt 0 ] || { echo "no unit binaries in $BUILD/tests"; exit 77; }
finish "unit skips counted: ok ($ran binaries)"
