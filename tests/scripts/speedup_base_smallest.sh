#!/bin/sh
# A speedup base that is the smallest count measured when there is no
# single-node run, stated (issue 33, "Platforms from descriptions"): a
# synthetic data folder with runs at 8, 16 and 32 GPUs only (2 and 4 nodes
# of 8) and none at 1 GPU:
#   - speedup and efficiency are against 8 GPUs (throughput 1000 -> 1900 at
#     16 GPUs: x1.90, 95.0 %; 3600 at 32: x3.60, 90.0 %), not "no baseline";
#   - the page says which base (zh and en);
#   - a configuration that has a 1-GPU run keeps it as the base, and its
#     page says nothing of another base;
#   - a CPU cluster measured from 2 nodes x 16 processes up says
#     processes;
#   - a configuration measured at one count only has no base (no "1.00,
#     100 %" of a figure against itself).
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
need_bins GEN MEASURE
mkdir -p "$tmp/data/published" "$tmp/src"
toy_gpu_data
cat >"$tmp/data/platforms/Toy-CPU.json" <<'JSON'
{"perfrepro": 1, "title": {"zh": "Toy CPU", "en": "Toy CPU"},
 "device": {"kind": "cpu", "model": "Toy CPU", "per_node": 16}}
JSON
rule='{"keyword":"ips:","scope":"global","skip":0,"reduce":"last"}'
# case_ RUN FRAMEWORK NODES GPUS V: three runs of throughput V.
case_() {
  name="toy_g$4"
  for r in 0 1 2; do
    printf 'step 0, ips: %s\nstep 1, ips: %s\n' "$5" "$5" >"$tmp/src/$1_${name}_$r.log"
  done
  (cd "$tmp/src" && "$MEASURE" parse --rule "$rule" --unit images/s --nodes "$3" --gpus "$4" \
    --batch-size 64 --model Toy --framework "$2" --case "$name" --platform "${6:-Toy-GPU-x8}" \
    --out "$tmp/data/runs/$1" "$1_${name}_0.log" "$1_${name}_1.log" "$1_${name}_2.log" \
    >/dev/null) || fail "measure parse $1 $name"
}
case_ big Big 1 8 1000
case_ big Big 2 16 1900
case_ big Big 4 32 3600
case_ small Small 1 1 200
case_ small Small 1 8 1500
case_ lone Lone 2 16 900
# A CPU cluster from 2 nodes of 16 processes up: the note says processes.
case_ cpu Cpu 2 32 100 Toy-CPU
case_ cpu Cpu 4 64 180 Toy-CPU
(cd "$tmp" && "$GEN" build --data data --templates templates --out reports >"$tmp/build.log" 2>&1) ||
  { cat "$tmp/build.log"; fail "build failed"; }
# A framework's pages as one file: its README, then its machines' pages
# (PLATFORM-*.md, fw_split.h).
pages() { cat "$1/README$2.md" $(ls "$1"/PLATFORM-*.md 2>/dev/null | if [ -n "$2" ]; then grep '\.en\.md$'; else grep -v '\.en\.md$'; fi) >"$3" 2>/dev/null; }
pages "$tmp/reports/Toy/Big" .en "$tmp/big.en.md"
pages "$tmp/reports/Toy/Big" "" "$tmp/big.zh.md"
pages "$tmp/reports/Toy/Lone" .en "$tmp/lone.en.md"
pages "$tmp/reports/Toy/Cpu" .en "$tmp/cpu.en.md"
pages "$tmp/reports/Toy/Small" .en "$tmp/small.en.md"
e="$tmp/big.en.md"
z="$tmp/big.zh.md"
if [ -f "$e" ] && [ -f "$z" ]; then
  grep -q 'no baseline' "$e" && fail "no baseline at 16 GPUs: $(grep '^| 2 | 16 |' "$e")"
  grep -qE '^\| 2 \| 16 \|.*\| 1\.90 \| 95\.0% \|' "$e" || fail "16 GPUs: $(grep '^| 2 | 16 |' "$e")"
  grep -qE '^\| 4 \| 32 \|.*\| 3\.60 \| 90\.0% \|' "$e" || fail "32 GPUs: $(grep '^| 4 | 32 |' "$e")"
  grep -qE '^\| 1 \| 8 \|.*\| 1\.00 \| 100\.0% \|' "$e" || fail "8 GPUs: $(grep '^| 1 | 8 |' "$e")"
  grep -qF 'Speedup and efficiency against 1 node × 8 GPUs' "$e" || fail "en: the base not stated"
  grep -qF '为基准' "$z" || fail "zh: the base not stated"
else
  fail "no $e"
fi
s="$tmp/small.en.md"
if [ -f "$s" ]; then
  grep -qE '^\| 1 \| 8 \|.*\| 7\.50 \| 93\.8% \|' "$s" || fail "1-GPU base: $(grep '^| 1 | 8 |' "$s")"
  grep -qF 'Speedup and efficiency against' "$s" && fail "a 1-GPU base said to be another"
else
  fail "no $s"
fi
o="$tmp/lone.en.md"
if [ -f "$o" ]; then
  grep -qE '^\| 2 \| 16 \|.*\| no baseline¹ \| — \|' "$o" || fail "one count: $(grep '^| 2 | 16 |' "$o")"
else
  fail "no $o"
fi
c="$tmp/cpu.en.md"
if [ -f "$c" ]; then
  grep -qE '^\| 4 \| 64 \|.*\| 1\.80 \| 90\.0% \|' "$c" || fail "CPU: $(grep '^| 4 | 64 |' "$c")"
  grep -qF 'as there is no 1-process run; efficiency = speedup × 32 ÷ processes.' "$c" ||
    fail "CPU note: $(grep -n 'against' "$c")"
else
  fail "no $c"
fi
finish "speedup_base_smallest: ok"
