#!/bin/sh
# Replays every input the fuzzers found a bug with (tests/fuzz/regress/<harness>/)
# and the seed corpora (tests/fuzz/corpus/<harness>/) through the fuzz
# harnesses, built without libFuzzer: tests/fuzz/regress_main.c calls
# LLVMFuzzerTestOneInput on each file.  A harness aborts on a crash or a
# broken invariant (docs/hardening.md), so this fails when a fixed bug comes
# back.  Built with the normal cc against the objects of the build under test
# ($BUILD: build, or build/asan under make asan, where it runs sanitized).
. tests/scripts/lib/preamble.sh
BUILD="${BUILD:-build}"
CC="${CC:-cc}"
[ -f "$BUILD/lib/jdoc.o" ] || { echo "no objects in $BUILD (run make first)"; exit 77; }
# The harnesses and their sources as tests/fuzz/fuzz.mk lists them (a fixed
# list here went stale when the sources moved: every object was missing and
# the test skipped).
HARNESSES=$(MAKEFLAGS= make -s --no-print-directory fuzz-harnesses) || exit 1
objs_of() { MAKEFLAGS= make -s --no-print-directory fuzz-sources-$1 | tr ' ' '\n' | sed -n "s|\(.*\)\.c\$|$BUILD/\1.o|p" | tr '\n' ' '; }
for h in $HARNESSES; do
  for o in $(objs_of "$h"); do
    [ -f "$o" ] || { echo "no $o (run make first)"; exit 77; }
  done
done
SAN=""
case "$BUILD" in *asan*) SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" ;; esac
CFLAGS="-std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Ilib -Igen -Imeasure $SAN $(pkg-config --cflags jansson libpcre2-8 libcmark-gfm 2>/dev/null)"
LIBS="$(pkg-config --libs jansson libpcre2-8 libcmark-gfm 2>/dev/null) -lcmark-gfm-extensions -lm"
LIB_OBJ=$(ls "$BUILD"/lib/*.o)
$CC $CFLAGS -c tests/fuzz/regress_main.c -o "$tmp/main.o" || exit 1
for h in $HARNESSES; do
  # the objects `make` built of the harness's sources
  objs=$(objs_of "$h")
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
