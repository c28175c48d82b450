#!/bin/sh
# Issue 30 on the shipped data (reports generated afresh into a folder of
# their own): item 7, each framework page's data date comes from the data it
# shows, stated as what it is (runs, published sources), never a source's
# print date alone on a page of logs; BERT-Base/NGC-PyTorch's README
# sub-heading "单机A100（单卡、8卡）" is no environment item.  Item 2, like
# with like: under each cross-framework table and headline, each column's
# estimator in words and the configuration facts that differ, a ranking only
# where they agree.
. tests/scripts/lib/preamble.sh
set -e
[ -d data/runs/perf-ResNet50-Paddle-V100-SXM2-32GB-x8 ] && [ -f data/models/ResNet50.json ] ||
  { echo "like_with_like: no shipped Perf data (skipped)"; exit 77; }
out=$(mktemp -d ./.like-with-like-XXXXXX)
cleanup_add "$out"
"$GEN" build --data data --templates templates --out "$out" >/dev/null || die "build failed"

# Item 7: the data date.
p=$out/ResNet50/NGC-PyTorch/README.en.md
grep -qF '(data date: runs 2022-06-01 – 2023-08-04; published sources 2019-05-27 – 2021-04-20)' "$p" ||
  die "$p: $(grep -o '(data date: [^)]*)' "$p")"
grep -qF '（数据日期：运行 2022-06-01 – 2023-08-04；公布来源 2019-05-27 – 2021-04-20）' "$out/ResNet50/NGC-PyTorch/README.md" ||
  die "ResNet50/NGC-PyTorch/README.md: the data date"
for p in "$out"/*/*/README.en.md; do
  grep -q 'from logs others published\|from runs measured here' "$p" || continue
  grep -qF '(data date: —)' "$p" && die "$p: a page of dated run sets without a data date"
done
grep -qF '(data date: runs 2023-07-27 – 2023-08-02)' "$out/BERT-Base/Paddle/README.en.md" ||
  die "BERT-Base/Paddle: $(grep -o '(data date: [^)]*)' "$out/BERT-Base/Paddle/README.en.md")"

# Item 7: a README sub-heading is no environment item.
# (the environment is on the machines' pages, PLATFORM-*.md, fw_split.h)
d=$out/BERT-Base/NGC-PyTorch
cat "$d"/README.en.md "$d"/PLATFORM-*.en.md >"$out/bert.en"
cat "$d"/README.md $(ls "$d"/PLATFORM-*.md | grep -v '\.en\.md$') >"$out/bert.zh"
for p in "$out/bert.en" "$out/bert.zh"; do
  grep -qF '单机A100（单卡、8卡）' "$p" && die "$p: the README sub-heading as an environment item"
  grep -qF 'NVIDIA A100-SXM4-40GB \* 8' "$p" || die "$p: the A100 machine's items are gone"
done
# Item 2: ResNet50's headline table (V100-SXM2-32GB, mixed precision,
# BS=256): each column's estimator, the facts that differ linked to their
# lines, and no ranking.
m=$out/ResNet50/README.en.md
sect=$(sed -n '/^#### Mixed precision (AMP \/ FP16) BS=256 · V100-SXM2-32GB × 8/,/^#### /p' "$m")
# The facts side by side: a row per fact, a column per framework.
echo "$sect" | grep -qF -- '| Fact | NGC PyTorch (AMP) | PaddlePaddle (FP16) | NGC TensorFlow (AMP) | NGC MXNet (FP16) |' ||
  die "$m: no table of the facts, a column per framework"
est=$(echo "$sect" | grep -F -- '| estimator | ') || die "$m: no estimator row"
echo "$est" | grep -qF -- '| estimator | the mean of records 10 to the end' ||
  die "$m: no estimator for NGC PyTorch"
echo "$est" | grep -qF '| the trimmed mean of records 11 to the end, 5 % trimmed from each end' ||
  die "$m: no estimator for Paddle"
echo "$est" | grep -qF "| the log's own summary" || die "$m: no estimator for MXNet"
for f in '| precision mode | AMP ([`resnet50_bs256_amp_gpu1` L3](' '| AMP O2 (pure FP16) (' \
         '| FP16 ([`resnet50_bs256_fp16_gpu1`' '| memory format | NCHW (' '| NHWC (' \
         '| data loader | DALI (CPU) (' '| loss scaling | static 256 (' '| dynamic, from 128 ('; do
  echo "$sect" | grep -qF -- "$f" || die "$m: the facts lack '$f'"
done
echo "$sect" | grep -qF 'perf-ResNet50-Paddle-V100-SXM2-32GB-x8/logs/train_log/resnet50_bs256_fp16_gpu1#L' ||
  die "$m: Paddle's facts not linked to their log lines"
echo "$sect" | grep -qF -- '- No ranking: the columns differ in, or do not state, precision mode, memory format, data loader, loss scaling, estimator;' ||
  die "$m: no 'No ranking' under the table"
grep -qF '*Not like with like, so no ranking: the columns differ in, or do not state, precision mode, memory format' "$m" ||
  die "$m: the chart's caption does not say it ranks nothing"
grep '^!\[Bar chart: ResNet50 v1.5 · Mixed precision (AMP / FP16) BS=256 · V100-SXM2-32GB × 8' "$m" |
  grep -qF '= no data. Not like with like, so no ranking: the columns differ in' || die "$m: the chart's alt text ranks"
grep -q '^- 不排名：各列在精度模式，内存格式，数据加载，损失缩放，估计方法上不同或未说明' "$out/ResNet50/README.md" ||
  die "ResNet50/README.md: no 不排名 under the table"
grep -q 'faster\|Like with like: at' "$m" && die "$m: a ranking of configurations that differ"
i=$out/README.en.md
grep -A3 -F -- '- [ResNet50 v1.5](ResNet50/README.en.md):' "$i" |
  grep -F 'Not like with like, so no ranking' | grep -qF "Each figure's estimator: NGC PyTorch (AMP): the mean of records 10 to the end" ||
  die "$i: ResNet50's headline does not say it ranks nothing, nor each figure's estimator"
exit 0
