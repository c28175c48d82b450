#!/bin/sh
# parse --fit without --rule: the search varies the keys that say which
# records count, so the message says so and shows the rules to start from,
# made of the profiles that read the logs (a rate's scope is never guessed);
# a profile that needs no scope (mmseg: step times) is the whole rule, and
# the search starts from it.  --rule after --fit is read as the rule.
. tests/scripts/lib/preamble.sh
need_bins MEASURE

# A Paddle log: 3 warm-up records, then 10.0 five times: skip 3 gives 10.
{ for v in 2.0 4.0 6.0 10.0 10.0 10.0 10.0 10.0; do
    echo "[2023/07/28 06:42:45] ppcls INFO: epoch:0 train step:10 loss: 1.0 ips: $v samples/sec."
  done; } >"$tmp/paddle.log"
# An mmseg log: 0.5 s per step after 2 slow steps: 8 x 1 / 0.5 = 16.
{ for t in 2.000 1.000 0.500 0.500 0.500 0.500; do
    printf '2023-08-03 02:16:16,945 - mmseg - INFO - Iter [8/180]\tlr: 9.653e-03, eta: 0:03:21, time: %s, data_time: 0.022, memory: 3000\n' "$t"
  done; } >"$tmp/mmseg.log"
echo "nothing a profile reads" >"$tmp/other.log"

# --- a rate: the message names what --fit varies and both scopes to pick from
"$MEASURE" parse --gpus 1 --fit 10 "$tmp/paddle.log" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] || fail "paddle without --rule: status $rc"
[ -s "$tmp/out" ] && fail "paddle without --rule: wrote to stdout"
grep -q "is required" "$tmp/err" && fail "still says a bare 'required': $(cat "$tmp/err")"
grep -q "varies .*skip, reduce" "$tmp/err" || fail "the message does not say what --fit varies: $(cat "$tmp/err")"
for sc in per_card global; do
  grep -Fq -- "--rule '{\"profile\": \"paddle-ips\", \"scope\": \"$sc\"}'" "$tmp/err" ||
    fail "no paddle-ips $sc rule shown: $(cat "$tmp/err")"
done
# ... and the rule shown, given back, finds the figure
"$MEASURE" parse --gpus 1 --rule '{"profile": "paddle-ips", "scope": "per_card"}' --fit 10 "$tmp/paddle.log" >"$tmp/out" 2>&1 ||
  fail "the rule shown does not find 10: $(cat "$tmp/out")"
grep -q '"skip": 3' "$tmp/out" || fail "skip 3 not found: $(cat "$tmp/out")"

# --- --rule after --fit is the rule (before or after the logs), not refused
for args in "--fit 10 --rule {\"profile\":\"paddle-ips\",\"scope\":\"per_card\"} $tmp/paddle.log" \
            "--fit 10 $tmp/paddle.log --rule {\"profile\":\"paddle-ips\",\"scope\":\"per_card\"}"; do
  # shellcheck disable=SC2086
  "$MEASURE" parse --gpus 1 $args >"$tmp/out" 2>&1 || fail "parse --gpus 1 $args: $(cat "$tmp/out")"
  grep -q '"skip": 3' "$tmp/out" || fail "$args: $(cat "$tmp/out")"
done
"$MEASURE" parse --gpus 1 --rule '{"profile":"paddle-ips","scope":"per_card"}' --fit 10 "$tmp/paddle.log" \
  --rule '{"profile":"paddle-ips","scope":"global"}' >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "rule given twice" "$tmp/err" || fail "two different rules: $(cat "$tmp/err")"

# --- a profile that needs no scope starts the search by itself
"$MEASURE" parse --gpus 1 --batch-size 8 --fit 16 "$tmp/mmseg.log" >"$tmp/out" 2>"$tmp/err" ||
  fail "mmseg without --rule: status $?: $(cat "$tmp/err")"
grep -Fq "searching from --rule '{\"profile\": \"mmseg\"}'" "$tmp/err" || fail "mmseg: the rule used is not said: $(cat "$tmp/err")"
grep -q '"profile": "mmseg", "skip": 2' "$tmp/out" || fail "mmseg: skip 2 not found: $(cat "$tmp/out")"

# --- nothing reads the log: a skeleton to adapt
"$MEASURE" parse --gpus 1 --fit 10 "$tmp/other.log" >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] || fail "other without --rule: status $rc"
grep -q "skeleton" "$tmp/err" && grep -q -- "--rule '{" "$tmp/err" || fail "no skeleton shown: $(cat "$tmp/err")"

# --- a plain parse still needs its rule
"$MEASURE" parse --gpus 1 "$tmp/paddle.log" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--rule is required" "$tmp/err" || fail "plain parse without --rule: $(cat "$tmp/err")"

finish "fit without rule: ok"
