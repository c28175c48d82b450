#!/bin/sh
# `perfrepro-gen export` of the shipped data/ in every format: twice the same
# bytes; the CSV parses (python3's csv module) with one row per figure the
# reports show, counted here independently from data/: one per reproduced
# cell (records grouped by model, framework, platform, precision, batch size,
# nodes, GPUs and run folder) and one per row of a published table; --bom
# starts with EF BB BF; every jsonl line is a JSON object with the CSV's
# columns; the Bencher JSON has one benchmark per reproduced figure; the
# Otava CSV has its documented header; --out to a place that cannot be
# written fails with a message and leaves nothing.  And the site writes a
# CSV beside every table of a page.
# Skips (exit 77) without python3.
. tests/scripts/lib/preamble.sh
need_bins GEN
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }

for f in csv jsonl bencher otava; do
  "$GEN" export --format "$f" >"$tmp/a.$f" 2>"$tmp/err" || fail "export --format $f: $(cat "$tmp/err")"
  "$GEN" export --data data --format "$f" --out "$tmp/b.$f" 2>"$tmp/err" ||
    fail "export --format $f --out: $(cat "$tmp/err")"
  cmp -s "$tmp/a.$f" "$tmp/b.$f" || fail "$f: two exports differ (stdout and --out)"
  [ -s "$tmp/a.$f" ] || fail "$f: empty"
done

# The CSV against an independent count of the figures in data/.
python3 - "$tmp/a.csv" "$tmp/a.jsonl" "$tmp/a.bencher" "$tmp/a.otava" data <<'PY' || fails=$((fails + 1))
import csv, glob, json, os, sys
csv_path, jsonl_path, bencher_path, otava_path, data = sys.argv[1:6]
bad = []
with open(csv_path, newline='', encoding='utf-8') as f:
    rows = list(csv.reader(f, strict=True))
header, body = rows[0], rows[1:]
if any(len(r) != len(header) for r in body):
    bad.append('a CSV record with another number of fields than the header')
recs = [dict(zip(header, r)) for r in body]

# Reproduced cells: records grouped by what was run and the run folder.  A
# run folder declared an experiment (runset.json) stays out of the model
# and of the pages, so out of the count too.
def experiment(run_dir):
    p = os.path.join(run_dir, 'runset.json')
    if not os.path.exists(p):
        return False
    d = json.load(open(p, encoding='utf-8'))
    return d.get('experiment') is True
cells = set()
for f in glob.glob(os.path.join(data, 'runs', '*', 'logs', 'index', '*')):
    run_dir = os.path.dirname(os.path.dirname(os.path.dirname(f)))
    if experiment(run_dir):
        continue
    r = json.load(open(f, encoding='utf-8'))
    cells.add((r['model'], r['framework'], r.get('platform'), r['precision'],
               r.get('batch_size', 0), r['nodes'], r['nodes'] * r['gpus_per_node'],
               os.path.basename(run_dir)))
# Published figures: every row of every published table.
pub = 0
for f in glob.glob(os.path.join(data, 'published', '*.json')):
    for t in json.load(open(f, encoding='utf-8'))['tables']:
        pub += len(t['rows'])
repro = [r for r in recs if r['run_set']]
published = [r for r in recs if not r['run_set']]
# Equal on the shipped data.  Where they would differ: a cell holding
# records of two run folders is one row (the newest run set's, rmodel.h)
# but two groups here; a published table whose rows are all TODO, or that pairs with
# no configuration of its framework, is on no page, so in no row.
if len(repro) != len(cells):
    bad.append('%d reproduced rows, %d cells in data/' % (len(repro), len(cells)))
if len(published) != pub:
    bad.append('%d published rows, %d published figures in data/' % (len(published), pub))
if len(recs) != len(cells) + pub:
    bad.append('%d rows, %d figures' % (len(recs), len(cells) + pub))
states = {r['state'] for r in repro}
if not states <= {'measured', 'imported', 'failed'}:
    bad.append('reproduced states %s' % sorted(states))
for r in recs:
    if r['value']:
        float(r['value'])
    if r['state'] == 'failed' and (r['value'] or not r['reason']):
        bad.append('a failed row with a value or without its reason')
    if r['log'] and not os.path.isfile(r['log']):
        bad.append('log %s is no file' % r['log'])
    if r['rule']:
        json.loads(r['rule'])
# Issue 30, finding 6: a reproduced row's published figure is its own
# source's (the Perf logs' figures, never NVIDIA's DGX ones), named in
# published_source with the audit's verdict; the cross-run-set speedup
# baseline is a flag; numbers are the shortest text that reads back.
def row(platform, prec, gpus):
    m = [r for r in repro if r['model'] == 'ResNet50' and r['framework'] == 'NGC-PyTorch'
         and r['platform'] == platform and r['precision'] == prec and r['gpus'] == str(gpus)]
    return m[0] if m else {}
