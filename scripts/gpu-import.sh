#!/bin/sh
# scripts/gpu-import.sh: files what scripts/gpu-run.sh measured on a GPU
# machine under data/runs/, then regenerates reports/ (docs/gpu.md).
#
#   sh scripts/gpu-import.sh /work/.device/.../gpu-results.tar.gz   (or the unpacked folder)
#
# Each run folder of the archive's runs/ (bw, gemm, nccl, torch-bw, ...)
# becomes data/runs/<date>-<gpu>-<name>/, the machine's description
# (machine.txt, nvidia-smi.txt, the env output) beside its records in
# gpu-run/.  Measured numbers are copied, never edited; an existing folder
# of the same name is an error (nothing is overwritten).
set -eu
[ $# -eq 1 ] || { echo "usage: sh scripts/gpu-import.sh ARCHIVE.tar.gz|DIR" >&2; exit 2; }
cd "$(dirname "$0")/.."
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -d "$src" ]; then
  cp -R "$src/." "$tmp/"
else
  tar -xzf "$src" -C "$tmp"
fi
[ -d "$tmp/runs" ] || { echo "gpu-import: $src has no runs/ folder (did the suites stage run?)" >&2; exit 1; }
date=$(sed -n '2p' "$tmp/machine.txt" 2>/dev/null | cut -c1-10)
[ -n "$date" ] || date=$(date -u +%Y-%m-%d)
gpu=$(sed -n 's/^name: //p' "$tmp/results/env.txt" 2>/dev/null | head -n 1 |
      tr 'A-Z' 'a-z' | sed 's/nvidia //; s/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')
gpu=${gpu:-gpu}
set --
for r in "$tmp"/runs/*/; do
  name=$(basename "$r")
  dest="data/runs/$date-$gpu-$name"
  [ ! -e "$dest" ] || { echo "gpu-import: $dest exists; remove it first" >&2; exit 1; }
  set -- "$@" "$r:$dest"
done
for pair in "$@"; do
  r=${pair%%:*}
  dest=${pair#*:}
  mkdir -p "$dest.tmp"
  cp -R "$r." "$dest.tmp/"
  mkdir -p "$dest.tmp/gpu-run"
  for f in machine.txt nvidia-smi.txt nvidia-smi-topo.txt version.txt results/env.txt summary.md; do
    [ -f "$tmp/$f" ] && cp "$tmp/$f" "$dest.tmp/gpu-run/"
  done
  mv "$dest.tmp" "$dest"
  echo "gpu-import: $dest"
done
bin/perfrepro-gen validate --data data
make reports
