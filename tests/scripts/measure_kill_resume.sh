#!/bin/sh
# perfrepro-measure run killed with SIGKILL at random moments, then resumed:
# nothing lost, nothing duplicated, nothing half-written.
#
# A fake suite of 40 cases whose jobs take 10-50 ms runs into a folder with
# --resume; after a random 0-100 ms the measure process is sent SIGKILL, and
# again, 25 times per folder, 4 folders: 100 kills.  After each kill every
# record already there must be byte for byte the one before (a kept record is
# never rewritten, a new one is whole); after a last --resume that completes
# the folder: exactly one valid record per case (perfrepro-gen validate on a
# data folder holding the run: schema, log present, no duplicate case), each
# with its log, no temporary file in logs/, no other file, and no job left
# running.  PERFREPRO_KILL_SEED fixes the random delays (printed on failure).
. tests/scripts/lib/preamble.sh
command -v pgrep >/dev/null 2>&1 || { echo "FAIL: pgrep is missing (procps: sh scripts/deps.sh test installs it): the check for jobs left running would pass without looking"; exit 1; }
need_bins MEASURE GEN
mpid=""
at_exit() { [ -n "$mpid" ] && kill -9 "$mpid" 2>/dev/null; }
seed="${PERFREPRO_KILL_SEED:-$(date +%s)}"
# fail with the seed that reproduces the delays
fail() { echo "FAIL (seed $seed): $*"; fails=$((fails + 1)); }
unset CUDA_VISIBLE_DEVICES
ROUNDS=4 KILLS=25

cat >"$tmp/job.sh" <<'SH'
#!/bin/sh
# 10-50 ms of "training", then three records.
sleep "0.0$(( ($1 % 5) + 1 ))"
echo "ips: $1.5 samples/sec"; echo "ips: $1.5 samples/sec"; echo "ips: $1.5 samples/sec"
SH
chmod +x "$tmp/job.sh"
cat >"$tmp/suite.json" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Kill", "model_name": "kill",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s",
 "command": ["$tmp/job.sh", "{batch_size}"], "timeout_s": 20,
 "matrix": {"nodes": [1], "gpus_per_node": [1, 2], "batch_size": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
            "precision": ["fp32", "fp16"]},
 "rule": {"keyword": "ips:", "scope": "global", "min_records": 3}}
JSON
"$MEASURE" run "$tmp/suite.json" --dry-run 2>/dev/null | sed -n 's/^# \[[0-9]*\/[0-9]*\] //p' |
  LC_ALL=C sort >"$tmp/cases"
ncases=$(wc -l <"$tmp/cases")
[ "$ncases" -eq 40 ] || { echo "the dry run lists $ncases cases, expected 40"; exit 1; }
# Random delays in ms, from the seed.
awk -v s="$seed" -v n=$((ROUNDS * KILLS)) 'BEGIN { srand(s); for (i = 0; i < n; i++) print int(rand() * 100) }' >"$tmp/delays"

snapshot() { (cd "$1/logs/index" 2>/dev/null && for f in *_speed; do [ -f "$f" ] && md5sum "$f"; done) | LC_ALL=C sort; }
msleep() { sleep "$(awk -v m="$1" 'BEGIN { printf "%.3f", m / 1000 }')"; }

start=$(date +%s)
k=0
r=1
while [ $r -le $ROUNDS ]; do
  out="$tmp/out$r"
  : >"$tmp/snap"
  i=1
  while [ $i -le $KILLS ]; do
    k=$((k + 1))
    d=$(sed -n "${k}p" "$tmp/delays")
    "$MEASURE" run "$tmp/suite.json" --out "$out" --resume >/dev/null 2>>"$tmp/stderr" &
    mpid=$!
    msleep "$d"
    kill -9 "$mpid" 2>/dev/null
    wait "$mpid" 2>/dev/null
    mpid=""
    snapshot "$out" >"$tmp/snap.new"
    # Every record there before is still there, unchanged.
    missing=$(LC_ALL=C comm -23 "$tmp/snap" "$tmp/snap.new")
    [ -z "$missing" ] || fail "round $r kill $i (after ${d} ms): records lost or rewritten: $missing"
    mv "$tmp/snap.new" "$tmp/snap"
    i=$((i + 1))
  done
  # Complete the folder.
  "$MEASURE" run "$tmp/suite.json" --out "$out" --resume >"$tmp/last.out" 2>&1 ||
    { fail "round $r: the last --resume run: exit $?"; tail -n 5 "$tmp/last.out"; }
  ls "$out/logs/index" | sed -n 's/_speed$//p' | LC_ALL=C sort >"$tmp/have"
  cmp -s "$tmp/cases" "$tmp/have" || { fail "round $r: the records are not one per case"; diff "$tmp/cases" "$tmp/have" | head; }
  other=$(ls "$out/logs/index" | grep -v '_speed$')
  [ -z "$other" ] || fail "round $r: other files in logs/index: $other"
  left=$(find "$out" -name '*.tmp.*')
  [ -z "$left" ] || fail "round $r: temporary files left: $left"
  for c in $(cat "$tmp/cases"); do
    [ -s "$out/logs/train_log/$c" ] || fail "round $r: no log for $c"
  done
  # Each record loads (schema, its log exists, no two describe one case)
  # and says what the job printed.
  mkdir -p "$tmp/data$r/runs"
  cp -R "$out" "$tmp/data$r/runs/r"
  "$GEN" validate --data "$tmp/data$r" >/dev/null 2>"$tmp/err" || fail "round $r: $(cat "$tmp/err")"
  bad=$(grep -L '"JOB_FAIL_FLAG": 0' "$out"/logs/index/*_speed)
  [ -z "$bad" ] || fail "round $r: failed records: $(head -c 300 $bad)"
  r=$((r + 1))
done
# No job outlived its killed measure (PR_SET_PDEATHSIG).
sleep 0.2
if pgrep -f "$tmp/job.sh" >/dev/null 2>&1; then fail "jobs still running: $(pgrep -af "$tmp/job.sh")"; fi
echo "$k kills in $(($(date +%s) - start)) s"
[ $fails -eq 0 ] || { echo "$fails failure(s); PERFREPRO_KILL_SEED=$seed reproduces the delays"; exit 1; }
echo "kill and resume: every case has exactly one valid record"
