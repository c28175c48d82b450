#!/bin/sh
# `@ID` figures (issue 33 #7; docs/import.md): a line's figure taken from the
# table a manifest's `table` lines import.  When no table prints the log's
# exact precision mode, the table of another mode of its precision class
# (data/precision-classes.json) is taken, though a table of another class
# differs in precision alone too: an FP16 log under the AMP column, beside
# an FP32 one (it was "no figure for ...").  Two tables of its class are an
# error naming both candidates.  Synthetic README and logs, written here.
. tests/scripts/lib/preamble.sh
set -e
mkdir -p "$tmp/data/runs" "$tmp/data/published" "$tmp/from/logs"
cp -R data/platforms data/precision-classes.json "$tmp/data/"
cd "$tmp"
echo "test licence" >from/LICENSE
i=0
while [ $i -lt 30 ]; do
  echo "[2023/07/28 06:42:45] ppcls INFO: epoch:0 train step:$i loss: 1.0 ips: 20.00000 samples/sec."
  i=$((i + 1))
done >from/logs/fp16.log
cat >from/README.md <<'EOF'
# Toy

## Results

| GPUs | FP32(BS=8) | AMP(BS=8) | BF16(BS=8) |
|:-----:|:-----:|:-----:|:-----:|
| 1 | 10.5 | 20.00 | 21.5 |
EOF
TAB=$(printf '\t')
table() { # COLUMN PRECISION
  printf 'table\tt\tREADME.md\t--after\tResults\t--column\t%s\t--model\tToy\t--framework\tPaddle\t--precision\t%s\t--batch-size\t8\t--unit\tsamples/s\t--platform\tV100-SXM2-32GB-x8\n' "$1" "$2"
}
{
  printf 'source\tO/N\te7a07c4\n'
  table 'FP32(BS=8)' fp32
  table 'AMP(BS=8)' amp
  printf 'r\ttoy_bs8_fp16_gpu1\tToy\tPaddle\tV100-SXM2-32GB-x8\tfp16\t-\t1\t8\t-\tsamples/s\t{"profile": "paddle-ips", "scope": "per_card", "unit": "samples/s"}\t@t\tlogs/fp16.log\n'
} >m.tsv
st=0
"$MEASURE" import m.tsv --from from --data data --gen "$GEN" >out 2>err || st=$?
[ $st = 0 ] || die "FP16 log under the AMP column beside an FP32 one: exit $st: $(cat err)"
grep -q 'toy_bs8_fp16_gpu1 .* figure 20.00 *reproduced' out || die "not the AMP cell: $(cat out)"
grep -q '"printed": "20.00"' data/runs/r/fit/toy_bs8_fp16_gpu1.json 2>/dev/null ||
  grep -q '20.00' data/runs/r/fit/toy_bs8_fp16_gpu1.json || die "the fit report searched another figure"

# Two tables of its class (AMP and BF16): refused, naming both.
rm -rf data/runs/r data/published/t.json
{
  printf 'source\tO/N\te7a07c4\n'
  table 'FP32(BS=8)' fp32
  table 'AMP(BS=8)' amp
  table 'BF16(BS=8)' bf16
  printf 'r\ttoy_bs8_fp16_gpu1\tToy\tPaddle\tV100-SXM2-32GB-x8\tfp16\t-\t1\t8\t-\tsamples/s\t{"profile": "paddle-ips", "scope": "per_card", "unit": "samples/s"}\t@t\tlogs/fp16.log\n'
} >m.tsv
st=0
"$MEASURE" import m.tsv --from from --data data --gen "$GEN" >out 2>err || st=$?
[ $st = 2 ] || die "two tables of the class: exit $st, not 2: $(cat out err)"
for w in 'm.tsv:5' figure '(amp, class mixed' '(bf16, class mixed' '(fp32, class fp32)'; do
  grep -qF -- "$w" err || die "two tables of the class: \"$w\" not in: $(cat err)"
done
[ ! -d data/runs/r ] || die "a refused import wrote data/runs/r"
[ -z "${SHOW:-}" ] || cat err
echo "import_cells: ok"
