#!/bin/sh
# The site as a reader sees it: `perfrepro-gen site` renders a framework page
# with a table and a chart (an SVG copied beside the page), headless Chromium
# takes a screenshot, and the PNG must show the table (the stylesheet's table
# header colour) and the chart (its fill colour).  The same for a framework
# page of the repository's reports/ when there is one.
# Skips (exit 77) when Chromium is not installed: apt-get install -y chromium
. tests/scripts/lib/preamble.sh
set -e
browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
  echo "skip: chromium is not installed (apt-get install -y chromium)"; exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "skip: python3 is not installed (needed to read the screenshot)"; exit 77
fi

# A small repository: one framework page, its chart, a log it links to.
r="$tmp/repo"
mkdir -p "$r/reports/M/F" "$r/data/runs/r1/logs/train_log"
printf 'step 1 loss 2.0\n' >"$r/data/runs/r1/logs/train_log/case_1"
cat >"$r/reports/README.md" <<'EOF'
# 索引

- [M F](M/F/README.md)
EOF
cat >"$r/reports/M/F/README.md" <<'EOF'
# F M 性能复现报告

## 四、测试结果

| GPU 数 | FP32 BS=128 | FP16 BS=256 | 日志 |
| --- | ---: | ---: | --- |
| 1机1卡 | 353.66 | 887.17 | [log](../../../data/runs/r1/logs/train_log/case_1) |
| 1机8卡 | 2625.38 | 6862.17 | TODO |
| 4机32卡 | 9348.17 | 11617.57 | OOM |

![吞吐图：各配置吞吐](chart.svg)
EOF
cat >"$r/reports/M/F/chart.svg" <<'EOF'
<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200">
<rect x="0" y="0" width="400" height="200" fill="#ff00ff"/>
</svg>
EOF
"$GEN" site --reports "$r/reports" --out "$tmp/site" --templates templates >/dev/null
test -f "$tmp/site/M/F/chart.svg"
test -f "$tmp/site/files/data/runs/r1/logs/train_log/case_1.txt" # logs get an inert name

# Chromium stays inside the test's folder and off the network: its home,
# config and cache folders are under $tmp (it writes "Crash Reports" into
# $HOME/.config/chromium whatever --user-data-dir says), crash reporting and
# every background service are off, every host name resolves to nothing, and
# where we may (root, or unprivileged user namespaces) it runs in a network
# namespace of its own that has no interface but a downed loopback.
mkdir -p "$tmp/home" "$tmp/xdg-config" "$tmp/xdg-cache"
netns=""
if command -v unshare >/dev/null 2>&1; then
  if unshare -n true 2>/dev/null; then netns="unshare -n"
  elif unshare -r -n true 2>/dev/null; then netns="unshare -r -n"; fi
fi
real_cfg="${HOME:-/nonexistent}/.config/chromium"
cfg_before=$(ls -la --time-style=full-iso "$real_cfg" 2>/dev/null | LC_ALL=C sort || true)
shot() { # shot PAGE PNG
  HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/xdg-config" XDG_CACHE_HOME="$tmp/xdg-cache" \
  timeout 120 $netns "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-breakpad --disable-crash-reporter --disable-domain-reliability \
    --disable-client-side-phishing-detection --disable-default-apps --no-default-browser-check \
    --metrics-recording-only --no-pings --dns-prefetch-disable \
    --host-resolver-rules="MAP * ~NOTFOUND" --proxy-server="127.0.0.1:9" \
    --force-color-profile=srgb --force-device-scale-factor=1 --hide-scrollbars \
    --user-data-dir="$tmp/profile" --screenshot="$2" --window-size=1200,"${3:-4000}" \
    "file://$1" >"$tmp/chromium.log" 2>&1 || { cat "$tmp/chromium.log"; exit 1; }
  test -s "$2" || { echo "no screenshot of $1"; cat "$tmp/chromium.log"; exit 1; }
  cfg_after=$(ls -la --time-style=full-iso "$real_cfg" 2>/dev/null | LC_ALL=C sort || true)
  [ "$cfg_before" = "$cfg_after" ] || { echo "chromium wrote into $real_cfg"; exit 1; }
}

