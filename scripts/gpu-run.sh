#!/bin/sh
# scripts/gpu-run.sh: everything a lent GPU machine is for, in one command
# (docs/gpu.md).  It builds bin/perfrepro-gpu there, runs the GPU tests, the
# workloads (environment, memory bandwidth, GEMM, every NCCL collective), the
# same quantities through PyTorch side by side (bench/torch_peers.py), and the
# Hardware suites through perfrepro-measure when that binary runs there, and
# leaves everything in $OUT (default build/gpu-out) plus one archive of it.
#
# Here, before the GPU session (no GPU needed):
#   sh scripts/gpu-run.sh --prepare
# builds bin/perfrepro-measure and copies it, the two libraries it needs
# (Jansson, PCRE2) and a fallback bin/perfrepro-gpu into build/carry/.  Then,
# through the device tool, from the repository root:
#   run(command="sh scripts/gpu-run.sh", carry=["build/carry"])
# Stages (default: all, in this order): build test bench torch suites
#   sh scripts/gpu-run.sh bench torch       only these
# A stage that would not finish inside GPU_RUN_BUDGET seconds (default 540:
# one device command may run 600) is skipped and named in $OUT/summary.md.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/build/gpu-out}
BUDGET=${GPU_RUN_BUDGET:-540}
CARRY=$ROOT/build/carry
START=$(date +%s)
GPU_BIN=$ROOT/bin/perfrepro-gpu

# ---- here: what to carry to the GPU machine ----
if [ "${1:-}" = --prepare ]; then
  set -e
  make bin/perfrepro-measure >/dev/null
  rm -rf "$CARRY"
  mkdir -p "$CARRY/bin" "$CARRY/lib"
  cp bin/perfrepro-measure "$CARRY/bin/"
  for lib in $(ldd bin/perfrepro-measure | awk '/libjansson|libpcre2/ { print $3 }'); do
    cp -L "$lib" "$CARRY/lib/"
  done
  # A perfrepro-gpu built here (no MPI: the GPU machine has none) in case
  # the build there fails; it needs the machine's CUDA 13, cuBLASLt and NCCL.
  if make -f measure/gpu/gpu.mk gpu GPU_MPI=0 GPU_BUILD=build/carry-gpu \
       GPU_BIN="$CARRY/bin/perfrepro-gpu" >/dev/null; then
    rm -rf build/carry-gpu
  else
    echo "gpu-run: no fallback perfrepro-gpu (nvcc missing here?)" >&2
  fi
  du -sh "$CARRY"
  echo 'now: run(command="sh scripts/gpu-run.sh", carry=["build/carry"])'
  exit 0
fi

STAGES=${*:-build test bench torch suites}
mkdir -p "$OUT/results" "$OUT/tests" "$OUT/runs"
LOG=$OUT/gpu-run.log
: >"$LOG"
SKIPPED=""
say() { echo "gpu-run: $*" | tee -a "$LOG"; }
elapsed() { echo $(( $(date +%s) - START )); }
# fits SECONDS: whether a stage expected to take that long still fits the budget
fits() { [ $(( $(elapsed) + $1 )) -le "$BUDGET" ]; }
wants() { case " $STAGES " in *" $1 "*) return 0 ;; esac; return 1; }
TO=""
command -v timeout >/dev/null 2>&1 && TO="timeout"
# bounded SECONDS CMD...: CMD, killed after SECONDS when timeout(1) exists
bounded() { s=$1; shift; if [ -n "$TO" ]; then timeout -k 10 "$s" "$@"; else "$@"; fi; }
PY=$(command -v python3 || command -v python || echo python3)

# ---- what the machine has ----
find_nvcc() {
  command -v nvcc 2>/dev/null && return
  for n in /usr/local/cuda/bin/nvcc /usr/local/cuda-*/bin/nvcc /opt/cuda/bin/nvcc; do
    [ -x "$n" ] && { echo "$n"; return; }
  done
}
# pydir MODULE: the folder of a pip "nvidia" namespace package (nvidia.nccl, ...)
pydir() { "$PY" -c "import $1 as m; print(list(m.__path__)[0])" 2>/dev/null; }

NVCC=$(find_nvcc)
CUDA_HOME=${CUDA_HOME:-${NVCC%/bin/nvcc}}
NCCL_HOME=${NCCL_HOME:-}
if [ -z "$NCCL_HOME" ]; then
  if [ -f "$CUDA_HOME/include/nccl.h" ]; then NCCL_HOME=$CUDA_HOME
  else
    d=$(pydir nvidia.nccl)
    [ -n "$d" ] && [ -f "$d/include/nccl.h" ] && NCCL_HOME=$d
  fi
