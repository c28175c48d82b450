#!/bin/sh
# perfrepro-gen import-env on the real PaddlePaddle/Perf READMEs
# (scripts/import-perf-env.sh; ../shared/perf or $PERF, skipped when absent):
#   - the script makes exactly the shipped data/environments/perf-*.json;
#   - a second run changes nothing (bytes and modification times);
#   - every list item and code block of each README's environment sections,
#     found here with awk over the README's lines (headings, their numbers
#     left out, down to the next heading of the same or a higher level; the
#     list item "多机网络部署"), is in the record with its line, and every
#     recorded key is printed on its line;
#   - a malformed environment file stops gen with FILE:LINE:COL.
. tests/scripts/lib/preamble.sh
set -e
PERF="${PERF:-${PERFREPRO_SHARED:-../shared}/perf}"
if [ ! -f "$PERF/SOURCE.md" ]; then
  echo "skip: no PaddlePaddle/Perf snapshot at $PERF"
  exit 77
fi

"$GEN" import-env --help >"$tmp/help" || die "import-env --help: status $?"
grep -q 'import-env --markdown FILE' "$tmp/help" || die "import-env --help prints no usage"
rc=0
"$GEN" import-env --bogus x >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || die "an unknown option: status $rc, not 2"

GEN="$GEN" OUT="$tmp/env" sh scripts/import-perf-env.sh "$PERF" >"$tmp/run1" || die "import-perf-env.sh failed"
# The files that script makes (MLPerf's come from scripts/import-mlperf.sh).
mkdir "$tmp/shipped" && cp data/environments/perf-*.json "$tmp/shipped/"
diff -r "$tmp/env" "$tmp/shipped" >"$tmp/diff" ||
  { cat "$tmp/diff"; die "data/environments differs from what scripts/import-perf-env.sh makes"; }
stamp() { for f in "$tmp"/env/*.json; do stat -c '%n %s %Y %y' "$f"; cksum <"$f"; done; }
stamp >"$tmp/before"
GEN="$GEN" OUT="$tmp/env" sh scripts/import-perf-env.sh "$PERF" >"$tmp/run2" || die "the second run failed"
stamp >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || die "a second import changed files"
n=$(grep -c '(unchanged)$' "$tmp/run2" || true)
[ "$n" -eq "$(wc -l <"$tmp/run2")" ] && [ "$n" -eq 11 ] || { cat "$tmp/run2"; die "expected 11 unchanged imports"; }

# The lines of README $1 that are list items or code fences of its
# environment sections.
expected() {
  awk '
    BEGIN {
      n = split("环境介绍|物理机环境|机器环境|硬件环境|Docker 镜像|软件环境|Environment|多机网络部署", a, "|")
      for (i = 1; i <= n; i++) title[a[i]] = 1
    }
    function indent(s) { match(s, /^ */); return RLENGTH }
    {
      line = $0
      sub(/\r$/, "", line)
      if (fence) { if (line ~ /^ *(```|~~~)/) fence = 0; next }
      isfence = line ~ /^ *(```|~~~)/
      if (line ~ /^#+ /) {
        level = index(line, " ") - 1
        text = substr(line, level + 2)
        sub(/ +#* *$/, "", text)
        bare = text
        sub(/^([0-9]|一|二|三|四|五|六|七|八|九|十)+(\.|、|．|\)|）) */, "", bare)
        if (insec && level <= seclevel) insec = 0
        itemsec = 0
        if (!insec && ((text in title) || (bare in title))) { insec = 1; seclevel = level }
        next
      }
      if (itemsec && line !~ /^ *$/ && indent(line) <= itemind) itemsec = 0
      if (insec || itemsec) {
        if (line ~ /^ *[-*+] +[^ ]/ || isfence) print NR
      } else if (line ~ /^ *[-*+] +[^ ]/) {
        text = line
        sub(/^ *[-*+] +/, "", text)
        sub(/ +$/, "", text)
        if (text in title) { itemsec = 1; itemind = indent(line); print NR }
      }
      if (isfence) fence = 1
    }' "$1" | sort -n
}

# The lines an environment file records: every item's, and each group's
# that is a list item (not a heading) of README $2.  The writer puts group
# keys at 3 blanks, item keys at 5.
recorded() {
  awk -v md="$2" '
    BEGIN { while ((getline l < md) > 0) { n++; heading[n] = l ~ /^#/ } }
    /^   "line": / { v = $2 + 0; if (!heading[v]) print v }
    /^     "line": / { print $2 + 0 }' "$1" | sort -n
}

# "LINE<TAB>KEY" of every item with a key.
keys() {
  awk '
    /^    \{/ { key = "" }
    /^     "key": / { key = $0; sub(/^     "key": "/, "", key); sub(/",$/, "", key) }
    /^     "line": / { if (key != "") print ($2 + 0) "\t" key }' "$1"
}

count=0
for f in "$tmp"/env/perf-*.json; do
  path=$(sed -n 's/^  "path": "\(.*\)",$/\1/p' "$f")
  md="$PERF/$path"
  [ -f "$md" ] || die "$f: no README $md"
  expected "$md" >"$tmp/want"
  recorded "$f" "$md" >"$tmp/got"
  [ -s "$tmp/want" ] || die "$path: awk found no environment section"
  diff "$tmp/want" "$tmp/got" >"$tmp/d" || { cat "$tmp/d"; die "$path: the items recorded are not the lines its sections print (< awk, > record)"; }
  keys "$f" | while IFS="$(printf '\t')" read -r line key; do
    sed -n "${line}p" "$md" | grep -qF -- "$key" || die "$path:$line does not print the key \"$key\""
  done
  count=$((count + 1))
done
[ "$count" -eq 11 ] || die "expected 11 environment files, got $count"

# A malformed environment file stops the load with FILE:LINE:COL.
mkdir -p "$tmp/data/environments"
sed 's/"kind": "os"/"knd": "os"/' data/environments/perf-ResNet50-NGC-PyTorch.json \
  >"$tmp/data/environments/bad.json"
rc=0
"$GEN" validate --data "$tmp/data" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || die "a malformed environment file: status $rc"
grep -Eq 'environments/bad\.json:[0-9]+:[0-9]+: groups\[0\]\.items\[0\]\.knd: unknown key "knd" \(did you mean "kind"\?\)' "$tmp/out" ||
  { cat "$tmp/out"; die "no FILE:LINE:COL for a misspelt key"; }
head -c 200 data/environments/perf-ResNet50-NGC-PyTorch.json >"$tmp/data/environments/bad.json"
rc=0
"$GEN" validate --data "$tmp/data" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -Eq 'bad\.json:[0-9]+:[0-9]+: invalid JSON' "$tmp/out" ||
  { cat "$tmp/out"; die "no FILE:LINE:COL for a truncated file"; }
echo "gen_envimport: ok ($count READMEs)"
