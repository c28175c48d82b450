#!/bin/sh
# Hostile file systems for perfrepro-gen (docs/hardening.md, "Hostile file
# systems"): what gen reads and publishes, and publishing atomically.
#   - symbolic links to /etc/passwd, /proc/self/environ or a folder outside
#     the repository as a log, log folder, run folder, record, index folder,
#     env.json, published file, suite and template: validate and build fail
#     naming the file; site refuses to publish, check reports the link;
#     nothing of the target lands in the reports or the site;
#   - FIFOs as record, env.json, log, published file, suite, template and
#     page, and a record linked to /dev/zero: refused within seconds, never
#     blocking; a 1 GB sparse record: refused before it is read;
#   - logs named *.html reaching the site: published as *.html.txt;
#   - check and site on an empty reports tree (qsort was given NULL);
#   - perfrepro-gen build killed with SIGKILL at 40 random moments over a
#     previous generation: OUT is always exactly the old generation or
#     exactly the new one; the next build leaves no staging folder and no
#     temporary file, and removes those that dead builds left; a previous
#     generation a kill left moved aside (OUT missing) is put back.
# No step depends on the machine's speed: the kill moments are spread over
# the measured length of a build, and timeouts only catch hangs.
. tests/scripts/lib/preamble.sh
need_bins GEN MEASURE
SECRET="perfrepro-secret-$$"
# gen RC PATTERN ARGS...: perfrepro-gen ARGS exits RC with PATTERN (grep -E)
# on stderr+stdout, does not hang (a FIFO would: timeout), and no sanitizer
# reports undefined behaviour.
gen() {
  want=$1 pat=$2; shift 2
  timeout 120 "$GEN" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -eq 124 ]; then fail "gen $*: blocked (killed after 120 s)"; return; fi
  [ $rc -eq "$want" ] || { fail "gen $*: exit $rc, expected $want: $(head -c 400 "$tmp/err")"; return; }
  cat "$tmp/out" >>"$tmp/err"
  [ -z "$pat" ] || grep -Eq -- "$pat" "$tmp/err" ||
    fail "gen $*: the message does not match '$pat': $(head -c 400 "$tmp/err")"
  ! grep -q "runtime error" "$tmp/err" || fail "gen $*: undefined behaviour: $(grep "runtime error" "$tmp/err" | head -n 2)"
}
# leaked DIR: the secret, or a line of /etc/passwd, is somewhere under DIR.
leaked() { [ -d "$1" ] && grep -rqsE "$SECRET|^root:" "$1"; }

# ------------------------------------------------------------ a repository
# repo/: data/runs/r1 (one record and its log, from measure parse), a
# published table and a suite from the shipped data, the templates; and
# outside it secret/, a copy of the run whose log holds the secret.
P="$tmp/pristine"
mkdir -p "$P/repo/data/published" "$P/repo/data/suites/GPT" "$P/secret"
printf 'ips: 10.0\nips: 12.0\n' >"$tmp/log"
"$MEASURE" parse --rule '{"keyword": "ips:", "scope": "global"}' --case fake_case_1 \
  --model Fake --framework Sh --out "$P/repo/data/runs/r1" "$tmp/log" >/dev/null 2>&1 ||
  { echo "measure parse failed"; exit 1; }
