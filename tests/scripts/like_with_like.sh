#!/bin/sh
# Issue 30 on the shipped data (reports generated afresh into a folder of
# their own): item 7, each framework page's data date comes from the data it
# shows, stated as what it is (runs, published sources), never a source's
# print date alone on a page of logs; BERT-Base/NGC-PyTorch's README
# sub-heading "单机A100（单卡、8卡）" is no environment item.  Item 2, like
# with like: under each cross-framework table and headline, each column's
# estimator in words and the configuration facts that differ, a ranking only
# where they agree.
set -eu
GEN=${GEN:-bin/perfrepro-gen}
[ -d data/runs/perf-ResNet50-Paddle-V100-SXM2-32GB-x8 ] && [ -f data/models/ResNet50.json ] ||
  { echo "like_with_like: no shipped Perf data (skipped)"; exit 77; }
fail() { echo "like_with_like: $*"; exit 1; }
out=$(mktemp -d ./.like-with-like-XXXXXX)
trap 'rm -rf "$out"' EXIT INT TERM
"$GEN" build --data data --templates templates --out "$out" --no-charts >/dev/null || fail "build failed"

# Item 7: the data date.
p=$out/ResNet50/NGC-PyTorch/README.en.md
grep -qF '(data date: runs 2022-06-01 – 2023-08-04; published sources 2019-05-27 – 2021-04-20)' "$p" ||
  fail "$p: $(grep -o '(data date: [^)]*)' "$p")"
grep -qF '（数据日期：运行 2022-06-01 – 2023-08-04；公布来源 2019-05-27 – 2021-04-20）' "$out/ResNet50/NGC-PyTorch/README.md" ||
  fail "ResNet50/NGC-PyTorch/README.md: the data date"
for p in "$out"/*/*/README.en.md; do
  grep -q 'from logs others published\|from runs measured here' "$p" || continue
  grep -qF '(data date: —)' "$p" && fail "$p: a page of dated run sets without a data date"
done
grep -qF '(data date: runs 2023-07-27 – 2023-08-02)' "$out/BERT-Base/Paddle/README.en.md" ||
  fail "BERT-Base/Paddle: $(grep -o '(data date: [^)]*)' "$out/BERT-Base/Paddle/README.en.md")"

# Item 7: a README sub-heading is no environment item.
for p in "$out/BERT-Base/NGC-PyTorch/README.en.md" "$out/BERT-Base/NGC-PyTorch/README.md"; do
  grep -qF '单机A100（单卡、8卡）' "$p" && fail "$p: the README sub-heading as an environment item"
  grep -qF 'NVIDIA A100-SXM4-40GB \* 8' "$p" || fail "$p: the A100 machine's items are gone"
done
exit 0
