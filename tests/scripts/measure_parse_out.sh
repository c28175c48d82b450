#!/bin/sh
# perfrepro-measure parse --out files existing logs into a run folder that
# perfrepro-gen loads and renders, log links included.
. tests/scripts/lib/preamble.sh
set -e
for r in 1 2 3; do
  for i in 1 2 3 4 5 6; do echo "[2024-05-01] step $i, ips: $((100 + r)).0 samples/sec"; done > "$tmp/run$r.log"
done
rule='{"profile":"paddle-ips","scope":"per_card","skip":1}'
"$MEASURE" parse --rule "$rule" --gpus 8 --batch-size 64 --model M --framework F \
  --case clas_M_mp_bs64_fp32_8 --model-name clas_M --mission-name 图像分类 \
  --out "$tmp/data/runs/imported" "$tmp/run1.log" "$tmp/run2.log" "$tmp/run3.log" > "$tmp/record.json"
# The median of the three runs, x 8 cards.
grep -q '"FINAL_RESULT": 816' "$tmp/record.json" || { cat "$tmp/record.json"; exit 1; }
[ -f "$tmp/data/runs/imported/logs/train_log/clas_M_mp_bs64_fp32_8" ]
[ -f "$tmp/data/runs/imported/logs/train_log/clas_M_mp_bs64_fp32_8_run3" ]
cmp "$tmp/data/runs/imported/logs/index/clas_M_mp_bs64_fp32_8_speed" "$tmp/record.json"
ls "$tmp/data/runs/imported/logs/index" | grep -v '_speed$' && { echo "stray files in logs/index"; exit 1; }
"$GEN" validate --data "$tmp/data" | grep -q "1 records: valid"
cp -R templates "$tmp/templates"
(cd "$tmp" && "$GEN" build --data data --templates templates --out reports --no-charts)
grep -q '| 1 | 8 | 816.00‡ | 808.00 – 824.00 (75.0%) | 3 (15) |' "$tmp/reports/M/F/README.md" && echo "ok" && exit 0
cat "$tmp/reports/M/F/README.md"; exit 1
