#!/bin/sh
# Pages built on several threads (build --jobs, gen/6-output/pagejobs.c):
#  1. the shipped data, charts included, gives the same bytes with one
#     thread and with four (and with the default, one per processor);
#  2. a page late in page order that fails (Chinese on the English page of
#     ResNet50/NGC-PyTorch, the one framework with a history link) is
#     reported with the same message whatever the threads, and nothing is
#     written;
#  3. --jobs takes a whole number from 1 to 8 only.
# `make tsan` runs it with a ThreadSanitizer build (GEN=build/tsan/...).
. tests/scripts/lib/preamble.sh
set -e
need_bins GEN
t=$tmp
ln -s "$PWD/data" "$t/data"
cp -R templates "$t/templates"

for j in 1 4 default; do
  opt="--jobs $j"; [ "$j" = default ] && opt=""
  # shellcheck disable=SC2086
  (cd "$t" && "$GEN" build $opt --out "out-$j" >/dev/null)
done
diff -r "$t/out-1" "$t/out-4"
diff -r "$t/out-1" "$t/out-default"

# 2: one page late in order fails its language check.
printf '{{#history_link}}\n混合的一句话。\n{{/history_link}}\n' >>"$t/templates/en/framework.mustache"
for j in 1 4; do
  if (cd "$t" && "$GEN" build --jobs "$j" --no-charts --out "bad-$j" >/dev/null 2>"err-$j"); then
    echo "--jobs $j: the build passed a page with Chinese on an English page" >&2; exit 1
  fi
  [ ! -e "$t/bad-$j" ] || { echo "--jobs $j: a failed build wrote $t/bad-$j" >&2; exit 1; }
done
grep -q 'ResNet50/NGC-PyTorch/.*Chinese on an English page' "$t/err-1" || {
  echo "the error does not name the failing page:" >&2; cat "$t/err-1" >&2; exit 1; }
cmp "$t/err-1" "$t/err-4" || {
  echo "four threads report another error than one:" >&2; cat "$t/err-1" "$t/err-4" >&2; exit 1; }

# 3: --jobs is checked.
for bad in 0 9 x 2x -1 ""; do
  if (cd "$t" && "$GEN" build --jobs "$bad" --no-charts --out bad >/dev/null 2>"$t/err"); then
    echo "--jobs '$bad' was taken" >&2; exit 1
  fi
  grep -q -- "--jobs" "$t/err" || { echo "--jobs '$bad': no word of --jobs:" >&2; cat "$t/err" >&2; exit 1; }
done
finish "gen_parallel: ok"
