#!/bin/sh
# perfrepro-measure import --mlperf with a hostile submission or someone
# else's data folder (issue 33; docs/import.md, "MLPerf Training" and "Files
# and folders"), as import_fs_hostile.sh for the manifest import:
#   - a result file, system description, scaling.json or implementation
#     README that links out of the submission, a FIFO, a device, or a file over the
#     size limit is refused naming the file and the field, and data/ is left
#     as it was (checksums);
#   - a run folder or platform file that import --mlperf did not make is not
#     replaced without --replace (and is with it);
#   - a bad benchmark after a good one: nothing of the good one is written
#     (everything is checked before anything is written);
#   - counts past any machine (fuzz_mlperf's find) are refused;
#   - --dry-run prints the scores and writes nothing (not even a folder).
# Self-contained (a synthetic submission; no ../shared).
. tests/scripts/lib/preamble.sh
need_bins GEN MEASURE
cd "$tmp"
. "$ROOT/tests/data/mlperf/submission.sh"
sums() { (cd "$1" && find . -exec sh -c 'for f; do if [ -f "$f" ]; then sha256sum "$f"; else echo "$f"; fi; done' sh {} + | sort); }
imp() { timeout 20 "$MEASURE" import --mlperf src/Acme --repo acme/results --commit "$MLPERF_COMMIT" --data data --gen "$GEN" "$@" >out 2>err; rc=$?; }
echo "secret token" >secret.txt
fresh() { rm -rf src data && mkdir -p src data/platforms && mlperf_submission src/Acme 600000 && sums data >before; }
# refused IMPORT... : the import fails naming WHAT, and data/ is as it was
refused() {
  what=$1
  shift
  imp "$@"
  [ "$rc" -eq 2 ] || fail "$what: exit $rc, not 2 ($(cat err))"
  for w in $expect; do grep -q -- "$w" err || fail "$what: the message does not name $w: $(cat err)"; done
  sums data >now
  cmp -s before now || fail "$what: data/ changed: $(diff before now | head -4)"
  left=$(ls -a | grep '^\.data\.\(staging\|old\)\.' || true)
  [ -z "$left" ] || fail "$what: left beside data: $left"
}

# ---- sources stay inside the submission
fresh
ln -sf "$tmp/secret.txt" src/Acme/results/cpu4/resnet/result_2.txt
expect="result_2.txt result.file outside"
refused "a result file linked out of the submission"
grep -rq "secret token" data && fail "the secret was copied into data/"
fresh
rm src/Acme/results/cpu4/resnet/result_2.txt && mkfifo src/Acme/results/cpu4/resnet/result_2.txt
expect="result_2.txt FIFO"
refused "a FIFO result file"
fresh
rm src/Acme/results/cpu4/resnet/result_1.txt
if mknod src/Acme/results/cpu4/resnet/result_1.txt c 1 3 2>/dev/null; then # /dev/null's device
  expect="result_1.txt character.device"
  refused "a device as a result file"
else
  echo "mlperf_import_hostile: no mknod here: the device case skipped"
fi
fresh
truncate -s 1025M src/Acme/results/cpu2/resnet/result_3.txt
expect="result_3.txt 1074790400.bytes"
refused "a result file over 1 GiB"
fresh
ln -sf "$tmp/secret.txt" src/Acme/systems/cpu2.json
expect="systems/cpu2.json system.description outside"
refused "a system description linked out of the submission"
fresh
truncate -s 17M src/Acme/systems/cpu4.json
expect="systems/cpu4.json system.description bytes"
refused "a system description over 16 MiB"
fresh
rm src/Acme/results/cpu2/resnet/scaling.json && mkfifo src/Acme/results/cpu2/resnet/scaling.json
expect="scaling.json scaling FIFO"
refused "a FIFO scaling.json"
fresh
ln -sf "$tmp/secret.txt" src/Acme/benchmarks/resnet/implementations/cpu4/README-cpu4.md
expect="README-cpu4.md outside"
refused "an implementation README linked out of the submission"
fresh
rm src/LICENSE.md && ln -s "$tmp/secret.txt" src/LICENSE.md
expect="LICENSE.md licence outside"
refused "a licence linked out of its folder"
# counts whose product (the records' GPU count, an int) is past any machine
fresh
sed -i 's/"number_of_nodes": "4"/"number_of_nodes": "1000000"/; s/"host_processors_per_node": "1"/"host_processors_per_node": "1000000"/' src/Acme/systems/cpu4.json
expect="cpu4.json host_processor_vcpu_count devices"
refused "a system of 1.6e13 threads (fuzz_mlperf)"
# a link to another file of the submission is followed
fresh
cp src/Acme/results/cpu4/resnet/result_2.txt src/Acme/r2.txt
ln -sf ../../../r2.txt src/Acme/results/cpu4/resnet/result_2.txt
imp
[ "$rc" -eq 0 ] || fail "a link inside the submission: exit $rc: $(cat err)"

