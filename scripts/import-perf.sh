#!/bin/sh
# Imports the published tables of PaddlePaddle/Perf (the seeds' final reports)
# with perfrepro-gen import-table: each figure read from the README's pipe
# table exactly as printed, with the repository, commit, path and line it came
# from.  Run from the repository root:
#   sh scripts/import-perf.sh [PERF_DIR]      (default ../shared/perf)
# The snapshot's SOURCE.md names the commit; its LICENSE is Apache-2.0.
#
# Two kinds of table:
# - primary: each README's own throughput tables (one file per README,
#   data/published/20-30-perf-*.json);
# - restated: the "与业内其它框架对比" tables of the Paddle READMEs, which
#   print the other frameworks' figures again beside Paddle's (one file per
#   Paddle README, data/restated/NN-perf-*-compare.json, same format), kept
#   apart so an audit can compare them with the primary tables
#   (scripts/perf-published-findings.md).
#
# Platforms: every README's environment section (一、/二、环境介绍, 物理机环境)
# names Tesla V100-SXM2-32GB * 8 for the V100 rows (single node and each of
# the 4 nodes of the 32-GPU rows) and NVIDIA A100-SXM4-40GB * 8 for the A100
# rows; DeepLabV3P prints V100 only.
set -eu
PERF="${1:-../shared/perf}"
GEN="${GEN:-bin/perfrepro-gen}"
COMMIT=e7a07c4d39e04de5e24652daaf02d204f0209acb
grep -q "$COMMIT" "$PERF/SOURCE.md" || { echo "import-perf: $PERF is not the snapshot at $COMMIT" >&2; exit 1; }
V100=V100-SXM2-32GB-x8
A100=A100-SXM4-40GB-x8
LABEL="PaddlePaddle/Perf"

title_of() {
  case $1 in
    ResNet50) echo "ResNet50 v1.5" ;;
    BERT-Base) echo "BERT Base" ;;
    Transformer) echo "Transformer (big)" ;;
    DeepLabV3plus) echo "DeepLabV3+" ;;
    Paddle) echo "Paddle" ;;
    NGC-PyTorch) echo "NGC PyTorch" ;;
    NGC-TensorFlow) echo "NGC TensorFlow" ;;
    NGC-MXNet) echo "NGC MXNet" ;;
    mmsegmentation) echo "mmsegmentation (NGC PyTorch)" ;;
    *) echo "import-perf: no title for $1" >&2; exit 1 ;;
  esac
}

# imp OUT README AFTER COLUMN MODEL FRAMEWORK PRECISION BS UNIT PLATFORM [extra args]
imp() {
  local out readme after column model fw prec bs unit plat
  out=$1 readme=$2 after=$3 column=$4 model=$5 fw=$6 prec=$7 bs=$8 unit=$9 plat=${10}
  shift 10
  "$GEN" import-table --markdown "$PERF/$readme" --after "$after" --column "$column" \
    --model "$model" --framework "$fw" --precision "$prec" --batch-size "$bs" --unit "$unit" \
    --platform "$plat" --repo PaddlePaddle/Perf --commit "$COMMIT" --path "$readme" \
    --label "$LABEL" --model-title "$(title_of "$model")" --framework-title "$(title_of "$fw")" \
    --out "$out" "$@"
}

# A README's primary tables: one per platform and precision column.
#   primary OUT README MODEL FRAMEWORK UNIT "AFTER PLATFORM" ... -- "COLUMN PRECISION BS" ...
# (each AFTER text is read with every column; a column missing from a table is an error.)
primary() {
  local out readme model fw unit tabs col
  out=$1 readme=$2 model=$3 fw=$4 unit=$5
  shift 5
  rm -f "$out"
  tabs=""
  while [ "$1" != "--" ]; do tabs="$tabs$1
"; shift; done
  shift
  for col in "$@"; do
    echo "$tabs" | while IFS='|' read -r after plat; do
      [ -n "$after" ] || continue
      set -- $col
      imp "$out" "$readme" "$after" "$1" "$model" "$fw" "$2" "$3" "$unit" "$plat"
    done
  done
}

