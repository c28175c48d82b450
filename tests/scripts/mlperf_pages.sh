#!/bin/sh
# The MLPerf pages as a reviewer reads them (issue 33), on a synthetic
# submission (a GPU box of 8 GPUs, a GPU cluster of 2 nodes x 8 GPUs, a CPU
# cluster of 4 nodes x 16 threads) imported with --mlperf, and on the shipped MLPerf pages (the
# models found from the shipped data's own run folders):
# - the framework page's title names the source once ("MLPerf-ResNet50:
#   reproduction report", not "MLPerf MLPerf-ResNet50"); the model page's
#   first section of a time to train is "Training time", not "Throughput";
# - counts read nodes x devices per node ("2 nodes × 8 GPUs", "4 nodes × 16
#   threads"), never "2×16 GPUs" or processes;
# - the system description's software is the environment, each item
#   linked to its line of systems/SYSTEM.json (no "records no software");
# - the headline says its figure is the median of runs, the scores table
#   that its figure is MLPerf's score;
# - the precision, which MLPerf's logs do not state, is "unstated" (the
#   class "Precision not stated"), never guessed as AMP.
# Exit 0 pass, 77 skip (no shipped MLPerf data), other fail.
. tests/scripts/lib/preamble.sh
commit=0123456789abcdef0123456789abcdef01234567
sub="$tmp/Acme"
mkdir -p "$sub/systems" "$sub/results/gpu1/resnet" "$sub/results/gpu2/resnet" "$sub/results/cpu4/resnet" \
    "$tmp/data/platforms"
echo "Apache License 2.0" >"$tmp/LICENSE.md"
cat >"$sub/systems/gpu2.json" <<'J'
{
    "submitter": "Acme",
    "system_name": "Acme GPU cluster",
    "number_of_nodes": "2",
    "host_processors_per_node": "2",
    "host_processor_model_name": "AMD EPYC 9654",
    "host_processor_core_count": "96",
    "host_memory_capacity": "1.5 TB",
    "accelerators_per_node": "8",
    "accelerator_model_name": "NVIDIA H100-SXM5-80GB",
    "accelerator_memory_capacity": "80 GB",
    "accelerator_interconnect": "NVLink",
    "framework": "PyTorch NVIDIA Release 24.04",
    "other_software_stack": {
        "cuda_version": "12.4.1",
        "cuda_driver_version": "550.54.15",
        "nccl_version": "2.21.5"
    },
    "operating_system": "Ubuntu 22.04"
}
J
# one node of it: the headline is of a single node
sed 's/"number_of_nodes": "2"/"number_of_nodes": "1"/' "$sub/systems/gpu2.json" >"$sub/systems/gpu1.json"
cat >"$sub/systems/cpu4.json" <<'J'
{"submitter": "Acme", "system_name": "Acme CPU cluster", "number_of_nodes": "4",
 "host_processors_per_node": "1", "host_processor_model_name": "AMD EPYC 7302",
 "host_processor_core_count": "8", "host_processor_vcpu_count": "16",
 "host_memory_capacity": "256 GB", "accelerators_per_node": "0",
 "accelerator_model_name": "", "framework": "PyTorch 2.3",
 "other_software_stack": {"python": "3.11"}}
J
for sys in gpu1 gpu2 cpu4; do
    i=0
    for ms in 600000 540000 660000 630000 570000; do
        {
            echo ':::MLLOG {"key": "submission_benchmark", "value": "resnet", "time_ms": 1}'
            echo ':::MLLOG {"key": "global_batch_size", "value": 640, "time_ms": 1}'
            echo ':::MLLOG {"key": "run_start", "value": null, "time_ms": 1000, "metadata": {}}'
            echo ":::MLLOG {\"key\": \"run_stop\", \"value\": null, \"time_ms\": $((1000 + ms)), \"metadata\": {\"status\": \"success\"}}"
        } >"$sub/results/$sys/resnet/result_$i.txt"
        i=$((i + 1))
    done
done
"$MEASURE" import --mlperf "$sub" --repo acme/results --commit $commit --data "$tmp/data" >"$tmp/out" 2>&1 ||
    die "import: $(cat "$tmp/out")"
"$GEN" build --data "$tmp/data" --templates templates --out "$tmp/reports" >"$tmp/b" 2>&1 ||
    die "gen build: $(cat "$tmp/b")"
