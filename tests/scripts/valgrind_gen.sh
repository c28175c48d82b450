#!/bin/sh
# Valgrind memcheck on perfrepro-gen: no invalid access, no use of
# uninitialised memory, no definite or indirect leak.
#   - build of the shipped data/ into a temporary folder, without charts
#     (a second build over the first: the unchanged-file path), then validate;
#   - PERFREPRO_SLOW=1 adds the build with charts (Pango, Cairo, zlib: about
#     45 s under valgrind), with tests/valgrind.supp for fontconfig's caches.
# Skipped (77) when valgrind is not installed or under make asan.
. tests/scripts/lib/preamble.sh
need_bins GEN
command -v valgrind >/dev/null 2>&1 || { echo "valgrind is not installed"; exit 77; }
case "$GEN" in *asan*) echo "valgrind does not run ASan binaries"; exit 77 ;; esac
vg() {
  name=$1; shift
  valgrind --quiet --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
    --suppressions=tests/valgrind.supp --num-callers=30 "$@" >"$tmp/out" 2>"$tmp/vg"
  rc=$?
  if [ $rc -eq 99 ] || grep -q '^==[0-9]*== [A-Z]' "$tmp/vg"; then
    cat "$tmp/vg"; echo "FAIL: $name: valgrind reports errors"; fails=$((fails + 1))
  elif [ $rc -ne 0 ]; then
    tail -n 5 "$tmp/vg"; echo "FAIL: $name: exit $rc"; fails=$((fails + 1))
  else
    echo "$name: clean"
  fi
}
vg "gen build --no-charts" "$GEN" build --data data --templates templates --out "$tmp/r" --no-charts
vg "gen build --no-charts (again)" "$GEN" build --data data --templates templates --out "$tmp/r" --no-charts
vg "gen validate" "$GEN" validate --data data
if [ "${PERFREPRO_SLOW:-}" = 1 ]; then
  vg "gen build (charts)" "$GEN" build --data data --templates templates --out "$tmp/rc"
else
  echo "gen build with charts: skipped (PERFREPRO_SLOW=1 runs it, about 45 s)"
fi
[ $fails -eq 0 ]
