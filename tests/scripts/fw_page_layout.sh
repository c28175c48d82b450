#!/bin/sh
# The framework pages a reader finishes (issue 23, item 3), on the shipped
# data built into a temporary folder:
#   - the NGC PyTorch ResNet50 page (954 lines before) is at most 386 lines,
#     in both languages;
#   - a CPU machine's section comes after every GPU one, on every page;
#   - no float noise anywhere (0.050000000000000003 prints 0.05);
#   - a state is said once per table: "（数据不足）" / "(insufficient data)"
#     never in a cell, at most once under a table;
#   - no TODO cell or column in a summary table: planned cases are a list;
#   - the newest revision of each published source is a row of its
#     platform's published table, the older ones rows of the "published over
#     time" table only (the NVIDIA README's 2021-03-04 revision 097c7ff9 of
#     the ResNet50 NGC PyTorch page, the newest 7bdfc81d);
#   - the parse rules are words, the JSON in a collapsed block.
# That every figure of the data is on its page is the unit test
# fwpage::every_figure_is_on_its_page (tests/unit/gen_fwpage.c).
set -u
GEN="$PWD/${GEN:-bin/perfrepro-gen}"
[ -x "$GEN" ] || { echo "no $GEN (run make first)"; exit 77; }
[ -d data/published ] || { echo "no shipped data"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$GEN" build --data data --templates templates --out "$tmp/reports" >"$tmp/log" 2>&1 ||
  { cat "$tmp/log"; exit 1; }
R="$tmp/reports"

# The length target (half of the 772 lines the issue counted).
for p in "$R/ResNet50/NGC-PyTorch/README.md" "$R/ResNet50/NGC-PyTorch/README.en.md"; do
  n=$(wc -l <"$p")
  [ "$n" -le 386 ] || fail "${p#"$R/"}: $n lines, more than 386"
done

# CPU sections after every GPU one: the titles of the CPU platforms.
for f in data/platforms/*.json; do
  grep -q '"kind": *"cpu"' "$f" || continue
  sed -n 's/.*"zh": *"\([^"]*\)".*/\1/p' "$f" | head -n 1
  sed -n 's/.*"en": *"\([^"]*\)".*/\1/p' "$f" | head -n 1
done >"$tmp/cpu_titles"
find "$R" -mindepth 3 -name 'README*.md' | sort >"$tmp/pages"
while IFS= read -r page; do
  rel=${page#"$R/"}
  # The results' platform sections: "### " headings after the results heading.
  awk '/^## (四、|4\. )/ { on = 1; next } /^## / { on = 0 } on && /^### / { sub(/^### /, ""); print }' \
    "$page" >"$tmp/sections"
  seen_cpu=0
  while IFS= read -r s; do
    if grep -qxF "$s" "$tmp/cpu_titles" 2>/dev/null ||
       { [ -s "$tmp/cpu_titles" ] && printf '%s\n' "$s" | grep -qF -f "$tmp/cpu_titles"; }; then
      seen_cpu=1
    elif [ "$seen_cpu" -eq 1 ]; then
      fail "$rel: GPU section \"$s\" after a CPU one"
    fi
  done <"$tmp/sections"
  # A state said once per table, never in its cells.
  awk -v rel="$rel" '
    /^\|/ { if (!intable) n = 0; intable = 1
            if (index($0, "（数据不足）") || index($0, "(insufficient data)")) print rel ": a cell says insufficient data: " substr($0, 1, 80)
            next }
    { intable = 0 }
    index($0, "（数据不足）") || index($0, "(insufficient data)") {
      if (++n > 1) print rel ": insufficient data said twice under one table" }' "$page" >>"$tmp/states"
  # No TODO cell in a summary table (the first table of a platform section
  # whose head is "GPU 数" / "GPUs").
  awk -v rel="$rel" '
    /^\| (GPU 数|GPUs|进程数|Processes) \|/ { sum = 1; next }
    !/^\|/ { sum = 0 }
    sum && /\| TODO \|/ { print rel ": TODO in a summary table: " substr($0, 1, 80) }' "$page" >>"$tmp/states"
done <"$tmp/pages"
[ -s "$tmp/states" ] && fail "$(cat "$tmp/states")"

# No float noise in any page.
grep -rln '0000000000' "$R" --include='*.md' >"$tmp/noise" && fail "float noise in: $(cat "$tmp/noise")"

# Revisions: the newest in the platform's table, the older in the over-time one.
for p in "$R/ResNet50/NGC-PyTorch/README.md" "$R/ResNet50/NGC-PyTorch/README.en.md"; do
  rel=${p#"$R/"}
  awk -v rel="$rel" '
    /^##+ / { overtime = index($0, "公布数据随时间") || index($0, "Published over time") }
    /^\|/ && index($0, "/blob/097c7ff9") {
      old++; if (!overtime) print rel ": revision 097c7ff9 outside the over-time table" }
    /^\|/ && index($0, "/blob/7bdfc81d") {
      new++; if (overtime) print rel ": the newest revision 7bdfc81d in the over-time table" }
    END { if (!old) print rel ": no over-time row of 097c7ff9"
          if (!new) print rel ": no row of the newest revision 7bdfc81d" }' "$p" >"$tmp/rev"
  [ -s "$tmp/rev" ] && fail "$(cat "$tmp/rev")"
  # The per-cell lists of other sources are gone: the tables carry them.
  grep -qF '同一格的其他来源' "$p" && fail "$rel: a list of a cell's other sources"
  # The rules: words first, the JSON in a collapsed block.
  grep -q '^<details><summary>JSON</summary>$' "$p" || fail "$rel: no collapsed JSON of the rules"
  awk '/^- (解析规则|Parse rule)/ && /\{"/ { bad = 1 } END { exit !bad }' "$p" &&
    fail "$rel: a rule printed as JSON, not words"
done
grep -qF '每次运行取第 10 条记录至末尾的均值' "$R/ResNet50/NGC-PyTorch/README.md" ||
  fail "the iteration rule in words"
grep -qF 'per run the mean of records 10 to the end' "$R/ResNet50/NGC-PyTorch/README.en.md" ||
  fail "the iteration rule in English words"
# Planned cases: one list per platform.
grep -qF '计划中（套件中尚未运行的用例）：FP32 BS=128' "$R/ResNet50/NGC-PyTorch/README.md" ||
  fail "no planned list on the V100-SXM2-32GB section"

[ "$fails" -eq 0 ] && echo "fw_page_layout: ok"
[ "$fails" -eq 0 ]
