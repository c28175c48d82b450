#!/bin/sh
# Write failures (disk full, I/O error, permission denied) injected with the
# LD_PRELOAD shim tests/faults/wfail.c into open/write/fsync/close/rename of the
# files perfrepro writes.  Each must end in a clear error naming the file, a
# non-zero exit, no temporary file left behind, and what was written before
# left as it was (checksums compared):
#   - perfrepro-gen build over a previous generation, with data that changes
#     many pages: the previous reports stay byte for byte (gen writes the new
#     generation into a staging folder beside OUT and swaps it in only when
#     all was written), and no staging folder is left;
#   - perfrepro-measure run --resume: the records and logs of the cases already
#     done stay, the failing case gets no record, a later run completes it;
#   - perfrepro-measure parse --out: the previous record and log of the case
#     stay; parse printing to a full disk (/dev/full) fails with exit 2.
. tests/scripts/lib/preamble.sh
need_bins GEN MEASURE
${CC:-cc} -shared -fPIC -o "$tmp/wfail.so" tests/faults/wfail.c -ldl 2>"$tmp/cc.err" ||
  { cat "$tmp/cc.err"; echo "cannot build the LD_PRELOAD shim"; exit 77; }
# Under make asan the binaries carry ASan, which wants to come first.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0"
sums() { (cd "$1" && find . -type f ! -name '*.tmp.*' | LC_ALL=C sort | xargs md5sum); }
leftovers() { find "$1" -name '*.tmp.*' | head -n 3; }
strerr() {
  case $1 in ENOSPC) echo "No space left on device" ;; EIO) echo "Input/output error" ;;
             EACCES) echo "Permission denied" ;; esac
}
# inject OPS ERRNO NTH PATTERN CMD...: runs CMD with the shim; stderr in $tmp/err.
inject() {
  ops=$1 errno=$2 nth=$3 pat=$4; shift 4
  : >"$tmp/wlog"
  WFAIL_OPS=$ops WFAIL_ERRNO=$errno WFAIL_NTH=$nth WFAIL_PATH=$pat WFAIL_LOG="$tmp/wlog" \
    LD_PRELOAD="$tmp/wfail.so" "$@" >"$tmp/out" 2>"$tmp/err"
}
# The shim must work at all (a static binary, or a system refusing LD_PRELOAD).
inject open EIO 0 "$tmp/probe*" sh -c ": > '$tmp/probe'"
[ -s "$tmp/wlog" ] || { echo "the LD_PRELOAD shim does not take effect here"; exit 77; }