want = {('V100-SXM2-32GB-x8', 'amp', 1): '790.033', ('V100-SXM2-32GB-x8', 'amp', 8): '5889.05',
        ('A100-SXM4-40GB-x8', 'amp', 1): '1449.65', ('A100-SXM4-40GB-x8', 'amp', 8): '10744.6',
        ('V100-SXM2-32GB-x8', 'amp', 32): '21259.81', ('V100-SXM2-32GB-x8', 'fp32', 32): '10523.32'}
for k, fig in want.items():
    r = row(*k)
    if r.get('published') != fig:
        bad.append('%s: published %r, its own source printed %s' % (k, r.get('published'), fig))
    elif not r['published_source'].startswith('PaddlePaddle/Perf/ResNet50V1.5/') or not r['audit_verdict']:
        bad.append('%s: published_source %r, audit_verdict %r' % (k, r['published_source'], r['audit_verdict']))
for k in (('V100-SXM2-32GB-x8', 'amp', 32), ('V100-SXM2-32GB-x8', 'fp32', 32)):
    if 'cross_run_set' not in row(*k).get('flags', '').split(';'):
        bad.append('%s: no cross_run_set flag' % (k,))
for r in repro:
    if r['published'] and not r['state'] == 'imported':
        bad.append('a measured row with a published figure of another source')
    if bool(r['published']) != bool(r['published_source']):
        bad.append('published without published_source (or the other way)')
import re
def sig(t):
    # the significant digits of a number's text, whatever its notation
    return re.sub(r'e.*$', '', t.lower()).replace('-', '').replace('.', '').strip('0')
num = re.compile(r'^-?\d+(\.\d+)?(e[-+]\d+)?$')
for r in recs:
    for k, v in r.items():
        if num.match(v) and k not in ('printed', 'published', 'date') and float(v) != int(float(v)) \
                and sig(repr(float(v))) != sig(v):
            bad.append('%s=%s is not the shortest form (%s)' % (k, v, repr(float(v))))
    if r['rule'] and re.search(r'\d\.\d{16}', r['rule']):
        bad.append('rule with float noise: %s' % r['rule'])
# jsonl: a JSON object per line, the CSV's columns as its keys, in order.
lines = open(jsonl_path, encoding='utf-8').read().split('\n')
if lines[-1] != '':
    bad.append('jsonl does not end with a newline')
objs = [json.loads(l) for l in lines[:-1]]
if len(objs) != len(recs):
    bad.append('%d jsonl lines, %d CSV rows' % (len(objs), len(recs)))
def shortest_json(text):
    # every number token as Python's repr (the shortest that reads back)
    for t in re.findall(r'(?<=[:\[,])-?\d+\.\d+(?:e[-+]?\d+)?(?=[,}\]])', text):
        if sig(repr(float(t))) != sig(t):
            return t
for l in lines[:-1]:
    t = shortest_json(l)
    if t:
        bad.append('jsonl number %s is not its shortest form' % t)
        break
if any(list(o) != header for o in objs):
    bad.append('a jsonl object whose keys are not the CSV columns')
# Bencher: one benchmark per reproduced figure, one measure with a value:
# Bencher's "throughput" for a rate, "time-<unit>" for a time (the MLPerf
# times to train in minutes: time-min), never a time as a throughput.
doc = json.load(open(bencher_path, encoding='utf-8'))
nfig = sum(1 for r in repro if r['value'])
if len(doc) != nfig or any(len(m) != 1 or 'value' not in list(m.values())[0] for m in doc.values()):
    bad.append('bencher: %d benchmarks, %d reproduced figures' % (len(doc), nfig))
want_measures = {}
for r in repro:
    if r['value']:
        m = 'throughput' if r['direction'] == 'higher' else (
            ('time-' if r['direction'] == 'lower' else 'value-') + re.sub(r'[^a-z0-9]+', '-', r['unit'].lower()).strip('-'))
        want_measures[m] = want_measures.get(m, 0) + 1
got_measures = {}
for m in doc.values():
    got_measures[list(m)[0]] = got_measures.get(list(m)[0], 0) + 1
if got_measures != want_measures:
    bad.append('bencher measures %s, the rows\' directions and units say %s' % (got_measures, want_measures))
if 'time-min' not in got_measures:
    bad.append('bencher: no MLPerf time to train as time-min')
# Every row says what its value counts.
if any(not r['unit'] for r in recs):
    bad.append('a row without its unit')
# Otava: the documented header, times in order.
with open(otava_path, newline='', encoding='utf-8') as f:
    ot = list(csv.reader(f))
want = ['time', 'model', 'framework', 'platform', 'precision', 'batch_size', 'nodes', 'gpus',
        'run_set', 'source', 'direction', 'unit', 'throughput']
if ot[0] != want:
    bad.append('otava header %s' % ot[0])
if sorted(set((r[10], r[11]) for r in ot[1:])) != [('higher', 'images/s'), ('higher', 'samples/s'), ('higher', 'sequences/s'), ('higher', 'tokens/s'), ('lower', 'min')]:
    bad.append('otava directions and units %s' % sorted(set((r[10], r[11]) for r in ot[1:])))
if [r[0] for r in ot[1:]] != sorted(r[0] for r in ot[1:]):
    bad.append('otava rows not oldest first')