# The framework's pages as one file each: its README, then its machines'
# pages (PLATFORM-*.md, fw_split.h).
d="$tmp/reports/MLPerf-ResNet50/MLPerf"
cat "$d/README.en.md" $(ls "$d"/PLATFORM-*.en.md 2>/dev/null) >"$tmp/fw.en.md"
cat "$d/README.md" $(ls "$d"/PLATFORM-*.md 2>/dev/null | grep -v '\.en\.md$') >"$tmp/fw.zh.md"
fw="$tmp/fw.en.md"
fwzh="$tmp/fw.zh.md"
model="$tmp/reports/MLPerf-ResNet50/README.en.md"
modelzh="$tmp/reports/MLPerf-ResNet50/README.md"
# 1. the title names the source once; a time to train is a training time
grep -qx '# MLPerf-ResNet50: reproduction report' "$fw" || die "title: $(grep -m1 '^# ' "$fw")"
grep -qx '# MLPerf-ResNet50 性能复现报告' "$fwzh" || die "zh title: $(grep -m1 '^# ' "$fwzh")"
grep -qx '## 1. Training time' "$model" || die "model section: $(grep '^## 1' "$model")"
grep -qx '## 一、训练时间对比' "$modelzh" || die "zh model section: $(grep '^## 一' "$modelzh")"
# 2. counts: nodes x devices per node, threads on a CPU system
grep -qF '| Acme GPU cluster (gpu2) | 2 nodes × 8 GPUs | 640 |' "$fw" || die "GPU count: $(grep -F 'Acme GPU' "$fw" | head -3)"
grep -qF '| Acme CPU cluster (cpu4) | 4 nodes × 16 threads | 640 |' "$fw" || die "CPU count: $(grep -F 'Acme CPU' "$fw" | head -3)"
grep -qF '| 2 nodes × 8 GPUs |' "$fw" || die "GPU count in the results table"
grep -qF '| 4 nodes × 16 threads |' "$fw" || die "CPU count in the results table"
grep -qF '4 节点 × 16 线程' "$fwzh" || die "zh CPU count"
grep -qF '| Nodes | Threads |' "$fw" || die "CPU column heading: $(grep -F '| Nodes |' "$fw")"
grep -qF '| Nodes | Threads |' "$model" || die "CPU column heading on the model page"
if grep -n 'Processes\|进程' "$fw" "$model" "$fwzh" "$modelzh"; then die "a CPU system's threads called processes"; fi
for f in "$fw" "$model"; do
    if grep -nE '[0-9]+×[0-9]+ (GPU|process|thread|core)' "$f"; then die "a product count in $f"; fi
    if grep -nE '[0-9]+ (process|processes|cores)\b' "$f"; then die "a CPU system counted in processes or cores in $f"; fi
done
# 3. the environment: the description's items, each linked to its line
url="https://github.com/acme/results/blob/$commit/Acme/systems/gpu2.json"
for item in 'CUDA: `12.4.1`' 'Driver: `550.54.15`' 'NCCL: `2.21.5`' 'Framework: `PyTorch NVIDIA Release 24.04`' \
    'CPU: `AMD EPYC 9654`' 'Memory: `1.5 TB`' 'OS: `Ubuntu 22.04`' 'Other: `accelerator_interconnect`: `NVLink`'; do
    key=$(echo "$item" | sed 's/.*`\([^`]*\)`$/\1/')
    line=$(grep -nF "\"$key\"" "$sub/systems/gpu2.json" | head -1 | cut -d: -f1)
    [ -n "$line" ] || die "no line of $key"
    grep -qF -- "- $item ([L$line]($url#L$line))" "$fw" || die "environment item $item (line $line): $(grep -F "$key" "$fw")"
done
grep -qF 'Python: `3.11`' "$fw" || die "the CPU system's software"
if grep -n 'records no software' "$fw" "$fwzh"; then die "the description's software not shown"; fi
# 4. which figure a cell is: the headline's is the median of runs, the table's the score
grep -qF "each is the median of one system's runs, not MLPerf's score" "$fw" || die "headline sentence: $(grep -A2 'In short' "$fw")"
grep -qF '| Configuration | median of runs: min, lower is better |' "$fw" || die "headline column"
grep -qF '| MLPerf score (min) |' "$fw" || die "score column"
grep -qF '中位数，不是 MLPerf 成绩' "$fwzh" || die "zh headline sentence"
# 5. the precision is not stated, not guessed (the classes file of this
# data folder is perfrepro's default: a class of its own, "UNSTATED")
/usr/bin/python3 - "$tmp/data/runs" <<'PY' || die "records' precision"
import json, os, sys
for run in os.listdir(sys.argv[1]):
    d = os.path.join(sys.argv[1], run, "logs/index")
    for f in os.listdir(d):
        p = json.load(open(os.path.join(d, f)))["precision"]
        assert p == "unstated", (run, f, p)
PY
grep -qF '#### UNSTATED BS=80 · Acme GPU cluster (gpu1)' "$fw" || die "precision heading: $(grep '^#### ' "$fw" | head -3)"
if grep -n 'AMP' "$fw" "$model"; then die "a precision the logs do not state"; fi

# The shipped MLPerf pages, for the models the shipped data holds.
[ -d data/runs ] || exit 0
models=$(cat data/runs/mlperf-*/suite.json 2>/dev/null | sed -n 's/^ *"model": "\(.*\)",$/\1/p' | sort -u)
[ -n "$models" ] || { echo "skip: no MLPerf runs in data/"; exit 77; }
"$GEN" build --data data --templates templates --out "$tmp/shipped" >"$tmp/b" 2>&1 || die "gen build of data/: $(tail -3 "$tmp/b")"
for m in $models; do
    for page in "$tmp/shipped/$m/MLPerf/README.en.md" "$tmp/shipped/$m/README.en.md"; do
        [ -f "$page" ] || die "no page $page"
        if grep -nE '[0-9]+×[0-9]+ GPU' "$page"; then die "$m: a product count"; fi
        if grep -n 'MLPerf MLPerf-\|records no software' "$page"; then die "$m: title or environment"; fi
        if grep -n 'AMP\|Mixed precision' "$page"; then die "$m: a precision MLPerf's logs do not state"; fi
        grep -q 'Precision not stated\|UNSTATED' "$page" || die "$m: no precision class \"not stated\""
    done
    grep -qx '## 1. Training time' "$tmp/shipped/$m/README.en.md" || die "$m: model section"
    grep -q '^  - CUDA: `[^`]*` (\[L[0-9]*\](https://github.com/mlcommons/training_results_v4.0/blob/[0-9a-f]*/[^)]*/systems/[^)]*\.json#L[0-9]*))$' \
        "$tmp/shipped/$m/MLPerf/README.en.md" $(ls "$tmp/shipped/$m/MLPerf"/PLATFORM-*.en.md 2>/dev/null) ||
        die "$m: no CUDA version linked to its system description"
done
echo ok
