#!/bin/sh
# Fake job: prints a few records, then dies of SIGSEGV (segv) or exits with
# a status (a number).
#   crash.sh segv|STATUS
echo "epoch 0, batch 1, ips: 100.0 samples/sec"
echo "epoch 0, batch 2, ips: 101.0 samples/sec"
case "${1:-segv}" in
  segv) kill -SEGV $$ ;;
  *) exit "$1" ;;
esac