# ---------------------------------------------------------------- gen build
mkdir -p "$tmp/g"
cp -R data "$tmp/g/data1"
cp -R data "$tmp/g/data2"
pub=$(ls "$tmp/g/data2/published/"*.json | head -n 1)
# A different label changes the pages that show the table and the index.
sed 's/"label": "\([^"]*\)"/"label": "\1 (v2)"/' "$pub" >"$tmp/pub" && cp "$tmp/pub" "$pub"
# gen_build OUT DATA [--no-charts]
gen_build() { "$GEN" build --data "$2" --templates "$ROOT/templates" --out "$1" ${3:-}; }
for charts in --no-charts ""; do
  R="$tmp/g/reports$charts"
  gen_build "$R" "$tmp/g/data1" $charts >/dev/null 2>&1 || { fail "gen: first build"; continue; }
  sums "$R" >"$tmp/before"
  if [ -n "$charts" ]; then
    cases="open:ENOSPC:1 open:EACCES:2 write:ENOSPC:1 write:EIO:3 close:EIO:2 rename:ENOSPC:1
           rename:EACCES:1"
  else
    cases="write:ENOSPC:40 rename:EIO:1 open:EIO:60"
  fi
  for c in $cases; do
    op=${c%%:*}; rest=${c#*:}; e=${rest%%:*}; nth=${rest#*:}
    # OUT and its staging folder beside it (.reports.staging.PID); the one
    # rename is the swap.
    inject "$op" "$e" "$nth" "$tmp/g/*reports$charts*" gen_build "$R" "$tmp/g/data2" $charts
    rc=$?
    what="gen build ${charts:-(charts)}, $op fails with $e (call $nth)"
    if [ ! -s "$tmp/wlog" ]; then fail "$what: the fault was never hit"; continue; fi
    [ $rc -ne 0 ] || fail "$what: exit 0"
    file=$(cut -d' ' -f2 "$tmp/wlog" | sed 's/\.tmp\.[0-9]*\(\.[A-Za-z0-9]*\)\{0,1\}$//')
    grep -q "$(strerr "$e")" "$tmp/err" || fail "$what: the message does not give the error: $(cat "$tmp/err")"
    grep -qF "$file" "$tmp/err" || fail "$what: the message does not name $file: $(cat "$tmp/err")"
    sums "$R" >"$tmp/after"
    cmp -s "$tmp/before" "$tmp/after" || fail "$what: the previous reports changed: $(diff "$tmp/before" "$tmp/after" | grep -c '^>') files"
    [ -z "$(leftovers "$R")" ] || fail "$what: temporary files left: $(leftovers "$R")"
    [ -z "$(ls -A "$tmp/g" | grep staging)" ] || fail "$what: staging folder left: $(ls -A "$tmp/g")"
  done
  # Without faults the same build goes through and does change pages (so the
  # checks above were about a generation that differs).
  gen_build "$R" "$tmp/g/data2" $charts >/dev/null 2>&1 || fail "gen: build without faults"
  sums "$R" >"$tmp/after"
  cmp -s "$tmp/before" "$tmp/after" && fail "gen: data2 does not change the reports"
done
# A first build into a folder that cannot be created.
inject mkdir EACCES 0 "$tmp/g/new*" gen_build "$tmp/g/new/reports" "$tmp/g/data1" --no-charts
[ $? -ne 0 ] || fail "gen: build with mkdir failing: exit 0"
grep -q "$tmp/g/new" "$tmp/err" || fail "gen: mkdir failure not named: $(cat "$tmp/err")"

# ---------------------------------------------------------------- measure run
M="$tmp/m"
mkdir -p "$M"
cat >"$M/suite.json" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "fake",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s",
 "command": ["$ROOT/tests/jobs/good.sh", "{batch_size}"], "timeout_s": 20,
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [1, 2, 3, 4],
            "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global"}}
JSON
unset CUDA_VISIBLE_DEVICES
cd "$M" || exit 1
"$MEASURE" run suite.json --out out --only '*bs1_*' --only '*bs2_*' >/dev/null 2>&1 ||
  fail "measure: first run"
