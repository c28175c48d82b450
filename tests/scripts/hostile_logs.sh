#!/bin/sh
# Hostile logs: perfrepro-measure parse streams any log in constant memory and
# keeps going; markup in log lines stays text in the reports.
#   - a 10 GB log (a sparse file of NUL bytes, then real lines): read to the
#     end, the NULs are one overlong line, peak RSS stays small (a few MB);
#   - a 200 MB log without a newline, then real lines: one overlong line,
#     counted in stats.overlong_lines, bounded memory, the lines after it read;
#   - log lines with ANSI escapes, NULs, \r progress bars, HTML and Markdown:
#     parsed, and a job's out-of-memory line quoting <script> and table pipes,
#     run by measure and rendered by gen, comes out of the reports inert.
# Peak RSS is read with /usr/bin/time -v (package "time"); without it the
# memory checks are skipped, not the rest.
. tests/scripts/lib/preamble.sh
need_bins MEASURE GEN
field() { sed -n "s/^ *\"$2\": \([^,]*\),*$/\1/p" "$1" | head -n 1; }
TIMEV=""
[ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1 && TIMEV=/usr/bin/time
# Under ASan the shadow memory and allocator make RSS meaningless.
case "$MEASURE" in *asan*) TIMEV="" ;; esac
rule='{"keyword": "ips:", "scope": "global"}'
# parse_rss LOG: parses LOG into $tmp/rec, peak RSS in KB into $rss.
parse_rss() {
  rss=0
  if [ -n "$TIMEV" ]; then
    $TIMEV -v "$MEASURE" parse --rule "$rule" "$1" >"$tmp/rec" 2>"$tmp/time"
    prc=$?
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time")
  else
    "$MEASURE" parse --rule "$rule" "$1" >"$tmp/rec" 2>"$tmp/time"
    prc=$?
  fi
}

# --- 10 GB of NUL bytes (sparse: no disk used), then two records.
if truncate -s 10G "$tmp/huge.log" 2>/dev/null; then
  printf '\nips: 10.5\nips: 11.5\n' >>"$tmp/huge.log"
  start=$(date +%s)
  parse_rss "$tmp/huge.log"
  secs=$(($(date +%s) - start))
  [ $prc -eq 0 ] || { fail "10 GB log: exit $prc"; cat "$tmp/time"; }
  [ "$(field "$tmp/rec" FINAL_RESULT)" = 11.0 ] || fail "10 GB log: FINAL_RESULT $(field "$tmp/rec" FINAL_RESULT)"
  [ "$(field "$tmp/rec" bytes)" = 10737418261 ] || fail "10 GB log: bytes $(field "$tmp/rec" bytes)"
  [ "$(field "$tmp/rec" overlong_lines)" = 1 ] || fail "10 GB log: overlong_lines $(field "$tmp/rec" overlong_lines)"
  [ "$rss" -lt 32768 ] || fail "10 GB log: peak RSS $rss KB"
  echo "10 GB log: ${secs}s, peak RSS ${TIMEV:+$rss KB}${TIMEV:-not measured}"
  rm -f "$tmp/huge.log"
else
  echo "no sparse files here: 10 GB log skipped"
fi

# --- 200 MB without a newline, then records.
head -c 209715200 /dev/zero | tr '\0' 'x' >"$tmp/line.log"
printf '\nips: 7.0\nips: 9.0\n' >>"$tmp/line.log"
parse_rss "$tmp/line.log"
[ $prc -eq 0 ] || fail "200 MB line: exit $prc"
[ "$(field "$tmp/rec" FINAL_RESULT)" = 8.0 ] || fail "200 MB line: FINAL_RESULT $(field "$tmp/rec" FINAL_RESULT)"
[ "$(field "$tmp/rec" overlong_lines)" = 1 ] || fail "200 MB line: overlong_lines $(field "$tmp/rec" overlong_lines)"
[ "$(field "$tmp/rec" lines)" = 3 ] || fail "200 MB line: lines $(field "$tmp/rec" lines)"
[ "$rss" -lt 32768 ] || fail "200 MB line: peak RSS $rss KB"
# Nothing but the overlong line: a clear failure, not a number.
head -c 209715200 /dev/zero | tr '\0' 'x' >"$tmp/line.log"
"$MEASURE" parse --rule "$rule" "$tmp/line.log" >"$tmp/rec" 2>"$tmp/err"
[ $? -eq 1 ] || fail "200 MB line alone: expected exit 1 (no_records)"
grep -q '"reason": "no_records"' "$tmp/rec" || fail "200 MB line alone: $(cat "$tmp/err")"
[ "$(field "$tmp/rec" overlong_lines)" = 1 ] || fail "200 MB line alone: overlong_lines"
rm -f "$tmp/line.log"