mkdir -p data/published data/restated

# ---- ResNet50 v1.5 (images/s) ----------------------------------------------
primary data/published/20-perf-ngc-pytorch-resnet50.json ResNet50V1.5/OtherReports/PyTorch/README.md \
  ResNet50 NGC-PyTorch images/s "V100上训练吞吐率|$V100" "A100上训练吞吐率|$A100" -- \
  "FP32(BS=256) fp32 256" "AMP(BS=256) amp 256"
primary data/published/22-perf-paddle-resnet50.json ResNet50V1.5/README.md \
  ResNet50 Paddle images/s "V100上训练吞吐率|$V100" "A100上训练吞吐率|$A100" -- \
  "FP32(BS=256) fp32 256" "FP16(BS=256) fp16 256"
primary data/published/23-perf-ngc-tensorflow-resnet50.json ResNet50V1.5/OtherReports/TensorFlow/README.md \
  ResNet50 NGC-TensorFlow images/s "V100上训练吞吐率|$V100" "A100上训练吞吐率|$A100" -- \
  "FP32(BS=256) fp32 256" "AMP(BS=256) amp 256"
# NGC MXNet prints FP32 at BS=128 on V100 and at BS=256 on A100.
mx=data/published/24-perf-ngc-mxnet-resnet50.json
primary "$mx" ResNet50V1.5/OtherReports/MxNet/README.md \
  ResNet50 NGC-MXNet images/s "V100上训练吞吐率|$V100" -- "FP32(BS=128) fp32 128" "AMP(BS=256) amp 256"
imp "$mx" ResNet50V1.5/OtherReports/MxNet/README.md "A100上训练吞吐率" \
  "FP32(BS=256)" ResNet50 NGC-MXNet fp32 256 images/s "$A100"
imp "$mx" ResNet50V1.5/OtherReports/MxNet/README.md "A100上训练吞吐率" \
  "AMP(BS=256)" ResNet50 NGC-MXNet amp 256 images/s "$A100"

# ---- BERT Base (sequences/s) -------------------------------------------------
primary data/published/25-perf-paddle-bert.json Bert/README.md \
  BERT-Base Paddle sequences/s "V100上训练吞吐率|$V100" "A100上训练吞吐率|$A100" -- \
  "FP32(BS=96) fp32 96" "AMP(BS=96) amp 96"
# The NGC BERT READMEs print BS=96 on V100 and BS=128 on A100.
for fw in "NGC-PyTorch 26-perf-ngc-pytorch-bert PyTorch (单位" \
          "NGC-TensorFlow 27-perf-ngc-tensorflow-bert TensorFlow 上训练吞吐率"; do
  set -- $fw
  out=data/published/$2.json readme=Bert/OtherReports/$3/README.md
  rm -f "$out"
  for p in "FP32 fp32" "AMP amp"; do
    set -- $fw $p
    imp "$out" "$readme" "V100 $4" "$5(BS=96)" BERT-Base "$1" "$6" 96 sequences/s "$V100"
    imp "$out" "$readme" "A100 $4" "$5(BS=128)" BERT-Base "$1" "$6" 128 sequences/s "$A100"
  done
done

# ---- Transformer (big) (tokens/s; batch size in tokens) ---------------------
primary data/published/28-perf-paddle-transformer.json Transformer/README.md \
  Transformer Paddle tokens/s "V100 上训练吞吐率|$V100" "A100 上训练吞吐率|$A100" -- \
  "FP32(BS=5120) fp32 5120" "FP16(BS=5120) fp16 5120"
# The A100 heading prints its unit as "(单位： |tokens/s)".
primary data/published/29-perf-ngc-pytorch-transformer.json Transformer/OtherReports/PyTorch/README.md \
  Transformer NGC-PyTorch tokens/s "V100 (单位|$V100" "A100 (单位|$A100" -- \
  "FP32(BS=5120) fp32 5120" "FP16(BS=5120) fp16 5120"

