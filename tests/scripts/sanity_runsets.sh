#!/bin/sh
# The series sanity rules compare figures of one run set only (sanity.h):
# a 16-GPU figure of another cluster below the 8-GPU figure of a single
# node is no "throughput falls" flag, and its efficiency against the node's
# 1-GPU figure is neither computed nor judged; within one run set the same
# fall is flagged.  Synthetic logs.
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
set -e
mkdir -p "$tmp/src/logs"
toy_gpu_data
log() { # FILE PER-CARD
  i=0
  while [ $i -lt 20 ]; do echo "step $i, ips: $2 samples/sec"; i=$((i + 1)); done >"$tmp/src/logs/$1"
}
log g1.log 100.0
log g8.log 100.0
log g16.log 40.0
imp() { # RUN CASE GPUS LOG
  nodes=1
  [ "$3" -gt 8 ] && nodes=$(($3 / 8))
  (cd "$tmp/src" && "$MEASURE" parse --rule '{"profile":"paddle-ips","scope":"per_card"}' \
    --gpus "$3" --nodes "$nodes" --batch-size 64 --precision fp32 --model Toy --framework "$5" \
    --case "$2" --platform Toy-GPU-x8 --source-repo owner/repo \
    --source-commit 0123456789abcdef0123456789abcdef01234567 --source-path "logs/$4" \
    --out "$tmp/data/runs/$1" "logs/$4" >/dev/null)
}
# Fw: 1 and 8 GPUs on one node, 16 on a cluster (640, below 800).
imp node toy_gpu1 1 g1.log Fw
imp node toy_gpu8 8 g8.log Fw
imp cluster toy_gpu16 16 g16.log Fw
# Gw: the same figures in one run set: the fall is flagged.
imp one gw_gpu1 1 g1.log Gw
imp one gw_gpu8 8 g8.log Gw
imp one gw_gpu16 16 g16.log Gw
(cd "$tmp" && "$GEN" build --data data --templates templates --out reports --no-charts) ||
  die "build failed"
# A framework's pages as one file: its README, then its machines' pages
# (PLATFORM-*.md, fw_split.h).
e="$tmp/pages-e.en.md"
cat "$tmp/reports/Toy/Fw/README.en.md" $(ls "$tmp/reports/Toy/Fw"/PLATFORM-*.en.md 2>/dev/null) >"$e"
g="$tmp/pages-g.en.md"
cat "$tmp/reports/Toy/Gw/README.en.md" $(ls "$tmp/reports/Toy/Gw"/PLATFORM-*.en.md 2>/dev/null) >"$g"
grep -qF '| 2 | 16 | 640.00‡ | — | 1 (20) | other run set ❗a | — |' "$e" ||
  { cat "$e"; die "Fw: the 16-GPU row"; }
grep -qF 'is below the 800 of' "$e" && { cat "$e"; die "Fw: a fall flagged across two run sets"; }
grep -qF '| 2 | 16 | 640.00‡ ❗a | — | 1 (20) | 6.40 | 40.0% |' "$g" ||
  { cat "$g"; die "Gw: the fall within one run set is not flagged"; }
grep -qF 'is below the 800 of' "$g" || { cat "$g"; die "Gw: no fall footnote"; }
echo ok
