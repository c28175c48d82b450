#!/bin/sh
# Fake job dispatcher: a test suite's matrix varies batch_size, and this
# picks the behaviour of each case from it, so that one suite exercises
# every outcome.
#   by_batch.sh BATCH_SIZE [MARKER]
#   1 good | 2 SIGSEGV | 3 exit 3 | 4 hang (grandchild holds the log)
#   5 no matching line | 6 CUDA out of memory | 7 50 MB flood
#   8 hang ignoring SIGTERM | 9 exit 137 after printing records
#   10 out of memory, exit 0, no records | 11 out-of-memory warning, records
#   12 states its failure (PERFREPRO_FAILURE: no_gpu: ...), exit 3
#   13 floods its log (100 MB) | 14 the same, ignoring SIGTERM
#   15 leaves an escaped process tree running (setsid), ignoring SIGTERM
d=$(dirname "$0")
case "$1" in
  1) exec "$d/good.sh" ;;
  2) exec "$d/crash.sh" segv ;;
  3) exec "$d/crash.sh" 3 ;;
  4) exec "$d/hang.sh" "${2:-0}" ;;
  5) exec "$d/noparse.sh" ;;
  6) exec "$d/oom.sh" ;;
  7) exec "$d/flood.sh" 50 ;;
  8) exec "$d/hang.sh" "${2:-0}" ignore-term ;;
  9) exec "$d/crash.sh" 137 ;;
  10) exec "$d/oom.sh" masked ;;
  11) exec "$d/oom.sh" survived ;;
  12) exec "$d/stated.sh" ;;
  13) exec "$d/logflood.sh" 100 ;;
  14) exec "$d/logflood.sh" 100 ignore-term ;;
  15) exec "$d/escape.sh" "${2:-0}" ;;
  *) echo "by_batch.sh: no job for batch size $1" >&2; exit 64 ;;
esac
