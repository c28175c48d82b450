#!/bin/sh
# Fake job: writes about 50 MB of chatter quickly, with its records spread
# through it, and exits 0.
#   flood.sh [MEGABYTES]
mb=${1:-50}
i=0
while [ $i -lt 6 ]; do
  i=$((i + 1))
  echo "epoch 0, batch $i, ips: 20$i.0 samples/sec"
  yes "step $i: loss 0.123456 lr 0.1 grad_norm 1.5 throughput filler filler filler filler" |
    head -c $((mb * 1000000 / 6))
done
exit 0
