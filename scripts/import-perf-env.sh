#!/bin/sh
# Imports the environment sections of the PaddlePaddle/Perf READMEs whose
# figures (data/published/2*-perf-*.json) or logs (data/runs/perf-*/) the
# shipped data uses, with perfrepro-gen import-env: each machine and software
# item kept as printed, with its line in the README, into
# data/environments/perf-MODEL-FRAMEWORK.json.  Run from the repository root:
#   sh scripts/import-perf-env.sh [PERF_DIR]      (default ../shared/perf)
# The snapshot's SOURCE.md names the commit; its LICENSE is Apache-2.0; each
# README's sha256 is checked against the snapshot's MANIFEST.
#
# Sections read: the defaults (二、/一、环境介绍 with its 1.物理机环境 and
# 2.Docker 镜像).  The Paddle ResNet50 README also prints the 32-GPU
# machines' network (InfiniBand, `nvidia-smi topo -m`) under the list item
# "多机网络部署" of 三、环境搭建: read with --section.  Where a README
# contradicts itself (ResNet50 NGC PyTorch: container 21.03 beside PyTorch
# 2.0.1), both items are kept as printed.
set -eu
PERF="${1:-../shared/perf}"
GEN="${GEN:-bin/perfrepro-gen}"
OUT="${OUT:-data/environments}"
COMMIT=e7a07c4d39e04de5e24652daaf02d204f0209acb
die() { echo "import-perf-env: $*" >&2; exit 1; }
grep -q "$COMMIT" "$PERF/SOURCE.md" || die "$PERF is not the snapshot at $COMMIT"
[ -x "$GEN" ] || die "$GEN is missing (run make first)"

# env ID README [--section TITLE]...
env() {
  id=$1 readme=$2
  shift 2
  want=$(awk -v p="$readme" '$2 == p { print $1 }' "$PERF/MANIFEST")
  [ -n "$want" ] || die "$readme is not in $PERF/MANIFEST"
  got=$(sha256sum "$PERF/$readme" | cut -d' ' -f1)
  [ "$got" = "$want" ] || die "$readme: sha256 $got, MANIFEST says $want"
  "$GEN" import-env --markdown "$PERF/$readme" --repo PaddlePaddle/Perf --commit "$COMMIT" \
    --path "$readme" --out "$OUT/$id.json" "$@"
}

mkdir -p "$OUT"
env perf-ResNet50-Paddle ResNet50V1.5/README.md --section 环境介绍 --section 多机网络部署
env perf-ResNet50-NGC-PyTorch ResNet50V1.5/OtherReports/PyTorch/README.md
env perf-ResNet50-NGC-TensorFlow ResNet50V1.5/OtherReports/TensorFlow/README.md
env perf-ResNet50-NGC-MXNet ResNet50V1.5/OtherReports/MxNet/README.md
env perf-BERT-Base-Paddle Bert/README.md
env perf-BERT-Base-NGC-PyTorch Bert/OtherReports/PyTorch/README.md
env perf-BERT-Base-NGC-TensorFlow Bert/OtherReports/TensorFlow/README.md
env perf-Transformer-Paddle Transformer/README.md
env perf-Transformer-NGC-PyTorch Transformer/OtherReports/PyTorch/README.md
env perf-DeepLabV3plus-Paddle DeepLabV3P/README.md
env perf-DeepLabV3plus-mmsegmentation DeepLabV3P/OtherReports/PyTorch/README.md

# Every README the shipped figures and logs come from has its environment.
for p in $(grep -ho '"path": "[^"]*"' data/published/2*-perf-*.json data/published/30-perf-*.json \
             data/runs/perf-*/logs/index/* 2>/dev/null | sed 's/"path": "//; s/"$//' | sort -u); do
  case $p in
  */README.md) readme=$p ;;
  *) readme="${p%%/logs/*}/README.md" ;;
  esac
  grep -qF "\"path\": \"$readme\"" "$OUT"/perf-*.json || die "$p: no environment imported from $readme"
done
