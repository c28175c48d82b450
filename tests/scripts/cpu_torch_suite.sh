#!/bin/sh
# A real framework measured here, end to end: the shipped CPU suite
# (data/suites/ResNet50/PyTorch-CPU.json: Debian's PyTorch trains torchvision
# ResNet-50 on random images) shortened to one case of a few steps, run by
# perfrepro-measure, its record checked, rendered by perfrepro-gen and the
# pages checked.  Skips where python3-torch/python3-torchvision are missing
# (sh scripts/deps.sh torch installs them).
. tests/scripts/lib/preamble.sh
if ! /usr/bin/python3 -c 'import torch, torchvision' >/dev/null 2>&1; then
  echo "skip: Debian's python3-torch and python3-torchvision are not installed (sh scripts/deps.sh torch)"
  exit 77
fi
mkdir -p "$tmp/data/suites/ResNet50" "$tmp/work/scripts"
cp -R data/platforms "$tmp/data/platforms"
cp scripts/synthetic_train.py "$tmp/work/scripts/"
# The same suite, shortened: batch size 2, 6 steps (2 skipped), one repeat.
/usr/bin/python3 - "$ROOT/data/suites/ResNet50/PyTorch-CPU.json" "$tmp/data/suites/ResNet50/PyTorch-CPU.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["max_iter"] = 6
s["matrix"].update({"batch_size": [2], "repeats": 1})
s["rule"].update({"skip": 2, "min_records": 3})
json.dump(s, open(sys.argv[2], "w"), ensure_ascii=False, indent=1)
PY
out="$tmp/data/runs/cpu"
(cd "$tmp/work" && "$MEASURE" run "$tmp/data/suites/ResNet50/PyTorch-CPU.json" --out "$out") \
  >"$tmp/run.log" 2>&1 || { fail "measure run"; cat "$tmp/run.log"; }
rec="$out/logs/index/clas_ResNet50_sp_bs2_fp32_1_speed"
grep -q '"JOB_FAIL_FLAG": 0' "$rec" 2>/dev/null || { fail "no successful record"; cat "$rec" 2>/dev/null; }
grep -q '"records_used": 4' "$rec" || fail "the rule did not use the 4 steps after the 2 skipped"
grep -q '"cpu_model"' "$out/env.json" || fail "env.json has no CPU"
grep -q 'perfrepro-step 5 time_s [0-9.]* cpu_s [0-9.]* throughput:' "$out/logs/train_log/clas_ResNet50_sp_bs2_fp32_1" ||
  fail "the log has no step lines with their CPU time"
# What decides the result (issue 30): the BLAS and OpenMP runtime PyTorch loaded.
/usr/bin/python3 - "$out/env.json" <<'PY' || fail "env.json does not name the BLAS and OpenMP runtime"
import json, sys
rt = json.load(open(sys.argv[1])).get("runtime") or {}
kinds = {l["kind"] for l in rt.get("libraries", [])}
assert {"blas", "openmp"} <= kinds, rt
PY
"$GEN" build --data "$tmp/data" --templates templates --out "$tmp/reports" >"$tmp/gen.log" 2>&1 ||
  { fail "gen build"; cat "$tmp/gen.log"; }
page="$tmp/reports/ResNet50/PyTorch-CPU/README.md"
grep -q '性能复现报告' "$page" || fail "the CPU page is not a reproduction report"
grep -q 'clas_ResNet50_sp_bs2_fp32_1)' "$page" || fail "the figure does not link its log"
"$GEN" check --reports "$tmp/reports" --root "$tmp" >"$tmp/check.log" 2>&1 ||
  { fail "gen check"; cat "$tmp/check.log"; }
finish "ok: $(grep -o '"FINAL_RESULT": [0-9.]*' "$rec") images/s on $(sed -n 's/.*"cpu_model": "\([^"]*\)".*/\1/p' "$out/env.json")"
