#!/bin/sh
# The steady-state gate on the shipped data (issue 30 item 1): the reports
# built from data/ into a temporary folder.  The --threads A/B is not
# judged (B's runs r2, r3, r4 are unsteady, 15x is beyond the declared 2x)
# and the index does not list it; a figure of an unsteady run carries its
# ❗ (CV and window) on its framework page, its model page and in the
# export's flags; a comparison of one run set with itself is refused.
. tests/scripts/lib/preamble.sh
need_bins GEN
"$GEN" build --data data --templates templates --out "$tmp/r" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }

page="$tmp/r/compare/cpu-resnet50-threads/README.en.md"
grep -q '| faster |' "$page" && fail "threads: still faster"
grep -q 'not judged: runs r2, r3, r4 of B unsteady (r2: CV 26.7 %; r3: regime change at step 7, CV 81.3 %; r4: CV 51.8 %)' "$page" ||
  fail "threads: the runs and why: $(grep '| ResNet50' "$page")"
grep -q 'No cell is judged' "$page" || fail "threads: no summary of the gate"
grep -q 'compare/cpu-resnet50-threads/' "$tmp/r/README.en.md" "$tmp/r/README.md" &&
  fail "the index lists the comparison the gate refuses"
grep -q 'compare/ngc-rn50-readme-2019-2021/README.en.md' "$tmp/r/README.en.md" ||
  fail "the index lost the published comparison"

# The framework's pages as one file: its README, then its machines' pages
# (PLATFORM-*.md, fw_split.h).
fw="$tmp/fw.en.md"
cat "$tmp/r/BERT-Base/Paddle/README.en.md" "$tmp/r/BERT-Base/Paddle"/PLATFORM-*.en.md >"$fw"
cat "$tmp/r/BERT-Base/Paddle/README.md" $(ls "$tmp/r/BERT-Base/Paddle"/PLATFORM-*.md | grep -v '\.en\.md$') >"$tmp/fw.md"
grep -q '4 nodes × 8 GPUs: a run of it is not in a steady state (r1: steps 1–50 of 50, CV 20.5 %)' "$fw" ||
  fail "BERT Paddle 32 GPUs FP32: no unsteady footnote"
grep -q 'not in a steady state' "$tmp/r/BERT-Base/README.en.md" || fail "model page: no unsteady footnote"
grep -q '未达稳定状态' "$tmp/fw.md" || fail "zh page: no unsteady footnote"
"$GEN" export --format csv >"$tmp/f.csv" || fail "export"
grep -q '^BERT-Base,Paddle,V100-SXM2-32GB-x8,perf-BERT-Base-Paddle-V100-SXM2-32GB-x8-32gpu,,fp32,.*,unsteady[;,]' "$tmp/f.csv" ||
  fail "export: the unsteady flag"

A=2026-11-26-cpu-resnet50-threads1
"$GEN" compare --a "$A" --b "$A" >"$tmp/self" 2>"$tmp/err" && fail "A against itself accepted"
grep -q "both select $A" "$tmp/err" || fail "self: $(cat "$tmp/err")"

finish "steady_shipped: ok"
