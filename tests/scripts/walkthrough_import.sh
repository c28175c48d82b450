#!/bin/sh
# docs/walkthrough-import.md, run as written: its prep block and its (at most
# three) commands, read from the page, in a copy of the repository's data
# (data/ itself is never touched); then the audit lines of HRNetW18's two
# figures.  Also: --dry-run writes nothing, a second import changes nothing,
# nodes that do not divide and bad manifest lines are errors naming
# FILE:LINE: FIELD and write nothing.  Skips (77) without ../shared.
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
set -e
DOC=docs/walkthrough-import.md
[ -d ../shared/fixtures/logs ] && [ -f ../shared/perf/LICENSE ] ||
  { echo "walkthrough_import: no ../shared fixtures: skipped"; exit 77; }
# The repository as the page expects it: data, templates, the manifest, bin/;
# ../shared beside it.
repo_copy
mkdir -p "$tmp/repo/docs/examples"
cp docs/examples/hrnetw18.tsv "$tmp/repo/docs/examples/"
ln -s "$(cd ../shared && pwd)" "$tmp/shared"

# The sh block after a marker line of the page.
block() {
  awk -v m="<!-- walkthrough:$1 -->" '
    $0 == m { on = 1; next }
    on && /^```sh$/ { inb = 1; next }
    inb && /^```$/ { exit }
    inb { print }' "$DOC"
}
block prep >"$tmp/prep.sh"
block commands >"$tmp/commands.sh"
[ -s "$tmp/prep.sh" ] || die "$DOC: no prep block"
n=$(grep -cv '^[[:space:]]*\(#.*\)\{0,1\}$' "$tmp/commands.sh")
[ "$n" -ge 1 ] && [ "$n" -le 3 ] || die "$DOC: $n commands (1 to 3 expected)"

# The example's run sets are not the shipped import's (perf-*: import-perf-logs.sh
# rebuilds those), so following the page never collides with it.
grep -q '^perf-' docs/examples/hrnetw18.tsv && die "docs/examples/hrnetw18.tsv: a perf-* run set"

sums() { (cd "$tmp/repo" && find data -type f -exec sha256sum {} + | sort); }
cd "$tmp/repo"
sh -e "$tmp/prep.sh" || die "the prep block failed"

# A dry run plans and writes nothing.
sums >"$tmp/before"
"$MEASURE" import docs/examples/hrnetw18.tsv --from perf-hrnet --dry-run >"$tmp/plan" ||
  die "the dry run failed"
sums >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || die "the dry run wrote: $(diff "$tmp/before" "$tmp/after" | head -5)"
grep -q 'hrnetw18_bs8_fp32_gpu1 .* 19\.42814375 *figure 19\.428 *reproduced' "$tmp/plan" ||
  die "the plan does not show 19.428 reproduced: $(cat "$tmp/plan")"
grep -q 'rule (found with --fit over its figures): {"profile":"mmseg"' "$tmp/plan" ||
  die "the plan does not show the mmseg rule found"

# The page's commands.
sh -e "$tmp/commands.sh" >"$tmp/out" 2>&1 || die "the walkthrough's commands failed: $(tail -20 "$tmp/out")"
a=reports/AUDIT.en.md
grep -q '^### HRNetW18 · V100-SXM2-32GB × 8' "$a" || die "$a: no HRNetW18 section"
grep -F 'Paddle | FP32 BS=8 | 1 node × 1 GPU | [19.428†]' "$a" | grep -F '[19.428144‡]' |
  grep -qF '✅ reproduced' || die "$a: no reproduced line for Paddle's 19.428"
grep -F 'mmsegmentation | FP32 BS=8 | 1 node × 1 GPU | [15.49†]' "$a" | grep -F '[15.48530‡]' |
  grep -qF "✅ reproduced" || die "$a: no reproduced line for mmsegmentation's 15.49: $(grep -F "mmsegmentation | FP32" "$a")"
grep -qF 'imported by `perfrepro-measure import docs/examples/hrnetw18.tsv`' "$a" ||
  die "$a: does not name the import"
grep -qF '15.48530‡' "$tmp/out" || die "the commands' output does not show the audit lines"
f=data/runs/example-HRNetW18-Paddle-V100-SXM2-32GB-x8
grep -q '"HRNetW18/logs/paddle/PaddleSeg_fcn_hrnetw18_bs8_fp32_DP_N1C1_log"' "$f/fit/hrnetw18_bs8_fp32_gpu1.json" ||
  die "$f: the fit report does not name the log by its path in the source"
grep -q perf-hrnet "$f/fit/hrnetw18_bs8_fp32_gpu1.json" "$f/logs/index/"* "$f/SOURCE.md" &&
  die "$f: the local folder's name was kept"
