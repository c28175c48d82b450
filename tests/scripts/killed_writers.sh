#!/bin/sh
# Writers killed at a chosen point (docs/hardening.md, "Killed writers"):
# the LD_PRELOAD shim tests/faults/wfail.c with WFAIL_KILL=1 sends the
# process SIGKILL at the Nth open-for-writing or rename under a path, so
# every kill is reproducible (no timing).
#   - perfrepro-measure parse --out killed before renaming its copy of the
#     log leaves a full-size NAME.tmp.PID.XXXXXX in logs/train_log/; the
#     next parse --out removes it, and the temporary files of other dead
#     writers in logs/index/, but not those of a live process nor files
#     that only look like ours.
#   - perfrepro-gen site killed at every open for writing and every rename
#     of a build that changes every page and copied log: OUT is always
#     exactly the previous site or exactly the new one (every path and
#     checksum); the next site leaves nothing beside OUT, and puts back a
#     previous site a kill left moved aside (OUT missing); an unchanged site
#     keeps every inode and mtime; OUT a mount point is written in place.
. tests/scripts/lib/preamble.sh
need_bins GEN MEASURE
${CC:-cc} -shared -fPIC -o "$tmp/wfail.so" tests/faults/wfail.c -ldl 2>"$tmp/cc.err" ||
  { cat "$tmp/cc.err"; echo "cannot build the LD_PRELOAD shim"; exit 77; }
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0"
# killat OPS NTH PATTERN CMD...: runs CMD, killed at the NTH call of OPS on a
# path matching PATTERN (or not at all when it makes fewer); its exit status
# in $rc, whether the kill happened in $killed.
killat() {
  ops=$1 nth=$2 pat=$3; shift 3
  : >"$tmp/wlog"
  WFAIL_OPS=$ops WFAIL_NTH=$nth WFAIL_PATH=$pat WFAIL_KILL=1 WFAIL_LOG="$tmp/wlog" \
    LD_PRELOAD="$tmp/wfail.so" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  killed=0
  [ -s "$tmp/wlog" ] && killed=1
}
# The shim must work at all (a static binary, or a system refusing LD_PRELOAD).
killat open 1 "$tmp/probe*" sh -c ": > '$tmp/probe'"
[ "$killed" -eq 1 ] && [ "$rc" -ne 0 ] || { echo "the LD_PRELOAD shim does not take effect here"; exit 77; }
# A PID no process has (above any pid_max).
DEAD=999999999

# ------------------------------------------------------ measure parse --out
D="$tmp/run"
T="$D/logs/train_log" I="$D/logs/index"
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "step %d, ips: 10%d.0 samples/sec\n", i, i % 10 }' >"$tmp/big.log"
size=$(wc -c <"$tmp/big.log")
parse() { "$MEASURE" parse --rule '{"keyword": "ips:", "scope": "global"}' --model M --framework F \
            --out "$D" "$@"; }
parse --case c1 "$tmp/big.log" >/dev/null 2>"$tmp/err" || fail "parse --out: $(cat "$tmp/err")"
killat rename 1 "*train_log*" parse --case c2 "$tmp/big.log"
[ "$killed" -eq 1 ] && [ "$rc" -eq 137 ] || fail "parse --out was not killed at its rename (exit $rc)"
left=$(ls "$T" | grep '^c2\.tmp\.' || true)
[ -n "$left" ] && [ "$(wc -c <"$T/$left")" -eq "$size" ] ||
  fail "the killed parse --out did not leave a full copy of the log: $(ls -l "$T")"
# Beside it: a live writer's temporary file (this shell's PID), a dead
# writer's record, and names perfrepro does not create.
cp "$tmp/big.log" "$T/c9.tmp.$$.AbCdEf"
echo x >"$I/c3_speed.tmp.$DEAD.AbCdEf"
echo x >"$I/c4_speed.tmp.$DEAD"
echo notes >"$T/notes.tmp.keep"
echo notes >"$T/c5.tmp.$DEAD.toolong"
parse --case c2 "$tmp/big.log" >/dev/null 2>"$tmp/err" || fail "parse --out after the kill: $(cat "$tmp/err")"
[ -f "$T/c2" ] && [ -f "$I/c2_speed" ] || fail "parse --out after the kill: c2 not filed"
for f in "$T/$left" "$I/c3_speed.tmp.$DEAD.AbCdEf" "$I/c4_speed.tmp.$DEAD"; do
  [ ! -e "$f" ] || fail "parse --out left a dead writer's $(basename "$f")"
done
for f in "$T/c9.tmp.$$.AbCdEf" "$T/notes.tmp.keep" "$T/c5.tmp.$DEAD.toolong"; do
  [ -e "$f" ] || fail "parse --out removed $(basename "$f"), not a dead writer's temporary file"
done

