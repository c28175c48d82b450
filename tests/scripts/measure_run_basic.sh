#!/bin/sh
# measure run: a healthy suite end to end: records, logs, env.json, the job's
# argv and environment (CUDA_VISIBLE_DEVICES per case), --dry-run, --only,
# --resume with a damaged record, progress lines and exit statuses.
. tests/scripts/lib/preamble.sh
need_bins MEASURE
JOBS="$ROOT/tests/jobs"
# The value of a top-level key of a record / env.json (written one key a line).
field() { sed -n "s/^ \"$2\": \(.*\)$/\1/p" "$1" | sed 's/,$//' | head -n 1; }
unset CUDA_VISIBLE_DEVICES NO_COLOR

cat >"$tmp/suite.json" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "fake_model",
 "mission_name": "图像分类", "direction_id": 0, "unit": "samples/s",
 "framework_version": "0.9",
 "command": ["$JOBS/good.sh", "--bs", "{batch_size}", "--gpus={gpus}", "{master_port}",
             "{world_size}", "{log_file}"],
 "env": {"SUITE_VAR": "bs={batch_size} case={case}"},
 "timeout_s": 20,
 "matrix": {"nodes": [1], "gpus_per_node": [1, 2], "batch_size": [64], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global", "skip": 1, "min_records": 3},
 "framework_version_command": ["sh", "-c", "echo '  1.2.3  '; echo second line"]
}
JSON
sp=fake_model_sp_bs64_fp32_1
mp=fake_model_mp_bs64_fp32_2
out="$tmp/out"

# --- a full run ---
(cd "$tmp" && "$MEASURE" run suite.json --out out) >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ $rc -eq 0 ] || { fail "run: exit $rc, expected 0"; cat "$tmp/stderr"; }
# The run keeps the suite that made it, byte for byte (a run folder is a run set).
cmp -s "$tmp/suite.json" "$out/suite.json" || fail "run: no copy of the suite in $out/suite.json"
for c in $sp $mp; do
  r="$out/logs/index/${c}_speed"
  [ -f "$r" ] || { fail "no record $r"; continue; }
  [ "$(field "$r" JOB_FAIL_FLAG)" = 0 ] || fail "$c: JOB_FAIL_FLAG $(field "$r" JOB_FAIL_FLAG)"
  # skip 1 of 101.5..106.5, mean of the other five
  [ "$(field "$r" FINAL_RESULT)" = 104.5 ] || fail "$c: FINAL_RESULT $(field "$r" FINAL_RESULT)"
  [ "$(field "$r" log_file)" = "\"logs/train_log/$c\"" ] || fail "$c: log_file $(field "$r" log_file)"
  [ "$(field "$r" case)" = "\"$c\"" ] || fail "$c: case"
  [ "$(field "$r" origin)" = '"measured"' ] || fail "$c: origin"
  [ "$(field "$r" env)" = '"env.json"' ] || fail "$c: env"
  [ "$(field "$r" exit_status)" = 0 ] || fail "$c: exit_status"
  [ "$(field "$r" framework_version)" = '"1.2.3"' ] || fail "$c: framework_version $(field "$r" framework_version)"
  field "$r" started_at | grep -Eq '^"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"$' ||
    fail "$c: started_at $(field "$r" started_at)"
  grep -q '"keyword": "ips:"' "$r" || fail "$c: the rule is not in the record"
  grep -q '"records_used": 5' "$r" || fail "$c: stats.records_used is not 5"
  grep -q "\"$JOBS/good.sh\"" "$r" || fail "$c: the command is not in the record"
done
[ "$(field "$out/logs/index/${sp}_speed" run_mode)" = '"sp"' ] || fail "sp run_mode"
[ "$(field "$out/logs/index/${mp}_speed" run_mode)" = '"mp"' ] || fail "mp run_mode"
[ "$(field "$out/logs/index/${mp}_speed" gpu_num)" = 2 ] || fail "mp gpu_num"
# What each job was given.
lsp="$out/logs/train_log/$sp"
lmp="$out/logs/train_log/$mp"
grep -qx "args: \[--bs\] \[64\] \[--gpus=1\] \[29500\] \[1\] \[$out/logs/train_log/$sp\]" "$lsp" ||
  fail "sp argv: $(head -n 1 "$lsp")"
grep -qx "args: \[--bs\] \[64\] \[--gpus=2\] \[29500\] \[2\] \[$out/logs/train_log/$mp\]" "$lmp" ||
  fail "mp argv: $(head -n 1 "$lmp")"
