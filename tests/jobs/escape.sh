#!/bin/sh
# Fake job: a healthy run that leaves a process tree behind out of its
# process group (setsid), ignoring SIGTERM: a shell and its sleep, whose
# duration carries MARKER ("996.MARKER") so that a test can look for
# leftovers.  It waits (5 s at most) until the sleep runs, then exits 0.
#   escape.sh MARKER
setsid sh -c "trap '' TERM; sleep 996.$1; :" </dev/null >/dev/null 2>&1 &
i=0
while [ $i -lt 500 ] && ! pgrep -f "^sleep 996\.$1\$" >/dev/null; do
  sleep 0.01
  i=$((i + 1))
done
for i in 1 2 3; do
  echo "epoch 0, batch $i, ips: 10$i.0 samples/sec"
done
exit 0
