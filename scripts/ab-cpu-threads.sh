#!/bin/sh
# scripts/ab-cpu-threads.sh: the measured A/B of data/comparisons/
# cpu-resnet50-threads.json (docs/statistics.md#compare).  The CPU suite
# (data/suites/ResNet50/PyTorch-CPU.json) in two settings: A with
# --threads 1, B with --threads 2 (one per core of this 2-core machine),
# ResNet50 fp32 batch size 8, 12 steps, RUNS runs a side (default 5), interleaved
# A B A B ... so that whatever else the machine does falls on both sides
# alike; OMP_NUM_THREADS and OPENBLAS_NUM_THREADS are set to the same count.
# Each side is one run set (one perfrepro-measure run folder, its
# suite.json the suite that made it):
#   data/runs/DATE-cpu-resnet50-threads1, data/runs/DATE-cpu-resnet50-threads2
#   sh scripts/ab-cpu-threads.sh [RUNS]   (AB_DATE names the folders, AB_STEPS the steps)
# Needs Debian's python3-torch and python3-torchvision with an optimised BLAS
# (scripts/deps.sh torch), and a quiet machine: it refuses to start with the
# reference BLAS behind libblas.so.3 (one thread then runs 10-15x slower than
# two, docs/measure-run.md#cpu-results) or with a 1-minute load average
# above AB_MAX_LOAD (default 0.5: OpenMP's waiting threads lose their cores
# to any other work, and the 2-thread side turns bimodal).
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-5}
blas=$(/usr/bin/python3 -c "
import re, torch
print(' '.join(sorted({l.split()[-1] for l in open('/proc/self/maps') if re.search(r'/lib(openblas|mkl_|blis)', l)})))")
if [ -z "$blas" ]; then
  echo "ab-cpu-threads: PyTorch loads no optimised BLAS (the reference BLAS is behind libblas.so.3): sh scripts/deps.sh torch" >&2
  exit 1
fi
load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" -v m="${AB_MAX_LOAD:-0.5}" 'BEGIN { exit !(l > m) }'; then
  echo "ab-cpu-threads: the machine is busy (load average $load > ${AB_MAX_LOAD:-0.5}): run it on a quiet machine" >&2
  exit 1
fi
echo "ab-cpu-threads: BLAS $blas; load average $load"
DATE=${AB_DATE:-$(date -u +%Y-%m-%d)}
MEASURE=${MEASURE:-bin/perfrepro-measure}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/perfrepro-ab.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
for t in 1 2; do
  /usr/bin/python3 - "$t" "$RUNS" data/suites/ResNet50/PyTorch-CPU.json "$TMP/threads$t.json" <<'EOF'
import json, os, sys
threads, runs, src, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
s = json.load(open(src, encoding="utf-8"))
cmd = s["command"]
i = cmd.index("--batch-size")
s["command"] = cmd[:i] + ["--threads", threads] + cmd[i:]
s["matrix"]["batch_size"] = [8]
s["matrix"]["repeats"] = runs
# AB_STEPS steps (default 30), both sides the same: with OpenBLAS one thread
# trains at about 3.1 images a second here, two at about 5.8; the steady
# window is found in each run's steps (docs/statistics.md#steady-state), and
# MSER looks for the warm-up's end in the first half: at 20 steps a 2-thread
# run still warming up at step 10 was judged unsteady.
s["max_iter"] = int(os.environ.get("AB_STEPS", "30"))
# The BLAS's own threads too: OpenBLAS (pthreads) starts one per core
# whatever torch.set_num_threads says, and the "1 thread" side of the first
# run with OpenBLAS used two cores (its steps' cpu_s twice their time_s).
s["env"] = dict(s.get("env", {}), OMP_NUM_THREADS=threads, OPENBLAS_NUM_THREADS=threads)
d = s["description"]
d["zh"] = d["zh"].replace("单进程用满所有核", "单进程、%s 个线程（--threads %s）" % (threads, threads))
d["en"] = d["en"].replace("one process using every core",
                          "one process, %s thread%s (--threads %s)" % (threads, "" if threads == "1" else "s", threads))
d["zh"] += "（A/B：scripts/ab-cpu-threads.sh）"
d["en"] += " (A/B: scripts/ab-cpu-threads.sh)"
json.dump(s, open(dst, "w", encoding="utf-8"), ensure_ascii=False, indent=1)
open(dst, "a").write("\n")
EOF
done
case_name=clas_ResNet50_sp_bs8_fp32_1
i=1
while [ "$i" -le "$RUNS" ]; do
  if [ "$i" -eq 1 ]; then only=$case_name; else only=${case_name}_r$i; fi
  for t in 1 2; do
    out=data/runs/$DATE-cpu-resnet50-threads$t
    resume=""
    [ -d "$out/logs/index" ] && resume=--resume
    "$MEASURE" run "$TMP/threads$t.json" --out "$out" --only "$only" $resume
  done
  i=$((i + 1))
done
