#!/bin/sh
# Imports the raw logs of PaddlePaddle/Perf (the seeds' final reports) into
# data/runs/ with `perfrepro-measure import`, one call per manifest, as a user
# brings logs in (docs/import.md): one run folder per run set (model x
# framework x platform x machine: the 32-GPU logs, from another cluster and
# year, are a run set of their own), each log parsed by the rule its manifest
# line names, its platform and its source (repository, commit, path) recorded
# in the record, a fit report (RUN/fit/CASE.json) per printed figure.  Run
# from the repository root:
#   sh scripts/import-perf-logs.sh [PERF_DIR]      (default ../shared/perf)
#
# The manifests are those scripts/perf-logs/SHIPPED lists (format:
# docs/import.md; a manifest of your own beside them is yours to import with
# `perfrepro-measure import`, and this script leaves its run sets alone); rules
# are scripts/perf-logs/rules/RULE.json, run-set declarations runsets/RUN.json
# and suites suites/RUN.json.  What this script adds to the command: every
# log's sha256 is checked against the snapshot's MANIFEST first, and the
# perf-* folders these manifests imported and no longer name are removed (a
# run set renamed leaves nothing behind).
set -eu
PERF="${1:-../shared/perf}"
MEASURE="${MEASURE:-bin/perfrepro-measure}"
COMMIT=e7a07c4d39e04de5e24652daaf02d204f0209acb
die() { echo "import-perf-logs: $*" >&2; exit 1; }
MANIFESTS=$(grep -v '^#' scripts/perf-logs/SHIPPED | sed 's|^|scripts/perf-logs/|')
grep -q "$COMMIT" "$PERF/SOURCE.md" || die "$PERF is not the snapshot at $COMMIT"
[ -x "$MEASURE" ] || die "$MEASURE is missing (run make first)"
tab=$(printf '\t')

# The logs the manifests name are the snapshot's, byte for byte.
for manifest in $MANIFESTS; do
  awk -F'\t' '!/^#/ && NF >= 14 && $1 !~ /^(source|mission|table|env|published)$/ { for (i = 14; i <= NF; i++) print FILENAME ":" FNR "\t" $i }' \
    "$manifest" | while IFS=$tab read -r where log; do
    sum=$(cd "$PERF" && sha256sum "$log" | cut -d' ' -f1) || die "$where: cannot read $log"
    grep -q "^$sum  $log\$" "$PERF/MANIFEST" || die "$where: $log does not match the snapshot's MANIFEST"
  done
done

# Run sets no manifest names any more (renamed) go; the others are rebuilt by
# their manifest, which leaves every file whose bytes do not change as it was.
# Only run sets these manifests imported (their SOURCE.md names one): a
# user's own import into perf-* is theirs.
names=$(awk -F'\t' '!/^#/ && NF >= 14 && $1 !~ /^(source|mission|table|env|published)$/ { print $1 }' \
  $MANIFESTS | sort -u)
for dir in data/runs/perf-*; do
  [ -d "$dir" ] || continue
  mine=0
  for manifest in $MANIFESTS; do
    grep -qF "\`perfrepro-measure import $manifest\`" "$dir/SOURCE.md" 2>/dev/null && mine=1
  done
  [ $mine = 1 ] || continue
  printf '%s\n' "$names" | grep -qxF "${dir#data/runs/}" || rm -rf "$dir"
done
for manifest in $MANIFESTS; do
  rc=0
  "$MEASURE" import "$manifest" --from "$PERF" >/dev/null || rc=$?
  # 1: imported, with figures the rules do not reproduce (the findings say why).
  [ $rc -le 1 ] || die "$manifest: perfrepro-measure import failed (exit $rc)"
done