# --- escapes, NULs, progress bars and markup in lines.
printf '\033[32mips: 1.0\033[0m\n\000ips:\000 2.0\nstep 1\rstep 2\rips: 3.0\r\n<script>ips: 4.0</script>\n| ips: 5.0 | `x` |\n\033]0;title\007ips: 6.0\n[1,0]<stdout>:ips: 7.0\nips: <b>8</b>\n' >"$tmp/mixed.log"
"$MEASURE" parse --rule "$rule" "$tmp/mixed.log" >"$tmp/rec" 2>"$tmp/err" || fail "mixed log: $(cat "$tmp/err")"
# <script>ips: 4.0</script> and ips: <b>8</b> are not numbers (ignored): six records.
[ "$(field "$tmp/rec" records_seen)" = 6 ] || fail "mixed log: records_seen $(field "$tmp/rec" records_seen)"
[ "$(field "$tmp/rec" FINAL_RESULT)" = 4.0 ] || fail "mixed log: FINAL_RESULT $(field "$tmp/rec" FINAL_RESULT)"
[ "$(field "$tmp/rec" ignored)" = 2 ] || fail "mixed log: ignored $(field "$tmp/rec" ignored)"

# --- an out-of-memory line with markup, through run and the reports.
unset CUDA_VISIBLE_DEVICES
mkdir -p "$tmp/d/suites/Evil" && cd "$tmp" || exit 1
cat >"$tmp/oom.sh" <<'SH'
#!/bin/sh
printf 'ips: 1.0\n\033[31mRuntimeError: CUDA out of memory <script>alert(1)</script> | `x` [l](javascript:alert(1))\033[0m\n# Injected\n'
exit 1
SH
chmod +x "$tmp/oom.sh"
cat >"$tmp/d/suites/Evil/Sh.json" <<JSON
{"perfrepro": 1, "model": "Evil", "framework": "Sh", "model_name": "evil",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s",
 "command": ["$tmp/oom.sh"], "timeout_s": 20,
 "matrix": {"nodes": [1], "gpus_per_node": [1, 2], "batch_size": [8], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global"}}
JSON
"$MEASURE" run "$tmp/d/suites/Evil/Sh.json" --out "$tmp/d/runs/r1" >"$tmp/run.out" 2>&1
[ $? -eq 1 ] || { fail "oom run: expected exit 1"; cat "$tmp/run.out"; }
rec="$tmp/d/runs/r1/logs/index/evil_sp_bs8_fp32_1_speed"
grep -q '"reason": "oom"' "$rec" || fail "oom run: the record does not say oom"
grep -q 'script' "$rec" || fail "oom run: the detail does not quote the line"
if grep -q "$(printf '\033')" "$rec"; then fail "oom run: an escape character in the record"; fi
"$GEN" build --data "$tmp/d" --templates "$ROOT/templates" --out "$tmp/reports" --no-charts >"$tmp/gen.out" 2>&1 ||
  { fail "gen build of the oom run"; cat "$tmp/gen.out"; }
# No page holds markup made of the log line: no tag, no link to javascript:.
if grep -rl '<script' "$tmp/reports" --include='*.md' >/dev/null; then
  fail "reports: <script> as markup: $(grep -rn '<script' "$tmp/reports" --include='*.md' | head -n 3)"
fi
if grep -rn '](javascript:' "$tmp/reports" --include='*.md' >/dev/null; then fail "reports: a javascript: link"; fi
if grep -rn '^# Injected' "$tmp/reports" --include='*.md' >/dev/null; then fail "reports: a heading from the log"; fi
cd "$ROOT" || exit 1
finish "hostile logs: all handled"
