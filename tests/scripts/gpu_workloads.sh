#!/bin/sh
# perfrepro-gpu on a GPU: every workload runs small sweeps, exits 0, checks
# its data (no wrong element anywhere), prints its table, and the tables
# parse back with perfrepro-measure's rules when bin/perfrepro-measure runs
# here.  The collectives run over every visible GPU, with every data type
# and reduction, in and out of place.  Skips without the binary or a GPU.
. tests/scripts/lib/preamble.sh
GPU_BIN="${GPU_BIN:-bin/perfrepro-gpu}"
[ -x "$GPU_BIN" ] || { echo "no $GPU_BIN (make gpu builds it where nvcc exists)"; exit 77; }
if command -v nvidia-smi >/dev/null 2>&1; then
  ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
else
  ngpu=$("$GPU_BIN" env 2>/dev/null | sed -n 's/^count: //p')
fi
ngpu=${ngpu:-0}
[ "$ngpu" -gt 0 ] 2>/dev/null || { echo "no GPU here (nvidia-smi -L lists none)"; exit 77; }
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  ngpu=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .)
fi
parse_ok=0
"$MEASURE" --version >/dev/null 2>&1 && parse_ok=1

# run NAME ARGS...: exit 0, data checked, no FAILED line; output in $tmp/NAME
run() {
  name=$1; shift
  "$GPU_BIN" "$@" >"$tmp/$name" 2>"$tmp/$name.err"
  rc=$?
  if [ $rc -ne 0 ]; then
    fail "$name ($*): exit $rc"; tail -n 20 "$tmp/$name" "$tmp/$name.err"; return 1
  fi
  if grep -q 'FAILED' "$tmp/$name"; then
    fail "$name ($*): wrong data"; grep -v '^#' "$tmp/$name" | head -n 20; return 1
  fi
  return 0
}
# parse NAME RULE-JSON: the value perfrepro-measure reads back (empty if it cannot)
parse() {
  [ $parse_ok -eq 1 ] || return 0
  "$MEASURE" parse --rule "$2" "$tmp/$1" 2>"$tmp/$1.perr" |
    sed -n 's/^ "FINAL_RESULT": \([0-9.e+]*\),$/\1/p'
}
positive() { awk -v v="$1" 'BEGIN { exit !(v + 0 > 0) }'; }

# --- env ---
if run env env; then
  for k in name count driver cuda nccl cublaslt cudnn device.0.name device.0.memory_peak_gbs; do
    grep -q "^$k: " "$tmp/env" || fail "env: no $k"
  done
  [ "$(sed -n 's/^count: //p' "$tmp/env")" -ge "$ngpu" ] || fail "env: count below $ngpu"
  grep -q '^peer_access.0:' "$tmp/env" || fail "env: no peer access matrix"
fi

# --- memory bandwidth ---
if run bw bw -b 1M -e 256M -f 4 -n 10 -w 2; then
  grep -q 'N/A' "$tmp/bw" && fail "bw: a cell did not run"
  for k in copy read write memcpy; do
    v=$(sed -n "s/^# Bandwidth $k : \([0-9.]*\) GB\/s.*/\1/p" "$tmp/bw")
    positive "${v:-0}" || fail "bw: no $k bandwidth"
  done
  # Above the theoretical peak at 256 MiB would be a wrong formula or clock.
  pct=$(sed -n 's/^# Bandwidth copy : .*(\([0-9.]*\)% of peak).*/\1/p' "$tmp/bw")
  if grep -q '^# Theoretical peak : unknown' "$tmp/bw"; then
    echo "note: the device reports no memory clock: no % of peak"
  elif [ -z "$pct" ] || ! awk -v p="$pct" 'BEGIN { exit !(p > 20 && p < 105) }'; then
    fail "bw: copy at ${pct:-?}% of the theoretical peak"
  fi
  v=$(parse bw '{"keyword": "# Bandwidth copy", "value": "raw", "unit": "GB/s"}')
  [ $parse_ok -eq 0 ] || positive "${v:-0}" || fail "bw: does not parse back: $(cat "$tmp/bw.perr")"
fi
run bw_odd bw -b 1000 -e 1000 -n 2 -w 1 -o copy,read || true

# --- GEMM ---
cc=$(sed -n 's/^device.0.compute_capability: //p' "$tmp/env" | tr -d .)
if run gemm gemm -o square -b 256 -e 4096 -f 4 -n 5 -w 2; then
  for p in fp32 tf32 fp16 bf16 fp8; do
    v=$(sed -n "s/^# Best $p TFLOP\/s : \([0-9.]*\) .*/\1/p" "$tmp/gemm")
    if [ "$p" = fp8 ] && [ "${cc:-0}" -lt 89 ]; then
      [ -z "$v" ] || fail "gemm: fp8 ran on compute capability $cc"
      continue
    fi
    positive "${v:-0}" || fail "gemm: no $p result"
  done
