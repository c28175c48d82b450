#!/bin/sh
# Imports the MLPerf Training v4.0 excerpt (../shared/mlperf-training-v4.0:
# 15 results of NVIDIA, Dell, ASUSTeK and Lenovo; ResNet, BERT, Llama 2 70B
# LoRA) with perfrepro's own command, one submitter folder at a time:
#   perfrepro-measure import --mlperf SUBMITTER --repo ... --commit ...
# Each system becomes a platform (data/platforms/mlperf-SUBMITTER-SYSTEM.json),
# each system and benchmark a run folder (data/runs/mlperf-SUBMITTER-SYSTEM-
# BENCHMARK/: the result files, one record per run, SOURCE.md, LICENSE); the
# scores are printed.  A second run writes the same bytes.  Run from the
# repository root:
#   sh scripts/import-mlperf.sh [MLPERF_DIR]   (default ../shared/mlperf-training-v4.0)
set -eu
SRC="${1:-../shared/mlperf-training-v4.0}"
MEASURE="${MEASURE:-bin/perfrepro-measure}"
DATA="${DATA:-data}"
REPO=mlcommons/training_results_v4.0
COMMIT=6fe954378efe4a1a1bd665550b18ff8f26018def
grep -q "$COMMIT" "$SRC/SOURCE.md" || { echo "import-mlperf: $SRC is not the snapshot at $COMMIT" >&2; exit 1; }
for sub in "$SRC"/*/; do
    sub="${sub%/}"
    [ -d "$sub/results" ] || continue
    "$MEASURE" import --mlperf "$sub" --repo "$REPO" --commit "$COMMIT" --data "$DATA"
done
