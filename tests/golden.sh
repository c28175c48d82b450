#!/bin/sh
# Golden files.
#   gen:     tests/golden/data rendered by perfrepro-gen must equal
#            tests/golden/expected byte for byte;
#   measure: `perfrepro-measure parse` with the arguments in each
#            tests/golden/measure/NAME.cmd (--explain, --fit on the logs
#            beside them) must print NAME.out (stdout and stderr, then
#            "exit N").
#   tests/golden.sh check [gen|measure]   (a test: exit 0 when equal; both
#                                          when neither is named)
#   tests/golden.sh regen                 (make regen: rewrite the expected files)
set -eu
GEN="${GEN:-bin/perfrepro-gen}"
MEASURE="${MEASURE:-bin/perfrepro-measure}"
mode="${1:-check}"
what="${2:-all}"
case "$mode" in
  check|regen) ;;
  *) echo "usage: $0 check|regen [gen|measure]" >&2; exit 2 ;;
esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fails=0

if [ "$what" = all ] || [ "$what" = measure ]; then
  for cmd in tests/golden/measure/*.cmd; do
    [ -e "$cmd" ] || continue
    name=${cmd%.cmd}
    # the arguments are shell words, as they would be typed
    eval "set -- $(cat "$cmd")"
    rc=0
    "$MEASURE" parse "$@" >"$out/measure.out" 2>&1 || rc=$?
    echo "exit $rc" >>"$out/measure.out"
    if [ "$mode" = regen ]; then
      cp "$out/measure.out" "$name.out"
    elif ! diff -u "$name.out" "$out/measure.out"; then
      echo "golden: perfrepro-measure parse $(cat "$cmd") differs from $name.out (make regen rewrites it)" >&2
      fails=1
    fi
  done
  [ "$mode" = regen ] && echo "golden: rewrote tests/golden/measure/*.out"
fi

if [ "$what" = all ] || [ "$what" = gen ]; then
  # Render into the same relative place as the expected tree, so log links
  # (relative paths into tests/golden/data) are the same.
  mkdir -p "$out/tests/golden"
  ln -s "$PWD/tests/golden/data" "$out/tests/golden/data"
  ln -s "$PWD/templates" "$out/templates"
  (cd "$out" && "$OLDPWD/$GEN" build --data tests/golden/data --templates templates --out tests/golden/expected)
  if [ "$mode" = regen ]; then
    rm -rf tests/golden/expected
    cp -R "$out/tests/golden/expected" tests/golden/expected
    echo "golden: rewrote tests/golden/expected"
  elif ! diff -ru tests/golden/expected "$out/tests/golden/expected"; then
    echo "golden: generated Markdown differs from tests/golden/expected (make regen rewrites it)" >&2
    fails=1
  fi
fi
exit $fails
