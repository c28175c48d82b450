#!/bin/sh
# perfrepro-measure writes only what it should and runs only what it should:
#   - a symbolic link or FIFO planted at a case's log path, at its record path
#     (also with --resume) or at env.json is replaced, never followed: the
#     link's target stays byte for byte, nothing blocks;
#   - a FIFO given to `measure parse` as a log, or as a suite's dataset, is an
#     error naming it, not a hang;
#   - a "shell": true command with a placeholder inside single or double quotes
#     (where the value's own quotes are literal and "$(...)" in it would run)
#     is refused at load: FILE:LINE:COL, the placeholder; nothing runs;
#   - a case_name that expands to x.html is refused at load, saying why;
#   - a re-run without --resume on a full disk (ENOSPC injected by
#     tests/faults/wfail.c into the record's or the log's writes) keeps the
#     case's previous record and log byte for byte;
#   - env.json's fields are type-checked where gen loads it (cpu_count -1,
#     "1", 0 or 2.5: FILE:LINE:COL: host.cpu_count).
# Every measure here runs under `timeout` so that a regression (a FIFO opened
# for writing waits for a reader forever) fails instead of hanging: the
# bound is far above what any of these runs takes.
. tests/scripts/lib/preamble.sh
need_bins MEASURE
command -v timeout >/dev/null 2>&1 || { echo "no timeout(1)"; exit 77; }
command -v mkfifo >/dev/null 2>&1 || { echo "no mkfifo"; exit 77; }
JOBS="$ROOT/tests/jobs"
unset CUDA_VISIBLE_DEVICES
m() { timeout 300 "$MEASURE" "$@"; }
cd "$tmp" || exit 1

cat >suite.json <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "fake",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s",
 "command": ["$JOBS/good.sh", "{batch_size}"], "case_name": "c{batch_size}",
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [1, 2], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global"}}
JSON
printf 'precious\n' >target
sum0=$(md5sum <target)
# is_record PATH: a regular file (not a link) holding a successful record.
is_record() { [ -f "$1" ] && [ ! -L "$1" ] && grep -q '"JOB_FAIL_FLAG": 0' "$1"; }
is_log() { [ -f "$1" ] && [ ! -L "$1" ] && grep -q 'ips: 101.5' "$1"; }
untouched() { [ "$(md5sum <"$tmp/target")" = "$sum0" ] || { fail "$1: the link's target was written"; printf 'precious\n' >"$tmp/target"; }; }

# ---- links and FIFOs planted at the paths a run writes ----
for kind in link fifo; do
  for where in log record env; do
    out="$tmp/o-$kind-$where"
    mkdir -p "$out/logs/train_log" "$out/logs/index"
    case $where in
      log) p="$out/logs/train_log/c1" ;;
      record) p="$out/logs/index/c1_speed" ;;
      env) p="$out/env.json" ;;
    esac
    if [ $kind = link ]; then ln -s "$tmp/target" "$p"; else mkfifo "$p"; fi
    m run suite.json --out "$out" >/dev/null 2>"$tmp/err"
    rc=$?
    what="$kind at the $where path"
    [ $rc -eq 0 ] || { fail "$what: exit $rc: $(tail -n 2 "$tmp/err")"; continue; }
    untouched "$what"
    [ -f "$p" ] && [ ! -L "$p" ] || fail "$what: not replaced by a regular file"
    is_record "$out/logs/index/c1_speed" || fail "$what: no valid record"
    is_log "$out/logs/train_log/c1" || fail "$what: no log"
    [ -z "$(find "$out" -name '*.tmp.*')" ] || fail "$what: temporary files left: $(find "$out" -name '*.tmp.*')"
  done
done

# --resume: a link at a record's path pointing at a valid record elsewhere is
# not kept as the case's record (and its target is not touched).
out="$tmp/o-resume"
m run suite.json --out "$out" >/dev/null 2>&1 || fail "resume: first run"
cp "$out/logs/index/c1_speed" "$tmp/elsewhere_speed"
sumr=$(md5sum <"$tmp/elsewhere_speed")
rm "$out/logs/index/c1_speed"
ln -s "$tmp/elsewhere_speed" "$out/logs/index/c1_speed"
m run suite.json --out "$out" --resume >/dev/null 2>"$tmp/err" || fail "resume: exit $?: $(tail -n 2 "$tmp/err")"
[ ! -L "$out/logs/index/c1_speed" ] || fail "resume: kept a link as the case's record"
is_record "$out/logs/index/c1_speed" || fail "resume: no valid record"
[ "$(md5sum <"$tmp/elsewhere_speed")" = "$sumr" ] || fail "resume: the link's target was written"

# ---- FIFOs read as logs or datasets ----
mkfifo "$tmp/fifo"
m parse --rule '{"keyword": "ips:", "scope": "global"}' "$tmp/fifo" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "parse of a FIFO: exit $rc, expected 2 (124: it blocked)"
grep -q "fifo: is a FIFO" "$tmp/err" || fail "parse of a FIFO: $(cat "$tmp/err")"
sed 's|"rule":|"datasets": [{"path": "'"$tmp"'/fifo", "md5": "0123456789abcdef0123456789abcdef"}], "rule":|' \
  suite.json >ds.json
m run ds.json --out "$tmp/o-ds" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "a FIFO as a dataset: exit $rc, expected 2 (124: it blocked)"
grep -q "is a FIFO" "$tmp/err" || fail "a FIFO as a dataset: $(cat "$tmp/err")"

