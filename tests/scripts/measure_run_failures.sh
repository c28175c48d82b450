#!/bin/sh
# measure run: every way a case can fail becomes a record with a reason, never
# a number: SIGSEGV, exit status, timeout (a grandchild holding the log open,
# a job that ignores SIGTERM), no matching line, CUDA out of memory, a command
# that cannot start; a 50 MB log still parses.  No process is left behind.
# Nothing depends on the machine's speed: the cases that end by themselves run
# with a timeout they never reach; only the two that hang forever get 1 s.
. tests/scripts/lib/preamble.sh
need_bins MEASURE
command -v pgrep >/dev/null 2>&1 || { echo "FAIL: pgrep is missing (procps: sh scripts/deps.sh test installs it)"; exit 1; }
JOBS="$ROOT/tests/jobs"
marker=$(( $$ * 1000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 1000 ))
# Leftovers (a failing test) are ended by process id; the marker is ours alone.
at_exit() { for p in $(pgrep -f "99[78]\.$marker"); do kill -KILL "$p" 2>/dev/null; done; }
field() { sed -n "s/^ \"$2\": \(.*\)$/\1/p" "$1" | sed 's/,$//' | head -n 1; }
reason() { sed -n 's/^  "reason": "\(.*\)",\{0,1\}$/\1/p' "$1"; }
detail() { sed -n 's/^  "detail": "\(.*\)"$/\1/p' "$1"; }

cat >"$tmp/suite.json" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "fake",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s",
 "command": ["$JOBS/by_batch.sh", "{batch_size}", "$marker"],
 "timeout_s": 600,
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global", "min_records": 3}
}
JSON
# Every case but the hanging ones (bs4, bs8), then those with --timeout 1.
"$MEASURE" run "$tmp/suite.json" --out "$tmp/out" --only 'fake_sp_bs[1235679]_*' \
  --only 'fake_sp_bs1[0-2]_*' >/dev/null 2>"$tmp/err1"
rc=$?
[ $rc -eq 1 ] || { fail "exit $rc, expected 1 (some cases failed)"; cat "$tmp/err1"; }
"$MEASURE" run "$tmp/suite.json" --out "$tmp/out" --resume --timeout 1 --kill-grace 0.2 \
  >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || { fail "--resume --timeout 1: exit $rc, expected 1"; cat "$tmp/err"; }
idx="$tmp/out/logs/index"
check() { # BATCH_SIZE REASON [DETAIL-REGEX]
  r="$idx/fake_sp_bs$1_fp32_1_speed"
  [ -f "$r" ] || { fail "bs$1: no record"; return; }
  if [ "$2" = ok ]; then
    [ "$(field "$r" JOB_FAIL_FLAG)" = 0 ] || fail "bs$1: expected success, got $(reason "$r"): $(detail "$r")"
    return
  fi
  [ "$(field "$r" JOB_FAIL_FLAG)" = 1 ] || fail "bs$1: JOB_FAIL_FLAG $(field "$r" JOB_FAIL_FLAG)"
  [ "$(field "$r" FINAL_RESULT)" = null ] || fail "bs$1: FINAL_RESULT $(field "$r" FINAL_RESULT), expected null"
  [ "$(reason "$r")" = "$2" ] || fail "bs$1: reason $(reason "$r"), expected $2 ($(detail "$r"))"
  if [ -n "${3:-}" ]; then detail "$r" | grep -Eq "$3" || fail "bs$1: detail '$(detail "$r")' !~ $3"; fi
  [ -f "$tmp/out/logs/train_log/fake_sp_bs$1_fp32_1" ] || fail "bs$1: no log kept"
}
check 1 ok
check 2 signal 'signal 11 \(SIGSEGV\)'
[ "$(field "$idx/fake_sp_bs2_fp32_1_speed" signal)" = 11 ] || fail "bs2: signal field"
check 3 exit_status 'status 3$'
[ "$(field "$idx/fake_sp_bs3_fp32_1_speed" exit_status)" = 3 ] || fail "bs3: exit_status field"
check 4 timeout 'no exit within 1s'
check 5 no_records '^logs/train_log/fake_sp_bs5_fp32_1: '
check 6 oom 'CUDA out of memory'
check 7 ok
[ "$(field "$idx/fake_sp_bs7_fp32_1_speed" FINAL_RESULT)" = 203.5 ] || fail "flood: FINAL_RESULT $(field "$idx/fake_sp_bs7_fp32_1_speed" FINAL_RESULT)"
size=$(wc -c <"$tmp/out/logs/train_log/fake_sp_bs7_fp32_1")
[ "$size" -ge 50000000 ] || fail "flood: log has $size bytes, expected the whole 50 MB"
# A job that ignores SIGTERM: the record says perfrepro sent the SIGKILL
# (never "not sent by perfrepro: ... out-of-memory killer").
check 8 timeout '^no exit within 1s: perfrepro sent its process group SIGTERM, then SIGKILL after the grace of 0\.2s$'
[ "$(field "$idx/fake_sp_bs8_fp32_1_speed" signal)" = 9 ] || fail "bs8: signal field"
check 4 timeout '^no exit within 1s: perfrepro sent its process group SIGTERM$'
check 9 exit_status 'status 137'
check 10 oom '^logs/train_log/fake_sp_bs10_fp32_1: .*; the log reports: RuntimeError: CUDA out of memory'
check 11 ok
check 12 no_gpu '^no CUDA device found \(cudaGetDeviceCount: 100\) \(exited with status 3\)$'
# The timed-out jobs waited for their timeout and grace, not for the
# grandchild holding the log (its sleep is 997 s: any bound far below it
# tells the two apart, however slow the machine).
for b in 4 8; do
  d=$(field "$idx/fake_sp_bs${b}_fp32_1_speed" duration_s)
  awk -v d="$d" 'BEGIN { exit !(d >= 0.9 && d < 300) }' || fail "bs$b: duration_s $d"
done
# Grandchildren of the hung jobs are gone (their sleeps carry the marker).
sleep 0.2
if pgrep -f "99[78]\.$marker" >/dev/null; then fail "left over: $(pgrep -af "99[78]\.$marker")"; fi
grep -q "12 cases: 3 ok, 9 failed" "$tmp/err" || fail "summary: $(tail -n 1 "$tmp/err")"
grep -q "timeout 2" "$tmp/err" || fail "summary reasons"

# A command that cannot start.
cat >"$tmp/noexec.json" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "fake",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s",
 "command": ["$tmp/no-such-program", "{batch_size}"],
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [1], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global"}
}
JSON
"$MEASURE" run "$tmp/noexec.json" --out "$tmp/noexec" >/dev/null 2>&1
[ $? -eq 1 ] || fail "launch error: expected exit 1"
r="$tmp/noexec/logs/index/fake_sp_bs1_fp32_1_speed"
[ "$(reason "$r")" = launch_error ] || fail "launch error: reason $(reason "$r")"
detail "$r" | grep -q "No such file or directory" || fail "launch error: detail $(detail "$r")"

# A multi-node case cannot run on the local launcher.
sed 's/"nodes": \[1\]/"nodes": [2]/' "$tmp/noexec.json" >"$tmp/multi.json"
"$MEASURE" run "$tmp/multi.json" --out "$tmp/multi" >/dev/null 2>&1
r="$tmp/multi/logs/index/fake_mp_bs1_fp32_2_speed"
[ "$(reason "$r")" = launch_error ] || fail "2 nodes on local: reason $(reason "$r")"

finish "measure run failures: ok"
