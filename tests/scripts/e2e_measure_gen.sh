#!/bin/sh
# End to end: perfrepro-measure runs a suite of fake jobs (good runs, an OOM,
# a crash), the run folder goes under a data dir, perfrepro-gen renders it,
# and every log link in the report resolves to the log that backs it.
. tests/scripts/lib/preamble.sh
set -e
mkdir -p "$tmp/data/suites" "$tmp/data/runs"
cat > "$tmp/data/suites/fake.json" <<JSON
{
 "perfrepro": 1, "model": "FakeNet", "framework": "FakeTorch",
 "model_name": "clas_FakeNet", "mission_name": "图像分类", "direction_id": 0, "unit": "samples/s",
 "command": ["$PWD/tests/jobs/by_batch.sh", "{batch_size}"],
 "timeout_s": 20,
 "matrix": {"nodes": [1], "gpus_per_node": [1, 2], "batch_size": [1], "precision": ["fp32"], "repeats": 2,
            "include": [{"nodes": 1, "gpus_per_node": 2, "batch_size": 6, "precision": "fp32"},
                        {"nodes": 1, "gpus_per_node": 1, "batch_size": 3, "precision": "fp32"}]},
 "rule": {"profile": "paddle-ips", "scope": "per_card", "skip": 1, "reduce": "mean", "min_records": 3}
}
JSON
# Exit 1: some cases fail (on purpose).
rc=0
"$MEASURE" run "$tmp/data/suites/fake.json" --out "$tmp/data/runs/r1" >"$tmp/measure.log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$tmp/measure.log"; echo "measure exited $rc, expected 1"; exit 1; }
ls "$tmp/data/runs/r1/logs/index" | grep -c _speed | grep -qx 8 || { ls -R "$tmp/data/runs/r1"; exit 1; }
cp -R templates "$tmp/templates"
(cd "$tmp" && "$GEN" build --data data --templates templates --out reports)
page="$tmp/reports/FakeNet/FakeTorch/README.md"
# good.sh prints ips 101.5 .. 106.5; skip 1, mean of the rest = 104.5; x gpus (per_card).
grep -q '| 1 | 1 | 104.50 | 104.50 – 104.50 (50.0%) | 2 (10) | 1.00 | 100.0%' "$page" || { cat "$page"; echo "1-GPU row wrong"; exit 1; }
grep -q '| 1 | 2 | 209.00 | 209.00 – 209.00 (50.0%) | 2 (10) | 2.00 | 100.0%' "$page" || { cat "$page"; echo "2-GPU row wrong"; exit 1; }
# Failed cases are states linked to their logs, never numbers.
grep -q '| 1 | 2 | OOM | — | 2 | — | — | \[日志\]' "$page" || { cat "$page"; echo "OOM row wrong"; exit 1; }
grep -q '| 1 | 1 | 失败 | — | 2 | — | — | \[日志\]' "$page" || { cat "$page"; echo "crash row wrong"; exit 1; }
grep -q '失败：oom' "$page" || { echo "the OOM case is not listed with its reason"; exit 1; }
grep -q '失败：exit\\_status' "$page" || { echo "the crashed case is not listed with its reason"; exit 1; }
# Every relative link in the page resolves; log links point at the logs.
n=0
for target in $(grep -o '](\.\./[^)]*)' "$page" | sed 's/^](//; s/)$//'); do
  [ -f "$tmp/reports/FakeNet/FakeTorch/$target" ] || { echo "dead link: $target"; exit 1; }
  n=$((n + 1))
done
[ "$n" -ge 10 ] || { echo "expected at least 10 log links, found $n"; exit 1; }
grep -q 'ips: 101.5' "$tmp/data/runs/r1/logs/train_log/clas_FakeNet_sp_bs1_fp32_1" || exit 1
echo "ok: $n links resolve"
