#!/bin/sh
# docs/walkthrough-import.md, run as written: its prep block and its (at most
# three) commands, read from the page, in a copy of the repository's data
# (data/ itself is never touched); then the audit lines of HRNetW18's two
# figures.  Also: --dry-run writes nothing, a second import changes nothing,
# nodes that do not divide and bad manifest lines are errors naming
# FILE:LINE: FIELD and write nothing.  Skips (77) without ../shared.
set -eu
GEN="${GEN:-bin/perfrepro-gen}"
MEASURE="${MEASURE:-bin/perfrepro-measure}"
ROOT=$(pwd)
DOC=docs/walkthrough-import.md
fail() { echo "walkthrough_import: $*" >&2; exit 1; }
[ -d ../shared/fixtures/logs ] && [ -f ../shared/perf/LICENSE ] ||
  { echo "walkthrough_import: no ../shared fixtures: skipped"; exit 77; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }
GEN=$(abs "$GEN") MEASURE=$(abs "$MEASURE")

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# The repository as the page expects it: data, templates, the manifest, bin/;
# ../shared beside it.
mkdir -p "$T/repo/bin" "$T/repo/docs/examples"
cp -R data templates "$T/repo/"
cp docs/examples/hrnetw18.tsv "$T/repo/docs/examples/"
ln -s "$GEN" "$T/repo/bin/perfrepro-gen"
ln -s "$MEASURE" "$T/repo/bin/perfrepro-measure"
ln -s "$(cd ../shared && pwd)" "$T/shared"

# The sh block after a marker line of the page.
block() {
  awk -v m="<!-- walkthrough:$1 -->" '
    $0 == m { on = 1; next }
    on && /^```sh$/ { inb = 1; next }
    inb && /^```$/ { exit }
    inb { print }' "$DOC"
}
block prep >"$T/prep.sh"
block commands >"$T/commands.sh"
[ -s "$T/prep.sh" ] || fail "$DOC: no prep block"
n=$(grep -cv '^[[:space:]]*\(#.*\)\{0,1\}$' "$T/commands.sh")
[ "$n" -ge 1 ] && [ "$n" -le 3 ] || fail "$DOC: $n commands (1 to 3 expected)"

# The example's run sets are not the shipped import's (perf-*: import-perf-logs.sh
# rebuilds those), so following the page never collides with it.
grep -q '^perf-' docs/examples/hrnetw18.tsv && fail "docs/examples/hrnetw18.tsv: a perf-* run set"

sums() { (cd "$T/repo" && find data -type f -exec sha256sum {} + | sort); }
cd "$T/repo"
sh -e "$T/prep.sh" || fail "the prep block failed"

# A dry run plans and writes nothing.
sums >"$T/before"
"$MEASURE" import docs/examples/hrnetw18.tsv --from perf-hrnet --dry-run >"$T/plan" ||
  fail "the dry run failed"
sums >"$T/after"
cmp -s "$T/before" "$T/after" || fail "the dry run wrote: $(diff "$T/before" "$T/after" | head -5)"
grep -q 'hrnetw18_bs8_fp32_gpu1 .* 19\.42814375 *figure 19\.428 *reproduced' "$T/plan" ||
  fail "the plan does not show 19.428 reproduced: $(cat "$T/plan")"
grep -q 'rule (found with --fit over its figures): {"profile":"mmseg"' "$T/plan" ||
  fail "the plan does not show the mmseg rule found"

# The page's commands.
sh -e "$T/commands.sh" >"$T/out" 2>&1 || fail "the walkthrough's commands failed: $(tail -20 "$T/out")"
a=reports/AUDIT.en.md
grep -q '^### HRNetW18 · V100-SXM2-32GB × 8' "$a" || fail "$a: no HRNetW18 section"
grep -F 'Paddle | FP32 BS=8 | 1 node × 1 GPU | [19.428†]' "$a" | grep -F '[19.428144‡]' |
  grep -qF '✅ reproduced' || fail "$a: no reproduced line for Paddle's 19.428"
