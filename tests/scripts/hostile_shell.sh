#!/bin/sh
# Suite values that look like shell code never run as shell code.
#   - "shell": false: command elements such as '; rm -rf / #, $(id), `id` and a
#     model_name holding them reach the job as argv, byte for byte;
#   - "shell": true: every substituted value ({model_name}, {log_file} under
#     an output folder named o'ut $(touch PWNED), {workdir}) is one quoted
#     word; nothing is executed;
#   - --dry-run prints each case as one shell line that, run by sh, gives the
#     job the same argv and environment as the real run;
#   - env names that are not variable names are refused before anything runs.
. tests/scripts/lib/preamble.sh
need_bins MEASURE
JOBS="$ROOT/tests/jobs"
unset CUDA_VISIBLE_DEVICES
cd "$tmp" || exit 1
# A job that prints its argv and the suite's variable, one per line.
cat >job.sh <<'SH'
#!/bin/sh
for a in "$@"; do printf 'arg[%s]\n' "$a"; done
printf 'env[%s]\n' "$HOSTILE"
echo "ips: 5.0 samples/sec"
SH
chmod +x job.sh
mn="'; touch PWNED1 #"
# The JSON strings, escaped for JSON (backslash and double quote do not occur).
cat >plain.json <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "$mn",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s",
 "command": ["$tmp/job.sh", "{model_name}", "\$(touch PWNED2)", "\`touch PWNED3\`",
             "'; rm -rf / #", "a b", "", "{log_file}"],
 "env": {"HOSTILE": "{model_name} \$(touch PWNED4)"},
 "case_name": "c_{batch_size}", "timeout_s": 20,
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [1], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global"}}
JSON
sed -e 's/"command": \[.*$/"command": ["'"$(echo "$tmp" | sed 's/[\/&]/\\&/g')"'\/job.sh {model_name} {log_file} {workdir} $(echo not-substituted)"],/' \
    -e '/^             "/d' -e 's/"case_name"/"shell": true, "case_name"/' plain.json >shell.json
out="o'ut \$(touch PWNED5) \`touch PWNED6\`"

# --- shell: false
"$MEASURE" run plain.json --out "$out" >run.out 2>&1 || { fail "plain run failed"; cat run.out; }
log="$out/logs/train_log/c_1"
logabs="$tmp/$log"
printf '%s\n' "arg[$mn]" 'arg[$(touch PWNED2)]' 'arg[`touch PWNED3`]' "arg['; rm -rf / #]" \
  'arg[a b]' 'arg[]' "arg[$logabs]" "env[$mn \$(touch PWNED4)]" >want.plain
grep '^arg\[\|^env\[' "$log" >got.plain 2>/dev/null
cmp -s want.plain got.plain || { fail "shell false: the job did not get its argv verbatim"; diff want.plain got.plain; }

# --- --dry-run: one line per case that sh runs the same way
"$MEASURE" run plain.json --out "$out" --dry-run >dry.out 2>&1 || fail "dry run failed"
line=$(grep -v '^#' dry.out | head -n 1)
[ -n "$line" ] || fail "dry run printed no command"
sh -c "$line" >dry.job 2>&1
grep '^arg\[\|^env\[' dry.job >got.dry
cmp -s want.plain got.dry || { fail "--dry-run line does not give the same argv"; diff want.plain got.dry; }

# --- shell: true
"$MEASURE" run shell.json --out "$out" >run2.out 2>&1 || { fail "shell run failed"; cat run2.out; }
printf '%s\n' "arg[$mn]" "arg[$logabs]" "arg[$tmp]" 'arg[not-substituted]' \
  "env[$mn \$(touch PWNED4)]" >want.shell
grep '^arg\[\|^env\[' "$log" >got.shell
cmp -s want.shell got.shell || { fail "shell true: substituted values were not single words"; diff want.shell got.shell; }
"$MEASURE" run shell.json --out "$out" --dry-run >dry2.out 2>&1 || fail "shell dry run failed"
line=$(grep -v '^#' dry2.out | head -n 1)
sh -c "$line" >dry2.job 2>&1
grep '^arg\[\|^env\[' dry2.job >got.dry2
cmp -s want.shell got.dry2 || { fail "shell --dry-run line differs from the run"; diff want.shell got.dry2; }

# Nothing ran: no PWNED file anywhere below here, nothing deleted.
[ -z "$(find . -name 'PWNED*')" ] || fail "shell code ran: $(find . -name 'PWNED*')"
[ -f plain.json ] && [ -x job.sh ] || fail "files disappeared"

# --- env names
for k in 'A=B' '' '1X' 'A B' 'X;id'; do
  sed "s/\"env\": {\"HOSTILE\"/\"env\": {\"$k\"/" plain.json >env.json
  "$MEASURE" run env.json --out envout >env.out 2>&1
  rc=$?
  [ $rc -eq 2 ] || fail "env name '$k': exit $rc, expected 2"
  grep -q "not an environment variable name" env.out || fail "env name '$k': $(cat env.out)"
  [ ! -e envout ] || fail "env name '$k': the output folder was created"
done
finish "hostile shell values: all inert"
