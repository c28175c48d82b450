#!/bin/sh
# Every suite in data/suites is runnable as shipped: perfrepro-measure loads
# it, compiles its parse rule and expands every case's command (--dry-run
# runs nothing and writes nothing).
. tests/scripts/lib/preamble.sh
set -e
n=0
for suite in $(find data/suites -name '*.json' | LC_ALL=C sort); do
  if ! "$MEASURE" run "$suite" --dry-run --out "$tmp/out" >"$tmp/log" 2>&1; then
    cat "$tmp/log"; echo "FAILED: $suite"; exit 1
  fi
  grep -q "PERFREPRO_CASE=" "$tmp/log" || { cat "$tmp/log"; echo "no command printed for $suite"; exit 1; }
  [ ! -e "$tmp/out/logs/index" ] || { echo "--dry-run wrote records for $suite"; exit 1; }
  n=$((n + 1))
done
[ "$n" -ge 10 ] || { echo "expected the shipped suites, found $n"; exit 1; }

# Per-precision words are data ({"fp16": ["--fp16"]}): in the fp16 cases'
# commands, in no other, and no shell glue around them.
# words SUITE CASE-PATTERN: the dry-run command lines of the matching cases.
words() { "$MEASURE" run "$1" --dry-run --out "$tmp/out" --only "$2" 2>&1 | grep -v '^#'; }
words data/suites/GPT/Megatron.json '*_fp16_8' | grep -q ' --fp16$' || die "Megatron fp16: no --fp16"
words data/suites/GPT/Megatron.json '*_fp32_8' | grep -q -- '--fp16' && die "Megatron fp32: --fp16"
words data/suites/DeepLabV3plus/mmsegmentation.json '*_fp16_8' |
  grep -q ' data.samples_per_gpu=4 fp16.loss_scale=512.$' || die "mmsegmentation fp16: no loss scale"
words data/suites/DeepLabV3plus/mmsegmentation.json '*_fp32_8' | grep -q 'loss_scale' &&
  die "mmsegmentation fp32: a loss scale"
# pytorch/examples on 4 nodes: one job (its README's multi-node options), the
# rank each node's, the batch size the node's (main.py divides it by its GPUs).
"$MEASURE" run data/suites/ResNet50/PyTorch.json --dry-run --out "$tmp/out" --launcher mpirun \
  --hosts a:8,b:8,c:8,d:8 --only '*_bs32_fp32_32' >"$tmp/log" 2>&1 || { cat "$tmp/log"; die "mpirun dry run"; }
grep -qF -- '--dist-url tcp://a:29500 --dist-backend nccl --multiprocessing-distributed --world-size 4 --rank "${NODE_RANK}" --epochs 1 --batch-size 256' "$tmp/log" ||
  { cat "$tmp/log"; die "pytorch/examples on 4 nodes: not one job"; }
echo "ok: $n suites"
