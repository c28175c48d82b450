#!/bin/sh
# import --mlperf makes a platform per system from its description
# (systems/SYSTEM.json): a synthetic CPU-only cluster (4 nodes, no
# accelerators, 1 socket x 8 cores x 16 threads) becomes a CPU platform of
# 4 nodes and 16 threads per node, which perfrepro-gen validates, with one
# record per run (an aborted run a failure, "not_converged"); a second
# import changes nothing; a count that is no number is refused naming the
# file and the key; the implementation's README, Dockerfile and config
# become the run set's suite.json (steps), and a README that names no
# config is refused.  Exit 0 pass, other fail.
. tests/scripts/lib/preamble.sh
sub="$tmp/Acme"
mkdir -p "$sub/systems" "$sub/results/cpu4/resnet" "$tmp/data/platforms"
echo "Apache License 2.0" >"$tmp/LICENSE.md"
cat >"$sub/systems/cpu4.json" <<'J'
{"submitter": "Acme", "system_name": "Acme CPU cluster", "number_of_nodes": "4",
 "host_processors_per_node": "1", "host_processor_model_name": "AMD EPYC 7302",
 "host_processor_core_count": "8", "host_processor_vcpu_count": "16",
 "host_memory_capacity": "256 GB", "accelerators_per_node": "0",
 "accelerator_model_name": "", "accelerator_memory_capacity": "",
 "accelerator_interconnect": "", "framework": "PyTorch 2.3",
 "other_software_stack": {"python": "3.11"}}
J
i=0
for ms in 600000 540000 660000 630000 1234567; do
    status=success
    [ "$ms" = 1234567 ] && status=aborted
    {
        echo ':::MLLOG {"key": "submission_benchmark", "value": "resnet", "time_ms": 1}'
        echo ':::MLLOG {"key": "global_batch_size", "value": 640, "time_ms": 1}'
        echo ':::MLLOG {"key": "run_start", "value": null, "time_ms": 1000, "metadata": {}}'
        echo ":::MLLOG {\"key\": \"run_stop\", \"value\": null, \"time_ms\": $((1000 + ms)), \"metadata\": {\"status\": \"$status\"}}"
    } >"$sub/results/cpu4/resnet/result_$i.txt"
    i=$((i + 1))
done
# the implementation the results came from: its README's steps become the
# run set's suite
impl="$sub/benchmarks/resnet/implementations/cpu4"
mkdir -p "$impl"
printf 'ARG FROM_IMAGE_NAME=nvcr.io/nvidia/mxnet:24.04-py3\nFROM ${FROM_IMAGE_NAME}\n' >"$impl/Dockerfile"
printf 'export DGXNNODES=4\nexport WALLTIME=30\n' >"$impl/config_CPU4.sh"
printf '# Steps\n\n```\nsource config_CPU4.sh\nCONT=x sbatch -N ${DGXNNODES} run.sub\n```\n' >"$impl/README-cpu4.md"
"$MEASURE" import --mlperf "$sub" --repo acme/results --commit 0123456789abcdef0123456789abcdef01234567 --data "$tmp/data" >"$tmp/out" 2>&1 || die "import: $(cat "$tmp/out")"
/usr/bin/python3 - "$tmp/data/runs/mlperf-Acme-cpu4-resnet/suite.json" <<'PY' || die "suite.json"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["image"] == "nvcr.io/nvidia/mxnet:24.04-py3", s.get("image")
assert s["source"]["path"] == "Acme/benchmarks/resnet/implementations/cpu4", s["source"]
assert s["steps"]["setup"] == [["docker", "build", "--pull", "-t", "{CONT}", "."]], s["steps"]
run = s["steps"]["multi_node"][0]
assert run[-1] == '. ./config_CPU4.sh && exec sbatch -N "$DGXNNODES" -t "$WALLTIME" run.sub', run
assert s["matrix"]["nodes"] == [4] and s["matrix"]["repeats"] == 5, s["matrix"]
assert s["matrix"]["batch_size"] == [10], s["matrix"]  # 640 over 4 x 16
assert s["rule"]["profile"] == "mllog" and s["rule"]["non_converged"] == "worst", s["rule"]
PY
p="$tmp/data/platforms/mlperf-Acme-cpu4.json"
[ -f "$p" ] || die "no platform $p"
/usr/bin/python3 - "$p" <<'PY' || die "platform content: $(cat "$p")"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["device"] == {"kind": "cpu", "model": "AMD EPYC 7302", "per_node": 16}, p["device"]
s = p["system"]
assert s["nodes"] == 4 and s["host"]["threads"] == 16 and s["host"]["cores"] == 8, s
assert s["description"] == "Acme/systems/cpu4.json" and s["software"] == {"python": "3.11"}, s
PY
"$GEN" validate --data "$tmp/data" >"$tmp/v" 2>&1 || die "gen validate: $(cat "$tmp/v")"
# 9, 10, 10.5, 11 and an aborted run (the slowest, dropped with 9): 10.5
grep -q 'score 10.5 min' "$tmp/out" || die "score: $(cat "$tmp/out")"
# one record per run: minutes to 17 digits, the aborted run a failure
/usr/bin/python3 - "$tmp/data/runs/mlperf-Acme-cpu4-resnet" <<'PY' || die "records"
import json, os, sys
run = sys.argv[1]
recs = [json.load(open(os.path.join(run, "logs/index", f))) for f in sorted(os.listdir(os.path.join(run, "logs/index")))]
assert len(recs) == 5, len(recs)
bad = [r for r in recs if r["JOB_FAIL_FLAG"]]
assert len(bad) == 1 and bad[0]["failure"]["reason"] == "not_converged", bad
assert bad[0]["metrics"]["time_to_train_min"] == 1234567 / 60000, bad[0]["metrics"]
ok = sorted(r["FINAL_RESULT"] for r in recs if not r["JOB_FAIL_FLAG"])
assert ok == [9, 10, 10.5, 11], ok
r = recs[0]
assert r["UNIT"] == "min" and r["nodes"] == 4 and r["gpus_per_node"] == 16, r
assert r["platform"] == "mlperf-Acme-cpu4", r["platform"]
assert r["metrics"]["mlperf_score"]["score_min"] == 10.5, r["metrics"]
assert r["source"]["path"] == "Acme/results/cpu4/resnet/" + os.path.basename(r["log_file"]), r["source"]
for f in ("SOURCE.md", "LICENSE", "logs/train_log/result_0.txt"):
    assert os.path.isfile(os.path.join(run, f)), f
