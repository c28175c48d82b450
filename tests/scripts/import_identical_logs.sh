#!/bin/sh
# Byte-identical logs behind two figures (issue 33 #6): the import's plan
# names each pair (manifest lines, cases, paths) and standard error warns;
# the audit page flags the two figures under "Figures that cannot be
# right".  Distinct logs are not flagged.  Synthetic logs, written here.
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
set -e
shipped_platforms_data
cd "$tmp"
toylog() { # IPS [SALT]
  i=0
  while [ $i -lt 30 ]; do
    echo "[2023/07/28 06:42:45] ppcls INFO: epoch:0 train step:$i loss: 1.0${2:-} ips: $1 samples/sec."
    i=$((i + 1))
  done
}
toylog 20.00000 >from/logs/gpu1.log
cp from/logs/gpu1.log from/logs/gpu8.log   # the same run, published as the 8-GPU log
toylog 20.00000 1 >from/logs/gpu1_amp.log  # another run: not flagged
toylog 20.00000 2 >from/logs/gpu8_amp.log
RULE='{"profile": "paddle-ips", "scope": "per_card", "unit": "samples/s"}'
line() { printf 'r\t%s\tToy\tPaddle\tV100-SXM2-32GB-x8\t%s\t-\t%s\t8\t-\tsamples/s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$RULE" "$4" "$5"; }
{
  printf 'source\tO/N\te7a07c4\n'
  printf 'published\tREADME.md\tToy throughput\n'
  line toy_bs8_fp32_gpu1 fp32 1 20 logs/gpu1.log
  line toy_bs8_fp32_gpu8 fp32 8 160 logs/gpu8.log
  line toy_bs8_amp_gpu1 amp 1 20 logs/gpu1_amp.log
  line toy_bs8_amp_gpu8 amp 8 160 logs/gpu8_amp.log
} >m.tsv
st=0
"$MEASURE" import m.tsv --from from --data data --gen "$GEN" >out 2>err || st=$?
[ $st = 0 ] || die "import: exit $st: $(cat out err)"
grep -qF 'warning: identical logs: m.tsv:3 (r, case toy_bs8_fp32_gpu1) and m.tsv:4 (r, case toy_bs8_fp32_gpu8) read byte-identical files (logs/gpu1.log, logs/gpu8.log)' out ||
  die "the plan does not name the identical logs: $(cat out)"
[ "$(grep -c 'identical logs' out)" = 1 ] || die "distinct logs flagged: $(cat out)"
grep -qF 'warning: 1 pair of byte-identical logs' err || die "no warning on standard error: $(cat err)"

"$GEN" build >build.out 2>&1 || die "build: $(cat build.out)"
a=reports/AUDIT.en.md
grep -F 'byte-identical logs' "$a" >twins || die "$a: the identical logs are not flagged"
[ "$(wc -l <twins)" = 1 ] || die "$a: more than the one pair flagged: $(cat twins)"
grep -qF '(#fig-toy-paddle-v100-sxm2-32gb-x8-fp32-bs8-1x1)' twins &&
  grep -qF '(#fig-toy-paddle-v100-sxm2-32gb-x8-fp32-bs8-1x8)' twins ||
  die "$a: the flag does not link both figures: $(cat twins)"
grep -qF '逐字节相同' reports/AUDIT.md 2>/dev/null || grep -rqF '逐字节相同' reports/AUDIT*.md ||
  die "the Chinese audit does not flag them"
[ -z "${SHOW:-}" ] || cat twins
echo "import_identical_logs: ok"
