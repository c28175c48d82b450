#!/bin/sh
# perfrepro-measure import --mlperf against an independent implementation of
# MLPerf Training's score rule (Python, below: it reads the result files
# itself): for every system and benchmark of ../shared/mlperf-training-v4.0,
# each run's time to train (run_start to run_stop, ms / 60000), the runs
# sorted with a run that did not converge as the slowest, the fastest and the
# slowest dropped (resnet 5 runs, bert and llama2_70b_lora 10), the mean
# times scaling.json's factor.  The two must agree to the last digit (%.17g).
# Then each unscaled figure, as printed to 17 digits, is given to
# `parse --fit` with the mllog rule of MLPerf's score over that folder's
# result files: the figure is taken whatever its length, and reproduced.
# Skipped (77) without the shared snapshot.
. tests/scripts/lib/preamble.sh
SRC="${MLPERF_SRC:-../shared/mlperf-training-v4.0}"
[ -d "$SRC" ] || { echo "no $SRC"; exit 77; }
need_bins MEASURE
for sub in "$SRC"/*/; do
    [ -d "$sub/results" ] || continue
    "$MEASURE" import --mlperf "${sub%/}" --dry-run >>"$tmp/c.txt" ||
        { echo "FAIL: import --mlperf ${sub%/} --dry-run"; exit 1; }
done
/usr/bin/python3 - "$SRC" "$tmp/c.txt" <<'PY'
import json, os, re, sys
src, c_out = sys.argv[1], sys.argv[2]
RUNS = {"resnet": 5, "bert": 10, "llama2_70b_lora": 10}  # training_policies v4.0

def run(path):
    start = stop = status = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            i = line.find(":::MLLOG ")
            if i < 0:
                continue
            ev = json.loads(line[i + 9:])
            if ev["key"] == "run_start":
                start = ev["time_ms"]
            elif ev["key"] == "run_stop":
                stop, status = ev["time_ms"], ev["metadata"]["status"]
    return (stop - start) / 60000.0, status == "success"

mine = {}
for sub in sorted(os.listdir(src)):
    res = os.path.join(src, sub, "results")
    if not os.path.isdir(res):
        continue
    for system in sorted(os.listdir(res)):
        for bench in sorted(os.listdir(os.path.join(res, system))):
            d = os.path.join(res, system, bench)
            files = [f for f in os.listdir(d) if re.fullmatch(r"result_\d+\.txt", f)]
            runs = [run(os.path.join(d, f)) for f in files]
            assert len(runs) == RUNS[bench], (d, len(runs))
            ok = sorted(t for t, conv in runs if conv)
            bad = len(runs) - len(ok)
            assert bad <= 1, d
            times = ok + [float("inf")] * bad  # a failed run is the slowest
            kept = times[1:-1]
            unscaled = sum(kept) / len(kept)
            factor = 1.0
            sp = os.path.join(d, "scaling.json")
            if os.path.exists(sp):
                with open(sp) as f:
                    factor = json.load(f)["scaling_factor"]
            mine["%s/%s/%s" % (sub, system, bench)] = (unscaled * factor, unscaled, factor)

theirs = {}
pat = re.compile(r"^(\S+): score (\S+) min \(unscaled (\S+) min, factor (\S+)\)")
for line in open(c_out):
    m = pat.match(line)
    assert m, line
    theirs[m.group(1)] = tuple(float(x) for x in m.group(2, 3, 4))
fails = 0
for k in sorted(set(mine) | set(theirs)):
    a, b = mine.get(k), theirs.get(k)
    if a is None or b is None or any("%.17g" % x != "%.17g" % y for x, y in zip(a, b)):
        print("FAIL %s: python %s, perfrepro %s" % (k, a, b))
        fails += 1
print("%d scores of %d cross-checked" % (len(mine) - fails, len(mine)))
sys.exit(1 if fails else 0)
PY
[ $? -eq 0 ] || exit 1
MEASURE_ABS=$(cd "$(dirname "$MEASURE")" && pwd)/$(basename "$MEASURE")
while IFS= read -r line; do
    key=${line%%: score *}
    unscaled=$(printf '%s\n' "$line" | sed 's/.*(unscaled \([0-9.]*\) min.*/\1/')
    sub=${key%%/*} rest=${key#*/}
    sys=${rest%%/*} bench=${rest#*/}
    runs=5
    [ "$bench" = resnet ] || runs=10
    rule="{\"profile\": \"mllog\", \"non_converged\": \"worst\", \"reduce\": \"trimmed_mean\", \"trim\": {\"fraction\": 0, \"min\": 1}, \"min_records\": $runs}"
    (cd "$SRC/$sub/results/$sys/$bench" && "$MEASURE_ABS" parse --rule "$rule" --fit "$unscaled" result_*.txt) >"$tmp/fit" 2>&1
    grep -q "^1 rule reproduces $unscaled" "$tmp/fit" || { echo "FAIL: parse --fit $unscaled ($key): $(head -3 "$tmp/fit")"; exit 1; }
done <"$tmp/c.txt"
echo "15 unscaled figures reproduced by parse --fit at 17 digits"
