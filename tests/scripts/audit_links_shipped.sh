#!/bin/sh
# Issue 24, on the shipped data (reports generated afresh into a folder of
# their own inside the repository, so that check follows links to data/):
# the model and framework pages link each figure's audit verdict.
#   - every row of the audit's figures (sections one and two) carries an
#     anchor <a id="fig-..."></a>, each id once, the same ids in both
#     languages;
#   - each such figure's framework page links its row, and so does its
#     model page wherever the model page shows the figure (its printed
#     figure or its log); the figures a model page does not show are
#     listed;
#   - every verdict link's mark is its row's verdict (✅ ✂️ ❌, ∅ for a
#     figure without a log);
#   - perfrepro-gen check resolves every link, and fails once an anchor a
#     page links to is gone.
. tests/scripts/lib/preamble.sh
need_bins GEN
ls -d data/runs/perf-* >/dev/null 2>&1 && [ -d data/published ] ||
  { echo "audit_links_shipped: no shipped Perf data (skipped)"; exit 77; }
out=$(mktemp -d ./.audit-links-XXXXXX)
cleanup_add "$out"
"$GEN" build --data data --templates templates --out "$out" --no-charts >"$tmp/log" 2>&1 ||
  { cat "$tmp/log"; exit 1; }
"$GEN" check --reports "$out" --root . >"$tmp/log" 2>&1 || fail "check: $(tail -5 "$tmp/log")"

for lang in zh en; do
  if [ $lang = zh ]; then sfx=; else sfx=.en; fi
  audit=$out/AUDIT$sfx.md
  # id TAB verdict mark TAB printed figure TAB log (relative to the output folder)
  grep '^| <a id="fig-' "$audit" | awk -F' [|] ' '
    {
      id = $1; sub(/^[|] <a id="/, "", id); sub(/".*/, "", id)
      mark = "∅"
      if ($0 ~ /[|] ✅ /) mark = "✅"; else if ($0 ~ /[|] ✂️ /) mark = "✂️"; else if ($0 ~ /[|] ❌ /) mark = "❌"
      printed = $0; sub(/†\]\(.*/, "", printed); sub(/.*\[/, "", printed)
      log_ = ""
      if (match($0, /‡\]\([^)]*\)/)) { log_ = substr($0, RSTART + 3, RLENGTH - 4); sub(/^(\.\.\/)+/, "", log_) }
      print id "\t" mark "\t" printed "\t" log_
    }' >"$tmp/rows.$lang"
  n=$(wc -l <"$tmp/rows.$lang")
  [ "$n" -gt 0 ] || fail "$audit: no anchored figure"
  dup=$(cut -f1 "$tmp/rows.$lang" | sort | uniq -d)
  [ -z "$dup" ] || fail "$audit: ids twice: $dup"
  # The figures of the audit's sections one and two, each with its anchor.
  figures=$(awk '/^## (一|二|1\.|2\.)/ { on = 1; next } /^## / { on = 0 } on && /^\| / && !/^\| (---|框架|模型|Framework|Model) / { n++ } END { print n + 0 }' "$audit")
  [ "$figures" -eq "$n" ] || fail "$audit: $figures figures, $n anchored"
  find "$out" -mindepth 2 -maxdepth 2 -name "README$sfx.md" | sort >"$tmp/model_pages"
  find "$out" -mindepth 3 -maxdepth 3 -name "README$sfx.md" | sort >"$tmp/fw_pages"
  : >"$tmp/unshown.$lang"
  while IFS="$(printf '\t')" read -r id mark printed log_; do
    link="AUDIT$sfx.md#$id \""
    fw=$(xargs grep -lF -- "$link" <"$tmp/fw_pages" | head -n 1)
    if [ -z "$fw" ]; then
      fail "$lang: no framework page links $id"
      continue
    fi
    model=$(dirname "$(dirname "$fw")")/README$sfx.md
    if ! grep -qF -- "../$link" "$model"; then
      if grep -qF -- "$printed†" "$model" || { [ -n "$log_" ] && grep -qF -- "$log_" "$model"; }; then
        fail "$lang: ${model#"$out/"} shows $id ($printed†, ${log_:-no log}) without its verdict link"
      else
        echo "$id" >>"$tmp/unshown.$lang"
      fi
    fi
    # Each link to the row carries the row's verdict.
    wrong=$(grep -rhoE -- "\[[^]]*\]\((\.\./)+AUDIT$sfx\.md#$id \"" "$out" | grep -vF -- "[$mark](" | head -n 1)
    [ -z "$wrong" ] || fail "$lang: $id is $mark, linked as $wrong"
  done <"$tmp/rows.$lang"
  if [ -s "$tmp/unshown.$lang" ]; then
    echo "$lang: figures their model page does not show (their framework page links them): $(tr '\n' ' ' <"$tmp/unshown.$lang")"
  fi
done
[ "$(cut -f1,2 "$tmp/rows.zh")" = "$(cut -f1,2 "$tmp/rows.en")" ] ||
  fail "the audit's anchors or verdicts differ between the languages"

# The checker verifies the links: one anchor gone is a missing anchor.
id=$(head -n 1 "$tmp/rows.zh" | cut -f1)
sed -i "s|<a id=\"$id\"></a>||" "$out/AUDIT.md"
"$GEN" check --reports "$out" --root . >"$tmp/log" 2>&1 && fail "check passed with #$id gone"
grep -qF "AUDIT.md produces #$id" "$tmp/log" ||
  fail "check does not name #$id: $(tail -3 "$tmp/log")"

finish "audit links: $(wc -l <"$tmp/rows.zh") figures anchored, each linked from its pages with its verdict"
