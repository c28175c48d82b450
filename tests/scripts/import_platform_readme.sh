#!/bin/sh
# Platforms from descriptions (issue 33): a manifest's "platform ID PATH
# --group TITLE" line makes data/platforms/ID.json from a README's machine
# section (the group's GPU line "MODEL * N", the CPU and memory lines, read
# by perfrepro-gen import-env), never by hand.  On a synthetic README:
#   - a new platform is written: device model, memory from the model's name,
#     GPUs per node, a link to the README's line, tf32 for an Ampere device;
#     the run set imported on it builds and its page links the README's
#     line; a second import is byte-identical; a source that is no https
#     link is refused by the loader;
#   - a platform file already there that agrees is rewritten as the README
#     says it (a hand title and interconnect go: the file is the import's);
#   - one that differs is refused, naming the field, both values and the
#     README's line; nothing is written;
#   - a group the README does not have is refused naming its groups; a GPU
#     line with no count is refused naming its line.
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
set -e
mkdir -p "$tmp/src/logs"
repo_copy
i=1
while [ $i -le 20 ]; do
  printf '2024-01-02 10:00:%02d [INFO]\t[TRAIN] epoch: 1, iter: %d/400, loss: 1.0, lr: 0.01, batch_cost: 0.4, reader_cost: 0.001, ips: 20.0000 samples/sec | ETA 00:02:00\n' $i $((i * 5))
  i=$((i + 1))
done >"$tmp/src/logs/toy_gpu1.log"
cat >"$tmp/src/README.md" <<'MD'
# Toy

## 二、环境介绍
### 1.物理机环境

- 单机（单卡、4卡）
  - 系统：CentOS release 7.5 (Final)
  - GPU：Tesla Q100-SXM9-48GB * 4
  - CPU：Intel(R) Xeon(R) Gold 9999 CPU @ 2.60GHz * 64
  - 内存：256 GB
- 旧机器
  - GPU：Tesla V100-SXM2-32GB * 4
- 无数
  - GPU：Tesla Q100-SXM9-48GB
- 安培
  - GPU：NVIDIA A30-PCIE-24GB × 4
MD
R='{"profile": "paddle-ips", "scope": "per_card", "unit": "samples/s"}'
# manifest PLATFORM-ID GROUP: a source, the platform line, one log on it.
manifest() {
  printf 'source\ttoy/toy\t0123456789abcdef0123456789abcdef01234567\n'
  printf 'platform\t%s\tREADME.md\t--group\t%s\n' "$1" "$2"
  printf 'toy-%s\ttoy_gpu1\tToy\tPaddle\t%s\tfp32\t1\t1\t8\t-\tsamples/s\t%s\t-\tlogs/toy_gpu1.log\n' "$1" "$1" "$R"
}
cd "$tmp/repo"
manifest Q100-SXM9-48GB-x4 '单机（单卡、4卡）' >toy.tsv
"$MEASURE" import toy.tsv --from "$tmp/src" >"$tmp/plan" 2>&1 || die "the import failed: $(cat "$tmp/plan")"
p=data/platforms/Q100-SXM9-48GB-x4.json
[ -f $p ] || die "no $p: $(cat "$tmp/plan")"
python3 - "$p" <<'PY' || die "the platform: $(cat $p)"
import json, sys
p = json.load(open(sys.argv[1]))
d = p["device"]
assert d == {"kind": "gpu", "model": "Tesla Q100-SXM9-48GB", "memory_gb": 48, "per_node": 4}, d
assert p["title"] == {"zh": "Q100-SXM9-48GB × 4", "en": "Q100-SXM9-48GB × 4"}, p["title"]
assert p["match"] == ["Q100-SXM9-48GB"], p["match"]
assert "tf32" not in p
assert p["source"] == "https://github.com/toy/toy/blob/0123456789abcdef0123456789abcdef01234567/README.md#L8", p["source"]
assert "system" not in p
PY
[ -f data/runs/toy-Q100-SXM9-48GB-x4/logs/index/toy_gpu1_speed ] || ls -R data/runs/toy-Q100-SXM9-48GB-x4 >/dev/null ||
  die "no run set on the new platform"
# The page of its run set says the machine and links the README's line.
"$GEN" build --data data --templates templates --out "$tmp/reports" >"$tmp/build" 2>&1 || die "build: $(cat "$tmp/build")"
grep -rqF 'Machine: Tesla Q100-SXM9-48GB, 48 GB per GPU, 4 GPUs per node ([where this machine is stated](https://github.com/toy/toy/blob/0123456789abcdef0123456789abcdef01234567/README.md#L8))' \
  "$tmp/reports/Toy/Paddle/README.en.md" "$tmp/reports/Toy/Paddle"/PLATFORM-*.en.md ||
  die "the page: $(grep -n 'Machine' "$tmp/reports/Toy/Paddle/README.en.md" "$tmp/reports/Toy/Paddle"/PLATFORM-*.en.md)"
