#!/bin/sh
# The framework pages a reader finishes (issue 23, item 3; issue 34), on the
# shipped data built into a temporary folder:
#   - every framework page opens with its summary: its first table (the
#     headline per precision) within 80 lines; no prose line of any page over
#     1,000 characters (code blocks, tables and images' alt text aside); each
#     machine's environment and each run set's steps a <details> block;
#   - each ❗ footnote printed once per machine (a later table refers to it);
#   - the rerun path first: section 3 of the NGC PyTorch ResNet50 page
#     reaches the runs' commit fc9c09b0 and their `--amp` command before the
#     plan (99b1c898, -b 128), the plan headed as such;
#   - every framework page (README*.md) and machine page at most 30 KB, its
#     first table within 80 lines: each machine's results, charts and logs
#     are a page of its own beside it (PLATFORM-<machine>.md, fw_split.h),
#     its environment and run set steps another (PLATFORM-<machine>-steps.md),
#     both linked from one-line rows, and every link and anchor still
#     resolves (check);
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
. tests/scripts/lib/preamble.sh
need_bins GEN
[ -d data/published ] || { echo "no shipped data"; exit 77; }

"$GEN" build --data data --templates templates --out "$tmp/reports" >"$tmp/log" 2>&1 ||
  { cat "$tmp/log"; exit 1; }
R="$tmp/reports"
# The links and anchors of the shipped tree (make check): built inside the
# repository, so that links to data/ and docs/ resolve.
chk=$(mktemp -d ./.fw-page-layout-XXXXXX)
cleanup_add "$chk"
"$GEN" build --data data --templates templates --out "$chk" --no-charts >/dev/null 2>&1 &&
  "$GEN" check --reports "$chk" --root . >"$tmp/check" 2>&1 || fail "check: $(tail -5 "$tmp/check")"
# fwpages DIR LANG: a framework's pages in one language, its README first,
# then its machines' pages, as one file.
fwpages() {
  if [ "$2" = en ]; then cat "$1"/README.en.md "$1"/PLATFORM-*.en.md; else
    cat "$1"/README.md $(ls "$1"/PLATFORM-*.md | grep -v '\.en\.md$'); fi >"$tmp/pages.$2"
  echo "$tmp/pages.$2"
}

# Issue 34's page targets, on every shipped page.  Characters, not bytes:
# awk under a UTF-8 locale where one is, else Python counts them.
find "$R" -name '*.md' | sort >"$tmp/all_md"
python3 - "$R" "$tmp/all_md" >"$tmp/targets" <<'PY' || fail "$(cat "$tmp/targets")"
import re
import sys
root, listing = sys.argv[1], sys.argv[2]
bad, over = [], []
for path in open(listing, encoding="utf-8").read().split("\n"):
    if not path:
        continue
    rel = path[len(root) + 1:]
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    fenced = False
    for no, line in enumerate(lines, 1):
        body = line.lstrip(" ")
        if body.startswith("```") or body.startswith("~~~"):
            fenced = not fenced
            continue
        if fenced or body.startswith("|") or body.startswith("!["):
            continue
        # An image's alt text is no prose a reader scrolls past.
        prose = re.sub(r"!\[(?:\\.|[^\]\\])*\]\([^)]*\)", "", line)
        if len(prose) > 1000:
            bad.append(f"{rel}:{no}: a prose line of {len(prose)} characters")
    name = rel.split("/")[-1]
    if rel.count("/") == 2 and (name.startswith("README") or name.startswith("PLATFORM-")):
        # Each footnote printed once per machine: a ❗ note's words not twice
        # in one "### " section (issue 34: the cross-run-set note was 5 times).
        notes = {}
        for no, l in enumerate(lines, 1):
            if l.startswith("### "):
                notes = {}
            if l.startswith("- \u2757"):
                words = l.split(" ", 2)[-1]
                if len(words) > 80 and words in notes:
                    bad.append(f"{rel}:{no}: the footnote of line {notes[words]} again")
                notes.setdefault(words, no)
        # Every framework page and machine page: the first table within
        # 80 lines, at most 30 KB (a machine's steps page has no table).
        first = next((no for no, l in enumerate(lines, 1) if l.startswith("|")), None)
        if first is not None and first > 80:
            bad.append(f"{rel}: the first table at line {first}, after line 80")
        if len(text.encode()) > 30 * 1024:
            over.append(f"{rel} {len(text.encode())}")
            bad.append(f"{rel}: {len(text.encode())} bytes, over 30 KB")
        # Each machine's environment folded, or on the machine's page.
        if name.startswith("README") and "## " in text and "<details><summary>" not in text and "](PLATFORM-" not in text and ("Environment" in text or "环境介绍" in text):
            if "No environment recorded" not in text and "暂无环境记录" not in text:
                bad.append(f"{rel}: no <details> block")
