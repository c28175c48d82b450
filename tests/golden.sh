#!/bin/sh
# Golden files: tests/golden/data rendered by perfrepro-gen must equal
# tests/golden/expected byte for byte.
#   tests/golden.sh check   (a test: exit 0 when equal)
#   tests/golden.sh regen   (make regen: rewrite the expected files)
set -eu
GEN="${GEN:-bin/perfrepro-gen}"
mode="${1:-check}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Render into the same relative place as the expected tree, so log links
# (relative paths into tests/golden/data) are the same.
mkdir -p "$out/tests/golden"
ln -s "$PWD/tests/golden/data" "$out/tests/golden/data"
ln -s "$PWD/templates" "$out/templates"
(cd "$out" && "$OLDPWD/$GEN" build --data tests/golden/data --templates templates --out tests/golden/expected)
case "$mode" in
  regen)
    rm -rf tests/golden/expected
    cp -R "$out/tests/golden/expected" tests/golden/expected
    echo "golden: rewrote tests/golden/expected" ;;
  check)
    if ! diff -ru tests/golden/expected "$out/tests/golden/expected"; then
      echo "golden: generated Markdown differs from tests/golden/expected (make regen rewrites it)" >&2
      exit 1
    fi ;;
  *) echo "usage: $0 check|regen" >&2; exit 2 ;;
esac
