#!/bin/sh
# measure run: the suite's datasets are checked (md5) before the first case.
# A matching file lets the run go on; a missing file or a different checksum
# stops it with a message naming the dataset and both checksums, exit 2, and
# no case run.
. tests/scripts/lib/preamble.sh
need_bins MEASURE
JOBS="$ROOT/tests/jobs"

printf 'abc' >"$tmp/data.bin"       # md5 900150983cd24fb0d6963f7d28e17f72 (RFC 1321)
good=900150983cd24fb0d6963f7d28e17f72
other=0cc175b9c0f1b6a831c399e269772661
suite() { # FILE PATH MD5
  cat >"$1" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "fake",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s",
 "command": ["$JOBS/good.sh"],
 "datasets": [{"name": "tiny", "path": "$2", "md5": "$3"}],
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [1], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global"}
}
JSON
}
rec=logs/index/fake_sp_bs1_fp32_1_speed

suite "$tmp/ok.json" "$tmp/data.bin" $good
"$MEASURE" run "$tmp/ok.json" --out "$tmp/ok" >/dev/null 2>"$tmp/err"
[ $? -eq 0 ] || { fail "matching checksum: run failed"; cat "$tmp/err"; }
[ -f "$tmp/ok/$rec" ] || fail "matching checksum: no record"
grep -q 'checking dataset "tiny"' "$tmp/err" || fail "no 'checking dataset' line"

suite "$tmp/bad.json" "$tmp/data.bin" $other
"$MEASURE" run "$tmp/bad.json" --out "$tmp/bad" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "wrong checksum: expected exit 2"
grep -q "dataset \"tiny\" ($tmp/data.bin): md5 is $good, expected $other" "$tmp/err" ||
  fail "wrong checksum message: $(cat "$tmp/err")"
[ -e "$tmp/bad/$rec" ] && fail "wrong checksum: a case ran"
[ -e "$tmp/bad/logs/train_log/fake_sp_bs1_fp32_1" ] && fail "wrong checksum: a case ran (log)"

suite "$tmp/missing.json" "$tmp/nowhere.bin" $good
"$MEASURE" run "$tmp/missing.json" --out "$tmp/missing" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "missing dataset: expected exit 2"
grep -q "dataset \"tiny\" ($tmp/nowhere.bin): .*No such file or directory (expected md5 $good)" "$tmp/err" ||
  fail "missing dataset message: $(cat "$tmp/err")"
[ -e "$tmp/missing/$rec" ] && fail "missing dataset: a case ran"

finish "measure run datasets: ok"
