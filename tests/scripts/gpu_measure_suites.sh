#!/bin/sh
# The Hardware suites end to end on a GPU: perfrepro-measure runs
# bin/perfrepro-gpu through data/suites/Hardware/*.json, parses the logs with
# the suites' rules and writes records with a positive FINAL_RESULT; an NCCL
# case that needs more GPUs than the machine has fails with reason no_gpu.
# Skips without bin/perfrepro-gpu, a GPU, or a perfrepro-measure that runs.
# KEEP_RUNS=DIR keeps the run folders (DIR/bw, DIR/gemm, DIR/nccl: each one
# a data/runs/<run> candidate) instead of deleting them.
. tests/scripts/lib/preamble.sh
GPU_BIN=bin/perfrepro-gpu # the suites run {workdir}/bin/perfrepro-gpu
[ -x "$GPU_BIN" ] || { echo "no $GPU_BIN (make gpu builds it where nvcc exists)"; exit 77; }
"$MEASURE" --version >/dev/null 2>&1 || { echo "no runnable $MEASURE here"; exit 77; }
if command -v nvidia-smi >/dev/null 2>&1; then
  ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
else
  ngpu=$("$GPU_BIN" env 2>/dev/null | sed -n 's/^count: //p')
fi
ngpu=${ngpu:-0}
[ "$ngpu" -gt 0 ] 2>/dev/null || { echo "no GPU here (nvidia-smi -L lists none)"; exit 77; }
runs=${KEEP_RUNS:-$tmp}
mkdir -p "$runs"
field() { sed -n "s/^ \"$2\": \(.*\)$/\1/p" "$1" | sed 's/,$//' | head -n 1; }
reason() { sed -n 's/^  "reason": "\(.*\)",\{0,1\}$/\1/p' "$1"; }
good() { # RECORD
  [ -f "$1" ] || { fail "no record $1"; return; }
  [ "$(field "$1" JOB_FAIL_FLAG)" = 0 ] || { fail "$(basename "$1"): failed: $(reason "$1")"; return; }
  awk -v v="$(field "$1" FINAL_RESULT)" 'BEGIN { exit !(v + 0 > 0) }' ||
    fail "$(basename "$1"): FINAL_RESULT $(field "$1" FINAL_RESULT)"
}
S=data/suites/Hardware

"$MEASURE" run "$S/perfrepro-gpu-bw.json" --out "$runs/bw" >"$tmp/bw.log" 2>&1 ||
  { fail "bw suite: exit $?"; tail -n 5 "$tmp/bw.log"; }
good "$runs/bw/logs/index/hw_memory_bandwidth_sp_1_speed"

# GEMM: bf16 for the test; every precision when the runs are kept.
precs=bf16
[ -n "${KEEP_RUNS:-}" ] && precs="fp32 tf32 fp16 bf16 fp8"
set --
for p in $precs; do set -- "$@" --only "*_${p}_*"; done
cc=$("$GPU_BIN" env 2>/dev/null | sed -n 's/^device.0.compute_capability: //p' | tr -d .)
"$MEASURE" run "$S/perfrepro-gpu-gemm.json" "$@" --out "$runs/gemm" >"$tmp/gemm.log" 2>&1
for p in $precs; do
  r="$runs/gemm/logs/index/hw_gemm_sp_${p}_1_speed"
  if [ "$p" = fp8 ] && [ "${cc:-0}" -lt 89 ]; then
    [ "$(reason "$r")" = no_records ] || fail "gemm fp8 on sm_$cc: reason '$(reason "$r")'"
  else
    good "$r"
  fi
done

# NCCL: the cases this machine can run succeed, the others fail as no_gpu.
"$MEASURE" run "$S/perfrepro-gpu-nccl.json" --out "$runs/nccl" >"$tmp/nccl.log" 2>&1
for g in 2 4 8; do
  r="$runs/nccl/logs/index/hw_nccl_all_reduce_mp_fp32_${g}_speed"
  if [ "$g" -le "$ngpu" ]; then
    good "$r"
  else
    [ "$(reason "$r")" = no_gpu ] || fail "nccl $g GPUs on $ngpu: reason '$(reason "$r")', expected no_gpu"
  fi
done

# The same quantities through PyTorch, beside them (the reports' ratios),
# when the runs are kept: records even where torch is missing (failed ones).
if [ -n "${KEEP_RUNS:-}" ]; then
  for t in bw gemm nccl; do
    "$MEASURE" run "$S/pytorch-$t.json" --out "$runs/torch-$t" >"$tmp/torch-$t.log" 2>&1 ||
      echo "note: PyTorch $t suite: exit $? (see its records)"
  done
fi

finish "ok ($ngpu GPU(s))"