pub=$(ls "$ROOT"/data/published/*.json | head -n 1)
suite=$(ls "$ROOT"/data/suites/GPT/*.json | head -n 1)
cp "$pub" "$P/repo/data/published/p.json"
cp -R "$ROOT/data/platforms" "$P/repo/data/platforms"
cp "$suite" "$P/repo/data/suites/GPT/"
suite=$(basename "$suite")
cp -R "$ROOT/templates" "$P/repo/templates"
cp -R "$P/repo/data/runs/r1" "$P/secret/r1"
echo "ips: 11.0 $SECRET" >"$P/secret/r1/logs/train_log/fake_case_1"
cp "$pub" "$P/secret/p.json"
cp "$P/repo/data/suites/GPT/$suite" "$P/secret/suite.json"
printf '%s\n' "$SECRET" >"$P/secret/page.mustache"
(cd "$P/repo" && "$GEN" build >/dev/null 2>&1) || { echo "the clean repository does not build"; exit 1; }
grep -q "train_log/fake_case_1" "$P/repo/reports/Fake/Sh/README.md" ||
  { echo "the reports do not link the log"; exit 1; }
R="$tmp/case/repo"
S="$tmp/case/secret"
L="$R/data/runs/r1/logs"
fresh() { rm -rf "$tmp/case"; cp -R "$P" "$tmp/case"; }
# refused WHAT PATTERN: validate and build fail with PATTERN; the previous
# reports stay as they were and hold nothing of the target.
refused() {
  (cd "$R" && gen 1 "$2" validate)
  sums_before=$(cd "$R/reports" && find . -type f -exec md5sum {} + | sort)
  (cd "$R" && gen 1 "$2" build)
  [ "$(cd "$R/reports" && find . -type f -exec md5sum {} + | sort)" = "$sums_before" ] ||
    fail "$1: a failed build changed the reports"
  ! leaked "$R/reports" || fail "$1: the target reached the reports"
}
# site_refused WHAT PATTERN: site fails, check reports it, nothing leaks.
site_refused() {
  (cd "$R" && gen 1 "$2" site)
  ! leaked "$R/build/site" || fail "$1: the target was published in the site"
  (cd "$R" && gen 1 "$3" check)
}

# ------------------------------------------- links leading outside the repo
for target in /etc/passwd /proc/self/environ "$S/r1/logs/train_log/fake_case_1"; do
  fresh
  ln -sf "$target" "$L/train_log/fake_case_1"
  refused "log -> $target" "log_file.*resolves outside"
  site_refused "log -> $target" "resolves outside" "fake_case_1' resolves outside"
done
fresh; rm -rf "$L/train_log"; ln -s "$S/r1/logs/train_log" "$L/train_log"
refused "log folder -> outside" "resolves outside"
site_refused "log folder -> outside" "resolves outside" "resolves outside"
fresh; rm -rf "$R/data/runs/r1"; ln -s "$S/r1" "$R/data/runs/r1"
refused "run folder -> outside" "data/runs/r1: resolves outside"
site_refused "run folder -> outside" "resolves outside" "resolves outside"
fresh; rm -f "$L/index/fake_case_1_speed"; ln -s "$S/r1/logs/index/fake_case_1_speed" "$L/index/fake_case_1_speed"
refused "record -> outside" "fake_case_1_speed: resolves outside"
fresh; rm -rf "$L/index"; ln -s "$S/r1/logs/index" "$L/index"
refused "index folder -> outside" "resolves outside"
fresh; ln -s /etc/passwd "$R/data/runs/r1/env.json"
refused "env.json -> /etc/passwd" "env.json: resolves outside"
fresh; rm -f "$R/data/published/p.json"; ln -s "$S/p.json" "$R/data/published/p.json"
refused "published file -> outside" "p.json: resolves outside"
fresh; rm -f "$R/data/suites/GPT/$suite"; ln -s "$S/suite.json" "$R/data/suites/GPT/$suite"
refused "suite -> outside" "$suite: resolves outside"
fresh; ln -s "$S" "$R/data/suites/linked"
refused "suite folder -> outside" "linked: resolves outside"
fresh; ln -s . "$R/data/suites/loop"
refused "suite folder linked to itself" "symbolic link loop"
fresh; rm -f "$R/templates/en/framework.mustache"; ln -s "$S/page.mustache" "$R/templates/en/framework.mustache"
(cd "$R" && gen 1 "framework.mustache: resolves outside" build)
! leaked "$R/reports" || fail "template -> outside: the target reached the reports"
fresh; rm -f "$R/templates/site/style.css"; ln -s /etc/passwd "$R/templates/site/style.css"
(cd "$R" && gen 1 "style.css: resolves outside" site)
! leaked "$R/build/site" || fail "stylesheet -> /etc/passwd: published"
# A link that stays inside the repository is fine.
fresh; mv "$L/train_log/fake_case_1" "$L/train_log/real"; ln -s real "$L/train_log/fake_case_1"
(cd "$R" && gen 0 "" validate && gen 0 "" build && gen 0 "" site && gen 0 "" check)
[ -f "$R/build/site/files/data/runs/r1/logs/train_log/fake_case_1.txt" ] ||
  fail "a log linked inside the repository was not published"
# A record linked inside the repository is loaded (records are opened
# without following links; a link is checked, then followed).
fresh; mv "$L/index/fake_case_1_speed" "$L/index/real_record"
ln -s real_record "$L/index/fake_case_1_speed"
(cd "$R" && gen 0 "" validate && gen 0 "" build)

# ------------------------------------------------ special and huge files
fresh; rm -f "$L/index/fake_case_1_speed"; mkfifo "$L/index/fake_case_1_speed"
refused "record FIFO" "FIFO"
fresh; mkfifo "$R/data/runs/r1/env.json"
refused "env.json FIFO" "FIFO"
fresh; rm -f "$L/train_log/fake_case_1"; mkfifo "$L/train_log/fake_case_1"
refused "log FIFO" "log_file.*FIFO"
(cd "$R" && gen 1 "FIFO" site)
(cd "$R" && gen 1 "special-file|FIFO" check)
fresh; rm -f "$R/data/published/p.json"; mkfifo "$R/data/published/p.json"
refused "published FIFO" "p.json.*FIFO"
fresh; rm -f "$R/data/suites/GPT/$suite"; mkfifo "$R/data/suites/GPT/$suite"
refused "suite FIFO" "FIFO"
fresh; rm -f "$R/templates/zh/index.mustache"; mkfifo "$R/templates/zh/index.mustache"
(cd "$R" && gen 1 "index.mustache.*FIFO" build)
fresh; mkfifo "$R/reports/README.fr.md"
(cd "$R" && gen 1 "FIFO" site)
(cd "$R" && gen 1 "special-file|FIFO" check)
fresh; rm -f "$L/index/fake_case_1_speed"; ln -s /dev/zero "$L/index/fake_case_1_speed"
refused "record -> /dev/zero" "resolves outside"
fresh; truncate -s 1G "$L/index/big_speed"
refused "1 GB sparse record" "big_speed.*more than"
if [ -x /usr/bin/time ]; then
  (cd "$R" && /usr/bin/time -f %M -o "$tmp/rss" "$GEN" validate >/dev/null 2>&1)
  rss=$(tail -n 1 "$tmp/rss")
  [ "$rss" -lt 400000 ] 2>/dev/null || fail "1 GB sparse record: peak RSS ${rss} KB"
fi

# ------------------------------------------------ active names in the site
fresh
printf '<script>alert(1)</script>\n' >"$L/train_log/x.html"
printf '<svg onload="alert(1)"/>\n' >"$L/train_log/y.svg"
printf '\n[x](../data/runs/r1/logs/train_log/x.html) [y](../data/runs/r1/logs/train_log/y.svg)\n' \
  >>"$R/reports/README.md"
(cd "$R" && gen 0 "" site)
found=$(find "$R/build/site/files" -type f \( -name '*.html' -o -name '*.svg' -o -name '*.htm' \) | head -n 3)
[ -z "$found" ] || fail "active names published: $found"
[ -f "$R/build/site/files/data/runs/r1/logs/train_log/x.html.txt" ] || fail "x.html was not published as x.html.txt"
grep -q 'href="files/data/runs/r1/logs/train_log/x.html.txt"' "$R/build/site/index.html" ||
  fail "the link to x.html does not point to x.html.txt"

# ------------------------------------------------------------ empty trees
mkdir -p "$tmp/empty/reports"
gen 0 "0 pages" check --reports "$tmp/empty/reports" --root "$tmp/empty"
gen 0 "0 pages" site --reports "$tmp/empty/reports" --out "$tmp/empty/site" --templates "$ROOT/templates"

# ------------------------------------------------------------ the kill loop
K="$tmp/k"
mkdir -p "$K"
cp -R "$ROOT/data" "$K/data1"
cp -R "$ROOT/data" "$K/data2"
for f in "$K"/data2/published/*.json; do # new labels change many pages
  sed 's/"label": "\([^"]*\)"/"label": "\1 (v2)"/' "$f" >"$tmp/pub" && cp "$tmp/pub" "$f"
done
for f in "$K"/data2/comparisons/*.json; do # a published side names its source by label
  [ -f "$f" ] || continue
  sed 's/"published:\([^@"]*\)@/"published:\1 (v2)@/' "$f" >"$tmp/pub" && cp "$tmp/pub" "$f"
done
O="$K/reports"
# exec: killing the background job must kill gen, not a subshell around it.
kbuild() { exec "$GEN" build --data "$K/$1" --templates "$ROOT/templates" --out "$O" --no-charts; }
# listing: every path of the tree and every file's checksum.
listing() { (cd "$1" && find . | LC_ALL=C sort && find . -type f -exec md5sum {} + | LC_ALL=C sort); }
(kbuild data1 >/dev/null 2>&1) || fail "kill loop: the first build"
listing "$O" >"$tmp/old"
cp -Rp "$O" "$K/pristine"
start=$(date +%s%N)
(kbuild data2 >/dev/null 2>&1) || fail "kill loop: the build of the new generation"
ms=$((($(date +%s%N) - start) / 1000000))
listing "$O" >"$tmp/new"
cmp -s "$tmp/old" "$tmp/new" && fail "kill loop: data2 does not change the reports"
restore() { rm -rf "$O" && cp -Rp "$K/pristine" "$O"; }
restore
seed=${PERFREPRO_KILL_SEED:-$$}
n=0 olds=0 news=0
while [ $n -lt 40 ]; do
  n=$((n + 1))
  # A moment in [0, 2 x the length of a build].
  delay=$(awk -v s="$seed" -v n=$n -v ms=$ms 'BEGIN { srand(s + n); printf "%.3f", rand() * ms * 2 / 1000 }')
  (kbuild data2 >/dev/null 2>&1) &
  pid=$!
  sleep "$delay"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  listing "$O" >"$tmp/now" 2>/dev/null
  if cmp -s "$tmp/now" "$tmp/old"; then
    olds=$((olds + 1))
  elif cmp -s "$tmp/now" "$tmp/new"; then
    news=$((news + 1))
    restore
  else
    fail "kill $n (after ${delay}s): the reports are neither the old generation nor the new: $(diff "$tmp/old" "$tmp/now" | head -n 4)"
    restore
  fi
done
echo "kill loop: $n kills (seed $seed, build ${ms} ms): $olds left the old generation, $news the new"
# What dead builds left (staging folders, old-style temporary files) goes
# with the next build.
mkdir -p "$K/.reports.staging.999999999/x" "$K/.reports.old.999999999"
echo x >"$O/README.md.tmp.999999999"
echo x >"$O/README.md.tmp.999999999.AbCdEf"
(kbuild data2 >/dev/null 2>&1) || fail "kill loop: the build after the kills"
listing "$O" >"$tmp/now"
cmp -s "$tmp/now" "$tmp/new" || fail "kill loop: the last build is not the new generation"
left=$(ls -A "$K" | grep -E '\.(staging|old)\.' | head -n 3)
[ -z "$left" ] || fail "kill loop: left beside the reports: $left"
left=$(find "$O" -name '*.tmp.*' | head -n 3)
[ -z "$left" ] || fail "kill loop: temporary files left: $left"
# A build killed between its two renames (file systems without
# RENAME_EXCHANGE) leaves OUT missing and the previous generation at
# .NAME.old.PID: the next build puts it back and builds over it (it failed
# with "Directory not empty": the generation put back was taken for none).
mv "$O" "$K/.reports.old.999999999"
(kbuild data2 >/dev/null 2>"$tmp/err") || fail "kill loop: the build after a kill between two renames: $(cat "$tmp/err")"
listing "$O" >"$tmp/now"
cmp -s "$tmp/now" "$tmp/new" || fail "kill loop: the build after a kill between two renames is not the new generation"
left=$(ls -A "$K" | grep -E '\.(staging|old)\.' | head -n 3)
[ -z "$left" ] || fail "kill loop: left beside the reports after the put back: $left"
# An unchanged rebuild touches nothing: same inodes and mtimes.
before=$(cd "$O" && find . -printf '%i %T@ %p\n' | sort)
(kbuild data2 >/dev/null 2>&1) || fail "kill loop: the unchanged rebuild"
after=$(cd "$O" && find . -printf '%i %T@ %p\n' | sort)
[ "$before" = "$after" ] || fail "an unchanged rebuild changed the reports' files: $(echo "$after" | head -n 2)"

# OUT a mount point cannot be swapped: gen writes in place (the previous way),
# and still removes dead builds' temporary files.  Needs a mount namespace.
M="$tmp/m"
mkdir -p "$M/reports"
if unshare -m sh -c "mount -t tmpfs none '$M/reports'" 2>/dev/null; then
  b="'$GEN' build --data '$ROOT/data' --templates '$ROOT/templates' --out '$M/reports' --no-charts"
  unshare -m sh -c "mount -t tmpfs none '$M/reports' && $b &&
    echo x >'$M/reports/README.md.tmp.999999999' && $b &&
    [ -f '$M/reports/README.md' ] && [ ! -e '$M/reports/README.md.tmp.999999999' ]" >/dev/null 2>&1 ||
    fail "OUT a mount point: the build in place failed or left a temporary file"
  [ -z "$(ls -A "$M" | grep -E '\.(staging|old)\.')" ] || fail "OUT a mount point: staging folder left"
else
  echo "OUT a mount point: not tested here (no unshare -m or mount)"
fi

finish "hostile gen file systems: all refused, published inert, builds atomic"
