#!/bin/sh
# measure run --launcher mpirun, for real with OpenMPI on this machine: a
# fake job that needs two ranks (tests/jobs/ranks.sh checks
# OMPI_COMM_WORLD_SIZE=2) through --hosts and through --hostfile; the
# merged, tagged log, the per-rank logs and the record's "launch"; the
# rule's rank choosing whose lines count; a job started with the wrong rank
# count fails with a reason.  Skips (77) where OpenMPI is not installed
# (scripts/deps.sh cluster installs it).
. tests/scripts/lib/preamble.sh
need_bins MEASURE
command -v mpirun >/dev/null 2>&1 ||
  { echo "OpenMPI's mpirun is not installed (sh scripts/deps.sh cluster installs it)"; exit 77; }
mpirun --version 2>/dev/null | grep -q "Open MPI" ||
  { echo "mpirun here is not OpenMPI's: $(mpirun --version 2>&1 | head -n 1)"; exit 77; }
JOBS="$ROOT/tests/jobs"
field() { sed -n "s/^ \"$2\": \(.*\)$/\1/p" "$1" | sed 's/,$//' | head -n 1; }
reason() { sed -n 's/^  "reason": "\(.*\)",\{0,1\}$/\1/p' "$1"; }
# OpenMPI wants a writable home and temp dir; some CI containers have neither.
export HOME="${HOME:-$tmp}" TMPDIR="$tmp"
unset CUDA_VISIBLE_DEVICES SLURM_JOB_ID SLURM_JOB_NODELIST

suite() { # FILE NTASKS_EXPECTED RULE_EXTRA
  cat >"$1" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "fake_model",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s",
 "command": ["$JOBS/ranks.sh", "$2", "--nr={node_rank}", "--lr={local_rank}",
             "{master_addr}:{master_port}", "{world_size}", "hf={hostfile}"],
 "env": {"SUITE_VAR": "bs={batch_size}"},
 "launcher": "mpirun",
 "timeout_s": 60,
 "matrix": {"nodes": [1], "gpus_per_node": [2], "batch_size": [64], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global"$3}
}
JSON
}
c=fake_model_mp_bs64_fp32_2

# --- two ranks on this host, named with --hosts ---
suite "$tmp/suite.json" 2 ', "skip": 1, "min_records": 3'
(cd "$tmp" && "$MEASURE" run suite.json --out a --hosts localhost:2) >"$tmp/a.out" 2>"$tmp/a.err"
rc=$?
[ $rc -eq 0 ] || { fail "--hosts: exit $rc"; cat "$tmp/a.err" "$tmp/a/logs/train_log/$c"; }
r="$tmp/a/logs/index/${c}_speed"
log="$tmp/a/logs/train_log/$c"
# rank 0's six lines, skip 1: 202.5..206.5; rank 1's 999 is not read.
[ "$(field "$r" FINAL_RESULT)" = 204.5 ] || fail "--hosts: FINAL_RESULT $(field "$r" FINAL_RESULT)"
[ "$(field "$r" log_file)" = "\"logs/train_log/$c\"" ] || fail "log_file $(field "$r" log_file)"
grep -q '"other_rank_lines": 4' "$r" || fail "rank 1's lines were not set aside"
grep -q '^\[1,0\]<stdout>:task rank=0 local_rank=0 node_rank=0 size=2 engine=mpirun$' "$log" ||
  fail "rank 0's tagged line: $(grep 'task' "$log")"
grep -q '^\[1,1\]<stdout>:task rank=1 local_rank=1 node_rank=0 size=2 engine=mpirun$' "$log" ||
  fail "rank 1's tagged line"
grep -q '^\[1,1\]<stdout>:args: \[--nr=0\] \[--lr=1\] \[localhost:29500\] \[2\] \[hf=\]$' "$log" ||
  fail "rank 1's arguments: $(grep '1,1.*args' "$log")"
grep -q '^\[1,0\]<stdout>:env MASTER_ADDR=localhost MASTER_PORT=29500 WORLD_SIZE=2 CASE=fake_model_mp_bs64_fp32_2 SUITE_VAR=bs=64$' "$log" ||
  fail "the job's environment did not reach rank 0: $(grep '1,0.*env' "$log")"
