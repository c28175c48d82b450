#!/bin/sh
# Issue 34: the reports a repository can carry.
#  - every chart is one SVG whose words are <text> (well-formed XML, the
#    family named, no glyph outlines), no PNG copy beside it, median and
#    every bar chart under 40 KB;
#  - the build prints what it wrote and --budget-mb refuses a generation
#    over the budget, leaving the output as it was;
#  - changing one figure in a copy of data/ rewrites only the files that
#    show it (the writer hard-links unchanged files: same inode).
# Needs python3 (xml.etree).
. tests/scripts/lib/preamble.sh
command -v python3 >/dev/null 2>&1 || { echo "skip: no python3"; exit 77; }

cp -R data "$tmp/data"
"$GEN" build --data "$tmp/data" --templates templates --out "$tmp/reports" >"$tmp/log" 2>&1 ||
  { cat "$tmp/log"; die "build"; }
grep -Eq "^$tmp/reports: [0-9]+ files, [0-9.]+ MB \([0-9]+ bytes\), [0-9]+ new or rewritten$" "$tmp/log" ||
  die "the build does not say what it wrote: $(cat "$tmp/log")"

python3 - "$tmp/reports" <<'PY' || die "charts"
import os, sys, statistics, xml.etree.ElementTree as ET
root = sys.argv[1]
NS = '{http://www.w3.org/2000/svg}'
sizes, bad = [], []
for d, _, files in os.walk(root):
    for f in files:
        p = os.path.join(d, f)
        rel = os.path.relpath(p, root)
        if f.endswith('.png') and not f.endswith('.small.png'):
            bad.append(f'{rel}: a PNG copy of a chart')
        if not f.endswith('.svg'):
            continue
        sizes.append(os.path.getsize(p))
        try:
            tree = ET.parse(p)
        except ET.ParseError as e:
            bad.append(f'{rel}: not well-formed XML: {e}')
            continue
        texts = [''.join(t.itertext()) for t in tree.iter(NS + 'text')]
        if not any(s.strip() for s in texts):
            bad.append(f'{rel}: no <text>')
        if list(tree.iter(NS + 'symbol')):
            bad.append(f'{rel}: glyph outlines (<symbol>)')
        groups = [g for g in tree.iter(NS + 'g') if "Noto Sans CJK SC" in g.get('font-family', '')]
        if not groups or 'sans-serif' not in groups[0].get('font-family'):
            bad.append(f'{rel}: the font family and its fallback are not named')
        if f.startswith('compare-') and os.path.getsize(p) >= 40 * 1024:
            bad.append(f'{rel}: bar chart of {os.path.getsize(p)} bytes')
if not sizes:
    bad.append('no SVG at all')
elif statistics.median(sizes) > 40 * 1024:
    bad.append(f'median SVG {statistics.median(sizes)} bytes')
for b in bad[:20]:
    print(b)
sys.exit(1 if bad else 0)
PY

# The page embeds the SVG and links no PNG copy of it.
# (its scaling charts are on its machines' pages, PLATFORM-*.md, fw_split.h)
page="$tmp/reports/ResNet50/PyTorch/PLATFORM-v100-sxm2-16gb-x8.en.md"
grep -q '](scaling-[^)]*\.en\.svg)' "$page" || die "$page does not show its scaling chart"
grep -q '](scaling-[^)]*\.png)' "$page" && die "$page links a PNG copy"

# Over the budget: refused, named, the output untouched.
find "$tmp/reports" -type f -exec ls -i {} + | sort >"$tmp/before"
if "$GEN" build --data "$tmp/data" --templates templates --out "$tmp/reports" --budget-mb 0.5 \
     >"$tmp/log" 2>"$tmp/err"; then
  die "a build over --budget-mb 0.5 succeeded"
fi
grep -q "over the budget of 500000 bytes" "$tmp/err" || die "no budget message: $(cat "$tmp/err")"
find "$tmp/reports" -type f -exec ls -i {} + | sort >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || die "a refused build changed the output"
"$GEN" build --data "$tmp/data" --out "$tmp/reports" --budget-mb abc >/dev/null 2>&1 &&
  die "--budget-mb abc accepted"
"$GEN" build --data "$tmp/data" --templates templates --out "$tmp/reports" --budget-mb 10 \
  >"$tmp/log" 2>&1 || die "the shipped data is over 10 MB: $(cat "$tmp/log")"
grep -q ", 0 new or rewritten; budget 10.00 MB$" "$tmp/log" ||
  die "an unchanged rebuild rewrote files: $(cat "$tmp/log")"

# One figure changes (DLPerf's NGC PyTorch ResNet50 FP32 at 8 GPUs):
# only the files that show it are rewritten.
cp -R "$tmp/reports" "$tmp/old"
find "$tmp/reports" -type f -exec ls -i {} + | sort -k2 >"$tmp/before"
sed -i 's/"throughput": 1070.37,/"throughput": 1071.37,/' "$tmp/data/published/10-dlperf.json"
grep -q 1071.37 "$tmp/data/published/10-dlperf.json" || die "the figure to change is not in the data"
"$GEN" build --data "$tmp/data" --templates templates --out "$tmp/reports" >"$tmp/log" 2>&1 ||
  die "build after the change: $(cat "$tmp/log")"
find "$tmp/reports" -type f -exec ls -i {} + | sort -k2 >"$tmp/after"
# files with a new inode: written by this build
join -1 2 -2 2 "$tmp/before" "$tmp/after" | awk '$2 != $3 {print $1}' | sed "s|^$tmp/reports/||" |
  sort >"$tmp/rewritten"
# files whose bytes differ
(cd "$tmp/reports" && find . -type f | sed 's|^\./||' | while read -r f; do
   cmp -s "$f" "$tmp/old/$f" || echo "$f"; done) | sort >"$tmp/differ"
cmp -s "$tmp/rewritten" "$tmp/differ" ||
  die "rewritten files are not the changed ones: $(diff "$tmp/rewritten" "$tmp/differ")"
n=$(wc -l <"$tmp/rewritten")
[ "$n" -gt 0 ] || die "nothing was rewritten"
grep -qE "ResNet50/PyTorch/(README|PLATFORM-[a-z0-9-]+)\.md" "$tmp/rewritten" ||
  die "the page that shows the figure was not rewritten"
grep -q "figures.csv" "$tmp/rewritten" || die "figures.csv was not rewritten"
# every rewritten file shows the figure: a ResNet50 page or chart, or the figures table
while read -r f; do
  case "$f" in
    ResNet50/*|figures.csv) ;;
    *) die "$f rewritten though it does not show the figure (all: $(tr '\n' ' ' <"$tmp/rewritten"))" ;;
  esac
done <"$tmp/rewritten"
grep -q ", $n new or rewritten$" "$tmp/log" || die "the build's count is not $n: $(cat "$tmp/log")"
echo "ok: $n files rewritten after one figure changed: $(tr '\n' ' ' <"$tmp/rewritten")"
exit 0
