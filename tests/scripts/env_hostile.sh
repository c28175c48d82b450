#!/bin/sh
# The tests set the environment they rely on: the ones that look at the
# terminal, language or clock pass whatever the caller's TERM (dumb: Emacs,
# some CI runners), NO_COLOR, locale and time zone.  measure_run_basic once
# failed `make test` for a user with TERM=dumb: it expected colours under
# `script` although the tool rightly turns them off there.
. tests/scripts/lib/preamble.sh
need_bins GEN MEASURE
log="$tmp/log"
# the sensitive ones: colours on a terminal, usage texts, dates in records
for t in measure_run_basic cli_help e2e_measure_gen measure_parse_out; do
  for envs in "TERM=dumb NO_COLOR=1 LC_ALL=POSIX LANG= TZ=Asia/Shanghai" \
              "TERM=xterm-256color NO_COLOR= LC_ALL=C.UTF-8 TZ=America/Los_Angeles" \
              "TERM= COLUMNS=20 LC_ALL= LANG=zh_CN.UTF-8 TZ=Pacific/Kiritimati"; do
    env $envs GEN="$GEN" MEASURE="$MEASURE" sh "tests/scripts/$t.sh" >"$log" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || { fail "$t under $envs: status $rc"; cat "$log"; }
  done
done
finish "env hostile: ok"
