#!/bin/sh
# Per-node logs (issue 33 #4; docs/parse-rules.md, "files": "workers"): one
# case, one log per worker, combined as the source combined them (sum,
# mean, min).  Where all four workers' logs are published the figure (their
# sum) is reproduced; where only node 0's is, the audit says it cannot be
# reproduced from 1 of 4 logs instead of ❌ differs.  Synthetic logs,
# written here.
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
set -e
shipped_platforms_data
cd "$tmp"
for w in 0 1 2 3; do
  i=0
  while [ $i -lt 20 ]; do
    echo "2024-01-01 12:00:0$w INFO trainer $w: step $i, speed: $((100 + w)).0 examples/sec"
    i=$((i + 1))
  done >from/logs/worker$w.log
  i=0
  while [ $i -lt 20 ]; do
    echo "2024-01-02 12:00:0$w INFO trainer $w: step $i, speed: $((200 + w)).0 examples/sec"
    i=$((i + 1))
  done >from/logs/bs16_worker$w.log
done

# parse: each worker's log read on its own, then sum, mean or min.
value() { "$MEASURE" parse --rule "$1" from/logs/worker0.log from/logs/worker1.log \
  from/logs/worker2.log from/logs/worker3.log --json | sed -n 's/.*"FINAL_RESULT": *\([0-9.]*\).*/\1/p'; }
R='"keyword": "speed:", "scope": "global", "unit": "samples/s", "files": "workers"'
[ "$(value "{$R}")" = 406.0 ] || die "sum (the default): $(value "{$R}")"
[ "$(value "{$R, \"combine\": \"mean\"}")" = 101.5 ] || die "mean: $(value "{$R, \"combine\": \"mean\"}")"
[ "$(value "{$R, \"combine\": \"min\"}")" = 100.0 ] || die "min: $(value "{$R, \"combine\": \"min\"}")"
# Without "files": "workers" the logs are repeats: their median.
[ "$(value '{"keyword": "speed:", "scope": "global", "unit": "samples/s"}')" = 101.5 ] ||
  die "repeats are no longer their median"
st=0
"$MEASURE" parse --rule '{"keyword": "speed:", "scope": "global", "combine": "sum"}' \
  from/logs/worker0.log >out 2>err || st=$?
[ $st = 2 ] && grep -qF 'rule.combine: only used with "files": "workers"' err ||
  die "combine without workers: exit $st: $(cat err)"

# A worker's log is its own rate: per_card (x the whole job's --gpus) is refused.
st=0
"$MEASURE" parse --rule '{"keyword": "speed:", "scope": "per_card", "files": "workers"}' --gpus 32 \
  from/logs/worker0.log >out 2>err || st=$?
[ $st = 2 ] && grep -qF 'rule.files: "workers" with "scope": "per_card"' err ||
  die "per_card with workers: exit $st: $(cat err)"

line() { # CASE BS FIGURE LOGS...
  c=$1 bs=$2 fig=$3
  shift 3
  printf 'ps\t%s\tToyPS\tPaddle\tV100-SXM2-32GB-x8\tfp32\t4\t32\t%s\t-\tsamples/s\t{%s}\t%s\t%s\n' \
    "$c" "$bs" "$R" "$fig" "$(echo "$@" | tr ' ' '\t')"
}
{
  printf 'source\tO/N\te7a07c4\n'
  printf 'published\tREADME.md\tToy parameter-server throughput\n'
  line toyps_bs8_4n 8 406 logs/worker0.log logs/worker1.log logs/worker2.log logs/worker3.log
  # the source published the sum over its 4 nodes, but only node 0's log
  line toyps_bs16_4n 16 806 logs/bs16_worker0.log
} >m.tsv
st=0
"$MEASURE" import m.tsv --from from --data data --gen "$GEN" >out 2>err || st=$?
[ $st = 1 ] || die "import: exit $st, not 1 (one figure not reproduced): $(cat out err)"
grep -q 'toyps_bs8_4n .* 4x32 GPUs .* 406 *figure 406 *reproduced' out || die "the sum of 4 logs: $(cat out)"
grep -q 'toyps_bs16_4n .* 200 *figure 806 *DIFFERS' out || die "node 0's log alone: $(cat out)"

"$GEN" build >build.out 2>&1 || die "build: $(cat build.out)"
a=reports/AUDIT.en.md
grep -F 'FP32 BS=8 |' "$a" | grep -qF '✅ reproduced' || die "$a: 406 from 4 logs not reproduced: $(grep -F 'BS=8 |' "$a")"
grep -F 'FP32 BS=16 |' "$a" >row || die "$a: no row for the BS=16 figure"
grep -qF 'cannot be reproduced from 1 of 4 logs' row || die "$a: not 'from 1 of 4 logs': $(cat row)"
grep -qF '❌' row && die "$a: still ❌: $(cat row)"
grep -qF 'not reproducible from the logs published (one log per worker, not all published) 1' "$a" ||
  die "$a: the summary does not count it: $(sed -n 1,12p "$a")"
grep -qF '4 份日志中已公布的 1 份' reports/AUDIT.md || die "reports/AUDIT.md: not said in Chinese"
"$GEN" export --format jsonl >export.jsonl || die "export"
grep 'train_log/toyps_bs16_4n"' export.jsonl | grep -qF '"audit_verdict":"partial_logs"' ||
  die "the export's audit_verdict is not partial_logs: $(grep toyps_bs16 export.jsonl)"
echo "import_workers: ok"