fi
if [ -z "$NCCL_HOME" ]; then
  h=$(find /usr/include /usr/local /opt -name nccl.h -path '*include*' 2>/dev/null | head -n 1)
  [ -n "$h" ] && NCCL_HOME=${h%/include/nccl.h}
fi
CUBLAS_HOME=${CUBLAS_HOME:-}
if [ -z "$CUBLAS_HOME" ]; then
  if [ -f "$CUDA_HOME/include/cublasLt.h" ]; then CUBLAS_HOME=$CUDA_HOME
  else
    d=$(pydir nvidia.cublas)
    [ -n "$d" ] && [ -f "$d/include/cublasLt.h" ] && CUBLAS_HOME=$d || CUBLAS_HOME=$CUDA_HOME
  fi
fi
# The libraries perfrepro-gpu and env's dlopen look for: NCCL, cuBLASLt, cuDNN.
for d in "$NCCL_HOME/lib" "$NCCL_HOME/lib64" "$CUBLAS_HOME/lib" "$CUBLAS_HOME/lib64" \
         "$CUDA_HOME/lib64" "$(pydir nvidia.cudnn)/lib" "$CARRY/lib"; do
  [ -d "$d" ] && LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
done
export LD_LIBRARY_PATH

{
  echo "# machine"
  date -u +%Y-%m-%dT%H:%M:%SZ
  uname -srm
  sed -n 's/^PRETTY_NAME=//p' /etc/os-release 2>/dev/null
  echo "nvcc: ${NVCC:-none} ($("${NVCC:-false}" --version 2>/dev/null | tail -n 1))"
  echo "CUDA_HOME=$CUDA_HOME NCCL_HOME=${NCCL_HOME:-none} CUBLAS_HOME=$CUBLAS_HOME"
  echo "python: $("$PY" --version 2>&1)"
  "$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'nccl', torch.cuda.nccl.version())" 2>&1 | tail -n 1
  "$PY" -m pip list 2>/dev/null | grep -i -E '^(nvidia-|torch)' || true
  command -v mpirun >/dev/null && echo "mpirun: $(command -v mpirun)" || echo "mpirun: none"
} >"$OUT/machine.txt" 2>&1
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1
  nvidia-smi -q >>"$OUT/nvidia-smi.txt" 2>&1
  nvidia-smi topo -m >"$OUT/nvidia-smi-topo.txt" 2>&1
  NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
else
  NGPU=0
fi
say "stages: $STAGES; budget ${BUDGET}s; nvidia-smi lists $NGPU GPU(s)"

# ---- build ----
if wants build; then
  if [ -z "$NVCC" ]; then
    say "build: no nvcc"
  else
    jobs=$(nproc 2>/dev/null || echo 4)
    bounded 300 make -j"$jobs" -f measure/gpu/gpu.mk gpu NVCC="$NVCC" CUDA_HOME="$CUDA_HOME" \
      ${NCCL_HOME:+NCCL_HOME="$NCCL_HOME"} CUBLAS_HOME="$CUBLAS_HOME" >"$OUT/build.log" 2>&1
    say "build: exit $? ($(tail -n 1 "$OUT/build.log"))"
  fi
fi
if ! "$GPU_BIN" --version >/dev/null 2>&1 && [ -x "$CARRY/bin/perfrepro-gpu" ]; then
  if "$CARRY/bin/perfrepro-gpu" --version >/dev/null 2>&1; then
    say "build: using the perfrepro-gpu built before the session (build/carry)"
    mkdir -p "$ROOT/bin" && cp "$CARRY/bin/perfrepro-gpu" "$GPU_BIN"
  fi
fi
if ! "$GPU_BIN" --version >"$OUT/version.txt" 2>&1; then
  say "no runnable $GPU_BIN: nothing more to do"
  tar -czf "$OUT/gpu-results.tar.gz" -C "$OUT" --exclude gpu-results.tar.gz . 2>/dev/null
  exit 1
fi
"$GPU_BIN" env >"$OUT/results/env.txt" 2>&1
[ "$NGPU" -gt 0 ] || NGPU=$(sed -n 's/^count: //p' "$OUT/results/env.txt")
NGPU=${NGPU:-0}
say "perfrepro-gpu env: $NGPU GPU(s), $(sed -n 's/^name: //p' "$OUT/results/env.txt")"

# perfrepro-measure: the one built here, carried with its libraries
MEASURE=$ROOT/bin/perfrepro-measure
"$MEASURE" --version >/dev/null 2>&1 || MEASURE=$CARRY/bin/perfrepro-measure
if "$MEASURE" --version >/dev/null 2>&1; then
  say "perfrepro-measure: $MEASURE"
else
  say "perfrepro-measure does not run here: parse checks and suites are skipped"
  MEASURE=/nonexistent
fi
export MEASURE