sums out >"$tmp/before"
c3=fake_sp_bs3_fp32_1
for c in "write:ENOSPC:out/logs/index/${c3}_speed*" "open:EACCES:out/logs/index/${c3}_speed*" \
         "fsync:EIO:out/logs/index/${c3}_speed*" "close:EIO:out/logs/index/${c3}_speed*" \
         "rename:ENOSPC:out/logs/index/${c3}_speed*" "open:ENOSPC:*/out/env.json*" \
         "open:EIO:*/out/logs/train_log/$c3"; do
  op=${c%%:*}; rest=${c#*:}; e=${rest%%:*}; pat=${rest#*:}
  case $pat in /*|\**) ;; *) pat="$M/$pat" ;; esac
  inject "$op" "$e" 0 "$pat" "$MEASURE" run suite.json --out out --resume
  rc=$?
  what="measure run --resume, $op fails with $e on $pat"
  if [ ! -s "$tmp/wlog" ]; then fail "$what: the fault was never hit"; continue; fi
  [ $rc -ne 0 ] || fail "$what: exit 0"
  file=$(head -n 1 "$tmp/wlog" | cut -d' ' -f2 | sed 's/\.tmp\.[0-9]*\(\.[A-Za-z0-9]*\)\{0,1\}$//')
  grep -q "$(strerr "$e")" "$tmp/err" || fail "$what: the message does not give the error: $(tail -n 2 "$tmp/err")"
  grep -qF "$file" "$tmp/err" || fail "$what: the message does not name $file: $(tail -n 2 "$tmp/err")"
  [ ! -e "out/logs/index/${c3}_speed" ] || fail "$what: the failing case has a record"
  for f in out/logs/index/fake_sp_bs1_fp32_1_speed out/logs/index/fake_sp_bs2_fp32_1_speed; do
    grep -q '"JOB_FAIL_FLAG": 0' "$f" || fail "$what: $f damaged"
  done
  sums out | grep -v "bs[34]_\|env.json" >"$tmp/after"
  grep -v "env.json" "$tmp/before" | cmp -s - "$tmp/after" || fail "$what: the previous records or logs changed"
  [ -z "$(leftovers out)" ] || fail "$what: temporary files left: $(leftovers out)"
  rm -f out/logs/index/fake_sp_bs[34]_* out/logs/train_log/fake_sp_bs[34]_*
done
"$MEASURE" run suite.json --out out --resume >/dev/null 2>&1 || fail "measure: the run without faults"
[ "$(ls out/logs/index | wc -l)" -eq 4 ] || fail "measure: not 4 records at the end: $(ls out/logs/index)"
# The run folder is valid data for gen.
mkdir -p "$tmp/d/runs" && cp -R out "$tmp/d/runs/r1"
"$GEN" validate --data "$tmp/d" >/dev/null 2>"$tmp/err" || fail "measure: the run does not validate: $(cat "$tmp/err")"

# ---------------------------------------------------------------- measure parse
printf 'ips: 10.0\nips: 12.0\n' >"$M/log1"
rule='{"keyword": "ips:", "scope": "global"}'
"$MEASURE" parse --rule "$rule" --case pc --model Fake --framework Sh --out "$M/p" "$M/log1" >/dev/null 2>&1 ||
  fail "parse --out: first run"
sums "$M/p" >"$tmp/before"
# The re-import brings a different log: a log replaced before a failed
# record write would show in the checksums.
printf 'ips: 20.0\nips: 22.0\n' >"$M/log2"
for c in "open:EIO:*/p/logs/train_log/pc*" "write:ENOSPC:*/p/logs/train_log/pc*" \
         "open:EIO:*/p/logs/index/pc_speed*" "write:ENOSPC:*/p/logs/index/pc_speed*" \
         "fsync:EIO:*/p/logs/index/pc_speed*"; do
  op=${c%%:*}; rest=${c#*:}; e=${rest%%:*}; pat=${rest#*:}
  inject "$op" "$e" 0 "$pat" "$MEASURE" parse --rule "$rule" --case pc --model Fake --framework Sh \
    --out "$M/p" "$M/log2"
  rc=$?
  what="parse --out, $op fails with $e on $pat"
  if [ ! -s "$tmp/wlog" ]; then fail "$what: the fault was never hit"; continue; fi
  [ $rc -ne 0 ] || fail "$what: exit 0"
  grep -q "$(strerr "$e")" "$tmp/err" || fail "$what: the message does not give the error: $(cat "$tmp/err")"
  file=$(head -n 1 "$tmp/wlog" | cut -d' ' -f2 | sed 's/\.tmp\.[0-9]*\(\.[A-Za-z0-9]*\)\{0,1\}$//')
  grep -qF "$file" "$tmp/err" || fail "$what: the message does not name $file: $(cat "$tmp/err")"
  sums "$M/p" >"$tmp/after"
  cmp -s "$tmp/before" "$tmp/after" || fail "$what: the previous record or log changed"
  [ -z "$(leftovers "$M/p")" ] || fail "$what: temporary files left: $(leftovers "$M/p")"
done
if [ -w /dev/full ]; then
  "$MEASURE" parse --rule "$rule" "$M/log1" >/dev/full 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] || fail "parse > /dev/full: exit $rc, expected 2"
  grep -q "No space left on device" "$tmp/err" || fail "parse > /dev/full: $(cat "$tmp/err")"
fi
cd "$ROOT" || exit 1
finish "write faults: all clean"