# ---- "shell": true with a placeholder inside quotes ----
for q in '\"' "'"; do
  cat >sh.json <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "\$(touch $tmp/PWNED)",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s", "shell": true,
 "command": ["$JOBS/good.sh --name=$q{model_name}$q"],
 "case_name": "c{batch_size}",
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [1], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global"}}
JSON
  m run sh.json --out "$tmp/o-sh" >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] || fail "shell placeholder inside $q: exit $rc, expected 2"
  grep -q "sh.json:3:[0-9]*: command\[0\]: the placeholder {model_name} is inside" "$tmp/err" ||
    fail "shell placeholder inside $q: $(cat "$tmp/err")"
  [ ! -e "$tmp/PWNED" ] || fail "shell placeholder inside $q: the value ran"
  [ ! -e "$tmp/o-sh" ] || fail "shell placeholder inside $q: the output folder was created"
done

# ---- a case name served as a page ----
sed 's/"case_name": "c{batch_size}"/"case_name": "x.html"/' suite.json >html.json
m run html.json --out "$tmp/o-html" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "case name x.html: exit $rc, expected 2"
grep -q 'html.json:[0-9]*:[0-9]*: matrix: case name "x.html" .*ends in ".html"' "$tmp/err" ||
  fail "case name x.html: $(cat "$tmp/err")"
[ ! -e "$tmp/o-html" ] || fail "case name x.html: the output folder was created"
printf 'ips: 1.0\n' >"$tmp/log"
m parse --rule '{"keyword": "ips:", "scope": "global"}' --case x.svg --out "$tmp/o-parse" \
  "$tmp/log" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "parse --case x.svg --out: exit $rc, expected 2"
grep -q -- '--case: "x.svg" is not a safe file name: it ends in ".svg"' "$tmp/err" ||
  fail "parse --case x.svg --out: $(cat "$tmp/err")"

# ---- a full disk on a re-run without --resume ----
if ${CC:-cc} -shared -fPIC -o "$tmp/wfail.so" "$ROOT/tests/faults/wfail.c" -ldl 2>/dev/null; then
  out="$tmp/o-full"
  m run suite.json --out "$out" >/dev/null 2>&1 || fail "full disk: first run"
  # A log a re-run would not write the same (good.sh prints the same lines).
  echo "from the first run" >>"$out/logs/train_log/c2"
  sums() { (cd "$out" && find logs -type f | LC_ALL=C sort | xargs md5sum); }
  # c2's previous files (c1 runs again first and changes: its started_at).
  sums | grep ' logs/.*/c2' >"$tmp/before"
  [ -s "$tmp/before" ] || fail "full disk: no files of c2"
  for c in "write:ENOSPC:*/logs/index/c2_speed*" "open:ENOSPC:*/logs/index/c2_speed*" \
           "fsync:EIO:*/logs/index/c2_speed*" "rename:ENOSPC:*/logs/index/c2_speed*" \
           "open:ENOSPC:*/logs/train_log/c2"; do
    op=${c%%:*}; rest=${c#*:}; e=${rest%%:*}; pat=${rest#*:}
    : >"$tmp/wlog"
    # Under make asan the binaries carry ASan, which wants to come first.
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0" \
      WFAIL_OPS=$op WFAIL_ERRNO=$e WFAIL_PATH=$pat WFAIL_LOG="$tmp/wlog" LD_PRELOAD="$tmp/wfail.so" \
      timeout 300 "$MEASURE" run suite.json --out "$out" >/dev/null 2>"$tmp/err"
    rc=$?
    what="re-run, $op fails with $e on $pat"
    [ -s "$tmp/wlog" ] || { fail "$what: the fault was never hit"; continue; }
    [ $rc -eq 2 ] || fail "$what: exit $rc, expected 2"
    sums | grep ' logs/.*/c2' >"$tmp/after"
    cmp -s "$tmp/before" "$tmp/after" || fail "$what: c2's previous record or log changed or went: $(diff "$tmp/before" "$tmp/after" | tr '\n' ' ')"
    is_record "$out/logs/index/c1_speed" || fail "$what: c1's new record"
    [ -z "$(find "$out" -name '*.tmp.*')" ] || fail "$what: temporary files left: $(find "$out" -name '*.tmp.*')"
  done
  # Without faults the re-run replaces c2's files.
  m run suite.json --out "$out" >/dev/null 2>&1 || fail "full disk: the re-run without faults"
  sums | grep ' logs/.*/c2' >"$tmp/after"
  cmp -s "$tmp/before" "$tmp/after" && fail "full disk: the re-run without faults did not rewrite c2"
else
  echo "(no C compiler for the write-fault shim: the full-disk part is skipped)"
fi

# ---- env.json as gen loads it: one schema (lib/envrec.c), types checked ----
GEN="${GEN:-bin/perfrepro-gen}"
case "$GEN" in /*) ;; *) GEN="$ROOT/$GEN" ;; esac
if [ -x "$GEN" ]; then
  mkdir -p "$tmp/data/runs"
  m run suite.json --out "$tmp/data/runs/r" >/dev/null 2>&1 || fail "env: the run"
  "$GEN" validate --data "$tmp/data" >/dev/null 2>"$tmp/err" || fail "env: measure's own env.json: $(cat "$tmp/err")"
  cp "$tmp/data/runs/r/env.json" "$tmp/env.good"
  for bad in '-1' '"1"' '0' '2.5'; do
    sed "s/\"cpu_count\": [0-9]*/\"cpu_count\": $bad/" "$tmp/env.good" >"$tmp/data/runs/r/env.json"
    "$GEN" validate --data "$tmp/data" >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc -ne 0 ] || fail "env: cpu_count $bad accepted"
    grep -q "env.json:[0-9]*:[0-9]*: host.cpu_count: " "$tmp/err" || fail "env: cpu_count $bad: $(cat "$tmp/err")"
  done
  cp "$tmp/env.good" "$tmp/data/runs/r/env.json"
fi

finish "hostile measure files: all replaced, none followed, nothing run"
