# Sourced by tests/scripts/import_killed.sh and mlperf_import_killed.sh: an
# import killed at 20 random instants (0 to 1.2 times its duration, seeded,
# so a failure reruns the same instants) must leave data/ as the old import
# or the new one, never a mix, and gen must load what it left.  The caller
# defines reset (data/ back to the old import), sums DIR (a checksum list),
# fail MESSAGE, took (the import's duration in ms) and the checksum lists
# sumsA (old) and sumsB (new).
#   kill_loop NAME SETTLE_S COMMAND...   (COMMAND: the import, run in the background)
kill_loop() {
  name=$1 settle=$2
  shift 2
  old=0 new=0
  for i in $(seq 1 20); do
    reset
    ms=$(awk -v s="$i" -v t="$took" 'BEGIN { srand(s * 7919); printf "%d", rand() * t * 1.2 }')
    "$@" >/dev/null 2>&1 &
    pid=$!
    sleep "$(awk -v ms="$ms" 'BEGIN { printf "%.3f", ms / 1000 }')"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    sleep "$settle" # what it started (parse, gen validate), orphaned, finishes
    sums data >now
    if cmp -s now sumsA; then old=$((old + 1))
    elif cmp -s now sumsB; then new=$((new + 1))
    else fail "kill $i (after $ms ms): data/ is neither the old nor the new import: $(diff sumsB now | head -6)"
    fi
    "$GEN" validate --data data >/dev/null 2>err || fail "kill $i: gen refuses data/: $(cat err)"
  done
  echo "$name: 20 kills: $old left the old data, $new the new"
}
