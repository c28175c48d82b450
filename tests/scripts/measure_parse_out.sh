#!/bin/sh
# perfrepro-measure parse --out files existing logs into a run folder that
# perfrepro-gen loads and renders, log links included.
set -eu
MEASURE="$PWD/${MEASURE:-bin/perfrepro-measure}"
GEN="$PWD/${GEN:-bin/perfrepro-gen}"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
for r in 1 2 3; do
  for i in 1 2 3 4 5 6; do echo "[2024-05-01] step $i, ips: $((100 + r)).0 samples/sec"; done > "$t/run$r.log"
done
rule='{"profile":"paddle-ips","scope":"per_card","skip":1}'
"$MEASURE" parse --rule "$rule" --gpus 8 --batch-size 64 --model M --framework F \
  --case clas_M_mp_bs64_fp32_8 --model-name clas_M --mission-name 图像分类 \
  --out "$t/data/runs/imported" "$t/run1.log" "$t/run2.log" "$t/run3.log" > "$t/record.json"
# The median of the three runs, x 8 cards.
grep -q '"FINAL_RESULT": 816' "$t/record.json" || { cat "$t/record.json"; exit 1; }
[ -f "$t/data/runs/imported/logs/train_log/clas_M_mp_bs64_fp32_8" ]
[ -f "$t/data/runs/imported/logs/train_log/clas_M_mp_bs64_fp32_8_run3" ]
cmp "$t/data/runs/imported/logs/index/clas_M_mp_bs64_fp32_8_speed" "$t/record.json"
ls "$t/data/runs/imported/logs/index" | grep -v '_speed$' && { echo "stray files in logs/index"; exit 1; }
"$GEN" validate --data "$t/data" | grep -q "1 records: valid"
cp -R templates "$t/templates"
(cd "$t" && "$GEN" build --data data --templates templates --out reports --no-charts)
grep -q '| 1 | 8 | 816.00‡ | 808.00 – 824.00 (75.0%) | 3 (15) |' "$t/reports/M/F/README.md" && echo "ok" && exit 0
cat "$t/reports/M/F/README.md"; exit 1