PY
# two run sets with steps: each names its own run folder (the second's
# named the first's machine before it)
sed 's/"number_of_nodes": "4"/"number_of_nodes": "2"/' "$sub/systems/cpu4.json" >"$sub/systems/cpu2.json"
cp -r "$sub/results/cpu4" "$sub/results/cpu2"
cp -r "$impl" "$sub/benchmarks/resnet/implementations/cpu2"
mv "$sub/benchmarks/resnet/implementations/cpu2/README-cpu4.md" "$sub/benchmarks/resnet/implementations/cpu2/README-cpu2.md"
"$MEASURE" import --mlperf "$sub" --repo acme/results --commit 0123456789abcdef0123456789abcdef01234567 --data "$tmp/data" >"$tmp/out" 2>&1 || die "import of two systems: $(cat "$tmp/out")"
"$GEN" build --data "$tmp/data" --templates templates --out "$tmp/reports" >"$tmp/b" 2>&1 ||
    die "gen build: $(cat "$tmp/b")"
# (the run sets' steps are on the machines' pages, PLATFORM-*.md, fw_split.h)
cat "$tmp/reports/MLPerf-ResNet50/MLPerf/README.en.md" "$tmp/reports/MLPerf-ResNet50/MLPerf"/PLATFORM-*.en.md |
    grep 'run folder' >"$tmp/folders"
[ "$(grep -c '^- Run set “mlperf-Acme-cpu[24]-resnet”: run folder `mlperf-Acme-cpu[24]-resnet`, suite' "$tmp/folders")" -eq 2 ] ||
    die "run folders: $(cat "$tmp/folders")"
rm -rf "$tmp/reports" "$sub/systems/cpu2.json" "$sub/results/cpu2" "$sub/benchmarks/resnet/implementations/cpu2" \
    "$tmp/data/runs/mlperf-Acme-cpu2-resnet" "$tmp/data/platforms/mlperf-Acme-cpu2.json"
# the framework page shows the score, the unscaled mean and the runs averaged
"$GEN" build --data "$tmp/data" --templates templates --out "$tmp/reports" >"$tmp/b" 2>&1 ||
    die "gen build: $(cat "$tmp/b")"
grep -q '^| Acme CPU cluster (cpu4) | 4 nodes × 16 threads | 640 | 10.500 | 10.500 | 1 | 3 of 5 (1 did not converge) |$' \
    "$tmp/reports/MLPerf-ResNet50/MLPerf/README.en.md" || die "no score row: $(grep -n 'Acme' "$tmp/reports/MLPerf-ResNet50/MLPerf/README.en.md")"
rm -rf "$tmp/reports"
# a second import writes the same bytes
cp -r "$tmp/data" "$tmp/first"
"$MEASURE" import --mlperf "$sub" --repo acme/results --commit 0123456789abcdef0123456789abcdef01234567 --data "$tmp/data" >/dev/null 2>&1 || die "second import"
diff -r "$tmp/data" "$tmp/first" >/dev/null || die "a second import changed data"
# a README that sources no config names what is missing
sed 's/source config_CPU4.sh/. config_CPU4.sh/' "$impl/README-cpu4.md" >"$tmp/s" && mv "$tmp/s" "$impl/README-cpu4.md"
"$MEASURE" import --mlperf "$sub" --repo acme/results --commit 0123456789abcdef0123456789abcdef01234567 --data "$tmp/data" >"$tmp/out" 2>&1 && die "a README without its config imported"
grep -q 'README-cpu4.md.*source config_' "$tmp/out" || die "README refusal: $(cat "$tmp/out")"
rm -r "$sub/benchmarks"
# a count that is no number is refused, naming the file and the key
sed 's/"number_of_nodes": "4"/"number_of_nodes": "four"/' "$sub/systems/cpu4.json" >"$tmp/s" &&
    mv "$tmp/s" "$sub/systems/cpu4.json"
"$MEASURE" import --mlperf "$sub" --repo acme/results --commit 0123456789abcdef0123456789abcdef01234567 --data "$tmp/data" >"$tmp/out" 2>&1 && die "\"four\" nodes imported"
grep -q 'cpu4.json.*number_of_nodes.*"four"' "$tmp/out" || die "refusal: $(cat "$tmp/out")"
# --mlperf with a manifest is a usage error
"$MEASURE" import m.txt --mlperf "$sub" >"$tmp/out" 2>&1
[ $? -eq 2 ] || die "--mlperf with a manifest: not exit 2"
echo ok
