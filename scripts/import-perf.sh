#!/bin/sh
# Imports published tables of PaddlePaddle/Perf (the seeds' final reports)
# into data/published/ with perfrepro-gen import-table: each figure read from
# the README's pipe table exactly as printed, with the repository, commit,
# path and line it came from.  Run from the repository root:
#   sh scripts/import-perf.sh [PERF_DIR]      (default ../shared/perf)
# The snapshot's SOURCE.md names the commit; its LICENSE is Apache-2.0.
set -eu
PERF="${1:-../shared/perf}"
GEN="${GEN:-bin/perfrepro-gen}"
COMMIT=e7a07c4d39e04de5e24652daaf02d204f0209acb
grep -q "$COMMIT" "$PERF/SOURCE.md" || { echo "import-perf: $PERF is not the snapshot at $COMMIT" >&2; exit 1; }
# imp OUT README AFTER COLUMN MODEL FRAMEWORK PRECISION BS UNIT PLATFORM [extra args]
imp() {
  out=$1 readme=$2 after=$3 column=$4 model=$5 fw=$6 prec=$7 bs=$8 unit=$9 plat=${10}
  shift 10
  "$GEN" import-table --markdown "$PERF/$readme" --after "$after" --column "$column" \
    --model "$model" --framework "$fw" --precision "$prec" --batch-size "$bs" --unit "$unit" \
    --platform "$plat" --repo PaddlePaddle/Perf --commit "$COMMIT" --path "$readme" \
    --label "PaddlePaddle/Perf" --out "$out" "$@"
}
rn50=data/published/20-perf-ngc-pytorch-resnet50.json
readme=ResNet50V1.5/OtherReports/PyTorch/README.md
rm -f "$rn50"
for p in "FP32 fp32" "AMP amp"; do
  set -- $p
  imp "$rn50" "$readme" "V100上训练吞吐率" "$1(BS=256)" ResNet50 NGC-PyTorch "$2" 256 images/s \
    V100-SXM2-32GB-x8 --model-title "ResNet50 v1.5" --framework-title "NGC PyTorch"
  imp "$rn50" "$readme" "A100上训练吞吐率" "$1(BS=256)" ResNet50 NGC-PyTorch "$2" 256 images/s \
    A100-SXM4-40GB-x8 --model-title "ResNet50 v1.5" --framework-title "NGC PyTorch"
done
seg=data/published/21-perf-mmseg-deeplabv3plus.json
readme=DeepLabV3P/OtherReports/PyTorch/README.md
rm -f "$seg"
for p in "FP32 fp32" "AMP amp"; do
  set -- $p
  imp "$seg" "$readme" "四、测试结果" "$1(BS=4)" DeepLabV3plus mmsegmentation "$2" 4 samples/s \
    V100-SXM2-32GB-x8 --model-title "DeepLabV3+" --framework-title "mmsegmentation (NGC PyTorch)"
done
