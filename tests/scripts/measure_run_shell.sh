#!/bin/sh
# measure run: substituted values are never shell syntax.  A hostile
# model_name and an output directory with a space and a quote reach the job
# literally, with "shell": true (values single-quoted for /bin/sh -c) and
# without (argv exec'd directly); --dry-run prints a line a shell runs the
# same way.
. tests/scripts/lib/preamble.sh
need_bins MEASURE
JOBS="$ROOT/tests/jobs"
field() { sed -n "s/^ \"$2\": \(.*\)$/\1/p" "$1" | sed 's/,$//' | head -n 1; }

# JSON-escaped: '; touch PWNED1 # | $(touch PWNED2) `touch PWNED3` "q" \ $HOME
hostile="'; touch PWNED1 # | \$(touch PWNED2) \`touch PWNED3\` \\\"q\\\" \\\\ \$HOME"
expect="'; touch PWNED1 # | \$(touch PWNED2) \`touch PWNED3\` \"q\" \\ \$HOME"
out="$tmp/out dir/it's"
mkdir -p "$tmp/work"
for mode in shell argv; do
  if [ $mode = shell ]; then
    cmd="\"command\": [\"$JOBS/args.sh {model_name} --log={log_file} {precision}\"], \"shell\": true"
  else
    cmd="\"command\": [\"$JOBS/args.sh\", \"{model_name}\", \"--log={log_file}\", \"{precision}\"]"
  fi
  cat >"$tmp/$mode.json" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "$hostile",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s", "case_name": "c_{batch_size}",
 $cmd,
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [1], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global"}
}
JSON
  (cd "$tmp/work" && "$MEASURE" run "$tmp/$mode.json" --out "$out/$mode") >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc -eq 0 ] || { fail "$mode: exit $rc"; cat "$tmp/err"; }
  log="$out/$mode/logs/train_log/c_1"
  printf 'arg[%s]\narg[--log=%s]\narg[fp32]\n' "$expect" "$log" >"$tmp/want"
  head -n 3 "$log" >"$tmp/got"
  cmp -s "$tmp/want" "$tmp/got" || { fail "$mode: the job got other arguments"; diff "$tmp/want" "$tmp/got"; }
  [ "$(field "$out/$mode/logs/index/c_1_speed" JOB_FAIL_FLAG)" = 0 ] || fail "$mode: case failed"
  # --dry-run's line, run by a shell, gives the job the same arguments.
  (cd "$tmp/work" && "$MEASURE" run "$tmp/$mode.json" --out "$out/$mode" --dry-run) >"$tmp/dry" 2>&1 ||
    fail "$mode: dry-run"
  line=$(sed -n 2p "$tmp/dry")
  (cd "$tmp/work" && sh -c "$line") | head -n 3 >"$tmp/got2"
  cmp -s "$tmp/want" "$tmp/got2" || { fail "$mode: dry-run line runs differently"; echo "$line"; diff "$tmp/want" "$tmp/got2"; }
done
ls "$tmp/work" | grep -q PWNED && fail "a substituted value was run as a command"
[ -e "$HOME/PWNED1" ] && fail "a substituted value was run as a command (in HOME)"

finish "measure run shell quoting: ok"