fi
run gemm_shapes gemm -s 8192x4096x4096,1000x1000x1000,17x33x65 -d fp16,bf16 -n 3 -w 1 &&
  { v=$(parse gemm_shapes '{"keyword": "TFLOP/s :", "value": "raw", "unit": "TFLOP/s", "reduce": "last"}')
    [ $parse_ok -eq 0 ] || positive "${v:-0}" || fail "gemm: does not parse back"; }

# --- collectives: every one over every GPU ---
for c in all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv; do
  run "$c" "$c" -b 8 -e 16M -f 8 -n 5 -w 2 || continue
  rows=$(grep -c '^ *[0-9]' "$tmp/$c")
  [ "$rows" -eq 8 ] || fail "$c: $rows rows, expected 8 (8 B to 16 MiB by 8)"
  grep -q '^# Out of bounds values : 0 OK$' "$tmp/$c" || fail "$c: no clean bounds line"
  case $c in
    alltoall|sendrecv) ;;
    *) grep -E '^ *16777216 ' "$tmp/$c" | grep -q 'N/A' && fail "$c: the largest row has N/A" ;;
  esac
  v=$(parse "$c" '{"profile": "nccl-tests"}')
  [ $parse_ok -eq 0 ] || [ -n "$v" ] || fail "$c: does not parse back: $(cat "$tmp/$c.perr")"
  if [ "$ngpu" -gt 1 ] && [ "$c" != reduce ] && [ "$c" != broadcast ]; then
    v=$(sed -n 's/^# Avg bus bandwidth *: \([0-9.e+]*\).*/\1/p' "$tmp/$c")
    positive "${v:-0}" || fail "$c: average bus bandwidth ${v:-none} on $ngpu GPUs"
  fi
done
# every type with sum, every reduction with a float, an integer and bfloat16
for t in int8 uint8 int32 uint32 int64 uint64 half float double bfloat16; do
  run "ar_$t" all_reduce -b 1K -e 1M -f 32 -n 2 -w 1 -d "$t"
done
for t in float int32 bfloat16; do
  for o in sum prod max min avg; do
    run "rs_${t}_$o" reduce_scatter -b 64K -e 64K -n 2 -w 1 -d "$t" -o "$o"
    run "ar_${t}_$o" all_reduce -b 4K -e 4K -n 2 -w 1 -d "$t" -o "$o"
  done
done
last=$((ngpu - 1))
run bcast_root broadcast -b 1M -e 1M -n 2 -w 1 -r "$last"
run reduce_root reduce -b 1M -e 1M -n 2 -w 1 -r "$last" -o max
# fewer GPUs than asked for: no_gpu, exit 3
"$GPU_BIN" all_reduce -g $((ngpu + 1)) -b 8 -e 8 >/dev/null 2>"$tmp/more.err"
rc=$?
if [ $rc -ne 3 ] || ! grep -q '^PERFREPRO_FAILURE: no_gpu: process 0 needs GPUs' "$tmp/more.err"; then
  fail "-g $((ngpu + 1)): exit $rc: $(cat "$tmp/more.err")"
fi
"$GPU_BIN" broadcast -r "$ngpu" -b 8 -e 8 >/dev/null 2>&1
[ $? -eq 2 ] || fail "-r $ngpu: expected a usage error"

# one process per GPU through MPI, when built with it and there are two GPUs
if [ "$ngpu" -ge 2 ] && command -v mpirun >/dev/null 2>&1 && ldd "$GPU_BIN" | grep -q libmpi; then
  extra=""
  [ "$(id -u)" -eq 0 ] && extra="--allow-run-as-root"
  # shellcheck disable=SC2086
  mpirun $extra -np 2 "$GPU_BIN" all_reduce -b 8 -e 8M -f 8 -n 5 -w 2 -g 1 >"$tmp/mpi" 2>&1 ||
    fail "mpirun all_reduce: exit $?: $(tail -n 5 "$tmp/mpi")"
  grep -q 'nProcs 2 nGpus 1' "$tmp/mpi" || fail "mpirun: not 2 processes"
  grep -q '^# Out of bounds values : 0 OK$' "$tmp/mpi" || fail "mpirun: data check"
fi

finish "ok ($ngpu GPU(s)$([ $parse_ok -eq 1 ] || echo ', perfrepro-measure parse not available'))"
