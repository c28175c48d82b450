#!/bin/sh
# perfrepro-gpu without a usable GPU: every workload ends cleanly with exit
# status 3 and "PERFREPRO_FAILURE: no_gpu: <reason>" on stderr (the line
# perfrepro-measure turns into the failure reason no_gpu), never a crash.
# Runs wherever bin/perfrepro-gpu was built: on a GPU machine the GPUs are
# hidden with CUDA_VISIBLE_DEVICES=-1.  Usage errors stay exit status 2.
. tests/scripts/lib/preamble.sh
GPU_BIN="${GPU_BIN:-bin/perfrepro-gpu}"
[ -x "$GPU_BIN" ] || { echo "no $GPU_BIN (make gpu builds it where nvcc exists)"; exit 77; }

for w in env bw gemm all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv; do
  CUDA_VISIBLE_DEVICES=-1 "$GPU_BIN" "$w" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 3 ] || { fail "$w: exit $rc, expected 3"; cat "$tmp/err"; continue; }
  grep -Eq '^PERFREPRO_FAILURE: no_gpu: .+' "$tmp/err" || { fail "$w: no failure line"; cat "$tmp/err"; }
  [ "$(grep -c PERFREPRO_FAILURE "$tmp/err")" -eq 1 ] || fail "$w: more than one failure line"
done
# env still says what the libraries are.
CUDA_VISIBLE_DEVICES=-1 "$GPU_BIN" env >"$tmp/out" 2>/dev/null
grep -q '^count: 0$' "$tmp/out" || fail "env: no 'count: 0'"
grep -Eq '^cuda: [0-9]+\.[0-9]+$' "$tmp/out" || fail "env: no CUDA runtime version"
grep -Eq '^cublaslt: [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/out" || fail "env: no cuBLASLt version"

# Usage errors are not GPU failures, and come before looking for a GPU.
for args in "all_reduce -b 1G -e 8" "bw -x" "gemm -d int8" "nosuch"; do
  # shellcheck disable=SC2086
  CUDA_VISIBLE_DEVICES=-1 "$GPU_BIN" $args >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] || fail "'$args': exit $rc, expected 2"
  grep -q PERFREPRO_FAILURE "$tmp/err" && fail "'$args': a failure line for a usage error"
done
"$GPU_BIN" --help >"$tmp/out" 2>&1 || fail "--help: exit $?"
grep -q '^usage: ' "$tmp/out" || fail "--help: no usage"
"$GPU_BIN" --version >"$tmp/out" 2>&1 || fail "--version: exit $?"
grep -q '^perfrepro-gpu 1 (CUDA ' "$tmp/out" || fail "--version: $(cat "$tmp/out")"

finish "ok"