# ---- everything checked before anything is written
fresh
mkdir -p src/Acme/results/cpu4/zzz
cp src/Acme/results/cpu4/resnet/result_*.txt src/Acme/results/cpu4/zzz/
sed -i 's/"resnet"/"zzz"/' src/Acme/results/cpu4/zzz/result_*.txt
expect="zzz"
refused "a benchmark without a rule after a good one"

# ---- whose run folder, whose platform
fresh
mkdir -p data/runs/mlperf-Acme-cpu2-resnet
echo "# a measure run folder" >data/runs/mlperf-Acme-cpu2-resnet/SOURCE.md
sums data >before
expect="mlperf-Acme-cpu2-resnet --replace"
refused "a run folder import --mlperf did not make"
imp --replace
[ "$rc" -eq 0 ] || fail "--replace of a run folder: exit $rc: $(cat err)"
grep -q 'perfrepro-measure import --mlperf' data/runs/mlperf-Acme-cpu2-resnet/SOURCE.md || fail "--replace did not replace the run folder"
fresh
echo '{"id": "mlperf-Acme-cpu4", "typed": "by hand"}' >data/platforms/mlperf-Acme-cpu4.json
sums data >before
expect="mlperf-Acme-cpu4.json system.description --replace"
refused "a platform import --mlperf did not make"
imp --replace
[ "$rc" -eq 0 ] || fail "--replace of a platform: exit $rc: $(cat err)"
grep -q '"description": "Acme/systems/cpu4.json"' data/platforms/mlperf-Acme-cpu4.json || fail "--replace did not replace the platform"
# its own run folders and platforms are replaced without --replace
sed -i 's/"time_ms": 601000/"time_ms": 602000/' src/Acme/results/cpu2/resnet/result_0.txt
imp
[ "$rc" -eq 0 ] || fail "a re-import over its own folders: exit $rc: $(cat err)"

# ---- --dry-run writes nothing, and prints the scores
fresh
rm -rf data .data.import.lock && mkdir data
sums data >before
imp --dry-run
[ "$rc" -eq 0 ] || fail "--dry-run: exit $rc: $(cat err)"
grep -q '^Acme/cpu4/resnet: score 15.199999999999999 min (unscaled 10.133333333333333 min, factor 1.5), 3 of 5 runs averaged, 1 did not converge$' out ||
  fail "--dry-run does not print the score: $(cat out)"
grep -q 'dry run: nothing is written' err || fail "--dry-run does not say it writes nothing: $(cat err)"
sums data >now
cmp -s before now || fail "--dry-run wrote into data/: $(diff before now | head -4)"
[ -z "$(ls -a | grep '^\.data\.')" ] || fail "--dry-run left beside data: $(ls -a | grep '^\.data\.')"
ln -sf "$tmp/secret.txt" src/Acme/results/cpu4/resnet/result_2.txt
imp --dry-run
[ "$rc" -eq 2 ] && grep -q 'result_2.txt' err || fail "--dry-run does not check the sources: exit $rc: $(cat err)"
rm src/Acme/results/cpu4/resnet/result_2.txt && mlperf_submission src/Acme 600000
ln -sf "$tmp/secret.txt" src/Acme/benchmarks/resnet/implementations/cpu2/Dockerfile
imp --dry-run
[ "$rc" -eq 2 ] && grep -q 'cpu2/Dockerfile' err || fail "--dry-run does not check the implementation's files: exit $rc: $(cat err)"

finish "mlperf_import_hostile: ok"
