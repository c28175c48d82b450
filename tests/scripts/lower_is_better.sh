#!/bin/sh
# Direction is part of a unit (issue 33, first "What to build" bullet): a
# time to train in "min" is better lower, end to end, on synthetic records
# and published tables written into a temporary data folder:
#   - the table header says "lower is better", the headline is the lowest
#     time at the largest count;
#   - speedup is t1/tn and efficiency follows, when the global batch is the
#     same at both counts (records stating metrics.global_batch_size);
#   - no speedup or efficiency where the global batch differs: both times
#     shown, the note says why (zh and en), in the reproduction and the
#     published table alike;
#   - charts never draw a time per GPU, their axes say lower is better;
#   - compare calls the run set with less time faster (and --fail-on
#     regression fails the other way round);
#   - history calls a rise of a time a regression;
#   - export carries direction "lower";
#   - the throughput sanity rules (a figure falling as GPUs are added) do
#     not flag a time.
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
need_bins GEN MEASURE
command -v python3 >/dev/null 2>&1 || { echo "lower_is_better: no python3 (skipped)"; exit 77; }
mkdir -p "$tmp/data/published" "$tmp/src"
toy_gpu_data
rule='{"keyword":"ttt:","scope":"global","skip":0,"reduce":"last"}'
# case RUN FRAMEWORK GPUS BS V0 V1 V2 [GLOBAL_BATCH]: three runs of a time
# to train in minutes, filed into data/runs/RUN.
case_() {
  name="$2_g$3_bs$4"
  for r in 0 1 2; do
    eval "v=\$$((5 + r))"
    printf 'step 0, ttt: %s\nstep 1, ttt: %s\n' "$v" "$v" >"$tmp/src/$1_${name}_$r.log"
  done
  (cd "$tmp/src" && "$MEASURE" parse --rule "$rule" --unit min --gpus "$3" --batch-size "$4" \
    --model Toy --framework "$2" --case "$name" --platform Toy-GPU-x8 --out "$tmp/data/runs/$1" \
    "$1_${name}_0.log" "$1_${name}_1.log" "$1_${name}_2.log" >/dev/null) || fail "measure parse $1 $name"
  if [ $# -ge 8 ]; then
    python3 - "$tmp/data/runs/$1/logs/index/${name}_speed" "$8" <<'PY'
import json, sys
p, g = sys.argv[1], int(sys.argv[2])
r = json.load(open(p))
r.setdefault("metrics", {})["global_batch_size"] = g
open(p, "w").write(json.dumps(r, indent=1, ensure_ascii=False) + "\n")
PY
  fi
}
# Fw: per-GPU batch 64 (the global batch grows with the count) and 32.
case_ slow Fw 1 64 30 31 32
case_ slow Fw 8 64 5.0 5.1 5.2
case_ slow Fw 8 32 6.0 6.1 6.2
case_ fast Fw 1 64 20 21 22
# Strong: the same global batch (512) at 1 and 8 GPUs: speedup 40/5 = 8.
case_ strong Strong 1 64 40 40 40 512
case_ strong Strong 8 64 5 5 5 512
# A published table in minutes (batch 128 per GPU: the global batch grows),
# and a series of README revisions whose time rises: a regression.
python3 - "$tmp/data/published" <<'PY'
import json, sys
d = sys.argv[1]
def table(date, rows, bs=128):
    return {"model": "Toy", "framework": "Pub", "precision": "fp32", "batch_size": bs,
            "unit": "min", "platform": "Toy-GPU-x8", "variant": {"zh": date, "en": date},
            "source": {"commit": "%07d" % int(date.replace("-", "")), "path": "README.md",
                       "date": date},
            "rows": [{"nodes": 1, "gpus": g, "throughput": v} for g, v in rows]}
vals = [10.0, 10.1, 9.9, 10.0, 10.05, 12.5, 12.6, 12.55]
tabs = [table("2024-%02d-01" % (i + 1), [(1, v), (8, v / 6)]) for i, v in enumerate(vals)]
json.dump({"perfrepro": 1, "label": "Src", "source": {"title": "README", "repo": "toy/toy"},
           "tables": tabs}, open(d + "/p.json", "w"), indent=1)
PY

(cd "$tmp" && "$GEN" build --data data --templates templates --out reports >"$tmp/build.log" 2>&1) ||
  { cat "$tmp/build.log"; fail "build failed"; }
# A framework's pages as one file: its README, then its machines' pages
# (PLATFORM-*.md, fw_split.h).
e="$tmp/pages-e.en.md"
[ ! -f "$tmp/reports/Toy/Fw/README.en.md" ] || cat "$tmp/reports/Toy/Fw/README.en.md" $(ls "$tmp/reports/Toy/Fw"/PLATFORM-*.en.md 2>/dev/null) >"$e"
z="$tmp/pages-z.md"
[ ! -f "$tmp/reports/Toy/Fw/README.md" ] || cat "$tmp/reports/Toy/Fw/README.md" $(ls "$tmp/reports/Toy/Fw"/PLATFORM-*.md 2>/dev/null | grep -v '\.en\.md$') >"$z"
s="$tmp/pages-s.en.md"
[ ! -f "$tmp/reports/Toy/Strong/README.en.md" ] || cat "$tmp/reports/Toy/Strong/README.en.md" $(ls "$tmp/reports/Toy/Strong"/PLATFORM-*.en.md 2>/dev/null) >"$s"
p="$tmp/pages-p.en.md"
[ ! -f "$tmp/reports/Toy/Pub/README.en.md" ] || cat "$tmp/reports/Toy/Pub/README.en.md" $(ls "$tmp/reports/Toy/Pub"/PLATFORM-*.en.md 2>/dev/null) >"$p"
if [ -f "$e" ]; then
  grep -q '| Time (min, lower is better) |' "$e" || fail "header: $(grep '^| Nodes' "$e" | head -1)"
  grep -q '时间 (min, 越低越好)' "$z" || fail "zh header"
  # 8 GPUs at batch 64 per GPU: global 512 against 64 at 1 GPU.
  grep -qF '| 31.00 → 5.10² | — |' "$e" || fail "batch differs: $(grep '^| 1 | 8 |' "$e")"
  grep -qF 'No speedup or efficiency for a time whose global batch differs' "$e" || fail "en note"
  grep -qF '全局批大小与基线不同' "$z" || fail "zh note"
  # The headline: the lowest time at 8 GPUs (5.10 at bs 64, not 6.10 at bs 32).
  grep -q 'Throughput per GPU' "$e" && fail "a time drawn per GPU"
  # The throughput rules (falls, jumps, superlinear) do not judge a time.
  grep -q 'is below the' "$e" && fail "a falling time flagged as a falling throughput"
else
  fail "no $e"
fi
grep -rq '5\.10' "$tmp/reports/README.en.md" || fail "headline on the index: $(grep -n 'Toy' "$tmp/reports/README.en.md" | head -3)"
grep -rq '6\.10 min' "$tmp/reports/README.en.md" && fail "headline is the highest time"
if [ -f "$s" ]; then
  grep -qE '\| 8(\.00)? \| 100\.0%' "$s" || fail "strong scaling: $(grep '^| 1 | 8 |' "$s")"
else
  fail "no $s"
fi
if [ -f "$p" ]; then
  grep -qF ' → ' "$p" || fail "published: both figures not shown: $(grep '^| 1 | 8 |' "$p" | head -2)"
  grep -q '×0\.' "$p" && fail "published: a speedup below 1 for a faster time"
else
  fail "no $p"
fi
# Like with like on the model page: the fastest is the lowest time, and
# "×" says how many times as fast (5.10 / 5.00).
grep -qF 'Like with like: at 1 node × 8 GPUs, Strong (5.00) is ×1.02 Fw (5.10).' \
  "$tmp/reports/Toy/README.en.md" || fail "like with like: $(grep -n 'Like with like: at' "$tmp/reports/Toy/README.en.md")"
# Charts: axes say lower is better, nothing per GPU.
grep -rlq 'lower is better' "$tmp/reports/Toy" --include='*.svg' --include='*.md' ||
  fail "no chart or page says lower is better"
grep -rlq 'per GPU' "$tmp/reports/Toy" --include='*.svg' && fail "a chart per GPU for a time"

# Compare: fast has less time than slow: B faster; the other way slower.
"$GEN" compare --data "$tmp/data" --a slow --b fast --format csv >"$tmp/ab.csv" 2>"$tmp/err" ||
  fail "compare: $(cat "$tmp/err")"
grep -q ',faster,' "$tmp/ab.csv" || fail "less time is not faster: $(cat "$tmp/ab.csv")"
st=0; "$GEN" compare --data "$tmp/data" --a fast --b slow --format csv --fail-on regression >"$tmp/ba.csv" 2>/dev/null || st=$?
[ $st -eq 1 ] && grep -q ',slower,' "$tmp/ba.csv" || fail "more time not a regression: exit $st: $(cat "$tmp/ba.csv")"
"$GEN" compare --data "$tmp/data" --a slow --b fast --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = [x for x in d["cells"] if x.get("direction") == "lower"]
assert c and all(x["ratio"] > 1 for x in c), d["cells"]' || fail "compare json: direction, ratio"
"$GEN" compare --data "$tmp/data" --a slow --b fast --lang en >"$tmp/ab.md" 2>/dev/null || fail "compare md"
grep -qF 'their ratio is A'"'"'s time over B'"'"'s' "$tmp/ab.md" || fail "compare md: no word on times"

# History: the rise of the README series is a regression.
"$GEN" history --data "$tmp/data" --format json >"$tmp/h.json" 2>"$tmp/err" || fail "history: $(cat "$tmp/err")"
python3 - "$tmp/h.json" <<'PY' || fail "history (above)"
import json, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d["series"] if x["framework"] == "Pub" and x["gpus"] == 1]
assert len(s) == 1, [x["framework"] for x in d["series"]]
st = [p["state"] for p in s[0]["points"]]
assert "regression" in st and "improvement" not in st, st
PY

h="$tmp/reports/Toy/Pub/HISTORY.en.md"
grep -q '| 12.5 | .* | regression |' "$h" || fail "history page: $(grep '^| 2024-06' "$h")"
grep -lq 'lower is better' "$tmp"/reports/Toy/Pub/history-*.en.svg || fail "history chart: no word on the direction"

# Export: the direction column.
"$GEN" export --data "$tmp/data" --format csv >"$tmp/x.csv" 2>"$tmp/err" || fail "export: $(cat "$tmp/err")"
python3 - "$tmp/x.csv" <<'PY' || fail "export (above)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["direction"] == "lower" for r in rows), [r.get("direction") for r in rows]
sp = [r for r in rows if r["framework"] == "Strong" and r["gpus"] == "8"]
assert sp and abs(float(sp[0]["speedup"]) - 8) < 1e-9, sp
assert all(r["speedup"] == "" for r in rows if r["framework"] == "Fw" and r["gpus"] != "1"), [(r["gpus"], r["speedup"]) for r in rows if r["framework"] == "Fw"]
PY
finish ok