cmp -s "$f/LICENSE" ../shared/perf/LICENSE || die "$f: no LICENSE"
[ -f reports/HRNetW18/README.en.md ] || die "no HRNetW18 page"
# One command, really: the Paddle page has the steps its log echoes (suite.json
# written by the import), with no hand-written JSON.
# (the run set's steps are on its machine's page, PLATFORM-*.md, fw_split.h)
cat reports/HRNetW18/Paddle/README.en.md reports/HRNetW18/Paddle/PLATFORM-*.en.md |
  grep -qF 'CUDA_VISIBLE_DEVICES=0 python tools/train.py --config test_tipc/configs/fcn_hrnetw18/' ||
  die "the HRNetW18 Paddle page shows no steps"

# A second import changes nothing.
sums >"$tmp/before"
"$MEASURE" import docs/examples/hrnetw18.tsv --from perf-hrnet >/dev/null || die "the second import failed"
sums >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || die "the second import changed: $(diff "$tmp/before" "$tmp/after" | head -5)"

# Errors name FILE:LINE: FIELD, and write nothing.
L=HRNetW18/logs/paddle/PaddleSeg_fcn_hrnetw18_bs8_fp32_DP_N1C1_log
R='{"profile": "paddle-ips", "scope": "per_card"}'
tab=$(printf '\t')
bad() { # bad NAME EXPECTED LINE...
  name=$1 want=$2
  shift 2
  printf '%s\n' "$@" >"$tmp/$name.tsv"
  rc=0
  "$MEASURE" import "$tmp/$name.tsv" --from perf-hrnet >/dev/null 2>"$tmp/err" || rc=$?
  [ $rc -eq 2 ] || die "$name: exit $rc, not 2"
  grep -qF "$tmp/$name.tsv:$want" "$tmp/err" || die "$name: expected \"$want\", got: $(cat "$tmp/err")"
}
src="source${tab}PaddlePaddle/Perf${tab}e7a07c4d39e04de5e24652daaf02d204f0209acb"
line() { # line RUN CASE PRECISION NODES GPUS RULE
  printf '%s\t%s\tHRNetW18\tPaddle\tV100-SXM2-32GB-x8\t%s\t%s\t%s\t8\t-\tsamples/s\t%s\t-\t%s' \
    "$1" "$2" "$3" "$4" "$5" "$6" "$L"
}
sums >"$tmp/before"
bad nodes '3: nodes: 12 GPUs do not divide into nodes of 8 devices' "$src" '# 12 GPUs, nodes omitted' \
  "$(line r c1 fp32 - 12 "$R")"
bad nodes_given '2: nodes: 12 GPUs do not split over 5 nodes' "$src" "$(line r c1 fp32 5 12 "$R")"
bad precision '2: precision: "fp33"' "$src" "$(line r c1 fp33 1 1 "$R")"
bad gpus '2: gpus: "x" is not a whole number' "$src" "$(line r c1 fp32 1 x "$R")"
bad short '2: unit: missing' "$src" "r${tab}c${tab}M${tab}Paddle${tab}V100-SXM2-32GB-x8${tab}fp32${tab}1${tab}1${tab}8${tab}-"
bad log '2: log: nope.log: no such file' "$src" \
  "r${tab}c${tab}M${tab}Paddle${tab}V100-SXM2-32GB-x8${tab}fp32${tab}1${tab}1${tab}8${tab}-${tab}samples/s${tab}$R${tab}-${tab}nope.log"
bad platform '2: platform: "H999-x8": no platform file' "$src" \
  "r${tab}c${tab}M${tab}Paddle${tab}H999-x8${tab}fp32${tab}-${tab}1${tab}8${tab}-${tab}samples/s${tab}$R${tab}-${tab}$L"
bad fitmix '3: rule:' "$src" "$(line r c1 fp32 1 1 "fit:$R")" "$(line r c2 fp32 1 1 "$R")"
bad cell '2: figure: @nope: no data/published/nope.json' "$src" \
  "r${tab}c${tab}M${tab}Paddle${tab}V100-SXM2-32GB-x8${tab}fp32${tab}1${tab}1${tab}8${tab}-${tab}samples/s${tab}$R${tab}@nope${tab}$L"
bad dup '3: case: "c1" is already line 2' "$src" "$(line r c1 fp32 1 1 "$R")" "$(line r c1 fp32 1 1 "$R")"
sums >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || die "a failed import wrote: $(diff "$tmp/before" "$tmp/after" | head -5)"

# 32 GPUs with nodes omitted: 4 nodes of this 8-per-node platform.
printf '%s\n' "$src" "$(line r32 c32 fp32 - 32 "$R")" >"$tmp/n32.tsv"
"$MEASURE" import "$tmp/n32.tsv" --from perf-hrnet --dry-run >"$tmp/plan32" || true
grep -q 'c32 .* 4x32 GPUs' "$tmp/plan32" || die "32 GPUs did not make 4 nodes: $(cat "$tmp/plan32")"
echo "walkthrough_import: ok"
