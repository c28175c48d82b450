#!/bin/sh
# A step trace's stalls go the slow way of its unit (docs/statistics.md#step-traces):
# the same 40 records (about 0.1 each, step 20 at 0.25, step 30 at 0.05)
#   - in s/step (a time, lower is better: unitdir.h): step 20 is the stall,
#     above the higher of the median / 90 % and the median + 5 deviations;
#     step 30 (a fast step) is none;
#   - in images/s (a rate): step 30 is the stall, below the line; step 20
#     (a fast step) is none;
#   - in a unit of no known direction: no stall is looked for, and the alt
#     text says nothing of stalls.
# Before, a time's trace said nothing of its slow steps.
. tests/scripts/lib/preamble.sh
need_bins GEN MEASURE
T="$ROOT/templates"
t=$tmp # the name its checks use
cd "$t" || exit 1
i=1
while [ $i -le 40 ]; do
  case $i in 20) v=0.2500 ;; 30) v=0.0500 ;; *) v=0.10$((i % 3))0 ;; esac
  echo "step $i time: $v"
  i=$((i + 1))
done >case_a
# alt UNIT: the English and Chinese alt texts of the trace, parsed in UNIT.
alt() {
  rm -rf data out run1
  "$MEASURE" parse --rule '{"keyword":"time:","value":"raw","skip":2}' --unit "$1" \
    --model Toy --framework Fw --out run1 case_a >/dev/null 2>"$t/err" || { cat "$t/err"; return 1; }
  mkdir -p data/runs && mv run1 data/runs/ &&
    "$GEN" build --data data --templates "$T" --out out >/dev/null 2>"$t/err" || { cat "$t/err"; return 1; }
  grep -ho 'Step trace of the log[^]]*' out/Toy/Fw/README.en.md >"$t/en"
  grep -ho '日志的逐步记录[^]]*' out/Toy/Fw/README.md >"$t/zh"
  [ -s "$t/en" ] && [ -s "$t/zh" ] || { echo "no trace alt text in $1"; return 1; }
}
alt s/step || fail "s/step: no trace"
grep -qF 'Stalls (red rings: used steps above 0.112222, the higher of' "$t/en" || fail "s/step: $(cat "$t/en")"
grep -qF ': 1, at step 20 (line 20): 0.25.' "$t/en" || fail "s/step: not step 20 alone: $(cat "$t/en")"
grep -qF '高于 0.112222 的已用步' "$t/zh" || fail "s/step zh: $(cat "$t/zh")"
alt images/s || fail "images/s: no trace"
grep -qF 'Stalls (red rings: used steps below 0.0909, the lower of' "$t/en" || fail "images/s: $(cat "$t/en")"
grep -qF ': 1, at step 30 (line 30): 0.05.' "$t/en" || fail "images/s: not step 30 alone: $(cat "$t/en")"
alt widgets || fail "widgets: no trace"
grep -qi 'stall' "$t/en" && fail "widgets: a stall looked for in a unit of no direction: $(cat "$t/en")"
finish "step_trace_times: ok"
