#!/bin/sh
# The audit (reports/AUDIT.md): logs imported with perfrepro-measure parse
# --out --platform --source-*, their fit reports (--fit --json), a published
# table and a restated one of the same repository; every verdict, the
# figures with no log, the logs with no figure, the comparison table's
# disagreements, and a fit report typed with another figure refused.
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
set -e
mkdir -p "$tmp/data/published" "$tmp/data/restated" "$tmp/src/logs"
toy_gpu_data
# Four logs: per-card rates 100.16..104.16 (mean 102.16), times the GPUs.
for g in 1 8 16 32; do
  for i in 0 1 2 3 4; do echo "step $i, ips: $((100 + i)).16 samples/sec"; done >"$tmp/src/logs/g$g.log"
done
commit=0123456789abcdef0123456789abcdef01234567
rule='{"profile":"paddle-ips","scope":"per_card"}'
imp() { # GPUS FIGURE
  nodes=1
  [ "$1" -gt 8 ] && nodes=$(($1 / 8))
  (cd "$tmp/src" && "$MEASURE" parse --rule "$rule" --gpus "$1" --nodes "$nodes" --batch-size 64 \
    --model Toy --framework Fw --case "toy_bs64_fp32_gpu$1" --platform Toy-GPU-x8 \
    --source-repo owner/repo --source-commit $commit --source-path "logs/g$1.log" \
    --out "$tmp/data/runs/imported" "logs/g$1.log" >/dev/null)
  if [ "$2" != - ]; then
    mkdir -p "$tmp/data/runs/imported/fit"
    (cd "$tmp/src" && "$MEASURE" parse --rule "$rule" --json --fit "$2" --gpus "$1" \
      --batch-size 64 "logs/g$1.log" >"$tmp/data/runs/imported/fit/toy_bs64_fp32_gpu$1.json") || true
  fi
}
# 1 GPU: 102.16 printed so (reproduced); 8: 817.28 printed 816.9 (differs);
# 16: 1634.56 printed 1634.6 (reproduced); 32: no figure.
imp 1 102.16
imp 8 816.9
imp 16 1634.6
imp 32 -
grep -q '"platform": "Toy-GPU-x8"' "$tmp/data/runs/imported/logs/index/toy_bs64_fp32_gpu8_speed" ||
  die "the record does not name its platform"
grep -q "\"url\": \"https://github.com/owner/repo/blob/$commit/logs/g8.log\"" \
  "$tmp/data/runs/imported/logs/index/toy_bs64_fp32_gpu8_speed" || die "the record has no source url"
grep -q '"closest"' "$tmp/data/runs/imported/fit/toy_bs64_fp32_gpu8.json" || die "no fit report"
table() { # FILE LABEL ROWS
  cat >"$1" <<EOF
{"perfrepro": 1, "label": "$2",
 "source": {"title": "README", "repo": "owner/repo", "commit": "$commit", "path": "README.md",
            "url": "https://github.com/owner/repo/blob/$commit/README.md#L10"},
 "tables": [{"model": "Toy", "framework": "Fw", "precision": "fp32", "batch_size": 64,
             "unit": "samples/s", "platform": "Toy-GPU-x8", "rows": [$3]}]}
EOF
}
table "$tmp/data/published/p.json" "Primary" \
  '{"nodes": 1, "gpus": 1, "throughput": 102.16, "printed": "102.16"},
   {"nodes": 1, "gpus": 8, "throughput": 816.9, "printed": "816.9"},
   {"nodes": 2, "gpus": 16, "throughput": 1634.6, "printed": "1634.6"},
   {"nodes": 8, "gpus": 64, "throughput": 6000, "printed": "6000"}'
# The comparison table: 1 GPU with other digits (the log gives it only truncated),
# 8 GPUs as the primary prints it (and as wrong), 16 GPUs as the primary (agrees).
table "$tmp/data/restated/c.json" "Compare" \
  '{"nodes": 1, "gpus": 1, "throughput": 102.1, "printed": "102.1"},
   {"nodes": 1, "gpus": 8, "throughput": 816.9, "printed": "816.9"},
   {"nodes": 2, "gpus": 16, "throughput": 1634.6, "printed": "1634.6"}'
(cd "$tmp" && "$GEN" build --data data --templates templates --out reports --no-charts) ||
  die "build failed"
a="$tmp/reports/AUDIT.md"
e="$tmp/reports/AUDIT.en.md"
grep -q 'AUDIT.md' "$tmp/reports/README.md" || die "the index does not link the audit"
grep -q '(AUDIT.en.md)' "$a" && grep -q '(AUDIT.md)' "$e" || die "no language switch"
grep -q '4 published figures: ✅ reproduced 2; ✂️ only by truncation 0; ❌ differ 1; no value from the log 0; no log 1. Logs with no published figure: 1.' "$e" ||
  { cat "$e"; die "wrong counts"; }
row() { grep -F "$1" "$e" | grep -qF "$2" || { cat "$e"; die "no row with $1 and $2"; }; }
row '[102.16†]' '✅ reproduced'
row '[816.9†]' '❌ differs: +0.05% (rounds to 817.3)'
row '[816.9†]' 'no rule reproduces it; closest:'
row '[1634.6†]' '✅ reproduced'
row '[6000†]' '| 8 nodes × 8 GPUs |'
row '[3269.12000‡]' 'logs/g32.log'
row '[102.1†]' '✂️ only by truncation (rounds to 102.2)'
row '[102.1†]' '[102.16†]'
row "[816.9†]" "❌ differs: +0.05%"
[ "$(grep -cF '[1634.6†]' "$e")" = 1 ] || die "the restated figure that agrees is listed"
grep -qF 'print the frameworks' "$e" && grep -qF '3 figures, of which 2 are' "$e" || die "restated counts"
grep -q '❌ 不符：+0.05%（四舍五入为 817.3）' "$a" || die "zh verdict"
# A fit report typed with another figure than the table prints is refused.
sed -i 's/"figure": "816.9"/"figure": "816.8"/' "$tmp/data/runs/imported/fit/toy_bs64_fp32_gpu8.json"
if (cd "$tmp" && "$GEN" build --data data --templates templates --out reports2 --no-charts) 2>"$tmp/err"; then
  die "a fit report for another figure was accepted"
fi
grep -q 'toy_bs64_fp32_gpu8_speed: fit: .*searched for 816.8, but .*p.json (table 0) prints 816.9' "$tmp/err" ||
  { cat "$tmp/err"; die "unclear error"; }
[ ! -e "$tmp/reports2" ] || die "a failed build left output"
# --source-* go together, and a commit must be a commit id.
if "$MEASURE" parse --rule "$rule" --source-repo a/b "$tmp/src/logs/g1.log" 2>"$tmp/err"; then die "lone --source-repo"; fi
grep -q 'go together' "$tmp/err" || die "unclear --source-* error"
if "$MEASURE" parse --rule "$rule" --gpus 1 --source-repo a/b --source-commit zz --source-path x \
  "$tmp/src/logs/g1.log" >/dev/null 2>"$tmp/err"; then die "bad commit accepted"; fi
grep -q 'not a commit id' "$tmp/err" || die "unclear commit error"
echo ok
