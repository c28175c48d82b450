#!/bin/sh
# measure run --launcher slurm, for real: a one-node Slurm cluster (slurmctld
# and slurmd on this machine, configuration, state and logs in a temporary
# folder, auth/none: no munge needed) runs a fake job that needs two tasks
# (tests/jobs/ranks.sh checks SLURM_NTASKS=2 and prints its rank):
#   - inside an allocation (salloc -N1 -n2 perfrepro-measure run ...): srun;
#   - outside one: measure writes a batch script, submits it with
#     sbatch --parsable --wait, and records the job id;
#   - a job that runs past --timeout: sbatch is stopped and the job cancelled.
# Checks records, per-rank logs, the job id, the parsed value.  The daemons
# are stopped on exit, whatever happens.  Skips (77) where Slurm is not
# installed (scripts/deps.sh cluster installs it) or its daemons cannot
# start here.
. tests/scripts/lib/preamble.sh
need_bins MEASURE
for t in slurmctld slurmd srun sbatch salloc scontrol sinfo squeue; do
  command -v "$t" >/dev/null 2>&1 ||
    { echo "Slurm's $t is not installed (sh scripts/deps.sh cluster installs slurm-wlm)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "the test cluster's slurmd must run as root"; exit 77; }
JOBS="$ROOT/tests/jobs"
field() { sed -n "s/^ \"$2\": \(.*\)$/\1/p" "$1" | sed 's/,$//' | head -n 1; }
reason() { sed -n 's/^  "reason": "\(.*\)",\{0,1\}$/\1/p' "$1"; }
# Every Slurm command of this test talks to this test's cluster only.
export SLURM_CONF="$tmp/slurm.conf"
unset SLURM_JOB_ID SLURM_JOBID SLURM_JOB_NODELIST SLURM_NODELIST CUDA_VISIBLE_DEVICES

stop_daemons() {
  scontrol shutdown >/dev/null 2>&1
  for i in $(seq 1 50); do
    alive=0
    for f in "$tmp/slurmctld.pid" "$tmp/slurmd.pid"; do
      [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && alive=1
    done
    [ $alive -eq 0 ] && return
    sleep 0.1
  done
  for f in "$tmp/slurmctld.pid" "$tmp/slurmd.pid"; do
    [ -s "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
  done
}
at_exit() { stop_daemons; }

host=$(hostname -s)
cpus=$(nproc)
[ "$cpus" -ge 2 ] || cpus=2
# Ports of our own, so that a cluster of the machine (or a parallel test)
# is never touched.
base=$(( 20000 + ($$ % 2000) * 2 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 2 * 4000 ))
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$SLURM_CONF" <<CONF
ClusterName=perfrepro
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
PlugStackConfig=$tmp/plugstack.conf
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
: >"$tmp/plugstack.conf"
slurmctld -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &&
  slurmd -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1
started=$?
up=0
for i in $(seq 1 100); do
  [ $started -eq 0 ] || break
  [ "$(sinfo -h -o %T 2>/dev/null | head -n 1)" = idle ] && { up=1; break; }
  sleep 0.1
done
if [ $up -eq 0 ]; then
  echo "--- slurmctld:"; tail -n 5 "$tmp/slurmctld.log" "$tmp/slurmctld.out" 2>/dev/null
  echo "--- slurmd:"; tail -n 5 "$tmp/slurmd.log" "$tmp/slurmd.out" 2>/dev/null
  echo "Slurm's daemons did not bring the node up within 10 s here (sinfo: $(sinfo -h -o %T 2>&1 | head -n 1))"
  exit 77
fi

cat >"$tmp/suite.json" <<JSON
{"perfrepro": 1, "model": "Fake", "framework": "Sh", "model_name": "fake_model",
 "mission_name": "m", "direction_id": 0, "unit": "samples/s",
 "command": ["$JOBS/ranks.sh", "2", "--nr={node_rank}", "--lr={local_rank}",
             "{master_addr}:{master_port}", "{world_size}"],
 "env": {"SUITE_VAR": "bs={batch_size}"},
 "launcher": "slurm",
 "timeout_s": 60,
 "matrix": {"nodes": [1], "gpus_per_node": [2], "batch_size": [64], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global", "skip": 1, "min_records": 3}
}
JSON
c=fake_model_mp_bs64_fp32_2

check_ranks() { # DIR LABEL
  r="$1/logs/index/${c}_speed"
  [ "$(field "$r" FINAL_RESULT)" = 204.5 ] || fail "$2: FINAL_RESULT $(field "$r" FINAL_RESULT)"
  [ "$(field "$r" log_file)" = "\"logs/train_log/$c.rank0\"" ] ||
    fail "$2: log_file $(field "$r" log_file)"
  for k in 0 1; do
    f="logs/train_log/$c.rank$k"
    grep -q "^task rank=$k local_rank=$k node_rank=0 size=2 engine=srun$" "$1/$f" ||
      fail "$2: $f: $(head -n 1 "$1/$f" 2>&1)"
    grep -q "\"$f\"" "$r" || fail "$2: $f is not in the record's logs"
  done
  grep -q "^args: \[--nr=0\] \[--lr=1\] \[$host:29500\] \[2\]$" "$1/logs/train_log/$c.rank1" ||
    fail "$2: rank 1's arguments: $(grep args "$1/logs/train_log/$c.rank1")"
  grep -q "^env MASTER_ADDR=$host MASTER_PORT=29500 WORLD_SIZE=2 CASE=$c SUITE_VAR=bs=64$" \
    "$1/logs/train_log/$c.rank0" || fail "$2: the job's environment: $(grep ^env "$1/logs/train_log/$c.rank0")"
  grep -q '"launcher": "slurm"' "$r" || fail "$2: launch.launcher"
  grep -A1 '"hosts": \[' "$r" | grep -q "\"$host\"" || fail "$2: launch.hosts"
}

# --- inside an allocation: srun ---
(cd "$tmp" && timeout 60 salloc -N1 -n2 "$MEASURE" run suite.json --out a) >"$tmp/a.out" 2>"$tmp/a.err"
rc=$?
[ $rc -eq 0 ] || { fail "salloc: exit $rc"; cat "$tmp/a.err"; }
check_ranks "$tmp/a" srun
job=$(sed -n 's/^salloc: Granted job allocation \([0-9]*\)$/\1/p' "$tmp/a.err")
grep -q "\"job_id\": \"$job\"" "$tmp/a/logs/index/${c}_speed" ||
  fail "srun: job id $job not recorded: $(grep job_id "$tmp/a/logs/index/${c}_speed")"
grep -q '"srun"' "$tmp/a/logs/index/${c}_speed" || fail "srun: the command is not srun"
grep -q '"--mpi=pmix"' "$tmp/a/logs/index/${c}_speed" ||
  echo "note: this Slurm has no PMIx plugin: srun ran without --mpi=pmix"

# --- outside one: sbatch --wait ---
(cd "$tmp" && timeout 60 "$MEASURE" run suite.json --out b --no-gpu-request) >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
[ $rc -eq 0 ] || { fail "sbatch: exit $rc"; cat "$tmp/b.err" "$tmp/b/logs/train_log/$c"; }
check_ranks "$tmp/b" sbatch
r="$tmp/b/logs/index/${c}_speed"
job=$(head -n 1 "$tmp/b/logs/train_log/$c")
case "$job" in ''|*[!0-9]*) fail "sbatch: the log does not start with a job id: $job" ;; esac
grep -q "\"job_id\": \"$job\"" "$r" || fail "sbatch: job id $job not recorded"
grep -q "\"script\": \"logs/train_log/$c.sbatch\"" "$r" || fail "sbatch: launch.script"
grep -q '^#SBATCH --ntasks-per-node=2$' "$tmp/b/logs/train_log/$c.sbatch" || fail "sbatch: the script"
grep -q "^PERFREPRO_NODES: $host$" "$tmp/b/logs/train_log/$c" || fail "sbatch: the node list line"
grep -q '"sbatch"' "$r" || fail "sbatch: the command is not sbatch"

# --- past its timeout: sbatch stopped, the job cancelled ---
sed "s#ranks.sh\", \"2\"#hang.sh\", \"2\"#; s#$JOBS/ranks.sh#$JOBS/hang.sh#" "$tmp/suite.json" >"$tmp/hang.json"
(cd "$tmp" && timeout 60 "$MEASURE" run hang.json --out h --no-gpu-request --timeout 4 --kill-grace 1) \
  >/dev/null 2>"$tmp/h.err"
[ $? -eq 1 ] || fail "timeout: expected exit 1"
r="$tmp/h/logs/index/${c}_speed"
[ "$(reason "$r")" = timeout ] || fail "timeout: reason $(reason "$r")"
grep -q "was cancelled" "$r" || fail "timeout: the job was not cancelled: $(grep detail "$r")"
for i in $(seq 1 50); do
  [ -z "$(squeue -h 2>/dev/null)" ] && break
  sleep 0.1
done
[ -z "$(squeue -h 2>/dev/null)" ] || fail "timeout: jobs left in the queue: $(squeue -h)"

finish "cluster slurm: ok ($(slurmctld -V), one node, auth/none)"