grep -F 'mmsegmentation | FP32 BS=8 | 1 node × 1 GPU | [15.49†]' "$a" | grep -F '[15.48530‡]' |
  grep -qF "✅ reproduced" || fail "$a: no reproduced line for mmsegmentation's 15.49: $(grep -F "mmsegmentation | FP32" "$a")"
grep -qF 'imported by `perfrepro-measure import docs/examples/hrnetw18.tsv`' "$a" ||
  fail "$a: does not name the import"
grep -qF '15.48530‡' "$T/out" || fail "the commands' output does not show the audit lines"
f=data/runs/example-HRNetW18-Paddle-V100-SXM2-32GB-x8
grep -q '"HRNetW18/logs/paddle/PaddleSeg_fcn_hrnetw18_bs8_fp32_DP_N1C1_log"' "$f/fit/hrnetw18_bs8_fp32_gpu1.json" ||
  fail "$f: the fit report does not name the log by its path in the source"
grep -q perf-hrnet "$f/fit/hrnetw18_bs8_fp32_gpu1.json" "$f/logs/index/"* "$f/SOURCE.md" &&
  fail "$f: the local folder's name was kept"
cmp -s "$f/LICENSE" ../shared/perf/LICENSE || fail "$f: no LICENSE"
[ -f reports/HRNetW18/README.en.md ] || fail "no HRNetW18 page"
# One command, really: the Paddle page has the steps its log echoes (suite.json
# written by the import), with no hand-written JSON.
# (the run set's steps are on its machine's page, PLATFORM-*.md, fw_split.h)
cat reports/HRNetW18/Paddle/README.en.md reports/HRNetW18/Paddle/PLATFORM-*.en.md |
  grep -qF 'CUDA_VISIBLE_DEVICES=0 python tools/train.py --config test_tipc/configs/fcn_hrnetw18/' ||
  fail "the HRNetW18 Paddle page shows no steps"

# A second import changes nothing.
sums >"$T/before"
"$MEASURE" import docs/examples/hrnetw18.tsv --from perf-hrnet >/dev/null || fail "the second import failed"
sums >"$T/after"
cmp -s "$T/before" "$T/after" || fail "the second import changed: $(diff "$T/before" "$T/after" | head -5)"

# Errors name FILE:LINE: FIELD, and write nothing.
L=HRNetW18/logs/paddle/PaddleSeg_fcn_hrnetw18_bs8_fp32_DP_N1C1_log
R='{"profile": "paddle-ips", "scope": "per_card"}'
tab=$(printf '\t')
bad() { # bad NAME EXPECTED LINE...
  name=$1 want=$2
  shift 2
  printf '%s\n' "$@" >"$T/$name.tsv"
  rc=0
  "$MEASURE" import "$T/$name.tsv" --from perf-hrnet >/dev/null 2>"$T/err" || rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc, not 2"
  grep -qF "$T/$name.tsv:$want" "$T/err" || fail "$name: expected \"$want\", got: $(cat "$T/err")"
}
src="source${tab}PaddlePaddle/Perf${tab}e7a07c4d39e04de5e24652daaf02d204f0209acb"
line() { # line RUN CASE PRECISION NODES GPUS RULE
  printf '%s\t%s\tHRNetW18\tPaddle\tV100-SXM2-32GB-x8\t%s\t%s\t%s\t8\t-\tsamples/s\t%s\t-\t%s' \
    "$1" "$2" "$3" "$4" "$5" "$6" "$L"
}
sums >"$T/before"
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
sums >"$T/after"
cmp -s "$T/before" "$T/after" || fail "a failed import wrote: $(diff "$T/before" "$T/after" | head -5)"

# 32 GPUs with nodes omitted: 4 nodes of this 8-per-node platform.
printf '%s\n' "$src" "$(line r32 c32 fp32 - 32 "$R")" >"$T/n32.tsv"
"$MEASURE" import "$T/n32.tsv" --from perf-hrnet --dry-run >"$T/plan32" || true
grep -q 'c32 .* 4x32 GPUs' "$T/plan32" || fail "32 GPUs did not make 4 nodes: $(cat "$T/plan32")"
echo "walkthrough_import: ok"
