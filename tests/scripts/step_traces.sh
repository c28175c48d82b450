#!/bin/sh
# Step traces (docs/statistics.md#step-traces) on the shipped data:
#   - every parsed record under data/runs has a step_trace with runs;
#   - its framework page (both languages) shows the small trace linked to
#     the full one, both files written (PNG and SVG), alt text in the page's
#     language;
#   - Paddle ResNet50 A100 FP32 8 GPUs: the trace marks the stalls Perf's
#     log shows every ~29 steps (lines 225, 256, 287, 320; 419-480 images/s
#     per card; line 257's 494 is above the stall line);
#   - the measured CPU run (made before traces) says it has none;
#   - with ../shared/perf: the shipped Paddle trace is what parsing its log
#     with the import's rule writes today (the data is not stale).
. tests/scripts/lib/preamble.sh
need_bins GEN MEASURE
command -v python3 >/dev/null 2>&1 || { echo "python3 is not installed"; exit 77; }
[ -d data/runs/perf-ResNet50-Paddle-A100-SXM4-40GB-x8 ] || { echo "no shipped Perf runs"; exit 77; }
"$GEN" build --data data --templates templates --out "$tmp/r" >"$tmp/build.log" 2>&1 ||
  { cat "$tmp/build.log"; echo "step_traces: gen build failed"; exit 1; }
python3 - "$tmp/r" <<'PY' || exit 1
import glob, json, os, re, sys
out = sys.argv[1]
bad = []
def page_text(p):
    # A framework page and its machines' pages (PLATFORM-*.md, fw_split.h).
    en = p.endswith('.en.md')
    sib = sorted(q for q in glob.glob(os.path.join(os.path.dirname(p), 'PLATFORM-*.md'))
                 if q.endswith('.en.md') == en)
    return ''.join(open(q).read() for q in [p] + sib)
def slug(s):
    return re.sub(r'[^a-z0-9.]', '-', s.lower())
def page_text(p):
    d, en = os.path.dirname(p), p.endswith('.en.md')
    more = sorted(f for f in glob.glob(os.path.join(d, 'PLATFORM-*.md')) if f.endswith('.en.md') == en)
    return ''.join(open(f).read() for f in [p] + more)
n = 0
for f in sorted(glob.glob('data/runs/*/logs/index/*')):
    rec = json.load(open(f))
    run = f.split('/')[2]
    # The framework's pages: its README and its machines' pages (fw_split.h),
    # read as one text per language.
    fwdir = os.path.join(out, rec['model'], rec['framework'])
    pages = [os.path.join(fwdir, p) for p in ('README.md', 'README.en.md')]
    if rec.get('origin') != 'parsed':
        if 'step_trace' not in rec:
            for p in pages:
                text = page_text(p)
                if rec.get("JOB_FAIL_FLAG") != 1 and "(no step trace recorded)" not in text and "（未记录逐步数据）" not in text:
                    bad.append(f'{p}: no word that {f} has no trace')
        continue
    n += 1
    st = rec.get('step_trace')
    if not st or not st.get('runs'):
        bad.append(f'{f}: no step_trace with runs')
        continue
    base = slug(run) + '.' + slug(re.sub(r'_speed$', '', os.path.basename(f)))
    link = f'traces/{base}.small.png)](traces/{base}.svg)'
    # One record (a summary line, an MLPerf run's time to train) is a
    # figure, not a series: the page says so and draws nothing.
    if sum(len(r.get('status', '')) for r in st['runs']) < 2:
        for p in pages:
            text = page_text(p)
            word = '(one record: no step trace to draw)' if p.endswith('.en.md') else '（仅一条记录：没有逐步曲线可画）'
            if word not in text:
                bad.append(f'{p}: no word that {f} holds one record')
            if link in text:
                bad.append(f'{p}: a one-record trace of {f} is drawn')
        continue
    for p in pages:
        text = page_text(p)
        if link not in text:
            bad.append(f'{p}: no trace of {f} ({link})')
        en = p.endswith('.en.md')
        alt = 'Step trace of the log' if en else '日志的逐步记录'
        if alt not in text:
            bad.append(f'{p}: no alt text in its language')
    d = os.path.join(out, rec['model'], rec['framework'], 'traces')
    png, svg = os.path.join(d, base + '.small.png'), os.path.join(d, base + '.svg')
    if not os.path.isfile(png) or open(png, 'rb').read(8) != b'\x89PNG\r\n\x1a\n':
        bad.append(f'{png}: missing or not a PNG')
    if not os.path.isfile(svg) or b'<svg' not in open(svg, 'rb').read(400):
        bad.append(f'{svg}: missing or not an SVG')
if n < 100:
    bad.append(f'only {n} parsed records (the shipped data has 100)')
p = os.path.join(out, 'ResNet50', 'Paddle', 'README.en.md')
line = [l for l in page_text(p).splitlines(True) if 'resnet50-bs256-fp32-gpu8.small.png' in l and 'a100' in l]
if len(line) != 1:
    bad.append(f'{p}: the A100 FP32 8-GPU trace is not there once')
else:
    l = line[0]
    for want in ('Steps 1–10: skipped as warm-up', 'Steps 11–120: averaged',
                 '5 at the low end', 'Stalls (red rings', ': 4, at step 30 (line 225)',
                 'step 59 (line 256)', 'step 88 (line 287)', 'step 117 (line 320)',
                 '(419.132 to 479.619 per card)', 'the figure, 4412.457234'):
        if want not in l:
            bad.append(f'{p}: the Paddle A100 FP32 8-GPU trace does not say "{want}"')
    if 'line 257' in l:
        bad.append(f'{p}: line 257 (494 per card, above the stall line) called a stall')
for b in bad:
    print('step_traces:', b)
sys.exit(1 if bad else 0)
PY
perf="${PERFREPRO_SHARED:-../shared}/perf"
log=ResNet50V1.5/logs/A100-LOG/PaddleClas_ResNet50_bs256_fp32_DP_N1C8_log
if [ -f "$perf/$log" ]; then
  rec=data/runs/perf-ResNet50-Paddle-A100-SXM4-40GB-x8/logs/index/resnet50_bs256_fp32_gpu8_speed
  "$MEASURE" parse --rule "@scripts/perf-logs/rules/paddle-ips-skip10-trim.json" --gpus 8 \
    --batch-size 256 --unit images/s "$perf/$log" >"$tmp/now.json" 2>"$tmp/err" ||
    { cat "$tmp/err"; echo "step_traces: parse failed"; exit 1; }
  python3 - "$rec" "$tmp/now.json" <<'PY' || exit 1
import json, sys
a = json.load(open(sys.argv[1]))['step_trace']
b = json.load(open(sys.argv[2]))['step_trace']
if a != b:
    print('step_traces: the shipped Paddle A100 FP32 8-GPU step_trace is not what parsing its log writes now (re-run scripts/import-perf-logs.sh)')
    sys.exit(1)
PY
else
  echo "step_traces: $perf absent: the re-parse comparison is skipped"
fi
echo "step traces: every parsed record has its trace on its page"
