#!/bin/sh
# make reports is deterministic: generating the shipped data twice into fresh
# folders gives the same bytes, and the same bytes as the committed reports/.
. tests/scripts/lib/preamble.sh
set -e
a="$tmp/a" b="$tmp/b"
mkdir "$a" "$b"
for d in "$a" "$b"; do
  ln -s "$PWD/data" "$d/data"
  ln -s "$PWD/templates" "$d/templates"
  (cd "$d" && "$GEN" build --out reports)
done
diff -r "$a/reports" "$b/reports"
diff -r reports "$a/reports" || {
  echo "the committed reports/ is not what the data generates: run make reports" >&2; exit 1; }
