#!/bin/sh
# measure run: what a job cannot do to the machine it runs on.
#  - A log past its limit (--log-limit, the suite's log_limit_mib) stops the
#    job and fails the case (log_limit); the log keeps its head and tail and
#    a line saying how much was dropped.  A job that ignores SIGTERM and
#    floods on gets SIGKILL at once, not after the grace.
#  - Processes a job leaves running outside its process group (setsid) are
#    ended when the case is over, and the record says which.
# Nothing depends on the machine's speed: the floods write at most 100 MB/s
# for a second at least (far past a 256 KiB limit between two looks at the
# log), their grace is 60 s and a case that waited for it fails; the escaped
# sleep lasts 996 s, far longer than its grace of 0.2 s.
. tests/scripts/lib/preamble.sh
need_bins MEASURE
command -v pgrep >/dev/null 2>&1 || { echo "FAIL: pgrep is missing (procps: sh scripts/deps.sh test installs it)"; exit 1; }
JOBS="$ROOT/tests/jobs"
marker=$(( $$ * 1000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 1000 ))
# Leftovers (a failing test) are ended by process id; the marker is ours alone.
at_exit() { for p in $(pgrep -f "996\.$marker"); do kill -KILL "$p" 2>/dev/null; done; }
field() { sed -n "s/^ \"$2\": \(.*\)$/\1/p" "$1" | sed 's/,$//' | head -n 1; }
reason() { sed -n 's/^  "reason": "\(.*\)",\{0,1\}$/\1/p' "$1"; }
detail() { sed -n 's/^  "detail": "\(.*\)"$/\1/p' "$1"; }

suite() { # FILE [EXTRA-KEYS]
  cat >"$1" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "fake",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s",
 "command": ["$JOBS/by_batch.sh", "{batch_size}", "$marker"],
 "timeout_s": 600, ${2:-}
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [1, 13, 14, 15],
            "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global", "min_records": 1}
}
JSON
}
suite "$tmp/suite.json"
"$MEASURE" run "$tmp/suite.json" --out "$tmp/out" --log-limit 0.25 --kill-grace 60 \
  --only 'fake_sp_bs1[34]_*' --only 'fake_sp_bs1_*' >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || { fail "exit $rc, expected 1 (the floods failed)"; cat "$tmp/err"; }
# The escaped tree ignores SIGTERM: a short grace.
"$MEASURE" run "$tmp/suite.json" --out "$tmp/out" --resume --log-limit 0.25 --kill-grace 0.2 \
  >/dev/null 2>"$tmp/err2"
rc=$?
[ $rc -eq 1 ] || { fail "--resume: exit $rc, expected 1 (the floods kept)"; cat "$tmp/err2"; }
idx="$tmp/out/logs/index"
logs="$tmp/out/logs/train_log"
rec() { echo "$idx/fake_sp_bs$1_fp32_1_speed"; }

# A small log is not touched by the limit.
[ "$(field "$(rec 1)" JOB_FAIL_FLAG)" = 0 ] || fail "bs1: $(reason "$(rec 1)"): $(detail "$(rec 1)")"

# The floods: log_limit, stopped long before their end, the log cut down.
for b in 13 14; do
  r=$(rec $b) log="$logs/fake_sp_bs${b}_fp32_1"
  [ -f "$r" ] || { fail "bs$b: no record"; continue; }
  [ "$(field "$r" JOB_FAIL_FLAG)" = 1 ] || fail "bs$b: JOB_FAIL_FLAG $(field "$r" JOB_FAIL_FLAG)"
  [ "$(field "$r" FINAL_RESULT)" = null ] || fail "bs$b: FINAL_RESULT $(field "$r" FINAL_RESULT)"
  [ "$(reason "$r")" = log_limit ] || fail "bs$b: reason $(reason "$r") ($(detail "$r"))"
  detail "$r" | grep -Eq '^its log passed the limit of 262144 bytes \(0\.25 MiB\): perfrepro sent its process group SIGTERM' ||
    fail "bs$b: detail '$(detail "$r")'"
  detail "$r" | grep -Eq "the first [0-9]+ and the last [0-9]+ are kept in logs/train_log/fake_sp_bs${b}_fp32_1\$" ||
    fail "bs$b: detail '$(detail "$r")' names no kept head and tail"
  size=$(wc -c <"$log")
  [ "$size" -le 262144 ] && [ "$size" -ge 100000 ] || fail "bs$b: log of $size bytes, expected 100000 to 262144"
  [ "$(head -n 1 "$log")" = "epoch 0, batch 1, ips: 100.0 samples/sec" ] || fail "bs$b: the log's head is gone: $(head -c 80 "$log")"
  [ "$(grep -c '^\[perfrepro-measure: [0-9]* bytes dropped here: the log passed its limit of 262144 bytes; its first [0-9]* and last [0-9]* bytes are kept\]$' "$log")" = 1 ] ||
    fail "bs$b: no one line saying what was dropped"
  tail -c 200 "$log" | grep -q 'samples/sec filler' || fail "bs$b: the log's tail is gone: $(tail -c 80 "$log")"
  grep -q 'the flood is over' "$log" && fail "bs$b: the job was not stopped"
  d=$(field "$r" duration_s)
  awk -v d="$d" 'BEGIN { exit !(d < 30) }' || fail "bs$b: duration_s $d: waited for the 60 s grace"