# A source that is no https link is refused naming the file and field.
cp $p "$tmp/keep.json"
sed 's|"source": "https://|"source": "javascript://|' "$tmp/keep.json" >$p
"$GEN" validate --data data >"$tmp/val" 2>&1 && die "a javascript: source accepted"
grep -qF 'Q100-SXM9-48GB-x4.json' "$tmp/val" && grep -qF 'source' "$tmp/val" || die "bad source: $(cat "$tmp/val")"
cp "$tmp/keep.json" $p
# Again: the same file, byte for byte.
cp $p "$tmp/first.json"
"$MEASURE" import toy.tsv --from "$tmp/src" --replace >"$tmp/plan2" 2>&1 || die "the second import failed: $(cat "$tmp/plan2")"
cmp -s $p "$tmp/first.json" || die "a second import changed $p"
# An existing platform that agrees (the shipped one says more) becomes the import's.
cat >data/platforms/V100-SXM2-32GB-x8.json <<'JSON'
{"perfrepro": 1,
 "title": {"zh": "V100-SXM2-32GB × 8（DGX-1 32GB 类）", "en": "V100-SXM2-32GB × 8 (DGX-1 32GB class)"},
 "device": {"kind": "gpu", "model": "Tesla V100-SXM2-32GB", "memory_gb": 32, "per_node": 8},
 "interconnect": {"zh": "节点内 NVLink", "en": "NVLink within a node"},
 "match": ["V100-SXM2-32GB"]}
JSON
cp data/platforms/V100-SXM2-32GB-x8.json "$tmp/v100.json"
sed 's/\* 4$/* 8/' "$tmp/src/README.md" >"$tmp/src/README8.md"
mv "$tmp/src/README8.md" "$tmp/src/README.md"
manifest V100-SXM2-32GB-x8 '旧机器' >ok.tsv
"$MEASURE" import ok.tsv --from "$tmp/src" >"$tmp/plan3" 2>&1 || die "an agreeing platform refused: $(cat "$tmp/plan3")"
grep -q 'DGX-1' "$tmp/v100.json" || die "the test's hand file has no hand title"
grep -q 'DGX-1\|NVLink' data/platforms/V100-SXM2-32GB-x8.json && die "an agreeing platform kept its hand claims"
grep -qF '"source": "https://github.com/toy/toy/blob/0123456789abcdef0123456789abcdef01234567/README.md#L12"' data/platforms/V100-SXM2-32GB-x8.json ||
  die "an agreeing platform not rewritten: $(cat data/platforms/V100-SXM2-32GB-x8.json)"
cp data/platforms/V100-SXM2-32GB-x8.json "$tmp/v100.json"
# One that differs: 4 GPUs per node in the README, 8 in the file.
sed 's/V100-SXM2-32GB \* 8/V100-SXM2-32GB * 4/' "$tmp/src/README.md" >"$tmp/src/R" && mv "$tmp/src/R" "$tmp/src/README.md"
manifest V100-SXM2-32GB-x8 '旧机器' >bad.tsv
rc=0
"$MEASURE" import bad.tsv --from "$tmp/src" --replace >"$tmp/plan4" 2>&1 || rc=$?
[ $rc -ge 2 ] || die "a differing platform accepted (exit $rc): $(cat "$tmp/plan4")"
grep -qF 'bad.tsv:2: platform: data/platforms/V100-SXM2-32GB-x8.json differs from what README.md says' "$tmp/plan4" ||
  die "the difference not named: $(cat "$tmp/plan4")"
grep -qF 'device.per_node: the file says 8, the README 4' "$tmp/plan4" || die "the field not named: $(cat "$tmp/plan4")"
grep -qF '0123456789abcdef0123456789abcdef01234567/README.md#L12' "$tmp/plan4" || die "the README line not named: $(cat "$tmp/plan4")"
cmp -s data/platforms/V100-SXM2-32GB-x8.json "$tmp/v100.json" || die "a refused import wrote the platform"
grep -q "import bad.tsv" data/runs/toy-V100-SXM2-32GB-x8/SOURCE.md && die "a refused import wrote its run set"
# No such group; a GPU line with no count.
manifest Nope-x1 '没有' >nogroup.tsv
"$MEASURE" import nogroup.tsv --from "$tmp/src" >"$tmp/plan5" 2>&1 && die "an unknown group accepted"
grep -qF 'README.md has no environment group "没有" (its groups: ' "$tmp/plan5" || die "unknown group: $(cat "$tmp/plan5")"
manifest Nocount-x1 '无数' >nocount.tsv
"$MEASURE" import nocount.tsv --from "$tmp/src" >"$tmp/plan6" 2>&1 && die "a GPU line with no count accepted"
grep -qF 'README.md:14: GPU "Tesla Q100-SXM9-48GB" states no GPUs per node' "$tmp/plan6" || die "no count: $(cat "$tmp/plan6")"
# A device that runs FP32 as TF32 says so (the A100's FP32 note).
manifest A30-PCIE-24GB-x4 '安培' >tf32.tsv
"$MEASURE" import tf32.tsv --from "$tmp/src" >"$tmp/plan7" 2>&1 || die "the A30 import failed: $(cat "$tmp/plan7")"
python3 - data/platforms/A30-PCIE-24GB-x4.json <<'PY' || die "A30: $(cat data/platforms/A30-PCIE-24GB-x4.json)"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["tf32"] is True and p["device"]["per_node"] == 4 and p["device"]["memory_gb"] == 24, p
assert p["source"].endswith("README.md#L16"), p["source"]
PY
echo "import_platform_readme: ok"