# Per-rank logs, kept and listed.
for k in 0 1; do
  f="logs/train_log/$c.ranks/1/rank.$k/stdout"
  [ -s "$tmp/a/$f" ] || fail "no per-rank log $f"
  grep -q "\"$f\"" "$r" || fail "$f is not in the record's logs"
done
grep -q '"launcher": "mpirun"' "$r" || fail "launch.launcher"
grep -q '"tasks": 2' "$r" || fail "launch.tasks"
grep -A2 '"hosts": \[' "$r" | grep -q '"localhost"' || fail "launch.hosts"
grep -q '"localhost:2"' "$r" || fail "the command has no --host localhost:2"
if [ "$(id -u)" -eq 0 ]; then
  grep -q '"--allow-run-as-root"' "$r" || fail "root without --allow-run-as-root"
else
  grep -q '"--allow-run-as-root"' "$r" && fail "--allow-run-as-root when not root"
fi

# --- the same through a hostfile; the rule reads rank 1 ---
printf 'localhost slots=2\n' >"$tmp/hosts"
suite "$tmp/rank1.json" 2 ', "rank": 1'
(cd "$tmp" && "$MEASURE" run rank1.json --out b --hostfile hosts) >/dev/null 2>"$tmp/b.err"
rc=$?
[ $rc -eq 0 ] || { fail "--hostfile: exit $rc"; cat "$tmp/b.err"; }
r="$tmp/b/logs/index/${c}_speed"
[ "$(field "$r" FINAL_RESULT)" = 999.0 ] || fail "rank 1: FINAL_RESULT $(field "$r" FINAL_RESULT)"
grep -q "\"$tmp/hosts\"" "$r" || fail "the command has no --hostfile"
grep -q "args: \[--nr=0\] \[--lr=0\] \[localhost:29500\] \[2\] \[hf=$tmp/hosts\]" \
  "$tmp/b/logs/train_log/$c" || fail "{hostfile}: $(grep '1,0.*args' "$tmp/b/logs/train_log/$c")"

# --- the job sees a rank count other than it needs: a failed case ---
suite "$tmp/three.json" 3 ''
(cd "$tmp" && "$MEASURE" run three.json --out c --hosts localhost:2) >/dev/null 2>&1
[ $? -eq 1 ] || fail "wrong rank count: expected exit 1"
r="$tmp/c/logs/index/${c}_speed"
[ "$(reason "$r")" = exit_status ] || fail "wrong rank count: reason $(reason "$r")"
grep -q "expected 3 tasks, the engine says 2" "$tmp/c/logs/train_log/$c" ||
  fail "the job's complaint is not in the log"

# --- a rule reading a rank the case does not have: refused before anything runs ---
suite "$tmp/rank2.json" 2 ', "rank": 2'
(cd "$tmp" && "$MEASURE" run rank2.json --out e --hosts localhost:2) >/dev/null 2>"$tmp/e.err"
[ $? -eq 2 ] || fail "rank 2 of 2 tasks: expected exit 2"
grep -q "rule.rank: 2, but case $c runs 2 tasks under mpirun" "$tmp/e.err" ||
  fail "rank 2 of 2 tasks: $(cat "$tmp/e.err")"
[ -e "$tmp/e" ] && fail "rank 2 of 2 tasks: the output directory was created"

# --- more hosts needed than given: launch_error, nothing started ---
sed 's/"nodes": \[1\]/"nodes": [2]/' "$tmp/suite.json" >"$tmp/two.json"
(cd "$tmp" && "$MEASURE" run two.json --out d --hosts localhost:2) >/dev/null 2>&1
r="$tmp/d/logs/index/fake_model_mp_bs64_fp32_4_speed"
[ "$(reason "$r")" = launch_error ] || fail "2 nodes on 1 host: reason $(reason "$r")"

finish "cluster mpirun: ok ($(mpirun --version 2>/dev/null | head -n 1))"
