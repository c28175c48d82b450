#!/bin/sh
# Hostile manifests against `perfrepro-measure import` end to end (issue 31;
# docs/import.md, "What a manifest may not say").  Each is refused with exit
# 2, a message naming MANIFEST:LINE and the field or option, and writes
# nothing: neither the data folder nor any file outside it changes, in a dry
# run or not.
#   1. an env line's --out (it replaced any file with JSON, exit 0), a table
#      line's --out in a dry run, a table line's --markdown;
#   3. run name "." (it replaced all of data/runs/); a log path "--source-path"
#      (the logs follow parse's options: it forged the record's source);
#   15. a dry run refuses what the import refuses, with the same message
#      (case ".", figure 0, a 250-byte run name);
#   5. a NUL byte (it ended the manifest silently), invalid UTF-8;
#   4. two manifests with one base name: the second may not overwrite the
#      first's import-NAME.json; the first imports again.
# Skips (77) without ../shared's fixtures.
. tests/scripts/lib/preamble.sh
set -e
LOG=../shared/fixtures/logs/paddle-ips/PaddleSeg_fcn_hrnetw18_bs8_fp32_DP_N1C1_log
README=../shared/perf/DeepLabV3P/README.md
[ -f "$LOG" ] && [ -f "$README" ] || { echo "import_manifest_hostile: no ../shared fixtures: skipped"; exit 77; }
mkdir -p "$tmp/repo/data/runs/keep1/logs" "$tmp/repo/data/runs/keep2/logs" "$tmp/repo/data/published" \
  "$tmp/repo/from/H" "$tmp/repo/from/R" "$tmp/repo/a" "$tmp/repo/b"
cp -R data/platforms data/precision-classes.json "$tmp/repo/data/"
echo kept >"$tmp/repo/data/runs/keep1/logs/x"
echo kept >"$tmp/repo/data/runs/keep2/logs/x"
cp "$LOG" "$tmp/repo/from/H/log"
cp "$README" "$tmp/repo/from/R/README.md"
echo victim >"$tmp/victim"
cd "$tmp/repo"

TAB=$(printf '\t')
SRC="source${TAB}O/N${TAB}e7a07c4"
RULE='fit:{"profile": "paddle-ips", "scope": "per_card", "unit": "samples/s"}'
# A log line: run, case, figure.
line() { printf '%s\t%s\tHRNetW18\tPaddle\tV100-SXM2-32GB-x8\tfp32\t-\t1\t8\t-\tsamples/s\t%s\t%s\tH/log\n' "$1" "$2" "$RULE" "$3"; }
TABLE="table${TAB}t1${TAB}R/README.md${TAB}--after${TAB}训练吞吐率(samples/sec)${TAB}--column${TAB}FP32(BS=4)${TAB}--model${TAB}DeepLabV3plus${TAB}--framework${TAB}Paddle${TAB}--precision${TAB}fp32${TAB}--batch-size${TAB}4${TAB}--unit${TAB}samples/s${TAB}--platform${TAB}V100-SXM2-32GB-x8"

sums() { (cd "$tmp" && find repo/data victim t2 -type f -exec sha256sum {} + 2>/dev/null | sort); }
imp() { "$MEASURE" import "$@" --from from --gen "$GEN"; }

# refused WHAT WORD... : the import of m.tsv (plus the options in $OPTS)
# exits 2 naming each WORD, and nothing changed.
refused() {
  what=$1
  shift
  sums >"$tmp/before"
  st=0
  imp m.tsv $OPTS >"$tmp/out" 2>"$tmp/err" || st=$?
  [ "$st" = 2 ] || die "$what: exit $st, not 2 (refused): $(cat "$tmp/out" "$tmp/err" | tail -5)"
  for w in "$@"; do
    grep -qF -- "$w" "$tmp/err" || die "$what: \"$w\" not in: $(cat "$tmp/err")"
  done
  sums >"$tmp/after"
  cmp -s "$tmp/before" "$tmp/after" || die "$what: wrote: $(diff "$tmp/before" "$tmp/after" | head -5)"
}

# A plain manifest imports (the fixture works).
# (Its typed figure needs a page that prints it: the import validates what
# it writes, and a fit report's figure must be in a published table.)
{ echo "$SRC"; printf 'published\tR/README.md\tTyped\n'; line r1 c1 19.428; } >m.tsv
OPTS= imp m.tsv >"$tmp/out" 2>&1 || die "a plain import failed: $(cat "$tmp/out")"
[ -f data/runs/r1/logs/index/c1_speed ] || die "a plain import wrote no record"

