#!/bin/sh
# Every suite in data/suites is runnable as shipped: perfrepro-measure loads
# it, compiles its parse rule and expands every case's command (--dry-run
# runs nothing and writes nothing).
set -eu
MEASURE="${MEASURE:-bin/perfrepro-measure}"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=0
for suite in $(find data/suites -name '*.json' | LC_ALL=C sort); do
  if ! "$MEASURE" run "$suite" --dry-run --out "$t/out" >"$t/log" 2>&1; then
    cat "$t/log"; echo "FAILED: $suite"; exit 1
  fi
  grep -q "PERFREPRO_CASE=" "$t/log" || { cat "$t/log"; echo "no command printed for $suite"; exit 1; }
  [ ! -e "$t/out/logs/index" ] || { echo "--dry-run wrote records for $suite"; exit 1; }
  n=$((n + 1))
done
[ "$n" -ge 10 ] || { echo "expected the shipped suites, found $n"; exit 1; }
echo "ok: $n suites"