# ---- DeepLabV3+ (samples/s; V100 only) -------------------------------------
primary data/published/21-perf-mmseg-deeplabv3plus.json DeepLabV3P/OtherReports/PyTorch/README.md \
  DeepLabV3plus mmsegmentation samples/s "四、测试结果|$V100" -- \
  "FP32(BS=4) fp32 4" "AMP(BS=4) amp 4"
primary data/published/30-perf-paddle-deeplabv3plus.json DeepLabV3P/README.md \
  DeepLabV3plus Paddle samples/s "训练吞吐率(samples/sec)|$V100" -- \
  "FP32(BS=4) fp32 4" "AMP(BS=4) amp 4"

# ---- Restated figures: the Paddle READMEs' comparison tables ----------------
# One table per (platform, precision) block and framework column; the batch
# size is the one its rows print ("GPU=1,BS=96"); import-table checks it.
LABEL="PaddlePaddle/Perf 对比表"
# compare OUT README MODEL UNIT BS "AFTER PLATFORM PRECISION" ... -- "COLUMN FRAMEWORK" ...
compare() {
  local out readme model unit bs blocks c
  out=$1 readme=$2 model=$3 unit=$4 bs=$5
  shift 5
  rm -f "$out"
  blocks=""
  while [ "$1" != "--" ]; do blocks="$blocks$1
"; shift; done
  shift
  echo "$blocks" | while IFS='|' read -r after plat prec; do
    [ -n "$after" ] || continue
    for c in "$@"; do
      column=${c%|*} fw=${c#*|}
      imp "$out" "$readme" "$after" "$column" "$model" "$fw" "$prec" "$bs" "$unit" "$plat" \
        --note "Restated in the comparison table (与业内其它框架对比) of $readme."
    done
  done
}
compare data/restated/22-perf-resnet50-compare.json ResNet50V1.5/README.md ResNet50 images/s 256 \
  "V100-FP32测试|$V100|fp32" "V100-AMP测试|$V100|amp" "A100-FP32测试|$A100|fp32" "A100-AMP测试|$A100|amp" -- \
  "PaddlePaddle|Paddle" "NGC TensorFlow 1.15|NGC-TensorFlow" "NGC PyTorch|NGC-PyTorch" "NGC MXNet|NGC-MXNet"
# Its AMP blocks print Paddle's pure-fp16 (O2) figures, which the primary
# table prints under FP16(BS=256): kept as amp, as this table says, with a note.
for b in "V100-AMP测试 $V100" "A100-AMP测试 $A100"; do
  set -- $b
  imp data/restated/22-perf-resnet50-compare.json ResNet50V1.5/README.md "$1" PaddlePaddle ResNet50 Paddle \
    amp 256 images/s "$2" --note "Restated in the comparison table (与业内其它框架对比) of ResNet50V1.5/README.md, \
under AMP; its primary table (五.1) prints these figures under FP16(BS=256) (pure fp16, O2)."
done
compare data/restated/25-perf-bert-compare.json Bert/README.md BERT-Base sequences/s 96 \
  "V100-FP32测试|$V100|fp32" "V100-AMP测试|$V100|amp" "A100-FP32测试|$A100|fp32" "A100-AMP测试|$A100|amp" -- \
  "PaddlePaddle|Paddle" "NGC TensorFlow 1.15|NGC-TensorFlow" "NGC PyTorch|NGC-PyTorch"
compare data/restated/28-perf-transformer-compare.json Transformer/README.md Transformer tokens/s 5120 \
  "V100 FP32测试|$V100|fp32" "V100 FP16测试|$V100|fp16" "A100 FP32测试|$A100|fp32" "A100 FP16测试|$A100|fp16" -- \
  "PaddlePaddle|Paddle" "NGC PyTorch|NGC-PyTorch"
compare data/restated/30-perf-deeplabv3plus-compare.json DeepLabV3P/README.md DeepLabV3plus samples/s 4 \
  "FP32测试|$V100|fp32" "AMP测试|$V100|amp" -- \
  "PaddlePaddle|Paddle" "NGC PyTorch|mmsegmentation"