done
detail "$(rec 13)" | grep -q 'SIGKILL' && fail "bs13: SIGKILL for a job SIGTERM ends: $(detail "$(rec 13)")"
detail "$(rec 14)" | grep -q ', then SIGKILL as it went on writing;' || fail "bs14: detail '$(detail "$(rec 14)")'"
grep -q "3 cases: 1 ok, 2 failed (log_limit 2)" "$tmp/err" || fail "summary: $(tail -n 1 "$tmp/err")"
grep -q "4 cases: 2 ok, 2 failed (log_limit 2), 3 kept from before" "$tmp/err2" || fail "summary: $(tail -n 1 "$tmp/err2")"

# The escaped process tree: ended, the case ok, the record says what.
r=$(rec 15)
[ "$(field "$r" JOB_FAIL_FLAG)" = 0 ] || fail "bs15: $(reason "$r"): $(detail "$r")"
tr -d ' \n' <"$r" | grep -q '"ended_processes":{"count":2,"names":\["sh","sleep"\]}' ||
  fail "bs15: ended_processes: $(tr -d ' \n' <"$r" | grep -o '"ended_processes":{[^}]*}')"
grep -q 'warning: fake_sp_bs15_fp32_1: 2 processes it left running (sh, sleep) were ended' "$tmp/err2" ||
  fail "bs15: no warning: $(cat "$tmp/err2")"
if pgrep -f "996\.$marker" >/dev/null; then fail "left running after run: $(pgrep -af "996\.$marker")"; fi
[ "$(tr -d ' \n' <"$r" | grep -c '"survived"')" = 0 ] || fail "bs15: some survived SIGKILL"

# The suite's log_limit_mib, without the option.
suite "$tmp/keyed.json" '"log_limit_mib": 0.25,'
"$MEASURE" run "$tmp/keyed.json" --out "$tmp/keyed" --only 'fake_sp_bs13_*' --kill-grace 60 \
  >/dev/null 2>&1
[ "$(reason "$tmp/keyed/logs/index/fake_sp_bs13_fp32_1_speed")" = log_limit ] ||
  fail "log_limit_mib: reason $(reason "$tmp/keyed/logs/index/fake_sp_bs13_fp32_1_speed")"

# Values out of range are refused before anything runs.
"$MEASURE" run "$tmp/suite.json" --out "$tmp/bad" --log-limit 0 >/dev/null 2>"$tmp/e1"
[ $? -eq 2 ] && grep -q -- '--log-limit: expected a number of MiB' "$tmp/e1" || fail "--log-limit 0: $(cat "$tmp/e1")"
"$MEASURE" run "$tmp/suite.json" --out "$tmp/bad" --log-limit 1x >/dev/null 2>"$tmp/e1"
[ $? -eq 2 ] || fail "--log-limit 1x accepted"
suite "$tmp/badkey.json" '"log_limit_mib": "1G",'
"$MEASURE" run "$tmp/badkey.json" --out "$tmp/bad" >/dev/null 2>"$tmp/e1"
[ $? -eq 2 ] && grep -q 'log_limit_mib' "$tmp/e1" || fail "log_limit_mib \"1G\": $(cat "$tmp/e1")"
[ -e "$tmp/bad" ] && fail "a refused run wrote $tmp/bad"

finish "measure run limits: ok"
