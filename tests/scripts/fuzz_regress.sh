#!/bin/sh
# Replays every input the fuzzers found a bug with (tests/fuzz/regress/<harness>/)
# and the seed corpora (tests/fuzz/corpus/<harness>/) through the fuzz
# harnesses, built without libFuzzer: tests/fuzz/regress_main.c calls
# LLVMFuzzerTestOneInput on each file.  A harness aborts on a crash or a
# broken invariant (docs/hardening.md), so this fails when a fixed bug comes
# back.  Built with the normal cc against the objects of the build under test
# ($BUILD: build, or build/asan under make asan, where it runs sanitized).
set -u
BUILD="${BUILD:-build}"
CC="${CC:-cc}"
[ -f "$BUILD/lib/jdoc.o" ] || { echo "no objects in $BUILD (run make first)"; exit 77; }
for o in gen/1-load/data gen/1-load/comparisons gen/1-load/history_decl gen/1-load/fitfile gen/1-load/runset gen/1-load/pairing gen/1-load/srcenv gen/template/mustache gen/template/mustache_parse gen/6-output/check gen/6-output/checkpage gen/6-output/cmarkx gen/base/md measure/parse measure/parse_lines measure/parse_tables measure/numbers measure/rule measure/logscan measure/logfacts measure/logfacts_args measure/explain measure/fit measure/fitcalc measure/fitreport measure/parsetrace measure/recmark measure/import_manifest; do
  [ -f "$BUILD/$o.o" ] || { echo "no $BUILD/$o.o (run make first)"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SAN=""
case "$BUILD" in *asan*) SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" ;; esac
CFLAGS="-std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Ilib -Igen -Imeasure $SAN $(pkg-config --cflags jansson libpcre2-8 libcmark-gfm 2>/dev/null)"
LIBS="$(pkg-config --libs jansson libpcre2-8 libcmark-gfm 2>/dev/null) -lcmark-gfm-extensions -lm"
LIB_OBJ=$(ls "$BUILD"/lib/*.o)
fails=0
$CC $CFLAGS -c tests/fuzz/regress_main.c -o "$tmp/main.o" || exit 1
for h in fuzz_data fuzz_parse fuzz_mustache fuzz_check fuzz_manifest; do
  # The harness's sources as tests/fuzz/fuzz.mk lists them, as the objects
  # `make` built.
  objs=$(MAKEFLAGS= make -s --no-print-directory fuzz-sources-$h | tr ' ' '\n' | sed -n "s|\(.*\)\.c\$|$BUILD/\1.o|p" | tr '\n' ' ')
  # shellcheck disable=SC2086
  if ! $CC $CFLAGS -o "$tmp/$h" tests/fuzz/$h.c "$tmp/main.o" $objs $LIB_OBJ $LIBS; then
    echo "FAIL: $h does not build"; fails=$((fails + 1)); continue
  fi
  set --
  [ -d tests/fuzz/regress/$h ] && set -- "$@" tests/fuzz/regress/$h
  [ -d tests/fuzz/corpus/$h ] && set -- "$@" tests/fuzz/corpus/$h
  [ $# -gt 0 ] || continue
  if out=$(ASAN_OPTIONS=detect_leaks=1 "$tmp/$h" "$@" 2>&1); then
    echo "$h: $(echo "$out" | tail -n 1)"
  else
    echo "$out" | tail -n 40
    echo "FAIL: $h: an input crashed or broke an invariant"
    fails=$((fails + 1))
  fi
done
[ "$fails" -eq 0 ]
