#!/bin/sh
# A user's import never fails the tests of the shipped data (issue 33 #7):
# in a copy of the repository, a new model of PaddlePaddle/Perf is imported
# as docs/import.md says (its manifest beside the shipped ones in
# scripts/perf-logs/, nodes "-", run sets perf-*), the reports are built,
# and every test that checks the shipped data runs there and passes (or
# skips).  They read the shipped data's own list of manifests,
# scripts/perf-logs/SHIPPED; perf_steps_vs_logs.sh died with a Python
# traceback on nodes "-", import_perf_reimport.sh on the user's logs.
# Synthetic logs, written here.  Skips (77) without ../shared/perf.
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
set -e
[ -f ../shared/perf/MANIFEST ] || { echo "shipped_user_import: no ../shared/perf: skipped"; exit 77; }
repo_copy scripts docs Makefile
mkdir -p "$tmp/repo/tests" "$tmp/src/Toy/logs"
cp -R tests/scripts "$tmp/repo/tests/"
ln -s "$(cd ../shared && pwd)" "$tmp/shared"

echo "test licence" >"$tmp/src/LICENSE"
for g in 1 8; do
  i=0
  while [ $i -lt 30 ]; do
    echo "[2023/07/28 06:42:45] ppcls INFO: epoch:0 train step:$i loss: 1.0 ips: $((20 + g)).00000 samples/sec."
    i=$((i + 1))
  done >"$tmp/src/Toy/logs/g$g.log"
done
RULE='{"profile": "paddle-ips", "scope": "per_card", "unit": "samples/s"}'
{
  printf 'source\tPaddlePaddle/Perf\te7a07c4d39e04de5e24652daaf02d204f0209acb\n'
  printf 'published\tToy/README.md\tToy training throughput (samples/sec)\n'
  for g in 1 8; do
    printf 'perf-Toy-Paddle-V100-SXM2-32GB-x8\ttoy_bs8_fp32_gpu%s\tToy\tPaddle\tV100-SXM2-32GB-x8\tfp32\t-\t%s\t8\t-\tsamples/s\t%s\t%s\tToy/logs/g%s.log\n' \
      "$g" "$g" "$RULE" "$(( (20 + g) * g ))" "$g"
  done
} >"$tmp/repo/scripts/perf-logs/toy.tsv"
cd "$tmp/repo"
"$MEASURE" import scripts/perf-logs/toy.tsv --from "$tmp/src" >out 2>&1 || die "the import: $(cat out)"
"$GEN" build >out 2>&1 || die "the build: $(cat out)"
[ -f reports/Toy/README.en.md ] || die "no page for the imported model"
failed=
for t in perf_steps_vs_logs import_perf_reimport audit_links_shipped gen_headline_shipped \
  perf_env_on_pages perf_runsets_shipped step_traces steady_shipped suites_shipped \
  export_shipped walkthrough_import; do
  [ -f "tests/scripts/$t.sh" ] || continue
  st=0
  GEN=bin/perfrepro-gen MEASURE=bin/perfrepro-measure sh "tests/scripts/$t.sh" >"$tmp/$t.log" 2>&1 || st=$?
  case $st in 0 | 77) ;; *) failed="$failed $t"; echo "$t (exit $st): $(tail -3 "$tmp/$t.log")" >&2 ;; esac
done
[ -z "$failed" ] || die "after a user's import, these fail:$failed"
echo "shipped_user_import: ok"
