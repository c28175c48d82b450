#!/bin/sh
# Fake job: a healthy training run.  Prints what it was given, then Paddle-
# style throughput lines ("ips: X samples/sec") and exits 0.
#   good.sh [ARGS...]
echo "args:$(for a in "$@"; do printf ' [%s]' "$a"; done)"
echo "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-<unset>}"
echo "PERFREPRO_CASE=${PERFREPRO_CASE-<unset>}"
echo "PERFREPRO_LOG=${PERFREPRO_LOG-<unset>}"
echo "SUITE_VAR=${SUITE_VAR-<unset>}"
for i in 1 2 3 4 5 6; do
  echo "[2024-05-01 12:00:0$i] epoch 0, batch $i, loss: 6.9, ips: 10$i.5 samples/sec"
done
exit 0