grep -qx "CUDA_VISIBLE_DEVICES=0" "$lsp" || fail "sp CUDA_VISIBLE_DEVICES: $(grep CUDA "$lsp")"
grep -qx "CUDA_VISIBLE_DEVICES=0,1" "$lmp" || fail "mp CUDA_VISIBLE_DEVICES: $(grep CUDA "$lmp")"
grep -qx "PERFREPRO_CASE=$mp" "$lmp" || fail "PERFREPRO_CASE"
grep -qx "PERFREPRO_LOG=$out/logs/train_log/$mp" "$lmp" || fail "PERFREPRO_LOG"
grep -qx "SUITE_VAR=bs=64 case=$mp" "$lmp" || fail "suite env: $(grep SUITE_VAR "$lmp")"
# env.json
e="$out/env.json"
[ "$(field "$e" perfrepro)" = 1 ] || fail "env.json perfrepro"
grep -q '"version": "1.2.3"' "$e" || fail "env.json framework version"
grep -q '"name": "Sh"' "$e" || fail "env.json framework name"
for k in cpu_model cpu_count memory_gb os kernel compiler; do
  grep -q "^  \"$k\": " "$e" || fail "env.json: no host.$k"
done
[ "$(field "$e" gpu)" = null ] || fail "env.json gpu"
h=$(hostname 2>/dev/null || cat /proc/sys/kernel/hostname)
if [ ${#h} -ge 6 ] && grep -qF "$h" "$e"; then fail "env.json holds the host name"; fi
# Nothing but records in logs/index, and no temporary file anywhere.
[ "$(ls "$out/logs/index" | grep -cv '_speed$')" = 0 ] || fail "stray files in logs/index"
[ -z "$(find "$out" -name '*.tmp.*')" ] || fail "temporary files left"
# Progress and summary on stderr, plain (not a terminal).
grep -q "^\[1/2\] $sp ok 104.5 samples/s, elapsed [0-9.]*s, ETA " "$tmp/stderr" || fail "progress line 1"
grep -q "^\[2/2\] $mp ok 104.5 samples/s, elapsed " "$tmp/stderr" || fail "progress line 2"
grep -q "2 cases: 2 ok, 0 failed; output: out" "$tmp/stderr" || fail "summary"
grep -q "$(printf '\033')" "$tmp/stderr" && fail "escape codes on a non-terminal"
[ -s "$tmp/stdout" ] && fail "stdout not empty without --echo"

# --- on a terminal: colours unless NO_COLOR or TERM=dumb; never on a pipe
# (checked above).  Each case names its TERM: the caller's may be "dumb"
# (Emacs, some CI runners), where the tool rightly has no colours. ---
if command -v script >/dev/null 2>&1 && script -qc true /dev/null >/dev/null 2>&1; then
  (cd "$tmp" && TERM=xterm script -qc "'$MEASURE' run suite.json --out out-tty --only '$sp'" /dev/null) >"$tmp/tty" 2>&1
  grep -q "$(printf '\033')\[32mok" "$tmp/tty" || fail "terminal: no colour: $(cat -v "$tmp/tty")"
  (cd "$tmp" && TERM=dumb script -qc "'$MEASURE' run suite.json --out out-tty3 --only '$sp'" /dev/null) >"$tmp/tty3" 2>&1
  grep -q "\[1/1\] $sp ok 104.5" "$tmp/tty3" || fail "TERM=dumb: $(cat -v "$tmp/tty3")"
  grep -q "$(printf '\033')\[" "$tmp/tty3" && fail "TERM=dumb: escapes on: $(cat -v "$tmp/tty3")"
  (cd "$tmp" && TERM=xterm NO_COLOR=1 script -qc "'$MEASURE' run suite.json --out out-tty2 --only '$sp'" /dev/null) >"$tmp/tty2" 2>&1
  grep -q "\[1/1\] $sp ok 104.5" "$tmp/tty2" || fail "NO_COLOR: $(cat -v "$tmp/tty2")"
  grep -q "$(printf '\033')\[3" "$tmp/tty2" && fail "NO_COLOR: colours on"
fi

# --- CUDA_VISIBLE_DEVICES inherited: the first gpus_per_node of measure's list ---
(cd "$tmp" && CUDA_VISIBLE_DEVICES=5,6,7 "$MEASURE" run suite.json --out out-cvd) >/dev/null 2>&1 ||
  fail "run with CUDA_VISIBLE_DEVICES=5,6,7"
grep -qx "CUDA_VISIBLE_DEVICES=5,6" "$tmp/out-cvd/logs/train_log/$mp" || fail "inherited list not honoured"
(cd "$tmp" && CUDA_VISIBLE_DEVICES=3 "$MEASURE" run suite.json --out out-cvd1) >/dev/null 2>&1
[ $? -eq 1 ] || fail "too few visible GPUs should fail the mp case"
grep -q '"reason": "launch_error"' "$tmp/out-cvd1/logs/index/${mp}_speed" || fail "too few GPUs: not launch_error"
grep -q '"JOB_FAIL_FLAG": 0' "$tmp/out-cvd1/logs/index/${sp}_speed" || fail "too few GPUs: the sp case should run"

# --- --echo copies the job's output to stdout ---
(cd "$tmp" && "$MEASURE" run suite.json --out out-echo --only "$sp" --echo) >"$tmp/echo" 2>/dev/null ||
  fail "--echo run"
grep -q "ips: 106.5 samples/sec" "$tmp/echo" || fail "--echo: job output not on stdout"

# --- --dry-run writes nothing and prints runnable commands ---
(cd "$tmp" && "$MEASURE" run suite.json --out dry --dry-run) >"$tmp/dry" 2>"$tmp/dry.err"
[ $? -eq 0 ] || fail "dry-run exit"
[ -e "$tmp/dry" ] && [ -d "$tmp/dry" ] && fail "dry-run created its output directory"
grep -qx "# \[1/2\] $sp" "$tmp/dry" || fail "dry-run header"
grep -q "^SUITE_VAR='bs=64 case=$sp' CUDA_VISIBLE_DEVICES=0 PERFREPRO_CASE=$sp PERFREPRO_LOG=$tmp/dry/logs/train_log/$sp $JOBS/good.sh --bs 64 --gpus=1 29500 1 " "$tmp/dry" ||
  { fail "dry-run command line"; cat "$tmp/dry"; }
[ "$(grep -c '^#' "$tmp/dry")" = 2 ] || fail "dry-run: one header per case"

# --- --only selects by pattern; no match is a usage error ---
(cd "$tmp" && "$MEASURE" run suite.json --out only --only '*_mp_*') >/dev/null 2>&1 || fail "--only run"
[ -f "$tmp/only/logs/index/${mp}_speed" ] || fail "--only: selected case not run"
[ -e "$tmp/only/logs/index/${sp}_speed" ] && fail "--only: unselected case was run"
(cd "$tmp" && "$MEASURE" run suite.json --out only2 --only 'nothing*') >/dev/null 2>"$tmp/only.err"
[ $? -eq 2 ] || fail "--only matching nothing: expected exit 2"
grep -q "selects no case" "$tmp/only.err" || fail "--only: message"
[ -e "$tmp/only2" ] && fail "--only matching nothing created the output directory"

# --- --resume: valid records kept, a damaged or foreign one run again ---
r_sp="$out/logs/index/${sp}_speed"
r_mp="$out/logs/index/${mp}_speed"
before=$(field "$r_sp" started_at)
printf '{"log_file": "logs/train' >"$r_mp" # cut in the middle
: >"$r_sp.tmp.999999"                           # left by a measure killed outright
sleep 1
(cd "$tmp" && "$MEASURE" run suite.json --out out --resume) >/dev/null 2>"$tmp/resume.err"
[ $? -eq 0 ] || fail "resume exit"
[ "$(field "$r_sp" started_at)" = "$before" ] || fail "resume re-ran a valid record"
[ "$(field "$r_mp" JOB_FAIL_FLAG)" = 0 ] || fail "resume did not re-run the damaged record"
grep -q "kept (--resume)" "$tmp/resume.err" || fail "resume: no 'kept' line"
[ -e "$r_sp.tmp.999999" ] && fail "resume: stale temporary file not removed"
grep -q "1 kept from before" "$tmp/resume.err" || fail "resume: summary"
sed 's/"case": "[^"]*"/"case": "other_case"/' "$r_sp" >"$tmp/x" && mv "$tmp/x" "$r_sp"
(cd "$tmp" && "$MEASURE" run suite.json --out out --resume) >/dev/null 2>&1 || fail "resume 2"
[ "$(field "$r_sp" case)" = "\"$sp\"" ] || fail "resume kept a record of another case"

# --- usage and suite errors: exit 2 ---
"$MEASURE" run --help >"$tmp/help" 2>&1 || fail "--help exit"
grep -q -- "--resume" "$tmp/help" || fail "--help text"
"$MEASURE" run >/dev/null 2>&1; [ $? -eq 2 ] || fail "no suite: expected 2"
"$MEASURE" run "$tmp/suite.json" --bogus >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad option: expected 2"
"$MEASURE" run "$tmp/suite.json" --timeout abc >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --timeout: expected 2"
"$MEASURE" run "$tmp/suite.json" --launcher nosuch --out "$tmp/sl" >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown launcher: expected 2"
echo '{"perfrepro": 1}' >"$tmp/bad.json"
"$MEASURE" run "$tmp/bad.json" >/dev/null 2>"$tmp/bad.err"; [ $? -eq 2 ] || fail "bad suite: expected 2"
grep -q "bad.json" "$tmp/bad.err" || fail "bad suite: message does not name the file"
sed 's/"min_records": 3/"min_records": "x"/' "$tmp/suite.json" >"$tmp/badrule.json"
"$MEASURE" run "$tmp/badrule.json" --out "$tmp/br" >/dev/null 2>"$tmp/br.err"; [ $? -eq 2 ] || fail "bad rule: expected 2"
grep -q "badrule.json:[0-9]*:[0-9]*: rule.min_records" "$tmp/br.err" || fail "bad rule message: $(cat "$tmp/br.err")"

sed 's/"SUITE_VAR"/"BAD=NAME"/' "$tmp/suite.json" >"$tmp/badenv.json"
"$MEASURE" run "$tmp/badenv.json" --out "$tmp/be" >/dev/null 2>"$tmp/be.err"; [ $? -eq 2 ] || fail "bad env name: expected 2"
grep -q '"BAD=NAME" is not an environment variable name' "$tmp/be.err" || fail "bad env name message: $(cat "$tmp/be.err")"
[ -e "$tmp/be" ] && fail "bad env name: output directory created"

finish "measure run basic: ok"