for b in bad:
    print('FAIL: ' + b)
print('export: %d rows (%d reproduced cells, %d published figures)' % (len(recs), len(repro), len(published)))
sys.exit(1 if bad else 0)
PY

# --bom: EF BB BF, then the same CSV; not for JSON.
"$GEN" export --format csv --bom >"$tmp/bom.csv" || fail "--bom"
[ "$(head -c 3 "$tmp/bom.csv" | od -An -tx1 | tr -d ' ')" = efbbbf ] || fail "--bom: no EF BB BF"
tail -c +4 "$tmp/bom.csv" | cmp -s - "$tmp/a.csv" || fail "--bom: not the CSV after the mark"
"$GEN" export --format jsonl --bom >/dev/null 2>"$tmp/err" && fail "--bom with jsonl accepted"
"$GEN" export >/dev/null 2>&1 && fail "export without --format accepted"

# --out to a place that cannot be written: a message, nothing left.
mkdir "$tmp/ro"
chmod a-w "$tmp/ro"
if [ ! -w "$tmp/ro" ]; then # (root writes anyway)
  "$GEN" export --format csv --out "$tmp/ro/f.csv" 2>"$tmp/err" && fail "--out into a read-only folder succeeded"
  [ -s "$tmp/err" ] || fail "--out into a read-only folder: no message"
  [ -z "$(ls -A "$tmp/ro")" ] || fail "--out left $(ls -A "$tmp/ro")"
fi
printf 'x' >"$tmp/file"
"$GEN" export --format csv --out "$tmp/file/f.csv" 2>"$tmp/err" && fail "--out under a file succeeded"
[ -s "$tmp/err" ] || fail "--out under a file: no message"
[ "$(cat "$tmp/file")" = x ] || fail "--out under a file changed it"

# --out that is not a regular file (issue 31, item 8): a FIFO and a link to
# one are written into, never renamed over; a link to a regular file stays a
# link; a folder (or a link to one) is refused.  Each of export, history and
# compare.  (Never a real /dev node: everything is in $tmp.)
mkfifo "$tmp/fifo" && ln -s fifo "$tmp/fifolink" && ln -s file "$tmp/filelink" &&
  ln -s . "$tmp/dirlink" || fail "mkfifo"
for cmd in "export --format csv" "history --format csv" "compare --declared ngc-rn50-readme-2019-2021 --format csv"; do
  for target in fifo fifolink; do
    rm -f "$tmp/got"
    timeout 60 cat "$tmp/fifo" >"$tmp/got" &
    reader=$!
    # shellcheck disable=SC2086
    timeout 60 "$GEN" $cmd --out "$tmp/$target" 2>"$tmp/err" || fail "$cmd --out $target: $(cat "$tmp/err")"
    wait "$reader"
    [ -p "$tmp/fifo" ] || fail "$cmd --out $target: the FIFO was replaced"
    [ -L "$tmp/fifolink" ] || fail "$cmd --out $target: the link was replaced"
    [ -s "$tmp/got" ] || fail "$cmd --out $target: nothing came through the FIFO"
    # shellcheck disable=SC2086
    "$GEN" $cmd >"$tmp/want" 2>/dev/null
    cmp -s "$tmp/got" "$tmp/want" || fail "$cmd --out $target: not what stdout gets"
  done
  # shellcheck disable=SC2086
  "$GEN" $cmd --out "$tmp/filelink" 2>"$tmp/err" || fail "$cmd --out filelink: $(cat "$tmp/err")"
  [ -L "$tmp/filelink" ] || fail "$cmd --out filelink: the link was replaced"
  cmp -s "$tmp/file" "$tmp/want" || fail "$cmd --out filelink: its target does not hold the output"
  # shellcheck disable=SC2086
  "$GEN" $cmd --out "$tmp/dirlink" 2>"$tmp/err" && fail "$cmd --out a folder succeeded"
  grep -q "directory" "$tmp/err" || fail "$cmd --out a folder: $(cat "$tmp/err")"
  [ -L "$tmp/dirlink" ] || fail "$cmd --out dirlink: the link was replaced"
done

# The site: a CSV beside every table of a page.
"$GEN" site --reports reports --out "$tmp/site" >/dev/null 2>"$tmp/err" || fail "site: $(cat "$tmp/err")"
for p in ResNet50/NGC-PyTorch/index ResNet50/index.en index; do
  html="$tmp/site/$p.html"
  [ -f "$html" ] || { fail "site: no $p.html"; continue; }
  ntab=$(grep -c '<table' "$html")
  ncsv=$(ls "$tmp/site/$p".table-*.csv 2>/dev/null | wc -l)
  [ "$ntab" -eq "$ncsv" ] || fail "site: $p.html has $ntab tables, $ncsv CSV files"
  nlink=$(grep -c "<p><a href=\"$(basename "$p").table-[0-9]*.csv\">CSV</a></p>" "$html")
  [ "$nlink" -eq "$ntab" ] || fail "site: $p.html links $nlink of its $ntab tables' CSV"
done

finish "export: ok"