# 1. A line's options may not re-point the import's own output or input.
{ echo "$SRC"; line r1 c1 19.428; printf 'env\te1\tR/README.md\t--section\t环境介绍\t--out\t%s\n' "$tmp/victim"; } >m.tsv
OPTS= refused "env --out" "m.tsv:3:" "--out"
OPTS=--dry-run refused "env --out, dry run" "m.tsv:3:" "--out"
{ echo "$SRC"; line r1 c1 19.428; printf '%s\t--out\t%s\n' "$TABLE" "$tmp/t2"; } >m.tsv
OPTS=--dry-run refused "table --out, dry run" "m.tsv:3:" "--out"
[ ! -e "$tmp/t2" ] || die "a dry run's table line wrote $tmp/t2"
{ echo "$SRC"; line r1 c1 19.428; printf '%s\t--markdown\t/etc/passwd\n' "$TABLE"; } >m.tsv
OPTS= refused "table --markdown" "m.tsv:3:" "--markdown"

# A log path starting with '-' is an option of parse (the logs follow its
# options): "--source-path forged" forged the record's source path, exit 0.
cp from/H/log from/--source-path
cp from/H/log from/forged
{ echo "$SRC"; printf 'r1\tc1\tHRNetW18\tPaddle\tV100-SXM2-32GB-x8\tfp32\t-\t1\t8\t-\tsamples/s\t%s\t-\tH/log\t--source-path\tforged\n' '{"profile": "paddle-ips", "scope": "per_card", "unit": "samples/s"}'; } >m.tsv
OPTS= refused "a log --source-path" "m.tsv:2:" "log"

# 3. Run name "." would be data/runs/ itself.
{ echo "$SRC"; line . c1 19.428; } >m.tsv
OPTS= refused "run ." "m.tsv:2:" "run"
[ -f data/runs/keep1/logs/x ] && [ -f data/runs/keep2/logs/x ] || die "run . removed other run sets"

# 15. A dry run refuses what the import refuses, with the same message.
long=$(printf '%0250d' 0 | tr 0 r)
for bad in "run-ok . 19.428" "run-ok c1 0" "$long c1 19.428"; do
  set -- $bad
  { echo "$SRC"; line "$1" "$2" "$3"; } >m.tsv
  OPTS=--dry-run refused "dry run of $1 $2 $3" "m.tsv:2:"
  cp "$tmp/err" "$tmp/err.dry"
  OPTS= refused "import of $1 $2 $3" "m.tsv:2:"
  cmp -s "$tmp/err" "$tmp/err.dry" || die "the dry run and the import refuse $bad differently: $(cat "$tmp/err.dry" "$tmp/err")"
done

# 5. A NUL byte, invalid UTF-8: refused naming the line (the lines after a
# NUL were silently dropped, and a re-import deleted their cases).
{ echo "$SRC"; line r1 c1 19.428; printf 'r1\tc2\0'; line r1 c3 19.428; } >m.tsv
OPTS= refused "NUL" "m.tsv:3:" "NUL"
{ echo "$SRC"; line r1 c1 19.428; printf 'mission\tHRNetW18\t\377\t0\n'; } >m.tsv
OPTS= refused "invalid UTF-8" "m.tsv:3:" "UTF-8"

# 4. Two manifests named x.tsv: the second may not take the first's
# import-x.json; the first imports again.  (The plain import's table and run
# set go first: the same configuration typed twice is a duplicate table.)
rm -rf data/published/import-m.json data/runs/r1
{ echo "$SRC"; printf 'published\tR/README.md\tA title\n'; line ra c1 19.428; } >a/x.tsv
{ echo "$SRC"; printf 'published\tR/README.md\tB title\n'; line rb c1 19.428; } >b/x.tsv
imp a/x.tsv >"$tmp/out" 2>&1 || die "a/x.tsv: $(cat "$tmp/out")"
grep -q 'A title' data/published/import-x.json || die "a/x.tsv wrote no import-x.json"
cp data/published/import-x.json "$tmp/a.json"
for o in --dry-run ""; do
  st=0
  imp b/x.tsv $o >"$tmp/out" 2>"$tmp/err" || st=$?
  [ "$st" = 2 ] || die "b/x.tsv $o: exit $st, not 2: $(cat "$tmp/err")"
  grep -qF 'import-x.json already holds the figures of another manifest' "$tmp/err" ||
    die "b/x.tsv $o: $(cat "$tmp/err")"
done
cmp -s data/published/import-x.json "$tmp/a.json" || die "b/x.tsv overwrote a/x.tsv's import-x.json"
[ ! -e data/runs/rb ] || die "b/x.tsv wrote its run set before being refused"
imp a/x.tsv >"$tmp/out" 2>&1 || die "a/x.tsv again: $(cat "$tmp/out")"
cmp -s data/published/import-x.json "$tmp/a.json" || die "a/x.tsv again changed its import-x.json"
echo "import_manifest_hostile: ok"