# count PNG RRGGBB...: prints the number of pixels of each colour (stdlib
# only: PNG decoded with zlib).
cat >"$tmp/count.py" <<'EOF'
import struct, sys, zlib
def pixels(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat, w = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
    raw, stride, prev, out = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(bytes(line)); prev = line
    return w, h, bpp, out
w, h, bpp, rows = pixels(sys.argv[1])
want = {bytes.fromhex(c): 0 for c in sys.argv[2:]}
for row in rows:
    for x in range(0, w * bpp, bpp):
        px = row[x:x + 3]
        if px in want: want[px] += 1
print(' '.join(str(want[bytes.fromhex(c)]) for c in sys.argv[2:]))
EOF

HEAD=e8eef6   # thead th background in templates/site/style.css
STRIPE=f6f8fa # even rows
CHART=ff00ff
shot "$tmp/site/M/F/index.html" "$tmp/page.png"
set -- $(python3 "$tmp/count.py" "$tmp/page.png" $HEAD $STRIPE $CHART)
echo "synthetic page: table header $1 px, striped row $2 px, chart $3 px"
[ "$1" -ge 3000 ] || { echo "the table header is not visible"; exit 1; }
[ "$2" -ge 3000 ] || { echo "the table rows are not visible"; exit 1; }
[ "$3" -ge 70000 ] || { echo "the chart is not visible (expected ~80000 px of #$CHART)"; exit 1; }

# The repository's own reports, when there are some: a framework page.
if [ -d reports ] && page=$(find reports -mindepth 3 -maxdepth 3 -name README.md | LC_ALL=C sort | head -n 1) && [ -n "$page" ]; then
  "$GEN" site --reports reports --out "$tmp/real" --templates templates >/dev/null
  html="$tmp/real/${page#reports/}"
  html="${html%README.md}index.html"
  # A framework page opens with each run set's environment and steps: its
  # first table comes further down than the synthetic page's.
  shot "$html" "$tmp/real.png" 16000
  set -- $(python3 "$tmp/count.py" "$tmp/real.png" $HEAD)
  echo "$page: table header $1 px"
  [ "$1" -ge 3000 ] || { echo "no table visible on $page"; exit 1; }
fi
# The first screen (1200×900) of the index, a model page and a framework
# page built from the shipped data (issue 34): the framework page opens with
# its summary, so its headline table is in that screen.  SHOTS=DIR keeps the
# screenshots there to look at.
if [ -f data/suites/ResNet50/NGC-PyTorch.json ]; then
  mkdir -p "$tmp/fresh"
  ln -s "$PWD/data" "$tmp/fresh/data"
  "$GEN" build --data data --templates templates --out "$tmp/fresh/reports" >/dev/null
  "$GEN" site --reports "$tmp/fresh/reports" --out "$tmp/fresh/site" --templates templates >/dev/null
  for pg in index ResNet50/index ResNet50/NGC-PyTorch/index; do
    name=$(printf '%s' "$pg" | tr / -)
    shot "$tmp/fresh/site/$pg.html" "$tmp/first-$name.png" 900
    if [ -n "${SHOTS:-}" ]; then mkdir -p "$SHOTS" && cp "$tmp/first-$name.png" "$SHOTS/"; fi
  done
  set -- $(python3 "$tmp/count.py" "$tmp/first-ResNet50-NGC-PyTorch-index.png" $HEAD)
  echo "ResNet50/NGC-PyTorch, first screen: table header $1 px"
  [ "$1" -ge 3000 ] || { echo "the framework page's summary table is not in its first screen"; exit 1; }
fi
echo "ok (chromium ran with its home under the test folder${netns:+, in a network namespace: $netns})"
