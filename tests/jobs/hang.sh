#!/bin/sh
# Fake job: never ends by itself.  A background grandchild keeps the log
# open; the sleeps carry MARKER in their duration ("997.MARKER") so that a
# test can look for leftovers.  With "ignore-term" SIGTERM is ignored by the
# job and its children (only SIGKILL ends them).
#   hang.sh MARKER [ignore-term]
[ "${2:-}" = ignore-term ] && trap '' TERM
echo "epoch 0, batch 1, ips: 100.0 samples/sec"
sleep "997.$1" &
sleep "998.$1"
