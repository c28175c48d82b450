#!/bin/sh
# Fake job: prints each argument on its own line between brackets, then
# enough records to parse.
for a in "$@"; do printf 'arg[%s]\n' "$a"; done
for i in 1 2 3; do echo "ips: 5$i.0 samples/sec"; done