print(f"fw_page_layout: {len(over)} framework and machine pages over 30 KB", file=sys.stderr)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

# The environment NVIDIA's README states beside each table (its system and
# container, per revision) is on the page, not "no environment recorded".
for lg in zh en; do
  p=$(fwpages "$R/ResNet50/NGC-PyTorch" $lg)
  rel="ResNet50/NGC-PyTorch ($lg)"
  grep -E 'Sources whose figures have no environment recorded|没有记录环境信息' "$p" | grep -qF 'NVIDIA DeepLearningExamples' &&
    fail "$rel: NVIDIA's README said to state no environment"
  grep -qF -- '- Image: pytorch-21.03' "$p" || grep -qF -- '- 镜像：pytorch-21.03' "$p" ||
    fail "$rel: no container of NVIDIA's 2021-04-20 README revision"
  # The reference records no README line for these items: the page says so.
  grep -E 'NVIDIA DeepLearningExamples\]\([^)]*\) (随公布数据说明的环境|states it with its published figures)' "$p" |
    grep -qE '参考数据未记录这些条目|the reference records no line' ||
    fail "$rel: NVIDIA's environment items neither linked to lines nor said to have none"
done

# The rerun path first (issue 34): section 3 of the NGC PyTorch ResNet50
# page links the steps of the run sets behind the figures (the V100-SXM2-32GB
# steps page) before anything of the plan, and the plan comes last, headed as
# such; that page's steps reach the runs' commit and the AMP command, with
# every case the run set ran, and nothing of the plan.
for lg in zh en; do
  case $lg in zh) p="$R/ResNet50/NGC-PyTorch/README.md" m="$R/ResNet50/NGC-PyTorch/PLATFORM-v100-sxm2-32gb-x8-steps.md" ;;
    en) p="$R/ResNet50/NGC-PyTorch/README.en.md" m="$R/ResNet50/NGC-PyTorch/PLATFORM-v100-sxm2-32gb-x8-steps.en.md" ;; esac
  rel=${p#"$R/"}
  awk '/^## (三、|3\. )/ { on = 1 } /^## (四、|4\. )/ { on = 0 } on' "$p" >"$tmp/s3"
  at() { grep -nF -m1 -- "$1" "$tmp/s3" | cut -d: -f1; }
  link=$(at "](${m##*/})")
  plan=$(grep -nE -m1 '^### (尚未运行的用例的计划|The plan for the cases not yet run)$' "$tmp/s3" | cut -d: -f1)
  b128=$(at ' -b 128')
  [ -n "$link" ] && [ -n "$plan" ] && [ -n "$b128" ] ||
    { fail "$rel: section 3 lacks the link to the run sets' steps ($link), the plan's heading ($plan) or -b 128 ($b128)"; continue; }
  [ "$link" -lt "$plan" ] && [ "$plan" -lt "$b128" ] ||
    fail "$rel: section 3 runs the plan before the run sets (link $link, plan $plan, -b 128 $b128)"
  awk '/^## (二、|2\. )/ { on = 1 } /^## (三、|3\. )/ { on = 0 } on' "$m" >"$tmp/steps"
  grep -qF 'git checkout fc9c09b08d6d39fb13c79c8a7e08f85b03dbf3d1' "$tmp/steps" || fail "${m#"$R/"}: not the runs' commit"
  grep -qF ' --amp ' "$tmp/steps" || fail "${m#"$R/"}: no --amp command"
  grep -qF -e '99b1c898' -e ' -b 128' "$tmp/steps" && fail "${m#"$R/"}: the plan among the run sets' steps"
  # Every case the run set ran: both precisions at 1 and 8 GPUs.
  for c in resnet50_bs256_fp32_gpu1 resnet50_bs256_amp_gpu1 resnet50_bs256_fp32_gpu8 resnet50_bs256_amp_gpu8; do
    grep -qxF "# $c" "$tmp/steps" || fail "${m#"$R/"}: no command of $c in its steps"
  done
done

# CPU sections after every GPU one: the titles of the CPU platforms.
for f in data/platforms/*.json; do
  grep -q '"kind": *"cpu"' "$f" || continue
  sed -n 's/.*"zh": *"\([^"]*\)".*/\1/p' "$f" | head -n 1
  sed -n 's/.*"en": *"\([^"]*\)".*/\1/p' "$f" | head -n 1
done >"$tmp/cpu_titles"
find "$R" -mindepth 3 \( -name 'README*.md' -o -name 'PLATFORM-*.md' \) | sort >"$tmp/pages"
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
for lg in zh en; do
  p=$(fwpages "$R/ResNet50/NGC-PyTorch" $lg)
  rel="ResNet50/NGC-PyTorch ($lg)"
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

finish "fw_page_layout: ok"
