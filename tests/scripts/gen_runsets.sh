#!/bin/sh
# Run sets (docs/data-model.md#run-sets): logs of one source in two run
# folders (one node, and a cluster with another rule); no speedup or
# efficiency across them (table, published table, export), the cell saying
# why and what differs; a figure from too few records is
# flagged; a table printed as FP16 whose logs ran AMP pairs with the AMP
# runs as a whole; the audit pairs a figure with the log of another batch
# size that gives it, saying both; a malformed runset.json is refused.
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
set -e
mkdir -p "$tmp/data/published" "$tmp/src/logs"
toy_gpu_data
# Twenty per-card records 100.16..119.16 per log (skip 2: 110.66; skip 0:
# 109.66); the 32-GPU AMP log has four (skip 2: 102.16 per card).
for g in 1 8 16 32; do
  for p in amp fp16; do
    n=20
    [ "$g$p" = 32amp ] && n=4
    i=0
    while [ $i -lt $n ]; do echo "step $i, ips: $((100 + i)).16 samples/sec"; i=$((i + 1)); done \
      >"$tmp/src/logs/${p}_g$g.log"
  done
done
commit=0123456789abcdef0123456789abcdef01234567
imp() { # RUN GPUS PRECISION BS RULE [FIT FIGURE]
  nodes=1
  [ "$2" -gt 8 ] && nodes=$(($2 / 8))
  (cd "$tmp/src" && "$MEASURE" parse --rule "$5" --gpus "$2" --nodes "$nodes" --batch-size "$4" \
    --precision "$3" --model Toy --framework Fw --case "toy_bs$4_$3_gpu$2" --platform Toy-GPU-x8 \
    --source-repo owner/repo --source-commit $commit --source-path "logs/$3_g$2.log" \
    --out "$tmp/data/runs/$1" "logs/$3_g$2.log" >/dev/null)
  if [ $# -ge 6 ]; then
    mkdir -p "$tmp/data/runs/$1/fit"
    (cd "$tmp/src" && "$MEASURE" parse --rule "$5" --json --fit "$6" --gpus "$2" --batch-size "$4" \
      "logs/$3_g$2.log" >"$tmp/data/runs/$1/fit/toy_bs$4_$3_gpu$2.json") || true
  fi
}
node='{"profile":"paddle-ips","scope":"per_card","skip":2}'
cluster='{"profile":"paddle-ips","scope":"per_card","skip":0}'
imp node 1 amp 64 "$node"
imp node 8 amp 64 "$node"
imp cluster 32 amp 64 "$node"
# 16 GPUs on the cluster read with another rule: no speedup across two rules.
imp cluster 16 amp 64 "$cluster"
# The pure FP16 (O2) log exists only on the cluster, and ran batch size 32.
imp cluster 32 fp16 32 "$cluster" 999.9
printf '{"perfrepro": 1, "title": {"zh": "单机", "en": "one node"}}\n' >"$tmp/data/runs/node/runset.json"
printf '{"perfrepro": 1, "title": {"zh": "集群", "en": "the cluster"}}\n' >"$tmp/data/runs/cluster/runset.json"
# The source prints an FP16 column at 1, 8 and 32 GPUs, and a BS=64 FP16
# figure at 32 GPUs that the BS=32 log's import names.
cat >"$tmp/data/published/p.json" <<EOF
{"perfrepro": 1, "label": "Src",
 "source": {"title": "README", "repo": "owner/repo", "commit": "$commit", "path": "README.md",
            "url": "https://github.com/owner/repo/blob/$commit/README.md#L10"},
 "tables": [{"model": "Toy", "framework": "Fw", "precision": "fp16", "batch_size": 64,
             "unit": "samples/s", "platform": "Toy-GPU-x8",
             "rows": [{"nodes": 1, "gpus": 1, "throughput": 110.66, "printed": "110.66"},
                      {"nodes": 1, "gpus": 8, "throughput": 885.28, "printed": "885.28"},
                      {"nodes": 4, "gpus": 32, "throughput": 999.9, "printed": "999.9"}]}]}
EOF
# A vendor's table of the same configuration: another run set than the logs'.
cat >"$tmp/data/published/v.json" <<EOF
{"perfrepro": 1, "label": "Vendor",
 "source": {"title": "README", "repo": "vendor/repo", "commit": "$commit", "path": "README.md",
            "url": "https://github.com/vendor/repo/blob/$commit/README.md#L5"},
 "tables": [{"model": "Toy", "framework": "Fw", "precision": "amp", "batch_size": 64,
             "unit": "samples/s", "platform": "Toy-GPU-x8",
             "rows": [{"nodes": 1, "gpus": 1, "throughput": 120, "printed": "120"}]}]}
EOF
# The node's runs keep the suite they ran: its steps are shown as the ones
# that produced their figures.
cat >"$tmp/data/runs/node/suite.json" <<'EOF'
{"perfrepro": 1, "model": "Toy", "framework": "Fw", "model_name": "toy", "mission_name": "图像分类",
 "direction_id": 0, "unit": "samples/s",
 "source": {"repo": "https://example.org/toy.git", "commit": "0123456789abcdef0123456789abcdef01234567"},
 "steps": {"vars": {"TOY_DATA": {"zh": "数据目录", "en": "the data folder"}},
           "setup": [["pip", "install", "toy==1.2.3"], ["test", "-d", "{TOY_DATA}"]]},
 "command": ["python", "train.py", "--batch-size", "{batch_size}", {"amp": ["--amp"]},
             "--data", "/data"],
 "matrix": {"nodes": [1], "gpus_per_node": [1, 8], "batch_size": [64], "precision": ["amp"]},
 "rule": {"profile": "paddle-ips", "scope": "per_card", "skip": 2},
 "case_name": "toy_bs{batch_size}_{precision}_gpu{gpus}"}
EOF
(cd "$tmp" && "$GEN" build --data data --templates templates --out reports --no-charts) ||
  die "build failed"
# The framework's pages: its README and its machines' pages (fw_split.h).
d="$tmp/reports/Toy/Fw"
cat "$d"/README.en.md "$d"/PLATFORM-*.en.md >"$tmp/pages.en"
cat "$d"/README.md $(ls "$d"/PLATFORM-*.md | grep -v '\.en\.md$') >"$tmp/pages.zh"
e="$tmp/pages.en"
z="$tmp/pages.zh"
grep -qF '4 nodes × 8 GPUs: no speedup: the 1-GPU figure is of another run set (“one node”, this figure of “the cluster”); they differ in the parse rule (skip 0 / 2); speedup and efficiency are computed within one run set only.' "$e" ||
  { cat "$e"; die "no note on the speedup not computed across run sets"; }
grep -qF '不计算加速比：1 卡数据属于另一运行组（“单机”，该数据属于“集群”）' "$z" || die "zh run-set note"
grep -qF '| 4 | 32 | 3285.12‡ | — | 1 (2) ❗b | other run set ❗c | — |' "$e" ||
  { cat "$e"; die "a speedup across two run sets"; }
grep -qF '| 2 | 16 | 1754.56‡ | — | 1 (20) | other run set ❗a | — |' "$e" || { cat "$e"; die "a speedup across two rules and run sets"; }
grep -qF '2 nodes × 8 GPUs: no speedup: the 1-GPU figure is of another run set (“one node”, this figure of “the cluster”) and was read with another parse rule; they differ in the parse rule (skip 0 / 2)' "$e" ||
  die "the two rules are not footnoted"
# The source's own table: its 32-GPU figure's log is of the cluster, its
# 1-GPU figure's of the node: no speedup computed there either.
grep -F '| AMP BS=64 | [README](https://github.com/owner/repo' "$e" | grep -qF '"audit: differs from its log") · other run set ❗a |' ||
  { cat "$e"; die "the published table computes a speedup across run sets"; }
# The export (figures.csv) holds no speedup across run sets either.
(cd "$tmp" && "$GEN" export --data data --format jsonl) >"$tmp/fig.jsonl" || die "export failed"
grep -E '"gpus":(16|32),' "$tmp/fig.jsonl" | grep -q '"speedup":[0-9]' &&
  { grep -E '"gpus":(16|32),' "$tmp/fig.jsonl"; die "export: a speedup across run sets"; }
grep '"gpus":8,' "$tmp/fig.jsonl" | grep -q '"speedup":8' || { cat "$tmp/fig.jsonl"; die "export: no speedup within the run set"; }
grep -qF '| 1 | 8 | 885.28‡ | — | 1 (18) |' "$e" || die "the records of a 1-node figure"
grep -qF 'the figure comes from only 2 records (steps) of its log; fewer than 10' "$e" ||
  die "no flag on a figure of 2 records"
grep -qF 'This table is labelled FP16, but its source'"'"'s logs ran AMP' "$e" ||
  die "the FP16 table does not say it pairs with the AMP runs"
# The AMP configuration holds the FP16-labelled table; the FP16 one only the O2 log.
awk '/^#### AMP BS=64/,/^#### FP16/' "$e" | grep -qF '110.66†' || die "the table is not beside the AMP runs"
# The audit: 1 and 8 GPUs against the AMP logs; 32 against the BS=32 FP16 log its import names.
a="$tmp/reports/AUDIT.en.md"
grep -F '[110.66†]' "$a" | grep -qF '(printed under FP16; the log ran AMP)' || { cat "$a"; die "audit: FP16 vs AMP"; }
grep -F '[999.9†]' "$a" | grep -qF '(printed under FP16 BS=64; the log ran FP16 BS=32)' ||
  { cat "$a"; die "audit: another batch size"; }
grep -qF 'Published (Vendor): of another run set than these logs' "$e" ||
  { cat "$e"; die "a vendor's gap is not said to compare two setups"; }
grep -qF 'Published (Src): of another run set' "$e" && die "the logs' own source is said to be another run set"
awk '/^### The steps that produced the figures/,/^### The plan/' "$e" >"$tmp/steps"
grep -qF '<details><summary>Run set “one node”' "$tmp/steps" || { cat "$e"; die "no steps for the run set with a suite"; }
grep -qF '#### Run set “the cluster”' "$tmp/steps" && die "steps for a run set without a suite"
grep -qF 'pip install toy==1.2.3' "$tmp/steps" || { cat "$tmp/steps"; die "the run set's setup is not shown"; }
grep -qF -- '--batch-size 64 --amp' "$tmp/steps" || { cat "$tmp/steps"; die "the run set's command is not shown"; }
grep -qF '### 产出这些数据的步骤' "$z" || die "zh: no run-set steps"
# A record that is no case of its run's suite is refused: the steps did not make it.
sed -i 's/"gpus_per_node": \[1, 8\]/"gpus_per_node": [1]/' "$tmp/data/runs/node/suite.json"
if (cd "$tmp" && "$GEN" build --data data --templates templates --out reports3 --no-charts) 2>"$tmp/err"; then
  die "a record outside its run's suite was accepted"
fi
grep -q 'toy_bs64_amp_gpu8_speed: case: "toy_bs64_amp_gpu8" is no case of the run.s suite.json' "$tmp/err" ||
  { cat "$tmp/err"; die "unclear suite.json error"; }
sed -i 's/"gpus_per_node": \[1\]/"gpus_per_node": [1, 8]/' "$tmp/data/runs/node/suite.json"
# A malformed runset.json stops the build, naming file, line and field.
printf '{"perfrepro": 1,\n "title": {"zh": "x", "en": "y"},\n "enviroment": []}\n' >"$tmp/data/runs/node/runset.json"
if (cd "$tmp" && "$GEN" build --data data --templates templates --out reports2 --no-charts) 2>"$tmp/err"; then
  die "a misspelt runset.json key was accepted"
fi
grep -q 'runs/node/runset.json:3:.*enviroment.*did you mean' "$tmp/err" || { cat "$tmp/err"; die "unclear runset.json error"; }
[ ! -e "$tmp/reports2" ] || die "a failed build left output"
echo ok
