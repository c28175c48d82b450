#!/bin/sh
# Valgrind memcheck on perfrepro-measure: no invalid access, no use of
# uninitialised memory, no definite or indirect leak.
#   - parse over every fixture log in ../shared/fixtures/logs, each with its
#     format's profile (a case that fails to give a number is fine: exit 1);
#   - run of a small fake suite (tests/jobs/good.sh) with --resume after it,
#     the children not traced.
# Skipped (77) when the fixtures or valgrind are missing, or under make asan.
. tests/scripts/lib/preamble.sh
FIX="${FIXTURES:-${PERFREPRO_SHARED:-../shared}/fixtures}/logs"
need_bins MEASURE
command -v valgrind >/dev/null 2>&1 || { echo "valgrind is not installed"; exit 77; }
[ -d "$FIX" ] || { echo "no fixtures in $FIX"; exit 77; }
case "$MEASURE" in *asan*) echo "valgrind does not run ASan binaries"; exit 77 ;; esac
n=0
vg() {
  name=$1; shift
  n=$((n + 1)); t0=$(date +%s%N)
  valgrind --quiet --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
    --suppressions="$ROOT/tests/valgrind.supp" --num-callers=30 "$@" >"$tmp/out" 2>"$tmp/vg"
  rc=$?; [ -n "${VG_TIMES:-}" ] && echo "$(( ($(date +%s%N) - t0) / 1000000 )) ms $name"
  if [ $rc -eq 99 ] || grep -q '^==[0-9]*== [A-Z]' "$tmp/vg"; then
    cat "$tmp/vg"; echo "FAIL: $name: valgrind reports errors"; fails=$((fails + 1))
  elif [ $rc -gt 1 ]; then
    tail -n 5 "$tmp/vg"; echo "FAIL: $name: exit $rc"; fails=$((fails + 1))
  fi
}
# The rule each fixture format is read with (docs/parse-rules.md).
for f in $(find "$FIX" -type f | LC_ALL=C sort); do
  case $f in
    */paddle-ips/*) set -- --gpus 1 --rule '{"profile": "paddle-ips", "scope": "per_card", "skip": 10, "reduce": "trimmed_mean"}' ;;
    */dllogger-stdout/*) set -- --rule '{"profile": "dllogger", "keyword": "train.total_ips", "scope": "global", "skip": 9, "step": "any"}' ;;
    */keras-timehistory/*) continue ;; # below: each folder's five repeats at once
    */mmseg/*) set -- --gpus 1 --batch-size 8 --rule '{"profile": "mmseg", "skip": 4}' ;;
    */mxnet-horovod/*) set -- --gpus 1 --batch-size 128 --rule '{"profile": "mxnet-summary", "scope": "global"}' ;;
    */nccl-tests/*) set -- --rule '{"profile": "nccl-tests", "source": "rows", "column": "busbw"}' ;;
    */mllog/*) set -- --rule '{"profile": "mllog", "reduce": "trimmed_mean", "trim": {"fraction": 0, "min": 0}}' ;;
    *) continue ;;
  esac
  vg "parse $f" "$MEASURE" parse "$@" "$f"
done
# nccl-tests footers, and the MLPerf head and tail as the parts of one log.
for f in "$FIX"/nccl-tests/*; do vg "parse avg_busbw $f" "$MEASURE" parse --rule '{"profile": "nccl-tests"}' "$f"; done
vg "parse mllog parts" "$MEASURE" parse --rule '{"profile": "mllog"}' "$FIX"/mllog/*head* "$FIX"/mllog/*tail*
# Several repeats of one case: each keras-timehistory folder.
for d in $(find "$FIX/keras-timehistory" -type f | sed 's|/[^/]*$||' | LC_ALL=C sort -u); do
  # shellcheck disable=SC2046
  vg "parse repeats $d" "$MEASURE" parse --gpus 1 \
    --rule '{"profile": "keras-timehistory", "scope": "global", "skip": 1, "min_records": 5, "round": 2}' \
    $(find "$d" -type f | LC_ALL=C sort)
done
# A small run.
unset CUDA_VISIBLE_DEVICES
cat >"$tmp/suite.json" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "fake", "mission_name": "m",
 "direction_id": 0, "unit": "samples/s", "command": ["$ROOT/tests/jobs/good.sh", "{batch_size}"],
 "timeout_s": 20,
 "matrix": {"nodes": [1], "gpus_per_node": [1, 2], "batch_size": [8], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global", "skip": 1}}
JSON
vg "run" "$MEASURE" run "$tmp/suite.json" --out "$tmp/out1"
vg "run --resume" "$MEASURE" run "$tmp/suite.json" --out "$tmp/out1" --resume
vg "run --dry-run" "$MEASURE" run "$tmp/suite.json" --out "$tmp/out2" --dry-run
echo "$n commands under valgrind, $fails failing"
[ $fails -eq 0 ]
