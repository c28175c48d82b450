#!/bin/sh
# Site benchmark: `perfrepro-gen site` against Hugo on the same Markdown.
#
# Generates N (default 1000) Markdown pages shaped like a generated framework
# report (headings, a table of contents of #anchor links, an environment
# list, 3 tables of 6-10 rows, a command block, a list of log links) into a
# temporary folder, then times, in the same run:
#   perfrepro-gen site   reports/ -> HTML (fresh output folder each run)
#   hugo                 the same pages as content/ (goldmark, safe mode:
#                        markup.goldmark.renderer.unsafe = false; a minimal
#                        layouts/_default/single.html with {{ .Content }})
# and prints ms/page for both and the ratio, with the runs timed.  Each page links to 3 log files:
# the site copies them in, Hugo gets the same files as static/ and copies them
# too, so both write the same number of files.
#
#   sh bench/site_bench.sh [N]         GEN=path/to/perfrepro-gen  RUNS=10
#   TMPDIR=/dev/shm sh bench/site_bench.sh   (in memory: no disk noise)
#   SITE_BENCH_JSON=FILE                     also writes the figures to FILE:
#     {"pages": P, "n": N, "perfrepro": {"median", "min", "max", "runs"},
#      "hugo": {...}} in ms/page, runs as counted from the times taken
#     (bench/run.py reads it: no run count is typed twice)
#
# Uses hyperfine when installed (apt-get install -y hyperfine), else a loop
# timed with date +%s.%N.  Needs hugo (apt-get install -y --no-install-recommends
# hugo) and python3 (to write the pages).  Timings are not tests: nothing
# here fails on a slow machine.
set -eu
N="${1:-1000}"
RUNS="${RUNS:-10}"
GEN="${GEN:-bin/perfrepro-gen}"
case "$GEN" in /*) ;; *) GEN="$PWD/$GEN" ;; esac
[ -x "$GEN" ] || { echo "site_bench: no $GEN (make bin/perfrepro-gen)" >&2; exit 1; }
command -v hugo >/dev/null 2>&1 || {
  echo "site_bench: hugo is not installed (apt-get install -y --no-install-recommends hugo)" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "site_bench: python3 is needed to write the pages" >&2; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

python3 - "$t" "$N" <<'EOF'
import os, random, sys
root, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(42)
def w(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
configs = ['FP32 BS=32', 'FP32 BS=64', 'FP32 BS=128', 'AMP BS=256', 'FP16 BS=196', 'TF32 BS=256']
gpus = ['1机1卡', '1机2卡', '1机4卡', '1机8卡', '2机16卡', '4机32卡', '8机64卡', '16机128卡', '32机256卡', '64机512卡']
for i in range(n):
    model, fw = 'Model%04d' % i, 'Framework'
    run = 'run%04d' % i
    for c in range(3):
        # perfrepro copies the logs the pages link to; Hugo gets them as static files
        w(f'{root}/repo/data/runs/{run}/logs/train_log/case_{c}', 'step 1 loss 2.0\n' * 20)
        w(f'{root}/hugo/static/data/runs/{run}/logs/train_log/case_{c}', 'step 1 loss 2.0\n' * 20)
    cfg = rnd.sample(configs, 3)
    L = []
    L.append('<!-- 本文件由 perfrepro-gen 根据 data/ 生成，请勿手工修改。 -->')
    L.append(f'# {fw} {model} 性能复现报告\n')
    L.append(f'本报告由 perfrepro 根据测量记录与公布数据生成（数据日期：2021-04-20）。\n')
    L.append('## 目录\n')
    toc = ['一、环境介绍', '二、环境搭建', '三、测试步骤', '四、测试结果', '五、日志数据', '六、说明']
    for h in toc:
        L.append(f'- [{h}](#{h.replace("、", "")})')
        if h == '四、测试结果':
            for c in cfg:
                L.append(f'  - [{c}](#{c.lower().replace(" ", "-").replace("=", "")})')
    L.append('')
    L.append('## 一、环境介绍\n')
    for k, v in [('GPU', 'Tesla V100-SXM2-16GB × 8'), ('系统', 'Ubuntu 18.04'), ('Driver Version', '460.32.03'),
                 ('CUDA', '11.2'), ('cuDNN', '8.1.0'), ('NCCL', '2.8.4'), ('框架版本', 'PyTorch 1.8.0')]:
        L.append(f'- {k}：{v}')
    L.append('\n## 二、环境搭建\n')
    L.append(f'镜像：`nvcr.io/nvidia/pytorch:21.03-py3`；代码：[NVIDIA/DeepLearningExamples](https://github.com/NVIDIA/DeepLearningExamples/tree/{i:040x})。\n')
    L.append('## 三、测试步骤\n')
    L.append('```sh\nbin/perfrepro-measure run data/suites/%s/%s.json --out data/runs/%s\n```\n' % (model, fw, run))
    L.append('## 四、测试结果\n')
    for c in cfg:
        L.append(f'### {c}\n')
        L.append('| 节点数 | GPU 数 | 吞吐 (images/s) | 范围 | 加速比 | 扩展效率 | 公布数据 |')
        L.append('| ---: | ---: | ---: | --- | ---: | ---: | ---: |')
        base = rnd.uniform(300, 1200)
        for r in range(rnd.randint(6, 10)):
            g = 2 ** r
            v = base * g * rnd.uniform(0.8, 0.98)
            L.append(f'| {max(1, g // 8)} | {g} | {v:.2f} | {v*0.99:.2f} – {v*1.01:.2f} | {v/base:.2f} | {100*v/base/g:.1f}% | {v*1.02:.2f}† |')
        L.append('')
    L.append('## 五、日志数据\n')
    for c in range(3):
        L.append(f'- [{gpus[c]} 日志](../../../data/runs/{run}/logs/train_log/case_{c})')
    L.append('\n## 六、说明\n')
    L.append('- 取整规则：吞吐保留两位小数，加速比保留两位小数，百分比保留一位小数。')
    L.append('- † 公布数据：不是 perfrepro 的测量值。')
    md = '\n'.join(L) + '\n'
    w(f'{root}/repo/reports/{model}/{fw}/README.md', md)
    # The same page for Hugo (front matter for the title; links are not resolved by Hugo).
    w(f'{root}/hugo/content/{model.lower()}.md', f'---\ntitle: "{fw} {model}"\n---\n' + md)
w(f'{root}/repo/reports/README.md', '# 索引\n\n' + ''.join(f'- [Model{i:04d}](Model{i:04d}/Framework/README.md)\n' for i in range(n)))
w(f'{root}/hugo/hugo.toml', '''baseURL = "http://example.org/"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
[markup.goldmark.renderer]
  unsafe = false
[markup.goldmark.parser]
  autoHeadingID = true
  autoHeadingIDType = "github"
''')
w(f'{root}/hugo/layouts/_default/single.html',
  '<!DOCTYPE html>\n<html lang="zh-CN">\n<head><meta charset="utf-8"><title>{{ .Title }}</title></head>\n'
  '<body><main>{{ .Content }}</main></body>\n</html>\n')
w(f'{root}/hugo/layouts/_default/list.html', '<!DOCTYPE html><html><body>{{ .Content }}</body></html>\n')
w(f'{root}/templates/site/style.css', 'body { font-family: sans-serif; }\n')
EOF
pages=$((N + 1)) # the index besides the N framework pages
bytes=$(find "$t/repo/reports" -name '*.md' -exec cat {} + | wc -c)
echo "site_bench: $N framework pages ($((bytes / 1024)) KiB of Markdown, $((bytes / N)) bytes/page), $RUNS runs each"
echo "  perfrepro-gen: $GEN"
echo "  hugo: $(hugo version | cut -d' ' -f1-2)"

P_CMD="'$GEN' site --reports '$t/repo/reports' --out '$t/out-pr' --templates '$t/templates'"
H_CMD="hugo --quiet -s '$t/hugo' -d '$t/out-hugo'"
# one run each first: both must work, and the outputs are shown
sh -c "$P_CMD"
sh -c "$H_CMD"
echo "  perfrepro pages: $(find "$t/out-pr" -name 'index*.html' | wc -l), hugo pages: $(find "$t/out-hugo" -name index.html | wc -l)"

# Both ways of timing leave $t/times.json as hyperfine exports it: per
# command its name and the time of every run.
if command -v hyperfine >/dev/null 2>&1; then
  hyperfine --style basic --warmup 1 --runs "$RUNS" --export-json "$t/times.json" \
    -n perfrepro --prepare "rm -rf '$t/out-pr'" "$P_CMD" \
    -n hugo --prepare "rm -rf '$t/out-hugo'" "$H_CMD" \
    -n perfrepro-unchanged --prepare true "$P_CMD" >&2
else
  time_it() { # time_it PREPARE CMD: the seconds of each of RUNS runs, one a line
    i=0
    while [ $i -lt "$RUNS" ]; do
      sh -c "$1"; a=$(date +%s.%N); sh -c "$2"; b=$(date +%s.%N)
      echo "$b - $a" | bc; i=$((i + 1))
    done
  }
  time_it "rm -rf '$t/out-pr'" "$P_CMD" >"$t/t-perfrepro"
  time_it "rm -rf '$t/out-hugo'" "$H_CMD" >"$t/t-hugo"
  python3 - "$t" >"$t/times.json" <<'EOF'
import json, sys
res = [{"command": c, "times": [float(x) for x in open("%s/t-%s" % (sys.argv[1], c)).read().split()]}
       for c in ("perfrepro", "hugo")]
json.dump({"results": res}, sys.stdout)
EOF
fi
python3 - "$t/times.json" "$pages" "$N" "${SITE_BENCH_JSON:-}" <<'EOF'
import json, statistics, sys
r = {x['command']: x['times'] for x in json.load(open(sys.argv[1]))['results']}
pages, n, out = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def per_page(times, count):
    ms = [t * 1000 / count for t in times]
    return {"median": statistics.median(ms), "min": min(ms), "max": max(ms), "runs": len(ms)}
p, h = per_page(r['perfrepro'], pages), per_page(r['hugo'], n)
print(f"perfrepro-gen site: {p['median'] * pages:.1f} ms for {pages} pages = {p['median']:.3f} ms/page (fresh output, {p['runs']} runs)")
print(f"hugo:               {h['median'] * n:.1f} ms for {n} pages = {h['median']:.3f} ms/page ({h['runs']} runs)")
if 'perfrepro-unchanged' in r:
    u = per_page(r['perfrepro-unchanged'], pages)
    print(f"perfrepro-gen site, nothing changed: {u['median']:.3f} ms/page ({u['runs']} runs)")
print(f"ratio hugo/perfrepro per page: {h['median'] / p['median']:.2f}x")
if out:
    with open(out, 'w') as f:
        json.dump({"pages": pages, "n": n, "perfrepro": p, "hugo": h}, f, indent=1)
EOF
