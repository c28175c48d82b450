#!/bin/sh
# Runs every test: the Criterion unit binaries given as arguments, then every
# tests/scripts/*.sh (exit 0 pass, 77 skip, anything else fail).  Ends with
# one summary line "tests: N passed, N failed, N skipped".
# Environment: GEN and MEASURE name the binaries under test;
# PERFREPRO_SHARED the shared data (../shared by default): the tests that read
# it count as skipped, with the reason, when it is absent.
set -u
export GEN="${GEN:-bin/perfrepro-gen}" MEASURE="${MEASURE:-bin/perfrepro-measure}"
# A known baseline whatever the caller's terminal, language and time zone
# (a user's TERM=dumb once failed a test that expected colours).  Each test
# still sets what it relies on (tests/scripts/env_hostile.sh re-runs the
# sensitive ones under a hostile environment).
export LC_ALL=C TZ=UTC
unset NO_COLOR CLICOLOR CLICOLOR_FORCE LANGUAGE
passed=0 failed=0 skipped=0 failures=""
log=$(mktemp)
# Seconds since t0, one decimal: each line says how long its test took
# (CONTRIBUTING.md's table of tests by folder is read off these).
now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }
trap 'rm -f "$log"' EXIT
for bin in "$@"; do
  name=$(basename "$bin")
  # --verbose: Criterion prints its [SKIP] lines (with their reason) only
  # then; without them a skipped test vanished from every count.
  t0=$(now)
  "$bin" --jobs=2 --verbose >"$log" 2>&1
  rc=$?
  synth=$(grep 'Synthesis:' "$log" | tail -n 1)
  t=$(echo "$synth" | sed -n 's/.*Tested: \([0-9]*\).*/\1/p')
  p=$(echo "$synth" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
  s=$(grep -c '\[SKIP\]' "$log")
  if [ -z "$t" ]; then
    cat "$log"
    failed=$((failed + 1)); failures="$failures $name(no-synthesis,rc=$rc)"
    continue
  fi
  # Criterion's Tested and Passing counts leave skipped tests out.
  f=$((t - p))
  passed=$((passed + p)); skipped=$((skipped + s)); failed=$((failed + f))
  if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
    cat "$log"
    [ "$f" -eq 0 ] && failed=$((failed + 1))
    failures="$failures $name"
  fi
  echo "unit $name: $p/$t passed, $s skipped (rc=$rc, $(took "$t0"))"
  # each reason once, with how many tests it skipped
  sed -n 's/^\[SKIP\] [^ ]*: //p' "$log" | sort | uniq -c | sed 's/^ *\([0-9]*\) /  skipped \1: /'
done
# TEST_SCRIPTS: the scripts to run (make test-quick names a few); all by default.
for script in ${TEST_SCRIPTS:-tests/scripts/*.sh}; do
  [ -e "$script" ] || continue
  name=$(basename "$script" .sh)
  t0=$(now)
  sh "$script" >"$log" 2>&1
  rc=$?
  case $rc in
    0) passed=$((passed + 1)); echo "script $name: ok ($(took "$t0"))" ;;
    77) skipped=$((skipped + 1)); echo "script $name: skipped: $(tail -n 1 "$log")" ;;
    *) failed=$((failed + 1)); failures="$failures $name"; cat "$log"; echo "script $name: FAILED (rc=$rc)" ;;
  esac
done
[ -n "$failures" ] && echo "failing:$failures"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
