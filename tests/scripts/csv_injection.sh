#!/bin/sh
# CSV formula injection (issue 31, item 7): a published label and a run
# folder name that start with = + - @ reach export csv and otava, `history
# --format csv` and reports/figures.csv as text cells quoted with a leading
# ' (OWASP), never as a live formula; numbers perfrepro writes itself, such
# as a negative gap, stay plain numbers.  Parsed with python3's csv module.
# Skips (exit 77) without python3.
. tests/scripts/lib/preamble.sh
need_bins GEN
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }

cp -r data "$tmp/data"
# A hostile label, and a run folder whose name starts with '@'.
sed -i 's/"label": "NVIDIA DeepLearningExamples"/"label": "=HYPERLINK(\\"http:\/\/evil\\",\\"x\\")"/' \
  "$tmp"/data/published/*.json
grep -q '=HYPERLINK' "$tmp/data/published/11-ngc-rn50-readme.json" || { echo "FAIL: fixture"; exit 1; }
rm -f "$tmp"/data/comparisons/ngc-rn50-readme-*.json
run=$(ls "$tmp/data/runs" | grep -m1 perf-ResNet50-NGC-PyTorch-A100)
mv "$tmp/data/runs/$run" "$tmp/data/runs/@$run"
"$GEN" validate --data "$tmp/data" >"$tmp/err" 2>&1 || { echo "FAIL: fixture: $(cat "$tmp/err")"; exit 1; }

"$GEN" export --data "$tmp/data" --format csv --out "$tmp/x.csv" 2>"$tmp/err" || fail "export csv: $(cat "$tmp/err")"
"$GEN" export --data "$tmp/data" --format otava --out "$tmp/x.otava" 2>"$tmp/err" || fail "export otava: $(cat "$tmp/err")"
"$GEN" history --data "$tmp/data" --format csv --out "$tmp/h.csv" 2>"$tmp/err" || fail "history csv: $(cat "$tmp/err")"
"$GEN" build --data "$tmp/data" --out "$tmp/reports" --no-charts >/dev/null 2>"$tmp/err" || fail "build: $(cat "$tmp/err")"

python3 - "$tmp/x.csv" "$tmp/x.otava" "$tmp/h.csv" "$tmp/reports/figures.csv" <<'PY' || fails=$((fails + 1))
import csv, re, sys
bad = []
number = re.compile(r'^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$')
for path in sys.argv[1:]:
    with open(path, newline='', encoding='utf-8') as f:
        rows = list(csv.reader(f, strict=True))
    hostile = 0
    for r in rows:
        for c in r:
            if c[:1] in ('=', '+', '-', '@', '\t', '\r') and not number.match(c):
                bad.append('%s: a live formula %r' % (path, c[:40]))
            if c.startswith("'=HYPERLINK") or c.startswith("'@perf-ResNet50"):
                hostile += 1
    if not hostile:
        bad.append('%s: no neutralised hostile cell (the fixture did not reach it)' % path)
    if path.endswith('x.csv') and not any(re.match(r'^-\d', c) for r in rows for c in r):
        bad.append('%s: no negative number left as a number' % path)
for b in bad[:10]:
    print('FAIL: ' + b)
sys.exit(1 if bad else 0)
PY

finish "csv_injection: ok"