# ---- test ----
if wants test; then
  for t in gpu_nogpu gpu_workloads; do
    if fits 150; then
      GPU_BIN=$GPU_BIN bounded 240 sh "tests/scripts/$t.sh" >"$OUT/tests/$t.log" 2>&1
      say "test $t: exit $? ($(tail -n 1 "$OUT/tests/$t.log"))"
    else
      SKIPPED="$SKIPPED test:$t"
    fi
  done
fi

# ---- bench: the workloads at full size ----
if wants bench; then
  if fits 150; then
    bounded 120 "$GPU_BIN" bw -b 1M -e 2G -f 2 >"$OUT/results/bw.txt" 2>&1
    say "bench bw: exit $?"
    bounded 240 "$GPU_BIN" gemm >"$OUT/results/gemm.txt" 2>&1
    say "bench gemm: exit $?"
  else
    SKIPPED="$SKIPPED bench:bw,gemm"
  fi
  for c in all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv; do
    if fits 60; then
      bounded 120 "$GPU_BIN" "$c" -b 8 -e 1G -f 2 >"$OUT/results/$c.txt" 2>&1
      say "bench $c: exit $?"
    else
      SKIPPED="$SKIPPED bench:$c"
    fi
  done
fi

# ---- torch: the same quantities through PyTorch ----
if wants torch; then
  peak=$(sed -n 's/^device.0.memory_peak_gbs: \([0-9.]*\)$/\1/p' "$OUT/results/env.txt")
  if fits 90; then
    bounded 150 "$PY" bench/torch_peers.py bw -b 1M -e 2G -f 2 ${peak:+--peak "$peak"} \
      >"$OUT/results/torch_bw.txt" 2>&1
    say "torch bw: exit $?"
  else
    SKIPPED="$SKIPPED torch:bw"
  fi
  if fits 150; then
    bounded 240 "$PY" bench/torch_peers.py gemm >"$OUT/results/torch_gemm.txt" 2>&1
    say "torch gemm: exit $?"
  else
    SKIPPED="$SKIPPED torch:gemm"
  fi
  if [ "$NGPU" -ge 2 ]; then
    if fits 90; then
      bounded 150 "$PY" bench/torch_peers.py all_reduce -b 1M -e 1G -f 2 \
        >"$OUT/results/torch_all_reduce.txt" 2>&1
      say "torch all_reduce: exit $?"
    else
      SKIPPED="$SKIPPED torch:all_reduce"
    fi
  else
    say "torch all_reduce: skipped (one GPU: no bus to measure)"
  fi
fi

# ---- suites: the Hardware suites through perfrepro-measure, records kept ----
if wants suites; then
  if [ "$MEASURE" = /nonexistent ]; then
    SKIPPED="$SKIPPED suites(no perfrepro-measure)"
  elif fits 180; then
    KEEP_RUNS="$OUT/runs" bounded 300 sh tests/scripts/gpu_measure_suites.sh \
      >"$OUT/tests/gpu_measure_suites.log" 2>&1
    say "suites: exit $? ($(tail -n 1 "$OUT/tests/gpu_measure_suites.log"))"
  else
    SKIPPED="$SKIPPED suites"
  fi
fi

# ---- summary and archive ----
{
  echo "# perfrepro-gpu on $(sed -n 's/^name: //p' "$OUT/results/env.txt") x $NGPU"
  echo
  echo '```'
  grep -E '^(name|count|driver|cuda|cuda_driver|nccl|cublaslt|cudnn|device\.0\.[a-z_]+):' \
    "$OUT/results/env.txt"
  cat "$OUT/version.txt"
  echo '```'
  echo
  echo "## Side by side (bench/torch_peers.py compare)"
  echo
  "$PY" bench/torch_peers.py compare "$OUT/results" 2>&1
  echo
  echo "## Headlines"
  echo
  echo '```'
  for f in "$OUT"/results/*.txt; do
    h=$(grep -E '^# (Theoretical peak|Bandwidth|Best|Avg bus bandwidth|Out of bounds)' "$f")
    [ -n "$h" ] && printf '%s\n%s\n' "$(basename "$f" .txt):" "$h"
  done
  echo '```'
  echo
  echo "## Log"
  echo
  echo '```'
  cat "$LOG"
  echo '```'
  if [ -n "$SKIPPED" ]; then
    echo
    echo "Skipped for time (run them in a next call: sh scripts/gpu-run.sh STAGE...):$SKIPPED"
  fi
} >"$OUT/summary.md" 2>&1
say "done in $(elapsed)s${SKIPPED:+; skipped:$SKIPPED}"
tar -czf "$OUT/gpu-results.tar.gz" -C "$OUT" --exclude gpu-results.tar.gz . 2>/dev/null
exit 0
