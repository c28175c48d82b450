#!/bin/sh
# measure run keeps what decides a CPU result (issue 30): the BLAS/OpenMP
# libraries the job's processes loaded, their most threads and the settings
# those libraries read, as env.json's "runtime", which gen shows in the run
# set's environment.  The job is a Python process that loads libgomp (the
# OpenMP runtime GCC ships) and starts threads, with OMP_WAIT_POLICY set by
# the suite and OMP_NUM_THREADS left unset.
. tests/scripts/lib/preamble.sh
need_bins MEASURE GEN
[ -r /proc/self/maps ] || { echo "no /proc (not Linux)"; exit 77; }
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "no /usr/bin/python3"; exit 77; }
gomp=$("$PY" -c "import ctypes.util; print(ctypes.util.find_library('gomp') or '')" 2>/dev/null)
[ -n "$gomp" ] || { echo "no libgomp (gcc's OpenMP runtime) installed"; exit 77; }
unset OMP_NUM_THREADS

cat >"$tmp/job.py" <<'PY'
import ctypes, sys, threading, time
ctypes.CDLL(sys.argv[1])
stop = threading.Event()
workers = [threading.Thread(target=stop.wait) for _ in range(3)]
for w in workers:
    w.start()
for step in range(6):
    time.sleep(0.3)
    print("ips: %d" % (100 + step), flush=True)
stop.set()
PY
cat >"$tmp/suite.json" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Py", "model_name": "fake_model",
 "mission_name": "图像分类", "direction_id": 0, "unit": "samples/s",
 "command": ["$PY", "$tmp/job.py", "$gomp"],
 "env": {"OMP_WAIT_POLICY": "passive"},
 "timeout_s": 30,
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [8], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global", "skip": 1, "min_records": 3}}
JSON
(cd "$tmp" && "$MEASURE" run suite.json --out out) >"$tmp/stdout" 2>"$tmp/stderr" ||
  { fail "run: exit $?"; cat "$tmp/stderr"; }
env="$tmp/out/env.json"
"$PY" - "$env" <<'PY' || fail "env.json's runtime: see above"
import json, sys
env = json.load(open(sys.argv[1]))
rt = env.get("runtime")
assert rt, "no runtime in env.json"
kinds = {l["kind"] for l in rt["libraries"]}
assert "openmp" in kinds, rt["libraries"]
assert any("libgomp" in l["file"] for l in rt["libraries"]), rt["libraries"]
assert rt["threads_max"] >= 4, rt["threads_max"]  # the main thread and three workers
assert rt["settings"]["OMP_WAIT_POLICY"] == "passive", rt["settings"]
assert rt["settings"]["OMP_NUM_THREADS"] is None, rt["settings"]
PY
# gen shows it on the framework page (a data folder made of the run).
mkdir -p "$tmp/data/runs" "$tmp/data/suites/Fake"
cp -R "$tmp/out" "$tmp/data/runs/r1"
cp "$tmp/suite.json" "$tmp/data/suites/Fake/Py.json"
"$GEN" build --data "$tmp/data" --templates templates --out "$tmp/reports" >"$tmp/gen.out" 2>&1 ||
  { fail "gen build: $(tail -n 3 "$tmp/gen.out")"; }
page="$tmp/reports/Fake/Py/README.en.md"
if [ -f "$page" ]; then
  grep -q "OpenMP runtime the job loaded: .*libgomp" "$page" || fail "the page does not name libgomp"
  # Markdown text: the underscores come escaped.
  grep -qF 'OMP\_WAIT\_POLICY=passive' "$page" || fail "the page does not show OMP_WAIT_POLICY"
  grep -qF "not set (the libraries' defaults): OMP\_NUM\_THREADS" "$page" ||
    fail "the page does not say OMP_NUM_THREADS is not set"
else
  fail "no $page"
fi
finish ok
