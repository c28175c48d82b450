#!/bin/sh
# Fake multi-node job: one task of a case started by mpirun or srun.  Checks
# that the engine started the number of tasks it was asked for (the first
# argument) and that perfrepro's task wrapper gave it its place; prints what
# it sees, and throughput lines: rank 0 the real ones, other ranks a figure
# the parse rule must not read (it names another rank, or another file).
#   ranks.sh NTASKS [ARGS...]
want=$1
shift
size=${OMPI_COMM_WORLD_SIZE:-${SLURM_NTASKS:-}}
engine=mpirun
[ -n "${OMPI_COMM_WORLD_SIZE:-}" ] || engine=srun
echo "task rank=${RANK-<unset>} local_rank=${LOCAL_RANK-<unset>} node_rank=${NODE_RANK-<unset>} size=$size engine=$engine"
echo "env MASTER_ADDR=${MASTER_ADDR-<unset>} MASTER_PORT=${MASTER_PORT-<unset>} WORLD_SIZE=${WORLD_SIZE-<unset>} CASE=${PERFREPRO_CASE-<unset>} SUITE_VAR=${SUITE_VAR-<unset>}"
echo "args:$(for a in "$@"; do printf ' [%s]' "$a"; done)"
if [ "$size" != "$want" ]; then
  echo "ranks.sh: expected $want tasks, the engine says ${size:-none}" >&2
  exit 3
fi
if [ "${RANK-}" = 0 ]; then
  for i in 1 2 3 4 5 6; do
    echo "[2024-05-01 12:00:0$i] epoch 0, batch $i, loss: 6.9, ips: 20$i.5 samples/sec"
  done
else
  echo "[2024-05-01 12:00:01] epoch 0, batch 1, loss: 6.9, ips: 999.0 samples/sec"
fi
exit 0
