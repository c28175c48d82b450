#!/bin/sh
# Imports the raw logs of PaddlePaddle/Perf (the seeds' final reports) into
# data/runs/ with perfrepro-measure parse --out, as a user brings logs in:
# one run folder per run set (model x framework x platform x machine: the
# 32-GPU logs, from another cluster and year, are a run set of their own),
# each log parsed by the
# rule its manifest line names, its platform and its source (repository,
# commit, path) recorded in the record.  Run from the repository root:
#   sh scripts/import-perf-logs.sh [PERF_DIR]      (default ../shared/perf)
#
# The manifests are scripts/perf-logs/*.tsv, one tab-separated line per log:
#   run case model framework platform precision nodes gpus batch_size seq_len
#   unit rule figure log...
# (seq_len "-" when none; figure: the README's printed figure for exactly
# this configuration, or "-").  Rules are scripts/perf-logs/rules/RULE.json.
# Where a line names a figure, `parse --fit FIGURE --json` writes the rules
# that reproduce it (or the closest ones) to RUN/fit/CASE.json for the
# audit.  Every log's sha256 is checked against the snapshot's MANIFEST.
set -eu
PERF="${1:-../shared/perf}"
MEASURE="${MEASURE:-bin/perfrepro-measure}"
COMMIT=e7a07c4d39e04de5e24652daaf02d204f0209acb
ROOT=$(pwd)
case "$MEASURE" in /*) ;; *) MEASURE="$ROOT/$MEASURE" ;; esac
RUNS="$ROOT/data/runs"
RULES="$ROOT/scripts/perf-logs/rules"
tab=$(printf '\t')
die() { echo "import-perf-logs: $*" >&2; exit 1; }
grep -q "$COMMIT" "$PERF/SOURCE.md" || die "$PERF is not the snapshot at $COMMIT"
[ -x "$MEASURE" ] || die "$MEASURE is missing (run make first)"

# The seeds' mission names and direction ids, per model.
mission() {
  case "$1" in
  ResNet50) echo "图像分类 0" ;;
  BERT-Base) echo "语义表示 1" ;;
  Transformer) echo "机器翻译 1" ;;
  DeepLabV3plus) echo "图像分割 0" ;;
  *) die "no mission name for model $1" ;;
  esac
}

# A fresh import: the folders this script made before are replaced whole.
rm -rf "$RUNS"/perf-*
seen_runs=""
for manifest in "$ROOT"/scripts/perf-logs/*.tsv; do
  set -f # manifest fields are not patterns
  lineno=0
  while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    case "$line" in '#'* | '') continue ;; esac
    where="${manifest#"$ROOT"/}:$lineno"
    # shellcheck disable=SC2086
    IFS=$tab
    set -- $line
    unset IFS
    [ $# -ge 14 ] || die "$where: expected 14 or more tab-separated fields, got $#"
    run=$1 case=$2 model=$3 fw=$4 plat=$5 prec=$6 nodes=$7 gpus=$8 bs=$9 seq=${10}
    unit=${11} rule=${12} figure=${13}
    shift 13
    logs="$*"
    case "$logs" in *"$tab"* | *'*'* | *'?'* | *'['*) die "$where: a log path with a tab or a glob character" ;; esac
    [ -f "$RULES/$rule.json" ] || die "$where: no rule file scripts/perf-logs/rules/$rule.json"
    for log in $logs; do
      sum=$(cd "$PERF" && sha256sum "$log" | cut -d' ' -f1) || die "$where: cannot read $log"
      grep -q "^$sum  $log\$" "$PERF/MANIFEST" || die "$where: $log does not match the snapshot's MANIFEST"
    done
    seqopt=""
    [ "$seq" = - ] || seqopt="--seq-len $seq"
    m=$(mission "$model")
    dir="$RUNS/$run"
    case " $seen_runs " in
    *" $run "*) ;;
    *)
      seen_runs="$seen_runs $run"
      mkdir -p "$dir/fit"
      cp "$PERF/LICENSE" "$dir/LICENSE"
      # What the run set declares (title, environment groups): docs/data-model.md#run-sets.
      [ ! -f "$ROOT/scripts/perf-logs/runsets/$run.json" ] ||
        cp "$ROOT/scripts/perf-logs/runsets/$run.json" "$dir/runset.json"
      # The suite that reproduces its figures, written from the source's README and
      # checked against its logs (tests/scripts/perf_steps_vs_logs.sh).
      [ ! -f "$ROOT/scripts/perf-logs/suites/$run.json" ] ||
        cp "$ROOT/scripts/perf-logs/suites/$run.json" "$dir/suite.json"
      {
        echo "# $run"
        echo
        echo "Logs of PaddlePaddle/Perf (https://github.com/PaddlePaddle/Perf) at commit"
        echo "\`$COMMIT\`, copied unchanged into \`logs/train_log/\` and parsed by"
        echo "\`scripts/import-perf-logs.sh\` (\`perfrepro-measure parse --out\`). Each record under"
        echo "\`logs/index/\` names the file it came from (\`source.path\`) and the rule that read it;"
        echo "\`fit/\` holds, per case with a published figure, the rules that reproduce it"
        echo "(\`parse --fit --json\`). Why each rule, and what was checked by hand for every figure"
        base=${manifest##*/}
        echo "the rule does not reproduce: \`scripts/perf-logs/$base\` and"
        echo "\`scripts/perf-logs/${base%.tsv}-findings.md\`."
        echo "Licence: Apache License 2.0, \`LICENSE\` beside this file."
      } >"$dir/SOURCE.md"
      ;;
    esac
    # From inside the snapshot, so that the paths recorded are the repository's.
    # $seqopt and $logs are split on purpose (no spaces in them).
    # shellcheck disable=SC2086
    rc=0
    (cd "$PERF" && "$MEASURE" parse --rule "@$RULES/$rule.json" --gpus "$gpus" --nodes "$nodes" \
      --batch-size "$bs" $seqopt --precision "$prec" --unit "$unit" --model "$model" \
      --framework "$fw" --case "$case" --model-name "$case" --mission-name "${m% *}" \
      --direction-id "${m#* }" --platform "$plat" --source-repo PaddlePaddle/Perf \
      --source-commit "$COMMIT" --source-path "$1" --out "$dir" $logs >/dev/null) || rc=$?
    [ $rc -le 1 ] || die "$where: perfrepro-measure parse failed (exit $rc)"
    [ "$figure" = - ] && continue
    rc=0
    # shellcheck disable=SC2086
    (cd "$PERF" && "$MEASURE" parse --rule "@$RULES/$rule.json" --json --limit 3 \
      --fit "$figure" --gpus "$gpus" --batch-size "$bs" $seqopt --unit "$unit" $logs) \
      >"$dir/fit/$case.json" || rc=$?
    [ $rc -le 1 ] || die "$where: perfrepro-measure parse --fit failed (exit $rc)"
  done <"$manifest"
done