# ---------------------------------------------------------------- gen site
R="$tmp/site"
mkdir -p "$R/reports/M/F" "$R/data/runs/r1/logs/train_log"
# pages V: every page and the log differ between versions 1 and 2.
pages() {
  printf '# Index v%s\n\n[M](M/README.md) [F](M/F/README.md) [en](README.en.md)\n' "$1" >"$R/reports/README.md"
  printf '# Index (en) v%s\n\n[M](M/README.md)\n' "$1" >"$R/reports/README.en.md"
  printf '# M v%s\n\n[F](F/README.md#f-v%s)\n' "$1" "$1" >"$R/reports/M/README.md"
  for l in "" .en; do
    printf '# F v%s\n\n| a | b |\n|---|---:|\n| x | %s |\n\n[log](../../../data/runs/r1/logs/train_log/c1) [log2](../../../data/runs/r1/logs/train_log/c2.log)\n' \
      "$1" "$1" >"$R/reports/M/F/README$l.md"
  done
  printf 'log v%s\n' "$1" >"$R/data/runs/r1/logs/train_log/c1"
  printf 'log2 v%s\n' "$1" >"$R/data/runs/r1/logs/train_log/c2.log"
}
O="$R/out"
site() { "$GEN" site --reports "$R/reports" --root "$R" --templates "$ROOT/templates" --out "$O"; }
listing() { (cd "$1" && find . | LC_ALL=C sort && find . -type f -exec md5sum {} + | LC_ALL=C sort); }
beside() { ls -A "$R" | grep -v -x -e reports -e data -e out -e pristine || true; }
pages 1
site >/dev/null 2>"$tmp/err" || fail "site v1: $(cat "$tmp/err")"
listing "$O" >"$tmp/old"
cp -Rp "$O" "$R/pristine"
pages 2
site >/dev/null 2>"$tmp/err" || fail "site v2: $(cat "$tmp/err")"
listing "$O" >"$tmp/new"
cmp -s "$tmp/old" "$tmp/new" && fail "site: version 2 does not change the site"
restore() { rm -rf "$O" && cp -Rp "$R/pristine" "$O"; }
restore
kills=0
for op in open rename; do
  n=0
  while [ $n -lt 200 ]; do
    n=$((n + 1))
    killat $op $n "$R/*" site
    listing "$O" >"$tmp/now" 2>/dev/null
    if [ "$killed" -eq 0 ]; then
      [ "$rc" -eq 0 ] || fail "site ($op: no kill at $n): exit $rc: $(cat "$tmp/err")"
      cmp -s "$tmp/now" "$tmp/new" || fail "site ($op): the build is not the new site"
      restore
      break
    fi
    kills=$((kills + 1))
    if cmp -s "$tmp/now" "$tmp/new"; then
      restore
    elif ! cmp -s "$tmp/now" "$tmp/old"; then
      fail "site killed at $op $n: OUT is neither the previous site nor the new one: $(diff "$tmp/old" "$tmp/now" | head -n 4 | tr '\n' ' ')"
      restore
    fi
  done
done
[ $kills -ge 4 ] || fail "site: only $kills kills"
# What the kills left beside OUT goes with the next site; a previous site
# moved aside by a site killed between two renames is put back first.
mkdir -p "$R/.out.staging.$DEAD/x"
mv "$O" "$R/.out.old.$DEAD"
site >/dev/null 2>"$tmp/err" || fail "site after the kills: $(cat "$tmp/err")"
listing "$O" >"$tmp/now"
cmp -s "$tmp/now" "$tmp/new" || fail "site after the kills: not the new site"
[ -z "$(beside)" ] || fail "site after the kills: left beside OUT: $(beside | head -n 3 | tr '\n' ' ')"
# An unchanged site touches nothing: same inodes and mtimes.
before=$(cd "$O" && find . -printf '%i %T@ %p\n' | sort)
site >/dev/null 2>"$tmp/err" || fail "site unchanged: $(cat "$tmp/err")"
after=$(cd "$O" && find . -printf '%i %T@ %p\n' | sort)
[ "$before" = "$after" ] || fail "an unchanged site changed OUT's files"

# OUT a mount point cannot be swapped: site writes in place (changed files
# through a temporary file and rename), and prunes.  Needs a mount namespace.
M="$tmp/m"
mkdir -p "$M/out"
if unshare -m sh -c "mount -t tmpfs none '$M/out'" 2>/dev/null; then
  s="'$GEN' site --reports '$R/reports' --root '$R' --templates '$ROOT/templates' --out '$M/out'"
  unshare -m sh -c "mount -t tmpfs none '$M/out' && $s && echo x >'$M/out/stale.html' && $s &&
    [ -f '$M/out/M/F/index.html' ] && [ ! -e '$M/out/stale.html' ]" >/dev/null 2>&1 ||
    fail "site into a mount point: the build in place failed or did not prune"
  [ "$(ls -A "$M")" = out ] || fail "site into a mount point: left beside it: $(ls -A "$M")"
else
  echo "site into a mount point: not tested here (no unshare -m or mount)"
fi

finish "killed writers: parse --out ($size-byte copy) and site ($kills kills) leave old or new, leftovers cleaned"
