#!/bin/sh
# Issue 23, on the shipped data (reports generated afresh into a folder of
# their own): the index's headlines are reproduced figures on the seeds'
# platform (V100-SXM2-32GB) for ResNet50, BERT, DeepLabV3+ and Transformer,
# none TODO, each flag visible, each date its run set's; models with no
# figure are listed apart as planned.  The model pages flag mmseg's 243†
# (178.7 % efficiency) and PyTorch's 1070.37† as the framework pages do;
# Paddle's A100 FP32 8-GPU cell says Perf printed 5333.558 where its log
# gives 4412.46, linking to the audit's line; the main platform comes first,
# CPU runs have a section of their own, TODO-only tables are planned lists.
# The audit names what imported each run set.
. tests/scripts/lib/preamble.sh
set -e
[ -d data/runs/perf-ResNet50-Paddle-A100-SXM4-40GB-x8 ] && [ -f data/models/ResNet50.json ] ||
  { echo "gen_headline_shipped: no shipped Perf data (skipped)"; exit 77; }
# Inside the repository, so that check can follow the links to docs/ and data/.
out=$(mktemp -d ./.gen-headline-XXXXXX)
cleanup_add "$out"
"$GEN" build --data data --templates templates --out "$out" --no-charts >/dev/null || die "build failed"
"$GEN" check --reports "$out" --root . >/dev/null || die "check: $("$GEN" check --reports "$out" --root . 2>&1 | tail -3)"

i=$out/README.md
for m in 'ResNet50 v1.5](ResNet50' 'BERT-Base pretraining](BERT-Base' 'DeepLabV3+](DeepLabV3plus' 'Transformer (big)](Transformer'; do
  grep -F -- "- [$m/README.md)：" "$i" | grep -qF 'V100-SXM2-32GB × 8' || die "$i: $m: headline not on V100-SXM2-32GB"
  rows=$(grep -F "| [$m/README.md) |" "$i") || die "$i: $m: no rows"
  echo "$rows" | grep -qF 'TODO' && die "$i: $m: a TODO headline: $rows"
  echo "$rows" | grep -vqF '‡' && die "$i: $m: a headline figure not reproduced: $rows"
  echo "$rows" | grep -qF '| — |' && [ "$m" != 'Transformer (big)](Transformer' ] && die "$i: $m: a figure without date: $rows"
done
grep -F '| [BERT-Base pretraining](BERT-Base/README.md) | [PaddlePaddle]' "$i" | grep -qF '5355.66‡' ||
  die "$i: BERT Paddle is not Perf's V100-32GB AMP BS=96 5355.66"
grep -F '| [BERT-Base pretraining](BERT-Base/README.md) | [NGC PyTorch]' "$i" | grep -qF '5055.57‡' ||
  die "$i: BERT NGC PyTorch is not 5055.57"
grep -F '| [DeepLabV3+](DeepLabV3plus/README.md) | [mmsegmentation' "$i" | grep -q '25.65‡.*❗a | 2022-02-10 |' ||
  die "$i: mmseg's 25.65 (3 records) without its flag or its run set's date"
grep -qF -- '- ❗a DeepLabV3+ · mmsegmentation (NGC PyTorch): 1机8卡：该数据只取自日志中的 3 条记录' "$i" ||
  die "$i: no footnote for mmseg's flag"
# The headline section (up to "二、模型报告"); the list of comparisons below
# may name a source revision's date in a comparison's title.
sed -n '1,/^## 二、/p' "$i" | grep -qF '2021-04-20' && die "$i: a 2021 source date beside a figure of another date"
grep -qF '### 计划中（尚无数字）' "$i" || die "$i: no planned list"
grep -qF -- '- [GPT](GPT/README.md)：[Megatron-LM (PyTorch)](GPT/Megatron/README.md)' "$i" || die "$i: GPT not planned"
grep -q '^| \[GPT\](GPT/README.md) |' "$i" && die "$i: GPT as a row of dashes"
grep -qF 'V100-SXM2-32GB × 8, 1 node × 8 GPUs (declared in `data/models/ResNet50.json`)' "$out/README.en.md" ||
  die "README.en.md: ResNet50's headline line"

d=$out/DeepLabV3plus/README.md
grep -qF '| 4 | 32 | 243† ❗' "$d" || die "$d: 243 unflagged"
grep -F 'mmsegmentation (NGC PyTorch): 4机32卡：扩展效率 178.7%' "$d" >/dev/null || die "$d: no 178.7 % footnote"
grep -qF '| 4 | 32 | 243† ❗' "$out/DeepLabV3plus/README.en.md" || die "DeepLabV3plus/README.en.md: 243 unflagged"

r=$out/ResNet50/README.md
grep -qF '| 1070.37† ❗' "$r" || die "$r: 1070.37 unflagged"
grep -qF '吞吐 1070.37 低于 1机4卡 的 1079.19' "$r" || die "$r: no footnote for 1070.37"
grep -F '[4412.46‡]' "$r" | grep -F '5333.558†' | grep -F -- '-17.27%' | grep -qF '](../AUDIT.md#-resnet50-v15--paddle--fp32-bs256--1机8卡--a100-sxm4-40gb' ||
  die "$r: the 4412.46 cell does not say Perf printed 5333.558 with a link to the audit"
grep -F '[4412.46‡]' "$out/ResNet50/README.en.md" | grep -qF 'printed 5333.558†, -17.27%; [audit](../AUDIT.en.md#' ||
  die "ResNet50/README.en.md: the 4412.46 cell"
grep -qF '#### ❌ ResNet50 v1.5 · Paddle · FP32 BS=256 · 1机8卡 · A100-SXM4-40GB × 8' "$out/AUDIT.md" ||
  die "AUDIT.md: no heading for 5333.558"
# Sections: the headline's platform first; the CPU apart, after the GPUs.
first=$(sed -n '/^## 一、吞吐对比/,/^## /p' "$r" | grep -m1 '^### ')
[ "$first" = '### V100-SXM2-32GB × 8' ] || die "$r: first section is $first"
sed -n '/^## 一、吞吐对比/,/^## 二/p' "$r" | grep -q '^### AMD EPYC' && die "$r: the CPU beside the GPUs"
sed -n '/^## 二、CPU 上的运行/,/^## 三/p' "$r" | grep -q '^### AMD EPYC' || die "$r: no CPU section"
grep -q '^## 2. Runs on CPUs' "$out/ResNet50/README.en.md" || die "ResNet50/README.en.md: no CPU section"
# TODO-only configurations: one planned list, no all-TODO table.
sed -n '/^### Tesla V100 16GB/,/^##/p' "$r" | grep -qF -- '- FP32 BS=32——[PyTorch](PyTorch/README.md)：1机1卡，1机2卡，1机4卡，1机8卡，2机16卡，4机32卡' ||
  die "$r: seed 003's TODO configurations are not a planned list"
grep -q '^| 1 | 1 | TODO |$' "$r" && die "$r: an all-TODO table"

a=$out/AUDIT.md
grep -qF '由 `scripts/import-perf-logs.sh` 用' "$a" && die "$a: still says one script imported every log"
# Each run set names the manifest perfrepro-measure import read it with.
grep -F '由 `perfrepro-measure import scripts/perf-logs/resnet50.tsv` 导入' "$a" |
  grep -qF '`perf-ResNet50-Paddle-A100-SXM4-40GB-x8`' ||
  die "$a: what imported the Paddle A100 run set"
echo "gen_headline_shipped: ok"
