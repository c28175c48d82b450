#!/bin/sh
# perfrepro-gen import-table on hostile tables, through the command line
# (issue #22, items 5 to 7; tests/unit/gen_mdimport.c checks the same at the
# library level):
#   - a figure a number cannot keep exactly (2^63 + 1, 2^53 + 1) is refused
#     with its file and line, exit 1, nothing written; validate refuses a
#     "printed" text that is not its stored number;
#   - a 500,000-row table of 8s stops at its first repeated row (naming both
#     lines) within seconds, writing nothing (before: 4.6 s, 1.1 GB, a 63 MB
#     file gen refused);
#   - a re-import that the build would refuse (a repeated row, an unknown
#     platform) leaves the good file byte for byte;
#   - raw HTML and images in cells: exit 0, a warning naming the line and
#     what was left out.
# Peak RSS is read with /usr/bin/time -v (package "time"); without it, or
# under ASan, the memory check is skipped, not the rest.
. tests/scripts/lib/preamble.sh
need_bins GEN
TIMEV=""
[ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1 && TIMEV=/usr/bin/time
case "$GEN" in *asan*) TIMEV="" ;; esac
mkdir -p "$tmp/data/published" "$tmp/data/platforms"
cp data/platforms/V100-SXM2-32GB-x8.json "$tmp/data/platforms/"
OUT="$tmp/data/published/p.json"
# imp MD PLATFORM: imports column V of MD's first table into $OUT; exit
# status in $rc, stderr in $tmp/err.
imp() {
  timeout 60 "$GEN" import-table --markdown "$1" --table 1 --column V --model M --framework F \
    --precision fp32 --batch-size 1 --unit u --platform "$2" --repo a/b --commit abcdef0 \
    --path t.md --out "$OUT" >"$tmp/out" 2>"$tmp/err"
  rc=$?
}
# refused WHAT PATTERN: the last import exited 1 with PATTERN (grep -E) on stderr.
refused() {
  [ $rc -eq 1 ] || fail "$1: exit $rc, expected 1: $(head -c 300 "$tmp/err")"
  grep -Eq -- "$2" "$tmp/err" || fail "$1: message does not match '$2': $(head -c 300 "$tmp/err")"
}

# --- figures a number cannot keep exactly
for v in 9223372036854775809 9007199254740993; do
  printf '|GPUs|V|\n|-|-|\n|1|100|\n|8|%s|\n' "$v" >"$tmp/t.md"
  imp "$tmp/t.md" unstated
  refused "$v" "t\\.md:4: V: \"$v\" cannot be kept exactly"
  [ ! -e "$OUT" ] || { fail "$v: a file was written: $(grep throughput "$OUT")"; rm -f "$OUT"; }
done
# validate: a "printed" text that is not the stored number
cat >"$tmp/data/published/h.json" <<'JSON'
{"perfrepro": 1, "source": {"title": "x"}, "platform": "unstated",
 "tables": [{"model": "M", "framework": "F", "precision": "fp32", "batch_size": 1, "unit": "u",
   "rows": [{"nodes": 1, "gpus": 1, "throughput": 9007199254740992, "printed": "9007199254740993"}]}]}
JSON
"$GEN" validate --data "$tmp/data" >/dev/null 2>"$tmp/err"
rc=$?
refused "validate printed" 'h\.json:[0-9]+:[0-9]+: tables\[0\]\.rows\[0\]\.printed: "9007199254740993" is not the row.s throughput'
rm -f "$tmp/data/published/h.json"

# --- 500,000 rows of 8s: stops at the second
{ printf '|GPUs|V|\n|-|-|\n'; yes '|8|8|' | head -n 500000; } >"$tmp/big.md"
start=$(date +%s)
rss=0
if [ -n "$TIMEV" ]; then
  $TIMEV -v "$GEN" import-table --markdown "$tmp/big.md" --table 1 --column V --model M \
    --framework F --precision fp32 --batch-size 1 --unit u --platform unstated --repo a/b \
    --commit abcdef0 --path t.md --out "$OUT" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/err")
else
  imp "$tmp/big.md" unstated
fi
secs=$(($(date +%s) - start))
refused "500,000 rows" 'big\.md:4: a second row for 1 node\(s\), 8 GPU\(s\) \(the first is .*big\.md:3\)'
[ ! -e "$OUT" ] || { fail "500,000 rows: a file was written"; rm -f "$OUT"; }
[ $secs -le 10 ] || fail "500,000 rows: took ${secs}s"
# What is left is cmark-gfm's tree of the 3 MB file (about 550 MB); the
# import itself builds nothing past the second row (before: 1.1 GB).
[ -z "$TIMEV" ] || [ "$rss" -lt 819200 ] || fail "500,000 rows: peak RSS $rss KB"
[ -n "$TIMEV" ] && peak="$rss KB" || peak="not measured"
echo "500,000 rows: ${secs}s, peak RSS $peak"

# --- a re-import the build would refuse leaves the good file as it was
printf '|GPUs|V|\n|-|-|\n|1|100|\n|8|700|\n' >"$tmp/t.md"
imp "$tmp/t.md" V100-SXM2-32GB-x8
[ $rc -eq 0 ] || fail "good import: exit $rc: $(cat "$tmp/err")"
cp "$OUT" "$tmp/good.json"
printf '|GPUs|V|\n|-|-|\n|1|100|\n|8|700|\n|8|8|\n' >"$tmp/t.md"
imp "$tmp/t.md" V100-SXM2-32GB-x8
refused "re-import with a repeated row" 't\.md:5: a second row for 1 node\(s\), 8 GPU\(s\)'
cmp -s "$OUT" "$tmp/good.json" || fail "re-import with a repeated row: the good file changed"
printf '|GPUs|V|\n|-|-|\n|1|100|\n' >"$tmp/t.md"
imp "$tmp/t.md" No-Such-Platform
refused "import with an unknown platform" 'p\.json not written, the build would refuse the new content: .*unknown platform "No-Such-Platform"'
cmp -s "$OUT" "$tmp/good.json" || fail "import with an unknown platform: the good file changed"
"$GEN" validate --data "$tmp/data" >/dev/null 2>"$tmp/err" || fail "validate after refused imports: $(cat "$tmp/err")"

# --- raw HTML and images in cells: imported from their text, with a warning
printf '|GPUs|V|\n|-|-|\n|1|100 <script>alert(1)</script>|\n|2|200 ![a](x.png)|\n' >"$tmp/t.md"
rm -f "$OUT"
imp "$tmp/t.md" unstated
[ $rc -eq 0 ] || fail "HTML in cells: exit $rc: $(cat "$tmp/err")"
grep -q "warning: .*t\.md:3: left out of the row's cells: raw HTML <script>; raw HTML </script>" "$tmp/err" ||
  fail "HTML in cells: no warning for line 3: $(cat "$tmp/err")"
grep -q "warning: .*t\.md:4: left out of the row's cells: an image (x.png)" "$tmp/err" ||
  fail "HTML in cells: no warning for line 4: $(cat "$tmp/err")"
grep -q '"en": "Notes printed in the cells: 1 GPU: \\"alert(1)\\"; 2 GPUs: \\"a\\"."' "$OUT" ||
  fail "HTML in cells: note: $(grep '"en"' "$OUT")"

finish "ok"
