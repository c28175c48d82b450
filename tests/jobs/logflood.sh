#!/bin/sh
# Fake job: floods its log, a megabyte at a time (at most 100 MB/s, for a
# second at least), then exits 0 with its records.  Far past any small log
# limit long before it is done; with "ignore-term" SIGTERM is ignored, so
# only SIGKILL stops the flood.
#   logflood.sh MEGABYTES [ignore-term]
[ "${2:-}" = ignore-term ] && trap '' TERM
echo "epoch 0, batch 1, ips: 100.0 samples/sec"
i=0
while [ "$i" -lt "$1" ]; do
  i=$((i + 1))
  yes "step $i: ips: 100.$i samples/sec filler filler filler filler filler" | head -c 1000000
  sleep 0.01
done
echo "the flood is over"
exit 0
