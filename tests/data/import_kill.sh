# Sourced by tests/scripts/import_killed.sh and mlperf_import_killed.sh, which
# differ only in the import they run: an import from srcA (the old data),
# then from srcB (the new), killed, locked out, run twice at once and run
# again.  The caller works in a folder with data/, srcA and srcB, defines
# import_cmd SRC (runs the import of SRC into data/) and fail MESSAGE, and
# calls, in order:
#   import_kill_setup NAME RC_OK     the old and new imports and their
#                                    checksums (an exit status up to RC_OK is
#                                    a success)
#   kill_loop NAME SETTLE_S COMMAND...   COMMAND (the import of srcB, run in
#                                    the background and killed at 20 random
#                                    instants, 0 to 1.2 times its duration,
#                                    seeded, so a failure reruns the same
#                                    instants) must leave data/ as the old
#                                    import or the new one, never a mix, and
#                                    gen must load what it left; a command,
#                                    not import_cmd: the kill must reach the
#                                    import itself, not a subshell
#   import_kill_after NAME RC_OK HOLD_S  the import after the kills completes
#                                    and leaves nothing beside data/; an
#                                    import waits for the lock another holds
#                                    (HOLD_S seconds); two at once leave one
#                                    whole generation; identical inputs leave
#                                    every file as it was (inode and mtime)
imp() { import_cmd "$1" >/dev/null 2>err; rc=$?; }
sums() { (cd "$1" && find . -type f -exec sha256sum {} + | sort); }
reset() { rm -rf data && cp -a dataA data; }

import_kill_setup() {
  name=$1 ok=$2
  imp srcA
  [ "$rc" -le "$ok" ] || { echo "$name: the first import failed: $(cat err)"; exit 1; }
  cp -a data dataA
  sums dataA >sumsA
  start=$(date +%s%N)
  imp srcB
  took=$(( ($(date +%s%N) - start) / 1000000 ))
  [ "$rc" -le "$ok" ] || { echo "$name: the second import failed: $(cat err)"; exit 1; }
  sums data >sumsB
  cmp -s sumsA sumsB && { echo "$name: the two sources give the same data"; exit 1; }
}

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

import_kill_after() {
  name=$1 ok=$2 hold=$3
  # the import after the kills
  imp srcB
  [ "$rc" -le "$ok" ] || fail "the import after the kills: $(cat err)"
  sums data >now
  cmp -s now sumsB || fail "the import after the kills differs: $(diff sumsB now | head -5)"
  left=$(ls -a | grep '^\.data\.\(staging\|old\)\.' || true)
  [ -z "$left" ] || fail "left beside data after the import: $left"

  # one import at a time
  reset
  rm -f held
  flock .data.import.lock sh -c ": >held; sleep $hold" &
  holder=$!
  for i in $(seq 1 100); do [ -e held ] && break; sleep 0.1; done
  start=$(date +%s%N)
  imp srcB
  waited=$(( ($(date +%s%N) - start) / 1000000 ))
  wait "$holder"
  [ "$waited" -ge 1000 ] || fail "the import did not wait for the lock held by another (done in $waited ms)"
  grep -q 'another import is writing' err || fail "the waiting import does not say why: $(cat err)"
  for i in 1 2 3; do
    reset
    import_cmd srcB >/dev/null 2>errB &
    pb=$!
    import_cmd srcA >/dev/null 2>errA &
    pa=$!
    wait "$pb"; rb=$?
    wait "$pa"; ra=$?
    [ "$ra" -le "$ok" ] && [ "$rb" -le "$ok" ] || fail "concurrent imports $i: exit $ra and $rb: $(cat errA errB)"
    sums data >now
    cmp -s now sumsA || cmp -s now sumsB || fail "concurrent imports $i interleaved: $(diff sumsB now | head -6)"
  done

  # identical inputs: every file left as it was
  reset
  (cd data && find . -type f -printf '%P %i %T@\n' | sort) >before
  imp srcA
  [ "$rc" -le "$ok" ] || fail "the re-import failed: $(cat err)"
  (cd data && find . -type f -printf '%P %i %T@\n' | sort) >after
  cmp -s before after || fail "re-importing identical inputs touched files: $(diff before after | head -6)"
}
