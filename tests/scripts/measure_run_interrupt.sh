#!/bin/sh
# measure run interrupted: SIGINT (exit 130) and SIGTERM (exit 143) while the
# second case runs.  The completed record stays intact and valid, the
# interrupted case gets none, logs/index holds no temporary or half file, the
# job's whole process group is gone, and --resume then finishes the suite
# with exactly one record per case.
. tests/scripts/lib/preamble.sh
need_bins MEASURE
command -v pgrep >/dev/null 2>&1 || { echo "FAIL: pgrep is missing (procps: sh scripts/deps.sh test installs it)"; exit 1; }
JOBS="$ROOT/tests/jobs"
marker=$(( $$ * 1000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 1000 ))
mpid=""
at_exit() {
  [ -n "$mpid" ] && kill -KILL "$mpid" 2>/dev/null
  for p in $(pgrep -f "99[78]\.$marker"); do kill -KILL "$p" 2>/dev/null; done
}
field() { sed -n "s/^ \"$2\": \(.*\)$/\1/p" "$1" | sed 's/,$//' | head -n 1; }
reason() { sed -n 's/^  "reason": "\(.*\)",\{0,1\}$/\1/p' "$1"; }

# bs1 good, bs4 / bs8 hang (bs8 ignores SIGTERM), bs5 no records.
cat >"$tmp/suite.json" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "fake",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s",
 "command": ["$JOBS/by_batch.sh", "{batch_size}", "$marker"],
 "timeout_s": 60,
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [1, 4, 5], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global", "min_records": 3}
}
JSON
sed 's/\[1, 4, 5\]/[1, 8, 5]/' "$tmp/suite.json" >"$tmp/suite-ignore-term.json"

interrupt() { # SIGNAL SUITE EXPECTED-EXIT HUNG-CASE
  sig=$1 suite=$2 want=$3 hung=$4
  out="$tmp/out-$sig"
  idx="$out/logs/index"
  "$MEASURE" run "$suite" --out "$out" --kill-grace 0.3 >/dev/null 2>"$tmp/err-$sig" &
  mpid=$!
  i=0
  until [ -f "$idx/fake_sp_bs1_fp32_1_speed" ] && pgrep -f "998\.$marker" >/dev/null; do
    i=$((i + 1))
    # A generous bound (2 minutes): it only ends a test that already failed.
    [ $i -le 1200 ] || { fail "$sig: the second case never started"; return; }
    sleep 0.1
  done
  # The directory is locked while the run goes on.
  "$MEASURE" run "$suite" --out "$out" >/dev/null 2>"$tmp/lock-$sig"
  [ $? -eq 2 ] || fail "$sig: a second measure into the same directory did not stop"
  grep -q "another perfrepro-measure" "$tmp/lock-$sig" || fail "$sig: lock message: $(cat "$tmp/lock-$sig")"
  kill -"$sig" "$mpid"
  wait "$mpid"
  rc=$?
  mpid=""
  [ $rc -eq "$want" ] || fail "$sig: exit $rc, expected $want"
  grep -q "interrupted by signal" "$tmp/err-$sig" || fail "$sig: no interruption message"
  grep -q "during $hung, which has no record" "$tmp/err-$sig" || fail "$sig: message does not name $hung"
  # The job's group, grandchildren included, is gone.
  sleep 0.2
  if pgrep -f "99[78]\.$marker" >/dev/null; then fail "$sig: left over: $(pgrep -af "99[78]\.$marker")"; fi
  # Exactly the completed record, valid; nothing else.
  [ "$(ls "$idx")" = "fake_sp_bs1_fp32_1_speed" ] || fail "$sig: logs/index holds: $(ls "$idx" | tr '\n' ' ')"
  [ "$(field "$idx/fake_sp_bs1_fp32_1_speed" JOB_FAIL_FLAG)" = 0 ] || fail "$sig: completed record damaged"
  tail -c 2 "$idx/fake_sp_bs1_fp32_1_speed" | grep -q '}' || fail "$sig: completed record cut short"
  [ -z "$(find "$out" -name '*.tmp.*')" ] || fail "$sig: temporary files left"

  # --resume finishes: the kept record untouched, the others run.  Only the
  # hanging case gets a 1 s timeout (bs5 must not depend on the machine's
  # speed to end in time).
  cp "$idx/fake_sp_bs1_fp32_1_speed" "$tmp/kept"
  "$MEASURE" run "$suite" --out "$out" --resume --only "$hung" --timeout 1 --kill-grace 0.2 \
    >/dev/null 2>"$tmp/resume1-$sig"
  rc=$?
  [ $rc -eq 1 ] || fail "$sig resume of $hung: exit $rc, expected 1 (timeout)"
  "$MEASURE" run "$suite" --out "$out" --resume --kill-grace 0.2 >/dev/null 2>"$tmp/resume-$sig"
  rc=$?
  [ $rc -eq 1 ] || fail "$sig resume: exit $rc, expected 1 (timeout and no_records)"
  cmp -s "$tmp/kept" "$idx/fake_sp_bs1_fp32_1_speed" || fail "$sig resume: rewrote the completed record"
  [ "$(ls "$idx" | wc -l)" -eq 3 ] || fail "$sig resume: $(ls "$idx" | wc -l) records, expected 3"
  [ "$(reason "$idx/${hung}_speed")" = timeout ] || fail "$sig resume: $hung reason $(reason "$idx/${hung}_speed")"
  [ "$(reason "$idx/fake_sp_bs5_fp32_1_speed")" = no_records ] || fail "$sig resume: bs5 reason"
  grep -q "3 cases: 1 ok, 2 failed" "$tmp/resume-$sig" || fail "$sig resume summary: $(tail -n 1 "$tmp/resume-$sig")"
  sleep 0.2
  if pgrep -f "99[78]\.$marker" >/dev/null; then fail "$sig resume: left over processes"; fi
}
interrupt INT "$tmp/suite.json" 130 fake_sp_bs4_fp32_1
interrupt TERM "$tmp/suite-ignore-term.json" 143 fake_sp_bs8_fp32_1

finish "measure run interrupt: ok"
