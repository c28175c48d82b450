#!/bin/sh
# One command, really (issue 33 item 7): perfrepro-measure import writes each
# run set's environment (runset.json, from the README sections the manifest's
# env line names) and its steps (suite.json, from the command the logs echo,
# what differs between the cases as placeholders), so that the imported page
# has both with no hand-written JSON.  A synthetic source built here: a
# README with a figures table and an environment section, two logs (1 and 8
# GPUs) that echo their command and dump their config, their figures in a
# CSV file with nodes and GPUs in two columns (item 5, through the manifest).  Then: hand files
# beside the manifest win; logs that echo no command get no suite.json and
# the plan says why.
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
set -e
mkdir -p "$tmp/src/logs"
repo_copy

# log GPUS GPU_LIST IPS AMP [NOCMD]: a PaddleSeg-shaped log of 20 steps.
log() {
  [ $# -ge 5 ] || printf 'python -m paddle.distributed.launch --gpus %s tools/train.py --config configs/toy.yml --batch_size 8 --num_workers 4 --use_amp %s\n' "$2" "$4"
  printf '2024-01-02 10:00:00 [INFO]\t\n---------------Config Information---------------\nbatch_size: 8\niters: 400\n------------------------------------------------\n'
  i=1
  while [ $i -le 20 ]; do
    printf '2024-01-02 10:00:%02d [INFO]\t[TRAIN] epoch: 1, iter: %d/400, loss: 1.0, lr: 0.01, batch_cost: 0.4, reader_cost: 0.001, ips: %s samples/sec | ETA 00:02:00\n' \
      $i $((i * 5)) "$3"
    i=$((i + 1))
  done
}
log 1 0 20.0000 False >"$tmp/src/logs/toy_bs8_fp32_gpu1.log"
log 8 0,1,2,3,4,5,6,7 18.7500 False >"$tmp/src/logs/toy_bs8_fp32_gpu8.log"
log 1 0 31.0000 True >"$tmp/src/logs/toy_bs8_amp_gpu1.log"
log 1 0 20.0000 False nocmd >"$tmp/src/logs/bare_bs8_fp32_gpu1.log"
# A word only the fp16 run has (--fp16): the precision's own block of words.
{ printf 'python train.py --bs 8 --workers 4\n'; log 1 0 20.0000 False nocmd; } >"$tmp/src/logs/half_fp32.log"
{ printf 'python train.py --bs 8 --fp16 --workers 4\n'; log 1 0 35.0000 False nocmd; } >"$tmp/src/logs/half_fp16.log"
cat >"$tmp/src/README.md" <<'MD'
# Toy

## 二、环境介绍
### 1.物理机环境

- 单机V100（单卡、8卡）
  - 系统：CentOS release 7.5 (Final)
  - GPU：Tesla V100-SXM2-32GB * 8
  - CPU：Intel(R) Xeon(R) Gold 6271C CPU @ 2.60GHz * 80
  - 内存：630 GB
- 单机A100（单卡、8卡）
  - GPU：NVIDIA A100-SXM4-40GB * 8

### 2.Docker 镜像

- **Docker**: paddlepaddle/paddle:2.5.0-gpu-cuda11.2-cudnn8.2-trt8.0
- **Paddle**：2.5.0

MD
# The figures in a CSV file, nodes and GPUs in columns of their own (item 5).
printf 'Nodes,GPUs,FP32(BS=8)\n1,1,20.00\n1,8,150.00\n' >"$tmp/src/results.csv"
tab=$(printf '\t')
R='{"profile": "paddle-ips", "scope": "per_card", "unit": "samples/s"}'
row() { # row RUN CASE GPUS FIGURE LOG [PRECISION [PLATFORM]]
  printf '%s\t%s\tToy\tPaddle\t%s\t%s\t-\t%s\t8\t-\tsamples/s\t%s\t%s\t%s\n' "$1" "$2" "${7:-V100-SXM2-32GB-x8}" "${6:-fp32}" "$3" "$R" "$4" "$5"
}
M="$tmp/repo/toy.tsv"
{
  printf 'source\ttoy/toy\t0123456789abcdef0123456789abcdef01234567\n'
  printf 'table\ttoy-paddle\tresults.csv\t--nodes-column\tNodes\t--gpus-column\tGPUs\t--column\tFP32(BS=8)\t--model\tToy\t--framework\tPaddle\t--precision\tfp32\t--batch-size\t8\t--unit\tsamples/s\t--platform\tV100-SXM2-32GB-x8\n'
  printf 'env\ttoy-env\tREADME.md\n'
  row toy-paddle toy_bs8_fp32_gpu1 1 @toy-paddle logs/toy_bs8_fp32_gpu1.log
  row toy-paddle toy_bs8_fp32_gpu8 8 @toy-paddle logs/toy_bs8_fp32_gpu8.log
  row toy-paddle toy_bs8_amp_gpu1 1 - logs/toy_bs8_amp_gpu1.log amp
  row toy-bare bare_bs8_fp32_gpu1 1 - logs/bare_bs8_fp32_gpu1.log
  row toy-half half_bs8_fp32_gpu1 1 - logs/half_fp32.log
  row toy-half half_bs8_fp16_gpu1 1 - logs/half_fp16.log fp16
  row toy-a100 a100_bs8_fp32_gpu1 1 - logs/bare_bs8_fp32_gpu1.log fp32 A100-SXM4-40GB-x8
  row toy-v16 v16_bs8_fp32_gpu1 1 - logs/bare_bs8_fp32_gpu1.log fp32 V100-SXM2-16GB-x8
} >"$M"
cd "$tmp/repo"
"$MEASURE" import toy.tsv --from "$tmp/src" >"$tmp/plan" 2>&1 || die "the import failed: $(cat "$tmp/plan")"
d=data/runs/toy-paddle
[ -f $d/runset.json ] || die "no runset.json written: $(cat "$tmp/plan")"
[ -f $d/suite.json ] || die "no suite.json written: $(cat "$tmp/plan")"
grep -q '"group": "单机V100（单卡、8卡）"' $d/runset.json || die "runset.json lacks the V100 machine group: $(cat $d/runset.json)"
grep -q '"group": "2.Docker 镜像"' $d/runset.json || die "runset.json lacks the software group"
grep -q 'A100' $d/runset.json && die "runset.json names the A100 machine: $(cat $d/runset.json)"
grep -q '"group": "单机A100（单卡、8卡）"' data/runs/toy-a100/runset.json ||
  die "toy-a100: not the A100 machine group: $(cat data/runs/toy-a100/runset.json)"
grep -qF 'runset.json: written, 1 environment group(s) of the env lines; no machine group of toy-env names V100-SXM2-16GB' "$tmp/plan" ||
  die "the plan does not say toy-v16 has no machine group: $(cat "$tmp/plan")"
grep -q '"case_name": "toy_bs8_{precision}_gpu{gpus}"' $d/suite.json ||
  die "suite.json: no case-name template: $(cat $d/suite.json)"
grep -q '"{gpu_list}"' $d/suite.json || die "suite.json: the GPU list is not a placeholder"
# What every case shares stays as printed: the batch size of both logs.
grep -q '"--batch_size",$' $d/suite.json && grep -q '^  "8",$' $d/suite.json ||
  die "suite.json: the batch size both logs ran is not kept as printed"
grep -q '"--num_workers",' $d/suite.json || die "suite.json: the command's words are not kept"
# A word that is one per precision: the suite's precision object.
python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["command"]
sys.exit(c[-1] != {"fp32": ["False"], "amp": ["True"]})' $d/suite.json ||
  die "suite.json: --use_amp's word is not one per precision: $(cat $d/suite.json)"
grep -q 'suite.json: none (the log of bare_bs8_fp32_gpu1 (logs/bare_bs8_fp32_gpu1.log) echoes no command)' "$tmp/plan" ||
  die "the plan does not say why toy-bare has no suite: $(cat "$tmp/plan")"
[ -f data/runs/toy-bare/suite.json ] && die "toy-bare: a suite.json without a command"
python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
sys.exit(s["command"] != ["python", "train.py", "--bs", "8", {"fp16": ["--fp16"]}, "--workers", "4"]
         or s["case_name"] != "half_bs8_{precision}_gpu1")' data/runs/toy-half/suite.json ||
  die "toy-half: the fp16 run's own word is not its precision's block: $(cat data/runs/toy-half/suite.json)"
"$GEN" build >"$tmp/build" 2>&1 || die "build failed: $(tail -5 "$tmp/build")"
p=reports/Toy/Paddle/README.en.md
[ -f $p ] || p=$(grep -rl 'toy-paddle' reports --include='*.en.md' | head -1)
[ -n "$p" ] && [ -f "$p" ] || die "no Toy Paddle page"
# The page and its machines' pages (PLATFORM-*.md, fw_split.h) as one.
cat "$p" $(ls "${p%/*}"/PLATFORM-*.en.md 2>/dev/null) >"$tmp/pages.en.md"
p=$tmp/pages.en.md
grep -qF 'suite [`suite.json`](../../../data/runs/toy-paddle/suite.json)' "$p" ||
  die "$p: the page shows no steps of run set toy-paddle"
grep -qF 'CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 python -m paddle.distributed.launch --gpus 0,1,2,3,4,5,6,7 tools/train.py' "$p" ||
  die "$p: the steps do not show the 8-GPU command"
grep -qF -- '--num_workers 4 --use_amp True' "$p" || die "$p: the steps do not show the AMP command"
grep -qF 'OS: CentOS release 7.5 (Final)' "$p" || die "$p: the page shows no environment"

# Hand files beside the manifest win.
mkdir -p runsets suites
printf '{"perfrepro": 1, "title": "hand title"}\n' >runsets/toy-paddle.json
"$MEASURE" import toy.tsv --from "$tmp/src" >"$tmp/plan2" 2>&1 || die "the second import failed: $(cat "$tmp/plan2")"
cmp -s runsets/toy-paddle.json $d/runset.json || die "the hand runset.json was not kept"
grep -q 'runset.json: the manifest.s runsets/toy-paddle.json' "$tmp/plan2" || die "the plan does not name the hand file"
[ -n "${KEEP:-}" ] && cp -R reports "$KEEP"

# The shipped DeepLabV3+ manifest without its hand runsets/: the groups the
# import picks from its env lines are the hand files' (the machine of
# 单机（单卡、8卡） and of 多机（32卡） told apart by the run sets' GPU counts).
PERF="${PERFREPRO_SHARED:-$ROOT/../shared}/perf"
if [ -f "$PERF/DeepLabV3P/README.md" ]; then
  mkdir -p "$tmp/perf"
  cp "$ROOT/scripts/perf-logs/deeplabv3plus.tsv" "$tmp/perf/"
  cp -R "$ROOT/scripts/perf-logs/rules" "$tmp/perf/"
  "$MEASURE" import "$tmp/perf/deeplabv3plus.tsv" --from "$PERF" --replace >"$tmp/plan3" 2>&1 ||
    [ $? -eq 1 ] || die "the DeepLabV3+ import failed: $(tail -5 "$tmp/plan3")"
  for f in "$ROOT"/scripts/perf-logs/runsets/perf-DeepLabV3plus-*.json; do
    r=$(basename "$f" .json)
    python3 - "$f" "data/runs/$r/runset.json" <<'PY' || die "$r: the written environment is not the hand file's"
import json, sys
hand, auto = (sorted((g["file"], g["group"]) for g in json.load(open(p))["environment"]) for p in sys.argv[1:])
sys.exit(hand != auto)
PY
  done
else
  echo "import_steps: no PaddlePaddle/Perf snapshot: the DeepLabV3+ check skipped"
fi
echo "import_steps: ok"
